"""The table on a phone (a touch screen of device scale 3, held upright and sideways) and with a
keyboard and a screen reader: what can be measured of "pleasant" and "usable" is checked at every
turn of the player (no page wider than the screen, every card of the hand under a finger, action
buttons a finger can hit, the seats on the felt and apart), and moves are made by tapping or
with Tab and Enter alone. Deterministic as the rest of the suite: fixed seeds, and the page is
read only when the table waits on the player (``helpers.wait_turn``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import LiveServer, Pages, screenshot
from .helpers import (
    create_table,
    enter,
    fixed_seed,
    hand,
    robots_until_me,
    seed_where,
    state,
    step,
    wait_turn,
    wait_version_change,
)

SIZES = {"portrait": (390, 844), "landscape": (844, 390)}
#: A game, its player count, the cards of a first hand (Freeze's layout is played with a mode
#: first: its own tests follow).
GAMES = [
    ("contrecarte", 6, 7),
    ("tarot", 5, 15),
    ("belote", 4, 5),
    ("contree", 4, 8),
    ("yaniv", 4, 5),
    ("barbu", 5, 10),
    ("motton", 4, 10),
]
#: The least height of a control a finger taps (WCAG's target size is 24 px, platforms ask 44).
MIN_TAP = 40

#: Where a finger taps a card of the hand: the middle of the strip the next card of its row
#: leaves visible (all of it for a row's last card), 60% down; null when the card is not there.
_TAP_POINT = """el => {
  const r = el.getBoundingClientRect();
  let right = r.right;
  const next = el.nextElementSibling;
  if (next && next.classList.contains('card')) {
    const n = next.getBoundingClientRect();
    if (Math.abs(n.top - r.top) < r.height / 2) right = Math.min(right, n.left);
  }
  return {x: (r.left + right) / 2 - r.left, y: r.height * 0.6, strip: right - r.left};
}"""

#: The cards of the hand a finger cannot reach: outside the screen's width, a strip under 24 px,
#: or another element where the finger lands (each card is scrolled into view first).
_UNREACHABLE = """hand => [...hand.querySelectorAll('.card')].flatMap(el => {
  el.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const p = (TAP_POINT)(el);
  const x = r.left + p.x, y = r.top + p.y;
  const hit = document.elementFromPoint(x, y);
  const ok = r.left >= 0 && r.right <= innerWidth && p.strip >= 24
    && hit && hit.closest('.card') === el;
  return ok ? [] : [[el.dataset.card, Math.round(r.left), Math.round(r.right), Math.round(p.strip),
                      hit ? hit.className : null]];
})""".replace("TAP_POINT", _TAP_POINT)


#: The cards of the felt a tap does something with (a stock, a card taken back, a position of a
#: Freeze layout) a finger cannot reach: smaller than 24 px, off the screen, or covered where the
#: finger lands (its middle).
_FELT_UNREACHABLE = """felt => [...felt.querySelectorAll('button.card:not(:disabled)')]
.flatMap(el => {
  el.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  const ok = r.left >= 0 && r.right <= innerWidth && r.width >= 24 && r.height >= 24
    && hit && hit.closest('.card') === el;
  return ok ? [] : [[el.getAttribute('aria-label'), Math.round(r.width), Math.round(r.height),
                      Math.round(r.left), hit ? hit.className : null]];
})"""


def shot(page: Page, name: str) -> None:
    """A screenshot from the top of the page (the sticky top bar would else cross it)."""
    page.evaluate("() => scrollTo(0, 0)")
    screenshot(page, name)


def phone(pages: Pages, size: str) -> Page:
    width, height = SIZES[size]
    return pages.new(width, height, phone=True)


def no_horizontal_scroll(page: Page) -> None:
    widths = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"


def check_layout(page: Page) -> None:
    """What a phone must give at this turn: no sideways scroll, every card of the hand where a
    finger can tap it, every action button a finger's height, the seats on the felt apart,
    clear of its header line and of every card in the middle."""
    no_horizontal_scroll(page)
    unreachable = page.locator("#hand").evaluate(_UNREACHABLE)
    assert not unreachable, f"cards out of a finger's reach: {unreachable}"
    unreachable = page.locator("#felt").evaluate(_FELT_UNREACHABLE)
    assert not unreachable, f"cards of the felt out of a finger's reach: {unreachable}"
    heights = page.locator("#actions button").evaluate_all(
        "els => els.filter(e => e.offsetParent)"
        ".map(e => [e.textContent, e.getBoundingClientRect().height])"
    )
    low = [(text, h) for text, h in heights if h < MIN_TAP]
    assert not low, f"action buttons lower than {MIN_TAP} px: {low}"
    seats = page.locator("#felt .seat").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    felt = page.locator("#felt").evaluate(
        "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
    )
    head = page.locator("#felt .felt-head").evaluate(
        "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
    )
    piles = page.locator("#felt :is(.piles, .turned, #laid, .trick-area) .card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom, e.getAttribute('aria-label')]; })"
    )
    for i, a in enumerate(seats):
        assert felt[0] <= a[0] and a[2] <= felt[2], f"seat {i} leaves the felt: {a} {felt}"
        assert head[3] <= a[1], f"seat {i} covers the header line: {a} {head}"
        for p in piles:
            apart = a[2] <= p[0] or p[2] <= a[0] or a[3] <= p[1] or p[3] <= a[1]
            assert apart, f"seat {i} covers a card in the middle: {a} {p}"
        for j, b in enumerate(seats[:i]):
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"seats {j} and {i} overlap: {b} {a}"


def tap_card(page: Page, code: str) -> None:
    card = page.locator(f'#hand .card[data-card="{code}"]').first
    card.scroll_into_view_if_needed()
    point = card.evaluate(_TAP_POINT)
    card.tap(position={"x": point["x"], "y": point["y"]})


def last_own_line(page: Page) -> int:
    """The number of the log's last line about this player (the log keeps its last lines only:
    a count of them would not always grow)."""
    seq: int = page.evaluate(
        "() => Number([...document.querySelectorAll('#log li.mine')].pop()?.dataset.seq ?? 0)"
    )
    return seq


def play_by_taps(page: Page, turns: int) -> list[str]:
    """Up to ``turns`` turns of this player, every card played with a finger on the strip of it
    that shows: one tap plays it (a second confirms, or the first variant is chosen, when
    asked). Turns with no card to play (a bid, a call, a draw) are played as ``helpers.step``
    does."""
    played = []
    for turn in range(turns):
        if wait_turn(page) == "over":
            break
        check_layout(page)
        cards: list[str] = page.locator("#hand .card.playable").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        if not cards:
            stock = page.locator("#stock .card.playable")
            if stock.count():
                # a draw: a tap on the stock
                before = state(page)
                stock.tap()
                wait_version_change(page, before["version"], before["refused"])
            else:
                step(page)
            continue
        # the first playable card is the most covered by its neighbours; one turn in two, one
        # from the middle of the hand
        code = cards[0] if turn % 2 == 0 else cards[len(cards) // 2]
        before = state(page)
        mine = last_own_line(page)
        label = page.locator(f'#hand .card[data-card="{code}"]').first.get_attribute("aria-label")
        tap_card(page, code)
        now = state(page)
        # one tap sent it (the default), or the card waits for a confirmation or a variant
        if now["busy"] != "1" and now["version"] == before["version"]:
            confirm = page.locator("#actions .btn.confirm")
            if label and label.startswith("Choisir") and confirm.count():
                # one card of a selection of several (a Yaniv discard): the button sends it
                confirm.tap()
            elif confirm.count():
                tap_card(page, code)
            else:
                page.locator("#actions .group .btn.choice:not(.back)").first.tap()
        wait_version_change(page, before["version"], before["refused"])
        assert last_own_line(page) > mine, f"no move of the player after {code}"
        played.append(code)
    return played


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("game", "players", "cards"), GAMES)
def test_a_phone_plays_with_a_finger(
    server: LiveServer, pages: Pages, game: str, players: int, cards: int, size: str
) -> None:
    page = phone(pages, size)
    enter(page, server.url, "Zoé")
    no_horizontal_scroll(page)
    create_table(page, game, players=players)
    assert wait_turn(page) == "mine"
    expect(page.locator("#hand .card")).to_have_count(cards)
    expect(page.locator("#felt .seat")).to_have_count(players)
    check_layout(page)
    shot(page, f"phone-{size}-{game}")
    played = play_by_taps(page, 8)
    assert len(played) >= 2, f"too few cards played by tapping: {played}"
    if wait_turn(page) == "mine":
        check_layout(page)
    shot(page, f"phone-{size}-{game}-later")


def test_tarot_at_five_on_a_phone_a_big_hand_takes_rows(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The taker's 18 cards with the chien, in portrait: two rows, every card still reachable,
    and the écart made with a finger."""

    def robots_pass_after_a_prise(g: Any, s: Any) -> bool:
        s, _ = g.apply(s, 0, {"type": "bid", "contract": "prise"})
        s = robots_until_me(g, s)
        if g.view(s, 0)["phase"] == "call":  # the player calls a king: any will do
            s, _ = g.apply(s, 0, g.legal_actions(s, 0)[0])
            s = robots_until_me(g, s)
        return bool(g.view(s, 0)["phase"] == "ecart")

    # a deal where the robots let the player's prise stand (they bid by their hands)
    fixed_seed(monkeypatch, seed_where("tarot", 5, robots_pass_after_a_prise))
    page = phone(pages, "portrait")
    enter(page, server.url, "Zoé")
    create_table(page, "tarot", players=5)
    for _ in range(6):
        if wait_turn(page) == "mine" and state(page)["phase"] == "ecart":
            break
        step(page, prefer=['button[data-value="\\"prise\\""]'])
    else:
        pytest.fail(f"no écart for the player: {state(page)}")
    expect(page.locator("#hand .card")).to_have_count(18)
    rows = page.locator("#hand .card").evaluate_all(
        "els => new Set(els.map(e => Math.round(e.getBoundingClientRect().top))).size"
    )
    assert rows == 2, rows
    check_layout(page)
    shot(page, "phone-portrait-tarot-ecart")
    # three cards put aside, the last of them ends the écart
    played = play_by_taps(page, 3)
    assert len(played) == 3, played
    assert wait_turn(page) == "mine" and state(page)["phase"] != "ecart", state(page)
    expect(page.locator("#hand .card")).to_have_count(15)
    assert not set(played) & set(hand(page))


