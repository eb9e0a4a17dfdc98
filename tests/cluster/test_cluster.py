"""Two app processes on one PostgreSQL and one Redis."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from tests.cluster.kit import Client, Cluster, Player, Proc, new_player, processes, rest, toy_table

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def test_players_on_two_processes_play_a_whole_game(cluster: Cluster) -> None:
    await _whole_game(cluster, then_leave=False)


async def test_a_player_leaving_a_finished_table_is_seen_from_the_other_process(
    cluster: Cluster,
) -> None:
    await _whole_game(cluster, then_leave=True)


async def _whole_game(cluster: Cluster, *, then_leave: bool) -> None:
    async with processes(cluster, "a", "b") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        table = await rest(
            a,
            "POST",
            "/api/tables",
            alice,
            json={"game": "toy", "players": 2, "options": {"deals": 2}},
        )
        tid = table["id"]
        async with Client(a, alice) as ca, Client(b, bob) as cb:
            first = await ca.subscribe(tid)
            assert first["info"]["status"] == "waiting"
            # Bob joins through the other process: Alice's socket on A hears of it
            await rest(b, "POST", f"/api/tables/{tid}/join", bob)
            started = await ca.until(
                lambda f: f["type"] == "state" and f["info"]["status"] == "playing"
            )
            mark = len(ca.frames)
            await cb.subscribe(tid)
            # Bob's socket is on B; Alice, on A, sees him connected all the same
            await ca.until(
                lambda f: f["type"] == "state" and f["info"]["seats"][1]["connected"], mark
            )
            clients = {0: ca, 1: cb}
            version = started["version"]
            while True:
                states = [await c.state_at(tid, version) for c in (ca, cb)]
                assert states[0]["version"] == states[1]["version"] == version
                if states[0]["over"]:
                    break
                seat = states[0]["to_act"][0]
                mine = states[seat]
                answer = await clients[seat].act(tid, mine["legal"][0])
                assert answer["type"] == "ack", answer
                version += 1
            assert states[0]["outcome"] == states[1]["outcome"]
            if then_leave:
                mark = len(ca.frames)
                await cb.conn.close()
                await ca.until(
                    lambda f: f["type"] == "state" and not f["info"]["seats"][1]["connected"],
                    mark,
                )
            # every version reached both sockets, pushed in order, none missing
            for c in (ca, cb):
                seen = [f["version"] for f in c.states(tid)]
                assert seen == sorted(seen)
                assert set(range(seen[0], version + 1)) <= set(seen)
        rows = await cluster.sql(
            f"SELECT seq, version FROM actions WHERE table_id = {tid} ORDER BY seq"
        )
        assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1)) and len(rows) == 12
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def _metrics(proc: Proc) -> dict[str, float]:
    """The process's counters of catch-ups and cluster messages (``/metrics``)."""
    async with httpx.AsyncClient(base_url=proc.http) as http:
        r = await http.get("/metrics", headers={"Authorization": "Bearer sesame"})
        assert r.status_code == 200, r.text
    out: dict[str, float] = {}
    for line in r.text.splitlines():
        if line.startswith(("tablee_catch_ups_total", "tablee_cluster_messages_total")):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


