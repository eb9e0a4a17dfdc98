"""The WebSocket endpoint ``/ws`` and its schema (messages: ``tablee.protocol``, docs/protocol.md).

Every client message is answered (``ack``, ``welcome``, ``pong``, ``state`` or ``error``). Bad
input never closes the connection and never changes a table; the one exception is a ``hello``
with a token nobody holds, which closes the connection with a reason.

The tables layer hands a connection texts and never waits: under uvicorn's sans-I/O WebSocket
protocol a text goes straight into the socket's transport as a frame (``Direct``; an ``ack``
shares the write of the state that follows it), which buffers what the kernel does not take at
once; once that buffer is full (the transport paused its writer) the texts queue, and a writer
task, started then and ended when the queue is empty, hands them on as the client reads. So a
slow client never holds up a table, and a client too slow to drain its queue is disconnected.
Under another server (the tests' client) every text goes through the ASGI ``send`` by a writer
task that lives as long as the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import struct
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, cast

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from websockets.protocol import Side, State

from tablee.limits import Buckets, Rate, TokenBucket
from tablee.logs import log_context
from tablee.protocol import (
    CLIENT_MESSAGES,
    SCHEMA_PATH,
    Act,
    Chat,
    ChatReport,
    CloseCode,
    Error,
    ErrorCode,
    Hello,
    LobbySubscribe,
    LobbyUnsubscribe,
    Ping,
    PlayerRef,
    Pong,
    ProtocolError,
    Rematch,
    Reply,
    Subscribe,
    Sync,
    Unsubscribe,
    Welcome,
    ack_text,
    encode,
    json_schema,
    parse,
    peek_id,
)
from tablee.settings import Settings
from tablee.tables import Chat as ChatService
from tablee.tables import PlayerRecord, Queries, TableError, TableManager, database_away

log = logging.getLogger("tablee.ws")
router = APIRouter()

BANNED_MESSAGE = "this player is banned from this server; ask its admins why"
FAILED = "the server failed on this message; nothing changed"
#: the longest a connection over its rate goes unread before its next frame is looked at
MAX_REST = 1.0
#: messages a connection handles in a row, while more are waiting, before it lets the others run
BURST = 8


class _Close:
    def __init__(self, code: int, reason: str) -> None:
        self.code, self.reason = code, reason


class Limits:
    """The WebSocket limits of one app: the rates, and the buckets of the players it serves."""

    def __init__(self, settings: Settings) -> None:
        self.connection = Rate.parse(settings.ws_rate_connection)
        player = Rate.parse(settings.ws_rate_player)
        self.players: Buckets[int] | None = None if player is None else Buckets(player)
        self.refusals = Rate.parse(settings.ws_rate_refusals)
        self.max_queue = settings.ws_max_queue
        self.grace = settings.ws_close_grace_seconds

    @classmethod
    def of(cls, app: Any) -> Limits:
        limits = getattr(app.state, "ws_limits", None)
        if not isinstance(limits, Limits):
            limits = app.state.ws_limits = cls(app.state.settings)
        return limits


class Direct:
    """Text frames written into the transport under the ASGI ``send`` (uvicorn's sans-I/O
    WebSocket protocol: its ``conn``, websockets' ``ServerProtocol``, and its ``transport``),
    the same bytes its ``send`` writes for a ``websocket.send`` message. A move sends five
    frames, and through the ASGI ``send`` each is a task's wake-up and eight awaits (Starlette's
    checks, the exception middleware's wrapper, uvicorn's ``send``); here each is two calls.

    An ``ack`` is framed and held (in the protocol's own outgoing buffer) for the frame that
    follows it in the same step — the mover's state, built right after the commit — so that both
    go to the socket in one write, not two: each write is a system call, the largest single item
    of the event loop's time under load (about a fifth of it, ``py-spy --gil``, docs/scaling.md).
    Held, it goes out at the end of the event loop's turn at the latest. Every other frame is
    written at once, with what is held before it. Whatever writes to the transport itself
    (uvicorn's pings, pongs and close frames) takes what is held first, so order is kept."""

    __slots__ = ("_conn", "_loop", "_proto", "_transport", "held", "lost")

    def __init__(self, proto: Any) -> None:
        self._proto = proto
        self._conn = proto.conn
        self._transport = proto.transport
        self._loop = asyncio.get_running_loop()
        #: a frame is held in the protocol's buffer, and the end of the turn will write it
        self.held = False
        #: called when the transport refused a write (the client went away)
        self.lost: Callable[[], None] | None = None

    @classmethod
    def under(cls, ws: WebSocket) -> Direct | None:
        """The direct writer of ``ws``'s connection, if the server's protocol is one this knows."""
        proto = _protocol(ws, _is_sansio)
        return None if proto is None else cls(proto)

    def drop_handshake(self) -> None:
        """Lets the opening handshake's request and response go. uvicorn keeps both on the
        protocol for the connection's life but reads them only until the ``accept`` is sent.
        The response's headers (a list for each header's name, one for all) were 9 of the 88
        objects the collector tracked for a socket, each walked by every sweep of the heap, and
        32 of its 215 memory blocks (``heap.py``, ``bench/sockets.py``); the request stays alive
        in websockets' parser whatever is done here."""
        proto = self._proto
        if getattr(proto, "handshake_complete", False) is not True:
            return
        for name in ("request", "response"):
            if hasattr(proto, name):
                setattr(proto, name, None)

    def ready(self) -> bool:
        """A frame written now goes out in order and is not buffered beyond the transport's high
        water mark (False: it paused the writer, or the connection is closing)."""
        proto = self._proto
        return proto.writable.is_set() and not proto.close_sent and not proto.disconnected

    async def writable(self) -> None:
        await self._proto.writable.wait()

    def backlog(self) -> int:
        """Messages read from the client and not yet received by the app."""
        return int(self._proto.queue.qsize())

    def write(self, text: str) -> None:
        """One text frame, written now after those held (raises websockets' ``InvalidState``
        once the connection is closing)."""
        frame = self._framed(text)
        conn = self._conn
        if frame is not None and not self.held and not conn.writes:
            # nothing waits in the protocol's buffer: the frame goes on its own
            try:
                self._transport.write(frame)
            except Exception:
                if self.lost is not None:
                    self.lost()
            return
        if frame is not None:
            conn.writes.append(frame)
        self.flush()

    def hold(self, text: str) -> None:
        """One text frame, written with the next one, or at the end of this turn."""
        frame = self._framed(text)
        if frame is not None:
            self._conn.writes.append(frame)
        if not self.held:
            self.held = True
            self._loop.call_soon(self._written_held)

    def _framed(self, text: str) -> bytes | None:
        """``text`` as the bytes of a text frame, the same as the protocol's ``send_text`` puts
        in its outgoing buffer (None: that ``send_text`` framed it there itself). A server's
        text frame is two to ten bytes of header and the payload (RFC 6455, 5.2: final,
        unmasked); websockets builds a ``Frame``, checks it and writes it through a
        ``BytesIO``: two to five times this for frames under a few kilobytes, four or five frames
        a move (``bench/frames.py``). Its own
        ``send_text`` still frames whatever this does not: a connection not open (it raises),
        an extension (compression) in use, a fragmented message in progress."""
        conn = self._conn
        if conn.state is not _OPEN or conn.extensions or conn.expect_continuation_frame:
            conn.send_text(text.encode())
            return None
        data = text.encode()
        size = len(data)
        if size < 126:
            return _SMALL_HEADS[size] + data
        if size < 65536:
            return _MEDIUM_HEAD(0x81, 126, size) + data
        return _LARGE_HEAD(0x81, 127, size) + data

    def _written_held(self) -> None:
        if self.held:  # else a frame written since took it
            self.flush()

    def flush(self) -> None:
        """What the protocol holds, in one write (nothing if the server's own writes took it)."""
        self.held = False
        data = self._conn.data_to_send()
        if not data:
            return
        try:
            self._transport.write(b"".join(data))
        except Exception:
            if self.lost is not None:
                self.lost()


#: a final text frame's first two bytes for each payload under 126 bytes (RFC 6455, 5.2)
_SMALL_HEADS = [bytes((0x81, size)) for size in range(126)]
_MEDIUM_HEAD = struct.Struct("!BBH").pack
_LARGE_HEAD = struct.Struct("!BBQ").pack
_OPEN = State.OPEN


def _is_sansio(proto: Any) -> bool:
    conn = getattr(proto, "conn", None)
    return (
        callable(getattr(conn, "send_text", None))
        and callable(getattr(conn, "data_to_send", None))
        and isinstance(getattr(conn, "writes", None), list)
        and isinstance(getattr(conn, "extensions", None), list)
        and isinstance(getattr(conn, "expect_continuation_frame", None), bool)
        and getattr(conn, "side", None) is Side.SERVER
        and isinstance(getattr(proto, "writable", None), asyncio.Event)
        and hasattr(proto, "close_sent")
        and hasattr(proto, "disconnected")
        and callable(getattr(getattr(proto, "transport", None), "write", None))
    )


class Connection:
    def __init__(
        self,
        ws: WebSocket,
        manager: TableManager,
        queries: Queries,
        settings: Settings,
        limits: Limits | None = None,
        chat: ChatService | None = None,
    ) -> None:
        self.ws = ws
        #: the table and lobby chat (None: an app without one, e.g. some tests)
        self.chat = chat
        self.manager = manager
        self.queries = queries
        self.max_bytes = settings.max_message_bytes
        self.limits = limits or Limits(settings)
        self.player: PlayerRecord | None = None
        self.tables: set[int] = set()
        # a deque and one future rather than an ``asyncio.Queue``, whose put and get cost about
        # twice as much: every state of every move goes through here
        self._queue: deque[str | _Close] = deque()
        #: the writer waiting for the next item (None: it has some, or is not waiting)
        self._wake: asyncio.Future[None] | None = None
        #: the writer holds an item it has not written yet: what comes meanwhile queues behind it
        self._holding = False
        #: frames written into the transport at once (None: through the ASGI ``send``); set once
        #: the connection is accepted
        self._direct: Direct | None = None
        self._closing = False
        #: the close frame went out, or the client went away: nothing is left to cut
        self._done = False
        self._writer_task: asyncio.Task[None] | None = None
        now = time.monotonic()
        rate, refusals = self.limits.connection, self.limits.refusals
        self._bucket = None if rate is None else TokenBucket(rate, now)
        self._refusals = None if refusals is None else TokenBucket(refusals, now)
        #: told of every error code sent (metrics)
        self.on_error: Callable[[ErrorCode], None] | None = None

    # -- the Subscriber side ---------------------------------------------------------------------

    @property
    def player_id(self) -> int | None:
        return None if self.player is None else self.player.id

    def send(self, text: str, hold: bool = False) -> None:
        """``hold``: the text may wait for the next one, to share its write (an ``ack``)."""
        if self._closing:
            return
        direct = self._direct
        if direct is not None and not self._queue and not self._holding and direct.ready():
            try:
                if hold:
                    direct.hold(text)
                else:
                    direct.write(text)
            except Exception:
                self._lost()
            return
        if len(self._queue) >= self.limits.max_queue:
            # the backlog will never be read: the close frame goes first
            self._queue.clear()
            self.close(CloseCode.TOO_SLOW, "too slow: messages are piling up")
            return
        self._put(text)

    def _lost(self) -> None:
        """The client went away, a frame refused: nothing more is sent (the reader sees the
        disconnect)."""
        self._closing = self._done = True

    def _put(self, item: str | _Close) -> None:
        self._queue.append(item)
        if self._writer_task is None:
            # under ``Direct``, a task only while something waits (a full transport, a close):
            # an idle socket keeps no task, coroutine and future for the heap's sweeps to walk
            self._writer_task = asyncio.create_task(self._writer())
            return
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():  # else the writer was cancelled
                wake.set_result(None)

    def reply(self, msg: Reply) -> None:
        self.send(encode(msg))

    def close(self, code: int, reason: str) -> None:
        """A close frame after what is queued; a client that has not taken it within the grace
        period (it does not read: the writer waits on a full socket) is cut off."""
        if not self._closing:
            self._closing = True
            self._put(_Close(code, reason))
            asyncio.get_running_loop().call_later(self.limits.grace, self._cut)

    def _cut(self) -> None:
        if self._done:
            return
        transport = _transport(self.ws)
        log.warning(
            "a WebSocket client did not take its close frame in %ss: connection cut",
            self.limits.grace,
            extra={"player": self.player_id},
        )
        if self._writer_task is not None:
            self._writer_task.cancel()
        if transport is not None:
            # close() would wait for the unread bytes to drain, which they never do
            transport.abort()

    def _over_rate(self) -> float:
        """Takes a frame's tokens from the connection's bucket and its player's: 0.0, or the
        seconds until this connection could be admitted again (nothing taken)."""
        now = time.monotonic()
        if self._bucket is not None:
            wait = self._bucket.take(now)
            if wait > 0:
                return wait
        players = self.limits.players
        if self.player is None or players is None:
            return 0.0
        return players.take(self.player.id, now)

    def _refuse(self, text: str) -> None:
        self.error(
            ErrorCode.RATE_LIMITED,
            "too many messages: this one was not done; slow down",
            peek_id(text, self.max_bytes),
        )
        if self._refusals is not None and self._refusals.take(time.monotonic()) > 0:
            self.close(CloseCode.POLICY_VIOLATION, "rate limit: too many messages")

    def ban(self) -> bool:
        """Tell a banned player why, then close. False if the connection was closing already."""
        if self._closing:
            return False
        self.error(ErrorCode.BANNED, BANNED_MESSAGE)
        self.close(CloseCode.BANNED, "banned")
        return True

    def log_out(self) -> bool:
        """The player logged out everywhere: tell them, then close. False if closing already."""
        if self._closing:
            return False
        self.error(ErrorCode.UNAUTHORIZED, "logged out: this session was closed")
        self.close(CloseCode.UNAUTHORIZED, "unauthorized: logged out")
        return True

    def error(self, code: ErrorCode, message: str, mid: Any = None) -> None:
        if self.on_error is not None:
            self.on_error(code)
        if mid is None:
            self.reply(Error(code=code, message=message))
        else:
            self.reply(Error(code=code, message=message, id=mid))

    # -- the loops -------------------------------------------------------------------------------

    async def _writer(self) -> None:
        queue = self._queue
        while True:
            if not queue:
                if self._direct is not None:
                    # the next text is written at once, or starts another writer
                    self._writer_task = None
                    return
                wake = self._wake = asyncio.get_running_loop().create_future()
                await wake
                continue
            item = queue.popleft()
            if isinstance(item, _Close):
                with contextlib.suppress(Exception):
                    await self.ws.close(code=item.code, reason=item.reason)
                self._done = True
                return
            direct = self._direct
            self._holding = True
            try:
                if direct is None:
                    await self.ws.send_text(item)
                else:
                    # the transport's buffer is full: the client reads it first
                    await direct.writable()
                    if not direct.ready():
                        raise ConnectionError("the connection is closing")
                    direct.write(item)
            except Exception:
                self._lost()
                return
            finally:
                self._holding = False

    async def run(self) -> None:
        await self.ws.accept()
        direct = self._direct = Direct.under(self.ws)
        if direct is not None:
            direct.lost = self._lost
            direct.drop_handshake()
        #: messages handled since this loop last let the others run
        burst = 0
        try:
            while not self._closing:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect" or self._closing:
                    break  # closing: e.g. banned while this frame was on its way
                text = message.get("text")
                if text is None:
                    self.error(ErrorCode.BAD_JSON, "frames are JSON text, not binary")
                    continue
                wait = self._over_rate()
                if wait > 0:
                    self._refuse(text)
                    # the reader rests until a token is back: what the client sends meanwhile
                    # waits in its own socket (the server stops reading it), so a flood costs
                    # this process one refusal per token, not one per frame
                    await asyncio.sleep(min(wait, MAX_REST))
                    continue
                try:
                    await self.handle(text)
                except Exception:
                    log.exception("while handling a WebSocket message")
                    self.error(ErrorCode.INTERNAL, FAILED)
                # one read of the socket may hold thousands of messages, which ``receive`` then
                # hands over without waiting: a client sending them as fast as it can must not
                # keep the other connections from being served meanwhile
                direct = self._direct
                if direct is not None and direct.backlog():
                    burst += 1
                    if burst >= BURST:
                        burst = 0
                        await asyncio.sleep(0)
                else:
                    burst = 0
        except WebSocketDisconnect:
            pass
        finally:
            for table_id in list(self.tables):
                self.manager.unsubscribe(self, table_id)
            self.tables.clear()
            if self.chat is not None:
                self.chat.unsubscribe_lobby(self)
            if not self._done:
                self.close(CloseCode.NORMAL, "bye")  # nothing if closing already
            writer = self._writer_task
            if writer is not None:
                if not self._done:
                    with contextlib.suppress(BaseException):
                        await asyncio.wait_for(writer, 2)
                writer.cancel()

    # -- one message -----------------------------------------------------------------------------

    async def handle(self, text: str) -> None:
        try:
            msg = parse(text, self.max_bytes)
        except ProtocolError as exc:
            self.error(exc.code, exc.message, exc.id)
            return
        table = getattr(msg, "table", None)
        with log_context(table, self._seat(table)):
            try:
                await _HANDLERS[msg.type](self, msg)
            except TableError as exc:
                self.error(exc.code, exc.message, msg.id)
            except Exception as exc:
                # answered with its id all the same: the client stops waiting for this one
                refusal = database_away(exc)
                if refusal is None:
                    log.exception("while handling a WebSocket message")
                    self.error(ErrorCode.INTERNAL, FAILED, msg.id)
                    return
                log.warning("a %r message: the database is out of reach (%r)", msg.type, exc)
                # a move is sent again by its client on ``conflict`` (made once: its id)
                code = ErrorCode.CONFLICT if msg.type == "act" else refusal.code
                self.error(code, refusal.message, msg.id)

    def _seat(self, table_id: int | None) -> int | None:
        live = None if table_id is None else self.manager.cached(table_id)
        if live is None or self.player is None:
            return None
        return live.seat_of(self.player.id)

    def _ack(self, mid: Any) -> None:
        # an act's state follows at once, in the same step: both in one write (another ack goes
        # out with the next frame, or at the end of the turn)
        self.send(ack_text(mid), hold=True)

    async def on_hello(self, msg: Hello) -> None:
        player = await self.queries.player_by_token(msg.token)
        if player is None:
            self.error(ErrorCode.UNAUTHORIZED, "unknown token", msg.id)
            self.close(CloseCode.UNAUTHORIZED, "unauthorized: unknown token")
            return
        if player.banned:
            self.error(ErrorCode.BANNED, BANNED_MESSAGE, msg.id)
            self.close(CloseCode.BANNED, "banned")
            return
        if self.player is not None and self.player.id != player.id:
            raise TableError(
                ErrorCode.BAD_REQUEST, "this connection already belongs to another player"
            )
        if self.player is None and self.tables:
            # subscriptions taken as a spectator now count as this player's
            for table_id in list(self.tables):
                self.manager.unsubscribe(self, table_id)
            self.player = player
            for table_id in list(self.tables):
                await self.manager.subscribe(self, table_id)
        self.player = player
        me = PlayerRef(id=player.id, name=player.name)
        self.reply(Welcome(player=me) if msg.id is None else Welcome(player=me, id=msg.id))

    async def on_subscribe(self, msg: Subscribe) -> None:
        # unknown_table before the ack; a private table takes its invitation (or a seat)
        await self.manager.visible(msg.table, self.player_id, msg.invitation)
        self._ack(msg.id)
        self.tables.add(msg.table)
        await self.manager.subscribe(self, msg.table)
        if self.chat is not None:
            await self.chat.send_recent(self, msg.table)

    async def on_unsubscribe(self, msg: Unsubscribe) -> None:
        self.manager.unsubscribe(self, msg.table)
        self.tables.discard(msg.table)
        self._ack(msg.id)

    async def on_sync(self, msg: Sync) -> None:
        if msg.table in self.tables:  # subscribed: the invitation was checked then
            await self.manager.get(msg.table)
        else:
            await self.manager.visible(msg.table, self.player_id)
        self._ack(msg.id)
        await self.manager.sync(self, msg.table)

    async def on_act(self, msg: Act) -> None:
        if self.player is None:
            raise TableError(ErrorCode.UNAUTHORIZED, "say hello with your token first")
        await self.manager.act(
            self.player,
            msg.table,
            msg.action,
            on_accepted=lambda: self._ack(msg.id),
            request_id=msg.id,
            version=msg.version,
        )

    async def on_rematch(self, msg: Rematch) -> None:
        if self.player is None:
            raise TableError(ErrorCode.UNAUTHORIZED, "say hello with your token first")
        await self.manager.rematch(self.player, msg.table, on_accepted=lambda: self._ack(msg.id))

    def _chat(self) -> ChatService:
        if self.chat is None:
            raise TableError(ErrorCode.INTERNAL, "Le salon de discussion n'est pas ouvert ici.")
        return self.chat

    async def on_chat(self, msg: Chat) -> None:
        chat = self._chat()
        if self.player is None:
            raise TableError(
                ErrorCode.UNAUTHORIZED, "Présentez-vous (hello) avant d'écrire dans le salon."
            )
        if msg.table is not None and msg.table not in self.tables:
            # a table's chat is read by its subscribers: one writes where one watches
            raise TableError(
                ErrorCode.BAD_REQUEST, "Ouvrez la table (subscribe) avant d'écrire à sa table."
            )
        await chat.send(
            self.player,
            msg.table,
            msg.text,
            msg.phrase,
            message_id=msg.id,
            on_stored=lambda: self._ack(msg.id),
        )

    async def on_lobby_subscribe(self, msg: LobbySubscribe) -> None:
        chat = self._chat()
        self._ack(msg.id)
        await chat.subscribe_lobby(self)

    async def on_lobby_unsubscribe(self, msg: LobbyUnsubscribe) -> None:
        self._chat().unsubscribe_lobby(self)
        self._ack(msg.id)

    async def on_chat_report(self, msg: ChatReport) -> None:
        chat = self._chat()
        if self.player is None:
            raise TableError(ErrorCode.UNAUTHORIZED, "Présentez-vous (hello) avant de signaler.")
        await chat.report(self.player, msg.message, msg.reason)
        self._ack(msg.id)

    async def on_ping(self, msg: Ping) -> None:
        self.reply(Pong() if msg.id is None else Pong(id=msg.id))


_HANDLERS: dict[str, Callable[[Connection, Any], Awaitable[None]]] = {
    "hello": Connection.on_hello,
    "subscribe": Connection.on_subscribe,
    "unsubscribe": Connection.on_unsubscribe,
    "sync": Connection.on_sync,
    "act": Connection.on_act,
    "rematch": Connection.on_rematch,
    "ping": Connection.on_ping,
    "chat": Connection.on_chat,
    "lobby_subscribe": Connection.on_lobby_subscribe,
    "lobby_unsubscribe": Connection.on_lobby_unsubscribe,
    "chat_report": Connection.on_chat_report,
}
assert set(_HANDLERS) == set(CLIENT_MESSAGES), "a handler for every client message"


@router.get(SCHEMA_PATH, tags=["protocol"])
async def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every WebSocket message, both ways (docs/protocol.md renders it)."""
    return _schema()


@functools.cache
def _schema() -> dict[str, Any]:
    return json_schema()


#: the endpoint's path
PATH = "/ws"


@router.websocket(PATH)
async def websocket_endpoint(ws: WebSocket) -> None:
    app = ws.app
    conn = Connection(
        ws,
        app.state.manager,
        app.state.queries,
        app.state.settings,
        Limits.of(app),
        getattr(app.state, "chat", None),
    )
    ops = getattr(app.state, "ops", None)
    if ops is None:
        await conn.run()
        return
    with ops.connected(conn):
        await conn.run()


def _transport(ws: WebSocket) -> asyncio.WriteTransport | None:
    """The socket's transport under the ASGI ``send`` callable, when the server is one whose
    protocol object holds it (uvicorn's do). ASGI has no way to drop a connection at once: a
    close frame waits behind the unread bytes, and closing the transport waits for them too."""
    proto = _protocol(ws, lambda p: callable(getattr(getattr(p, "transport", None), "abort", None)))
    # asyncio's or uvloop's
    return None if proto is None else cast(asyncio.WriteTransport, proto.transport)


def _protocol(ws: WebSocket, fits: Callable[[Any], bool]) -> Any:
    """The server's protocol object under ``ws``'s ASGI ``send`` (the object its bound method
    belongs to) if it ``fits``; None otherwise."""
    seen: set[int] = set()
    todo: list[Any] = [getattr(ws, "_send", None)]
    while todo:
        fn = todo.pop()
        if fn is None or id(fn) in seen or len(seen) > 20:
            continue
        seen.add(id(fn))
        owner = getattr(fn, "__self__", None)
        if owner is not None and fits(owner):
            return owner
        # middlewares wrap ``send`` in closures (Starlette's exception handling does)
        for cell in getattr(fn, "__closure__", None) or ():
            with contextlib.suppress(ValueError):
                if callable(cell.cell_contents):
                    todo.append(cell.cell_contents)
    return None
