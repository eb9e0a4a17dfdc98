"""The yardstick for ``bench/load.py``: a bare FastAPI WebSocket server with tablée's message
pattern and sizes, and nothing else (no game, no database, no views).

Clients say ``hello`` with their table and seat, ``subscribe``, then the seat whose turn it is
sends ``act``: the server answers ``ack`` and sends each of the table's connections its own
``state`` frame (one ``json.dumps`` per seat, padded to ``--size`` bytes), the turn going round.

    python bench/bare_ws.py --port 8001 --size 900 [--deflate]

It is served as tablée is: without permessage-deflate unless ``--deflate``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect


@dataclass
class Room:
    players: int
    version: int = 0
    turn: int = 0
    members: dict[int, WebSocket] = field(default_factory=dict)


def make_app(size: int, players: int) -> FastAPI:
    app = FastAPI()
    rooms: dict[int, Room] = {}

    def frame(room: Room, table: int, seat: int) -> str:
        msg: dict[str, Any] = {
            "type": "state",
            "table": table,
            "version": room.version,
            "to_act": [room.turn],
            "legal": [{"type": "play"}] if seat == room.turn else [],
            "over": False,
            "pad": "",
        }
        base = len(json.dumps(msg))
        msg["pad"] = "x" * max(0, size - base)
        return json.dumps(msg)

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        table = seat = -1
        try:
            while True:
                msg = json.loads(await websocket.receive_text())
                kind = msg.get("type")
                if kind == "hello":
                    table, seat = int(msg["table"]), int(msg["seat"])
                    await websocket.send_text(json.dumps({"type": "welcome"}))
                elif kind == "subscribe":
                    room = rooms.setdefault(table, Room(players))
                    room.members[seat] = websocket
                    await websocket.send_text(json.dumps({"type": "ack", "id": msg.get("id")}))
                    await websocket.send_text(frame(room, table, seat))
                elif kind == "sync":
                    await websocket.send_text(frame(rooms[table], table, seat))
                elif kind == "act":
                    room = rooms[table]
                    if seat != room.turn:
                        err = {"type": "error", "code": "not_your_turn", "id": msg.get("id")}
                        await websocket.send_text(json.dumps(err))
                        continue
                    room.version += 1
                    room.turn = (room.turn + 1) % room.players
                    await websocket.send_text(json.dumps({"type": "ack", "id": msg.get("id")}))
                    for s, member in list(room.members.items()):
                        await member.send_text(frame(room, table, s))
        except WebSocketDisconnect:
            pass

    return app


def main() -> None:
    import uvicorn

    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=8001)
    p.add_argument("--size", type=int, default=900, help="bytes per state frame")
    p.add_argument("--players", type=int, default=4)
    p.add_argument(
        "--deflate", action="store_true", help="permessage-deflate when offered (tablée: off)"
    )
    args = p.parse_args()
    uvicorn.run(
        make_app(args.size, args.players),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        ws_per_message_deflate=args.deflate,
    )


if __name__ == "__main__":
    main()
