"""The lobby's robot level: a robot seat chosen "confirmé" is created so, shown so at the table,
and plays its deal to the end beside the person."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import LiveServer, Pages
from .helpers import enter, token


def test_a_confirme_robot_chosen_in_the_lobby_sits_and_plays(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new()
    enter(page, server.url, "Odile")
    page.click('.game-tile[data-game="belote"]')
    page.click("text=tout en robots")
    # one choice per robot seat, the débutant by default
    expect(page.locator(".robot-levels select")).to_have_count(3)
    page.select_option('select[name="level-2"]', "confirme")
    page.click("#create")
    page.wait_for_url(re.compile(r"#/table/\d+"))
    tid = int(page.url.rsplit("/", 1)[1])
    info = page.request.get(
        f"{server.url}api/tables/{tid}", headers={"Authorization": f"Bearer {token(page)}"}
    ).json()
    assert [s["level"] for s in info["seats"]] == [None, "debutant", "confirme", "debutant"]
    expect(page.locator("#felt")).to_contain_text("Robot 3 confirmé")
