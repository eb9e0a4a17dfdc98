"""The flood of issue 16, tried for real: one socket sends ``sync`` as fast as it can (from its own
process) while two players play a normal table through a real uvicorn. Printed, not asserted (the
machine is shared): the table's act -> state latency (p50, p99) and moves/s with no flood, with
the flood and no limits, and with the flood under the default limits. Asserted: the flooder was
refused and disconnected (1008), and the table played every move all along."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import statistics
import time
from collections.abc import Awaitable, Callable
from multiprocessing.sharedctypes import Synchronized
from typing import Any

import httpx
import pytest
import websockets

from tests.serverkit import Database, ToyGame, Uvicorn

pytestmark = pytest.mark.slow

OFF = {"ws_rate_connection": "off", "ws_rate_player": "off", "ws_rate_refusals": "off"}
#: the REST limits of the server, whatever they are, stay out of this measure
REST_OFF = {
    "rate_limit_address": "off",
    "rate_limit_player": "off",
    "rate_limit_new_players": "off",
    "rate_limit_new_tables": "off",
}
MOVES = 80


def _flood(url: str, token: str, table: int, counts: list[Synchronized[int]]) -> None:
    """The flooder's process: ``sync`` as fast as the socket takes it, reconnecting when closed;
    ``counts``: frames sent, ``rate_limited`` answers, closes with 1008."""
    asyncio.run(_flood_loop(url, token, table, counts))


async def _flood_loop(url: str, token: str, table: int, counts: list[Synchronized[int]]) -> None:
    sent, refused, closed = counts
    sync = json.dumps({"type": "sync", "table": table})

    async def read(ws: Any) -> None:
        async for frame in ws:
            if '"rate_limited"' in frame:
                refused.value += 1

    await flood(
        url, [json.dumps({"type": "hello", "token": token})], lambda n: sync, read, sent, closed
    )


async def flood(
    url: str,
    greeting: list[str],
    frame: Callable[[int], str],
    read: Callable[[Any], Awaitable[None]],
    sent: Synchronized[int],
    closed: Synchronized[int],
) -> None:
    """Sends ``frame(n)`` (``n``: frames sent so far) as fast as the socket takes it while
    ``read`` reads the answers; closed, connects again and sends ``greeting`` first. Counts the
    frames sent and the closes with 1008."""
    while True:
        try:
            async with websockets.connect(url, max_queue=None) as ws:
                for text in greeting:
                    await ws.send(text)
                reader = asyncio.create_task(read(ws))
                try:
                    while True:
                        await ws.send(frame(sent.value))
                        sent.value += 1
                        if sent.value % 32 == 0:
                            await asyncio.sleep(0)  # the reader drains the answers
                finally:
                    reader.cancel()
        except websockets.ConnectionClosed as exc:
            if exc.rcvd is not None and exc.rcvd.code == 1008:
                closed.value += 1
        except OSError:
            await asyncio.sleep(0.05)


async def _frames(ws: Any, pred: Any) -> dict[str, Any]:
    async with asyncio.timeout(60):
        while True:
            frame: dict[str, Any] = json.loads(await ws.recv())
            if pred(frame):
                return frame


async def _play(server: Uvicorn, players: list[dict[str, Any]], tid: int) -> list[float]:
    """``MOVES`` moves at the table (rematches between games); each move's act -> state time."""
    latencies: list[float] = []
    conns = [await websockets.connect(server.ws) for _ in players]
    try:
        for ws, p in zip(conns, players, strict=True):
            await ws.send(json.dumps({"type": "hello", "token": p["token"]}))
            await ws.send(json.dumps({"type": "subscribe", "table": tid}))
        states = [await _frames(ws, lambda f: f["type"] == "state") for ws in conns]
        async with httpx.AsyncClient(base_url=server.http) as http:
            while len(latencies) < MOVES:
                st = states[0]
                if st["over"]:
                    for p in players:
                        auth = {"Authorization": f"Bearer {p['token']}"}
                        r = await http.post(f"/api/tables/{tid}/rematch", headers=auth)
                        assert r.status_code == 200, r.text
                    states = [
                        await _frames(ws, lambda f: f["type"] == "state" and not f["over"])
                        for ws in conns
                    ]
                    continue
                seat = st["to_act"][0]
                version = st["version"] + 1
                started = time.perf_counter()
                act = {"type": "act", "table": tid, "action": states[seat]["legal"][0]}
                await conns[seat].send(json.dumps(act))

                def moved(f: dict[str, Any], v: int = version) -> bool:
                    return f["type"] == "state" and f["version"] == v

                states[seat] = await _frames(conns[seat], moved)
                latencies.append(time.perf_counter() - started)
                other = 1 - seat
                states[other] = await _frames(conns[other], moved)
    finally:
        for ws in conns:
            await ws.close()
    return latencies


