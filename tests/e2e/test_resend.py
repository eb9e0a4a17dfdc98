"""A move answered ``conflict`` (the table busy, or the server keeping it changing hands) is sent
again by the page with the same id, and made once: the player sees the move made, no refusal."""

from __future__ import annotations

import json
import re
from typing import Any

from tablee.tables.live import request_key

from .conftest import LiveServer, Pages
from .helpers import create_table, enter, player_id, state, step, toast_text, wait_turn


def test_a_move_answered_conflict_is_sent_again_with_its_id_and_made_once(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    sent: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "act":
                sent.append(msg)
                if len(sent) == 1:
                    # the first move is answered as a table whose server did not answer
                    refusal = {
                        "type": "error",
                        "code": "conflict",
                        "message": "the table's server did not answer; send it again",
                        "id": msg["id"],
                    }
                    ws.send(json.dumps(refusal))
                    return
            to_server.send(message)

        ws.on_message(from_page)

    # the table's socket is /ws?table=ID (the lobby's, before it, /ws)
    page.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    enter(page, server.url, "Rémi")
    create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    before = state(page)
    step(page)
    after = state(page)
    assert int(after["version"]) > int(before["version"])
    assert after["refused"] == before["refused"]  # no refusal shown to the player
    assert len(sent) >= 2 and sent[0] == sent[1]  # the same act, the same id, sent again
    # the server made it once: one row of the table's log holds that move's idempotency key
    first = sent[0]
    key = request_key(player_id(page), first["id"], first["action"], first.get("version"))
    rows = server.run(_log_of(int(page.url.rsplit("/", 1)[1])))
    assert [request for _, request in rows].count(key) == 1


def _log_of(table: int) -> Any:
    async def read(app: Any) -> list[tuple[int, str | None]]:
        from sqlalchemy import text

        async with app.state.store.engine.connect() as conn:
            rows = await conn.execute(
                text("SELECT seq, request FROM actions WHERE table_id = :t ORDER BY seq"),
                {"t": table},
            )
            return [(r[0], r[1]) for r in rows]

    return read


def test_a_hello_the_server_could_not_answer_is_said_again_on_a_new_socket_before_anything_else(
    server: LiveServer, pages: Pages
) -> None:
    """The server could not read the player when the table's socket said hello (its database
    away a moment: ``unavailable``): the page sends nothing else on that socket (a subscription
    there would be a stranger's), opens another after its back-off, says hello again, and the
    player finds their seat and plays."""
    page = pages.new()
    sockets: list[list[dict[str, Any]]] = []

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()
        sent: list[dict[str, Any]] = []
        sockets.append(sent)
        refuse = "table=" in ws.url and not any(s and s[0].get("refused") for s in sockets)

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            sent.append(msg)
            if refuse and msg.get("type") == "hello":
                msg["refused"] = True
                refusal = {
                    "type": "error",
                    "code": "unavailable",
                    "message": "the database did not answer in time: nothing was acknowledged",
                    "id": msg.get("id"),
                }
                ws.send(json.dumps(refusal))
                return
            to_server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    enter(page, server.url, "Hélène")
    create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    before = state(page)
    step(page)
    assert int(state(page)["version"]) > int(before["version"])
    refused = [s for s in sockets if s and s[0].get("refused")]
    assert len(refused) == 1
    assert [m["type"] for m in refused[0]] == ["hello"] and refused[0][0]["id"]
    after = sockets[sockets.index(refused[0]) + 1 :]
    assert after and after[0][0]["type"] == "hello"
    assert toast_text(page) == ""


def test_a_subscription_the_server_could_not_serve_is_sent_again_and_the_table_shows(
    server: LiveServer, pages: Pages
) -> None:
    """The table's subscription answered ``unavailable`` (the server could not load the table:
    its database away a moment): the page sends it again after a back-off, with a new id, and
    the table shows, with no refusal told to the player."""
    page = pages.new()
    subscribes: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "subscribe" and "table=" in ws.url:
                subscribes.append(msg)
                if len(subscribes) == 1:
                    refusal = {
                        "type": "error",
                        "code": "unavailable",
                        "message": "the database did not answer in time: nothing was acknowledged",
                        "id": msg.get("id"),
                    }
                    ws.send(json.dumps(refusal))
                    return
            to_server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    enter(page, server.url, "Félix")
    create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    assert len(subscribes) >= 2
    first, second = subscribes[:2]
    assert first["table"] == second["table"] and first["id"] and first["id"] != second["id"]
    assert toast_text(page) == ""
