"""Table and lobby chat over ``/ws`` (issue 20): stored then acknowledged, pushed to the table,
the last messages on subscribe, no coaching from the gallery during a partnership deal, the
limits, reports, and the admin's deletions and mutes."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import tablee
from tablee.protocol import CHAT_MAX_CHARS, QUICK_PHRASES
from tablee.tables.chat import Chat
from tests.serverkit import WS, Database, Server, ToyGame

ADMIN = "chat-admin-token"


@pytest.fixture
def srv(database: Database, toy_game: ToyGame) -> Any:
    with Server(database, admin_token=ADMIN, bot_delay_seconds=0) as s:
        yield s


def _chat(ws: WS, mid: Any, text: str | None = None, table: int | None = None, **kw: Any) -> Any:
    msg: dict[str, Any] = {"type": "chat", "id": mid, **kw}
    if text is not None:
        msg["text"] = text
    if table is not None:
        msg["table"] = table
    ws.send(msg)
    return ws.until(lambda f: f["type"] in {"ack", "error"} and f.get("id") == mid)


def _pushed(ws: WS) -> dict[str, Any]:
    return ws.until(lambda f: f["type"] == "chat")["message"]


def _history(ws: WS, table: int | None) -> dict[str, Any]:
    return ws.until(lambda f: f["type"] == "chat_history" and f["table"] == table)


def _admin(srv: Server, method: str, path: str, **kw: Any) -> Any:
    return srv.client.request(method, path, headers={"Authorization": f"Bearer {ADMIN}"}, **kw)


def test_a_message_is_stored_acknowledged_and_pushed_to_the_table_then_kept(srv: Server) -> None:
    alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
    tid = srv.create_table(alice, game="toy", players=2)["id"]
    assert srv.post(f"/api/tables/{tid}/join", bob).status_code == 200
    with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws(carol) as wc:
        for ws in (wa, wb, wc):
            ws.request({"type": "subscribe", "table": tid})
            assert _history(ws, tid)["messages"] == []
        assert _chat(wa, 1, "  Bonjour à tous  ", tid)["type"] == "ack"
        for ws in (wa, wb, wc):
            got = _pushed(ws)
            assert got["text"] == "Bonjour à tous"  # trimmed
            assert got["author"] == {"id": alice.id, "name": "Alice"}
            assert got["seat"] == 0 and got["audience"] == "all"
        # the spectator writes (the toy game is not played in partnerships): everyone reads it
        assert _chat(wc, "c1", "Belle table", tid)["type"] == "ack"
        assert [_pushed(ws)["text"] for ws in (wa, wb, wc)] == ["Belle table"] * 3
        assert _chat(wb, 2, table=tid, phrase="merci")["type"] == "ack"
        said = _pushed(wa)
        assert said["phrase"] == "merci" and said["text"] == QUICK_PHRASES["merci"]
    # a reload: the last messages come after the state
    with srv.ws(bob) as wb:
        wb.request({"type": "subscribe", "table": tid})
        wb.state(tid)
        texts = [m["text"] for m in _history(wb, tid)["messages"]]
        assert texts == ["Bonjour à tous", "Belle table", "Merci"]


def test_a_chat_sent_again_with_the_same_id_is_acknowledged_and_stored_once(srv: Server) -> None:
    alice = srv.player("Alice")
    tid = srv.create_table(alice, game="toy", players=2)["id"]
    with srv.ws(alice) as wa:
        wa.request({"type": "subscribe", "table": tid})
        assert _chat(wa, "same", "une fois", tid)["type"] == "ack"
        assert _chat(wa, "same", "une fois", tid)["type"] == "ack"
    with srv.ws(alice) as wa:
        wa.request({"type": "subscribe", "table": tid})
        assert [m["text"] for m in _history(wa, tid)["messages"]] == ["une fois"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("   ", "vide"),
        ("x" * (CHAT_MAX_CHARS + 1), "trop long"),
        ("deux\nlignes", "contrôle"),
        ("bip\x07", "contrôle"),
        ("a\u202eb", "contrôle"),
    ],
)
def test_bad_messages_are_refused_in_french_and_stored_nowhere(
    srv: Server, text: str, why: str
) -> None:
    alice = srv.player("Alice")
    tid = srv.create_table(alice, game="toy", players=2)["id"]
    with srv.ws(alice) as wa:
        wa.request({"type": "subscribe", "table": tid})
        answer = _chat(wa, 7, text, tid)
        assert answer["type"] == "error" and answer["code"] == "bad_chat"
        assert why in answer["message"]
        answer = _chat(wa, 8, table=tid, phrase="pas_une_phrase")
        assert answer["code"] == "bad_chat"
        assert _chat(wa, 9, "x" * CHAT_MAX_CHARS, tid)["type"] == "ack"  # the longest allowed
    with srv.ws(alice) as wa:
        wa.request({"type": "subscribe", "table": tid})
        assert len(_history(wa, tid)["messages"]) == 1


def test_a_spectator_writes_nothing_before_hello_and_a_player_is_rate_limited(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database, chat_rate="3/minute") as srv:
        alice = srv.player("Alice")
        tid = srv.create_table(alice, game="toy", players=2)["id"]
        with srv.ws() as anon:
            anon.request({"type": "subscribe", "table": tid})
            assert _chat(anon, 1, "anonyme", tid)["code"] == "unauthorized"
        with srv.ws(alice) as wa, srv.ws(alice) as wa2:
            # one writes at a table one has open
            assert _chat(wa, 0, "sans regarder", tid)["code"] == "bad_request"
            for ws in (wa, wa2):
                ws.request({"type": "subscribe", "table": tid})
            # two sockets of one player share one bucket
            assert [_chat(wa, i, f"m{i}", tid)["type"] for i in range(2)] == ["ack", "ack"]
            assert _chat(wa2, 3, "m3", tid)["type"] == "ack"
            refused = _chat(wa2, 4, "m4", tid)
            assert refused["code"] == "rate_limited"
            assert "trop vite" in refused["message"]
            assert _chat(wa, 5, "m5")["code"] == "rate_limited"  # the lobby too


def test_the_lobby_chat(srv: Server) -> None:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    with srv.ws(alice) as wa, srv.ws(bob) as wb, srv.ws() as anon:
        for ws in (wa, wb, anon):
            assert ws.request({"type": "lobby_subscribe", "id": "l"})["type"] == "ack"
            assert _history(ws, None)["messages"] == []
        assert _chat(wa, 1, "Qui pour une belote ?")["type"] == "ack"
        for ws in (wa, wb, anon):
            got = _pushed(ws)
            assert got["table"] is None and got["text"] == "Qui pour une belote ?"
        assert wb.request({"type": "lobby_unsubscribe", "id": "u"})["type"] == "ack"
        assert _chat(wa, 2, "Personne ?")["type"] == "ack"
        assert _pushed(anon)["text"] == "Personne ?"
        wb.send({"type": "ping", "id": "p"})
        assert wb.until(lambda f: f["type"] in {"chat", "pong"})["type"] == "pong"
    with srv.ws() as late:
        late.request({"type": "lobby_subscribe"})
        texts = [m["text"] for m in _history(late, None)["messages"]]
        assert texts == ["Qui pour une belote ?", "Personne ?"]


def _belote(srv: Server, alice: Any) -> int:
    t = srv.create_table(alice, game="belote", players=4, bots=[1, 2, 3])
    tid: int = t["id"]
    if t["status"] != "playing":
        r = srv.post(f"/api/tables/{tid}/start", alice)
        assert r.status_code == 200, r.text
    return tid


def test_no_coaching_from_the_gallery_during_a_belote_deal(srv: Server) -> None:
    alice, carol, dave = srv.player("Alice"), srv.player("Carol"), srv.player("Dave")
    tid = _belote(srv, alice)
    with srv.ws(alice) as wa, srv.ws(carol) as wc, srv.ws(dave) as wd:
        for ws in (wa, wc, wd):
            ws.request({"type": "subscribe", "table": tid})
            _history(ws, tid)
        assert _chat(wc, "tip", "Joue atout !", tid)["type"] == "ack"
        tip = _pushed(wd)
        assert tip["audience"] == "spectators" and tip["text"] == "Joue atout !"
        assert _pushed(wc)["id"] == tip["id"]
        # the player's own message reaches everyone, the spectators included
        assert _chat(wa, "p1", "Bonne chance", tid)["type"] == "ack"
        assert _pushed(wa)["text"] == "Bonne chance"  # not the tip: held back
        assert _pushed(wd)["text"] == "Bonne chance"
        # a reload of the player's page during the deal: the tip is not in the history
        with srv.ws(alice) as wa2:
            wa2.request({"type": "subscribe", "table": tid})
            texts = [m["text"] for m in _history(wa2, tid)["messages"]]
            assert texts == ["Bonne chance"]
        # Alice plays until the deal is over: then, and not before, the tip reaches her
        for _ in range(400):
            if _seen(wa, tip["id"]) or _deal_end_at(wa) is not None:
                break
            st = wa.sync(tid)
            if st["over"]:
                break
            if 0 in st["to_act"]:
                assert wa.act(tid, st["legal"][0])["type"] == "ack"
            else:
                wa.until(lambda f: f["type"] in {"state", "chat"})
        ended = _deal_end_at(wa)
        assert ended is not None, "the deal did not end"
        if not _seen(wa, tip["id"]):
            wa.until(lambda f: f["type"] == "chat" and f["message"]["id"] == tip["id"])
        told = next(
            i
            for i, f in enumerate(wa.frames)
            if f["type"] == "chat" and f["message"]["id"] == tip["id"]
        )
        assert told > ended, "the tip reached a player before the end of the deal"
    with srv.ws(alice) as wa:
        wa.request({"type": "subscribe", "table": tid})
        texts = [m["text"] for m in _history(wa, tid)["messages"]]
        assert texts == ["Joue atout !", "Bonne chance"]


def _deal_end_at(ws: WS) -> int | None:
    """The index of the first frame that tells the end of a deal."""
    for i, f in enumerate(ws.frames):
        if f["type"] == "state" and any(e.get("type") == "deal_end" for e in f["events"]):
            return i
    return None


def _seen(ws: WS, message_id: int) -> bool:
    return any(f["type"] == "chat" and f["message"]["id"] == message_id for f in ws.frames)


def test_reports_deletions_and_mutes(srv: Server) -> None:
    alice, bob = srv.player("Alice"), srv.player("Bob")
    tid = srv.create_table(alice, game="toy", players=2)["id"]
    assert srv.post(f"/api/tables/{tid}/join", bob).status_code == 200
    with srv.ws(alice) as wa, srv.ws(bob) as wb:
        for ws in (wa, wb):
            ws.request({"type": "subscribe", "table": tid})
        assert _chat(wb, 1, "grossièreté", tid)["type"] == "ack"
        bad = _pushed(wa)
        answer = wa.request({"type": "chat_report", "id": "r", "message": bad["id"], "reason": "x"})
        assert answer["type"] == "ack"
        unknown = wa.request({"type": "chat_report", "id": "r2", "message": 999999})
        assert unknown["code"] == "unknown_message"
        reports = _admin(srv, "GET", "/api/admin/chat/reports").json()
        assert reports["total"] == 1
        assert reports["items"][0]["text"] == "grossièreté"
        assert reports["items"][0]["author"]["id"] == bob.id
        # the admin deletes it: gone from both screens and from the history
        r = _admin(srv, "DELETE", f"/api/admin/chat/messages/{bad['id']}")
        assert r.status_code == 200, r.text
        for ws in (wa, wb):
            gone = ws.until(lambda f: f["type"] == "chat_deleted")
            assert gone["message"] == bad["id"] and gone["table"] == tid
        assert _admin(srv, "DELETE", "/api/admin/chat/messages/999999").status_code == 404
        # the report keeps its copy
        assert _admin(srv, "GET", "/api/admin/chat/reports").json()["items"][0]["text"]
        # a mute for ten minutes: Bob's sockets are told, his messages refused
        r = _admin(
            srv, "POST", f"/api/admin/players/{bob.id}/mute", json={"minutes": 10, "reason": "x"}
        )
        assert r.status_code == 200, r.text
        until = datetime.fromisoformat(r.json()["until"])
        assert timedelta(minutes=9) < until - datetime.now(UTC) <= timedelta(minutes=10)
        told = wb.until(lambda f: f["type"] == "chat_muted")
        assert "retiré la parole" in told["message"]
        refused = _chat(wb, 2, "encore", tid)
        assert refused["code"] == "muted" and "retiré la parole" in refused["message"]
        assert _chat(wa, 3, "moi je peux", tid)["type"] == "ack"
        # a page Bob opens meanwhile shows him muted, at the table and in the lobby: the last
        # messages it is sent say until when (Alice's say nothing of it)
        with srv.ws(bob) as again:
            again.request({"type": "subscribe", "table": tid})
            shown = _history(again, tid)
            assert datetime.fromisoformat(shown["muted_until"]) == until
            assert [m["text"] for m in shown["messages"]] == ["moi je peux"]
            again.request({"type": "lobby_subscribe"})
            assert datetime.fromisoformat(_history(again, None)["muted_until"]) == until
        assert _admin(srv, "POST", f"/api/admin/players/{bob.id}/unmute").status_code == 200
        assert _chat(wb, 4, "merci", tid)["type"] == "ack"
        with srv.ws(bob) as again:
            again.request({"type": "subscribe", "table": tid})
            assert "muted_until" not in _history(again, tid)
    with srv.ws(alice) as wa:
        wa.request({"type": "subscribe", "table": tid})
        shown = _history(wa, tid)
        assert [m["text"] for m in shown["messages"]] == ["moi je peux", "merci"]
        assert "muted_until" not in shown
    actions = [e["action"] for e in _admin(srv, "GET", "/api/admin/audit").json()["items"]]
    assert {"chat.delete", "player.mute", "player.unmute"} <= set(actions)


def test_old_messages_are_deleted(srv: Server) -> None:
    alice = srv.player("Alice")
    with srv.ws(alice) as wa:
        assert _chat(wa, 1, "vieux")["type"] == "ack"
    chat = srv.app.state.chat
    assert srv.call(chat.prune) == 0  # younger than the retention
    chat.retention = timedelta(seconds=0)
    assert srv.call(chat.prune) == 1
    with srv.ws() as late:
        late.request({"type": "lobby_subscribe"})
        assert _history(late, None)["messages"] == []


def test_a_prune_under_way_at_shut_down_is_finished_and_logs_no_traceback(
    sqlite_db: Database,
    toy_game: ToyGame,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The server stops while a round of the chat's pruning is under way: the round is let
    finish, and the old message is gone (cancelled, the round deleted nothing; cancelled in its
    transaction, the DELETE was rolled back and, at the wrong instant, the pool's rollback at
    check-in interrupted and logged as an error with a traceback)."""
    real = Chat.prune
    holding = threading.Event()
    inside = threading.Event()

    async def prune(self: Chat) -> int:
        if holding.is_set():
            inside.set()
            await asyncio.sleep(0.2)  # the shut-down comes now
        return await real(self)

    monkeypatch.setattr(Chat, "prune", prune)
    with caplog.at_level(logging.INFO):
        with Server(sqlite_db, chat_prune_seconds=0.05) as srv:
            with srv.ws(srv.player("Alice")) as wa:
                assert _chat(wa, 1, "vieux")["type"] == "ack"
            holding.set()
            srv.app.state.chat.retention = timedelta(seconds=0)
            assert inside.wait(5), "no round of the pruning began"
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    with Server(sqlite_db) as srv, srv.ws() as late:
        late.request({"type": "lobby_subscribe"})
        assert _history(late, None)["messages"] == []


