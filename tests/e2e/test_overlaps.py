"""Nothing on the felt hides a seat: the chips (trump, contract, the turned card...) and the last
deal's breakdown never cover a seat, and the player's own seat is whole on screen — on a laptop
(1366×768) and on a phone held sideways (844×390), during the play and at the end of a deal, for
every game (fixed seeds). The person's moves are the table's timeout moves, made through the
server. Screenshots ``overlaps-<game>-<size>-<moment>``."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import SHOTS, LiveServer, Pages
from .helpers import enter, open_robot_table, play_until, player_id

TABLES = {
    "belote": (4, 3),
    "contree": (4, 3),
    "tarot": (5, 5),
    "barbu": (4, 2),
    "motton": (5, 4),
    "freeze": (4, 2),
    "yaniv": (5, 2),
    "contrecarte": (6, 2),
}

SIZES = {"laptop": (1366, 768, False), "sideways": (844, 390, True)}

#: what covers what, read at once (the robots redraw the felt as they play)
MEASURE = """() => {
  const r = (el) => el.getBoundingClientRect();
  const meets = (a, b) => !(a.right <= b.left + 1 || b.right <= a.left + 1
    || a.bottom <= b.top + 1 || b.bottom <= a.top + 1);
  const seats = [...document.querySelectorAll('#felt .seat')];
  const covers = [];
  for (const sel of ['.info-chips .info-chip', '#deal-end']) {
    for (const el of document.querySelectorAll(sel)) {
      for (const s of seats) {
        if (meets(r(el), r(s))) covers.push([sel, el.textContent, s.textContent]);
      }
    }
  }
  const me = document.querySelector('#felt .seat.me');
  const felt = r(document.querySelector('#felt'));
  const m = me ? r(me) : null;
  const whole = !m || (m.left >= felt.left - 1 && m.right <= felt.right + 1
    && m.top >= felt.top - 1 && m.bottom <= felt.bottom + 1
    && m.left >= 0 && m.right <= innerWidth && m.bottom <= innerHeight + scrollY);
  const box = (b) => b && [b.left, b.top, b.right, b.bottom];
  return { covers, whole, me: box(m), felt: box(felt) };
}"""


def settle(page: Page, server: LiveServer, table: int) -> None:
    async def version(app: Any) -> int:
        return int((await app.state.manager.get(table)).rec.version)

    v = server.run(version)
    page.wait_for_function(
        "v => Number(document.querySelector('#table')?.dataset.version) >= v", arg=v
    )


def check(page: Page, name: str, small: bool) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    got = page.evaluate(MEASURE)
    covers = got["covers"]
    if small:
        # a small felt gives the whole of itself to the breakdown, a dialog put away by "OK"
        covers = [c for c in covers if c[0] != "#deal-end"]
        if page.locator("#deal-end").count():
            expect(page.locator("#deal-end-close")).to_be_in_viewport()
    assert covers == [], (name, got)
    assert got["whole"], (name, got)


def _waiting_on_me(live: Any) -> bool:
    return live.to_act() == (0,) or not live.to_act()


def _played(live: Any) -> bool:
    recent = any(e["type"] in {"play", "discard", "trick"} for e in live.history[-8:])
    played = any(e["type"] in {"play", "discard"} for e in live.history)
    return _waiting_on_me(live) and recent and played


def _deal_over(live: Any) -> bool:
    return _waiting_on_me(live) and any(e["type"] == "deal_end" for e in live.history)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", sorted(TABLES))
def test_nothing_on_the_felt_hides_a_seat(
    server: LiveServer, pages: Pages, game: str, size: str
) -> None:
    players, seed = TABLES[game]
    width, height, phone = SIZES[size]
    page = pages.new(width=width, height=height, phone=phone)
    page.context.add_init_script("window.tableeDealEndPause = 600000;")
    enter(page, server.url, "Zoé")
    pid = player_id(page)
    table = open_robot_table(server, page, game, players, seed)
    play_until(server, table, pid, _played)
    settle(page, server, table)
    check(page, f"overlaps-{game}-{size}-play", phone)
    play_until(server, table, pid, _deal_over)
    settle(page, server, table)
    if page.locator("#deal-end").count():
        check(page, f"overlaps-{game}-{size}-deal-end", phone)
