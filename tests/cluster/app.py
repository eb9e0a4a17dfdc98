"""One app process of the cluster tests: the app with the test games, under uvicorn, configured
by the ``TABLEE_*`` environment variables (``python -m tests.cluster.app``)."""

from __future__ import annotations

import os
from typing import Any

import uvicorn

from tablee.api import create_app
from tablee.settings import Settings
from tests.cluster.race import race
from tests.serverkit import toy


def with_pid(app: Any) -> Any:
    """The app, plus ``/_test/pid``: which process answers on this port (the tests check that
    it is the one they started, not another that took the port first)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/_test/pid":
            start = {"type": "http.response.start", "status": 200, "headers": []}
            await send(start)
            await send({"type": "http.response.body", "body": str(os.getpid()).encode()})
            return
        await app(scope, receive, send)

    return wrapped


def main() -> None:
    toy()
    race()
    settings = Settings()
    uvicorn.run(
        with_pid(create_app(settings)),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        ws_max_size=1 << 20,
    )


if __name__ == "__main__":
    main()
