"""accounts: a password (Argon2id hash), an email and the claim date on players; login sessions

A guest claims its name: the row stays (same id, same games), its guest token is retired and the
logins get sessions, each a hashed token with an expiry.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("password_hash", sa.Text(), nullable=True))
    op.add_column("players", sa.Column("email", sa.String(254), nullable=True))
    op.add_column("players", sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ip", sa.String(64), nullable=True),
        sa.Column("user_agent", sa.String(200), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_sessions_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_sessions"),
        sa.UniqueConstraint("token_hash", name="uq_sessions_token_hash"),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_sessions_player_id", table_name="sessions")
    op.drop_table("sessions")
    if op.get_bind().dialect.name == "sqlite":
        # as 0004: a batch copy would drop the players table the seats refer to
        for column in ("claimed_at", "email", "password_hash"):
            op.execute(f"ALTER TABLE players DROP COLUMN {column}")
    else:
        for column in ("claimed_at", "email", "password_hash"):
            op.drop_column("players", column)
