"""The moves a table makes by itself: a timer's ``auto_action`` when a deadline passes, and the
bots' moves. Both go through the same commit path as a player's move (``pipeline.py``), under
the coordination's ``automatic`` turn (with several processes, only one makes them).

Timers: ``turn_seconds`` per decision. Whenever the seats to act change, or a seat to act moves and
is still to act (a contest, then its play), the deadline becomes now + ``turn_seconds``; it is
stored with the table, so it survives a restart. When it passes, the table plays ``auto_action``
for each seat still to act (logged with source ``timer``, and told with an ``auto`` event before
the move's own events); if the same seats are still to act afterwards (e.g. a draw, then play or
pass), the deadline has already passed and the table goes on at once.

Bots: after every change, a bot seat the game waits on (or a person's seat a robot plays for,
``TableRecord.away``) gets a task that "thinks" for
``bot_delay`` seconds, then plays ``bot_policy``'s move — or, for a seat of the "confirme" level,
the move its search finds in the robots' worker processes (``robots.py``), off the event loop;
if the table moved meanwhile, that move is dropped and the new state gets its own bot turn.

A move the store could not save (its database away: refused as ``conflict``, as is a table too
busy) is tried again ``RETRY_SECONDS`` later; a move chosen for a state
another process replaced meanwhile (``Superseded``) is dropped: the new state has its own timer
and bot turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tablee.bots.levels import CONFIRME
from tablee.engine import Action, Game
from tablee.logs import log_context
from tablee.protocol import ErrorCode

from .changes import Decision, move
from .errors import Superseded, TableError
from .live import LiveTable, utcnow
from .records import BOT, PLAYER, PLAYING

if TYPE_CHECKING:
    from .coordination import Coordination
    from .robots import Robots

log = logging.getLogger("tablee.tables")

#: a timer or bot move the store could not save is tried again after this
RETRY_SECONDS = 1.0

BotPolicy = Callable[[Game, Any, int], Action]
#: the pipeline's commit, for a table whose turn is already held
Commit = Callable[..., Awaitable[object]]


class Scheduler:
    def __init__(
        self,
        coordination: Coordination,
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
        bot_delay: float,
        bot_policy: BotPolicy,
        robots: Robots | None = None,
    ) -> None:
        self.coordination = coordination
        self.spawn = spawn
        self.bot_delay = bot_delay
        self.bot_policy = bot_policy
        self.robots = robots
        self.commit_held: Commit | None = None
        self.closed = False

    def rearm(self, live: LiveTable) -> None:
        """After a change: the timer of the new deadline, and the bots' turn."""
        self.arm(live)
        self.schedule_bot(live)

    def stop(self, live: LiveTable) -> None:
        self.disarm(live)
        if live.bot_task is not None:
            live.bot_task.cancel()

    # -- timers ----------------------------------------------------------------------------------

    def disarm(self, live: LiveTable) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None

    def arm(self, live: LiveTable) -> None:
        self.disarm(live)
        deadline = live.rec.deadline
        if (
            self.closed
            or deadline is None
            or live.rec.status != PLAYING
            or not self.coordination.leads(live)  # the home's timer
            or self.paused(live)
        ):
            return
        delay = max(0.0, (deadline - utcnow()).total_seconds())
        live.timer = asyncio.get_running_loop().call_later(
            delay, lambda: self.spawn(self._expire(live, deadline))
        )

    async def _expire(self, live: LiveTable, deadline: datetime) -> None:
        async with self.coordination.automatic(live) as mine:
            if not mine or live.rec.deadline != deadline or live.rec.status != PLAYING:
                return  # something moved in the meantime; the change re-armed the timer
            if utcnow() < deadline:
                self.arm(live)
                return
            moved = False
            for seat in live.to_act():
                if live.rec.status != PLAYING or seat not in live.to_act():
                    continue
                if not live.legal(seat):
                    continue
                action = live.game.auto_action(live.state, seat)
                try:
                    await self._move(live, seat, move(seat, action, "timer"))
                    moved = True
                except Superseded:
                    return  # the new state's deadline is armed again
                except TableError as exc:
                    if exc.code == ErrorCode.CONFLICT:
                        # not refused: the table was busy, or its database away
                        log.warning("table %s: the timer's move waits: %s", live.id, exc)
                        self._retry_later(lambda: self._expire(live, deadline))
                        return
                    log.error(
                        "table %s: auto_action for seat %s refused: %s",
                        live.id,
                        seat,
                        exc,
                        extra={"table": live.id, "seat": seat},
                    )
                except Exception:
                    # the store failed: nothing changed; try again shortly rather than stall
                    log.exception(
                        "table %s: the timer's move could not be saved",
                        live.id,
                        extra={"table": live.id, "seat": seat},
                    )
                    self._retry_later(lambda: self._expire(live, deadline))
                    return
            if not moved:
                log.error(
                    "table %s: deadline passed but no seat could move",
                    live.id,
                    extra={"table": live.id, "seat": None},
                )

    async def _move(self, live: LiveTable, seat: int, decision: Decision) -> None:
        assert self.commit_held is not None
        with log_context(live.id, seat):
            await self.commit_held(live, decision, retry=False)

    def _retry_later(self, again: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        if self.closed:
            return
        asyncio.get_running_loop().call_later(RETRY_SECONDS, lambda: self.spawn(again()))

    # -- bots ------------------------------------------------------------------------------------

    def paused(self, live: LiveTable) -> bool:
        """Every person seated has a robot playing for them (they left, or the timer handed
        them over) and none of them is connected: the robots would play on for nobody, so the
        table waits — no timer, no robot — until one of them comes back (a subscription, here or
        on another process, rearms it)."""
        rec = live.rec
        if not rec.away:
            return False  # nobody has a robot playing for them (nearly every move)
        people = [s for s in rec.seats if s.kind == PLAYER]
        if not people or any(s.seat not in rec.away for s in people):
            return False
        remote = self.coordination.remote_players(rec.id)
        return not any(
            live.presence.get(s.player_id or 0, 0) > 0 or s.player_id in remote for s in people
        )

    def bot_seats(self, live: LiveTable) -> list[int]:
        rec = live.rec
        if rec.status != PLAYING:
            return []
        # a robot's own seats, and those it plays for their person (``TableRecord.away``); the
        # pause looked at only when there are some (after a person's move, mostly none)
        seats = [s for s in live.to_act() if rec.seats[s].kind == BOT or s in rec.away]
        return [] if seats and self.paused(live) else seats

    def schedule_bot(self, live: LiveTable) -> None:
        if (
            self.closed
            or live.bot_task is not None
            or not self.coordination.leads(live)  # the home's robots
            or not self.bot_seats(live)
        ):
            return
        live.bot_task = self.spawn(self._bot_turn(live))

    async def _bot_turn(self, live: LiveTable) -> None:
        version = live.rec.version
        try:
            await asyncio.sleep(self.bot_delay)
            async with self.coordination.automatic(live, version) as mine:
                for seat in self.bot_seats(live) if mine else []:
                    if seat not in self.bot_seats(live):
                        continue
                    if not live.legal(seat):
                        continue
                    action = await self._bot_move(live, seat)
                    if action is None:
                        break  # the table moved while the robot thought: a new turn follows
                    try:
                        await self._move(live, seat, move(seat, action, "bot"))
                    except Superseded:
                        break  # the new state gets its own turn
                    except TableError as exc:
                        if exc.code == ErrorCode.CONFLICT:
                            # not refused: the table was busy, or its database away
                            log.warning("table %s: a bot move waits: %s", live.id, exc)
                            self._retry_later(lambda: self._bot_retry(live))
                            return
                        log.error(
                            "table %s: bot move for seat %s refused: %s",
                            live.id,
                            seat,
                            exc,
                            extra={"table": live.id, "seat": seat},
                        )
                        return
                    except Exception:
                        log.exception(
                            "table %s: a bot move could not be saved",
                            live.id,
                            extra={"table": live.id, "seat": seat},
                        )
                        self._retry_later(lambda: self._bot_retry(live))
                        return
        finally:
            live.bot_task = None
        self.schedule_bot(live)

    async def _bot_move(self, live: LiveTable, seat: int) -> Action | None:
        """The bot's move in the current state; None if the state changed while it thought."""
        if self.robots is not None and live.rec.seats[seat].level == CONFIRME:
            version = live.rec.version
            action = await self.robots.confirme(live.game, live, seat)
            if live.rec.version != version or seat not in self.bot_seats(live):
                return None
            if action is not None and action in live.legal(seat):
                return action
        return self.bot_policy(live.game, live.state, seat)

    async def _bot_retry(self, live: LiveTable) -> None:
        self.schedule_bot(live)
