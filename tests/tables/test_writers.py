"""One writer per table: a change that lost a race is retried on fresh state and never applied
twice; a store failure changes nothing and does not stall the table."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tablee.tables.scheduler as scheduler_module
from tablee.games import get_game, replay
from tablee.store import PlayerRecord, Store, Unreachable
from tablee.tables import TableError, TableManager
from tests.serverkit import Database, OtherProcesses, ToyGame


@pytest.fixture
async def two(database: Database, toy_game: ToyGame) -> AsyncIterator[tuple[Any, ...]]:
    stores = [Store(database.url, database.schema) for _ in range(2)]
    await stores[0].migrate()
    alice, _ = await stores[0].create_player("Alice")
    bob, _ = await stores[0].create_player("Bob")
    yield stores, alice, bob
    for s in stores:
        await s.close()


async def _table(m: TableManager, alice: PlayerRecord, bob: PlayerRecord) -> int:
    live = await m.create_table(alice, "toy", 2, {"hand": 3}, seed=11)
    await m.join(bob, live.id)
    return live.id


async def _current(store: Store, tid: int) -> Any:
    rec = await store.table(tid)
    log = await store.actions(tid, 1)
    return replay("toy", 2, rec.options, rec.seed, [(a.seat, a.action) for a in log])


def _same(a: Any, b: Any) -> bool:
    g = get_game("toy")
    return json.dumps(g.to_json(a), sort_keys=True) == json.dumps(g.to_json(b), sort_keys=True)


async def test_a_process_catches_up_before_each_change(two: tuple[Any, ...]) -> None:
    (s1, s2), alice, bob = two
    m1 = TableManager(s1, broker=OtherProcesses(), bot_delay=0)
    m2 = TableManager(s2, broker=OtherProcesses(), bot_delay=0)
    assert m1.shared and m2.shared
    tid = await _table(m1, alice, bob)
    t1, t2 = await m1.get(tid), await m2.get(tid)
    for m, who, seat in [(m1, alice, 0), (m2, bob, 1), (m1, alice, 0), (m2, bob, 1)]:
        card = (await _current(s1, tid)).hands[seat][0]
        await m.act(who, tid, {"type": "play", "card": card})
    log = await s1.actions(tid, 1)
    assert [a.seat for a in log] == [0, 1, 0, 1] and [a.seq for a in log] == [1, 2, 3, 4]
    assert t1.rec.version + 1 == t2.rec.version  # m1 has not looked since
    await m1.catch_up(t1)
    rec = await s1.table(tid)
    again = replay("toy", 2, rec.options, rec.seed, [(a.seat, a.action) for a in log])
    assert _same(t1.state, again) and _same(t2.state, again)
    await m1.close()
    await m2.close()


async def test_a_lost_race_is_retried_on_fresh_state_never_applied_twice(
    two: tuple[Any, ...],
) -> None:
    (s1, s2), alice, bob = two
    m1 = TableManager(s1, bot_delay=0)
    m2 = TableManager(s2, bot_delay=0)  # not told about m1's writes: its memory goes stale
    tid = await _table(m1, alice, bob)
    t2 = await m2.get(tid)
    stale_hand = t2.state.hands[0]
    await m1.act(alice, tid, {"type": "play", "card": stale_hand[0]})
    # on m2's stale state it is still Alice's turn: the write finds a newer version, m2 reloads
    # and tries again on the fresh state, where it is Bob's turn
    with pytest.raises(TableError) as refused:
        await m2.act(alice, tid, {"type": "play", "card": stale_hand[1]})
    assert refused.value.code == "not_your_turn"
    log = await s1.actions(tid, 1)
    assert [(a.seat, a.action["card"]) for a in log] == [(0, stale_hand[0])]
    assert t2.seq == 1 and t2.rec.version == (await s1.table(tid)).version
    await m1.close()
    await m2.close()


@pytest.mark.parametrize(
    "failure", [ConnectionError("the database went away"), Unreachable("no answer in 10 s")]
)
async def test_a_store_failure_changes_nothing_and_the_table_goes_on(
    sqlite_db: Database, toy_game: ToyGame, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    """A move the store failed to save (``Unreachable``: the group commit found the database
    out of reach) changes nothing: the player's is answered (``conflict``: send it again), the
    bot's is tried again, and the table goes on."""
    monkeypatch.setattr(scheduler_module, "RETRY_SECONDS", 0.01)
    store = Store(sqlite_db.url)
    await store.migrate()
    m = TableManager(store, bot_delay=0)
    real = store.record_action
    calls = {"n": 0}

    async def flaky(*args: Any, **kwargs: Any) -> None:
        calls["n"] += 1
        if calls["n"] in (1, 3):  # Alice's first try, the bot's first try
            raise failure
        await real(*args, **kwargs)

    monkeypatch.setattr(store, "record_action", flaky)
    alice, _ = await store.create_player("Alice")
    live = await m.create_table(alice, "toy", 2, {"hand": 2}, bots=[1])
    with pytest.raises((ConnectionError, TableError)) as refused:
        await m.act(alice, live.id, {"type": "play", "card": live.state.hands[0][0]})
    if isinstance(failure, Unreachable):
        assert isinstance(refused.value, TableError) and refused.value.code == "conflict"
    assert live.seq == 0 and live.rec.version == (await store.table(live.id)).version
    await m.act(alice, live.id, {"type": "play", "card": live.state.hands[0][0]})
    # the bot's first move fails once, then is retried
    import asyncio

    for _ in range(500):
        if live.to_act() == (0,):
            break
        await asyncio.sleep(0.01)
    assert calls["n"] == 4 and [a.source for a in await store.actions(live.id, 1)] == [
        "player",
        "bot",
    ]
    await m.close()
    await store.close()


async def test_a_finished_table_nobody_watches_leaves_memory_and_comes_back(
    database: Database, toy_game: ToyGame
) -> None:
    import asyncio

    store = Store(database.url, database.schema)
    await store.migrate()
    m = TableManager(store, bot_delay=0)
    live = await m.create_table(None, "toy", 2, {"hand": 2}, bots=[0, 1])
    for _ in range(500):
        if m.cached(live.id) is None:
            break
        await asyncio.sleep(0.01)
    assert m.cached(live.id) is None and live.rec.status == "finished"
    back = await m.get(live.id)
    assert back is not live and back.rec.outcome == live.rec.outcome
    assert _same(back.state, live.state) and m.info(back)["wins"] == live.rec.wins
    await m.close()
    await store.close()
