"""Ratings per game (issue 18): a rated belote game moves the winners up and the losers down; an
amicale table, a robot seat, a seat handed to a robot mid-game move nothing; the recomputation
from the stored results equals what was stored as the games ended."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tablee.cli import main
from tablee.ratings import MU, SIGMA
from tests.serverkit import Database, Player, Server


async def _play(srv: Server, table_id: int, people: dict[int, Any]) -> dict[str, Any]:
    """The table's people play a legal move at random until the game ends (robots play
    themselves); the final outcome."""
    manager = srv.manager
    pick = random.Random(table_id)  # someone takes sooner or later (all passing deals again)
    for _ in range(5_000):
        live = await manager.get(table_id)
        if live.game.is_over(live.state):
            return dict(live.rec.outcome or {})
        mine = [s for s in live.game.to_act(live.state) if s in people]
        if not mine:
            await asyncio.sleep(0.005)
            continue
        seat = mine[0]
        action = pick.choice(live.game.legal_actions(live.state, seat))
        await manager.act(people[seat], table_id, action)
    raise AssertionError("the game did not end")


def play(
    srv: Server, table_id: int, players: list[Player], invitation: str | None = None
) -> dict[str, Any]:
    table = srv.client.get(f"/api/tables/{table_id}", params={"invitation": invitation}).json()
    store = srv.app.state.store
    people = {}
    for s in table["seats"]:
        if s["kind"] == "player" and not s["away"]:  # a robot plays for a person who left
            people[s["seat"]] = srv.call(store.player, s["player_id"])
    assert {p.id for p in people.values()} <= {p.id for p in players}
    return srv.call(_play, srv, table_id, people)


def four(srv: Server, rated: bool | None = None, bots: tuple[int, ...] = ()) -> tuple[dict, list]:
    names = ["Anne", "Bruno", "Chloé", "Denis"]
    players = [srv.player(n) for n in names]
    body: dict[str, Any] = {"game": "belote", "players": 4, "bots": list(bots)}
    if rated is not None:
        body["rated"] = rated
    table = srv.create_table(players[0], **body)
    for p in players[1:]:
        if table["free_seats"]:
            r = srv.post(f"/api/tables/{table['id']}/join", p)
            assert r.status_code == 200, r.text
            table = r.json()
    return table, players


def stored(srv: Server) -> Any:
    from tablee.tables.ratings import Ratings

    return srv.call(Ratings(srv.app.state.store).stored)


def test_a_rated_belote_game_moves_both_teams_the_right_way(database: Database) -> None:
    with Server(database, bot_delay_seconds=0) as srv:
        table, players = four(srv)
        assert table["rated"] is True and table["status"] == "playing"
        outcome = play(srv, table["id"], players)
        winners = set(outcome["winners"])
        assert winners in ({0, 2}, {1, 3})
        ratings, changes = stored(srv)
        by_player = {r[0]: r for r in ratings}
        assert len(changes) == 4
        for seat in range(4):
            _, game, mu, sigma, played = by_player[players[seat].id][:5]
            assert game == "belote" and played == 1
            assert sigma < SIGMA
            if seat in winners:
                assert mu > MU
            else:
                assert mu < MU
        # partners move together, by the same amount
        a, b = by_player[players[0].id], by_player[players[2].id]
        assert a[2] == b[2]
        results = srv.client.get(f"/api/tables/{table['id']}/results").json()
        assert results["table"]["rated"] is True


def test_an_amicale_table_moves_nothing(sqlite_db: Database) -> None:
    with Server(sqlite_db, bot_delay_seconds=0) as srv:
        table, players = four(srv, rated=False)
        assert table["rated"] is False
        play(srv, table["id"], players)
        assert stored(srv) == ([], [])


def test_a_table_with_a_robot_is_amicale_and_moves_nothing(sqlite_db: Database) -> None:
    with Server(sqlite_db, bot_delay_seconds=0) as srv:
        table, players = four(srv, bots=(3,))
        assert table["rated"] is False
        play(srv, table["id"], players)
        assert stored(srv) == ([], [])


def test_a_seat_handed_to_a_robot_mid_game_makes_it_unrated(sqlite_db: Database) -> None:
    with Server(sqlite_db, bot_delay_seconds=0) as srv:
        table, players = four(srv)
        r = srv.post(f"/api/tables/{table['id']}/leave", players[3])
        assert r.status_code == 200
        assert r.json()["rated"] is False  # the table says so at once
        play(srv, table["id"], players[:3])
        assert stored(srv) == ([], [])
        results = srv.client.get(f"/api/tables/{table['id']}/results").json()
        assert results["games"][0]["outcome"]["winners"]


def test_the_recomputation_reproduces_the_stored_ratings(sqlite_db: Database) -> None:
    with Server(sqlite_db, bot_delay_seconds=0) as srv:
        table, players = four(srv)
        play(srv, table["id"], players)
        for p in players:  # a rematch: the same four, the next game
            srv.post(f"/api/tables/{table['id']}/rematch", p)
        play(srv, table["id"], players)
        # a barbu game, rated by ranking
        barbu = srv.create_table(players[1], game="barbu", players=4)
        for p in (players[0], players[2], players[3]):
            srv.post(f"/api/tables/{barbu['id']}/join", p)
        play(srv, barbu["id"], players)
        before = stored(srv)
        assert len(before[1]) == 12 and len(before[0]) == 8
    assert main(["ratings", "recompute", "--database-url", sqlite_db.url]) == 0
    with Server(sqlite_db) as srv:
        assert stored(srv) == before


def test_the_profile_and_the_rated_leaderboard_show_the_games(sqlite_db: Database) -> None:
    with Server(sqlite_db, bot_delay_seconds=0, leaderboard_min_games=1) as srv:
        table, players = four(srv)
        outcome = play(srv, table["id"], players)
        winners = set(outcome["winners"])
        friendly, _ = four_more(srv, players)
        play(srv, friendly["id"], players)
        r = srv.client.get("/api/profiles/ANNE")  # any case
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["id"] == players[0].id and page["name"] == "Anne"
        (belote,) = page["games"]
        assert belote["game"] == "belote" and belote["played"] == 2
        assert belote["won"] == (0 in winners) + (0 in set(_winners(srv, friendly["id"])))
        assert belote["rating"]["rated"] == 1  # the amicale game counts as played, not rated
        (point,) = page["history"]
        assert point["table_id"] == table["id"] and (point["change"] > 0) == (0 in winners)
        assert [g["table_id"] for g in page["last_games"]] == [friendly["id"], table["id"]]
        assert [g["rated"] for g in page["last_games"]] == [False, True]
        link = page["last_games"][1]["results"]
        assert srv.client.get(link).json()["games"][0]["outcome"]["winners"] == outcome["winners"]
        board = srv.client.get("/api/leaderboard/belote").json()
        assert [e["rank"] for e in board] == [1, 2, 3, 4]
        top = {e["player_id"] for e in board[:2]}
        assert top == {players[s].id for s in winners}
        assert all(e["rating"] == e["mu"] - 3 * e["sigma"] for e in board)
        assert srv.client.get("/api/profiles/nobody").status_code == 404
        assert srv.client.get("/api/leaderboard/nogame").status_code == 404
    with Server(sqlite_db, leaderboard_min_games=2) as srv:
        assert srv.client.get("/api/leaderboard/belote").json() == []


def four_more(srv: Server, players: list[Player]) -> tuple[dict[str, Any], None]:
    """An amicale table of the same four."""
    table = srv.create_table(players[0], game="belote", players=4, rated=False)
    for p in players[1:]:
        table = srv.post(f"/api/tables/{table['id']}/join", p).json()
    return table, None


def _winners(srv: Server, table_id: int) -> list[int]:
    results = srv.client.get(f"/api/tables/{table_id}/results").json()
    winners: list[int] = results["games"][0]["outcome"]["winners"]
    return winners


def test_a_private_tables_game_counts_on_the_profile_without_naming_the_table(
    sqlite_db: Database,
) -> None:
    """A player's page is public; a private table is not: its games are counted and rated,
    but neither the table's number nor a link to it is shown (they would lead past the
    invitation)."""
    with Server(sqlite_db, bot_delay_seconds=0) as srv:
        names = ["Anne", "Bruno", "Chloé", "Denis"]
        players = [srv.player(n) for n in names]
        table = srv.create_table(players[0], game="belote", players=4, private=True)
        for p in players[1:]:
            r = srv.post(
                f"/api/tables/{table['id']}/join", p, json={"invitation": table["invitation"]}
            )
            assert r.status_code == 200, r.text
        play(srv, table["id"], players, table["invitation"])
        r = srv.client.get("/api/profiles/Anne")
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["games"][0]["played"] == 1 and page["games"][0]["rating"]["rated"] == 1
        (game,) = page["last_games"]
        assert game["private"] and game["table_id"] is None and game["results"] is None
        assert game["game_no"] is None and game["game"] == "belote"
        (point,) = page["history"]
        assert point["table_id"] is None and point["game_no"] is None
        assert f'"table_id":{table["id"]}' not in r.text.replace(" ", "")
