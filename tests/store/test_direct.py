"""Moves written through the driver (``store/direct.py``) on SQLite and PostgreSQL: the same
values as the SQLAlchemy path, the same guards (version, fence), each table of a group all or
nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sqlite3
import struct
import threading
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from tablee.store import LoggedAction, StaleVersion, Store, TableRecord, direct
from tablee.store.direct import SqliteMoves, direct_writer, driver_target
from tablee.store.writes import DirectWriter, TableWrite, TableWriter, takes
from tests.serverkit import Database
from tests.store.kit import toy_table


async def _playing(store: Store, seed: int) -> TableRecord:
    t = await toy_table(store, seed)
    playing = dataclasses.replace(t, status="playing", version=t.version + 1)
    await store.save_table(playing, t.version)
    return playing


def _move(t: TableRecord, seq: int, **table: Any) -> tuple[TableRecord, LoggedAction]:
    at = datetime(2026, 12, 1, 20, 0, seq, 0 if seq % 2 else 123456, tzinfo=UTC)
    after = dataclasses.replace(t, version=t.version + 1, **table)
    return after, LoggedAction(
        seq, seq % 2, {"type": "play", "card": f"T{seq:02}"}, "player", at, 0, f"r{seq}"
    )


def _writers(store: Store, database: Database) -> tuple[DirectWriter, TableWriter, TableWriter]:
    """The database's direct writer, and a group commit without it and one with it."""
    direct = direct_writer(database.url, database.schema)
    assert direct is not None
    return direct, TableWriter(store._write_engine), TableWriter(store._write_engine, direct)


