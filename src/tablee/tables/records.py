"""The tables' domain words and records: table statuses, seat kinds, and the plain records the
layers pass each other (never ORM objects).

They belong to the tables layer: ``tablee.store`` reads and writes them (and re-exports them),
``tablee.api`` gets them through ``tablee.tables``. This module imports nothing of the app, so
the store may import it without importing the rest of the tables layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: seat kinds
PLAYER, BOT, EMPTY = "player", "bot", "empty"
#: table statuses
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
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


@dataclass(frozen=True)
class LeaderboardRow:
    player_id: int
    name: str
    played: int
    won: int