async def test_moves_go_to_the_tables_home_and_the_other_process_relays_its_frames(
    cluster: Cluster,
) -> None:
    """The table is made on A, its home; Bob plays through B: his moves are made on A, and B
    passes A's frames on to his socket without replaying the log."""
    async with processes(cluster, "a", "b", admin_token="sesame") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {"game": "toy", "players": 2, "options": {"deals": 2}}
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        home = (await cluster.sql(f"SELECT home, home_token FROM tables WHERE id = {tid}"))[0]
        assert home["home"] and home["home_token"] == 1
        async with Client(a, alice) as ca, Client(b, bob) as cb:
            st = await ca.subscribe(tid)
            await cb.subscribe(tid)
            await ca.until(lambda f: f["type"] == "state" and f["info"]["seats"][1]["connected"])
            before_b = await _metrics(b)
            clients, version, bobs = {0: ca, 1: cb}, st["version"], 0
            while True:
                states = [await c.state_at(tid, version) for c in (ca, cb)]
                assert states[0]["version"] == states[1]["version"] == version
                if states[0]["over"]:
                    break
                seat = states[0]["to_act"][0]
                answer = await clients[seat].act(tid, states[seat]["legal"][0])
                assert answer["type"] == "ack", answer
                bobs += seat == 1
                version += 1
            after_a, after_b = await _metrics(a), await _metrics(b)
        kind = 'tablee_cluster_messages_total{kind="%s"}'
        assert bobs >= 5
        forwarded = after_b[kind % "moves_forwarded"] - before_b[kind % "moves_forwarded"]
        assert forwarded == bobs and after_a[kind % "moves_served"] == bobs
        # every change reached B as A's frames; B replayed no log row while the game went on
        received = after_b[kind % "frames_received"] - before_b[kind % "frames_received"]
        assert received >= 12
        assert after_b["tablee_catch_ups_total"] - before_b["tablee_catch_ups_total"] <= 1
        # Bob's socket got every version, in order, each once, the table's info at each
        # state's own version (a relayed info is the home's of that change)
        seen = [f["version"] for f in cb.states(tid)]
        assert all(f["info"]["version"] == f["version"] for f in cb.states(tid))
        assert [s["connected"] for s in cb.latest(tid)["info"]["seats"]] == [True, True]
        assert seen == sorted(seen) and len(seen) == len(set(seen))
        assert set(range(seen[0], version + 1)) <= set(seen)
        after = (await cluster.sql(f"SELECT home, home_token FROM tables WHERE id = {tid}"))[0]
        assert after == home  # nobody else became its home
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_simultaneous_actions_on_both_processes_apply_once_in_one_order(
    cluster: Cluster,
) -> None:
    per_player = 15
    async with processes(cluster, "a", "b") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {"game": "race", "players": 2, "options": {"taps": 2 * per_player}}
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        async with Client(a, alice) as ca, Client(b, bob) as cb, Client(b, alice) as alice_on_b:
            for c in (ca, cb, alice_on_b):
                await c.subscribe(tid)

            async def taps(c: Client, name: str) -> list[tuple[str, dict[str, object]]]:
                sent = [f"{name}{i}" for i in range(per_player)]
                answers = await asyncio.gather(
                    *(c.act(tid, {"type": "tap", "token": t}) for t in sent)
                )
                return list(zip(sent, answers, strict=True))

            # Alice taps on both processes at once, Bob on B: the same seat races itself too
            results = await asyncio.gather(taps(ca, "a"), taps(cb, "b"), taps(alice_on_b, "A"))
            acked = {t for r in results for t, ans in r if ans["type"] == "ack"}
            refused = {t: ans for r in results for t, ans in r if ans["type"] != "ack"}
            # the game ends after 50 taps: the rest are refused because it is over, nothing else
            assert len(acked) == 2 * per_player
            assert {ans["code"] for ans in refused.values()} <= {"table_over"}, refused
            final = [await c.until(lambda f: f["type"] == "state" and f["over"]) for c in (ca, cb)]
        order = final[0]["view"]["taps"]
        assert order == final[1]["view"]["taps"]
        assert sorted(order) == sorted(acked)  # each acknowledged tap once, and nothing else
        rows = await cluster.sql(
            f"SELECT seq, version, action FROM actions WHERE table_id = {tid} ORDER BY seq"
        )
        assert [r["seq"] for r in rows] == list(range(1, 2 * per_player + 1))
        assert [json_token(r["action"]) for r in rows] == order
        # both processes pushed the same history: the same events at the same versions
        for c in (ca, cb):
            history = {
                f["version"]: [e["token"] for e in f["events"]]
                for f in c.states(tid)
                if f["events"]
            }
            flat = [t for v in sorted(history) for t in history[v]]
            assert flat == order[-len(flat) :]
    assert not a.errors() and not b.errors(), a.output() + b.output()


def json_token(action: object) -> str:
    import json

    data = json.loads(action) if isinstance(action, str) else action
    assert isinstance(data, dict)
    return str(data["token"])


