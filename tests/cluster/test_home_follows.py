"""The home follows its players (``tables/cluster.py``): a table whose seated players' sockets are
on another process than its home is handed to that process, and its moves, timer and robots are
made there from then on; moves in flight while it moves are made once; the home does not flap."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
import pytest

from tablee.tables.cluster import HAND_PAUSE
from tests.cluster.kit import Client, Cluster, Player, Proc, new_player, processes, rest

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

ADMIN = "sesame"


async def metrics(proc: Proc) -> dict[str, float]:
    """Every ``tablee_*`` sample of the process's ``/metrics``, by name and labels."""
    async with httpx.AsyncClient(base_url=proc.http) as http:
        r = await http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})
        assert r.status_code == 200, r.text
    out: dict[str, float] = {}
    for line in r.text.splitlines():
        if line.startswith("tablee_"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def crossed(m: dict[str, float], kind: str) -> float:
    return m.get(f'tablee_cluster_messages_total{{kind="{kind}"}}', 0.0)


def moves(m: dict[str, float], source: str, game: str = "toy") -> float:
    return m.get(f'tablee_moves_total{{game="{game}",source="{source}"}}', 0.0)


async def probe(proc: Proc, table: int) -> dict[str, Any]:
    """What the process holds of the table's home (``tests/cluster/app.py``)."""
    async with httpx.AsyncClient(base_url=proc.http) as http:
        r = await http.get(f"/_test/home/{table}")
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer


async def stored_home(cluster: Cluster, table: int) -> tuple[str | None, int]:
    row = (await cluster.sql(f"SELECT home, home_token FROM tables WHERE id = {table}"))[0]
    return row["home"], row["home_token"]


async def home_at(
    cluster: Cluster, table: int, proc: Proc, token: int, timeout: float = 10
) -> None:
    """Until ``proc`` is the table's home with ``token``: the database says so, and the process
    holds it as its home and has taken it in (caught up, timer and robots armed)."""
    async with asyncio.timeout(timeout):
        while True:
            held = await probe(proc, table)
            if (
                await stored_home(cluster, table) == (held["process"], token)
                and held["leads"]
                and held["taken_in"] == token
            ):
                return
            await asyncio.sleep(0.05)


async def four_players(proc: Proc) -> list[Player]:
    return [await new_player(proc, name) for name in ("Alice", "Bob", "Carol", "Dave")]


async def table_of_four(
    proc: Proc, players: list[Player], body: dict[str, Any], seated: int
) -> int:
    """A table made through ``proc`` by the first player, the next ones seated (through it too)
    up to ``seated`` in all."""
    tid: int = (await rest(proc, "POST", "/api/tables", players[0], json=body))["id"]
    for p in players[1:seated]:
        await rest(proc, "POST", f"/api/tables/{tid}/join", p)
    return tid


def _json(value: object) -> Any:
    return json.loads(value) if isinstance(value, str) else value


async def _play(clients: list[Client], tid: int, version: int, wait_for: int) -> list[Any]:
    """Plays the game to its end, each seat through its client, at once, except the first turn
    of seat ``wait_for``, which runs out of time; the moves acknowledged (seat, action)."""
    acked: list[tuple[int, Any]] = []
    waited = False
    while True:
        st = await clients[0].state_at(tid, version, timeout=20)
        if st["over"]:
            return acked
        seat = st["to_act"][0]
        version = st["version"] + 1
        if seat == wait_for and not waited:
            waited = True  # the timer plays this one, at the table's home
            continue
        mine = await clients[seat].state_at(tid, st["version"])
        if mine["version"] != st["version"] or not mine["legal"]:
            continue  # the timer was quicker
        answer = await clients[seat].act(tid, mine["legal"][0])
        if answer["type"] == "ack":
            acked.append((seat, mine["legal"][0]))
        else:
            assert answer["code"] == "not_your_turn", answer


async def test_a_tables_home_moves_to_the_process_of_its_players_and_the_game_plays_there(
    cluster: Cluster,
) -> None:
    """Made through A, its players' sockets all on B: B becomes its home within moments, and
    the whole game is played at B (no move sent over Redis, B's timer, none at A)."""
    async with processes(cluster, "a", "b", admin_token=ADMIN) as (a, b):
        players = await four_players(a)
        body = {
            "game": "toy",
            "players": 4,
            "turn_seconds": 1.5,
            "robot_after": 0,
            "options": {"hand": 4, "deals": 2},
        }
        # three seated, the table waiting: no timer anywhere yet
        tid = await table_of_four(a, players, body, seated=3)
        first = await probe(a, tid)
        assert first["leads"] and await stored_home(cluster, tid) == (first["process"], 1)
        async with contextlib.AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(Client(b, p)) for p in players]
            for c in clients[:3]:
                await c.subscribe(tid)
            await home_at(cluster, tid, b, 2)
            assert not (await probe(a, tid))["leads"]
            # the last seat is taken through A (a seat change is made where it arrives): the game
            # starts, its timer armed at its home, B
            await rest(a, "POST", f"/api/tables/{tid}/join", players[3])
            await clients[3].subscribe(tid)
            st = await clients[0].until(
                lambda f: f["type"] == "state" and f["info"]["status"] == "playing"
            )
            # the turn's timer is armed at the home, B, and not at A, which made the change
            assert (await probe(b, tid))["timer"] and not (await probe(a, tid))["timer"]
            before_a, before_b = await metrics(a), await metrics(b)
            acked = await _play(clients, tid, st["version"], wait_for=3)
            after_a, after_b = await metrics(a), await metrics(b)
            for c in clients:  # every version reached every socket, in order
                seen = [f["version"] for f in c.states(tid)]
                assert seen == sorted(seen)
        # no move went over Redis: B made them all, its timer's too; A made none
        assert crossed(after_b, "moves_forwarded") == crossed(before_b, "moves_forwarded")
        assert crossed(after_a, "moves_served") == crossed(before_a, "moves_served")
        assert moves(after_b, "player") - moves(before_b, "player") == len(acked)
        assert moves(after_b, "timer") - moves(before_b, "timer") >= 1
        assert moves(after_a, "timer") == moves(after_a, "player") == 0
        assert (crossed(after_a, "homes_given"), crossed(after_b, "homes_received")) == (1, 1)
        assert (crossed(after_b, "homes_given"), crossed(after_a, "homes_received")) == (0, 0)
        rows = await cluster.sql(
            f"SELECT seq, seat, action, source, request FROM actions"
            f" WHERE table_id = {tid} ORDER BY seq"
        )
        assert [r["seq"] for r in rows] == list(range(1, 33))  # 2 deals x 4 seats x 4 cards
        requests = [r["request"] for r in rows if r["request"] is not None]
        assert len(requests) == len(set(requests))
        logged = [(r["seat"], _json(r["action"])) for r in rows]
        assert all(logged.count(move) == 1 for move in acked)  # each acknowledged move once
        assert any(r["source"] == "timer" and r["seat"] == 3 for r in rows)
        assert await stored_home(cluster, tid) == ((await probe(b, tid))["process"], 2)
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_moves_sent_while_the_home_moves_are_each_made_once(cluster: Cluster) -> None:
    """Taps sent without a pause from sockets on both processes while the table's home moves
    from A to B: every acknowledged tap is in the log once, nothing else is, and every socket
    was shown every version."""
    async with processes(cluster, "a", "b", admin_token=ADMIN) as (a, b):
        alice, bob, carol, dave = await four_players(a)
        body = {"game": "race", "players": 4, "options": {"taps": 1000}}
        tid = await table_of_four(a, [alice, bob, carol, dave], body, seated=4)
        home_a = (await probe(a, tid))["process"]
        async with contextlib.AsyncExitStack() as stack:
            tappers = {
                name: await stack.enter_async_context(Client(proc, player))
                for name, proc, player in (
                    ("alice_a", a, alice),
                    ("bob_a", a, bob),
                    ("carol_b", b, carol),
                    ("dave_b", b, dave),
                )
            }
            # two on each side: the home stays A
            for c in tappers.values():
                await c.subscribe(tid)
            stop = asyncio.Event()
            sent: list[str] = []
            answers: dict[str, tuple[dict[str, Any], float]] = {}

            async def tap(c: Client, token: str) -> None:
                answer = await c.act(tid, {"type": "tap", "token": token})
                answers[token] = (answer, time.monotonic())

            async def taps(c: Client, name: str) -> None:
                flying: set[asyncio.Task[None]] = set()
                try:
                    for i in range(1, 1 << 30):
                        if stop.is_set():
                            break
                        token = f"{name}-{i}"
                        sent.append(token)
                        task = asyncio.create_task(tap(c, token))
                        flying.add(task)
                        task.add_done_callback(flying.discard)
                        await asyncio.sleep(0.02)
                        while len(flying) >= 3:
                            await asyncio.sleep(0.005)
                    await asyncio.gather(*flying)
                finally:  # a test that failed leaves no tap behind
                    for task in list(flying):
                        task.cancel()

            running = [asyncio.create_task(taps(c, n)) for n, c in tappers.items()]
            stack.callback(lambda: [task.cancel() for task in running])
            await asyncio.sleep(0.8)
            assert await stored_home(cluster, tid) == (home_a, 1)
            # Bob opens the table on B too: three of the four there, the home moves meanwhile
            bob_b = await stack.enter_async_context(Client(b, bob))
            await bob_b.subscribe(tid)
            running.append(asyncio.create_task(taps(bob_b, "bob_b")))
            async with asyncio.timeout(10):
                while (await stored_home(cluster, tid))[1] != 2:
                    await asyncio.sleep(0.01)
            handed = time.monotonic()
            await asyncio.sleep(1.5)
            stop.set()
            await asyncio.gather(*running)
            await home_at(cluster, tid, b, 2)
            final = (await cluster.sql(f"SELECT version FROM tables WHERE id = {tid}"))[0]
            states = [await c.state_at(tid, final["version"]) for c in [*tappers.values(), bob_b]]
            for c in [*tappers.values(), bob_b]:
                seen = [f["version"] for f in c.states(tid)]
                # in order, and none missing across the hand-over (a version shown twice: a
                # presence change's retelling) on both sides; Bob's second socket too, which
                # subscribed away from the home while its frames streamed in (its process's copy
                # read again when a frame relayed meanwhile was ahead of it)
                assert seen == sorted(seen)
                assert set(range(seen[0], final["version"] + 1)) <= set(seen), c
        rows = await cluster.sql(
            f"SELECT seq, action FROM actions WHERE table_id = {tid} ORDER BY seq"
        )
        logged = [str(_json(r["action"])["token"]) for r in rows]
        acked = {t for t, (ans, _) in answers.items() if ans["type"] == "ack"}
        refused = {t: ans for t, (ans, _) in answers.items() if ans["type"] != "ack"}
        assert not refused, refused
        assert len(answers) == len(sent)
        assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
        assert len(logged) == len(set(logged))  # nothing made twice
        assert set(logged) == acked  # nothing acknowledged lost, nothing unacknowledged made
        # the hand-over fell in the middle of the taps
        assert sum(1 for _, at in answers.values() if at < handed) > 20
        assert sum(1 for _, at in answers.values() if at > handed) > 20
        assert all(st["view"]["taps"] == logged for st in states)
        after_a, after_b = await metrics(a), await metrics(b)
        assert (crossed(after_a, "homes_given"), crossed(after_b, "homes_received")) == (1, 1)
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_the_home_stays_with_players_split_evenly_and_moves_once_for_three_to_one(
    cluster: Cluster,
) -> None:
    async with processes(cluster, "a", "b", admin_token=ADMIN) as (a, b):
        alice, bob, carol, dave = await four_players(a)
        tid = await table_of_four(a, [alice, bob, carol, dave], {"game": "toy", "players": 4}, 4)
        home_a = (await probe(a, tid))["process"]
        async with contextlib.AsyncExitStack() as stack:
            alice_a = await stack.enter_async_context(Client(a, alice))
            bob_a = await stack.enter_async_context(Client(a, bob))
            carol_b = await stack.enter_async_context(Client(b, carol))
            dave_b = await stack.enter_async_context(Client(b, dave))
            for c in (alice_a, bob_a, carol_b, dave_b):
                await c.subscribe(tid)
            # two and two: ten polls of each process later, the home has not moved
            await asyncio.sleep(2.0)
            assert await stored_home(cluster, tid) == (home_a, 1)
            assert (await probe(a, tid))["leads"]
            # Bob goes over to B: three there, one on A
            bob_b = await stack.enter_async_context(Client(b, bob))
            await bob_b.subscribe(tid)
            await bob_a.__aexit__(None, None, None)
            await home_at(cluster, tid, b, 2)
            # past the pause, the home is still B: handed once
            await asyncio.sleep(HAND_PAUSE + 1.5)
            assert await stored_home(cluster, tid) == ((await probe(b, tid))["process"], 2)
            # and the game goes on there: the players on B play without Redis, Alice through it
            st = await alice_a.state_at(tid, 0)
            clients = {0: alice_a, 1: bob_b, 2: carol_b, 3: dave_b}
            before_b = await metrics(b)
            for _ in range(4):
                st = clients[0].latest(tid)
                seat = st["to_act"][0]
                mine = await clients[seat].state_at(tid, st["version"])
                assert (await clients[seat].act(tid, mine["legal"][0]))["type"] == "ack"
                await clients[0].state_at(tid, st["version"] + 1)
            after_a, after_b = await metrics(a), await metrics(b)
        assert crossed(after_b, "moves_forwarded") == crossed(before_b, "moves_forwarded")
        assert crossed(after_a, "moves_forwarded") >= 1  # Alice's move
        assert (crossed(after_a, "homes_given"), crossed(after_b, "homes_received")) == (1, 1)
        assert (crossed(after_b, "homes_given"), crossed(after_a, "homes_received")) == (0, 0)
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_a_table_handed_on_is_not_handed_back_before_the_pause_ends(
    cluster: Cluster,
) -> None:
    """The players hop from B back to A right after their table was handed to B: it stays at B
    for ``HAND_PAUSE`` seconds, then goes back to A (B's poller: nothing else changed then)."""
    async with processes(cluster, "a", "b", admin_token=ADMIN) as (a, b):
        players = await four_players(a)
        tid = await table_of_four(a, players, {"game": "toy", "players": 4}, 4)
        async with contextlib.AsyncExitStack() as stack:
            on_a = await stack.enter_async_context(Client(a, players[0]))
            await on_a.subscribe(tid)
            on_b = [await stack.enter_async_context(Client(b, p)) for p in players[1:]]
            for c in on_b:
                await c.subscribe(tid)
            await home_at(cluster, tid, b, 2)
            handed = time.monotonic()
            for p in players[1:]:
                await (await stack.enter_async_context(Client(a, p))).subscribe(tid)
            for c in on_b:
                await c.__aexit__(None, None, None)
            # all four on A now, none on B: B keeps the table for the pause all the same
            while time.monotonic() - handed < HAND_PAUSE - 1.0:
                assert (await stored_home(cluster, tid))[1] == 2
                await asyncio.sleep(0.1)
            await home_at(cluster, tid, a, 3, timeout=HAND_PAUSE + 5)
            assert time.monotonic() - handed >= HAND_PAUSE - 0.5
            after_a, after_b = await metrics(a), await metrics(b)
        assert (crossed(after_a, "homes_given"), crossed(after_b, "homes_received")) == (1, 1)
        assert (crossed(after_b, "homes_given"), crossed(after_a, "homes_received")) == (1, 1)
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_a_hand_over_whose_message_is_lost_is_found_by_the_new_homes_poller(
    cluster: Cluster,
) -> None:
    """B ignores the ``"h"`` messages (as if Redis lost them): it finds the table handed to it in
    the database at its next poll, takes it in, and runs its timer."""
    a = cluster.process("a", admin_token=ADMIN)
    b = cluster.process("b", admin_token=ADMIN)
    b.extra_env["TEST_DROP_HANDS"] = "1"
    try:
        await asyncio.gather(a.start(), b.start())
        players = await four_players(a)
        body = {"game": "toy", "players": 4, "turn_seconds": 1.0, "robot_after": 0}
        tid = await table_of_four(a, players, body, seated=3)
        async with contextlib.AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(Client(b, p)) for p in players]
            for c in clients[:3]:
                await c.subscribe(tid)
            await home_at(cluster, tid, b, 2)
            await rest(a, "POST", f"/api/tables/{tid}/join", players[3])
            await clients[3].subscribe(tid)
            st = await clients[0].until(
                lambda f: f["type"] == "state" and f["info"]["status"] == "playing"
            )
            # nobody plays: the timer does, at B
            await clients[0].state_at(tid, st["version"] + 2, timeout=10)
            after_a, after_b = await metrics(a), await metrics(b)
        assert moves(after_b, "timer") >= 2 and moves(after_a, "timer") == 0
        assert (crossed(after_a, "homes_given"), crossed(after_b, "homes_received")) == (1, 1)
    finally:
        a.stop()
        b.stop()
    assert not a.errors() and not b.errors(), a.output() + b.output()
