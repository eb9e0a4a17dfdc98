"""Accounts and players' pages in the browser (issue 18): a guest keeps its name with a password,
logs in from a second browser context, and both see the finished game on the player's page, with
the rating history drawn as an SVG chart."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tablee.games import game_names

from .conftest import LiveServer, Pages, screenshot
from .helpers import create_table, enter, token

PASSWORD = "une tablée de rêve"


def play_out(server: LiveServer, table_id: int) -> dict[str, Any]:
    """The table's two people play random legal moves to the end (on the server's loop)."""

    async def run(app: Any) -> dict[str, Any]:
        manager, store = app.state.manager, app.state.store
        pick = random.Random(table_id)
        for _ in range(5_000):
            live = await manager.get(table_id)
            if live.game.is_over(live.state):
                return dict(live.rec.outcome or {})
            seat = live.game.to_act(live.state)[0]
            player = await store.player(live.rec.seats[seat].player_id)
            action = pick.choice(live.game.legal_actions(live.state, seat))
            await manager.act(player, table_id, action)
        raise AssertionError("the game did not end")

    result: dict[str, Any] = server.run(run, timeout=120)
    return result


def test_claim_then_log_in_from_another_browser_and_see_the_game_on_the_profile(
    server: LiveServer, pages: Pages
) -> None:
    first = pages.new()
    enter(first, server.url, "Margaux")
    # the lobby offers to keep the name
    expect(first.locator("#claim")).to_be_visible()
    first.fill("#claim-password", PASSWORD)
    first.click("#claim button[type=submit]")
    expect(first.locator("#account")).to_contain_text("est à vous")
    screenshot(first, "lobby-account")
    # a rated table between two people
    table = create_table(first, "contrecarte", players=2, people=(1,))
    other = pages.new()
    enter(other, server.url, "Nestor")
    r = httpx.post(
        f"{server.url}api/tables/{table}/join",
        headers={"Authorization": f"Bearer {token(other)}"},
        json={},
    )
    assert r.status_code == 200 and r.json()["rated"] is True, r.text
    outcome = play_out(server, table)
    first.wait_for_function("() => document.querySelector('#table')?.dataset.over === '1'")

    # a second browser: no guest, the login form of the arrival
    second = pages.new()
    second.goto(server.url)
    second.fill("#login-name", "margaux")
    second.fill("#login-password", PASSWORD)
    second.click("#login button[type=submit]")
    expect(second.locator("#account")).to_contain_text("2 sessions ouvertes")
    assert token(second) != token(first)
    # the player's page, from both browsers: the game, its link, the chart
    for page in (second, first):
        page.goto(f"{server.url}joueur/Margaux")
        expect(page.locator("#profile h1")).to_have_text("Margaux")
        games = page.locator("#profile-games tbody tr")
        expect(games).to_have_count(1)
        cells = games.first.locator("td").all_inner_texts()
        assert cells[1] == "1" and cells[2] == ("1" if 0 in outcome["winners"] else "0")
        game = page.locator(f'#last-games li[data-table="{table}"]')
        expect(game.locator("a").first).to_have_attribute("href", f"#/table/{table}")
        # and its replay, every hand shown
        expect(game.locator("a.replay-link")).to_have_attribute(
            "href", re.compile(rf"#/replay/{table}/\d+$")
        )
        expect(page.locator("#rating-chart polyline")).to_have_count(1)
        expect(page.locator("#rating-chart circle")).to_have_count(1)
    screenshot(second, "profile-chart")
    box = second.locator("#rating-chart").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    # the lobby's rated leaderboard, one game at a time
    second.goto(server.url)
    # every game the server deals (the server tests register a toy game beside the real ones)
    expect(second.locator("#rated-game option")).to_have_count(len(game_names()))
    second.select_option("#rated-game", "contrecarte")
    expect(second.locator("#rated-board")).to_be_visible()
    screenshot(second, "lobby-rated-board")
    second.goto(f"{server.url}#/joueur/Margaux")
    # the link of the last game opens the finished table
    second.click(f'#last-games li[data-table="{table}"] a >> nth=0')
    second.wait_for_url(f"**/#/table/{table}")
