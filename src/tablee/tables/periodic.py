"""A round of work every so often, in a task of its own, that stops between two rounds.

The process's housekeeping runs this way: the chat's pruning, the sweep of waiting tables, and
with several processes the lease's renewal and the poller. At shut-down ``stop`` ends the wait
between rounds at once but lets a round already under way finish (for ``grace`` seconds at most,
then it is cancelled). Cancelled wherever it was, a round's work was rolled back, and a
cancellation that came while SQLAlchemy rolled back the connection it was giving back to its pool
made the pool throw the connection away and log an error with its traceback: a server stopped
right after it started (the chat's first pruning under way) did so in 59 of 400 stops on SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

#: the shortest wait between two rounds, whatever a round took
MIN_WAIT = 0.05
#: while rounds keep failing (the database away: the poller fails every second), a line says so
#: this often; the first failure is logged whole, with its traceback
REMIND_SECONDS = 60.0


class Periodic:
    """``work`` every ``seconds`` (from a round's start to the next's), the first after
    ``first``; a round that fails is logged with ``failure`` and the next comes as usual (the
    rounds that fail after it, one line a minute, and the first that works again, one line)."""

    def __init__(
        self,
        work: Callable[[], Awaitable[object]],
        seconds: float,
        failure: str,
        *,
        first: float = 0.0,
    ) -> None:
        self.work = work
        self.seconds = seconds
        self.failure = failure
        self.first = first
        #: rounds finished, failed ones included (tests)
        self.rounds = 0
        self._stopping: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._stopping = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(self._stopping))

    async def stop(self, grace: float = 5.0) -> None:
        """Ends the loop: at once when it waits, after the round under way otherwise (cancelled
        after ``grace`` seconds)."""
        task, stopping = self._task, self._stopping
        if task is None or stopping is None:
            return
        stopping.set()
        done, _ = await asyncio.wait({task}, timeout=grace)
        if not done:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _run(self, stopping: asyncio.Event) -> None:
        wait = self.first
        #: rounds failed in a row, and when that was last said
        failed, said = 0, 0.0
        while not await _stopped(stopping, wait):
            started = time.monotonic()
            try:
                await self.work()
            except Exception as exc:
                failed += 1
                if failed == 1:
                    log.exception(self.failure)
                    said = started
                elif started - said >= REMIND_SECONDS:
                    log.error(
                        "%s (%s rounds failed in a row; the last: %r)", self.failure, failed, exc
                    )
                    said = started
            else:
                if failed:
                    log.warning("%s: works again after %s failed rounds", self.failure, failed)
                failed = 0
            self.rounds += 1
            wait = max(MIN_WAIT, self.seconds - (time.monotonic() - started))


async def _stopped(stopping: asyncio.Event, wait: float) -> bool:
    """Waits ``wait`` seconds; True as soon as ``stopping`` is set."""
    if stopping.is_set():
        return True
    if wait <= 0:
        return False
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stopping.wait(), wait)
    return stopping.is_set()


__all__ = ["Periodic"]
