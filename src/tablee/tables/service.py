"""The tables layer as the app uses it: the store opened from the settings, the table manager
(one process, or one of several when Redis links them), and the queries of the REST layer.

``tablee.api`` builds one ``Service`` per app and never opens the store itself.
"""

from __future__ import annotations

from tablee.settings import Settings
from tablee.store import Store

from .accounts import Accounts
from .broker import Broker
from .chat import Chat
from .manager import TableManager
from .queries import AdminQueries, Queries
from .ratings import Ratings
from .robots import Robots


class Service:
    def __init__(self, settings: Settings, broker: Broker | None = None) -> None:
        self.settings = settings
        #: the store under everything (the app keeps it on its state for tests and tools)
        self.store = Store(settings.database_url, settings.database_schema)
        self.manager = _manager(settings, self.store, broker)
        self.queries = Queries(self.store)
        self.admin = AdminQueries(self.store)
        self.accounts = Accounts(self.store, settings)
        self.ratings = Ratings(self.store)
        self.chat = Chat(self.store, self.manager, settings)

    async def migrate(self) -> None:
        """Applies the migrations when the settings ask for it (``TABLEE_MIGRATE``)."""
        if self.settings.migrate:
            await self.store.migrate()

    async def start(self) -> None:
        await self.manager.start()
        await self.chat.start()

    async def close(self) -> None:
        try:
            await self.chat.close()
            await self.manager.close()
        finally:
            await self.store.close()


def _manager(settings: Settings, store: Store, broker: Broker | None) -> TableManager:
    """One process, or one of several on one database when Redis links them."""
    robots = Robots(settings.robot_workers, settings.robot_seconds, settings.robot_worlds)
    if settings.redis_url:
        from .cluster import Cluster

        coordination = Cluster(store, settings, broker)
        return TableManager(
            store,
            bot_delay=settings.bot_delay_seconds,
            coordination=coordination,
            robots=robots,
            waiting_ttl=settings.waiting_table_ttl_seconds,
        )
    return TableManager(
        store,
        broker=broker,
        bot_delay=settings.bot_delay_seconds,
        robots=robots,
        waiting_ttl=settings.waiting_table_ttl_seconds,
    )
