"""What the store tests share."""

from __future__ import annotations

from sqlalchemy import select

from tablee.store import PLAYER, NewTable, PlayerRecord, SeatRecord, Store, TableRecord
from tablee.store.models import Player
from tablee.store.names import NameTaken, name_key


async def toy_table(store: Store, seed: int) -> TableRecord:
    """A two-seat table of the test game, Alice in seat 0, seat 1 free (the same Alice at every
    table of a store: names are unique)."""
    try:
        p, _ = await store.create_player("Alice")
    except NameTaken:
        async with store.session() as s:
            row = await s.scalar(select(Player).where(Player.name_key == name_key("Alice")))
        assert row is not None
        p = PlayerRecord(row.id, row.name, row.created_at, row.banned)
    return await store.create_table(
        NewTable(
            game="toy",
            options={"hand": 3},
            players=2,
            turn_seconds=None,
            private=False,
            creator_id=p.id,
            seed=seed,
            seats=[SeatRecord(0, PLAYER, p.id), SeatRecord(1)],
        )
    )