def focused(page: Page) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate(
        "() => { const a = document.activeElement; return {label: a.getAttribute('aria-label'),"
        " text: a.textContent, card: a.dataset.card || null, inHand: !!a.closest('#hand'),"
        " inActions: !!a.closest('#actions'), outline: getComputedStyle(a).outlineStyle,"
        " width: parseFloat(getComputedStyle(a).outlineWidth)}; }"
    )
    return info


def tab_to(page: Page, where: str) -> dict[str, Any]:
    """Tab until the focus is on an enabled control of ``where`` (hand or actions)."""
    for _ in range(60):
        page.keyboard.press("Tab")
        now = focused(page)
        if now[where]:
            return now
    raise AssertionError(f"Tab never reached the {where}: {focused(page)}")


#: Records each change of the status line: its text, and its text without what is hidden from
#: screen readers (what the live region says).
_WATCH_STATUS = """el => {
  window.statusChanges = [];
  new MutationObserver(() => {
    const said = el.cloneNode(true);
    said.querySelectorAll('[aria-hidden="true"]').forEach(e => e.remove());
    window.statusChanges.push([el.textContent, said.textContent]);
  }).observe(el, {childList: true, subtree: true, characterData: true});
}"""


def test_keyboard_and_screen_reader(server: LiveServer, pages: Pages) -> None:
    page = pages.new()
    enter(page, server.url, "Yves")
    page.click('.game-tile[data-game="belote"]')
    page.click("text=tout en robots")
    page.select_option("#timer", "30")
    page.click("#create")
    page.wait_for_url(re.compile(r"#/table/\d+"))
    assert wait_turn(page) == "mine"
    # the turn and the time left are said by the status region; the ticking bar is not read
    status = page.get_by_role("status").filter(has_text="Il vous reste")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(status).to_contain_text(re.compile(r"Il vous reste \d+ secondes"))
    expect(page.locator("#status .timer-wrap")).to_have_attribute("aria-hidden", "true")
    log = page.get_by_role("log", name="Journal de la partie")
    expect(log).to_have_attribute("aria-live", "polite")
    # every change of the status line: the text shown, and what a screen reader gets of it
    page.locator("#status").evaluate(_WATCH_STATUS)
    # the hand is a group of named cards; none is playable while the bidding lasts
    expect(page.get_by_role("group", name="Votre main : 5 cartes")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Jouer "))).to_have_count(0)
    page.locator("#topbar .brand").focus()

    # the bidding with Tab and Enter alone: the first action each turn
    while wait_turn(page) == "mine" and state(page)["phase"] == "bidding":
        now = tab_to(page, "inActions")
        assert now["outline"] != "none" and now["width"] >= 2, now
        before = state(page)
        page.keyboard.press("Enter")
        wait_version_change(page, before["version"], before["refused"])
    assert state(page)["phase"] == "play"
    expect(page.get_by_role("group", name="Votre main : 8 cartes")).to_be_visible()

    # three cards played with the keyboard, each found by its French name
    for n, key in enumerate(("Enter", "Space", "Enter")):
        assert wait_turn(page) == "mine"
        if n == 0:
            # the keyboard is still in the (now empty) actions: on to the hand
            now = tab_to(page, "inHand")
        else:
            # the focus came back to the hand by itself when the turn did
            page.wait_for_function("() => document.activeElement.matches('#hand .card.playable')")
            now = focused(page)
        label = now["label"]
        assert re.fullmatch(r"Jouer (le|la|l')\s?.+ de (cœur|carreau|pique|trèfle)", label), label
        card = page.get_by_role("button", name=label, exact=True)
        expect(card).to_be_focused()
        assert now["outline"] != "none" and now["width"] >= 2, now
        before = state(page)
        count = hand(page).count(now["card"])
        page.keyboard.press(key)
        wait_version_change(page, before["version"], before["refused"])
        assert hand(page).count(now["card"]) == count - 1
        # the move is a new line of the log region
        expect(log.locator("li.mine").last).to_contain_text("Yves")
    assert int(state(page)["tricks"] or 0) >= 2
    # the robots' turns are shown, never said: only what concerns the player is
    changes: list[list[str]] = page.evaluate("() => window.statusChanges")
    shown = [c[0] for c in changes]
    said = [c[1] for c in changes]
    assert any("réfléchit" in text for text in shown), shown
    assert not any("réfléchit" in text for text in said), said
    assert any(re.search(r"Il vous reste \d+ secondes", text) for text in said), said


#: The style rules in force on this screen (their media queries match) that would move the
#: element while hovered.
_HOVER_LIFTS = """el => {
  const out = [];
  const walk = (rules, on) => {
    for (const r of rules) {
      if (r.media) walk(r.cssRules, on && matchMedia(r.media.mediaText).matches);
      else if (on && r.selectorText && r.selectorText.includes(':hover') && r.style.transform) {
        const plain = r.selectorText.split(',').map(x => x.replaceAll(':hover', ''));
        if (plain.some(x => { try { return el.matches(x); } catch { return false; } })) {
          out.push(r.selectorText);
        }
      }
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules, true);
  return out;
}"""


def draw_from_the_stock(page: Page, tap: bool = True) -> None:
    before = state(page)
    stock = page.locator("#stock .card.playable")
    expect(stock).to_have_attribute("aria-label", "Piocher")
    if tap:
        stock.tap()
    else:
        stock.focus()
        page.keyboard.press("Enter")
    wait_version_change(page, before["version"], before["refused"])


@pytest.mark.parametrize("size", SIZES)
def test_freeze_on_a_phone_the_layout_is_played_with_a_finger(
    server: LiveServer, pages: Pages, size: str
) -> None:
    """Freeze at four: each turn a draw from the stock by a tap, then the card drawn kept in
    place of one of the player's own, tapped in their layout (a named button, never lifted by
    a hover a touch screen does not have)."""
    page = phone(pages, size)
    enter(page, server.url, "Zoé")
    create_table(page, "freeze", players=4)
    assert wait_turn(page) == "mine"
    mine = page.locator("#hand .layout.mine .card")
    expect(mine).to_have_count(4)
    expect(page.locator("#felt .seat")).to_have_count(4)
    check_layout(page)
    shot(page, f"phone-{size}-freeze")
    kept = 0
    for turn in range(4):
        if wait_turn(page) == "over" or not page.locator("#stock .card.playable").count():
            break
        check_layout(page)
        draw_from_the_stock(page)
        assert wait_turn(page) == "mine" and state(page)["phase"] == "drawn", state(page)
        drawn = page.locator("#drawn .card").get_attribute("data-card")
        page.locator('#actions button[data-mode="replace"]').tap()
        targets = page.locator("#hand .layout.mine .card.playable")
        expect(targets).to_have_count(4)
        labels = targets.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        for label in labels:
            assert re.fullmatch(
                r"Remplacer (votre carte|(le|la|l')\s?.+ \(votre carte) ligne [12], place [12]\)?"
                r" par la carte piochée",
                label,
            ), label
        check_layout(page)
        if turn == 0:
            shot(page, f"phone-{size}-freeze-replace")
        target = targets.nth(turn % 4)
        # no rule in force here lifts the card under a hover (a touch screen has none: a tapped
        # card would stay up)
        lifts = target.evaluate(_HOVER_LIFTS)
        assert not lifts, lifts
        where = (target.get_attribute("data-line"), target.get_attribute("data-slot"))
        before = state(page)
        target.tap()
        wait_version_change(page, before["version"], before["refused"])
        if wait_turn(page) == "mine" and state(page)["phase"] not in ("shown", "over"):
            card = page.locator(
                f'#hand .layout.mine .card[data-line="{where[0]}"][data-slot="{where[1]}"]'
            )
            expect(card).to_have_attribute("data-card", drawn or "")
        kept += 1
    assert kept >= 2, f"too few cards kept by tapping: {kept}"


def test_freeze_with_the_keyboard_and_a_screen_reader(server: LiveServer, pages: Pages) -> None:
    """The stock, the mode and a position of the layout reached with Tab, played with Enter,
    each said in French by what it does."""
    page = pages.new()
    enter(page, server.url, "Yves")
    create_table(page, "freeze", players=3)
    assert wait_turn(page) == "mine"
    # nothing of the layout is a button before a mode asks for a position
    expect(page.get_by_role("button", name=re.compile("^Remplacer "))).to_have_count(0)
    draw_from_the_stock(page, tap=False)
    assert wait_turn(page) == "mine" and state(page)["phase"] == "drawn"
    keep = page.get_by_role("button", name="Garder la carte piochée…")
    keep.focus()
    page.keyboard.press("Enter")
    now = tab_to(page, "inHand")
    label = now["label"]
    assert re.fullmatch(r"Remplacer .+ ligne 1, place 1\)? par la carte piochée", label), label
    assert now["outline"] != "none" and now["width"] >= 2, now
    expect(page.get_by_role("button", name=label, exact=True)).to_be_focused()
    before = state(page)
    page.keyboard.press("Enter")
    wait_version_change(page, before["version"], before["refused"])
    expect(page.locator("#log li.mine").last).to_contain_text("Yves garde sa carte")


def yaniv_discard(page: Page, cards: list[str], tap: bool) -> None:
    for code in cards:
        if tap:
            tap_card(page, code)
        else:
            card = page.locator(f'#hand .card[data-card="{code}"]').first
            card.focus()
            page.keyboard.press("Space")
        card = page.locator(f'#hand .card[data-card="{code}"]').first
        expect(card).to_have_attribute("aria-pressed", "true")
        expect(card).to_have_attribute("aria-label", re.compile(r"^Choisir (le|la|l')"))
    expect(page.locator("#hand .card.selected")).to_have_count(len(cards))
    confirm = page.locator("#actions .btn.confirm")
    expect(confirm).to_contain_text("Défausser")
    before = state(page)
    if tap:
        confirm.tap()
    else:
        confirm.focus()
        page.keyboard.press("Enter")
    wait_version_change(page, before["version"], before["refused"])


@pytest.mark.parametrize("size", SIZES)
def test_yaniv_on_a_phone_a_discard_of_several_cards_by_taps(
    server: LiveServer, pages: Pages, size: str
) -> None:
    """Yaniv at four: the two highest cards of the hand selected by taps (a second tap takes
    one back), discarded as a set or a run when they make one, else the highest alone; then
    the draw, by a tap on the stock."""
    page = phone(pages, size)
    enter(page, server.url, "Zoé")
    create_table(page, "yaniv", players=4)
    for turn in range(3):
        if wait_turn(page) == "over":
            break
        check_layout(page)
        before = hand(page)
        # a tap selects, a second tap on the same card takes it back
        first = before[-1]
        tap_card(page, first)
        expect(page.locator("#hand .card.selected")).to_have_count(1)
        tap_card(page, first)
        expect(page.locator("#hand .card.selected")).to_have_count(0)
        ranks = [c[0] for c in before]
        pair = next(([c for c in before if c[0] == r][:2] for r in ranks if ranks.count(r) > 1), [])
        yaniv_discard(page, pair or [first], tap=True)
        assert wait_turn(page) == "mine" and state(page)["phase"] == "draw", state(page)
        check_layout(page)
        if turn == 0:
            shot(page, f"phone-{size}-yaniv-draw")
        before_draw = state(page)
        page.locator("#stock .card.playable").tap()
        wait_version_change(page, before_draw["version"], before_draw["refused"])
        assert len(hand(page)) == len(before) - len(pair or [first]) + 1


def test_yaniv_with_the_keyboard(server: LiveServer, pages: Pages) -> None:
    """Cards selected with Space (each a toggle named "Choisir …"), the set sent by Enter on
    its button, the draw by Enter on the stock or on a card taken back, named "Reprendre …"."""
    page = pages.new()
    enter(page, server.url, "Yves")
    create_table(page, "yaniv", players=2)
    assert wait_turn(page) == "mine"
    expect(page.get_by_role("group", name="Votre main : 5 cartes")).to_be_visible()
    first = hand(page)[-1]
    yaniv_discard(page, [first], tap=False)
    assert wait_turn(page) == "mine" and state(page)["phase"] == "draw"
    back = page.get_by_role("button", name=re.compile(r"^Reprendre (le|la|l')"))
    assert back.count() >= 1
    label = back.first.get_attribute("aria-label") or ""
    before = state(page)
    back.first.focus()
    page.keyboard.press("Enter")
    wait_version_change(page, before["version"], before["refused"])
    expect(page.locator("#log li.mine").last).to_contain_text("Yves reprend")
    assert len(hand(page)) == 5, (label, hand(page))
