"""The admin API (docs/admin.md): the token guard, tables, players, stats, audit log, exports."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tablee.cli import main as tablee_main
from tablee.games import get_game, replay
from tests.serverkit import WS, Database, Player, Server, ToyGame

TOKEN = "admin-token-for-tests-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Admin:
    """A server with the admin API on, and calls to it."""

    def __init__(self, srv: Server) -> None:
        self.srv = srv

    def get(self, path: str, **kw: Any) -> Any:
        r = self.srv.client.get(f"/api/admin{path}", headers=AUTH, **kw)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, path: str, status: int = 200, **kw: Any) -> Any:
        r = self.srv.client.post(f"/api/admin{path}", headers=AUTH, **kw)
        assert r.status_code == status, r.text
        return r.json()

    def audit(self, **params: Any) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.get("/audit", params=params)["items"]
        return items


def admin_server(db: Database, **settings: Any) -> Server:
    return Server(db, admin_token=TOKEN, **settings)


@pytest.fixture
def adm(database: Database, toy_game: ToyGame) -> Iterator[Admin]:
    """The admin API on a server of each database (the toy game registered)."""
    with admin_server(database) as srv:
        yield Admin(srv)


@pytest.fixture
def sqlite_adm(sqlite_db: Database, toy_game: ToyGame) -> Iterator[Admin]:
    """The same on SQLite only."""
    with admin_server(sqlite_db) as srv:
        yield Admin(srv)


def playing_toy(srv: Server, a: Player, b: Player, **options: Any) -> dict[str, Any]:
    t = srv.create_table(a, game="toy", players=2, options=options)
    r = srv.post(f"/api/tables/{t['id']}/join", b)
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    out: dict[str, Any] = r.json()
    return out


def subscribe(table: int, *conns: WS) -> dict[str, Any]:
    """Each connection subscribes to ``table`` and takes the state it is sent (the last one's
    is returned)."""
    st: dict[str, Any] = {}
    for ws in conns:
        ws.request({"type": "subscribe", "table": table})
        st = ws.state(table)
    return st


def play_out(table: int, conns: dict[int, WS]) -> dict[str, Any]:
    """The seat the game waits on plays its first legal action, through its connection, until
    the game is over; the final state."""
    st = conns[0].sync(table)
    while not st["over"]:
        move(conns[st["to_act"][0]], table)
        st = conns[0].sync(table)
    return st


def move(ws: WS, table: int) -> dict[str, Any]:
    """This connection's seat plays its first legal action; the state after it."""
    st = ws.sync(table)
    assert st["legal"], st
    answer = ws.act(table, st["legal"][0])
    assert answer["type"] == "ack", answer
    return ws.sync(table)


def play_seat(ws: WS, table: int, seat: int, max_moves: int = 2000) -> dict[str, Any]:
    """``seat`` plays its first legal action whenever it is to act (other seats are bots) until
    the game is over. Returns the final state."""
    st = ws.sync(table)
    for _ in range(max_moves):
        if st["over"]:
            return st
        if seat in st["to_act"] and st["legal"]:
            answer = ws.act(table, st["legal"][0])
            assert answer["type"] == "ack", answer
            st = ws.sync(table)
        else:
            st = ws.state(table)
    raise AssertionError("the game did not end")


# -- the guard ------------------------------------------------------------------------------------


def test_admin_api_without_a_configured_token_answers_503_saying_how_to_enable_it(
    sqlite_db: Database,
) -> None:
    with Server(sqlite_db) as srv:
        for path in ("/api/admin/tables", "/api/admin/audit", "/api/admin/stats"):
            r = srv.client.get(path, headers=AUTH)
            assert r.status_code == 503
            assert "TABLEE_ADMIN_TOKEN" in r.json()["detail"]
        r = srv.client.post("/api/admin/tables/1/close", headers=AUTH, json={})
        assert r.status_code == 503


