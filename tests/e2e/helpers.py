"""What a player does in the browser, as small steps the tests combine.

Robots move 50 ms after the table starts waiting on them, so what the page shows between two of
their moves lasts a few milliseconds. These helpers therefore look at the table and act only
when it waits on this player alone (``to_act`` is this seat): nothing can change then until the
player moves, so what the test reads is still true when it checks it, and the player's choices
are the same on every run (a fixed seed then fixes the whole game). The page tells its state in
``#table``'s data attributes: ``version``, ``phase``, ``over``, ``mine`` (some action is legal),
``seat``, ``toAct``, ``busy`` (a move is on its way: from the click until the state that follows
it is drawn) and ``refused`` (how many moves the server refused).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tablee import bots
from tablee.games import get_game

#: The table waits on this player (and the last move's state is drawn), or the game is over.
_WAITS_ON_ME = """() => {
  const t = document.querySelector('#table');
  if (!t || !t.dataset.version) return false;
  if (t.dataset.over === '1') return true;
  return t.dataset.busy !== '1' && t.dataset.mine === '1' && t.dataset.seat !== ''
    && t.dataset.toAct === t.dataset.seat;
}"""


def enter(page: Page, url: str, name: str) -> None:
    """Arrival: pick a name; the lobby shows."""
    page.goto(url)
    page.fill("#name", name)
    page.click("form.arrival button[type=submit]")
    expect(page.locator(".game-tile").first).to_be_visible()


def create_table(
    page: Page, game: str, players: int | None = None, people: Sequence[int] = ()
) -> int:
    """Creates a table from the lobby form, every other seat a robot except the seats in
    ``people`` (0-based, left for persons); returns its id once the table page shows."""
    page.click(f'.game-tile[data-game="{game}"]')
    if players is not None:
        page.click(f'[data-players="{players}"]')
    page.click("text=tout en robots")
    for seat in people:
        page.click(f'.seat-choice[data-seat="{seat}"]')
    page.click("#create")
    page.wait_for_url(re.compile(r"#/table/\d+"))
    return int(page.url.rsplit("/", 1)[1])


def token(page: Page) -> str:
    data: dict[str, Any] = page.evaluate("JSON.parse(localStorage.getItem('tablee.player'))")
    return str(data["token"])


def state(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.locator("#table").evaluate("el => ({...el.dataset})")
    return data


def hand(page: Page) -> list[str]:
    cards: list[str] = page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return cards


def toast_text(page: Page) -> str:
    box = page.locator("#toast")
    return box.inner_text() if box.count() else ""


def waits_on_me(page: Page) -> bool:
    """The table waits on this player alone (or the game is over), as drawn now."""
    return bool(page.evaluate(f"({_WAITS_ON_ME})()"))


def wait_turn(page: Page, timeout: float = 20_000) -> str:
    """Waits until the table waits on this player alone, or the game is over; returns "mine"
    or "over"."""
    page.wait_for_function(_WAITS_ON_ME, timeout=timeout)
    return "over" if state(page)["over"] == "1" else "mine"


def wait_version_change(
    page: Page, old: str, refused: str | None = None, timeout: float = 15_000
) -> None:
    """Waits until a state newer than version ``old`` is drawn and no move is on its way; fails
    at once, with the server's reason, when a move was refused (the page counted more refusals
    than ``refused``, read before the click)."""
    if refused is None:
        refused = state(page)["refused"]
    page.wait_for_function(
        "([old, refused]) => { const t = document.querySelector('#table');"
        " return t && (t.dataset.refused !== refused"
        " || (t.dataset.version !== old && t.dataset.busy !== '1')); }",
        arg=[old, refused],
        timeout=timeout,
    )
    if state(page)["refused"] != refused:
        raise AssertionError(f"the server refused the move: {toast_text(page)}")


def act(page: Page, selector: str) -> None:
    """Clicks a control that sends a move, then waits for the state that follows it."""
    before = state(page)
    page.click(selector)
    wait_version_change(page, before["version"], before["refused"])


def _first(page: Page, selectors: Sequence[str]) -> Any:
    for sel in selectors:
        loc = page.locator(sel)
        if loc.count():
            return loc.first
    return None


# The control a player without a preference clicks: a pending choice first, then a card.
_DEFAULT_ORDER = (
    "#actions .btn.confirm",
    "#actions .group .btn.choice:not(.back)",
    # one card on each side at most (a freeze swap: theirs, then yours)
    "#felt:not(:has(.card.selected)) .card.playable",
    "#hand:not(:has(.card.selected)) .card.playable",
    "#actions .btn.action",
    "#actions .btn.mode",
    "#hand .card.playable:not(.selected)",
)


def step(page: Page, prefer: Sequence[str] = ()) -> str:
    """One move of this player, made the way a person would: a preferred control if one shows,
    else the first legal card (selected, then confirmed or its variant chosen), else the first
    button. Called when the table waits on this player, so no control goes away meanwhile.
    Returns a short description of what was clicked."""
    before = state(page)
    assert waits_on_me(page) and before["over"] == "0", f"not this player's turn: {before}"
    old, refused = before["version"], before["refused"]
    done: list[str] = []
    for _ in range(8):
        preferred = [f"#actions {p}" for p in prefer] + [f"#hand {p}" for p in prefer]
        target = _first(page, preferred) or _first(page, _DEFAULT_ORDER)
        if target is None:
            break
        done.append(target.evaluate("el => el.dataset.card || el.dataset.action || el.textContent"))
        target.click()
        now = state(page)
        if now["busy"] == "1" or now["version"] != old or now["refused"] != refused:
            wait_version_change(page, old, refused)
            return " > ".join(done)
    raise AssertionError(
        f"no move could be made; clicked: {done}; state {state(page)};"
        f" panel: {page.inner_html('#actions')[:600]}"
    )


def play(page: Page, moves: int, prefer: Sequence[str] = ()) -> list[str]:
    """Up to ``moves`` moves of this player; stops early when the game is over."""
    log = []
    for _ in range(moves):
        if wait_turn(page) == "over":
            break
        log.append(step(page, prefer))
    return log


# -- deals -----------------------------------------------------------------------------------------

#: The seed of every table a test creates, unless the test picks one (``conftest``).
DEFAULT_SEED = 7


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The next tables the server creates are dealt from ``seed`` (the server runs in this
    process; a person's table gets a random seed)."""
    import tablee.tables.manager as manager

    monkeypatch.setattr(manager.secrets, "randbits", lambda bits: seed)


