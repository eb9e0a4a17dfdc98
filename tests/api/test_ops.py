"""Operations: /healthz, /metrics (Prometheus text), structured JSON logs."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.ext.asyncio import create_async_engine

from tablee.logs import JsonFormatter, configure_logging, log_context
from tests.serverkit import WS, Database, Server, ToyGame

TOKEN = "ops-test-admin-token-0123456789"


def metrics(srv: Server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    token = srv.app.state.settings.admin_token
    r = srv.client.get("/metrics", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def sample(m: dict[Any, float], name: str, **labels: str) -> float:
    return m.get((name, tuple(sorted(labels.items()))), 0.0)


def seated(srv: Server) -> tuple[Any, Any, dict[str, Any]]:
    """Alice and Bob, and the toy table they sit at."""
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2)
    srv.post(f"/api/tables/{t['id']}/join", bob)
    return alice, bob, t


def play(ws: WS, table: int) -> dict[str, Any]:
    st = ws.sync(table)
    answer = ws.act(table, st["legal"][0])
    assert answer["type"] == "ack", answer
    return ws.sync(table)


# -- /healthz -------------------------------------------------------------------------------------


def test_healthz_is_ok_while_the_database_answers(database: Database) -> None:
    with Server(database) as srv:
        r = srv.client.get("/healthz")
        assert r.status_code == 200
        assert r.json() == {"status": "ok", "database": "ok"}


def test_healthz_is_503_when_the_database_is_unreachable(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        store = srv.app.state.store
        good = store.engine
        # a server nobody listens on: every connection is refused
        store.engine = create_async_engine("postgresql+asyncpg://nobody@127.0.0.1:9/none")
        try:
            r = srv.client.get("/healthz")
        finally:
            srv.call(store.engine.dispose)
            store.engine = good
        assert r.status_code == 503
        assert r.json()["status"] == "unavailable" and r.json()["database"] == "unreachable"
        assert srv.client.get("/healthz").status_code == 200


# -- /metrics -------------------------------------------------------------------------------------


def test_metrics_count_tables_sockets_moves_latency_and_errors_by_code(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    with Server(sqlite_db, admin_token=TOKEN) as srv:
        alice, bob, t = seated(srv)
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            m = metrics(srv)
            assert sample(m, "tablee_websockets") == 2
            assert sample(m, "tablee_websocket_players") == 2
            assert sample(m, "tablee_tables", game="toy", status="playing") == 1
            assert sample(m, "tablee_moves_total", game="toy", source="player") == 0

            conns = {0: wa, 1: wb}
            for _ in range(3):
                seat = wa.sync(t["id"])["to_act"][0]
                play(conns[seat], t["id"])
            # refusals: two over the WebSocket, one over REST, one at the admin door
            assert wb.act(t["id"], {"type": "play", "card": "nope"})["code"] in {
                "illegal_action",
                "not_your_turn",
            }
            assert wa.act(9999, {"type": "play", "card": "T01"})["code"] == "unknown_table"
            assert srv.post(f"/api/tables/{t['id']}/join", alice).status_code == 409
            assert srv.client.get("/api/admin/tables").status_code == 401
            m = metrics(srv)
        assert sample(m, "tablee_moves_total", game="toy", source="player") == 3
        assert sample(m, "tablee_action_seconds_count", source="player") == 3
        assert sample(m, "tablee_action_seconds_bucket", source="player", le="+Inf") == 3
        assert sample(m, "tablee_action_seconds_sum", source="player") > 0
        refused = sample(m, "tablee_errors_total", code="illegal_action", channel="ws")
        refused += sample(m, "tablee_errors_total", code="not_your_turn", channel="ws")
        assert refused == 1
        assert sample(m, "tablee_errors_total", code="unknown_table", channel="ws") == 1
        assert sample(m, "tablee_errors_total", code="already_seated", channel="rest") == 1
        assert sample(m, "tablee_errors_total", code="unauthorized", channel="admin") == 1
        m = metrics(srv)
        assert sample(m, "tablee_websockets") == 0

        # the game's end and the admin's actions are counted too
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            conns = {0: wa, 1: wb}
            st = wa.sync(t["id"])
            while not st["over"]:
                play(conns[st["to_act"][0]], t["id"])
                st = wa.sync(t["id"])
        headers = {"Authorization": f"Bearer {TOKEN}"}
        assert srv.client.get(f"/api/admin/tables/{t['id']}", headers=headers).status_code == 200
        m = metrics(srv)
        assert sample(m, "tablee_moves_total", game="toy", source="player") == 6
        assert sample(m, "tablee_games_finished_total", game="toy") == 1
        assert sample(m, "tablee_tables", game="toy", status="finished") == 1
        assert sample(m, "tablee_admin_actions_total", action="table.inspect") == 1


def around_three_moves(srv: Server) -> tuple[dict[Any, float], dict[Any, float]]:
    """The metrics before and after Alice and Bob play three moves, one after the other."""
    alice, bob, t = seated(srv)
    before = metrics(srv)
    with srv.ws(alice) as wa, srv.ws(bob) as wb:
        conns = {0: wa, 1: wb}
        for _ in range(3):
            seat = wa.sync(t["id"])["to_act"][0]
            play(conns[seat], t["id"])
    return before, metrics(srv)


def test_metrics_time_each_group_commit_and_count_the_writes_it_carried(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    with Server(sqlite_db, admin_token=TOKEN) as srv:
        before, m = around_three_moves(srv)
    store = srv.app.state.store

    def grown(name: str, **labels: str) -> float:
        return sample(m, name, **labels) - sample(before, name, **labels)

    # three moves, each acknowledged after its commit: three writes at least, in as many
    # transactions as the store made, each timed
    writes = grown("tablee_store_writes_total")
    commits = grown("tablee_store_commit_seconds_count")
    assert writes >= 3 and 1 <= commits <= writes
    assert sample(m, "tablee_store_writes_total") == store.writes
    assert sample(m, "tablee_store_commit_seconds_count") == store.commits
    assert sample(m, "tablee_store_commit_seconds_bucket", le="+Inf") == store.commits
    assert 0 < grown("tablee_store_commit_seconds_sum") < 60


def test_metrics_say_where_sqlite_committed_each_group_of_moves(
    sqlite_db: Database, toy_game: ToyGame
) -> None:
    # an operator reads off /metrics whether the disk keeps the moves off the event loop
    with Server(sqlite_db, admin_token=TOKEN) as srv:
        before, m = around_three_moves(srv)
        counts = srv.app.state.store.sqlite_moves
    assert counts is not None
    groups = "tablee_store_sqlite_move_groups_total"
    # three moves, one after the other: each a group of moves alone, on the loop or in the thread
    grown = sum(
        sample(m, groups, where=w) - sample(before, groups, where=w) for w in ("loop", "thread")
    )
    assert grown == 3
    assert sample(m, groups, where="loop") == counts["loop"]
    assert sample(m, groups, where="thread") == counts["thread"]
    assert sample(m, "tablee_store_sqlite_slow_loop_commits_total") == counts["slow"]


def test_each_app_has_its_own_metrics(sqlite_db: Database, toy_game: ToyGame) -> None:
    with Server(sqlite_db, admin_token=TOKEN) as one, Server(sqlite_db, admin_token=TOKEN) as two:
        alice, _, t = seated(one)
        with one.ws(alice) as wa:
            play(wa, t["id"])
        assert sample(metrics(one), "tablee_moves_total", game="toy", source="player") == 1
        assert sample(metrics(two), "tablee_moves_total", game="toy", source="player") == 0
        assert one.app.state.ops.registry is not two.app.state.ops.registry


# -- JSON logs ------------------------------------------------------------------------------------


@pytest.fixture
def json_logs() -> Iterator[io.StringIO]:
    """The app's logs as configured by ``tablee serve``, written to a buffer."""
    root = logging.getLogger()
    level = root.level
    buf = io.StringIO()
    handler = configure_logging("debug", "json", stream=buf)
    try:
        yield buf
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines(buf: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in buf.getvalue().splitlines()]


