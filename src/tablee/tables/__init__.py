"""Live tables: seats, lifecycle, timers, bots and the fan-out of per-seat views (asyncio; every
read and write of the database goes through ``tablee.store``)."""

from .broker import Broker, LocalBroker
from .errors import TableError
from .manager import LiveTable, Subscriber, TableManager, dumps

__all__ = [
    "Broker",
    "LiveTable",
    "LocalBroker",
    "Subscriber",
    "TableError",
    "TableManager",
    "dumps",
]
