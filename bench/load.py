"""Load test of the table server, next to a bare FastAPI WebSocket broadcast (run by hand).

For each N: starts ``tablee serve`` (a subprocess, SQLite in a temporary folder unless
``--database-url``), creates 4N guest players and N tables of Contrecarte, connects every player
over the WebSocket, and lets each play random legal moves on its turn (a finished game is followed
by a rematch, voted over the WebSocket as the browser does; ``--votes rest``: over REST, as the
browser votes while its socket is down). Then the same clients drive
``bench/bare_ws.py`` — a bare FastAPI WebSocket server sending frames of the same sizes, with no
game and no database — in the same run.

Printed per N and server: moves/s, p50/p99 latency from sending ``act`` to receiving the ``state``
it produced, server CPU and memory (RSS, peak RSS); and the tablée/bare ratios. Before the
measure, every socket connects and subscribes at once, as a full room does when its server comes
back: the time from the first connection to the last subscription's state is printed too.

    .venv/bin/python bench/load.py --tables 10,100,500 --seconds 20

Several server processes (``--processes 2``) share one PostgreSQL database (``--database-url
postgresql+asyncpg://...``, a new schema per run) and one Redis (``--redis-url``); the clients
connect to them in turn, seat by seat, as a proxy without affinity would spread them, so that a
table's players sit on different processes. ``--by-table`` sends each table's sockets to the
process its id hashes to instead, as ``deploy/nginx.conf`` routes ``/ws?table=ID``: the tables'
homes (spread by their making) follow their players there, and the row prints the cluster
counters' growth over the window (moves forwarded, tables handed). ``--processes 1 --redis-url
...`` runs one process in the same mode, for comparison.

A room's pace (``--pace 1``): instead of a closed loop, the seat whose turn it is waits about a
second (jittered 0.5–1.5 s) before it plays, so each table makes about one move a second, as
people do; ``--tables 1000 --pace 1`` is a thousand tables of four sockets. The bare server is
paced the same way in the same run. The client processes then keep their garbage collector off
from the start to the end (a pass held a thousand seats' frames at once). ``cpu ms/move`` is
the CPU seconds of every server process (and of the processes it started: its robots' workers)
over the moves of the window, and ``kernel ms/move`` the part of it spent in the kernel (the
system calls: the sockets' writes and reads, the fsyncs); ``KiB/conn`` the servers' resident
memory (theirs too) gained from before the clients connected to the end, per connection. The
tablée row ends with the
window's group commits, read from the servers' ``/metrics`` (``tablee_store_commit_seconds``):
how many, their mean, the bound of the histogram bucket that holds their 99th percentile, and
the writes each carried — the database's share of a move's way, the thread's hand-over included
— and the same of the players' moves from their arrival to their commit
(``tablee_action_seconds``): the server's share of act → state but the frames' way in and out.
Then the moves sent beside a game's end (from 10 ms before the table's first seat read it to 50
ms after: the end's writes, the four rematch votes and the next deal are a burst of
the server's work) against the others: their share of the moves, and the p99 of each.

Robot-heavy runs (``--robot-tables K``): K more tables, three robots (``--robot-level
confirme`` by default, in the server's robot worker processes, ``--robot-workers``) and a person
the timer plays for, play a long
contrée match beside the measured tables; the row adds the robots' moves/s. Compare the measured
tables' latency with ``--robot-tables 0`` in the same session.

Browsers offer permessage-deflate; ``--deflate`` makes the clients offer it too (tablée declines
it unless ``TABLEE_WS_DEFLATE`` is set; the bare server is served the same way, ``bare_ws.py
--deflate``, and follows ``TABLEE_WS_DEFLATE`` here).

``--stalls FILE`` serves through ``bench/stall_serve.py``: the row is followed by the event
loop's late turns in the window and what the main thread was doing in them.

``--trace FILE`` serves through ``bench/trace_serve.py``: the row is followed by where the
measured moves' time went (to the server, in it, back; all of them and the slowest) and by the
wall time of the statements of SQLite's moves' thread against their CPU time.

``--server-src OTHER/src`` runs the tablée servers from another tree (the main before a change),
driven by these clients: a before and after in the same session.

Clients and server share the machine: on a small one the clients' own CPU is part of the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import math
import multiprocessing
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[1]
OUT_OF_TURN = {"catch", "announce"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    frame_bytes: int = 0
    games: int = 0
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    #: of which in the kernel (the system calls: the sockets' writes and reads, the fsyncs)
    server_kernel: float = 0.0
    memory: dict[str, int] = field(default_factory=dict)
    #: the servers' resident memory before the clients connected (MiB)
    rss_before: int = 0
    #: each seat's seconds from its connection to its subscription's state
    subscribed: list[float] = field(default_factory=list)
    #: the first seat's start of its connection and the last seat's subscription state
    #: (``time.monotonic()``, one clock for every process): a full room's way back after a restart
    crowd: tuple[float, float] = (math.inf, -math.inf)
    #: the measured window (``time.monotonic()``)
    window: tuple[float, float] = (0.0, 0.0)
    connections: int = 0
    #: several processes: the cluster counters' growth over the window (moves forwarded...)
    crossed: dict[str, float] = field(default_factory=dict)
    #: the group commits of the window: their count, mean and 99th percentile's bucket bound
    #: (ms), and writes each (empty: the server does not tell them)
    commits: dict[str, float] = field(default_factory=dict)
    #: ``--trace``: each measured move's table, when its act was sent and when its state was
    #: read (``time.monotonic()``)
    tracing: bool = False
    ways: list[tuple[int, float, float]] = field(default_factory=list)
    #: when each measured move's act was sent (``latencies``' order), and when the first seat of
    #: each table read a game's end (``time.monotonic()``): a game's end, its rematch votes and
    #: the next deal are a burst of the server's work that the moves beside it wait for
    sent: list[float] = field(default_factory=list)
    ends: list[float] = field(default_factory=list)


@dataclass
class Seat:
    table: int
    seat: int
    hello: dict[str, Any]
    token: str | None = None
    #: the server this seat's client connects to (None: the run's only one)
    uri: str | None = None
    #: the server the table was made through (with several processes: its home)
    via: int = 0
    #: the client offers permessage-deflate, as browsers do (``--deflate``)
    deflate: bool = False


def family(pid: int) -> list[int]:
    """``pid`` and its descendants (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(stat.parent.name))
    out = [pid]
    for p in out:  # grows as it goes: breadth first
        out += parents.get(p, [])
    return out


