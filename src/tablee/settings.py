"""Configuration: every ``TABLEE_*`` environment variable, read by one settings class.

Nothing is read at import time: the app factory (or the ``serve`` command) builds a ``Settings``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from tablee.limits import check_rate


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
    #: WebSocket frames one connection may send ("N/period" as in ``tablee.limits``; "off": no
    #: limit); a frame over it is answered ``rate_limited`` and not done
    ws_rate_connection: Annotated[str, AfterValidator(check_rate)] = "50/second burst 300"
    #: WebSocket frames all the connections of one player to this process may send together
    ws_rate_player: Annotated[str, AfterValidator(check_rate)] = "100/second burst 600"
    #: ``rate_limited`` answers one connection may get; past them it is closed (1008)
    ws_rate_refusals: Annotated[str, AfterValidator(check_rate)] = "20/10s"
    #: frames queued for a client that does not read them before it is disconnected (4408)
    ws_max_queue: int = Field(default=1000, ge=1)
    #: seconds a connection being closed (too slow, over its rate) has to take its close frame
    #: before the server cuts the connection itself
    ws_close_grace_seconds: float = Field(default=5.0, gt=0)
    #: permessage-deflate, when a client offers it (browsers do). Off: a state is ~0.5 kB, so
    #: compression saves a client a few hundred bytes a move, and costs the server a zlib stream
    #: per connection (~45 KiB) and a compression per frame
    ws_deflate: bool = False
    #: How long a bot seat "thinks" before its move is applied.
    bot_delay_seconds: float = Field(default=0.5, ge=0)
    #: Worker processes where "confirmé" robots think, shared by the tables (0: they play as
    #: débutants).
    robot_workers: int = Field(default=1, ge=0)
    #: A confirmé robot's time per decision (CPU of a worker).
    robot_seconds: float = Field(default=0.3, gt=0)
    #: At most this many worlds (deals of the hidden cards) per decision.
    robot_worlds: int = Field(default=256, ge=1)
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
    #: Chat messages one player may write (every chat, every process: with Redis the bucket is
    #: shared by the processes); past it a message is refused ``rate_limited``, nothing queued.
    chat_rate: Annotated[str, AfterValidator(check_rate)] = "5/10s"
    #: Chat messages sent with a table's state on ``subscribe`` (and with the lobby's).
    chat_history: int = Field(default=30, ge=0, le=200)
    #: Days a chat message is kept; the server deletes older ones (0: kept for ever).
    chat_retention_days: float = Field(default=30.0, ge=0)
    #: Seconds between two deletions of old chat messages.
    chat_prune_seconds: float = Field(default=3600.0, gt=0)
    log_level: str = "info"
    #: ``json`` (one object per line, for log collectors) or ``text`` (for a person at a terminal)
    log_format: str = Field(default="json", pattern="^(json|text)$")
    #: Apply the migrations at start-up.
    migrate: bool = True

    # -- limits (docs/admin.md lists them all). Rates are "N/period" (tablee.limits): a burst of N,
    # refilled at N per period; "off" lifts a limit. The admin token is never rate limited.
    #: REST requests (``/api/...``) from one client address (IPv6: one /64 network)
    rate_limit_address: Annotated[str, AfterValidator(check_rate)] = "1200/minute"
    #: REST requests made with one player's token, whatever the address
    rate_limit_player: Annotated[str, AfterValidator(check_rate)] = "600/minute"
    #: new players (``POST /api/players``) from one client address
    rate_limit_new_players: Annotated[str, AfterValidator(check_rate)] = "60/hour"
    #: new tables (``POST /api/tables``) from one client address
    rate_limit_new_tables: Annotated[str, AfterValidator(check_rate)] = "120/hour"
    #: login attempts (``POST /api/accounts/login``) for one name, and from one client address;
    #: past them a 429 says when to try again
    rate_limit_login_name: Annotated[str, AfterValidator(check_rate)] = "10/hour"
    rate_limit_login_address: Annotated[str, AfterValidator(check_rate)] = "30/hour"
    #: rated games a player needs to appear on a game's rated leaderboard
    leaderboard_min_games: int = Field(default=5, ge=0)
    #: days an account's session (a login) lasts; a new login opens a new one
    session_days: float = Field(default=30.0, gt=0)
    #: larger request bodies are refused (413) before they are read
    max_body_bytes: int = Field(default=65536, ge=1024)
    #: waiting tables a player may have created and not yet seen started (0: no bound)
    max_waiting_tables: int = Field(default=10, ge=0)
    #: seats a player may hold at tables that are not over (0: no bound)
    max_open_seats: int = Field(default=30, ge=0)
    #: seconds a waiting table where nobody but its creator sits stays open after its last
    #: change; then the server closes it (0: never)
    waiting_table_ttl_seconds: float = Field(default=7200.0, ge=0)
    #: Bearer token that reads ``/metrics`` (the admin token does too); None: only the admin token
    metrics_token: str | None = None
