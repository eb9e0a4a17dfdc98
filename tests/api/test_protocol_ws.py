"""The protocol as served: the published schema and its doc, and every server message type and
every error code the WebSocket can send, driven over a real connection (each frame is checked
against its definition by the autouse fixture of conftest.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tablee.protocol import CLIENT_MESSAGES, ErrorCode, json_schema, markdown
from tablee.store import StaleVersion
from tests.api.conftest import check_frame
from tests.serverkit import Database, Server, ToyGame, play_out

ROOT = Path(__file__).resolve().parents[2]

#: refusals only the REST API (lobby, seats, admin) makes
REST_ONLY = {
    ErrorCode.NOT_AWAY,
    ErrorCode.FORBIDDEN,
    ErrorCode.ALREADY_SEATED,
    ErrorCode.TABLE_FULL,
    ErrorCode.SEAT_TAKEN,
    ErrorCode.SEATS_EMPTY,
    ErrorCode.ALREADY_STARTED,
    ErrorCode.NOT_FINISHED,
    ErrorCode.NOT_A_PLAYER,
    ErrorCode.TOO_MANY_TABLES,
    ErrorCode.TOO_MANY_SEATS,
    ErrorCode.NAME_TAKEN,
}


@pytest.fixture
def srv(database: Database, toy_game: ToyGame) -> Any:
    with Server(database, max_message_bytes=1024, ws_rate_connection="100/minute") as s:
        yield s


def test_the_committed_protocol_doc_is_the_one_the_models_give() -> None:
    committed = (ROOT / "docs" / "protocol.md").read_text()
    assert committed == markdown(), "run: python -m tablee.protocol --markdown > docs/protocol.md"
    for doc in ("README.md", "docs/server.md"):
        assert "protocol.md" in (ROOT / doc).read_text(), f"{doc} links the protocol's doc"


def test_the_app_serves_the_schema_of_both_directions(srv: Server) -> None:
    r = srv.client.get("/api/protocol/schema.json")
    assert r.status_code == 200
    schema = r.json()
    assert schema == json.loads(json.dumps(json_schema()))
    defs = schema["$defs"]
    client = {d["$ref"].rsplit("/", 1)[-1] for d in defs["ClientMessage"]["oneOf"]}
    server = {d["$ref"].rsplit("/", 1)[-1] for d in defs["ServerMessage"]["oneOf"]}
    assert {defs[n]["properties"]["type"]["const"] for n in client} == set(CLIENT_MESSAGES)
    assert {defs[n]["properties"]["type"]["const"] for n in server} == {
        "ack",
        "error",
        "welcome",
        "pong",
        "state",
        "chat",
        "chat_history",
        "chat_deleted",
        "chat_muted",
    }
    codes = {c["const"] for c in defs["ErrorCode"]["oneOf"]}
    assert codes == {c.value for c in ErrorCode}
    assert "/api/protocol/schema.json" in srv.client.get("/openapi.json").json()["paths"]


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "error", "code": "oops", "message": "x"},
        {"type": "error", "code": "bad_json"},
        {"type": "ack"},
        {"type": "pong", "extra": 1},
        {"type": "welcome", "player": {"id": "1", "name": "A"}},
        {"type": "news"},
    ],
)
def test_a_frame_off_its_definition_is_caught(frame: dict[str, Any]) -> None:
    with pytest.raises((AssertionError, ValueError)):
        check_frame(frame)


def test_every_server_message_and_every_socket_error_code_is_sent_to_its_definition(
    srv: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol, dan = (srv.player(n) for n in ("Alice", "Bob", "Carol", "Dan"))
    waiting = srv.create_table(alice, game="toy", players=3)
    t = srv.create_table(alice, game="toy", players=2, options={"hand": 2})
    tid = t["id"]
    srv.post(f"/api/tables/{tid}/join", bob)
    # a table Bob left during its game: a robot plays his seat, his own moves are refused
    left = srv.create_table(alice, game="toy", players=2)["id"]
    srv.post(f"/api/tables/{left}/join", bob)
    srv.post(f"/api/tables/{left}/leave", bob)
    seen: set[str] = set()
    codes: set[str] = set()

    def note(frame: dict[str, Any]) -> dict[str, Any]:
        seen.add(frame["type"])
        if frame["type"] == "error":
            codes.add(frame["code"])
        return frame

    with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws(carol) as wc, srv.ws() as anon:
        note(wa.request({"type": "ping", "id": 1}))
        note(wa.request({"type": "subscribe", "table": tid, "id": 2}))
        st = note(wa.state(tid))
        note(wa.until(lambda f: f["type"] == "chat_history"))
        hand = st["view"]["hand"]
        # the chat: Carol reads the lobby; Alice writes; an admin deletes it and mutes Carol
        note(wc.request({"type": "lobby_subscribe"}))
        note(wc.until(lambda f: f["type"] == "chat_history"))
        note(wa.request({"type": "chat", "text": "bonjour", "id": "c1"}))
        said = note(wc.until(lambda f: f["type"] == "chat"))
        srv.call(srv.app.state.chat.delete, said["message"]["id"])
        note(wc.until(lambda f: f["type"] == "chat_deleted"))
        until = datetime.now(UTC) + timedelta(minutes=1)
        srv.call(srv.app.state.chat.mute, carol.id, until, "test", "admin")
        note(wc.until(lambda f: f["type"] == "chat_muted"))
        bob_card = srv.manager.cached(tid).state.hands[1][0]
        refusals: list[tuple[Any, Any]] = [
            (wa, "{not json"),
            (wa, {"type": "x" * 2000}),
            (wa, {"no": "type"}),
            (wa, {"type": "dance"}),
            (wa, {"type": "sync", "table": 10**6}),
            (wa, "[" * 40 + "]" * 40),
            (wa, '{"type": "ping", "id": "\\ud800"}'),
            (wa, {"type": "act", "table": waiting["id"], "action": {"type": "play"}}),
            (wa, {"type": "act", "table": tid, "action": {"type": "play"}}),
            (wa, {"type": "act", "table": tid, "action": {"type": "play", "card": bob_card}}),
            (wa, {"type": "act", "table": tid, "action": {"type": "play"}, "version": 0}),
            (wb, {"type": "act", "table": tid, "action": {"type": "play", "card": bob_card}}),
            (wb, {"type": "act", "table": left, "action": {"type": "play", "card": bob_card}}),
            (wc, {"type": "act", "table": tid, "action": {"type": "play", "card": hand[0]}}),
            (anon, {"type": "act", "table": tid, "action": {"type": "play", "card": hand[0]}}),
            (wa, {"type": "chat", "table": tid, "text": "  "}),
            (wa, {"type": "chat_report", "message": 10**6}),
            (wc, {"type": "chat", "text": "je parle"}),
        ]
        for ws, msg in refusals:
            ws.send(msg)
            note(ws.until(lambda f: f["type"] == "error"))

        # the table is busy: every commit finds another writer's version
        async def stale(*args: Any, **kwargs: Any) -> None:
            raise StaleVersion("someone else wrote first")

        with monkeypatch.context() as m:
            m.setattr(srv.app.state.store, "record_action", stale)
            note(wa.act(tid, {"type": "play", "card": hand[0]}))

        # a fault of the server: answered, and nothing changes
        async def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("a bug")

        with monkeypatch.context() as m:
            m.setattr(srv.manager, "sync", broken)
            note(wa.request({"type": "sync", "table": tid, "id": 3}))
            note(wa.until(lambda f: f["type"] == "error"))

        # the database out of reach a moment: answered ``unavailable`` with the message's id
        async def away(*args: Any, **kwargs: Any) -> None:
            raise ConnectionRefusedError(111, "Connection refused")

        with monkeypatch.context() as m:
            m.setattr(srv.manager, "sync", away)
            note(wa.request({"type": "sync", "table": tid, "id": "db"}))
            refusal = note(wa.until(lambda f: f["type"] == "error"))
            assert (refusal["code"], refusal["id"]) == ("unavailable", "db")

        # over the rate limit
        with srv.ws() as flood:
            for i in range(120):
                flood.send({"type": "ping", "id": i})
            while "rate_limited" not in codes:
                note(flood.recv())

        answer = note(wa.act(tid, {"type": "play", "card": hand[0]}))
        assert answer["type"] == "ack"
        assert play_out({0: wa, 1: wb}, tid)["over"]
        note(wa.act(tid, {"type": "play", "card": hand[1]}))

    srv.call(srv.app.state.store.set_banned, dan.id, True)
    with srv.ws() as ws:
        ws.send({"type": "hello", "token": dan.token, "id": 4})
        note(ws.recv())
        with pytest.raises(WebSocketDisconnect):
            ws.recv()
    with srv.ws() as ws:
        note(ws.request({"type": "hello", "token": alice.token}))
        ws.send({"type": "hello", "token": "nobody's", "id": 5})
        note(ws.recv())
        with pytest.raises(WebSocketDisconnect):
            ws.recv()

    assert seen == {
        "ack",
        "error",
        "welcome",
        "pong",
        "state",
        "chat",
        "chat_history",
        "chat_deleted",
        "chat_muted",
    }
    assert codes == {c.value for c in ErrorCode} - REST_ONLY
