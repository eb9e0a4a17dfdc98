"""The store on SQLite and PostgreSQL: migrations, version checks, one transaction per action."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from tablee.store import (
    LoggedAction,
    StaleVersion,
    Store,
    TableRecord,
)
from tablee.store.repo import _upgrade
from tests.store.kit import toy_table


async def _table(store: Store) -> TableRecord:
    return await toy_table(store, seed=2**61 + 5)


async def test_migrations_apply_once_and_downgrade_cleanly(store: Store) -> None:
    await store.migrate()  # a second start-up changes nothing
    async with store.engine.connect() as conn:
        heads = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
    assert heads == [(_head(),)]
    async with store.engine.begin() as conn:
        await conn.run_sync(lambda c: _downgrade(c))
    async with store.engine.begin() as conn:
        await conn.run_sync(_upgrade)
    t = await _table(store)
    assert t.seed == 2**61 + 5 and t.seats[0].name == "Alice"


def _head() -> str:
    """The newest migration (each issue that changes the schema adds one)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from tablee.store.repo import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def _downgrade(connection: object) -> None:
    from alembic import command
    from alembic.config import Config

    from tablee.store.repo import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.downgrade(cfg, "base")


async def test_a_stale_writer_is_refused_and_changes_nothing(store: Store) -> None:
    t = await _table(store)
    mine = dataclasses.replace(t, version=t.version + 1, status="playing")
    theirs = dataclasses.replace(t, version=t.version + 1, status="finished")
    await store.save_table(mine, t.version)
    with pytest.raises(StaleVersion):
        await store.save_table(theirs, t.version)
    with pytest.raises(StaleVersion):
        move = LoggedAction(1, 0, {"type": "play", "card": "T01"}, "player")
        await store.record_action(
            dataclasses.replace(theirs, version=t.version + 1), t.version, move
        )
    now = await store.table(t.id)
    assert now is not None and now.status == "playing" and now.version == t.version + 1
    assert await store.actions(t.id, 1) == []


async def test_an_action_and_its_table_version_are_one_transaction(store: Store) -> None:
    t = await _table(store)
    v = t.version
    first = LoggedAction(1, 0, {"type": "play", "card": "T01"}, "player")
    await store.record_action(dataclasses.replace(t, version=v + 1), v, first)
    # the same seq again: the log row is refused, so the version must not move either
    with pytest.raises(IntegrityError):
        again = LoggedAction(1, 1, {"type": "play", "card": "T02"}, "player")
        await store.record_action(dataclasses.replace(t, version=v + 2), v + 1, again)
    now = await store.table(t.id)
    assert now is not None and now.version == v + 1
    log = await store.actions(t.id, 1)
    assert [(a.seq, a.seat, a.action, a.version) for a in log] == [(1, 0, first.action, v + 1)]


async def test_a_table_loaded_in_one_read_is_its_row_and_its_games_log_up_to_its_version(
    store: Store,
) -> None:
    t = await _table(store)
    # waiting for its players: no log read
    assert await store.table_with_actions(t.id) == (await store.table(t.id), [])
    playing = dataclasses.replace(t, status="playing", version=t.version + 1)
    await store.save_table(playing, t.version)
    v = playing.version
    for seq in (1, 2):
        move = LoggedAction(seq, seq % 2, {"type": "play", "card": f"T0{seq}"}, "player")
        await store.record_action(dataclasses.replace(playing, version=v + seq), v + seq - 1, move)
    rec, rows = await store.table_with_actions(t.id)
    assert rec == await store.table(t.id) and rec is not None and rec.version == v + 2
    assert rows == await store.actions(t.id, rec.game_no, upto=rec.version)
    assert [a.seq for a in rows] == [1, 2]
    assert await store.table_with_actions(t.id + 10_000) == (None, [])
    assert await store.table_with_actions(0) == (None, [])


async def test_deals_and_results_are_kept_with_the_action_that_ended_them(store: Store) -> None:
    t = await _table(store)
    v = t.version
    deal = {"type": "deal_end", "seat": None, "scores": [3, 4]}
    a1 = LoggedAction(1, 0, {"type": "play"}, "player")
    await store.record_action(dataclasses.replace(t, version=v + 1), v, a1, [deal])
    over = dataclasses.replace(
        t,
        version=v + 2,
        status="finished",
        outcome={"scores": [3, 9], "winners": [1]},
        wins=[0, 1],
    )
    a2 = LoggedAction(2, 1, {"type": "play"}, "timer")
    await store.record_action(over, v + 1, a2, [{**deal, "scores": [0, 5]}])
    results = await store.results(t.id)
    assert len(results) == 1
    game = results[0]
    assert [(d["deal"], d["seq"], d["event"]["scores"]) for d in game["deals"]] == [
        (1, 1, [3, 4]),
        (2, 2, [0, 5]),
    ]
    assert [(s["kind"], s["name"], s["score"], s["won"]) for s in game["seats"]] == [
        ("player", "Alice", 3, False),
        ("empty", None, 9, True),
    ]
    board = await store.leaderboard()
    assert [(r.name, r.played, r.won) for r in board] == [("Alice", 1, 0)]
    assert [a.source for a in await store.actions(t.id, 1)] == ["player", "timer"]


async def test_tokens_are_found_by_their_hash_only(store: Store) -> None:
    p, token = await store.create_player("Alice")
    assert (await store.player_by_token(token)) == p
    assert await store.player_by_token(token + "x") is None
    await store.set_banned(p.id, True)
    banned = await store.player_by_token(token)
    assert banned is not None and banned.banned


async def test_writes_committed_together_stay_all_or_nothing_each(store: Store) -> None:
    import asyncio

    tables = [await _table(store) for _ in range(4)]
    stale = tables[2]
    await store.save_table(dataclasses.replace(stale, version=stale.version + 1), stale.version)

    async def move(t: TableRecord) -> None:
        action = LoggedAction(1, 0, {"type": "play", "card": f"T0{t.id}"}, "player")
        await store.record_action(dataclasses.replace(t, version=t.version + 1), t.version, action)

    # queued together, they go to the store as one batch but do not share their fate
    commits = store.commits
    outcome = await asyncio.gather(*(move(t) for t in tables), return_exceptions=True)
    assert store.commits == commits + 1
    assert [type(o).__name__ for o in outcome] == [
        "NoneType",
        "NoneType",
        "StaleVersion",
        "NoneType",
    ]
    for t in tables:
        log = await store.actions(t.id, 1)
        assert len(log) == (0 if t is stale else 1)
        assert (await store.table(t.id)).version == t.version + 1  # type: ignore[union-attr]
