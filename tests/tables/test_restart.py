"""A restarted server resumes every table exactly where it was: state = replay of the log."""

from __future__ import annotations

import json

from tablee.games import get_game, replay
from tests.serverkit import Database, Server, ToyGame, play_out


def _canonical(game: str, state: object) -> str:
    return json.dumps(get_game(game).to_json(state), sort_keys=True)


def test_half_a_game_then_a_restart_then_the_rest(database: Database, toy_game: ToyGame) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        t = srv.create_table(alice, game="toy", players=2, options={"deals": 2})
        tid = t["id"]
        srv.post(f"/api/tables/{tid}/join", bob)
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            conns = {0: wa, 1: wb}
            for _ in range(5):
                st = wa.sync(tid)
                seat = st["to_act"][0]
                mine = conns[seat].sync(tid)
                assert conns[seat].act(tid, mine["legal"][-1])["type"] == "ack"
            before = {seat: ws.sync(tid) for seat, ws in conns.items()}
    with Server(database) as srv:
        live = srv.manager.cached(tid)
        assert live is not None and live.seq == 5, "unfinished tables are rebuilt at start-up"
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            conns = {0: wa, 1: wb}
            for seat, ws in conns.items():
                ws.request({"type": "subscribe", "table": tid})
                again = ws.state()
                for key in ("version", "view", "legal", "to_act"):
                    assert again[key] == before[seat][key], key
            final = play_out(conns, tid, choose=lambda st: st["legal"][-1])
            live_state = srv.manager.cached(tid).state  # (a finished table nobody watches
            # leaves memory once the connections are gone)
        rec = srv.call(srv.app.state.store.table, tid)
        log = srv.call(srv.app.state.store.actions, tid, 1)
    assert final["over"] and rec.status == "finished" and len(log) == 12
    assert [a.seq for a in log] == list(range(1, 13))
    uninterrupted = replay("toy", 2, rec.options, rec.seed, [(a.seat, a.action) for a in log])
    assert _canonical("toy", live_state) == _canonical("toy", uninterrupted)
    assert rec.outcome == get_game("toy").outcome(uninterrupted) == final["outcome"]
