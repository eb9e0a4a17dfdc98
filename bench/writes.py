"""The store's move writes: CPU and wall time per write, through SQLAlchemy (the engine) and
through the driver (``store/direct.py``), in the same run (run by hand).

A move writes its table's row and one log row. ``alone``: one table writing move after move, each
its own transaction (a room's pace: rarely two moves in the same instant); ``groups of N``: N
tables writing at once, their writes sharing the group commit's transactions. On SQLite it also
prints how many pages of the WAL a move's commit writes, both ways (each page a frame that a
checkpoint copies back).

    .venv/bin/python bench/writes.py                      # SQLite in a temporary folder
    .venv/bin/python bench/writes.py --database-url postgresql+asyncpg://user@host/db

CPU is the process's (every thread: SQLite's writer threads included), not the database
server's. On SQLite it also prints what formatting a time costs the writer thread (three a move),
against ``strftime``, its former way, in the same run; and how long a move's write takes at a
room's pace (two tables at once, 0.5 ms apart) with SQLite's automatic checkpoints (the WAL
copied back into the database by the commit that takes it past 1,000 pages, as the store runs)
against checkpoints in a thread of their own (``wal_autocheckpoint=0``, a ``PASSIVE`` checkpoint
every 0.1 s), each on a new database, with the WAL's size at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sqlite3
import sys
import tempfile
import threading
import time
import timeit
import uuid
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tablee.store import (  # noqa: E402
    PLAYER,
    LoggedAction,
    NewTable,
    SeatRecord,
    Store,
    TableRecord,
)
from tablee.store.direct import _sqlite_time, direct_writer, driver_target  # noqa: E402
from tablee.store.writes import TableWriter  # noqa: E402


async def _tables(store: Store, n: int) -> list[TableRecord]:
    p, _ = await store.create_player(f"bench{uuid.uuid4().hex[:8]}")
    out = []
    for i in range(n):
        t = await store.create_table(
            NewTable(
                game="contrecarte",
                options={},
                players=2,
                turn_seconds=None,
                private=False,
                creator_id=p.id,
                seed=i,
                seats=[SeatRecord(0, PLAYER, p.id), SeatRecord(1)],
            )
        )
        playing = dataclasses.replace(t, status="playing", version=t.version + 1)
        await store.save_table(playing, t.version)
        out.append(playing)
    return out


async def _measure(store: Store, direct: bool, tables: int, writes: int) -> tuple[float, float]:
    """CPU and wall milliseconds per write."""
    store._writes = TableWriter(
        store._write_engine, direct_writer(store.url, store.schema) if direct else None
    )
    records = await _tables(store, tables)
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(_play(store, t, writes // tables) for t in records))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await store._writes.close()
    return 1e3 * cpu / writes, 1e3 * wall / writes


async def _play(store: Store, t: TableRecord, k: int, first: int = 1) -> TableRecord:
    """``k`` moves of table ``t``, one after another, the first with log number ``first``."""
    for seq in range(first, first + k):
        after = dataclasses.replace(t, version=t.version + 1)
        move = LoggedAction(seq, 0, {"type": "play", "card": "C07"}, "player")
        await store.record_action(after, t.version, move)
        t = after
    return t


async def run(url: str, schema: str | None, writes: int) -> None:
    store = Store(url, schema)
    await store.migrate()
    try:
        print(f"{store.engine.dialect.name}: ms per move write (CPU / wall)")
        print(f"  {'':12}{'SQLAlchemy':>18}{'driver':>18}{'CPU ratio':>12}")
        for tables in (1, 10, 50):
            label = "alone" if tables == 1 else f"groups of {tables}"
            engine = await _measure(store, False, tables, writes)
            driver = await _measure(store, True, tables, writes)
            print(
                f"  {label:12}{engine[0]:>9.3f} / {engine[1]:<6.3f}{driver[0]:>9.3f} / "
                f"{driver[1]:<6.3f}{engine[0] / driver[0]:>10.1f}x",
                flush=True,
            )
        if store.engine.dialect.name == "sqlite":
            print("  WAL pages a move writes (frames, each copied back by a checkpoint)")
            for tables in (1, 10):
                label = "alone" if tables == 1 else f"groups of {tables}"
                engine_pages = await _pages(store, False, tables)
                driver_pages = await _pages(store, True, tables)
                print(f"  pages {label:12}{engine_pages:>12.2f}{driver_pages:>18.2f}", flush=True)
            _times()
            folder = tempfile.mkdtemp()
            print("  a move's write at a room's pace (ms): p50, p99, p99.9, over 5 ms, WAL MiB")
            for label, thread in (("automatic", False), ("in a thread", True)):
                name = f"{folder}/{'thread' if thread else 'auto'}.db"
                figures = await _paced(name, thread, writes)
                print(f"  checkpoints {label:12}{figures}", flush=True)
    finally:
        await store.close()


async def _pages(store: Store, direct: bool, tables: int, writes: int = 200) -> float:
    """WAL frames per move write, both ways (the engine sets every column of the table's row,
    the driver all but the status of a game that goes on): the WAL emptied first, and too few
    writes for SQLite's automatic checkpoint (at 1,000 frames) to empty it again. A commit
    writes each page it changes whole (its tables' rows, its log rows, their indexes); a
    checkpoint copies them back every 1,000 frames, from the commit that takes the WAL past
    them."""
    target = driver_target(store.url)
    assert target is not None
    path = Path(target[1])
    wal = path.with_name(path.name + "-wal")
    store._writes = TableWriter(
        store._write_engine, direct_writer(store.url, store.schema) if direct else None
    )
    # the tables made, and a first move each (their log's first pages)
    records = [await _play(store, t, 1) for t in await _tables(store, tables)]
    with closing(sqlite3.connect(path)) as other:
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await asyncio.gather(*(_play(store, t, writes // tables, 2) for t in records))
    await store._writes.close()
    data = wal.read_bytes()
    page_size = int.from_bytes(data[8:12], "big")
    return (len(data) - 32) / (24 + page_size) / writes


async def _paced(path: str, thread: bool, writes: int) -> str:
    """Two tables writing a move each at once, then 0.5 ms of rest, through the driver; each
    write's wall time. ``thread``: the checkpoints in a thread of their own."""
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    direct = direct_writer(store.url)
    assert direct is not None
    store._writes = TableWriter(store._write_engine, direct)
    stop = threading.Event()
    checkpointer = None
    if thread:
        await direct._thread.run(lambda conn: conn.execute("PRAGMA wal_autocheckpoint=0"))  # type: ignore[attr-defined]

        def checkpoints() -> None:
            conn = sqlite3.connect(path, isolation_level=None)
            while not stop.wait(0.1):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            conn.close()

        checkpointer = threading.Thread(target=checkpoints, daemon=True)
        checkpointer.start()
    times: list[float] = []
    try:
        records = await _tables(store, 2)

        async def write(t: TableRecord, seq: int) -> TableRecord:
            after = dataclasses.replace(t, version=t.version + 1)
            started = time.perf_counter()
            move = LoggedAction(seq, 0, {"type": "play", "card": "C07"}, "player")
            await store.record_action(after, t.version, move)
            times.append(1e3 * (time.perf_counter() - started))
            return after

        for seq in range(1, writes // 2 + 1):
            records = list(await asyncio.gather(*(write(t, seq) for t in records)))
            await asyncio.sleep(0.0005)
        # before the connections close: the last one to close checkpoints and deletes it
        wal = os.path.getsize(f"{path}-wal") / 2**20
    finally:
        stop.set()
        if checkpointer is not None:
            checkpointer.join()
        await store._writes.close()
        await store.close()
    times.sort()

    def at(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))]

    over = sum(t > 5 for t in times)
    return f"{at(0.5):>7.2f}{at(0.99):>7.2f}{at(0.999):>7.2f}{over:>6d} of {len(times)}{wal:>8.1f}"


