"""Fixtures of the server tests (see tests/serverkit.py)."""

from tests.serverkit import database, postgres_db, sqlite_db, toy_game

__all__ = ["database", "postgres_db", "sqlite_db", "toy_game"]
