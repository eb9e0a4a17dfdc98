"""The reads every connection makes, through the driver (``store/reads.py``) on SQLite and
PostgreSQL: the very records the SQLAlchemy path reads from the same rows."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any, TypeVar

from tablee.store import Store
from tablee.store.accounts import AccountStore
from tablee.store.chat import ChatStore
from tablee.store.models import now
from tablee.tables.records import NewChat
from tests.store.kit import toy_table

T = TypeVar("T")


@asynccontextmanager
async def _without_reads(store: Store) -> AsyncIterator[None]:
    reads, store.reads = store.reads, None
    try:
        yield
    finally:
        store.reads = reads


async def _both(store: Store, read: Callable[[], Awaitable[T]]) -> T:
    """The read through the driver, after checking the SQLAlchemy path reads the same."""
    assert store.reads is not None  # a store on a file or on PostgreSQL has them
    direct = await read()
    async with _without_reads(store):
        orm = await read()
    assert direct == orm
    return direct


async def test_a_token_reads_the_same_player_both_ways(store: Store) -> None:
    guest, token = await store.create_player("Gaston")
    assert await _both(store, lambda: store.player_by_token(token)) == guest
    assert await _both(store, lambda: store.player_by_token("no such token")) is None
    await store.set_banned(guest.id, True)
    found = await _both(store, lambda: store.player_by_token(token))
    assert found is not None and found.banned

    # an account: its guest token retired, its sessions' tokens valid until they expire
    accounts = AccountStore(store)
    other, guest_token = await store.create_player("Odile")
    soon = now() + timedelta(hours=1)
    session = await accounts.claim(other.id, "hash", None, soon, None, None)
    assert session is not None
    found = await _both(store, lambda: store.player_by_token(session))
    assert found is not None and found.id == other.id and found.claimed
    assert await _both(store, lambda: store.player_by_token(guest_token)) is None
    old = await accounts.open_session(other.id, now() - timedelta(seconds=1), None, None)
    assert await _both(store, lambda: store.player_by_token(old)) is None
    assert await accounts.close_session(session)
    assert await _both(store, lambda: store.player_by_token(session)) is None


async def test_a_channels_last_messages_and_a_mute_read_the_same_both_ways(store: Store) -> None:
    chat = ChatStore(store)
    table = await toy_table(store, 3)
    author, _ = await store.create_player("Bavard")
    ids: dict[int | None, list[int]] = {table.id: [], None: []}
    for i in range(6):
        channel = table.id if i % 3 else None
        rec, _ = await chat.add(
            NewChat(
                table_id=channel,
                author_id=author.id,
                author_name=author.name,
                seat=1 if i % 2 else None,
                text=f"message {i}",
                phrase="bravo" if i == 4 else None,
                audience="spectators" if i == 5 else "all",
                held_game=1 if i == 5 else None,
                held_deal=2 if i == 5 else None,
            ),
            now(),
        )
        ids[channel].append(rec.id)
    await chat.delete(ids[table.id][1], now())
    t = now()

    def history(channel: int | None, limit: int, player: int | None) -> Any:
        return lambda: chat.history(channel, limit, player, t)

    rows, mute = await _both(store, history(table.id, 10, author.id))
    assert [r.id for r in rows] == [ids[table.id][0], *ids[table.id][2:]]  # oldest first
    assert rows[-1].held_deal == 2 and rows[-1].audience == "spectators"
    assert mute is None
    rows, _ = await _both(store, history(table.id, 2, None))
    assert [r.id for r in rows] == ids[table.id][-2:]
    rows, _ = await _both(store, history(None, 10, None))
    assert [r.id for r in rows] == ids[None]
    assert await _both(store, history(table.id, 0, None)) == ([], None)

    await chat.mute(author.id, t + timedelta(minutes=5), "insultes", "admin", t)
    _, mute = await _both(store, history(table.id, 10, author.id))
    assert mute is not None and mute.until == t + timedelta(minutes=5) and mute.by == "admin"
    await chat.mute(author.id, t - timedelta(seconds=1), "fini", "admin", t)
    assert (await _both(store, history(None, 0, author.id)))[1] is None  # run out
