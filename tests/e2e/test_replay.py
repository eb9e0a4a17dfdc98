"""Replays in the browser: a finished belote and a finished tarot, played through the page
against robots, then replayed with every hand shown (docs/fairness.md). The live frames the
page received during the game are recorded and checked: none named a card of another seat."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket, expect

from tablee.cli import main
from tablee.engine.secrecy import leaks
from tablee.games import get_game

from .conftest import LiveServer, Pages, screenshot
from .helpers import create_table, enter, fixed_seed, play, seed_where, state


def record_frames(page: Page) -> list[dict[str, Any]]:
    """Every frame the page's sockets receive, parsed."""
    frames: list[dict[str, Any]] = []

    def on_frame(payload: str | bytes) -> None:
        if isinstance(payload, str):
            frames.append(json.loads(payload))

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return frames


def check_live_frames(server: LiveServer, table: int, frames: list[dict[str, Any]]) -> int:
    """Each state frame the player's page got names no card its seat could not see at that
    frame's version (the log replayed to it); returns how many were checked."""

    async def log(app: Any) -> Any:
        store = app.state.store
        return await store.table(table), await store.actions(table, 1)

    rec, rows = server.run(log)
    game = get_game(rec.game)
    states = [
        f for f in frames if f.get("type") == "state" and f.get("table") == table and f["view"]
    ]
    assert states, "no state frame recorded"
    checked = 0
    for f in sorted(states, key=lambda f: f["version"]):
        s = game.new(rec.players, rec.options, seed=rec.seed, deck=rec.deck)
        for row in rows:
            if row.version <= f["version"]:
                s, _ = game.apply(s, row.seat, row.action)
        seat = f["view"]["seat"]
        assert seat == 0 and "hands" not in f["view"] and "behind" not in f
        payload = {k: v for k, v in f.items() if k != "info"}
        assert not leaks(payload, game.hidden(s, seat)), f"v{f['version']} names a hidden card"
        checked += 1
    return checked


def shown_hands(page: Page) -> dict[int, list[str]]:
    """The hands the replay page shows: the viewer's (``#hand``) and each seat's on the felt."""
    data: dict[str, list[str]] = page.evaluate(
        """() => {
          const out = {};
          const mine = document.querySelector('#hand');
          out[mine.dataset.seat] = [...mine.querySelectorAll('.card')].map(c => c.dataset.card);
          for (const el of document.querySelectorAll('.open-hand')) {
            out[el.dataset.seat] = [...el.querySelectorAll('.card')].map(c => c.dataset.card);
          }
          return out;
        }"""
    )
    return {int(k): v for k, v in data.items()}


def replay_of(server: LiveServer, table: int) -> dict[str, Any]:
    async def get(app: Any) -> Any:
        from tablee.tables.replays import game_replay

        return await game_replay(app.state.manager, table, 1)

    out: dict[str, Any] = server.run(get)
    return out


def check_replay(page: Page, server: LiveServer, table: int, name: str) -> None:
    rep = replay_of(server, table)
    n = len(rep["steps"]) - 1
    page.click("#replay-link")
    page.wait_for_url(f"**/#/replay/{table}/1**")
    expect(page.locator("#replay")).to_have_attribute("data-steps", str(n))
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    # move 1: every hand visible, as the engine dealt them
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    hands = shown_hands(page)
    assert sorted(hands) == list(range(rep["players"]))
    # (the page orders a hand its own way: compared as sets of cards)
    assert {s: sorted(h) for s, h in hands.items()} == {
        s: sorted(h) for s, h in enumerate(rep["steps"][1]["hands"])
    }
    assert all(hands[s] for s in hands)
    screenshot(page, f"replay-{name}")
    # stepping forward changes the felt as the game did: a card played leaves its hand and
    # lies in the trick
    felt = page.inner_html("#felt")
    played = 0
    for k in range(2, min(n, 40) + 1):
        page.click("#replay-forward")
        expect(page.locator("#replay")).to_have_attribute("data-step", str(k))
        step = rep["steps"][k]
        now = shown_hands(page)
        assert {s: sorted(h) for s, h in now.items()} == {
            s: sorted(h) for s, h in enumerate(step["hands"])
        }, f"step {k}"
        card = (step["action"] or {}).get("card")
        if card and step["action"]["type"] == "play":
            played += 1
            assert card not in now[step["seat"]]
            if step["view"].get("trick"):
                in_trick = page.locator(f'#felt .trick-area .card[data-card="{card}"]')
                expect(in_trick).to_have_count(1)
    assert played >= 4
    assert page.inner_html("#felt") != felt
    # back, last, first, the slider
    page.click("#replay-back")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(min(n, 40) - 1))
    page.click("#replay-last")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(n))
    expect(page.locator("#status")).to_contain_text("Partie terminée")
    expect(page.locator("#shuffle-status")).to_have_attribute("data-verified", "1")
    page.keyboard.press("Home")
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    page.locator("#replay-slider").fill("3")
    expect(page.locator("#replay")).to_have_attribute("data-step", "3")
    assert page.url.endswith(f"#/replay/{table}/1?coup=3")


