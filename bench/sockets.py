"""What a connected socket costs the server: the objects the garbage collector tracks for it (each
walked by a sweep of the heap, ``api/heap.py``), its memory blocks, and the CPU of its handshake,
``hello`` and ``subscribe``, and what it adds to a full pass of the collector (run by hand).

The app runs under uvicorn (uvloop) in this process, on SQLite, with ``--sockets`` sockets at
tables of four (``bench/load.py``'s set-up); the clients connect from a process of their own, so
what is counted here is the server's alone. ``--server-src OTHER/src`` measures another tree's
server first, in a child process, the same way (the same run's peer).

    .venv/bin/python bench/sockets.py [--sockets 800] [--server-src OTHER/src]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import websockets
from load import Seat, free_port, setup_tablee  # bench/load.py

HERE = Path(__file__).resolve().parent


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _clients(uri: str, seats: list[Seat], ready: Any, done: Any) -> None:
    async def run() -> None:
        sockets = []
        for seat in seats:
            ws = await websockets.connect(uri, compression=None, ping_interval=None)
            await ws.send(json.dumps(seat.hello))
            await ws.send(json.dumps({"type": "subscribe", "table": seat.table, "id": 0}))
            while json.loads(await ws.recv())["type"] != "state":
                pass
            sockets.append(ws)
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, done.wait)
        for ws in sockets:
            await ws.close()

    asyncio.run(run())


def _count() -> tuple[int, int, float]:
    """The objects the collector tracks, the memory blocks, and the seconds of a full pass (a
    sweep of the heap walks them all), the best of three."""
    gc.collect()
    seconds = []
    for _ in range(3):
        started = time.perf_counter()
        gc.collect()
        seconds.append(time.perf_counter() - started)
    return len(gc.get_objects()), sys.getallocatedblocks(), min(seconds)


def measure(sockets: int) -> dict[str, float]:
    import uvicorn

    from tablee.api import create_app
    from tablee.api.cli import uvicorn_config
    from tablee.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        off = {f"rate_limit_{k}": "off" for k in ("address", "player", "new_players", "new_tables")}
        off |= {f"ws_rate_{k}": "off" for k in ("connection", "player", "refusals")}
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{tmp}/sockets.db",
            port=port,
            log_level="warning",
            admin_token=None,
            redis_url=None,
            **off,
        )
        server = uvicorn.Server(uvicorn_config(create_app(settings), settings, loop="uvloop"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        base = f"http://127.0.0.1:{port}"
        seats = asyncio.run(setup_tablee([base], sockets // 4, 4, "contrecarte"))
        ctx = multiprocessing.get_context("spawn")
        ready, done = ctx.Event(), ctx.Event()
        clients = ctx.Process(
            target=_clients, args=(f"ws://127.0.0.1:{port}/ws", seats, ready, done)
        )
        objects, blocks, sweep = _count()
        cpu = _cpu()
        clients.start()
        while not ready.wait(1):
            if not clients.is_alive():
                raise RuntimeError("a client failed before every socket subscribed")
        cpu = _cpu() - cpu
        time.sleep(0.5)  # the last answers written
        objects_after, blocks_after, sweep_after = _count()
        done.set()
        clients.join()
        server.should_exit = True
        thread.join(10)
    return {
        "objects/socket": (objects_after - objects) / len(seats),
        "blocks/socket": (blocks_after - blocks) / len(seats),
        "cpu ms/socket": 1000 * cpu / len(seats),
        "sweep µs/socket": 1e6 * (sweep_after - sweep) / len(seats),
    }


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--sockets", type=int, default=800)
    p.add_argument("--server-src", default=None, help="measure this tree's server too (its src/)")
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.json:
        print(json.dumps(measure(args.sockets)))
        return
    rows: list[tuple[str, dict[str, float]]] = []
    if args.server_src:
        env = {**os.environ, "PYTHONPATH": args.server_src}
        cmd = [sys.executable, str(HERE / "sockets.py"), "--json", "--sockets", str(args.sockets)]
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
        rows.append((args.server_src, json.loads(out.splitlines()[-1])))
    rows.append(("this tree", measure(args.sockets)))
    print(f"{args.sockets} sockets at tables of four, hello and subscribe each")
    for name, row in rows:
        figures = ", ".join(f"{k} {v:.1f}" for k, v in row.items())
        print(f"  {name}: {figures}")


if __name__ == "__main__":
    main()
