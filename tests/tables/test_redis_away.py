"""``RedisBroker`` when Redis goes away: the first command that cannot reach it gives up after its
timeout, the next ones at once (nothing waits on a Redis known to be away), and a ping finds it
back, after which the tables held are compared with the database (``on_reconnect``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from tablee.tables import redis_broker
from tablee.tables.redis_broker import RedisBroker
from tests.cluster.kit import redis_url
from tests.cluster.proxy import Proxy, proxied

pytestmark = pytest.mark.redis


@dataclass
class Through:
    """A broker (process ``a``) reaching Redis through ``proxy``, with short timeouts."""

    proxy: Proxy
    broker: RedisBroker
    prefix: str
    #: how many times the tables held were compared with the database
    compared: int = 0
    #: what the process heard on its own channel
    direct: list[str] = field(default_factory=list)


async def _heard(table_id: int, version: int) -> None:
    pass


@contextlib.asynccontextmanager
async def _through_proxy(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Through]:
    monkeypatch.setattr(redis_broker, "COMMAND_SECONDS", 0.5)
    monkeypatch.setattr(redis_broker, "PROBE_SECONDS", 0.1)
    monkeypatch.setattr(redis_broker, "SILENT_SECONDS", 0.5)
    async with proxied(redis_url()) as proxy:
        prefix = f"t{uuid.uuid4().hex[:8]}"

        async def reconnected() -> None:
            it.compared += 1

        broker = RedisBroker(proxy.url, prefix, on_reconnect=reconnected, process="a")
        it = Through(proxy, broker, prefix)
        broker.on_direct = it.direct.append
        await broker.start(_heard)
        try:
            yield it
        finally:
            await broker.close()


@pytest.mark.parametrize("how", ["pause", "cut"])
async def test_commands_give_up_at_once_while_redis_is_away_and_work_again_when_it_is_back(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    async with _through_proxy(monkeypatch) as it:
        broker = it.broker
        await broker.set_presence(1, "a", [5], ttl=30.0)
        assert broker.away_since is None
        getattr(it.proxy, how)()
        # the first command finds Redis away: a partition answers nothing (its timeout), a cut
        # connection refuses at once
        started = time.monotonic()
        await broker.publish(1, 2)
        assert time.monotonic() - started < 3
        assert broker.away_since is not None
        # the next ones do not try: each gives up at once, as it would have after its timeout
        started = time.monotonic()
        await broker.set_presence(2, "a", [6], ttl=30.0)
        assert await broker.presences([1, 2]) == {}
        assert await broker.take_token("chat:5", 3, 1.0) is None
        sent = broker.send("b", "a\n{}", count=True)
        assert sent is not None and await sent == -1
        assert time.monotonic() - started < 0.2
        assert it.compared == 0
        it.proxy.resume()
        async with asyncio.timeout(10):
            while broker.away_since is not None or it.compared == 0:
                await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # the subscription's retries (a cut one) are over
        # back: the tables held are compared with the database once, and commands work again
        assert it.compared == 1
        await broker.set_presence(2, "a", [6], ttl=30.0)
        assert await broker.presences([1, 2]) == {1: {"a": [5]}, 2: {"a": [6]}}
        assert await broker.take_token("chat:5", 3, 1.0) == 0.0


async def test_a_subscription_the_network_left_half_open_is_found_quiet_and_renewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The connections to Redis stop carrying without failing (``stall``): the subscription
    reads no error, only silence. Pinged and not answered, it is given up and made again on a
    new connection, and the process hears its channel again (the moves sent to it, the frames);
    the tables it holds are compared with the database (what it missed)."""
    async with _through_proxy(monkeypatch) as it:
        other = RedisBroker(redis_url(), it.prefix, process="b")  # not through the proxy
        await other.start(_heard)
        try:
            sent = other.send("a", "before", count=True)
            assert sent is not None and await sent == 1
            async with asyncio.timeout(5):
                while it.direct != ["before"]:
                    await asyncio.sleep(0.05)
            it.proxy.stall()
            async with asyncio.timeout(15):
                while "after" not in it.direct:
                    other.send("a", "after")
                    await asyncio.sleep(0.2)
            assert it.compared >= 1
        finally:
            await other.close()
