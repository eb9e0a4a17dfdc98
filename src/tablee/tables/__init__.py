"""Live tables: seats, lifecycle, the move pipeline, timers, bots and the fan-out of per-seat views
(asyncio; every read and write of the database goes through ``tablee.store``). The REST and
WebSocket layer (``tablee.api``) reaches the tables and the stored data through this package only.

The domain words and records (``records.py``) and the errors are imported at once; the rest on
first use, so that ``tablee.store``, which reads and writes those records, may import
``tablee.tables.records`` without pulling in the managers that use the store.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tablee.protocol import dumps

from .errors import Superseded, TableError, database_away, database_errors
from .records import (
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

if TYPE_CHECKING:
    from .accounts import Accounts
    from .broker import Broker, LocalBroker
    from .changes import closed_reason
    from .chat import Chat
    from .live import LiveTable, Subscriber
    from .manager import TableManager
    from .queries import AdminQueries, Queries
    from .service import Service

#: names served on first use, and the module that defines each
_LAZY = {
    "Accounts": ".accounts",
    "Broker": ".broker",
    "Chat": ".chat",
    "LocalBroker": ".broker",
    "LiveTable": ".live",
    "Subscriber": ".live",
    "TableManager": ".manager",
    "closed_reason": ".changes",
    "AdminQueries": ".queries",
    "Queries": ".queries",
    "Service": ".service",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "BOT",
    "EMPTY",
    "FINISHED",
    "MAX_ID",
    "PLAYER",
    "PLAYING",
    "WAITING",
    "Accounts",
    "AdminQueries",
    "Broker",
    "Chat",
    "LeaderboardRow",
    "LiveTable",
    "LocalBroker",
    "LoggedAction",
    "NewTable",
    "PlayerRecord",
    "Queries",
    "SeatRecord",
    "Service",
    "Subscriber",
    "Superseded",
    "TableError",
    "TableManager",
    "TableRecord",
    "closed_reason",
    "database_away",
    "database_errors",
    "dumps",
]
