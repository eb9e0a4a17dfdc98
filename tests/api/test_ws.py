"""The WebSocket protocol through the app's test client."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.serverkit import WS, Database, Server, ToyGame, database_away, play_out


@pytest.fixture
def srv(database: Database, toy_game: ToyGame) -> Any:
    with Server(database, max_message_bytes=1024) as s:
        yield s


def _snapshot(srv: Server, table: int) -> tuple[Any, ...]:
    rec = srv.call(srv.app.state.store.table, table)
    log = srv.call(srv.app.state.store.actions, table, rec.game_no)
    live = srv.manager.cached(table)
    state = None if live.state is None else live.game.to_json(live.state)
    return rec.version, rec.status, len(log), live.rec.version, state


def test_bad_input_of_every_kind_gets_its_code_and_changes_nothing(srv: Server) -> None:
    alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
    waiting = srv.create_table(alice, game="toy", players=3)
    t = srv.create_table(alice, game="toy", players=2, options={"hand": 2})
    srv.post(f"/api/tables/{t['id']}/join", bob)
    tid = t["id"]
    with srv.ws(alice) as wa, srv.ws(carol) as wc, srv.ws() as anon:
        st = wa.sync(tid)
        assert st["to_act"] == [0]
        before = _snapshot(srv, tid)
        hand = st["view"]["hand"]
        bob_card = next(c for c in srv.manager.cached(tid).state.hands[1])
        cases: list[tuple[WS, Any, str]] = [
            (wa, "{not json", "bad_json"),
            (wa, "[1, 2]", "bad_request"),
            (wa, "42", "bad_request"),
            (wa, {"no": "type"}, "bad_request"),
            (wa, {"type": 7}, "bad_request"),
            (wa, {"type": "dance", "id": 1}, "unknown_type"),
            (wa, {"type": "subscribe"}, "bad_request"),
            (wa, {"type": "subscribe", "table": "one"}, "bad_request"),
            (wa, {"type": "subscribe", "table": True}, "bad_request"),
            (wa, {"type": "sync", "table": 999}, "unknown_table"),
            (wa, {"type": "subscribe", "table": 999}, "unknown_table"),
            (wa, {"type": "act", "table": 999, "action": {"type": "play"}}, "unknown_table"),
            (wa, {"type": "act", "table": tid}, "bad_request"),
            (wa, {"type": "act", "table": tid, "action": "play"}, "bad_request"),
            (wa, {"type": "hello"}, "bad_request"),
            (wa, {"type": "act", "table": tid, "action": {"card": hand[0]}}, "bad_action"),
            (wa, {"type": "act", "table": tid, "action": {"type": "play"}}, "bad_action"),
            (wa, {"type": "act", "table": tid, "action": {"type": "fold"}}, "illegal_action"),
            (
                wa,
                {"type": "act", "table": tid, "action": {"type": "play", "card": bob_card}},
                "illegal_action",
            ),
            (
                wa,
                {"type": "act", "table": waiting["id"], "action": {"type": "play"}},
                "not_started",
            ),
            (wa, {"type": "x" * 2000}, "too_large"),
            (
                wc,
                {"type": "act", "table": tid, "action": {"type": "play", "card": hand[0]}},
                "not_seated",
            ),
            (
                anon,
                {"type": "act", "table": tid, "action": {"type": "play", "card": hand[0]}},
                "unauthorized",
            ),
        ]
        for i, (ws, msg, code) in enumerate(cases):
            if isinstance(msg, dict) and "id" not in msg and code != "too_large":
                msg = {**msg, "id": f"case{i}"}
            ws.send(msg)
            answer = ws.until(lambda f: f["type"] in {"ack", "error"})
            assert answer["type"] == "error" and answer["code"] == code, (msg, answer)
            assert answer["message"]
            if isinstance(msg, dict) and "id" in msg:
                assert answer["id"] == msg["id"]
            assert _snapshot(srv, tid) == before, msg
        wa.s.send_bytes(b'{"type": "ping"}')  # type: ignore[union-attr]
        assert wa.until(lambda f: f["type"] == "error")["code"] == "bad_json"
        with srv.ws(bob) as wb:
            wb.sync(tid)
            answer = wb.act(tid, {"type": "play", "card": bob_card})
            assert answer["code"] == "not_your_turn"
            assert _snapshot(srv, tid) == before
            # the connections are still open and answer
            for ws in (wa, wb, wc, anon):
                assert ws.request({"type": "ping", "id": 5}) == {"type": "pong", "id": 5}
            final = play_out({0: wa, 1: wb}, tid)
            assert final["over"]
            after = _snapshot(srv, tid)
            answer = wa.act(tid, {"type": "play", "card": hand[0]})
            assert answer["code"] == "table_over"
            assert _snapshot(srv, tid) == after


def test_a_bad_hello_token_closes_the_connection_with_a_reason(srv: Server) -> None:
    with srv.ws() as ws:
        ws.send({"type": "hello", "token": "not-a-token", "id": 1})
        err = ws.recv()
        assert err["type"] == "error" and err["code"] == "unauthorized" and err["id"] == 1
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.recv()
        assert closed.value.code == 4401 and "token" in closed.value.reason


def test_a_spectator_sees_no_hand_and_may_not_act(srv: Server) -> None:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2, bots=[1])
    with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws() as anon:
        for ws in (wa, wb, anon):
            assert ws.request({"type": "subscribe", "table": t["id"]})["type"] == "ack"
        spect = anon.state()
        assert spect["view"]["hand"] is None and spect["view"]["seat"] is None
        assert spect["legal"] == []
        bob_view = wb.state()
        assert bob_view["view"]["seat"] is None and bob_view["legal"] == []
        mine = wa.state()
        assert mine["view"]["hand"] and mine["legal"]
        wa.act(t["id"], mine["legal"][0])
        anon.state()  # the frames of the spectator are checked for leaks on exit


def test_states_follow_each_change_with_versions_one_apart(srv: Server) -> None:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2, options={"deals": 2})
    tid = t["id"]
    with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws() as watcher:
        watcher.request({"type": "subscribe", "table": tid})
        first = watcher.state()
        srv.post(f"/api/tables/{tid}/join", bob)
        for ws in (wa, wb):
            ws.request({"type": "subscribe", "table": tid})
        final = play_out({0: wa, 1: wb}, tid)
        watcher.until(lambda f: f["type"] == "state" and f["over"])
    versions = [f["version"] for f in watcher.frames if f["type"] == "state"]
    changes = sorted(set(versions))
    assert changes == list(range(first["version"], final["version"] + 1))
    played = [e for f in watcher.frames if f["type"] == "state" for e in f["events"]]
    assert sum(e["type"] == "play" for e in played) == 12
    assert [e["deal"] for e in played if e["type"] == "deal_end"] == [1, 2]


def test_several_tabs_of_one_player_each_get_the_states(srv: Server) -> None:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2)
    tid = t["id"]
    srv.post(f"/api/tables/{tid}/join", bob)
    with srv.ws(alice) as tab1, srv.ws(alice) as tab2, srv.ws(bob) as wb:
        for ws in (tab1, tab2, wb):
            ws.request({"type": "subscribe", "table": tid})
        s1 = tab1.state()
        assert tab1.act(tid, s1["legal"][0])["type"] == "ack"
        v = s1["version"] + 1
        for ws in (tab1, tab2, wb):
            st = ws.until(lambda f, v=v: f["type"] == "state" and f["version"] == v)
            assert st["to_act"] == [1]
        assert tab2.act(tid, s1["legal"][1])["code"] == "not_your_turn"
        info = wb.sync(tid)["info"]
        assert [s["connected"] for s in info["seats"]] == [True, True]
    with srv.ws(bob) as wb:
        info = wb.request({"type": "subscribe", "table": tid}) and wb.state()["info"]
        assert [s["connected"] for s in info["seats"]] == [False, True]


def test_a_reconnecting_player_resumes_from_the_current_state(srv: Server) -> None:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2)
    tid = t["id"]
    srv.post(f"/api/tables/{tid}/join", bob)
    with srv.ws(alice) as wa:
        st = wa.sync(tid)
        wa.act(tid, st["legal"][0])
        seen = wa.sync(tid)
    with srv.ws(alice) as again:
        again.request({"type": "subscribe", "table": tid})
        back = again.state()
    assert back["version"] == seen["version"] and back["view"] == seen["view"]
    assert back["view"]["hand"] == seen["view"]["hand"] and len(back["view"]["hand"]) == 2


def test_a_message_the_server_fails_on_is_answered_with_its_id_and_the_socket_goes_on(
    srv: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A failure that is not a refusal (a bug, a store that broke) is answered ``internal``
    with the message's id: the client stops waiting for that one; the next messages are
    served."""
    alice = srv.player("Alice")
    t = srv.create_table(alice, game="toy", players=2)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the store broke")

    monkeypatch.setattr(srv.manager, "visible", broken)
    with srv.ws(alice) as wa:
        answer = wa.request({"type": "sync", "table": t["id"], "id": "s1"})
        assert answer["type"] == "error" and answer["code"] == "internal", answer
        assert answer["id"] == "s1"
        assert wa.request({"type": "ping", "id": "p1"}) == {"type": "pong", "id": "p1"}
    assert any(r.exc_info is not None for r in caplog.records)


