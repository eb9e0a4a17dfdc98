"""The broker of several processes: "table X is now at version V" over Redis pub/sub.

One channel (``<prefix>:tables``) carries every table's changes as ``"<table> <version>"``; each
process hears all of them and reloads the tables it holds. A process hears its own messages too
and ignores them (it already holds that version).

Pub/sub delivers at most once: a message sent while a process is cut off from Redis is lost to
it. So the broker calls ``on_reconnect`` after every reconnection (the manager then compares every
table it holds with the database), and the cluster's poller does the same comparison every few
seconds anyway; a lost message delays an update, it never loses one.

Messages of one table are coalesced: while the listener reloads a table, newer versions of it
wait, and only the newest is handed over next.

Presence (who has a table open, for the seats' "connected" flags) is kept in a Redis hash per
table, one field per process with the players it has there and until when that holds (a process
renews its fields; a dead one's expire), and announced as ``"p <table> <process>"``.

A ban is announced as ``"b <player>"``: every process closes that player's sockets at once (each
also looks for banned players among its sockets every few seconds, for a message lost). A player
who logs out everywhere is announced the same way as ``"l <player>"``.

Besides, each process listens on a channel of its own (``<prefix>:proc:<process>``), where the
other processes send it what is for it alone (``cluster.py``): the moves for the tables it is
the home of, the answers to the moves it forwarded, and the frames of the tables it relays. What a
process sends there goes out in order, through one queue (``send``): the answer to a move
reaches its sender before the frames of the change it made.

The chat's events (a message stored, deleted, a player muted) go out as ``"c <json>"`` (the JSON
names the process that sent it, which ignores its own); a lost one costs a message's live push,
never the message (the chat's history is read from the database). The chat's rate limits are
token buckets kept in Redis (``take_token``: one Lua script, Redis's own clock), so that a player
writing through several processes is limited once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

import redis.asyncio as redis

from .broker import Listener

PresenceListener = Callable[[int, str], Coroutine[Any, Any, None]]
BanListener = Callable[[int], object]
ChatListener = Callable[[dict[str, Any]], object]

#: a token bucket in a Redis hash (tokens, at): takes one token, or answers the wait in seconds
TOKEN_BUCKET = """
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(v[1]) or burst
local at = tonumber(v[2]) or now
if now > at then
  tokens = math.min(burst, tokens + (now - at) * rate)
  at = now
end
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(at))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""

log = logging.getLogger("tablee.broker")

#: seconds between reconnection attempts, doubling up to the last
BACKOFF = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
#: how long a connection or a command may take: a Redis cut off by the network (a partition, a
#: host gone without closing its connections) answers nothing and refuses nothing, and whatever
#: waits on it (a move sent to its home, a subscribe reading the presence, the poller) must give
#: up and go on without it
COMMAND_SECONDS = 5.0
#: what a command that could not reach Redis raises (a refused or dropped connection, a timeout)
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError, OSError, TimeoutError)
#: a subscription that heard nothing for this long is pinged, and given up if it does not answer
#: within ``COMMAND_SECONDS``
SILENT_SECONDS = 5.0
#: the data of those pings
ALIVE = "tablee-alive"
#: once a command has failed, Redis is away: commands are not tried (they fail at once, as they
#: would have after their timeout) while a ping every this many seconds looks for it back
PROBE_SECONDS = 1.0


