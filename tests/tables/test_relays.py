"""Away from a table's home, a socket subscribing on a copy read while the home's frames streamed
in: the frames relayed during the read are ahead of the copy (the other sockets here had them),
and that socket is sent them after its state, so it misses no version."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from tablee.store import Store
from tablee.tables import LiveTable, PlayerRecord, TableManager
from tablee.tables.changes import edit
from tablee.tables.fanout import Frames
from tablee.tables.seats import leave
from tests.serverkit import Database, OtherProcesses, Player, Server, ToyGame
from tests.tables.test_broadcast import Recorder
from tests.tables.test_stand_ins import Socket, _players, _store


def _frames(version: int, seats: list[int | None]) -> Frames:
    parts: dict[int | None, str] = {
        seat: f'{{"type":"state","version":{version},"seat":{json.dumps(seat)}'
        for seat in (*range(len(seats)), None)
    }
    return Frames(version, seats, parts, ',"info":{"relayed":true}}', False)


def _watched(srv: Server) -> tuple[LiveTable, Recorder, Player]:
    """A table of Alice and Bob, playing, watched by Alice's socket (sent nothing yet)."""
    alice, bob = srv.player("Alice"), srv.player("Bob")
    t = srv.stacked_table(alice, "contrecarte", 2, seed=5)
    srv.post(f"/api/tables/{t['id']}/join", bob)
    first = Recorder(alice.id)
    srv.call(srv.manager.subscribe, first, t["id"])
    first.texts.clear()
    return srv.manager.cached(t["id"]), first, bob


def test_a_socket_subscribing_on_a_copy_behind_relayed_frames_is_sent_those_past_it(
    sqlite_db: Database,
) -> None:
    with Server(sqlite_db) as srv:
        manager = srv.manager
        live, first, bob = _watched(srv)
        v = live.rec.version
        seats = [live.rec.seats[s].player_id for s in range(2)]
        # relayed while the copy was read, and just after (kept); then long after (dropped)
        live.keeping = True
        for version in (v + 1, v + 2):
            manager.fanout.relayed(live, _frames(version, seats))
        live.keeping = False
        live.keep_until = time.monotonic() + 60
        manager.fanout.relayed(live, _frames(v + 3, seats))
        assert [json.loads(x)["version"] for x in first.texts] == [v + 1, v + 2, v + 3]
        assert live.shown == v + 3 and [f.version for f in live.relays] == [v + 1, v + 2, v + 3]

        # the copy is at v: Bob's new socket starts there and is sent v+1..v+3 as his seat
        late = Recorder(bob.id)
        manager.fanout.add(live, late)
        sent = [json.loads(x) for x in late.texts]
        assert [m["version"] for m in sent] == [v, v + 1, v + 2, v + 3]
        assert "journal" in sent[0] and all(m["seat"] == seats.index(bob.id) for m in sent[1:])
        assert all(m["info"] == {"relayed": True} for m in sent[1:])

        # a copy caught up with the frames kept sends none of them
        live.rec.version = v + 3
        caught = Recorder(None)
        manager.fanout.add(live, caught)
        assert [json.loads(x)["version"] for x in caught.texts] == [v + 3]

        # no read of the copy for a while: what is relayed then is not kept, nor what was
        live.keep_until = 0.0
        manager.fanout.relayed(live, _frames(v + 4, seats))
        assert live.relays == []


def test_a_socket_subscribing_on_a_copy_ahead_of_relayed_frames_is_not_sent_those_it_holds(
    sqlite_db: Database,
) -> None:
    """The copy was read past the frames relayed so far (they are on their way): the socket
    already there gets each version from its frame, the new one starts at the copy's version and
    is sent only the frames past it."""
    with Server(sqlite_db) as srv:
        manager = srv.manager
        live, first, bob = _watched(srv)
        manager.fanout.leads = lambda live: False  # as away from the home
        v = live.rec.version
        seats = [live.rec.seats[s].player_id for s in range(2)]
        # read ahead: the copy says v+2, the frames of v+1 and v+2 have not come yet
        live.rec.version = v + 2
        late = Recorder(bob.id)
        manager.fanout.add(live, late)
        assert live.shown == v and live.subscribers[late] == v + 2
        for version in (v + 1, v + 2, v + 3):
            manager.fanout.relayed(live, _frames(version, seats))
        assert [json.loads(x)["version"] for x in first.texts] == [v + 1, v + 2, v + 3]
        assert [json.loads(x)["version"] for x in late.texts] == [v + 2, v + 3]


