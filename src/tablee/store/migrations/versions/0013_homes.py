"""tables with a home: the process that owns a table (``tables.home``) and its fencing token
(``tables.home_token``, +1 on every change of owner), and the app processes' leases
(``processes``: one row each, renewed while the process lives)

Tables made before have no home: the first process that needs one takes it.

Revision ID: 0013
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("alive_until", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("home", sa.String(32), nullable=True))
        batch.add_column(
            sa.Column("home_token", sa.BigInteger(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("home_token")
        batch.drop_column("home")
    op.drop_table("processes")
