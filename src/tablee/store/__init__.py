"""Persistence: the only module that writes SQL.

``Store`` wraps an async SQLAlchemy engine (aiosqlite or asyncpg) and exposes repository functions
that take and return plain records (``records.py``). Every write is one transaction; table writes
check the version they started from, so two writers can never both apply a change.
"""

from .records import (
    BOT,
    EMPTY,
    FINISHED,
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
from .repo import MAX_ID, StaleVersion, Store, hash_token

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
    "hash_token",
]
