from __future__ import annotations

from tests.serverkit import Database, Server, ToyGame, play_out


def test_two_players_play_a_toy_game_over_the_websocket(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        t = srv.create_table(alice, game="toy", players=2, options={"deals": 2})
        assert t["status"] == "waiting"
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            assert wa.request({"type": "subscribe", "table": t["id"]})["type"] == "ack"
            first = wa.state()
            assert first["view"] is None and first["info"]["status"] == "waiting"
            r = srv.post(f"/api/tables/{t['id']}/join", bob)
            assert r.status_code == 200, r.text
            assert r.json()["status"] == "playing"
            wb.request({"type": "subscribe", "table": t["id"]})
            final = play_out({0: wa, 1: wb}, t["id"])
            assert final["over"] and final["outcome"]["winners"]
        assert srv.frames_checked > 10
        res = srv.client.get(f"/api/tables/{t['id']}/results").json()
        assert len(res["games"]) == 1 and len(res["games"][0]["deals"]) == 2
        board = srv.client.get("/api/leaderboard", params={"game": "toy"}).json()
        assert {r["name"] for r in board} == {"Alice", "Bob"}