def test_no_token_or_a_wrong_one_gets_401_and_no_data_on_every_admin_route(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    with admin_server(sqlite_db) as srv:
        alice, bob = srv.player("Alicesecret"), srv.player("Bobsecret")
        t = playing_toy(srv, alice, bob)
        routes = [
            (method.upper(), path)
            for path, item in srv.app.openapi()["paths"].items()
            if path.startswith("/api/admin")
            for method in item
        ]
        assert len(routes) >= 13
        seed = str(srv.manager.cached(t["id"]).rec.seed)
        wrong = [
            {},
            {"Authorization": "Bearer not-the-token"},
            {"Authorization": f"Bearer {TOKEN}x"},
            {"Authorization": f"Bearer {TOKEN[:-1]}"},
            {"Authorization": f"Basic {TOKEN}"},
            {"Authorization": TOKEN},
        ]
        for method, path in routes:
            url = path.format(table_id=t["id"], player_id=alice.id, seat=0, message_id=1)
            for headers in wrong:
                # a malformed body must not be looked at either
                r = srv.client.request(method, url, headers=headers, content=b"{not json")
                assert r.status_code == 401, (method, url, headers, r.text)
                assert r.headers["www-authenticate"] == "Bearer"
                assert set(r.json()) == {"detail"}
                for secret in ("Alicesecret", "Bobsecret", seed, "hand", "T0"):
                    assert secret not in r.text
        # nothing happened and nothing was written
        assert srv.manager.cached(t["id"]).rec.status == "playing"
        assert Admin(srv).audit() == []


# -- tables ---------------------------------------------------------------------------------------


def test_list_tables_shows_private_ones_and_filters_by_status_game_player_and_since(
    adm: Admin,
) -> None:
    srv = adm.srv
    alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
    public = srv.create_table(alice, game="toy", players=2)
    private = srv.create_table(bob, game="toy", players=2, private=True)
    belote = srv.create_table(carol, game="belote", players=4, bots=[1, 2, 3])
    lobby = srv.client.get("/api/tables").json()
    assert private["id"] not in {x["id"] for x in lobby}

    every = adm.get("/tables")
    assert every["total"] == 3
    assert [x["id"] for x in every["items"]] == [belote["id"], private["id"], public["id"]]
    assert every["items"][1]["private"] is True and "seed" in every["items"][1]

    assert [x["id"] for x in adm.get("/tables", params={"game": "belote"})["items"]] == [
        belote["id"]
    ]
    waiting = adm.get("/tables", params={"status": "waiting"})["items"]
    assert {x["id"] for x in waiting} == {public["id"], private["id"]}
    assert adm.get("/tables", params={"status": "playing"})["items"][0]["id"] == belote["id"]
    mine = adm.get("/tables", params={"player": bob.id})["items"]
    assert [x["id"] for x in mine] == [private["id"]]
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert adm.get("/tables", params={"since": future})["total"] == 0
    past = (datetime.now(UTC) - timedelta(hours=1)).replace(tzinfo=None).isoformat()
    assert adm.get("/tables", params={"since": past})["total"] == 3
    page = adm.get("/tables", params={"limit": 1, "offset": 1})
    assert page["total"] == 3 and [x["id"] for x in page["items"]] == [private["id"]]
    r = srv.client.get("/api/admin/tables", headers=AUTH, params={"status": "lost"})
    assert r.status_code == 422


def test_showing_a_table_in_full_gives_every_hand_and_the_seed_and_is_audited(
    sqlite_adm: Admin, toy_game: ToyGame
) -> None:
    adm, srv = sqlite_adm, sqlite_adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = playing_toy(srv, alice, bob)
    live = srv.manager.cached(t["id"])
    full = adm.get(f"/tables/{t['id']}")
    assert full["seed"] == live.rec.seed
    assert full["hands"] == [list(h) for h in live.state.hands]
    assert full["state"] == toy_game.to_json(live.state)
    assert full["to_act"] == [0] and full["legal"]["0"]
    assert full["table"]["seats"][1]["name"] == "Bob"
    assert full["home"] is None  # a process alone is every table's home
    (row,) = adm.audit()
    assert row["actor"] == "admin" and row["action"] == "table.inspect"
    assert (row["target_type"], row["target_id"]) == ("table", t["id"])
    assert row["ip"] and datetime.fromisoformat(row["at"]) <= datetime.now(UTC)
    r = srv.client.get("/api/admin/tables/999", headers=AUTH)
    assert r.status_code == 404 and r.json()["code"] == "unknown_table"


def test_closing_a_table_tells_the_seated_players_why_and_it_refuses_every_action(
    database: Database, toy_game: ToyGame
) -> None:
    with admin_server(database) as srv:
        adm = Admin(srv)
        alice, bob = srv.player("Alice"), srv.player("Bob")
        t = playing_toy(srv, alice, bob, deals=2)
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            subscribe(t["id"], wa, wb)
            move(wa, t["id"])
            info = adm.post(f"/tables/{t['id']}/close", json={"reason": "cheating suspected"})
            assert info["status"] == "finished" and info["closed"] == "cheating suspected"
            for ws in (wa, wb):
                st = ws.until(lambda f: f["type"] == "state" and f["over"])
                assert st["outcome"]["closed"] is True
                assert st["outcome"]["winners"] == []
                assert st["outcome"]["reason"] == "cheating suspected"
                assert {"type": "table_closed", "seat": None, "reason": "cheating suspected",
                        "by": "admin"} in st["events"]  # fmt: skip
                assert st["legal"] == [] and st["to_act"] == [] and st["deadline"] is None
            answer = wb.act(t["id"], {"type": "play", "card": "T01"})
            assert answer["type"] == "error" and answer["code"] == "table_over"
            assert "cheating suspected" in answer["message"]
        r = srv.post(f"/api/tables/{t['id']}/rematch", alice)
        assert r.status_code == 409 and r.json()["code"] == "table_over"
        r = srv.client.post(f"/api/admin/tables/{t['id']}/close", headers=AUTH, json={})
        assert r.status_code == 409
        # nothing counts it as a finished game: no result, no leaderboard entry
        assert srv.client.get(f"/api/tables/{t['id']}/results").json()["games"] == []
        assert srv.client.get("/api/leaderboard").json() == []
        (row,) = adm.audit(action="table.close")
        assert row["details"] == {"reason": "cheating suspected", "status": "playing"}

        # a waiting table is cancelled the same way; nobody may join it afterwards
        w = srv.create_table(alice, game="toy", players=2)
        assert adm.post(f"/tables/{w['id']}/close")["closed"] == "closed by an admin"
        r = srv.post(f"/api/tables/{w['id']}/join", bob)
        assert r.status_code == 409 and r.json()["code"] == "table_over"

    # closed stays closed after a restart
    with admin_server(database) as srv:
        assert srv.manager.cached(t["id"]) is None  # not restored: it is over
        info = srv.client.get(f"/api/tables/{t['id']}").json()
        assert info["status"] == "finished"
        r = srv.post(f"/api/tables/{t['id']}/rematch", alice)
        assert r.status_code == 409 and "cheating suspected" in r.json()["detail"]


def _replay_output(tmp_path: Any, data: dict[str, Any], capsys: Any) -> tuple[int, list[str]]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    capsys.readouterr()
    rc = tablee_main(["replay", str(path)])
    return rc, capsys.readouterr().out.splitlines()


def test_kicking_a_seat_mid_game_hands_it_to_a_bot_that_plays_legally_to_the_end(
    sqlite_adm: Admin, tmp_path: Any, capsys: Any
) -> None:
    adm, srv = sqlite_adm, sqlite_adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.stacked_table(alice, "contrecarte", 2, seed=3)
    srv.post(f"/api/tables/{t['id']}/join", bob)
    with srv.ws(alice) as wa, srv.ws(bob) as wb:
        for ws in (wa, wb):
            ws.request({"type": "subscribe", "table": t["id"]})
        while move(wa, t["id"])["to_act"] != [1]:
            pass
        # the game waits on bob: kick him
        info = adm.post(f"/tables/{t['id']}/seats/1/kick", json={"reason": "abuse"})
        assert info["seats"][1]["kind"] == "bot" and info["seats"][1]["player_id"] is None
        left = wb.until(
            lambda f: f["type"] == "state" and any(e["type"] == "player_left" for e in f["events"])
        )
        assert {
            "type": "player_left",
            "seat": 1,
            "name": "Bob",
            "replaced_by": "bot",
            "kicked": True,
            "reason": "abuse",
        } in left["events"]
        answer = wb.act(t["id"], {"type": "draw"})
        assert answer["type"] == "error" and answer["code"] == "not_seated"
        final = play_seat(wa, t["id"], 0)
    assert final["over"] and final["outcome"]["winners"]
    rec = srv.call(srv.app.state.store.table, t["id"])
    log = srv.call(srv.app.state.store.actions, t["id"], 1)
    bob_moves = [a for a in log if a.seat == 1]
    assert len(bob_moves) >= 2 and {a.source for a in bob_moves} == {"bot"}
    # every logged move replays: the bot only played legal moves
    game = get_game("contrecarte")
    state = replay(game, 2, rec.options, rec.seed, [(a.seat, a.action) for a in log])
    assert game.is_over(state) and game.outcome(state) == final["outcome"]
    (row,) = adm.audit(action="table.kick")
    assert row["details"]["seat"] == 1 and row["details"]["player_id"] == bob.id
    assert row["details"]["replaced_by"] == "bot" and row["details"]["reason"] == "abuse"
    # the real game's export replays to the same end
    rc, out = _replay_output(tmp_path, adm.get(f"/tables/{t['id']}/export"), capsys)
    assert rc == 0 and "# over: True" in "\n".join(out)
    assert json.loads([x for x in out if x.startswith("{")][-1]) == game.to_json(state)


def test_kicking_a_seat_of_a_waiting_table_frees_it(sqlite_adm: Admin) -> None:
    adm, srv = sqlite_adm, sqlite_adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=3)
    srv.post(f"/api/tables/{t['id']}/join", bob)
    info = adm.post(f"/tables/{t['id']}/seats/1/kick")
    assert info["seats"][1]["kind"] == "empty" and info["free_seats"] == [1, 2]
    assert adm.post(f"/tables/{t['id']}/seats/1/kick", status=409)["code"] == "not_a_player"
    assert adm.post(f"/tables/{t['id']}/seats/7/kick", status=422)["code"] == "bad_request"


