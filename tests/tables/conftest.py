"""Fixtures of the server tests (see tests/serverkit.py)."""

from tests.serverkit import database, sqlite_db, store, toy_game

__all__ = ["database", "sqlite_db", "store", "toy_game"]