async def test_a_process_killed_mid_game_loses_nothing_and_the_other_goes_on(
    cluster: Cluster,
) -> None:
    async with processes(cluster, "a", "b") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {
            "game": "toy",
            "players": 3,
            "bots": [2],
            "turn_seconds": 0.4,
            "options": {"deals": 2},
            # the timer plays for whoever is slow, however often: no robot takes a seat over
            "robot_after": 0,
        }
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        acked: list[tuple[int, dict[str, object]]] = []
        async with Client(a, alice) as ca, Client(b, bob) as cb:
            await ca.subscribe(tid)
            st = await cb.subscribe(tid)
            subscribed = st["version"]
            version, alice_waited, killed = st["version"], False, False
            while True:
                st = await cb.state_at(tid, version, timeout=20)
                version = st["version"] + 1
                if st["over"]:
                    break
                if not killed and len(acked) >= 4 and alice_waited:
                    home = await cluster.sql(
                        f"SELECT home, home_token FROM tables WHERE id = {tid}"
                    )
                    assert home[0]["home_token"] == 1  # A made the table: its home
                    # the home dies; B takes the table over once A's lease has run out, and
                    # Alice's seat runs out of time there
                    a.kill()
                    killed = True
                if st["to_act"] == [1]:
                    action = st["legal"][0]
                    answer = await cb.act(tid, action)
                    if answer["type"] == "ack":
                        acked.append((1, action))
                    else:  # the timer was quicker
                        assert answer["code"] == "not_your_turn", answer
                elif st["to_act"] == [0] and not killed:
                    if not alice_waited:
                        alice_waited = True  # this once, her time runs out with both alive
                        continue
                    mine = await ca.state_at(tid, st["version"])
                    answer = await ca.act(tid, mine["legal"][0])
                    if answer["type"] == "ack":
                        acked.append((0, mine["legal"][0]))
            assert killed
        after = await cluster.sql(f"SELECT home, home_token FROM tables WHERE id = {tid}")
        assert after[0]["home"] != home[0]["home"] and after[0]["home_token"] == 2
        rows = await cluster.sql(
            f"SELECT seq, seat, action, source, version, request FROM actions"
            f" WHERE table_id = {tid} ORDER BY seq"
        )
        # no move applied twice: one row per action count, each request once
        requests = [r["request"] for r in rows if r["request"] is not None]
        assert len(requests) == len(set(requests))
        assert [r["seq"] for r in rows] == list(range(1, 19))  # 2 deals x 3 seats x 3 cards
        logged = [(r["seat"], _json(r["action"])) for r in rows]
        assert all(move in logged for move in acked)  # nothing acknowledged was lost
        sources = {(r["seat"], r["source"]) for r in rows}
        assert {(0, "timer"), (0, "player"), (1, "player"), (2, "bot")} <= sources
        last_alice_move = max(r["seq"] for r in rows if r["seat"] == 0 and r["source"] == "player")
        assert any(r["source"] == "timer" and r["seq"] > last_alice_move for r in rows)
        # Bob heard of every move the timer made, once, whichever process made it (a move made
        # on A reaches B's sockets as A's frames, one made after the takeover from B itself);
        # Bob's own seat may have run out of time too while his move waited for the takeover
        told = [e for f in cb.states(tid) for e in f["events"] if e["type"] == "auto"]
        timed = [r for r in rows if r["source"] == "timer" and r["version"] > subscribed]
        assert told == [{"type": "auto", "seat": r["seat"], "source": "timer"} for r in timed]
    assert not b.errors(), b.output()


