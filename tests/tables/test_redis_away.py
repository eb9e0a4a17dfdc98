"""``RedisBroker`` when Redis goes away: the first command that cannot reach it gives up after its
timeout, the next ones at once (nothing waits on a Redis known to be away), and a ping finds it
back, after which the tables held are compared with the database (``on_reconnect``)."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from tablee.tables import redis_broker
from tablee.tables.redis_broker import RedisBroker
from tests.cluster.kit import redis_url
from tests.cluster.proxy import Proxy

pytestmark = pytest.mark.redis


@pytest.mark.parametrize("how", ["pause", "cut"])
async def test_commands_give_up_at_once_while_redis_is_away_and_work_again_when_it_is_back(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(redis_broker, "COMMAND_SECONDS", 0.5)
    monkeypatch.setattr(redis_broker, "PROBE_SECONDS", 0.1)
    proxy = await Proxy(redis_url()).start()
    compared = 0

    async def reconnected() -> None:
        nonlocal compared
        compared += 1

    async def heard(table_id: int, version: int) -> None:
        pass

    prefix = f"t{uuid.uuid4().hex[:8]}"
    broker = RedisBroker(proxy.url, prefix, on_reconnect=reconnected, process="a")
    await broker.start(heard)
    try:
        await broker.set_presence(1, "a", [5], ttl=30.0)
        assert broker.away_since is None
        getattr(proxy, how)()
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
        assert compared == 0
        proxy.resume()
        async with asyncio.timeout(10):
            while broker.away_since is not None or compared == 0:
                await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # the subscription's retries (a cut one) are over
        # back: the tables held are compared with the database once, and commands work again
        assert compared == 1
        await broker.set_presence(2, "a", [6], ttl=30.0)
        assert await broker.presences([1, 2]) == {1: {"a": [5]}, 2: {"a": [6]}}
        assert await broker.take_token("chat:5", 3, 1.0) == 0.0
    finally:
        await broker.close()
        await proxy.close()


async def test_a_subscription_the_network_left_half_open_is_found_quiet_and_renewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The connections to Redis stop carrying without failing (``stall``): the subscription
    reads no error, only silence. Pinged and not answered, it is given up and made again on a
    new connection, and the process hears its channel again (the moves sent to it, the frames);
    the tables it holds are compared with the database (what it missed)."""
    monkeypatch.setattr(redis_broker, "COMMAND_SECONDS", 0.5)
    monkeypatch.setattr(redis_broker, "PROBE_SECONDS", 0.1)
    monkeypatch.setattr(redis_broker, "SILENT_SECONDS", 0.5)
    proxy = await Proxy(redis_url()).start()
    compared = 0

    async def reconnected() -> None:
        nonlocal compared
        compared += 1

    async def heard(table_id: int, version: int) -> None:
        pass

    prefix = f"t{uuid.uuid4().hex[:8]}"
    broker = RedisBroker(proxy.url, prefix, on_reconnect=reconnected, process="a")
    direct: list[str] = []
    broker.on_direct = direct.append
    other = RedisBroker(redis_url(), prefix, process="b")  # not through the proxy
    await broker.start(heard)
    await other.start(heard)
    try:
        sent = other.send("a", "before", count=True)
        assert sent is not None and await sent == 1
        async with asyncio.timeout(5):
            while direct != ["before"]:
                await asyncio.sleep(0.05)
        proxy.stall()
        async with asyncio.timeout(15):
            while "after" not in direct:
                other.send("a", "after")
                await asyncio.sleep(0.2)
        assert compared >= 1
    finally:
        await broker.close()
        await other.close()
        await proxy.close()
