"""What several app processes on one database need from it: locks and the poller's queries.

One writer per table: in several processes, whoever changes a table first takes its write lock, a
PostgreSQL session-level advisory lock, reads the table's version under it, catches up if another
process wrote since, decides, writes, commits, and lets go. The lock is first tried without
waiting, together with the version read (one statement), on one of a few connections the process
keeps for that (a table always on the same one; the connection is not held during the commit,
only its statements take turns). When another process holds the table's lock, the writer waits
for it on a connection of its own from a small pool (the server queues the writers first come
first served). These connections are apart from the store's: a writer waiting for a lock never
holds a connection that the writer holding it needs to commit.

The version is read in the statement that takes the lock, so it may predate a write committed
just before the lock was granted: the write then finds the table moved on (``StaleVersion``),
the writer reloads and decides again, still holding the lock. Every write checks the table's
version anyway, so a lock lost with its connection costs a retry, never a move applied twice.

A claim says which process makes a table's automatic moves (a timer's ``auto_action``, a bot's
move) right now. It is a PostgreSQL session-level advisory lock, taken with ``pg_try_...`` (it
never waits: a process that finds a table claimed skips it, like ``FOR UPDATE SKIP LOCKED``) on one
connection that the process keeps for its claims. A process that dies closes that connection, and
the server lets go of every claim it held, so another process's poller takes the table over.

A row lock (``SELECT ... FOR UPDATE SKIP LOCKED``) cannot be held here: the move is written by the
store's own transaction, on another connection, and would wait on its own process's lock. The
claim does not make a move safe by itself either: every write still checks the table's version,
so a process that somehow moves without the claim loses the race and writes nothing.

On SQLite (one process, or tests) every claim is granted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import exists, or_, select, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from tablee.tables.records import BOT, PLAYING

from . import models as m
from .repo import Store, json_text

log = logging.getLogger("tablee.store")

#: PostgreSQL keeps at most 32767 bind parameters per statement; ids are asked in chunks
CHUNK = 1000


#: connections of a process for write locks taken at once (a table always uses the same one)
LOCKERS = 4
#: connections of a process for waiting on write locks another process holds
WRITERS = 16

_TRY_WRITE = text(
    "SELECT pg_try_advisory_lock(:space, :id) AS got,"
    " (SELECT version FROM tables WHERE id = :id) AS version"
)
_UNLOCK = text("SELECT pg_advisory_unlock(:space, :id)")


def lock_space(kind: str, schema: str | None) -> int:
    """The first key of a table's advisory locks: one per kind and schema, so that databases kept
    in several schemas of one server (tests) never lock each other's tables."""
    return zlib.crc32(f"tablee.{kind}:{schema or ''}".encode()) & 0x7FFFFFFF