class Proc:
    """A server subprocess and what /proc says about it."""

    def __init__(self, args: list[str], port: int, env: dict[str, str] | None = None) -> None:
        self.port = port
        self.p = subprocess.Popen(
            args, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL
        )

    async def ready(self, path: str) -> None:
        async with httpx.AsyncClient() as c:
            for _ in range(300):
                try:
                    r = await c.get(f"http://127.0.0.1:{self.port}{path}")
                    if r.status_code < 500:
                        return
                except httpx.HTTPError:
                    pass
                if self.p.poll() is not None:
                    raise RuntimeError("the server exited")
                await asyncio.sleep(0.1)
        raise RuntimeError("the server did not start")

    def status(self) -> dict[str, int]:
        """Resident and peak resident MiB of the server and the processes it started (its
        robots' workers), added up."""
        out = {"VmRSS": 0, "VmHWM": 0}
        for pid in family(self.p.pid):
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    key, _, value = line.partition(":")
                    if key in out:
                        out[key] += int(value.split()[0]) // 1024
        return out

    def cpu(self, kernel: bool = False) -> float:
        """CPU seconds of the server and of the processes it started, while they run
        (``kernel``: only those spent in the kernel, in their system calls)."""
        total = 0
        for pid in family(self.p.pid):
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[12]) + (0 if kernel else int(fields[11]))
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.p.poll() is not None:
            return
        self.p.terminate()
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()


