"""The browser client end to end: arrival, lobby, tables of every game played by clicking, what a
spectator sees, reloads and reconnections. Every test also fails on any console error.

Deterministic by construction: every table is dealt from a fixed seed (``conftest``), the
robots play the server's bot policy (the same on every run), and the player acts and looks only
when the table waits on them (see ``helpers``). What a test checks after a robot's turn is made
durable by the seed: ``seed_where`` picks a deal where, say, the colour chosen is still in force
when the turn comes back; the robots' turns are replayed with the policy the server uses."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tablee.games import game_names, get_game

from .conftest import LiveServer, Pages, screenshot
from .helpers import (
    act,
    create_table,
    enter,
    fixed_seed,
    hand,
    play,
    robots_until_me,
    seed_where,
    state,
    step,
    wait_turn,
)

#: The red of hearts and diamonds (``--red`` in style.css), as the browser computes it.
RED = "rgb(198, 40, 40)"


def color_of(locator: Any) -> str:
    colour: str = locator.evaluate("el => getComputedStyle(el).color")
    return colour


def test_arrival_then_back_as_the_same_player(server: LiveServer, pages: Pages) -> None:
    page = pages.new()
    page.goto(server.url)
    page.fill("#name", "A")
    page.click("form.arrival button[type=submit]")
    expect(page.locator("form.arrival .error")).to_contain_text("2 à 24 caractères")
    enter(page, server.url, "Amélie")
    expect(page.locator("#who .me-name")).to_have_text("Amélie")
    page.reload()
    # the token stayed in this browser: no name asked again
    expect(page.locator(".game-tile").first).to_be_visible()
    expect(page.locator("#who .me-name")).to_have_text("Amélie")
    expect(page.locator("#name")).to_have_count(0)


def test_contrecarte_played_to_the_end_with_a_colour_choice(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def blue_still_in_force(g: Any, s: Any) -> bool:
        if "W+4" not in g.view(s, 0)["hand"]:
            return False
        s, _ = g.apply(s, 0, {"type": "play", "card": "W+4", "color": "B"})
        s = robots_until_me(g, s)
        return not g.is_over(s) and g.view(s, 0)["color"] == "B"

    seed = seed_where("contrecarte", 2, blue_still_in_force)
    fixed_seed(monkeypatch, seed)
    page = pages.new()
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    enter(page, server.url, "Alice")
    create_table(page, "contrecarte", players=2)
    assert wait_turn(page) == "mine"
    expect(page.locator("#hand .card")).to_have_count(7)
    screenshot(page, "contrecarte")

    # the +4 asks for a colour; the colour chosen is in force when the turn comes back
    page.click('#hand .card.playable[data-card="W+4"]')
    expect(page.locator("#actions .btn.swatch")).to_have_count(4)
    act(page, '#actions .btn.swatch[data-value="\\"B\\""]')
    expect(page.locator("#log")).to_contain_text("Alice pose +4 et choisit bleu")
    assert wait_turn(page) == "mine"
    expect(page.locator("#color")).to_contain_text("bleu")
    expect(page.locator("#log")).to_contain_text("le +4")

    say_carte = [
        'button[data-key="announce"][data-value="true"]',
        'button[data-type="announce"]',
        'button[data-type="contest"]',
    ]
    moves = play(page, 300, prefer=say_carte)
    assert state(page)["over"] == "1", f"the game did not end after {len(moves)} moves"
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result).to_contain_text(re.compile("Vainqueur"))
    expect(result.locator("#rematch")).to_be_visible()
    screenshot(page, "contrecarte-over")
    expect(page.locator(".seat.bot .chip.dealer")).to_have_count(1)
    # a rematch: the only person at the table agrees, and a new game is dealt by the seat after
    # the first game's dealer: Alice deals, the robot plays first
    result.locator("#rematch").click()
    expect(result).to_be_hidden()
    # the vote went over the open socket, not as a request of its own
    assert len([m for m in sent if m["type"] == "rematch"]) == 1
    assert not [u for u in posted if u.endswith("/rematch")]
    assert wait_turn(page) == "mine"
    expect(page.locator(".seat.me .chip.dealer")).to_have_count(1)
    game = get_game("contrecarte")
    mine = robots_until_me(game, game.new(2, {"first_dealer": 0}, seed=seed)).hands[0]
    expect(page.locator("#hand .card")).to_have_count(len(mine))
    expect(page.locator("#log")).to_contain_text("Revanche")


def test_belote_from_the_lobby_through_bidding_tricks_reload_and_a_spectator(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    enter(page, server.url, "Bruno")
    table = create_table(page, "belote")
    # bidding: take the turned card when asked
    while wait_turn(page) == "mine" and state(page)["phase"] == "bidding":
        step(page, prefer=['button[data-type="take"]'])
    expect(page.locator("#trump")).to_be_visible()
    expect(page.locator("#hand .card")).to_have_count(8)
    while int(state(page)["tricks"] or 0) < 3:
        play(page, 1)
    assert wait_turn(page) == "mine"
    expect(page.locator("#log")).to_contain_text("remporte le pli")
    screenshot(page, "belote")

    # a spectator sees the table, never a hand
    watcher = pages.new()
    enter(watcher, server.url, "Chloé")
    watcher.goto(f"{server.url}#/table/{table}")
    expect(watcher.locator(".badge.spect")).to_be_visible()
    expect(watcher.locator("#felt .seat")).to_have_count(4)
    expect(watcher.locator("#hand .card")).to_have_count(0)
    expect(watcher.locator("#hand")).to_contain_text("mains restent cachées")
    screenshot(watcher, "belote-spectator")

    # a reload mid-game restores the same table and hand (the table waits on this player)
    before = hand(page)
    page.reload()
    assert wait_turn(page) == "mine"
    assert hand(page) == before
    assert state(page)["phase"] == "play"
    play(page, 2)


def test_tarot_through_the_ecart(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def bots_pass_after_a_prise(g: Any, s: Any) -> bool:
        s, _ = g.apply(s, 0, {"type": "bid", "contract": "prise"})
        return bool(g.view(robots_until_me(g, s), 0)["phase"] == "ecart")

    fixed_seed(monkeypatch, seed_where("tarot", 4, bots_pass_after_a_prise))
    page = pages.new()
    enter(page, server.url, "Denis")
    create_table(page, "tarot", players=4)
    assert wait_turn(page) == "mine"
    act(page, '#actions button[data-value="\\"prise\\""]')
    assert wait_turn(page) == "mine"
    assert state(page)["phase"] == "ecart"
    expect(page.locator("#chien .card")).to_have_count(6)
    expect(page.locator("#hand .card")).to_have_count(24)
    # a trump's number shows in its top corner only: the bottom one ran into the word "atout"
    trumps = page.locator("#hand .card.trump")
    assert trumps.count() > 0
    expect(trumps.last.locator(".corner.tl")).to_be_visible()
    expect(trumps.last.locator(".corner.br")).to_be_hidden()
    screenshot(page, "tarot-ecart")
    # the first card of the écart: select, confirm (the setting unticked); the rest in one
    # click each (the default)
    page.uncheck("#oneclick")
    first = page.locator("#hand .card.playable").first
    put_aside = first.get_attribute("data-card")
    first.click()
    expect(page.locator("#actions .btn.confirm")).to_contain_text("Écarter")
    act(page, "#actions .btn.confirm")
    expect(page.locator("#ecart .card")).to_have_count(1)
    expect(page.locator(f'#ecart .card[data-card="{put_aside}"]')).to_have_count(1)
    page.check("#oneclick")
    for n in range(2, 7):
        assert wait_turn(page) == "mine"
        act(page, "#hand .card.playable >> nth=0")
        if n < 6:
            expect(page.locator("#ecart .card")).to_have_count(n)
    assert wait_turn(page) == "mine"
    assert state(page)["phase"] != "ecart"
    expect(page.locator("#hand .card")).to_have_count(18)
    play(page, 4, prefer=['button[data-type="no_chelem"]'])
    assert wait_turn(page) == "mine"
    expect(page.locator("#contract")).to_contain_text("prise")
    screenshot(page, "tarot")


def test_tarot_at_five_the_taker_calls_a_king(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def call_after_a_prise(g: Any, s: Any) -> bool:
        if "KH" in g.view(s, 0)["hand"]:
            return False
        s, _ = g.apply(s, 0, {"type": "bid", "contract": "prise"})
        return bool(g.view(robots_until_me(g, s), 0)["phase"] == "call")

    fixed_seed(monkeypatch, seed_where("tarot", 5, call_after_a_prise))
    page = pages.new()
    enter(page, server.url, "Denis")
    create_table(page, "tarot", players=5)
    assert wait_turn(page) == "mine"
    expect(page.locator("#hand .card")).to_have_count(15)
    act(page, '#actions button[data-value="\\"prise\\""]')
    assert wait_turn(page) == "mine"
    assert state(page)["phase"] == "call"
    # the kings are not cards to play from the hand: a row of buttons, one per king
    calls = page.locator('#actions button[data-type="call"]')
    expect(calls).to_have_count(4)
    # red suits are red on the buttons too, as on the cards
    for king, red in (("KS", False), ("KH", True), ("KD", True), ("KC", False)):
        button = page.locator(f'#actions button[data-type="call"][data-value="\\"{king}\\""]')
        assert (color_of(button) == RED) is red, f"{king}: {color_of(button)}"
    expect(page.locator("#actions")).to_contain_text("Appeler")
    expect(page.locator("#status")).to_contain_text("Appelez un roi")
    screenshot(page, "tarot-5-call")
    act(page, '#actions button[data-type="call"][data-value="\\"KH\\""]')
    expect(page.locator("#log")).to_contain_text("Denis appelle R♥")
    expect(page.locator('#called .card[data-card="KH"]')).to_be_visible()
    # then the chien of three cards and the écart
    assert wait_turn(page) == "mine"
    assert state(page)["phase"] == "ecart"
    expect(page.locator("#chien .card")).to_have_count(3)
    expect(page.locator("#hand .card")).to_have_count(18)


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_a_playable_table(server: LiveServer, pages: Pages, game: str) -> None:
    g = get_game(game)
    players = min(max(4, g.min_players), g.max_players)
    page = pages.new()
    enter(page, server.url, "Émile")
    create_table(page, game, players=players)
    play(page, 4)
    expect(page.locator("#felt .seat")).to_have_count(players)
    wait_turn(page)
    screenshot(page, f"table-{game}")
    # every seat's badge lies on the felt, and no line of it wraps (a badge by the right edge
    # used to shrink and break its team's name in two)
    felt = page.locator("#felt").bounding_box()
    assert felt is not None
    for badge in page.locator("#felt .seat").all():
        box = badge.bounding_box()
        assert box is not None
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"]
        lines = badge.locator(
            ".seat-name .nm, .seat-facts .team, .seat-facts .tricks, .tag"
        ).evaluate_all(
            """els => els.map(e => {
                const range = document.createRange();
                range.selectNodeContents(e);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                return [e.textContent, tops.size];
            })"""
        )
        assert all(n == 1 for _, n in lines), f"a line of the badge wraps: {lines}"
    # the small cards on the felt (a seat's known cards, a card in a chip) stay readable
    sizes = page.locator("#felt .card:not(.back) .corner.tl").evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert all(size >= 10 for size in sizes), sizes


def test_phone_layout(server: LiveServer, pages: Pages) -> None:
    page = pages.new(width=390, height=800)
    enter(page, server.url, "Fanny")
    create_table(page, "belote")
    assert wait_turn(page) == "mine"
    screenshot(page, "phone-belote")
    # the whole hand fits the screen's width
    boxes = [c.bounding_box() for c in page.locator("#hand .card").all()]
    assert all(b is not None and b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes)


def test_reconnects_and_resyncs_after_a_server_restart(server: LiveServer, pages: Pages) -> None:
    page = pages.new()
    enter(page, server.url, "Gaspard")
    create_table(page, "barbu")
    play(page, 2)
    assert wait_turn(page) == "mine"
    before = hand(page)
    server.restart()
    # the page reconnects by itself (no reload) and carries on with the same game
    page.wait_for_function(
        "() => document.querySelector('#conn').classList.contains('open')", timeout=20_000
    )
    expect(page.locator("#table")).not_to_have_class(re.compile("offline"))
    assert wait_turn(page) == "mine"
    assert hand(page) == before
    play(page, 2)
    # the browser reports the refused connections while the server was down: those only
    down = ("WebSocket", "ERR_CONNECTION")
    pages.errors[:] = [e for e in pages.errors if not any(d in e for d in down)]


def test_waiting_room_join_from_the_lobby_and_turn_timer(server: LiveServer, pages: Pages) -> None:
    host = pages.new()
    enter(host, server.url, "Hélène")
    host.click('.game-tile[data-game="belote"]')
    host.click("text=tout en robots")
    host.click('.seat-choice[data-seat="2"]')  # seat 3 stays for a person
    host.select_option("#timer", "30")
    host.click("#create")
    expect(host.locator(".waiting")).to_contain_text("En attente des joueurs")
    screenshot(host, "waiting-room")

    guest = pages.new()
    enter(guest, server.url, "Igor")
    row = guest.locator(".table-row", has_text="Hélène")
    expect(row).to_contain_text("30 s par coup")
    screenshot(guest, "lobby")
    row.locator("button[data-join]").click()
    # the last seat taken, the game starts for both, each with a hand of their own
    expect(guest.locator("#hand .card").first).to_be_visible()
    expect(host.locator("#hand .card").first).to_be_visible()
    assert not set(hand(guest)) & set(hand(host))
    # the seat to act shows a countdown bar (the host speaks first: the table waits on her)
    assert wait_turn(host) == "mine"
    expect(host.locator('#felt .seat.to-act[data-seat="0"] .timer')).to_be_visible()
    expect(host.locator("#status .timer")).to_be_visible()


def test_contree_bid_in_two_steps_then_play(server: LiveServer, pages: Pages) -> None:
    page = pages.new()
    enter(page, server.url, "Julie")
    create_table(page, "contree")
    assert wait_turn(page) == "mine"
    # the value first, then the suit: 40 bids read as two short rows of buttons
    page.click('#actions button[data-key="value"][data-value="160"]')
    suits = page.locator('#actions button[data-key="suit"]')
    expect(suits).to_have_count(4)
    expect(page.locator("#actions .back")).to_contain_text("160")
    screenshot(page, "contree-bidding")
    act(page, '#actions button[data-key="suit"][data-value="\\"H\\""]')
    expect(page.locator("#log")).to_contain_text("Julie annonce 160 ♥ cœur")
    # robots bid by their hands but never above 160, and never contre: the contract is Julie's
    assert wait_turn(page) == "mine"
    assert state(page)["phase"] == "play"
    expect(page.locator("#contract")).to_contain_text("Julie, 160 ♥ cœur")
    # hearts read red in the chips, as on the cards
    assert color_of(page.locator("#contract .red")) == RED
    assert color_of(page.locator("#trump .red")) == RED
    play(page, 6)


def test_contree_contre_then_surcontre_between_two_players(
    server: LiveServer, pages: Pages
) -> None:
    julie = pages.new()
    enter(julie, server.url, "Julie")
    table = create_table(julie, "contree", people=[1])
    expect(julie.locator(".waiting")).to_contain_text("En attente des joueurs")
    bob = pages.new()
    enter(bob, server.url, "Bob")
    bob.goto(f"{server.url}#/table/{table}")
    bob.click('button[data-join-seat="1"]')
    # Julie speaks first: 80 spades
    assert wait_turn(julie) == "mine"
    julie.click('#actions button[data-key="value"][data-value="80"]')
    act(julie, '#actions button[data-key="suit"][data-value="\\"S\\""]')
    # Bob, her opponent, contres
    assert wait_turn(bob) == "mine"
    # Julie's bid in her bubble and as the bid to beat (the table waits on Bob: nothing moves);
    # no trump yet: the bidding is not over
    expect(bob.locator('#felt .seat[data-seat="0"] .bubble')).to_have_text("80 ♠ pique")
    expect(bob.locator("#contract")).to_contain_text("Meilleure enchère : Julie, 80 ♠ pique")
    expect(bob.locator("#trump")).to_have_count(0)
    contre = bob.locator('#actions button[data-type="contre"]')
    expect(contre).to_have_text("Contrer !")
    screenshot(bob, "contree-contre")
    act(bob, '#actions button[data-type="contre"]')
    # the bidding stops; the bidder may surcontre, or not
    assert wait_turn(julie) == "mine"
    assert state(julie)["phase"] == "surcontre"
    expect(julie.locator("#status")).to_contain_text("surcontrer")
    expect(julie.locator('#actions button[data-type="decline"]')).to_have_text("Ne pas surcontrer")
    screenshot(julie, "contree-surcontre")
    act(julie, '#actions button[data-type="surcontre"]')
    for page in (julie, bob):
        expect(page.locator("#log")).to_contain_text("Bob contre !")
        expect(page.locator("#log")).to_contain_text("Julie surcontre !")
        expect(page.locator("#contract")).to_contain_text("Contrat : Julie, 80 ♠ pique surcontré")
    # the play starts with Julie's lead, spades trumps
    assert wait_turn(julie) == "mine"
    assert state(julie)["phase"] == "play"
    expect(julie.locator("#trump")).to_contain_text("Atout : ♠ pique")
    play(julie, 1)


def test_freeze_draw_then_keep_the_card_in_place_of_one_of_yours(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def kept_card_stays(g: Any, s: Any) -> bool:
        s, _ = g.apply(s, 0, {"type": "draw"})
        drawn = g.view(s, 0)["drawn"]
        s, _ = g.apply(s, 0, {"type": "replace", "line": 0, "slot": 0})
        s = robots_until_me(g, s)
        return not g.is_over(s) and g.view(s, 0)["hand"][0][0] == drawn

    fixed_seed(monkeypatch, seed_where("freeze", 3, kept_card_stays))
    page = pages.new()
    enter(page, server.url, "Karim")
    create_table(page, "freeze", players=3)
    assert wait_turn(page) == "mine"
    expect(page.locator("#hand .layout.mine .card")).to_have_count(4)
    # the bottom line is known from the deal, the top line is not
    expect(page.locator("#hand .layout.mine .card.back")).to_have_count(2)
    act(page, "#stock .card.playable")
    assert wait_turn(page) == "mine"
    expect(page.locator("#drawn .card")).to_be_visible()
    drawn = page.locator("#drawn .card").get_attribute("data-card")
    page.click('#actions button[data-mode="replace"]')
    targets = page.locator("#hand .layout.mine .card.playable")
    expect(targets).to_have_count(4)
    act(page, '#hand .layout.mine .card.playable[data-line="0"][data-slot="0"]')
    expect(page.locator("#log")).to_contain_text("Karim garde sa carte")
    # the card kept is now known, face up, in the top line (still there when the turn is back)
    assert wait_turn(page) == "mine"
    kept = page.locator(f'#hand .layout.mine .card[data-card="{drawn}"]')
    expect(kept).to_have_count(1)
    screenshot(page, "freeze")


@pytest.mark.skipif("yaniv" not in game_names(), reason="yaniv has not landed yet")
def test_yaniv_discard_a_set_then_draw_from_the_stock(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def pair_of(cards: list[str]) -> list[str]:
        ranks = [c[0] for c in cards if c not in ("X1", "X2")]
        rank = next((r for r in ranks if ranks.count(r) >= 2), None)
        return [c for c in cards if c[0] == rank][:2] if rank else []

    def a_pair_and_the_round_goes_on(g: Any, s: Any) -> bool:
        pair = pair_of(g.view(s, 0)["hand"])
        if not pair:
            return False
        s, _ = g.apply(s, 0, {"type": "discard", "cards": pair})
        s, _ = g.apply(s, 0, {"type": "draw", "from": "stock"})
        s = robots_until_me(g, s)
        return bool(g.view(s, 0)["deal"] == 1 and g.view(s, 0)["phase"] == "turn")

    fixed_seed(monkeypatch, seed_where("yaniv", 2, a_pair_and_the_round_goes_on))
    page = pages.new()
    enter(page, server.url, "Léa")
    create_table(page, "yaniv", players=2)
    assert wait_turn(page) == "mine"
    pair = pair_of(hand(page))
    # several cards are selected, then discarded together
    for card in pair:
        page.click(f'#hand .card[data-card="{card}"]')
    expect(page.locator("#hand .card.selected")).to_have_count(2)
    act(page, "#actions .btn.confirm")
    assert wait_turn(page) == "mine"
    expect(page.locator("#laid .card")).to_have_count(2)
    # then the draw: the stock, or a card of the previous discard
    act(page, "#stock .card.playable")
    expect(page.locator("#log")).to_contain_text("Léa défausse")
    assert wait_turn(page) == "mine"
    expect(page.locator("#hand .card")).to_have_count(4)
    screenshot(page, "yaniv")


def test_refusals_are_told_in_french_and_only_in_french(server: LiveServer, pages: Pages) -> None:
    page = pages.new()
    enter(page, server.url, "Marius")
    told = page.evaluate(
        """async () => {
        const m = await import('/js/errors.js');
        return [
          m.errorText({code: 'not_your_turn', message: 'it is not your turn'}),
          m.errorText({code: 'illegal_action', message: 'you must follow hearts'}),
          m.errorText({code: 'seat_taken', message: 'seat 2 is taken'}),
          m.errorText({code: 'something_new', message: 'a reason'}),
          m.errorText({status: 404, message: 'there is no table 9'}),
          m.errorText({status: 422, message: 'options.target : must be at least 100, got 50'}),
          m.errorText({status: 422, message: 'turn_seconds : must be null (no timer) or between'
                       + ' 5 and 600 seconds, got 2'}),
        ];
      }"""
    )
    # the French sentence; the server's reason only where it can be said in French
    assert told == [
        "Ce n'est pas à vous de jouer.",
        "Ce coup n'est pas permis.",
        "Cette place vient d'être prise.",
        "Erreur inattendue.",
        "Cette table n'existe pas (ou plus).",
        "Ce choix n'est pas permis. — Partie en points : au moins 100 (et non 50)",
        "Ce choix n'est pas permis. — Minuteur : sans minuteur, ou de 5 à 600 secondes",
    ]
    # a refusal from the server, through the REST client: the sentence alone
    page.evaluate(
        """async () => {
        const [{ api }, { toastError }] = await Promise.all(
          [import('/js/api.js'), import('/js/dom.js')]);
        try { await api.start(999999, true); } catch (e) { toastError(e); }
      }"""
    )
    expect(page.locator("#toast .toast-text")).to_have_text("Cette table n'existe pas (ou plus).")
    assert not re.search(r"\b(not|found|must|got|the|is|there)\b", page.inner_text("#toast"))
    # the browser logs the 404 it was answered: that line only
    pages.errors[:] = [e for e in pages.errors if "status of 404" not in e]


def _close(server: LiveServer, table: int, reason: str) -> None:
    """What an admin's ``POST /api/admin/tables/{id}/close`` does."""
    from tablee.tables import admin

    server.run(lambda app: admin.close(app.state.manager, table, reason, "admin"))