async def test_a_process_started_later_picks_up_existing_tables(cluster: Cluster) -> None:
    first = cluster.process("first")
    await first.start()
    try:
        alice, bob, carol = [await new_player(first, n) for n in ("Alice", "Bob", "Carol")]
        tid = (await rest(first, "POST", "/api/tables", alice, json={"game": "toy", "players": 2}))[
            "id"
        ]
        await rest(first, "POST", f"/api/tables/{tid}/join", bob)
        async with Client(first, alice) as ca, Client(first, bob) as cb:
            st = await ca.subscribe(tid)
            await cb.subscribe(tid)
            for _ in range(3):
                c = ca if st["to_act"] == [0] else cb
                mine = await c.state_at(tid, st["version"])
                assert (await c.act(tid, mine["legal"][0]))["type"] == "ack"
                st = await ca.state_at(tid, st["version"] + 1)
            moved = st["version"]
        # a table that only runs on its timer and its bot, with nobody watching; its first
        # deadline is still ahead when the process dies
        # (robot_after 0: the timer keeps playing for Carol; a table whose every person was
        # handed to a robot and is away waits for one to come back)
        body = {"game": "toy", "players": 2, "bots": [1], "turn_seconds": 0.5, "robot_after": 0}
        lone = (await rest(first, "POST", "/api/tables", carol, json=body))["id"]
    finally:
        first.kill()
    before = await cluster.sql(f"SELECT count(*) AS n FROM actions WHERE table_id = {lone}")
    later = cluster.process("later")
    await later.start()
    try:
        async with Client(later, alice) as ca, Client(later, bob) as cb:
            st = await ca.subscribe(tid)
            assert st["version"] == moved and st["info"]["status"] == "playing"
            await cb.subscribe(tid)
            clients = {0: ca, 1: cb}
            while not st["over"]:
                mine = await clients[st["to_act"][0]].state_at(tid, st["version"])
                answer = await clients[st["to_act"][0]].act(tid, mine["legal"][0])
                assert answer["type"] == "ack", answer
                st = await ca.state_at(tid, st["version"] + 1)
        # nobody opened the lone table on the new process: its poller found it and finished it
        async with asyncio.timeout(30):
            while (await cluster.sql(f"SELECT status FROM tables WHERE id = {lone}"))[0][
                "status"
            ] != "finished":
                await asyncio.sleep(0.1)
        rows = await cluster.sql(
            f"SELECT seq, seat, source FROM actions WHERE table_id = {lone} ORDER BY seq"
        )
        assert [r["seq"] for r in rows] == list(range(1, 7))
        assert {r["source"] for r in rows[before[0]["n"] :]} == {"timer", "bot"}
    finally:
        later.stop()
    assert not later.errors(), later.output()


def _json(action: object) -> object:
    import json

    return json.loads(action) if isinstance(action, str) else action


ADMIN = {"Authorization": "Bearer cluster-admin-token"}


