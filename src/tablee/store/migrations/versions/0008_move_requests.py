"""exactly-once moves: a player's move keeps its idempotency key (the player and the ``act``'s
id, hashed) with its log row, so that a re-sent ``act`` is answered again instead of applied again,
on any process and after a restart

Moves already logged have none.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("actions", sa.Column("request", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("request")
