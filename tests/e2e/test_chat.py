"""Chat in a real browser (issue 20): two people at a belote table and two spectators write both
ways, a quick phrase shows over its seat, a spectator's message during the deal reaches the other
spectator and not the players until the deal is over, the last messages come back after a
reload; and hostile text (in a message, in a player's name) is shown as text, never run."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import httpx
import websockets
from playwright.sync_api import Page, expect

from .conftest import LiveServer, Pages, screenshot
from .helpers import create_table, enter, token


def _chat_line(page: Page, text: str) -> Any:
    return page.locator("#table-chat .chat-line", has_text=text)


def _say(page: Page, text: str) -> None:
    page.fill("#table-chat .chat-input", text)
    page.click("#table-chat .chat-form button[type=submit]")


async def _play_deal(url: str, tid: int, tokens: list[str]) -> None:
    """The two people play their first legal action whenever the table waits on them, until a
    state tells the end of a deal."""
    done = asyncio.Event()
    conns = [await websockets.connect(url) for _ in tokens]

    async def play(ws: Any, tok: str) -> None:
        await ws.send(json.dumps({"type": "hello", "token": tok}))
        await ws.send(json.dumps({"type": "subscribe", "table": tid}))
        async for raw in ws:
            f = json.loads(raw)
            if f["type"] != "state":
                continue
            if any(e.get("type") == "deal_end" for e in f["events"]):
                done.set()
                return
            seat = (f["view"] or {}).get("seat")
            if f["legal"] and seat in f["to_act"]:
                act = {
                    "type": "act",
                    "table": tid,
                    "action": f["legal"][0],
                    "version": f["version"],
                    "id": f"{seat}-{f['version']}",
                }
                await ws.send(json.dumps(act))

    tasks = [asyncio.create_task(play(ws, t)) for ws, t in zip(conns, tokens, strict=True)]
    try:
        await asyncio.wait_for(done.wait(), 120)
    finally:
        for task in tasks:
            task.cancel()
        for ws in conns:
            await ws.close()


def test_two_people_and_two_spectators_talk_at_a_belote_table(
    server: LiveServer, pages: Pages
) -> None:
    alice = pages.new(width=1366, height=768)
    bob = pages.new(width=1366, height=768)
    carol = pages.new(width=1366, height=768)
    dave = pages.new(width=390, height=844, phone=True)
    for page, name in ((alice, "Alice"), (bob, "Bob"), (carol, "Carol"), (dave, "Dave")):
        enter(page, server.url, name)
    tid = create_table(alice, "belote", people=[2])
    bob.goto(f"{server.url}#/table/{tid}")
    bob.click('[data-join-seat="2"]')
    for page in (alice, bob):
        expect(page.locator("#table")).to_have_attribute("data-phase", "bidding")
    for page in (carol, dave):
        page.goto(f"{server.url}#/table/{tid}")
        expect(page.locator("#table-chat")).to_be_visible()

    # both ways between the players, seen by the spectators too
    _say(alice, "Bonjour partenaire")
    for page in (alice, bob, carol, dave):
        expect(_chat_line(page, "Bonjour partenaire")).to_be_visible()
    bob.click('#table-chat .chip.phrase[data-phrase="bien_joue"]')
    for page in (alice, bob, carol, dave):
        expect(_chat_line(page, "Bien joué !")).to_be_visible()
    # the quick phrase as a bubble over Bob's seat (seat 2) on the others' felts
    expect(alice.locator('#felt .seat[data-seat="2"] .chat-bubble')).to_have_text("Bien joué !")
    expect(carol.locator('#felt .seat[data-seat="2"] .chat-bubble')).to_have_text("Bien joué !")
    screenshot(alice, "chat-table-1366")

    # no coaching from the gallery: Carol's tip reaches Dave, not the players, during the deal
    _say(carol, "Alice, joue atout !")
    expect(_chat_line(dave, "Alice, joue atout !")).to_be_visible()
    expect(_chat_line(dave, "Alice, joue atout !")).to_contain_text("entre spectateurs")
    _say(dave, "Chut, ils vont t'entendre")  # a phone: free text works as well
    expect(_chat_line(carol, "Chut, ils vont t'entendre")).to_be_visible()
    _say(bob, "On y va")  # a later message of a player: the tip would have come before it
    for page in (alice, bob, carol, dave):
        expect(_chat_line(page, "On y va")).to_be_visible()
    for page in (alice, bob):
        expect(_chat_line(page, "joue atout")).to_have_count(0)
        expect(_chat_line(page, "Chut")).to_have_count(0)
    screenshot(dave, "chat-table-phone-spectator")

    # the deal is played out: then the players see what the spectators said
    ws_url = server.url.replace("http://", "ws://") + "ws"
    tokens = [token(alice), token(bob)]
    thread = threading.Thread(target=lambda: asyncio.run(_play_deal(ws_url, tid, tokens)))
    thread.start()
    thread.join(150)
    assert not thread.is_alive(), "the deal did not end"
    for page in (alice, bob):
        expect(_chat_line(page, "Alice, joue atout !")).to_be_visible(timeout=20_000)
        expect(_chat_line(page, "Chut, ils vont t'entendre")).to_be_visible()

    # a reload: the last messages are there again
    bob.reload()
    for text in ("Bonjour partenaire", "Bien joué !", "Alice, joue atout !", "On y va"):
        expect(_chat_line(bob, text)).to_be_visible()
    screenshot(bob, "chat-table-after-reload-1366")


XSS_NAME = "<img src=x onerror=xssRan=1>"
XSS_TEXT = '<script>window.xssRan=2</script><img src=x onerror="window.xssRan=3"><b>gras</b>'


def test_hostile_text_in_a_message_and_a_name_is_shown_as_text(
    server: LiveServer, pages: Pages
) -> None:
    eve = pages.new(width=1366, height=768)
    frank = pages.new(width=390, height=844, phone=True)
    dialogs: list[str] = []
    for page, name in ((eve, "Evelyne"), (frank, "Franck")):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        enter(page, server.url, name)
    # a name the sign-up refuses, as a row written by hand (or an older server) may hold
    eve_id = int(eve.evaluate("JSON.parse(localStorage.getItem('tablee.player')).id"))

    async def rename(app: Any) -> None:
        from sqlalchemy import text

        async with app.state.store.engine.begin() as conn:
            await conn.execute(
                text("UPDATE players SET name = :n WHERE id = :i"), {"n": XSS_NAME, "i": eve_id}
            )

    server.run(rename)
    eve.reload()  # a new connection: its hello reads the name
    for page in (eve, frank):
        expect(page.locator("#lobby-chat")).to_be_visible()
    eve.fill("#lobby-chat .chat-input", XSS_TEXT)
    eve.click("#lobby-chat .chat-form button[type=submit]")
    for page in (eve, frank):
        line = page.locator("#lobby-chat .chat-line", has_text="window.xssRan=2")
        expect(line).to_be_visible()
        expect(line.locator(".chat-text")).to_have_text(XSS_TEXT)
        expect(line.locator(".chat-author")).to_contain_text(XSS_NAME)
        assert line.locator("script, img, b").count() == 0
        assert page.evaluate("window.xssRan") is None, "a script of the chat ran"
    assert dialogs == []
    screenshot(frank, "chat-lobby-phone")
    screenshot(eve, "chat-lobby-1366")
    # the REST side said nothing else: the name is refused at sign-up
    r = httpx.post(server.url + "api/players", json={"name": XSS_NAME})
    assert r.status_code == 422
