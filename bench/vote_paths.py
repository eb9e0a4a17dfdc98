"""A rematch vote over REST against one over the WebSocket: the server's CPU (run by hand).

The browser votes over its socket, and over REST only while the socket is down; ``bench/load.py``
votes as the browser does (``--votes rest`` to vote over REST instead). A game's end is rare
among a room's moves, so the load test cannot tell the two apart within its noise: this measures
the vote's own way in and out. ``tablee serve`` (a subprocess, SQLite in a temporary folder)
holds N tables of Contrecarte, four players each, whose games go on; every player votes K times,
one vote after the other, over REST (an HTTP connection of its own, kept alive from round to
round as a browser keeps one) and over its open socket (a ``rematch`` message). The game goes
on, so each vote is refused ``not_finished``, after the same steps an accepted vote takes up to
the table's check (its authentication, its parsing, the table found, the seat's check, the
answer written); the manager's own work past it (the vote written, the state sent) is the same
for both ways. Printed: the server's CPU a vote (its process's CPU seconds over the votes) and
the votes' p50 and p99 as the players saw them, the two ways turned about round after round.

    .venv/bin/python bench/vote_paths.py --tables 25 --votes 40 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import Proc, Seat, free_port, setup_tablee


async def over_rest(clients: list[tuple[Seat, httpx.AsyncClient]], votes: int) -> list[float]:
    async def one(seat: Seat, http: httpx.AsyncClient) -> list[float]:
        auth = {"Authorization": f"Bearer {seat.token}"}
        times = []
        for _ in range(votes):
            sent = time.perf_counter()
            r = await http.post(f"/api/tables/{seat.table}/rematch", headers=auth)
            times.append(time.perf_counter() - sent)
            assert r.status_code == 409 and r.json()["code"] == "not_finished", r.text
        return times

    return [t for ts in await asyncio.gather(*(one(s, h) for s, h in clients)) for t in ts]


async def over_socket(sockets: list[tuple[Seat, Any]], votes: int) -> list[float]:
    async def one(seat: Seat, ws: Any) -> list[float]:
        times = []
        for i in range(votes):
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "rematch", "table": seat.table, "id": f"v{i}"}))
            while (answer := json.loads(await ws.recv())).get("id") != f"v{i}":
                pass  # a state of the table (none comes while nobody moves)
            times.append(time.perf_counter() - sent)
            assert answer["type"] == "error" and answer["code"] == "not_finished", answer
        return times

    return [t for ts in await asyncio.gather(*(one(s, w) for s, w in sockets)) for t in ts]


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {"TABLEE_LOG_LEVEL": "warning"}
        # every player votes as fast as the server answers: not what the limits are for
        for limit in ("ADDRESS", "PLAYER", "NEW_PLAYERS", "NEW_TABLES"):
            env[f"TABLEE_RATE_LIMIT_{limit}"] = "off"
        env["TABLEE_WS_RATE_CONNECTION"] = env["TABLEE_WS_RATE_PLAYER"] = "off"
        url = f"sqlite+aiosqlite:///{tmp}/votes.db"
        server = Proc(
            [
                *(["taskset", "-c", "0"] if args.pin else []),
                sys.executable,
                "-m",
                "tablee",
                "serve",
                "--database-url",
                url,
                "--port",
                str(port),
            ],
            port,
            env,
        )
        try:
            await server.ready("/api/games")
            base = f"http://127.0.0.1:{port}"
            seats = await setup_tablee([base], args.tables, 4, "contrecarte")
            clients = [(s, httpx.AsyncClient(base_url=base, timeout=60)) for s in seats]
            sockets = []
            for seat in seats:
                ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None)
                await ws.send(json.dumps(seat.hello))
                await ws.recv()  # its welcome
                sockets.append((seat, ws))
            # a first pass of each, not measured: connections made, code paths warm
            await over_rest(clients, 2)
            await over_socket(sockets, 2)
            print(f"{args.tables} tables, {len(seats)} players, {args.votes} votes each a round")
            print(f"{'round':>5} {'way':>7} {'cpu µs/vote':>12} {'p50 ms':>8} {'p99 ms':>8}")
            ways = ("rest", "socket")
            for r in range(args.rounds):
                for way in ways if r % 2 == 0 else ways[::-1]:
                    cpu = server.cpu()
                    async with asyncio.timeout(120):  # a vote left unanswered fails the run
                        if way == "rest":
                            times = await over_rest(clients, args.votes)
                        else:
                            times = await over_socket(sockets, args.votes)
                    used = server.cpu() - cpu
                    print(
                        f"{r + 1:>5} {way:>7} {1e6 * used / len(times):>12.0f}"
                        f" {_ms(times, 0.5):>8.2f} {_ms(times, 0.99):>8.2f}"
                    )
            for _, ws in sockets:
                await ws.close()
            for _, http in clients:
                await http.aclose()
        finally:
            server.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=25)
    p.add_argument("--votes", type=int, default=40, help="votes of each player a round and way")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--pin", action="store_true", help="the server on the first core alone")
    args = p.parse_args(argv)
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
