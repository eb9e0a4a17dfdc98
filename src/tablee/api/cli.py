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
    p.set_defaults(handler=serve)
    return p


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from tablee.api import create_app
    from tablee.settings import Settings

    overrides = {
        k: v
        for k, v in {
            "host": args.host,
            "port": args.port,
            "database_url": args.database_url,
            "log_level": args.log_level,
        }.items()
        if v is not None
    }
    settings = Settings(**overrides)
    app = create_app(settings)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        ws_max_size=max(settings.max_message_bytes * 4, 1 << 16),
        proxy_headers=True,
    )
    return 0