async def _raw(store: Store, table_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    async with store.engine.connect() as conn:
        row = (await conn.execute(text(f"SELECT * FROM tables WHERE id = {table_id}"))).mappings()
        log = await conn.execute(
            text(f"SELECT * FROM actions WHERE table_id = {table_id} ORDER BY seq")
        )
        return dict(row.one()), [dict(r) for r in log.mappings()]


def _same_but_ids(a: dict[str, Any], b: dict[str, Any], skip: set[str]) -> None:
    for key in a.keys() - skip:
        assert (key, a[key], type(a[key])) == (key, b[key], type(b[key]))


async def test_a_direct_move_writes_the_values_the_sqlalchemy_path_writes(
    store: Store, database: Database
) -> None:
    direct, engine_only, via_direct = _writers(store, database)
    a, b = await _playing(store, 7), await _playing(store, 7)
    deadline = datetime(2026, 12, 1, 21, 0, 0, 0, tzinfo=UTC)
    changes = {
        "deadline": deadline,
        "options": {"hand": 3, "first_dealer": 1},
        "wins": [1, 0],
        "away": {1: {"since": 4}},
        "timeouts": [0, 2],
        "turn_seconds": 12.5,
    }
    for seq in (1, 2):
        for writer, t in ((engine_only, a), (via_direct, b)):
            after, move = _move(t, seq, **changes)
            w = TableWrite(after, t.version, False, move)
            assert takes(w)
            await writer.write(w)
        a = dataclasses.replace(a, version=a.version + 1, **changes)
        b = dataclasses.replace(b, version=b.version + 1, **changes)
    assert via_direct.commits == 2 and engine_only.commits == 2
    (row_a, log_a), (row_b, log_b) = await _raw(store, a.id), await _raw(store, b.id)
    _same_but_ids(row_a, row_b, {"id", "created_at", "updated_at"})
    assert type(row_a["updated_at"]) is type(row_b["updated_at"])
    assert len(log_a) == len(log_b) == 2
    for x, y in zip(log_a, log_b, strict=True):
        _same_but_ids(x, y, {"table_id"})
    # and read back as records, the same
    ra, rb = await store.table(a.id), await store.table(b.id)
    assert ra is not None and rb is not None
    assert rb.deadline == deadline and rb.away == {1: {"since": 4}} and rb.timeouts == [0, 2]
    assert dataclasses.replace(ra, id=rb.id, created_at=rb.created_at) == rb
    assert await store.actions(a.id, 1) == await store.actions(b.id, 1)
    await direct.close()


async def test_a_group_of_direct_moves_writes_the_values_the_sqlalchemy_path_writes(
    store: Store, database: Database
) -> None:
    # a group is written by other statements than a move alone (PostgreSQL: the rows as arrays)
    direct, engine_only, via_direct = _writers(store, database)
    mine = [await _playing(store, 8) for _ in range(3)]
    theirs = [await _playing(store, 8) for _ in range(3)]
    changes: dict[str, Any] = {
        "deadline": datetime(2026, 12, 1, 21, 0, 0, 654321, tzinfo=UTC),
        "options": {"hand": 3, "name": 'l\'été "fou" ☺'},
        "wins": [1, 0],
        "away": {2: {"since": 4}},
        "timeouts": [0, 2],
        "turn_seconds": 12.5,
    }
    for writer, tables in ((engine_only, theirs), (via_direct, mine)):
        writes = []
        for t in tables:
            after, move = _move(t, 1, **changes)
            writes.append(writer.write(TableWrite(after, t.version, False, move)))
        await asyncio.gather(*writes)
    assert via_direct.commits == 1  # the three in one group
    for a, b in zip(theirs, mine, strict=True):
        (row_a, log_a), (row_b, log_b) = await _raw(store, a.id), await _raw(store, b.id)
        _same_but_ids(row_a, row_b, {"id", "created_at", "updated_at"})
        assert type(row_a["updated_at"]) is type(row_b["updated_at"])
        assert len(log_a) == len(log_b) == 1
        _same_but_ids(log_a[0], log_b[0], {"table_id"})
        ra, rb = await store.table(a.id), await store.table(b.id)
        assert ra is not None and rb is not None and rb.options == changes["options"]
        assert dataclasses.replace(ra, id=rb.id, created_at=rb.created_at) == rb
        assert await store.actions(a.id, 1) == await store.actions(b.id, 1)
    await direct.close()


async def test_a_stale_move_in_a_group_writes_nothing_and_the_others_are_written(
    store: Store,
) -> None:
    tables = [await _playing(store, s) for s in (1, 2, 3)]
    stale = tables[1]
    # another writer moved the middle table on first
    theirs, _ = _move(stale, 1)
    await store.save_table(theirs, stale.version)
    before = store.commits
    writes = []
    for t in tables:
        after, move = _move(t, 1)
        writes.append(store.record_action(after, t.version, move))
    outcome = await asyncio.gather(*writes, return_exceptions=True)
    assert outcome[0] is None and outcome[2] is None
    assert isinstance(outcome[1], StaleVersion)
    assert store.commits == before + 1  # the three in one group
    for t in tables:
        now = await store.table(t.id)
        assert now is not None and now.version == t.version + 1
        log = await store.actions(t.id, 1)
        assert len(log) == (0 if t is stale else 1)


async def test_a_direct_move_of_a_home_that_lost_its_table_is_refused(store: Store) -> None:
    t = await _playing(store, 5)
    async with store.engine.begin() as conn:
        await conn.execute(text(f"UPDATE tables SET home_token = 2 WHERE id = {t.id}"))
    after, move = _move(t, 1)
    with pytest.raises(StaleVersion):
        await store.record_action(after, t.version, move, fence=1)
    after, move = _move(t, 1)
    await store.record_action(after, t.version, move, fence=2)
    now = await store.table(t.id)
    assert now is not None and now.version == t.version + 1
    assert [a.seq for a in await store.actions(t.id, 1)] == [1]


async def test_a_direct_move_whose_log_row_is_refused_writes_nothing(store: Store) -> None:
    t = await _playing(store, 6)
    after, move = _move(t, 1)
    await store.record_action(after, t.version, move)
    again, twice = _move(after, 1)  # the same seq again
    with pytest.raises(IntegrityError):
        await store.record_action(again, after.version, twice)
    now = await store.table(t.id)
    assert now is not None and now.version == after.version


async def test_only_a_plain_move_takes_the_direct_path() -> None:
    t = TableRecord(
        id=1, game="toy", options={}, players=2, turn_seconds=None, private=False,
        creator_id=None, status="playing", game_no=1, seed=1, deck=None, version=3,
        deadline=None, outcome=None, wins=[0, 0], rematch_votes=[], rated=False,
        invitation=None, robot_after=3, away={}, timeouts=[0, 0], salt=None,
        spectators="hidden", deal_replays=False, created_at=datetime.now(UTC), seats=[],
    )  # fmt: skip
    move = LoggedAction(1, 0, {"type": "play"}, "player")
    assert takes(TableWrite(t, 2, False, move))
    assert not takes(TableWrite(t, 2, True, move))  # seats
    assert not takes(TableWrite(t, 2, False, None))  # an edit
    assert not takes(TableWrite(t, 2, False, move, [{"type": "deal_end"}]))
    over = dataclasses.replace(t, status="finished", outcome={"scores": [1, 0]})
    assert not takes(TableWrite(over, 2, False, move))  # a result is written with it


def test_an_in_memory_sqlite_has_no_direct_writer() -> None:
    assert direct_writer("sqlite+aiosqlite:///:memory:") is None
    assert direct_writer("sqlite+aiosqlite:///file:x?mode=memory&uri=true") is None
    assert direct_writer("sqlite+aiosqlite:///var/t.db") is not None


async def test_a_deadline_is_written_to_the_microsecond(store: Store) -> None:
    t = await _playing(store, 8)
    when = datetime(2026, 12, 1, 23, 59, 59, 999999, tzinfo=UTC) + timedelta(hours=1)
    after, move = _move(t, 1, deadline=when.astimezone())
    await store.record_action(after, t.version, move)
    now = await store.table(t.id)
    assert now is not None and now.deadline == when


async def test_a_group_whose_other_writes_fail_has_its_moves_written_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = await _playing(store, 11), await _playing(store, 12)
    writer = store._writes
    real, calls = writer.write_group, []

    def dropped_once(conn: Connection, batch: Sequence[TableWrite]) -> list[BaseException | None]:
        calls.append(len(batch))
        if len(calls) == 1:
            raise ConnectionError("the connection dropped")
        return real(conn, batch)

    monkeypatch.setattr(writer, "write_group", dropped_once)
    moved, move = _move(a, 1)
    seated = dataclasses.replace(b, version=b.version + 1)  # seats written: not a direct write
    outcome = await asyncio.gather(
        store.record_action(moved, a.version, move),
        store.save_table(seated, b.version),
        return_exceptions=True,
    )
    # the move, committed (by the driver, or in SQLite's thread without the others' savepoint),
    # is not written again (it would be found stale); the seat change is tried again alone
    assert outcome == [None, None]
    assert calls == [1, 1]
    now_a, now_b = await store.table(a.id), await store.table(b.id)
    assert now_a is not None and now_a.version == a.version + 1
    assert now_b is not None and now_b.version == b.version + 1
    assert [x.seq for x in await store.actions(a.id, 1)] == [1]


async def test_on_postgresql_a_group_s_moves_are_acknowledged_before_its_other_writes_are_committed(
    postgres_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a deal's end goes through the engine a statement at a time: the moves committed beside it
    # (by the driver, in their own transaction) do not wait for it to be told
    store = postgres_store
    a, b = await _playing(store, 13), await _playing(store, 14)
    writer = store._writes
    real = writer._commit
    held, reached = asyncio.Event(), asyncio.Event()

    async def slow(batch: list[TableWrite]) -> list[BaseException | None]:
        reached.set()
        await held.wait()
        return await real(batch)

    monkeypatch.setattr(writer, "_commit", slow)
    groups: list[int] = []
    store.commit_hooks.append(lambda seconds, writes: groups.append(writes))
    moved, move = _move(a, 1)
    seated = dataclasses.replace(b, version=b.version + 1)  # seats: not a direct write
    moving = asyncio.ensure_future(store.record_action(moved, a.version, move))
    seating = asyncio.ensure_future(store.save_table(seated, b.version))
    try:
        await asyncio.wait_for(reached.wait(), 5)
        # the seat change is held back before its transaction: the move is acknowledged
        # all the same, and it is in the database
        await asyncio.wait_for(asyncio.shield(moving), 2)
        assert not seating.done()
        assert [x.seq for x in await store.actions(a.id, 1)] == [1]
    finally:
        held.set()  # else the group commit would wait for it when the store closes
    await asyncio.wait_for(seating, 5)
    now_a, now_b = await store.table(a.id), await store.table(b.id)
    assert now_a is not None and now_a.version == a.version + 1
    assert now_b is not None and now_b.version == b.version + 1
    assert groups == [2]  # one group held both


async def test_on_sqlite_a_group_s_other_writes_share_its_moves_transaction_in_their_thread(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a deal's end beside a move: one hand-over to the moves' thread and one transaction, no
    # statement through the engine (a turn of the event loop each)
    store = sqlite_store
    a, b = await _playing(store, 15), await _playing(store, 16)
    writer = store._writes
    real, threads = writer.write_group, []

    moves = writer.direct
    assert isinstance(moves, SqliteMoves)

    def spied(conn: Connection, batch: Sequence[TableWrite]) -> list[BaseException | None]:
        # the move's row is written already, in this very transaction: seen here, and not
        # yet by another connection (it is not committed)
        q = f"SELECT seq FROM actions WHERE table_id = {a.id}"
        seqs = conn.scalars(text(q)).all()
        other = sqlite3.connect(moves.path)
        try:
            elsewhere = other.execute(q).fetchall()
        finally:
            other.close()
        threads.append((threading.current_thread().name, len(batch), seqs, elsewhere))
        return real(conn, batch)

    monkeypatch.setattr(writer, "write_group", spied)
    through_engine: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        through_engine.append(statement)

    if writer._task is not None:
        await writer._task  # the last group's task, which tells the hooks after its writers
    groups: list[int] = []
    store.commit_hooks.append(lambda seconds, writes: groups.append(writes))
    moved, move = _move(a, 1)
    ended = dataclasses.replace(b, version=b.version + 1)
    deal = {"type": "deal_end", "seat": None, "scores": [3, 4]}
    action = LoggedAction(1, 0, {"type": "play"}, "player")
    event.listen(store.engine.sync_engine, "before_cursor_execute", seen)
    try:
        outcome = await asyncio.gather(
            store.record_action(moved, a.version, move),
            store.record_action(ended, b.version, action, [deal]),
        )
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", seen)
    assert outcome == [None, None]
    assert groups == [2]
    assert threads == [("tablee-moves", 1, [1], [])]
    assert through_engine == []
    results = await store.results(b.id)
    assert results == []  # not finished: the deal is kept for the game's result
    now_a, now_b = await store.table(a.id), await store.table(b.id)
    assert now_a is not None and now_a.version == a.version + 1
    assert now_b is not None and now_b.version == b.version + 1
    async with store.engine.connect() as conn:
        deals = (
            await conn.execute(text(f"SELECT deal, seq FROM deal_scores WHERE table_id = {b.id}"))
        ).all()
    assert [tuple(d) for d in deals] == [(1, 1)]


async def test_a_game_s_end_written_in_sqlite_s_thread_has_the_values_the_engine_writes(
    sqlite_store: Store, sqlite_db: Database
) -> None:
    # the rows of a finished, rated game (seats, deals, result, ratings) written by the moves'
    # thread through its own SQLAlchemy connection, and by the engine: the same
    store = sqlite_store
    direct, engine_only, via_direct = _writers(store, sqlite_db)
    try:
        ended: list[int] = []
        for writer, names in ((engine_only, ("Bob", "Carol")), (via_direct, ("Dan", "Eve"))):
            t = await _playing(store, 17)
            # players of their own at each table: the second game's ratings start afresh too
            people = [(await store.create_player(name))[0].id for name in names]
            seats = [
                dataclasses.replace(s, kind="player", player_id=p)
                for s, p in zip(t.seats, people, strict=True)
            ]
            over = dataclasses.replace(
                t,
                version=t.version + 1,
                seats=seats,
                status="finished",
                outcome={"scores": [3, 9], "winners": [1]},
                wins=[0, 1],
                deadline=None,
            )
            at = datetime(2026, 12, 1, 20, 0, 1, 250000, tzinfo=UTC)
            move = LoggedAction(1, 1, {"type": "play", "card": "T01"}, "player", at, 0, "r1")
            deal = {"type": "deal_end", "seat": None, "scores": [3, 9]}
            await writer.write(TableWrite(over, t.version, True, move, [deal]))
            ended.append(t.id)
        assert via_direct.commits == 1
        x, y = ended
        skip = {"id", "table_id", "player_id", "created_at", "updated_at"}
        tables = ("tables", "seats", "deal_scores", "results", "result_seats", "rating_changes")
        async with store.engine.connect() as conn:
            for table in tables:
                key = "id" if table == "tables" else "table_id"
                order = "" if table in ("tables", "results") else " ORDER BY rowid"
                rows = [
                    [
                        dict(r)
                        for r in (
                            await conn.execute(
                                text(f"SELECT * FROM {table} WHERE {key} = {i}{order}")
                            )
                        ).mappings()
                    ]
                    for i in (x, y)
                ]
                assert len(rows[0]) == len(rows[1]) > 0, table
                for r, s in zip(*rows, strict=True):
                    _same_but_ids(r, s, skip)
        results = await store.results(y)
        assert [(s["name"], s["won"]) for s in results[0]["seats"]] == [
            ("Dan", False),
            ("Eve", True),
        ]
    finally:
        await direct.close()


async def test_a_move_s_writer_resumes_in_the_turn_after_sqlite_s_thread_hands_its_commit_back(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(direct, "ON_LOOP_MOST", 0)  # every group through the thread
    # a turn of the event loop less on every move's way: the writers of a batch of moves are
    # told from the thread's completion callback, so they resume in the very next turn, before
    # the group commit's own task (which tells the commit hooks) and not a turn after it
    store = sqlite_store
    t = await _playing(store, 3)
    if store._writes._task is not None:
        await store._writes._task  # the seat change's group, whose hooks are told after it
    events: list[str] = []
    told: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def hook(seconds: float, writes: int) -> None:
        events.append(f"commit of {writes}")
        told.set_result(None)

    store.commit_hooks.append(hook)
    after, action = _move(t, 1)
    await store.record_action(after, t.version, action)
    events.append("writer resumed")
    await asyncio.wait_for(told, 5)
    assert events == ["writer resumed", "commit of 1"]
    log = await store.actions(t.id, 1)
    assert [a.seq for a in log] == [1]


def _pages_written(wal: Path) -> set[int]:
    """The database pages whose new versions the WAL holds (each frame: a 24-byte header that
    starts with the page's number, then the page; after the file's 32-byte header)."""
    data = wal.read_bytes()
    page_size = struct.unpack(">I", data[8:12])[0]
    return {
        struct.unpack(">I", data[at : at + 4])[0]
        for at in range(32, len(data) - 24, 24 + page_size)
    }


async def test_a_move_of_a_game_that_goes_on_leaves_sqlite_s_status_index_unwritten(
    sqlite_store: Store, sqlite_db: Database
) -> None:
    # SQLite rewrites an index entry whenever its column is set, to the same value too: a page
    # more in the WAL for every commit of moves, for the checkpoints to copy back
    store = sqlite_store
    t = await _playing(store, 8)
    target = driver_target(sqlite_db.url)
    assert target is not None
    path = Path(target[1])
    with closing(sqlite3.connect(path)) as other:
        roots = dict(
            other.execute(
                "SELECT name, rootpage FROM sqlite_master"
                " WHERE name IN ('tables', 'ix_tables_status')"
            )
        )

    async def written(after: TableRecord, version: int, action: LoggedAction) -> set[int]:
        with closing(sqlite3.connect(path)) as other:
            other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert path.with_name(path.name + "-wal").stat().st_size == 0
        await store.record_action(after, version, action)
        return _pages_written(path.with_name(path.name + "-wal"))

    after, action = _move(t, 1)
    pages = await written(after, t.version, action)
    # one table, one page: its row is written, its status's index entry is not
    assert roots["tables"] in pages and roots["ix_tables_status"] not in pages
    # the move that ends the game changes the status: its entry is written
    over, last = _move(after, 2, status="finished", outcome={})
    assert roots["ix_tables_status"] in await written(over, after.version, last)
    stored = await store.table(t.id)
    assert stored is not None and (stored.status, stored.version) == ("finished", over.version)


async def test_on_sqlite_a_move_over_a_row_whose_status_is_not_its_own_is_refused(
    sqlite_store: Store,
) -> None:
    # on SQLite a move that keeps its game going does not set the status: the stored one must
    # be the one it keeps, or nothing is written (PostgreSQL sets it, and skips the index
    # itself when it is the same)
    store = sqlite_store
    t = await _playing(store, 9)
    async with store.engine.begin() as conn:
        await conn.execute(
            text("UPDATE tables SET status = 'waiting' WHERE id = :id"), {"id": t.id}
        )
    after, action = _move(t, 1)
    with pytest.raises(StaleVersion):
        await store.record_action(after, t.version, action)
    assert await store.actions(t.id, 1) == []
    stored = await store.table(t.id)
    assert stored is not None and (stored.status, stored.version) == ("waiting", t.version)


async def test_the_event_loop_goes_on_while_another_connection_holds_the_sqlite_database(
    sqlite_store: Store,
) -> None:
    # the moves' statements wait for the file's lock in their thread, never on the event loop
    store = sqlite_store
    moves = store._writes.direct
    assert isinstance(moves, SqliteMoves)
    held, release = threading.Event(), threading.Event()

    def other_writer() -> None:  # another writer holds the database (a deal's end)
        other = sqlite3.connect(moves.path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            held.set()
            # released when the loop shows it ran on, or after 5 s whatever happened: a loop
            # waiting for the lock would get it then, and write the move before the check below
            release.wait(5)
            other.execute("COMMIT")
        finally:
            other.close()

    holder = threading.Thread(target=other_writer)
    try:
        t = await _playing(store, 23)
        after, move = _move(t, 1)
        holder.start()
        assert await asyncio.to_thread(held.wait, 5)
        on_loop, to_thread = moves.on_loop, moves.to_thread
        moving = asyncio.create_task(store.record_action(after, t.version, move))
        for _ in range(10):
            await asyncio.sleep(0.01)
        assert not moving.done()
        release.set()
        await asyncio.wait_for(moving, 10)
        assert [a.seq for a in await store.actions(t.id, 1)] == [1]
        # the loop found the lock held and left the move to the thread, which waited for it
        assert (moves.on_loop, moves.to_thread) == (on_loop, to_thread + 1)
    finally:
        release.set()
        if holder.is_alive():
            await asyncio.to_thread(holder.join, 10)


def _thread_of_each_write(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The thread and the size of each group of moves written from now on."""
    seen: list[tuple[str, int]] = []
    real = direct._sqlite_write

    def spied(conn: sqlite3.Connection, rows: list[tuple[Any, ...]], *rest: Any) -> Any:
        seen.append((threading.current_thread().name, len(rows)))
        return real(conn, rows, *rest)

    monkeypatch.setattr(direct, "_sqlite_write", spied)
    return seen


async def _two_moves(store: Store, t: TableRecord) -> None:
    """Moves 1 and 2 of ``t``, one after the other, each a group of its own."""
    first = _move(t, 1)
    await store.record_action(first[0], t.version, first[1])
    second = _move(first[0], 2)
    await store.record_action(second[0], first[0].version, second[1])


async def test_a_move_at_a_room_s_pace_is_committed_on_the_event_loop_not_in_sqlite_s_thread(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a move alone: its commit on the loop, no hand-over to the thread and back; a larger group
    # (a busy server's) in the thread, the loop free meanwhile
    store = sqlite_store
    tables = [await _playing(store, 30 + i) for i in range(direct.ON_LOOP_MOST + 1)]
    seen = _thread_of_each_write(monkeypatch)
    after, move = _move(tables[0], 1)
    await store.record_action(after, tables[0].version, move)
    assert seen == [(threading.current_thread().name, 1)]
    assert [a.seq for a in await store.actions(tables[0].id, 1)] == [1]

    seen.clear()
    group = [_move(after, 2)] + [_move(t, 1) for t in tables[1:]]
    versions = [after.version] + [t.version for t in tables[1:]]
    await asyncio.gather(
        *(store.record_action(a, v, m) for (a, m), v in zip(group, versions, strict=True))
    )
    assert seen == [("tablee-moves", direct.ON_LOOP_MOST + 1)]
    for t, (_, m) in zip([after, *tables[1:]], group, strict=True):
        assert m.seq in [a.seq for a in await store.actions(t.id, 1)]


def _sqlite_moves(store: Store) -> SqliteMoves:
    moves = store._writes.direct
    assert isinstance(moves, SqliteMoves)
    return moves


async def test_after_a_slow_commit_on_the_event_loop_the_moves_go_to_sqlite_s_thread_a_while(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a slow disk must not hold the loop move after move: one slow commit on it, and the next
    # groups wait for the disk in the thread
    store = sqlite_store
    moves = _sqlite_moves(store)
    t = await _playing(store, 40)
    seen = _thread_of_each_write(monkeypatch)
    monkeypatch.setattr(direct, "ON_LOOP_SLOW", -1.0)  # every commit is slow
    await _two_moves(store, t)
    assert [name for name, _ in seen] == [threading.current_thread().name, "tablee-moves"]
    assert moves.slow == 1
    assert [a.seq for a in await store.actions(t.id, 1)] == [1, 2]


async def test_the_moves_written_on_the_event_loop_are_checkpointed_by_sqlite_s_thread(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the loop's connection never checkpoints (a copy and a sync on the loop): the thread copies
    # its moves from the log into the database file
    store = sqlite_store
    moves = _sqlite_moves(store)
    monkeypatch.setattr(direct, "CHECKPOINT_EVERY", 2)
    t = await _playing(store, 41)
    with closing(sqlite3.connect(moves.path)) as other:
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    seen = _thread_of_each_write(monkeypatch)
    await _two_moves(store, t)
    assert [name for name, _ in seen] == [threading.current_thread().name] * 2
    assert moves._checkpoint is not None
    await asyncio.wait_for(moves._checkpoint, 10)

    # the database file alone, without its log: the moves are in it
    alone = Path(moves.path).with_name("alone.db")
    alone.write_bytes(Path(moves.path).read_bytes())
    with closing(sqlite3.connect(alone)) as copy:
        seqs = copy.execute(f"SELECT seq FROM actions WHERE table_id = {t.id}").fetchall()
    assert sorted(seqs) == [(1,), (2,)]


async def test_a_failed_checkpoint_of_the_event_loop_s_moves_is_logged_when_it_fails(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # the moves stay in the WAL (durable), but the store says so when it happens, not at close
    store = sqlite_store
    moves = _sqlite_moves(store)
    monkeypatch.setattr(direct, "CHECKPOINT_EVERY", 2)

    def failing(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(direct, "_checkpoint", failing)
    t = await _playing(store, 42)
    with caplog.at_level(logging.WARNING, logger="tablee.store"):
        await _two_moves(store, t)
        assert moves._checkpoint is not None
        with pytest.raises(sqlite3.OperationalError):
            await asyncio.wait_for(asyncio.shield(moves._checkpoint), 10)
        await asyncio.sleep(0)  # the done-callbacks run a turn after the task is done
    assert any(
        "checkpoint" in r.getMessage() and "disk I/O error" in r.getMessage()
        for r in caplog.records
        if r.name == "tablee.store"
    )
    assert [a.seq for a in await store.actions(t.id, 1)] == [1, 2]


@pytest.mark.parametrize("beside", [60.0, -1.0], ids=["within-bound", "over-bound"])
async def test_a_commit_beside_the_checkpoint_keeps_the_moves_on_the_loop_within_its_bound(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch, beside: float
) -> None:
    # a commit that shares the disk with the thread's checkpoint is slower for it, not for a slow
    # disk: it keeps the moves on the loop unless it is past the bound kept for that case
    store = sqlite_store
    moves = _sqlite_moves(store)
    t = await _playing(store, 43 if beside > 0 else 44)
    seen = _thread_of_each_write(monkeypatch)
    monkeypatch.setattr(direct, "ON_LOOP_SLOW", -1.0)  # every commit would be slow alone
    monkeypatch.setattr(direct, "ON_LOOP_SLOW_BESIDE_CHECKPOINT", beside)
    running: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    moves._checkpoint = running  # type: ignore[assignment]  # a checkpoint still running
    try:
        await _two_moves(store, t)
    finally:
        running.set_result(None)
    loop_thread = threading.current_thread().name
    if beside > 0:
        assert [name for name, _ in seen] == [loop_thread, loop_thread]
        assert moves.slow == 0
    else:
        assert [name for name, _ in seen] == [loop_thread, "tablee-moves"]
        assert moves.slow == 1
    assert [a.seq for a in await store.actions(t.id, 1)] == [1, 2]
