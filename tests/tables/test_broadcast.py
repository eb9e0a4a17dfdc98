"""What a move sends each subscriber: its own seat's state, the same bytes as encoding it whole;
the table's ``info`` only when it changed since the last change."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta
from typing import Any

import pytest

from tablee.tables import dumps
from tablee.tables.changes import copy_record
from tablee.tables.fanout import info_key
from tablee.tables.records import TableRecord
from tests.serverkit import Database, Server


class Recorder:
    def __init__(self, player_id: int | None) -> None:
        self._player_id = player_id
        self.texts: list[str] = []

    @property
    def player_id(self) -> int | None:
        return self._player_id

    def send(self, text: str) -> None:
        self.texts.append(text)


@pytest.mark.parametrize("kind", ["first", "draw"])
def test_each_subscriber_gets_its_seats_state_encoded_as_a_whole(
    sqlite_db: Database, kind: str
) -> None:
    """``kind``: the move, the first legal one or a draw (whose event only the drawer sees)."""
    with Server(sqlite_db) as srv:
        alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
        t = srv.stacked_table(alice, "contrecarte", 3, seed=5)
        for p in (bob, carol):
            srv.post(f"/api/tables/{t['id']}/join", p)
        manager = srv.manager
        subs = {p.id: Recorder(p.id) for p in (alice, bob, carol)}
        watcher = Recorder(None)
        for sub in (*subs.values(), watcher):
            srv.call(manager.subscribe, sub, t["id"])
        # the watcher's coming changed the info (watchers): the next change tells it; the
        # move measured is the one after
        _move(srv, t["id"], [alice, bob, carol])
        live = manager.cached(t["id"])
        seat = live.to_act()[0]
        player = next(p for p in (alice, bob, carol) if live.rec.seat_of(p.id) == seat)
        legal = live.game.legal_actions(live.state, seat)
        action = next(a for a in legal if a["type"] == "draw") if kind == "draw" else legal[0]
        for sub in (*subs.values(), watcher):
            sub.texts.clear()
        record = srv.call(srv.app.state.store.player, player.id)
        srv.call(manager.act, record, t["id"], action)
        events: Any = None
        for sub in (*subs.values(), watcher):
            (text,) = sub.texts
            msg = json.loads(text)
            if events is None:
                _, events = live.game.apply(_state_before(srv, t["id"]), seat, action)
            whole = json.loads(manager.state_text(live, manager.seat_of(live, sub), events))
            # every key in the order a client reads them; ``info`` did not change (a move
            # changes its version and deadline only, which the state carries itself)
            assert "info" not in msg
            del whole["info"]
            assert text == dumps(whole)
            assert msg["view"]["hand"] == (
                None if sub is watcher else list(live.state.hands[live.rec.seat_of(sub.player_id)])
            )
            drawn = [e for e in msg["events"] if e["type"] == "draw"]
            if kind == "draw":
                # the drawer is told its card, the others that a card was drawn
                assert drawn
                assert any("cards" in e for e in drawn) == (sub.player_id == player.id)


def _move(srv: Server, table: int, people: list[Any]) -> None:
    manager = srv.manager
    live = manager.cached(table)
    seat = live.to_act()[0]
    player = next(p for p in people if live.rec.seat_of(p.id) == seat)
    record = srv.call(srv.app.state.store.player, player.id)
    srv.call(manager.act, record, table, live.game.legal_actions(live.state, seat)[0])


def test_a_change_carries_the_tables_info_only_when_it_changed(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        people = [srv.player("Alice"), srv.player("Bob"), srv.player("Carol")]
        t = srv.stacked_table(people[0], "contrecarte", 3, seed=5)
        for p in people[1:]:
            srv.post(f"/api/tables/{t['id']}/join", p)
        manager = srv.manager
        alice, bob, carol = (Recorder(p.id) for p in people)
        for sub in (alice, bob, carol):
            srv.call(manager.subscribe, sub, t["id"])
        live = manager.cached(t["id"])

        def told(sub: Recorder) -> list[dict[str, Any]]:
            out = [json.loads(x) for x in sub.texts]
            sub.texts.clear()
            return out

        for sub in (alice, bob, carol):
            told(sub)
        _move(srv, t["id"], people)
        assert ["info" in m for m in told(alice) + told(bob)] == [False, False]
        # Carol goes: her seat's "connected" flag changed, the others are told the new info
        async def leave() -> bool:
            return bool(manager.unsubscribe(carol, t["id"]))

        assert srv.call(leave)
        (msg,) = told(alice)
        assert msg["info"] == manager.info(live)
        assert [s["connected"] for s in msg["info"]["seats"]] == [True, True, False]
        assert told(bob)[0]["info"] == msg["info"]
        _move(srv, t["id"], people)
        assert ["info" in m for m in told(alice)] == [False]
        # she comes back: her subscription's answer holds the info, the others are told it
        told(carol)
        srv.call(manager.subscribe, carol, t["id"])
        (back,) = told(carol)
        assert back["info"] == manager.info(live)
        assert told(alice)[0]["info"]["seats"][2]["connected"] is True
        _move(srv, t["id"], people)
        assert ["info" in m for m in told(carol) + told(alice)] == [False, False]
        # a sync answered with another info than the one last told (as when the info changed
        # with no change told): the next change tells it to everyone again
        told(bob)
        live.info_told = "an info told before"
        srv.call(manager.sync, bob, t["id"])
        (synced,) = told(bob)
        assert synced["info"] == manager.info(live)
        _move(srv, t["id"], people)
        assert all(m["info"] == manager.info(live) for m in told(alice) + told(bob))
        _move(srv, t["id"], people)
        assert ["info" in m for m in told(alice)] == [False]


def _state_before(srv: Server, table: int) -> Any:
    """The game state one move back, rebuilt from the log (the live table holds the new one)."""
    from tablee.games import get_game

    live = srv.manager.cached(table)
    log = srv.call(srv.app.state.store.actions, table, live.rec.game_no)
    game = get_game(live.rec.game)
    state = game.new(players=live.rec.players, options=live.rec.options, seed=live.rec.seed)
    for row in log[:-1]:
        state, _ = game.apply(state, row.seat, row.action)
    return state


def test_a_message_is_written_as_the_standard_encoder_writes_it() -> None:
    """Compact, UTF-8 unescaped, keys in order, integer keys as strings; a number beyond 64 bits
    still goes out (through the standard encoder)."""
    msg = {"type": "state", "view": {"hand": ["TH", "A21"], "name": "Zoé ♥", 3: [1.5, None]}}
    assert dumps(msg) == json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
    huge = {"seed": 2**70}
    assert json.loads(dumps(huge)) == huge


class Watcher(Recorder):
    """A connection with a player record, as the WebSocket's: a watcher's name comes from it."""

    def __init__(self, player: Any) -> None:
        super().__init__(player.id)
        self.player = player


def _other(value: Any) -> Any:
    """A value of the same kind as ``value`` that is not equal to it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, datetime):
        return value + timedelta(seconds=1)
    if isinstance(value, list):
        return [*value[:-1], _other(value[-1])] if value else [0]
    if isinstance(value, dict):
        return {**value, "other": 1}
    if value is None:
        return 1
    return dataclasses.replace(value, name=_other(value.name))


