"""Reads straight through the database driver: the ones every connection makes.

A socket's ``hello`` reads the player of its token (so does every REST call with a token), and
its ``subscribe`` the channel's last chat messages and the player's mute. Through SQLAlchemy's
async session a player's read cost about 0.7 ms of this process's CPU on SQLite and 0.95 ms on
PostgreSQL, the chat's 1.5 ms on both (``bench/reads.py``): on SQLite six hand-offs to aiosqlite's
thread (cursor, execute, fetch, close, two rollbacks), the greenlets around each and the ORM's
objects, for a statement that takes SQLite some 15 µs. Four thousand sockets coming back at once
after a restart spent seconds on them alone. Here 0.04 and 0.12 ms on SQLite, 0.17 and 0.27 on
PostgreSQL:

- SQLite (the standard ``sqlite3`` module): a thread of its own with a connection of its own,
  read-only, each read (its one or two statements) handed to it whole: one hand-off. WAL: the
  writers do not block it, nor it them;
- PostgreSQL (asyncpg): a pool of its own, of at most ``POOL`` connections, one round trip a
  statement and no ping or rollback around it.

Both return the very records the SQLAlchemy path returns (``tests/store/test_reads.py`` reads the
same rows both ways and compares). Nothing here writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any, Protocol

import asyncpg  # type: ignore[import-untyped]

from tablee.tables.records import ChatMuteRecord, ChatRecord, PlayerRecord

from .direct import SqliteThread, driver_target
from .writes import DATABASE_SECONDS

#: the most connections the PostgreSQL reads hold at once
POOL = 2

_PLAYER = "p.id, p.name, p.created_at, p.banned, p.password_hash IS NOT NULL"
_CHAT = (
    "id, table_id, author_id, author_name, seat, text, phrase, audience, at, held_game,"
    " held_deal, deleted_at IS NOT NULL"
)
_MUTE = 'player_id, until, reason, "by", at'


class DirectReader(Protocol):
    async def player_by_token(self, digest: str, now: datetime) -> PlayerRecord | None:
        """The guest whose token's sha256 this is, or the account of a session's token that
        expires after ``now``."""
        ...

    async def chat_history(
        self, table_id: int | None, limit: int, player_id: int | None
    ) -> tuple[list[ChatRecord], ChatMuteRecord | None]:
        """The channel's last ``limit`` messages not deleted (oldest first), and the player's
        mute row, running or not (None: none, or no player)."""
        ...

    async def close(self) -> None: ...


def direct_reader(url: str, schema: str | None = None) -> DirectReader | None:
    """The direct reader of the database at ``url`` (None: none for it, as ``direct_writer``)."""
    target = driver_target(url)
    if target is None:
        return None
    kind, where = target
    return SqliteReads(where) if kind == "sqlite" else PostgresReads(where, schema)


def _player(r: Any) -> PlayerRecord:
    return PlayerRecord(
        id=r[0], name=r[1], created_at=_time(r[2]), banned=bool(r[3]), claimed=bool(r[4])
    )


def _chat(r: Any) -> ChatRecord:
    return ChatRecord(
        id=r[0],
        table_id=r[1],
        author_id=r[2],
        author_name=r[3],
        seat=r[4],
        text=r[5],
        phrase=r[6],
        audience=r[7],
        at=_time(r[8]),
        held_game=r[9],
        held_deal=r[10],
        deleted=bool(r[11]),
    )


def _mute(r: Any) -> ChatMuteRecord:
    return ChatMuteRecord(player_id=r[0], until=_time(r[1]), reason=r[2], by=r[3], at=_time(r[4]))


def _time(value: Any) -> datetime:
    # SQLite: SQLAlchemy's DATETIME text of the naive UTC time (``UTCDateTime``); PostgreSQL:
    # asyncpg's aware datetime
    if isinstance(value, str):
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    assert isinstance(value, datetime)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _sqlite_time(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def _last(table_id: int | None, limit: int, marks: tuple[str, str]) -> tuple[str, tuple[Any, ...]]:
    """The statement of a channel's last ``limit`` messages, newest first, and its arguments
    (``marks``: the driver's placeholders of the first and second)."""
    args: tuple[Any, ...]
    if table_id is None:
        channel, args, at = "table_id IS NULL", (limit,), marks[0]
    else:
        channel, args, at = f"table_id = {marks[0]}", (table_id, limit), marks[1]
    sql = (
        f"SELECT {_CHAT} FROM chat_messages WHERE {channel} AND deleted_at IS NULL"
        f" ORDER BY id DESC LIMIT {at}"
    )
    return sql, args


# -- SQLite ----------------------------------------------------------------------------------------


class SqliteReads:
    """A thread of its own with a read-only connection of its own; a read is handed to it whole."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._thread = SqliteThread("tablee-reads", self._connect)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA query_only=ON")
        return conn

    async def player_by_token(self, digest: str, now: datetime) -> PlayerRecord | None:
        def read(conn: sqlite3.Connection) -> Any:
            row = conn.execute(
                f"SELECT {_PLAYER} FROM players p WHERE p.token_hash = ?", (digest,)
            ).fetchone()
            if row is None:
                row = conn.execute(
                    f"SELECT {_PLAYER} FROM players p JOIN sessions s ON s.player_id = p.id"
                    " WHERE s.token_hash = ? AND s.expires_at > ?",
                    (digest, _sqlite_time(now)),
                ).fetchone()
            return row

        row = await self._thread.run(read)
        return None if row is None else _player(row)

    async def chat_history(
        self, table_id: int | None, limit: int, player_id: int | None
    ) -> tuple[list[ChatRecord], ChatMuteRecord | None]:
        def read(conn: sqlite3.Connection) -> Any:
            rows: list[Any] = []
            if limit > 0:
                rows = conn.execute(*_last(table_id, limit, ("?", "?"))).fetchall()
            mute = None
            if player_id is not None:
                mute = conn.execute(
                    f"SELECT {_MUTE} FROM chat_mutes WHERE player_id = ?", (player_id,)
                ).fetchone()
            return rows, mute

        rows, mute = await self._thread.run(read)
        return [_chat(r) for r in reversed(rows)], None if mute is None else _mute(mute)

    async def close(self) -> None:
        await self._thread.close()


# -- PostgreSQL ------------------------------------------------------------------------------------


async def _kept_as_is(conn: Any) -> None:
    """A connection handed back to the pool is kept as it is. These connections run single
    statements outside any transaction and never set anything on their session, so asyncpg's
    own reset (``RESET ALL``, ``UNLISTEN *``, ``CLOSE ALL``, advisory unlocks) would be a round
    trip on every read for nothing: a socket's ``hello`` and ``subscribe`` each paid one, and a
    crowd reconnecting to a process pays thousands. (asyncpg still rolls back a transaction left
    open, before this is called.)"""


class PostgresReads:
    """A pool of its own (made in the event loop that first reads: tests run a store in
    several; a pool serves the loop it was made in)."""

    def __init__(self, dsn: str, schema: str | None) -> None:
        self.dsn = dsn
        self.schema = schema
        self._pool: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: the first reads of a loop wait for one pool to be made (a crowd would make one each)
        self._making: asyncio.Lock | None = None
        self._making_loop: asyncio.AbstractEventLoop | None = None

    async def _connections(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._pool is None or self._loop is not loop:
            if self._making is None or self._making_loop is not loop:
                self._making, self._making_loop = asyncio.Lock(), loop
            async with self._making:
                if self._pool is None or self._loop is not loop:
                    settings = {"search_path": self.schema} if self.schema else None
                    self._pool = await asyncpg.create_pool(
                        self.dsn,
                        min_size=0,
                        max_size=POOL,
                        server_settings=settings,
                        reset=_kept_as_is,
                        # a database the network cut off answers nothing: a socket's hello is
                        # answered all the same, after this long
                        timeout=DATABASE_SECONDS,
                        command_timeout=DATABASE_SECONDS,
                    )
                    self._loop = loop
        return self._pool

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        pool = await self._connections()
        async with pool.acquire() as conn:
            try:
                yield conn
            except TimeoutError:
                # the statement's cancellation goes over a new connection, through the same
                # silent network, and giving the connection back would wait for it as long
                # again: closed at once (the pool opens another when it needs one)
                conn.terminate()
                raise

    async def player_by_token(self, digest: str, now: datetime) -> PlayerRecord | None:
        async with self._connection() as conn:
            row = await conn.fetchrow(
                f"SELECT {_PLAYER} FROM players p WHERE p.token_hash = $1", digest
            )
            if row is None:
                row = await conn.fetchrow(
                    f"SELECT {_PLAYER} FROM players p JOIN sessions s ON s.player_id = p.id"
                    " WHERE s.token_hash = $1 AND s.expires_at > $2",
                    digest,
                    now,
                )
        return None if row is None else _player(row)

    async def chat_history(
        self, table_id: int | None, limit: int, player_id: int | None
    ) -> tuple[list[ChatRecord], ChatMuteRecord | None]:
        rows: list[Any] = []
        async with self._connection() as conn:
            if limit > 0:
                sql, args = _last(table_id, limit, ("$1", "$2"))
                rows = await conn.fetch(sql, *args)
            mute = None
            if player_id is not None:
                mute = await conn.fetchrow(
                    f"SELECT {_MUTE} FROM chat_mutes WHERE player_id = $1", player_id
                )
        return [_chat(r) for r in reversed(rows)], None if mute is None else _mute(mute)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None and self._loop is asyncio.get_running_loop():
            await pool.close()