def test_changing_the_turn_timer_rearms_the_deadline(sqlite_adm: Admin) -> None:
    adm, srv = sqlite_adm, sqlite_adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = playing_toy(srv, alice, bob)
    with srv.ws(alice) as wa:
        assert subscribe(t["id"], wa)["deadline"] is None
        before = datetime.now(UTC)
        info = adm.post(f"/tables/{t['id']}/timer", json={"turn_seconds": 3600})
        assert info["turn_seconds"] == 3600
        st = wa.state(t["id"])
        deadline = datetime.fromisoformat(st["deadline"])
        assert before + timedelta(seconds=3590) < deadline
        assert any(e["type"] == "timer_changed" for e in st["events"])
        # a short timer: the table plays for the seat whose time ran out
        adm.post(f"/tables/{t['id']}/timer", json={"turn_seconds": 0.05})
        wa.until(lambda f: f["type"] == "state" and f["to_act"] == [1])
        log = srv.call(srv.app.state.store.actions, t["id"], 1)
        assert log[0].seat == 0 and log[0].source == "timer"
        info = adm.post(f"/tables/{t['id']}/timer", json={"turn_seconds": None})
        assert info["turn_seconds"] is None and info["deadline"] is None
    r = srv.client.post(
        f"/api/admin/tables/{t['id']}/timer", headers=AUTH, json={"turn_seconds": -1}
    )
    assert r.status_code == 422
    rows = adm.audit(action="table.timer")
    assert [r["details"] for r in rows] == [
        {"before": 0.05, "after": None},
        {"before": 3600, "after": 0.05},
        {"before": None, "after": 3600},
    ]
    assert srv.call(srv.app.state.store.table, t["id"]).turn_seconds is None


