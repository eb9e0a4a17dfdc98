"""What a move sends each subscriber: its own seat's state, the same bytes as encoding it whole."""

from __future__ import annotations

import json
from typing import Any

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


def test_each_subscriber_gets_its_seats_state_encoded_as_a_whole(sqlite_db: Database) -> None:
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
        live = manager.cached(t["id"])
        seat = live.to_act()[0]
        player = next(p for p in (alice, bob, carol) if live.rec.seat_of(p.id) == seat)
        action = live.game.legal_actions(live.state, seat)[0]
        for sub in (*subs.values(), watcher):
            sub.texts.clear()
        record = srv.call(srv.app.state.store.player, player.id)
        srv.call(manager.act, record, t["id"], action)
        events: Any = None
        for sub in (*subs.values(), watcher):
            (text,) = sub.texts
            msg = json.loads(text)
            # the info block and every other key, in the order a client reads them
            assert list(msg)[-1] == "info" and msg["info"] == manager.info(live)
            if events is None:
                _, events = live.game.apply(_state_before(srv, t["id"]), seat, action)
            expected = manager.state_text(live, manager.seat_of(live, sub), events)
            assert text == expected
            assert msg["view"]["hand"] == (
                None if sub is watcher else list(live.state.hands[live.rec.seat_of(sub.player_id)])
            )


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
    from tablee.tables import dumps

    msg = {"type": "state", "view": {"hand": ["TH", "A21"], "name": "Zoé ♥", 3: [1.5, None]}}
    assert dumps(msg) == json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
    huge = {"seed": 2**70}
    assert json.loads(dumps(huge)) == huge
