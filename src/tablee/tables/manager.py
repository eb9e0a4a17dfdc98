"""Live tables: seats, lifecycle, the action pipeline, timers, bots and the fan-out of views.

Every change to a table runs under that table's ``asyncio.Lock`` (with several processes, also
under the table's write lock in the database, on an up-to-date copy: ``cluster.py``):

    auth -> load -> check -> apply -> persist (one transaction) -> tell

Nothing is told (ack, states) before the store has committed, so nothing acknowledged is ever lost;
the in-memory table is replaced only after the commit, so a failed write changes nothing. Each
subscriber gets the view of its own seat (``game.view``) and the events its seat may see
(``visible_events``), never anything else from the state.

Versions: a table's version goes up by one on every accepted action and on every seat or lifecycle
change (join, leave, start, rematch), and every change is pushed to the subscribers, so a client
that sees a gap knows it missed something and asks for a ``sync``.

Timers: ``turn_seconds`` per decision. Whenever the seats to act change, or a seat to act moves and
is still to act (a contest, then its play), the deadline becomes now + ``turn_seconds``; it is
stored with the table, so it survives a restart. When it passes, the table plays ``auto_action``
for each seat still to act (logged with source ``timer``, and told with an ``auto`` event before
the move's own events); if the same seats are still to act afterwards (e.g. a draw, then play or
pass), the deadline has already passed and the table goes on at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from tablee import bots
from tablee.engine import (
    FIRST_DEALER,
    Action,
    Event,
    Game,
    IllegalAction,
    InvalidOptions,
    UnknownGame,
    first_dealer,
    visible_events,
)
from tablee.games import get_game
from tablee.logs import log_context
from tablee.protocol import ErrorCode, dumps
from tablee.store import StaleVersion, Store
from tablee.store.cluster import Claims

from .broker import Broker, LocalBroker
from .errors import Superseded, TableError
from .records import (
    BOT,
    EMPTY,
    FINISHED,
    PLAYER,
    PLAYING,
    WAITING,
    LoggedAction,
    NewTable,
    PlayerRecord,
    SeatRecord,
    TableRecord,
)

log = logging.getLogger("tablee.tables")

MIN_TURN_SECONDS = 0.05
MAX_TURN_SECONDS = 86_400.0
#: retries of a change that lost a race with another process
RETRIES = 5
#: a timer or bot move the store could not save is tried again after this
RETRY_SECONDS = 1.0

BotPolicy = Callable[[Game, Any, int], Action]
#: called after every accepted move: (table, seat, action, source, seconds from the move's arrival
#: to its commit); metrics and logs hang here
MoveHook = Callable[["LiveTable", int, Any, str, float], None]


class Subscriber(Protocol):
    """A connection that receives a table's states. ``send`` must not block (it queues)."""

    @property
    def player_id(self) -> int | None: ...

    def send(self, text: str) -> None: ...


def utcnow() -> datetime:
    return datetime.now(UTC)


class LiveTable:
    """A table held in memory: its record, its game state, its subscribers and its tasks."""

    def __init__(self, rec: TableRecord, game: Game, state: Any, seq: int) -> None:
        self.rec = rec
        self.game = game
        self.state = state
        #: actions in the current game's log
        self.seq = seq
        self.lock = asyncio.Lock()
        self.subscribers: dict[Subscriber, None] = {}
        #: live subscriptions per player (several tabs are fine)
        self.presence: Counter[int] = Counter()
        self.timer: asyncio.TimerHandle | None = None
        self.bot_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> int:
        return self.rec.id

    def to_act(self) -> tuple[int, ...]:
        if self.state is None or self.rec.status != PLAYING:
            return ()
        return tuple(self.game.to_act(self.state))


