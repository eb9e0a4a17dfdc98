"""Tables' homes on PostgreSQL (``store/cluster.py``): one owner at a time, taken over only
from a process whose lease ran out, and a write from an owner that lost the table is refused by
the database (its fencing token is not the table's any more)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

from tablee.store import StaleVersion, Store, TableRecord
from tablee.store.cluster import Homes, leases
from tablee.tables.records import PLAYING
from tests.serverkit import Database
from tests.store.kit import toy_table


@pytest.fixture
async def stores(postgres_db: Database) -> AsyncIterator[tuple[Store, Store]]:
    """Two processes' stores (homes are for several processes, on PostgreSQL)."""
    db = postgres_db
    first, second = Store(db.url, db.schema), Store(db.url, db.schema)
    await first.migrate()
    yield first, second
    await first.close()
    await second.close()


async def _bump(store: Store, rec: TableRecord, fence: int | None) -> TableRecord:
    new = dataclasses.replace(rec, version=rec.version + 1)
    await store.save_table(new, rec.version, seats=False, fence=fence)
    return new


async def _two_homes(
    stores: tuple[Store, Store], lease_a: float = 30.0, lease_b: float = 30.0
) -> tuple[Homes, Homes]:
    """Two processes, each on its own store, with a lease running."""
    a, b = Homes(stores[0], "proc-a", lease_a), Homes(stores[1], "proc-b", lease_b)
    await a.beat()
    await b.beat()
    return a, b


async def test_a_table_has_one_home_while_its_lease_runs(stores: tuple[Store, Store]) -> None:
    s1 = stores[0]
    a, b = await _two_homes(stores)
    rec = await toy_table(s1, seed=3)
    first = await a.take(rec.id)
    assert first is not None and first.process == "proc-a" and first.token == 1
    # b finds a alive: the table stays a's, and b is told whose it is
    other = await b.take(rec.id)
    assert other is not None and other.process == "proc-a" and other.alive
    # taking it again changes nothing: same owner, same token
    again = await a.take(rec.id)
    assert again == first
    assert (await b.homes([rec.id]))[rec.id].token == 1


async def test_two_processes_taking_a_homeless_table_at_once_give_it_one_home(
    stores: tuple[Store, Store],
) -> None:
    s1 = stores[0]
    a, b = await _two_homes(stores)
    rec = await toy_table(s1, seed=3)
    got = await asyncio.gather(a.take(rec.id), b.take(rec.id))
    assert got[0] is not None and got[1] is not None
    assert got[0].process == got[1].process and got[0].token == got[1].token == 1


async def test_a_home_whose_lease_ran_out_is_taken_over_and_its_writes_are_refused(
    stores: tuple[Store, Store],
) -> None:
    s1, s2 = stores
    a, b = await _two_homes(stores, lease_a=0.3)
    rec = await toy_table(s1, seed=3)
    mine = await a.take(rec.id)
    assert mine is not None and mine.process == "proc-a"
    rec = await _bump(s1, rec, mine.token)  # the home writes with its token
    # a stalls: its lease runs out, b takes the table over with a new token
    await asyncio.sleep(0.5)
    theirs = await b.take(rec.id)
    assert theirs is not None and theirs.process == "proc-b" and theirs.token == mine.token + 1
    # a wakes up and writes at the right version with its old token: refused, nothing written
    with pytest.raises(StaleVersion):
        await _bump(s1, rec, mine.token)
    assert (await b.homes([rec.id]))[rec.id].version == rec.version
    # the new home writes at that same version
    rec = await _bump(s2, rec, theirs.token)
    assert (await a.homes([rec.id]))[rec.id].version == rec.version


async def test_a_process_that_leaves_gives_its_tables_up_at_once(
    stores: tuple[Store, Store],
) -> None:
    s1 = stores[0]
    a, b = await _two_homes(stores)
    rec = await toy_table(s1, seed=3)
    assert (await a.take(rec.id)) is not None
    await a.leave()
    theirs = await b.take(rec.id)
    assert theirs is not None and theirs.process == "proc-b" and theirs.token == 2


