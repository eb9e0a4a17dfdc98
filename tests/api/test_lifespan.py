"""The server's start and stop: a process stopped at any instant of its start-up's housekeeping
(the chat's first pruning runs at once) stops cleanly, with nothing logged as an error."""

from __future__ import annotations

import asyncio
import logging

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