def play_to_the_end(page: Page) -> None:
    for _ in range(20):
        play(page, 60)
        if state(page)["over"] == "1":
            return
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["belote", "tarot"])
def test_a_finished_game_is_replayed_with_every_hand_and_the_live_frames_hid_them(
    server: LiveServer, pages: Pages, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    if game == "tarot":
        # a deal the robots take: the player passes, plays its cards
        fixed_seed(monkeypatch, seed_where("tarot", 4, lambda g, s: True))
    page = pages.new(width=1366, height=768)
    frames = record_frames(page)
    enter(page, server.url, f"Rejoueur {game}")
    table = create_table(page, game, players=4)
    expect(page.locator("#commitment")).to_be_visible()
    play_to_the_end(page)
    assert check_live_frames(server, table, frames) > 5
    expect(page.locator("#log")).to_contain_text("Graine révélée")
    # anyone can check the shuffle from the table's address
    assert main(["verify", f"{server.url}#/table/{table}"]) == 0
    check_replay(page, server, table, game)

    # the link, shared: a browser without a name opens it at the same step
    other = pages.new(width=390, height=844, phone=True)
    other.goto(f"{server.url}#/replay/{table}/1?coup=5")
    expect(other.locator("#replay")).to_have_attribute("data-step", "5")
    expect(other.locator(".open-hand").first).to_be_visible()
    screenshot(other, f"replay-{game}-phone")


def test_a_spectator_of_a_table_a_trick_behind_sees_every_hand_late(
    server: LiveServer, pages: Pages
) -> None:
    alice = pages.new(width=1366, height=768)
    alice_frames = record_frames(alice)
    enter(alice, server.url, "Alice en retard")
    alice.click('.game-tile[data-game="belote"]')
    alice.click("text=tout en robots")
    alice.select_option("#spectators", "trick")
    alice.click("#create")
    alice.wait_for_url("**/#/table/*")
    table = int(alice.url.rsplit("/", 1)[1])

    bob = pages.new(width=1366, height=768)
    bob_frames = record_frames(bob)
    enter(bob, server.url, "Bob spectateur")
    bob.goto(f"{server.url}#/table/{table}")
    expect(bob.locator("#table")).to_have_attribute("data-seat", "")
    for _ in range(40):
        if bob.locator(".open-hand").count() or state(alice)["over"] == "1":
            break
        play(alice, 1)
    expect(bob.locator("#delay-note")).to_be_visible()
    expect(bob.locator(".open-hand")).to_have_count(4)
    screenshot(bob, "spectator-a-trick-behind")
    play_to_the_end(alice)
    expect(bob.locator("#table")).to_have_attribute("data-over", "1")

    mine = [f for f in alice_frames if f.get("type") == "state" and f.get("view")]
    assert mine and all("hands" not in f["view"] and "behind" not in f for f in mine)
    watched = [f for f in bob_frames if f.get("type") == "state" and f.get("view")]
    late = [f for f in watched if "hands" in f["view"] and not f["over"]]
    assert late, "the spectator never saw the hands"
    # never the table as it is: a whole trick behind at least (4 cards)
    assert all(f["behind"] >= 4 for f in late)
    # before that, the deal as dealt: no hand, no card played told
    early = [f for f in watched if "hands" not in f["view"]]
    assert early and all(f["view"]["hand"] is None and not f["view"]["trick"] for f in early)
    assert not [e for f in early for e in f["events"] if e["type"] == "play"]