def _setup(server: Uvicorn, tag: str) -> tuple[list[dict[str, Any]], int, dict[str, Any]]:
    with httpx.Client(base_url=server.http) as http:
        made = [http.post("/api/players", json={"name": f"{n} {tag}"}).json() for n in "ABF"]
        auth = {"Authorization": f"Bearer {made[0]['token']}"}
        body = {"game": "toy", "players": 2, "options": {"hand": 4, "deals": 5}}
        tid = http.post("/api/tables", json=body, headers=auth).json()["id"]
        auth = {"Authorization": f"Bearer {made[1]['token']}"}
        assert http.post(f"/api/tables/{tid}/join", headers=auth).status_code == 200
    return made[:2], tid, made[2]


def _measure(
    server: Uvicorn, tag: str, flood: bool, until_closed: bool = False
) -> tuple[list[float], float, list[int]]:
    """``until_closed``: after the moves, the flooder goes on until the server closes it (a
    connection over its rate is read one frame per token, so its refusals, and the close they
    lead to, come at that pace)."""
    players, tid, flooder = _setup(server, tag)
    ctx = multiprocessing.get_context("spawn")
    counts: list[Synchronized[int]] = [ctx.Value("q", 0) for _ in range(3)]
    proc = None
    if flood:
        proc = ctx.Process(target=_flood, args=(server.ws, flooder["token"], tid, counts))
        proc.start()
        deadline = time.monotonic() + 30
        while counts[0].value < 1000 and time.monotonic() < deadline:
            time.sleep(0.05)
    try:
        started = time.perf_counter()
        latencies = asyncio.run(_play(server, players, tid))
        elapsed = time.perf_counter() - started
    finally:
        if proc is not None:
            deadline = time.monotonic() + 20
            while until_closed and counts[2].value == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            proc.terminate()
            proc.join(10)
    return latencies, len(latencies) / elapsed, settled(counts)


def settled(counts: list[Synchronized[int]]) -> list[int]:
    """The flooder's counts once it was stopped, read past their locks: ``terminate`` may have
    killed it holding one (a count's ``value`` would then wait for ever)."""
    return [c.get_obj().value for c in counts]


def _figures(name: str, latencies: list[float], rate: float) -> str:
    q = statistics.quantiles(latencies, n=100)
    return f"{name}: p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, {rate:.0f} moves/s"


def test_a_sync_flood_is_refused_and_closed_while_a_normal_table_plays_on(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    with Uvicorn(sqlite_db, bot_delay_seconds=0, **OFF, **REST_OFF) as server:
        calm, calm_rate, _ = _measure(server, "calm", flood=False)
        open_flood, open_rate, open_counts = _measure(server, "open", flood=True)
    with Uvicorn(sqlite_db, bot_delay_seconds=0, **REST_OFF) as server:
        limited, limited_rate, counts = _measure(server, "limited", flood=True, until_closed=True)
    print()
    print(_figures("no flood             ", calm, calm_rate))
    print(_figures("flood, no limit      ", open_flood, open_rate), f"(sent {open_counts[0]})")
    print(
        _figures("flood, default limits", limited, limited_rate),
        f"(sent {counts[0]}, refused {counts[1]}, closed 1008 x{counts[2]})",
    )
    assert len(calm) == len(open_flood) == len(limited) == MOVES
    assert open_counts[1] == 0 and open_counts[0] > MOVES
    assert counts[1] > 0, "the flooder was never refused"
    assert counts[2] > 0, "a flooder that goes on is closed with 1008"
