"""One app process of the cluster tests: the app with the test games, under uvicorn, configured
by the ``TABLEE_*`` environment variables (``python -m tests.cluster.app``).

``TEST_DROP_HANDS=1``: the process ignores the hand-over messages it is sent (``"h"``), as if
Redis had lost them; it learns that a table was handed to it from its poller only.
``TEST_STALE_MOVE_SECONDS``: how old a move sent by another process may come and still be made
(``cluster.STALE_MOVE_SECONDS``)."""

from __future__ import annotations

import json
import os
from typing import Any

import uvicorn

from tablee.api import create_app
from tablee.settings import Settings
from tablee.tables import cluster as cluster_module
from tablee.tables.cluster import Cluster
from tests.cluster.race import race
from tests.serverkit import toy


def with_pid(app: Any) -> Any:
    """The app, plus ``/_test/pid``: which process answers on this port (the tests check that
    it is the one they started, not another that took the port first); and
    ``/_test/home/<table>``: whether this process holds the table as its home (``Cluster.leads``)
    and whether it has taken it in (its timer and robots run here)."""

    async def answer(send: Any, body: str) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body.encode()})

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/_test/pid":
            await answer(send, str(os.getpid()))
            return
        if scope["type"] == "http" and scope["path"].startswith("/_test/home/"):
            table_id = int(scope["path"].rsplit("/", 1)[1])
            manager = app.state.manager
            cluster = manager.coordination
            assert isinstance(cluster, Cluster)
            live = manager.cached(table_id)
            state = {
                "process": cluster.process_id,
                "held": live is not None,
                "leads": live is not None and cluster.leads(live),
                "home": None if live is None else live.rec.home,
                "token": None if live is None else live.rec.home_token,
                "taken_in": cluster._home_of.get(table_id),
                "timer": live is not None and live.timer is not None,
            }
            await answer(send, json.dumps(state))
            return
        await app(scope, receive, send)

    return wrapped


def main() -> None:
    toy()
    race()
    if os.environ.get("TEST_DROP_HANDS") == "1":
        Cluster._hand_heard = lambda self, news: None  # type: ignore[method-assign]
    if "TEST_STALE_MOVE_SECONDS" in os.environ:
        cluster_module.STALE_MOVE_SECONDS = float(os.environ["TEST_STALE_MOVE_SECONDS"])
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
