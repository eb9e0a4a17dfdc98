"""A finished game's history (thousands of events) is freed a chunk a turn of the event loop
once the next game is dealt, not at once in the change that deals it."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import pytest

from tablee.games import get_game
from tablee.store import Store
from tablee.tables import TableManager
from tablee.tables import live as live_module
from tablee.tables.live import FREE_CHUNK, let_go

GAME = get_game("contrecarte")


class Item:
    """An event's stand-in that can be watched (a dict cannot)."""


def _alive(refs: list[weakref.ref[Item]]) -> int:
    return sum(r() is not None for r in refs)


async def test_let_go_empties_its_lists_a_chunk_a_turn_of_the_loop() -> None:
    events, actions = [Item() for _ in range(2 * FREE_CHUNK + 10)], [Item() for _ in range(5)]
    refs = [weakref.ref(x) for x in events + actions]
    let_go(events, actions)
    gc.collect()
    total = 2 * FREE_CHUNK + 15
    assert _alive(refs) == total, "nothing freed before the loop turns"
    seen = []
    for _ in range(4):
        await asyncio.sleep(0)
        seen.append((_alive(refs), len(events), len(actions)))
    assert seen == [
        (total - FREE_CHUNK - 5, FREE_CHUNK + 10, 0),
        (total - 2 * FREE_CHUNK - 5, 10, 0),
        (0, 0, 0),
        (0, 0, 0),
    ]


def test_without_a_running_loop_let_go_leaves_the_items_to_their_last_reference() -> None:
    items = [Item() for _ in range(3)]
    refs = [weakref.ref(x) for x in items]
    let_go(items)
    del items
    assert _alive(refs) == 0


async def test_the_vote_that_deals_the_next_game_frees_the_last_games_history_after_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [(await store.create_player(name))[0] for name in ("Alice", "Bob")]
    m = TableManager(store, bot_delay=0)
    live = await m.create_table(players[0], "contrecarte", 2, seed=3)
    await m.join(players[1], live.id)
    while live.rec.status == "playing":
        seat = live.to_act()[0]
        await m.act(players[seat], live.id, GAME.auto_action(live.state, seat))
    last_game, last_actions = live.history, live.move_actions
    moves = len(last_actions)
    chunk = 8  # a short game of two: a few chunks all the same
    monkeypatch.setattr(live_module, "FREE_CHUNK", chunk)
    assert len(last_game) > 2 * chunk and moves > 0
    freed: list[tuple[int, int]] = []
    real = live_module._free_chunk

    def spy(items: list[Any]) -> None:
        freed.append((id(items), len(items)))
        real(items)

    monkeypatch.setattr(live_module, "_free_chunk", spy)
    await m.rematch(players[0], live.id)
    assert live.history is last_game, "one vote does not deal"
    await m.rematch(players[1], live.id)
    assert live.rec.game_no == 2 and live.history is not last_game
    assert freed == [], "nothing of the last game freed in the change that dealt the next"
    events = len(last_game)
    for _ in range(1000):
        if not last_game and not last_actions:
            break
        await asyncio.sleep(0)
    assert [n for i, n in freed if i == id(last_game)] == list(range(events, 0, -chunk))
    assert [n for i, n in freed if i == id(last_actions)] == list(range(moves, 0, -chunk))
