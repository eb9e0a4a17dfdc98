"""Table writes, committed in groups: the writes that arrive while a commit is on its way share
the next transaction (one fsync for many tables). Each write stays all-or-nothing and checks the
version it started from (``StaleVersion`` otherwise, having written nothing)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from sqlalchemy import BigInteger, bindparam, func, insert, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql.functions import coalesce

from tablee.tables.records import FINISHED, PLAYER, LoggedAction, TableRecord

from . import models as m
from . import ratings

log = logging.getLogger("tablee.store")

#: most table writes committed together
BATCH = 256

TABLES = m.cast_table(m.Table)
SEATS = m.cast_table(m.Seat)
ACTIONS = m.cast_table(m.ActionRow)
DEALS = m.cast_table(m.DealScore)
RESULTS = m.cast_table(m.Result)
RESULT_SEATS = m.cast_table(m.ResultSeat)
#: the columns of a table row that change after its creation
TABLE_CHANGES = (
    "status",
    "options",
    "game_no",
    "seed",
    "deck",
    "salt",
    "version",
    "deadline",
    "outcome",
    "wins",
    "rematch_votes",
    "turn_seconds",
    "away",
    "timeouts",
    "updated_at",
)
#: the mutable part of a table row, written only over the version it was read at and, by the
#: home of a table of several processes, only while the fencing token it holds is the table's
#: (``b_fence`` null: no fence)
_UPDATE_TABLE = (
    update(TABLES)
    .where(
        TABLES.c.id == bindparam("b_id"),
        TABLES.c.version == bindparam("b_expected"),
        coalesce(bindparam("b_fence", type_=BigInteger), TABLES.c.home_token)
        == TABLES.c.home_token,
    )
    .values({name: bindparam(name) for name in TABLE_CHANGES})
)
_UPDATE_SEAT = (
    update(SEATS)
    .where(SEATS.c.table_id == bindparam("b_table"), SEATS.c.seat == bindparam("b_seat"))
    .values(kind=bindparam("kind"), player_id=bindparam("player_id"), level=bindparam("level"))
)


@dataclass(frozen=True)
class TableWrite:
    table: TableRecord
    expected_version: int
    seats: bool
    action: LoggedAction | None = None
    deal_events: list[dict[str, Any]] = field(default_factory=list)
    #: the home's fencing token (``TableRecord.home_token``); None: not fenced
    fence: int | None = None


def _table_params(t: TableRecord, expected: int, fence: int | None = None) -> dict[str, Any]:
    return {
        "b_id": t.id,
        "b_expected": expected,
        "b_fence": fence,
        "status": t.status,
        "options": t.options,
        "game_no": t.game_no,
        "seed": t.seed,
        "deck": t.deck,
        "salt": t.salt,
        "version": t.version,
        "deadline": t.deadline,
        "outcome": t.outcome,
        "wins": t.wins,
        "rematch_votes": t.rematch_votes,
        "turn_seconds": t.turn_seconds,
        "away": {str(k): v for k, v in t.away.items()} or None,
        "timeouts": t.timeouts if any(t.timeouts) else None,
        "updated_at": m.now(),
    }


def _action_row(w: TableWrite) -> dict[str, Any]:
    a, t = w.action, w.table
    assert a is not None
    return {
        "table_id": t.id,
        "game_no": t.game_no,
        "seq": a.seq,
        "seat": a.seat,
        "action": a.action,
        "version": t.version,
        "source": a.source,
        "at": a.at or m.now(),
        "request": a.request,
    }


def takes(w: TableWrite) -> bool:
    """A move that writes nothing but its table's row and its log row."""
    return (
        w.action is not None
        and not w.seats
        and not w.deal_events
        and not (w.table.status == FINISHED and w.table.outcome)
    )


class DirectWriter(Protocol):
    async def commit(
        self,
        batch: Sequence[TableWrite],
        settle: Callable[[list[BaseException | None]], None] | None = None,
    ) -> list[BaseException | None]:
        """One transaction for ``batch`` (moves only, ``takes``, each of another table): the
        error of each write (``StaleVersion``) or None; raises if none of it was written.
        ``settle``, if the writer learns that outcome on the event loop before this coroutine
        resumes, is called with it then."""
        ...

    async def close(self) -> None: ...


#: tells the writers of some of a batch's writes their outcome (each write's error, or None)
Settle = Callable[[Sequence["TableWrite"], list[BaseException | None]], None]
#: writes a batch on a SQLAlchemy connection, in its transaction (``write_group``)
WriteGroup = Callable[[Connection, Sequence["TableWrite"]], list[BaseException | None]]


