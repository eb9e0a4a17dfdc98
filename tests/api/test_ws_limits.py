"""The WebSocket's limits, each tried as an attacker would: a flood of frames (per connection and
per player), a client that never reads what it is sent, JSON nested without end, strings that
are not Unicode."""

from __future__ import annotations

import base64
import contextlib
import logging
import os
import socket
import struct
import time
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.serverkit import Database, Server, ToyGame, Uvicorn


def _limited(db: Database, **limits: Any) -> Server:
    values = {"ws_rate_connection": "off", "ws_rate_player": "off", "ws_rate_refusals": "off"}
    return Server(db, max_message_bytes=4096, **(values | limits))


def _table(srv: Server) -> tuple[Any, Any, int]:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2, options={"hand": 2})
    srv.post(f"/api/tables/{t['id']}/join", bob)
    return alice, bob, t["id"]


def test_a_connection_over_its_rate_is_refused_then_closed_and_nothing_is_done(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    with _limited(sqlite_db, ws_rate_connection="6/minute", ws_rate_refusals="3/minute") as srv:
        alice, _, tid = _table(srv)
        with srv.ws(alice) as wa:  # hello: one frame
            st = wa.sync(tid)  # two
            for i in range(4):
                assert wa.request({"type": "ping", "id": i}) == {"type": "pong", "id": i}
            version = srv.manager.cached(tid).rec.version
            move = {"type": "act", "table": tid, "action": st["legal"][0], "id": "move"}
            wa.send(move)
            refused = wa.until(lambda f: f.get("id") == "move")
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
            assert srv.manager.cached(tid).rec.version == version, "a refused move was played"
            for i in range(2):
                assert wa.request({"type": "ping", "id": i})["code"] == "rate_limited"
            # it goes on: the fourth refusal closes the connection
            wa.send({"type": "ping", "id": "last"})
            assert wa.recv()["code"] == "rate_limited"
            with pytest.raises(WebSocketDisconnect) as closed:
                wa.recv()
            assert closed.value.code == 1008
            assert srv.manager.cached(tid).rec.version == version


def test_all_the_sockets_of_one_player_share_its_rate_and_others_are_not_touched(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    with _limited(sqlite_db, ws_rate_player="8/minute") as srv:
        alice, bob, tid = _table(srv)
        with srv.ws(alice) as tab1, srv.ws(alice) as tab2, srv.ws(bob) as wb:
            # the hellos were not counted: the player was not known yet
            answers = [tab.request({"type": "ping"})["type"] for tab in (tab1, tab2) * 5]
            assert answers == ["pong"] * 8 + ["error"] * 2
            assert tab2.request({"type": "sync", "table": tid})["code"] == "rate_limited"
            assert [wb.request({"type": "ping"})["type"] for _ in range(8)] == ["pong"] * 8


def test_json_nested_deeper_than_the_limit_is_a_bad_message_without_a_traceback(
    sqlite_db: Database, toy_game: ToyGame, caplog: pytest.LogCaptureFixture
) -> None:
    with _limited(sqlite_db) as srv, srv.ws() as ws, caplog.at_level(logging.INFO):
        for text in (
            "[" * 1000 + "]" * 1000,
            '{"type": "ping", "id": ' + "[" * 40 + "]" * 40 + "}",
            '{"type": "act", "table": 1, "action": ' + '{"a":' * 100 + "1" + "}" * 101,
        ):
            ws.send(text)
            answer = ws.recv()
            assert answer["type"] == "error" and answer["code"] == "bad_message", answer
        assert ws.request({"type": "ping", "id": 1}) == {"type": "pong", "id": 1}
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_a_lone_surrogate_in_an_id_or_an_action_gets_a_clear_error(
    sqlite_db: Database, toy_game: ToyGame, caplog: pytest.LogCaptureFixture
) -> None:
    with _limited(sqlite_db) as srv:
        alice, _, tid = _table(srv)
        with srv.ws(alice) as wa, caplog.at_level(logging.INFO):
            st = wa.sync(tid)
            version = st["version"]
            for text in (
                '{"type": "ping", "id": "\\ud800"}',
                '{"type": "act", "table": TID, "id": 7, "action": {"type": "play", "card": '
                '"\\udfff"}}',
                '{"type": "act", "table": TID, "id": 8, "action": {"type": "\\ud800"}}',
                '{"type": "hello", "token": "\\ud800", "id": 9}',
            ):
                wa.send(text.replace("TID", str(tid)))
                answer = wa.until(lambda f: f["type"] == "error")
                assert answer["code"] == "bad_message" and "surrogate" in answer["message"]
                assert answer.get("id") in {None, 7, 8, 9}
            # a valid pair of surrogates is a character like any other
            assert wa.request({"type": "ping", "id": "\U0001f600"})["id"] == "\U0001f600"
            assert srv.manager.cached(tid).rec.version == version
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


# -- a client that never reads -------------------------------------------------------------------


def _frame(text: str) -> bytes:
    """A masked client text frame."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(data) < 126:
        head += bytes([0x80 | len(data)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(data))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _handshake(port: int) -> socket.socket:
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def test_a_client_that_never_reads_is_cut_off_after_the_grace_period(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    limits = {"ws_rate_connection": "off", "ws_rate_player": "off", "ws_rate_refusals": "off"}
    settings = {"ws_max_queue": 50, "ws_close_grace_seconds": 1.0, "max_message_bytes": 65536}
    with Uvicorn(sqlite_db, **settings, **limits) as server:
        connections = server.server.server_state.connections
        s = _handshake(server.port)
        s.settimeout(5)
        try:
            # pings whose ids come back: megabytes of answers the client never reads, more than
            # the sockets' buffers hold
            ping = _frame('{"type": "ping", "id": "%s"}' % ("x" * 60000))
            with contextlib.suppress(TimeoutError, ConnectionError):
                for _ in range(400):
                    s.sendall(ping)
            deadline = time.monotonic() + 20
            while connections and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not connections, "the server still holds a client that never reads"
        finally:
            s.close()
