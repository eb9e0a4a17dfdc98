"""The presence hashes in Redis (``RedisBroker``): many tables renewed and read in one round trip
each, with the same expiry as one table's entry."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from tablee.tables.redis_broker import RedisBroker
from tests.cluster.kit import redis_url

pytestmark = pytest.mark.redis


async def _listening(prefix: str) -> RedisBroker:
    broker = RedisBroker(redis_url(), prefix, process="a")

    async def heard(table_id: int, version: int) -> None:
        pass

    await broker.start(heard)
    return broker


async def test_renewed_entries_outlive_their_first_life_and_the_others_expire() -> None:
    broker = await _listening(f"t{uuid.uuid4().hex[:8]}")
    try:
        await broker.set_presence(1, "a", [5, 7], ttl=1.0)
        await broker.set_presence(2, "a", [6], ttl=1.0)
        await broker.set_presence(2, "b", [8], ttl=30.0)
        await asyncio.sleep(0.5)
        await broker.renew_presence({1: [5, 7]}, "a", ttl=2.0)
        await asyncio.sleep(0.7)
        # table 1 renewed; table 2's entry of process a ran out, b's holds; 3 has none
        assert await broker.presences([1, 2, 3]) == {1: {"a": [5, 7]}, 2: {"b": [8]}, 3: {}}
        assert await broker.presence(2) == {"b": [8]}
    finally:
        await broker.close()
