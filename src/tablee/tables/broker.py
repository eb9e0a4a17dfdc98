"""Announcing "table X changed to version V" to every process serving the database.

A process that holds a table in memory and hears of a newer version reloads it from the store and
pushes the new views to its own sockets. In one process the in-process broker is enough: the writer
already pushed, so the listener finds nothing newer. A Redis implementation plugs in here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

Listener = Callable[[int, int], Awaitable[None]]


class Broker(Protocol):
    async def start(self, listener: Listener) -> None:
        """Begin delivering every published change (from any process) to ``listener``."""

    async def publish(self, table_id: int, version: int) -> None: ...

    async def close(self) -> None: ...


class LocalBroker:
    """The broker of a single process: publishing calls the listeners directly."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    async def start(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, table_id: int, version: int) -> None:
        for listener in list(self._listeners):
            await listener(table_id, version)

    async def close(self) -> None:
        self._listeners.clear()
