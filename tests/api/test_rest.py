"""The REST API through httpx against the app (ASGI transport, the app's own lifespan)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from tablee.api import create_app
from tests.serverkit import Database, ToyGame


class Api:
    def __init__(self, client: httpx.AsyncClient, app: Any) -> None:
        self.c = client
        self.app = app

    async def player(self, name: str) -> dict[str, Any]:
        r = await self.c.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
        body["auth"] = {"Authorization": f"Bearer {body['token']}"}
        return body

    async def table(self, p: dict[str, Any], **body: Any) -> dict[str, Any]:
        r = await self.c.post("/api/tables", json=body, headers=p["auth"])
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    async def post(self, path: str, p: dict[str, Any], **kw: Any) -> httpx.Response:
        return await self.c.post(path, headers=p["auth"], **kw)


async def _api(db: Database) -> AsyncIterator[Api]:
    app = create_app(db.settings(bot_delay_seconds=0.0))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield Api(client, app)


@pytest.fixture
async def api(database: Database, toy_game: ToyGame) -> AsyncIterator[Api]:
    """On SQLite and on PostgreSQL."""
    async for a in _api(database):
        yield a


@pytest.fixture
async def lite(sqlite_db: Database, toy_game: ToyGame) -> AsyncIterator[Api]:
    """On SQLite only: for checks of input that never reaches the database."""
    async for a in _api(sqlite_db):
        yield a


async def test_a_guest_account_is_a_name_and_a_token_stored_hashed(api: Api) -> None:
    p = await api.player("  Amélie   Poulain ")
    assert p["name"] == "Amélie Poulain"
    me = await api.c.get("/api/me", headers=p["auth"])
    assert me.status_code == 200 and me.json()["id"] == p["id"] and me.json()["tables"] == []
    async with api.app.state.store.engine.connect() as conn:
        stored = (await conn.execute(text("SELECT token_hash FROM players"))).scalar_one()
    assert stored == hashlib.sha256(p["token"].encode()).hexdigest() and p["token"] not in stored


@pytest.mark.parametrize(
    "name", ["A", "x" * 25, "<script>", "Bob;DROP", "   ", "--", "a\x00b", "Zoé😀"]
)
async def test_bad_player_names_are_refused(lite: Api, name: str) -> None:
    r = await lite.c.post("/api/players", json={"name": name})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "name"]


async def test_me_needs_a_known_token(api: Api) -> None:
    assert (await api.c.get("/api/me")).status_code == 401
    r = await api.c.get("/api/me", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401 and "unknown token" in r.json()["detail"]
    p = await api.player("Zoé")
    r = await api.c.post("/api/tables", json={"game": "toy", "players": 2})
    assert r.status_code == 401
    assert (await api.c.get("/api/me", headers=p["auth"])).status_code == 200


async def test_games_describes_every_registered_game(lite: Api) -> None:
    games = {g["name"]: g for g in (await lite.c.get("/api/games")).json()}
    assert games["toy"]["min_players"] == 2 and games["toy"]["max_players"] == 4
    assert {o["name"]: o["default"] for o in games["toy"]["options"]} == {"hand": 3, "deals": 1}


@pytest.mark.parametrize(
    ("body", "loc", "words"),
    [
        ({"game": "poker", "players": 2}, ["body", "game"], "unknown game"),
        ({"game": "toy", "players": 9}, ["body", "players"], "2 to 4 players"),
        (
            {"game": "toy", "players": 2, "options": {"hand": 9}},
            ["body", "options", "hand"],
            "at most",
        ),
        (
            {"game": "toy", "players": 2, "options": {"jokers": 1}},
            ["body", "options", "jokers"],
            "unknown option",
        ),
        ({"game": "toy", "players": 2, "bots": [2]}, ["body", "bots"], "0 to 1"),
        ({"game": "toy", "players": 3, "bots": [1, 1]}, ["body", "bots"], "twice"),
        ({"game": "toy", "players": 2, "turn_seconds": -1}, ["body", "turn_seconds"], "between"),
        ({"players": 2}, ["body", "game"], "required"),
        ({"game": "toy", "players": "two"}, ["body", "players"], "integer"),
    ],
)
async def test_an_invalid_table_is_refused_naming_the_field(
    lite: Api, body: dict[str, Any], loc: list[str], words: str
) -> None:
    api = lite
    p = await api.player("Creator")
    r = await api.post("/api/tables", p, json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["loc"] == loc and words in detail["msg"].lower(), detail
    assert (await api.c.get("/api/tables")).json() == []


async def test_the_lobby_lists_public_tables_and_filters_them(api: Api) -> None:
    a, b = await api.player("Anne"), await api.player("Bert")
    open_ = await api.table(a, game="toy", players=2)
    hidden = await api.table(a, game="toy", players=2, private=True)
    full = await api.table(b, game="toy", players=2, bots=[1])
    assert full["status"] == "playing" and open_["status"] == "waiting"
    ids = [t["id"] for t in (await api.c.get("/api/tables")).json()]
    assert ids == [full["id"], open_["id"]]
    waiting = (await api.c.get("/api/tables", params={"status": "waiting"})).json()
    assert [t["id"] for t in waiting] == [open_["id"]]
    assert (await api.c.get("/api/tables", params={"game": "belote"})).json() == []
    assert (await api.c.get("/api/tables", params={"status": "lost"})).status_code == 422
    # a private table: its id alone shows nothing (test_private_tables.py); its creator sees it
    shown = (await api.c.get(f"/api/tables/{hidden['id']}", headers=a["auth"])).json()
    assert shown["private"] and shown["creator"] == {"id": a["id"], "name": "Anne"}
    assert (await api.c.get("/api/tables/999")).status_code == 404


async def test_joining_fills_seats_and_the_last_one_starts_the_game(api: Api) -> None:
    a, b, c, d = [await api.player(n) for n in ("Anne", "Bert", "Cléo", "Dan")]
    t = await api.table(a, game="toy", players=3)
    tid = t["id"]
    assert [s["kind"] for s in t["seats"]] == ["player", "empty", "empty"]
    r = await api.post(f"/api/tables/{tid}/join", b, json={"seat": 2})
    assert r.status_code == 200 and r.json()["seats"][2]["name"] == "Bert"
    r = await api.post(f"/api/tables/{tid}/join", c, json={"seat": 2})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = await api.post(f"/api/tables/{tid}/join", b, json={})
    assert r.status_code == 409 and r.json()["code"] == "already_seated"
    r = await api.post(f"/api/tables/{tid}/join", c, json={"seat": 7})
    assert r.status_code == 422 and r.json()["code"] == "bad_request"
    r = await api.post(f"/api/tables/{tid}/join", c)
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert r.json()["seats"][1]["name"] == "Cléo" and r.json()["version"] == t["version"] + 2
    r = await api.post(f"/api/tables/{tid}/join", d)
    assert r.status_code == 409 and r.json()["code"] == "table_full"
    me = (await api.c.get("/api/me", headers=c["auth"])).json()
    assert me["tables"] == [tid]


async def test_only_the_creator_starts_and_only_with_every_seat_taken(api: Api) -> None:
    a, b = await api.player("Anne"), await api.player("Bert")
    t = await api.table(a, game="toy", players=4)
    tid = t["id"]
    await api.post(f"/api/tables/{tid}/join", b)
    r = await api.post(f"/api/tables/{tid}/start", b)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    r = await api.post(f"/api/tables/{tid}/start", a)
    assert (
        r.status_code == 409 and r.json()["code"] == "seats_empty" and "2, 3" in r.json()["detail"]
    )
    r = await api.post(f"/api/tables/{tid}/leave", b)
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "empty"
    r = await api.post(f"/api/tables/{tid}/leave", b)
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    r = await api.post(f"/api/tables/{tid}/start", a, json={"fill_with_bots": True})
    assert r.status_code == 200, r.text
    assert [s["kind"] for s in r.json()["seats"]] == ["player", "bot", "bot", "bot"]
    assert r.json()["status"] == "playing"
    r = await api.post(f"/api/tables/{tid}/start", a, json={"fill_with_bots": True})
    assert r.status_code == 409 and r.json()["code"] == "already_started"


async def test_leaving_during_a_game_hands_the_seat_to_a_bot_that_plays_on(api: Api) -> None:
    a, b = await api.player("Anne"), await api.player("Bert")
    t = await api.table(a, game="toy", players=2)
    await api.post(f"/api/tables/{t['id']}/join", b)
    r = await api.post(f"/api/tables/{t['id']}/leave", a)  # seat 0, the first to play
    seat = r.json()["seats"][0]
    assert seat["kind"] == "player" and seat["name"] == "Anne" and seat["away"]["why"] == "left"
    manager = api.app.state.manager
    live = manager.cached(t["id"])
    for _ in range(1000):  # the bot moves after its delay (0 here), when the loop lets it
        if live.rec.status == "finished" or live.to_act() == (1,):
            break
        await _tick()
    assert live.to_act() == (1,) and live.seq == 1
    log = await api.app.state.store.actions(t["id"], 1)
    assert [(a.seat, a.source) for a in log] == [(0, "bot")]


async def _tick() -> None:
    import asyncio

    await asyncio.sleep(0.01)


async def test_unknown_table_is_404_everywhere(api: Api) -> None:
    p = await api.player("Anne")
    for path in ("join", "leave", "start", "rematch"):
        r = await api.post(f"/api/tables/4242/{path}", p)
        assert r.status_code == 404 and r.json()["code"] == "unknown_table"
    assert (await api.c.get("/api/tables/4242/results")).status_code == 404


async def test_docs_and_openapi_are_served(lite: Api) -> None:
    api = lite
    assert (await api.c.get("/docs")).status_code == 200
    paths = (await api.c.get("/openapi.json")).json()["paths"]
    assert "/api/tables/{table_id}/rematch" in paths and "/api/leaderboard" in paths


async def test_the_browser_client_is_served_at_the_root(lite: Api) -> None:
    r = await lite.c.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "<html" in r.text.lower() or "<!doctype html" in r.text.lower()


async def test_a_table_of_robots_alone_is_refused_at_creation_and_at_start(api: Api) -> None:
    a = await api.player("Anne")
    r = await api.post("/api/tables", a, json={"game": "toy", "players": 2, "bots": [0, 1]})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["body", "bots"] and "au moins une personne" in detail["msg"]
    assert (await api.c.get("/api/tables")).json() == []
    # the creator leaves a waiting table, then asks robots to fill every seat
    t = await api.table(a, game="toy", players=2)
    assert (await api.post(f"/api/tables/{t['id']}/leave", a)).status_code == 200
    r = await api.post(f"/api/tables/{t['id']}/start", a, json={"fill_with_bots": True})
    assert r.status_code == 409 and r.json()["code"] == "seats_empty"
    assert "au moins une personne" in r.json()["detail"]
    shown = (await api.c.get(f"/api/tables/{t['id']}")).json()
    assert shown["status"] == "waiting" and [s["kind"] for s in shown["seats"]] == ["empty"] * 2


async def test_a_game_every_person_left_ends_instead_of_robots_playing_on(api: Api) -> None:
    a, b = await api.player("Anne"), await api.player("Bert")
    t = await api.table(a, game="toy", players=3, bots=[2])
    await api.post(f"/api/tables/{t['id']}/join", b)
    # each leaves twice: first a robot plays for them while they may come back (the game goes
    # on), then for good
    for p in (a, b):
        r = await api.post(f"/api/tables/{t['id']}/leave", p)
        assert r.json()["status"] == "playing"  # they may come back: the robots play for them
    r = await api.post(f"/api/tables/{t['id']}/leave", a)
    assert r.json()["status"] == "playing"  # Bert may still come back
    r = await api.post(f"/api/tables/{t['id']}/leave", b)
    assert r.status_code == 200, r.text
    ended = r.json()
    assert ended["status"] == "finished" and [s["kind"] for s in ended["seats"]] == ["bot"] * 3
    outcome = (await api.app.state.manager.get(t["id"])).rec.outcome
    assert outcome["closed"] and outcome["by"] == "server" and outcome["winners"] == []
    await asyncio.sleep(0.3)  # robots would have played by now (no bot delay in these tests)
    assert (await api.c.get(f"/api/tables/{t['id']}")).json() == ended
