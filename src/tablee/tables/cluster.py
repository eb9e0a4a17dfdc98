"""Several app processes on one database: the coordination strategy of each (``Cluster``).

Any process accepts any client for any table; each table has a **home**, the one process that
makes its changes and tells them (the shape of lichess's lila/lila-ws):

- **The home.** A process becomes a table's home by taking it (``store/cluster.py``: a
  conditional UPDATE of the table's row, which bumps its fencing token) when the table has no
  home alive: the process that creates a table, or the first that needs one whose home went
  away. It stays home while its lease runs (its ``processes`` row, renewed every second), or
  until it hands the table to the process its players are on (below); its writes carry its
  token, and the database refuses them once another process has taken the table over or been
  handed it. A process stopping cleanly gives its tables up; one that dies keeps them until its
  lease runs out (``LEASE_SECONDS``).
- **Moves go to the home.** A player's ``act`` reaching another process is sent to the home's
  own Redis channel; the home applies it, commits, and answers on the sender's channel, which
  then acks its client. A home that does not listen (no receiver) is taken over once its lease
  has run out. The move's idempotency key makes a move resent after a lost answer safe.
- **Frames are relayed, never rebuilt.** The home builds each seat's state of a change once and
  sends them to the other processes with subscribers at the table (they announce themselves in
  the table's presence entry); those pass them on to their sockets. They hold a copy of the
  table only for what is not on the hot path (a new subscriber's state, ``sync``, a REST read, a
  seat change) and bring it up to date from the database then.
- **Seat changes** (join, leave, start, rematch, an admin's edit) are made by whichever process
  receives them, like any write guarded by the table's version (a race lost is retried on a fresh
  copy); the change is announced on the ``tables`` channel and the home catches up and tells it.
- **Timers and robots run at the home.** Each process's poller looks for tables whose deadline
  passed or whose robot stopped moving and whose home is not alive, and takes them over; and for
  tables it watches whose home died.
- **The home follows its players.** The proxy sends the sockets of a table to one process, which
  need not be the home (the process the table was made through, or the first to take it). So
  the home compares where the table's seated players' sockets are — its own subscribers, and
  each other process's presence entry — whenever the presence changes (an entry heard from
  Redis, a subscribe or unsubscribe at the home) and at every poll: when another process holds
  strictly more of them than the home does, the home hands it the table. Under the table's lock
  (nothing of it being decided or written then: a commit keeps the lock until its write is
  committed), one conditional UPDATE (``Homes.hand``) makes that process the home with a new
  token, if the table is still this home's at its token and that process's lease runs; the old
  home stops its timer and robots, and sends ``"h"`` (the table, the token) on the new home's
  channel, behind the frames of its last changes. The new home takes it in at once
  (``_become_home``: under the lock, the copy names it and catches up with the database; then
  the presence, the timer, the robots); a lost ``"h"`` costs a poll (``refresh`` finds the row
  naming this process). It can never flap: a table is not handed again within ``HAND_PAUSE``
  seconds of its last change of home (nor of a hand-over tried), and only to a process with
  strictly more of its players than the home, which after a hand-over is the new home.

  A move in flight is never lost nor made twice. Whatever path it takes, one process makes it:
  the one whose write the database accepts, at the table's version and with the home's token;
  the old home's token is refused from the hand-over's commit on. A move the old home receives
  after the hand-over (from its own socket, from another process, or waiting for the lock while
  the table was handed) finds the table another's — routing it, or ``NotHome`` after deciding
  it on a copy caught up first — and is sent on to the new home: one hop more (``MAX_HOPS``).
  At the new home, a move routed before the copy has caught up waits for it (``_arriving``),
  registered the moment ``"h"`` is read: a move the old home sent on, being behind ``"h"`` in the
  old home's queue, is read after it, and is not sent back. So a move takes two hops at most (a
  socket at the new home, before ``"h"``: to the old home, and back). Only if ``"h"`` is lost can
  a move bounce between the two until the new home's poll, and then it is refused as
  ``conflict`` at ``MAX_HOPS``, not made; the client sends it again, and its idempotency key
  makes that safe (the new home's copy caught up with the log rows, and their keys).

A lost Redis message costs a delay, never a move: the poller compares the tables held here with
the database every ``TABLEE_POLL_SECONDS`` and catches up what the relay missed.

Presence (the seats' "connected" flags) is shared through Redis: each process lists the players
(and whether it has any subscriber) at each table it holds, and the home adds the other
processes' lists to what it shows. A ban is announced on Redis and every process closes that
player's sockets; each also looks for banned players among its sockets every
``TABLEE_BAN_CHECK_SECONDS``, for an announcement it missed.

docs/scaling.md tells the whole story, with figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Collection
from datetime import timedelta
from typing import Any

from tablee.limits import Rate
from tablee.protocol import ErrorCode, dumps
from tablee.settings import Settings
from tablee.store import Store
from tablee.store.cluster import Home, Homes, Lease, due_tables, idle_bot_tables, leases

from .broker import Broker
from .coordination import Coordination, Host
from .errors import TableError, unknown_table
from .fanout import Frames
from .live import LiveTable, utcnow
from .periodic import Periodic
from .records import PLAYER, PLAYING
from .redis_broker import COMMAND_SECONDS, RedisBroker

log = logging.getLogger("tablee.cluster")

#: a table nobody here has touched for this long, with no subscriber here, is forgotten
FORGET_AFTER = 30.0
#: how far back the poller looks for bot tables that stopped moving
IDLE_WINDOW = timedelta(minutes=10)
#: seconds a process's presence entry lives unless the process renews it (a third of it)
PRESENCE_TTL = 30.0
#: a process is alive (the home of its tables) this long after its last beat
LEASE_SECONDS = 5.0
#: between two beats
BEAT_SECONDS = 1.0
#: how long a move sent to the home waits for its answer
ANSWER_SECONDS = 10.0
#: a move sent to its home this long ago is not made when it comes (held up by a partition from
#: Redis): its sender has answered the player ``conflict`` since, and the player may have made
#: another move; the sender waits for its sending (``COMMAND_SECONDS``) and then for the answer,
#: and the processes' clocks may differ by a few seconds
STALE_MOVE_SECONDS = COMMAND_SECONDS + ANSWER_SECONDS + 5.0
#: how long a move waits for a home that went away to be taken over
TAKEOVER_SECONDS = LEASE_SECONDS + 3.0
#: a table is not handed to another home within this many seconds of its last change of home
#: (or of a hand-over tried), whatever the presence says: the home cannot flap
HAND_PAUSE = 5.0
#: reads of a copy in one ``fresh`` while the home's relayed frames stay ahead of it (a table
#: moving hundreds of times a second can outrun them all): a socket subscribing is sent the frames
#: kept meanwhile past its state, and a write on a copy still behind is refused by its version
#: and made again on a fresh one
FRESH_READS = 3
#: frames relayed this long after a read of the copy are kept too (``LiveTable.relays``)
KEEP_SECONDS = 2.0


class Cluster(Coordination):
    shared = True
    process_id: str

    def __init__(self, store: Store, settings: Settings, broker: Broker | None = None) -> None:
        if store.engine.dialect.name != "postgresql":
            # the homes' leases and fencing tokens are PostgreSQL's (store/cluster.py)
            raise ValueError(
                "several processes (TABLEE_REDIS_URL) share one PostgreSQL database: set"
                " TABLEE_DATABASE_URL to postgresql+asyncpg://..."
            )
        #: names this process in the homes, the presence entries and its Redis channel
        self.process_id = uuid.uuid4().hex[:12]
        if broker is None:
            if not settings.redis_url:
                raise ValueError("several processes need TABLEE_REDIS_URL")
            broker = RedisBroker(
                settings.redis_url, settings.redis_prefix, self._redis_back, self.process_id
            )
        self.broker = broker
        self.homes = Homes(store, self.process_id, LEASE_SECONDS)
        self.poll_seconds = settings.poll_seconds
        #: between two looks for banned players among this process's sockets (the Redis message
        #: of a ban closes them at once; this is for a lost one)
        self.ban_check_seconds = settings.ban_check_seconds
        #: a bot that has not moved for this long is looked for in the database
        self.idle_after = timedelta(
            seconds=max(2.0, 4 * settings.bot_delay_seconds + self.poll_seconds)
        )
        self._poller = Periodic(
            self.poll, self.poll_seconds, "the cluster poller failed; trying again"
        )
        self._beater = Periodic(
            self.homes.beat,
            BEAT_SECONDS,
            "could not renew this process's lease",
            first=BEAT_SECONDS,
        )
        #: when this process last changed or heard of each table it holds (monotonic)
        self._touched: dict[int, float] = {}
        #: idle bot tables found in the database and seen to have nothing to do, at that version
        self._idle_seen: dict[int, int] = {}
        self._first_poll = True
        #: players with the table open on other processes
        self._remote: dict[int, set[int]] = {}
        #: other processes with subscribers at the table (the home relays to them)
        self._watching: dict[int, frozenset[str]] = {}
        #: the players with the table open on each other process (``_took_presence``)
        self._present: dict[int, dict[str, frozenset[int]]] = {}
        #: the tables this process has taken in as their home (caught up, presence read, timers
        #: and robots armed), with the token it took them in at: a catch-up may name this process
        #: the home in the copy (the row says so) before that is done
        self._home_of: dict[int, int] = {}
        #: when each table last changed home as this process saw it, or was last tried (monotonic)
        self._home_changed: dict[int, float] = {}
        #: tables being handed to another process by this one
        self._handing: set[int] = set()
        #: tables this process is becoming the home of, until their copy has caught up: a move
        #: routed meanwhile waits for it (rather than going back to the old home)
        self._arriving: dict[int, asyncio.Future[None]] = {}
        #: what this process last wrote of its own presence, per table (None: no subscriber)
        self._shown: dict[int, frozenset[int]] = {}
        self._presence_renewed = 0.0
        self._presence_io = asyncio.Lock()
        self._bans_checked = 0.0
        #: moves sent to homes, waiting for their answer: (answer, on_accepted) by number
        self._calls: dict[int, tuple[asyncio.Future[Any], Callable[[], None] | None]] = {}
        self._call_numbers = itertools.count(1)
        #: tables whose stored version was ahead of what this process showed, at the last poll
        self._behind: dict[int, int] = {}
        #: when each copy held away from its home was last compared with the database
        self._checked: dict[int, float] = {}
        #: frames relayed and received, moves sent and served (metrics, tests)
        self.relayed = 0
        self.received = 0
        self.forwarded = 0
        self.served = 0
        #: tables handed to another process, and taken in from one (metrics, tests)
        self.homes_given = 0
        self.homes_received = 0

    def bind(self, host: Host) -> None:
        super().bind(host)
        if isinstance(self.broker, RedisBroker):
            self.broker.on_presence = self._heard_presence
            self.broker.on_ban = lambda player_id: host.banned_elsewhere([player_id])
            self.broker.on_logout = host.logged_out_elsewhere
            self.broker.on_chat = self._heard_chat
            self.broker.on_direct = self._direct

    async def start(self) -> None:
        """Unlike one process, nothing is loaded here: clients load the tables they open and the
        poller the ones with a timer or a bot to run whose home went away. The lease first: a
        process that cannot write it does not start."""
        await self.homes.beat()
        await self.broker.start(self.host.heard)
        self._beater.start()
        self._poller.start()

    async def close(self) -> None:
        await self._poller.stop()
        await self._beater.stop()
        try:
            await self.homes.leave()  # the others take this process's tables at once
        except Exception:
            log.exception("could not give the tables up; they go when the lease runs out")
        await self.broker.close()

    # -- the home --------------------------------------------------------------------------------

    def leads(self, live: LiveTable) -> bool:
        return live.rec.home == self.process_id

    def fence(self, live: LiveTable) -> int | None:
        return live.rec.home_token if self.leads(live) else None

    def watchers(self, live: LiveTable) -> Collection[str]:
        return self._watching.get(live.id, ()) if self.leads(live) else ()

    async def created(self, live: LiveTable) -> None:
        await self._take(live)

    async def route(self, live: LiveTable) -> str | None:
        arriving = self._arriving.get(live.id)
        if arriving is not None:
            # the table is becoming this process's: its copy is catching up under the lock
            await asyncio.shield(arriving)
        home = live.rec.home
        if home == self.process_id:
            return None
        if home is not None:
            return home
        return await self._take(live)

    async def _take(self, live: LiveTable) -> str | None:
        """Makes this process the table's home if it has none alive; None when it is ours
        then, else the home's process."""
        found = await self.homes.take(live.id)
        if found is None:
            raise unknown_table(live.id)
        return await self._learned(live, found)

    async def _learned(self, live: LiveTable, home: Home, *, received: bool = False) -> str | None:
        """What the database says of the table's home, taken in: a table that became ours is
        brought up to date (moves made before the takeover or the hand-over) and its timer and
        robots armed; one that stopped being ours stops them. ``received``: it became ours by
        another process's hand-over. None when it is ours then, else its home's process."""
        if home.process == self.process_id:
            if self._home_of.get(live.id) != home.token or not self.leads(live):
                await self._become_home(live, home, received=received)
            return None if self.leads(live) else live.rec.home
        was = self.leads(live) or live.id in self._home_of
        live.rec.home, live.rec.home_token = home.process, home.token
        if was:
            log.info("the table's home is now another process", extra={"table": live.id})
            self._home_of.pop(live.id, None)
            self.host.scheduler.stop(live)
        return home.process

    async def _become_home(self, live: LiveTable, home: Home, *, received: bool) -> None:
        """This process is the table's home from now on: under the table's lock, the copy names
        it and catches up with the database before anything is decided on it (a move decided on
        a copy behind would be refused by its version, but a refusal decided on it, "not your
        turn", would reach the player); then the presence, the timer and the robots. Moves
        routed meanwhile wait (``_arriving``). The catch-up reads the home from the row too: if
        the database says otherwise (a hand-over heard late, already handed on), its word wins."""
        arriving: asyncio.Future[None] | None = None
        if live.id not in self._arriving:
            arriving = asyncio.get_running_loop().create_future()
            self._arriving[live.id] = arriving
        try:
            before = live.rec.home, live.rec.home_token
            async with live.lock:
                live.rec.home, live.rec.home_token = home.process, home.token
                try:
                    await self.host.catch_up(live)
                except BaseException:
                    # not caught up: not the home here yet (the poller tries again)
                    live.rec.home, live.rec.home_token = before
                    raise
            if not self.leads(live) or self._home_of.get(live.id) == live.rec.home_token:
                return  # another's after all, or taken in by another path meanwhile
            self._home_of[live.id] = live.rec.home_token
            log.info("this process is now the table's home", extra={"table": live.id})
            now = time.monotonic()
            if before[0] not in (None, self.process_id):
                self._home_changed[live.id] = now  # a change of home: no hand-over for a while
            if received:
                self.homes_received += 1
            await self._read_presence(live.id)
            self.host.scheduler.rearm(live)
            self._touched[live.id] = now
        finally:
            if arriving is not None:
                if self._arriving.get(live.id) is arriving:
                    del self._arriving[live.id]
                arriving.set_result(None)

    async def forward(
        self,
        home: str,
        live: LiveTable,
        player_id: int,
        action: Any,
        on_accepted: Callable[[], None] | None,
        *,
        request_id: Any,
        version: int | None,
        hops: int,
    ) -> bool:
        assert isinstance(self.broker, RedisBroker)
        until = time.monotonic() + TAKEOVER_SECONDS
        while True:
            number = next(self._call_numbers)
            answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._calls[number] = (answer, on_accepted)
            request = {
                "n": number,
                "from": self.process_id,
                "t": live.id,
                "p": player_id,
                "a": action,
                "r": request_id,
                "v": version,
                "h": hops,
                "at": time.time(),
            }
            try:
                # json, not orjson: an id may hold an integer beyond 64 bits
                sent = self.broker.send(home, "a\n" + json.dumps(request), count=True)
                assert sent is not None
                if await sent > 0:
                    self.forwarded += 1
                    try:
                        refusal = await asyncio.wait_for(answer, ANSWER_SECONDS)
                    except TimeoutError:
                        # the move may have been made: the same act sent again is answered
                        # as it was (its idempotency key), never applied twice
                        raise TableError(
                            ErrorCode.CONFLICT, "the table's server did not answer; send it again"
                        ) from None
                    if refusal is not None:
                        # the home's refusal, word for word (its code is a member's value)
                        code = ErrorCode(refusal[0])
                        raise TableError(code, str(refusal[1]))
                    return True
            finally:
                self._calls.pop(number, None)
            # nobody listens on the home's channel: it died (or lost Redis); once its lease has
            # run out, this process takes the table over
            if time.monotonic() > until:
                raise TableError(
                    ErrorCode.CONFLICT, "the table's server is away; try again in a moment"
                )
            now_home = await self._take(live)
            if now_home != home:
                return False  # ours now, or another process's: route it again
            await asyncio.sleep(0.25)

    async def _serve(self, request: dict[str, Any]) -> None:
        """A move another process sent this process, as the table's home: made, and answered on
        the sender's channel (the answer before the change's frames, which follow it)."""
        assert isinstance(self.broker, RedisBroker)
        broker, sender, number = self.broker, str(request["from"]), int(request["n"])
        age = time.time() - float(request.get("at", time.time()))
        if age > STALE_MOVE_SECONDS:
            # no answer: nobody waits for it any more
            log.warning("a move sent by %s %.0f s ago came too late; not made", sender, age)
            return
        self.served += 1

        def accepted() -> None:
            broker.send(sender, "r\n" + dumps({"n": number}))

        try:
            await self.host.act(
                int(request["p"]),
                int(request["t"]),
                request["a"],
                accepted,
                request_id=request.get("r"),
                version=request.get("v"),
                hops=int(request.get("h", 1)),
            )
        except TableError as exc:
            broker.send(sender, "r\n" + dumps({"n": number, "e": [exc.code, exc.message]}))
        except Exception:
            log.exception("a move sent by another process failed")
            refusal = [ErrorCode.INTERNAL, "the move could not be made; try again"]
            broker.send(sender, "r\n" + dumps({"n": number, "e": refusal}))

    async def home_of(self, table_id: int) -> Home | None:
        return (await self.homes.homes([table_id])).get(table_id)

    async def leases(self) -> tuple[list[Lease], int]:
        return await leases(self.host.store)

    def counts(self) -> dict[str, int]:
        return {
            "frames_relayed": self.relayed,
            "frames_received": self.received,
            "moves_forwarded": self.forwarded,
            "moves_served": self.served,
            "homes_given": self.homes_given,
            "homes_received": self.homes_received,
        }

    def relay(self, live: LiveTable, frames: Frames, to: Collection[str]) -> None:
        if not isinstance(self.broker, RedisBroker):
            return
        parts = frames.parts
        header = {"t": live.id, "v": frames.version, "ic": frames.info_changed, "s": frames.seats}
        # one line each: JSON text holds no raw line break
        seats = (parts[i] for i in range(len(frames.seats)))
        lines = ["f", dumps(header), frames.info, parts[None], *seats]
        text = "\n".join(lines)
        for process in to:
            self.broker.send(process, text)
        self.relayed += 1

    def _direct(self, raw: str) -> None:
        """A message on this process's own channel: a move for a table it is the home of, the
        answer to one it sent, a change's frames, or a table handed to it."""
        kind, _, body = raw.partition("\n")
        try:
            if kind == "f":
                self._relayed(body)
            elif kind == "r":
                self._answered(json.loads(body))
            elif kind == "a":
                self.host.spawn(self._serve(json.loads(body)))
            elif kind == "h":
                self._hand_heard(json.loads(body))
            else:
                log.warning("ignored a message of kind %r", kind)
        except (ValueError, KeyError, IndexError, TypeError):
            log.warning("ignored a malformed message: %r", raw[:200])

    def _answered(self, answer: dict[str, Any]) -> None:
        call = self._calls.get(int(answer["n"]))
        if call is None:
            return  # its sender gave up waiting
        future, on_accepted = call
        if future.done():
            return
        refusal = answer.get("e")
        if refusal is None and on_accepted is not None:
            # here, not where the sender waits: the ack goes to the socket before the frames
            # of the change, which this process reads next
            on_accepted()
        future.set_result(None if refusal is None else tuple(refusal))

    def _relayed(self, body: str) -> None:
        header, info, spectators, *seats = body.split("\n")
        head = json.loads(header)
        live = self.host.cached(int(head["t"]))
        if live is None:
            return
        self.received += 1
        parts: dict[int | None, str] = {None: spectators}
        parts.update(enumerate(seats))
        frames = Frames(int(head["v"]), list(head["s"]), parts, info, bool(head["ic"]))
        self.host.relayed(live, frames)
        self._touched[live.id] = time.monotonic()

    # -- the home follows its players ------------------------------------------------------------

    def _better_home(self, live: LiveTable) -> str | None:
        """The process that holds strictly more of the table's seated players' sockets than this
        one, the most of them (the first by name of those with as many); None: keep it here.
        This process's own count is its subscribers', the others' their presence entries."""
        entries = self._present.get(live.id)
        if not entries:
            return None
        seated = {s.player_id for s in live.rec.seats if s.kind == PLAYER and s.player_id}
        if not seated:
            return None
        presence = live.presence
        best, most = None, sum(1 for p in seated if p in presence)
        for process in sorted(entries):
            n = len(seated & entries[process])
            if n > most:
                best, most = process, n
        return best

    def _consider(self, live: LiveTable) -> None:
        """At the table's home: hands it to a process that holds more of its players, unless it
        changed home (or a hand-over was tried) less than ``HAND_PAUSE`` seconds ago."""
        if not self.leads(live) or live.id in self._handing:
            return
        changed = self._home_changed.get(live.id)
        if changed is not None and time.monotonic() - changed < HAND_PAUSE:
            return
        to = self._better_home(live)
        if to is None:
            return
        self._handing.add(live.id)
        self.host.spawn(self._hand(live, to))

    async def _hand(self, live: LiveTable, to: str) -> None:
        """Hands the table to ``to``, under the table's lock: no change of it is being decided
        or written here then (a commit holds the lock until its write is committed), so the
        database holds everything this home made, and the version the new home starts from is
        the last. (A commit whose task was cancelled while its write waited let the lock go
        with the write still queued, ``store/writes.py``: that write and the hand-over's UPDATE
        meet on the table's row, so it is committed before it, and the new home's catch-up
        reads it, or after, and is refused by its token.) The database's UPDATE is the
        hand-over (``Homes.hand``); from its commit, a write of this process with its old
        token is refused. Then this process stops being the
        home in its copy (its timer and robots stop) and tells ``to`` on its channel, after the
        frames of every change made here (one queue, in order).

        A move waiting for the lock here meanwhile finds the table another's: its decision
        raises ``NotHome`` (the pipeline checks the home after deciding) and the manager routes
        it again, to ``to`` (a hop). The copy is marked unchecked, so that such a move is
        decided on a copy caught up with what ``to`` made since (else a refusal, "not your
        turn", could be decided on the state of the hand-over)."""
        try:
            async with live.lock:
                if not self.leads(live) or self._better_home(live) != to:
                    return  # the presence changed while the lock was waited for
                self._home_changed[live.id] = time.monotonic()
                home = await self.homes.hand(live.id, to, live.rec.home_token)
                if home is None:
                    # the table is not ours at that token (the poller learns whose it is), or
                    # ``to``'s lease ran out: tried again after the pause, if still so
                    log.info("the table could not be handed to %s", to, extra={"table": live.id})
                    return
                self._home_of.pop(live.id, None)
                self.host.scheduler.stop(live)
                live.rec.home, live.rec.home_token = home.process, home.token
                self._checked.pop(live.id, None)
                self.homes_given += 1
                assert isinstance(self.broker, RedisBroker)
                news = {"t": live.id, "k": home.token, "from": self.process_id}
                self.broker.send(to, "h\n" + json.dumps(news))
                log.info("the table is handed to %s", to, extra={"table": live.id})
        except Exception:
            # if the UPDATE was committed all the same, this process's writes are refused (its
            # token) and ``to``'s poller finds the table its own
            log.exception("the table could not be handed to %s", to, extra={"table": live.id})
        finally:
            self._handing.discard(live.id)

    def _hand_heard(self, news: dict[str, Any]) -> None:
        """Another process handed this one a table: it becomes its home at once (``_arrive``).
        Registered before anything else is read from this channel, so that a move the old home
        routes on to this process after the hand-over (behind this message in its queue) waits
        for the copy to catch up, rather than going back to the old home."""
        table_id, token = int(news["t"]), int(news["k"])
        live = self.host.cached(table_id)
        if live is not None and (
            self._home_of.get(table_id) == token or live.rec.home_token > token
        ):
            return  # taken in already (the poller was first), or news older than the copy's
        if table_id in self._arriving:
            return
        arriving = asyncio.get_running_loop().create_future()
        self._arriving[table_id] = arriving
        self.host.spawn(self._arrive(table_id, token, live is None, arriving))

    async def _arrive(
        self, table_id: int, token: int, loading: bool, arriving: asyncio.Future[None]
    ) -> None:
        try:
            live = await self._hold(table_id)
            if live is None:
                return
            if loading and self.leads(live) and live.rec.home_token == token:
                # not held here: loaded from the row, which names this process already (taken in
                # by the loading itself)
                self.homes_received += 1
                self._home_changed[table_id] = time.monotonic()
                return
            await self._learned(live, Home(self.process_id, token, True), received=True)
        except Exception:
            # the poller finds the table this process's in the database and tries again
            log.exception("a table handed to this process could not be taken in")
        finally:
            if self._arriving.get(table_id) is arriving:
                del self._arriving[table_id]
            arriving.set_result(None)

    # -- turns -----------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def writing(self, live: LiveTable) -> AsyncIterator[None]:
        """The table's lock; away from its home, on a copy brought up to date first (a seat
        change made here is checked against the stored version like any write)."""
        async with live.lock:
            if not self.leads(live):
                await self.fresh(live)
            yield

    async def fresh(self, live: LiveTable) -> None:
        # a frame relayed here while the copy was read is ahead of it again (the sockets here
        # had it; a socket subscribing would start behind it): read again, a few times at most;
        # the frames relayed meanwhile are kept, and such a socket is sent those past its state
        if live.relays:
            live.relays = [f for f in live.relays if f.version > live.rec.version]
        live.keeping = True
        try:
            for _ in range(FRESH_READS):
                if self.leads(live) or not self._stale(live):
                    return
                await self.host.catch_up(live, relayed=True)
                self._checked[live.id] = time.monotonic()
        finally:
            live.keeping = False
            live.keep_until = time.monotonic() + KEEP_SECONDS

    async def reading(self, live: LiveTable) -> None:
        if not self.leads(live) and self._stale(live):
            async with live.lock:
                await self.fresh(live)

    def _stale(self, live: LiveTable) -> bool:
        """Away from the home, whether the copy may be behind the database: a change relayed
        since is newer, or it was last compared with the database a poll ago or more (a subscribe
        asks three times in a row: the table, the seat's state, the chat's audience). A write made
        on a copy behind all the same is refused by its version and made again on a fresh one."""
        return (
            live.shown > live.rec.version
            or time.monotonic() - self._checked.get(live.id, 0.0) >= self.poll_seconds
        )

    async def loaded(self, live: LiveTable) -> None:
        self._checked[live.id] = time.monotonic()
        await self._read_presence(live.id)
        if self.leads(live):
            # loaded as its home (handed here while not held): the copy is the stored table, and
            # the manager arms its timer and robots next
            self._home_of[live.id] = live.rec.home_token

    @contextlib.asynccontextmanager
    async def automatic(self, live: LiveTable, version: int | None = None) -> AsyncIterator[bool]:
        """Only the table's home makes its timer and bot moves. A bot's move thought out at
        ``version`` is thought again if it moved."""
        if not self.leads(live):
            yield False
            return
        async with self.writing(live):
            yield self.leads(live) and (version is None or live.rec.version == version)

    def published(self, live: LiveTable) -> None:
        # the home's changes reach the other processes as frames; a seat change made elsewhere
        # is announced, for the home to catch up and tell it
        if not self.leads(live):
            self.host.spawn(self.broker.publish(live.id, live.rec.version))

    def changed(self, live: LiveTable) -> None:
        self._touched[live.id] = time.monotonic()

    # -- bans across processes -------------------------------------------------------------------

    async def share_ban(self, player_id: int) -> None:
        if isinstance(self.broker, RedisBroker):
            await self.broker.publish_ban(player_id)

    async def share_logout(self, player_id: int) -> None:
        if isinstance(self.broker, RedisBroker):
            await self.broker.publish_ban(player_id, logout=True)

    # -- chat across processes -------------------------------------------------------------------

    def share_chat(self, event: dict[str, Any]) -> None:
        if isinstance(self.broker, RedisBroker):
            self.host.spawn(self.broker.publish_chat({**event, "process": self.process_id}))

    def _heard_chat(self, event: dict[str, Any]) -> None:
        if event.get("process") != self.process_id:
            self.host.chat_heard(event)

    async def take_token(self, key: str, rate: Rate) -> float | None:
        if not isinstance(self.broker, RedisBroker):
            return None
        return await self.broker.take_token(key, rate.burst, rate.per_second)

    async def _check_bans(self) -> None:
        """Every few seconds: close the sockets of banned players (a ban whose message this
        process missed). One query for every player with a socket here."""
        if time.monotonic() - self._bans_checked < self.ban_check_seconds:
            return
        self._bans_checked = time.monotonic()
        online = set(self.host.connected_players())
        if online:
            self.host.banned_elsewhere(await self.host.store.banned_among(online))

    # -- presence across processes ---------------------------------------------------------------

    def remote_players(self, table_id: int) -> Collection[int]:
        return self._remote.get(table_id, ())

    async def presence_changed(self, table_id: int) -> None:
        await self._share_presence(table_id)
        live = self.host.cached(table_id)
        if live is not None:
            self._consider(live)  # a player left the home's sockets: maybe others hold more now

    def _local_entry(self, table_id: int) -> frozenset[int] | None:
        """The players with the table open on this process; None when nobody watches it here
        (an empty set: only spectators without a name)."""
        live = self.host.cached(table_id)
        if live is None or not live.subscribers:
            return None
        return frozenset(live.presence)

    async def _share_presence(self, table_id: int, force: bool = False) -> None:
        """Writes this process's players at the table, as they are when the write's turn comes:
        writes go one at a time, so the last one in Redis is the newest, whatever the order in
        which subscribes and unsubscribes asked for them. A process with subscribers at a table
        has an entry there, players or not: the table's home relays its frames to it."""
        if not isinstance(self.broker, RedisBroker):
            return
        async with self._presence_io:
            entry = self._local_entry(table_id)
            before = self._shown.get(table_id)
            if not force and entry == before:
                return
            if entry is not None:
                self._shown[table_id] = entry
            else:
                self._shown.pop(table_id, None)
            try:
                # the writes take turns: a Redis that hangs must not hold up every subscribe
                async with asyncio.timeout(PRESENCE_TTL / 6):
                    await self.broker.set_presence(
                        table_id,
                        self.process_id,
                        None if entry is None else sorted(entry),
                        PRESENCE_TTL,
                        announce=entry != before,
                    )
            except TimeoutError:  # put right by the next renewal, or the entry expires
                log.warning("sharing the presence at table %s timed out", table_id)

    async def _heard_presence(self, table_id: int, process: str) -> None:
        if process != self.process_id and self.host.cached(table_id) is not None:
            await self._read_presence(table_id)

    async def _read_presence(self, table_id: int) -> None:
        if isinstance(self.broker, RedisBroker):
            entries = await self.broker.presence(table_id)
            if entries is not None:  # else Redis is away: what is known of it stays
                self._took_presence(table_id, entries)

    def _took_presence(self, table_id: int, entries: dict[str, list[int]]) -> None:
        others = {proc: ps for proc, ps in entries.items() if proc != self.process_id}
        if others:
            self._watching[table_id] = frozenset(others)
            self._present[table_id] = {proc: frozenset(ps) for proc, ps in others.items()}
        else:
            self._watching.pop(table_id, None)
            self._present.pop(table_id, None)
        live = self.host.cached(table_id)
        remote = {p for ps in others.values() for p in ps}
        if remote != self._remote.get(table_id, set()):
            if remote:
                self._remote[table_id] = remote
            else:
                self._remote.pop(table_id, None)
            if live is not None:
                self.host.retell(live)  # the seats' "connected" flags changed
        if live is not None:
            self._consider(live)

    async def _renew_presence(self) -> None:
        """Every third of the entries' life: renew ours, and drop the entries that expired (a
        process that died) from what we show. The entries that did not change since they were
        written (nearly all) are renewed in one round trip, and all are read in another."""
        if not isinstance(self.broker, RedisBroker):
            return
        if time.monotonic() - self._presence_renewed < PRESENCE_TTL / 3:
            return
        self._presence_renewed = time.monotonic()
        changed = []
        async with self._presence_io:
            same: dict[int, list[int]] = {}
            for table_id, before in self._shown.items():
                entry = self._local_entry(table_id)
                if entry == before:
                    same[table_id] = sorted(before)
                else:
                    changed.append(table_id)
            try:
                async with asyncio.timeout(PRESENCE_TTL / 6):
                    await self.broker.renew_presence(same, self.process_id, PRESENCE_TTL)
            except TimeoutError:  # the entries live twice as long again: the next one
                log.warning("renewing the presence at %s tables timed out", len(same))
        for table_id in changed:  # written, and announced, one by one
            await self._share_presence(table_id, force=True)
        tables = list(set(self._remote) | set(self._watching))
        for table_id, entries in (await self.broker.presences(tables)).items():
            self._took_presence(table_id, entries)

    async def _redis_back(self) -> None:
        """Redis answers again (or the subscription was renewed): what was sent meanwhile did
        not come. The tables held here are compared with the database, and the presence is
        shared and read again, whole: the entries written meanwhile were not announced (the
        home of a table first watched here meanwhile would not relay its frames here), and the
        reads were not made. The presence first: it needs Redis alone, where the comparison
        needs the database too (and fails without it; the poller makes it again)."""
        self._shown.clear()  # what Redis holds of this process is not known: each one written
        held = [live.id for live in self.host.live_tables()]
        for table_id in held:
            await self._share_presence(table_id)
        if isinstance(self.broker, RedisBroker):
            for table_id, entries in (await self.broker.presences(held)).items():
                self._took_presence(table_id, entries)
        await self.refresh()

    async def refresh(self) -> None:
        """Every table held here against the database: its home (taken over when it died and
        somebody watches it here), and its version (a change whose frames or announcement did
        not come is caught up with; at another process's table, only if it is still missing at
        the next look: its frames may be on their way)."""
        held = {live.id: live for live in self.host.live_tables()}
        stored = await self.homes.homes(list(held))
        behind: dict[int, int] = {}
        for table_id, live in held.items():
            home = stored.get(table_id)
            if home is None:
                continue
            if home.process != self.process_id and not home.alive and live.subscribers:
                await self._take(live)
            elif (home.process, home.token) != (live.rec.home, live.rec.home_token) or (
                # handed here, and a catch-up put it in the copy before it was taken in
                home.process == self.process_id and self._home_of.get(table_id) != home.token
            ):
                # the table's home changed; when it is this process, only a hand-over does that
                # (a take is taken in by the taker at once): its message was lost or is late
                await self._learned(live, home, received=home.process == self.process_id)
            if self.leads(live):
                if home.version > live.rec.version:
                    await self.host.heard(table_id, home.version)
            elif home.version > live.shown:
                if self._behind.get(table_id, -1) >= live.shown + 1 and live.subscribers:
                    async with live.lock:
                        await self.host.catch_up(live)
                else:
                    behind[table_id] = home.version
        self._behind = behind

    # -- the poller ------------------------------------------------------------------------------

    async def poll(self) -> None:
        """One round: catch up, take over the tables whose home died and that have a deadline
        passed or a robot to move, forget idle tables."""
        await self.refresh()
        host, now = self.host, utcnow()
        for table_id in await due_tables(host.store, now, self.process_id):
            live = await self._hold(table_id)
            if live is not None:
                await self._lead(live)
        since = None if self._first_poll else now - self.idle_after - IDLE_WINDOW
        self._first_poll = False
        idle = await idle_bot_tables(host.store, self.process_id, now - self.idle_after, since)
        for table_id, version in idle.items():
            if self._idle_seen.get(table_id) == version:
                continue
            self._idle_seen[table_id] = version
            live = await self._hold(table_id)
            if live is not None:
                await self._lead(live)
        self._idle_seen = {t: v for t, v in self._idle_seen.items() if t in idle}
        held = host.live_tables()
        for live in held:
            host.scheduler.schedule_bot(live)  # a robot left waiting (it runs at the home only)
            # a hand-over the presence's messages did not start: a pause that ran out since, a
            # seat taken by a player whose sockets were there already, a message lost
            self._consider(live)
        ids = {live.id for live in held}
        for kept in (self._home_of, self._home_changed, self._present):
            for table_id in [t for t in kept if t not in ids]:
                del kept[table_id]
        await self._renew_presence()
        await self._check_bans()
        self._forget_idle()

    async def _lead(self, live: LiveTable) -> None:
        """Takes the table over if its home is gone, then runs its timer and robots here."""
        if not self.leads(live):
            await self._take(live)
        if self.leads(live):
            self.host.scheduler.rearm(live)

    async def _hold(self, table_id: int) -> LiveTable | None:
        try:
            live = await self.host.get(table_id)
        except Exception:
            log.exception("table %s could not be loaded", table_id)
            return None
        self._touched.setdefault(table_id, time.monotonic())
        return live

    def _forget_idle(self) -> None:
        now = time.monotonic()
        soon = utcnow() + timedelta(seconds=FORGET_AFTER)
        for live in self.host.live_tables():
            table_id = live.id
            if (
                now - self._touched.get(table_id, 0.0) < FORGET_AFTER
                or (live.rec.status == PLAYING and live.rec.deadline and live.rec.deadline < soon)
                or not self.host.forget(live, finished_only=False)
            ):
                continue
            self._touched.pop(table_id, None)
            self._remote.pop(table_id, None)
            self._watching.pop(table_id, None)
            self._behind.pop(table_id, None)
            self._checked.pop(table_id, None)
            self._present.pop(table_id, None)
            self._home_of.pop(table_id, None)
            self._home_changed.pop(table_id, None)
