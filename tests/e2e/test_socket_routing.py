"""The page's socket names the table it shows, `/ws?table=ID`, for the proxy in front of several
server processes to send every socket of a table to one of them (deploy/nginx.conf,
docs/scaling.md): a page opened at a table connects once, with its table; a page opened in the
lobby names none; a page that moves to another table connects again with it, its moves not
answered yet are sent again on the new socket (and made once), the game plays on, and the
page shows no reconnection on the way."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, WebSocket, expect

from tablee.tables.live import request_key

from .conftest import LiveServer, Pages, screenshot
from .helpers import (
    _DEFAULT_ORDER,
    _first,
    create_table,
    enter,
    player_id,
    state,
    step,
    toast_text,
    wait_turn,
)

#: Records, once `window.tableeWatch` is set, every moment the page looked disconnected: the
#: table's "connexion perdue" banner (`.offline`) or the header's connection state not "open".
_WATCH_FLASHES = """
window.tableeFlashes = [];
new MutationObserver((changes) => {
  if (!window.tableeWatch) return;
  for (const c of changes) {
    const el = c.target;
    if (el.classList?.contains("offline")) window.tableeFlashes.push("offline banner");
    if (el.id === "conn" && !el.classList.contains("open")) window.tableeFlashes.push(el.className);
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"] });
"""


def _ws_url(server: LiveServer, table: int | None = None) -> str:
    base = server.url.replace("http://", "ws://") + "ws"
    return base if table is None else f"{base}?table={table}"


def _go(page: Page, hash_: str) -> None:
    page.evaluate("(h) => { location.hash = h; }", hash_)


def test_the_socket_names_the_table_the_page_shows_and_connects_once(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    enter(page, server.url, "Anselme")
    # the lobby: no table
    page.wait_for_function("() => document.querySelector('#conn').classList.contains('open')")
    assert [ws.url for ws in sockets] == [_ws_url(server)]
    table = create_table(page, "contrecarte", 2)
    # at the table: the socket is opened again with its key, the lobby's is closed
    page.wait_for_function("() => document.querySelector('#conn').classList.contains('open')")
    assert wait_turn(page) == "mine"
    assert [ws.url for ws in sockets] == [_ws_url(server), _ws_url(server, table)]
    assert sockets[0].is_closed() and not sockets[1].is_closed()

    # a page opened at the table: one socket, with its key, from the start, and it stays
    sockets.clear()
    page.reload()
    assert wait_turn(page) == "mine"
    step(page)
    page.wait_for_timeout(300)
    assert [ws.url for ws in sockets] == [_ws_url(server, table)]
    assert not sockets[0].is_closed()

    # back in the lobby the socket stays where it is; back at the same table, too
    _go(page, "#/")
    expect(page.locator(".game-tile").first).to_be_visible()
    _go(page, f"#/table/{table}")
    assert wait_turn(page) == "mine"
    step(page)
    assert [ws.url for ws in sockets] == [_ws_url(server, table)]

    # a page opened in the lobby names no table
    _go(page, "#/")
    expect(page.locator(".game-tile").first).to_be_visible()
    sockets.clear()
    page.reload()
    expect(page.locator(".game-tile").first).to_be_visible()
    page.wait_for_function("() => document.querySelector('#conn').classList.contains('open')")
    assert [ws.url for ws in sockets] == [_ws_url(server)]


def _send_a_move(page: Page) -> None:
    """Clicks a move of this player (whose turn it is) without waiting for its answer."""
    for _ in range(8):
        target = _first(page, _DEFAULT_ORDER)
        assert target is not None, page.inner_html("#actions")[:600]
        target.click()
        if state(page)["busy"] == "1":
            return
    raise AssertionError("no move was sent")


def test_moving_to_another_table_reconnects_with_it_and_loses_no_move(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new(width=1366, height=768)
    page.add_init_script(_WATCH_FLASHES)
    acts: list[tuple[str, dict[str, Any]]] = []
    acks: list[tuple[str, Any]] = []
    hold: dict[str, Any] = {"on": False, "held": None}

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "act":
                acts.append((ws.url, msg))
                if hold["on"] and hold["held"] is None:
                    hold["held"] = msg  # lost on the way: the server never gets it here
                    return
            to_server.send(message)

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "ack":
                acks.append((ws.url, msg.get("id")))
            ws.send(message)

        ws.on_message(from_page)
        to_server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    enter(page, server.url, "Bérénice")
    first = create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    _go(page, "#/")
    expect(page.locator(".game-tile").first).to_be_visible()
    second = create_table(page, "contrecarte", 2)
    assert wait_turn(page) == "mine"
    before = state(page)

    # a move at the second table, lost on the way; the page moves to the first table meanwhile
    hold["on"] = True
    _send_a_move(page)
    assert hold["held"] is not None
    page.evaluate("() => { window.tableeWatch = true; }")
    _go(page, f"#/table/{first}")
    assert wait_turn(page) == "mine"
    held = hold["held"]
    # sent again, the same, on the first table's socket, and answered there
    _wait(page, lambda: (_ws_url(server, first), held["id"]) in acks)
    resent = [url for url, msg in acts if msg == held]
    assert resent == [_ws_url(server, second), _ws_url(server, first)], acts

    # the game plays on at the first table: a move made and acknowledged on its socket
    step(page)
    assert acts[-1][0] == _ws_url(server, first)
    assert (_ws_url(server, first), acts[-1][1]["id"]) in acks

    # back at the second table: the move lost on the way was made, once, and not refused
    _go(page, f"#/table/{second}")
    assert wait_turn(page) == "mine"
    after = state(page)
    assert int(after["version"]) > int(before["version"])
    assert after["refused"] == before["refused"]
    key = request_key(player_id(page), held["id"], held["action"], held.get("version"))
    assert [request for _, request in server.run(_log_of(second))].count(key) == 1
    step(page)
    screenshot(page, "socket-moved-to-table-1366")

    # never a banner, nor a header saying the connection was lost, nor an error
    assert page.evaluate("() => window.tableeFlashes") == []
    expect(page.locator("#table")).not_to_have_class(re.compile("offline"))
    assert toast_text(page) == ""
    # and the last move went on the second table's own socket
    assert acts[-1][0] == _ws_url(server, second)


def _wait(page: Page, ok: Any, timeout_ms: int = 10_000) -> None:
    for _ in range(timeout_ms // 50):
        if ok():
            return
        page.wait_for_timeout(50)
    raise AssertionError("timed out")


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
