"""A process catching up with another one's writes reads the table's row, then its action log:
a move committed between the two reads must not be applied on top of the older row (the state
would run ahead of the version the clients see, and they would act on the wrong turn)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from tablee.games import get_game, replay
from tablee.store import PlayerRecord, Store
from tablee.tables import TableManager
from tests.serverkit import Database, OtherProcesses, ToyGame


class Socket:
    player_id: int | None = None

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


class RowThen:
    """A store session whose first ``get`` (the table's row) is followed by ``then()`` before the
    session reads anything else: another process's write landing between the two reads."""

    def __init__(self, session: Any, then: Callable[[], Awaitable[None]]) -> None:
        self._session = session
        self._then = then

    async def __aenter__(self) -> RowThen:
        await self._session.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._session.__aexit__(*exc)

    async def get(self, *args: Any, **kwargs: Any) -> Any:
        row = await self._session.get(*args, **kwargs)
        await self._then()
        return row

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


@pytest.fixture
async def stores(database: Database, toy_game: ToyGame) -> AsyncIterator[tuple[Store, Store]]:
    first, second = Store(database.url, database.schema), Store(database.url, database.schema)
    await first.migrate()
    yield first, second
    await first.close()
    await second.close()


async def _two_processes(
    stores: tuple[Store, Store], seed: int, bot_delay: float = 0
) -> tuple[TableManager, TableManager, PlayerRecord, PlayerRecord, int]:
    """A writer and a reader on the same database, a toy table of Alice and Bob started."""
    s1, s2 = stores
    alice, _ = await s1.create_player("Alice")
    bob, _ = await s1.create_player("Bob")
    writer = TableManager(s1, broker=OtherProcesses(), bot_delay=bot_delay)
    reader = TableManager(s2, broker=OtherProcesses(), bot_delay=bot_delay)
    tid = (await writer.create_table(alice, "toy", 2, {"hand": 3}, seed=seed)).id
    await writer.join(bob, tid)
    return writer, reader, alice, bob, tid


async def _hands(store: Store, tid: int) -> Any:
    rec = await store.table(tid)
    assert rec is not None
    log = await store.actions(tid, rec.game_no)
    return replay("toy", 2, rec.options, rec.seed, [(a.seat, a.action) for a in log]).hands


def _json(state: Any) -> str:
    return json.dumps(get_game("toy").to_json(state), sort_keys=True)


async def test_a_move_written_between_the_row_and_the_log_waits_for_the_next_reload(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    s1, s2 = stores
    writer, reader, alice, bob, tid = await _two_processes(stores, seed=5)
    behind = await reader.get(tid)
    await writer.act(alice, tid, {"type": "play", "card": (await _hands(s1, tid))[0][0]})

    real_sessions = s2._sessions
    interleaved: list[int] = []

    async def bobs_move() -> None:
        if not interleaved:  # Bob's move commits right after the reader has read the row
            interleaved.append(1)
            await _play(writer, bob, 1, s1, tid)

    monkeypatch.setattr(s2, "_sessions", lambda: RowThen(real_sessions(), bobs_move))
    watcher = Socket()
    await reader.sync(watcher, tid)  # a client asks: the reader catches up first
    assert interleaved
    log = await s1.actions(tid, 1)
    assert [a.version for a in log] == [behind.rec.version, behind.rec.version + 1]
    # the copy is Alice's move and nothing more: the version it shows and the state agree
    assert behind.rec.version == log[0].version and behind.seq == 1
    first = replay("toy", 2, behind.rec.options, behind.rec.seed, [(0, log[0].action)])
    assert _json(behind.state) == _json(first)
    shown = watcher.sent[-1]
    assert shown["version"] == log[0].version and shown["to_act"] == [1]

    # the next catch-up brings Bob's move, once
    monkeypatch.setattr(s2, "_sessions", real_sessions)
    await reader.sync(watcher, tid)
    both = replay("toy", 2, behind.rec.options, behind.rec.seed, [(a.seat, a.action) for a in log])
    assert behind.seq == 2 and behind.rec.version == log[1].version
    assert _json(behind.state) == _json(both)
    assert watcher.sent[-1]["version"] == log[1].version and watcher.sent[-1]["to_act"] == [0]
    await writer.close()
    await reader.close()


async def test_a_table_loaded_while_a_move_commits_matches_its_version(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    s1, s2 = stores
    writer, reader, alice, bob, tid = await _two_processes(stores, seed=8)
    await _play(writer, alice, 0, s1, tid)
    real_sessions = s2._sessions
    interleaved: list[int] = []

    async def bobs_move() -> None:
        if not interleaved:  # Bob's move commits right after the reader has read the row
            interleaved.append(1)
            await _play(writer, bob, 1, s1, tid)

    monkeypatch.setattr(s2, "_sessions", lambda: RowThen(real_sessions(), bobs_move))
    live = await reader.get(tid)  # first load: the row, then the whole log, in one session
    assert interleaved
    assert live.seq == 1 and live.to_act() == (1,)
    assert live.rec.version == (await s1.actions(tid, 1))[0].version
    await writer.close()
    await reader.close()


async def _play(m: TableManager, who: PlayerRecord, seat: int, store: Store, tid: int) -> None:
    await m.act(who, tid, {"type": "play", "card": (await _hands(store, tid))[seat][0]})


async def test_catching_up_reads_the_seats_again_only_when_something_else_than_moves_changed(
    stores: tuple[Store, Store],
) -> None:
    s1, s2 = stores
    writer, reader, alice, bob, tid = await _two_processes(stores, seed=9, bot_delay=3600)
    copy = await reader.get(tid)
    await _play(writer, alice, 0, s1, tid)
    await _play(writer, bob, 1, s1, tid)
    rec, rows = await s2.catch_up(copy.rec, copy.seq)
    assert rec is not None and [a.seq for a in rows] == [1, 2]
    assert rec.seats == copy.rec.seats and rec.version == copy.rec.version + 2
    await writer.leave(bob, tid)  # a robot plays for Bob (the table's row): no action logged
    watcher = Socket()
    await reader.sync(watcher, tid)
    assert copy.rec.away[1]["why"] == "left" and copy.rec.seats[1].kind == "player"
    assert watcher.sent[-1]["info"]["seats"][1]["away"]["why"] == "left"
    await writer.leave(bob, tid)  # leaving again gives the seat to the robot for good
    await reader.sync(watcher, tid)
    assert copy.rec.seats[1].kind == "bot" and copy.rec.seats[1].player_id is None
    assert copy.seq == 2 and copy.rec.version == (await s1.table(tid)).version  # type: ignore[union-attr]
    assert watcher.sent[-1]["info"]["seats"][1]["kind"] == "bot"
    unchanged, none = await s2.catch_up(copy.rec, copy.seq)
    assert unchanged is copy.rec and none == []
    await writer.close()
    await reader.close()
