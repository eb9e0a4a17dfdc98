"""Private tables stay private (issue 16, item 2): table ids are sequential, so a stranger who
walks them must learn nothing of a private table and sit at none; its invitation code (in the link
its creator shares) opens it. The attack first, then what the invited and the seated do."""

from __future__ import annotations

from typing import Any

import pytest

from tests.serverkit import Database, Player, Server, ToyGame

ADMIN = "an-admin-token-long-enough-for-the-tests"


@pytest.fixture
def srv(database: Database, toy_game: ToyGame) -> Any:
    with Server(database, admin_token=ADMIN, bot_delay_seconds=0.0) as s:
        yield s


def _get(srv: Server, path: str, p: Player | None = None, **params: Any) -> Any:
    return srv.client.get(path, headers=srv.headers(p) if p else {}, params=params)


def _same_as_unknown(r: Any, unknown: Any, table_id: int, unknown_id: int) -> None:
    """The answer about a private table is, word for word, the one about no table at all."""
    assert r.status_code == unknown.status_code == 404, r.text
    assert r.text.replace(str(table_id), "ID") == unknown.text.replace(str(unknown_id), "ID")


def test_walking_the_sequential_ids_finds_no_private_table_and_joins_none(srv: Server) -> None:
    anne, mallory = srv.player("Anne"), srv.player("Mallory")
    public = srv.create_table(anne, game="toy", players=3)
    hidden = srv.create_table(anne, game="toy", players=3, private=True)
    code = hidden["invitation"]
    assert public["invitation"] is None and code and len(code) >= 22
    pid = hidden["id"]
    nowhere = pid + 1000
    unknown = _get(srv, f"/api/tables/{nowhere}", mallory)
    assert unknown.status_code == 404

    # the attack: every id from 1 to a bit past the last one, as a player and with no token
    seen: set[int] = set()
    for tid in range(1, pid + 5):
        for who in (mallory, None):
            r = _get(srv, f"/api/tables/{tid}", who)
            if r.status_code == 200:
                seen.add(tid)
    assert seen == {public["id"]}
    for who in (mallory, None):
        _same_as_unknown(_get(srv, f"/api/tables/{pid}", who), unknown, pid, nowhere)
        for tail in ("/results", "/log", "/games/1/replay"):
            r = _get(srv, f"/api/tables/{pid}{tail}", who)
            _same_as_unknown(r, _get(srv, f"/api/tables/{nowhere}{tail}", who), pid, nowhere)
    # a wrong code is no code
    wrong = code[:-1] + ("A" if code[-1] != "A" else "B")
    r = _get(srv, f"/api/tables/{pid}", mallory, invitation=wrong)
    _same_as_unknown(r, unknown, pid, nowhere)
    # joining (and every other seat operation) by the id alone: as for no table, nothing changes
    for op, body in (
        ("join", {}),
        ("join", {"seat": 1}),
        ("leave", {}),
        ("start", {}),
        ("rematch", {}),
        ("take_back", {}),
    ):
        r = srv.post(f"/api/tables/{pid}/{op}", mallory, json=body)
        _same_as_unknown(
            r, srv.post(f"/api/tables/{nowhere}/{op}", mallory, json=body), pid, nowhere
        )
    kept = _get(srv, f"/api/tables/{pid}", anne).json()
    assert [s["kind"] for s in kept["seats"]] == ["player", "empty", "empty"]
    assert kept["version"] == hidden["version"]
    # never in the lobby, whatever the filter
    for params in ({}, {"status": "waiting"}, {"status": "playing"}, {"status": "finished"}):
        assert pid not in {t["id"] for t in _get(srv, "/api/tables", None, **params).json()}

    # with the invitation code, the same stranger sees it and sits down
    shown = _get(srv, f"/api/tables/{pid}", mallory, invitation=code)
    assert shown.status_code == 200, shown.text
    assert shown.json()["private"] and shown.json()["invitation"] == code
    r = srv.post(f"/api/tables/{pid}/join", mallory, json={"invitation": code})
    assert r.status_code == 200, r.text
    assert [s["name"] for s in r.json()["seats"]] == ["Anne", "Mallory", None]
    # seated now: no code needed any more
    assert _get(srv, f"/api/tables/{pid}", mallory).status_code == 200
    assert _get(srv, f"/api/tables/{pid}/results", mallory).status_code == 200
    assert _get(srv, f"/api/tables/{pid}/log", mallory).status_code == 200


