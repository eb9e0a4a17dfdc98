"""``tablee serve``: the app under uvicorn, with migrations at start-up."""

from __future__ import annotations

import argparse
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
    app = create_app(settings)
    server = _server_class()(uvicorn_config(app, settings, log_config=None))
    app.state.ops.heap = server.heap  # its sweeps in /metrics
    server.run()
    return 0


def _server_class() -> Any:
    import uvicorn

    from tablee.api.heap import HeapKeeper

    class Server(uvicorn.Server):
        def __init__(self, config: Any) -> None:
            super().__init__(config)
            self.heap = HeapKeeper()

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            self.heap.start()

        async def shutdown(self, sockets: Any = None) -> None:
            self.heap.stop()
            await super().shutdown(sockets)

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
        "ws_per_message_deflate": settings.ws_deflate,
    }
    values.update(overrides)
    return uvicorn.Config(app, **values)
