"""The WebSocket endpoint ``/ws`` (protocol: DESIGN.md and docs/protocol.md).

Every client message is answered (``ack``, ``welcome``, ``pong``, ``state`` or ``error``). Bad
input never closes the connection and never changes a table; the one exception is a ``hello``
with a token nobody holds, which closes the connection with a reason.

Each connection has a queue and a writer task: the tables layer only queues texts, so a slow
client never holds up a table; a client too slow to drain its queue is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tablee.logs import log_context
from tablee.settings import Settings
from tablee.store import PlayerRecord, Store
from tablee.tables import TableError, TableManager, dumps

log = logging.getLogger("tablee.ws")
router = APIRouter()

#: frames queued for a client before it counts as dead
MAX_QUEUE = 1000
CLOSE_UNAUTHORIZED = 4401
CLOSE_BANNED = 4403
CLOSE_TOO_SLOW = 4408
BANNED_MESSAGE = "this player is banned from this server; ask its admins why"


class _Close:
    def __init__(self, code: int, reason: str) -> None:
        self.code, self.reason = code, reason


class Connection:
    def __init__(
        self, ws: WebSocket, manager: TableManager, store: Store, settings: Settings
    ) -> None:
        self.ws = ws
        self.manager = manager
        self.store = store
        self.max_bytes = settings.max_message_bytes
        self.player: PlayerRecord | None = None
        self.tables: set[int] = set()
        self._queue: asyncio.Queue[str | _Close] = asyncio.Queue()
        self._closing = False
        #: told of every error code sent (metrics)
        self.on_error: Callable[[str], None] | None = None

    # -- the Subscriber side ---------------------------------------------------------------------

    @property
    def player_id(self) -> int | None:
        return None if self.player is None else self.player.id

    def send(self, text: str) -> None:
        if self._closing:
            return
        if self._queue.qsize() >= MAX_QUEUE:
            self.close(CLOSE_TOO_SLOW, "too slow: messages are piling up")
            return
        self._queue.put_nowait(text)

    def reply(self, msg: dict[str, Any]) -> None:
        self.send(dumps(msg))

    def close(self, code: int, reason: str) -> None:
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(_Close(code, reason))

    def ban(self) -> bool:
        """Tell a banned player why, then close. False if the connection was closing already."""
        if self._closing:
            return False
        self.error("banned", BANNED_MESSAGE)
        self.close(CLOSE_BANNED, "banned")
        return True

    def error(self, code: str, message: str, mid: Any = None) -> None:
        if self.on_error is not None:
            self.on_error(code)
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if mid is not None:
            msg["id"] = mid
        self.reply(msg)

    # -- the loops -------------------------------------------------------------------------------

    async def _writer(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, _Close):
                with contextlib.suppress(Exception):
                    await self.ws.close(code=item.code, reason=item.reason)
                return
            try:
                await self.ws.send_text(item)
            except Exception:  # the client went away; the reader sees the disconnect
                self._closing = True
                return

    async def run(self) -> None:
        await self.ws.accept()
        writer = asyncio.create_task(self._writer())
        try:
            while not self._closing:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect" or self._closing:
                    break  # closing: e.g. banned while this frame was on its way
                text = message.get("text")
                if text is None:
                    self.error("bad_json", "frames are JSON text, not binary")
                    continue
                try:
                    await self.handle(text)
                except Exception:
                    log.exception("while handling a WebSocket message")
                    self.error("internal", "the server failed on this message; nothing changed")
        except WebSocketDisconnect:
            pass
        finally:
            for table_id in list(self.tables):
                self.manager.unsubscribe(self, table_id)
            self.tables.clear()
            if not writer.done():
                self.close(1000, "bye")
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(writer, 2)
            writer.cancel()

    # -- one message -----------------------------------------------------------------------------

    async def handle(self, text: str) -> None:
        if len(text) > self.max_bytes or len(text.encode()) > self.max_bytes:
            self.error("too_large", f"a message may hold at most {self.max_bytes} bytes")
            return
        try:
            msg = json.loads(text)
        except ValueError:
            self.error("bad_json", "a message is one JSON object")
            return
        if not isinstance(msg, dict):
            self.error("bad_request", "a message is a JSON object with a 'type'")
            return
        mid = msg.get("id")
        kind = msg.get("type")
        if not isinstance(kind, str):
            self.error("bad_request", "a message needs a 'type' (a string)", mid)
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            known = ", ".join(sorted(_HANDLERS))
            self.error("unknown_type", f"unknown message type {kind!r}; known: {known}", mid)
            return
        table = msg.get("table")
        table = table if isinstance(table, int) and not isinstance(table, bool) else None
        with log_context(table, self._seat(table)):
            try:
                await handler(self, msg, mid)
            except TableError as exc:
                self.error(exc.code, exc.message, mid)

    def _seat(self, table_id: int | None) -> int | None:
        live = None if table_id is None else self.manager.cached(table_id)
        if live is None or self.player is None:
            return None
        return live.rec.seat_of(self.player.id)

    def _ack(self, mid: Any) -> None:
        self.reply({"type": "ack", "id": mid})

    def _table_id(self, msg: dict[str, Any]) -> int:
        table = msg.get("table")
        if isinstance(table, bool) or not isinstance(table, int):
            raise TableError("bad_request", "'table' (a table id, a number) is missing")
        return table

    async def on_hello(self, msg: dict[str, Any], mid: Any) -> None:
        token = msg.get("token")
        if not isinstance(token, str) or not token:
            raise TableError("bad_request", "'token' (a string) is missing")
        player = await self.store.player_by_token(token)
        if player is None:
            self.error("unauthorized", "unknown token", mid)
            self.close(CLOSE_UNAUTHORIZED, "unauthorized: unknown token")
            return
        if player.banned:
            self.error("banned", BANNED_MESSAGE, mid)
            self.close(CLOSE_BANNED, "banned")
            return
        if self.player is not None and self.player.id != player.id:
            raise TableError("bad_request", "this connection already belongs to another player")
        if self.player is None and self.tables:
            # subscriptions taken as a spectator now count as this player's
            for table_id in list(self.tables):
                self.manager.unsubscribe(self, table_id)
            self.player = player
            for table_id in list(self.tables):
                await self.manager.subscribe(self, table_id)
        self.player = player
        reply: dict[str, Any] = {
            "type": "welcome",
            "player": {"id": player.id, "name": player.name},
        }
        if mid is not None:
            reply["id"] = mid
        self.reply(reply)

    async def on_subscribe(self, msg: dict[str, Any], mid: Any) -> None:
        table_id = self._table_id(msg)
        await self.manager.get(table_id)  # unknown_table before the ack
        self._ack(mid)
        self.tables.add(table_id)
        await self.manager.subscribe(self, table_id)

    async def on_unsubscribe(self, msg: dict[str, Any], mid: Any) -> None:
        table_id = self._table_id(msg)
        self.manager.unsubscribe(self, table_id)
        self.tables.discard(table_id)
        self._ack(mid)

    async def on_sync(self, msg: dict[str, Any], mid: Any) -> None:
        table_id = self._table_id(msg)
        await self.manager.get(table_id)
        self._ack(mid)
        await self.manager.sync(self, table_id)

    async def on_act(self, msg: dict[str, Any], mid: Any) -> None:
        table_id = self._table_id(msg)
        action = msg.get("action")
        if not isinstance(action, dict):
            raise TableError("bad_request", "'action' (an object with a 'type') is missing")
        if self.player is None:
            raise TableError("unauthorized", "say hello with your token first")
        await self.manager.act(self.player, table_id, action, on_accepted=lambda: self._ack(mid))

    async def on_ping(self, msg: dict[str, Any], mid: Any) -> None:
        reply: dict[str, Any] = {"type": "pong"}
        if mid is not None:
            reply["id"] = mid
        self.reply(reply)


_HANDLERS = {
    "hello": Connection.on_hello,
    "subscribe": Connection.on_subscribe,
    "unsubscribe": Connection.on_unsubscribe,
    "sync": Connection.on_sync,
    "act": Connection.on_act,
    "ping": Connection.on_ping,
}


@router.websocket("/ws")
async def websocket_endpoint(ws: WebSocket) -> None:
    app = ws.app
    conn = Connection(ws, app.state.manager, app.state.store, app.state.settings)
    ops = getattr(app.state, "ops", None)
    if ops is None:
        await conn.run()
        return
    with ops.connected(conn):
        await conn.run()
