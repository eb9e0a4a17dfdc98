"""Several real app processes (uvicorn subprocesses) on one PostgreSQL schema and one Redis.

``TABLEE_TEST_POSTGRES_URL`` and ``TABLEE_TEST_REDIS_URL`` name the servers. Unset or
unreachable: the tests are skipped, except with ``CI=true``, where that fails them. Each test gets
a new PostgreSQL schema and its own Redis channel prefix.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.serverkit import Database, _pg_run, _postgres_url, keep_info, unavailable

ROOT = Path(__file__).resolve().parents[2]
REDIS_ENV = "TABLEE_TEST_REDIS_URL"


def redis_url() -> str:
    url = os.environ.get(REDIS_ENV)
    if not url:
        unavailable(f"{REDIS_ENV} is not set", "the cluster tests")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except Exception as exc:
        unavailable(f"Redis at {url} is unreachable: {exc}", "the cluster tests")
    return url


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True)
class Cluster:
    """Where the processes of one test meet: a schema, a Redis prefix, and a scratch folder."""

    db: Database
    redis_url: str
    prefix: str
    logs: Path

    def env(self, port: int, **settings: Any) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABLEE_")}
        values: dict[str, Any] = {
            "database_url": self.db.url,
            "database_schema": self.db.schema,
            "redis_url": self.redis_url,
            "redis_prefix": self.prefix,
            "host": "127.0.0.1",
            "port": port,
            "bot_delay_seconds": 0.02,
            "poll_seconds": 0.2,
            "log_level": "warning",
        }
        values.update(settings)
        env.update({f"TABLEE_{k.upper()}": str(v) for k, v in values.items()})
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def process(self, name: str, **settings: Any) -> Proc:
        return Proc(self, name, settings)

    async def sql(self, query: str) -> list[dict[str, Any]]:
        """Rows of a query on this test's schema."""
        import asyncpg

        conn = await asyncpg.connect(self.db.url.replace("+asyncpg", ""), timeout=5)
        try:
            await conn.execute(f'SET search_path TO "{self.db.schema}"')
            return [dict(r) for r in await conn.fetch(query)]
        finally:
            await conn.close()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    url = _postgres_url()
    assert url is not None
    redis = redis_url()
    schema = f"c_{uuid.uuid4().hex[:16]}"
    _pg_run(url, f'CREATE SCHEMA "{schema}"')
    try:
        yield Cluster(
            Database("postgres", url, schema), redis, f"t{uuid.uuid4().hex[:12]}", tmp_path
        )
    finally:
        _pg_run(url, f'DROP SCHEMA "{schema}" CASCADE')