def test_a_table_closed_by_the_admin_says_so_and_offers_no_rematch(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    enter(page, server.url, "Noé")
    table = create_table(page, "belote")
    assert wait_turn(page) == "mine"
    _close(server, table, "Tricherie signalée")
    closed = page.locator("#result #closed")
    expect(closed).to_be_visible()
    expect(closed.locator("h2")).to_have_text("Table fermée par l'administration")
    expect(closed).to_contain_text("Tricherie signalée")
    expect(page.locator("#status")).to_have_text("Table fermée par l'administration.")
    expect(page.locator("#log")).to_contain_text("Table fermée par l'administration")
    # the server refuses a rematch at a closed table: the page does not offer one
    expect(page.locator("#rematch")).to_have_count(0)
    assert state(page)["closed"] == "1"
    screenshot(page, "table-closed")
    # the same after a reload
    page.reload()
    expect(page.locator("#result #closed")).to_contain_text("Tricherie signalée")
    expect(page.locator("#rematch")).to_have_count(0)


def test_a_waiting_table_closed_by_the_admin_shows_why_instead_of_the_waiting_room(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    enter(page, server.url, "Olga")
    table = create_table(page, "belote", people=[2])
    expect(page.locator(".waiting")).to_contain_text("En attente des joueurs")
    _close(server, table, "closed by an admin")
    expect(page.locator("#closed")).to_contain_text("Table fermée par l'administration")
    # the server's default reason says nothing more: not shown
    expect(page.locator("#closed")).not_to_contain_text("closed by an admin")
    expect(page.locator("#start-bots")).to_have_count(0)
    expect(page.locator("#leave")).to_have_count(0)
    expect(page.locator("#rematch")).to_have_count(0)


def test_the_table_says_when_it_played_for_a_player_out_of_time_then_the_leaderboard(
    server: LiveServer, pages: Pages
) -> None:
    from tablee.tables import admin

    page = pages.new()
    enter(page, server.url, "Paulin")
    table = create_table(page, "contrecarte", players=2)
    assert wait_turn(page) == "mine"
    watcher = pages.new()
    enter(watcher, server.url, "Quentin")
    watcher.goto(f"{server.url}#/table/{table}")
    expect(watcher.locator("#felt .seat")).to_have_count(2)
    # Paulin never moves again: with a short timer the table plays for him to the end
    server.run(lambda app: admin.set_timer(app.state.manager, table, 0.3))
    for p in (page, watcher):
        p.wait_for_function("() => document.querySelector('#table')?.dataset.over === '1'")
    expect(page.locator("#log")).to_contain_text("Temps écoulé : la table a joué pour vous.")
    expect(watcher.locator("#log")).to_contain_text("Temps écoulé : la table a joué pour Paulin.")
    # each notice comes just before the move it explains
    lines = page.locator("#log li").all_inner_texts()
    told = [i for i, line in enumerate(lines) if line.startswith("Temps écoulé")]
    assert told and all(lines[i + 1].startswith(("Paulin ", "Vous ")) for i in told), lines

    # the game counts on the leaderboard: a real table, figures right under their headings
    page.goto(server.url)
    board = page.locator("#leaderboard")
    expect(board.locator("tbody tr", has_text="Paulin")).to_have_count(1)
    screenshot(page, "lobby-leaderboard")
    edges = board.evaluate(
        """t => [...t.rows].map(row => [...row.cells].map(cell => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            const r = range.getBoundingClientRect();
            return [Math.round(r.left), Math.round(r.right)];
        }))"""
    )
    head, body = edges[0], edges[1:]
    assert all(len(row) == len(head) == 5 for row in body), edges
    for row in body:
        assert abs(row[1][0] - head[1][0]) <= 1, f"names not under their heading: {edges}"
        for col in (0, 2, 3, 4):
            assert abs(row[col][1] - head[col][1]) <= 1, f"column {col} misaligned: {edges}"
    row = board.locator("tbody tr", has_text="Paulin")
    assert row.locator("td").all_inner_texts()[2] == "1"


def test_a_seat_a_robot_takes_over_is_shown(server: LiveServer, pages: Pages) -> None:
    from tablee.tables import admin

    julie = pages.new()
    enter(julie, server.url, "Julie")
    table = create_table(julie, "contree", people=[1])
    bob = pages.new()
    enter(bob, server.url, "Bob")
    bob.goto(f"{server.url}#/table/{table}")
    bob.click('button[data-join-seat="1"]')
    assert wait_turn(julie) == "mine"
    # an admin removes Bob: a robot plays his seat from now on
    server.run(lambda app: admin.kick(app.state.manager, table, 1, "absent", "admin"))
    expect(julie.locator("#log")).to_contain_text(
        "Bob est retiré(e) de la table par l'administration : un robot joue à sa place."
    )
    seat = julie.locator('#felt .seat[data-seat="1"]')
    expect(seat.locator(".tag.replaced")).to_have_text("remplace Bob")
    expect(seat.locator(".bot-icon")).to_have_count(1)
    assert wait_turn(julie) == "mine"
    screenshot(julie, "contree-robot-takes-over")
    # the game goes on with the robot at that seat
    play(julie, 2)
    expect(seat.locator(".tag.replaced")).to_have_text("remplace Bob")