class TableManager:
    def __init__(
        self,
        store: Store,
        broker: Broker | None = None,
        bot_delay: float = 0.5,
        bot_policy: BotPolicy = bots.play,
        claims: Claims | None = None,
    ) -> None:
        self.store = store
        #: other processes may write the same tables: check the stored version before a change
        self.shared = claims is not None or (
            broker is not None and not isinstance(broker, LocalBroker)
        )
        #: several processes on PostgreSQL (``cluster.py``): the writers of a table queue on its
        #: write lock in the database, and one process at a time makes its timer and bot moves
        self.claims = claims
        self.broker: Broker = broker or LocalBroker()
        self.bot_delay = bot_delay
        self.bot_policy = bot_policy
        self._tables: dict[int, LiveTable] = {}
        self._loading: dict[int, asyncio.Future[LiveTable | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False
        #: accepted moves since start-up (metrics, benchmarks)
        self.moves = 0
        self.move_hooks: list[MoveHook] = []
        #: called with the id of a player banned by an admin of another process (the app closes
        #: that player's sockets here)
        self.ban_hooks: list[Callable[[int], object]] = []
        #: the players with a socket open on this process (the app sets it)
        self.connected_players: Callable[[], Iterable[int]] = tuple

    # -- start-up and shut-down ------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table from its log and re-arm its timer and bots."""
        for table_id in await self.store.unfinished_table_ids():
            try:
                await self.get(table_id)
            except Exception:  # one corrupt table must not keep the others down
                log.exception("table %s could not be restored", table_id, extra={"table": table_id})
        await self.broker.start(self._on_published)

    async def close(self) -> None:
        self._closed = True
        for live in self._tables.values():
            self._disarm(live)
            if live.bot_task is not None:
                live.bot_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await self.broker.close()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- loading ---------------------------------------------------------------------------------

    def cached(self, table_id: int) -> LiveTable | None:
        return self._tables.get(table_id)

    def live_tables(self) -> list[LiveTable]:
        """The tables this process holds in memory."""
        return list(self._tables.values())

    async def get(self, table_id: int) -> LiveTable:
        live = self._tables.get(table_id)
        if live is not None:
            return live
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                live = await self._load(table_id)
                if live is not None:
                    self._tables[table_id] = live
                    self._arm(live)
                    self._schedule_bot(live)
                pending.set_result(live)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[table_id]
        else:
            live = await asyncio.shield(pending)
        if live is None:
            raise TableError(ErrorCode.UNKNOWN_TABLE, f"there is no table {table_id}")
        return live

    async def _load(self, table_id: int) -> LiveTable | None:
        rec = await self.store.table(table_id)
        if rec is None:
            return None
        game = get_game(rec.game)
        if rec.status == WAITING:
            return LiveTable(rec, game, None, 0)
        state, seq, _ = await self._rebuild(rec, game)
        return LiveTable(rec, game, state, seq)

    async def _rebuild(self, rec: TableRecord, game: Game) -> tuple[Any, int, list[Event]]:
        """The state of the table's current game at ``rec``'s version, replayed from the start.

        The row and the log are two reads: another process may commit moves in between, and those
        are left out (they belong to a newer row; the next reload takes them)."""
        rows = await self.store.actions(rec.id, rec.game_no, upto=rec.version)
        return _replay(rec, game, None, 0, rows)

    async def _reload(self, live: LiveTable) -> list[Event]:
        """Catch up with changes another process wrote: the table's row, and only the log rows
        after those this copy holds, up to the row's version. Returns their events."""
        same_game = live.state is not None and live.rec.status != WAITING
        rec, rows = await self.store.catch_up(live.rec, live.seq if same_game else 0)
        if rec is None or rec.version == live.rec.version:
            return []
        events: list[Event] = []
        if rec.status == WAITING:
            state, seq = None, 0
        elif rec.game_no == live.rec.game_no and same_game:
            state, seq, events = _replay(rec, live.game, live.state, live.seq, rows)
        else:
            state, seq, _ = _replay(rec, live.game, None, 0, rows)
        live.rec, live.state, live.seq = rec, state, seq
        return events

    async def _fresh(self, live: LiveTable) -> bool:
        """The "load" step of a change: with other writers around, catch up with the store first
        (under the table's lock). Alone, memory is always current. True if it was behind."""
        if not self.shared:
            return False
        before = live.rec.version
        events = await self._reload(live)
        if live.rec.version == before:
            return False
        self._after_change(live, events)
        return True

    @contextlib.asynccontextmanager
    async def _locked(self, live: LiveTable) -> AsyncIterator[None]:
        """The table's lock, to change it, on an up-to-date copy. Several processes on
        PostgreSQL: also the table's write lock in the database (the writers of every process
        queue there, first come first served), under which the copy is reloaded only if the
        stored version moved."""
        async with live.lock:
            if self.claims is None:
                await self._fresh(live)
                yield
                return
            async with self.claims.writing(live.id) as version:
                if version is None or version != live.rec.version:
                    await self._fresh(live)
                yield

    @contextlib.asynccontextmanager
    async def _automatic(self, live: LiveTable) -> AsyncIterator[bool]:
        """``_locked``, for a move the table makes itself (timer, bot). Several processes: only
        the process holding the table's claim makes it; the others get False, and skip it."""
        if self.claims is None:
            async with self._locked(live):
                yield True
            return
        async with self.claims.hold(live.id) as mine:
            if not mine:
                yield False
                return
            async with self._locked(live):
                yield True

    async def _on_published(self, table_id: int, version: int) -> None:
        live = self._tables.get(table_id)
        if live is None and (pending := self._loading.get(table_id)) is not None:
            # loaded from the database while this version was on its way: maybe without it
            with contextlib.suppress(Exception):
                live = await asyncio.shield(pending)
        if live is None or version <= live.rec.version:
            return
        async with live.lock:
            if version <= live.rec.version:
                return
            events = await self._reload(live)
            self._after_change(live, events)

    async def share_ban(self, player_id: int) -> None:
        """An admin of this process banned the player (and closed their sockets here): tell the
        other processes. Alone, there are none."""

    def _banned_elsewhere(self, player_ids: Iterable[int]) -> None:
        for player_id in player_ids:
            for hook in self.ban_hooks:
                try:
                    hook(player_id)
                except Exception:
                    log.exception("a ban hook failed for player %s", player_id)

    # -- creating and seating --------------------------------------------------------------------

    async def create_table(
        self,
        creator: PlayerRecord | None,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        turn_seconds: float | None = None,
        bots: Iterable[int] = (),
        private: bool = False,
        *,
        seed: int | None = None,
        deck: list[str] | None = None,
    ) -> LiveTable:
        """A new table with the creator in the first seat that is not a bot; it starts at once
        when that fills it. ``seed`` and ``deck`` are for tests and replays only.

        Raises ``InvalidOptions`` naming the field at fault."""
        try:
            g = get_game(game)
        except UnknownGame as exc:
            raise InvalidOptions("game", str(exc)) from None
        if seed is None:
            seed = secrets.randbits(62)
        try:
            # checks the player count, then the options, then that the game deals with them
            g.new(players, options, seed=seed, deck=deck)
        except InvalidOptions:
            raise
        except ValueError as exc:
            raise InvalidOptions("deck" if deck is not None else "options", str(exc)) from None
        opts = g.normalize_options(options)
        bot_seats = _check_bots(bots, players)
        if turn_seconds is not None and not (MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS):
            raise InvalidOptions(
                "turn_seconds",
                f"must be null (no timer) or between {MIN_TURN_SECONDS} and"
                f" {MAX_TURN_SECONDS:g} seconds, got {turn_seconds}",
            )
        seats = [SeatRecord(i, BOT if i in bot_seats else EMPTY) for i in range(players)]
        if creator is not None:
            for s in seats:
                if s.kind == EMPTY:
                    s.kind, s.player_id = PLAYER, creator.id
                    break
        rec = await self.store.create_table(
            NewTable(
                game=g.name,
                options=opts,
                players=players,
                turn_seconds=turn_seconds,
                private=private,
                creator_id=creator.id if creator else None,
                seed=seed,
                seats=seats,
                deck=deck,
            )
        )
        live = LiveTable(rec, g, None, 0)
        self._tables[rec.id] = live
        if all(s.kind != EMPTY for s in rec.seats):
            async with self._locked(live):
                await self._change(live, _begin)
        return live

    async def join(self, player: PlayerRecord, table_id: int, seat: int | None = None) -> LiveTable:
        live = await self.get(table_id)

        def change(rec: TableRecord) -> list[Event]:
            _refuse_closed(rec)
            if rec.seat_of(player.id) is not None:
                raise TableError(ErrorCode.ALREADY_SEATED, "you already sit at this table")
            if rec.status == PLAYING:
                raise TableError(ErrorCode.TABLE_FULL, "the game has started; you may watch it")
            free = [s.seat for s in rec.seats if s.kind == EMPTY]
            if not free:
                raise TableError(ErrorCode.TABLE_FULL, "every seat of this table is taken")
            if seat is None:
                chosen = free[0]
            elif not isinstance(seat, int) or not 0 <= seat < rec.players:
                raise TableError(
                    ErrorCode.BAD_REQUEST,
                    f"there is no seat {seat} at this table",
                    ("body", "seat"),
                )
            elif seat not in free:
                raise TableError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
            else:
                chosen = seat
            rec.seats[chosen] = SeatRecord(chosen, PLAYER, player.id, player.name)
            events: list[Event] = [{"type": "player_joined", "seat": chosen, "name": player.name}]
            if rec.status == WAITING and all(s.kind != EMPTY for s in rec.seats):
                events += _begin(rec)
            return events

        async with self._locked(live):
            await self._change(live, change)
        return live

    async def leave(self, player: PlayerRecord, table_id: int) -> LiveTable:
        """Waiting or finished: the seat becomes free. Playing: a bot takes the seat."""
        live = await self.get(table_id)

        def change(rec: TableRecord) -> list[Event]:
            seat = rec.seat_of(player.id)
            if seat is None:
                raise TableError(ErrorCode.NOT_SEATED, "you do not sit at this table")
            kind = BOT if rec.status == PLAYING else EMPTY
            rec.seats[seat] = SeatRecord(seat, kind)
            rec.rematch_votes = [s for s in rec.rematch_votes if s != seat]
            return [{"type": "player_left", "seat": seat, "name": player.name, "replaced_by": kind}]

        async with self._locked(live):
            await self._change(live, change)
        return live

    async def start_table(
        self, player: PlayerRecord, table_id: int, fill_with_bots: bool = False
    ) -> LiveTable:
        live = await self.get(table_id)

        def change(rec: TableRecord) -> list[Event]:
            if rec.creator_id != player.id:
                raise TableError(ErrorCode.FORBIDDEN, "only the table's creator may start it")
            if rec.status != WAITING:
                raise TableError(ErrorCode.ALREADY_STARTED, "the game has already started")
            empty = [s.seat for s in rec.seats if s.kind == EMPTY]
            if empty and not fill_with_bots:
                raise TableError(
                    ErrorCode.SEATS_EMPTY,
                    f"seat(s) {', '.join(map(str, empty))} are empty: wait for players,"
                    " or start with fill_with_bots",
                )
            for s in empty:
                rec.seats[s] = SeatRecord(s, BOT)
            return _begin(rec)

        async with self._locked(live):
            await self._change(live, change)
        return live

    async def rematch(self, player: PlayerRecord, table_id: int) -> LiveTable:
        """A seated player's vote for a new game at the table; the game starts once every seated
        person has voted and no seat is empty. The new game has a new seed, and its first deal
        is dealt by the seat after the one that dealt the previous game's first deal (the
        ``first_dealer`` option, kept with the table's options)."""
        live = await self.get(table_id)

        def change(rec: TableRecord) -> list[Event]:
            seat = rec.seat_of(player.id)
            if seat is None:
                raise TableError(ErrorCode.NOT_SEATED, "you do not sit at this table")
            if rec.status != FINISHED:
                raise TableError(ErrorCode.NOT_FINISHED, "the game is not over yet")
            _refuse_closed(rec)
            if seat not in rec.rematch_votes:
                rec.rematch_votes = sorted([*rec.rematch_votes, seat])
            events: list[Event] = [{"type": "rematch_vote", "seat": seat}]
            humans = {s.seat for s in rec.seats if s.kind == PLAYER}
            if all(s.kind != EMPTY for s in rec.seats) and humans <= set(rec.rematch_votes):
                rec.game_no += 1
                rec.seed = secrets.randbits(62)
                rec.deck = None
                # the first deal moves on as every deal does: no seat keeps playing first
                dealer = (first_dealer(rec.players, rec.options) + 1) % rec.players
                rec.options = {**rec.options, FIRST_DEALER: dealer}
                rec.outcome = None
                rec.rematch_votes = []
                events += _begin(rec)
            return events

        async with self._locked(live):
            await self._change(live, change)
        return live

    async def _change(
        self,
        live: LiveTable,
        change: Callable[[TableRecord], list[Event]],
    ) -> None:
        """A seat or lifecycle change: applied to a copy, saved, then swapped in and told.
        Called under ``_locked``."""
        for _ in range(RETRIES):
            rec = _copy(live.rec)
            events = change(rec)
            rec.version += 1
            state, seq = live.state, live.seq
            if rec.status == PLAYING and (
                live.rec.status != PLAYING or rec.game_no != live.rec.game_no
            ):
                state, seq = (
                    live.game.new(rec.players, rec.options, seed=rec.seed, deck=rec.deck),
                    0,
                )
                to_act = tuple(live.game.to_act(state))
                rec.deadline = _deadline(rec, (), to_act, None)
            try:
                await self.store.save_table(rec, live.rec.version)
            except StaleVersion:
                self._after_change(live, await self._reload(live))
                continue
            live.rec, live.state, live.seq = rec, state, seq
            self._after_change(live, events)
            self._spawn(self.broker.publish(live.id, rec.version))
            return
        raise TableError(ErrorCode.CONFLICT, "the table is busy; try again")

    # -- moves -----------------------------------------------------------------------------------

    async def act(
        self,
        player: PlayerRecord,
        table_id: int,
        action: Any,
        on_accepted: Callable[[], None] | None = None,
    ) -> None:
        """A player's move. Raises ``TableError`` (with the protocol's code) when refused; calls
        ``on_accepted`` after the commit and before any state is sent."""
        started = time.perf_counter()
        live = await self.get(table_id)
        async with self._locked(live):
            seat = live.rec.seat_of(player.id)
            if seat is None:
                raise TableError(ErrorCode.NOT_SEATED, "you do not sit at this table")
            if live.rec.status == WAITING:
                raise TableError(ErrorCode.NOT_STARTED, "the game has not started yet")
            if live.rec.status == FINISHED:
                _refuse_closed(live.rec)
                raise TableError(ErrorCode.TABLE_OVER, "the game is over")
            await self._move(live, seat, action, "player", on_accepted, started)

    async def _move(
        self,
        live: LiveTable,
        seat: int,
        action: Any,
        source: str,
        on_accepted: Callable[[], None] | None = None,
        started: float | None = None,
    ) -> None:
        """check -> apply -> persist -> tell; under the table's lock."""
        with log_context(live.id, seat):
            await self._move_once(live, seat, action, source, on_accepted, started)

    async def _move_once(
        self,
        live: LiveTable,
        seat: int,
        action: Any,
        source: str,
        on_accepted: Callable[[], None] | None,
        started: float | None,
    ) -> None:
        if started is None:
            started = time.perf_counter()
        for _ in range(RETRIES):
            rec, state, game = live.rec, live.state, live.game
            try:
                new_state, events = game.apply(state, seat, action)
            except IllegalAction as exc:
                raise TableError.refused(exc) from None
            new = _copy(rec)
            new.version += 1
            seq = live.seq + 1
            now = utcnow()
            if game.is_over(new_state):
                new.status = FINISHED
                new.outcome = game.outcome(new_state) or {}
                new.deadline = None
                new.rematch_votes = []
                new.wins = list(rec.wins)
                for w in new.outcome.get("winners") or []:
                    if isinstance(w, int) and 0 <= w < len(new.wins):
                        new.wins[w] += 1
            else:
                before = tuple(game.to_act(state))
                after = tuple(game.to_act(new_state))
                # a seat that decided and has a new decision to make (a contest, then its play)
                # gets its time again; not after the table's own move, which goes on at once (a
                # draw, then play or pass), nor after a move that left its choices as they were
                # (a false "Carte !" accusation with nothing left to draw must not buy time)
                again = (
                    source != "timer"
                    and seat in before
                    and seat in after
                    and game.legal_actions(new_state, seat) != game.legal_actions(state, seat)
                )
                new.deadline = _deadline(new, before, after, rec.deadline, now, again)
            deal_events = [e for e in events if e.get("type") == "deal_end" and "to" not in e]
            try:
                await self.store.record_action(
                    new,
                    rec.version,
                    LoggedAction(seq, seat, action, source, now),
                    deal_events,
                    seats=False,
                )
            except StaleVersion:
                self._after_change(live, await self._reload(live))
                if live.rec.status != PLAYING:
                    raise TableError(ErrorCode.TABLE_OVER, "the game is over") from None
                if source != "player":
                    # chosen for a state that is gone: the caller decides again from the new one
                    raise Superseded from None
                continue
            live.rec, live.state, live.seq = new, new_state, seq
            self.moves += 1
            elapsed = time.perf_counter() - started
            for hook in self.move_hooks:
                try:
                    hook(live, seat, action, source, elapsed)
                except Exception:
                    log.exception("a move hook failed")
            if on_accepted is not None:
                on_accepted()
            self._after_change(live, _announced(new, seat, source, events))
            self._spawn(self.broker.publish(live.id, new.version))
            return
        raise TableError(ErrorCode.CONFLICT, "the table is busy; try again")

    def _after_change(self, live: LiveTable, events: list[Event]) -> None:
        self._broadcast(live, events)
        self._arm(live)
        self._schedule_bot(live)
        if live.rec.status == FINISHED and not live.subscribers:
            # after the lock is released
            asyncio.get_running_loop().call_soon(self._maybe_forget, live)

    # -- timers ----------------------------------------------------------------------------------

    def _disarm(self, live: LiveTable) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None

    def _arm(self, live: LiveTable) -> None:
        self._disarm(live)
        deadline = live.rec.deadline
        if self._closed or deadline is None or live.rec.status != PLAYING:
            return
        delay = max(0.0, (deadline - utcnow()).total_seconds())
        live.timer = asyncio.get_running_loop().call_later(
            delay, lambda: self._spawn(self._expire(live, deadline))
        )

    async def _expire(self, live: LiveTable, deadline: datetime) -> None:
        async with self._automatic(live) as mine:
            if not mine or live.rec.deadline != deadline or live.rec.status != PLAYING:
                return  # something moved in the meantime; the change re-armed the timer
            if utcnow() < deadline:
                self._arm(live)
                return
            moved = False
            for seat in live.to_act():
                if live.rec.status != PLAYING or seat not in live.to_act():
                    continue
                if not live.game.legal_actions(live.state, seat):
                    continue
                action = live.game.auto_action(live.state, seat)
                try:
                    await self._move(live, seat, action, "timer")
                    moved = True
                except Superseded:
                    return  # the new state's deadline is armed again
                except TableError as exc:
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
                    self._retry_later(live, lambda: self._expire(live, deadline))
                    return
            if not moved:
                log.error(
                    "table %s: deadline passed but no seat could move",
                    live.id,
                    extra={"table": live.id, "seat": None},
                )

    def _retry_later(self, live: LiveTable, again: Callable[[], Any]) -> None:
        if self._closed:
            return
        asyncio.get_running_loop().call_later(RETRY_SECONDS, lambda: self._spawn(again()))

    # -- bots ------------------------------------------------------------------------------------

    def _bot_seats(self, live: LiveTable) -> list[int]:
        if live.rec.status != PLAYING:
            return []
        return [s for s in live.to_act() if live.rec.seats[s].kind == BOT]

    def _schedule_bot(self, live: LiveTable) -> None:
        if self._closed or live.bot_task is not None or not self._bot_seats(live):
            return
        live.bot_task = self._spawn(self._bot_turn(live))

    async def _bot_turn(self, live: LiveTable) -> None:
        version = live.rec.version
        try:
            await asyncio.sleep(self.bot_delay)
            async with self._automatic(live) as mine:
                if self.claims is not None and live.rec.version != version:
                    mine = False  # it changed meanwhile: the bot thinks again from the new state
                for seat in self._bot_seats(live) if mine else []:
                    if seat not in self._bot_seats(live):
                        continue
                    if not live.game.legal_actions(live.state, seat):
                        continue
                    action = self.bot_policy(live.game, live.state, seat)
                    try:
                        await self._move(live, seat, action, "bot")
                    except Superseded:
                        break  # the new state gets its own turn
                    except TableError as exc:
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
                        self._retry_later(live, lambda: self._bot_retry(live))
                        return
        finally:
            live.bot_task = None
        self._schedule_bot(live)

    async def _bot_retry(self, live: LiveTable) -> None:
        self._schedule_bot(live)

    # -- subscribers -----------------------------------------------------------------------------

    async def subscribe(self, sub: Subscriber, table_id: int) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            await self._fresh(live)
            if sub not in live.subscribers:
                live.subscribers[sub] = None
                pid = sub.player_id
                if pid is not None:
                    live.presence[pid] += 1
                    if live.presence[pid] == 1 and live.rec.seat_of(pid) is not None:
                        # the seat's "connected" flag changed: tell the others
                        self._broadcast(live, [], exclude=sub)
            sub.send(self.state_text(live, self.seat_of(live, sub)))
        return live

    async def sync(self, sub: Subscriber, table_id: int) -> None:
        live = await self.get(table_id)
        if self.shared:  # a client that asks may have heard of a version we have not
            async with live.lock:
                await self._fresh(live)
        sub.send(self.state_text(live, self.seat_of(live, sub)))

    def unsubscribe(self, sub: Subscriber, table_id: int) -> bool:
        live = self._tables.get(table_id)
        if live is None or sub not in live.subscribers:
            return False
        del live.subscribers[sub]
        pid = sub.player_id
        if pid is not None:
            live.presence[pid] -= 1
            if live.presence[pid] <= 0:
                del live.presence[pid]
                if live.rec.seat_of(pid) is not None:
                    self._broadcast(live, [])
        self._maybe_forget(live)
        return True

    def _maybe_forget(self, live: LiveTable) -> None:
        """A finished table nobody watches leaves memory (the store keeps it; ``get`` would
        rebuild it). Not while a change holds it."""
        if (
            live.rec.status == FINISHED
            and not live.subscribers
            and not live.lock.locked()
            and live.bot_task is None
            and self._tables.get(live.id) is live
        ):
            self._disarm(live)
            del self._tables[live.id]

    def seat_of(self, live: LiveTable, sub: Subscriber) -> int | None:
        pid = sub.player_id
        return None if pid is None else live.rec.seat_of(pid)

    def _broadcast(
        self, live: LiveTable, events: list[Event], exclude: Subscriber | None = None
    ) -> None:
        if not live.subscribers:
            return
        texts: dict[int | None, str] = {}
        # ``info`` is the same for every seat and the last key of a state: encoded once, then
        # joined to each seat's own part (the same bytes as encoding the whole message)
        info = ',"info":' + dumps(self.info(live)) + "}"
        for sub in list(live.subscribers):
            if sub is exclude:
                continue
            seat = self.seat_of(live, sub)
            text = texts.get(seat)
            if text is None:
                own = dumps(self.state_message(live, seat, events, info=_NO_INFO))
                text = texts[seat] = own[: -len(_NO_INFO_TAIL)] + info
            sub.send(text)

    # -- what clients see ------------------------------------------------------------------------

    def state_text(self, live: LiveTable, seat: int | None, events: Iterable[Event] = ()) -> str:
        return dumps(self.state_message(live, seat, events))

    def state_message(
        self,
        live: LiveTable,
        seat: int | None,
        events: Iterable[Event] = (),
        info: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        rec, game, state = live.rec, live.game, live.state
        playing = state is not None and rec.status == PLAYING
        return {
            "type": "state",
            "table": rec.id,
            "version": rec.version,
            "view": None if state is None else game.view(state, seat),
            "legal": game.legal_actions(state, seat) if playing and seat is not None else [],
            "to_act": list(live.to_act()),
            "deadline": _iso(rec.deadline) if playing else None,
            "over": rec.status == FINISHED,
            "outcome": rec.outcome if rec.status == FINISHED else None,
            "events": visible_events(list(events), seat),
            "info": info if info is not None else self.info(live),
        }

    def info(self, live: LiveTable | TableRecord) -> dict[str, Any]:
        """A table's public description (lobby, REST, the ``info`` block of states)."""
        rec = live.rec if isinstance(live, LiveTable) else live
        present = live.presence if isinstance(live, LiveTable) else Counter()
        if not isinstance(live, LiveTable):
            cached = self._tables.get(rec.id)
            if cached is not None and cached.rec.version >= rec.version:
                rec, present = cached.rec, cached.presence
        game = get_game(rec.game)
        return {
            "id": rec.id,
            "game": rec.game,
            "title": game.title,
            "status": rec.status,
            "players": rec.players,
            "options": rec.options,
            "turn_seconds": rec.turn_seconds,
            "private": rec.private,
            "creator": None
            if rec.creator_id is None
            else {"id": rec.creator_id, "name": rec.creator_name},
            "game_no": rec.game_no,
            "version": rec.version,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "player_id": s.player_id,
                    "name": s.name if s.kind == PLAYER else None,
                    "connected": s.kind == PLAYER and present.get(s.player_id or 0, 0) > 0,
                }
                for s in rec.seats
            ],
            "free_seats": [s.seat for s in rec.seats if s.kind == EMPTY],
            "deadline": _iso(rec.deadline),
            "rematch_votes": list(rec.rematch_votes),
            "wins": list(rec.wins),
            "created_at": _iso(rec.created_at),
        }


#: a placeholder for ``info`` in a state message whose info is joined to it as text
_NO_INFO: dict[str, Any] = {}
_NO_INFO_TAIL = ',"info":{}}'


def _replay(
    rec: TableRecord, game: Game, state: Any, after: int, rows: Iterable[LoggedAction]
) -> tuple[Any, int, list[Event]]:
    """``state`` (at ``after`` actions; None: a new deal) with the logged ``rows`` applied: the
    new state, its action count, and the events of the rows."""
    if state is None:
        state, after = game.new(rec.players, rec.options, seed=rec.seed, deck=rec.deck), 0
    events: list[Event] = []
    seq = after
    for row in rows:
        state, evs = game.apply(state, row.seat, row.action)
        events.extend(_announced(rec, row.seat, row.source, evs))
        seq = row.seq
    return state, seq, events


def _copy(rec: TableRecord) -> TableRecord:
    return dataclasses.replace(
        rec,
        seats=[dataclasses.replace(s) for s in rec.seats],
        wins=list(rec.wins),
        rematch_votes=list(rec.rematch_votes),
    )


def closed_reason(rec: TableRecord) -> str | None:
    """Why an admin closed the table (it stays over for good); None when it was not closed."""
    outcome = rec.outcome or {}
    if rec.status != FINISHED or not outcome.get("closed"):
        return None
    return str(outcome.get("reason") or "no reason given")


def _refuse_closed(rec: TableRecord) -> None:
    reason = closed_reason(rec)
    if reason is not None:
        raise TableError(ErrorCode.TABLE_OVER, f"an admin closed this table: {reason}")


def _announced(rec: TableRecord, seat: int, source: str, events: list[Event]) -> list[Event]:
    """A move's events, told after an ``auto`` event when the table moved for a person whose
    time ran out: the game's own events read the same whoever chose the move, and the players
    must be able to tell that nobody at that seat did. (A bot's seat whose time ran out is no
    news: a bot's moves are the table's anyway.)"""
    if source != "timer" or rec.seats[seat].kind != PLAYER:
        return events
    return [{"type": "auto", "seat": seat, "source": source}, *events]


def _begin(rec: TableRecord) -> list[Event]:
    """Marks the record as playing a new game (the caller builds the state)."""
    rec.status = PLAYING
    rec.outcome = None
    return [{"type": "game_started", "game_no": rec.game_no}]


def _deadline(
    rec: TableRecord,
    before: tuple[int, ...],
    after: tuple[int, ...],
    current: datetime | None,
    now: datetime | None = None,
    renew: bool = False,
) -> datetime | None:
    if rec.turn_seconds is None or not after:
        return None
    if current is None or renew or set(before) != set(after):
        return (now or utcnow()) + timedelta(seconds=rec.turn_seconds)
    return current


def _check_bots(bots: Iterable[int], players: int) -> set[int]:
    out: set[int] = set()
    for b in bots:
        if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b < players:
            raise InvalidOptions("bots", f"seats are numbered 0 to {players - 1}, not {b!r}")
        if b in out:
            raise InvalidOptions("bots", f"seat {b} is listed twice")
        out.add(b)
    return out


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()
