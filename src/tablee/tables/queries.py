"""What the REST layer reads from the stored data, and the few writes about players it makes:
the lobby, a table's results, the leaderboard and the players (``Queries``); the admin's searches,
statistics and audit log (``AdminQueries``).

``tablee.api`` goes through these and never through ``tablee.store``: the store's tables and
sessions stay behind this layer, and what crosses it is the plain records of ``records.py`` (or
JSON-ready dicts). A change of table (a move, a seat...) is not here: it goes through the
``TableManager``, which keeps the live tables and the stored ones in step.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tablee.protocol import ErrorCode
from tablee.store import Store
from tablee.store.admin import AdminStore, AuditRecord, GameSeed, PlayerSummary
from tablee.store.names import NameReserved, NameTaken

from .errors import TableError
from .records import LeaderboardRow, PlayerRecord, TableRecord


def name_taken(name: str) -> TableError:
    return TableError(
        ErrorCode.NAME_TAKEN,
        f"Le nom « {name} » est déjà pris (à la casse ou à des caractères semblables près) :"
        " choisissez-en un autre.",
        ("body", "name"),
    )


class Queries:
    def __init__(self, store: Store) -> None:
        self._store = store

    async def ping(self) -> bool:
        """True when the database answers (raises otherwise)."""
        return await self._store.ping()

    # -- players ---------------------------------------------------------------------------------

    async def create_player(self, name: str) -> tuple[PlayerRecord, str]:
        """A new guest player and its bearer token (returned once, stored hashed); a name another
        player has, in any case or Unicode look-alikes, is refused (409 ``name_taken``)."""
        try:
            return await self._store.create_player(name)
        except NameTaken as exc:
            raise name_taken(exc.name) from None
        except NameReserved as exc:
            raise TableError(
                ErrorCode.NAME_TAKEN,
                f"Le nom « {exc.name} » est réservé au serveur : choisissez-en un autre.",
                ("body", "name"),
            ) from None

    async def player_by_token(self, token: str) -> PlayerRecord | None:
        return await self._store.player_by_token(token)

    async def player(self, player_id: int) -> PlayerRecord | None:
        return await self._store.player(player_id)

    async def set_banned(self, player_id: int, banned: bool) -> None:
        await self._store.set_banned(player_id, banned)

    async def tables_of_player(self, player_id: int) -> list[int]:
        """The tables where the player holds a seat."""
        return await self._store.tables_of_player(player_id)

    async def open_counts(self, player_id: int) -> tuple[int, int]:
        """Waiting tables the player created, and seats they hold at tables not over."""
        return await self._store.open_counts(player_id)

    # -- tables ----------------------------------------------------------------------------------

    async def lobby(
        self, status: str | None, game: str | None, limit: int, offset: int
    ) -> list[TableRecord]:
        """Public tables, newest first."""
        return await self._store.tables(status=status, game=game, limit=limit, offset=offset)

    async def results(self, table_id: int) -> list[dict[str, Any]]:
        """Every finished game of a table, oldest first, with seats and per-deal scores."""
        return await self._store.results(table_id)

    async def leaderboard(self, game: str | None, limit: int) -> list[LeaderboardRow]:
        """Players by games won, then fewest played."""
        return await self._store.leaderboard(game=game, limit=limit)


class AdminQueries:
    """The admin's reads, its player writes and its audit log (docs/admin.md)."""

    def __init__(self, store: Store) -> None:
        self._admin = AdminStore(store)

    async def tables(
        self,
        status: str | None,
        game: str | None,
        player: int | None,
        since: datetime | None,
        limit: int,
        offset: int,
    ) -> tuple[list[TableRecord], int]:
        """Every table, private ones too, newest first; and how many match."""
        return await self._admin.tables(status, game, player, since, limit, offset)

    async def game_seeds(self, table_id: int) -> list[GameSeed]:
        return await self._admin.game_seeds(table_id)

    async def players(
        self,
        q: str | None,
        banned: bool | None,
        limit: int,
        offset: int,
        claimed: bool | None = None,
    ) -> tuple[list[PlayerSummary], int]:
        return await self._admin.players(q, banned, limit, offset, claimed)

    async def rename_player(self, player_id: int, name: str) -> bool:
        """As at sign-up, a name another player has is refused (409 ``name_taken``)."""
        try:
            return await self._admin.rename_player(player_id, name)
        except NameTaken as exc:
            raise name_taken(exc.name) from None

    async def audit(
        self,
        actor: str,
        action: str,
        target_type: str | None,
        target_id: int | None,
        details: dict[str, Any] | None,
        ip: str | None,
    ) -> None:
        await self._admin.audit(actor, action, target_type, target_id, details, ip)

    async def audit_log(
        self,
        actor: str | None,
        action: str | None,
        target_type: str | None,
        target_id: int | None,
        since: datetime | None,
        until: datetime | None,
        limit: int,
        offset: int,
    ) -> tuple[list[AuditRecord], int]:
        return await self._admin.audit_log(
            actor, action, target_type, target_id, since, until, limit, offset
        )

    async def table_counts(self) -> list[tuple[str, str, int]]:
        return await self._admin.table_counts()

    async def moves_since(self, since: datetime) -> int:
        return await self._admin.moves_since(since)

    async def finished_per_day(self, since: datetime) -> list[tuple[str, str, int]]:
        return await self._admin.finished_per_day(since)

    async def player_counts(self) -> tuple[int, int]:
        return await self._admin.player_counts()
