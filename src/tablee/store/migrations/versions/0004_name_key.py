"""player names unique without regard to case and Unicode look-alikes (players.name_key)

Each player's key is computed (``tablee.store.names.name_key``) and a unique index put on it. Names
that were already the same name (``Alice`` and ``ALICE``, ``Ａｌｉｃｅ``): the oldest player keeps
theirs; each later one gets a number after it (``ALICE 2``, cut to fit 24 characters), and the
audit log says so (``player.rename`` by ``migration``), so that admins can tell them.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from tablee.store.names import name_key

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME_MAX = 24
REASON = "two players had one name, in another case or with look-alike characters (migration 0004)"

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.Text),
)
audit = sa.table(
    "audit_log",
    sa.column("at", sa.DateTime(timezone=True)),
    sa.column("actor", sa.String),
    sa.column("action", sa.String),
    sa.column("target_type", sa.String),
    sa.column("target_id", sa.Integer),
    sa.column("details", sa.JSON),
    sa.column("ip", sa.String),
)


def numbered(name: str, n: int) -> str:
    suffix = f" {n}"
    return name[: NAME_MAX - len(suffix)].rstrip() + suffix


def upgrade() -> None:
    op.add_column("players", sa.Column("name_key", sa.Text(), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(sa.select(players.c.id, players.c.name).order_by(players.c.id)).all()
    taken: set[str] = set()
    keys: list[dict[str, Any]] = []
    renamed: list[dict[str, Any]] = []
    for pid, name in rows:
        new, key, n = name, name_key(name), 1
        while key in taken:
            n += 1
            new = numbered(name, n)
            key = name_key(new)
        taken.add(key)
        keys.append({"pid": pid, "new_name": new, "key": key})
        if new != name:
            renamed.append({"pid": pid, "from": name, "to": new})
    update = (
        players.update()
        .where(players.c.id == sa.bindparam("pid"))
        .values(name=sa.bindparam("new_name"), name_key=sa.bindparam("key"))
    )
    for i in range(0, len(keys), 1000):
        conn.execute(update, keys[i : i + 1000])
    # SQLite keeps naive UTC, as the app's own column type writes it
    at = datetime.now(UTC)
    if conn.dialect.name == "sqlite":
        at = at.replace(tzinfo=None)
    if renamed:
        conn.execute(
            audit.insert(),
            [
                {
                    "at": at,
                    "actor": "migration",
                    "action": "player.rename",
                    "target_type": "player",
                    "target_id": r["pid"],
                    "details": {"from": r["from"], "to": r["to"], "reason": REASON},
                    "ip": None,
                }
                for r in renamed
            ],
        )
    op.create_index("uq_players_name_key", "players", ["name_key"], unique=True)


def downgrade() -> None:
    # the numbers given to look-alike names stay: they are names now
    op.drop_index("uq_players_name_key", table_name="players")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite drops a column itself (3.35+); a batch copy would drop the players table, which
        # the seats refer to
        op.execute("ALTER TABLE players DROP COLUMN name_key")
    else:
        op.drop_column("players", "name_key")