@runtime_checkable
class WholeWriter(DirectWriter, Protocol):
    """A direct writer that also writes a group's other writes, in the same transaction."""

    async def commit_whole(
        self,
        moves: Sequence[TableWrite],
        others: Sequence[TableWrite],
        write: WriteGroup,
        settle: Settle | None = None,
    ) -> tuple[list[BaseException | None], list[BaseException | None] | Exception]:
        """One transaction: ``moves`` (``takes``, each of another table) as ``commit`` writes
        them, then ``others`` written by ``write`` on a SQLAlchemy connection to the same
        database. Each move's error (or None), and each other write's — or the exception that
        failed them as a whole, having written none of them (the moves committed all the same).
        Raises if none of it was written. ``settle`` is told the writes' outcome (all of them,
        or the moves alone if the others failed) as soon as the writer learns it."""
        ...


class _SomeStale(Exception):
    """A batch met a stale write: it is redone one write per transaction."""


class StaleVersion(RuntimeError):
    """The table changed since it was read (another writer won), or the writer's fencing token
    is not the table's any more (another process took it over): reload and try again."""


#: how long a connection to PostgreSQL or a statement of the moves may take: a database cut
#: off by the network answers nothing and refuses nothing, and a move waiting on it must be
#: answered all the same (``conflict``: send it again)
DATABASE_SECONDS = 10.0


class Unreachable(RuntimeError):
    """The database could not be reached, or did not answer in time: the write may have been
    made or not (the table's version tells the next write), and was not acknowledged."""


def unreachable(exc: BaseException | None, depth: int = 0) -> bool:
    """Whether ``exc`` is the database out of reach (a connection refused, lost or silent), not
    a refusal of what it was sent; the drivers' errors are looked through to their causes."""
    if exc is None or depth > 5:
        return False
    # (SQLAlchemy's ``TimeoutError``: no connection of the pool freed in time, all of them
    # held by statements the database does not answer)
    if isinstance(exc, Unreachable | OSError | TimeoutError | sa_exc.TimeoutError):
        return True
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    # asyncpg: a connection closed or lost (its InterfaceError, ConnectionDoesNotExistError),
    # refused (class 08: Postgres*Connection*Error), or a server still starting
    name = type(exc).__name__
    if type(exc).__module__.startswith("asyncpg") and (
        name in {"InterfaceError", "CannotConnectNowError"} or "Connection" in name
    ):
        return True
    inner = exc.orig if isinstance(exc, sa_exc.DBAPIError) else None
    return unreachable(inner or exc.__cause__, depth + 1)


def driver_errors() -> tuple[type[Exception], ...]:
    """The classes of the errors ``unreachable`` may tell as the database out of reach (what a
    caller catches to ask it)."""
    import asyncpg  # type: ignore[import-untyped]

    return (
        Unreachable,
        OSError,
        TimeoutError,
        sa_exc.TimeoutError,
        sa_exc.DBAPIError,
        asyncpg.InterfaceError,
        asyncpg.PostgresError,
    )


def stale(w: TableWrite) -> StaleVersion:
    """The refusal of a write whose table moved on (or whose home changed) since it was read."""
    return StaleVersion(f"table {w.table.id} is no longer at v{w.expected_version}")


_Batch = list[tuple[TableWrite, "asyncio.Future[None]"]]


