"""What several app processes on one database need from it: the tables' homes, the processes'
leases, and the poller's queries.

A table of several processes has a home, the one process that makes its changes (moves, timers,
robots; ``tables/cluster.py``). Being home is a lease with a fencing token:

- each process has a row in ``processes`` whose ``alive_until`` it pushes forward every second
  (``beat``, on the database's clock): the process is alive until then;
- a table's ``home`` names its owner and ``home_token`` counts the changes of owner. ``take``
  makes this process the home of a table that has none, or whose home is not alive any more,
  and adds one to the token, in one conditional UPDATE: of two processes taking a table at once,
  one gets it;
- ``hand`` passes a table from its home, alive, to another live process (the one that holds
  its players' sockets), adding one to the token, in one conditional UPDATE too: only while the
  table is still the caller's at the token it holds, and only to a process whose lease runs;
- the home writes the table with its token (``TableWrite.fence``): the version-guarded UPDATE of
  the table's row also checks ``home_token``, so a process that lost its home (it stalled past
  its lease, another took the table, or it handed the table on) writes nothing, and learns it
  from ``StaleVersion``.

A process that stops cleanly gives its tables up (``leave``); one that dies keeps them until its
lease runs out (``LEASE_SECONDS``), then the next process that needs one of them takes it.

On SQLite (one process, or tests) nothing here is used.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, exists, func, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from tablee.tables.records import BOT, PLAYING

from . import models as m
from .repo import Store

log = logging.getLogger("tablee.store")

#: PostgreSQL keeps at most 32767 bind parameters per statement; ids are asked in chunks
CHUNK = 1000

_TAKE = text(
    "UPDATE tables SET home = :process,"
    " home_token = CASE WHEN home = :process THEN home_token ELSE home_token + 1 END"
    " WHERE id = :id AND (home IS NULL OR home = :process OR NOT EXISTS ("
    "   SELECT 1 FROM processes p WHERE p.id = tables.home AND p.alive_until > now()))"
    " RETURNING home_token"
)

#: the home's own hand-over: its token in the WHERE clause, so that a home that lost the table
#: meanwhile (taken over, handed on) hands nothing; the receiver's lease on the database's clock
_HAND = text(
    "UPDATE tables SET home = :to, home_token = home_token + 1"
    " WHERE id = :id AND home = :process AND home_token = :token AND EXISTS ("
    "   SELECT 1 FROM processes p WHERE p.id = :to AND p.alive_until > now())"
    " RETURNING home_token, version"
)


@dataclass(frozen=True)
class Home:
    """Who owns a table as the database says now."""

    process: str | None
    token: int
    #: the owner's lease is running (False: none, or it ran out)
    alive: bool
    version: int = 0


#: how long the lease of a process that died stays in ``processes`` once it ran out (an admin
#: sees it there, ``GET /api/admin/processes``); each start names a new process, so without it
#: every crash would leave a row for good. A table whose home's row is gone is homeless, as when
#: the lease ran out: nothing else reads the row.
FORGET_SECONDS = 3600.0


class Homes:
    def __init__(
        self,
        store: Store,
        process: str,
        lease_seconds: float,
        forget_seconds: float = FORGET_SECONDS,
    ) -> None:
        self.store = store
        self.process = process
        self.lease_seconds = lease_seconds
        self.forget_seconds = forget_seconds

    async def beat(self) -> None:
        """This process is alive for another ``lease_seconds`` (the database's clock); the leases
        that ran out over ``forget_seconds`` ago are deleted."""
        until = func.now() + text(f"interval '{float(self.lease_seconds)} seconds'")
        q = pg_insert(m.Process).values(id=self.process, alive_until=until)
        q = q.on_conflict_do_update(index_elements=[m.Process.id], set_={"alive_until": until})
        long_dead = func.now() - text(f"interval '{float(self.forget_seconds)} seconds'")
        async with self.store.engine.begin() as conn:
            await conn.execute(q)
            await conn.execute(delete(m.Process).where(m.Process.alive_until < long_dead))

    async def take(self, table_id: int) -> Home | None:
        """Makes this process the table's home if it has none or its home is not alive (a new
        token), or keeps it if it is ours already; returns the home as it is then (another
        process's, alive, when it could not be taken). None: no such table."""
        async with self.store.engine.begin() as conn:
            token = await conn.scalar(_TAKE, {"process": self.process, "id": table_id})
            if token is not None:
                return Home(self.process, int(token), True)
        found = await self.homes([table_id])
        return found.get(table_id)

    async def hand(self, table_id: int, to_process: str, token: int) -> Home | None:
        """Passes the table from this process, its home at ``token``, to ``to_process`` with a
        new token; the new home, or None when the table is not this process's at that token any
        more, or ``to_process``'s lease is not running (nothing changed then). From the commit
        on, a write carrying ``token`` is refused (``StaleVersion``)."""
        if to_process == self.process:
            return None
        params = {"process": self.process, "to": to_process, "id": table_id, "token": token}
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(_HAND, params)).first()
        if row is None:
            return None
        return Home(to_process, int(row[0]), True, int(row[1]))

    async def homes(self, ids: Iterable[int]) -> dict[int, Home]:
        """The home of each of these tables, with its stored version (a deleted one is missing)."""
        wanted = sorted(set(ids))
        out: dict[int, Home] = {}
        q = (
            select(
                m.Table.id,
                m.Table.version,
                m.Table.home,
                m.Table.home_token,
                m.Process.alive_until > func.now(),
            )
            .select_from(m.Table)
            .outerjoin(m.Process, m.Process.id == m.Table.home)
        )
        async with self.store.session() as s:
            for i in range(0, len(wanted), CHUNK):
                rows = await s.execute(q.where(m.Table.id.in_(wanted[i : i + CHUNK])))
                for tid, version, home, token, alive in rows.all():
                    out[tid] = Home(home, int(token or 0), bool(alive), version)
        return out

    async def leave(self) -> None:
        """A clean stop: this process's tables have no home any more (the next process that needs
        one takes it at once, with a new token) and its lease ends."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                update(m.Table).where(m.Table.home == self.process).values(home=None)
            )
            await conn.execute(delete(m.Process).where(m.Process.id == self.process))


@dataclass(frozen=True)
class Lease:
    """A process's lease as the database says now (``GET /api/admin/processes``)."""

    process: str
    alive_until: datetime
    #: the lease runs (False: the process stopped renewing it; its tables go to the next taker)
    alive: bool
    #: the tables whose home it is
    tables: int


