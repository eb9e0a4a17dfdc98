"""The browser client end to end: arrival, lobby, tables of every game played by clicking, what a
spectator sees, reloads and reconnections. Every test also fails on any console error."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tablee.engine import get_game
from tablee.games import game_names

from .conftest import LiveServer, Pages, screenshot
from .helpers import (
    create_table,
    enter,
    play,
    state,
    step,
    wait_my_turn_or_over,
    wait_version_change,
)


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The next tables the server creates are dealt from ``seed`` (the server runs in this
    process; a person's table gets a random seed)."""
    import tablee.tables.manager as manager

    monkeypatch.setattr(manager.secrets, "randbits", lambda bits: seed)


def seed_where(game: str, players: int, good: Any, tries: int = 500) -> int:
    g = get_game(game)
    for seed in range(1, tries):
        if good(g, g.new(players=players, seed=seed)):
            return seed
    raise AssertionError(f"no seed found for {game}")


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
    def two_jokers(g: Any, s: Any) -> bool:
        hand = g.view(s, 0)["hand"]
        return sum(c in ("W", "W+4") for c in hand) >= 2

    fixed_seed(monkeypatch, seed_where("contrecarte", 2, two_jokers))
    page = pages.new()
    enter(page, server.url, "Alice")
    create_table(page, "contrecarte", players=2)
    expect(page.locator("#hand .card").first).to_be_visible()
    expect(page.locator("#hand .card")).to_have_count(7)
    screenshot(page, "contrecarte")

    # the joker first: it asks for a colour, and the colour chosen is in force
    assert wait_my_turn_or_over(page) == "mine"
    jokers = '#hand .card.playable[data-card="W"], #hand .card.playable[data-card="W+4"]'
    page.locator(jokers).first.click()
    expect(page.locator("#actions .btn.swatch")).to_have_count(4)
    page.click('#actions .btn.swatch[data-value="\\"B\\""]')
    expect(page.locator("#color")).to_contain_text("bleu")
    expect(page.locator("#log")).to_contain_text("et choisit bleu")

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
    # a rematch: the only person at the table agrees, and a new game is dealt
    result.locator("#rematch").click()
    expect(result).to_be_hidden()
    expect(page.locator("#hand .card")).to_have_count(7)
    expect(page.locator("#log")).to_contain_text("Revanche")


