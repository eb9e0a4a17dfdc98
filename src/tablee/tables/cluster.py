"""Several app processes on one database: the coordination strategy of each (``Cluster``).

Any process accepts any client for any table. The database and Redis do the coordinating:

- One writer per table at a time: its write lock in PostgreSQL (``store/cluster.py``), and every
  write names the version it started from (``StaleVersion`` otherwise). A process whose copy was
  behind catches up under the lock (the log rows after its own, up to the stored version); one
  that lost a race anyway reloads and tries the player's move again on the fresh state; the losing
  write wrote nothing, so a move is never applied twice.
- Every accepted change (moves, joins, leaves, starts, rematches) is published on Redis
  (``redis_broker.py``); each process holding that table reloads it from the database and pushes
  the new views to its own sockets.
- Timers and bots: a move the table makes itself is made by the process that holds the table's
  claim (``store/cluster.py``), on a copy it reloads under the claim; the others skip it. Each
  process runs a poller that finds overdue deadlines and bot tables nobody moved in the database
  (a process that died held them), checks its copies against the database (a lost Redis message
  delays an update by one poll at most) and forgets the tables nobody here watches.

Presence (the seats' "connected" flags) is shared through Redis too: each process lists the
players it has at each table it holds, and adds the other processes' lists to what it shows.

A ban is announced on Redis and every process closes that player's sockets; each also looks for
banned players among its sockets every ``TABLEE_BAN_CHECK_SECONDS``, for an announcement it missed.

docs/scaling.md tells the whole story, with figures.

A process holds a table only while it has a use for it (a subscriber, a timer or bot to run): the
process does not load every unfinished table at start-up, and the poller hands tables over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Collection
from datetime import timedelta
from typing import Any

from tablee.limits import Rate
from tablee.settings import Settings
from tablee.store import Store
from tablee.store.cluster import Claims, due_tables, idle_bot_tables, table_versions

from .broker import Broker
from .coordination import Coordination, Host
from .live import LiveTable, utcnow
from .records import PLAYING
from .redis_broker import RedisBroker

log = logging.getLogger("tablee.cluster")

#: a table nobody here has touched for this long, with no subscriber here, is forgotten
FORGET_AFTER = 30.0
#: how far back the poller looks for bot tables that stopped moving
IDLE_WINDOW = timedelta(minutes=10)
#: seconds a process's presence entry lives unless the process renews it (a third of it)
PRESENCE_TTL = 30.0


class Cluster(Coordination):
    shared = True

    def __init__(self, store: Store, settings: Settings, broker: Broker | None = None) -> None:
        if broker is None:
            if not settings.redis_url:
                raise ValueError("several processes need TABLEE_REDIS_URL")
            broker = RedisBroker(settings.redis_url, settings.redis_prefix, self.refresh)
        self.broker = broker
        self.claims = Claims(store, settings.database_schema)
        self.poll_seconds = settings.poll_seconds
        #: between two looks for banned players among this process's sockets (the Redis message
        #: of a ban closes them at once; this is for a lost one)
        self.ban_check_seconds = settings.ban_check_seconds
        #: a bot that has not moved for this long is looked for in the database
        self.idle_after = timedelta(
            seconds=max(2.0, 4 * settings.bot_delay_seconds + self.poll_seconds)
        )
        self._poller: asyncio.Task[None] | None = None
        #: when this process last changed or heard of each table it holds (monotonic)
        self._touched: dict[int, float] = {}
        #: idle bot tables found in the database and seen to have nothing to do, at that version
        self._idle_seen: dict[int, int] = {}
        self._first_poll = True
        #: names this process in the presence entries
        self.process_id = uuid.uuid4().hex[:12]
        #: players with the table open on other processes
        self._remote: dict[int, set[int]] = {}
        #: what this process last wrote of its own presence, per table
        self._shown: dict[int, frozenset[int]] = {}
        self._presence_renewed = 0.0
        self._presence_io = asyncio.Lock()
        self._bans_checked = 0.0

    def bind(self, host: Host) -> None:
        super().bind(host)
        if isinstance(self.broker, RedisBroker):
            self.broker.on_presence = self._heard_presence
            self.broker.on_ban = lambda player_id: host.banned_elsewhere([player_id])
            self.broker.on_logout = host.logged_out_elsewhere
            self.broker.on_chat = self._heard_chat

    async def start(self) -> None:
        """Unlike one process, nothing is loaded here: clients load the tables they open and the
        poller the ones with a timer or a bot to run."""
        await self.broker.start(self.host.heard)
        self._poller = asyncio.get_running_loop().create_task(self._poll_forever())

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(BaseException):
                await self._poller
        await self.broker.close()
        await self.claims.close()

    # -- turns -----------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def writing(self, live: LiveTable) -> AsyncIterator[None]:
        """The table's lock in this process, then its write lock in the database (the writers
        of every process queue there, first come first served), under which the copy is
        reloaded only if the stored version moved."""
        async with live.lock, self.claims.writing(live.id) as version:
            if version is None or version != live.rec.version:
                await self.fresh(live)
            yield

    @contextlib.asynccontextmanager
    async def automatic(self, live: LiveTable, version: int | None = None) -> AsyncIterator[bool]:
        """Only the process holding the table's claim makes its timer and bot moves; the others
        skip them. A bot's move thought out at ``version`` is thought again if it moved."""
        async with self.claims.hold(live.id) as mine:
            if not mine:
                yield False
                return
            async with self.writing(live):
                yield version is None or live.rec.version == version

    def published(self, live: LiveTable) -> None:
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

    async def loaded(self, live: LiveTable) -> None:
        await self._read_presence(live.id)

    def _local_players(self, table_id: int) -> frozenset[int]:
        """The players with the table open on this process (none once it left memory)."""
        live = self.host.cached(table_id)
        return frozenset() if live is None else frozenset(live.presence)

    async def _share_presence(self, table_id: int, force: bool = False) -> None:
        """Writes this process's players at the table, as they are when the write's turn comes:
        writes go one at a time, so the last one in Redis is the newest, whatever the order in
        which subscribes and unsubscribes asked for them."""
        if not isinstance(self.broker, RedisBroker):
            return
        async with self._presence_io:
            players = self._local_players(table_id)
            before = self._shown.get(table_id, frozenset())
            if not force and players == before:
                return
            if players:
                self._shown[table_id] = players
            else:
                self._shown.pop(table_id, None)
            try:
                # the writes take turns: a Redis that hangs must not hold up every subscribe
                async with asyncio.timeout(PRESENCE_TTL / 6):
                    await self.broker.set_presence(
                        table_id,
                        self.process_id,
                        sorted(players),
                        PRESENCE_TTL,
                        announce=players != before,
                    )
            except TimeoutError:  # put right by the next renewal, or the entry expires
                log.warning("sharing the presence at table %s timed out", table_id)

    async def _heard_presence(self, table_id: int, process: str) -> None:
        if process != self.process_id and self.host.cached(table_id) is not None:
            await self._read_presence(table_id)

    async def _read_presence(self, table_id: int) -> None:
        if not isinstance(self.broker, RedisBroker):
            return
        entries = await self.broker.presence(table_id)
        remote = {p for proc, ps in entries.items() if proc != self.process_id for p in ps}
        if remote != self._remote.get(table_id, set()):
            if remote:
                self._remote[table_id] = remote
            else:
                self._remote.pop(table_id, None)
            live = self.host.cached(table_id)
            if live is not None:
                self.host.retell(live)  # the seats' "connected" flags changed

    async def _renew_presence(self) -> None:
        """Every third of the entries' life: renew ours, and drop the entries that expired (a
        process that died) from what we show."""
        if time.monotonic() - self._presence_renewed < PRESENCE_TTL / 3:
            return
        self._presence_renewed = time.monotonic()
        for table_id in list(self._shown):
            await self._share_presence(table_id, force=True)
        for table_id in list(self._remote):
            await self._read_presence(table_id)

    async def refresh(self) -> None:
        """Bring every table held here up to date with the database."""
        held = {live.id: live for live in self.host.live_tables()}
        stored = await table_versions(self.host.store, list(held))
        for table_id, live in held.items():
            version = stored.get(table_id)
            if version is not None and version > live.rec.version:
                await self.host.heard(table_id, version)

    # -- the poller ------------------------------------------------------------------------------

    async def _poll_forever(self) -> None:
        while True:
            started = time.monotonic()
            try:
                await self.poll()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster poller failed; trying again")
            await asyncio.sleep(max(0.05, self.poll_seconds - (time.monotonic() - started)))

    async def poll(self) -> None:
        """One round: catch up, fire overdue deadlines, restart idle bots, forget idle tables."""
        await self.refresh()
        host, now = self.host, utcnow()
        for table_id in await due_tables(host.store, now):
            live = await self._hold(table_id)
            if live is not None:
                host.scheduler.arm(live)  # fires at once: the claim decides which process moves
        since = None if self._first_poll else now - self.idle_after - IDLE_WINDOW
        self._first_poll = False
        idle = await idle_bot_tables(host.store, now - self.idle_after, since)
        for table_id, version in idle.items():
            if host.cached(table_id) is not None or self._idle_seen.get(table_id) == version:
                continue
            self._idle_seen[table_id] = version
            await self._hold(table_id)  # schedules the bot if one is to move
        self._idle_seen = {t: v for t, v in self._idle_seen.items() if t in idle}
        for live in host.live_tables():
            host.scheduler.schedule_bot(live)  # a bot left waiting when another process held it
        await self._renew_presence()
        await self._check_bans()
        self._forget_idle()

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
