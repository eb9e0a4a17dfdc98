"""Persistence: the only module that writes SQL.

``Store`` wraps an async SQLAlchemy engine (aiosqlite or asyncpg) and exposes repository functions
that take and return the plain records of the tables layer (``tablee.tables.records``, re-exported
here). Every write is one transaction; table writes
check the version they started from, so two writers can never both apply a change.
"""

from tablee.tables.records import (
    BOT,
    EMPTY,
    FINISHED,
    MAX_ID,
    PLAYER,
    PLAYING,
    WAITING,
    LeaderboardRow,
    LoggedAction,
    NewTable,
    PlayerRecord,
    SeatRecord,
    TableRecord,
)

from .repo import Store, hash_token
from .writes import StaleVersion, Unreachable

__all__ = [
    "BOT",
    "EMPTY",
    "FINISHED",
    "MAX_ID",
    "PLAYER",
    "PLAYING",
    "WAITING",
    "LeaderboardRow",
    "LoggedAction",
    "NewTable",
    "PlayerRecord",
    "SeatRecord",
    "StaleVersion",
    "Store",
    "TableRecord",
    "Unreachable",
    "hash_token",
]
