"""Waiting tables are bounded (issue 16, item 3): a restart does not load them one by one (it
stays within seconds whatever their number), and the ones nobody joined are closed after
``TABLEE_WAITING_TABLE_TTL_SECONDS`` by a sweep every process runs."""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, update

from tablee.games import get_game
from tablee.store import Store
from tablee.store import models as m
from tablee.tables import TableManager
from tablee.tables.seats import NOBODY_CAME
from tests.serverkit import Database, OtherProcesses, Server, ToyGame

#: enough that loading them one by one (a row and its seats each) took many seconds
MANY = 5000


async def _insert_waiting(db: Database, creator: int, n: int) -> list[int]:
    """``n`` waiting two-seat tables of ``creator`` (its seat taken, the other free), written
    straight into the database in bulk."""
    store = Store(db.url, db.schema)
    now = datetime.now(UTC)
    options = get_game("toy").normalize_options(None)
    rows = [
        {
            "game": "toy",
            "options": options,
            "players": 2,
            "turn_seconds": None,
            "private": False,
            "creator_id": creator,
            "status": "waiting",
            "game_no": 1,
            "seed": secrets.randbits(62),
            "version": 1,
            "wins": [0, 0],
            "rematch_votes": [],
            "rated": True,
            "created_at": now,
            "updated_at": now,
        }
        for _ in range(n)
    ]
    try:
        async with store.engine.begin() as conn:
            await conn.execute(insert(m.Table), rows)
            q = select(m.Table.id).where(m.Table.creator_id == creator).order_by(m.Table.id)
            ids = list((await conn.scalars(q)).all())
            seats = [
                {"table_id": t, "seat": s, "kind": "player" if s == 0 else "empty",
                 "player_id": creator if s == 0 else None}
                for t in ids
                for s in (0, 1)
            ]  # fmt: skip
            await conn.execute(insert(m.Seat), seats)
        return ids
    finally:
        await store.close()


def _started(db: Database, **settings: Any) -> tuple[Server, float]:
    srv = Server(db, **settings)
    began = time.perf_counter()
    srv.__enter__()
    return srv, time.perf_counter() - began


def test_a_restart_with_thousands_of_waiting_tables_stays_quick_and_they_still_work(
    database: Database, toy_game: ToyGame
) -> None:
    with Server(database) as srv:
        anne, bert = srv.player("Anne"), srv.player("Bert")
    srv, empty = _started(database)  # the same database, with no table yet
    srv.__exit__(None, None, None)
    ids = asyncio.run(_insert_waiting(database, anne.id, MANY))
    assert len(ids) == MANY
    srv, full = _started(database)
    try:
        print(f"\nrestart: {empty:.2f} s with no table, {full:.2f} s with {MANY} waiting tables")
        # loose: what matters is that it does not grow with the tables (one by one, it was
        # many seconds here)
        assert full < 3 * empty + 1.5, (empty, full)
        assert len(srv.manager.live_tables()) == 0, "waiting tables are loaded on first use"
        # they still work: one fills and starts, another is started with a robot by its creator
        first, last = ids[0], ids[-1]
        r = srv.post(f"/api/tables/{last}/join", bert)
        assert r.status_code == 200 and r.json()["status"] == "playing", r.text
        r = srv.post(f"/api/tables/{first}/start", anne, json={"fill_with_bots": True})
        assert r.status_code == 200 and r.json()["status"] == "playing", r.text
        with srv.ws(anne) as wa:
            st = wa.sync(last)
            assert st["view"]["seat"] == 0 and st["legal"]
            assert st["to_act"] == [0]
            assert wa.act(last, st["legal"][0])["type"] == "ack"
    finally:
        srv.__exit__(None, None, None)


def _age(srv: Server, table_id: int, seconds: float) -> None:
    """The table's last change, ``seconds`` ago."""

    async def run() -> None:
        async with srv.app.state.store.engine.begin() as conn:
            when = datetime.now(UTC) - timedelta(seconds=seconds)
            await conn.execute(
                update(m.Table).where(m.Table.id == table_id).values(updated_at=when)
            )

    srv.call(run)


