"""ratings per game: the tables' "classée / amicale" flag, which results were rated, each player's
rating per game and the history of its changes

Tables and results already there: tables are rated (the default of a table with no robot; one
with a robot seat never rates a game anyway); results stay unrated (`tablee ratings recompute`
does not rate the past).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.add_column(
        "results", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_ratings_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", "game", name="pk_ratings"),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name="fk_rating_changes_table_id_tables",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_rating_changes_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "game_no", "seat", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "game", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_game", table_name="ratings")
    op.drop_table("ratings")
    if op.get_bind().dialect.name == "sqlite":
        # as 0004: a batch copy would drop tables others refer to
        op.execute("ALTER TABLE results DROP COLUMN rated")
        op.execute("ALTER TABLE tables DROP COLUMN rated")
    else:
        op.drop_column("results", "rated")
        op.drop_column("tables", "rated")
