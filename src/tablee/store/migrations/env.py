"""Alembic environment. The app runs migrations programmatically (``Store.migrate``) and hands
its connection over in ``config.attributes["connection"]``; the ``alembic`` command line (with
``-x url=...`` or ``TABLEE_DATABASE_URL``) gets its own async engine."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection, text

from tablee.store.models import Base
from tablee.store.repo import MIGRATION_LOCK

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # a transaction-level lock: released with the migration's commit (or its rollback)
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_own_engine() -> None:
    from tablee.settings import Settings
    from tablee.store.repo import make_engine

    settings = Settings()
    url = context.get_x_argument(as_dictionary=True).get("url") or settings.database_url
    engine = make_engine(url, settings.database_schema, migrations=True)
    async with engine.begin() as conn:
        await conn.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
elif (conn := config.attributes.get("connection")) is not None:
    _run(conn)
else:
    asyncio.run(_run_own_engine())
