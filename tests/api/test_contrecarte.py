"""Contrecarte at a table, as its players live it: WebSocket players, contested +4s (both
verdicts), a player leaving for a bot, a timeout, a rematch and the tally of wins; every frame a
player receives is checked against the cards that player may not see (``tests/serverkit.py``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from tablee.cards import deck_contrecarte
from tests.serverkit import WS, Database, Player, Server, play_out

#: seat 0 holds a W+4 and red cards: played on the red R5 it is illegal
HANDS = {
    0: ["W+4", "R3", "G1", "G2", "B4", "Y7", "B9"],
    1: ["B1", "B2", "G3", "Y4", "R6", "G6", "Y6"],
    2: ["Y1", "Y2", "G4", "B5", "R7", "G8", "Y9"],
}
TURNED = "R5"


def stacked_deck() -> list[str]:
    rest = deck_contrecarte()
    for card in [*HANDS[0], *HANDS[1], *HANDS[2], TURNED]:
        rest.remove(card)
    deck = [HANDS[i % 3][i // 3] for i in range(21)]
    return [*deck, TURNED, *rest]


def seated(srv: Server, players: list[Player], **table: Any) -> int:
    """A stacked Contrecarte table made by the first player, every seat taken; its id."""
    tid: int = srv.stacked_table(players[0], "contrecarte", len(players), **table)["id"]
    for p in players[1:]:
        srv.post(f"/api/tables/{tid}/join", p)
    return tid


def prefer_playing(state: dict[str, Any]) -> dict[str, Any]:
    legal = state["legal"]
    for kind in ("play", "draw", "pass", "accept"):
        for action in legal:
            if action["type"] == kind and action.get("card") not in {"W+4"}:
                return dict(action)
    return dict(legal[0])


def test_three_players_play_contrecarte_with_a_contested_plus_four(database: Database) -> None:
    with Server(database) as srv:
        alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
        tid = seated(srv, [alice, bob, carol], deck=stacked_deck())
        with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws(carol) as wc:
            for ws in (wa, wb, wc):
                ws.request({"type": "subscribe", "table": tid})
            st = wa.state()
            assert st["view"]["hand"] == HANDS[0] and st["view"]["top"] == TURNED
            plus4 = {"type": "play", "card": "W+4", "color": "B"}
            assert plus4 in st["legal"]
            assert wa.act(tid, plus4)["type"] == "ack"
            bob_st = wb.until(lambda f: f["type"] == "state" and f["view"]["phase"] == "contest")
            assert bob_st["to_act"] == [1]
            assert {a["type"] for a in bob_st["legal"]} >= {"contest", "accept"}
            assert wb.act(tid, {"type": "contest"})["type"] == "ack"
            told = wc.until(
                lambda f: f["type"] == "state" and any(e["type"] == "contest" for e in f["events"])
            )
            contest = next(e for e in told["events"] if e["type"] == "contest")
            assert contest["verdict"] == "illegal" and contest["poser"] == 0
            after = wb.sync(tid)
            assert after["view"]["counts"] == [6 + 4, 7, 7]  # the poser drew four
            assert after["to_act"] == [1] and after["view"]["color"] == "B"
            final = play_out({0: wa, 1: wb, 2: wc}, tid, choose=prefer_playing)
            assert final["over"] and len(final["outcome"]["winners"]) == 1
            winner = final["outcome"]["winners"][0]
            assert final["view"]["counts"][winner] == 0
        # every frame of the three players was checked for leaks on leaving the block
        assert srv.frames_checked > 100
        res = srv.client.get(f"/api/tables/{tid}/results").json()
        assert res["games"][0]["outcome"] == final["outcome"]
        assert res["table"]["wins"][winner] == 1


# -- a table lived through: both contests, a player leaving, a timeout, rematch and tally --------

TOKEN = "admin-token-for-tests-0123456789"

#: Alice (0) plays colour after colour down to two cards; Bob (1) holds no red under his W+4 (a
#: legal +4 on R1), Carol (2) keeps G4 under hers (an illegal +4 on G3)
LIFE = {
    0: ["R1", "G2", "Y1", "Y4", "Y7", "B9", "Y9"],
    1: ["W+4", "G3", "Y2", "Y5", "Y8", "B1", "B2"],
    2: ["W+4", "G4", "Y3", "Y6", "Y3", "B3", "B4"],
}


def life_deck() -> list[str]:
    rest = deck_contrecarte()
    for card in [*LIFE[0], *LIFE[1], *LIFE[2], TURNED]:
        rest.remove(card)
    return [*(LIFE[i % 3][i // 3] for i in range(21)), TURNED, *rest]


def move(ws: WS, tid: int, action: dict[str, Any]) -> dict[str, Any]:
    """One accepted move; the state it pushes to this connection (with its events)."""
    answer = ws.act(tid, action)
    assert answer["type"] == "ack", (answer, action)
    return ws.state(tid)


def seen_at(ws: WS, tid: int, version: int) -> dict[str, Any]:
    """The state of ``version`` as pushed to this connection."""
    return ws.until(lambda f: f["type"] == "state" and f["version"] == version)


def until_over(ws: WS, tid: int) -> dict[str, Any]:
    st = ws.sync(tid)
    while not st["over"]:
        st = ws.state(tid)
    return st


def test_a_contrecarte_table_lived_through(database: Database) -> None:
    with Server(database, admin_token=TOKEN) as srv:
        alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
        # robot_after 0: the short timer below plays the game out for Alice and Carol
        tid = seated(srv, [alice, bob, carol], deck=life_deck(), turn_seconds=3600, robot_after=0)
        with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws(carol) as wc:
            for ws in (wa, wb, wc):
                ws.request({"type": "subscribe", "table": tid})
            move(wa, tid, {"type": "play", "card": "R1"})
            # a legal +4, contested: the contester draws six and loses the turn
            pending = move(wb, tid, {"type": "play", "card": "W+4", "color": "G"})
            assert pending["view"]["pending"] == {"poser": 1, "target": 2}
            for ws in (wa, wc):
                seen = seen_at(ws, tid, pending["version"])
                assert "legal" not in str(seen["view"]) and "illegal" not in str(seen["view"])
            st = move(wc, tid, {"type": "contest"})
            told = [e for e in st["events"] if e["type"] in {"contest", "draw"}]
            assert told[0] == {"type": "contest", "seat": 2, "poser": 1, "verdict": "legal"}
            assert {"type": "draw", "seat": 2, "count": 6, "reason": "contest"} in told
            assert st["view"]["counts"] == [6, 6, 13] and st["to_act"] == [0]
            seen = seen_at(wa, tid, st["version"])
            assert seen["view"]["color"] == "G" and len(seen["view"]["hand"]) == 6
            assert {"type": "draw", "seat": 2, "count": 6, "reason": "contest"} in seen["events"]
            move(wa, tid, {"type": "play", "card": "G2"})
            move(wb, tid, {"type": "play", "card": "G3"})
            # an illegal +4 (Carol holds G4), contested: the poser draws four, the contester
            # plays next on the named colour
            move(wc, tid, {"type": "play", "card": "W+4", "color": "Y"})
            st = move(wa, tid, {"type": "contest"})
            verdict = {"type": "contest", "seat": 0, "poser": 2, "verdict": "illegal"}
            assert st["events"][0] == verdict
            assert st["view"]["counts"] == [5, 5, 16]
            assert st["to_act"] == [0] and st["view"]["color"] == "Y"
            for frame in (st, seen_at(wb, tid, st["version"])):
                # the others learn how many cards Carol drew, never which
                drew = [e for e in frame["events"] if e["type"] == "draw"]
                assert drew == [{"type": "draw", "seat": 2, "count": 4, "reason": "contest"}]
            drew = [e for e in seen_at(wc, tid, st["version"])["events"] if e["type"] == "draw"]
            assert len(drew) == 2 and len(drew[1]["cards"]) == 4
            for ws, card in ((wa, "Y1"), (wb, "Y2"), (wc, "Y3"), (wa, "Y4"), (wb, "Y5")):
                move(ws, tid, {"type": "play", "card": card})
            move(wc, tid, {"type": "play", "card": "Y6"})
            st = move(wa, tid, {"type": "play", "card": "Y7"})
            assert st["view"]["hand"] == ["B9", "Y9"] and st["to_act"] == [1]
            # Bob leaves mid-game: a robot plays his seat, which he keeps; leaving again gives
            # it to the robot for good
            r = srv.post(f"/api/tables/{tid}/leave", bob)
            seat = r.json()["seats"][1]
            assert (
                r.status_code == 200 and seat["kind"] == "player" and seat["away"]["why"] == "left"
            )
            r = srv.post(f"/api/tables/{tid}/leave", bob)
            assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "bot"
            st = wc.until(lambda f: f["type"] == "state" and f["to_act"] == [2])
            assert st["events"][0] == {"type": "play", "seat": 1, "card": "Y8"}
            move(wc, tid, {"type": "play", "card": "Y3"})
            # Alice does not play in time: the table plays Y9 for her and says "Carte !"
            r = srv.client.post(
                f"/api/admin/tables/{tid}/timer",
                headers={"Authorization": f"Bearer {TOKEN}"},
                json={"turn_seconds": 0.05},
            )
            assert r.status_code == 200, r.text
            st = wa.until(
                lambda f: f["type"] == "state" and any(e.get("seat") == 0 for e in f["events"])
            )
            assert st["events"][:2] == [
                {"type": "auto", "seat": 0, "source": "timer"},
                {"type": "play", "seat": 0, "card": "Y9", "announce": True},
            ]
            assert st["view"]["hand"] == ["B9"] and st["view"]["announced"] == [0]
            first = until_over(wc, tid)
        log = srv.call(srv.app.state.store.actions, tid, 1)
        timed = next(a for a in log if a.source == "timer")
        assert (timed.seat, timed.action) == (
            0,
            {"type": "play", "card": "Y9", "announce": True},
        )
        # Bob's seat after he left: the bot's move (later ones may be the short timer's)
        assert [(a.source, a.action) for a in log if a.seat == 1][4] == (
            "bot",
            {"type": "play", "card": "Y8"},
        )
        winner = first["outcome"]["winners"][0]
        assert first["info"]["wins"] == [int(s == winner) for s in range(3)]
        # rematch: every seated person agrees (the bot in Bob's seat has no say)
        r = srv.client.post(
            f"/api/admin/tables/{tid}/timer",
            headers={"Authorization": f"Bearer {TOKEN}"},
            json={"turn_seconds": None},
        )
        assert r.status_code == 200, r.text
        r = srv.post(f"/api/tables/{tid}/rematch", bob)
        assert r.status_code == 403 and r.json()["code"] == "not_seated"
        info = srv.post(f"/api/tables/{tid}/rematch", carol).json()
        assert info["status"] == "finished" and info["rematch_votes"] == [2]
        info = srv.post(f"/api/tables/{tid}/rematch", alice).json()
        assert info["status"] == "playing" and info["game_no"] == 2
        assert info["wins"] == first["info"]["wins"] and info["rematch_votes"] == []
        with srv.ws(alice) as wa, srv.ws(carol) as wc:
            conns = {0: wa, 2: wc}
            for ws in conns.values():
                ws.request({"type": "subscribe", "table": tid})
            st = wa.sync(tid)
            while not st["over"]:
                seat = st["to_act"][0]
                if seat in conns:
                    mine = conns[seat].sync(tid)
                    if seat in mine["to_act"] and not mine["over"]:
                        answer = conns[seat].act(tid, mine["legal"][0])
                        assert answer["type"] == "ack", answer
                    st = wa.sync(tid)
                else:
                    st = wa.state(tid)
            second = st
        again = second["outcome"]["winners"][0]
        wins = [int(s == winner) + int(s == again) for s in range(3)]
        assert second["info"]["wins"] == wins and sum(wins) == 2
        res = srv.client.get(f"/api/tables/{tid}/results").json()
        assert [g["outcome"] for g in res["games"]] == [first["outcome"], second["outcome"]]
        assert res["table"]["wins"] == wins


def test_time_is_per_decision_the_winner_of_a_contest_gets_a_full_turn_to_play(
    database: Database,
) -> None:
    # the contest and the play after it are two decisions of the same seat: the play is not
    # left with what the contest window had not used
    with Server(database) as srv:
        alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
        tid = seated(srv, [alice, bob, carol], deck=stacked_deck(), turn_seconds=3600)
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            for ws in (wa, wb):
                ws.request({"type": "subscribe", "table": tid})
            window = move(wa, tid, {"type": "play", "card": "W+4", "color": "B"})
            assert window["to_act"] == [1]
            after = move(wb, tid, {"type": "contest"})
            assert after["events"][0]["verdict"] == "illegal" and after["to_act"] == [1]
            assert datetime.fromisoformat(after["deadline"]) > datetime.fromisoformat(
                window["deadline"]
            )


def test_time_is_per_decision_a_move_that_changes_nothing_buys_no_time(sqlite_db: Database) -> None:
    # the seat to act falsely accuses a seat that said "Carte !", with nothing left to draw: its
    # choices are as they were, so its deadline is too (else it could stall the table for ever)
    with Server(sqlite_db) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        tid = seated(srv, [alice, bob], seed=7, turn_seconds=3600)
        live = srv.call(srv.manager.get, tid)
        state = live.state
        everything = [*state.hands[0], *state.hands[1], *state.stock]
        last = everything.pop()
        # a later position, set in memory: every card in a hand but the discard's top
        live.state = replace(
            state, hands=(tuple(everything), (last,)), stock=(), announced=(False, True)
        )
        deadline = live.rec.deadline
        assert deadline is not None
        player = srv.call(srv.app.state.store.player, alice.id)
        srv.call(srv.manager.act, player, tid, {"type": "catch", "target": 1})
        assert live.state.hands[1] == (last,) and len(live.state.hands[0]) == len(everything)
        assert live.seq == 1 and live.rec.deadline == deadline
