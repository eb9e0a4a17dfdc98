"""The tables of the database (SQLAlchemy 2 declarative models).

The action log is append-only: a table's game state is the replay of its rows for the current
``game_no`` (a rematch starts game ``game_no + 1`` at the same table).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy import Table as Table_
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps no time zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime given to the store")
        if value is not None and dialect.name == "sqlite":
            return value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def cast_table(model: type[Base]) -> Table_:
    """The Core table of a model (typed)."""
    table = model.__table__
    assert isinstance(table, Table_)
    return table


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: UTCDateTime,
    }


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    #: the name without case or Unicode look-alikes (``store.names``), unique: null only for a row
    #: written by hand
    name_key: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: sha256 of the bearer token; the token itself is never stored
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    #: an account: the Argon2id hash of its password (None: a guest, known by its token only)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


Index("uq_players_name_key", Player.name_key, unique=True)


class Session(Base):
    """An account's login: an opaque bearer token (its sha256 here), valid until it expires or is
    revoked (logout deletes the row)."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: the address and browser that logged in (shown to the player and the admins)
    ip: Mapped[str | None] = mapped_column(String(64), nullable=True)
    user_agent: Mapped[str | None] = mapped_column(String(200), nullable=True)


class Table(Base):
    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    #: the current game's options (a rematch moves ``first_dealer`` on)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    #: a private table's invitation code (``secrets.token_urlsafe``): seeing or joining the
    #: table takes it, unless one sits there; None for a public table
    invitation: Mapped[str | None] = mapped_column(String(64), nullable=True)
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    #: waiting -> playing -> finished (a rematch goes back to playing)
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: which game of the table this is; 1, then +1 per rematch
    game_no: Mapped[int] = mapped_column(Integer, default=1)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: a stacked deck for the current game (tests and replays only; never set by the public API)
    deck: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    #: the current game's shuffle salt (64 hex digits): its commitment is ``sha256(seed || salt)``
    #: (``tablee.fairness``); None: dealt before commitments were published
    salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: what spectators see: ``hidden`` (no hand), ``moves:N``, ``trick``, ``deal`` (every hand,
    #: that far behind)
    spectators: Mapped[str] = mapped_column(String(16), default="hidden", server_default="hidden")
    #: a finished deal may be replayed with every hand while the game goes on
    deal_replays: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: +1 on every accepted action and every seat or lifecycle change
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: when the seats to act run out of time (None: no timer or nobody to act)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: games won per seat over the table's games
    wins: Mapped[list[Any]] = mapped_column(JSON)
    #: seats that asked for a rematch of the finished game
    rematch_votes: Mapped[list[Any]] = mapped_column(JSON)
    #: "classée" (True) or "amicale": a rated table's games between people move their ratings
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    #: a person the timer played for this many decisions in a row goes to a robot (0: never)
    robot_after: Mapped[int] = mapped_column(Integer, default=3, server_default="3")
    #: the seats a robot plays for their person, by seat (``TableRecord.away``); null: none
    away: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    #: per seat, the decisions in a row the timer made for its person; null: none yet
    timeouts: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    #: the process that owns the table (several processes: ``tables/cluster.py``); None: none yet
    home: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: the fencing token of that ownership, +1 on every change of owner: a write that names an
    #: older one (a home that lost the table) changes nothing
    home_token: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class Process(Base):
    """An app process of a multi-process deployment, alive while it renews ``alive_until``: the
    tables whose home it is are its own until then."""

    __tablename__ = "processes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    alive_until: Mapped[datetime] = mapped_column(UTCDateTime)


class Seat(Base):
    __tablename__ = "seats"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: player | bot | empty
    kind: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id"), nullable=True, index=True
    )
    #: a bot seat's robot level (``tablee.bots.levels``); null: the débutant
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: 1-based position in the game's log
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the table's version once this action was applied
    version: Mapped[int] = mapped_column(Integer)
    #: player | timer | bot
    source: Mapped[str] = mapped_column(String(8))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, index=True)
    #: a player's move: its idempotency key (the player and the ``act``'s id, hashed)
    request: Mapped[str | None] = mapped_column(String(64), nullable=True)


