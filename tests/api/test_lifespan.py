"""The server's start and stop: a process stopped at any instant of its start-up's housekeeping
(the chat's first pruning runs at once) stops cleanly, with nothing logged as an error; the
routes are built before the first request comes."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pydantic
import pytest

from tablee.api import create_app
from tests.serverkit import Database

CYCLES = 40


async def test_a_server_stopped_right_after_it_started_logs_no_traceback(
    database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    # each stop lands at another instant of the first round of the housekeeping: cancelled
    # there, on SQLite, the pool logged the rollback the cancellation interrupted in 59 of 400
    # stops of a server under the test client, in 3 to 5 of these 40
    with caplog.at_level(logging.INFO):
        for i in range(CYCLES):
            app = create_app(database.settings())
            async with app.router.lifespan_context(app):
                await asyncio.sleep(i * 0.000_05)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert not tracebacks, [r.getMessage() for r in tracebacks]


async def test_the_first_request_after_a_start_builds_no_route(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    # FastAPI builds a router's routes (a pydantic type adapter for each of their models and
    # parameters) on the first request that walks them: a few dozen ms of the event loop, every
    # table of the process held meanwhile. The start walks them all before serving.
    app = create_app(sqlite_db.settings(metrics_token="m"))
    built: list[object] = []
    real = pydantic.TypeAdapter.__init__

    def counted(self: pydantic.TypeAdapter[object], *args: object, **kwargs: object) -> None:
        built.append(args[0] if args else kwargs.get("type"))
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    async with app.router.lifespan_context(app):
        monkeypatch.setattr(pydantic.TypeAdapter, "__init__", counted)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            # the last router's route (every router before it is walked), then a game's
            metrics = await client.get("/metrics", headers={"Authorization": "Bearer m"})
            listed = await client.get("/api/games")
    assert metrics.status_code == 200 and listed.status_code == 200
    assert built == []
