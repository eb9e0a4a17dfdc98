"""Under uvicorn, a connection writes its frames straight into the socket's transport
(``api/ws.py``, ``Direct``) while the transport takes them, and queues them once it is full: the
client gets every frame, in order, whichever way each went."""

from __future__ import annotations

import asyncio
import io
import json
import socket
import struct
import time
from collections.abc import Callable
from typing import Any, cast

import httpx
import pytest
from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.protocol import State
from websockets.server import ServerProtocol

from tablee.api.ws import Connection, Direct
from tablee.settings import Settings
from tests.api.test_ws_limits import _frame, _handshake
from tests.serverkit import Database, ToyGame, Uvicorn

OFF = {"ws_rate_connection": "off", "ws_rate_player": "off", "ws_rate_refusals": "off"}


def _read_exactly(s: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        assert chunk, "the server closed the connection"
        data += chunk
    return data


def _text(read: Callable[[int], bytes]) -> str:
    """One unmasked text frame from the server, its bytes taken by ``read(n)``."""
    head = read(2)
    assert head[0] == 0x81, f"not a final text frame: {head!r}"
    size = head[1] & 0x7F
    if size == 126:
        size = struct.unpack("!H", read(2))[0]
    elif size == 127:
        size = struct.unpack("!Q", read(8))[0]
    return read(size).decode()


def _server_text(s: socket.socket) -> str:
    return _text(lambda n: _read_exactly(s, n))


def _texts(data: bytes) -> list[str]:
    """The texts of the frames that ``data`` holds, whole."""
    buffer = io.BytesIO(data)
    texts = []
    while buffer.tell() < len(data):
        texts.append(_text(buffer.read))
    return texts


def test_frames_go_straight_to_the_transport_then_queue_behind_a_full_one_in_order(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    pings = 200
    with Uvicorn(sqlite_db, ws_max_queue=pings + 10, max_message_bytes=65536, **OFF) as server:
        token = httpx.post(f"{server.http}/api/players", json={"name": "Lent"}).json()["token"]
        sockets = server.app.state.ops.sockets
        s = _handshake(server.port)
        s.settimeout(10)
        try:
            s.sendall(_frame(json.dumps({"type": "hello", "token": token})))
            assert json.loads(_server_text(s))["type"] == "welcome"
            (conn,) = sockets
            assert conn._direct is not None, "uvicorn's transport was not found under the socket"
            # an idle socket keeps neither a writer task nor the handshake's request and response
            # (each object of theirs walked by every sweep of the heap)
            assert conn._writer_task is None
            proto = conn._direct._proto
            assert proto.handshake_complete
            assert proto.request is None and proto.response is None
            # answers of 60 kB each that the client does not read: more than the sockets' buffers
            # and the transport's hold, so the rest waits in the connection's queue
            pad = "x" * 60000
            for i in range(pings):
                s.sendall(_frame(json.dumps({"type": "ping", "id": f"{i}-{pad}"})))
            deadline = time.monotonic() + 10
            while not conn._queue and time.monotonic() < deadline:
                time.sleep(0.01)
            assert conn._queue, "the frames never had to wait for the client"
            assert conn._writer_task is not None, "frames queued with no writer to hand them on"
            ids = [json.loads(_server_text(s))["id"] for _ in range(pings)]
            assert ids == [f"{i}-{pad}" for i in range(pings)]
            assert not conn._closing
            deadline = time.monotonic() + 10
            while conn._writer_task is not None and time.monotonic() < deadline:
                time.sleep(0.01)
            assert conn._writer_task is None, "the writer outlived the queue it drained"
            # and the socket still answers, straight from the transport
            s.sendall(_frame(json.dumps({"type": "ping", "id": "after"})))
            assert json.loads(_server_text(s))["id"] == "after"
        finally:
            s.close()


class _Transport:
    """A stand-in for ``Direct``: what was written, and whether the transport takes more."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.open = asyncio.Event()

    def ready(self) -> bool:
        return self.open.is_set()

    async def writable(self) -> None:
        await self.open.wait()

    def write(self, text: str) -> None:
        self.written.append(text)

    def flush(self) -> None:
        pass

    def backlog(self) -> int:
        return 0


async def test_a_frame_sent_while_the_writer_holds_one_goes_out_after_it() -> None:
    conn = Connection(cast(Any, None), cast(Any, None), cast(Any, None), Settings())
    transport = _Transport()
    conn._direct = cast(Any, transport)
    try:
        conn.send("first")  # the transport is full: queued, and a writer started to wait with it
        writer = conn._writer_task
        assert writer is not None
        await asyncio.sleep(0)
        assert conn._holding and not transport.written
        transport.open.set()  # it drained: the writer is woken, but has not run yet
        conn.send("second")
        conn.send("third")
        for _ in range(5):
            await asyncio.sleep(0)
        assert transport.written == ["first", "second", "third"]
        assert writer.done() and conn._writer_task is None, "the writer outlived its queue"
        conn.send("fourth")  # nothing waits any more: straight to the transport
        assert transport.written[-1] == "fourth" and not conn._queue
        assert conn._writer_task is None
    finally:
        if conn._writer_task is not None:
            conn._writer_task.cancel()


class _Protocol:
    """A stand-in for uvicorn's protocol: websockets' own, open, and a transport that keeps each
    write apart."""

    def __init__(self, extensions: list[Any] | None = None) -> None:
        self.conn = ServerProtocol()
        self.conn.state = State.OPEN
        self.conn.extensions = extensions or []
        self.transport = self
        self.writes: list[bytes] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.close_sent = self.disconnected = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def frames(self) -> list[list[tuple[int, bytes]]]:
        """Each write's frames: (first byte, payload)."""
        return [_frames(data) for data in self.writes]


def _frames(data: bytes) -> list[tuple[int, bytes]]:
    buffer = io.BytesIO(data)
    out = []
    while buffer.tell() < len(data):
        head = buffer.read(2)
        size = head[1] & 0x7F
        if size == 126:
            size = struct.unpack("!H", buffer.read(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", buffer.read(8))[0]
        out.append((head[0], buffer.read(size)))
    return out


TEXT, PING = 0x81, 0x89


async def test_a_held_frame_goes_out_with_the_next_one_in_one_write() -> None:
    proto, other = _Protocol(), _Protocol()
    mine, theirs = Direct(proto), Direct(other)
    mine.hold("ack")
    assert proto.writes == []  # framed, held
    mine.write("state")
    theirs.write("state")
    assert proto.frames() == [[(TEXT, b"ack"), (TEXT, b"state")]]
    assert other.frames() == [[(TEXT, b"state")]]
    await asyncio.sleep(0)
    assert len(proto.writes) == 1  # the end of the turn finds nothing held


async def test_a_held_frame_alone_goes_out_at_the_end_of_the_turn() -> None:
    proto = _Protocol()
    direct = Direct(proto)
    direct.hold("ack")
    direct.hold("ack 2")
    assert proto.writes == []
    await asyncio.sleep(0)
    assert proto.frames() == [[(TEXT, b"ack"), (TEXT, b"ack 2")]]


async def test_a_write_of_the_server_itself_takes_the_buffered_frames_first() -> None:
    proto = _Protocol()
    direct = Direct(proto)
    direct.hold("ack")
    proto.conn.send_ping(b"x")  # what uvicorn does for a keepalive ping: its own write, at once
    proto.write(b"".join(proto.conn.data_to_send()))
    await asyncio.sleep(0)
    direct.write("state")
    # in order, nothing written twice, and the next frame on its own
    assert proto.frames() == [[(TEXT, b"ack"), (PING, b"x")], [(TEXT, b"state")]]


async def test_a_frame_is_the_bytes_websockets_would_write_whatever_its_size() -> None:
    for text in ("", "a" * 125, "é" * 63, "a" * 126, "a" * 65535, "a" * 65536, "♠" * 30000):
        proto, twin = _Protocol(), _Protocol()
        Direct(proto).write(text)
        twin.conn.send_text(text.encode())
        assert proto.writes == [b"".join(twin.conn.data_to_send())], len(text.encode())


async def test_a_compressed_connection_is_framed_by_websockets_itself() -> None:
    def deflate() -> Any:
        return PerMessageDeflate(False, False, 15, 15)

    proto, twin = _Protocol([deflate()]), _Protocol([deflate()])
    Direct(proto).write("state " * 50)
    twin.conn.send_text(("state " * 50).encode())
    sent = b"".join(twin.conn.data_to_send())
    assert sent[0] & 0x40  # compressed (RSV1), and the same bytes
    assert proto.writes == [sent]


async def test_a_frame_for_a_closing_connection_raises_as_websockets_does() -> None:
    proto = _Protocol()
    proto.conn.state = State.CLOSING
    with pytest.raises(InvalidState):
        Direct(proto).write("state")
    assert proto.writes == []


async def test_a_refused_write_marks_the_connection_gone() -> None:
    proto = _Protocol()
    direct = Direct(proto)
    lost: list[bool] = []
    direct.lost = lambda: lost.append(True)

    def refuse(data: bytes) -> None:
        raise ConnectionResetError

    proto.write = refuse  # type: ignore[method-assign]
    direct.write("state")
    assert lost == [True]


class _Counting:
    """A transport that keeps what was written to it, each write apart."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


async def test_a_moves_ack_and_the_movers_state_go_to_the_socket_in_one_write(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    import websockets

    from tests.api.test_uvicorn import _recv, _sync

    with Uvicorn(sqlite_db, **OFF) as server:
        async with httpx.AsyncClient(base_url=server.http) as http:
            players = [
                (await http.post("/api/players", json={"name": n})).json() for n in ("Ana", "Bo")
            ]
            auth = [{"Authorization": f"Bearer {p['token']}"} for p in players]
            tid = (
                await http.post("/api/tables", json={"game": "toy", "players": 2}, headers=auth[0])
            ).json()["id"]
            assert (await http.post(f"/api/tables/{tid}/join", headers=auth[1])).is_success
        clients = [await websockets.connect(server.ws, compression=None) for _ in players]
        try:
            for ws, p in zip(clients, players, strict=True):
                await ws.send(json.dumps({"type": "hello", "token": p["token"]}))
                await ws.send(json.dumps({"type": "subscribe", "table": tid, "id": "s"}))
                await _recv(ws, lambda f: f.get("id") == "s")
            state = await _sync(clients[0], tid)
            await _sync(clients[1], tid)
            by_player = {c.player.id: c for c in server.app.state.ops.sockets}
            counted = []
            for p in players:
                direct = by_player[p["id"]]._direct
                assert direct is not None
                counted.append(_Counting(direct._transport))
                direct._transport = counted[-1]
            seat = state["to_act"][0]
            action = (await _sync(clients[seat], tid))["legal"][0]
            counted[seat].writes.clear()
            act = {"type": "act", "table": tid, "action": action, "id": "m"}
            await clients[seat].send(json.dumps(act))
            await _recv(clients[seat], lambda f: f["type"] == "state" and f["version"] > 0)
            await _recv(clients[1 - seat], lambda f: f["type"] == "state")
            (mover,) = counted[seat].writes
            ack, moved = _texts(mover)
            assert json.loads(ack) == {"type": "ack", "id": "m"}
            assert json.loads(moved)["type"] == "state"
            (other,) = counted[1 - seat].writes
            assert [json.loads(t)["type"] for t in _texts(other)] == ["state"]
        finally:
            for ws in clients:
                await ws.close()


def test_a_socket_of_ws_goes_to_its_endpoint_past_the_middlewares_and_the_router(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    """What the way through Starlette and FastAPI would keep on a socket's stack for its whole
    life (``api/__init__.py``, ``App``) it never takes; a call still does."""
    with Uvicorn(sqlite_db, **OFF) as server:
        app = server.app
        stack = app.middleware_stack
        assert stack is not None, "built at the lifespan's start"
        passed: list[str] = []

        async def watched(scope: Any, receive: Any, send: Any) -> None:
            passed.append(scope["type"])
            await stack(scope, receive, send)

        app.middleware_stack = watched
        token = httpx.post(f"{server.http}/api/players", json={"name": "Direct"}).json()["token"]
        s = _handshake(server.port)
        s.settimeout(10)
        try:
            s.sendall(_frame(json.dumps({"type": "hello", "token": token})))
            assert json.loads(_server_text(s))["type"] == "welcome"
            (conn,) = app.state.ops.sockets
            assert conn._direct is not None
        finally:
            s.close()
        assert passed == ["http"], passed
