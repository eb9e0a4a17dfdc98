"""A fresh app's first requests: the event loop's time for each, with the routes walked at
start-up (``api._walk_routes``, as the app starts) and without (the walk left out), in the same
run (run by hand).

FastAPI builds a router's routes on the first request that walks them; while it does, nothing
else runs on the loop, every table of the process waiting. For each way, each round starts a new
app on a new SQLite database, then times ``/metrics`` (behind every router) three times; the
figures are the median over the rounds, in milliseconds of wall time.

    .venv/bin/python bench/first_request.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import tablee.api
from tablee.api import create_app
from tablee.settings import Settings

REQUESTS = 3


async def _round(folder: str) -> list[float]:
    """A new app's ``/metrics`` timed ``REQUESTS`` times (ms)."""
    settings = Settings(database_url=f"sqlite+aiosqlite:///{folder}/first.db", metrics_token="m")
    app = create_app(settings)
    out = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for _ in range(REQUESTS):
                started = time.perf_counter()
                answer = await client.get("/metrics", headers={"Authorization": "Bearer m"})
                out.append((time.perf_counter() - started) * 1000)
                assert answer.status_code == 200, answer.status_code
    return out


async def _no_walk(app: object) -> None:
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args(argv)
    rows: dict[str, list[list[float]]] = {"walked": [], "not walked": []}
    for _ in range(args.rounds):
        for way in rows:  # the two ways in turn, round after round
            with tempfile.TemporaryDirectory() as folder:
                if way == "walked":
                    rows[way].append(asyncio.run(_round(folder)))
                else:
                    with mock.patch.object(tablee.api, "_walk_routes", _no_walk):
                        rows[way].append(asyncio.run(_round(folder)))
    print(
        f"{'routes at start':<16}"
        + "".join(f"{f'request {i + 1} ms':>14}" for i in range(REQUESTS))
    )
    for way, rounds in rows.items():
        medians = [statistics.median(r[i] for r in rounds) for i in range(REQUESTS)]
        print(f"{way:<16}" + "".join(f"{m:>14.2f}" for m in medians))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
