"""PostgreSQL that does not answer (``docs/scaling.md``, "What fails, and what is never lost"):
the store's statements give up after ``DATABASE_SECONDS`` rather than wait for the network, a
connection whose statement gave up is not handed out again, and the migrations, whose
statements may take long, are spared that limit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy import text

from tablee.store import Store
from tablee.store import reads as reads_module
from tablee.store import repo as repo_module
from tablee.store.repo import MIGRATION_LOCK, hash_token
from tablee.store.writes import unreachable
from tests.cluster.proxy import Proxy, proxied
from tests.serverkit import Database

pytestmark = pytest.mark.postgres

#: the statements' limit in these tests (the server's is 10 s)
LIMIT = 0.5


@pytest.fixture
def short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repo_module, "DATABASE_SECONDS", LIMIT)


@pytest.fixture
async def proxy(postgres_db: Database) -> AsyncIterator[Proxy]:
    async with proxied(postgres_db.url) as p:
        yield p


@pytest.fixture
async def store(postgres_db: Database, proxy: Proxy, short_limit: None) -> AsyncIterator[Store]:
    s = Store(proxy.url, postgres_db.schema)
    await s.migrate()
    try:
        yield s
    finally:
        proxy.resume()
        await s.close()


@pytest.mark.parametrize("how", ["pause", "stall"])
async def test_a_statement_the_network_holds_gives_up_and_the_next_one_after_it_is_answered(
    store: Store, proxy: Proxy, how: str
) -> None:
    """A partition (``pause``), or the pool's connections left half open (``stall``): a
    player's creation fails as the database out of reach within the limit (a REST call is then
    answered 503, not left waiting), and once the network carries again the next one is made
    at once: no connection left mid-cancel is handed out."""
    await store.create_player("before")
    getattr(proxy, how)()
    started = time.monotonic()
    with pytest.raises(Exception) as caught:
        await store.create_player("during")
    assert unreachable(caught.value), repr(caught.value)
    assert time.monotonic() - started < 4 * LIMIT + 2
    proxy.resume()
    started = time.monotonic()
    player, _ = await store.create_player("after")
    assert time.monotonic() - started < 2
    assert player.name == "after"


async def test_a_rest_calls_statement_in_a_partition_fails_after_its_limit_not_later(
    postgres_db: Database, proxy: Proxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statement (here the pool's ping before it) gives up after the limit, and its
    connection is closed then: SQLAlchemy's polite close of it, which waits up to 2 s more for a
    network that does not answer, finds it closed already. A REST call in a partition is
    answered 503 after the limit, not 2 s later."""
    limit = 1.5  # long enough for the 2 s to show apart from the limit's
    monkeypatch.setattr(repo_module, "DATABASE_SECONDS", limit)
    store = Store(proxy.url, postgres_db.schema)
    await store.migrate()
    try:
        await store.create_player("before")
        proxy.pause()
        started = time.monotonic()
        with pytest.raises(Exception) as caught:
            await store.create_player("during")
        took = time.monotonic() - started
        assert unreachable(caught.value), repr(caught.value)
        assert limit <= took < limit + 1, took
        proxy.resume()
        assert (await store.create_player("after"))[0].name == "after"
    finally:
        proxy.resume()
        await store.close()


async def test_a_statement_that_gave_up_leaves_no_aborted_transaction_behind(
    store: Store,
) -> None:
    """A statement past the limit on a database that answers (a lock held long): it gives up,
    and every connection the pool hands out after it works (none is inside a transaction the
    server aborted, nor waiting on the cancellation)."""
    with pytest.raises(TimeoutError):
        async with store.session() as s, s.begin():
            await s.execute(text(f"SELECT pg_sleep({LIMIT * 4})"))
    for _ in range(3):
        async with store.session() as s, s.begin():
            assert (await s.execute(text("SELECT 1"))).scalar() == 1
    assert store.engine.pool.checkedout() == 0


async def test_the_migrations_wait_for_another_replica_past_the_statements_limit(
    postgres_db: Database, short_limit: None
) -> None:
    """Replicas starting together migrate one after the other (an advisory lock): one that
    waits on it longer than the statements' limit still migrates, where a statement of the
    store's own engine waiting as long gives up."""
    other = await asyncpg.connect(postgres_db.url.replace("+asyncpg", ""))
    store = Store(postgres_db.url, postgres_db.schema)
    try:
        await other.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)

        async def release() -> None:
            await asyncio.sleep(LIMIT * 4)
            await other.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

        released = asyncio.create_task(release())
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            async with store.engine.begin() as conn:
                await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        await store.migrate()
        assert time.monotonic() - started >= LIMIT * 4
        await released
        await store.create_player("migrated")
    finally:
        await store.close()
        await other.close()


async def test_a_sockets_read_the_network_holds_is_answered_after_one_limit_not_two(
    postgres_db: Database, proxy: Proxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket's hello reads its player through the reads' own pool: in a partition the read
    gives up after the limit, and its connection is closed then, not given back to the pool
    after its cancellation has waited as long again (the hello answered in one limit, not two);
    the network back, the next read is made at once."""
    limit = 2.0
    monkeypatch.setattr(reads_module, "DATABASE_SECONDS", limit)
    store = Store(proxy.url, postgres_db.schema)
    try:
        await store.migrate()
        player, token = await store.create_player("Inès")
        reads = store.reads
        assert reads is not None
        now = datetime.now(UTC)
        assert (await reads.player_by_token(hash_token(token), now)) == player
        proxy.pause()
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await reads.player_by_token(hash_token(token), now)
        assert time.monotonic() - started < 1.75 * limit
        proxy.resume()
        started = time.monotonic()
        assert (await reads.player_by_token(hash_token(token), now)) == player
        assert time.monotonic() - started < 1
    finally:
        proxy.resume()
        await store.close()
