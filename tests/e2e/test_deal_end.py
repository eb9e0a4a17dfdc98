"""The end of a deal shows how it was scored, for every game: one deal of each (fixed seeds), a
person with robots, watched on a laptop (1366×768) and on a phone. The person's moves are the
table's timeout moves, made through the server (what is checked is the end of the deal, not the
play): when the deal ends, the breakdown panel shows every line of the ``deal_end`` event's
``breakdown`` in French and its total, on both screens. Screenshots ``deal-end-<game>`` and
``deal-end-<game>-phone``."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tablee.games import game_names

from .conftest import SHOTS, LiveServer, Pages, screenshot
from .helpers import enter, open_robot_table, play_until, player_id

#: players and seed of the table of each game (a deal that shows several lines)
TABLES = {
    "belote": (4, 3),
    "contree": (4, 3),
    "tarot": (4, 5),
    "barbu": (4, 2),
    "motton": (4, 4),
    "freeze": (4, 2),
    "yaniv": (4, 2),
    "contrecarte": (3, 2),
}


def _deal_end(live: Any) -> dict[str, Any] | None:
    return next((dict(e) for e in live.history if e["type"] == "deal_end"), None)


def signed(p: int, zero: str = "") -> str:
    return f"+{p}" if p > 0 else f"−{-p}" if p < 0 else zero


def check_panel(page: Page, end: dict[str, Any], over: bool) -> None:
    sel = "#deal-end-last" if over else "#deal-end"
    panel = page.locator(sel)
    expect(panel).to_be_visible()
    b = end["breakdown"]
    rows = panel.locator("tbody tr:not(.fact):not(.total)")
    expect(rows).to_have_count(len(b["lines"]))
    for i, ln in enumerate(b["lines"]):
        label = rows.nth(i).locator("th").inner_text()
        # a French label, never the item's key
        assert label and "_" not in label and label != ln["item"], (ln, label)
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells == [signed(p) for p in ln["points"]], (ln, cells)
    total = panel.locator("tr.total td").all_inner_texts()
    assert total == [signed(p, "0") for p in b["total"]], total
    # the panel stays within the window; on a laptop it sits between the seats, none covered
    # (a phone gives it the felt). Read at once: the robots playing on redraw the felt.
    where = page.evaluate(
        """(sel) => {
          const r = (el) => el.getBoundingClientRect();
          const p = r(document.querySelector(sel));
          const covered = [...document.querySelectorAll('#felt .seat')].filter((el) => {
            const s = r(el);
            return !(s.right <= p.left || p.right <= s.left
              || s.bottom <= p.top || p.bottom <= s.top);
          }).map((el) => el.textContent);
          return { left: p.left, right: p.right, width: innerWidth, covered };
        }""",
        sel,
    )
    assert where["left"] >= 0 and where["right"] <= where["width"] + 1, where
    if not over and where["width"] > 640:
        assert where["covered"] == [], where


@pytest.mark.parametrize("game", sorted(TABLES))
def test_the_end_of_a_deal_shows_how_it_was_scored(
    server: LiveServer, pages: Pages, game: str
) -> None:
    assert game in game_names()
    players, seed = TABLES[game]
    page = pages.new(width=1366, height=768)
    # the breakdown stays while the next deal is played (it goes 20 s after it is dealt)
    page.context.add_init_script("window.tableeDealEndPause = 600000;")
    enter(page, server.url, "Zoé")
    pid = player_id(page)
    table = open_robot_table(server, page, game, players, seed)
    # the same person on a phone
    phone = pages.new(width=390, height=844, phone=True)
    phone.context.add_init_script("window.tableeDealEndPause = 600000;")
    token = page.evaluate("localStorage.getItem('tablee.player')")
    phone.goto(server.url)
    phone.evaluate("t => localStorage.setItem('tablee.player', t)", token)
    phone.goto(f"{server.url}#/table/{table}")
    expect(phone.locator("#felt .seat")).to_have_count(players)

    end = play_until(server, table, pid, _deal_end)
    # a one-deal game (contrecarte, belote's default) ends with it: the breakdown is in the
    # end-of-game panel
    expect(page.locator("#deal-end, #deal-end-last").first).to_be_visible()
    over = page.locator("#deal-end-last").count() > 0
    assert over == (page.locator("#table").get_attribute("data-over") == "1")
    check_panel(page, end, over)
    screenshot(page, f"deal-end-{game}")
    check_panel(phone, end, over)
    screenshot(phone, f"deal-end-{game}-phone")
    # what the phone's screen shows, without scrolling
    phone.screenshot(path=str(SHOTS / f"deal-end-{game}-phone-screen.png"))
    if not over:
        # put away, it leaves the felt to the game
        page.click("#deal-end-close")
        expect(page.locator("#deal-end")).to_have_count(0)