def test_the_browser_offers_the_quick_phrases_the_server_knows() -> None:
    js = (Path(tablee.__file__).parent / "web" / "js" / "chat.js").read_text()
    block = js[js.index("export const QUICK_PHRASES = {") :]
    block = block[: block.index("};")]
    assert dict(re.findall(r'(\w+): "([^"]*)"', block)) == QUICK_PHRASES


def test_with_no_history_kept_a_page_gets_no_messages_but_still_its_mute(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database, admin_token=ADMIN, bot_delay_seconds=0, chat_history=0) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        tid = srv.create_table(alice, game="toy", players=2)["id"]
        assert srv.post(f"/api/tables/{tid}/join", bob).status_code == 200
        with srv.ws(alice) as wa:
            wa.request({"type": "subscribe", "table": tid})
            assert _history(wa, tid)["messages"] == []
            assert _chat(wa, 1, "vu de tous, gardé de personne", tid)["type"] == "ack"
        r = _admin(srv, "POST", f"/api/admin/players/{bob.id}/mute", json={"minutes": 5})
        assert r.status_code == 200, r.text
        until = datetime.fromisoformat(r.json()["until"])
        with srv.ws(bob) as wb:
            wb.request({"type": "subscribe", "table": tid})
            shown = _history(wb, tid)
            assert shown["messages"] == []
            assert datetime.fromisoformat(shown["muted_until"]) == until
            wb.request({"type": "lobby_subscribe"})
            lobby = _history(wb, None)
            assert lobby["messages"] == [] and datetime.fromisoformat(lobby["muted_until"]) == until