async def test_the_lease_of_a_process_dead_long_enough_is_forgotten_and_its_table_taken(
    stores: tuple[Store, Store],
) -> None:
    s1, s2 = stores
    a = Homes(s1, "proc-a", 0.1)
    await a.beat()
    rec = await toy_table(s1, seed=3)
    mine = await a.take(rec.id)
    assert mine is not None
    await _bump(s1, dataclasses.replace(rec, status=PLAYING), mine.token)  # its game began
    await asyncio.sleep(0.3)  # a died: its lease ran out
    b = Homes(s2, "proc-b", 30.0, forget_seconds=60.0)
    await b.beat()
    # ran out, not long enough ago: still there for an admin to see, not alive
    leased, orphans = await leases(s2)
    assert [(x.process, x.alive, x.tables) for x in leased] == [
        ("proc-a", False, 1),
        ("proc-b", True, 0),
    ]
    assert orphans == 1
    b.forget_seconds = 0.1
    await b.beat()
    leased, orphans = await leases(s2)
    assert [(x.process, x.alive) for x in leased] == [("proc-b", True)]
    assert orphans == 1  # its table still names it: homeless all the same
    theirs = await b.take(rec.id)
    assert theirs is not None and theirs.process == "proc-b" and theirs.token == 2
    assert (await leases(s2))[1] == 0


async def test_a_home_hands_its_table_to_a_live_process_and_its_own_writes_are_refused(
    stores: tuple[Store, Store],
) -> None:
    s1, s2 = stores
    a, b = await _two_homes(stores)
    rec = await toy_table(s1, seed=3)
    mine = await a.take(rec.id)
    assert mine is not None and mine.process == "proc-a"
    rec = await _bump(s1, rec, mine.token)
    # a hands the table to b, alive: a new token, b's, and the version unchanged
    handed = await a.hand(rec.id, "proc-b", mine.token)
    assert handed is not None and handed.process == "proc-b" and handed.token == mine.token + 1
    assert handed.version == rec.version
    stored = (await b.homes([rec.id]))[rec.id]
    assert (stored.process, stored.token, stored.alive) == ("proc-b", handed.token, True)
    # a writes at the right version with the token it held: refused, nothing written
    with pytest.raises(StaleVersion):
        await _bump(s1, rec, mine.token)
    assert (await b.homes([rec.id]))[rec.id].version == rec.version
    # the new home writes at that same version with its token
    rec = await _bump(s2, rec, handed.token)
    assert (await a.homes([rec.id]))[rec.id].version == rec.version
    # a, not the home any more, cannot hand it (back) again, nor take it from b, alive
    assert await a.hand(rec.id, "proc-a", handed.token) is None
    assert await a.hand(rec.id, "proc-b", mine.token) is None
    taken = await a.take(rec.id)
    assert taken is not None and taken.process == "proc-b" and taken.token == handed.token


async def test_a_table_is_not_handed_to_a_dead_process_nor_with_an_old_token(
    stores: tuple[Store, Store],
) -> None:
    s1 = stores[0]
    a, b = await _two_homes(stores, lease_b=0.3)
    rec = await toy_table(s1, seed=3)
    mine = await a.take(rec.id)
    assert mine is not None
    # a token this home does not hold (a hand-over decided on a copy that is out of date)
    assert await a.hand(rec.id, "proc-b", mine.token - 1) is None
    # b's lease runs out: nothing is handed to it
    await asyncio.sleep(0.5)
    assert await a.hand(rec.id, "proc-b", mine.token) is None
    # nor to a process that never had a lease, nor to itself
    assert await a.hand(rec.id, "proc-z", mine.token) is None
    assert await a.hand(rec.id, "proc-a", mine.token) is None
    stored = (await a.homes([rec.id]))[rec.id]
    assert (stored.process, stored.token) == ("proc-a", mine.token)
    # b beats again: now it is
    await b.beat()
    handed = await a.hand(rec.id, "proc-b", mine.token)
    assert handed is not None and handed.process == "proc-b"
