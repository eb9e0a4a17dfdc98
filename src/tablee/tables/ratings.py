"""Ratings as the REST layer and the command line see them (``tablee.ratings`` computes them, the
store keeps them with each game's result)."""

from __future__ import annotations

from typing import Any

from tablee.settings import Settings
from tablee.store import Store
from tablee.store.ratings import RatingRow, RatingStore


class Ratings:
    def __init__(self, store: Store) -> None:
        self._store = RatingStore(store)

    async def recompute(self) -> int:
        """Every rating rebuilt from the stored results of rated games; how many games."""
        return await self._store.recompute()

    async def stored(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        return await self._store.stored()

    async def profile(self, name: str, last: int = 20) -> dict[str, Any] | None:
        """A player's page: who, games played and won per game with the rating, the rating's
        history and the last games; None for no such name."""
        player = await self._store.player_named(name)
        if player is None:
            return None
        out = await self._store.profile(player.id, last)
        return {
            "id": player.id,
            "name": player.name,
            "created_at": player.created_at.isoformat(),
            "claimed": player.claimed,
            **out,
        }

    async def leaderboard(self, game: str, min_games: int, limit: int) -> list[RatingRow]:
        return await self._store.leaderboard(game, min_games, limit)


async def recompute(settings: Settings) -> int:
    """``tablee ratings recompute``: the store opened from the settings, migrated if they say so."""
    store = Store(settings.database_url, settings.database_schema)
    try:
        if settings.migrate:
            await store.migrate()
        return await Ratings(store).recompute()
    finally:
        await store.close()


__all__ = ["RatingRow", "Ratings", "recompute"]
