"""PostgreSQL taken away from two app processes mid-game (``docs/scaling.md``, "What fails,
and what is never lost"): the processes reach it through a proxy the test cuts or pauses."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.cluster.kit import (
    Client,
    Cluster,
    assert_logged_once,
    new_player,
    play,
    play_to_end,
    processes,
    rest,
    toy_table,
)
from tests.cluster.proxy import Proxy, proxied

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


#: the tracebacks a process logs while the database is away and tries again: its housekeeping
#: rounds (the poller, the lease, the sweep) and its pool's resets
EXPECTED = ("periodic.py", "Exception during reset")


@pytest.fixture
async def pg_proxy(cluster: Cluster) -> AsyncIterator[Proxy]:
    async with proxied(cluster.db.url) as p:
        yield p


@pytest.mark.parametrize("how", ["pause", "cut"])
async def test_without_postgres_a_move_is_answered_conflict_and_sent_again_is_made_once(
    cluster: Cluster, pg_proxy: Proxy, how: str
) -> None:
    """The processes lose PostgreSQL (``pause``: a partition, the statement sent waits and may
    run when the network is back; ``cut``: the connections closed and refused): a move is
    answered ``conflict`` (send it again), not left waiting, and nothing is acknowledged that
    was not committed. PostgreSQL back, the same act sent again is made once, whether or not
    the statement held up ran late, and the game plays on to its end."""
    async with processes(cluster, "a", "b", database_url=pg_proxy.url) as (a, b):
        alice, bob, tid = await toy_table(a, a)
        acked: list[str] = []
        async with Client(a, alice) as ca, Client(a, bob) as cb:
            st = await ca.subscribe(tid)
            await cb.subscribe(tid)
            seats = {0: ca, 1: cb}
            await asyncio.sleep(0.5)  # the subscribes' own reads are over
            getattr(pg_proxy, how)()
            started = time.monotonic()
            answer = await play(seats, tid, st["version"], "away", timeout=40)
            assert answer["type"] == "error" and answer["code"] == "conflict", answer
            assert time.monotonic() - started < 30
            pg_proxy.resume()
            answer = await play(seats, tid, st["version"], "away", timeout=60)
            assert answer["type"] == "ack", answer
            acked.append("away")
            await play_to_end(seats, tid, st["version"] + 1, acked)
        await assert_logged_once(cluster, tid, acked, moves=12)
    assert not a.failures(EXPECTED) and not b.failures(EXPECTED), a.output() + b.output()


async def test_a_hello_without_postgres_is_answered_and_one_after_it_is_welcome(
    cluster: Cluster, pg_proxy: Proxy
) -> None:
    """A socket's hello reads its player: without PostgreSQL (a partition) it is answered
    ``unavailable`` with its id after the reads' timeout, and once the database is back, a
    hello (on a new socket, or the same one) is welcome."""
    async with processes(cluster, "a", "b", database_url=pg_proxy.url) as (a, _):
        alice, _, _ = await toy_table(a, a)
        async with Client(a, alice):  # the reads' pool has its connection
            pass
        async with Client(a, None) as c:
            pg_proxy.pause()
            started = time.monotonic()
            answer = await c.answer({"type": "hello", "token": alice.token}, "h1", timeout=40)
            assert answer["type"] == "error" and answer["code"] == "unavailable", answer
            assert time.monotonic() - started < 15  # the read's limit (10 s), once
            pg_proxy.resume()
            answer = await c.answer({"type": "hello", "token": alice.token}, "h2", timeout=30)
            assert answer["type"] == "welcome", answer
        async with Client(a, alice):
            pass


async def test_a_rest_call_without_postgres_is_answered_503_and_made_once_it_is_back(
    cluster: Cluster, pg_proxy: Proxy
) -> None:
    """A REST call during a partition from PostgreSQL is answered 503 ``unavailable`` (with
    ``Retry-After``) once its statement gives up, not left waiting for the network; nothing of
    it was made, and the same call once the database is back is."""
    async with processes(cluster, "a", database_url=pg_proxy.url) as (a,):
        alice = await new_player(a, "Alice")
        await rest(a, "GET", "/api/tables", alice)
        pg_proxy.pause()
        async with httpx.AsyncClient(base_url=a.http, timeout=60) as http:
            started = time.monotonic()
            r = await http.post("/api/players", json={"name": "Carol"})
            assert time.monotonic() - started < 30
            assert r.status_code == 503 and r.json()["code"] == "unavailable", r.text
            assert r.headers["retry-after"] == "1"
            r = await http.get("/api/tables", headers=alice.auth)
            assert r.status_code == 503 and r.json()["code"] == "unavailable", r.text
            pg_proxy.resume()
            r = await http.post("/api/players", json={"name": "Carol"})
            assert r.status_code == 201, r.text
    assert not a.failures(EXPECTED), a.output()
