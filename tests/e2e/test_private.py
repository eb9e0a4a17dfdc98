"""A private table in the browser: its creator copies the invitation link from the waiting room;
a stranger who types the table's id finds nothing; a friend who opens the link sits down, on a
phone. Screenshots: ``private-waiting-room`` (1366×768), ``private-by-id`` and
``private-invited-phone`` (a phone)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.sync_api import expect

from .conftest import LiveServer, Pages, screenshot
from .helpers import enter, hand


def test_the_creator_copies_the_invitation_link_and_only_the_link_opens_the_table(
    server: LiveServer, pages: Pages
) -> None:
    host = pages.new(1366, 768)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url[:-1])
    enter(host, server.url, "Hortense")
    host.click('.game-tile[data-game="belote"]')
    host.click("text=tout en robots")
    host.click('.seat-choice[data-seat="2"]')  # seat 3 stays for the friend
    host.check("#private")
    host.click("#create")
    host.wait_for_url(re.compile(r"#/table/\d+$"))
    table_id = int(host.url.rsplit("/", 1)[1])
    waiting = host.locator(".waiting")
    expect(waiting).to_contain_text("Table privée : seules les personnes qui ont ce lien")
    field = host.locator("#invite-link")
    expect(field).to_have_value(re.compile(rf"#/table/{table_id}\?invitation=[\w-]{{22,}}$"))
    link = field.input_value()
    host.click("#copy-link")
    expect(host.locator("#toast")).to_contain_text("Lien copié")
    assert host.evaluate("navigator.clipboard.readText()") == link
    screenshot(host, "private-waiting-room")

    # a stranger who walks the ids: the table's own id shows nothing
    friend = pages.new(390, 844, phone=True)
    enter(friend, server.url, "Firmin")
    friend.goto(f"{server.url}#/table/{table_id}")
    expect(friend.locator(".center-msg")).to_contain_text("Table introuvable")
    screenshot(friend, "private-by-id")
    assert not friend.locator("[data-join-seat]").count()

    # the link opens it: the friend sits down, the game starts for both
    friend.goto(link)
    expect(friend.locator(".waiting")).to_contain_text("En attente des joueurs")
    no_scroll = friend.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
    assert no_scroll, "the waiting room scrolls sideways on a phone"
    screenshot(friend, "private-invited-phone")
    friend.locator('[data-join-seat="2"]').click()
    expect(friend.locator("#hand .card").first).to_be_visible()
    expect(host.locator("#hand .card").first).to_be_visible()
    assert not set(hand(friend)) & set(hand(host))
    # the browser logs the 404 the table's id was answered: that line only
    pages.errors[:] = [e for e in pages.errors if "status of 404" not in e]


def test_a_waiting_table_nobody_came_to_says_the_server_closed_it(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new(1366, 768)
    enter(page, server.url, "Solange")
    page.click('.game-tile[data-game="belote"]')
    page.click("#create")
    page.wait_for_url(re.compile(r"#/table/\d+$"))
    table_id = int(page.url.rsplit("/", 1)[1])
    expect(page.locator(".waiting")).to_contain_text("En attente des joueurs")

    async def expire(app: Any) -> list[int]:
        from sqlalchemy import update

        from tablee.store import models as m

        async with app.state.store.engine.begin() as conn:
            old = datetime.now(UTC) - timedelta(hours=3)
            await conn.execute(update(m.Table).where(m.Table.id == table_id).values(updated_at=old))
        closed: list[int] = await app.state.manager.expire_waiting(3600)
        return closed

    assert table_id in server.run(expire)
    closed = page.locator("#closed")
    expect(closed.locator("h2")).to_have_text("Table fermée")
    expect(closed).to_contain_text("Personne n'est venu s'asseoir")
    expect(page.locator("#status")).to_have_text("Table fermée.")
    screenshot(page, "waiting-table-expired")