async def leases(store: Store) -> tuple[list[Lease], int]:
    """Every process's lease, with the tables each is home of, and how many playing tables have
    no home alive (their next move, timer or robot makes the process that needs one their home).
    A process that stopped cleanly has no row any more."""
    homed = (
        select(m.Table.home, func.count().label("n"))
        .where(m.Table.home.is_not(None))
        .group_by(m.Table.home)
        .subquery()
    )
    q = (
        select(
            m.Process.id,
            m.Process.alive_until,
            m.Process.alive_until > func.now(),
            func.coalesce(homed.c.n, 0),
        )
        .outerjoin(homed, homed.c.home == m.Process.id)
        .order_by(m.Process.id)
    )
    alive = exists().where(m.Process.id == m.Table.home, m.Process.alive_until > func.now())
    orphans = select(func.count()).where(m.Table.status == PLAYING, ~alive)
    async with store.session() as s:
        rows = (await s.execute(q)).all()
        orphaned = int(await s.scalar(orphans) or 0)
    return [Lease(p, until, bool(up), int(n)) for p, until, up, n in rows], orphaned


def homeless(process: str) -> ColumnElement[bool]:
    """Tables whose home is nobody alive but, maybe, this process."""
    alive = exists().where(m.Process.id == m.Table.home, m.Process.alive_until > func.now())
    return or_(m.Table.home.is_(None), m.Table.home == process, ~alive)


# -- the poller's queries -------------------------------------------------------------------------


async def due_tables(store: Store, now: datetime, process: str, limit: int = 200) -> list[int]:
    """Playing tables whose deadline has passed and whose home is none alive but this
    process's, the most overdue first."""
    q = (
        select(m.Table.id)
        .where(
            m.Table.status == PLAYING,
            m.Table.deadline.is_not(None),
            m.Table.deadline <= now,
            homeless(process),
        )
        .order_by(m.Table.deadline)
        .limit(limit)
    )
    async with store.session() as s:
        return list((await s.scalars(q)).all())


async def idle_bot_tables(
    store: Store, process: str, before: datetime, since: datetime | None = None, limit: int = 500
) -> dict[int, int]:
    """Playing tables with a bot seat, no change since ``before`` (and, when given, one after
    ``since``) and no home alive but this process: where a bot may be waiting for a process
    that died. Id -> version."""
    bot_seat = exists().where(m.Seat.table_id == m.Table.id, m.Seat.kind == BOT)
    # a robot standing in for a person plays too
    robots = or_(bot_seat, m.Table.away.is_not(None))
    q = (
        select(m.Table.id, m.Table.version)
        .where(m.Table.status == PLAYING, m.Table.updated_at <= before, robots, homeless(process))
        .order_by(m.Table.updated_at.desc())
        .limit(limit)
    )
    if since is not None:
        q = q.where(m.Table.updated_at > since)
    async with store.session() as s:
        return {tid: v for tid, v in (await s.execute(q)).all()}