async def test_a_ban_closes_the_players_sockets_on_every_process(cluster: Cluster) -> None:
    # B would find the ban in the database only after an hour: the Redis message closes it
    token = ADMIN["Authorization"].removeprefix("Bearer ")
    async with processes(cluster, "a", "b", admin_token=token, ban_check_seconds=3600) as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {"game": "toy", "players": 2, "options": {"deals": 2}}
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        # Bob has a socket on each process; the admin who bans him is served by A
        async with Client(a, alice) as ca, Client(a, bob) as bob_a, Client(b, bob) as bob_b:
            for c in (ca, bob_a, bob_b):
                await c.subscribe(tid)
            out = await rest(a, "POST", f"/api/admin/players/{bob.id}/ban", headers=ADMIN)
            assert out["sockets_closed"] == 1  # A's own; B closes its own when it hears
            for c in (bob_a, bob_b):
                err = await c.until(lambda f: f["type"] == "error")
                assert err["code"] == "banned"
                async with asyncio.timeout(30):
                    while not c.closed:
                        await asyncio.sleep(0.02)
                assert c.conn.close_code == 4403
            # Alice stays, and sees a bot take Bob's seat
            st = await ca.until(
                lambda f: f["type"] == "state" and f["info"]["seats"][1]["kind"] == "bot"
            )
            assert not ca.closed and st["info"]["seats"][1]["player_id"] is None
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_logout_everywhere_closes_the_sessions_sockets_on_every_process(
    cluster: Cluster,
) -> None:
    async with processes(cluster, "a", "b", ban_check_seconds=3600) as (a, b):
        guest = await new_player(a, "Chloé")
        claimed = await rest(a, "POST", "/api/accounts/claim", guest, json={"password": "p" * 10})
        first = Player(guest.id, guest.name, claimed["token"])
        login = {"name": "Chloé", "password": "p" * 10}
        second = Player(
            guest.id,
            guest.name,
            (await rest(b, "POST", "/api/accounts/login", json=login))["token"],
        )
        async with Client(b, second) as on_b:
            await rest(a, "POST", "/api/accounts/logout-everywhere", first)
            err = await on_b.until(lambda f: f["type"] == "error")
            assert err["code"] == "unauthorized"
            async with asyncio.timeout(30):
                while not on_b.closed:
                    await asyncio.sleep(0.02)
            assert on_b.conn.close_code == 4401
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_a_ban_whose_message_was_lost_still_closes_the_sockets(cluster: Cluster) -> None:
    async with processes(cluster, "a", "b", ban_check_seconds=0.5) as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        async with Client(a, bob) as bob_a, Client(b, bob) as bob_b, Client(b, alice) as ca:
            # stored, never announced: what a process that missed the Redis message knows
            await cluster.sql(f"UPDATE players SET banned = true WHERE id = {bob.id}")
            for c in (bob_a, bob_b):
                err = await c.until(lambda f: f["type"] == "error", timeout=60)
                assert err["code"] == "banned"
                async with asyncio.timeout(30):
                    while not c.closed:
                        await asyncio.sleep(0.02)
                assert c.conn.close_code == 4403
            assert (await ca.request({"type": "ping"}))["type"] == "pong"
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_an_act_resent_on_both_processes_is_applied_once(cluster: Cluster) -> None:
    """The same ``act`` id sent on two processes at once, then again to each: one move, and every
    copy answered as the first was."""
    async with processes(cluster, "a", "b") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {"game": "race", "players": 2, "options": {"taps": 20}}
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        async with Client(a, alice) as on_a, Client(b, alice) as on_b:
            for c in (on_a, on_b):
                await c.subscribe(tid)

            async def send(c: Client, mid: str) -> dict[str, Any]:
                start = len(c.frames)
                act = {"type": "act", "table": tid, "action": {"type": "tap", "token": mid}}
                await c.conn.send(json.dumps({**act, "id": mid}))
                return await c.until(lambda f: f.get("id") == mid, start)

            for mid in ("t1", "t2", "t3"):
                answers = await asyncio.gather(*(send(c, mid) for c in (on_a, on_b, on_a, on_b)))
                assert [ans["type"] for ans in answers] == ["ack"] * 4, answers
            rows = await cluster.sql(f"SELECT action FROM actions WHERE table_id = {tid}")
            assert sorted(json_token(r["action"]) for r in rows) == ["t1", "t2", "t3"]
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_a_hand_over_and_its_take_back_hold_across_processes(cluster: Cluster) -> None:
    """Bob, on B, lets the timer play twice (whichever process makes those moves, the count is
    the table's row): a robot plays for him; he takes the seat back through A; both processes
    show it, and his next move is his own."""
    async with processes(cluster, "a", "b") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {
            "game": "toy",
            "players": 3,
            "bots": [2],
            "turn_seconds": 0.5,
            "robot_after": 2,
            "options": {"hand": 4},
        }
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        async with Client(a, alice) as ca, Client(b, bob) as cb:
            await ca.subscribe(tid)
            await cb.subscribe(tid)
            # Alice plays at once; Bob never does: handed over after his second timeout
            version = 0
            while True:
                await ca.state_at(tid, version)
                st = ca.latest(tid)
                assert not st["over"], "the game ended before Bob was handed over"
                if st["info"]["seats"][1]["away"] is not None:
                    break
                if st["to_act"] == [0] and st["legal"]:
                    await ca.act(tid, st["legal"][0])
                version = st["version"] + 1
            away = st["info"]["seats"][1]["away"]
            assert away["why"] == "timeout" and st["info"]["seats"][1]["name"] == "Bob"
            on_b = await rest(b, "GET", f"/api/tables/{tid}")
            assert on_b["seats"][1]["away"]["why"] == "timeout"
            # Bob takes it back through the other process; his own socket on B hears of it
            await rest(a, "POST", f"/api/tables/{tid}/take_back", bob)
            await cb.until(lambda f: f["type"] == "state" and f["info"]["seats"][1]["away"] is None)
            played = False
            for _ in range(40):
                st = cb.latest(tid)
                if st["over"]:
                    break
                if st["to_act"] == [1] and st["legal"]:
                    answer = await cb.act(tid, st["legal"][0])
                    if answer["type"] == "ack":
                        played = True
                        break
                mine = ca.latest(tid)
                if mine["to_act"] == [0] and mine["legal"] and mine["version"] == st["version"]:
                    await ca.act(tid, mine["legal"][0])
                await cb.state_at(tid, st["version"] + 1)
            assert played
        rows = await cluster.sql(
            f"SELECT seat, source FROM actions WHERE table_id = {tid} AND seat = 1 ORDER BY seq"
        )
        sources = [r["source"] for r in rows]
        assert sources[:2] == ["timer", "timer"] and sources[-1] == "player", sources