class Servers:
    """Several server processes, measured together (CPU and memory added up)."""

    def __init__(self, procs: list[Proc], metrics_token: str | None = None) -> None:
        self.procs = procs
        #: read each process's cluster counters at the window's ends (``tablee_cluster_messages``)
        self.metrics_token = metrics_token

    def counters(self) -> dict[str, float]:
        """What the window's figures are read from, every process's added up (empty without a
        metrics token; a tree without some of these metrics has none of those keys): the
        cluster counters (``cluster KIND``), the group commits (``commit le=B``: those of at
        most B seconds, ``commit sum``), the players' moves from their arrival to their commit
        (``move le=B``, ``move sum``), the writes committed (``writes``) and the heap's sweeps
        (``sweeps``)."""
        out: dict[str, float] = {}
        if not self.metrics_token:
            return out
        auth = {"Authorization": f"Bearer {self.metrics_token}"}
        for p in self.procs:
            text = httpx.get(f"http://127.0.0.1:{p.port}/metrics", headers=auth, timeout=10).text
            add_counters(text, out)
        return out

    def cpu(self, kernel: bool = False) -> float:
        return sum(p.cpu(kernel) for p in self.procs)

    def status(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.procs:
            for k, v in p.status().items():
                out[k] = out.get(k, 0) + v
        return out

    def stop(self) -> None:
        for p in self.procs:
            p.stop()


@contextlib.asynccontextmanager
async def postgres_schema(url: str | None) -> Any:
    """A new schema for the run on a PostgreSQL database (dropped after); None on SQLite."""
    if url is None or not url.startswith("postgresql"):
        yield None
        return
    import uuid

    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    plain = url.replace("+asyncpg", "")
    conn = await asyncpg.connect(plain)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    try:
        yield schema
    finally:
        conn = await asyncpg.connect(plain)
        try:
            await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        finally:
            await conn.close()


def choose(legal: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    mine = [a for a in legal if a["type"] not in OUT_OF_TURN] or legal
    return rnd.choice(mine)


async def player(
    uri: str,
    seat: Seat,
    stats: Stats,
    window: dict[str, float],
    rnd: random.Random,
    votes: str | None,
    connecting: asyncio.Semaphore,
    ready: asyncio.Event,
    *,
    go: asyncio.Event,
    pace: float = 0.0,
) -> None:
    asked = time.monotonic()
    async with connecting:
        ws = await websockets.connect(
            seat.uri or uri,
            max_size=None,
            ping_interval=None,
            compression="deflate" if seat.deflate else None,
            open_timeout=120,
        )
    connected = time.monotonic()
    try:
        await ws.send(json.dumps(seat.hello))
        await ws.send(json.dumps({"type": "subscribe", "table": seat.table, "id": 0}))
        # ready once subscribed (its state came): the start of the measure is no storm of
        # subscriptions still on their way; nobody moves before the start, so that state is the
        # one to play from (no sync)
        while json.loads(first := await ws.recv())["type"] != "state":
            pass
        subscribed = time.monotonic()
        stats.subscribed.append(subscribed - connected)
        stats.crowd = (min(stats.crowd[0], asked), max(stats.crowd[1], subscribed))
        ready.set()
        await go.wait()
        # one deadline for the whole run, not a wait_for a frame: that is a task and a timer
        # made for every frame, client CPU taken from the server's core on a machine of two
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(window["stop_at"]):
                await _play(ws, seat, first, stats, window, rnd, votes, pace)
    except websockets.ConnectionClosed as exc:
        # counted, and the run goes on without this seat (a seat not ready yet is let go)
        stats.errors[f"closed {exc.rcvd.code if exc.rcvd else 'without a close frame'}"] += 1
        ready.set()
    finally:
        await ws.close()


async def _play(
    ws: Any,
    seat: Seat,
    first: str | bytes,
    stats: Stats,
    window: dict[str, float],
    rnd: random.Random,
    votes: str | None,
    pace: float,
) -> None:
    """A seat's moves from its first state until the run's end (its caller's deadline)."""
    measure_from, stop_at = window["measure_from"], window["stop_at"]
    waiting = [first]
    pending: int | None = None
    sent = 0.0
    mid = 0
    voted = game_no = 0
    while True:
        raw = waiting.pop() if waiting else await ws.recv()
        msg = json.loads(raw)
        kind = msg["type"]
        now = time.monotonic()
        if kind == "state":
            stats.frames += 1
            stats.frame_bytes += len(raw)
            version = msg["version"]
            if pending is not None and version > pending:
                if sent >= measure_from:
                    stats.latencies.append(now - sent)
                    stats.sent.append(sent)
                    if stats.tracing:
                        stats.ways.append((seat.table, sent, now))
                pending = None
            if "info" in msg:  # left out of a change's state when it did not change
                game_no = msg["info"]["game_no"]
            if msg.get("over"):
                if votes is not None and game_no > voted:
                    voted = game_no
                    if seat.seat == 0:
                        stats.ends.append(now)
                        if now >= measure_from:
                            stats.games += 1
                    if votes == "rest":
                        # as the browser votes while its socket is down (``--votes rest``)
                        task = asyncio.get_running_loop().create_task(_rest_vote(ws, seat))
                        _VOTING.add(task)
                        task.add_done_callback(_VOTING.discard)
                    else:
                        # over the socket, as the browser votes (its ack is not a move's)
                        vote = {"type": "rematch", "table": seat.table, "id": f"r{game_no}"}
                        await ws.send(json.dumps(vote))
                continue
            if pending is None and msg["legal"] and seat.seat in msg["to_act"]:
                if pace > 0:
                    # a room's pace: the seat thinks ~``pace`` s (jittered, so that the
                    # tables do not move in step); the frames meanwhile wait in the socket
                    await asyncio.sleep(pace * rnd.uniform(0.5, 1.5))
                    if time.monotonic() >= stop_at:
                        break
                action = choose(msg["legal"], rnd)
                mid += 1
                pending, sent = version, time.monotonic()
                act = {"type": "act", "table": seat.table, "action": action, "id": mid}
                await ws.send(json.dumps(act))
        elif kind == "ack":
            if isinstance(msg.get("id"), int) and now >= measure_from:
                stats.moves += 1
        elif kind == "error":
            stats.errors[msg["code"]] += 1
            pending = None


#: each client process's HTTP client for ``--votes rest`` (made in its own event loop)
_HTTP: dict[str, httpx.AsyncClient] = {}
_VOTING: set[asyncio.Task[None]] = set()


async def _rest_vote(ws: Any, seat: Seat) -> None:
    host, port = ws.remote_address[:2]
    base = f"http://{host}:{port}"
    if base not in _HTTP:
        _HTTP[base] = httpx.AsyncClient(
            base_url=base, limits=httpx.Limits(max_connections=20), timeout=60
        )
    auth = {"Authorization": f"Bearer {seat.token}"}
    with contextlib.suppress(httpx.HTTPError):  # the run may be ending
        await _HTTP[base].post(f"/api/tables/{seat.table}/rematch", headers=auth)


async def _clients(
    uri: str,
    seats: list[Seat],
    votes: str | None,
    warmup: float,
    seconds: float,
    ready: Any,
    go: Any,
    start: Any,
    pace: float = 0.0,
    trace: bool = False,
) -> Stats:
    """One client process: every seat connects and subscribes, says it is ready, and waits for
    the common start."""
    stats = Stats(tracing=trace)
    local_go = asyncio.Event()
    readies = [asyncio.Event() for _ in seats]
    rnd = random.Random(seats[0].table if seats else 0)
    connecting = asyncio.Semaphore(50)
    window: dict[str, float] = {}
    tasks = [
        asyncio.create_task(
            player(
                uri,
                s,
                stats,
                window,
                random.Random(rnd.random()),
                votes,
                connecting,
                r,
                go=local_go,
                pace=pace,
            )
        )
        for s, r in zip(seats, readies, strict=True)
    ]
    for e in readies:
        await e.wait()
    if pace > 0:
        # at a room's pace this process's own garbage collector is kept out of the measure: one
        # process plays a thousand seats or more, so a pass of it holds all of their frames at
        # once (20-37 ms of CPU a pass, about ten in a window of tablée's, none in the bare
        # server's: docs/scaling.md), which no player's browser of its own does to the others'.
        # These clients make no cyclic garbage at that pace (none in 10 s of 200 tables), so
        # nothing is left to grow meanwhile; the closed loop keeps its collector
        gc.collect()
        gc.freeze()
        gc.disable()
    ready.put(len(seats))
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    window["measure_from"] = start.value + warmup
    window["stop_at"] = start.value + warmup + seconds
    cpu0 = _cpu()
    local_go.set()
    await asyncio.gather(*tasks)
    stats.client_cpu = _cpu() - cpu0
    await asyncio.gather(*_VOTING, return_exceptions=True)
    for http in _HTTP.values():
        await http.aclose()
    if pace > 0:
        gc.enable()
    return stats


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _worker(
    uri: str,
    seats: list[Seat],
    votes: str | None,
    warmup: float,
    seconds: float,
    ready: Any,
    go: Any,
    start: Any,
    results: Any,
    pace: float = 0.0,
    trace: bool = False,
) -> None:
    _raise_fd_limit()
    stats = asyncio.run(_clients(uri, seats, votes, warmup, seconds, ready, go, start, pace, trace))
    results.put(stats)


async def drive(
    uri: str,
    seats: list[Seat],
    warmup: float,
    seconds: float,
    votes: str | None,
    procs: int,
    server: Proc | Servers,
    pace: float = 0.0,
    trace: bool = False,
) -> Stats:
    """The seats are shared among ``procs`` client processes (a table's seats in one); the clock
    starts for all at once when every seat is connected."""
    ctx = multiprocessing.get_context("spawn")
    ready, results, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    start = ctx.Value("d", 0.0)
    tables = sorted({s.table for s in seats})
    groups = [[s for s in seats if tables.index(s.table) % procs == i] for i in range(procs)]
    groups = [g for g in groups if g]
    workers = [
        ctx.Process(
            target=_worker,
            args=(uri, g, votes, warmup, seconds, ready, go, start, results, pace, trace),
        )
        for g in groups
    ]
    rss_before = server.status().get("VmRSS", 0)
    for w in workers:
        w.start()
    loop = asyncio.get_running_loop()
    for _ in workers:
        await loop.run_in_executor(None, ready.get)
    start.value = time.monotonic()
    go.set()
    await asyncio.sleep(warmup)
    counters = server.counters if isinstance(server, Servers) else dict
    crossed0 = await loop.run_in_executor(None, counters)
    cpu0, kernel0 = server.cpu(), server.cpu(kernel=True)
    measured_from = time.monotonic()
    await asyncio.sleep(seconds)
    server_cpu = server.cpu() - cpu0
    server_kernel = server.cpu(kernel=True) - kernel0
    crossed = await loop.run_in_executor(None, counters)
    measured_to = time.monotonic()
    grown = {k: v - crossed0.get(k, 0.0) for k, v in crossed.items()}
    memory = server.status()
    total = Stats(
        server_cpu=server_cpu,
        server_kernel=server_kernel,
        memory=memory,
        rss_before=rss_before,
        connections=len(seats),
        window=(measured_from, measured_to),
        crossed={
            k.removeprefix("cluster "): v
            for k, v in grown.items()
            if v and k.startswith("cluster ")
        },
        commits=commits(grown),
    )
    for _ in workers:
        part: Stats = await loop.run_in_executor(None, results.get)
        total.latencies += part.latencies
        total.sent += part.sent
        total.ends += part.ends
        total.ways += part.ways
        total.moves += part.moves
        total.errors.update(part.errors)
        total.frames += part.frames
        total.frame_bytes += part.frame_bytes
        total.games += part.games
        total.client_cpu += part.client_cpu
        total.subscribed += part.subscribed
        total.crowd = (min(total.crowd[0], part.crowd[0]), max(total.crowd[1], part.crowd[1]))
    for w in workers:
        w.join()
    return total


def _raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def add_counters(text: str, out: dict[str, float]) -> None:
    """Adds to ``out`` what ``Servers.counters`` reads of one process's ``/metrics`` ``text``."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            key = _counter_key(sample.name, sample.labels)
            if key is not None:
                out[key] = out.get(key, 0.0) + sample.value


def _counter_key(name: str, labels: dict[str, str]) -> str | None:
    """``Servers.counters``' key of a ``/metrics`` sample (None: not one it reads)."""
    if name == "tablee_cluster_messages_total":
        return f"cluster {labels['kind']}"
    if name == "tablee_store_commit_seconds_bucket":
        return f"commit le={labels['le']}"
    if name == "tablee_store_commit_seconds_sum":
        return "commit sum"
    if name.startswith("tablee_action_seconds_") and labels.get("source") == "player":
        if name.endswith("_bucket"):
            return f"move le={labels['le']}"
        if name.endswith("_sum"):
            return "move sum"
    if name == "tablee_store_writes_total":
        return "writes"
    # SQLite: where the groups of moves alone were committed, and the loop's slow commits
    if name == "tablee_store_sqlite_move_groups_total":
        return f"sqlite {labels['where']}"
    if name == "tablee_store_sqlite_slow_loop_commits_total":
        return "sqlite slow"
    # a sweep of the whole heap holds its process for its length (``api/heap.py``)
    if name == "tablee_heap_sweeps_total":
        return "sweeps"
    return None


def _histogram(grown: dict[str, float], name: str) -> tuple[float, float, float] | None:
    """A histogram's growth (``counters``' ``NAME le=B`` and ``NAME sum``): its count, mean
    and the bound of the bucket holding its 99th percentile (None: nothing in the window)."""
    buckets = sorted(
        (float(k.removeprefix(f"{name} le=")), v)
        for k, v in grown.items()
        if k.startswith(f"{name} le=")
    )
    if not buckets or not buckets[-1][1]:
        return None
    count = buckets[-1][1]  # le=+Inf
    p99 = next(le for le, n in buckets if n >= 0.99 * count)
    return count, grown.get(f"{name} sum", 0.0) / count, p99


def commits(grown: dict[str, float]) -> dict[str, float]:
    """The window's group commits and the players' moves from their arrival to their commit
    (the server's side of act → state), from the growth of the counters (``counters``)."""
    group, moves = _histogram(grown, "commit"), _histogram(grown, "move")
    if group is None or moves is None:
        return {}
    return {
        "count": group[0],
        "mean ms": 1000 * group[1],
        "p99 ms ≤": 1000 * group[2],
        "writes each": grown.get("writes", 0.0) / group[0],
        "move mean ms": 1000 * moves[1],
        "move p99 ms ≤": 1000 * moves[2],
        "heap sweeps": grown.get("sweeps", 0.0),
        **_on_loop(grown),
    }


def _on_loop(grown: dict[str, float]) -> dict[str, float]:
    """SQLite: the share of the window's groups of moves alone committed on the event loop
    and the loop's slow commits (each sent the groups to the thread a second); none elsewhere."""
    alone = grown.get("sqlite loop", 0.0) + grown.get("sqlite thread", 0.0)
    if not alone:
        return {}
    return {
        "on loop %": 100 * grown.get("sqlite loop", 0.0) / alone,
        "slow loop commits": grown.get("sqlite slow", 0.0),
    }


async def setup_tablee(bases: list[str], tables: int, players: int, game: str) -> list[Seat]:
    """Players and tables; table t made through server t mod the servers (with several
    processes, the process that makes a table is its home: the tables' homes are spread)."""
    seats: list[Seat] = []
    limits = httpx.Limits(max_connections=20)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=b, limits=limits, timeout=120)
            )
            for b in bases
        ]
        sem = asyncio.Semaphore(20)

        async def post(path: str, via: int = 0, **kw: Any) -> httpx.Response:
            # a busy server may drop an idle keep-alive connection just as it is reused
            for attempt in range(5):
                try:
                    r = await clients[via].post(path, **kw)
                    r.raise_for_status()
                    return r
                except httpx.TransportError:
                    if attempt == 4:
                        raise
                    await asyncio.sleep(0.5)
            raise AssertionError

        async def make_player(i: int) -> dict[str, Any]:
            async with sem:
                out: dict[str, Any] = (await post("/api/players", json={"name": f"p{i}"})).json()
                return out

        people = await asyncio.gather(*(make_player(i) for i in range(tables * players)))

        async def make_table(t: int) -> None:
            group = people[t * players : (t + 1) * players]
            auth = [{"Authorization": f"Bearer {p['token']}"} for p in group]
            via = t % len(clients)
            async with sem:
                body = {"game": game, "players": players}
                made = await post("/api/tables", via, json=body, headers=auth[0])
                tid = made.json()["id"]
                for s in range(1, players):
                    await post(f"/api/tables/{tid}/join", via, json={"seat": s}, headers=auth[s])
            for s, p in enumerate(group):
                hello = {"type": "hello", "token": p["token"]}
                seats.append(Seat(tid, s, hello, p["token"], via=via))

        await asyncio.gather(*(make_table(t) for t in range(tables)))
    return seats


