"""What a player does in the browser, as small steps the tests combine."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def enter(page: Page, url: str, name: str) -> None:
    """Arrival: pick a name; the lobby shows."""
    page.goto(url)
    page.fill("#name", name)
    page.click("form.arrival button[type=submit]")
    expect(page.locator(".game-tile").first).to_be_visible()


def create_table(page: Page, game: str, players: int | None = None, bots: str = "all") -> int:
    """Creates a table from the lobby form; returns its id once the table page shows."""
    page.click(f'.game-tile[data-game="{game}"]')
    if players is not None:
        page.click(f'[data-players="{players}"]')
    if bots == "all":
        page.click("text=tout en robots")
    page.click("#create")
    page.wait_for_url(re.compile(r"#/table/\d+"))
    return int(page.url.rsplit("/", 1)[1])


def token(page: Page) -> str:
    data: dict[str, Any] = page.evaluate("JSON.parse(localStorage.getItem('tablee.player'))")
    return str(data["token"])


def state(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.locator("#table").evaluate("el => ({...el.dataset})")
    return data


def wait_version_change(page: Page, old: str, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "old => { const t = document.querySelector('#table');"
        " return t && t.dataset.version !== old && !document.querySelector('#actions.busy'); }",
        arg=old,
        timeout=timeout,
    )


def wait_my_turn_or_over(page: Page, timeout: float = 20_000) -> str:
    """Waits until this player may act or the game is over; returns "mine" or "over"."""
    page.wait_for_function(
        "() => { const t = document.querySelector('#table');"
        " return t && (t.dataset.over === '1' || (t.dataset.mine === '1'"
        " && !document.querySelector('#actions.busy'))); }",
        timeout=timeout,
    )
    return "over" if state(page)["over"] == "1" else "mine"


def _first(page: Page, selectors: Sequence[str]) -> Any:
    for sel in selectors:
        loc = page.locator(sel)
        if loc.count():
            return loc.first
    return None


def step(page: Page, prefer: Sequence[str] = ()) -> str:
    """One move of this player, made the way a person would: a preferred control if one shows,
    else the first legal card (selected, then confirmed or its variant chosen), else the first
    button. Returns a short description of what was clicked."""
    old = state(page)["version"]
    done: list[str] = []
    for _ in range(8):
        target = _first(page, [f"#actions {p}" for p in prefer] + [f"#hand {p}" for p in prefer])
        if target is None:
            target = _first(
                page,
                [
                    "#actions .btn.confirm",
                    "#actions .group .btn.choice:not(.back)",
                    # one card on each side at most (a freeze swap: theirs, then yours)
                    "#felt:not(:has(.card.selected)) .card.playable",
                    "#hand:not(:has(.card.selected)) .card.playable",
                    "#actions .btn.action",
                    "#actions .btn.mode",
                    "#hand .card.playable:not(.selected)",
                ],
            )
        if target is None:
            if state(page)["mine"] != "1":
                return " > ".join(done) or "(nothing: no longer this player's turn)"
            # a state is being drawn (an out-of-turn window opening or closing): look again
            page.wait_for_timeout(150)
            continue
        try:
            done.append(
                target.evaluate(
                    "el => el.dataset.card || el.dataset.action || el.textContent", timeout=2000
                )
            )
            target.click(timeout=2000)
        except PlaywrightTimeout:
            # the control went away: another seat moved and the legal actions changed
            done.append("(gone)")
            continue
        if page.locator("#actions.busy").count() or state(page)["version"] != old:
            wait_version_change(page, old)
            return " > ".join(done)
    if state(page)["mine"] != "1" or state(page)["version"] != old:
        return " > ".join(done) or "(the table moved on)"
    raise AssertionError(
        f"no move could be made; clicked: {done}; state {state(page)};"
        f" panel: {page.inner_html('#actions')[:600]}"
    )


def play(page: Page, moves: int, prefer: Sequence[str] = ()) -> list[str]:
    """Up to ``moves`` moves of this player; stops early when the game is over."""
    log = []
    for _ in range(moves):
        if wait_my_turn_or_over(page) == "over":
            break
        log.append(step(page, prefer))
    return log
