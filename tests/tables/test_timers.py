"""Turn timers and bots: the table plays for whoever runs out of time, through the same path as a
player's move (logged, persisted, pushed)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from tablee.games import get_game, replay
from tests.serverkit import Database, Server, ToyGame


def _log(srv: Server, table: int, game_no: int = 1) -> list[object]:
    out: list[object] = srv.call(srv.app.state.store.actions, table, game_no)
    return out


def test_a_timer_plays_for_an_absent_player_legally_until_the_game_ends(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        # robot_after 0: however often the timer plays for Bob, no robot takes over
        t = srv.create_table(
            alice, game="toy", players=2, turn_seconds=0.2, options={"deals": 2}, robot_after=0
        )
        tid = t["id"]
        srv.post(f"/api/tables/{tid}/join", bob)  # Bob never connects
        with srv.ws(alice) as wa:
            wa.request({"type": "subscribe", "table": tid})
            st = wa.state()
            acted = 0
            while not st["over"]:
                if st["legal"] and st["version"] > acted:
                    assert st["deadline"] is not None
                    acted = st["version"]
                    answer = wa.act(tid, st["legal"][0])
                    # on a busy machine the timer may play for Alice first: that is a refusal
                    assert answer["type"] == "ack" or answer["code"] == "not_your_turn", answer
                st = wa.state(timeout=5)
        rec = srv.call(srv.app.state.store.table, tid)
        log = _log(srv, tid)
    sources = {(a.seat, a.source) for a in log}  # type: ignore[attr-defined]
    assert {src for seat, src in sources if seat == 1} == {"timer"}
    assert {src for seat, src in sources if seat == 0} <= {"player", "timer"}
    assert len(log) == 12 and rec.status == "finished" and rec.deadline is None
    # every move the table made is legal: the log replays
    final = replay(get_game("toy"), 2, rec.options, rec.seed, [(a.seat, a.action) for a in log])  # type: ignore[attr-defined]
    assert get_game("toy").outcome(final) == rec.outcome


def test_every_move_the_timer_makes_for_a_person_is_told_with_an_auto_event(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        t = srv.create_table(alice, game="toy", players=2, turn_seconds=0.2)
        tid = t["id"]
        with srv.ws(alice) as wa, srv.ws() as watcher:
            wa.request({"type": "subscribe", "table": tid})
            watcher.request({"type": "subscribe", "table": tid})
            srv.post(f"/api/tables/{tid}/join", bob)  # Bob never connects
            st = wa.state()
            while not st["over"]:
                if st["legal"] and st["to_act"] == [0]:
                    wa.act(tid, st["legal"][0])
                st = wa.state(timeout=5)
            seen = watcher.until(lambda f: f["type"] == "state" and f["over"])
            frames = [f for f in watcher.frames if f["type"] == "state"]
        log = {a.version: a for a in _log(srv, tid)}  # type: ignore[attr-defined]
    assert seen["over"]
    told = 0
    for f in frames:
        move = log.get(f["version"])
        if move is None or not f["events"]:
            continue
        autos = [e for e in f["events"] if e["type"] == "auto"]
        if move.source == "timer":
            # first, so a client reads "time ran out" before the move it explains
            assert f["events"][0] == {"type": "auto", "seat": move.seat, "source": "timer"}
            assert len(autos) == 1
            told += 1
        else:
            assert autos == [], f["events"]
    # Bob's three cards at least were played by the table
    assert told >= 3


def test_bots_play_their_seats_to_the_end(database: Database, toy_game: ToyGame) -> None:
    with Server(database, bot_delay_seconds=0.0) as srv:
        alice = srv.player("Alice")
        t = srv.create_table(alice, game="toy", players=3, bots=[1, 2])
        tid = t["id"]
        with srv.ws(alice) as wa:
            wa.request({"type": "subscribe", "table": tid})
            st = wa.state()
            while not st["over"]:
                if st["legal"]:
                    wa.act(tid, st["legal"][-1])
                st = wa.state()
            frames = [f for f in wa.frames if f["type"] == "state"]
        log = _log(srv, tid)
    assert {(a.seat, a.source) for a in log} == {(0, "player"), (1, "bot"), (2, "bot")}  # type: ignore[attr-defined]
    # a bot's moves are the table's by nature: no "auto" notice for them
    assert not [e for f in frames for e in f["events"] if e["type"] == "auto"]


def test_a_table_of_bots_alone_plays_itself_out(sqlite_db: Database, toy_game: ToyGame) -> None:
    with Server(sqlite_db, bot_delay_seconds=0.0) as srv:
        live = srv.call(srv.manager.create_table, None, "toy", 4, {"deals": 3}, None, [0, 1, 2, 3])
        with srv.ws() as watcher:
            watcher.request({"type": "subscribe", "table": live.id})
            end = watcher.until(lambda f: f["type"] == "state" and f["over"])
        assert end["outcome"]["winners"] and len(_log(srv, live.id)) == 36


def test_a_pending_deadline_fires_after_a_restart(database: Database, toy_game: ToyGame) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        t = srv.create_table(alice, game="toy", players=2, turn_seconds=1.0)
        tid = t["id"]
        srv.post(f"/api/tables/{tid}/join", bob)
    # the server is down when the time of the seat to act runs out
    rec = database.query("table", tid)
    assert rec.status == "playing" and rec.deadline is not None
    before = database.query("actions", tid, 1)  # none, unless the machine was very slow
    time.sleep(max(0.0, (rec.deadline - datetime.now(UTC)).total_seconds()) + 0.05)
    with Server(database) as srv, srv.ws(bob) as wb:
        wb.request({"type": "subscribe", "table": tid})
        wb.until(lambda f: f["type"] == "state" and f["version"] > rec.version)
        log = _log(srv, tid)
    fired = log[len(before)]
    assert fired.source == "timer" and fired.seat == len(before) % 2  # type: ignore[attr-defined]
    assert fired.at >= rec.deadline  # type: ignore[attr-defined]
