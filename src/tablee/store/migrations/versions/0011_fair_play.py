"""replays, a verifiable shuffle and spectators who cannot coach

- ``tables.salt``, ``results.salt``: the random salt (32 bytes, 64 hex digits) of the game's
  shuffle commitment, ``sha256(seed || salt)`` (``tablee.fairness``): published at the deal,
  revealed with the seed once the game is over. Games dealt before have none (no commitment).
- ``tables.spectators``: what a spectator sees: ``hidden`` (no hand, as before), ``moves:N``
  (every hand, N moves behind), ``trick`` (every hand, a trick behind), ``deal`` (every hand, a
  deal behind).
- ``tables.deal_replays``: a finished deal of a game still being played may be replayed with
  every hand shown (off: only once the game is over).

Revision ID: 0011
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("salt", sa.String(64), nullable=True))
    op.add_column(
        "tables",
        sa.Column("spectators", sa.String(16), nullable=False, server_default="hidden"),
    )
    op.add_column(
        "tables",
        sa.Column("deal_replays", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("results", sa.Column("salt", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("salt")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("deal_replays")
        batch.drop_column("spectators")
        batch.drop_column("salt")