@dataclass
class HomeAndAway:
    """A table of Alice and Bob made on its home, and a copy of it on another process, watched
    there by a socket (sent nothing yet); the home's frames for that process are kept in
    ``relayed`` (sent when a test says)."""

    home: TableManager
    away: TableManager
    relayed: list[Frames]
    alice: PlayerRecord
    bob: PlayerRecord
    at_home: LiveTable
    copy: LiveTable
    watcher: Socket

    async def move(self) -> None:
        """The next move, made on the home."""
        seat = self.at_home.to_act()[0]
        player = self.alice if self.at_home.rec.seats[seat].player_id == self.alice.id else self.bob
        await self.home.act(player, self.at_home.id, self.at_home.legal(seat)[0])

    async def two_moves_read_ahead(self) -> int:
        """Two moves made on the home, read by the copy (as ``Cluster.fresh`` does) before their
        frames come, and not told (left to the frames); the version the copy was at before."""
        v = self.copy.rec.version
        await self.move()
        await self.move()
        async with self.copy.lock:
            assert await self.away.catch_up(self.copy, relayed=True)
        assert self.copy.rec.version == v + 2 and self.watcher.sent == []
        return v


@contextlib.asynccontextmanager
async def _home_and_away(database: Database) -> AsyncIterator[HomeAndAway]:
    first, second = await _store(database), Store(database.url, database.schema)
    home = TableManager(first, broker=OtherProcesses(), bot_delay=3600)
    away = TableManager(second, broker=OtherProcesses(), bot_delay=3600)
    relayed: list[Frames] = []
    home.fanout.watchers = lambda live: ("away",)
    home.fanout.relay = lambda live, frames, to: relayed.append(frames)
    away.fanout.leads = lambda live: False
    try:
        alice, bob = await _players(first, "Alice", "Bob")
        at_home = await home.create_table(alice, "toy", 2, {"hand": 4}, seed=3)
        await home.join(bob, at_home.id)
        watcher = Socket(None)
        await away.subscribe(watcher, at_home.id)
        copy = away.cached(at_home.id)
        assert copy is not None
        watcher.sent.clear()
        relayed.clear()
        yield HomeAndAway(home, away, relayed, alice, bob, at_home, copy, watcher)
    finally:
        await home.close()
        await away.close()
        await first.close()
        await second.close()


async def test_moves_read_ahead_of_their_frames_are_told_by_the_frames_not_by_the_copy(
    database: Database, toy_game: ToyGame
) -> None:
    """Away from the home, a copy read while the home's frames are on their way: the moves it
    read are not told as one state (a socket would miss the versions between), the frames tell
    them one by one; if they never come, a catch-up told to (the poller's) does; anything but
    moves (a player leaving) is told at once."""
    async with _home_and_away(database) as t:
        away, copy, watcher = t.away, t.copy, t.watcher
        v = await t.two_moves_read_ahead()
        late = Socket(None)
        away.fanout.add(copy, late)  # under the lock, on the copy just read (as Cluster.fresh)
        for frames in t.relayed:
            away.relayed(copy, frames)
        assert [m["version"] for m in watcher.sent] == [v + 1, v + 2]
        assert all(len(m["events"]) == 1 for m in watcher.sent)
        assert [m["version"] for m in late.sent] == [v + 2]
        assert copy.untold == []

        # frames lost: the poller's catch-up tells the move, with its event
        await t.move()
        async with copy.lock:
            await away.catch_up(copy, relayed=True)
            assert len(watcher.sent) == 2
            await away.catch_up(copy)
        assert watcher.sent[-1]["version"] == v + 3 and len(watcher.sent[-1]["events"]) == 1

        # a seat change is told at once
        await t.home.leave(t.bob, copy.id)
        async with copy.lock:
            await away.catch_up(copy, relayed=True)
        assert watcher.events("player_left")


async def test_a_seat_change_made_on_a_copy_that_read_moves_ahead_of_their_frames_tells_them_too(
    database: Database, toy_game: ToyGame
) -> None:
    """Away from the home, a copy brought up to date before a seat change made there (as
    ``Cluster.fresh`` does) read two moves whose frames are still on their way: the change's state
    tells those moves' events before its own, and the frames, when they come, are not sent again."""
    async with _home_and_away(database) as t:
        away, copy, watcher = t.away, t.copy, t.watcher
        v = await t.two_moves_read_ahead()
        async with copy.lock:  # the change, on the copy just read
            await away.pipeline.commit_held(copy, edit(leave(t.bob)))
        for frames in t.relayed:
            away.relayed(copy, frames)
        assert [m["version"] for m in watcher.sent] == [v + 3]
        assert [e["type"] for e in watcher.sent[0]["events"]] == ["play", "play", "player_left"]
        assert copy.untold == []
