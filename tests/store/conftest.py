"""Fixtures of the store tests (see tests/serverkit.py)."""

from collections.abc import AsyncIterator

import pytest

from tablee.store import Store
from tests.serverkit import Database, database, postgres_db, sqlite_db, toy_game

__all__ = ["database", "postgres_db", "sqlite_db", "store", "toy_game"]


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Store]:
    """A migrated store on a clean database (SQLite, then PostgreSQL)."""
    s = Store(database.url, database.schema)
    await s.migrate()
    try:
        yield s
    finally:
        await s.close()