def test_an_exported_table_replays_every_game_to_the_same_final_state(
    adm: Admin, toy_game: ToyGame, tmp_path: Any, capsys: Any
) -> None:
    srv = adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = playing_toy(srv, alice, bob, deals=2)
    with srv.ws(alice) as wa, srv.ws(bob) as wb:
        conns = {0: wa, 1: wb}
        play_out(t["id"], conns)
        first_seed = srv.manager.cached(t["id"]).rec.seed
        srv.post(f"/api/tables/{t['id']}/rematch", alice)
        srv.post(f"/api/tables/{t['id']}/rematch", bob)
        st = wa.sync(t["id"])
        assert st["info"]["game_no"] == 2 and not st["over"]
        move(conns[st["to_act"][0]], t["id"])
    live = srv.manager.cached(t["id"])
    r = srv.client.get(f"/api/admin/tables/{t['id']}/export", headers=AUTH)
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["format"] == "tablee-export" and data["game"] == "toy"
    assert [g["game_no"] for g in data["games"]] == [1, 2]
    one, two = data["games"]
    assert one["seed"] == first_seed and two["seed"] == live.rec.seed != first_seed
    # the rematch is dealt by the seat after the first game's dealer (seat 1)
    assert one["options"]["first_dealer"] is None and two["options"]["first_dealer"] == 0
    assert one["status"] == "finished" and one["outcome"]["winners"]
    assert len(one["actions"]) == 2 * 3 * 2 and len(two["actions"]) == 1
    assert {a["source"] for a in one["actions"]} == {"player"}
    assert adm.audit(action="table.export")[0]["details"] == {"games": 2}

    rc, out = _replay_output(tmp_path, data, capsys)
    assert rc == 0
    states = [json.loads(line) for line in out if line.startswith("{")]
    assert len(states) == (1 + 12) + (1 + 1)  # every state, the dealt one included
    assert states[-1] == toy_game.to_json(live.state)
    assert sum("matches the table's" in line for line in out) == 2

    # a log that does not end where the table did is reported
    two["final_state_sha256"] = "0" * 64
    rc, _ = _replay_output(tmp_path, data, capsys)
    assert rc == 1


