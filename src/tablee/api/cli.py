"""``tablee serve``: the app under uvicorn, with migrations at start-up."""

from __future__ import annotations

import argparse
import gc
from typing import Any


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="serve the app (REST, WebSocket, browser client)"
    )
    p.add_argument("--host", default=None, help="bind address (TABLEE_HOST, 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (TABLEE_PORT, 8000)")
    p.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy async URL (TABLEE_DATABASE_URL, SQLite under ./var/)",
    )
    p.add_argument("--log-level", default=None, help="TABLEE_LOG_LEVEL (info)")
    p.add_argument(
        "--log-format", default=None, choices=["json", "text"], help="TABLEE_LOG_FORMAT (json)"
    )
    p.set_defaults(handler=serve)
    return p


def add_ratings_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "ratings", help="ratings: `recompute` rebuilds them from the stored results"
    )
    p.add_argument("action", choices=["recompute"])
    p.add_argument(
        "--database-url", default=None, help="SQLAlchemy async URL (TABLEE_DATABASE_URL)"
    )
    p.set_defaults(handler=ratings)
    return p


def ratings(args: argparse.Namespace) -> int:
    import asyncio

    from tablee.settings import Settings
    from tablee.tables.ratings import recompute

    overrides = {} if args.database_url is None else {"database_url": args.database_url}
    games = asyncio.run(recompute(Settings(**overrides)))
    print(f"ratings recomputed from {games} rated games")
    return 0


def serve(args: argparse.Namespace) -> int:
    from tablee.api import create_app
    from tablee.logs import configure_logging
    from tablee.settings import Settings

    overrides = {
        k: v
        for k, v in {
            "host": args.host,
            "port": args.port,
            "database_url": args.database_url,
            "log_level": args.log_level,
            "log_format": args.log_format,
        }.items()
        if v is not None
    }
    settings = Settings(**overrides)
    configure_logging(settings.log_level, settings.log_format)
    # log_config=None: uvicorn's own lines go through the handler configured above
    _server_class()(uvicorn_config(create_app(settings), settings, log_config=None)).run()
    return 0


#: the garbage collector's thresholds in a server process (young, middle, old). The young
#: generation's count is the objects made less the objects freed, old ones included: under a
#: room's pace a move makes about as many objects as it frees (the table's new state, its old
#: one), so the count creeps up and, at 10,000, a young collection came every second or so over
#: the whole working set of states made since (100,000 objects at 1,000 tables: 35 to 75 ms each,
#: bench/load.py --pace 1). At 1,000 it comes ten times as often and is about ten times as small;
#: the middle one still comes about as often as before (every 100 young ones), and the full one,
#: which walks every object of the process (400 ms at 4,000 sockets), ten times less often: what
#: it frees is the few cycles that reference counts leave (a few hundred objects a pass).
GC_THRESHOLDS = (1_000, 100, 100)


def _server_class() -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            # what is there once the app is up (the modules, the tables loaded) lives as long as
            # the process and is most of the heap: kept out of the garbage collector's full
            # passes
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)

    return Server


def uvicorn_config(app: Any, settings: Any, **overrides: Any) -> Any:
    """How the app is served (``tablee serve``, tests, benchmarks)."""
    import uvicorn

    values: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level.lower(),
        # frames over our limit get a ``too_large`` answer; only absurd ones are cut off here
        "ws_max_size": max(settings.max_message_bytes * 16, 1 << 20),
        "proxy_headers": True,
    }
    values.update(overrides)
    return uvicorn.Config(app, **values)
