"""The group commit when the database is out of reach: a batch that failed on a connection
that died is tried once more, on another; a database that stays out of reach, or is silent,
fails each write as ``Unreachable`` at once (answered ``conflict``: send it again), where any
other failure still has each write tried alone."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy import exc as sa_exc

from tablee.store import StaleVersion, Unreachable
from tablee.store.writes import TableWriter, unreachable


class Scripted(TableWriter):
    """A writer whose batches fail as scripted, then succeed (no database)."""

    def __init__(self, failures: list[Exception]) -> None:
        super().__init__(engine=None)  # type: ignore[arg-type]
        self.failures = failures
        self.batches: list[list[Any]] = []
        self.alone: list[Any] = []

    async def _commit_all(self, batch: list[Any], settle: Any = None) -> list[Any]:
        self.batches.append(batch)
        if self.failures:
            raise self.failures.pop(0)
        return [None] * len(batch)

    async def _each_alone(self, writes: list[Any]) -> list[Any]:
        self.alone += writes
        return [None] * len(writes)


async def _write_two(writer: Scripted) -> list[BaseException | None]:
    outcome = await asyncio.gather(
        writer.write("a"),  # type: ignore[arg-type]
        writer.write("b"),  # type: ignore[arg-type]
        return_exceptions=True,
    )
    return list(outcome)


async def test_a_batch_failed_on_a_dead_connection_is_tried_once_more_and_committed() -> None:
    writer = Scripted([ConnectionResetError(104, "Connection reset by peer")])
    assert await _write_two(writer) == [None, None]
    assert writer.batches == [["a", "b"], ["a", "b"]] and writer.alone == []


async def test_a_database_still_out_of_reach_fails_each_write_as_unreachable() -> None:
    writer = Scripted([ConnectionResetError(104, "reset"), ConnectionRefusedError(111, "refused")])
    outcome = await _write_two(writer)
    assert all(isinstance(e, Unreachable) for e in outcome)
    assert len(writer.batches) == 2 and writer.alone == []


@pytest.mark.parametrize(
    "silence",
    [TimeoutError(), sa_exc.TimeoutError("QueuePool limit of size 2 overflow 0 reached")],
    ids=["statement", "pool"],
)
async def test_a_silent_database_is_not_waited_for_twice(silence: Exception) -> None:
    writer = Scripted([silence])
    outcome = await _write_two(writer)
    assert all(isinstance(e, Unreachable) for e in outcome)
    assert len(writer.batches) == 1 and writer.alone == []


async def test_any_other_failure_still_has_each_write_tried_alone() -> None:
    writer = Scripted([sa_exc.IntegrityError("INSERT", None, ValueError("duplicate key"))])
    assert await _write_two(writer) == [None, None]
    assert len(writer.batches) == 1 and writer.alone == ["a", "b"]


@pytest.mark.parametrize(
    ("exc", "out_of_reach"),
    [
        (ConnectionResetError(104, "reset"), True),
        (TimeoutError(), True),
        (sa_exc.TimeoutError("QueuePool limit of size 10 overflow 8 reached"), True),
        (asyncpg.exceptions.ConnectionDoesNotExistError("closed in the middle"), True),
        (asyncpg.exceptions.InterfaceError("connection is closed"), True),
        (sa_exc.OperationalError("SELECT 1", None, ConnectionRefusedError(111, "refused")), True),
        (sa_exc.IntegrityError("INSERT", None, ValueError("duplicate key")), False),
        (asyncpg.exceptions.UniqueViolationError("duplicate key"), False),
        (StaleVersion("table 1 is no longer at v3"), False),
        (ValueError("a bug"), False),
    ],
)
def test_what_counts_as_the_database_out_of_reach(exc: Exception, out_of_reach: bool) -> None:
    assert unreachable(exc) is out_of_reach
