"""Finished games: outcome, rematch at the same table, results and the leaderboard."""

from __future__ import annotations

from tests.serverkit import Database, Server, ToyGame, play_out


def test_rematch_results_and_leaderboard(database: Database, toy_game: ToyGame) -> None:
    with Server(database) as srv:
        alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
        t = srv.create_table(alice, game="toy", players=2, options={"deals": 2})
        tid = t["id"]
        srv.post(f"/api/tables/{tid}/join", bob)
        r = srv.post(f"/api/tables/{tid}/rematch", alice)
        assert r.status_code == 409 and r.json()["code"] == "not_finished"
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            first = play_out({0: wa, 1: wb}, tid)
            winners = first["outcome"]["winners"]
            info = wa.sync(tid)["info"]
            assert info["status"] == "finished"
            assert info["wins"] == [int(s in winners) for s in (0, 1)]
            r = srv.post(f"/api/tables/{tid}/rematch", carol)
            assert r.status_code == 403 and r.json()["code"] == "not_seated"
            r = srv.post(f"/api/tables/{tid}/rematch", alice)
            assert r.json()["status"] == "finished" and r.json()["rematch_votes"] == [0]
            r = srv.post(f"/api/tables/{tid}/rematch", alice)  # a second vote counts once
            assert r.json()["rematch_votes"] == [0]
            r = srv.post(f"/api/tables/{tid}/rematch", bob)
            again = r.json()
            assert again["status"] == "playing" and again["game_no"] == 2
            assert again["rematch_votes"] == [] and again["wins"] == info["wins"]
            st = wa.sync(tid)
            assert not st["over"] and st["view"]["deal"] == 1 and st["outcome"] is None
            second = play_out({0: wa, 1: wb}, tid, choose=lambda s: s["legal"][-1])
            assert second["over"]
        res = srv.client.get(f"/api/tables/{tid}/results").json()
        games = res["games"]
        assert [g["game_no"] for g in games] == [1, 2]
        assert games[0]["outcome"] == first["outcome"]
        assert games[1]["outcome"] == second["outcome"]
        for g in games:
            assert [d["deal"] for d in g["deals"]] == [1, 2]
            assert [d["event"]["type"] for d in g["deals"]] == ["deal_end", "deal_end"]
            assert [s["name"] for s in g["seats"]] == ["Alice", "Bob"]
            assert [s["score"] for s in g["seats"]] == g["outcome"]["scores"]
            assert [s["won"] for s in g["seats"]] == [s in g["outcome"]["winners"] for s in (0, 1)]
        won = {n: 0 for n in ("Alice", "Bob")}
        for g in games:
            for s in g["seats"]:
                won[s["name"]] += s["won"]
        assert res["table"]["wins"] == [won["Alice"], won["Bob"]]
        board = srv.client.get("/api/leaderboard", params={"game": "toy"}).json()
        assert {b["name"]: (b["played"], b["won"]) for b in board} == {
            "Alice": (2, won["Alice"]),
            "Bob": (2, won["Bob"]),
        }
        assert [b["won"] for b in board] == sorted((b["won"] for b in board), reverse=True)
        assert srv.client.get("/api/leaderboard", params={"game": "tarot"}).json() == []


def test_a_rematch_vote_over_the_websocket_is_acknowledged_before_the_state_that_shows_it(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database) as srv:
        alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
        tid = srv.create_table(alice, game="toy", players=2)["id"]
        srv.post(f"/api/tables/{tid}/join", bob)
        with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws(carol) as wc:
            for ws in (wa, wb):
                assert ws.request({"type": "subscribe", "table": tid, "id": "s"})["type"] == "ack"
                ws.state(tid)
            vote = {"type": "rematch", "table": tid, "id": "v1"}
            answer = wa.request(vote)
            assert answer["type"] == "error" and answer["code"] == "not_finished"
            assert answer["id"] == "v1"
            play_out({0: wa, 1: wb}, tid)
            wc.sync(tid)  # a spectator: watching gives no vote
            answer = wc.request({"type": "rematch", "table": tid, "id": "c"})
            assert answer["type"] == "error" and answer["code"] == "not_seated"
            answer = wa.request({"type": "rematch", "table": 10**6, "id": "u"})
            assert answer["code"] == "unknown_table"
            assert wa.sync(tid)["info"]["rematch_votes"] == []
            wb.sync(tid)  # what came before the votes is read

            wa.send({"type": "rematch", "table": tid, "id": "a"})
            ack = wa.until(lambda f: f["type"] in {"ack", "error", "state"})
            assert ack == {"type": "ack", "id": "a"}, "the ack comes before the vote's state"
            shown = wa.state(tid)
            assert shown["over"] and shown["info"]["rematch_votes"] == [0]
            assert wb.state(tid)["info"]["rematch_votes"] == [0]

            wb.send({"type": "rematch", "table": tid, "id": "b"})
            assert wb.until(lambda f: f["type"] in {"ack", "error", "state"})["type"] == "ack"
            dealt = wb.state(tid)
            assert not dealt["over"] and dealt["info"]["game_no"] == 2
            assert dealt["info"]["rematch_votes"] == []
            # the same vote again: the new game is not over
            assert wb.request({"type": "rematch", "table": tid, "id": "b2"})["code"] == (
                "not_finished"
            )
        res = srv.client.get(f"/api/tables/{tid}").json()
        assert res["game_no"] == 2 and res["status"] == "playing"


def test_a_rematch_vote_over_the_websocket_needs_a_hello(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database) as srv:
        alice = srv.player("Alice")
        tid = srv.create_table(alice, game="toy", players=2)["id"]
        with srv.ws() as anonymous:
            answer = anonymous.request({"type": "rematch", "table": tid, "id": 1})
            assert answer["type"] == "error" and answer["code"] == "unauthorized"
            answer = anonymous.request({"type": "rematch", "id": 2})
            assert answer["type"] == "error" and answer["code"] == "bad_request"
