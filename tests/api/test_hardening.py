"""A server open to the internet (issue 16): rate limits, body size, odd input, security headers,
a private /metrics. Each test plays what an attacker did, and what a normal player does."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tablee.api import create_app
from tablee.api.security import CSP, MAX_DEPTH, json_problem, printable
from tablee.settings import Settings
from tests.serverkit import Database, Server, Uvicorn, database_away

ADMIN = "hardening-admin-token-0123456789"
AUTH = {"Authorization": f"Bearer {ADMIN}"}
NO_LIMITS = {
    "rate_limit_address": "off",
    "rate_limit_player": "off",
    "rate_limit_new_players": "off",
    "rate_limit_new_tables": "off",
}


class Clock:
    """The limits' clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limited(db: Database, **settings: Any) -> tuple[Server, Clock]:
    srv = Server(db, **{**NO_LIMITS, "admin_token": ADMIN, **settings})
    clock = Clock()
    srv.app.state.rest_limits.clock = clock
    return srv, clock


@pytest.fixture
def srv(sqlite_db: Database) -> Iterator[Server]:
    with Server(sqlite_db, admin_token=ADMIN) as server:
        yield server


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def refused_429(r: Any, wait: int, says: str) -> None:
    assert r.status_code == 429, r.text
    assert r.headers["retry-after"] == str(wait)
    body = r.json()
    assert body["code"] == "rate_limited"
    assert says in body["detail"] and "réessayez dans" in body["detail"], body


# -- 1. rate limits ------------------------------------------------------------------------------


def test_requests_over_the_address_rate_get_429_with_retry_after(sqlite_db: Database) -> None:
    srv, clock = limited(sqlite_db, rate_limit_address="5/minute")
    with srv:
        assert [srv.client.get("/api/games").status_code for _ in range(5)] == [200] * 5
        r = srv.client.get("/api/games")
        refused_429(r, 12, "Trop de requêtes depuis votre adresse")  # 5/minute: one per 12 s
        assert "12 s" in r.json()["detail"]
        # pages and health are not the API: never limited here
        assert srv.client.get("/healthz").status_code == 200
        assert srv.client.get("/").status_code == 200
        clock.now += 12
        assert srv.client.get("/api/games").status_code == 200
        assert srv.client.get("/api/games").status_code == 429


def test_requests_over_the_player_rate_get_429_and_other_players_go_on(
    sqlite_db: Database,
) -> None:
    srv, clock = limited(sqlite_db, rate_limit_player="3/minute")
    with srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        for _ in range(3):
            assert srv.client.get("/api/me", headers=srv.headers(alice)).status_code == 200
        refused_429(srv.client.get("/api/me", headers=srv.headers(alice)), 20, "avec ce compte")
        # the same address, another player: not concerned
        assert srv.client.get("/api/me", headers=srv.headers(bob)).status_code == 200
        clock.now += 20
        assert srv.client.get("/api/me", headers=srv.headers(alice)).status_code == 200


def test_new_players_from_one_address_are_limited(sqlite_db: Database) -> None:
    """The finding: one client made 1,239 players in 20 s."""
    srv, clock = limited(sqlite_db, rate_limit_new_players="3/hour")
    with srv:
        made = [srv.client.post("/api/players", json={"name": f"Bot {i}"}) for i in range(20)]
        assert [r.status_code for r in made[:3]] == [201] * 3
        refused_429(made[3], 1200, "Trop de joueurs créés depuis votre adresse")
        assert "20 min" in made[3].json()["detail"]
        assert all(r.status_code == 429 for r in made[3:])
        players = srv.client.get("/api/admin/players", headers=AUTH).json()
        assert players["total"] == 3  # a refusal created nothing
        # the players already made play on
        token = made[0].json()["token"]
        assert srv.client.get("/api/me", headers=auth(token)).status_code == 200
        clock.now += 1200
        assert srv.client.post("/api/players", json={"name": "Later"}).status_code == 201


def test_new_tables_from_one_address_are_limited(sqlite_db: Database) -> None:
    """The finding: one client made 637 waiting tables in 20 s."""
    srv, _ = limited(sqlite_db, rate_limit_new_tables="4/hour")
    with srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        answers = [
            srv.post("/api/tables", p, json={"game": "belote", "players": 4})
            for p in (alice, bob, alice, bob, alice, bob)
        ]
        assert [r.status_code for r in answers] == [201] * 4 + [429] * 2
        refused_429(answers[4], 900, "Trop de tables créées depuis votre adresse")
        assert len(srv.client.get("/api/tables").json()) == 4
        # joining and the lobby are not creations
        table = answers[0].json()["id"]
        assert srv.post(f"/api/tables/{table}/join", bob).status_code == 200


