"""The chat's reads and writes: messages of the tables and of the lobby, reports, mutes, and the
deletion of old messages. Uses the repository's engine and sessions (``repo.py``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tablee.tables.records import (
    ChatMuteRecord,
    ChatRecord,
    ChatReportRecord,
    NewChat,
)

from . import models as m
from .repo import Store


class Muted(Exception):
    """The author is muted by an admin until ``until``: nothing was stored."""

    def __init__(self, until: datetime) -> None:
        super().__init__(f"muted until {until.isoformat()}")
        self.until = until


def _chat(r: m.ChatMessage) -> ChatRecord:
    return ChatRecord(
        id=r.id,
        table_id=r.table_id,
        author_id=r.author_id,
        author_name=r.author_name,
        seat=r.seat,
        text=r.text,
        phrase=r.phrase,
        audience=r.audience,
        at=r.at,
        held_game=r.held_game,
        held_deal=r.held_deal,
        deleted=r.deleted_at is not None,
    )


def _report(r: m.ChatReport) -> ChatReportRecord:
    return ChatReportRecord(
        id=r.id,
        message_id=r.message_id,
        reporter_id=r.reporter_id,
        reason=r.reason,
        table_id=r.table_id,
        author_id=r.author_id,
        author_name=r.author_name,
        text=r.text,
        at=r.at,
    )


def _mute(r: m.ChatMute) -> ChatMuteRecord:
    return ChatMuteRecord(player_id=r.player_id, until=r.until, reason=r.reason, by=r.by, at=r.at)


async def _last(s: AsyncSession, table_id: int | None, limit: int) -> list[ChatRecord]:
    channel = (
        m.ChatMessage.table_id.is_(None) if table_id is None else m.ChatMessage.table_id == table_id
    )
    q = (
        select(m.ChatMessage)
        .where(channel, m.ChatMessage.deleted_at.is_(None))
        .order_by(m.ChatMessage.id.desc())
        .limit(limit)
    )
    rows = (await s.execute(q)).scalars().all()
    return [_chat(r) for r in reversed(rows)]


class ChatStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def add(self, new: NewChat, now: datetime) -> tuple[ChatRecord, bool]:
        """Stores a message, in one transaction with the look at the author's mute (``Muted``:
        nothing stored). A message whose ``request`` is stored already is not stored again: the
        answer is the stored one, and False."""
        if new.request is not None:
            found = await self._by_request(new.request)
            if found is not None:
                return found, False
        try:
            async with self.store.session() as s, s.begin():
                mute = await s.get(m.ChatMute, new.author_id)
                if mute is not None and mute.until > now:
                    raise Muted(mute.until)
                row = m.ChatMessage(
                    table_id=new.table_id,
                    author_id=new.author_id,
                    author_name=new.author_name,
                    seat=new.seat,
                    text=new.text,
                    phrase=new.phrase,
                    audience=new.audience,
                    held_game=new.held_game,
                    held_deal=new.held_deal,
                    request=new.request,
                    at=now,
                )
                s.add(row)
                await s.flush()
                return _chat(row), True
        except IntegrityError:
            # the same request, stored by a retry racing this one (on any process)
            assert new.request is not None
            found = await self._by_request(new.request)
            if found is None:
                raise
            return found, False

    async def _by_request(self, request: str) -> ChatRecord | None:
        async with self.store.session() as s:
            row = (
                await s.execute(select(m.ChatMessage).where(m.ChatMessage.request == request))
            ).scalar_one_or_none()
            return None if row is None else _chat(row)

    async def message(self, message_id: int) -> ChatRecord | None:
        async with self.store.session() as s:
            row = await s.get(m.ChatMessage, message_id)
            return None if row is None else _chat(row)

    async def last(self, table_id: int | None, limit: int) -> list[ChatRecord]:
        """The channel's last ``limit`` messages not deleted, oldest first."""
        async with self.store.session() as s:
            return await _last(s, table_id, limit)

    async def history(
        self, table_id: int | None, limit: int, player_id: int | None, now: datetime
    ) -> tuple[list[ChatRecord], ChatMuteRecord | None]:
        """``last``, and the player's mute running at ``now`` (None: none, or no player), in one
        session: what every subscription reads (a thousand of them at once when a full room
        comes back after a restart)."""
        reads = self.store.reads
        if reads is not None:
            rows, mute = await reads.chat_history(table_id, limit, player_id)
            return rows, None if mute is None or mute.until <= now else mute
        async with self.store.session() as s:
            rows = await _last(s, table_id, limit) if limit > 0 else []
            row = None if player_id is None else await s.get(m.ChatMute, player_id)
        return rows, None if row is None or row.until <= now else _mute(row)

    async def delete(self, message_id: int, now: datetime) -> ChatRecord | None:
        """Marks a message deleted (its text is blanked: a report keeps its own copy). None: no
        such message."""
        async with self.store.session() as s, s.begin():
            row = await s.get(m.ChatMessage, message_id)
            if row is None:
                return None
            before = _chat(row)
            if row.deleted_at is None:
                row.deleted_at = now
                row.text = ""
            return before

    async def prune(self, before: datetime) -> int:
        """Deletes the messages written before ``before``; how many."""
        async with self.store.session() as s, s.begin():
            result = await s.execute(delete(m.ChatMessage).where(m.ChatMessage.at < before))
            return int(result.rowcount)  # type: ignore[attr-defined]

    # -- reports ---------------------------------------------------------------------------------

    async def report(
        self, message: ChatRecord, reporter_id: int, reason: str, now: datetime
    ) -> ChatReportRecord:
        """A report (a player reports a message once: again, the first report is the answer)."""
        try:
            async with self.store.session() as s, s.begin():
                row = m.ChatReport(
                    message_id=message.id,
                    reporter_id=reporter_id,
                    reason=reason,
                    table_id=message.table_id,
                    author_id=message.author_id,
                    author_name=message.author_name,
                    text=message.text,
                    at=now,
                )
                s.add(row)
                await s.flush()
                return _report(row)
        except IntegrityError:
            async with self.store.session() as s:
                found = (
                    await s.execute(
                        select(m.ChatReport).where(
                            m.ChatReport.message_id == message.id,
                            m.ChatReport.reporter_id == reporter_id,
                        )
                    )
                ).scalar_one()
                return _report(found)

    async def reports(self, limit: int, offset: int) -> tuple[list[ChatReportRecord], int]:
        """The reports, newest first, and how many there are."""
        async with self.store.session() as s:
            rows = (
                await s.execute(
                    select(m.ChatReport)
                    .order_by(m.ChatReport.id.desc())
                    .limit(limit)
                    .offset(offset)
                )
            ).scalars()
            items = [_report(r) for r in rows]
            total = (await s.execute(select(func.count(m.ChatReport.id)))).scalar_one()
        return items, total

    # -- mutes -----------------------------------------------------------------------------------

    async def mute(
        self, player_id: int, until: datetime, reason: str, by: str, now: datetime
    ) -> ChatMuteRecord:
        async with self.store.session() as s, s.begin():
            row = await s.get(m.ChatMute, player_id)
            if row is None:
                row = m.ChatMute(player_id=player_id, until=until, reason=reason, by=by, at=now)
                s.add(row)
            else:
                row.until, row.reason, row.by, row.at = until, reason, by, now
            await s.flush()
            return _mute(row)

    async def unmute(self, player_id: int) -> bool:
        async with self.store.session() as s, s.begin():
            result = await s.execute(delete(m.ChatMute).where(m.ChatMute.player_id == player_id))
            return bool(result.rowcount)  # type: ignore[attr-defined]


__all__ = ["ChatStore", "Muted"]