# -- players --------------------------------------------------------------------------------------


def test_players_are_listed_and_searched_by_name_or_id(adm: Admin) -> None:
    srv = adm.srv
    amelie, amandine, bob = srv.player("Amélie"), srv.player("amandine"), srv.player("Bob_1")
    srv.create_table(bob, game="toy", players=2)
    every = adm.get("/players")
    assert every["total"] == 3
    assert [p["name"] for p in every["items"]] == ["Bob_1", "amandine", "Amélie"]
    assert every["items"][0]["seats"] == 1 and every["items"][0]["banned"] is False
    found = adm.get("/players", params={"q": "AM"})["items"]
    assert {p["id"] for p in found} == {amelie.id, amandine.id}
    # the pattern's own wildcards are taken literally
    assert [p["id"] for p in adm.get("/players", params={"q": "_"})["items"]] == [bob.id]
    assert [p["id"] for p in adm.get("/players", params={"q": str(bob.id)})["items"]] == [bob.id]
    adm.post(f"/players/{bob.id}/ban")
    assert [p["id"] for p in adm.get("/players", params={"banned": True})["items"]] == [bob.id]
    assert adm.get("/players", params={"banned": False})["total"] == 2
    one = adm.get(f"/players/{bob.id}")
    assert one["banned"] is True and one["tables"] == []  # the ban freed his seat
    r = srv.client.get("/api/admin/players/999", headers=AUTH)
    assert r.status_code == 404