def test_the_admin_token_is_never_rate_limited(sqlite_db: Database) -> None:
    srv, _ = limited(sqlite_db, rate_limit_address="2/minute", rate_limit_player="2/minute")
    with srv:
        for _ in range(10):
            assert srv.client.get("/api/admin/stats", headers=AUTH).status_code == 200
        # a wrong admin token is any client's request
        wrong = {"Authorization": "Bearer not-the-admin-token"}
        codes = [srv.client.get("/api/admin/stats", headers=wrong).status_code for _ in range(3)]
        assert codes == [401, 401, 429]


def test_rate_limit_refusals_are_counted_in_the_metrics(sqlite_db: Database) -> None:
    srv, _ = limited(sqlite_db, rate_limit_address="1/minute")
    with srv:
        srv.client.get("/api/games")
        for _ in range(3):
            assert srv.client.get("/api/games").status_code == 429
        m = srv.client.get("/metrics", headers=AUTH)
        samples = {
            (s.name, tuple(sorted(s.labels.items()))): s.value
            for f in text_string_to_metric_families(m.text)
            for s in f.samples
        }
        key = ("tablee_errors_total", (("channel", "rest"), ("code", "rate_limited")))
        assert samples[key] == 3


def test_the_default_limits_never_refuse_what_a_person_does(sqlite_db: Database) -> None:
    """An evening of play from one address with the default limits: the lobby polled every two
    seconds for an hour by four people at home, each making a few tables; nobody is refused."""
    settings = Settings()
    assert "off" not in {
        settings.rate_limit_address,
        settings.rate_limit_player,
        settings.rate_limit_new_players,
        settings.rate_limit_new_tables,
    }
    with Server(sqlite_db) as srv:
        clock = Clock()
        srv.app.state.rest_limits.clock = clock
        people = [srv.player(name) for name in ("Anne", "Bernard", "Céline", "David")]
        limits = srv.app.state.rest_limits
        for second in range(0, 3600, 2):
            clock.now = 1000.0 + second
            for p in people:
                token = p.token
                assert limits.check("GET", "/api/tables", "testclient", token) is None
                if second % 600 == 0:
                    assert limits.check("POST", "/api/tables", "testclient", token) is None


def test_the_api_documents_413_and_429(srv: Server) -> None:
    paths = srv.client.get("/openapi.json").json()["paths"]
    for path, ops in paths.items():
        if not path.startswith("/api/"):
            continue
        for method, op in ops.items():
            assert {"413", "429"} <= set(op["responses"]), (method, path)


# -- 6. request bodies over the limit -------------------------------------------------------------


def _scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


def _call(app: Any, scope: dict[str, Any], receive: Any) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def test_a_body_announced_over_the_limit_is_refused_before_a_byte_is_read(
    sqlite_db: Database,
) -> None:
    app = create_app(sqlite_db.settings(max_body_bytes=65536))

    async def receive() -> dict[str, Any]:
        raise AssertionError("the body was read")

    sent = _call(app, _scope("/api/players", [(b"content-length", b"50000000")]), receive)
    assert sent[0]["status"] == 413
    assert (b"connection", b"close") in sent[0]["headers"]
    body = json.loads(sent[1]["body"])
    assert body == {"detail": "Requête trop grande : 64 Kio au plus.", "code": "too_large"}


def test_a_chunked_body_is_cut_off_at_the_limit_and_never_held(sqlite_db: Database) -> None:
    """No Content-Length: the server reads while the bytes stay under the limit, then answers
    413; the 50 MB the client offers are never pulled, so never held."""
    app = create_app(sqlite_db.settings(max_body_bytes=65536))
    chunk = b"x" * 4096
    pulled = 0

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        assert pulled * len(chunk) < 50_000_000
        return {"type": "http.request", "body": chunk, "more_body": True}

    sent = _call(app, _scope("/api/players", [(b"transfer-encoding", b"chunked")]), receive)
    assert sent[0]["status"] == 413
    assert pulled == 65536 // 4096 + 1  # the chunk that crossed the limit, and no more


def test_a_body_within_the_limit_reaches_the_route(sqlite_db: Database) -> None:
    with Server(sqlite_db, max_body_bytes=2048) as srv:
        r = srv.client.post("/api/players", json={"name": "Amélie", "pad": "x" * 1500})
        assert r.status_code == 201
        r = srv.client.post("/api/players", json={"name": "Amélie", "pad": "x" * 3000})
        assert r.status_code == 413 and r.json()["code"] == "too_large"
        assert r.json()["detail"] == "Requête trop grande : 2 Kio au plus."


