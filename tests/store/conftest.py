"""Fixtures of the store tests (see tests/serverkit.py)."""

from collections.abc import AsyncIterator

import pytest

from tablee.store import Store
from tests.serverkit import Database, database, migrated, postgres_db, sqlite_db, store, toy_game

__all__ = [
    "database",
    "postgres_db",
    "postgres_store",
    "sqlite_db",
    "sqlite_store",
    "store",
    "toy_game",
]


@pytest.fixture
async def sqlite_store(sqlite_db: Database) -> AsyncIterator[Store]:
    """A migrated store on a new SQLite file, for what only SQLite does (its writer's thread)."""
    async for s in migrated(sqlite_db):
        yield s


@pytest.fixture
async def postgres_store(postgres_db: Database) -> AsyncIterator[Store]:
    """A migrated store on a new PostgreSQL schema, for what only PostgreSQL does."""
    async for s in migrated(postgres_db):
        yield s
