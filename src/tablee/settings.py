"""Configuration: every ``TABLEE_*`` environment variable, read by one settings class.

Nothing is read at import time: the app factory (or the ``serve`` command) builds a ``Settings``.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TABLEE_", extra="ignore")

    #: SQLAlchemy async URL: ``sqlite+aiosqlite:///path`` or ``postgresql+asyncpg://...``.
    database_url: str = "sqlite+aiosqlite:///./var/tablee.db"
    #: PostgreSQL schema to use (``search_path``); None: the server's default.
    database_schema: str | None = None
    #: Bearer token of the admin API; None disables it.
    admin_token: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    #: Larger WebSocket frames are refused with ``too_large`` (the connection stays open).
    max_message_bytes: int = Field(default=16384, ge=256)
    #: How long a bot seat "thinks" before its move is applied.
    bot_delay_seconds: float = Field(default=0.5, ge=0)
    #: Redis pub/sub between several app processes (None: one process, in-process broker).
    redis_url: str | None = None
    #: Prefix of this deployment's Redis channel names (several deployments on one Redis).
    redis_prefix: str = "tablee"
    #: Several processes: how often each looks in the database for overdue timers, bots a dead
    #: process left waiting, and changes it missed.
    poll_seconds: float = Field(default=1.0, gt=0)
    #: Several processes: how often each looks for banned players among its open sockets (a ban
    #: announced on Redis closes them at once; this catches a lost announcement).
    ban_check_seconds: float = Field(default=5.0, gt=0)
    log_level: str = "info"
    #: ``json`` (one object per line, for log collectors) or ``text`` (for a person at a terminal)
    log_format: str = Field(default="json", pattern="^(json|text)$")
    #: Apply the migrations at start-up.
    migrate: bool = True