class RedisBroker:
    def __init__(
        self,
        url: str,
        prefix: str = "tablee",
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
        process: str | None = None,
    ) -> None:
        self.url = url
        self.prefix = prefix
        self.channel = f"{prefix}:tables"
        #: this process's own channel (None: it has none)
        self.own = None if process is None else self.process_channel(process)
        #: called with every message heard on the process's own channel, in order
        self.on_direct: Callable[[str], object] | None = None
        #: what ``send`` queued, and its receivers-count futures (None: not asked)
        self._outbox: list[tuple[str, str, asyncio.Future[int] | None]] = []
        self._sender: asyncio.Task[None] | None = None
        self.on_reconnect = on_reconnect
        #: called with (table, process) when another process's presence at a table changed
        self.on_presence: PresenceListener | None = None
        #: called with a player's id when an admin (of any process) banned them
        self.on_ban: BanListener | None = None
        #: called with a player's id when they logged out everywhere (through any process)
        self.on_logout: BanListener | None = None
        #: called with a chat event another process announced
        self.on_chat: ChatListener | None = None
        self._bucket_script: Any = None
        self._redis: redis.Redis | None = None
        self._listener: Listener | None = None
        self._reader: asyncio.Task[None] | None = None
        #: newest version heard per table, not handed to the listener yet
        self._pending: dict[int, int] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._presence_tasks: set[asyncio.Task[None]] = set()
        #: messages published and heard since start-up (metrics, tests)
        self.published = 0
        self.heard = 0
        #: since when Redis is away (monotonic), None while it answers
        self.away_since: float | None = None
        self._prober: asyncio.Task[None] | None = None
        #: whether the subscription holds (False from its loss to its renewal)
        self._subscribed = True

    async def start(self, listener: Listener) -> None:
        """Subscribes before returning: a process that cannot reach Redis does not start."""
        self._listener = listener
        self._redis = redis.from_url(
            self.url,
            health_check_interval=10,
            socket_timeout=COMMAND_SECONDS,
            socket_connect_timeout=COMMAND_SECONDS,
        )
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(*self._channels())
        self._reader = asyncio.get_running_loop().create_task(self._read(pubsub))

    def _channels(self) -> list[str]:
        return [self.channel] if self.own is None else [self.channel, self.own]

    def process_channel(self, process: str) -> str:
        return f"{self.prefix}:proc:{process}"

    # -- Redis away ------------------------------------------------------------------------------

    def _usable(self) -> bool:
        """Whether to try a command now: not while Redis is away. Without this, every command
        tried while the network drops what goes to Redis would wait out its timeout: each
        subscribe, each chat message, each move sent to another process, one after another."""
        return self._redis is not None and self.away_since is None

    def _failed(self, exc: BaseException) -> None:
        """A command failed: if Redis could not be reached, it is away until a ping answers."""
        if self.away_since is not None or not isinstance(exc, UNREACHABLE):
            return
        self.away_since = time.monotonic()
        log.warning("Redis is away (%s): going on without it", exc or type(exc).__name__)
        if self._prober is None or self._prober.done():
            self._prober = asyncio.get_running_loop().create_task(self._probe())

    async def _probe(self) -> None:
        while self.away_since is not None:
            await asyncio.sleep(PROBE_SECONDS)
            try:
                assert self._redis is not None
                await cast(Awaitable[Any], self._redis.ping())
            except Exception:
                continue
            if self.away_since is None:
                return  # the subscription, back first, said so
            # a subscription that lived through it (the network held what was sent) missed
            # nothing; one that was lost missed what was published meanwhile, and compares the
            # tables with the database when it is back (``_read``)
            try:
                await self._back(compare=self._subscribed)
            except Exception:
                log.exception("comparing the tables with the database failed")

    async def _back(self, compare: bool) -> None:
        """Redis answers again; ``compare``: the tables held here are compared with the
        database (what was published meanwhile did not reach this process)."""
        if self.away_since is not None:
            log.warning("Redis is back after %.1f s", time.monotonic() - self.away_since)
            self.away_since = None
        if compare and self.on_reconnect is not None:
            await self.on_reconnect()

    def send(self, process: str, text: str, count: bool = False) -> asyncio.Future[int] | None:
        """Queues ``text`` for ``process``'s own channel; the queue goes out in order, in
        pipelines. ``count``: a future of how many listened (0: the process is gone, or cut off
        from Redis; -1: Redis could not be reached)."""
        future = asyncio.get_running_loop().create_future() if count else None
        self._outbox.append((self.process_channel(process), text, future))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_all())
        return future

    async def _send_all(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            counts: list[Any] = [-1] * len(batch)
            # moves waiting for an answer are told; frames are lost
            if self._usable():
                try:
                    assert self._redis is not None
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, text, _ in batch:
                            pipe.publish(channel, text)
                        counts = await pipe.execute()
                    self.published += len(batch)
                except Exception as exc:
                    log.warning("could not send %s messages: %s", len(batch), exc)
                    self._failed(exc)
            for (_, _, future), n in zip(batch, counts, strict=True):
                if future is not None and not future.done():
                    future.set_result(int(n))

    async def publish(self, table_id: int, version: int) -> None:
        if not self._usable():
            return
        try:
            assert self._redis is not None
            await self._redis.publish(self.channel, f"{table_id} {version}")
            self.published += 1
        except Exception as exc:  # the change is committed; the others catch up by polling
            log.warning("could not publish table %s v%s: %s", table_id, version, exc)
            self._failed(exc)

    async def publish_ban(self, player_id: int, logout: bool = False) -> None:
        # not announced: the others find the ban in the database within seconds
        if not self._usable():
            return
        try:
            assert self._redis is not None
            await self._redis.publish(self.channel, f"{'l' if logout else 'b'} {player_id}")
        except Exception as exc:
            log.warning("could not announce the ban of player %s: %s", player_id, exc)
            self._failed(exc)

    async def publish_chat(self, event: dict[str, Any]) -> None:
        # not announced: stored, the others show it on their next subscribe
        if not self._usable():
            return
        try:
            assert self._redis is not None
            await self._redis.publish(self.channel, "c " + json.dumps(event))
        except Exception as exc:
            log.warning("could not announce a chat event: %s", exc)
            self._failed(exc)

    async def take_token(self, key: str, burst: float, per_second: float) -> float | None:
        """A token from the shared bucket ``key``: 0.0 taken, else the wait; None when Redis
        cannot be reached (the caller falls back on its own bucket)."""
        if not self._usable():
            return None
        if self._bucket_script is None:
            assert self._redis is not None
            self._bucket_script = self._redis.register_script(TOKEN_BUCKET)
        try:
            answer = await self._bucket_script(
                keys=[f"{self.prefix}:bucket:{key}"], args=[burst, per_second]
            )
        except Exception as exc:
            log.warning("the shared bucket %s could not be read: %s", key, exc)
            self._failed(exc)
            return None
        return float(answer.decode() if isinstance(answer, bytes) else answer)

    # -- presence --------------------------------------------------------------------------------

    def _presence_key(self, table_id: int) -> str:
        return f"{self.prefix}:presence:{table_id}"

    async def set_presence(
        self,
        table_id: int,
        process: str,
        players: list[int] | None,
        ttl: float,
        announce: bool = True,
    ) -> None:
        """This process's players at a table (None: nobody watches it there, its field goes),
        valid for ``ttl`` seconds."""
        if not self._usable():
            return
        assert self._redis is not None
        key = self._presence_key(table_id)
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                if players is not None:
                    value = json.dumps({"players": players, "until": time.time() + ttl})
                    pipe.hset(key, process, value)
                    pipe.expire(key, int(ttl) + 1)
                else:
                    pipe.hdel(key, process)
                if announce:
                    pipe.publish(self.channel, f"p {table_id} {process}")
                await pipe.execute()
        except Exception as exc:
            log.warning("could not share the presence at table %s: %s", table_id, exc)
            self._failed(exc)

    async def renew_presence(self, entries: dict[int, list[int]], process: str, ttl: float) -> None:
        """``set_presence`` of many tables at once, unchanged (nothing announced): one round trip
        for all of them."""
        if not self._usable() or not entries:
            return
        assert self._redis is not None
        until = time.time() + ttl
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for table_id, players in entries.items():
                    key = self._presence_key(table_id)
                    pipe.hset(key, process, json.dumps({"players": players, "until": until}))
                    pipe.expire(key, int(ttl) + 1)
                await pipe.execute()
        except Exception as exc:
            log.warning("could not renew the presence at %s tables: %s", len(entries), exc)
            self._failed(exc)

    async def presence(self, table_id: int) -> dict[str, list[int]] | None:
        """Players per process at a table, expired fields left out; None when Redis could not
        tell (not: nobody)."""
        return (await self.presences([table_id])).get(table_id)

    async def presences(self, table_ids: list[int]) -> dict[int, dict[str, list[int]]]:
        """``presence`` of many tables, in one round trip (a table Redis could not tell is left
        out)."""
        if not self._usable() or not table_ids:
            return {}
        assert self._redis is not None
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for table_id in table_ids:
                    pipe.hgetall(self._presence_key(table_id))
                raws: list[Any] = await pipe.execute()
        except Exception as exc:
            log.warning("could not read the presence at %s tables: %s", len(table_ids), exc)
            self._failed(exc)
            return {}
        now = time.time()
        tables: dict[int, dict[str, list[int]]] = {}
        for table_id, raw in zip(table_ids, raws, strict=True):
            out = tables[table_id] = {}
            for field, value in raw.items():
                try:
                    data = json.loads(value)
                    if data["until"] >= now:
                        name = field.decode() if isinstance(field, bytes) else str(field)
                        out[name] = [int(p) for p in data["players"]]
                except (ValueError, KeyError, TypeError):
                    continue
        return tables

    async def close(self) -> None:
        tasks = [
            t
            for t in (
                self._reader,
                self._sender,
                self._prober,
                *self._workers.values(),
                *self._presence_tasks,
            )
            if t is not None
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._workers.clear()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
            self._redis = None

    # -- listening -------------------------------------------------------------------------------

    async def _read(self, pubsub: Any) -> None:
        failures = 0
        clock = asyncio.get_running_loop().time
        #: when the subscription last heard anything, and when it was pinged since (None: not)
        heard_at, pinged_at = clock(), None
        while True:
            try:
                if pubsub is None:
                    assert self._redis is not None
                    pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                    await pubsub.subscribe(*self._channels())
                    failures = 0
                    heard_at, pinged_at = clock(), None
                    log.info("resubscribed to %s", self.channel)
                    self._subscribed = True
                    await self._back(compare=True)
                message = await pubsub.get_message(timeout=1.0)
                now = clock()
                if message is not None:
                    heard_at, pinged_at = now, None
                elif pinged_at is not None:
                    if now - pinged_at > COMMAND_SECONDS:
                        # a connection the network left half open (Redis restarted behind it, a
                        # firewall forgot it) fails no read: it only goes quiet
                        raise ConnectionError("the subscription did not answer a ping")
                elif now - heard_at > SILENT_SECONDS:
                    await pubsub.ping(ALIVE)
                    pinged_at = now
                if message is not None and message.get("type") == "message":
                    if self.own is not None and _text(message["channel"]) == self.own:
                        self._heard_direct(message["data"])
                    else:
                        self._heard(message["data"])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as exc:
                delay = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                log.warning("Redis subscription lost (%s); retrying in %ss", exc, delay)
                self._subscribed = False
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                pubsub = None
                await asyncio.sleep(delay)

    def _heard(self, data: bytes | str) -> None:
        raw = data.decode() if isinstance(data, bytes) else data
        if raw.startswith("p "):
            self._heard_presence(raw)
            return
        if raw.startswith(("b ", "l ")):
            self._heard_ban(raw)
            return
        if raw.startswith("c "):
            self._heard_chat(raw)
            return
        try:
            table, version = (int(x) for x in raw.split())
        except ValueError:
            log.warning("ignored a malformed message on %s: %r", self.channel, data)
            return
        self.heard += 1
        if version > self._pending.get(table, -1):
            self._pending[table] = version
        if table not in self._workers:
            task = asyncio.get_running_loop().create_task(self._deliver(table))
            self._workers[table] = task

    def _heard_direct(self, data: bytes | str) -> None:
        self.heard += 1
        if self.on_direct is not None:
            try:
                self.on_direct(_text(data))
            except Exception:
                log.exception("a message to this process could not be handled")

    def _heard_presence(self, raw: str) -> None:
        try:
            _, table, process = raw.split()
            table_id = int(table)
        except ValueError:
            log.warning("ignored a malformed message on %s: %r", self.channel, raw)
            return
        if self.on_presence is not None:
            task = asyncio.get_running_loop().create_task(self.on_presence(table_id, process))
            self._presence_tasks.add(task)
            task.add_done_callback(self._presence_tasks.discard)

    def _heard_ban(self, raw: str) -> None:
        try:
            player_id = int(raw[2:])
        except ValueError:
            log.warning("ignored a malformed message on %s: %r", self.channel, raw)
            return
        listener = self.on_logout if raw.startswith("l ") else self.on_ban
        if listener is not None:
            try:
                listener(player_id)
            except Exception:
                log.exception("closing the sockets of banned player %s failed", player_id)

    def _heard_chat(self, raw: str) -> None:
        try:
            event = json.loads(raw[2:])
        except ValueError:
            log.warning("ignored a malformed message on %s: %r", self.channel, raw)
            return
        if self.on_chat is not None and isinstance(event, dict):
            try:
                self.on_chat(event)
            except Exception:
                log.exception("a chat event could not be handled")

    async def _deliver(self, table: int) -> None:
        try:
            while (version := self._pending.pop(table, None)) is not None:
                assert self._listener is not None
                try:
                    await self._listener(table, version)
                except Exception:
                    log.exception("refreshing table %s after v%s failed", table, version)
        finally:
            self._workers.pop(table, None)


def _text(data: bytes | str) -> str:
    return data.decode() if isinstance(data, bytes) else data
