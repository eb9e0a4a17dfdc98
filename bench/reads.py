"""The reads every connection makes, through SQLAlchemy's async session and through the driver
(``store/reads.py``), in the same run (run by hand).

A player by its token (every ``hello``, every REST call with a token) and a table's last chat
messages with the player's mute (every ``subscribe``), each read ``--reads`` times one after
the other on the server's event loop (uvloop), the two paths turned about. Printed: CPU
microseconds a read (the process's, every thread's: the driver's thread is in it) and wall
microseconds a read.

    .venv/bin/python bench/reads.py [--database-url postgresql+asyncpg://...]
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

import uvloop
from writes import _tables  # bench/writes.py: tables playing

from tablee.store import Store
from tablee.store.chat import ChatStore
from tablee.store.models import now
from tablee.tables.records import NewChat


async def _setup(url: str, schema: str | None) -> tuple[Store, str, int, int]:
    store = Store(url, schema)
    await store.migrate()
    player, token = await store.create_player("Lecteur")
    (table,) = await _tables(store, 1)
    chat = ChatStore(store)
    for i in range(5):
        new = NewChat(table.id, player.id, player.name, 0, f"message {i}", None, "all")
        await chat.add(new, now())
    return store, token, table.id, player.id


async def _time(n: int, read: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    for _ in range(min(100, n)):
        await read()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(n):
        await read()
    return (time.process_time() - cpu) / n * 1e6, (time.perf_counter() - wall) / n * 1e6


async def main(args: argparse.Namespace) -> None:
    schema = None
    with contextlib.ExitStack() as stack:
        url = args.database_url
        if url is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            url = f"sqlite+aiosqlite:///{folder}/reads.db"
        elif url.startswith("postgresql"):
            import uuid

            import asyncpg  # type: ignore[import-untyped]

            schema = f"bench_{uuid.uuid4().hex[:12]}"
            conn = await asyncpg.connect(url.replace("+asyncpg", ""))
            await conn.execute(f'CREATE SCHEMA "{schema}"')
            await conn.close()
        store, token, table_id, player_id = await _setup(url, schema)
        direct = store.reads
        assert direct is not None, "no direct reads for this database"
        chat = ChatStore(store)
        reads: dict[str, Callable[[], Awaitable[Any]]] = {
            "player by token": lambda: store.player_by_token(token),
            "chat history + mute": lambda: chat.history(table_id, 40, player_id, now()),
        }
        print(f"{'read':>22} {'path':>12} {'cpu µs':>9} {'wall µs':>9}")
        try:
            for name, read in reads.items():
                for rnd in range(args.rounds):
                    order = ("sqlalchemy", "driver") if rnd % 2 == 0 else ("driver", "sqlalchemy")
                    for path in order:
                        store.reads = direct if path == "driver" else None
                        cpu, wall = await _time(args.reads, read)
                        print(f"{name:>22} {path:>12} {cpu:>9.0f} {wall:>9.0f}")
        finally:
            store.reads = direct
            await store.close()
            if schema is not None:
                conn = await asyncpg.connect(url.replace("+asyncpg", ""))
                await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
                await conn.close()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--database-url")
    p.add_argument("--reads", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=2)
    uvloop.run(main(p.parse_args()))
