"""Moves written straight through the database driver.

A move changes one table row and adds one log row: the store's hottest write, one per move of
every table. Through SQLAlchemy Core and its async adapters such a write, alone in its
transaction (a room's pace: a move now and then on each table, rarely two at once), cost about
1.3 ms of CPU on SQLite and 0.8 ms on PostgreSQL; written here, 0.25 and 0.12, the hand-off to
a thread or the round trip included (``bench/writes.py`` prints both). So the writes of a group
commit that are moves and nothing else — no seat written, no deal ended, no result
(``writes.takes``) — are written here:

- PostgreSQL (asyncpg, a connection of its own): one statement for the whole group, the rows
  passed as arrays, the version- and fence-guarded ``UPDATE`` in a CTE and the log rows inserted
  for the tables it updated. One statement is one transaction: one round trip, all or nothing
  for each table, and a table it did not update is stale (nothing of it written).
- SQLite (the standard ``sqlite3`` module): the group's transaction (``BEGIN IMMEDIATE``, the
  guarded updates, the log rows, ``COMMIT``) runs whole in a thread of its own, one hand-off to
  it rather than one per statement, on a connection of its own beside the engine's (WAL: the
  engine's reads are not blocked; the two writers take turns on the file's lock, waiting for it
  as the engine's connection does). The same pragmas as the engine's: ``synchronous=FULL``.
  A group of at most ``ON_LOOP_MOST`` moves alone is committed on the event loop itself, on a
  third connection that never waits for the lock (a group that finds it held goes to the
  thread) and never checkpoints (the thread does): at a room's pace the hand-overs to the thread
  and back were most of a move's way to its commit (docs/scaling.md).
  The group's other writes (seats, a deal's end, a result and its ratings) go with its moves,
  in the same hand-over and the same transaction (a savepoint after the moves: if they fail,
  the moves are committed without them), written by the engine's own code (``write_group``) on
  a SQLAlchemy connection over the thread's: through the engine they went a statement at a time
  through the event loop, the groups behind waiting (docs/scaling.md).

Both write the very values the SQLAlchemy path writes (``tests/store/test_direct.py`` reads the
rows back raw and compares), so nothing that reads them knows which path wrote them. A
constraint refused by the database is raised as SQLAlchemy's ``IntegrityError``, as there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import create_engine, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import StaticPool

from tablee.tables.records import PLAYING

from . import models as m
from .encoding import json_text
from .writes import (
    DATABASE_SECONDS,
    TABLE_CHANGES,
    DirectWriter,
    Settle,
    TableWrite,
    WriteGroup,
    stale,
    unreachable,
)

T = TypeVar("T")
log = logging.getLogger("tablee.store")


def driver_target(url: str) -> tuple[str, str] | None:
    """What the driver connects to for the database at ``url``: ``("sqlite", path)``,
    ``("postgresql", dsn)``, or None (none: e.g. SQLite in memory, whose second connection would
    be another database)."""
    u = make_url(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        db = u.database
        if not db or db == ":memory:" or db.startswith("file:") or u.query:
            return None
        return "sqlite", db
    if backend == "postgresql" and u.get_driver_name() == "asyncpg":
        return "postgresql", u.set(drivername="postgresql").render_as_string(hide_password=False)
    return None


def direct_writer(url: str, schema: str | None = None) -> DirectWriter | None:
    """The direct writer of the database at ``url`` (None: none for it)."""
    target = driver_target(url)
    if target is None:
        return None
    kind, where = target
    return SqliteMoves(where) if kind == "sqlite" else PostgresMoves(where, schema)


def _row(w: TableWrite, now: datetime) -> tuple[Any, ...]:
    """A write's values, in the order of ``_COLUMNS``; datetimes aware, JSON as text (None as
    the JSON ``null`` but in ``away`` and ``timeouts``, as SQLAlchemy's columns write it)."""
    t, a = w.table, w.action
    assert a is not None
    away = {str(k): v for k, v in t.away.items()} or None
    timeouts = t.timeouts if any(t.timeouts) else None
    return (
        t.id,
        w.expected_version,
        w.fence,
        t.status,
        json_text(t.options),
        t.game_no,
        t.seed,
        json_text(t.deck),
        t.salt,
        t.version,
        t.deadline,
        json_text(t.outcome),
        json_text(t.wins),
        json_text(t.rematch_votes),
        t.turn_seconds,
        None if away is None else json_text(away),
        None if timeouts is None else json_text(timeouts),
        now,
        a.seq,
        a.seat,
        json_text(a.action),
        a.source,
        a.at or now,
        a.request,
    )


