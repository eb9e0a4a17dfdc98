"""Several processes share one PostgreSQL database (the homes' leases and fencing tokens are
PostgreSQL's): a process asked to join others on SQLite refuses to start, and says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablee.settings import Settings
from tablee.tables.service import Service


def test_several_processes_on_sqlite_are_refused_with_the_setting_to_change(
    tmp_path: Path,
) -> None:
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path}/t.db", redis_url="redis://127.0.0.1:6379/0"
    )
    with pytest.raises(ValueError, match="TABLEE_DATABASE_URL"):
        Service(settings)