@database_away
def test_a_message_that_failed_on_the_database_away_is_answered_unavailable_and_a_move_conflict(
    srv: Server,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    failure: Exception,
) -> None:
    """The database out of reach (a connection refused, a statement past its time): a message
    is answered ``unavailable`` with its id, a move ``conflict`` (its client sends it again:
    made once), each logged in one line, without a traceback; nothing changed."""
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.create_table(alice, game="toy", players=2)
    srv.post(f"/api/tables/{t['id']}/join", bob)

    async def away(*args: Any, **kwargs: Any) -> None:
        raise failure

    with srv.ws(alice) as wa:
        st = wa.sync(t["id"])
        card = st["view"]["hand"][0]
        with monkeypatch.context() as m:
            m.setattr(srv.manager, "visible", away)
            m.setattr(srv.manager, "act", away)
            answer = wa.request({"type": "sync", "table": t["id"], "id": "s1"})
            assert (answer["type"], answer["code"], answer["id"]) == ("error", "unavailable", "s1")
            answer = wa.request(
                {
                    "type": "act",
                    "table": t["id"],
                    "action": {"type": "play", "card": card},
                    "id": "a1",
                }
            )
            assert (answer["type"], answer["code"], answer["id"]) == ("error", "conflict", "a1")
        assert wa.request({"type": "ping", "id": "p1"}) == {"type": "pong", "id": "p1"}
        assert wa.sync(t["id"])["version"] == st["version"]
    assert not any(r.exc_info for r in caplog.records if r.name == "tablee.ws")
    assert sum("database is out of reach" in r.getMessage() for r in caplog.records) == 2
