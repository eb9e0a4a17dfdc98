"""The variants in the browser (DECISIONS.md, "Variants"): each one chosen in the lobby's form,
then played at a table of robots, at a desk's size and on a phone. The player acts and looks only
when the table waits on them (``helpers.wait_turn``); every table is dealt from the suite's fixed
seed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tablee.games._belote_common import annonces

from .conftest import LiveServer, Pages, screenshot
from .helpers import (
    enter,
    fixed_seed,
    seed_where,
    state,
    step,
    wait_turn,
    wait_version_change,
)

DESK = (1366, 768)
PHONE = (390, 844)


def create_with(
    page: Page, game: str, options: dict[str, bool], target: str | None = None
) -> None:
    """Creates a table of ``game`` from the lobby's form with the boxes of ``options`` ticked
    (and the match's length ``target`` chosen), every other seat a robot; returns once the table
    page shows."""
    page.click(f'.game-tile[data-game="{game}"]')
    if target is not None:
        page.locator("#opt-target").select_option(target)
    for name, on in options.items():
        box = page.locator(f"#opt-{name}")
        expect(box).to_be_visible()
        box.set_checked(on)
    page.click("text=tout en robots")
    page.click("#create")
    page.wait_for_url(re.compile(r"#/table/\d+"))


def play_until_phase(page: Page, phase: str, moves: int = 60) -> None:
    """This player's moves until the table waits on them in ``phase``."""
    for _ in range(moves):
        assert wait_turn(page) == "mine"
        if state(page)["phase"] == phase:
            return
        step(page)
    raise AssertionError(f"never asked to play in phase {phase}")


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])
def test_barbu_au_choix_the_dealer_chooses_the_contract(
    server: LiveServer, pages: Pages, size: tuple[int, int]
) -> None:
    width, height = size
    page = pages.new(width=width, height=height, phone=size == PHONE)
    enter(page, server.url, "Armande")
    page.click('.game-tile[data-game="barbu"]')
    expect(page.locator("label.check", has_text="Barbu au choix")).to_be_visible()
    create_with(page, "barbu", {"choice": True})
    # the robot dealing the first round has chosen; the chip names the contract of 20 rounds
    wait_turn(page)
    expect(page.locator("#contract")).to_contain_text("1/20")
    # the first leader deals the second round, then chooses its contract
    play_until_phase(page, "choose")
    buttons = page.locator('#actions [data-type="choose"]')
    expect(buttons).to_have_count(5)
    expect(page.locator("#actions")).to_contain_text("Pas de dames (20 points par dame)")
    expect(page.locator("#status")).to_contain_text("choisir le contrat")
    screenshot(page, f"barbu-au-choix-choose-{'phone' if size == PHONE else 'desk'}")
    before = state(page)
    page.locator('#actions [data-type="choose"]', has_text="Pas de dames").first.click()
    wait_version_change(page, before["version"], before["refused"])
    expect(page.locator("#contract")).to_contain_text("Pas de dames")
    expect(page.locator(".chosen-left").first).to_be_visible()
    wait_turn(page)
    screenshot(page, f"barbu-au-choix-played-{'phone' if size == PHONE else 'desk'}")


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])
def test_contree_sans_atout_and_tout_atout_bids(
    server: LiveServer, pages: Pages, size: tuple[int, int]
) -> None:
    width, height = size
    where = "phone" if size == PHONE else "desk"
    page = pages.new(width=width, height=height, phone=size == PHONE)
    enter(page, server.url, "Bérénice")
    create_with(page, "contree", {"sa_ta": True})
    assert wait_turn(page) == "mine"
    # the value first, then the trump: the four suits, sans-atout and tout-atout
    page.click('#actions button[data-key="value"][data-value="160"]')
    trumps = page.locator('#actions button[data-key="suit"]')
    expect(trumps).to_have_count(6)
    expect(page.locator('#actions button[data-value="\\"SA\\""]')).to_have_text("sans atout")
    expect(page.locator('#actions button[data-value="\\"TA\\""]')).to_have_text("tout atout")
    screenshot(page, f"contree-sa-ta-bidding-{where}")
    before = state(page)
    page.click('#actions button[data-key="suit"][data-value="\\"TA\\""]')
    wait_version_change(page, before["version"], before["refused"])
    expect(page.locator("#log")).to_contain_text("Bérénice annonce 160 tout atout")
    # robots bid suits only and never above 160: the contract is hers, in tout-atout
    assert wait_turn(page) == "mine"
    assert state(page)["phase"] == "play"
    expect(page.locator("#contract")).to_contain_text("Bérénice, 160 tout atout")
    screenshot(page, f"contree-tout-atout-play-{where}")


def _holds_an_announcement(g: Any, s: Any) -> bool:
    return bool(annonces.find(s.hands[0], 0))


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])
def test_contree_annonces_announced_with_the_first_card_then_shown(
    server: LiveServer, pages: Pages, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    width, height = size
    where = "phone" if size == PHONE else "desk"
    fixed_seed(monkeypatch, seed_where("contree", 4, _holds_an_announcement))
    page = pages.new(width=width, height=height, phone=size == PHONE)
    enter(page, server.url, "Clotilde")
    page.click('.game-tile[data-game="contree"]')
    expect(page.locator("label.check", has_text="Annonces")).to_be_visible()
    create_with(page, "contree", {"annonces": True})
    assert wait_turn(page) == "mine"
    # a contract for Clotilde: 160 in spades (the robots never bid above 160)
    page.click('#actions button[data-key="value"][data-value="160"]')
    before = state(page)
    page.click('#actions button[data-key="suit"][data-value="\\"S\\""]')
    wait_version_change(page, before["version"], before["refused"])
    assert wait_turn(page) == "mine" and state(page)["phase"] == "play"
    # the button names what the hand holds; the prompt says a card alone is passing
    button = page.locator('#actions button[data-type="announce"]')
    expect(button).to_be_visible()
    expect(button).to_contain_text(re.compile(r"Annoncer (tierce|cinquante|cent|carré)"))
    expect(page.locator("#status")).to_contain_text("ou jouez sans annoncer")
    screenshot(page, f"contree-annonces-announce-{where}")
    before = state(page)
    button.click()
    wait_version_change(page, before["version"], before["refused"])
    expect(page.locator("#annonces")).to_contain_text("Clotilde :")
    expect(page.locator("#log")).to_contain_text("Clotilde annonce :")
    # the first card, then the first trick's end: the best side's announcements are shown
    step(page)
    assert wait_turn(page) == "mine"
    expect(page.locator("#annonces")).to_contain_text(re.compile(r"Annonces, \d+ points"))
    expect(page.locator("#log")).to_contain_text("montrent leurs annonces")
    screenshot(page, f"contree-annonces-shown-{where}")


def test_belote_lobby_offers_the_annonces_and_matches_of_501_or_1000_points(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new(width=DESK[0], height=DESK[1])
    enter(page, server.url, "Dieudonné")
    page.click('.game-tile[data-game="belote"]')
    choices = page.locator("#opt-target option").all_inner_texts()
    assert choices[:3] == ["une donne", "501 points", "1000 points"]
    expect(page.locator("label.check", has_text="Annonces")).to_be_visible()
    screenshot(page, "belote-variants-lobby-desk")
    create_with(page, "belote", {"annonces": True}, target="1000")
    assert wait_turn(page) == "mine"
    expect(page.locator("#scores h3")).to_contain_text("1000")
