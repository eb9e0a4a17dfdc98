"""A robot standing in for a person: a player who leaves a running game keeps the seat, a robot
plays it, and the player takes it back; a person the timer played for ``robot_after`` decisions
in a row is handed to a robot and takes the seat back by coming back. Both are told to everyone,
survive a restart, and never lose or double a decision."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from tablee.store import Store
from tablee.tables import LiveTable, TableManager
from tablee.tables.errors import TableError
from tablee.tables.records import PlayerRecord
from tests.serverkit import Database, ToyGame


class Socket:
    def __init__(self, player: PlayerRecord | None) -> None:
        self.player = player
        self.sent: list[dict[str, Any]] = []

    @property
    def player_id(self) -> int | None:
        return None if self.player is None else self.player.id

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for f in self.sent for e in f["events"] if e["type"] == kind]


async def _until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


async def _store(database: Database) -> Store:
    store = Store(database.url, database.schema)
    await store.migrate()
    return store


async def _players(store: Store, *names: str) -> list[PlayerRecord]:
    return [(await store.create_player(n))[0] for n in names]


def _sources(rows: list[Any], seat: int) -> list[str]:
    return [r.source for r in rows if r.seat == seat]


async def test_a_player_who_leaves_keeps_the_seat_a_robot_plays_and_takes_it_back(
    database: Database, toy_game: ToyGame
) -> None:
    store = await _store(database)
    m = TableManager(store, bot_delay=0.01)
    alice, bob = await _players(store, "Alice", "Bob")
    live = await m.create_table(alice, "toy", 2, {"hand": 4}, seed=3)
    await m.join(bob, live.id)
    sa, sb, watcher = Socket(alice), Socket(bob), Socket(None)
    for s in (sa, sb, watcher):
        await m.subscribe(s, live.id)
    assert live.to_act() == (0,)
    await m.act(alice, live.id, live.legal(0)[0])
    # Bob leaves: his seat stays his, a robot plays it (to everyone: the event and the seat)
    await m.leave(bob, live.id)
    left = watcher.events("player_left")
    assert left == [
        {"type": "player_left", "seat": 1, "name": "Bob", "replaced_by": "bot", "may_return": True}
    ]
    seat = watcher.sent[-1]["info"]["seats"][1]
    assert seat["kind"] == "player" and seat["name"] == "Bob"
    assert seat["away"]["why"] == "left" and seat["absent_since"] == seat["away"]["since"]
    assert not watcher.sent[-1]["info"]["rated"]
    await _until(lambda: live.to_act() == (0,))  # the robot played Bob's turn
    # Bob still sees his hand, but has nothing to play, and a move of his is refused in French
    await m.act(alice, live.id, live.legal(0)[0])
    await _until(lambda: live.to_act() == (0,) and live.seq == 4)
    assert sb.sent[-1]["view"]["hand"] is not None and sb.sent[-1]["legal"] == []
    with pytest.raises(TableError) as refused:
        await m.act(bob, live.id, {"type": "play", "card": "x"})
    assert refused.value.code == "robot_plays" and "reprenez" in refused.value.message
    # not his turn: the seat is his again at once
    await m.take_back(bob, live.id)
    assert live.rec.away == {} and watcher.events("player_back")[-1]["name"] == "Bob"
    assert watcher.sent[-1]["info"]["seats"][1]["away"] is None
    await m.act(alice, live.id, live.legal(0)[0])
    await asyncio.sleep(0.1)  # the robot would have played by now
    assert live.to_act() == (1,) and sb.sent[-1]["legal"]
    await m.act(bob, live.id, live.legal(1)[0])
    rows = await store.actions(live.id, 1)
    assert _sources(rows, 1) == ["bot", "bot", "player"]
    with pytest.raises(TableError) as again:
        await m.take_back(bob, live.id)
    assert again.value.code == "not_away"
    await m.close()
    await store.close()


async def test_a_take_back_asked_during_the_robots_decision_waits_for_it(
    database: Database, toy_game: ToyGame
) -> None:
    store = await _store(database)
    # the robot "thinks" long enough for the steps below to happen meanwhile on a busy machine
    m = TableManager(store, bot_delay=1.5)
    alice, bob = await _players(store, "Alice", "Bob")
    live = await m.create_table(alice, "toy", 2, {"hand": 4}, seed=5)
    await m.join(bob, live.id)
    watcher, sb = Socket(None), Socket(bob)
    await m.subscribe(watcher, live.id)
    await m.subscribe(sb, live.id)
    await m.leave(bob, live.id)
    await m.act(alice, live.id, live.legal(0)[0])
    assert live.to_act() == (1,)  # the robot thinks over Bob's decision
    # Bob's own state offers him nothing to play while the robot has his seat
    assert sb.sent[-1]["to_act"] == [1] and sb.sent[-1]["legal"] == []
    await m.take_back(bob, live.id)
    assert live.rec.away[1]["back"] is True
    assert watcher.events("player_returning") == [
        {"type": "player_returning", "seat": 1, "name": "Bob"}
    ]
    with pytest.raises(TableError) as refused:
        await m.act(bob, live.id, live.legal(1)[0])
    assert refused.value.code == "robot_plays"
    await _until(lambda: live.to_act() == (0,))
    # the robot made that decision, once, and the seat is Bob's from the same version on
    assert live.rec.away == {}
    last = watcher.sent[-1]
    assert [e["type"] for e in last["events"]] == ["play", "player_back"]
    rows = await store.actions(live.id, 1)
    assert _sources(rows, 1) == ["bot"] and len(rows) == 2
    await m.act(alice, live.id, live.legal(0)[0])
    await asyncio.sleep(1.8)
    assert live.to_act() == (1,), "no robot plays for Bob any more"
    await m.close()
    await store.close()


async def test_the_timer_playing_for_a_person_robot_after_times_in_a_row_hands_them_to_a_robot(
    database: Database, toy_game: ToyGame
) -> None:
    store = await _store(database)
    m = TableManager(store, bot_delay=0.01)
    alice, bob = await _players(store, "Alice", "Bob")
    live = await m.create_table(
        alice, "toy", 2, {"hand": 4, "deals": 2}, turn_seconds=0.4, seed=9, robot_after=2
    )
    await m.join(bob, live.id)
    sa, watcher = Socket(alice), Socket(None)
    await m.subscribe(sa, live.id)
    await m.subscribe(watcher, live.id)
    # Bob lets the timer play once, then plays himself: the count starts again
    await m.act(alice, live.id, live.legal(0)[0])
    await _until(lambda: live.to_act() == (0,))
    # (Alice's own count is not looked at: on a busy machine her timer may beat her too)
    assert live.rec.timeouts[1] == 1
    await m.act(alice, live.id, live.legal(0)[0])
    await m.act(bob, live.id, live.legal(1)[0])
    assert live.rec.timeouts[1] == 0
    # then twice in a row: handed to a robot, told to everyone
    for _ in range(2):
        await m.act(alice, live.id, live.legal(0)[0])
        await _until(lambda: live.to_act() == (0,))
    assert live.rec.away[1]["why"] == "timeout"
    handed = watcher.events("handed_to_robot")
    assert handed == [{"type": "handed_to_robot", "seat": 1, "name": "Bob", "timeouts": 2}]
    assert watcher.sent[-1]["info"]["seats"][1]["away"]["why"] == "timeout"
    # the robot plays his next turn at once, not the timer
    await m.act(alice, live.id, live.legal(0)[0])
    await _until(lambda: live.to_act() == (0,))
    rows = await store.actions(live.id, 1)
    assert _sources(rows, 1) == ["timer", "player", "timer", "timer", "bot"]
    # it survives a restart: a new manager reads who is away and the counts from the store
    await m.close()
    m2 = TableManager(store, bot_delay=0.01)
    again = await m2.get(live.id)
    assert again.rec.away[1]["why"] == "timeout" and again.rec.robot_after == 2
    # Bob comes back (subscribes): the seat is his again; the count starts from zero
    sb = Socket(bob)
    await m2.subscribe(sb, live.id)
    assert again.rec.away == {} and again.rec.timeouts[1] == 0
    assert sb.events("player_back") == [{"type": "player_back", "seat": 1, "name": "Bob"}]
    await m2.close()
    await store.close()


async def test_a_count_of_timeouts_survives_a_restart(
    database: Database, toy_game: ToyGame
) -> None:
    store = await _store(database)
    m = TableManager(store, bot_delay=0.01)
    alice, bob = await _players(store, "Alice", "Bob")
    live = await m.create_table(alice, "toy", 2, {"hand": 4}, turn_seconds=0.4, seed=1)
    await m.join(bob, live.id)
    await m.act(alice, live.id, live.legal(0)[0])
    await _until(lambda: live.to_act() == (0,))
    await m.act(alice, live.id, live.legal(0)[0])
    await _until(lambda: live.to_act() == (0,))
    assert live.rec.timeouts[1] == 2 and not live.rec.away
    await m.close()
    # the third timeout after the restart hands Bob over (the default: 3)
    m2 = TableManager(store, bot_delay=0.01)
    again: LiveTable = await m2.get(live.id)
    assert again.rec.timeouts[1] == 2
    await m2.act(alice, live.id, again.legal(0)[0])
    await _until(lambda: 1 in again.rec.away)
    assert again.rec.away[1]["why"] == "timeout"
    await m2.close()
    await store.close()


async def test_robot_after_zero_never_hands_over_and_bad_values_are_refused(
    database: Database, toy_game: ToyGame
) -> None:
    store = await _store(database)
    m = TableManager(store, bot_delay=0.01)
    (alice,) = await _players(store, "Alice")
    live = await m.create_table(
        alice, "toy", 2, {"hand": 4}, turn_seconds=0.05, bots=[0], seed=2, robot_after=0
    )
    await _until(lambda: live.rec.status == "finished")
    rows = await store.actions(live.id, 1)
    assert _sources(rows, 1) == ["timer"] * 4 and not live.rec.away
    from tablee.engine import InvalidOptions

    for bad in (-1, 101, True):
        with pytest.raises(InvalidOptions):
            await m.create_table(alice, "toy", 2, {"hand": 4}, robot_after=bad)
    await m.close()
    await store.close()


async def test_another_process_tells_its_subscribers_who_left_and_who_came_back(
    database: Database, toy_game: ToyGame
) -> None:
    from tests.serverkit import OtherProcesses

    first, second = await _store(database), Store(database.url, database.schema)
    writer = TableManager(first, broker=OtherProcesses(), bot_delay=3600)
    reader = TableManager(second, broker=OtherProcesses(), bot_delay=3600)
    alice, bob = await _players(first, "Alice", "Bob")
    tid = (await writer.create_table(alice, "toy", 2, {"hand": 3}, seed=4)).id
    await writer.join(bob, tid)
    watcher = Socket(None)
    await reader.subscribe(watcher, tid)
    # Bob leaves through the writer (Alice is to play: nothing for the robot yet); the reader
    # catches up when a client of its own asks, and tells its subscribers what the row says
    await writer.leave(bob, tid)
    await reader.sync(Socket(None), tid)
    assert watcher.events("player_left") == [
        {"type": "player_left", "seat": 1, "name": "Bob", "replaced_by": "bot", "may_return": True}
    ]
    await writer.take_back(bob, tid)
    await reader.sync(Socket(None), tid)
    assert watcher.events("player_back") == [{"type": "player_back", "seat": 1, "name": "Bob"}]
    assert watcher.sent[-1]["info"]["seats"][1]["away"] is None
    await writer.close()
    await reader.close()
    await first.close()
    await second.close()


async def test_robots_do_not_play_for_nobody_the_table_waits_until_a_person_comes_back(
    database: Database, toy_game: ToyGame
) -> None:
    """Every person has left to a robot and closed the page: the robots would play on for
    nobody, so the table waits (no robot, no timer) until one of them is back."""
    store = await _store(database)
    m = TableManager(store, bot_delay=0.01)
    alice, bob = await _players(store, "Alice", "Bob")
    live = await m.create_table(alice, "toy", 2, {"hand": 4}, seed=3, turn_seconds=0.05)
    await m.join(bob, live.id)
    sa, sb = Socket(alice), Socket(bob)
    for s in (sa, sb):
        await m.subscribe(s, live.id)
    await m.act(alice, live.id, live.legal(0)[0])
    await m.leave(bob, live.id)
    await _until(lambda: live.to_act() == (0,))  # Alice is there: Bob's robot plays
    await m.leave(alice, live.id)
    # both pages still open: the robots play on for them
    version = live.rec.version
    await _until(lambda: live.rec.version >= version + 2)
    m.unsubscribe(sa, live.id)
    m.unsubscribe(sb, live.id)
    # a robot's move on its way when the last page closed ends (however slow the machine),
    # then nothing more is armed
    await _until(lambda: live.timer is None and live.bot_task is None)
    version = live.rec.version
    await asyncio.sleep(0.5)  # ten turn timers, fifty robot delays
    assert live.rec.version == version, "the robots played for nobody"
    assert live.timer is None and live.bot_task is None
    # Bob opens the page again: he is watching, the robots go on
    await m.subscribe(sb, live.id)
    await _until(lambda: live.rec.version >= version + 2)
    await m.close()
    await store.close()