def test_belote_from_the_lobby_through_bidding_tricks_reload_and_a_spectator(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    enter(page, server.url, "Bruno")
    table = create_table(page, "belote")
    expect(page.locator("#hand .card").first).to_be_visible()
    # bidding: take the turned card when asked (the bots may take first)
    while state(page)["phase"] == "bidding":
        if wait_my_turn_or_over(page) == "over":
            break
        if state(page)["phase"] != "bidding":
            break
        step(page, prefer=['button[data-type="take"]'])
    expect(page.locator("#trump")).to_be_visible()
    while int(state(page)["tricks"] or 0) < 3:
        play(page, 1)
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

    # a reload mid-game restores the same table and hand
    before = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    page.reload()
    expect(page.locator("#hand .card").first).to_be_visible()
    after = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert after == before
    assert state(page)["phase"] == "play"
    play(page, 2)


def test_tarot_through_the_ecart(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def bots_pass_after_a_prise(g: Any, s: Any) -> bool:
        s, _ = g.apply(s, 0, {"type": "bid", "contract": "prise"})
        for seat in (1, 2, 3):
            s, _ = g.apply(s, seat, g.auto_action(s, seat))
        return bool(g.view(s, 0)["phase"] == "ecart")

    fixed_seed(monkeypatch, seed_where("tarot", 4, bots_pass_after_a_prise))
    page = pages.new()
    enter(page, server.url, "Denis")
    create_table(page, "tarot", players=4)
    wait_my_turn_or_over(page)
    page.click('#actions button[data-value="\\"prise\\""]')
    page.wait_for_function("() => document.querySelector('#table').dataset.phase === 'ecart'")
    expect(page.locator("#chien .card")).to_have_count(6)
    expect(page.locator("#hand .card")).to_have_count(24)
    screenshot(page, "tarot-ecart")
    # the first card of the écart: select, confirm; the rest in one click each (the setting)
    wait_my_turn_or_over(page)
    first = page.locator("#hand .card.playable").first
    put_aside = first.get_attribute("data-card")
    first.click()
    expect(page.locator("#actions .btn.confirm")).to_contain_text("Écarter")
    page.click("#actions .btn.confirm")
    expect(page.locator("#ecart .card")).to_have_count(1)
    assert page.locator(f'#ecart .card[data-card="{put_aside}"]').count() == 1
    page.check("#oneclick")
    for n in range(2, 7):
        wait_my_turn_or_over(page)
        version = state(page)["version"]
        page.locator("#hand .card.playable").first.click()
        wait_version_change(page, version)
        if n < 6:
            expect(page.locator("#ecart .card")).to_have_count(n)
    page.wait_for_function("() => document.querySelector('#table').dataset.phase !== 'ecart'")
    expect(page.locator("#hand .card")).to_have_count(18)
    play(page, 4, prefer=['button[data-type="no_chelem"]'])
    expect(page.locator("#contract")).to_contain_text("prise")
    screenshot(page, "tarot")


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_a_playable_table(server: LiveServer, pages: Pages, game: str) -> None:
    g = get_game(game)
    page = pages.new()
    enter(page, server.url, "Émile")
    create_table(page, game, players=min(max(4, g.min_players), g.max_players))
    page.wait_for_function("() => document.querySelector('#table')?.dataset.version")
    play(page, 4)
    assert page.locator("#felt .seat").count() == min(max(4, g.min_players), g.max_players)
    screenshot(page, f"table-{game}")


def test_phone_layout(server: LiveServer, pages: Pages) -> None:
    page = pages.new(width=390, height=800)
    enter(page, server.url, "Fanny")
    create_table(page, "belote")
    expect(page.locator("#hand .card").first).to_be_visible()
    screenshot(page, "phone-belote")
    # the whole hand fits the screen's width
    boxes = [c.bounding_box() for c in page.locator("#hand .card").all()]
    assert all(b is not None and b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes)


def test_reconnects_and_resyncs_after_a_server_restart(server: LiveServer, pages: Pages) -> None:
    page = pages.new()
    enter(page, server.url, "Gaspard")
    create_table(page, "barbu")
    play(page, 2)
    before = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    server.restart()
    # the page reconnects by itself (no reload) and carries on with the same game
    page.wait_for_function(
        "() => document.querySelector('#conn').classList.contains('open')", timeout=20_000
    )
    expect(page.locator("#table")).not_to_have_class(re.compile("offline"))
    after = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert set(after) <= set(before)
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
    guest_hand = guest.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    host_hand = host.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert not set(guest_hand) & set(host_hand)
    # the seat to act shows a countdown bar
    expect(host.locator("#felt .seat.to-act .timer")).to_be_visible()


def test_contree_bid_in_two_steps_then_a_contre_or_a_pass(server: LiveServer, pages: Pages) -> None:
    page = pages.new()
    enter(page, server.url, "Julie")
    create_table(page, "contree")
    assert wait_my_turn_or_over(page) == "mine"
    # the value first, then the suit: 40 bids read as two short rows of buttons
    page.click('#actions button[data-key="value"][data-value="90"]')
    suits = page.locator('#actions button[data-key="suit"]')
    expect(suits).to_have_count(4)
    expect(page.locator("#actions .back")).to_contain_text("90")
    version = state(page)["version"]
    page.click('#actions button[data-key="suit"][data-value="\\"H\\""]')
    wait_version_change(page, version)
    expect(page.locator("#log")).to_contain_text("Julie annonce 90 ♥ cœur")
    screenshot(page, "contree-bidding")
    play(page, 6, prefer=['button[data-type="pass"]', 'button[data-type="decline"]'])


def test_freeze_draw_then_keep_the_card_in_place_of_one_of_yours(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    enter(page, server.url, "Karim")
    create_table(page, "freeze", players=3)
    expect(page.locator("#hand .layout.mine .card")).to_have_count(4)
    # the bottom line is known from the deal, the top line is not
    expect(page.locator("#hand .layout.mine .card.back")).to_have_count(2)
    assert wait_my_turn_or_over(page) == "mine"
    version = state(page)["version"]
    page.click("#stock .card.playable")
    wait_version_change(page, version)
    expect(page.locator("#drawn .card")).to_be_visible()
    drawn = page.locator("#drawn .card").get_attribute("data-card")
    page.click('#actions button[data-mode="replace"]')
    targets = page.locator("#hand .layout.mine .card.playable")
    expect(targets).to_have_count(4)
    version = state(page)["version"]
    page.locator('#hand .layout.mine .card.playable[data-line="0"][data-slot="0"]').click()
    wait_version_change(page, version)
    expect(page.locator("#log")).to_contain_text("Karim garde sa carte")
    # the card kept is now known, face up, in the top line
    expect(page.locator(f'#hand .layout.mine .card[data-card="{drawn}"]')).to_have_count(1)
    screenshot(page, "freeze")


@pytest.mark.skipif("yaniv" not in game_names(), reason="yaniv has not landed yet")
def test_yaniv_discard_a_set_then_draw_from_the_stock(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def a_pair(g: Any, s: Any) -> bool:
        ranks = [c[0] for c in g.view(s, 0)["hand"] if c not in ("X1", "X2")]
        return any(ranks.count(r) >= 2 for r in ranks)

    fixed_seed(monkeypatch, seed_where("yaniv", 2, a_pair))
    page = pages.new()
    enter(page, server.url, "Léa")
    create_table(page, "yaniv", players=2)
    assert wait_my_turn_or_over(page) == "mine"
    hand = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    ranks = [c[0] for c in hand if c not in ("X1", "X2")]
    pair = [c for c in hand if c[0] == next(r for r in ranks if ranks.count(r) >= 2)][:2]
    # several cards are selected, then discarded together
    for card in pair:
        page.click(f'#hand .card[data-card="{card}"]')
    expect(page.locator("#hand .card.selected")).to_have_count(2)
    version = state(page)["version"]
    page.click("#actions .btn.confirm")
    wait_version_change(page, version)
    expect(page.locator("#laid .card")).to_have_count(2)
    # then the draw: the stock, or a card of the previous discard
    version = state(page)["version"]
    page.click("#stock .card.playable")
    wait_version_change(page, version)
    expect(page.locator("#hand .card")).to_have_count(4)
    expect(page.locator("#log")).to_contain_text("Léa défausse")
    screenshot(page, "yaniv")