class Proc:
    """One app process: ``python -m tests.cluster.app`` on a free port, its output in a file."""

    def __init__(self, cluster: Cluster, name: str, settings: dict[str, Any]) -> None:
        self.name = name
        self.cluster, self.settings = cluster, settings
        self.log = cluster.logs / f"{name}.log"
        self.popen: subprocess.Popen[bytes] | None = None
        #: environment variables of this process besides its settings (``tests/cluster/app.py``)
        self.extra_env: dict[str, str] = {}
        self._new_port()

    def _new_port(self) -> None:
        self.port = free_port()
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.env = self.cluster.env(self.port, **self.settings)

    async def start(self, timeout: float = 120) -> Proc:
        """Starts the process on a free port; another port when something else took that one
        between the choice and the bind (other test processes share the machine)."""
        for _ in range(5):
            mark = self.log.stat().st_size if self.log.exists() else 0
            if await self._start(timeout):
                return self
            self.stop()
            # the failed bind is not this process's error: its lines leave the log
            with self.log.open("r+b") as log:
                log.truncate(mark)
            self._new_port()
        raise RuntimeError(f"{self.name} found no free port:\n{self.output()}")

    async def _start(self, timeout: float) -> bool:
        mark = len(self.output())
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                [sys.executable, "-m", "tests.cluster.app"],
                cwd=ROOT,
                env={**self.env, **self.extra_env},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.http) as http:
            while time.monotonic() < deadline:
                if self.popen.poll() is not None:
                    if "address already in use" in self.output()[mark:]:
                        return False
                    raise RuntimeError(f"{self.name} exited:\n{self.output()}")
                with contextlib.suppress(httpx.TransportError):
                    answer = await http.get("/_test/pid", timeout=1)
                    if answer.status_code == 200:
                        # ours, or another process holds the port and ours cannot bind it
                        return answer.text == str(self.popen.pid)
                await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL: no clean-up, open sockets and the claims connection just drop."""
        assert self.popen is not None
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(10)

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(10)

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def failures(self, expected: tuple[str, ...] = ()) -> list[str]:
        """The tracebacks of the process's output, each whole (its message and the exceptions
        it was chained from), but those in which one of ``expected`` appears."""
        lines = self.output().splitlines()
        chained = ("The above exception", "During handling of the above exception")
        starts = [
            i
            for i, line in enumerate(lines)
            if line == "Traceback (most recent call last):"
            and not (i >= 2 and lines[i - 2].startswith(chained))
        ]
        out = []
        for k, i in enumerate(starts):
            end = starts[k + 1] - 1 if k + 1 < len(starts) else len(lines)
            chain = "\n".join(lines[max(i - 1, 0) : end])
            if not any(e in chain for e in expected):
                out.append(chain)
        return out

    def errors(self) -> list[str]:
        """Lines of the process's output that report a failure."""
        return [
            line
            for line in self.output().splitlines()
            if "Traceback" in line or "ERROR" in line or "Exception" in line
        ]


@contextlib.asynccontextmanager
async def processes(cluster: Cluster, *names: str, **settings: Any) -> AsyncIterator[list[Proc]]:
    """Processes started together (as replicas do: their migrations race), stopped at the end."""
    procs = [cluster.process(n, **settings) for n in names]
    try:
        await asyncio.gather(*(p.start() for p in procs))
        yield procs
    finally:
        for p in procs:
            p.stop()


# -- players ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def new_player(proc: Proc, name: str) -> Player:
    async with httpx.AsyncClient(base_url=proc.http) as http:
        r = await http.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        return Player(body["id"], body["name"], body["token"])


async def toy_table(
    home: Proc, other: Proc, players: tuple[str, str] = ("Alice", "Bob")
) -> tuple[Player, Player, int]:
    """Two new players, the first on ``home`` (where the table is made: its home), the second
    on ``other`` (where they join), and their toy table of two deals, playing."""
    first, second = await new_player(home, players[0]), await new_player(other, players[1])
    body = {"game": "toy", "players": 2, "options": {"deals": 2}}
    tid = (await rest(home, "POST", "/api/tables", first, json=body))["id"]
    await rest(other, "POST", f"/api/tables/{tid}/join", second)
    return first, second, tid


async def rest(proc: Proc, method: str, path: str, p: Player | None = None, **kw: Any) -> Any:
    async with httpx.AsyncClient(base_url=proc.http) as http:
        headers = {**(p.auth if p else {}), **kw.pop("headers", {})}
        r = await http.request(method, path, headers=headers, **kw)
        assert r.status_code < 300, (r.status_code, r.text)
        return r.json()


