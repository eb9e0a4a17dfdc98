"""The table manager: the live tables of this process and the operations on them.

It holds the tables in memory (loading one from the store on first use, replaying its log) and
offers the operations the app calls — create, join, leave, start, rematch, act, edit (the
admin's), subscribe, sync, unsubscribe — each a few lines over its parts:

- ``pipeline.py``: the one commit path of every change (lock, fresh state, decide, persist, tell);
- ``changes.py``, ``seats.py``: the decisions (a move; the seat and lifecycle rules);
- ``scheduler.py``: the timers and bots;
- ``fanout.py``: the subscribers, presence and per-seat states;
- ``coordination.py`` / ``cluster.py``: how processes sharing the database take turns (one
  strategy object: ``Alone`` or ``Cluster``).

docs/architecture.md follows one move through them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping
from datetime import timedelta
from typing import Any

from tablee import bots
from tablee.engine import Event, InvalidOptions, UnknownGame
from tablee.fairness import SALT_BYTES, spectator_mode
from tablee.games import get_game
from tablee.logs import log_context
from tablee.protocol import ErrorCode
from tablee.store import Store

from .broker import Broker
from .changes import Change, Edit, begin, closed_reason, edit, player_move, replay
from .coordination import Alone, Coordination
from .errors import NotHome, Repeated, TableError, unknown_table
from .fanout import FanOut, Frames
from .live import LiveTable, Subscriber, request_key, utcnow
from .periodic import Periodic
from .pipeline import MoveHook, Pipeline
from .records import (
    DEFAULT_ROBOT_AFTER,
    EMPTY,
    FINISHED,
    TIMEOUT,
    WAITING,
    LoggedAction,
    NewTable,
    PlayerRecord,
    TableRecord,
)
from .robots import Robots
from .scheduler import BotPolicy, Scheduler
from .seats import (
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    check_robot_after,
    check_turn_seconds,
    expire,
    first_seats,
    join,
    leave,
    rematch,
    start,
    take_back,
)

log = logging.getLogger("tablee.tables")

#: processes a player's move may be sent through before it is refused as ``conflict`` (the
#: table changed hands while it travelled)
MAX_HOPS = 3

__all__ = [
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "LiveTable",
    "MoveHook",
    "Subscriber",
    "TableManager",
    "closed_reason",
    "utcnow",
]


class TableManager:
    def __init__(
        self,
        store: Store,
        broker: Broker | None = None,
        bot_delay: float = 0.5,
        bot_policy: BotPolicy = bots.play,
        coordination: Coordination | None = None,
        robots: Robots | None = None,
        waiting_ttl: float = 0.0,
    ) -> None:
        if coordination is not None and broker is not None:
            raise ValueError("a coordination brings its own broker")
        self.store = store
        self.coordination = coordination or Alone(broker)
        self._tables: dict[int, LiveTable] = {}
        self._loading: dict[int, asyncio.Future[LiveTable | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.fanout = FanOut(self.cached, self.coordination.remote_players)
        self.fanout.leads = self.coordination.leads
        self.fanout.watchers = self.coordination.watchers
        self.fanout.relay = self.coordination.relay
        #: where confirmé robots think (None: they play as débutants)
        self.robots = robots
        self.scheduler = Scheduler(self.coordination, self.spawn, bot_delay, bot_policy, robots)
        self.pipeline = Pipeline(store, self.coordination, self.fanout, self.scheduler, self.forget)
        self.scheduler.commit_held = self.pipeline.commit_held
        #: called with the id of a player banned by an admin of another process (the app closes
        #: that player's sockets here)
        self.ban_hooks: list[Callable[[int], object]] = []
        #: called with the id of a player who logged out everywhere through another process (the
        #: app closes that player's sockets here)
        self.logout_hooks: list[Callable[[int], object]] = []
        #: called with what another process announced of the chat (a message, a deletion, a
        #: mute): the chat pushes it to the sockets here
        self.chat_hooks: list[Callable[[dict[str, Any]], object]] = []
        #: whether something here follows a table change by change (its ``tell_hooks`` must
        #: see every change): away from the table's home, its copy then catches up on every
        #: change relayed (the chat, while it holds spectators' messages back from the players)
        self.follow_hooks: list[Callable[[LiveTable], bool]] = []
        #: the players with a socket open on this process (the app sets it)
        self.connected_players: Callable[[], Iterable[int]] = tuple
        #: seconds a waiting table nobody joined stays open (0: for ever)
        self.waiting_ttl = waiting_ttl
        # often enough that a table outlives its time by a quarter of it at most, at most once
        # a minute
        every = min(60.0, max(0.05, waiting_ttl / 4))
        self._sweeper = Periodic(
            functools.partial(self.expire_waiting, waiting_ttl),
            every,
            "the sweep of waiting tables failed; trying again",
            first=every,
        )
        self.coordination.bind(self)

    @property
    def shared(self) -> bool:
        """Other processes may write these tables: changes and reads catch up first."""
        return self.coordination.shared

    @property
    def moves(self) -> int:
        """Accepted moves since start-up (metrics, benchmarks)."""
        return self.pipeline.moves

    @property
    def move_hooks(self) -> list[MoveHook]:
        return self.pipeline.move_hooks

    @property
    def bot_delay(self) -> float:
        return self.scheduler.bot_delay

    # -- start-up and shut-down ------------------------------------------------------------------

    async def start(self) -> None:
        await self.coordination.start()
        if self.waiting_ttl:
            self._sweeper.start()

    async def expire_waiting(self, ttl: float, batch: int = 200) -> list[int]:
        """Closes the waiting tables nobody but their creator sat at for ``ttl`` seconds
        (``seats.expire``), at most ``batch`` of them; returns their ids. Each is an edit
        through the pipeline, so subscribers and other processes are told; with several
        processes sweeping, the second edit of a table finds it over and changes nothing."""
        before = utcnow() - timedelta(seconds=ttl)
        closed = []
        for table_id in await self.store.stale_waiting_tables(before, batch):
            try:
                live = await self.edit(table_id, expire())
            except TableError:
                continue  # someone sat down, it started, or another process closed it
            closed.append(table_id)
            self.forget(live)
            log.info("waiting table expired", extra={"table": table_id, "seat": None})
        return closed

    async def close(self) -> None:
        await self._sweeper.stop()
        self.scheduler.closed = True
        for live in self._tables.values():
            self.scheduler.stop(live)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if self.robots is not None:
            self.robots.close()
        await self.coordination.close()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- the tables in memory --------------------------------------------------------------------

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
                    self.scheduler.rearm(live)
                pending.set_result(live)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[table_id]
        else:
            live = await asyncio.shield(pending)
        if live is None:
            raise unknown_table(table_id)
        return live

    async def current(self, table_id: int) -> LiveTable:
        """The table as stored now, for a read off the hot path (REST, a subscription): a copy
        held away from the table's home catches up first (the home's frames went to the
        sockets, not to the copy)."""
        live = await self.get(table_id)
        await self.coordination.reading(live)
        return live

    async def visible(
        self, table_id: int, player_id: int | None, invitation: str | None = None
    ) -> LiveTable:
        """The table, if this viewer may know of it (a private one: seated there, its creator,
        or bringing its invitation code); otherwise the answer of a table that does not exist."""
        live = await self.current(table_id)
        if not live.rec.admits(player_id, invitation):
            raise unknown_table(table_id)
        return live

    async def load_unfinished(self) -> None:
        """Rebuild every table in play from its log and re-arm its timer and bots. The rows come
        in bulk; waiting tables, which have neither timer nor bot, are left to ``get`` (their
        first use): a restart takes no longer for any number of them."""
        for rec in await self.store.tables_in_play():
            if rec.id in self._tables or rec.id in self._loading:
                continue
            try:
                live = await self._load(rec.id, rec)
            except Exception:  # one corrupt table must not keep the others down
                log.exception("table %s could not be restored", rec.id, extra={"table": rec.id})
                continue
            if live is not None and rec.id not in self._tables:
                self._tables[rec.id] = live
                self.scheduler.rearm(live)

    async def _load(self, table_id: int, rec: TableRecord | None = None) -> LiveTable | None:
        """The table at its stored version: the row (``rec``, if it was just read), then the
        current game's log up to that version (moves committed between the two reads belong to
        a newer row; the next catch-up takes them)."""
        rows: list[LoggedAction] | None = None
        if rec is None:
            rec, rows = await self.store.table_with_actions(table_id)
        if rec is None:
            return None
        game = get_game(rec.game)
        if rec.status == WAITING:
            live = LiveTable(rec, game, None, 0)
        else:
            if rows is None:
                rows = await self.store.actions(rec.id, rec.game_no, upto=rec.version)
            state, seq, history = replay(rec, game, None, 0, rows)
            live = LiveTable(rec, game, state, seq)
            live.remember_rows(rows)
            live.history = history
            live.log_rows(rows)
        await self.coordination.loaded(live)
        return live

    def forget(self, live: LiveTable, *, finished_only: bool = True) -> bool:
        """The table leaves memory (the store keeps it; ``get`` would rebuild it) when nobody
        watches it here and no change or bot holds it; by default only a finished one."""
        if (
            (finished_only and live.rec.status != FINISHED)
            or live.subscribers
            or live.lock.locked()
            or live.bot_task is not None
            or self._tables.get(live.id) is not live
        ):
            return False
        self.scheduler.disarm(live)
        del self._tables[live.id]
        return True

    async def catch_up(self, live: LiveTable, relayed: bool = False) -> bool:
        """Under the table's lock: the copy catches up with the store, and its subscribers are
        told (``relayed``: but the home's moves, whose frames come here). True if it was
        behind."""
        return await self.pipeline.catch_up(live, relayed)

    async def heard(self, table_id: int, version: int) -> None:
        """Another process committed ``version`` of the table: catch up if it is held here."""
        live = self._tables.get(table_id)
        if live is None and (pending := self._loading.get(table_id)) is not None:
            # loaded from the database while this version was on its way: maybe without it
            with contextlib.suppress(Exception):
                live = await asyncio.shield(pending)
        if live is None or version <= live.rec.version:
            return
        async with live.lock:
            if version > live.rec.version:
                await self.pipeline.catch_up(live)

    def retell(self, live: LiveTable) -> None:
        """Every subscriber's state again, with no event (the seats' flags changed); a table
        paused while nobody was there goes on if its person came back elsewhere. Told by the
        table's home (to every process's subscribers)."""
        if self.coordination.leads(live):
            self.fanout.tell(live, [])
            self.scheduler.rearm(live)

    def relayed(self, live: LiveTable, frames: Frames) -> None:
        """The frames of a change made by the table's home, another process: passed on to the
        subscribers here (``FanOut.relayed``). A table something here follows change by change
        (``follow_hooks``) has its copy brought up to date too, off the frames' way."""
        self.fanout.relayed(live, frames)
        if frames.version > live.rec.version and any(wants(live) for wants in self.follow_hooks):
            self.spawn(self._follow(live))

    async def _follow(self, live: LiveTable) -> None:
        async with live.lock:
            await self.pipeline.catch_up(live, relayed=True)

    def banned_elsewhere(self, player_ids: Iterable[int]) -> None:
        for player_id in player_ids:
            for hook in self.ban_hooks:
                try:
                    hook(player_id)
                except Exception:
                    log.exception("a ban hook failed for player %s", player_id)

    def chat_heard(self, event: dict[str, Any]) -> None:
        for hook in self.chat_hooks:
            try:
                hook(event)
            except Exception:
                log.exception("a chat announcement could not be handled")

    def logged_out_elsewhere(self, player_id: int) -> None:
        for hook in self.logout_hooks:
            try:
                hook(player_id)
            except Exception:
                log.exception("a logout hook failed for player %s", player_id)

    async def share_logout(self, player_id: int) -> None:
        """The player logged out everywhere through this process (its sockets here are closed):
        tell the other processes, as for a ban."""
        await self.coordination.share_logout(player_id)

    async def share_ban(self, player_id: int) -> None:
        """An admin of this process banned the player (and closed their sockets here): tell the
        other processes."""
        await self.coordination.share_ban(player_id)

    # -- operations ------------------------------------------------------------------------------

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
        rated: bool | None = None,
        bot_levels: Mapping[int, str] | None = None,
        robot_after: int = DEFAULT_ROBOT_AFTER,
        spectators: str = "hidden",
        deal_replays: bool = False,
    ) -> LiveTable:
        """A new table with the creator in the first seat that is not a bot; it starts at once
        when that fills it. ``seed`` and ``deck`` are for tests and replays only. ``rated``:
        "classée" or "amicale"; by default rated when no seat is a robot's. ``robot_after``: a
        person the timer plays for this many decisions in a row is handed to a robot (0: never).
        ``spectators``: what they see (``fairness.spectator_mode``); ``deal_replays``: a finished
        deal may be replayed with every hand while the game goes on.

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
        try:
            watch = str(spectator_mode(spectators))
        except ValueError as exc:
            raise InvalidOptions("spectators", str(exc)) from None
        bots = list(bots)
        seats = first_seats(players, bots, creator, bot_levels)
        check_turn_seconds(turn_seconds)
        check_robot_after(robot_after)
        rec = await self.store.create_table(
            NewTable(
                game=g.name,
                options=opts,
                players=players,
                turn_seconds=turn_seconds,
                private=private,
                # 128 random bits: a private table's id (sequential) must open nothing
                invitation=secrets.token_urlsafe(16) if private else None,
                creator_id=creator.id if creator else None,
                seed=seed,
                seats=seats,
                deck=deck,
                rated=not bots if rated is None else rated,
                robot_after=robot_after,
                # the commitment's salt: drawn for a stacked deck too, which is marked as such
                salt=secrets.token_hex(SALT_BYTES),
                spectators=watch,
                deal_replays=deal_replays,
            )
        )
        live = LiveTable(rec, g, None, 0)
        self._tables[rec.id] = live
        await self.coordination.created(live)
        if all(s.kind != EMPTY for s in rec.seats):
            await self.pipeline.commit(live, edit(begin))
        return live

    async def join(
        self,
        player: PlayerRecord,
        table_id: int,
        seat: int | None = None,
        invitation: str | None = None,
    ) -> LiveTable:
        """A seat; at a private table, with its invitation code only."""
        return await self.edit(table_id, join(player, seat, invitation))

    async def leave(self, player: PlayerRecord, table_id: int) -> LiveTable:
        """Waiting or finished: the seat becomes free. Playing: a bot takes the seat."""
        return await self.edit(table_id, leave(player))

    async def take_back(self, player: PlayerRecord, table_id: int) -> LiveTable:
        """The player takes back the seat a robot plays for them: at once, or once the robot has
        made the decision the seat has before it (``seats.take_back``)."""
        live = await self.get(table_id)
        await self.pipeline.commit(live, edit(take_back(player, live.to_act)))
        return live

    async def start_table(
        self, player: PlayerRecord, table_id: int, fill_with_bots: bool = False
    ) -> LiveTable:
        return await self.edit(table_id, start(player, fill_with_bots))

    async def rematch(
        self, player: PlayerRecord, table_id: int, on_accepted: Callable[[], None] | None = None
    ) -> LiveTable:
        """A seated player's vote for a new game at the table (``seats.rematch``)."""
        return await self.edit(
            table_id,
            rematch(player, secrets.randbits(62), secrets.token_hex(SALT_BYTES)),
            on_accepted,
        )

    async def edit(
        self, table_id: int, change: Edit, on_accepted: Callable[[], None] | None = None
    ) -> LiveTable:
        """A change of the table's record (seats, lifecycle, timer, names...), committed and told
        like any other; ``change`` runs on a copy of the record, and again on a fresher copy if
        another process wrote first. ``on_accepted``: called once committed, before any state
        is sent."""
        live = await self.get(table_id)
        await self.pipeline.commit(live, edit(change), on_accepted=on_accepted)
        return live

    async def act(
        self,
        player: PlayerRecord | int,
        table_id: int,
        action: Any,
        on_accepted: Callable[[], None] | None = None,
        *,
        request_id: Any = None,
        version: int | None = None,
        hops: int = 0,
    ) -> Change | None:
        """A player's move (``player``: the record, or the id). Raises ``TableError`` (with the
        protocol's code) when refused; calls ``on_accepted`` after the commit and before any
        state is sent.

        ``request_id`` (the ``act``'s id) is the move's idempotency key for this player and table:
        sent again, the move gets its first answer again (``on_accepted``, returning None; or the
        same refusal) and is not applied twice. ``version``: the version the move was decided on
        (another one is refused as ``stale_version``).

        With several processes the move is made by the table's home: sent there when it is
        another process (returning None), taken over when it has none alive. ``hops``: how
        many processes sent it on already."""
        started = time.perf_counter()
        player_id = player if isinstance(player, int) else player.id
        live = await self.get(table_id)
        while True:
            home = await self.coordination.route(live)
            if home is None:
                try:
                    return await self._act_here(
                        live, player_id, action, on_accepted, request_id, version, started
                    )
                except NotHome:
                    continue  # another process took the table over meanwhile
            if hops >= MAX_HOPS:
                raise TableError(ErrorCode.CONFLICT, "the table is moving; try again")
            if await self.coordination.forward(
                home,
                live,
                player_id,
                action,
                on_accepted,
                request_id=request_id,
                version=version,
                hops=hops + 1,
            ):
                return None

    async def _act_here(
        self,
        live: LiveTable,
        player_id: int,
        action: Any,
        on_accepted: Callable[[], None] | None,
        request_id: Any,
        version: int | None,
        started: float,
    ) -> Change | None:
        if not live.rec.admits(player_id):
            raise unknown_table(live.id)
        key = request_key(player_id, request_id, action, version)
        decision = player_move(player_id, action, key, version)
        with log_context(live.id, live.seat_of(player_id)):
            try:
                return await self.pipeline.commit(
                    live, decision, on_accepted=on_accepted, started=started
                )
            except Repeated as again:
                if isinstance(again.answer, tuple):
                    code, message = again.answer
                    raise TableError(code, message) from None
                if on_accepted is not None:
                    on_accepted()
                return None
            except TableError as exc:
                if exc.code != ErrorCode.CONFLICT:  # busy: a retry may be played
                    live.remember(key, (exc.code, exc.message))
                raise

    # -- subscribers -----------------------------------------------------------------------------

    async def subscribe(self, sub: Subscriber, table_id: int) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            # nothing is awaited between the copy made fresh and this socket's state
            await self.coordination.fresh(live)
            self.fanout.add(live, sub)
            seat = self.fanout.seat_of(live, sub)
            handed = seat is not None and live.rec.away.get(seat, {}).get("why") == TIMEOUT
            if seat is not None:
                # a table paused while nobody was there goes on now that its person is back
                self.scheduler.rearm(live)
        await self.coordination.presence_changed(table_id)
        player = getattr(sub, "player", None)
        if handed and isinstance(player, PlayerRecord):
            # a person the timer handed to a robot takes the seat back by coming back
            with contextlib.suppress(TableError):
                await self.take_back(player, table_id)
        return live

    async def sync(self, sub: Subscriber, table_id: int) -> None:
        live = await self.get(table_id)
        await self.coordination.reading(live)
        sub.send(self.fanout.state_text(live, self.fanout.seat_of(live, sub)))
        if sub in live.subscribers:
            self.fanout.sent_copy(live, sub)

    def unsubscribe(self, sub: Subscriber, table_id: int) -> bool:
        live = self._tables.get(table_id)
        if live is None or not self.fanout.remove(live, sub):
            return False
        self.forget(live)
        # the table may have left memory with its last subscriber (a finished table): what the
        # other processes are told is then "nobody here", which they must hear all the same
        self.spawn(self.coordination.presence_changed(table_id))
        return True

    # -- what clients see ------------------------------------------------------------------------

    def seat_of(self, live: LiveTable, sub: Subscriber) -> int | None:
        return self.fanout.seat_of(live, sub)

    def state_text(self, live: LiveTable, seat: int | None, events: Iterable[Event] = ()) -> str:
        return self.fanout.state_text(live, seat, events)

    def state_message(
        self, live: LiveTable, seat: int | None, events: Iterable[Event] = ()
    ) -> dict[str, Any]:
        return self.fanout.state_message(live, seat, events)

    def info(self, live: LiveTable | TableRecord) -> dict[str, Any]:
        """A table's public description (lobby, REST, the ``info`` block of states)."""
        return self.fanout.info(live)