async def robot_tables(base: str, count: int, game: str, level: str) -> list[int]:
    """``count`` tables of three robots of ``level`` and a person who never plays (a table is
    played by people: the timer plays for them at once), playing a long match for the whole run:
    the robots' load beside the measured tables."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as c:
        r = await c.post("/api/players", json={"name": "robots"})
        r.raise_for_status()
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        options = {"target": 100_000} if game in ("contree", "belote") else {}
        out = []
        for _ in range(count):
            body = {
                "game": game,
                "players": 4,
                "options": options,
                "bots": [1, 2, 3],
                "bot_levels": {str(s): level for s in range(1, 4)},
                "turn_seconds": 0.05,
                # the timer plays for the person every time: never handed to a robot
                "robot_after": 0,
            }
            r = await c.post("/api/tables", json=body, headers=auth)
            r.raise_for_status()
            out.append(int(r.json()["id"]))
        return out


async def robot_moves(base: str, tables: list[int]) -> int:
    """The robot tables' versions added up: one per move they made."""
    if not tables:
        return 0
    async with httpx.AsyncClient(base_url=base, timeout=120) as c:
        total = 0
        for t in tables:
            total += int((await c.get(f"/api/tables/{t}")).json()["version"])
        return total


def gc_pauses(path: str, window: tuple[float, float]) -> str:
    """The server's collector passes in the measured window (``bench/gc_serve.py``'s file), and
    the whole heap's collections (``api/heap.py``'s sweeps) wherever they fell in the run."""
    by_gen: dict[int, list[float]] = {0: [], 1: [], 2: []}
    sweeps: list[float] = []
    for line in Path(path).read_text().splitlines():
        at, gen, ms, _collected = line.split()
        if window[0] <= float(at) <= window[1]:
            by_gen[int(gen)].append(float(ms))
        if gen == "2" and float(ms) >= 20:
            sweeps.append(float(ms))
    seconds = window[1] - window[0]
    parts = [
        f"gen {g}: {len(ms)} passes, {sum(ms):.0f} ms, longest {max(ms, default=0):.1f} ms"
        for g, ms in by_gen.items()
    ]
    spent = sum(sum(ms) for ms in by_gen.values()) / 10 / seconds
    return (
        f"  collector in the window: {'; '.join(parts)} ({spent:.1f} % of the time)\n"
        "  passes of the old generation over 20 ms in the whole run (sweeps): "
        + (", ".join(f"{ms:.0f} ms" for ms in sweeps) or "none")
    )


