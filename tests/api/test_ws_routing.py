"""A socket at ``/ws?table=ID``, as the browser opens it at a table: the parameter is the proxy's
routing key (deploy/nginx.conf hashes it so that a table's sockets reach one process), and for
the app it is ``/ws`` itself: the same endpoint, reached the same direct way (``api.App``), and
never read: a socket whose key names another table, or nothing, serves every table all the same.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from tablee.api import ws as ws_module
from tests.serverkit import WS, Database, Server, ToyGame, Uvicorn


@pytest.fixture
def srv(database: Database, toy_game: ToyGame) -> Any:
    with Server(database) as s:
        yield s


@pytest.fixture
def direct(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The query strings of the sockets that went straight to the endpoint (``App.__call__``
    calls the module's ``websocket_endpoint``; the route, for a path under a prefix, holds the
    function itself and is not counted)."""
    seen: list[str] = []
    endpoint = ws_module.websocket_endpoint

    async def counted(ws: Any) -> None:
        seen.append(ws.scope["query_string"].decode())
        await endpoint(ws)

    monkeypatch.setattr(ws_module, "websocket_endpoint", counted)
    return seen


def _table(srv: Server) -> tuple[Any, Any, int]:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2, options={"hand": 2})
    assert srv.post(f"/api/tables/{t['id']}/join", bob).status_code == 200
    return alice, bob, t["id"]


@pytest.mark.parametrize("key", ["own", "12", "other", "junk"])
def test_a_socket_with_a_table_key_says_hello_subscribes_and_moves(
    srv: Server, direct: list[str], key: str
) -> None:
    alice, bob, tid = _table(srv)
    query = {
        "own": f"table={tid}",  # what the browser sends
        "12": "table=12",
        "other": f"table={tid + 1000}",  # a table that does not exist
        "junk": "table=%3Cnot%20a%20table%3E&table=7",
    }[key]
    with WS(srv.client.websocket_connect(f"/ws?{query}"), srv, alice) as wa:
        # hello was said on entering (welcome); subscribe, then a move of the seat to act
        wa.send({"type": "subscribe", "table": tid, "id": "sub"})
        assert wa.until(lambda f: f.get("id") == "sub")["type"] == "ack"
        first = wa.state(tid)
        assert first["to_act"] == [0] and first["legal"]  # Alice, seat 0, is to move
        answer = wa.act(tid, first["legal"][0])
        assert answer["type"] == "ack", answer
        after = wa.state(tid)
        assert after["version"] > first["version"]
    assert direct == [query]  # the endpoint's direct way, not the router's
    with WS(srv.client.websocket_connect("/ws"), srv, bob) as wb:
        assert wb.sync(tid)["version"] == after["version"]


async def test_a_socket_with_a_table_key_through_a_real_server(
    database: Database, toy_game: ToyGame, direct: list[str]
) -> None:
    """uvicorn parses the request line itself: the query string is still not the path."""
    import httpx

    with Uvicorn(database) as server:
        async with httpx.AsyncClient(base_url=server.http) as http:
            alice = (await http.post("/api/players", json={"name": "Alice"})).json()
            bob = (await http.post("/api/players", json={"name": "Bob"})).json()
            body = {"game": "toy", "players": 2, "options": {"hand": 2}}
            auth = {"Authorization": f"Bearer {alice['token']}"}
            tid = (await http.post("/api/tables", json=body, headers=auth)).json()["id"]
            auth = {"Authorization": f"Bearer {bob['token']}"}
            assert (await http.post(f"/api/tables/{tid}/join", headers=auth)).status_code == 200
        async with websockets.connect(f"{server.ws}?table={tid}") as ws:

            async def recv(pred: Any) -> dict[str, Any]:
                async with asyncio.timeout(10):
                    while True:
                        frame: dict[str, Any] = json.loads(await ws.recv())
                        if pred(frame):
                            return frame

            await ws.send(json.dumps({"type": "hello", "token": alice["token"]}))
            assert (await recv(lambda f: True))["type"] == "welcome"
            await ws.send(json.dumps({"type": "subscribe", "table": tid, "id": "s"}))
            assert (await recv(lambda f: f.get("id") == "s"))["type"] == "ack"
            state = await recv(lambda f: f["type"] == "state")
            move = {"type": "act", "table": tid, "action": state["legal"][0], "id": "m1"}
            await ws.send(json.dumps(move))
            assert (await recv(lambda f: f.get("id") == "m1"))["type"] == "ack"
    assert direct == [f"table={tid}"]
