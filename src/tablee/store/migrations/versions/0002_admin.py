"""admin: audit log, each finished game's seed and deck, indexes for the admin's queries

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target_type", sa.String(length=16), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index(op.f("ix_audit_log_at"), "audit_log", ["at"])
    op.create_index(op.f("ix_audit_log_action"), "audit_log", ["action"])
    op.create_index("ix_audit_log_target", "audit_log", ["target_type", "target_id"])
    # an earlier game of a table is replayed from its own seed (a rematch draws a new one)
    op.add_column("results", sa.Column("seed", sa.BigInteger(), nullable=True))
    op.add_column("results", sa.Column("deck", sa.JSON(), nullable=True))
    op.create_index(op.f("ix_results_finished_at"), "results", ["finished_at"])
    op.create_index(op.f("ix_actions_at"), "actions", ["at"])
    op.create_index(op.f("ix_tables_created_at"), "tables", ["created_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_created_at"), table_name="tables")
    op.drop_index(op.f("ix_actions_at"), table_name="actions")
    op.drop_index(op.f("ix_results_finished_at"), table_name="results")
    with op.batch_alter_table("results") as batch:
        batch.drop_column("deck")
        batch.drop_column("seed")
    op.drop_index("ix_audit_log_target", table_name="audit_log")
    op.drop_index(op.f("ix_audit_log_action"), table_name="audit_log")
    op.drop_index(op.f("ix_audit_log_at"), table_name="audit_log")
    op.drop_table("audit_log")
