"""Redis taken away from two app processes mid-game (``docs/scaling.md``, "What fails, and what
is never lost"): the processes reach Redis through a proxy the test cuts or pauses."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import pytest

from tests.cluster.kit import (
    Client,
    Cluster,
    assert_logged_once,
    new_player,
    play,
    play_to_end,
    processes,
    toy_table,
)
from tests.cluster.proxy import Proxy, proxied
from tests.cluster.test_cluster import _metrics

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
async def proxy(cluster: Cluster) -> AsyncIterator[Proxy]:
    async with proxied(cluster.redis_url) as p:
        yield p


@pytest.mark.parametrize("how", ["pause", "cut"])
async def test_without_redis_every_move_is_answered_and_none_is_lost(
    cluster: Cluster, proxy: Proxy, how: str
) -> None:
    """Alice plays on A, the table's home; Bob on B. Redis goes away (``pause``: a partition,
    nothing closed; ``cut``: every connection closed and refused): Alice's moves are made and
    acknowledged at once, Bob sees them through B's look at the database, Bob's move, which must
    cross Redis, is answered ``conflict`` instead of waiting, and a socket opening the table on
    B gets its state. Redis back, the same act sent again is made once, and the game ends."""
    async with processes(cluster, "a", "b", redis_url=proxy.url) as (a, b):
        alice, bob, tid = await toy_table(a, b)
        acked: list[str] = []
        async with Client(a, alice) as ca, Client(b, bob) as cb:
            st = await ca.subscribe(tid)
            await cb.subscribe(tid)
            await ca.until(lambda f: f["type"] == "state" and f["info"]["seats"][1]["connected"])
            seats = {0: ca, 1: cb}

            version, moves = st["version"], 0
            # a few moves with Redis there, up to Alice's turn
            while True:
                st = await ca.state_at(tid, version)
                if moves >= 2 and st["to_act"] == [0]:
                    break
                mid = f"before-{version}"
                answer = await play(seats, tid, version, mid, st["to_act"][0])
                assert answer["type"] == "ack", answer
                acked.append(mid)
                version, moves = version + 1, moves + 1
            getattr(proxy, how)()
            # Alice, at the home: made and acknowledged as if Redis were there
            started = time.monotonic()
            answer = await play(seats, tid, version, "alice-away", 0)
            assert answer["type"] == "ack", answer
            assert time.monotonic() - started < 2, "a move at its home waited for Redis"
            acked.append("alice-away")
            version += 1
            # Bob, on B: the change reaches him without its frames (B's look at the database)
            seen = await cb.state_at(tid, version, timeout=15)
            assert seen["to_act"] == [1]
            # his move must cross Redis to the home: answered, not left waiting
            started = time.monotonic()
            answer = await play(seats, tid, version, "bob-away", 1)
            assert answer["type"] == "error" and answer["code"] == "conflict", answer
            assert time.monotonic() - started < 20
            # sockets opening the table on B meanwhile get its state, and are answered at once
            # after it (their presence is not shared: Redis is away)
            async with Client(b, bob) as c1, Client(b, None) as c2, Client(b, None) as c3:
                fresh = (c1, c2, c3)
                started = time.monotonic()
                states = await asyncio.gather(*(c.subscribe(tid) for c in fresh))
                assert all(st["version"] == version for st in states)
                await asyncio.gather(*(c.request({"type": "ping"}) for c in fresh))
                assert time.monotonic() - started < 3, "sockets waited for Redis"
            proxy.resume()
            # the same act sent again (its id: the idempotency key) is made once, whether or
            # not its first sending reached the home late
            answer = await play(seats, tid, version, "bob-away", 1)
            assert answer["type"] == "ack", answer
            acked.append("bob-away")
            version = await play_to_end(seats, tid, version + 1, acked)
            # every version reached Bob's socket in order, the last one included
            seen_b = [f["version"] for f in cb.states(tid)]
            assert seen_b == sorted(seen_b) and seen_b[-1] == version
        await assert_logged_once(cluster, tid, acked, moves=12)
    assert not a.errors() and not b.errors(), a.output() + b.output()


@pytest.mark.parametrize("stale", [2.0, 1000.0])
async def test_a_move_held_up_by_a_partition_past_its_time_is_not_made_when_it_comes(
    cluster: Cluster, proxy: Proxy, stale: float
) -> None:
    """Bob's move, sent through B while the network held what went to Redis, was answered
    ``conflict``; when it reaches the home after the partition, too late, it is not made: Bob,
    told to play again, may have chosen another card."""
    home = cluster.process("a")
    home.extra_env["TEST_STALE_MOVE_SECONDS"] = str(stale)
    away = cluster.process("b")
    for p in (home, away):
        p.settings["redis_url"] = proxy.url
        p.env = cluster.env(p.port, **p.settings)
    try:
        await asyncio.gather(home.start(), away.start())
        alice, bob, tid = await toy_table(home, away)
        async with Client(home, alice) as ca, Client(away, bob) as cb:
            st = await ca.subscribe(tid)
            await cb.subscribe(tid)
            if st["to_act"] == [0]:
                mine = await ca.state_at(tid, st["version"])
                answer = await ca.act(tid, mine["legal"][0])
                assert answer["type"] == "ack", answer
            st = await cb.state_at(tid, st["version"] + (st["to_act"] == [0]))
            assert st["to_act"] == [1]
            before = await cluster.sql(f"SELECT version FROM tables WHERE id = {tid}")
            proxy.pause()
            msg = {"type": "act", "table": tid, "action": st["legal"][0]}
            answer = await cb.answer(msg, "held", timeout=30)
            assert answer["type"] == "error" and answer["code"] == "conflict", answer
            proxy.resume()
            await asyncio.sleep(3)  # what the network held has come
            after = await cluster.sql(f"SELECT version FROM tables WHERE id = {tid}")
            if stale > 100:
                # the control: without the limit, the move is made when it comes (the
                # partition held it up, as a network does), after Bob was told it was not
                assert after[0]["version"] == before[0]["version"] + 1
                made = [st["legal"][0]]
            else:
                assert after == before, "a move answered conflict was made when it came, late"
                # Bob plays again, another card if he has one: that move is the one made
                again = {**msg, "action": st["legal"][-1]}
                answer = await cb.answer(again, "again", timeout=30)
                assert answer["type"] == "ack", answer
                made = [st["legal"][-1]]
        rows = await cluster.sql(
            f"SELECT seat, action FROM actions WHERE table_id = {tid} ORDER BY seq"
        )
        actions = [r["action"] for r in rows if r["seat"] == 1]
        assert [json.loads(a) if isinstance(a, str) else a for a in actions] == made
    finally:
        home.stop()
        away.stop()
    assert not home.errors() and not away.errors(), home.output() + away.output()


async def test_a_table_first_opened_away_from_its_home_without_redis_is_relayed_once_it_is_back(
    cluster: Cluster, proxy: Proxy
) -> None:
    """Carol opens Alice and Bob's table on B while Redis is away: B's presence there could not
    be shared. Once Redis is back, B shares it again, and the home relays its frames to B
    (not only B's look at the database)."""
    async with processes(cluster, "a", "b", redis_url=proxy.url, admin_token="sesame") as (a, b):
        alice, bob, tid = await toy_table(a, a)
        carol = await new_player(b, "Carol")
        async with Client(a, alice) as ca, Client(a, bob) as cb, Client(b, carol) as cc:
            st = await ca.subscribe(tid)
            await cb.subscribe(tid)
            clients = {0: ca, 1: cb}
            proxy.pause()
            seen = await cc.subscribe(tid)
            assert seen["version"] == st["version"]
            proxy.resume()
            await asyncio.sleep(4)  # B finds Redis back (its ping, every second) and shares
            before = await _metrics(b)
            for _ in range(2):
                mine = await clients[st["to_act"][0]].state_at(tid, st["version"])
                answer = await clients[st["to_act"][0]].act(tid, mine["legal"][0])
                assert answer["type"] == "ack", answer
                st = await cc.state_at(tid, st["version"] + 1, timeout=10)
            after = await _metrics(b)
        received = 'tablee_cluster_messages_total{kind="frames_received"}'
        assert after[received] - before[received] >= 2, (before, after)
    assert not a.errors() and not b.errors(), a.output() + b.output()
