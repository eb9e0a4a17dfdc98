"""After the deal: replays with every hand shown, a shuffle anyone can verify (``tablee
verify``), and what spectators see (docs/fairness.md)."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tablee import bots
from tablee.cli import main
from tablee.fairness import commitment
from tests.serverkit import WS, Database, Player, Server


def finish(srv: Server, ws: WS, table: int, seat: int = 0) -> dict[str, Any]:
    """Plays ``seat`` (the robots' own choice, from the table's state) until the game is over;
    the robots play the other seats by themselves."""
    for _ in range(5000):
        st = ws.sync(table)
        if st["over"]:
            return st
        if seat in st["to_act"]:
            live = srv.manager.cached(table)
            move = bots.next_move(live.game, live.state)
            assert move is not None and move[0] == seat
            answer = ws.act(table, move[1])
            assert answer["type"] in ("ack", "error"), answer
        else:
            time.sleep(0.02)  # the robots' turn
    raise AssertionError("the game did not end")


def finished_table(
    srv: Server, alice: Player, game: str, players: int
) -> tuple[int, dict[str, Any]]:
    t = srv.create_table(
        alice, game=game, players=players, bots=list(range(1, players)), rated=False
    )
    with srv.ws(alice) as ws:
        last = finish(srv, ws, t["id"])
    return t["id"], last


def test_a_finished_belote_is_replayed_with_every_hand_and_its_seed_revealed(
    database: Database,
) -> None:
    with Server(database) as srv:
        alice = srv.player("Alice")
        t = srv.create_table(alice, game="belote", players=4, bots=[1, 2, 3], rated=False)
        tid = t["id"]
        shuffle = t["shuffle"]
        # published at the deal, the seed kept secret while the game is played
        assert shuffle["commitment"] and len(shuffle["commitment"]) == 64
        assert shuffle["seed"] is None and shuffle["salt"] is None and not shuffle["stacked"]
        r = srv.client.get(f"/api/tables/{tid}/games/1/replay")
        assert r.status_code == 409 and r.json()["code"] == "not_finished"
        assert srv.client.get(f"/api/tables/{tid}/log").json()["games"] == []
        with srv.ws(alice) as ws:
            last = finish(srv, ws, tid)
        revealed = last["info"]["shuffle"]
        assert revealed["commitment"] == shuffle["commitment"]
        digest = hashlib.sha256(
            str(revealed["seed"]).encode() + bytes.fromhex(revealed["salt"])
        ).hexdigest()
        assert digest == shuffle["commitment"]

        rep = srv.client.get(f"/api/tables/{tid}/games/1/replay").json()
        assert srv.client.get(f"/api/tables/{tid}/games/1/replay").json() == rep  # kept
        log = srv.call(srv.app.state.store.actions, tid, 1)
        assert len(rep["steps"]) == len(log) + 1
        assert [(a["seat"], a["action"]) for a in rep["actions"]] == [
            (a.seat, a.action) for a in log
        ]
        first_step = rep["steps"][0]
        assert all(isinstance(h, list) and len(h) == 5 for h in first_step["hands"])
        assert rep["steps"][-1]["over"] and rep["outcome"] == last["outcome"]
        # each step is the game the log played: a card played leaves its seat's hand
        for before, after in zip(rep["steps"], rep["steps"][1:], strict=False):
            card = (after["action"] or {}).get("card")
            if card is not None and card in before["hands"][after["seat"]]:
                assert card not in after["hands"][after["seat"]]
        assert rep["seed"] == revealed["seed"] and rep["salt"] == revealed["salt"]


def _verify(tmp_path: Path, data: dict[str, Any], name: str) -> int:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return main(["verify", str(path)])


def test_tablee_verify_accepts_a_real_finished_table_and_refuses_what_was_altered(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Server(database) as srv:
        alice = srv.player("Alice")
        tid, _ = finished_table(srv, alice, "belote", 4)
        data = srv.client.get(f"/api/tables/{tid}/log").json()
        admin_export = None
    [g] = data["games"]
    assert g["commitment"] == commitment(g["seed"], g["salt"])
    assert _verify(tmp_path, data, "good.json") == 0
    assert "VERIFIED" in capsys.readouterr().out

    # another seed: its commitment no longer matches
    bad = json.loads(json.dumps(data))
    bad["games"][0]["seed"] = g["seed"] + 1
    assert _verify(tmp_path, bad, "seed.json") == 1
    assert "commitment" in capsys.readouterr().err

    # another seed with a commitment made for it: the moves played are not its game
    bad = json.loads(json.dumps(data))
    bad["games"][0]["seed"] = g["seed"] + 1
    bad["games"][0]["commitment"] = commitment(g["seed"] + 1, g["salt"])
    assert _verify(tmp_path, bad, "seed2.json") == 1
    assert "NOT VERIFIED" in capsys.readouterr().err

    # a move changed: another legal card for the same seat, or a swapped pair
    bad = json.loads(json.dumps(data))
    actions = bad["games"][0]["actions"]
    plays = [i for i, a in enumerate(actions) if a["action"].get("type") == "play"]
    i, j = plays[0], plays[4]
    actions[i]["action"], actions[j]["action"] = actions[j]["action"], actions[i]["action"]
    assert _verify(tmp_path, bad, "moves.json") == 1
    assert "NOT VERIFIED" in capsys.readouterr().err

    # a commitment that is not the one of this seed and salt
    bad = json.loads(json.dumps(data))
    bad["games"][0]["commitment"] = hashlib.sha256(b"another deal").hexdigest()
    assert _verify(tmp_path, bad, "commitment.json") == 1
    assert "commitment" in capsys.readouterr().err
    assert admin_export is None


def test_a_stacked_deck_is_never_shown_as_verified(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tablee.games import get_game

    deck = get_game("belote").deck(4)
    with Server(database) as srv:
        alice = srv.player("Alice")
        t = srv.stacked_table(alice, "belote", 4, deck=deck, bots=[1, 2, 3], rated=False)
        assert t["shuffle"]["stacked"]
        with srv.ws(alice) as ws:
            finish(srv, ws, t["id"])
        data = srv.client.get(f"/api/tables/{t['id']}/log").json()
    assert data["games"][0]["deck"] == deck
    assert _verify(tmp_path, data, "stacked.json") == 1
    assert "stacked" in capsys.readouterr().err


def _watch(
    srv: Server, spectators: str, alice: Player, bob: Player
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """A belote where Alice plays against robots and Bob watches: Bob's and Alice's states."""
    t = srv.create_table(
        alice, game="belote", players=4, bots=[1, 2, 3], rated=False, spectators=spectators
    )
    tid = t["id"]
    with srv.ws(bob) as wb, srv.ws(alice) as wa:
        assert wb.request({"type": "subscribe", "table": tid, "id": "w"})["type"] == "ack"
        assert wa.request({"type": "subscribe", "table": tid, "id": "p"})["type"] == "ack"
        finish(srv, wa, tid)
        wb.until(lambda f: f["type"] == "state" and f["over"])
        time.sleep(0.1)
        bob_frames = [f for f in wb.frames if f["type"] == "state"]
        alice_frames = [f for f in wa.frames if f["type"] == "state"]
    # (leaving the ``with`` checked every frame: a delayed one is exactly the game N moves ago)
    return bob_frames, alice_frames, tid


def test_a_spectator_with_a_delay_sees_every_hand_n_moves_behind_never_ahead(
    database: Database,
) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        bob_frames, alice_frames, tid = _watch(srv, "moves:3", alice, bob)
        assert srv.delayed_checked > 10  # each compared with the log replayed 3 moves short
        log = srv.call(srv.app.state.store.actions, tid, 1)
        delayed = [f for f in bob_frames if "hands" in f["view"] and not f["over"]]
        assert delayed and all(f["behind"] == 3 for f in delayed)
        for f in delayed:
            seq = sum(1 for row in log if row.version <= f["version"])
            assert seq >= 3 and f["view"]["seat"] is None
            assert all(isinstance(h, list) for h in f["view"]["hands"])
        # before three moves were played: the deal as dealt, no hand, no move told
        early = [f for f in bob_frames if f["view"] is not None and "hands" not in f["view"]]
        assert early
        for f in early:
            seq = sum(1 for row in log if row.version <= f["version"])
            assert f["behind"] == seq < 3 and f["view"]["hand"] is None
            assert not [e for e in f["events"] if e["type"] in ("play", "bid", "take", "pass")]
        assert bob_frames[-1]["over"] and bob_frames[-1]["behind"] == 0
        # the cards played are told with the hands of their moment: never one ahead, none lost
        told = 0
        for f in bob_frames:
            told += sum(1 for e in f["events"] if e["type"] == "play")
            if f["over"]:
                break
            seq = sum(1 for row in log if row.version <= f["version"])
            upto = log[: seq - f["behind"]]
            assert told == sum(1 for row in upto if row.action["type"] == "play"), f["version"]
        assert told == sum(1 for row in log if row.action["type"] == "play")
        # the player's own states are a player's: no hands but hers, nothing delayed
        assert all("behind" not in f and "hands" not in (f["view"] or {}) for f in alice_frames)


def test_without_the_delay_a_spectator_sees_no_hand(database: Database) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        bob_frames, _, _ = _watch(srv, "hidden", alice, bob)
        shown = [f for f in bob_frames if f["view"] is not None]
        assert len(shown) > 10
        for f in shown:
            assert f["view"]["hand"] is None and "hands" not in f["view"] and "behind" not in f


def test_a_players_view_does_not_depend_on_who_watches(database: Database) -> None:
    """The same game (seed, robots' choices) played twice, once watched with every hand a trick
    behind, once not watched: Alice's views are the same, version by version."""
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        views = []
        for spectators in ("trick", "hidden"):
            t = srv.stacked_table(
                alice, "belote", 4, seed=77, bots=[1, 2, 3], rated=False, spectators=spectators
            )
            with srv.ws(alice) as wa:
                if spectators == "trick":
                    with srv.ws(bob) as wb:
                        wb.request({"type": "subscribe", "table": t["id"], "id": "w"})
                        wa.request({"type": "subscribe", "table": t["id"], "id": "p"})
                        finish(srv, wa, t["id"])
                        wb.until(lambda f: f["type"] == "state" and f["over"])
                        assert any(f.get("behind") for f in wb.frames if f["type"] == "state")
                else:
                    wa.request({"type": "subscribe", "table": t["id"], "id": "p"})
                    finish(srv, wa, t["id"])
                time.sleep(0.1)
                frames = [f for f in wa.frames if f["type"] == "state" and f["view"]]
            views.append({f["version"]: f["view"] for f in frames})
        common = set(views[0]) & set(views[1])
        assert len(common) > 10
        assert all(views[0][v] == views[1][v] for v in common)


def test_a_spectators_setting_the_server_does_not_know_is_refused(database: Database) -> None:
    with Server(database) as srv:
        alice = srv.player("Alice")
        for bad in ("moves:0", "moves:201", "everything", "moves:x"):
            r = srv.post(
                "/api/tables", alice, json={"game": "belote", "players": 4, "spectators": bad}
            )
            assert r.status_code == 422, bad
            assert r.json()["detail"][0]["loc"] == ["body", "spectators"]
        assert srv.client.get("/api/tables").json() == []


def test_a_delayed_spectator_arriving_mid_game_gets_no_journal_ahead_of_its_moment(
    database: Database,
) -> None:
    with Server(database) as srv:
        alice, carol = srv.player("Alice"), srv.player("Carol")
        t = srv.create_table(
            alice, game="belote", players=4, bots=[1, 2, 3], rated=False, spectators="moves:2"
        )
        tid = t["id"]
        with srv.ws(alice) as wa:
            for _ in range(200):
                st = wa.sync(tid)
                if len(srv.call(srv.app.state.store.actions, tid, 1)) >= 6 or st["over"]:
                    break
                if 0 in st["to_act"]:
                    live = srv.manager.cached(tid)
                    move = bots.next_move(live.game, live.state)
                    assert move is not None
                    wa.act(tid, move[1])
                else:
                    time.sleep(0.02)
            with srv.ws(carol) as wc:
                wc.send({"type": "subscribe", "table": tid, "id": "c"})
                first = wc.until(lambda f: f["type"] == "state")
                assert first["behind"] == 2 and first["journal"] == []
                assert all(isinstance(h, list) for h in first["view"]["hands"])


def test_finished_deals_are_replayable_mid_game_only_where_the_table_allows_it(
    database: Database, toy_game: Any
) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        allowed = srv.create_table(
            alice, game="toy", players=2, options={"deals": 2}, deal_replays=True
        )
        default = srv.create_table(alice, game="toy", players=2, options={"deals": 2})
        for t in (allowed, default):
            srv.post(f"/api/tables/{t['id']}/join", bob)
        tid, other = allowed["id"], default["id"]
        seen_partial = False
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            conns = {0: wa, 1: wb}
            for table in (tid, other):
                while True:
                    st = wa.sync(table)
                    if st["over"]:
                        break
                    seat = st["to_act"][0]
                    mine = conns[seat].sync(table)
                    assert conns[seat].act(table, mine["legal"][0])["type"] == "ack"
                    r = srv.client.get(f"/api/tables/{table}/games/1/replay")
                    if srv.client.get(f"/api/tables/{table}").json()["status"] == "finished":
                        assert r.status_code == 200 and r.json()["complete"]
                        continue
                    if table == other:
                        assert r.status_code == 409 and r.json()["code"] == "not_finished"
                        continue
                    log = srv.call(srv.app.state.store.actions, table, 1)
                    if r.status_code == 409:
                        assert not seen_partial  # a finished deal stays replayable
                        continue
                    seen_partial = True
                    rep = r.json()
                    assert not rep["complete"] and rep["outcome"] is None
                    # no seed: it would deal the deal being played
                    assert rep["shuffle"]["seed"] is None and "seed" not in rep
                    end = rep["steps"][-1]
                    assert any(e["type"] == "deal_end" for e in end["events"])
                    assert end["hands"] is None and end["view"] is None
                    assert len(rep["actions"]) == end["n"] <= len(log)
                    assert all(isinstance(h, list) for h in rep["steps"][0]["hands"])
        assert seen_partial
