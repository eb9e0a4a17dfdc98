"""The housekeeping loops (``tables/periodic.py``): rounds on time, a failed round logged and the
next one made, and a stop that lets a round under way finish instead of cutting it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tablee.tables import periodic
from tablee.tables.periodic import Periodic


async def _until(check: object, seconds: float = 2.0) -> None:
    async def wait() -> None:
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.001)

    await asyncio.wait_for(wait(), seconds)


async def test_a_stop_between_two_rounds_ends_the_wait_at_once() -> None:
    p = Periodic(lambda: asyncio.sleep(0), 3600, "failed")
    p.start()
    await _until(lambda: p.rounds == 1)
    # the next round is an hour away: stop does not wait for it
    await asyncio.wait_for(p.stop(), 1)
    assert not p.running and p.rounds == 1


async def test_a_round_under_way_when_the_loop_stops_is_finished_not_cancelled() -> None:
    gate = asyncio.Event()
    seen: list[str] = []

    async def work() -> None:
        seen.append("started")
        try:
            await gate.wait()  # a transaction on its way
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise
        seen.append("finished")

    p = Periodic(work, 3600, "failed")
    p.start()
    await _until(lambda: seen == ["started"])
    stopping = asyncio.ensure_future(p.stop())
    await asyncio.sleep(0.02)
    assert not stopping.done(), "stop returned with a round under way"
    gate.set()
    await asyncio.wait_for(stopping, 1)
    assert seen == ["started", "finished"] and not p.running


async def test_a_round_that_outlasts_the_grace_is_cancelled() -> None:
    seen: list[str] = []

    async def work() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    p = Periodic(work, 3600, "failed")
    p.start()
    await asyncio.sleep(0.01)
    await asyncio.wait_for(p.stop(grace=0.05), 1)
    assert seen == ["cancelled"] and not p.running


async def test_a_failed_round_is_logged_and_the_next_one_comes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls: list[int] = []

    async def work() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise OSError("the database went away")

    said = "the housekeeping failed; trying again"
    p = Periodic(work, 0.01, said, first=0.01)
    with caplog.at_level(logging.ERROR):
        p.start()
        await _until(lambda: p.rounds >= 3)
        await p.stop()
    failures = [
        r for r in caplog.records if r.getMessage() == "the housekeeping failed; trying again"
    ]
    assert len(failures) == 1 and failures[0].exc_info is not None
    assert isinstance(failures[0].exc_info[1], OSError)
    assert len(calls) >= 3


async def test_rounds_failing_in_a_row_are_logged_whole_once_then_a_line_a_while(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database away, the poller fails every round: its traceback once, not every
    second; a line now and then while it lasts, and one when a round works again."""
    monkeypatch.setattr(periodic, "REMIND_SECONDS", 0.2)
    calls: list[int] = []

    async def work() -> None:
        calls.append(len(calls))
        if len(calls) <= 12:
            raise OSError("the database went away")

    p = Periodic(work, 0.005, "the poller failed", first=0.005)
    with caplog.at_level(logging.WARNING):
        p.start()
        await _until(lambda: p.rounds >= 14, seconds=10)
        await p.stop()
    said = [r for r in caplog.records if r.getMessage().startswith("the poller failed")]
    assert said[0].exc_info is not None and all(r.exc_info is None for r in said[1:])
    reminders = [r for r in said if "failed in a row" in r.getMessage()]
    assert 1 <= len(reminders) <= 5  # rounds come every 50 ms: a line a while, not one a round
    assert said[-1].getMessage() == "the poller failed: works again after 12 failed rounds"
