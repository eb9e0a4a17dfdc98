"""Leaving and coming back, in a real browser against the real server: a player leaves a running
game (a robot plays their seat, everyone is told and sees it on the seat), then takes the seat
back from the lobby; a player the timer played for too often is handed to a robot and takes the
seat back with "Reprendre la main". A spectator on a phone watches both. Tables are dealt from
the fixed seed of ``conftest``; the robots play the server's policy."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import LiveServer, Pages, screenshot
from .helpers import create_table, enter, state, step, token, wait_turn

PHONE = (390, 844)


def _seat_sources(server: LiveServer, table: int, seat: int) -> list[str]:
    async def read(app: Any) -> list[str]:
        rows = await app.state.store.actions(table, 1)
        return [r.source for r in rows if r.seat == seat]

    out: list[str] = server.run(read)
    return out


def _watch(pages: Pages, server: LiveServer, table: int, name: str) -> Page:
    """A spectator on a phone, on the table's link."""
    page = pages.new(*PHONE, phone=True)
    enter(page, server.url, name)
    page.goto(f"{server.url}#/table/{table}")
    expect(page.locator("#table.spectator")).to_have_count(1)
    return page


def test_a_player_leaves_a_robot_plays_and_the_player_takes_the_seat_back_from_the_lobby(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new(width=1366, height=768)
    enter(page, server.url, "Léonie")
    table = create_table(page, "barbu")
    watcher = _watch(pages, server, table, "Victor")
    assert wait_turn(page) == "mine"
    step(page)
    assert wait_turn(page) == "mine"
    expect(page.locator("#quit-table")).to_be_visible()
    # leaving asks first; a refusal of the dialog changes nothing
    page.once("dialog", lambda d: d.dismiss())
    page.click("#quit-table")
    expect(page.locator("#stand-in")).to_have_count(0)
    page.once("dialog", lambda d: d.accept())
    page.click("#quit-table")
    # the player: a robot plays for them, the button to come back
    expect(page.locator("#stand-in")).to_contain_text("Vous avez quitté la table")
    expect(page.locator("#take-back")).to_have_text("Reprendre ma place")
    expect(page.locator("#log")).to_contain_text("Vous quittez la table : un robot joue pour vous")
    # everyone else: told, and the seat says it (the person's name, the robot, how long)
    seat = watcher.locator('.seat[data-seat="0"]')
    expect(seat).to_have_class(re.compile(r"\bstand-in\b"))
    expect(seat.locator(".nm")).to_have_text("Léonie (robot)")
    expect(seat.locator(".absent")).to_contain_text("absent depuis")
    expect(watcher.locator("#log")).to_contain_text(
        "Léonie quitte la table : un robot joue pour Léonie jusqu'à son retour."
    )
    # the robot plays her seat: the table moves on without her
    page.wait_for_function(
        "() => document.querySelector('#table').dataset.toAct !== '0'"
        " && document.querySelector('#table').dataset.mine === '0'"
    )
    page.wait_for_timeout(300)
    assert "bot" in _seat_sources(server, table, 0)
    screenshot(page, "stand-in-left-1366")
    screenshot(watcher, "stand-in-left-phone")
    # from the lobby, her table offers the seat back
    page.goto(f"{server.url}#/")
    row = page.locator(f'.table-row[data-table="{table}"]')
    expect(row.locator(".seatname.stand-in")).to_contain_text("Léonie (robot)")
    screenshot(page, "stand-in-lobby-1366")
    row.locator(f'[data-take-back="{table}"]').click()
    page.wait_for_url(re.compile(rf"#/table/{table}$"))
    # once the robot has made the decision it may have had: hers again, told to everyone
    expect(page.locator("#stand-in")).to_have_count(0)
    expect(watcher.locator("#log")).to_contain_text("Léonie reprend sa place.")
    expect(watcher.locator('.seat[data-seat="0"] .nm')).to_have_text("Léonie")
    expect(watcher.locator('.seat[data-seat="0"]')).not_to_have_class(re.compile(r"\bstand-in\b"))
    assert wait_turn(page) == "mine"
    before = len(_seat_sources(server, table, 0))
    step(page)
    sources = _seat_sources(server, table, 0)
    assert sources[before:] == ["player"] and "bot" in sources[:before]
    screenshot(page, "stand-in-back-1366")
    screenshot(watcher, "stand-in-back-phone")


def test_the_timer_playing_twice_hands_the_player_to_a_robot_and_they_take_it_back(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new(width=1366, height=768)
    enter(page, server.url, "Timothée")
    secret = token(page)

    async def make(app: Any) -> int:
        me = await app.state.store.player_by_token(secret)
        live = await app.state.manager.create_table(
            me, "barbu", 4, turn_seconds=1.5, bots=[1, 2, 3], robot_after=2
        )
        return int(live.id)

    table = server.run(make)
    watcher = _watch(pages, server, table, "Wanda")
    page.goto(f"{server.url}#/table/{table}")
    # he lets the timer play twice: a robot takes over, told to everyone
    expect(page.locator("#take-back")).to_have_text("Reprendre la main", timeout=30_000)
    expect(page.locator("#stand-in")).to_contain_text("un robot joue pour vous")
    expect(page.locator("#log")).to_contain_text("Vous n'avez pas joué 2 fois de suite")
    expect(watcher.locator("#log")).to_contain_text(
        "Timothée n'a pas joué 2 fois de suite : un robot joue pour Timothée"
    )
    seat = watcher.locator('.seat[data-seat="0"]')
    expect(seat.locator(".nm")).to_have_text("Timothée (robot)")
    expect(seat.locator(".absent")).to_contain_text("inactif")
    assert _seat_sources(server, table, 0)[:2] == ["timer", "timer"]
    page.wait_for_function("() => document.querySelector('#table').dataset.toAct !== '0'")
    screenshot(page, "stand-in-timeout-1366")
    screenshot(watcher, "stand-in-timeout-phone")
    page.click("#take-back")
    expect(page.locator("#stand-in")).to_have_count(0)
    expect(watcher.locator("#log")).to_contain_text("Timothée reprend sa place.")
    expect(seat.locator(".nm")).to_have_text("Timothée")
    assert wait_turn(page) == "mine"
    before = len(_seat_sources(server, table, 0))
    step(page)
    assert _seat_sources(server, table, 0)[before:] == ["player"]
    assert state(page)["refused"] == "0"
    screenshot(page, "stand-in-timeout-back-1366")


def test_a_player_handed_over_on_a_phone_takes_the_seat_back_by_coming_back(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new(*PHONE, phone=True)
    enter(page, server.url, "Romane")
    secret = token(page)

    async def make(app: Any) -> int:
        me = await app.state.store.player_by_token(secret)
        live = await app.state.manager.create_table(
            me, "barbu", 4, turn_seconds=1.5, bots=[1, 2, 3], robot_after=1
        )
        return int(live.id)

    table = server.run(make)
    page.goto(f"{server.url}#/table/{table}")
    take_back = page.locator("#take-back")
    expect(take_back).to_have_text("Reprendre la main", timeout=30_000)
    expect(take_back).to_be_in_viewport()
    expect(page.locator('.seat[data-seat="0"] .nm')).to_have_text("Romane (robot)")
    page.evaluate("() => scrollTo(0, 0)")
    screenshot(page, "stand-in-timeout-phone-player")
    # she comes back (a reload: a new connection subscribes again): the seat is hers at once,
    # or once the robot has made the decision it has before it
    page.reload()
    expect(page.locator("#stand-in")).to_have_count(0)
    expect(page.locator('.seat[data-seat="0"] .nm')).to_have_text("Romane")
    expect(page.locator("#log")).to_contain_text("Vous reprenez votre place.")
    assert wait_turn(page) == "mine"
    before = len(_seat_sources(server, table, 0))
    step(page)
    sources = _seat_sources(server, table, 0)
    assert sources[0] == "timer" and sources[before:] == ["player"], sources


def test_a_disconnected_player_is_shown_offline_with_how_long(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new(width=1366, height=768)
    enter(page, server.url, "Ophélie")
    table = create_table(page, "barbu", people=[1])
    other = pages.new(*PHONE, phone=True)
    enter(other, server.url, "Gaspard")
    other.goto(f"{server.url}#/table/{table}")
    other.click('[data-join-seat="1"]')
    seat = page.locator('.seat[data-seat="1"]')
    expect(seat.locator(".nm")).to_have_text("Gaspard")
    expect(seat.locator(".absent")).to_have_count(0)
    # Gaspard's page goes away: his seat says so, and for how long, ticking
    other.close()
    expect(seat.locator(".absent")).to_contain_text("hors ligne · absent depuis")
    expect(seat).to_have_class(re.compile(r"\baway\b"))
    first = seat.locator(".absent-for").inner_text()
    page.wait_for_timeout(2200)
    assert seat.locator(".absent-for").inner_text() != first
    screenshot(page, "stand-in-offline-1366")