def stalls(path: str, window: tuple[float, float], top: int = 12) -> str:
    """The event loop's late turns in the measured window (``bench/stall_serve.py``'s file): how
    many and how late, and what the main thread was doing in them, by the functions most often on
    its stack (inclusive) and at its top (self), as shares of the samples."""
    lags: list[float] = []
    stacks: list[list[str]] = []
    for line in Path(path).read_text().splitlines():
        kind, at, rest = line.split(" ", 2)
        if not window[0] <= float(at) <= window[1]:
            continue
        if kind == "lag":
            lags.append(float(rest))
        else:
            stacks.append(rest.split(";"))
    seconds = window[1] - window[0]
    out = [
        "  loop late over 5 / 10 / 20 / 50 ms: "
        + " / ".join(str(sum(1 for ms in lags if ms > t)) for t in (5, 10, 20, 50))
        + f" times in {seconds:.0f} s; the latest {max(lags, default=0):.1f} ms;"
        f" {sum(lags) / 10 / seconds:.1f} % of the time late; {len(stacks)} samples"
    ]
    if stacks:
        inclusive: Counter[str] = Counter()
        tops: Counter[str] = Counter()
        for stack in stacks:
            inclusive.update(set(stack))
            tops[" < ".join(reversed(stack[-3:]))] += 1
        share = 100 / len(stacks)
        out.append("  on the stack (inclusive):")
        out += [f"    {n * share:5.1f} %  {f}" for f, n in inclusive.most_common(top * 2)]
        out.append("  at its top (three frames):")
        out += [f"    {n * share:5.1f} %  {f}" for f, n in tops.most_common(top)]
    return "\n".join(out)