def test_a_record_changed_but_for_its_version_and_deadline_has_its_info_built_again(
    sqlite_db: Database,
) -> None:
    """Every field of the record but those a state carries itself marks the info to be built
    again (a field added to the record, then shown in ``info``, is covered)."""
    with Server(sqlite_db) as srv:
        alice = srv.player("Alice")
        t = srv.stacked_table(alice, "contrecarte", 3, seed=5)
        live = srv.manager.cached(t["id"])
        base = live.rec
        for f in dataclasses.fields(TableRecord):
            live.advance(base, live.state, live.seq)
            rec = copy_record(base)
            setattr(rec, f.name, _other(getattr(rec, f.name)))
            live.info_dirty = False
            live.advance(rec, live.state, live.seq)
            assert live.info_dirty is (f.name not in ("version", "deadline")), f.name
        # a seat's player, in place on a copy: the seats are copied with the record
        live.advance(base, live.state, live.seq)
        rec = copy_record(live.rec)
        rec.seats[1].player_id = 12345
        live.info_dirty = False
        live.advance(rec, live.state, live.seq)
        assert live.info_dirty


def test_whatever_changed_each_subscriber_holds_the_tables_info(sqlite_db: Database) -> None:
    """After each change told, the info a subscriber last received (its subscription's answer,
    then the states that carried one) is the table's: nothing it is made of changed untold."""
    with Server(sqlite_db) as srv:
        people = [srv.player("Alice"), srv.player("Bob"), srv.player("Carol")]
        t = srv.stacked_table(people[0], "contrecarte", 3, seed=5)
        for p in people[1:]:
            srv.post(f"/api/tables/{t['id']}/join", p)
        manager = srv.manager
        live = manager.cached(t["id"])
        zoe = srv.call(srv.app.state.store.player, srv.player("Zoé").id)
        subs: list[Recorder] = [Recorder(p.id) for p in people]
        held: dict[Recorder, dict[str, Any]] = {}

        def check(step: str) -> None:
            for sub in subs:
                for text in sub.texts:
                    msg = json.loads(text)
                    if "info" in msg:
                        held[sub] = msg["info"]
                sub.texts.clear()
                if sub in live.subscribers:
                    assert info_key(held[sub]) == info_key(manager.info(live)), (step, sub)

        for sub in subs:
            srv.call(manager.subscribe, sub, t["id"])
        check("subscribed")
        _move(srv, t["id"], people)
        check("a move")
        # a named watcher comes: the watchers
        watcher = Watcher(zoe)
        subs.append(watcher)
        srv.call(manager.subscribe, watcher, t["id"])
        _move(srv, t["id"], people)
        check("a watcher came")
        # the watcher's name changes on its connection (a new hello): told with the next change
        watcher.player = dataclasses.replace(zoe, name="Zoé B.")
        _move(srv, t["id"], people)
        check("a watcher renamed")
        # an anonymous watcher: the count
        anonymous = Recorder(None)
        subs.append(anonymous)
        srv.call(manager.subscribe, anonymous, t["id"])
        _move(srv, t["id"], people)
        check("an anonymous watcher came")

        async def leave(sub: Recorder) -> bool:
            return bool(manager.unsubscribe(sub, t["id"]))

        # a seated player goes (connected, absent_since), then comes back
        assert srv.call(leave, subs[2])
        check("Carol left")
        _move(srv, t["id"], people)
        check("a move without Carol")
        srv.call(manager.subscribe, subs[2], t["id"])
        check("Carol came back")
        # connected through another process: told by a change with no event (``retell``)
        assert srv.call(leave, subs[1])
        check("Bob left")
        remote = manager.fanout.remote
        manager.fanout.remote = lambda table_id: {people[1].id}
        try:
            manager.retell(live)
            check("Bob connected elsewhere")
            _move(srv, t["id"], people)
            check("a move with Bob elsewhere")
        finally:
            manager.fanout.remote = remote
        manager.retell(live)
        check("Bob gone from elsewhere")
        srv.call(manager.subscribe, subs[1], t["id"])
        # an edit of the record: the turn's time
        srv.call(manager.edit, t["id"], lambda rec: setattr(rec, "turn_seconds", 99.0) or [])
        check("an edit")
        assert held[subs[0]]["turn_seconds"] == 99.0
        # the watcher leaves: the watchers again
        assert srv.call(leave, watcher)
        _move(srv, t["id"], people)
        check("the watcher left")
        assert held[subs[0]]["watchers"] == {"count": 1, "names": []}
        # a move that changes nothing of the info leaves it out
        _move(srv, t["id"], people)
        assert all("info" not in json.loads(x) for sub in subs[:3] for x in sub.texts)
        check("a plain move")