async def test_rematch_votes_over_the_sockets_of_both_processes_deal_and_play_the_next_game(
    cluster: Cluster,
) -> None:
    """The table is made on A; Bob's vote comes through B's socket. Both votes are acknowledged,
    both sockets see the next game dealt, and it is played on (its home may follow its players)."""
    async with processes(cluster, "a", "b") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {"game": "toy", "players": 2, "options": {"deals": 1}}
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        async with Client(a, alice) as ca, Client(b, bob) as cb:
            clients = {0: ca, 1: cb}
            version = (await ca.subscribe(tid))["version"]
            await cb.subscribe(tid)
            while not (st := await ca.state_at(tid, version))["over"]:
                seat = st["to_act"][0]
                mine = await clients[seat].state_at(tid, st["version"])
                assert (await clients[seat].act(tid, mine["legal"][0]))["type"] == "ack"
                version = st["version"] + 1
            answer = await cb.request({"type": "rematch", "table": tid})
            assert answer["type"] == "ack", answer
            await ca.until(lambda f: f["type"] == "state" and ca.infos[tid]["rematch_votes"] == [1])
            answer = await ca.request({"type": "rematch", "table": tid})
            assert answer["type"] == "ack", answer
            for c in (ca, cb):
                dealt = await c.until(
                    lambda f: f["type"] == "state" and not f["over"] and f["version"] > version
                )
                assert c.infos[tid]["game_no"] == 2 and c.infos[tid]["rematch_votes"] == []
            seat = dealt["to_act"][0]
            mine = await clients[seat].state_at(tid, dealt["version"])
            assert (await clients[seat].act(tid, mine["legal"][0]))["type"] == "ack"
            for c in (ca, cb):
                await c.state_at(tid, dealt["version"] + 1)
        after = await cluster.sql(f"SELECT game_no, status FROM tables WHERE id = {tid}")
        assert after == [{"game_no": 2, "status": "playing"}]
    assert not a.errors() and not b.errors(), a.output() + b.output()


async def test_the_admin_sees_each_process_s_lease_its_tables_and_those_left_without_a_home(
    cluster: Cluster,
) -> None:
    token = ADMIN["Authorization"].removeprefix("Bearer ")
    async with processes(cluster, "a", "b", admin_token=token) as (a, b):
        alice, bob, tid = await toy_table(a, b)
        home = (await cluster.sql(f"SELECT home FROM tables WHERE id = {tid}"))[0]["home"]
        seen = await rest(b, "GET", "/api/admin/processes", headers=ADMIN)
        assert seen["multi_process"] is True and seen["tables_without_home"] == 0
        by_id = {p["id"]: p for p in seen["processes"]}
        assert len(by_id) == 2 and all(p["alive"] for p in by_id.values())
        # the table was made through A, its home; B answers, and says so
        assert by_id[home]["tables"] == 1 and not by_id[home]["this"]
        (other,) = set(by_id) - {home}
        assert by_id[other]["tables"] == 0 and by_id[other]["this"]
        assert seen["this"] == other
        shown = await rest(b, "GET", f"/api/admin/tables/{tid}", headers=ADMIN)
        assert shown["home"] == {"process": home, "token": 1, "alive": True}
        # A dies: its lease runs out, and its table waits for a process to need it
        a.kill()
        async with asyncio.timeout(30):
            while True:
                seen = await rest(b, "GET", "/api/admin/processes", headers=ADMIN)
                if seen["tables_without_home"] == 1:
                    break
                await asyncio.sleep(0.2)
        by_id = {p["id"]: p for p in seen["processes"]}
        assert by_id[home]["alive"] is False and by_id[other]["alive"] is True
        shown = await rest(b, "GET", f"/api/admin/tables/{tid}", headers=ADMIN)
        assert shown["home"] == {"process": home, "token": 1, "alive": False}
        # a move through B makes B the table's home
        async with Client(b, alice) as ca:
            st = await ca.subscribe(tid)
            if st["to_act"] != [0]:
                async with Client(b, bob) as cb:
                    mine = await cb.subscribe(tid)
                    assert (await cb.act(tid, mine["legal"][0]))["type"] == "ack"
            else:
                assert (await ca.act(tid, st["legal"][0]))["type"] == "ack"
        seen = await rest(b, "GET", "/api/admin/processes", headers=ADMIN)
        by_id = {p["id"]: p for p in seen["processes"]}
        assert seen["tables_without_home"] == 0 and by_id[other]["tables"] == 1
        assert by_id[home]["tables"] == 0
        shown = await rest(b, "GET", f"/api/admin/tables/{tid}", headers=ADMIN)
        assert shown["home"] == {"process": other, "token": 2, "alive": True}
