"""The per-table write locks of several processes on PostgreSQL (``store/cluster.py``): taken at
once when free, waited for when another process holds them, and always read with the version the
holder left."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

from tablee.store import Store, TableRecord
from tablee.store.cluster import LOCKERS, Claims
from tests.serverkit import Database
from tests.store.kit import toy_table


@pytest.fixture
async def stores(postgres_db: Database) -> AsyncIterator[tuple[Store, Store]]:
    """Two processes' stores (write locks are PostgreSQL's; SQLite has one process)."""
    db = postgres_db
    first, second = Store(db.url, db.schema), Store(db.url, db.schema)
    await first.migrate()
    yield first, second
    await first.close()
    await second.close()


async def _table(store: Store) -> TableRecord:
    return await toy_table(store, seed=3)


async def _bump(store: Store, rec: TableRecord) -> TableRecord:
    new = dataclasses.replace(rec, version=rec.version + 1)
    await store.save_table(new, rec.version, seats=False)
    return new


async def test_a_process_waits_for_the_lock_another_holds_and_reads_its_write(
    stores: tuple[Store, Store], postgres_db: Database
) -> None:
    s1, s2 = stores
    a, b = Claims(s1, postgres_db.schema), Claims(s2, postgres_db.schema)
    rec = await _table(s1)
    got: list[int | None] = []

    async def second_writer() -> None:
        async with b.writing(rec.id) as version:
            got.append(version)

    async with a.writing(rec.id) as version:
        assert version == rec.version and a.quick_writes == 1
        waiting = asyncio.create_task(second_writer())
        async with asyncio.timeout(30):
            while b.waited_writes == 0:  # it found the lock taken, and queues for it
                await asyncio.sleep(0.01)
        rec = await _bump(s1, rec)
        await asyncio.sleep(0.05)
        assert not waiting.done() and got == []
    async with asyncio.timeout(30):
        await waiting
    assert got == [rec.version]  # the holder's write, seen by the next writer
    # and free again for the first process, at once
    async with a.writing(rec.id) as version:
        assert version == rec.version and a.quick_writes == 2
    await a.close()
    await b.close()


async def test_tables_sharing_a_lock_connection_are_held_apart(
    stores: tuple[Store, Store], postgres_db: Database
) -> None:
    s1, s2 = stores
    a, b = Claims(s1, postgres_db.schema), Claims(s2, postgres_db.schema)
    first = await _table(s1)
    others = [await _table(s1) for _ in range(LOCKERS)]
    # the table on the same connection as the first
    second = next(t for t in others if t.id % LOCKERS == first.id % LOCKERS)
    async with a.writing(first.id), a.writing(second.id):
        assert a.quick_writes == 2 and a.waited_writes == 0
    # both let go: another process takes each at once
    for t in (first, second):
        async with b.writing(t.id) as version:
            assert version == t.version
    assert b.quick_writes == 2 and b.waited_writes == 0
    await a.close()
    await b.close()


async def test_two_tasks_of_one_process_take_turns_for_a_table(
    stores: tuple[Store, Store], postgres_db: Database
) -> None:
    # the lock connections are shared and advisory locks are re-entrant within a session: the
    # server alone would let both tasks in (a table forgotten and loaded again has a new
    # in-memory lock, so the manager's lock does not always keep them apart)
    s1, s2 = stores
    a, b = Claims(s1, postgres_db.schema), Claims(s2, postgres_db.schema)
    rec = await _table(s1)
    holders, most = 0, 0

    async def writer() -> None:
        nonlocal holders, most
        async with a.writing(rec.id):
            holders += 1
            most = max(most, holders)
            await asyncio.sleep(0.01)
            holders -= 1

    await asyncio.gather(*(writer() for _ in range(5)))
    assert most == 1 and a.quick_writes == 5
    async with b.writing(rec.id):  # every turn let go of the lock
        assert b.quick_writes == 1
    await a.close()
    await b.close()
