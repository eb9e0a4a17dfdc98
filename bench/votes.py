"""The vote that deals a table's next game: the event loop's CPU for it (run by hand).

One table of Contrecarte, four players, played at random (the load bench's long games) to the
end, then the four rematch votes; the loop thread's CPU (``time.thread_time``) of the last vote,
the one that deals, is kept. Each round is run twice, turned about: the last game's events and
actions freed at once inside the vote (as before ``tables.live.let_go``), then a chunk a turn
of the loop after it. SQLite in a temporary folder; its writer thread is not counted.

    .venv/bin/python bench/votes.py --games 30
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tablee.games import get_game  # noqa: E402
from tablee.store import Store  # noqa: E402
from tablee.tables import TableManager  # noqa: E402
from tablee.tables import live as live_module  # noqa: E402

GAME = get_game("contrecarte")
IN_CHUNKS = live_module.let_go


async def run(games: int, seed: int) -> tuple[list[float], list[int]]:
    """The dealing vote's CPU (ms) and the last game's event count, for each of ``games``."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite+aiosqlite:///{folder}/votes.db")
        await store.migrate()
        players = [(await store.create_player(name))[0] for name in "ABCD"]
        manager = TableManager(store, bot_delay=0)
        live = await manager.create_table(players[0], "contrecarte", 4, seed=seed)
        for p in players[1:]:
            await manager.join(p, live.id)
        rnd = random.Random(seed)
        cpu, events = [], []
        for _ in range(games):
            while live.rec.status == "playing":
                seat = live.to_act()[0]
                await manager.act(players[seat], live.id, rnd.choice(live.legal(seat)))
            for p in players[:3]:
                await manager.rematch(p, live.id)
            events.append(len(live.history))
            started = time.thread_time()
            await manager.rematch(players[3], live.id)
            cpu.append(1e3 * (time.thread_time() - started))
            await asyncio.sleep(0.01)  # the chunks are freed meanwhile
        await manager.close()
        await store.close()
    return cpu, events


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    for _ in range(args.rounds):
        for name, let_go in (("at once", lambda *lists: None), ("in chunks", IN_CHUNKS)):
            # a no-op let_go: the lists go with the record's last reference, inside the vote
            live_module.let_go = let_go  # type: ignore[assignment]
            cpu, events = asyncio.run(run(args.games, args.seed))
            cpu.sort()
            print(
                f"{name:>9}: the vote that deals p50 {statistics.median(cpu):.3f} ms, "
                f"p90 {cpu[int(0.9 * len(cpu))]:.3f}, max {cpu[-1]:.3f} "
                f"(events a game p50 {statistics.median(events):.0f})"
            )


if __name__ == "__main__":
    main()