def _request_head(port: int, headers: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(
        f"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\n{headers}\r\n".encode()
    )
    return sock


def _read_all(sock: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            data = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            return out
        if not data:
            return out
        out += data


def test_a_real_server_refuses_a_huge_body_without_reading_it(sqlite_db: Database) -> None:
    """Through uvicorn: the finding's eight 50 MB POSTs. The announced one is answered before
    the client sends its body; the chunked one is answered, and the connection closed, long
    before the client is done."""
    with Uvicorn(sqlite_db) as server:
        with _request_head(server.port, "Content-Length: 50000000\r\n") as sock:
            answer = _read_all(sock)  # nothing of the body was sent
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"too_large" in answer

        with _request_head(server.port, "Transfer-Encoding: chunked\r\n") as sock:
            sock.settimeout(0.05)
            part = b"x" * 65536
            frame = f"{len(part):x}\r\n".encode() + part + b"\r\n"
            sent = 0
            answer = b""
            deadline = time.monotonic() + 20
            while sent < 50_000_000 and time.monotonic() < deadline:
                try:
                    sock.sendall(frame)
                    sent += len(part)
                except (BrokenPipeError, ConnectionResetError, TimeoutError):
                    break
                try:
                    answer += sock.recv(65536)
                except TimeoutError:
                    continue
                if answer:
                    break
            sock.settimeout(5)
            answer += _read_all(sock)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        # what the kernel's buffers took in before the answer: far from the 50 MB
        assert sent < 20_000_000, sent


# -- 8. odd input: clear 4xx, never 500, nothing changed ------------------------------------------


def _raw(srv: Server, path: str, text: str, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **(auth(token) if token else {})}
    return srv.client.post(path, content=text.encode(), headers=headers)


def test_a_lone_surrogate_in_a_name_is_a_422_naming_the_field(database: Database) -> None:
    with Server(database, admin_token=ADMIN) as srv:
        for text in ('{"name": "ab\\ud800"}', '{"name": "\\udfff\\ud800"}'):
            r = _raw(srv, "/api/players", text)
            assert r.status_code == 422, r.text
            [error] = r.json()["detail"]
            assert error["loc"] == ["body", "name"] and error["type"] == "invalid_text"
        assert srv.client.get("/api/admin/players", headers=AUTH).json()["total"] == 0
        # a real pair (an emoji) is text: refused by the name's own rule, not as invalid text
        r = _raw(srv, "/api/players", '{"name": "ab\\ud83d\\ude00"}')
        assert r.status_code == 422 and r.json()["detail"][0]["type"] != "invalid_text"


def test_a_lone_surrogate_in_an_option_key_is_a_422(database: Database) -> None:
    with Server(database, admin_token=ADMIN) as srv:
        alice = srv.player("Alice")
        for game in ("belote", "contrecarte"):
            r = _raw(
                srv,
                "/api/tables",
                f'{{"game": "{game}", "players": 4, "options": {{"\\ud800": 1}}}}',
                alice.token,
            )
            assert r.status_code == 422, r.text
            [error] = r.json()["detail"]
            assert error["loc"] == ["body", "options", "\ufffd"]
        assert srv.client.get("/api/admin/tables", headers=AUTH).json()["total"] == 0


def test_a_seat_out_of_any_range_is_a_422_and_the_table_is_unchanged(database: Database) -> None:
    with Server(database, admin_token=ADMIN) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        table = srv.create_table(alice, game="belote", players=4)
        for seat in ("1e400", "-1e400", "NaN", "Infinity"):
            r = _raw(srv, f"/api/tables/{table['id']}/join", f'{{"seat": {seat}}}', bob.token)
            assert r.status_code == 422, (seat, r.text)
            assert r.json()["detail"][0]["type"] == "invalid_number"
        after = srv.client.get(f"/api/tables/{table['id']}").json()
        assert after["seats"] == table["seats"] and after["version"] == table["version"]


@pytest.mark.parametrize("path", ["/api/tables", "/api/leaderboard"])
def test_a_nul_byte_in_the_game_filter_is_a_400(database: Database, path: str) -> None:
    """PostgreSQL cannot hold a NUL: the driver's refusal was a 500."""
    with Server(database) as srv:
        for query in ("game=%00", "game=belote%00", "status=waiting&game=a%00b"):
            r = srv.client.get(f"{path}?{query}")
            assert r.status_code == 400, (query, r.text)
            assert r.json()["code"] == "bad_request" and "nul" in r.json()["detail"]
        assert srv.client.get(f"{path}?game=belote").status_code == 200


def test_odd_input_to_the_admin_api_without_its_token_learns_nothing(srv: Server) -> None:
    """The admin routes check the token before anything else: so do these refusals."""
    wrong = auth("not-the-token")
    assert srv.client.get("/api/admin/players?q=%00", headers=wrong).status_code == 401
    r = srv.client.post(
        "/api/admin/tables/1/close",
        content=b'{"reason": "\\ud800"}',
        headers={**wrong, "Content-Type": "application/json"},
    )
    assert r.status_code == 401
    assert srv.client.get("/api/admin/players?q=%00", headers=AUTH).status_code == 400


def test_json_nested_deeper_than_the_limit_is_a_422(srv: Server) -> None:
    alice = srv.player("Alice")
    deep = '{"game": "belote", "players": 4, "options": {"x": ' + "[" * 40 + "]" * 40 + "}}"
    r = _raw(srv, "/api/tables", deep, alice.token)
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "too_deep"
    deeper = "[" * 5000 + "]" * 5000  # deeper than Python's own recursion limit
    r = _raw(srv, "/api/tables", deeper, alice.token)
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "too_deep"


def test_json_problems_are_found_wherever_they_hide() -> None:
    assert json_problem(b'{"a": [1, {"b": "x\\ud800"}]}') is not None
    bad = json_problem(b'{"a": [1, {"b": "x\\ud800"}]}')
    assert bad is not None and bad.loc == ("a", 1, "b")
    assert json_problem(b'"\\ud83d\\ude00"') is None  # a pair is one character
    assert json_problem(b"[1.5, 2e10, -3]") is None
    assert json_problem(b"not json") is None  # FastAPI answers that one itself
    nested = ("[" * MAX_DEPTH + "]" * MAX_DEPTH).encode()
    assert json_problem(nested) is None
    assert json_problem(b"[" + nested + b"]") is not None


def test_a_refusal_echoing_odd_input_can_always_be_written() -> None:
    echoed = {"input": ["a\ud800b", float("inf"), {"\udfff": float("nan")}], "n": 1.5}
    clean = printable(echoed)
    json.dumps(clean, allow_nan=False).encode("utf-8")  # what JSONResponse does
    assert clean["input"][0] == "a\ufffdb" and clean["input"][1] == "inf"


# -- 10. headers and /metrics ----------------------------------------------------------------------

SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


@pytest.mark.parametrize(
    "path", ["/", "/index.html", "/style.css", "/js/main.js", "/api/games", "/nothing-here"]
)
def test_pages_files_and_answers_carry_a_csp_and_the_security_headers(
    srv: Server, path: str
) -> None:
    r = srv.client.get(path)
    for name, value in SECURITY_HEADERS.items():
        assert r.headers.get(name) == value, (path, name)
    assert "camera=()" in r.headers["permissions-policy"]
    csp = r.headers["content-security-policy"]
    directives = dict(
        (d.split()[0], d.split()[1:]) for d in (x.strip() for x in csp.split(";")) if d
    )
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert "ws://testserver" in directives["connect-src"]
    assert "unsafe" not in csp


def test_refusals_carry_the_security_headers_too(sqlite_db: Database) -> None:
    srv, _ = limited(sqlite_db, rate_limit_address="1/minute", max_body_bytes=1024)
    with srv:
        assert srv.client.post("/api/players", content=b"x" * 2000).status_code == 413
        r = srv.client.get("/api/games")
        assert r.status_code == 429
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


def test_the_api_docs_keep_working_and_cannot_be_framed(srv: Server) -> None:
    r = srv.client.get("/docs")
    assert r.status_code == 200
    assert r.headers["content-security-policy"] == "frame-ancestors 'none'"
    assert r.headers["x-frame-options"] == "DENY"


def test_the_client_needs_nothing_the_csp_forbids() -> None:
    """No inline script, style or handler in the page: the CSP would block them."""
    web = Path(__file__).resolve().parents[2] / "src" / "tablee" / "web"
    html = (web / "index.html").read_text()
    for script in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in script, script
    assert "<style" not in html
    assert not re.search(r"\sstyle\s*=", html)
    assert not re.search(r"\son[a-z]+\s*=", html)
    assert "script-src 'self'" in CSP
    for js in (web / "js").rglob("*.js"):
        text = js.read_text()
        assert "eval(" not in text and "new Function" not in text, js


def test_metrics_need_the_admin_or_the_metrics_token(sqlite_db: Database) -> None:
    with Server(sqlite_db, admin_token=ADMIN, metrics_token="scraper-token-0123") as srv:
        r = srv.client.get("/metrics")
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert srv.client.get("/metrics", headers=auth("wrong")).status_code == 401
        for token in (ADMIN, "scraper-token-0123"):
            r = srv.client.get("/metrics", headers=auth(token))
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/plain")
            names = {f.name for f in text_string_to_metric_families(r.text)}
            assert {"tablee_moves", "tablee_websockets"} <= names
        # the metrics token is not an admin token
        assert (
            srv.client.get("/api/admin/stats", headers=auth("scraper-token-0123")).status_code
            == 401
        )


def test_metrics_are_off_without_any_token(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        r = srv.client.get("/metrics")
        assert r.status_code == 503 and "TABLEE_METRICS_TOKEN" in r.json()["detail"]


# -- 3. what one player may have open --------------------------------------------------------------


def test_a_player_has_a_bounded_number_of_waiting_tables(database: Database) -> None:
    """The finding: 637 waiting tables from one client. Starting one frees its place."""
    with Server(database, **NO_LIMITS, max_waiting_tables=3) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        tables = [srv.create_table(alice, game="contrecarte", players=2) for _ in range(3)]
        r = srv.post("/api/tables", alice, json={"game": "contrecarte", "players": 2})
        assert r.status_code == 409, r.text
        assert r.json()["code"] == "too_many_tables"
        assert "3 tables en attente" in r.json()["detail"]
        assert len(srv.client.get("/api/tables").json()) == 3  # nothing was made
        # another player is not concerned; a table that starts no longer waits
        srv.create_table(bob, game="contrecarte", players=2)
        assert srv.post(f"/api/tables/{tables[0]['id']}/join", bob).status_code == 200
        srv.create_table(alice, game="contrecarte", players=2)


def test_a_player_holds_a_bounded_number_of_seats(database: Database) -> None:
    with Server(database, **NO_LIMITS, max_open_seats=2) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        mine = srv.create_table(bob, game="contrecarte", players=3)
        srv.create_table(alice, game="contrecarte", players=3)
        srv.create_table(alice, game="contrecarte", players=3)
        # two seats held: neither a third table nor a join
        r = srv.post(f"/api/tables/{mine['id']}/join", alice)
        assert r.status_code == 409 and r.json()["code"] == "too_many_seats"
        assert "2 places" in r.json()["detail"]
        r = srv.post("/api/tables", alice, json={"game": "contrecarte", "players": 3})
        assert r.status_code == 409 and r.json()["code"] == "too_many_seats"
        seats = srv.client.get(f"/api/tables/{mine['id']}").json()["seats"]
        assert [s["player_id"] for s in seats] == [bob.id, None, None]
        # leaving a table frees a seat
        first = srv.client.get("/api/me", headers=srv.headers(alice)).json()["tables"][0]
        assert srv.post(f"/api/tables/{first}/leave", alice).status_code == 200
        assert srv.post(f"/api/tables/{mine['id']}/join", alice).status_code == 200


def test_finished_tables_hold_no_seat(sqlite_db: Database) -> None:
    with Server(sqlite_db, **NO_LIMITS, admin_token=ADMIN, max_open_seats=1) as srv:
        alice = srv.player("Alice")
        t = srv.create_table(alice, game="belote", players=4)
        assert (
            srv.post("/api/tables", alice, json={"game": "belote", "players": 4}).status_code == 409
        )
        r = srv.client.post(f"/api/admin/tables/{t['id']}/close", json={}, headers=AUTH)
        assert r.status_code == 200
        srv.create_table(alice, game="belote", players=4)


@database_away
def test_a_call_that_failed_on_the_database_away_is_a_503_to_try_again_and_a_bug_still_a_500(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    """The database out of reach (refused, silent, its pool held by statements it does not
    answer): 503 ``unavailable`` with ``Retry-After``, the security headers, nothing made; any
    other failure is not dressed up as one."""
    with Server(sqlite_db) as srv:
        store = srv.app.state.store

        async def away(*args: Any, **kwargs: Any) -> Any:
            raise failure

        with monkeypatch.context() as m:
            m.setattr(store, "create_player", away)
            r = srv.client.post("/api/players", json={"name": "Gaëlle"})
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "unavailable" and r.headers["retry-after"] == "1"
        assert r.headers["x-content-type-options"] == "nosniff"
        r = srv.client.post("/api/players", json={"name": "Gaëlle"})
        assert r.status_code == 201, r.text

        async def bug(*args: Any, **kwargs: Any) -> Any:
            raise ValueError("a bug")

        with monkeypatch.context() as m:
            m.setattr(store, "create_player", bug)
            with pytest.raises(ValueError):
                srv.client.post("/api/players", json={"name": "Hugo"})
