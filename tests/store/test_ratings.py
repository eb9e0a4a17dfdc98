"""A game's ratings as the store writes them (``store/ratings.py``): a player's second game starts
from what the first left, and the players' rows go in a statement each kind, not one a player
(a game's end is written in the moves' group commit, the moves behind it waiting)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.engine import Connection

from tablee.ratings import Skill, rate
from tablee.store import Store
from tablee.store import models as m
from tablee.store.ratings import rate_game
from tests.store.kit import toy_table


async def _statements(store: Store, work: Any) -> tuple[Any, list[str]]:
    """``work`` run on a connection of the store's engine, in one transaction, and the
    statements it sent."""
    sent: list[str] = []

    def run(conn: Connection) -> Any:
        def seen(*args: Any) -> None:
            sent.append(args[2])

        event.listen(conn, "before_cursor_execute", seen)
        try:
            return work(conn)
        finally:
            event.remove(conn, "before_cursor_execute", seen)

    async with store.engine.begin() as conn:
        return await conn.run_sync(run), sent


async def test_a_second_rated_game_starts_each_player_from_the_rating_the_first_left(
    store: Store,
) -> None:
    table = await toy_table(store, seed=1)
    people = [table.seats[0].player_id] + [
        (await store.create_player(name))[0].id for name in ("Bruno", "Chloé", "Denis")
    ]
    assert all(isinstance(p, int) for p in people)
    first = {"scores": [3, 1, 2, 0], "winners": [0]}
    second = {"scores": [0, 1, 2, 3], "winners": [3]}
    at = m.now()

    _, sent = await _statements(
        store, lambda c: rate_game(c, table.id, 1, "barbu", first, people, at)
    )
    # the players' ratings read, added, and their history: one statement each, for four players
    assert len(sent) == 3, sent
    _, sent = await _statements(
        store,
        lambda c: rate_game(c, table.id, 2, "barbu", second, people, at + timedelta(seconds=1)),
    )
    assert len(sent) == 3, sent  # read, updated, history

    after_first = rate("barbu", 4, first, [Skill()] * 4)
    after_second = rate("barbu", 4, second, after_first)
    async with store.engine.connect() as conn:
        ratings = {
            r.player_id: r
            for r in await conn.execute(select(m.Rating).where(m.Rating.game == "barbu"))
        }
        changes = (
            await conn.execute(
                select(m.RatingChange).order_by(m.RatingChange.game_no, m.RatingChange.seat)
            )
        ).all()
    for seat, p in enumerate(people):
        r = ratings[p]
        assert r.played == 2
        assert (r.mu, r.sigma) == (after_second[seat].mu, after_second[seat].sigma)
    assert [(c.game_no, c.seat, c.player_id) for c in changes] == [
        (g, s, p) for g in (1, 2) for s, p in enumerate(people)
    ]
    for c in changes[4:]:
        before = after_first[c.seat]
        assert (c.mu_before, c.sigma_before) == (before.mu, before.sigma)
        assert (c.mu_after, c.sigma_after) == (after_second[c.seat].mu, after_second[c.seat].sigma)