class TableWriter:
    def __init__(self, engine: AsyncEngine, direct: DirectWriter | None = None) -> None:
        self.engine = engine
        #: writes the moves of a batch that touch nothing but their table and log rows
        #: (``direct.takes``) through the driver; None: every write goes through the engine
        self.direct = direct
        #: writes a group's other writes too, in the moves' transaction (SQLite's thread)
        self._whole = direct if isinstance(direct, WholeWriter) else None
        #: how a batch is written on a SQLAlchemy connection (tests replace it)
        self.write_group: WriteGroup = write_group
        self._pending: _Batch = []
        self._task: asyncio.Task[None] | None = None
        #: group commit counters: transactions, and table writes they carried
        self.commits = 0
        self.writes = 0
        #: told of each group commit: its seconds (from its start until this writer's task
        #: resumes with the outcome — the hand-over to the database's thread and back, or the
        #: round trip, included; on SQLite the writers were told a turn of the loop sooner) and
        #: its writes
        self.commit_hooks: list[Callable[[float, int], None]] = []

    async def close(self) -> None:
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await self._task
        if self.direct is not None:
            await self.direct.close()

    async def write(self, w: TableWrite) -> None:
        """Group commit: table writes that arrive while a commit is on its way share the next
        transaction (one fsync for many tables). Each write is still all-or-nothing: a stale one
        writes nothing and is told so; any other failure makes every write of that batch retry
        alone, in its own transaction. Returns once the write is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((w, future))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain())
        # not shielded: a caller cancelled meanwhile cancels only its future, which the drain
        # then passes over (its write is committed with the batch all the same)
        await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
            self.commits += 1
            self.writes += len(batch)
            writes = [w for w, _ in batch]
            started = time.perf_counter()

            futures = {id(w): future for w, future in batch}

            def settle(
                settled: Sequence[TableWrite],
                outcome: list[BaseException | None],
                futures: dict[int, asyncio.Future[None]] = futures,
            ) -> None:
                for w, error in zip(settled, outcome, strict=True):
                    future = futures[id(w)]
                    if future.done():  # its caller was cancelled, or it was told already
                        continue
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)

            try:
                outcome = await self._commit_all(writes, settle)
            except Exception as exc:
                outcome = await self._after_failure(writes, settle, exc)
            elapsed = time.perf_counter() - started
            for hook in self.commit_hooks:
                try:
                    hook(elapsed, len(batch))
                except Exception:
                    log.exception("a commit hook failed")
            settle(writes, outcome)

    async def _commit_all(
        self,
        batch: list[TableWrite],
        settle: Settle | None = None,
    ) -> list[BaseException | None]:
        """The batch's moves through the direct writer; the rest with them, in their
        transaction, if it can (SQLite's thread), else through the engine (another transaction):
        the error of each write (a stale one), or None. The moves' outcome is passed to
        ``settle`` as soon as it is known: a batch of moves alone, when the direct writer knows
        it; the moves of a batch with other writes written apart, before those are."""
        direct = self.direct
        if direct is None:
            return await self._commit(batch)
        moves: list[TableWrite] = []
        others: list[TableWrite] = []
        for w in batch:
            (moves if takes(w) else others).append(w)
        if not others:
            return await direct.commit(
                batch, None if settle is None else lambda outcome: settle(batch, outcome)
            )
        whole = self._whole
        if whole is not None:
            # a deal's end with the moves beside it, in one hand-over to the thread and one
            # transaction: the engine wrote it a statement at a time, each a turn of the event
            # loop, 1.5-2.8 ms at a room's pace and up to 11 with the next group waiting
            # (docs/scaling.md)
            moved, rest = await whole.commit_whole(moves, others, self.write_group, settle)
            if isinstance(rest, Exception):
                if not moves:
                    raise rest
                rest = await self._each_alone(others)
        elif not moves:
            return await self._commit(batch)
        else:
            moved = await direct.commit(moves)
            if settle is not None:
                settle(moves, moved)
            # the moves are committed now: a failure of the others must not have them written
            # again (they would be found stale, having been written), so only the others go
            # alone then
            try:
                rest = await self._commit(others)
            except Exception:
                rest = await self._each_alone(others)
        errors = dict(zip(map(id, moves), moved, strict=True))
        errors.update(zip(map(id, others), rest, strict=True))
        return [errors[id(w)] for w in batch]

    async def _after_failure(
        self,
        writes: list[TableWrite],
        settle: Settle,
        exc: Exception,
    ) -> list[BaseException | None]:
        """The outcome of a batch that failed as a whole with ``exc``. A connection that died
        since its last use (the database restarted) fails its batch: the batch is tried again
        once, on another. A database out of reach fails each write as ``Unreachable`` (each
        alone would wait as long again, in turn); any other failure, each write alone."""
        if not unreachable(exc):
            return await self._each_alone(writes)
        # a silent database (a statement, or the pool waiting for a connection, past its
        # time) would be as silent again
        if not isinstance(exc, TimeoutError | sa_exc.TimeoutError):
            try:
                return await self._commit_all(writes, settle)
            except Exception as again:
                if not unreachable(again):
                    return await self._each_alone(writes)
                exc = again
        log.warning("the database is out of reach (%r): %s writes not made", exc, len(writes))
        return [Unreachable(str(exc) or type(exc).__name__) for _ in writes]

    async def _each_alone(self, writes: list[TableWrite]) -> list[BaseException | None]:
        """Each write in a transaction of its own (a batch failed as a whole): its error."""
        outcome: list[BaseException | None] = []
        for w in writes:
            try:
                outcome += await self._commit_all([w])
            except Exception as exc:
                outcome.append(exc)
        return outcome

    async def _commit(self, batch: list[TableWrite]) -> list[BaseException | None]:
        """One transaction for ``batch`` through the engine; the error of each write (a stale
        one), or None."""
        async with self.engine.begin() as conn:
            return await conn.run_sync(self.write_group, batch)


def write_group(conn: Connection, batch: Sequence[TableWrite]) -> list[BaseException | None]:
    """``batch`` written on ``conn``, in its transaction: the error of each write (a stale one),
    or None. Raises ``_SomeStale`` (the transaction to be dropped, each write to go alone) when
    one statement wrote every table row and some of them were stale."""
    out: list[BaseException | None] = []
    done: list[TableWrite] = []
    if len(batch) > 1 and conn.dialect.supports_sane_multi_rowcount:
        # every table row in one statement; if any of them is stale, this transaction is
        # dropped and each write goes alone
        params = [_table_params(w.table, w.expected_version, w.fence) for w in batch]
        if conn.execute(_UPDATE_TABLE, params).rowcount != len(batch):
            raise _SomeStale
        out, done = [None] * len(batch), list(batch)
    for w in batch if not done else ():
        result = conn.execute(_UPDATE_TABLE, _table_params(w.table, w.expected_version, w.fence))
        if result.rowcount != 1:
            out.append(stale(w))
            continue
        out.append(None)
        done.append(w)
    for w in done:
        t = w.table
        if w.seats:
            conn.execute(
                _UPDATE_SEAT,
                [
                    {
                        "b_table": t.id,
                        "b_seat": s.seat,
                        "kind": s.kind,
                        "player_id": s.player_id,
                        "level": s.level,
                    }
                    for s in t.seats
                ],
            )
    rows = [_action_row(w) for w in done if w.action is not None]
    if rows:
        conn.execute(insert(ACTIONS), rows)
    for w in done:
        if w.deal_events:
            _add_deals(conn, w)
        if w.action is not None and w.table.status == FINISHED and w.table.outcome:
            _add_result(conn, w)
    return out


#: the deals of a game written so far (built once: a deal's end is written in the group commit,
#: the moves behind it waiting)
_DEALS_DONE = (
    select(func.count())
    .select_from(DEALS)
    .where(DEALS.c.table_id == bindparam("table_id"), DEALS.c.game_no == bindparam("game_no"))
)


def _add_deals(conn: Connection, w: TableWrite) -> None:
    t, action = w.table, w.action
    assert action is not None
    count = conn.scalar(_DEALS_DONE, {"table_id": t.id, "game_no": t.game_no})
    at = action.at or m.now()
    conn.execute(
        insert(DEALS),
        [
            {
                "table_id": t.id,
                "game_no": t.game_no,
                "deal": i,
                "seq": action.seq,
                "event": ev,
                "at": at,
            }
            for i, ev in enumerate(w.deal_events, (count or 0) + 1)
        ],
    )


def _add_result(conn: Connection, w: TableWrite) -> None:
    t = w.table
    assert t.outcome is not None and w.action is not None
    at = w.action.at or m.now()
    conn.execute(
        insert(RESULTS),
        {
            "table_id": t.id,
            "game_no": t.game_no,
            "game": t.game,
            "outcome": t.outcome,
            "finished_at": at,
            "seed": t.seed,
            "deck": t.deck,
            "salt": t.salt,
            "options": t.options,
            "rated": (rated := ratings.counts(conn, t)),
        },
    )
    scores = t.outcome.get("scores") or []
    winners = set(t.outcome.get("winners") or [])
    rows = []
    for seat in t.seats:
        score = scores[seat.seat] if seat.seat < len(scores) else None
        rows.append(
            {
                "table_id": t.id,
                "game_no": t.game_no,
                "seat": seat.seat,
                "kind": seat.kind,
                "player_id": seat.player_id if seat.kind == PLAYER else None,
                "score": score if isinstance(score, int | float) else None,
                "won": seat.seat in winners,
            }
        )
    conn.execute(insert(RESULT_SEATS), rows)
    if rated:
        people = [s.player_id for s in t.seats if s.player_id is not None]
        ratings.rate_game(conn, t.id, t.game_no, t.game, t.outcome, people, at)
