"""The admin's reads and writes: every table, players and their bans, the audit log, statistics.

Kept apart from the players' repository (``repo.py``); it uses the same engine and sessions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from tablee.tables.records import MAX_ID, PLAYER, TableRecord

from . import models as m
from .names import NameTaken, name_key
from .repo import Store


@dataclass(frozen=True)
class AuditRecord:
    id: int
    at: datetime
    actor: str
    action: str
    target_type: str | None
    target_id: int | None
    details: dict[str, Any]
    ip: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.isoformat(),
            "actor": self.actor,
            "action": self.action,
            "target_type": self.target_type,
            "target_id": self.target_id,
            "details": self.details,
            "ip": self.ip,
        }


@dataclass(frozen=True)
class PlayerSummary:
    id: int
    name: str
    created_at: datetime
    banned: bool
    #: tables where the player holds a seat now
    seats: int
    #: finished games played
    played: int
    #: an account (a password set), not a guest
    claimed: bool = False


@dataclass(frozen=True)
class GameSeed:
    game_no: int
    seed: int | None
    deck: list[str] | None
    outcome: dict[str, Any]
    finished_at: datetime
    #: the options the game was dealt with; None: finished before they were kept
    options: dict[str, Any] | None = None
    #: the salt of its shuffle commitment (None: dealt before commitments)
    salt: str | None = None


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


async def _count(s: Any, q: Select[Any]) -> int:
    n = await s.scalar(select(func.count()).select_from(q.order_by(None).subquery()))
    return int(n or 0)


class AdminStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # -- tables ----------------------------------------------------------------------------------

    async def tables(
        self,
        status: str | None = None,
        game: str | None = None,
        player_id: int | None = None,
        since: datetime | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> tuple[list[TableRecord], int]:
        """Every table (private ones too), newest first, and how many match in all."""
        q = select(m.Table)
        if status is not None:
            q = q.where(m.Table.status == status)
        if game is not None:
            q = q.where(m.Table.game == game)
        if since is not None:
            q = q.where(m.Table.created_at >= since)
        if player_id is not None:
            seated = select(m.Seat.table_id).where(
                m.Seat.player_id == player_id, m.Seat.kind == PLAYER
            )
            played = select(m.ResultSeat.table_id).where(m.ResultSeat.player_id == player_id)
            q = q.where(
                or_(
                    m.Table.id.in_(seated),
                    m.Table.id.in_(played),
                    m.Table.creator_id == player_id,
                )
            )
        async with self.store.session() as s:
            total = await _count(s, q)
            rows = list(
                (await s.scalars(q.order_by(m.Table.id.desc()).limit(limit).offset(offset))).all()
            )
            return await self.store._records(s, rows), total

    async def game_seeds(self, table_id: int) -> list[GameSeed]:
        """The finished games of a table, oldest first, with the seed and options each was dealt
        from."""
        async with self.store.session() as s:
            rows = (
                await s.scalars(
                    select(m.Result).where(m.Result.table_id == table_id).order_by(m.Result.game_no)
                )
            ).all()
            return [
                GameSeed(
                    r.game_no,
                    r.seed,
                    None if r.deck is None else list(r.deck),
                    dict(r.outcome),
                    r.finished_at,
                    None if r.options is None else dict(r.options),
                    r.salt,
                )
                for r in rows
            ]

    # -- players ---------------------------------------------------------------------------------

    async def players(
        self,
        q: str | None = None,
        banned: bool | None = None,
        limit: int = 100,
        offset: int = 0,
        claimed: bool | None = None,
    ) -> tuple[list[PlayerSummary], int]:
        """Players whose name holds ``q`` (any case; a number also matches the id), newest first."""
        seats = (
            select(func.count())
            .select_from(m.Seat)
            .where(m.Seat.player_id == m.Player.id, m.Seat.kind == PLAYER)
            .scalar_subquery()
        )
        played = (
            select(func.count())
            .select_from(m.ResultSeat)
            .where(m.ResultSeat.player_id == m.Player.id)
            .scalar_subquery()
        )
        conds: list[Any] = []
        if q and q.strip():
            text = q.strip()
            cond: Any = m.Player.name.ilike(_like(text), escape="\\")
            # isdigit() alone admits "²" and numbers no id column holds
            if text.isascii() and text.isdigit() and int(text) <= MAX_ID:
                cond = or_(cond, m.Player.id == int(text))
            conds.append(cond)
        if banned is not None:
            conds.append(m.Player.banned.is_(banned))
        if claimed is not None:
            has = m.Player.password_hash.is_not(None)
            conds.append(has if claimed else m.Player.password_hash.is_(None))
        query = select(m.Player, seats.label("seats"), played.label("played")).where(*conds)
        async with self.store.session() as s:
            total = await _count(s, select(m.Player.id).where(*conds))
            rows = (
                await s.execute(query.order_by(m.Player.id.desc()).limit(limit).offset(offset))
            ).all()
            return [
                PlayerSummary(
                    p.id,
                    p.name,
                    p.created_at,
                    p.banned,
                    int(n or 0),
                    int(g or 0),
                    p.password_hash is not None,
                )
                for p, n, g in rows
            ], total

    async def rename_player(self, player_id: int, name: str) -> bool:
        """``NameTaken`` when another player's name has the same key (``store.names``); the
        player's own name in another case is theirs to take."""
        key = name_key(name)
        try:
            async with self.store.session() as s, s.begin():
                if await self.store._name_taken(s, key, other_than=player_id):
                    raise NameTaken(name)
                result = await s.execute(
                    update(m.Player).where(m.Player.id == player_id).values(name=name, name_key=key)
                )
                return bool(result.rowcount)  # type: ignore[attr-defined]
        except IntegrityError:
            raise NameTaken(name) from None

    # -- the audit log ---------------------------------------------------------------------------

    async def audit(
        self,
        actor: str,
        action: str,
        target_type: str | None = None,
        target_id: int | None = None,
        details: dict[str, Any] | None = None,
        ip: str | None = None,
    ) -> AuditRecord:
        async with self.store.session() as s, s.begin():
            row = m.AuditEntry(
                at=m.now(),
                actor=actor,
                action=action,
                target_type=target_type,
                target_id=target_id,
                details=details or {},
                ip=ip,
            )
            s.add(row)
            await s.flush()
            return _audit(row)

    async def audit_log(
        self,
        actor: str | None = None,
        action: str | None = None,
        target_type: str | None = None,
        target_id: int | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> tuple[list[AuditRecord], int]:
        """Newest first. ``action`` ending in ``.`` or ``*`` matches a prefix (``table.*``)."""
        q = select(m.AuditEntry)
        if actor is not None:
            q = q.where(m.AuditEntry.actor == actor)
        if action is not None:
            if action.endswith(("*", ".")):
                prefix = action.rstrip("*")
                q = q.where(m.AuditEntry.action.like(prefix.replace("_", "\\_") + "%", escape="\\"))
            else:
                q = q.where(m.AuditEntry.action == action)
        if target_type is not None:
            q = q.where(m.AuditEntry.target_type == target_type)
        if target_id is not None:
            q = q.where(m.AuditEntry.target_id == target_id)
        if since is not None:
            q = q.where(m.AuditEntry.at >= since)
        if until is not None:
            q = q.where(m.AuditEntry.at < until)
        async with self.store.session() as s:
            total = await _count(s, q)
            rows = (
                await s.scalars(q.order_by(m.AuditEntry.id.desc()).limit(limit).offset(offset))
            ).all()
            return [_audit(r) for r in rows], total

    # -- statistics ------------------------------------------------------------------------------

    async def table_counts(self) -> list[tuple[str, str, int]]:
        """(game, status, tables) over every table."""
        q = select(m.Table.game, m.Table.status, func.count()).group_by(
            m.Table.game, m.Table.status
        )
        async with self.store.session() as s:
            return [(g, st, int(n)) for g, st, n in (await s.execute(q)).all()]

    async def moves_since(self, since: datetime) -> int:
        async with self.store.session() as s:
            n = await s.scalar(
                select(func.count()).select_from(m.ActionRow).where(m.ActionRow.at >= since)
            )
            return int(n or 0)

    async def finished_per_day(self, since: datetime) -> list[tuple[str, str, int]]:
        """(UTC day ``YYYY-MM-DD``, game, games finished) since ``since``, oldest first."""
        col = m.Result.finished_at
        if self.store.engine.dialect.name == "sqlite":
            day = func.strftime("%Y-%m-%d", col)  # stored as naive UTC text
        else:
            day = func.to_char(func.timezone("UTC", col), "YYYY-MM-DD")
        q = (
            select(day.label("day"), m.Result.game, func.count())
            .where(col >= since)
            .group_by(day, m.Result.game)
            .order_by(day, m.Result.game)
        )
        async with self.store.session() as s:
            return [(str(d), g, int(n)) for d, g, n in (await s.execute(q)).all()]

    async def player_counts(self) -> tuple[int, int]:
        """(players, banned players)."""
        async with self.store.session() as s:
            total = await s.scalar(select(func.count()).select_from(m.Player))
            banned = await s.scalar(
                select(func.count()).select_from(m.Player).where(m.Player.banned.is_(True))
            )
            return int(total or 0), int(banned or 0)


def _audit(row: m.AuditEntry) -> AuditRecord:
    return AuditRecord(
        id=row.id,
        at=row.at,
        actor=row.actor,
        action=row.action,
        target_type=row.target_type,
        target_id=row.target_id,
        details=dict(row.details or {}),
        ip=row.ip,
    )


__all__ = ["AdminStore", "AuditRecord", "GameSeed", "PlayerSummary"]