def test_json_log_lines_about_a_table_carry_its_id_and_the_seat(
    sqlite_db: Database, toy_game: ToyGame, json_logs: io.StringIO
) -> None:
    with Server(sqlite_db, admin_token=TOKEN) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        t = srv.create_table(alice, game="toy", players=2, options={"hand": 1})
        srv.post(f"/api/tables/{t['id']}/join", bob)
        with srv.ws(alice) as wa:
            play(wa, t["id"])
        headers = {"Authorization": f"Bearer {TOKEN}"}
        r = srv.client.post(f"/api/admin/tables/{t['id']}/seats/1/kick", headers=headers)
        assert r.status_code == 200
        with srv.ws() as spectator:
            spectator.request({"type": "subscribe", "table": t["id"]})
            spectator.until(lambda f: f["type"] == "state" and f["over"])
    out = lines(json_logs)  # every line is one JSON object
    assert all({"ts", "level", "logger", "msg"} <= set(x) for x in out)
    moves = [x for x in out if x["msg"] == "move"]
    assert [(x["table"], x["seat"], x["source"]) for x in moves] == [
        (t["id"], 0, "player"),
        (t["id"], 1, "bot"),
    ]
    over = [x for x in out if x["msg"] == "game over"]
    assert len(over) == 1 and over[0]["table"] == t["id"] and over[0]["seat"] == 1
    kicked = [x for x in out if x.get("action") == "table.kick"]
    assert kicked and kicked[0]["table"] == t["id"] and kicked[0]["seat"] == 1
    assert all("seat" in x for x in out if "table" in x)


