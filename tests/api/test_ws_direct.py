"""Under uvicorn, a connection writes its frames straight into the socket's transport
(``api/ws.py``, ``Direct``) while the transport takes them, and queues them once it is full: the
client gets every frame, in order, whichever way each went."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import time
from typing import Any, cast

import httpx

from tablee.api.ws import Connection
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


def _server_text(s: socket.socket) -> str:
    """One unmasked text frame from the server."""
    head = _read_exactly(s, 2)
    assert head[0] == 0x81, f"not a final text frame: {head!r}"
    size = head[1] & 0x7F
    if size == 126:
        size = struct.unpack("!H", _read_exactly(s, 2))[0]
    elif size == 127:
        size = struct.unpack("!Q", _read_exactly(s, 8))[0]
    return _read_exactly(s, size).decode()


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
            # answers of 60 kB each that the client does not read: more than the sockets' buffers
            # and the transport's hold, so the rest waits in the connection's queue
            pad = "x" * 60000
            for i in range(pings):
                s.sendall(_frame(json.dumps({"type": "ping", "id": f"{i}-{pad}"})))
            deadline = time.monotonic() + 10
            while not conn._queue and time.monotonic() < deadline:
                time.sleep(0.01)
            assert conn._queue, "the frames never had to wait for the client"
            ids = [json.loads(_server_text(s))["id"] for _ in range(pings)]
            assert ids == [f"{i}-{pad}" for i in range(pings)]
            assert not conn._closing
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

    def backlog(self) -> int:
        return 0


async def test_a_frame_sent_while_the_writer_holds_one_goes_out_after_it() -> None:
    conn = Connection(cast(Any, None), cast(Any, None), cast(Any, None), Settings())
    transport = _Transport()
    conn._direct = cast(Any, transport)
    writer = asyncio.create_task(conn._writer())
    try:
        conn.send("first")  # the transport is full: queued, and the writer waits with it
        await asyncio.sleep(0)
        assert conn._holding and not transport.written
        transport.open.set()  # it drained: the writer is woken, but has not run yet
        conn.send("second")
        conn.send("third")
        for _ in range(5):
            await asyncio.sleep(0)
        assert transport.written == ["first", "second", "third"]
        conn.send("fourth")  # nothing waits any more: straight to the transport
        assert transport.written[-1] == "fourth" and not conn._queue
    finally:
        writer.cancel()
