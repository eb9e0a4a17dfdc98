"""chat: the messages of the tables and of the lobby, the players' reports of them, and the
admins' mutes

A message is kept until ``TABLEE_CHAT_RETENTION_DAYS`` after it was written (the server deletes
older ones); a report keeps a copy of what it reports, so that it outlives the message.

Revision ID: 0010
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("tables.id", ondelete="CASCADE", name="fk_chat_messages_table_id_tables"),
            nullable=True,
        ),
        sa.Column(
            "author_id",
            sa.Integer(),
            sa.ForeignKey(
                "players.id", ondelete="CASCADE", name="fk_chat_messages_author_id_players"
            ),
            nullable=False,
        ),
        sa.Column("author_name", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("phrase", sa.String(length=32), nullable=True),
        sa.Column("audience", sa.String(length=16), nullable=False),
        sa.Column("held_game", sa.Integer(), nullable=True),
        sa.Column("held_deal", sa.Integer(), nullable=True),
        sa.Column("request", sa.String(length=64), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_channel", "chat_messages", ["table_id", "id"])
    op.create_index("ix_chat_messages_at", "chat_messages", ["at"])
    op.create_index("uq_chat_messages_request", "chat_messages", ["request"], unique=True)
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "message_id",
            sa.Integer(),
            sa.ForeignKey(
                "chat_messages.id",
                ondelete="SET NULL",
                name="fk_chat_reports_message_id_chat_messages",
            ),
            nullable=True,
        ),
        sa.Column(
            "reporter_id",
            sa.Integer(),
            sa.ForeignKey(
                "players.id", ondelete="CASCADE", name="fk_chat_reports_reporter_id_players"
            ),
            nullable=False,
        ),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("author_id", sa.Integer(), nullable=False),
        sa.Column("author_name", sa.String(length=64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chat_reports"),
    )
    op.create_index("ix_chat_reports_at", "chat_reports", ["at"])
    op.create_index(
        "uq_chat_reports_message", "chat_reports", ["message_id", "reporter_id"], unique=True
    )
    op.create_table(
        "chat_mutes",
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE", name="fk_chat_mutes_player_id_players"),
            nullable=False,
        ),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("by", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", name="pk_chat_mutes"),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("uq_chat_reports_message", table_name="chat_reports")
    op.drop_index("ix_chat_reports_at", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("uq_chat_messages_request", table_name="chat_messages")
    op.drop_index("ix_chat_messages_at", table_name="chat_messages")
    op.drop_index("ix_chat_messages_channel", table_name="chat_messages")
    op.drop_table("chat_messages")
