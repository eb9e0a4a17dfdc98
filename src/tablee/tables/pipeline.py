"""The one path of every change of a table — a player's move, a timer's or a bot's, a seat
change, a start, a rematch, an admin's action:

    lock -> fresh state -> decide -> persist (one transaction) -> tell

- lock: the coordination's ``writing`` turn (the table's ``asyncio.Lock``; with several
  processes, the moves are made at the table's home, whose writes carry its fencing token);
- fresh state: away from the home (a seat change), the copy catches up with the store first;
- decide: a ``Decision`` (``changes.py``) reads the live table and returns the ``Change`` (the
  next record, state, events, log row), or refuses with ``TableError`` and nothing changes;
- persist: the store writes the change if the table is still at the version it was decided on
  (``StaleVersion`` otherwise, having written nothing: the copy catches up and the decision is
  made again on the fresh state; a move the table chose itself is dropped instead, as
  ``Superseded``, for its caller to choose again);
- tell: the change is swapped into memory, then the ack (``on_accepted``), every subscriber's
  state, the timer and the bots, and the other processes (the coordination's ``published``).

Nothing is told before the store has committed, so nothing acknowledged is ever lost; the
in-memory table is replaced only after the commit, so a failed write changes nothing.

Versions: a table's version goes up by one on every accepted action and on every seat or lifecycle
change, and every change is pushed to the subscribers, so a client that sees a gap knows it missed
something and asks for a ``sync``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablee.engine import Event
from tablee.protocol import ErrorCode
from tablee.store import StaleVersion, Store, Unreachable

from .changes import Change, Decision, away_news, replay
from .errors import NotHome, Superseded, TableError
from .live import LiveTable
from .records import FINISHED, WAITING

if TYPE_CHECKING:
    from .coordination import Coordination
    from .fanout import FanOut
    from .scheduler import Scheduler

log = logging.getLogger("tablee.tables")

#: retries of a change that lost a race with another process
RETRIES = 5

#: called after every accepted move: (table, seat, action, source, seconds from the move's arrival
#: to its commit); metrics and logs hang here
MoveHook = Callable[[LiveTable, int, Any, str, float], None]


class Pipeline:
    def __init__(
        self,
        store: Store,
        coordination: Coordination,
        fanout: FanOut,
        scheduler: Scheduler,
        forget_soon: Callable[[LiveTable], object],
    ) -> None:
        self.store = store
        self.coordination = coordination
        self.fanout = fanout
        self.scheduler = scheduler
        self.forget_soon = forget_soon
        #: accepted moves since start-up (metrics, benchmarks)
        self.moves = 0
        #: copies brought up to date from the store (log rows replayed) since start-up
        self.catch_ups = 0
        self.move_hooks: list[MoveHook] = []
        #: called after every change told to the subscribers (made here or caught up with): the
        #: chat hands the players the spectators' messages of a deal that ended
        self.tell_hooks: list[Callable[[LiveTable], None]] = []

    async def commit(
        self,
        live: LiveTable,
        decision: Decision,
        *,
        retry: bool = True,
        on_accepted: Callable[[], None] | None = None,
        started: float | None = None,
    ) -> Change:
        """The change ``decision`` makes, committed and told; raises ``TableError`` when refused
        (``Superseded`` when ``retry`` is off and another process wrote first)."""
        async with self.coordination.writing(live):
            return await self.commit_held(
                live, decision, retry=retry, on_accepted=on_accepted, started=started
            )

    async def commit_held(
        self,
        live: LiveTable,
        decision: Decision,
        *,
        retry: bool = True,
        on_accepted: Callable[[], None] | None = None,
        started: float | None = None,
    ) -> Change:
        """``commit``, for a caller that holds the table's turn already (a timer or bot turn
        making several moves)."""
        if started is None:
            started = time.perf_counter()
        for _ in range(RETRIES):
            change = decision(live)
            if change.move is not None and not self.coordination.leads(live):
                # moves are the home's (it lost the table to another process meanwhile)
                raise Superseded if not retry else NotHome
            fence = self.coordination.fence(live)
            try:
                if change.move is not None:
                    await self.store.record_action(
                        change.rec,
                        live.rec.version,
                        change.move,
                        change.deal_events,
                        seats=False,
                        fence=fence,
                    )
                else:
                    # an edit's record has seats of its own, often the same ones (a rematch vote,
                    # a timer changed): their rows are written only when they changed
                    seats = change.rec.seats != live.rec.seats
                    await self.store.save_table(change.rec, live.rec.version, seats, fence)
            except StaleVersion:
                await self.catch_up(live)
                if not retry:
                    # chosen for a state that is gone: the caller decides again from the new one
                    raise Superseded from None
                continue
            except Unreachable:
                # not acknowledged, perhaps written: the same act sent again is answered as it
                # was if it was (its key, read back by the catch-up its version forces)
                raise TableError(
                    ErrorCode.CONFLICT,
                    "the table's database did not answer; try again (a move sent again with"
                    " its id is made once)",
                ) from None
            live.advance(change.rec, change.state, change.seq, change.to_act, change.legal)
            if change.move is not None:
                live.remember(change.move.request, change.rec.version)
                live.history += change.events
                live.log_move(change.move.seat, change.move.action)
                self._moved(live, change, time.perf_counter() - started)
            if on_accepted is not None:
                on_accepted()
            self.tell(live, change.events)
            self.coordination.published(live)
            return change
        raise TableError(ErrorCode.CONFLICT, "the table is busy; try again")

    def _moved(self, live: LiveTable, change: Change, elapsed: float) -> None:
        assert change.move is not None
        self.moves += 1
        seat, action, source = change.move.seat, change.move.action, change.move.source
        for hook in self.move_hooks:
            try:
                hook(live, seat, action, source, elapsed)
            except Exception:
                log.exception("a move hook failed")

    def tell(self, live: LiveTable, events: list[Event], show: bool = True) -> None:
        """After a change (made here or caught up with): the subscribers' states, the timer and
        the bots, and a finished table nobody watches leaves memory. Only what the subscribers
        were not shown is told (away from the table's home, its frames bring them the rest);
        nothing, if not ``show``."""
        if show and live.rec.version > live.shown:
            if live.untold:
                events, live.untold = live.untold + events, []
            self.fanout.tell(live, events)
        for hook in self.tell_hooks:
            try:
                hook(live)
            except Exception:
                log.exception("a tell hook failed")
        self.scheduler.rearm(live)
        self.coordination.changed(live)
        if live.rec.status == FINISHED and not live.subscribers:
            # after the lock is released
            asyncio.get_running_loop().call_soon(self.forget_soon, live)

    # -- catching up -----------------------------------------------------------------------------

    async def catch_up(self, live: LiveTable, relayed: bool = False) -> bool:
        """Under the table's lock: catch up with what other processes wrote, and tell it. True if
        the copy was behind.

        ``relayed``: the table's home relays its frames here. Its moves read before their frames
        came are not told (they would reach the subscribers here as one state, the versions
        between missing, and then their frames, too late): the frames still tell them, and a
        subscriber sent this copy is not sent the frames it holds (``FanOut.sent_copy``). If
        they never come, a catch-up without ``relayed`` (the poller's, for frames lost) tells
        them."""
        before = live.rec.version
        events, moves_only = await self.reload(live)
        if live.rec.version == before:
            if not relayed and live.rec.version > live.shown:
                self.tell(live, [])  # the moves read ahead of frames that never came
            return False
        self.catch_ups += 1
        if relayed and moves_only and live.subscribers:  # (frames come only if some watch)
            live.untold += events
            self.tell(live, events, show=False)
        else:
            self.tell(live, events)
        return True

    async def reload(self, live: LiveTable) -> tuple[list[Event], bool]:
        """The table's row, and only the log rows after those this copy holds, up to the row's
        version (a move committed between the two reads waits for the next catch-up: applied on
        the older row, it would run the state ahead of the version clients see). Returns their
        events, and whether every version read past those the subscribers here were shown is a
        move of the same game (nothing else changed)."""
        same_game = live.state is not None and live.rec.status != WAITING
        rec, rows = await self.store.catch_up(live.rec, live.seq if same_game else 0)
        if rec is None or rec.version == live.rec.version:
            return [], False
        moves_only = False
        events: list[Event] = []
        history: list[Event] = []
        if rec.status == WAITING:
            state, seq = None, 0
        elif rec.game_no == live.rec.game_no and same_game:
            # the moves the subscribers here were shown already (relayed from the table's home)
            # are not told again
            seen = [row for row in rows if row.version <= live.shown]
            state, seq, history = replay(rec, live.game, live.state, live.seq, seen)
            state, seq, events = replay(rec, live.game, state, seq, rows[len(seen) :])
            moves_only = [row.version for row in rows[len(seen) :]] == list(
                range(max(live.shown, live.rec.version) + 1, rec.version + 1)
            )
            history = history + events
            live.remember_rows(rows)
        else:
            state, seq, history = replay(rec, live.game, None, 0, rows)
            live.remember_rows(rows)
        told = away_news(live.rec, rec)
        live.advance(rec, state, seq)
        live.history += history
        if state is not None:
            live.log_rows(rows)
        return events + told, moves_only and not told