class DealScore(Base):
    """A game's ``deal_end`` event, kept as the game emitted it."""

    __tablename__ = "deal_scores"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: 1-based count of deals ended in this game
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: the action after which the deal ended
    seq: Mapped[int] = mapped_column(Integer)
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class Result(Base):
    """A finished game."""

    __tablename__ = "results"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    outcome: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, index=True)
    #: the game's seed and stacked deck (a rematch draws a new seed on the table row)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    deck: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    #: the salt of the game's shuffle commitment (None: dealt before commitments)
    salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: the options the game was dealt with (a rematch moves the table's ``first_dealer``); None
    #: for a game finished before they were kept, dealt with the table's other options and the
    #: default first dealer
    options: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the game moved its players' ratings: a rated table, every seat a person's from the first
    #: move to the last (no robot seat, no move made by a robot)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)


class ResultSeat(Base):
    """Who sat where in a finished game, their final score and whether they won."""

    __tablename__ = "result_seats"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    won: Mapped[bool] = mapped_column(Boolean)


Index("ix_result_seats_player", ResultSeat.player_id, ResultSeat.won)


class AuditEntry(Base):
    """One admin action: who (the admin token's identity), what, when, to what, and details."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, index=True)
    actor: Mapped[str] = mapped_column(String(64))
    #: e.g. ``table.close``, ``player.ban``
    action: Mapped[str] = mapped_column(String(64), index=True)
    #: ``table`` | ``player`` | None
    target_type: Mapped[str | None] = mapped_column(String(16), nullable=True)
    target_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    ip: Mapped[str | None] = mapped_column(String(64), nullable=True)


Index("ix_audit_log_target", AuditEntry.target_type, AuditEntry.target_id)


class Rating(Base):
    """A player's rating at one game (Weng-Lin: ``tablee.ratings``) and the rated games it
    counts."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    played: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


Index("ix_ratings_game", Rating.game)


class RatingChange(Base):
    """What one rated game did to one player's rating (the history; ``tablee ratings recompute``
    rebuilds ``ratings`` and these rows from the results)."""

    __tablename__ = "rating_changes"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


Index("ix_rating_changes_player", RatingChange.player_id, RatingChange.game, RatingChange.at)


class ChatMessage(Base):
    """A message of a table's chat (``table_id``) or of the lobby's (``table_id`` null).

    ``audience`` is ``all``, or ``spectators`` for a spectator's message written during a deal
    of a partnership game: the players see it once the deal ``(held_game, held_deal)`` is over.
    ``request``: the idempotency key of the ``chat`` that wrote it (the author and its id)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int | None] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), nullable=True
    )
    author_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    author_name: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    audience: Mapped[str] = mapped_column(String(16))
    held_game: Mapped[int | None] = mapped_column(Integer, nullable=True)
    held_deal: Mapped[int | None] = mapped_column(Integer, nullable=True)
    request: Mapped[str | None] = mapped_column(String(64), nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


Index("ix_chat_messages_channel", ChatMessage.table_id, ChatMessage.id)
Index("ix_chat_messages_at", ChatMessage.at)
Index("uq_chat_messages_request", ChatMessage.request, unique=True)


class ChatReport(Base):
    """A player's report of a message, with a copy of it (the message may be deleted since)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int | None] = mapped_column(
        ForeignKey("chat_messages.id", ondelete="SET NULL"), nullable=True
    )
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(200))
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    author_id: Mapped[int] = mapped_column(Integer)
    author_name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


Index("ix_chat_reports_at", ChatReport.at)
Index("uq_chat_reports_message", ChatReport.message_id, ChatReport.reporter_id, unique=True)


class ChatMute(Base):
    """An admin's mute: the player writes nothing in any chat until ``until``."""

    __tablename__ = "chat_mutes"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    until: Mapped[datetime] = mapped_column(UTCDateTime)
    reason: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
