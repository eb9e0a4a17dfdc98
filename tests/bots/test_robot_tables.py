"""Robot levels at the table: chosen per bot seat at creation, kept with the seat, shown in the
table's description; a confirmé thinks in the robots' worker processes and plays through the
table's one path; the events it reads survive a restart."""

from __future__ import annotations

from typing import Any

from tablee.games import get_game, replay
from tests.serverkit import Database, Server


def _log(srv: Server, table: int) -> list[Any]:
    out: list[Any] = srv.call(srv.app.state.store.actions, table, 1)
    return out


def test_a_table_is_created_with_a_level_per_robot_seat(sqlite_db: Database) -> None:
    with Server(sqlite_db, bot_delay_seconds=3600) as srv:
        alice = srv.player("Alice")
        t = srv.create_table(
            alice, game="belote", players=4, bots=[1, 2, 3], bot_levels={"1": "confirme"}
        )
        seats = {s["seat"]: (s["kind"], s["level"]) for s in t["seats"]}
        assert seats == {
            0: ("player", None),
            1: ("bot", "confirme"),
            2: ("bot", "debutant"),
            3: ("bot", "debutant"),
        }
        again = srv.client.get(f"/api/tables/{t['id']}").json()
        assert again["seats"] == t["seats"]


def test_a_robot_level_for_a_seat_that_is_no_bot_or_unknown_is_refused(
    sqlite_db: Database,
) -> None:
    with Server(sqlite_db, bot_delay_seconds=3600) as srv:
        alice = srv.player("Alice")
        for levels in ({"0": "confirme"}, {"1": "expert"}):
            r = srv.post(
                "/api/tables",
                alice,
                json={"game": "belote", "players": 4, "bots": [1], "bot_levels": levels},
            )
            assert r.status_code == 422, r.text
            assert r.json()["detail"][0]["loc"][:2] == ["body", "bot_levels"]
        mine = srv.client.get("/api/me", headers=srv.headers(alice)).json()
        assert mine["tables"] == []  # nothing was created


def test_confirme_robots_think_in_the_workers_and_play_a_deal_out(sqlite_db: Database) -> None:
    with Server(
        sqlite_db, bot_delay_seconds=0, robot_seconds=0.05, robot_worlds=4, robot_workers=1
    ) as srv:
        levels = {0: "confirme", 2: "confirme"}
        live = srv.call(
            srv.manager.create_table, None, "belote", 4, {}, None, [0, 1, 2, 3], bot_levels=levels
        )
        with srv.ws() as watcher:
            watcher.request({"type": "subscribe", "table": live.id})
            end = watcher.until(lambda f: f["type"] == "state" and f["over"], timeout=120)
        log = _log(srv, live.id)
        thought = srv.manager.robots.decisions
        rec = srv.call(srv.app.state.store.table, live.id)
    assert end["outcome"]["winners"]
    assert {a.source for a in log} == {"bot"}
    # the confirmés' moves came from the workers (one per move with a choice, at least)
    assert thought >= 8
    # every move was legal: the log replays to the stored outcome
    belote = get_game("belote")
    final = replay(belote, 4, rec.options, rec.seed, [(a.seat, a.action) for a in log])
    assert belote.outcome(final) == rec.outcome


def test_the_events_a_robot_reads_are_rebuilt_after_a_restart(sqlite_db: Database) -> None:
    with Server(sqlite_db, bot_delay_seconds=0) as srv:
        alice = srv.player("Alice")
        t = srv.create_table(alice, game="contree", players=4, bots=[1, 2, 3])
        tid = t["id"]
        with srv.ws(alice) as wa:
            wa.request({"type": "subscribe", "table": tid})
            st = wa.state()
            moves = 0
            while moves < 6:
                if st["legal"] and st["to_act"] == [0]:
                    wa.act(tid, st["legal"][0])
                    moves += 1
                st = wa.state(timeout=10)
            # Alice's turn again: the table waits for her (no timer)
            while st["to_act"] != [0]:
                st = wa.state(timeout=10)
        before = list(srv.manager.cached(tid).history)
    assert len(before) > 20
    with Server(sqlite_db, bot_delay_seconds=0) as srv:
        live = srv.call(srv.manager.get, tid)
        assert live.history == before