#: the columns of ``_row``: the table's id, the version written over, the fence, the table's
#: mutable columns, then the log row's own
_COLUMNS = (
    "id",
    "expected",
    "fence",
    *TABLE_CHANGES,
    "seq",
    "seat",
    "action",
    "source",
    "at",
    "request",
)


# -- SQLite --------------------------------------------------------------------------------------

_SQLITE_UPDATE = (
    "UPDATE tables SET "
    + ", ".join(f"{c} = ?" for c in TABLE_CHANGES)
    + " WHERE id = ? AND version = ? AND coalesce(?, home_token) = home_token"
)
#: the table columns a move of a game that goes on sets: all but ``status``, which is indexed.
#: SQLite rewrites an index entry whenever its column is set, to the same value too: a page more
#: in the WAL for every commit of moves, for a checkpoint to copy back (5.00 pages a move alone
#: against 4.27 without it, ``bench/writes.py``). The guard makes it the same row: the status
#: stored is the one the move keeps.
_MOVE_CHANGES = tuple(c for c in TABLE_CHANGES if c != "status")
_SQLITE_UPDATE_PLAYING = (
    "UPDATE tables SET "
    + ", ".join(f"{c} = ?" for c in _MOVE_CHANGES)
    + " WHERE id = ? AND version = ? AND coalesce(?, home_token) = home_token"
    + f" AND status = '{PLAYING}'"
)
_SQLITE_INSERT = (
    "INSERT INTO actions (table_id, game_no, seq, seat, action, version, source, at, request)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


_TIMES = {"deadline", "updated_at", "at"}


def _sqlite_time(value: datetime | None) -> str | None:
    # SQLAlchemy's SQLite DATETIME text, of the naive UTC time ``UTCDateTime`` hands it
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetime given to the store")
    if value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    # isoformat, not strftime: a third less CPU (bench/writes.py), three times a move; its
    # "+00:00" cut off rather than the zone taken off first (a datetime less, a quarter less)
    return value.isoformat(" ", "microseconds")[:-6]


_AT = {c: i for i, c in enumerate(_COLUMNS)}
#: where ``_row``'s datetimes are (written as SQLite's text)
_TIME_AT = tuple(_AT[c] for c in _COLUMNS if c in _TIMES)
#: ``_SQLITE_UPDATE``'s parameters: the columns set, then the guard's (picked by index: a move's
#: parameters took 5.1 µs looked up by name column by column, 3.5 so, the datetimes most of it)
_SQLITE_TABLE = itemgetter(*(_AT[c] for c in (*TABLE_CHANGES, "id", "expected", "fence")))
#: ``_SQLITE_UPDATE_PLAYING``'s
_SQLITE_PLAYING = itemgetter(*(_AT[c] for c in (*_MOVE_CHANGES, "id", "expected", "fence")))
_STATUS = _AT["status"]
#: ``_SQLITE_INSERT``'s parameters
_SQLITE_LOG = itemgetter(
    *(
        _AT[c]
        for c in ("id", "game_no", "seq", "seat", "action", "version", "source", "at", "request")
    )
)


def _sqlite_params(r: tuple[Any, ...]) -> tuple[str, tuple[Any, ...], tuple[Any, ...]]:
    """A row's table statement (``_SQLITE_UPDATE_PLAYING`` for a game that goes on, else
    ``_SQLITE_UPDATE``) with its parameters, and its ``_SQLITE_INSERT``'s, its datetimes as
    text."""
    values = list(r)
    for i in _TIME_AT:
        values[i] = _sqlite_time(values[i])
    if r[_STATUS] == PLAYING:
        return _SQLITE_UPDATE_PLAYING, _SQLITE_PLAYING(values), _SQLITE_LOG(values)
    return _SQLITE_UPDATE, _SQLITE_TABLE(values), _SQLITE_LOG(values)


_Job = tuple[
    asyncio.AbstractEventLoop,
    "asyncio.Future[Any]",
    Callable[[sqlite3.Connection], Any],
    Callable[[Any], None] | None,
]


def _settle(
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
    then: Callable[[Any], None] | None = None,
) -> None:
    if error is None and then is not None:
        try:
            then(result)
        except Exception:
            log.exception("a completion callback failed")
    if future.done():  # its caller was cancelled: the work is done all the same
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


class SqliteThread:
    """A thread of its own with a connection of its own (made by ``connect`` on first use):
    work is handed to it whole through a queue, and its outcome back to the event loop (a third
    of what ``run_in_executor``'s futures cost)."""

    def __init__(self, name: str, connect: Callable[[], sqlite3.Connection]) -> None:
        self.name = name
        self.connect = connect
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def _serve(self) -> None:
        """The thread: work until it is told to stop (None)."""
        conn: sqlite3.Connection | None = None
        try:
            while (job := self._jobs.get()) is not None:
                loop, future, work, then = job
                result: Any = None
                error: BaseException | None = None
                try:
                    if conn is None:
                        conn = self.connect()
                    result = work(conn)
                except BaseException as exc:
                    error = exc
                with contextlib.suppress(RuntimeError):  # its event loop closed meanwhile
                    loop.call_soon_threadsafe(_settle, future, result, error, then)
        finally:
            if conn is not None:
                conn.close()

    async def run(
        self, work: Callable[[sqlite3.Connection], T], then: Callable[[T], None] | None = None
    ) -> T:
        """``work``'s result; ``then`` is called with it on the event loop as soon as the thread
        hands it back, a turn of the loop before this coroutine's caller resumes."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, work, then))
        return await future

    async def close(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None and thread.is_alive():
            self._jobs.put(None)
            await asyncio.to_thread(thread.join, 30)


#: the most moves of a group committed on the event loop: a room's pace brings one or two at a
#: time; a larger group is a busy server's, whose loop has better to do than wait for the disk
ON_LOOP_MOST = 4
#: a commit on the loop longer than this (seconds: a slow disk, a checkpoint, a full cache)...
ON_LOOP_SLOW = 0.002
#: ...sends the groups to the thread for this long (seconds) before the loop tries again
ON_LOOP_PAUSE = 1.0
#: a commit while the thread checkpoints shares the disk with the checkpoint's sync: up to this
#: long (seconds) it is the checkpoint's doing, not a slow disk. Under a room's pace nine of the
#: eleven commits over 2 ms in a 40-s window fell beside a checkpoint (none over 3 ms), and each
#: sent a second of moves through the thread: half the moves, and a longer tail (docs/scaling.md)
ON_LOOP_SLOW_BESIDE_CHECKPOINT = 0.010
#: the loop's connection never checkpoints (it would copy the log into the database and sync it,
#: on the loop): the thread does, a passive checkpoint every this many moves written on the loop
CHECKPOINT_EVERY = 200
_SQLITE_HELD = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}


class SqliteMoves:
    """The group commit's batches, one at a time: a small group of moves alone on the event
    loop itself, the others in a thread of their own."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._thread = SqliteThread("tablee-moves", self._connect)
        #: a SQLAlchemy connection over the thread's own, made with it (``_connect``)
        self._connection: Connection | None = None
        #: the event loop's own connection (``_on_loop``), made on first use
        self._loop_conn: sqlite3.Connection | None = None
        #: ``time.monotonic()`` until which the groups go to the thread (a slow commit on the loop)
        self._paused_until = 0.0
        self._unchecked = 0  # moves written on the loop since the last checkpoint was asked
        self._checkpoint: asyncio.Task[Any] | None = None
        #: groups of moves committed on the event loop, in the thread; slow commits on the loop
        self.on_loop = 0
        self.to_thread = 0
        self.slow = 0

    def counts(self) -> dict[str, int]:
        """Groups of moves alone committed on the event loop and in the thread, and the slow
        commits on the loop that sent the groups to the thread a while (``/metrics``)."""
        return {"loop": self.on_loop, "thread": self.to_thread, "slow": self.slow}

    def _connect(self) -> sqlite3.Connection:
        # autocommit (isolation_level None): the transaction is this module's own
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        # a SQLAlchemy connection over it for the group's other writes (the engine's dialect,
        # types and JSON: the same values), made now, outside any transaction, as its first use
        # rolls back. It never resets or closes the connection, which is the thread's (one made
        # over an earlier one is dropped: that one was closed by its own thread, the only one
        # that may), and stays in the transaction it began on first use, whose BEGIN and COMMIT
        # are this module's.
        engine = create_engine(
            "sqlite://",
            creator=lambda: conn,
            poolclass=StaticPool,
            pool_reset_on_return=None,
            json_serializer=json_text,
        )
        self._connection = engine.connect()
        self._connection.execute(text("SELECT 1"))
        return conn

    async def commit(
        self,
        batch: Sequence[TableWrite],
        settle: Callable[[list[BaseException | None]], None] | None = None,
    ) -> list[BaseException | None]:
        now = m.now()
        rows = [_row(w, now) for w in batch]

        def outcome(written: list[bool]) -> list[BaseException | None]:
            return [None if ok else stale(w) for w, ok in zip(batch, written, strict=True)]

        # the writers are told in the thread's completion callback, not a turn later when this
        # coroutine resumes: under a room's pace a move waited 3-6 ms from its arrival to its
        # commit against 1-2 ms of commit, the rest turns of the loop (docs/scaling.md)
        written = self._on_loop(rows)
        if written is not None:
            result = outcome(written)
            if settle is not None:
                settle(result)
            return result
        self.to_thread += 1
        then = None if settle is None else (lambda written: settle(outcome(written)))
        return outcome(await self._thread.run(lambda conn: _sqlite_write(conn, rows)[0], then))

    def _on_loop(self, rows: list[tuple[Any, ...]]) -> list[bool] | None:
        """The group's transaction on the event loop, if it is small and the database is free
        (whether each row's table was written); None: nothing written, the thread's to do.

        At a room's pace a move alone took 0.7-1.6 ms from its arrival to its commit through the
        thread, most of it the hand-overs and the turns of the loop around them, against a
        commit of 0.1-0.3 ms (an fsync on a local disk): on the loop, a move's commit is the
        commit alone (docs/scaling.md). The loop never waits for the file's lock: a group that
        finds it held (the thread's work, a checkpoint, another process) goes to the thread."""
        if len(rows) > ON_LOOP_MOST or time.monotonic() < self._paused_until:
            return None
        conn = self._loop_conn
        if conn is None:
            conn = self._loop_conn = self._connect_loop()
        started = time.perf_counter()
        try:
            written = _sqlite_write(conn, rows)[0]
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF in _SQLITE_HELD:
                return None  # rolled back: nothing of it written
            raise
        checkpointing = self._checkpoint is not None and not self._checkpoint.done()
        limit = ON_LOOP_SLOW_BESIDE_CHECKPOINT if checkpointing else ON_LOOP_SLOW
        if time.perf_counter() - started > limit:
            self.slow += 1
            self._paused_until = time.monotonic() + ON_LOOP_PAUSE
        self.on_loop += 1
        self._unchecked += len(rows)
        if self._unchecked >= CHECKPOINT_EVERY and not checkpointing:
            self._unchecked = 0
            self._checkpoint = asyncio.ensure_future(self._thread.run(_checkpoint))
            self._checkpoint.add_done_callback(_checkpoint_done)
        return written

    def _connect_loop(self) -> sqlite3.Connection:
        # no busy timeout: the loop does not wait for the lock; no automatic checkpoint (above)
        conn = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        return conn

    async def commit_whole(
        self,
        moves: Sequence[TableWrite],
        others: Sequence[TableWrite],
        write: WriteGroup,
        settle: Settle | None = None,
    ) -> tuple[list[BaseException | None], list[BaseException | None] | Exception]:
        now = m.now()
        rows = [_row(w, now) for w in moves]

        def work(
            conn: sqlite3.Connection,
        ) -> tuple[list[bool], list[BaseException | None] | Exception]:
            over = self._connection  # made with ``conn``, in this thread
            assert over is not None
            return _sqlite_write(conn, rows, lambda: write(over, others))

        def outcome(
            done: tuple[list[bool], list[BaseException | None] | Exception],
        ) -> tuple[list[BaseException | None], list[BaseException | None] | Exception]:
            written, rest = done
            moved: list[BaseException | None] = [
                None if ok else stale(w) for w, ok in zip(moves, written, strict=True)
            ]
            return moved, rest

        def then(done: tuple[list[bool], list[BaseException | None] | Exception]) -> None:
            assert settle is not None
            moved, rest = outcome(done)
            if isinstance(rest, Exception):
                settle(moves, moved)
            else:
                settle([*moves, *others], [*moved, *rest])

        return outcome(await self._thread.run(work, None if settle is None else then))

    async def close(self) -> None:
        checkpoint, self._checkpoint = self._checkpoint, None
        if checkpoint is not None:
            with contextlib.suppress(Exception):
                await checkpoint
        await self._thread.close()
        conn, self._loop_conn = self._loop_conn, None
        if conn is not None:
            conn.close()
        log.debug(
            "groups of moves: %d on the event loop (%d slow), %d in the thread",
            self.on_loop,
            self.slow,
            self.to_thread,
        )


def _checkpoint(conn: sqlite3.Connection) -> None:
    """What the loop's commits added to the log copied into the database, as far as no reader
    holds it back (PASSIVE: it waits for nobody)."""
    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def _checkpoint_done(task: asyncio.Task[Any]) -> None:
    # said when it fails, not only at ``close()``: a failed passive checkpoint loses nothing (the
    # moves stay in the WAL, which is durable), but a log that is never copied back grows
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.warning("a checkpoint of the moves' log failed (they stay in the log): %r", exc)


def _sqlite_write(
    conn: sqlite3.Connection,
    rows: list[tuple[Any, ...]],
    others: Callable[[], list[BaseException | None]] | None = None,
) -> tuple[list[bool], list[BaseException | None] | Exception]:
    """One transaction: each row's table written if it is still at its version (and fence),
    then the log rows of those written, then ``others`` (a savepoint of its own: if they fail,
    the moves are committed without them). Whether each row's table was written, and what
    ``others`` returned or raised (an empty list: no others)."""
    conn.execute("BEGIN IMMEDIATE")
    rest: list[BaseException | None] | Exception = []
    try:
        written: list[bool] = []
        log: list[tuple[Any, ...]] = []
        for r in rows:
            update, table, logged = _sqlite_params(r)
            done = conn.execute(update, table).rowcount == 1
            written.append(done)
            if done:
                log.append(logged)
        if log:
            conn.executemany(_SQLITE_INSERT, log)
        if others is not None:
            rest = _others(conn, others)
        conn.execute("COMMIT")
    except sqlite3.IntegrityError as exc:
        conn.execute("ROLLBACK")
        raise sa_exc.IntegrityError(_SQLITE_INSERT, None, exc) from exc
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return written, rest


def _others(
    conn: sqlite3.Connection, others: Callable[[], list[BaseException | None]]
) -> list[BaseException | None] | Exception:
    """``others`` in a savepoint of the transaction under way: what it returned, or the
    exception that failed it, everything it wrote taken back."""
    conn.execute("SAVEPOINT others")
    try:
        rest = others()
    except Exception as exc:
        conn.execute("ROLLBACK TO others")
        conn.execute("RELEASE others")
        return exc
    conn.execute("RELEASE others")
    return rest


# -- PostgreSQL ----------------------------------------------------------------------------------

_PG_TYPES = (
    "int",
    "int",
    "bigint",
    "text",
    "text",
    "int",
    "bigint",
    "text",
    "text",
    "int",
    "timestamptz",
    "text",
    "text",
    "text",
    "float8",
    "text",
    "text",
    "timestamptz",
    "int",
    "int",
    "text",
    "text",
    "timestamptz",
    "text",
)
_PG_JSON = {"options", "deck", "outcome", "wins", "rematch_votes", "away", "timeouts"}
_PG_WRITE = (
    " u AS (UPDATE tables AS t SET "
    + ", ".join(f"{c} = v.{c}{'::json' if c in _PG_JSON else ''}" for c in TABLE_CHANGES)
    + " FROM v WHERE t.id = v.id AND t.version = v.expected"
    " AND coalesce(v.fence, t.home_token) = t.home_token RETURNING t.id)"
    " INSERT INTO actions (table_id, game_no, seq, seat, action, version, source, at, request)"
    " SELECT v.id, v.game_no, v.seq, v.seat, v.action::json, v.version, v.source, v.at, v.request"
    " FROM v JOIN u ON u.id = v.id RETURNING table_id"
)
#: a group's moves: each column an array
_PG_MOVES = (
    f"WITH v ({', '.join(_COLUMNS)}) AS (SELECT * FROM unnest("
    + ", ".join(f"${i}::{t}[]" for i, t in enumerate(_PG_TYPES, 1))
    + ")),"
    + _PG_WRITE
)
#: one move alone (a room's pace: most groups are one move), its values as they are: encoding
#: two dozen arrays of one element costs more than the statement itself
_PG_MOVE = (
    f"WITH v ({', '.join(_COLUMNS)}) AS (VALUES ("
    + ", ".join(f"${i}::{t}" for i, t in enumerate(_PG_TYPES, 1))
    + ")),"
    + _PG_WRITE
)


class PostgresMoves:
    """One connection of its own: the group commit writes one batch at a time (a pool's
    acquire and release cost as much again as the statement's own CPU)."""

    def __init__(self, dsn: str, schema: str | None) -> None:
        self.dsn = dsn
        self.schema = schema
        self._conn: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def _connection(self) -> Any:
        loop = asyncio.get_running_loop()
        conn = self._conn
        # a connection serves the event loop it was made in (tests run a store in several);
        # one that failed is replaced
        if conn is None or self._loop is not loop or conn.is_closed():
            settings = {"search_path": self.schema} if self.schema else None
            conn = self._conn = await asyncpg.connect(
                self.dsn, server_settings=settings, timeout=DATABASE_SECONDS
            )
            self._loop = loop
        return conn

    async def commit(
        self,
        batch: Sequence[TableWrite],
        settle: Callable[[list[BaseException | None]], None] | None = None,
    ) -> list[BaseException | None]:
        # ``settle`` is for a writer that learns the outcome before its caller resumes: here
        # they are the same turn, and the caller settles the writes itself
        now = m.now()
        rows = [_row(w, now) for w in batch]
        conn = await self._connection()
        try:
            if len(rows) == 1:
                found = await conn.fetch(_PG_MOVE, *rows[0], timeout=DATABASE_SECONDS)
            else:
                columns = (list(c) for c in zip(*rows, strict=True))
                found = await conn.fetch(_PG_MOVES, *columns, timeout=DATABASE_SECONDS)
            written = {r[0] for r in found}
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise sa_exc.IntegrityError(_PG_MOVES, None, exc) from exc
        except Exception as exc:
            if unreachable(exc):
                # a statement that did not answer may still be under way on the connection: the
                # next group gets a new one (a partition: a cancel request would not get
                # through either)
                self._conn = None
                conn.terminate()
            raise
        return [None if w.table.id in written else stale(w) for w in batch]

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and self._loop is asyncio.get_running_loop():
            await conn.close()
