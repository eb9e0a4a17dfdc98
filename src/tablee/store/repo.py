"""The repository: async functions over one engine, each its own transaction."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Integer, cast, event, func, or_, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import NullPool

from tablee.tables.records import (
    FINISHED,
    MAX_ID,
    PLAYER,
    PLAYING,
    WAITING,
    LeaderboardRow,
    LoggedAction,
    NewTable,
    PlayerRecord,
    SeatRecord,
    TableRecord,
)

from . import models as m
from .direct import SqliteMoves, direct_writer
from .encoding import json_text
from .names import NameReserved, NameTaken, name_key, reserved
from .reads import direct_reader
from .rows import player_record
from .writes import DATABASE_SECONDS, TableWrite, TableWriter

MIGRATIONS = Path(__file__).parent / "migrations"
#: PostgreSQL advisory lock held while migrating: replicas that start together migrate one after
#: the other (the later ones find the schema at head and do nothing)
MIGRATION_LOCK = 0x7461626C6565


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def make_engine(
    url: str, schema: str | None = None, writes: bool = False, migrations: bool = False
) -> AsyncEngine:
    """The store's engine; ``writes``: the table writes' own (PostgreSQL), whose every use is a
    whole transaction: no ping before it, no rollback after it (a connection that died fails
    its batch, which is tried again on another). On PostgreSQL a connection and a statement give
    up after ``DATABASE_SECONDS`` (a partition would have them wait for TCP to give up, for
    minutes; the connection is then closed, its rollback failing), but for ``migrations``'
    engine, whose statements may take long (an index built, the lock of another replica
    migrating)."""
    u = make_url(url)
    kwargs: dict[str, Any] = {}
    connect: dict[str, Any] = {}
    if schema and u.get_backend_name() != "sqlite":
        connect["server_settings"] = {"search_path": schema}
    if u.get_backend_name() == "sqlite":
        db = u.database
        if db and db != ":memory:" and not db.startswith("file:"):
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        # One connection: SQLite has one writer anyway, and queueing in the pool is cheaper and
        # fairer than busy-waiting on the file lock.
        kwargs.update(connect_args={"timeout": 30}, pool_size=1, max_overflow=0, pool_timeout=120)
    elif migrations:
        connect["timeout"] = DATABASE_SECONDS
        kwargs.update(poolclass=NullPool, connect_args=connect)
    else:
        connect.update(timeout=DATABASE_SECONDS, command_timeout=DATABASE_SECONDS)
        kwargs["connect_args"] = connect
        if writes:
            # the group commit writes one batch at a time
            kwargs.update(
                pool_size=2, max_overflow=0, pool_pre_ping=False, pool_reset_on_return=None
            )
        else:
            # the reads of every socket and token go through the driver (``reads.py``, 2 more)
            kwargs.update(pool_size=10, max_overflow=8, pool_pre_ping=True)
    engine = create_async_engine(url, json_serializer=json_text, **kwargs)
    if u.get_backend_name() == "postgresql" and not migrations:
        event.listen(engine.sync_engine.pool, "invalidate", _close_at_once)
    if u.get_backend_name() == "sqlite":

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def _close_at_once(driver_connection: Any, _record: Any, exception: BaseException | None) -> None:
    """A connection discarded because a statement of it gave up (its time out: the network
    silent) is closed now. SQLAlchemy closes it politely first, waiting up to 2 s more for the
    network to answer, which in a partition kept a REST call's answer that long after its
    statement's limit; a connection closed already is discarded at once."""
    if not isinstance(exception, TimeoutError):
        return
    terminate = getattr(getattr(driver_connection, "driver_connection", None), "terminate", None)
    if callable(terminate):
        terminate()


def _upgrade(connection: Connection, revision: str = "head") -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)


