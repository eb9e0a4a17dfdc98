"""A TCP proxy a test puts between the app processes and Redis, to take Redis away from them.

``pause``: the network between them stops carrying anything, both ways, without closing a
connection (a partition: what is sent waits, as TCP keeps it, and flows again on ``resume``);
new connections are accepted and wait too. ``cut``: every connection is closed at once and new
ones are closed as they come (Redis restarted, or its host refusing connections) until
``resume``.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class Proxy:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self._url = parts
        self._server: asyncio.Server | None = None
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._refusing = False
        self._writers: set[asyncio.StreamWriter] = set()
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
        self._flowing.clear()

    def resume(self) -> None:
        self._refusing = False
        self._flowing.set()

    def cut(self) -> None:
        self._refusing = True
        for writer in list(self._writers):
            writer.transport.abort()

    async def close(self) -> None:
        self.cut()
        self._flowing.set()  # the connections accepted while paused end (refused)
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._refusing:
            writer.transport.abort()
            return
        self._writers.add(writer)
        try:
            await self._flowing.wait()
            if self._refusing:
                return
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            self._writers.discard(writer)
            writer.transport.abort()
            return
        self._writers.add(up_writer)
        loop = asyncio.get_running_loop()
        for task in (
            loop.create_task(self._pump(reader, up_writer, writer)),
            loop.create_task(self._pump(up_reader, writer, up_writer)),
        ):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        other: asyncio.StreamWriter,
    ) -> None:
        try:
            while True:
                await self._flowing.wait()
                data = await reader.read(65536)
                if not data:
                    break
                await self._flowing.wait()  # read as the pause began: held, not lost
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            for w in (writer, other):
                self._writers.discard(w)
                w.transport.abort()
