"""The journal survives a reload: the page subscribes again and the server sends the current
deal's events as its seat saw them, from which the page writes the same journal as before — for a
player (with their own private draws, "Vous piochez 7♥") and for a spectator (without any)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import LiveServer, Pages, screenshot
from .helpers import create_table, enter, play, state, wait_turn


def journal(page: Page) -> list[str]:
    lines: list[str] = page.locator("#log li").all_inner_texts()
    return lines


def wait_drawn(page: Page, version: str) -> None:
    page.wait_for_function(
        "v => document.querySelector('#table')?.dataset.version === v", arg=version
    )


def test_the_journal_after_a_reload_is_the_journal_before_it(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    enter(page, server.url, "Inès")
    table = create_table(page, "yaniv", players=3)
    # a spectator watches from the start
    watcher = pages.new()
    enter(watcher, server.url, "Joël")
    watcher.goto(f"{server.url}#/table/{table}")
    expect(watcher.locator(".badge.spect")).to_be_visible()
    # (the server sends the current deal's events: the reload comes within the first round)
    play(page, 4)
    assert wait_turn(page) == "mine"
    version = state(page)["version"]
    wait_drawn(watcher, version)

    mine, theirs = journal(page), journal(watcher)
    own_draws = [line for line in mine if line.startswith("Vous piochez")]
    assert len(mine) >= 10 and own_draws, mine
    assert not [line for line in mine if line.startswith("Fin de la manche")], mine
    # the robots' draws from the stock read "Robot 2 pioche.", never with the card
    assert any(line.endswith(" pioche.") for line in mine), mine
    assert not [line for line in theirs if line.startswith("Vous piochez")], theirs
    assert len(theirs) == len(mine)

    page.reload()
    assert wait_turn(page) == "mine"
    watcher.reload()
    wait_drawn(watcher, version)
    expect(page.locator("#log li")).to_have_count(len(mine))
    expect(watcher.locator("#log li")).to_have_count(len(theirs))
    assert journal(page) == mine
    assert journal(watcher) == theirs
    screenshot(page, "journal-after-reload")
    screenshot(watcher, "journal-after-reload-spectator")

    # a late spectator, who never watched, gets the same journal as the first one
    late = pages.new()
    enter(late, server.url, "Karine")
    late.goto(f"{server.url}#/table/{table}")
    wait_drawn(late, version)
    expect(late.locator("#log li")).to_have_count(len(theirs))
    assert journal(late) == theirs
