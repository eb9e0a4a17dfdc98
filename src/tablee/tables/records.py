"""The tables' domain words and records: table statuses, seat kinds, and the plain records the
layers pass each other (never ORM objects).

They belong to the tables layer: ``tablee.store`` reads and writes them (and re-exports them),
``tablee.api`` gets them through ``tablee.tables``. This module imports nothing of the app, so
the store may import it without importing the rest of the tables layer.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: seat kinds
PLAYER, BOT, EMPTY = "player", "bot", "empty"
#: table statuses
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
#: why a robot plays for a seat's person: they left; the timer played for them too often
LEFT, TIMEOUT = "left", "timeout"
#: the default of ``TableRecord.robot_after``
DEFAULT_ROBOT_AFTER = 3
#: ids (tables, players) are 32-bit: no table or player has a larger one
MAX_ID = 2**31 - 1


@dataclass(frozen=True)
class PlayerRecord:
    id: int
    name: str
    created_at: datetime
    banned: bool = False
    #: an account (a password set), not a guest
    claimed: bool = False


@dataclass
class SeatRecord:
    seat: int
    kind: str = EMPTY
    player_id: int | None = None
    #: the player's name (filled by the store on reads; ignored on writes)
    name: str | None = None
    #: a bot seat's robot level (``tablee.bots.levels``); None: the débutant
    level: str | None = None


@dataclass
class TableRecord:
    """A table's row and its seats. The tables layer changes a copy and hands it back to the store
    with the version it started from."""

    id: int
    game: str
    options: dict[str, Any]
    players: int
    turn_seconds: float | None
    private: bool
    creator_id: int | None
    status: str
    game_no: int
    seed: int
    deck: list[str] | None
    version: int
    deadline: datetime | None
    outcome: dict[str, Any] | None
    wins: list[int]
    rematch_votes: list[int]
    created_at: datetime
    seats: list[SeatRecord] = field(default_factory=list)
    creator_name: str | None = None
    #: "classée" (True) or "amicale": whether its games between people move their ratings
    rated: bool = True
    #: a person whose time runs out this many decisions in a row is handed to a robot (0: never)
    robot_after: int = DEFAULT_ROBOT_AFTER
    #: the seats a robot plays for their person (who keeps the seat and may take it back), by
    #: seat: ``why`` ("left": the person left; "timeout": the timer played for them
    #: ``robot_after`` times in a row), ``since`` (ISO time), ``back`` (the person asked for the
    #: seat back while it had a decision to make: it is theirs again once the robot has made it)
    away: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: per seat: the decisions in a row the timer made for the person sitting there
    timeouts: list[int] = field(default_factory=list)
    #: the current game's shuffle salt (hex): its commitment is ``fairness.commitment(seed,
    #: salt)``; None: no commitment (dealt before they were published)
    salt: str | None = None
    #: what spectators see (``fairness.SpectatorMode``): ``hidden``, ``moves:N``, ``trick``,
    #: ``deal``
    spectators: str = "hidden"
    #: a finished deal of a game still being played may be replayed with every hand
    deal_replays: bool = False
    #: a private table's invitation code (None: a public table)
    invitation: str | None = None
    #: several processes: the process that owns the table, and the fencing token of that
    #: ownership (``tables/cluster.py``); read from the store, never written by a change
    home: str | None = None
    home_token: int = 0

    def admits(self, player_id: int | None, invitation: str | None = None) -> bool:
        """Whether the table exists for this viewer: a public table for anyone; a private one
        for its creator, its seated players, and whoever brings its invitation code (its id
        alone, being sequential, must open nothing)."""
        if not self.private:
            return True
        if player_id is not None and (
            player_id == self.creator_id or self.seat_of(player_id) is not None
        ):
            return True
        return (
            self.invitation is not None
            and invitation is not None
            and hmac.compare_digest(invitation.encode("utf-8", "replace"), self.invitation.encode())
        )

    def seat_of(self, player_id: int) -> int | None:
        for s in self.seats:
            if s.kind == PLAYER and s.player_id == player_id:
                return s.seat
        return None


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: int
    action: dict[str, Any]
    source: str
    at: datetime | None = None
    #: the table's version once applied (set by the store from the table record)
    version: int = 0
    #: a player's move: its idempotency key (``request_key``), kept with the log row so that a
    #: re-sent ``act`` is recognised on any process and after a restart
    request: str | None = None


@dataclass(frozen=True)
class NewTable:
    game: str
    options: dict[str, Any]
    players: int
    turn_seconds: float | None
    private: bool
    creator_id: int | None
    seed: int
    seats: list[SeatRecord]
    status: str = WAITING
    deck: list[str] | None = None
    rated: bool = True
    invitation: str | None = None
    robot_after: int = DEFAULT_ROBOT_AFTER
    salt: str | None = None
    spectators: str = "hidden"
    deal_replays: bool = False


@dataclass(frozen=True)
class LeaderboardRow:
    player_id: int
    name: str
    played: int
    won: int


#: chat audiences: everyone, or (a spectator's message during a deal of a partnership game) the
#: spectators until the deal is over
ALL, SPECTATORS = "all", "spectators"


@dataclass(frozen=True)
class ChatRecord:
    """A chat message as stored (``table_id`` None: the lobby's)."""

    id: int
    table_id: int | None
    author_id: int
    author_name: str
    seat: int | None
    text: str
    phrase: str | None
    audience: str
    at: datetime
    #: the deal (game number, deals finished before it) until whose end the players do not see it
    held_game: int | None = None
    held_deal: int | None = None
    deleted: bool = False


@dataclass(frozen=True)
class NewChat:
    """A chat message to store."""

    table_id: int | None
    author_id: int
    author_name: str
    seat: int | None
    text: str
    phrase: str | None
    audience: str
    held_game: int | None = None
    held_deal: int | None = None
    #: the idempotency key of the ``chat`` message (the author and its id), or None
    request: str | None = None


@dataclass(frozen=True)
class ChatReportRecord:
    id: int
    message_id: int | None
    reporter_id: int
    reason: str
    table_id: int | None
    author_id: int
    author_name: str
    text: str
    at: datetime


@dataclass(frozen=True)
class ChatMuteRecord:
    player_id: int
    until: datetime
    reason: str
    by: str
    at: datetime
