"""A TCP proxy a test puts between the app processes and Redis, to take Redis away from them.

``pause``: the network between them stops carrying anything, both ways, without closing a
connection (a partition: what is sent waits, as TCP keeps it, and flows again on ``resume``);
new connections are accepted and wait too. ``stall``: the connections open now stop carrying
for good, new ones work (connections the network left half open: Redis restarted behind them,
a firewall forgot them). ``cut``: every connection is closed at once and new ones are closed as
they come (Redis restarted, or its host refusing connections) until ``resume``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit


class _Link:
    """One client's connection and its connection to Redis."""

    def __init__(self, flowing: bool) -> None:
        self.flowing = asyncio.Event()
        if flowing:
            self.flowing.set()
        self.stalled = False
        self.writers: list[asyncio.StreamWriter] = []


class Proxy:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self._url = parts
        self._server: asyncio.Server | None = None
        self._paused = False
        self._refusing = False
        self._links: set[_Link] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def url(self) -> str:
        """The Redis URL through this proxy."""
        netloc = f"127.0.0.1:{self.port}"
        if self._url.password is not None:
            netloc = f"{self._url.username or ''}:{self._url.password}@{netloc}"
        return urlunsplit(self._url._replace(netloc=netloc))

    async def start(self) -> Proxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def pause(self) -> None:
        self._paused = True
        for link in self._links:
            link.flowing.clear()

    def stall(self) -> None:
        for link in self._links:
            link.stalled = True
            link.flowing.clear()

    def resume(self) -> None:
        self._paused = self._refusing = False
        for link in self._links:
            if not link.stalled:
                link.flowing.set()

    def cut(self) -> None:
        self._refusing = True
        for link in list(self._links):
            for writer in link.writers:
                writer.transport.abort()

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
        for link in self._links:
            link.stalled = False
        self.resume()  # the connections accepted while paused end (refused)
        self._refusing = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._refusing:
            writer.transport.abort()
            return
        link = _Link(flowing=not self._paused)
        link.writers.append(writer)
        self._links.add(link)
        try:
            await link.flowing.wait()
            if self._refusing:
                raise OSError("refused")
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            self._links.discard(link)
            writer.transport.abort()
            return
        link.writers.append(up_writer)
        loop = asyncio.get_running_loop()
        for task in (
            loop.create_task(self._pump(link, reader, up_writer)),
            loop.create_task(self._pump(link, up_reader, writer)),
        ):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self, link: _Link, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            while True:
                await link.flowing.wait()
                data = await reader.read(65536)
                if not data:
                    break
                await link.flowing.wait()  # read as the pause began: held, not lost
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._links.discard(link)
            for w in link.writers:
                w.transport.abort()


@contextlib.asynccontextmanager
async def proxied(url: str) -> AsyncIterator[Proxy]:
    """A proxy to ``url``'s server, open while the block runs."""
    proxy = await Proxy(url).start()
    try:
        yield proxy
    finally:
        await proxy.close()
