"""A rematch moves the first deal on one seat (Contrecarte: one deal per game, so the first player
of every game would otherwise be seat 0), and the store rebuilds a rematch's game exactly: in
another process, after a restart, and in the admin's export of every game."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from tablee.cli import replay_file
from tablee.export import state_digest
from tablee.games import get_game, replay
from tablee.store import PlayerRecord, Store
from tablee.tables import TableManager
from tablee.tables.admin import export
from tests.serverkit import Database, OtherProcesses

GAME = get_game("contrecarte")


@pytest.fixture
async def stores(database: Database) -> AsyncIterator[tuple[list[Store], list[PlayerRecord]]]:
    """Three stores on one database: three processes (the third one starts later)."""
    out = [Store(database.url, database.schema) for _ in range(3)]
    await out[0].migrate()
    players = [(await out[0].create_player(name))[0] for name in ("Alice", "Bob", "Carol")]
    yield out, players
    for s in out:
        await s.close()


def _canonical(state: Any) -> str:
    return json.dumps(GAME.to_json(state), sort_keys=True)


async def _play_to_the_end(m: TableManager, tid: int, players: list[PlayerRecord]) -> Any:
    """Each seat's own move (the timeout's choice), made as its player, until the game ends."""
    live = await m.get(tid)
    while live.rec.status == "playing":
        seat = live.to_act()[0]
        await m.act(players[seat], tid, GAME.auto_action(live.state, seat))
    return live.state


async def test_a_rematch_deals_from_the_next_seat_and_every_process_rebuilds_it(
    stores: tuple[list[Store], list[PlayerRecord]], tmp_path: Path, capsys: Any
) -> None:
    (s1, s2, s3), players = stores
    alice, bob, carol = players
    m1 = TableManager(s1, broker=OtherProcesses(), bot_delay=0)
    m2 = TableManager(s2, broker=OtherProcesses(), bot_delay=0)
    live = await m1.create_table(alice, "contrecarte", 3, seed=5)
    tid = live.id
    await m1.join(bob, tid)
    await m2.join(carol, tid)
    await m1.catch_up(live)
    assert GAME.view(live.state, None)["dealer"] == 2 and live.to_act() == (0,)

    finals = [await _play_to_the_end(m1, tid, players)]
    first_players = [0]
    for game_no in (2, 3, 4):
        # the votes come through both processes; the last one deals the new game
        await m1.rematch(alice, tid)
        await m2.rematch(bob, tid)
        await m1.rematch(carol, tid)
        live = await m1.get(tid)
        assert live.rec.game_no == game_no and live.rec.status == "playing"
        dealer = (2 + game_no - 1) % 3
        assert live.rec.options["first_dealer"] == dealer
        assert GAME.view(live.state, None)["dealer"] == dealer
        first_players.append(live.to_act()[0])
        # a few moves by the other process, which catches up with the rematch first
        other = await m2.get(tid)
        for _ in range(3):
            seat = other.to_act()[0]
            await m2.act(players[seat], tid, GAME.auto_action(other.state, seat))
        await m1.catch_up(live)
        assert _canonical(live.state) == _canonical(other.state)
        # a process started now rebuilds it from the store alone
        m3 = TableManager(s3, broker=OtherProcesses(), bot_delay=0)
        fresh = await m3.get(tid)
        assert fresh.rec.options == live.rec.options and fresh.seq == live.seq == 3
        assert _canonical(fresh.state) == _canonical(live.state)
        await m3.close()
        rec = await s1.table(tid)
        log = await s1.actions(tid, game_no)
        again = replay(GAME, 3, rec.options, rec.seed, [(a.seat, a.action) for a in log])
        assert _canonical(again) == _canonical(live.state)
        finals.append(await _play_to_the_end(m1, tid, players))
    # seat 0, then each seat in turn: the house's dealer rotation, game after game
    assert first_players == [0, 1, 2, 0]

    # the export rebuilds every game with the options it was dealt with, and so does
    # ``tablee replay`` (the table's own options now are the last game's)
    data = await export(m1, tid)
    assert [g["options"]["first_dealer"] for g in data["games"]] == [None, 0, 1, 2]
    assert [g["final_state_sha256"] for g in data["games"]] == [
        state_digest(GAME, s) for s in finals
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    capsys.readouterr()
    assert replay_file(str(path)) == 0
    assert capsys.readouterr().out.count("final state matches the table's") == 4
    # a game finished before each game's options were kept was dealt by the default dealer
    async with s1.engine.begin() as conn:
        await conn.execute(text("UPDATE results SET options = NULL WHERE game_no = 1"))
    data = await export(m1, tid)
    assert data["games"][0]["options"] == {}
    assert data["games"][0]["final_state_sha256"] == state_digest(GAME, finals[0])
    await m1.close()
    await m2.close()
