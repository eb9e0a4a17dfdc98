"""Where robot seats think: a débutant at once, a confirmé in a pool of worker processes.

A confirmé's search takes a fraction of a second of CPU (``TABLEE_ROBOT_SECONDS``, 0.3 by
default): done on the event loop, it would hold up every other table of the process. It runs in
a ``ProcessPoolExecutor`` shared by the server's tables (``TABLEE_ROBOT_WORKERS`` processes,
started on the first confirmé decision): the loop only sends the game's name, the state's JSON,
the seat, the events of the current deal the seat saw, and gets the move back. Its worlds are
at most ``TABLEE_ROBOT_WORLDS``; the time limit ends the search sooner, after at least one
world. A worker that fails (or a pool of 0 workers) leaves the move to the débutant.

Each decision's random seed comes from the table's seed, its game and its move count: the same
table replayed makes the same draws (the time limit aside).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tablee.bots.levels import CONFIRME, Budget, decide
from tablee.engine import Action, Event, Game, visible_events
from tablee.games import get_game

from .live import LiveTable, deal_history

log = logging.getLogger("tablee.tables")


def current_deal(events: list[Event], seat: int) -> list[Event]:
    """The events of the current deal ``seat`` saw: from the last ``deal`` event on (a robot
    reads no older ones)."""
    return visible_events(deal_history(events), seat)


def think(
    game_name: str,
    state: dict[str, Any],
    seat: int,
    events: list[Event],
    level: str,
    seed: int,
    worlds: int,
    seconds: float,
) -> Action:
    """A worker's decision (a plain function of plain data: it crosses a process boundary)."""
    game = get_game(game_name)
    end = time.monotonic() + seconds
    return decide(
        game,
        game.from_json(state),
        seat,
        events,
        level=level,
        seed=seed,
        budget=Budget(worlds=worlds),
        stop=lambda: time.monotonic() >= end,
    )


def decision_seed(live: LiveTable, seat: int) -> int:
    key = f"{live.rec.seed}/{live.rec.game_no}/{live.seq}/{seat}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")


class Robots:
    """The robot seats' moves for every table of the process."""

    def __init__(self, workers: int = 1, seconds: float = 0.3, worlds: int = 256) -> None:
        self.workers = workers
        self.seconds = seconds
        self.worlds = worlds
        self._pool: ProcessPoolExecutor | None = None
        #: moves the workers chose since start-up (metrics, tests)
        self.decisions = 0

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: a fork of a process running an event loop and its threads
            # copies their locks in whatever state they are
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def confirme(self, game: Game, live: LiveTable, seat: int) -> Action | None:
        """A confirmé's move for ``seat`` of ``live`` (its current state), thought in the pool;
        None when there is no pool or the worker failed."""
        if self.workers <= 0:
            return None
        args = (
            game.name,
            game.to_json(live.state),
            seat,
            current_deal(live.history, seat),
            CONFIRME,
            decision_seed(live, seat),
            self.worlds,
            self.seconds,
        )
        try:
            action = await asyncio.get_running_loop().run_in_executor(self.pool(), think, *args)
        except Exception:
            log.exception(
                "table %s: the robot of seat %s failed; the débutant plays",
                live.id,
                seat,
                extra={"table": live.id, "seat": seat},
            )
            return None
        self.decisions += 1
        return action

    def close(self) -> None:
        if self._pool is not None:
            # waits for the workers to exit (a decision in progress ends within its time)
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
