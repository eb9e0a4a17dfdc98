"""Accounts: a guest's claim of its name, login sessions, passwords (their hashes only; the
hashing itself is the tables layer's, ``tablee.tables.accounts``).

A claim keeps the player's row (same id: its games stay its own) and retires its guest token: from
then on the player gets in through sessions, each an opaque token stored as its sha256 with an
expiry. Logout deletes a session; logout everywhere deletes them all.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tablee.tables.records import PlayerRecord

from . import models as m
from .repo import Store, hash_token
from .rows import player_record


@dataclass(frozen=True)
class SessionRecord:
    id: int
    player_id: int
    created_at: datetime
    expires_at: datetime
    ip: str | None
    user_agent: str | None


@dataclass(frozen=True)
class Credentials:
    """What a login checks: the player, and the password hash (None for a guest)."""

    player: PlayerRecord
    password_hash: str | None


def _session(row: m.Session) -> SessionRecord:
    return SessionRecord(
        row.id, row.player_id, row.created_at, row.expires_at, row.ip, row.user_agent
    )


class AccountStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def credentials(self, key: str) -> Credentials | None:
        """The player whose name has this key (``store.names.name_key``)."""
        async with self.store.session() as s:
            row = await s.scalar(select(m.Player).where(m.Player.name_key == key))
            return None if row is None else Credentials(player_record(row), row.password_hash)

    async def password_hash(self, player_id: int) -> str | None:
        async with self.store.session() as s:
            return await s.scalar(select(m.Player.password_hash).where(m.Player.id == player_id))

    async def claim(
        self,
        player_id: int,
        password_hash: str,
        email: str | None,
        expires_at: datetime,
        ip: str | None,
        user_agent: str | None,
    ) -> str | None:
        """The guest becomes an account: its password hash and email set, its guest token retired
        (replaced by the hash of a secret nobody holds), and a first session opened; that
        session's token. None if the player is an account already (nothing changed)."""
        async with self.store.session() as s, s.begin():
            result = await s.execute(
                update(m.Player)
                .where(m.Player.id == player_id, m.Player.password_hash.is_(None))
                .values(
                    password_hash=password_hash,
                    email=email,
                    claimed_at=m.now(),
                    token_hash=hash_token(secrets.token_urlsafe(32)),
                )
            )
            if not result.rowcount:  # type: ignore[attr-defined]
                return None
            return await self._open(s, player_id, expires_at, ip, user_agent)

    async def open_session(
        self, player_id: int, expires_at: datetime, ip: str | None, user_agent: str | None
    ) -> str:
        """A new session's token (returned once, stored hashed). Expired sessions of the player
        are dropped on the way."""
        async with self.store.session() as s, s.begin():
            await s.execute(
                delete(m.Session).where(
                    m.Session.player_id == player_id, m.Session.expires_at <= m.now()
                )
            )
            return await self._open(s, player_id, expires_at, ip, user_agent)

    async def _open(
        self,
        s: AsyncSession,
        player_id: int,
        expires_at: datetime,
        ip: str | None,
        user_agent: str | None,
    ) -> str:
        token = secrets.token_urlsafe(32)
        row = m.Session(
            player_id=player_id,
            token_hash=hash_token(token),
            created_at=m.now(),
            expires_at=expires_at,
            ip=ip,
            user_agent=(user_agent or None) and user_agent[:200],
        )
        s.add(row)
        return token

    async def close_session(self, token: str) -> bool:
        """Logout: this token's session is gone. False if there was none."""
        async with self.store.session() as s, s.begin():
            result = await s.execute(
                delete(m.Session).where(m.Session.token_hash == hash_token(token))
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    async def close_sessions(
        self, player_id: int, keep: str | None = None, session_id: int | None = None
    ) -> int:
        """Every session of the player (but the one of ``keep``'s token; or only ``session_id``);
        how many were closed."""
        q = delete(m.Session).where(m.Session.player_id == player_id)
        if keep is not None:
            q = q.where(m.Session.token_hash != hash_token(keep))
        if session_id is not None:
            q = q.where(m.Session.id == session_id)
        async with self.store.session() as s, s.begin():
            result = await s.execute(q)
            return int(result.rowcount)  # type: ignore[attr-defined]

    async def set_password(self, player_id: int, password_hash: str) -> bool:
        async with self.store.session() as s, s.begin():
            result = await s.execute(
                update(m.Player)
                .where(m.Player.id == player_id, m.Player.password_hash.is_not(None))
                .values(password_hash=password_hash)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    async def sessions(self, player_id: int) -> list[SessionRecord]:
        """The player's sessions still valid, newest first."""
        async with self.store.session() as s:
            q = (
                select(m.Session)
                .where(m.Session.player_id == player_id, m.Session.expires_at > m.now())
                .order_by(m.Session.id.desc())
            )
            return [_session(r) for r in (await s.scalars(q)).all()]

    async def account(self, player_id: int) -> tuple[str | None, datetime | None, int] | None:
        """Email, claim date and the number of live sessions; None for no such player."""
        async with self.store.session() as s:
            row = await s.get(m.Player, player_id)
            if row is None:
                return None
            count = await s.scalar(
                select(func.count())
                .select_from(m.Session)
                .where(m.Session.player_id == player_id, m.Session.expires_at > m.now())
            )
            return row.email, row.claimed_at, int(count or 0)


__all__ = ["AccountStore", "Credentials", "SessionRecord"]
