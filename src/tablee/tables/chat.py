"""Table and lobby chat: what a message must be, who may write, who reads it, and its way to
every process.

- A message is stored (``store/chat.py``) before it is acknowledged, and only then pushed: to the
  table's subscribers (or the lobby's) on this process, and through the coordination to the other
  processes, which push it to theirs. Nothing is queued: a refusal (``bad_chat``, ``muted``,
  ``rate_limited``) is an answer at once, with a French sentence, and nothing is stored.
- No coaching from the gallery: during a deal of a partnership game (belote, contrée, tarot at
  five), a spectator's message reaches the spectators only; the players get it when the deal is
  over (the table's next change after that deal's ``deal_end``). Players' messages, and everyone's
  outside a deal, reach everyone. The last messages a subscriber gets follow the same rule.
- Limits: 1 to ``CHAT_MAX_CHARS`` characters once trimmed, no control characters (line breaks
  and tabs included: a message is one line), a token bucket per player (``TABLEE_CHAT_RATE``)
  that the processes share through Redis when there are several.
- Moderation: an admin's mute is read in the transaction that would store the message, so it
  holds at once on every process; it is also announced, so that the player's sockets are told.
  A player's mute of another player is the browser's (docs/client.md says why).
- Retention: every ``TABLEE_CHAT_PRUNE_SECONDS`` the messages older than
  ``TABLEE_CHAT_RETENTION_DAYS`` are deleted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from tablee.limits import Buckets, Rate
from tablee.protocol import CHAT_MAX_CHARS, QUICK_PHRASES, ErrorCode, dumps
from tablee.settings import Settings
from tablee.store import Store
from tablee.store.chat import ChatStore, Muted

from .errors import TableError
from .live import LiveTable, Subscriber, utcnow
from .periodic import Periodic
from .records import (
    ALL,
    PLAYING,
    SPECTATORS,
    ChatMuteRecord,
    ChatRecord,
    ChatReportRecord,
    NewChat,
    PlayerRecord,
)

if TYPE_CHECKING:
    from .manager import TableManager

log = logging.getLogger("tablee.chat")

#: games played in partnerships at every player count, and those at some counts only
PARTNERSHIP_GAMES = {"belote", "contree"}
PARTNERSHIP_AT = {"tarot": {5}}


def partnership(game: str, players: int) -> bool:
    return game in PARTNERSHIP_GAMES or players in PARTNERSHIP_AT.get(game, ())


def deal_now(live: LiveTable) -> tuple[int, int] | None:
    """The deal being played (the game's number, the deals finished before it) when the table is
    in a deal of a partnership game; None otherwise (everyone talks to everyone)."""
    rec = live.rec
    if rec.status != PLAYING or live.state is None or not partnership(rec.game, rec.players):
        return None
    ended = sum(1 for e in live.history if e.get("type") == "deal_end" and "to" not in e)
    return rec.game_no, ended


def released(live: LiveTable, rec: ChatRecord) -> bool:
    """The players may see ``rec``: it is for everyone, or its deal is over."""
    if rec.audience != SPECTATORS:
        return True
    now = deal_now(live)
    held = (rec.held_game or 0, rec.held_deal or 0)
    return now is None or now > held


#: bidi embeddings and overrides, and isolates: they turn the text after them around
_HIDING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str | None, phrase: str | None) -> tuple[str, str | None]:
    """The message to store: a quick phrase's text, or the text trimmed; ``bad_chat`` with a
    French sentence when it is not one."""
    if phrase is not None:
        if text is not None:
            raise TableError(
                ErrorCode.BAD_CHAT, "Envoyez un texte ou une phrase rapide, pas les deux."
            )
        said = QUICK_PHRASES.get(phrase)
        if said is None:
            raise TableError(ErrorCode.BAD_CHAT, "Cette phrase rapide n'existe pas.")
        return said, phrase
    if text is None:
        raise TableError(ErrorCode.BAD_CHAT, "Le message est vide.")
    body = text.strip()
    if not body:
        raise TableError(ErrorCode.BAD_CHAT, "Le message est vide.")
    if len(body) > CHAT_MAX_CHARS:
        raise TableError(
            ErrorCode.BAD_CHAT,
            f"Le message est trop long : {CHAT_MAX_CHARS} caractères au plus ({len(body)} ici).",
        )
    # Cc (controls, line breaks included), Cs (lone surrogates), and the format characters that
    # turn text around or hide it (bidi overrides and isolates); a joiner in an emoji stays
    if any(unicodedata.category(c) in ("Cc", "Cs") or c in _HIDING for c in body):
        raise TableError(
            ErrorCode.BAD_CHAT,
            "Le message contient des caractères de contrôle (retours à la ligne compris) : "
            "écrivez-le sur une ligne.",
        )
    return body, None


def request_key(player_id: int, message_id: Any, table_id: int | None) -> str | None:
    """A chat's idempotency key: its author, its id and its channel (hashed)."""
    if message_id is None:
        return None
    text = json.dumps(["chat", player_id, message_id, table_id], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def say_wait(seconds: float) -> str:
    s = max(1, math.ceil(seconds)) if math.isfinite(seconds) else 3600
    return f"{s} s" if s < 90 else f"{math.ceil(s / 60)} min"


def line(rec: ChatRecord) -> dict[str, Any]:
    """A message as clients get it (``protocol.ChatLine``)."""
    return {
        "id": rec.id,
        "table": rec.table_id,
        "author": {"id": rec.author_id, "name": rec.author_name},
        "seat": rec.seat,
        "text": rec.text,
        "phrase": rec.phrase,
        "at": rec.at.isoformat(),
        "audience": rec.audience,
    }


def _record(data: dict[str, Any]) -> ChatRecord:
    """A message announced by another process (``_announce``)."""
    return ChatRecord(
        id=int(data["id"]),
        table_id=data["table_id"],
        author_id=int(data["author_id"]),
        author_name=str(data["author_name"]),
        seat=data["seat"],
        text=str(data["text"]),
        phrase=data["phrase"],
        audience=str(data["audience"]),
        at=datetime.fromisoformat(data["at"]),
        held_game=data["held_game"],
        held_deal=data["held_deal"],
    )


def _announce(rec: ChatRecord) -> dict[str, Any]:
    return {
        "id": rec.id,
        "table_id": rec.table_id,
        "author_id": rec.author_id,
        "author_name": rec.author_name,
        "seat": rec.seat,
        "text": rec.text,
        "phrase": rec.phrase,
        "audience": rec.audience,
        "at": rec.at.isoformat(),
        "held_game": rec.held_game,
        "held_deal": rec.held_deal,
    }


def muted_sentence(until: datetime) -> str:
    local = until.astimezone(UTC)
    return (
        f"Un admin vous a retiré la parole jusqu'au {local:%d/%m/%Y à %H:%M} UTC : vos messages ne"
        " sont pas envoyés."
    )


class Chat:
    def __init__(self, store: Store, manager: TableManager, settings: Settings) -> None:
        self.db = ChatStore(store)
        self.manager = manager
        self.rate = Rate.parse(settings.chat_rate)
        self._buckets: Buckets[int] | None = None if self.rate is None else Buckets(self.rate)
        self.history = settings.chat_history
        self.retention = (
            timedelta(days=settings.chat_retention_days) if settings.chat_retention_days else None
        )
        #: the connections that read the lobby's chat (here)
        self.lobby: dict[Subscriber, None] = {}
        #: spectators' messages the players of a table do not see yet, per table
        self.held: dict[int, dict[int, ChatRecord]] = {}
        self._pruner = Periodic(
            self.prune,
            settings.chat_prune_seconds,
            "deleting old chat messages failed; trying again later",
        )
        #: messages stored here since start-up (metrics, tests)
        self.sent = 0
        manager.pipeline.tell_hooks.append(self._table_changed)
        # away from a table's home, the copy here must follow the deals to release them
        manager.follow_hooks.append(lambda live: live.id in self.held)
        manager.chat_hooks.append(self.heard)

    async def start(self) -> None:
        if self.retention is not None:
            self._pruner.start()

    async def close(self) -> None:
        await self._pruner.stop()

    # -- writing ---------------------------------------------------------------------------------

    async def send(
        self,
        player: PlayerRecord,
        table_id: int | None,
        text: str | None,
        phrase: str | None,
        message_id: Any = None,
        on_stored: Any = None,
    ) -> ChatRecord:
        """Stores the player's message, calls ``on_stored`` (the ack), then pushes it everywhere
        it goes. Raises ``TableError`` (nothing stored) when it is refused."""
        body, phrase = clean(text, phrase)
        live = None if table_id is None else await self.manager.current(table_id)
        seat = None if live is None else live.rec.seat_of(player.id)
        audience, held = ALL, None
        if live is not None and seat is None:
            held = deal_now(live)
            if held is not None:
                audience = SPECTATORS
        wait = await self._take(player.id)
        if wait:
            raise TableError(
                ErrorCode.RATE_LIMITED,
                f"Vous écrivez trop vite : attendez {say_wait(wait)} avant votre prochain message.",
            )
        new = NewChat(
            table_id=table_id,
            author_id=player.id,
            author_name=player.name,
            seat=seat,
            text=body,
            phrase=phrase,
            audience=audience,
            held_game=None if held is None else held[0],
            held_deal=None if held is None else held[1],
            request=request_key(player.id, message_id, table_id),
        )
        try:
            rec, stored = await self.db.add(new, utcnow())
        except Muted as exc:
            raise TableError(ErrorCode.MUTED, muted_sentence(exc.until)) from None
        if on_stored is not None:
            on_stored()
        if stored:  # a retry's message was pushed when it was stored
            self.sent += 1
            self.deliver(rec)
            self.manager.coordination.share_chat({"kind": "message", "message": _announce(rec)})
        return rec

    async def _take(self, player_id: int) -> float:
        """0 when the player may write now (a token taken), else the seconds to wait."""
        if self.rate is None:
            return 0.0
        shared = await self.manager.coordination.take_token(f"chat:{player_id}", self.rate)
        if shared is not None:
            return shared
        assert self._buckets is not None
        return self._buckets.take(player_id, time.monotonic())

    # -- reading ---------------------------------------------------------------------------------

    def deliver(self, rec: ChatRecord) -> None:
        """Pushes a stored message to the connections here that may read it."""
        text = dumps({"type": "chat", "message": line(rec)})
        if rec.table_id is None:
            for sub in list(self.lobby):
                sub.send(text)
            return
        live = self.manager.cached(rec.table_id)
        if live is None:
            return
        everyone = released(live, rec)
        if not everyone:
            self.held.setdefault(live.id, {})[rec.id] = rec
        for sub in list(live.subscribers):
            if everyone or _watching(live, sub):
                sub.send(text)

    def _table_changed(self, live: LiveTable) -> None:
        """After every change of a table: the held messages whose deal is over go to the players
        (the spectators had them)."""
        held = self.held.get(live.id)
        if not held:
            return
        out = [rec for rec in held.values() if released(live, rec)]
        if not out:
            return
        for rec in out:
            del held[rec.id]
        if not held:
            del self.held[live.id]
        texts = [dumps({"type": "chat", "message": line(rec)}) for rec in out]
        for sub in list(live.subscribers):
            if not _watching(live, sub):
                for text in texts:
                    sub.send(text)

    async def send_recent(self, sub: Subscriber, table_id: int | None) -> None:
        """The ``chat_history`` of a table or of the lobby, to ``sub``: the channel's last messages
        it may see, oldest first, and when its player's mute ends (read in one session)."""
        # no history kept: the mute alone, and no table to look at for it
        live = None
        if table_id is not None and self.history:
            live = await self.manager.current(table_id)
        # spectators' messages held back are few: twice the count leaves room to skip them
        limit = self.history if live is None else 2 * self.history
        rows, mute = await self.db.history(table_id, limit, sub.player_id, utcnow())
        if live is not None:
            for rec in rows:
                if not released(live, rec):
                    self.held.setdefault(live.id, {})[rec.id] = rec
            if not _watching(live, sub):
                rows = [rec for rec in rows if released(live, rec)]
            rows = rows[-self.history :] if self.history else []
        msg: dict[str, Any] = {
            "type": "chat_history",
            "table": table_id,
            "messages": [line(rec) for rec in rows],
        }
        if mute is not None:
            msg["muted_until"] = mute.until.isoformat()
        sub.send(dumps(msg))

    async def subscribe_lobby(self, sub: Subscriber) -> None:
        self.lobby[sub] = None
        await self.send_recent(sub, None)

    def unsubscribe_lobby(self, sub: Subscriber) -> None:
        self.lobby.pop(sub, None)

    # -- moderation ------------------------------------------------------------------------------

    async def report(self, player: PlayerRecord, message_id: int, reason: str) -> ChatReportRecord:
        rec = await self.db.message(message_id)
        if rec is None or rec.deleted:
            raise TableError(ErrorCode.UNKNOWN_MESSAGE, "Ce message n'existe pas (ou plus).")
        return await self.db.report(rec, player.id, reason.strip()[:200], utcnow())

    async def delete(self, message_id: int) -> ChatRecord | None:
        """An admin deletes a message: stored as deleted, and taken away from every client."""
        rec = await self.db.delete(message_id, utcnow())
        if rec is not None and not rec.deleted:
            self._deleted(rec.table_id, rec.id)
            self.manager.coordination.share_chat(
                {"kind": "deleted", "table": rec.table_id, "message": rec.id}
            )
        return rec

    async def mute(self, player_id: int, until: datetime, reason: str, by: str) -> ChatMuteRecord:
        """An admin mutes a player until ``until``: refused from now on by every process (they
        read the mute when storing), and the player's sockets are told."""
        mute = await self.db.mute(player_id, until, reason, by, utcnow())
        self._muted(player_id, until)
        self.manager.coordination.share_chat(
            {"kind": "muted", "player": player_id, "until": until.isoformat()}
        )
        return mute

    async def unmute(self, player_id: int) -> bool:
        return await self.db.unmute(player_id)

    def _deleted(self, table_id: int | None, message_id: int) -> None:
        text = dumps({"type": "chat_deleted", "table": table_id, "message": message_id})
        if table_id is None:
            subs = list(self.lobby)
        else:
            live = self.manager.cached(table_id)
            subs = [] if live is None else list(live.subscribers)
            if live is not None and table_id in self.held:
                self.held[table_id].pop(message_id, None)
        for sub in subs:
            sub.send(text)

    def _muted(self, player_id: int, until: datetime) -> None:
        text = dumps(
            {"type": "chat_muted", "until": until.isoformat(), "message": muted_sentence(until)}
        )
        for sub in self._sockets_of(player_id):
            sub.send(text)

    def _sockets_of(self, player_id: int) -> list[Subscriber]:
        found: dict[Subscriber, None] = {}
        for sub in self.lobby:
            if sub.player_id == player_id:
                found[sub] = None
        for live in self.manager.live_tables():
            if player_id in live.presence:
                for sub in live.subscribers:
                    if sub.player_id == player_id:
                        found[sub] = None
        return list(found)

    def heard(self, event: dict[str, Any]) -> None:
        """What another process announced (``share_chat``)."""
        kind = event.get("kind")
        if kind == "message":
            self.deliver(_record(event["message"]))
        elif kind == "deleted":
            self._deleted(event["table"], int(event["message"]))
        elif kind == "muted":
            self._muted(int(event["player"]), datetime.fromisoformat(event["until"]))

    # -- retention -------------------------------------------------------------------------------

    async def prune(self) -> int:
        """Deletes the messages older than the retention; how many."""
        if self.retention is None:
            return 0
        count = await self.db.prune(utcnow() - self.retention)
        if count:
            log.info("deleted %s chat messages older than %s", count, self.retention)
        return count


def _watching(live: LiveTable, sub: Subscriber) -> bool:
    """``sub`` has no seat at the table: a spectator."""
    pid = sub.player_id
    return pid is None or live.rec.seat_of(pid) is None


__all__ = ["Chat", "clean", "deal_now", "partnership", "released"]
