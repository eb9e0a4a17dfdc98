"""private tables' invitations: a random code, in the invitation link, that seeing or joining a
private table requires (a private table's id alone, being sequential, opened it to anyone)

Private tables made before this revision get a code of their own: their seated players keep
access without it, and others need the link the table's page now shows.

Revision ID: 0009
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("invitation", sa.String(length=64), nullable=True))
    tables = sa.table(
        "tables",
        sa.column("id", sa.Integer),
        sa.column("private", sa.Boolean),
        sa.column("invitation", sa.String),
    )
    conn = op.get_bind()
    ids = conn.execute(sa.select(tables.c.id).where(tables.c.private.is_(True))).scalars().all()
    for table_id in ids:
        conn.execute(
            sa.update(tables)
            .where(tables.c.id == table_id)
            .values(invitation=secrets.token_urlsafe(16))
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("invitation")
