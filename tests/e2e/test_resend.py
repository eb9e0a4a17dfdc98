"""What the server could not do is asked again by the page, and made once: a move answered
``conflict`` (the table busy, or the server keeping it changing hands) is sent again with the same
id; a ``hello`` or a subscription answered ``unavailable`` (the database away a moment) is said
again. The player sees the table and their move made, no refusal."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from tablee.tables.live import request_key

from .conftest import LiveServer, Pages
from .helpers import create_table, enter, player_id, state, step, toast_text, wait_turn


@dataclass
class Sent:
    """What the page sent, socket by socket (each socket's URL and messages), and what the
    test answered in the server's place."""

    sockets: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for _, msgs in self.sockets for m in msgs if m.get("type") == kind]


def answering(page: Page, refuse: Callable[[str, dict[str, Any], Sent], str | None]) -> Sent:
    """The page's sockets go through the test: ``refuse(url, message, sent)`` names the error
    code the test answers a message with, in the server's place (the message goes no further),
    or None to pass it on."""
    sent = Sent()

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()
        msgs: list[dict[str, Any]] = []
        sent.sockets.append((ws.url, msgs))

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            msgs.append(msg)
            code = refuse(ws.url, msg, sent)
            if code is None:
                to_server.send(message)
                return
            sent.refused.append(msg)
            words = "the database or the table's server did not answer in time; send it again"
            answer = {"type": "error", "code": code, "message": words, "id": msg.get("id")}
            ws.send(json.dumps(answer))

        ws.on_message(from_page)

    # the table's socket is /ws?table=ID (the lobby's, before it, /ws)
    page.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    return sent


def test_a_move_answered_conflict_is_sent_again_with_its_id_and_made_once(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    sent = answering(
        page, lambda _, msg, sent: "conflict" if msg["type"] == "act" and not sent.refused else None
    )
    enter(page, server.url, "Rémi")
    create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    before = state(page)
    step(page)
    after = state(page)
    assert int(after["version"]) > int(before["version"])
    assert after["refused"] == before["refused"]  # no refusal shown to the player
    acts = sent.of("act")
    assert len(acts) >= 2 and acts[0] == acts[1]  # the same act, the same id, sent again
    # the server made it once: one row of the table's log holds that move's idempotency key
    first = acts[0]
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


def _first_at_the_table(kind: str) -> Callable[[str, dict[str, Any], Sent], str | None]:
    def refuse(url: str, msg: dict[str, Any], sent: Sent) -> str | None:
        first = "table=" in url and msg["type"] == kind and not sent.refused
        return "unavailable" if first else None

    return refuse


def test_a_hello_the_server_could_not_answer_is_said_again_on_a_new_socket_before_anything_else(
    server: LiveServer, pages: Pages
) -> None:
    """The server could not read the player when the table's socket said hello (its database
    away a moment: ``unavailable``): the page sends nothing else on that socket (a subscription
    there would be a stranger's), opens another after its back-off, says hello again, and the
    player finds their seat and plays."""
    page = pages.new()
    sent = answering(page, _first_at_the_table("hello"))
    enter(page, server.url, "Hélène")
    create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    before = state(page)
    step(page)
    assert int(state(page)["version"]) > int(before["version"])
    assert len(sent.refused) == 1 and sent.refused[0]["id"]
    at = next(i for i, (_, msgs) in enumerate(sent.sockets) if sent.refused[0] in msgs)
    assert sent.sockets[at][1] == sent.refused  # nothing but the hello on that socket
    after = sent.sockets[at + 1 :]
    assert after and after[0][1][0]["type"] == "hello"
    assert toast_text(page) == ""


def test_a_subscription_the_server_could_not_serve_is_sent_again_and_the_table_shows(
    server: LiveServer, pages: Pages
) -> None:
    """The table's subscription answered ``unavailable`` (the server could not load the table:
    its database away a moment): the page sends it again after a back-off, with a new id, and
    the table shows, with no refusal told to the player."""
    page = pages.new()
    sent = answering(page, _first_at_the_table("subscribe"))
    enter(page, server.url, "Félix")
    create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    assert len(sent.refused) == 1
    subscribes = sent.of("subscribe")
    at = subscribes.index(sent.refused[0])
    first, second = subscribes[at], subscribes[at + 1]
    assert first["table"] == second["table"] and first["id"] and first["id"] != second["id"]
    assert toast_text(page) == ""


def test_the_lobby_chat_the_server_could_not_serve_is_subscribed_again_and_its_messages_show(
    server: LiveServer, pages: Pages
) -> None:
    """The lobby's chat subscription answered ``unavailable`` (its last messages could not be
    read): the page subscribes again after a back-off, and a message said in the lobby then
    reaches it, with no refusal told to the player."""
    page = pages.new()
    sent = answering(
        page,
        lambda _, msg, sent: (
            "unavailable" if msg["type"] == "lobby_subscribe" and not sent.refused else None
        ),
    )
    enter(page, server.url, "Gisèle")
    expect(page.locator("#lobby-chat")).to_be_visible()
    for _ in range(50):  # the back-off: 0.5 s
        if len(sent.of("lobby_subscribe")) >= 2:
            break
        page.wait_for_timeout(100)
    first, second = sent.of("lobby_subscribe")[:2]
    assert sent.refused == [first] and first["id"] and first["id"] != second["id"]
    page.fill("#lobby-chat .chat-input", "Bonsoir le salon")
    page.click("#lobby-chat .chat-form button[type=submit]")
    expect(page.locator("#lobby-chat .chat-line", has_text="Bonsoir le salon")).to_be_visible()
    assert toast_text(page) == ""
