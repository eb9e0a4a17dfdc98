"""A chat flood (issue 20), tried for real: one player's client sends chat messages to a table as
fast as it can (from its own process, reconnecting when it is closed) while two players play a
normal table through a real uvicorn. Printed (the machine is shared): that table's act -> state
latency (p50, p99) and moves/s with no flood and with the flood, and what the flooder got.
Asserted: the flooder's first 1,000 messages were refused past the chat's limit, no more were
acknowledged than the bucket allows, every acknowledged one is stored and no refused one is, and
the table played every move all along."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import time
from multiprocessing.sharedctypes import Synchronized
from typing import Any

import httpx
import pytest

from tests.api.test_ws_flood import (
    MOVES,
    REST_OFF,
    _figures,
    _play,
    _setup,
    flood,
    settled,
)
from tests.serverkit import Database, ToyGame, Uvicorn

pytestmark = pytest.mark.slow

ADMIN = "flood-admin"
#: the chat's bucket in this test: a burst of 5, one more every 2 s (the default)
BURST, PER_SECOND = 5, 0.5
FIRST = 1000


def _flood(url: str, token: str, table: int, counts: list[Synchronized[int]]) -> None:
    asyncio.run(_flood_loop(url, token, table, counts))


async def _flood_loop(url: str, token: str, table: int, counts: list[Synchronized[int]]) -> None:
    """``counts``: chats sent, acks, ``rate_limited`` answers, other errors, closes with 1008,
    and the refusals among the answers to the first ``FIRST`` chats."""
    sent, acked, refused, other, closed, first_refused = counts
    answered = 0

    async def read(ws: Any) -> None:
        nonlocal answered
        async for frame in ws:
            msg = json.loads(frame)
            if msg["type"] == "ack" and str(msg.get("id", "")).startswith("c"):
                acked.value += 1
            elif msg["type"] == "error":
                if msg["code"] == "rate_limited":
                    refused.value += 1
                    if int(str(msg.get("id", "c0"))[1:]) < FIRST:
                        first_refused.value += 1
                else:
                    other.value += 1
            answered += 1

    def chat(n: int) -> str:
        return json.dumps({"type": "chat", "table": table, "text": f"flood {n}", "id": f"c{n}"})

    greeting = [
        json.dumps({"type": "hello", "token": token}),
        json.dumps({"type": "subscribe", "table": table}),
    ]
    await flood(url, greeting, chat, read, sent, closed)


def test_a_chat_flood_is_refused_past_the_limit_while_a_normal_table_plays_on(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    with Uvicorn(sqlite_db, bot_delay_seconds=0, admin_token=ADMIN, **REST_OFF) as server:
        players, tid, _ = _setup(server, "calm")
        started = time.perf_counter()
        calm = asyncio.run(_play(server, players, tid))
        calm_rate = len(calm) / (time.perf_counter() - started)

        players, tid, flooder = _setup(server, "flood")
        ctx = multiprocessing.get_context("spawn")
        counts: list[Synchronized[int]] = [ctx.Value("q", 0) for _ in range(6)]
        proc = ctx.Process(target=_flood, args=(server.ws, flooder["token"], tid, counts))
        flood_started = time.monotonic()
        proc.start()
        try:
            deadline = time.monotonic() + 30
            while counts[0].value < FIRST and time.monotonic() < deadline:
                time.sleep(0.02)
            started = time.perf_counter()
            flood = asyncio.run(_play(server, players, tid))
            flood_rate = len(flood) / (time.perf_counter() - started)
        finally:
            proc.terminate()
            proc.join(10)
        flood_seconds = time.monotonic() - flood_started
        sent, acked, refused, other, closed, first_refused = settled(counts)
        with httpx.Client(base_url=server.http) as http:
            auth = {"Authorization": f"Bearer {ADMIN}"}
            stored = http.get(f"/api/admin/chat/tables/{tid}?limit=500", headers=auth).json()
    texts = [m["text"] for m in stored["items"] if m["author"]["id"] == flooder["id"]]
    print()
    print(_figures("no flood  ", calm, calm_rate))
    print(
        _figures("chat flood", flood, flood_rate),
        f"(sent {sent}, acknowledged {acked}, refused {refused} of which {first_refused} among"
        f" the first {FIRST}, closed 1008 x{closed}, stored {len(texts)})",
    )
    assert len(calm) == len(flood) == MOVES
    assert sent >= FIRST
    assert first_refused > 0, "the flooder was never refused"
    # the bucket: its burst, then what it refilled while the flood lasted
    assert 1 <= len(texts) <= BURST + PER_SECOND * flood_seconds + 1
    # every acknowledged message is stored; the last one stored may have had its ack in flight
    # when the flooder was stopped
    assert acked <= len(texts) <= acked + 1
    assert other == 0
