"""What the store tests share."""

from __future__ import annotations

from tablee.store import PLAYER, NewTable, SeatRecord, Store, TableRecord


async def toy_table(store: Store, seed: int) -> TableRecord:
    """A two-seat table of the test game, Alice in seat 0, seat 1 free."""
    p, _ = await store.create_player("Alice")
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
