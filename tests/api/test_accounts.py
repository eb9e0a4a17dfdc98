"""Accounts (issue 18): a guest claims its name with a password and keeps its id and games; logs
in from another browser; logs out, everywhere (the other sessions' sockets close at once);
changes its password; login attempts are limited; look-alike and reserved names are refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.serverkit import Database, Player, Server

PASSWORD = "correct horse battery"


def claim(srv: Server, p: Player, password: str = PASSWORD, **body: Any) -> Player:
    r = srv.post("/api/accounts/claim", p, json={"password": password, **body})
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["player"]["id"] == p.id
    return Player(p.id, p.name, out["token"])


def login(srv: Server, name: str, password: str = PASSWORD) -> Any:
    return srv.client.post("/api/accounts/login", json={"name": name, "password": password})


def logged_in(srv: Server, name: str, password: str = PASSWORD) -> Player:
    r = login(srv, name, password)
    assert r.status_code == 200, r.text
    body = r.json()
    return Player(body["player"]["id"], body["player"]["name"], body["token"])


@pytest.mark.usefixtures("toy_game")
def test_a_claimed_guest_logs_in_from_another_browser_as_the_same_player(
    sqlite_db: Database,
) -> None:
    with Server(sqlite_db) as srv:
        guest = srv.player("Amélie")
        table = srv.create_table(guest, game="toy", players=2)
        account = claim(srv, guest, email="amelie@example.org")
        # the guest token is retired; the session token is the same player, with its tables
        assert srv.client.get("/api/me", headers=srv.headers(guest)).status_code == 401
        me = srv.client.get("/api/me", headers=srv.headers(account)).json()
        assert me["id"] == guest.id and table["id"] in me["tables"]
        # another browser: name (in another case) and password
        other = logged_in(srv, "AMÉLIE")
        assert other.id == guest.id and other.token != account.token
        me2 = srv.client.get("/api/accounts/me", headers=srv.headers(other)).json()
        assert me2["claimed"] is True and me2["email"] == "amelie@example.org"
        assert len(me2["sessions"]) == 2
        # both sessions work, on REST and the WebSocket
        with srv.ws(other), srv.ws(account):
            pass
        # a new login rotates: a third token, the earlier ones still valid until logout
        third = logged_in(srv, "Amélie")
        assert third.token not in (account.token, other.token)


def test_wrong_passwords_are_refused_alike_and_then_limited_with_429(sqlite_db: Database) -> None:
    with Server(sqlite_db, rate_limit_login_name="3/hour") as srv:
        claim(srv, srv.player("Bruno"))
        srv.player("Guest")
        for name in ("Bruno", "Guest", "Nobody"):
            r = login(srv, name, "wrong password")
            assert r.status_code == 401 and r.json()["detail"] == "Nom ou mot de passe incorrect."
        for _ in range(2):
            assert login(srv, "bruno", "wrong password").status_code == 401
        r = login(srv, "BRUNO", PASSWORD)  # the fourth attempt at this name, right or not
        assert r.status_code == 429, r.text
        assert int(r.headers["Retry-After"]) > 0
        assert r.json()["code"] == "rate_limited"
        assert "Trop de tentatives de connexion pour ce nom" in r.json()["detail"]
        assert "réessayez dans" in r.json()["detail"]
        # another name is not concerned
        assert login(srv, "Guest", PASSWORD).status_code == 401


def test_login_attempts_are_limited_per_address(sqlite_db: Database) -> None:
    with Server(sqlite_db, rate_limit_login_address="2/hour") as srv:
        assert login(srv, "a1", "x" * 8).status_code == 401
        assert login(srv, "a2", "x" * 8).status_code == 401
        r = login(srv, "a3", "x" * 8)
        assert r.status_code == 429 and "depuis votre adresse" in r.json()["detail"]


def test_logout_everywhere_closes_the_other_sessions_socket_at_once(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        first = claim(srv, srv.player("Chloé"))
        second = logged_in(srv, "Chloé")
        with srv.ws(first) as ws:
            r = srv.post("/api/accounts/logout-everywhere", second)
            assert r.status_code == 200, r.text
            assert r.json() == {"sessions_closed": 2, "sockets_closed": 1}
            err = ws.until(lambda f: f["type"] == "error")
            assert err["code"] == "unauthorized"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.until(lambda f: False)
            assert closed.value.code == 4401
        for token in (first, second):
            assert srv.client.get("/api/me", headers=srv.headers(token)).status_code == 401
        # a new socket with an old token: refused at hello
        with srv.client.websocket_connect("/ws") as s:
            s.send_text(json.dumps({"type": "hello", "token": first.token}))
            assert json.loads(s.receive_text())["code"] == "unauthorized"
        # the password still opens a new session
        assert logged_in(srv, "Chloé").id == first.id


def test_logout_ends_this_session_only(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        guest = srv.player("Denis")
        r = srv.post("/api/accounts/logout", guest)
        assert r.status_code == 409  # a guest would lose its name
        first = claim(srv, guest)
        second = logged_in(srv, "Denis")
        assert srv.post("/api/accounts/logout", first).status_code == 200
        assert srv.client.get("/api/me", headers=srv.headers(first)).status_code == 401
        assert srv.client.get("/api/me", headers=srv.headers(second)).status_code == 200


def test_changing_the_password_needs_the_old_one_and_ends_the_other_sessions(
    sqlite_db: Database,
) -> None:
    with Server(sqlite_db) as srv:
        first = claim(srv, srv.player("Elise"))
        second = logged_in(srv, "Elise")
        change = {"old_password": "not it at all", "new_password": "a new password"}
        r = srv.post("/api/accounts/password", first, json=change)
        assert r.status_code == 403 and "incorrect" in r.json()["detail"]
        assert login(srv, "Elise").status_code == 200  # nothing changed
        r = srv.post("/api/accounts/password", first, json={**change, "old_password": PASSWORD})
        assert r.status_code == 200 and r.json()["other_sessions_closed"] == 2
        assert srv.client.get("/api/me", headers=srv.headers(first)).status_code == 200
        assert srv.client.get("/api/me", headers=srv.headers(second)).status_code == 401
        assert login(srv, "Elise").status_code == 401
        assert login(srv, "Elise", "a new password").status_code == 200


def test_a_claim_is_checked_and_done_once(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        guest = srv.player("Fanny")
        r = srv.post("/api/accounts/claim", guest, json={"password": "short"})
        assert r.status_code == 422
        r = srv.post("/api/accounts/claim", guest, json={"password": PASSWORD, "email": "nope"})
        assert r.status_code == 422
        assert srv.client.get("/api/me", headers=srv.headers(guest)).status_code == 200
        account = claim(srv, guest)
        r = srv.post("/api/accounts/claim", account, json={"password": PASSWORD})
        assert r.status_code == 409
        assert srv.post("/api/accounts/claim", None, json={"password": PASSWORD}).status_code == 401


@pytest.mark.parametrize("name", ["admin", "ADMIN", "Ａｄｍｉｎ", "Tablée", "robot", "TABLEE"])
def test_reserved_names_are_refused(sqlite_db: Database, name: str) -> None:
    with Server(sqlite_db) as srv:
        r = srv.client.post("/api/players", json={"name": name})
        assert r.status_code == 409, r.text
        assert r.json()["code"] == "name_taken" and "réservé" in r.json()["detail"]


def test_a_claimed_name_is_not_taken_again_in_another_case_or_look_alikes(
    sqlite_db: Database,
) -> None:
    with Server(sqlite_db) as srv:
        claim(srv, srv.player("Gaëlle"))
        for name in ("gaëlle", "GAËLLE", "Ｇａëｌｌｅ", "Gae\u0308lle"):
            r = srv.client.post("/api/players", json={"name": name})
            assert r.status_code == 409 and r.json()["code"] == "name_taken", name


def test_accounts_on_postgres(database: Database) -> None:
    with Server(database) as srv:
        account = claim(srv, srv.player("Hélène"))
        other = logged_in(srv, "hélène")
        assert other.id == account.id
        assert srv.post("/api/accounts/logout-everywhere", other).json()["sessions_closed"] == 2


ADMIN = "accounts-admin-token-0123456789"
AUTH = {"Authorization": f"Bearer {ADMIN}"}


def test_admins_see_accounts_and_sessions_revoke_them_reset_and_rename_audited(
    sqlite_db: Database,
) -> None:
    with Server(sqlite_db, admin_token=ADMIN) as srv:
        adm = srv.client
        first = claim(srv, srv.player("Ingrid"), email="ingrid@example.org")
        second = logged_in(srv, "Ingrid")
        srv.player("Guest")
        # search: accounts or guests
        accounts = adm.get("/api/admin/players", params={"claimed": True}, headers=AUTH).json()
        assert [p["name"] for p in accounts["items"]] == ["Ingrid"]
        assert accounts["items"][0]["claimed"] is True
        guests = adm.get("/api/admin/players", params={"claimed": False}, headers=AUTH).json()
        assert [p["name"] for p in guests["items"]] == ["Guest"]
        # the account and its sessions
        seen = adm.get(f"/api/admin/players/{first.id}/account", headers=AUTH).json()
        assert seen["claimed"] is True and seen["email"] == "ingrid@example.org"
        assert len(seen["sessions"]) == 2
        newest = seen["sessions"][0]["id"]
        # one session revoked: that token stops working, the other goes on
        r = adm.post(
            f"/api/admin/players/{first.id}/sessions/revoke",
            json={"session_id": newest},
            headers=AUTH,
        )
        assert r.status_code == 200 and r.json()["sessions_closed"] == 1
        assert srv.client.get("/api/me", headers=srv.headers(second)).status_code == 401
        assert srv.client.get("/api/me", headers=srv.headers(first)).status_code == 200
        r = adm.post(
            f"/api/admin/players/{first.id}/sessions/revoke",
            json={"session_id": newest},
            headers=AUTH,
        )
        assert r.status_code == 404
        # every session revoked: the open socket closes too
        with srv.ws(first) as ws:
            r = adm.post(f"/api/admin/players/{first.id}/sessions/revoke", headers=AUTH)
            assert r.json() == {"sessions_closed": 1, "sockets_closed": 1}
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.until(lambda f: False)
            assert closed.value.code == 4401
        # a password reset: the old one no longer opens a session, the new one does
        r = adm.post(
            f"/api/admin/players/{first.id}/password",
            json={"password": "reset by admin"},
            headers=AUTH,
        )
        assert r.status_code == 200
        assert login(srv, "Ingrid").status_code == 401
        assert login(srv, "Ingrid", "reset by admin").status_code == 200
        guest_id = guests["items"][0]["id"]
        r = adm.post(
            f"/api/admin/players/{guest_id}/password", json={"password": "x" * 10}, headers=AUTH
        )
        assert r.status_code == 409
        # a rename: the account logs in under its new name
        r = adm.post(f"/api/admin/players/{first.id}/rename", json={"name": "Inès"}, headers=AUTH)
        assert r.status_code == 200
        assert logged_in(srv, "inès", "reset by admin").id == first.id
        log = adm.get("/api/admin/audit", headers=AUTH).json()["items"]
        actions = [e["action"] for e in log]
        assert actions[:4] == [
            "player.rename",
            "player.password_reset",
            "player.sessions_revoke",
            "player.sessions_revoke",
        ]
        assert all("reset by admin" not in str(e["details"]) for e in log)
