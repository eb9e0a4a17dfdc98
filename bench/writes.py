"""The store's move writes: CPU and wall time per write, through SQLAlchemy (the engine) and
through the driver (``store/direct.py``), in the same run (run by hand).

A move writes its table's row and one log row. ``alone``: one table writing move after move, each
its own transaction (a room's pace: rarely two moves in the same instant); ``groups of N``: N
tables writing at once, their writes sharing the group commit's transactions.

    .venv/bin/python bench/writes.py                      # SQLite in a temporary folder
    .venv/bin/python bench/writes.py --database-url postgresql+asyncpg://user@host/db

CPU is the process's (every thread: SQLite's writer threads included), not the database
server's. On SQLite it also prints what formatting a time costs the writer thread (three a move),
against ``strftime``, its former way, in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import tempfile
import time
import timeit
import uuid
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
from tablee.store.direct import _sqlite_time, direct_writer  # noqa: E402
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

    async def play(t: TableRecord, k: int) -> None:
        for seq in range(1, k + 1):
            after = dataclasses.replace(t, version=t.version + 1)
            move = LoggedAction(seq, 0, {"type": "play", "card": "C07"}, "player")
            await store.record_action(after, t.version, move)
            t = after

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(play(t, writes // tables) for t in records))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await store._writes.close()
    return 1e3 * cpu / writes, 1e3 * wall / writes


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
            _times()
    finally:
        await store.close()


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
