"""The answer to a subscription carries the current deal's events as the seat saw them
(``journal``): a reload, a late joiner and a spectator write the same journal as a page that
watched the whole deal, and never see another seat's private events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablee.engine import Event
from tablee.games import game_names, get_game
from tablee.protocol import SERVER_MESSAGE
from tests.serverkit import Database, Player, Server

#: moves played per game (enough to cross a deal's end where a deal is short)
MOVES = 90
#: a late page subscribes after every this many moves
EVERY = 6


class Recorder:
    def __init__(self, player_id: int | None) -> None:
        self._player_id = player_id
        self.frames: list[dict[str, Any]] = []

    @property
    def player_id(self) -> int | None:
        return self._player_id

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))


def _seated_table(srv: Server, game: str, n: int, seed: int) -> tuple[int, list[Player]]:
    people = [srv.player(f"P{i}") for i in range(n)]
    t = srv.stacked_table(people[0], game, n, seed=seed)
    for p in people[1:]:
        r = srv.post(f"/api/tables/{t['id']}/join", p)
        assert r.status_code == 200, r.text
    return t["id"], people


def _since_last_deal(events: list[Event]) -> list[Event]:
    starts = [i for i, e in enumerate(events) if e.get("type") == "deal"]
    return events[starts[-1] :] if starts else events


def _private_to_others(raw: list[Event], seat: int | None) -> list[Event]:
    """The private events of the deal ``seat`` may not see, as they would read without ``to``."""
    return [
        {k: v for k, v in e.items() if k != "to"}
        for e in raw
        if e.get("to") is not None and (seat is None or seat not in e["to"])
    ]


@pytest.mark.parametrize("game", game_names())
def test_a_late_subscription_gets_the_deal_as_its_seat_saw_it(
    sqlite_db: Database, game: str
) -> None:
    g = get_game(game)
    n = 4 if g.min_players <= 4 <= g.max_players else g.min_players
    with Server(sqlite_db) as srv:
        table, people = _seated_table(srv, game, n, seed=17)
        manager = srv.manager
        live = manager.cached(table)
        # pages that watched from the start, one per seat and a spectator: what they were told
        watchers = {p.id: Recorder(p.id) for p in people}
        spectator = Recorder(None)
        for sub in (*watchers.values(), spectator):
            srv.call(manager.subscribe, sub, table)
        records = {p.id: srv.call(srv.app.state.store.player, p.id) for p in people}
        raw: list[Event] = []
        checked = private_seen = 0
        for move in range(1, MOVES + 1):
            if g.is_over(live.state):
                break
            seat = live.to_act()[0]
            player = next(p for p in people if live.rec.seat_of(p.id) == seat)
            action = g.auto_action(live.state, seat)
            _, events = g.apply(live.state, seat, action)
            raw += events
            srv.call(manager.act, records[player.id], table, action)
            if move % EVERY:
                continue
            deal_raw = _since_last_deal(raw)
            for watcher in (*watchers.values(), spectator):
                seat_of = None if watcher is spectator else live.rec.seat_of(watcher.player_id)
                told = [e for f in watcher.frames for e in f["events"]]
                # a new page of the same seat (a reload) subscribes now
                page = Recorder(watcher.player_id)
                srv.call(manager.subscribe, page, table)
                (answer,) = page.frames
                SERVER_MESSAGE.validate_python(answer)
                journal = answer["journal"]
                assert journal == _since_last_deal(told), (game, move, seat_of)
                assert answer["events"] == []
                for secret in _private_to_others(deal_raw, seat_of):
                    assert secret not in journal, (game, move, seat_of, secret)
                own = [e for e in deal_raw if e.get("to") and seat_of in e["to"]]
                for e in own:
                    assert {k: v for k, v in e.items() if k != "to"} in journal
                private_seen += len(own)
                srv.client.portal.call(manager.unsubscribe, page, table)
                checked += 1
        assert checked >= 3
        # the later states say nothing of a journal: only the subscription does
        assert all("journal" not in f for w in watchers.values() for f in w.frames[1:])
        if game not in {"contrecarte"}:
            # every other game deals private cards or shows a seat its own moves in private
            assert private_seen or not any(e.get("to") for e in raw), game


def test_a_subscription_before_any_move_has_an_empty_journal(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        table, _ = _seated_table(srv, "belote", 4, seed=3)
        page = Recorder(None)
        srv.call(srv.manager.subscribe, page, table)
        assert page.frames[0]["journal"] == []
        assert page.frames[0]["view"] is not None


def test_the_journal_goes_out_on_the_socket(sqlite_db: Database) -> None:
    """Through the WebSocket: the answer to ``subscribe`` is a valid ``state`` with its journal,
    and it names no card its seat may not see (the secrets check of every frame)."""
    with Server(sqlite_db) as srv:
        table, people = _seated_table(srv, "tarot", 4, seed=5)
        live = srv.manager.cached(table)
        g = live.game
        records = {p.id: srv.call(srv.app.state.store.player, p.id) for p in people}
        for _ in range(12):
            seat = live.to_act()[0]
            player = next(p for p in people if live.rec.seat_of(p.id) == seat)
            bids = [a for a in live.legal(seat) if a["type"] == "bid"]
            action = bids[0] if bids and _ == 0 else g.auto_action(live.state, seat)
            srv.call(srv.manager.act, records[player.id], table, action)
        for p in (people[1], None):
            with srv.ws(p) as ws:
                ws.send({"type": "subscribe", "table": table, "id": 1})
                st = ws.state(table)
                SERVER_MESSAGE.validate_python(st)
                types = [e["type"] for e in st["journal"]]
                assert types[:5] == ["bid", "pass", "pass", "pass", "taker"], types
                assert "chien" in types and types.count("play") >= 1, types