def test_the_creator_the_seated_and_the_admin_see_a_private_table_without_its_code(
    srv: Server,
) -> None:
    anne, bert, cleo = srv.player("Anne"), srv.player("Bert"), srv.player("Cléo")
    t = srv.create_table(anne, game="toy", players=3, private=True)
    other = srv.create_table(anne, game="toy", players=3, private=True)
    assert t["invitation"] != other["invitation"]  # a code per table
    pid, code = t["id"], t["invitation"]
    # the creator, even after leaving the waiting table (they may still start it)
    assert srv.post(f"/api/tables/{pid}/leave", anne).status_code == 200
    assert _get(srv, f"/api/tables/{pid}", anne).json()["invitation"] == code
    # a code of another table opens nothing here
    r = srv.post(f"/api/tables/{pid}/join", bert, json={"invitation": other["invitation"]})
    assert r.status_code == 404
    assert srv.post(f"/api/tables/{pid}/join", bert, json={"invitation": code}).status_code == 200
    assert srv.post(f"/api/tables/{pid}/join", anne).status_code == 200
    # the admin token sees it through the public route too
    r = srv.client.get(f"/api/tables/{pid}", headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200 and r.json()["invitation"] == code
    # Cléo joins with the link: the table fills and starts; Bert still sees it with no code
    r = srv.post(f"/api/tables/{pid}/join", cleo, json={"invitation": code})
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert _get(srv, f"/api/tables/{pid}", bert).json()["status"] == "playing"


def test_a_websocket_learns_nothing_of_a_private_table_without_its_code(srv: Server) -> None:
    anne, bert, mallory = srv.player("Anne"), srv.player("Bert"), srv.player("Mallory")
    t = srv.create_table(anne, game="toy", players=2, options={"hand": 2}, private=True)
    pid, code = t["id"], t["invitation"]
    nowhere = pid + 1000
    with srv.ws(mallory) as wm, srv.ws() as anon:
        for ws in (wm, anon):
            for tid in range(1, pid + 3):  # the walk
                answer = ws.request({"type": "subscribe", "table": tid, "id": f"s{tid}"})
                assert answer["type"] == "error" and answer["code"] == "unknown_table", answer
            for kind in ("subscribe", "sync"):
                mine = ws.request({"type": kind, "table": pid, "id": 1})
                none = ws.request({"type": kind, "table": nowhere, "id": 1})
                assert mine["code"] == none["code"] == "unknown_table"
                assert mine["message"].replace(str(pid), "ID") == none["message"].replace(
                    str(nowhere), "ID"
                )
            # a wrong code is no code
            wrong = ws.request({"type": "subscribe", "table": pid, "invitation": "x" * 22})
            assert wrong["code"] == "unknown_table"
        assert not any(f["type"] == "state" for f in wm.frames + anon.frames)
        act = wm.act(pid, {"type": "play", "card": "x"})
        assert act["code"] == "unknown_table"

        # with the code: the state follows the ack, and it carries the invitation
        answer = anon.request({"type": "subscribe", "table": pid, "invitation": code, "id": 9})
        assert answer == {"type": "ack", "id": 9}
        state = anon.state(pid)
        assert state["info"]["invitation"] == code and state["info"]["private"]

    # Bert joins with the code, then subscribes as a seated player: no code needed
    assert srv.post(f"/api/tables/{pid}/join", bert, json={"invitation": code}).status_code == 200
    with srv.ws(bert) as wb:
        assert wb.request({"type": "subscribe", "table": pid, "id": 1})["type"] == "ack"
        st = wb.state(pid)
        assert st["info"]["status"] == "playing" and st["view"]["seat"] == 1
        assert wb.sync(pid)["table"] == pid
