"""Live tables: seats, lifecycle, timers, bots and the fan-out of per-seat views (asyncio; every
read and write of the database goes through ``tablee.store``)."""

from tablee.protocol import dumps

from .broker import Broker, LocalBroker
from .errors import Superseded, TableError
from .manager import LiveTable, Subscriber, TableManager

__all__ = [
    "Broker",
    "LiveTable",
    "LocalBroker",
    "Subscriber",
    "Superseded",
    "TableError",
    "TableManager",
    "dumps",
]
