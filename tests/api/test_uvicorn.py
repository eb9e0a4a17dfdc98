"""Through a real uvicorn on a free port, with the ``websockets`` client."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from tests.serverkit import Database, ToyGame, Uvicorn


async def _recv(ws: Any, pred: Any) -> dict[str, Any]:
    async with asyncio.timeout(10):
        while True:
            frame: dict[str, Any] = json.loads(await ws.recv())
            if pred(frame):
                return frame


async def _sync(ws: Any, table: int) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "sync", "table": table, "id": "sync"}))
    await _recv(ws, lambda f: f.get("id") == "sync")
    return await _recv(ws, lambda f: f["type"] == "state")


async def test_a_game_over_a_real_server(database: Database, toy_game: ToyGame) -> None:
    with Uvicorn(database, max_message_bytes=4096) as server:
        async with httpx.AsyncClient(base_url=server.http) as http:
            players = []
            for name in ("Alice", "Bob"):
                r = await http.post("/api/players", json={"name": name})
                players.append(r.json())
            auth = {"Authorization": f"Bearer {players[0]['token']}"}
            t = await http.post("/api/tables", json={"game": "toy", "players": 2}, headers=auth)
            tid = t.json()["id"]
            auth = {"Authorization": f"Bearer {players[1]['token']}"}
            assert (await http.post(f"/api/tables/{tid}/join", headers=auth)).status_code == 200
        conns = [await websockets.connect(server.ws) for _ in players]
        try:
            for ws, p in zip(conns, players, strict=True):
                await ws.send(json.dumps({"type": "hello", "token": p["token"]}))
                assert (await _recv(ws, lambda f: True))["type"] == "welcome"
                await ws.send(json.dumps({"type": "subscribe", "table": tid, "id": "s"}))
                assert (await _recv(ws, lambda f: True)) == {"type": "ack", "id": "s"}
            # an over-size frame is answered and the connection stays open
            await conns[0].send(json.dumps({"type": "ping", "pad": "x" * 5000}))
            err = await _recv(conns[0], lambda f: f["type"] == "error")
            assert err["code"] == "too_large"
            moves = 0
            while True:
                states = [await _sync(ws, tid) for ws in conns]
                # both connections see the same version, then the seat to act moves
                assert states[0]["version"] == states[1]["version"]
                if states[0]["over"]:
                    break
                seat = states[0]["to_act"][0]
                action = states[seat]["legal"][0]
                await conns[seat].send(
                    json.dumps({"type": "act", "table": tid, "action": action, "id": moves})
                )
                answer = await _recv(conns[seat], lambda f, m=moves: f.get("id") == m)
                assert answer == {"type": "ack", "id": moves}
                moves += 1
            assert moves == 6 and states[1]["outcome"]["winners"]
        finally:
            for ws in conns:
                await ws.close()


async def test_a_browsers_offer_of_permessage_deflate_is_declined_unless_configured(
    sqlite_db: Database,
) -> None:
    for deflate in (False, True):
        with Uvicorn(sqlite_db, ws_deflate=deflate) as server:
            # the websockets client offers permessage-deflate, as browsers do
            async with websockets.connect(server.ws) as ws:
                assert ws.request is not None and ws.response is not None
                offered = ws.request.headers.get("Sec-WebSocket-Extensions", "")
                assert "permessage-deflate" in offered
                agreed = ws.response.headers.get("Sec-WebSocket-Extensions", "")
                assert ("permessage-deflate" in agreed) is deflate
                await ws.send(json.dumps({"type": "ping", "id": 1}))
                assert json.loads(await ws.recv()) == {"type": "pong", "id": 1}