class Client:
    """A WebSocket on one process: a reader task keeps every frame; ``until`` waits for one."""

    def __init__(self, proc: Proc, player: Player | None) -> None:
        self.proc = proc
        self.player = player
        self.frames: list[dict[str, Any]] = []
        self._new = asyncio.Event()
        self._ids = iter(range(1, 1 << 30))
        self.conn: Any = None
        self._reader: asyncio.Task[None] | None = None
        self.closed = False
        #: each table's info as last received (a change's state leaves it out when unchanged)
        self.infos: dict[int, dict[str, Any]] = {}

    async def __aenter__(self) -> Client:
        self.conn = await websockets.connect(self.proc.ws, open_timeout=30)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if self.player is not None:
            answer = await self.request({"type": "hello", "token": self.player.token})
            assert answer["type"] == "welcome", answer
        return self

    async def __aexit__(self, *exc: Any) -> None:
        with contextlib.suppress(Exception):
            await self.conn.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader

    async def _read(self) -> None:
        try:
            async for text in self.conn:
                frame = json.loads(text)
                keep_info(frame, self.infos)
                self.frames.append(frame)
                self._new.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._new.set()

    async def until(
        self, pred: Callable[[dict[str, Any]], bool], start: int = 0, timeout: float = 30
    ) -> dict[str, Any]:
        """The first frame from index ``start`` on that satisfies ``pred``."""
        i = start
        async with asyncio.timeout(timeout):
            while True:
                while i < len(self.frames):
                    if pred(self.frames[i]):
                        return self.frames[i]
                    i += 1
                if self.closed:
                    raise ConnectionError(f"the connection to {self.proc.name} closed")
                self._new.clear()
                await self._new.wait()

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send a message with a fresh id; its answer (ack, error, welcome or pong)."""
        mid = f"m{next(self._ids)}"
        start = len(self.frames)
        await self.conn.send(json.dumps({**msg, "id": mid}))
        return await self.until(lambda f: f.get("id") == mid, start)

    async def answer(self, msg: dict[str, Any], mid: str, timeout: float = 30) -> dict[str, Any]:
        """Sends ``msg`` with the id ``mid`` (sent again, it keeps it); its answer."""
        start = len(self.frames)
        await self.conn.send(json.dumps({**msg, "id": mid}))
        return await self.until(lambda f: f.get("id") == mid, start, timeout=timeout)

    async def subscribe(self, table: int) -> dict[str, Any]:
        start = len(self.frames)
        answer = await self.request({"type": "subscribe", "table": table})
        assert answer["type"] == "ack", answer
        return await self.until(lambda f: f["type"] == "state" and f["table"] == table, start)

    async def act(self, table: int, action: dict[str, Any]) -> dict[str, Any]:
        return await self.request({"type": "act", "table": table, "action": action})

    def states(self, table: int) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "state" and f["table"] == table]

    async def state_at(self, table: int, version: int, timeout: float = 30) -> dict[str, Any]:
        """The pushed state of ``table`` at ``version`` or later (no sync asked)."""
        return await self.until(
            lambda f: f["type"] == "state" and f["table"] == table and f["version"] >= version,
            timeout=timeout,
        )

    def latest(self, table: int) -> dict[str, Any]:
        return self.states(table)[-1]


# -- a toy game played through sockets, and its log ----------------------------------------------


async def play(
    seats: dict[int, Client],
    table: int,
    version: int,
    mid: str,
    seat: int | None = None,
    timeout: float = 30,
) -> dict[str, Any]:
    """The seat to act at ``version`` (or ``seat``) sends its first legal action with the id
    ``mid`` (sent again, it keeps it) through its own socket; the answer."""
    if seat is None:
        seat = (await seats[0].state_at(table, version, timeout=timeout))["to_act"][0]
    c = seats[seat]
    mine = await c.state_at(table, version, timeout=timeout)
    msg = {"type": "act", "table": table, "action": mine["legal"][0]}
    return await c.answer(msg, mid, timeout)


async def play_to_end(seats: dict[int, Client], table: int, version: int, acked: list[str]) -> int:
    """From ``version`` on, the seat to act plays until the game is over, each move
    acknowledged (its id added to ``acked``); the last version."""
    while True:
        st = await seats[0].state_at(table, version)
        if st["over"]:
            return version
        mid = f"after-{version}"
        answer = await play(seats, table, version, mid, st["to_act"][0])
        assert answer["type"] == "ack", answer
        acked.append(mid)
        version += 1


async def assert_logged_once(cluster: Cluster, table: int, acked: list[str], moves: int) -> None:
    """The table's log holds ``moves`` moves in order, and each acknowledged move of a player
    once (by its idempotency key)."""
    rows = await cluster.sql(
        f"SELECT seq, request FROM actions WHERE table_id = {table} ORDER BY seq"
    )
    assert [r["seq"] for r in rows] == list(range(1, moves + 1))
    requests = [r["request"] for r in rows if r["request"] is not None]
    assert len(requests) == len(set(requests)) == len(acked)