def ways(path: str, moves: list[tuple[int, float, float]], window: tuple[float, float]) -> str:
    """Where the measured moves' time went (``bench/trace_serve.py``'s file, and each move's
    table, act sent and state read as its client saw them): the way to the server, the time in
    it (frame read → move acknowledged, its state sent in the same step) and the way back, for
    all the moves and for the slowest; then the SQLite moves' thread's statements in the window,
    wall time against the thread's CPU time."""
    acts: dict[int, list[tuple[float, float]]] = {}
    statements: dict[str, tuple[list[float], list[float]]] = {}
    for line in Path(path).read_text().splitlines():
        kind, *rest = line.split()
        if kind == "act":
            acts.setdefault(int(rest[0]), []).append((float(rest[1]), float(rest[2])))
        elif window[0] <= float(rest[0]) <= window[1]:
            walls, cpus = statements.setdefault(rest[1], ([], []))
            walls.append(float(rest[2]))
            cpus.append(float(rest[3]))
    for timed in acts.values():
        timed.sort()
    # each move with its server's times: the first act of its table the server began after
    # the client sent it (the clocks are one) and acknowledged before its state was read
    split: list[tuple[float, float, float, float]] = []
    for table, sent, read in moves:
        timed = acts.get(table, [])
        i = bisect.bisect_left(timed, (sent,))
        if i < len(timed) and timed[i][1] <= read:
            began, acked = timed[i]
            split.append((read - sent, began - sent, acked - began, read - acked))
    split.sort()
    out = [
        f"  a move's way, ms (mean; {len(split)} of {len(moves)} moves found in the server):"
        "  to the server / in it / back"
    ]
    for name, share in (("all", 1.0), ("the slowest 2 %", 0.02), ("the slowest 1 %", 0.01)):
        part = split[len(split) - max(1, round(len(split) * share)) :] if split else []
        if part:
            means = [1000 * statistics.fmean(m[k] for m in part) for k in (1, 2, 3)]
            out.append(f"    {name:<16} " + " / ".join(f"{m:.2f}" for m in means))
    if statements:
        out.append("  SQLite moves' thread, ms (p50 / p90 / p99): wall time against its CPU time")
        for kind, (walls, cpus) in sorted(statements.items()):
            out.append(
                f"    {kind:<8} {len(walls):>7}  "
                + _quantiles(walls)
                + "  against  "
                + _quantiles(cpus)
            )
    return "\n".join(out)


def _quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted, non-empty ``ordered``."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    return " / ".join(f"{_quantile(ordered, q):.2f}" for q in (0.5, 0.9, 0.99))


#: a move sent this long before a game's end was read, to this long after, is beside that end
BESIDE_END = (0.010, 0.050)


def beside_ends(
    sent: list[float], latencies: list[float], ends: list[float]
) -> tuple[list[float], list[float]]:
    """The latencies of the moves sent beside a game's end (``BESIDE_END``), and of the others."""
    ordered = sorted(ends)
    before, after = BESIDE_END
    beside: list[float] = []
    apart: list[float] = []
    for at, latency in zip(sent, latencies, strict=True):
        # the first end read after the move was sent less ``after``: the nearest that may hold it
        i = bisect.bisect_left(ordered, at - after)
        near = i < len(ordered) and ordered[i] <= at + before
        (beside if near else apart).append(latency)
    return beside, apart


def summary(name: str, stats: Stats, args: argparse.Namespace) -> dict[str, Any]:
    lat = sorted(stats.latencies)

    def pct(q: float) -> float:
        return _quantile(lat, q) * 1000 if lat else float("nan")

    return {
        "server": name,
        "moves/s": stats.moves / args.seconds,
        "p50 ms": pct(0.50),
        "p99 ms": pct(0.99),
        "mean ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "server cpu %": 100 * stats.server_cpu / args.seconds,
        # CPU seconds of every server process over the moves made in the same window
        "cpu ms/move": 1000 * stats.server_cpu / max(1, stats.moves),
        "kernel ms/move": 1000 * stats.server_kernel / max(1, stats.moves),
        "clients cpu %": 100 * stats.client_cpu / (args.seconds + args.warmup),
        "rss MiB": stats.memory.get("VmRSS", 0),
        "peak MiB": stats.memory.get("VmHWM", 0),
        "KiB/conn": 1024
        * (stats.memory.get("VmRSS", 0) - stats.rss_before)
        / max(1, stats.connections),
        "frame bytes": stats.frame_bytes // max(1, stats.frames),
        "games": stats.games,
        "errors": dict(stats.errors),
        "subscribed": sorted(stats.subscribed),
        "crowd s": stats.crowd[1] - stats.crowd[0],
        "crossed": {k: round(v) for k, v in sorted(stats.crossed.items())},
        "commits": stats.commits,
        "ends": _beside(stats),
    }


def _beside(stats: Stats) -> dict[str, float]:
    """The moves sent beside a game's end: their share and p99, and the others' p99 (ms)."""
    beside, apart = (sorted(x) for x in beside_ends(stats.sent, stats.latencies, stats.ends))
    if not beside or not apart:
        return {}
    return {
        "share %": 100 * len(beside) / (len(beside) + len(apart)),
        "beside p99 ms": 1000 * _quantile(beside, 0.99),
        "apart p99 ms": 1000 * _quantile(apart, 0.99),
    }


