"""robots standing in for people: a table's ``robot_after`` (a person the timer played for that
many decisions in a row is handed to a robot; 0: never), ``away`` (the seats a robot plays for
their person, who may take them back) and ``timeouts`` (per seat, the timer's decisions in a row)

Tables made before keep the default of 3, nobody away, no count.

Revision ID: 0012
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("robot_after", sa.Integer(), nullable=False, server_default="3"))
        batch.add_column(sa.Column("away", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("timeouts", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("timeouts")
        batch.drop_column("away")
        batch.drop_column("robot_after")