def test_a_ban_takes_effect_on_a_live_websocket_and_everywhere_and_seats_go_to_bots(
    adm: Admin,
) -> None:
    srv = adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = playing_toy(srv, alice, bob, deals=2)
    waiting = srv.create_table(alice, game="toy", players=2)
    shut = srv.create_table(alice, game="toy", players=2)
    adm.post(f"/tables/{shut['id']}/close")
    with srv.ws(alice) as wa, srv.ws(bob) as wb:
        subscribe(t["id"], wa, wb)
        out = adm.post(f"/players/{alice.id}/ban", json={"reason": "insults"})
        assert out["banned"] is True and out["sockets_closed"] == 1
        # a bot plays on; the waiting table's seat is free; the closed table keeps its history
        assert {(s["table"], s["replaced_by"]) for s in out["seats_freed"]} == {
            (t["id"], "bot"),
            (waiting["id"], "empty"),
        }
        # alice's open socket: told why, then closed
        err = wa.until(lambda f: f["type"] == "error")
        assert err["code"] == "banned" and "banned" in err["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            wa.until(lambda f: False)
        assert closed.value.code == 4403
        # bob sees a bot take alice's seat, and the bot plays on to the end
        st = wb.until(lambda f: f["type"] == "state" and f["info"]["seats"][0]["kind"] == "bot")
        assert any(e["type"] == "player_left" and e["seat"] == 0 for e in st["events"])
        final = play_seat(wb, t["id"], 1)
        assert final["over"]
    # REST: 403 with a clear message
    r = srv.client.get("/api/me", headers=srv.headers(alice))
    assert r.status_code == 403 and "banned" in r.json()["detail"]
    r = srv.post("/api/tables", alice, json={"game": "toy", "players": 2})
    assert r.status_code == 403
    r = srv.post(f"/api/tables/{waiting['id']}/join", alice)
    assert r.status_code == 403
    # a new WebSocket: hello is refused, the connection closed
    with srv.client.websocket_connect("/ws") as s:
        s.send_text(json.dumps({"type": "hello", "token": alice.token}))
        err = json.loads(s.receive_text())
        assert err["type"] == "error" and err["code"] == "banned"
        with pytest.raises(WebSocketDisconnect) as closed:
            s.receive_text()
        assert closed.value.code == 4403
    adm.post(f"/players/{alice.id}/unban")
    assert srv.client.get("/api/me", headers=srv.headers(alice)).status_code == 200
    info = srv.client.get(f"/api/tables/{shut['id']}").json()
    assert info["seats"][0]["player_id"] == alice.id
    rows = adm.audit(target_type="player", target_id=alice.id)
    assert [r["action"] for r in rows] == ["player.unban", "player.ban"]
    assert rows[1]["details"]["reason"] == "insults"
    assert rows[1]["details"]["sockets_closed"] == 1


def test_renaming_a_player_shows_at_their_tables_at_once(sqlite_adm: Admin) -> None:
    adm, srv = sqlite_adm, sqlite_adm.srv
    alice, bob = srv.player("Alice"), srv.player("Rude Name")
    t = playing_toy(srv, alice, bob)
    with srv.ws(alice) as wa:
        subscribe(t["id"], wa)
        out = adm.post(f"/players/{bob.id}/rename", json={"name": "  Robert  "})
        assert out["name"] == "Robert"
        st = wa.state(t["id"])
        assert st["info"]["seats"][1]["name"] == "Robert"
        assert {"type": "player_renamed", "seat": 1, "name": "Robert"} in st["events"]
    assert srv.client.get("/api/me", headers=srv.headers(bob)).json()["name"] == "Robert"
    r = srv.client.post(
        f"/api/admin/players/{bob.id}/rename", headers=AUTH, json={"name": "<script>"}
    )
    assert r.status_code == 422
    (row,) = adm.audit(action="player.rename")
    assert row["details"] == {"from": "Rude Name", "to": "Robert"}


# -- stats and audit ------------------------------------------------------------------------------


def test_a_process_alone_says_it_shares_the_database_with_none(adm: Admin) -> None:
    srv = adm.srv
    playing_toy(srv, srv.player("Alice"), srv.player("Bob"))
    # the one process is every table's home: no lease, no table without one
    assert adm.get("/processes") == {
        "multi_process": False,
        "this": None,
        "processes": [],
        "tables_without_home": 0,
    }


def test_stats_count_live_tables_sockets_moves_and_games_finished_today(adm: Admin) -> None:
    srv = adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    done = playing_toy(srv, alice, bob)
    playing_toy(srv, alice, bob)
    srv.create_table(alice, game="belote", players=4)
    with srv.ws(alice) as wa, srv.ws(bob) as wb:
        play_out(done["id"], {0: wa, 1: wb})
        stats = adm.get("/stats", params={"days": 3})
        assert stats["sockets"] == 2 and stats["players_connected"] == 2
    assert stats["live_tables"] == {"toy": 1}
    assert stats["waiting_tables"] == {"belote": 1}
    assert stats["tables"]["finished"] == {"toy": 1}
    assert stats["moves_last_minute"] == 6 and stats["moves_per_minute"] == 1.2
    days = stats["games_finished_per_day"]
    assert len(days) == 3
    assert days[-1] == {
        "day": datetime.now(UTC).strftime("%Y-%m-%d"),
        "total": 1,
        "games": {"toy": 1},
    }
    assert days[0]["total"] == 0
    assert stats["players"] == 2 and stats["banned_players"] == 0


def test_the_audit_log_lists_who_did_what_when_to_what_with_filters_and_pages(adm: Admin) -> None:
    srv = adm.srv
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = playing_toy(srv, alice, bob)
    start = datetime.now(UTC)
    adm.get(f"/tables/{t['id']}")
    adm.post(f"/tables/{t['id']}/timer", json={"turn_seconds": 60})
    adm.get(f"/tables/{t['id']}/export")
    adm.post(f"/players/{bob.id}/rename", json={"name": "Bobby"})
    adm.post(f"/tables/{t['id']}/close")
    adm.post(f"/players/{alice.id}/ban")
    adm.get("/tables")  # plain lists are not audited
    adm.get("/stats")
    every = adm.get("/audit")
    assert every["total"] == 6
    assert [r["action"] for r in every["items"]] == [
        "player.ban",
        "table.close",
        "player.rename",
        "table.export",
        "table.timer",
        "table.inspect",
    ]
    for row in every["items"]:
        assert row["actor"] == "admin"
        assert start - timedelta(seconds=1) <= datetime.fromisoformat(row["at"])
    assert adm.get("/audit", params={"action": "table.*"})["total"] == 4
    assert adm.get("/audit", params={"target_type": "player"})["total"] == 2
    assert adm.get("/audit", params={"target_id": t["id"], "target_type": "table"})["total"] == 4
    assert adm.get("/audit", params={"actor": "someone"})["total"] == 0
    page = adm.get("/audit", params={"limit": 2, "offset": 2})
    assert [r["action"] for r in page["items"]] == ["player.rename", "table.export"]
    later = (datetime.now(UTC) + timedelta(minutes=1)).isoformat()
    assert adm.get("/audit", params={"since": later})["total"] == 0
    assert adm.get("/audit", params={"until": later})["total"] == 6


def test_replay_reads_the_one_game_form_and_refuses_a_file_that_is_no_export(
    tmp_path: Any, capsys: Any
) -> None:
    game = get_game("contrecarte")
    state = game.new(players=2, options={}, seed=5)
    actions = []
    for _ in range(4):
        seat = game.to_act(state)[0]
        action = game.auto_action(state, seat)
        actions.append({"seat": seat, "action": action})
        state, _ = game.apply(state, seat, action)
    data = {"game": "contrecarte", "players": 2, "options": {}, "seed": 5, "actions": actions}
    rc, out = _replay_output(tmp_path, data, capsys)
    assert rc == 0
    assert json.loads([x for x in out if x.startswith("{")][-1]) == game.to_json(state)
    rc, _ = _replay_output(tmp_path, {**data, "format": "something-else"}, capsys)
    assert rc == 2