async def run_one(n: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bench.db"
        async with postgres_schema(args.database_url) as schema:
            env = {"TABLEE_LOG_LEVEL": "warning"}
            # the whole crowd is set up from one address in seconds: not what the REST limits
            # are for (docs/admin.md, "Limits")
            for limit in ("ADDRESS", "PLAYER", "NEW_PLAYERS", "NEW_TABLES"):
                env[f"TABLEE_RATE_LIMIT_{limit}"] = "off"
            if schema is not None:
                env["TABLEE_DATABASE_SCHEMA"] = schema
            env["TABLEE_ROBOT_WORKERS"] = str(args.robot_workers)
            # the cluster and commit counters are read at the window's ends
            env["TABLEE_METRICS_TOKEN"] = f"bench-{os.getpid()}"
            if args.redis_url:
                env["TABLEE_REDIS_URL"] = args.redis_url
                env["TABLEE_REDIS_PREFIX"] = f"bench{os.getpid()}{n}"
            if args.server_src:
                env["PYTHONPATH"] = args.server_src
            ports = [free_port() for _ in range(args.processes)]
            run = [sys.executable, "-m", "tablee"]
            if args.profile:
                run = [sys.executable, str(ROOT / "bench" / "profiled_serve.py"), args.profile]
            elif args.gc_pauses:
                run = [sys.executable, str(ROOT / "bench" / "gc_serve.py"), args.gc_pauses]
            elif args.stalls:
                run = [sys.executable, str(ROOT / "bench" / "stall_serve.py"), args.stalls]
            elif args.trace:
                run = [sys.executable, str(ROOT / "bench" / "trace_serve.py"), args.trace]
            serve = [*run, "serve", "--database-url", url]
            cores = os.cpu_count() or 1
            servers = Servers(
                [
                    Proc(
                        # --pin: server i on core i alone (taskset), the clients where they may
                        [
                            *(["taskset", "-c", str(i % cores)] if args.pin else []),
                            *serve,
                            "--port",
                            str(port),
                        ],
                        port,
                        env,
                    )
                    for i, port in enumerate(ports)
                ],
                env.get("TABLEE_METRICS_TOKEN"),
            )
            try:
                await asyncio.gather(*(s.ready("/api/games") for s in servers.procs))
                base = f"http://127.0.0.1:{ports[0]}"
                t = time.monotonic()
                bases = [f"http://127.0.0.1:{port}" for port in ports]
                seats = await setup_tablee(bases, n, args.players, args.game)
                print(f"  set-up of {n} tables: {time.monotonic() - t:.1f} s", flush=True)
                robots = await robot_tables(
                    base, args.robot_tables, args.robot_game, args.robot_level
                )
                robots_before = await robot_moves(base, robots)
                for i, seat in enumerate(seats):
                    seat.deflate = args.deflate
                    # a proxy without affinity spreads a table's sockets; with --affinity each
                    # goes to the table's home; with --by-table, to the process the table's id
                    # hashes to, whatever its home (as deploy/nginx.conf routes them): the home
                    # then follows its players there
                    if args.by_table:
                        port = ports[zlib.crc32(str(seat.table).encode()) % len(ports)]
                    else:
                        port = ports[seat.via if args.affinity else i % len(ports)]
                    seat.uri = f"ws://127.0.0.1:{port}/ws"
                ws = f"ws://127.0.0.1:{ports[0]}/ws"
                stats = await drive(
                    ws,
                    seats,
                    args.warmup,
                    args.seconds,
                    args.votes,
                    args.procs,
                    servers,
                    args.pace,
                    trace=bool(args.trace),
                )
                name = "tablee" if args.processes == 1 else f"tablee x{args.processes}"
                row = summary(name, stats, args)
                if robots:
                    moved = await robot_moves(base, robots) - robots_before
                    row["robot moves/s"] = moved / (args.seconds + args.warmup)
                rows.append(row)
            finally:
                servers.stop()
            if args.gc_pauses:
                print(gc_pauses(args.gc_pauses, stats.window), flush=True)
            if args.stalls:
                print(stalls(args.stalls, stats.window), flush=True)
            if args.trace:
                print(ways(args.trace, stats.ways, stats.window), flush=True)
    if args.no_bare:
        return rows
    size = rows[0]["frame bytes"]
    port = free_port()
    bare = Proc(
        [
            # --pin: on the first core alone, as the first tablée server
            *(["taskset", "-c", "0"] if args.pin else []),
            sys.executable,
            str(ROOT / "bench" / "bare_ws.py"),
            "--port",
            str(port),
            "--size",
            str(size),
            "--players",
            str(args.players),
            *(["--deflate"] if _server_deflates(args.server_src) else []),
        ],
        port,
    )
    try:
        await bare.ready("/docs")
        seats = [
            Seat(t, s, {"type": "hello", "table": t, "seat": s}, deflate=args.deflate)
            for t in range(n)
            for s in range(args.players)
        ]
        ws = f"ws://127.0.0.1:{port}/ws"
        stats = await drive(ws, seats, args.warmup, args.seconds, None, args.procs, bare, args.pace)
        rows.append(summary("bare", stats, args))
    finally:
        bare.stop()
    return rows


def _server_deflates(src: str | None) -> bool:
    """Whether the tablée server of this run accepts permessage-deflate (its setting, from the
    environment; a server from before the setting took uvicorn's default, yes)."""
    ask = "from tablee.settings import Settings; print(getattr(Settings(), 'ws_deflate', True))"
    env = {**os.environ, **({"PYTHONPATH": src} if src else {})}
    out = subprocess.run([sys.executable, "-c", ask], env=env, capture_output=True, text=True)
    return out.stdout.strip() == "True"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", default="10,100,500", help="comma-separated N")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--game", default="contrecarte")
    p.add_argument("--seconds", type=float, default=20, help="measured time per run")
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--database-url", default=None)
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on one database (more than one: PostgreSQL and --redis-url)",
    )
    p.add_argument(
        "--redis-url",
        default=os.environ.get("TABLEE_REDIS_URL"),
        help="Redis between the server processes (TABLEE_REDIS_URL)",
    )
    p.add_argument("--procs", type=int, default=2, help="client processes")
    p.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="paced mode: each table moves about once every PACE seconds (0: closed loop)",
    )
    p.add_argument("--profile", default=None, help="cProfile the tablée server into this file")
    p.add_argument(
        "--gc-pauses",
        default=None,
        help="time the tablée server's garbage collector passes into this file (one process)",
    )
    p.add_argument(
        "--stalls",
        default=None,
        help="time and sample the tablée server's late event-loop turns into this file (one"
        " process)",
    )
    p.add_argument(
        "--trace",
        default=None,
        help="time each move in the tablée server and each statement of its SQLite moves' thread"
        " into this file (one process): where a move's time goes",
    )
    p.add_argument("--no-bare", action="store_true", help="skip the bare server")
    p.add_argument(
        "--votes",
        choices=("socket", "rest"),
        default="socket",
        help="how the players vote the rematch: over the WebSocket as the browser does, or over "
        "REST as it does while its socket is down",
    )
    p.add_argument(
        "--deflate", action="store_true", help="clients offer permessage-deflate, as browsers do"
    )
    p.add_argument(
        "--server-src",
        default=None,
        help="the tablée servers import the package from this folder (another tree's src/)",
    )
    p.add_argument(
        "--pin",
        action="store_true",
        help="each server process (the bare one too) on a core of its own",
    )
    p.add_argument(
        "--affinity",
        action="store_true",
        help="several processes: each table's sockets on its home (no move sent over Redis)",
    )
    p.add_argument(
        "--by-table",
        action="store_true",
        help="several processes: each table's sockets on the process its id hashes to, as the"
        " proxy routes them (the tables' homes, spread when made, follow their players)",
    )
    p.add_argument(
        "--robot-tables",
        type=int,
        default=0,
        help="tables of four robots playing beside the measured ones (their load)",
    )
    p.add_argument("--robot-game", default="contree")
    p.add_argument("--robot-level", default="confirme", help="debutant or confirme")
    p.add_argument("--robot-workers", type=int, default=1, help="TABLEE_ROBOT_WORKERS")
    args = p.parse_args()
    if args.processes > 1 and not (
        args.redis_url and (args.database_url or "").startswith("postgresql")
    ):
        p.error("--processes above 1 needs --database-url postgresql+asyncpg://... and --redis-url")
    _raise_fd_limit()
    cols = [
        "server",
        "moves/s",
        "p50 ms",
        "p99 ms",
        "server cpu %",
        "cpu ms/move",
        "kernel ms/move",
        "clients cpu %",
        "rss MiB",
        "peak MiB",
        "KiB/conn",
        "frame bytes",
    ]
    for n in (int(x) for x in args.tables.split(",")):
        print(
            f"N = {n} tables of {args.players} ({n * args.players} WebSocket clients)", flush=True
        )
        rows = asyncio.run(run_one(n, args))
        print("  " + "  ".join(f"{c:>12}" for c in cols))
        for r in rows:
            print(
                "  " + "  ".join(f"{_fmt(r[c]):>12}" for c in cols),
                f"games={r['games']} errors={r['errors']}",
                "all connected and subscribed in {:.1f} s;".format(r["crowd s"]),
                "each subscribed in p50 {:.2f} s, max {:.2f} s".format(
                    *(
                        (r["subscribed"][len(r["subscribed"]) // 2], r["subscribed"][-1])
                        if r["subscribed"]
                        else (float("nan"), float("nan"))
                    )
                ),
                f"robot moves/s={_fmt(r['robot moves/s'])}" if "robot moves/s" in r else "",
                f"in the window: {r['crossed']}" if r["crossed"] else "",
                "a move's arrival to its commit: mean {move mean ms:.2f} ms, 99 % within"
                " {move p99 ms ≤:.1f} ms; commits: {count:.0f}, mean {mean ms:.2f} ms, 99 %"
                " within {p99 ms ≤:.1f} ms, {writes each:.2f} writes each; sweeps of the heap:"
                " {heap sweeps:.0f}".format_map(r["commits"])
                if r["commits"]
                else "",
                "; groups of moves alone on the event loop: {on loop %:.0f} %, slow commits"
                " there: {slow loop commits:.0f}".format_map(r["commits"])
                if "on loop %" in r["commits"]
                else "",
                "; the moves sent beside a game's end ({share %:.1f} %): p99 {beside p99 ms:.2f}"
                " ms, the others' {apart p99 ms:.2f} ms".format_map(r["ends"])
                if r["ends"]
                else "",
            )
        if len(rows) < 2:
            continue
        t, b = rows
        print(
            f"  ratio tablee/bare: moves/s {t['moves/s'] / b['moves/s']:.2f},"
            f" p50 {t['p50 ms'] / b['p50 ms']:.1f}x, p99 {t['p99 ms'] / b['p99 ms']:.1f}x,"
            f" cpu/move {t['cpu ms/move'] / b['cpu ms/move']:.1f}x",
            flush=True,
        )


def _fmt(v: Any) -> str:
    if not isinstance(v, float):
        return str(v)
    # a figure below 10 (CPU ms a move) is read to the hundredth
    return f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"


if __name__ == "__main__":
    main()
