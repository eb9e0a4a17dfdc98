"""The state messages ``test_render_modules`` feeds to the client's parts (``states/*.json``) are
recorded from real tables, played here the way a person would (fixed seeds, so the same games
every run). The test checks that the recordings still have the shape of what the server sends
today (the same keys in the message, its view and its table info); with
``TABLEE_RECORD_STATES=1`` it records them anew instead."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.serverkit import keep_info

from .conftest import LiveServer, Pages
from .helpers import create_table, enter, play, state, step, wait_turn

OUT = Path(__file__).parent / "states"
RECORD = os.environ.get("TABLEE_RECORD_STATES") == "1"


def record(page: Page) -> list[dict[str, Any]]:
    """Every state message the page receives, from now on."""
    frames: list[dict[str, Any]] = []
    infos: dict[int, dict[str, Any]] = {}

    def on_ws(ws: Any) -> None:
        def got(payload: Any) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "state":
                keep_info(msg, infos)
                frames.append(msg)

        ws.on("framereceived", got)

    page.on("websocket", on_ws)
    return frames


def shown(page: Page, frames: list[dict[str, Any]]) -> dict[str, Any]:
    v = int(state(page)["version"])
    return [f for f in frames if f["version"] == v][-1]


def me(page: Page) -> dict[str, Any]:
    p: dict[str, Any] = page.evaluate("JSON.parse(localStorage.getItem('tablee.player'))")
    return {"id": p["id"], "name": p["name"]}


def shape(msg: dict[str, Any]) -> dict[str, list[str]]:
    return {
        # ``journal`` comes with the answer to a subscription only
        "message": sorted(k for k in msg if k != "journal"),
        "view": sorted(msg["view"] or {}),
        "info": sorted(msg["info"]),
    }


def save(name: str, player: dict[str, Any], states: list[dict[str, Any]]) -> None:
    """Records the states, or checks that the recorded ones have the shape of these."""
    file = OUT / f"{name}.json"
    if RECORD:
        OUT.mkdir(exist_ok=True)
        data = {"player": player, "states": states}
        file.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        return
    kept = json.loads(file.read_text())["states"]
    for old, new in ((kept[0], states[0]), (kept[-1], states[-1])):
        assert shape(old) == shape(new), f"{name}: record it again (TABLEE_RECORD_STATES=1)"


def test_the_recorded_states_have_the_shape_the_server_sends(
    server: LiveServer, pages: Pages
) -> None:
    from tablee.tables import admin

    page = pages.new()
    frames = record(page)
    enter(page, server.url, "Alice")
    create_table(page, "belote")
    assert wait_turn(page) == "mine" and state(page)["phase"] == "bidding"
    save("belote-bidding", me(page), [shown(page, frames)])
    # the bidding then the first tricks: every state in order
    while wait_turn(page) == "mine" and state(page)["phase"] == "bidding":
        step(page, prefer=['button[data-type="take"]'])
    play(page, 2)
    wait_turn(page)
    save("belote-game", me(page), [f for f in frames if f["table"] == shown(page, frames)["table"]])

    frames.clear()
    page.goto(server.url)
    create_table(page, "tarot", players=4)
    while True:
        assert wait_turn(page) == "mine"
        s = shown(page, frames)
        if s["view"]["phase"] == "play" and s["view"]["trick"]:
            break
        step(page)
    save("tarot-play", me(page), [s])

    page.goto(server.url)
    frames.clear()
    table = create_table(page, "contrecarte", players=2)
    assert wait_turn(page) == "mine"
    watcher = pages.new()
    wframes = record(watcher)
    enter(watcher, server.url, "Quentin")
    watcher.goto(f"{server.url}#/table/{table}")
    expect(watcher.locator("#felt .seat")).to_have_count(2)
    server.run(lambda app: admin.set_timer(app.state.manager, table, 0.3))
    for p in (page, watcher):
        p.wait_for_function("() => document.querySelector('#table')?.dataset.over === '1'")
    save("contrecarte-over", me(page), [shown(page, frames)])
    save("contrecarte-over-spectator", me(watcher), [shown(watcher, wframes)])

    page.goto(server.url)
    frames.clear()
    create_table(page, "belote", people=[2])
    expect(page.locator(".waiting")).to_contain_text("En attente des joueurs")
    page.wait_for_function("() => document.querySelector('#table')?.dataset.version")
    save("belote-waiting", me(page), [shown(page, frames)])