def _record(r: m.Table, seats: list[SeatRecord], creator_name: str | None) -> TableRecord:
    return TableRecord(
        id=r.id,
        game=r.game,
        options=dict(r.options),
        players=r.players,
        turn_seconds=r.turn_seconds,
        private=r.private,
        creator_id=r.creator_id,
        status=r.status,
        game_no=r.game_no,
        seed=r.seed,
        deck=None if r.deck is None else list(r.deck),
        version=r.version,
        deadline=r.deadline,
        outcome=r.outcome,
        wins=list(r.wins),
        rematch_votes=list(r.rematch_votes),
        rated=r.rated,
        invitation=r.invitation,
        robot_after=r.robot_after,
        away={int(k): dict(v) for k, v in (r.away or {}).items()},
        timeouts=list(r.timeouts or [0] * r.players),
        salt=r.salt,
        spectators=r.spectators or "hidden",
        deal_replays=bool(r.deal_replays),
        created_at=r.created_at,
        seats=seats,
        creator_name=creator_name,
        home=r.home,
        home_token=r.home_token or 0,
    )


class Store:
    def __init__(self, url: str, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        self.engine = make_engine(url, schema)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        #: the table writes' engine: on PostgreSQL, connections of their own, without the
        #: ping and the rollback around each use (two round trips a commit)
        self._write_engine = (
            self.engine
            if self.engine.dialect.name == "sqlite"
            else make_engine(url, schema, writes=True)
        )
        self._writes = TableWriter(self._write_engine, direct_writer(url, schema))
        #: the reads every connection makes, through the driver (``reads.py``; None: through
        #: SQLAlchemy, e.g. SQLite in memory)
        self.reads = direct_reader(url, schema)

    async def migrate(self) -> None:
        # an engine of its own, without the statements' timeout (``make_engine``)
        engine = (
            self.engine
            if self.engine.dialect.name == "sqlite"
            else make_engine(self.url, self.schema, migrations=True)
        )
        try:
            async with engine.begin() as conn:
                await conn.run_sync(_upgrade)
        finally:
            if engine is not self.engine:
                await engine.dispose()

    async def close(self) -> None:
        await self._writes.close()
        if self.reads is not None:
            await self.reads.close()
        if self._write_engine is not self.engine:
            await self._write_engine.dispose()
        await self.engine.dispose()

    def session(self) -> AsyncSession:
        return self._sessions()

    async def ping(self) -> bool:
        async with self.engine.connect() as conn:
            await conn.execute(select(1))
        return True

    # -- players ---------------------------------------------------------------------------------

    async def create_player(self, name: str) -> tuple[PlayerRecord, str]:
        """A new guest player and its bearer token (returned once, stored hashed). ``NameTaken``
        when another player's name has the same key (``store.names``)."""
        if reserved(name):
            raise NameReserved(name)
        token = secrets.token_urlsafe(32)
        key = name_key(name)
        try:
            async with self._sessions.begin() as s:
                if await self._name_taken(s, key):
                    raise NameTaken(name)
                row = m.Player(
                    name=name, name_key=key, token_hash=hash_token(token), created_at=m.now()
                )
                s.add(row)
                await s.flush()
                return player_record(row), token
        except IntegrityError:
            # the same name written between our look and our insert
            async with self._sessions() as s:
                if await self._name_taken(s, key):
                    raise NameTaken(name) from None
            raise

    async def _name_taken(self, s: AsyncSession, key: str, other_than: int | None = None) -> bool:
        q = select(m.Player.id).where(m.Player.name_key == key)
        if other_than is not None:
            q = q.where(m.Player.id != other_than)
        return (await s.scalar(q.limit(1))) is not None

    async def player_by_token(self, token: str) -> PlayerRecord | None:
        """The guest whose token this is, or the account of an unexpired session's token."""
        digest = hash_token(token)
        if self.reads is not None:
            return await self.reads.player_by_token(digest, m.now())
        async with self._sessions() as s:
            row = await s.scalar(select(m.Player).where(m.Player.token_hash == digest))
            if row is None:
                row = await s.scalar(
                    select(m.Player)
                    .join(m.Session, m.Session.player_id == m.Player.id)
                    .where(m.Session.token_hash == digest, m.Session.expires_at > m.now())
                )
            return None if row is None else player_record(row)

    async def player(self, player_id: int) -> PlayerRecord | None:
        if not 0 < player_id <= MAX_ID:
            return None  # no such row can exist, and the driver would refuse the number
        async with self._sessions() as s:
            row = await s.get(m.Player, player_id)
            return None if row is None else player_record(row)

    async def set_banned(self, player_id: int, banned: bool) -> None:
        async with self._sessions.begin() as s:
            await s.execute(update(m.Player).where(m.Player.id == player_id).values(banned=banned))

    async def banned_among(self, player_ids: Iterable[int]) -> set[int]:
        """Which of these players are banned (one query per thousand of them)."""
        wanted = sorted(set(player_ids))
        out: set[int] = set()
        async with self._sessions() as s:
            for i in range(0, len(wanted), 1000):
                q = select(m.Player.id).where(
                    m.Player.id.in_(wanted[i : i + 1000]), m.Player.banned.is_(True)
                )
                out.update((await s.scalars(q)).all())
        return out

    # -- tables ----------------------------------------------------------------------------------

    async def create_table(self, spec: NewTable) -> TableRecord:
        async with self._sessions.begin() as s:
            row = m.Table(
                game=spec.game,
                options=spec.options,
                players=spec.players,
                turn_seconds=spec.turn_seconds,
                private=spec.private,
                invitation=spec.invitation,
                creator_id=spec.creator_id,
                status=spec.status,
                game_no=1,
                seed=spec.seed,
                deck=spec.deck,
                version=1,
                deadline=None,
                outcome=None,
                wins=[0] * spec.players,
                rematch_votes=[],
                rated=spec.rated,
                robot_after=spec.robot_after,
                away=None,
                timeouts=None,
                salt=spec.salt,
                spectators=spec.spectators,
                deal_replays=spec.deal_replays,
                created_at=m.now(),
                updated_at=m.now(),
            )
            s.add(row)
            await s.flush()
            for seat in spec.seats:
                s.add(
                    m.Seat(
                        table_id=row.id,
                        seat=seat.seat,
                        kind=seat.kind,
                        player_id=seat.player_id,
                        level=seat.level,
                    )
                )
            table_id = row.id
        table = await self.table(table_id)
        assert table is not None
        return table

    async def table(self, table_id: int) -> TableRecord | None:
        if not 0 < table_id <= MAX_ID:
            return None  # no such row can exist, and the driver would refuse the number
        async with self._sessions() as s:
            row = await s.get(m.Table, table_id)
            if row is None:
                return None
            return (await self._records(s, [row]))[0]

    async def tables(
        self,
        status: str | None = None,
        game: str | None = None,
        include_private: bool = False,
        limit: int = 100,
        offset: int = 0,
    ) -> list[TableRecord]:
        q = select(m.Table).order_by(m.Table.id.desc()).limit(limit).offset(offset)
        if status is not None:
            q = q.where(m.Table.status == status)
        if game is not None:
            q = q.where(m.Table.game == game)
        if not include_private:
            q = q.where(m.Table.private.is_(False))
        async with self._sessions() as s:
            rows = list((await s.scalars(q)).all())
            return await self._records(s, rows)

    async def unfinished_table_ids(self) -> list[int]:
        async with self._sessions() as s:
            q = select(m.Table.id).where(m.Table.status != "finished").order_by(m.Table.id)
            return list((await s.scalars(q)).all())

    async def tables_in_play(self, chunk: int = 500) -> list[TableRecord]:
        """Every table whose game is in play, read in bulk (a statement for the rows and one for
        the seats per ``chunk`` tables), oldest first."""
        out: list[TableRecord] = []
        after = 0
        async with self._sessions() as s:
            while True:
                q = (
                    select(m.Table)
                    .where(m.Table.status == PLAYING, m.Table.id > after)
                    .order_by(m.Table.id)
                    .limit(chunk)
                )
                rows = list((await s.scalars(q)).all())
                if not rows:
                    return out
                out += await self._records(s, rows)
                after = rows[-1].id

    async def stale_waiting_tables(self, before: datetime, limit: int) -> list[int]:
        """Waiting tables unchanged since ``before`` where no person but their creator sits
        (nobody joined them, or whoever did left), oldest first."""
        other = (
            select(m.Seat.table_id)
            .where(
                m.Seat.table_id == m.Table.id,
                m.Seat.kind == PLAYER,
                or_(m.Table.creator_id.is_(None), m.Seat.player_id != m.Table.creator_id),
            )
            .exists()
        )
        q = (
            select(m.Table.id)
            .where(m.Table.status == WAITING, m.Table.updated_at < before, ~other)
            .order_by(m.Table.id)
            .limit(limit)
        )
        async with self._sessions() as s:
            return list((await s.scalars(q)).all())

    async def tables_of_player(self, player_id: int) -> list[int]:
        async with self._sessions() as s:
            q = (
                select(m.Seat.table_id)
                .where(m.Seat.player_id == player_id, m.Seat.kind == PLAYER)
                .order_by(m.Seat.table_id)
            )
            return list((await s.scalars(q)).all())

    async def open_counts(self, player_id: int) -> tuple[int, int]:
        """What a player has open: waiting tables they created, and seats they hold at tables
        that are not over."""
        async with self._sessions() as s:
            waiting = await s.scalar(
                select(func.count())
                .select_from(m.Table)
                .where(m.Table.creator_id == player_id, m.Table.status == WAITING)
            )
            seats = await s.scalar(
                select(func.count())
                .select_from(m.Seat)
                .join(m.Table, m.Table.id == m.Seat.table_id)
                .where(
                    m.Seat.player_id == player_id,
                    m.Seat.kind == PLAYER,
                    m.Table.status != FINISHED,
                )
            )
            return int(waiting or 0), int(seats or 0)

    async def _records(self, s: AsyncSession, rows: Sequence[m.Table]) -> list[TableRecord]:
        if not rows:
            return []
        ids = [r.id for r in rows]
        seat_rows = (
            await s.execute(
                select(m.Seat, m.Player.name)
                .outerjoin(m.Player, m.Player.id == m.Seat.player_id)
                .where(m.Seat.table_id.in_(ids))
                .order_by(m.Seat.table_id, m.Seat.seat)
            )
        ).all()
        seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
        for seat, name in seat_rows:
            seats[seat.table_id].append(
                SeatRecord(seat.seat, seat.kind, seat.player_id, name, seat.level)
            )
        creators = {r.creator_id for r in rows if r.creator_id is not None}
        names: dict[int, str] = {}
        if creators:
            q = select(m.Player.id, m.Player.name).where(m.Player.id.in_(creators))
            names = {pid: name for pid, name in (await s.execute(q)).all()}
        return [
            _record(r, seats[r.id], names.get(r.creator_id) if r.creator_id is not None else None)
            for r in rows
        ]

    async def catch_up(
        self, known: TableRecord, after: int
    ) -> tuple[TableRecord | None, list[LoggedAction]]:
        """A table as stored now, for a process that holds it at ``known`` with the current
        game's first ``after`` actions applied; and the actions that take it there (the current
        game's, after the ``after``-th if it is still ``known``'s game, up to the version read).
        Unchanged: ``known`` itself and no action. None if the table is gone.

        When every change since ``known`` is a logged action (a move changes the table's row,
        never its seats), the seats are taken from ``known``: two statements in all."""
        async with self._sessions() as s:
            row = await s.get(m.Table, known.id)
            if row is None:
                return None, []
            if row.version == known.version:
                # the home may have changed hands (that changes no version): it is read from
                # the store only, so the held record takes it in place
                known.home, known.home_token = row.home, row.home_token or 0
                return known, []
            rows: list[LoggedAction] = []
            if row.status != WAITING:
                q = (
                    select(m.ActionRow)
                    .where(
                        m.ActionRow.table_id == known.id,
                        m.ActionRow.game_no == row.game_no,
                        m.ActionRow.seq > (after if row.game_no == known.game_no else 0),
                        m.ActionRow.version <= row.version,
                    )
                    .order_by(m.ActionRow.seq)
                )
                rows = [
                    LoggedAction(a.seq, a.seat, a.action, a.source, a.at, a.version, a.request)
                    for a in (await s.scalars(q)).all()
                ]
            only_moves = row.game_no == known.game_no and [a.version for a in rows] == list(
                range(known.version + 1, row.version + 1)
            )
            if only_moves:
                seats = [
                    SeatRecord(x.seat, x.kind, x.player_id, x.name, x.level) for x in known.seats
                ]
                return _record(row, seats, known.creator_name), rows
            return (await self._records(s, [row]))[0], rows

    # -- table writes (group commit: ``writes.py``) ------------------------------------------

    @property
    def commits(self) -> int:
        """Transactions of table writes since start-up."""
        return self._writes.commits

    @property
    def writes(self) -> int:
        """Table writes since start-up (each in one of ``commits``)."""
        return self._writes.writes

    @property
    def sqlite_moves(self) -> dict[str, int] | None:
        """On a SQLite file, where its groups of moves alone were committed (``loop``,
        ``thread``) and the slow commits on the loop (``slow``); None on another database."""
        direct = self._writes.direct
        return direct.counts() if isinstance(direct, SqliteMoves) else None

    @property
    def commit_hooks(self) -> list[Callable[[float, int], None]]:
        """Told of each group commit of table writes: its seconds and its writes
        (``/metrics``)."""
        return self._writes.commit_hooks

    async def save_table(
        self, t: TableRecord, expected_version: int, seats: bool = True, fence: int | None = None
    ) -> None:
        """Write a table's changed row (and seats) if nobody wrote it since ``expected_version``
        (and, with ``fence``, if that is still the table's home token); raises ``StaleVersion``
        (having written nothing) otherwise."""
        await self._writes.write(TableWrite(t, expected_version, seats, fence=fence))

    async def record_action(
        self,
        t: TableRecord,
        expected_version: int,
        action: LoggedAction,
        deal_events: Sequence[dict[str, Any]] = (),
        seats: bool = False,
        fence: int | None = None,
    ) -> None:
        """An accepted action, all or nothing: the log row, the table's new version, deadline and
        status, the deals it ended and, when it ends the game, the result. Raises
        ``StaleVersion`` (having written nothing) if the table moved on since
        ``expected_version``."""
        await self._writes.write(
            TableWrite(t, expected_version, seats, action, list(deal_events), fence)
        )

    async def actions(
        self, table_id: int, game_no: int, after: int = 0, upto: int | None = None
    ) -> list[LoggedAction]:
        """A game's logged actions after the ``after``-th; with ``upto``, only those the table's
        version ``upto`` holds (a table row read earlier: moves committed since then are left for
        the next read, so the state built matches that row)."""
        async with self._sessions() as s:
            return await _actions(s, table_id, game_no, after, upto)

    async def table_with_actions(
        self, table_id: int
    ) -> tuple[TableRecord | None, list[LoggedAction]]:
        """``table`` and, unless it waits for its players, its current game's ``actions`` up to
        its version: a table loaded into memory, in one session (a crowd coming back to a
        process that does not hold its tables loads each: a checkout, a ping and a rollback
        fewer a table than two reads)."""
        if not 0 < table_id <= MAX_ID:
            return None, []
        async with self._sessions() as s:
            row = await s.get(m.Table, table_id)
            if row is None:
                return None, []
            rec = (await self._records(s, [row]))[0]
            if rec.status == WAITING:
                return rec, []
            return rec, await _actions(s, rec.id, rec.game_no, 0, rec.version)

    # -- results ---------------------------------------------------------------------------------

    async def results(self, table_id: int) -> list[dict[str, Any]]:
        """Every finished game of a table, oldest first, with seats and per-deal scores."""
        async with self._sessions() as s:
            results = (
                await s.scalars(
                    select(m.Result).where(m.Result.table_id == table_id).order_by(m.Result.game_no)
                )
            ).all()
            seats = (
                await s.execute(
                    select(m.ResultSeat, m.Player.name)
                    .outerjoin(m.Player, m.Player.id == m.ResultSeat.player_id)
                    .where(m.ResultSeat.table_id == table_id)
                    .order_by(m.ResultSeat.game_no, m.ResultSeat.seat)
                )
            ).all()
            deals = (
                await s.scalars(
                    select(m.DealScore)
                    .where(m.DealScore.table_id == table_id)
                    .order_by(m.DealScore.game_no, m.DealScore.deal)
                )
            ).all()
        out = []
        for r in results:
            out.append(
                {
                    "game_no": r.game_no,
                    "game": r.game,
                    "finished_at": r.finished_at.isoformat(),
                    "outcome": r.outcome,
                    "seats": [
                        {
                            "seat": rs.seat,
                            "kind": rs.kind,
                            "player_id": rs.player_id,
                            "name": name,
                            "score": rs.score,
                            "won": rs.won,
                        }
                        for rs, name in seats
                        if rs.game_no == r.game_no
                    ],
                    "deals": [
                        {"deal": d.deal, "seq": d.seq, "event": d.event}
                        for d in deals
                        if d.game_no == r.game_no
                    ],
                }
            )
        return out

    async def deal_events(self, table_id: int, game_no: int) -> list[dict[str, Any]]:
        async with self._sessions() as s:
            q = (
                select(m.DealScore.event)
                .where(m.DealScore.table_id == table_id, m.DealScore.game_no == game_no)
                .order_by(m.DealScore.deal)
            )
            return list((await s.scalars(q)).all())

    async def leaderboard(self, game: str | None = None, limit: int = 50) -> list[LeaderboardRow]:
        played = func.count().label("played")
        won = func.sum(cast(m.ResultSeat.won, Integer)).label("won")
        q = (
            select(m.Player.id, m.Player.name, played, won)
            .join(m.ResultSeat, m.ResultSeat.player_id == m.Player.id)
            .join(
                m.Result,
                (m.Result.table_id == m.ResultSeat.table_id)
                & (m.Result.game_no == m.ResultSeat.game_no),
            )
            .group_by(m.Player.id, m.Player.name)
            .order_by(won.desc(), played.asc(), m.Player.id)
            .limit(limit)
        )
        if game is not None:
            q = q.where(m.Result.game == game)
        async with self._sessions() as s:
            return [
                LeaderboardRow(player_id=pid, name=name, played=int(p), won=int(w or 0))
                for pid, name, p, w in (await s.execute(q)).all()
            ]


async def _actions(
    s: AsyncSession, table_id: int, game_no: int, after: int, upto: int | None
) -> list[LoggedAction]:
    q = (
        select(m.ActionRow)
        .where(
            m.ActionRow.table_id == table_id,
            m.ActionRow.game_no == game_no,
            m.ActionRow.seq > after,
        )
        .order_by(m.ActionRow.seq)
    )
    if upto is not None:
        q = q.where(m.ActionRow.version <= upto)
    return [
        LoggedAction(r.seq, r.seat, r.action, r.source, r.at, r.version, r.request)
        for r in (await s.scalars(q)).all()
    ]