def robots_until_me(g: Any, s: Any, me: int = 0) -> Any:
    """The robots' moves (the server's bot policy) until the table waits on ``me`` again."""
    for _ in range(1000):
        if g.is_over(s) or tuple(g.to_act(s)) == (me,):
            return s
        seat = g.to_act(s)[0]
        s, _ = g.apply(s, seat, bots.play(g, s, seat))
    raise AssertionError("the robots never gave the turn back")


def seed_where(game: str, players: int, good: Any, tries: int = 2000) -> int:
    g = get_game(game)
    for seed in range(1, tries):
        s = g.new(players=players, seed=seed)
        if tuple(g.to_act(s)) == (0,) and good(g, s):
            return seed
    raise AssertionError(f"no seed found for {game}")


def player_id(page: Page) -> int:
    """The id of the player this page entered as."""
    return int(page.evaluate("JSON.parse(localStorage.getItem('tablee.player')).id"))


def open_robot_table(server: Any, page: Page, game: str, players: int, seed: int) -> int:
    """A table of ``game`` made on the server for the page's player at seat 0, robots in the
    other seats, dealt from ``seed``; the page opens it. Returns its id."""
    pid = player_id(page)

    async def create(app: Any) -> int:
        rec = await app.state.store.player(pid)
        live = await app.state.manager.create_table(
            rec, game, players, bots=range(1, players), seed=seed
        )
        return int(live.id)

    table: int = server.run(create)
    page.goto(f"{server.url}#/table/{table}")
    expect(page.locator("#felt .seat")).to_have_count(players)
    return table


def play_until(server: Any, table: int, pid: int, done: Any, timeout: float = 120) -> Any:
    """Seat 0's person makes the table's timeout moves (the robots play by themselves) until
    ``done(live)`` gives something, which is returned."""

    async def step(app: Any) -> Any:
        manager = app.state.manager
        live = await manager.get(table)
        found = done(live)
        if found:
            return found
        if 0 in live.to_act():
            rec = await app.state.store.player(pid)
            await manager.act(rec, table, live.game.auto_action(live.state, 0))
        return None

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = server.run(step)
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("the moment never came")
