"""A whole Contrecarte game between three WebSocket players, with a contested +4; every frame a
player receives is checked against the cards that player may not see (``tests/serverkit.py``)."""

from __future__ import annotations

from typing import Any

from tablee.cards import deck_contrecarte
from tests.serverkit import Database, Server, play_out

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
        t = srv.stacked_table(alice, "contrecarte", 3, deck=stacked_deck())
        tid = t["id"]
        srv.post(f"/api/tables/{tid}/join", bob)
        srv.post(f"/api/tables/{tid}/join", carol)
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
