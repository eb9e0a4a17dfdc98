"""Player names unique without regard to case and Unicode look-alikes (issue 16, item 10): a sign-up
or a rename to a name another player has, written in any case or with compatibility characters,
is refused in French; the migration gives the names already alike a number."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text

from tablee.store import Store
from tablee.store.names import name_key
from tests.serverkit import Database, Server

ADMIN = "names-admin-token-0123456789"
AUTH = {"Authorization": f"Bearer {ADMIN}"}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Alice", "alice"),
        ("Alice", "ALICE"),
        ("Alice", "Ａｌｉｃｅ"),  # full-width letters
        ("Hugo", "ℌugo"),  # a letter of mathematics
        ("Straße", "STRASSE"),
        ("Amélie", "Ame\u0301lie"),  # é as e and a combining accent
        ("Jean Luc", "jean\u00a0luc"),  # a no-break space
    ],
)
def test_a_name_alike_in_case_or_look_alikes_is_taken(
    sqlite_db: Database, first: str, second: str
) -> None:
    with Server(sqlite_db, admin_token=ADMIN) as srv:
        srv.player(first)
        r = srv.client.post("/api/players", json={"name": second})
        assert r.status_code == 409, r.text
        body = r.json()
        assert body["code"] == "name_taken"
        assert "est déjà pris" in body["detail"] and "choisissez-en un autre" in body["detail"]
        assert srv.client.get("/api/admin/players", headers=AUTH).json()["total"] == 1


def test_names_that_differ_stay_apart(sqlite_db: Database) -> None:
    with Server(sqlite_db) as srv:
        # an accent is part of a name; a letter of another script is another letter
        for name in ("Amelie", "Amélie", "Аmelie", "Amelie 2", "Ame-lie"):
            assert srv.client.post("/api/players", json={"name": name}).status_code == 201, name


def test_taken_names_are_refused_on_postgres_too(database: Database) -> None:
    with Server(database) as srv:
        srv.player("Zoé")
        r = srv.client.post("/api/players", json={"name": "ZOÉ"})
        assert r.status_code == 409 and r.json()["code"] == "name_taken"


def test_an_admin_rename_to_a_taken_name_is_refused(database: Database) -> None:
    with Server(database, admin_token=ADMIN) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        r = srv.client.post(
            f"/api/admin/players/{bob.id}/rename", json={"name": "ALICE"}, headers=AUTH
        )
        assert r.status_code == 409 and r.json()["code"] == "name_taken"
        assert srv.client.get("/api/me", headers=srv.headers(bob)).json()["name"] == "Bob"
        audit = srv.client.get("/api/admin/audit", headers=AUTH).json()["items"]
        assert audit == []  # a refused action writes nothing
        # one's own name in another case is one's own
        r = srv.client.post(
            f"/api/admin/players/{alice.id}/rename", json={"name": "ALICE"}, headers=AUTH
        )
        assert r.status_code == 200 and r.json()["name"] == "ALICE"
        # and the old name is free again once renamed away
        r = srv.client.post(
            f"/api/admin/players/{bob.id}/rename", json={"name": "Robert"}, headers=AUTH
        )
        assert r.status_code == 200
        assert srv.client.post("/api/players", json={"name": "bob"}).status_code == 201


def test_two_sign_ups_of_one_name_at_once_make_one_player(database: Database) -> None:
    """The unique index decides when both looked before either wrote."""

    async def run() -> list[Any]:
        store = Store(database.url, database.schema)
        await store.migrate()
        try:
            return await asyncio.gather(
                *(store.create_player(n) for n in ("Marius", "MARIUS", "marius", "Ｍarius")),
                return_exceptions=True,
            )
        finally:
            await store.close()

    results = asyncio.run(run())
    made = [r for r in results if isinstance(r, tuple)]
    refused = [r for r in results if not isinstance(r, tuple)]
    assert len(made) == 1
    assert {type(r).__name__ for r in refused} == {"NameTaken"}


# -- the migration ---------------------------------------------------------------------------------


def _alembic(connection: Any, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    from tablee.store.repo import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    if revision.startswith("-"):
        command.downgrade(cfg, revision[1:])
    else:
        command.upgrade(cfg, revision)


OLD_NAMES = ["Alice", "ALICE", "Ａｌｉｃｅ", "Bob", "alice 2", "Zoé", "Zoe", "A" * 24, "a" * 24]


def test_the_migration_keys_every_name_and_numbers_the_names_already_alike(
    database: Database,
) -> None:
    async def run() -> tuple[list[Any], list[Any], list[Any]]:
        store = Store(database.url, database.schema)
        try:
            async with store.engine.begin() as c:
                await c.run_sync(lambda conn: _alembic(conn, "0003"))
            async with store.engine.begin() as c:
                for i, name in enumerate(OLD_NAMES):
                    await c.execute(
                        text(
                            "INSERT INTO players (name, token_hash, created_at, banned)"
                            " VALUES (:n, :t, CURRENT_TIMESTAMP, false)"
                        ),
                        {"n": name, "t": f"hash{i}"},
                    )
            await store.migrate()
            async with store.engine.connect() as c:
                rows = (
                    await c.execute(text("SELECT id, name, name_key FROM players ORDER BY id"))
                ).all()
                audit = (
                    await c.execute(
                        text(
                            "SELECT actor, action, target_type, target_id FROM audit_log"
                            " ORDER BY id"
                        )
                    )
                ).all()
            again = [await store.create_player(n) for n in ("Bob 2",)]
            return list(rows), list(audit), again
        finally:
            await store.close()

    rows, audit, _ = asyncio.run(run())
    names = [r[1] for r in rows]
    assert names == [
        "Alice",  # the oldest keeps its name
        "ALICE 2",
        "Ａｌｉｃｅ 3",
        "Bob",
        "alice 2 2",  # "alice 2" was taken by then
        "Zoé",
        "Zoe",
        "A" * 24,
        "a" * 22 + " 2",  # cut to fit 24 characters
    ]
    assert [r[2] for r in rows] == [name_key(n) for n in names]
    assert len({r[2] for r in rows}) == len(rows)
    assert audit == [("migration", "player.rename", "player", pid) for pid in (2, 3, 5, 9)]


def test_the_migration_downgrades_and_upgrades_again(database: Database) -> None:
    async def run() -> list[Any]:
        store = Store(database.url, database.schema)
        try:
            await store.migrate()
            await store.create_player("Alice")
            async with store.engine.begin() as c:
                await c.run_sync(lambda conn: _alembic(conn, "-0003"))
            async with store.engine.begin() as c:
                await c.execute(
                    text(
                        "INSERT INTO players (name, token_hash, created_at, banned)"
                        " VALUES ('ALICE', 'h', CURRENT_TIMESTAMP, false)"
                    )
                )
            await store.migrate()
            async with store.engine.connect() as c:
                return list(
                    (await c.execute(text("SELECT name, name_key FROM players ORDER BY id"))).all()
                )
        finally:
            await store.close()

    assert asyncio.run(run()) == [("Alice", "alice"), ("ALICE 2", "alice 2")]