class Claims:
    def __init__(self, store: Store, schema: str | None = None) -> None:
        self.store = store
        self.enabled = store.engine.dialect.name == "postgresql"
        self.space = lock_space("claims", schema)
        self.write_space = lock_space("writes", schema)
        self._writers: AsyncEngine | None = None
        if self.enabled:
            connect_args = {"server_settings": {"search_path": schema}} if schema else {}
            self._writers = create_async_engine(
                store.url,
                pool_size=WRITERS + LOCKERS,
                max_overflow=0,
                pool_timeout=120,
                isolation_level="AUTOCOMMIT",
                connect_args=connect_args,
                json_serializer=json_text,
            )
        self._conn: AsyncConnection | None = None
        #: the connections write locks are first tried on, each with its turn of statements
        self._lockers: list[AsyncConnection | None] = [None] * LOCKERS
        self._locker_io = [asyncio.Lock() for _ in range(LOCKERS)]
        #: write locks taken at once, and those another process held (metrics, benchmarks)
        self.quick_writes = 0
        self.waited_writes = 0
        #: one statement at a time on the claims connection
        self._io = asyncio.Lock()
        #: one task of this process at a time per table (advisory locks are re-entrant within a
        #: session, so the server alone would let two tasks of one process hold a table)
        self._local = _Turns()
        self._local_writes = _Turns()

    @contextlib.asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[bool]:
        """Yields True while this process holds the table's claim, False when another has it.
        Another task of this process holding it is waited for (it is quick)."""
        async with self._local.turn(table_id):
            got = await self._try(table_id) if self.enabled else True
            try:
                yield got
            finally:
                if got and self.enabled:
                    await self._release(table_id)

    @contextlib.asynccontextmanager
    async def writing(self, table_id: int) -> AsyncIterator[int | None]:
        """Holds the table's write lock (waiting for it) and yields the table's stored version
        read under it (None on SQLite, where the store's version checks are enough).

        Two tasks of this process take turns first (the table's lock in memory does that
        already, unless the table was forgotten and loaded again meanwhile): the lock connections
        are shared, and an advisory lock is re-entrant within a session."""
        if self._writers is None:
            yield None
            return
        async with self._local_writes.turn(table_id), self._write_lock(table_id) as version:
            yield version

    @contextlib.asynccontextmanager
    async def _write_lock(self, table_id: int) -> AsyncIterator[int | None]:
        key = {"space": self.write_space, "id": table_id}
        got, version = await self._try_write(table_id, key)
        if got:
            self.quick_writes += 1
            try:
                yield version
            finally:
                await self._locker_do(table_id, _UNLOCK, key)
            return
        self.waited_writes += 1
        assert self._writers is not None
        async with self._writers.connect() as conn:
            try:
                await conn.execute(text("SELECT pg_advisory_lock(:space, :id)"), key)
                version = await conn.scalar(select(m.Table.version).where(m.Table.id == table_id))
            except BaseException:
                await conn.invalidate()  # whatever it held goes with it
                raise
            try:
                yield version
            finally:
                try:
                    await conn.execute(text("SELECT pg_advisory_unlock(:space, :id)"), key)
                except BaseException:
                    await conn.invalidate()
                    raise

    async def _try_write(self, table_id: int, key: dict[str, int]) -> tuple[bool, int | None]:
        row = (await self._locker_do(table_id, _TRY_WRITE, key)).one()
        return bool(row.got), row.version

    async def _locker_do(self, table_id: int, statement: Any, params: dict[str, int]) -> Any:
        """One statement on the table's locker connection. A failed one drops the connection:
        the server lets go of every lock it held (their writers' writes still check versions)."""
        i = table_id % LOCKERS
        async with self._locker_io[i]:
            conn = self._lockers[i]
            try:
                if conn is None:
                    assert self._writers is not None
                    conn = self._lockers[i] = await self._writers.connect()
                return await conn.execute(statement, params)
            except BaseException:
                self._lockers[i] = None
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.invalidate()
                raise

    async def _connection(self) -> AsyncConnection:
        if self._conn is None:
            conn = await self.store.engine.connect()
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            self._conn = conn
        return self._conn

    async def _drop(self) -> None:
        """Forget a broken connection; the server released its claims with it."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()

    async def _try(self, table_id: int) -> bool:
        async with self._io:
            try:
                conn = await self._connection()
                got = await conn.scalar(
                    text("SELECT pg_try_advisory_lock(:space, :id)"),
                    {"space": self.space, "id": table_id},
                )
                return bool(got)
            except Exception:
                log.exception("claim of table %s failed; the poller will try again", table_id)
                await self._drop()
                return False

    async def _release(self, table_id: int) -> None:
        async with self._io:
            try:
                conn = await self._connection()
                await conn.execute(
                    text("SELECT pg_advisory_unlock(:space, :id)"),
                    {"space": self.space, "id": table_id},
                )
            except Exception:
                log.exception("release of table %s failed; dropping the connection", table_id)
                await self._drop()

    async def close(self) -> None:
        async with self._io:
            conn, self._conn = self._conn, None
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        for i, conn in enumerate(self._lockers):
            self._lockers[i] = None
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        if self._writers is not None:
            await self._writers.dispose()


class _Turns:
    """An ``asyncio.Lock`` per key, kept while some task uses or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def turn(self, key: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


# -- the poller's queries -------------------------------------------------------------------------


async def due_tables(store: Store, now: datetime, limit: int = 200) -> list[int]:
    """Playing tables whose deadline has passed, the most overdue first."""
    q = (
        select(m.Table.id)
        .where(m.Table.status == PLAYING, m.Table.deadline.is_not(None), m.Table.deadline <= now)
        .order_by(m.Table.deadline)
        .limit(limit)
    )
    async with store.session() as s:
        return list((await s.scalars(q)).all())


async def table_versions(store: Store, ids: Iterable[int]) -> dict[int, int]:
    """The stored version of each of these tables (a deleted table is missing)."""
    wanted = sorted(set(ids))
    out: dict[int, int] = {}
    async with store.session() as s:
        for i in range(0, len(wanted), CHUNK):
            q = select(m.Table.id, m.Table.version).where(m.Table.id.in_(wanted[i : i + CHUNK]))
            out.update({tid: v for tid, v in (await s.execute(q)).all()})
    return out


async def idle_bot_tables(
    store: Store, before: datetime, since: datetime | None = None, limit: int = 500
) -> dict[int, int]:
    """Playing tables with a bot seat and no change since ``before`` (and, when given, one after
    ``since``): where a bot may be waiting for a process that died. Id -> version."""
    bot_seat = exists().where(m.Seat.table_id == m.Table.id, m.Seat.kind == BOT)
    # a robot standing in for a person plays too
    robots = or_(bot_seat, m.Table.away.is_not(None))
    q = (
        select(m.Table.id, m.Table.version)
        .where(m.Table.status == PLAYING, m.Table.updated_at <= before, robots)
        .order_by(m.Table.updated_at.desc())
        .limit(limit)
    )
    if since is not None:
        q = q.where(m.Table.updated_at > since)
    async with store.session() as s:
        return {tid: v for tid, v in (await s.execute(q)).all()}