def test_a_waiting_table_nobody_joined_is_closed_after_the_ttl(
    database: Database, toy_game: ToyGame
) -> None:
    hour = 3600.0
    with Server(database, waiting_table_ttl_seconds=hour, max_waiting_tables=2) as srv:
        anne, bert = srv.player("Anne"), srv.player("Bert")
        alone = srv.create_table(anne, game="toy", players=3)["id"]
        joined = srv.create_table(anne, game="toy", players=3)["id"]
        assert srv.post(f"/api/tables/{joined}/join", bert).status_code == 200
        recent = srv.create_table(bert, game="toy", players=2)["id"]
        # at her bound of waiting tables, Anne may not open a third
        r = srv.post("/api/tables", anne, json={"game": "toy", "players": 2})
        assert r.status_code == 409 and r.json()["code"] == "too_many_tables"
        for t in (alone, joined):
            _age(srv, t, hour + 60)
        _age(srv, recent, hour - 60)
        with srv.ws(anne) as wa:
            wa.request({"type": "subscribe", "table": alone})
            wa.state(alone)
            closed = srv.call(srv.manager.expire_waiting, hour)
            assert closed == [alone]  # Bert sits at the other; Bert's own is not old enough
            told = wa.state(alone)
        assert told["over"] and told["outcome"]["closed"] and told["outcome"]["by"] == "server"
        assert told["outcome"]["reason"] == NOBODY_CAME
        assert [e["type"] for e in told["events"]] == ["table_closed"]
        shown = srv.client.get(f"/api/tables/{alone}").json()
        assert shown["status"] == "finished"
        # out of the lobby (which lists waiting and playing tables), and off Anne's bound
        lobby = srv.client.get("/api/tables", params={"status": "waiting"}).json()
        assert {t["id"] for t in lobby} == {joined, recent}
        assert srv.post("/api/tables", anne, json={"game": "toy", "players": 2}).status_code == 201
        # a closed table takes nobody
        r = srv.post(f"/api/tables/{alone}/join", bert)
        assert r.status_code == 409 and r.json()["code"] == "table_over"
        assert srv.call(srv.manager.expire_waiting, hour) == []


def test_the_sweep_runs_by_itself(database: Database, toy_game: ToyGame) -> None:
    with Server(database, waiting_table_ttl_seconds=0.2) as srv:
        anne = srv.player("Anne")
        t = srv.create_table(anne, game="toy", players=2)["id"]
        deadline = time.monotonic() + 10
        while srv.client.get(f"/api/tables/{t}").json()["status"] == "waiting":
            assert time.monotonic() < deadline, "the waiting table was never closed"
            time.sleep(0.05)
        assert srv.client.get(f"/api/tables/{t}").json()["status"] == "finished"


async def test_two_processes_sweeping_at_once_close_each_table_once(
    database: Database, toy_game: ToyGame
) -> None:
    s1, s2 = Store(database.url, database.schema), Store(database.url, database.schema)
    await s1.migrate()
    m1 = TableManager(s1, broker=OtherProcesses(), bot_delay=0)
    m2 = TableManager(s2, broker=OtherProcesses(), bot_delay=0)
    try:
        anne, _ = await s1.create_player("Anne")
        tables = [(await m1.create_table(anne, "toy", 2)).id for _ in range(6)]
        await asyncio.sleep(0.05)
        one, two = await asyncio.gather(m1.expire_waiting(0.01), m2.expire_waiting(0.01))
        assert sorted(one + two) == tables and not set(one) & set(two)
        for t in tables:
            rec = await s2.table(t)
            assert rec is not None and rec.status == "finished"
            assert rec.version == 2, "closed once: one change"
    finally:
        for mgr, st in ((m1, s1), (m2, s2)):
            await mgr.close()
            await st.close()
