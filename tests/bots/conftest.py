"""Fixtures of the robot tables' tests (see tests/serverkit.py)."""

from tests.serverkit import database, sqlite_db

__all__ = ["database", "sqlite_db"]
