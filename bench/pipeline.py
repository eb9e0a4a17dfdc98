"""The tables layer alone: CPU per move of ``TableManager.act`` without sockets (run by hand).

N tables of Contrecarte, four players each watching their table through a subscriber that only
counts what it is sent, play random legal moves at once (each table one move after another, the
tables side by side, as a closed loop); the store is SQLite in a temporary folder. What a move
costs here — the checks, the rules, the commit, a state built and encoded per seat — is what a
move costs the server less the WebSocket path (reading and parsing the ``act``, writing the
frames); ``bench/load.py`` measures the whole.

    .venv/bin/python bench/pipeline.py --tables 50 --moves 20000
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tablee.store import Store  # noqa: E402
from tablee.tables import PlayerRecord, TableManager  # noqa: E402
from tablee.tables.live import LiveTable  # noqa: E402


class Counting:
    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        self.frames = 0

    def send(self, text: str) -> None:
        self.frames += 1


async def run(tables: int, moves: int, seed: int) -> None:
    folder = tempfile.mkdtemp()
    store = Store(f"sqlite+aiosqlite:///{folder}/pipeline.db")
    await store.migrate()
    manager = TableManager(store, bot_delay=3600)
    rng = random.Random(seed)
    playing = []
    for t in range(tables):
        players = [(await store.create_player(f"p{t}x{i}"))[0] for i in range(4)]
        live = await manager.create_table(players[0], "contrecarte", 4, {}, seed=seed + t)
        for p in players[1:]:
            await manager.join(p, live.id)
        for p in players:
            await manager.subscribe(Counting(p.id), live.id)
        playing.append((live, players))
    made = 0

    async def play(live: LiveTable, players: list[PlayerRecord]) -> None:
        nonlocal made
        while made < moves and live.rec.status == "playing":
            seat = live.to_act()[0]
            action = rng.choice(live.legal(seat))
            await manager.act(
                players[seat], live.id, action, request_id=made, version=live.rec.version
            )
            made += 1

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(play(live, players) for live, players in playing))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"{made} moves at {tables} tables: {1e3 * cpu / made:.3f} ms of CPU a move "
        f"(every thread), {made / wall:.0f} moves/s"
    )
    await manager.close()
    await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--moves", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    import uvloop  # the server's event loop (uvicorn's standard extras)

    uvloop.run(run(args.tables, args.moves, args.seed))


if __name__ == "__main__":
    main()
