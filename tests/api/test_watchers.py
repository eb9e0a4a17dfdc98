"""Spectators shown at the table: the ``watchers`` of a table's ``info``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.serverkit import Database, Server, ToyGame


@pytest.fixture
def srv(database: Database, toy_game: ToyGame) -> Any:
    with Server(database) as s:
        yield s


def test_the_players_are_told_who_watches_and_when_they_leave(srv: Server) -> None:
    alice, bob, carol = srv.player("Alice"), srv.player("Bob"), srv.player("Carol")
    t = srv.create_table(alice, game="toy", players=2, bots=[1])
    tid = t["id"]
    with srv.ws(alice) as wa:
        wa.request({"type": "subscribe", "table": tid})
        first = wa.state(tid)
        assert first["info"]["watchers"] == {"count": 0, "names": []}
        with srv.ws(carol) as wc, srv.ws(bob) as wb:
            for ws in (wc, wb):
                ws.request({"type": "subscribe", "table": tid})
            # each arrival: a state of the same version, only its info changed
            told = [wa.state(tid), wa.state(tid)]
            assert [m["version"] for m in told] == [first["version"]] * 2
            assert all(m["events"] == [] for m in told)
            assert told[-1]["info"]["watchers"] == {"count": 2, "names": ["Bob", "Carol"]}
            # a second tab of the same person is one watcher
            with srv.ws(bob) as wb2:
                wb2.request({"type": "subscribe", "table": tid})
                assert wb2.state(tid)["info"]["watchers"]["count"] == 2
            rest = srv.client.get(f"/api/tables/{tid}").json()
            assert rest["watchers"] == {"count": 2, "names": ["Bob", "Carol"]}
        # both gone: told again
        seen = [wa.state(tid)["info"]["watchers"] for _ in range(2)]
        assert seen[-1] == {"count": 0, "names": []}