def _times(number: int = 200_000) -> None:
    """µs a call: a time as SQLite's text (``_sqlite_time``), and ``strftime``'s, same run."""
    at = datetime.now(UTC)

    def strftime(value: datetime) -> str:
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

    assert strftime(at) == _sqlite_time(at)
    ours = timeit.timeit(lambda: _sqlite_time(at), number=number) / number * 1e6
    theirs = timeit.timeit(lambda: strftime(at), number=number) / number * 1e6
    print(f"  a time as text: {ours:.2f} µs a call, strftime {theirs:.2f} ({ours / theirs:.2f}x)")


async def _schema(url: str, sql: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--database-url", default=None)
    p.add_argument("--writes", type=int, default=2000, help="writes per measure")
    args = p.parse_args()
    if args.database_url is None:
        folder = tempfile.mkdtemp()
        asyncio.run(run(f"sqlite+aiosqlite:///{folder}/writes.db", None, args.writes))
        return
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    asyncio.run(_schema(args.database_url, f'CREATE SCHEMA "{schema}"'))
    try:
        asyncio.run(run(args.database_url, schema, args.writes))
    finally:
        asyncio.run(_schema(args.database_url, f'DROP SCHEMA "{schema}" CASCADE'))


if __name__ == "__main__":
    main()
