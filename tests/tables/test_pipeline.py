"""The one commit path: what a move asks of the game, and that every kind of change goes through
it (versions one apart, each told to the subscribers)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tablee.games import get_game
from tablee.store import Store
from tablee.tables import TableManager
from tablee.tables import admin as table_admin
from tests.serverkit import Database, ToyGame, migrated


class Socket:
    def __init__(self, player_id: int | None) -> None:
        self.player_id = player_id
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


@pytest.fixture
async def store(sqlite_db: Database, toy_game: ToyGame) -> AsyncIterator[Store]:
    async for s in migrated(sqlite_db):
        yield s


async def test_a_move_asks_the_game_for_to_act_and_each_seats_legal_actions_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game("toy")
    asked: Counter[str] = Counter()
    for name in ("to_act", "legal_actions"):
        real = getattr(game, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            asked[_name] += 1
            return _real(*args)

        monkeypatch.setattr(game, name, counted)
    m = TableManager(store, bot_delay=3600)
    players = [(await store.create_player(n))[0] for n in ("Alice", "Bob", "Carol")]
    live = await m.create_table(players[0], "toy", 3, {"hand": 4}, turn_seconds=60, seed=4)
    for p in players[1:]:
        await m.join(p, live.id)
    # every seat watched twice (two tabs), and a spectator
    subs = [Socket(p.id) for p in players for _ in range(2)] + [Socket(None)]
    for sub in subs:
        await m.subscribe(sub, live.id)
    moves = 0
    while live.rec.status == "playing":
        asked.clear()
        seat = live.to_act()[0]
        await m.act(players[seat], live.id, live.legal(seat)[0])
        moves += 1
        if live.rec.status == "playing":
            # the new state's seats to act, once; each seat's legal actions, once
            assert asked == {"to_act": 1, "legal_actions": 3}, (moves, asked)
        else:
            assert asked == {}, asked  # the last move: nobody to act, nothing legal
    assert moves == 12
    assert all(s.sent[-1]["over"] for s in subs)
    await m.close()


async def test_every_kind_of_change_is_one_version_told_to_every_subscriber(
    store: Store,
) -> None:
    m = TableManager(store, bot_delay=3600)
    alice, bob = [(await store.create_player(n))[0] for n in ("Alice", "Bob")]
    live = await m.create_table(alice, "toy", 2, {"hand": 2})
    watcher = Socket(None)
    await m.subscribe(watcher, live.id)
    start = live.rec.version
    await m.join(bob, live.id)  # joins, and the game starts
    await m.act(alice, live.id, live.legal(0)[0])
    await table_admin.set_timer(m, live.id, 30)
    await table_admin.kick(m, live.id, 1, "away", "admin")  # a bot takes Bob's seat
    await table_admin.close(m, live.id, "closing time", "admin")
    versions = [f["version"] for f in watcher.sent]
    assert versions == list(range(start, start + 6))
    kinds = [[e["type"] for e in f["events"]] for f in watcher.sent[1:]]
    assert kinds == [
        ["player_joined", "game_started"],
        ["play"],
        ["timer_changed"],
        ["player_left"],
        ["table_closed"],
    ]
    stored = await store.table(live.id)
    assert stored is not None and stored.version == live.rec.version == start + 5
    await m.close()


async def test_an_edit_writes_the_seats_rows_only_when_it_changed_a_seat(store: Store) -> None:
    written: list[tuple[str, bool]] = []
    real = store.save_table

    async def save(t: Any, expected: int, seats: bool = True, fence: int | None = None) -> None:
        written.append((t.status, seats))
        await real(t, expected, seats, fence)

    store.save_table = save  # type: ignore[method-assign]
    m = TableManager(store, bot_delay=3600)
    alice, bob = [(await store.create_player(n))[0] for n in ("Alice", "Bob")]
    live = await m.create_table(alice, "toy", 2, {"hand": 1}, seed=1)
    await m.join(bob, live.id)  # a seat taken: written
    assert written == [("playing", True)]
    await _play_out(m, live, [alice, bob])
    written.clear()
    await m.rematch(alice, live.id)  # a vote: the table's row alone
    await m.rematch(bob, live.id)  # the next game dealt, the same two seated
    assert written == [("finished", False), ("playing", False)]
    await _play_out(m, live, [alice, bob])
    await m.leave(bob, live.id)  # a finished table's seat freed: written
    assert written[-1] == ("finished", True)
    rec = await store.table(live.id)
    assert [(s.kind, s.player_id) for s in rec.seats] == [("player", alice.id), ("empty", None)]
    assert rec.game_no == 2
    await m.close()


async def _play_out(m: TableManager, live: Any, players: list[Any]) -> None:
    while live.rec.status == "playing":
        seat = live.to_act()[0]
        await m.act(players[seat], live.id, live.legal(seat)[0])