def test_the_json_formatter_takes_table_and_seat_from_the_context_and_keeps_tracebacks() -> None:
    log = logging.getLogger("tablee.test")
    fmt = JsonFormatter()

    def record(msg: str, **extra: Any) -> dict[str, Any]:
        rec = log.makeRecord(log.name, logging.INFO, __file__, 1, msg, (), None, extra=extra)
        out: dict[str, Any] = json.loads(fmt.format(rec))
        return out

    assert "table" not in record("plain")
    with log_context(7, 2):
        inside = record("inside")
        assert (inside["table"], inside["seat"]) == (7, 2)
        assert (record("mine", table=8)["table"], record("mine", table=8)["seat"]) == (8, None)
    assert "table" not in record("after")
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        rec = log.makeRecord(log.name, logging.ERROR, __file__, 1, "x", (), sys.exc_info())
    assert "ValueError: boom" in json.loads(fmt.format(rec))["exc"]


def test_tablee_serve_writes_every_line_as_json_uvicorn_s_included(tmp_path: Any) -> None:
    """The real command in its own process: start-up, access and admin lines are JSON objects."""
    import os
    import subprocess
    import sys
    import time

    import httpx

    from tests.serverkit import free_port

    port = free_port()
    env = {
        **os.environ,
        "TABLEE_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/serve.db",
        "TABLEE_ADMIN_TOKEN": TOKEN,
        "TABLEE_LOG_FORMAT": "json",
    }
    err = (tmp_path / "stderr.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tablee", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=err,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # up to a minute on a busy machine
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, (tmp_path / "stderr.log").read_text()
            time.sleep(0.1)
        token = httpx.post(f"{base}/api/players", json={"name": "Alice"}).json()["token"]
        table = httpx.post(
            f"{base}/api/tables",
            json={"game": "belote", "players": 4},
            headers={"Authorization": f"Bearer {token}"},
        ).json()
        r = httpx.post(
            f"{base}/api/admin/tables/{table['id']}/close",
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        assert r.status_code == 200, r.text
    finally:
        proc.terminate()
        proc.wait(20)
        err.close()
    out = [json.loads(line) for line in (tmp_path / "stderr.log").read_text().splitlines()]
    assert any(x["logger"] == "uvicorn.error" and "startup" in x["msg"] for x in out)
    assert any(x["logger"] == "uvicorn.access" and "/api/players" in x["msg"] for x in out)
    closed = [x for x in out if x.get("action") == "table.close"]
    assert len(closed) == 1 and closed[0]["table"] == table["id"] and closed[0]["seat"] is None
