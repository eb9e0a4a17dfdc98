"""Request and response bodies of the REST API."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

NAME_MIN, NAME_MAX = 2, 24
_NAME_CHARS = re.compile(r"^[\w .'\-]+$")


class ErrorOut(BaseModel):
    """A refusal other than a 422: what went wrong, and the protocol's error code."""

    detail: str
    code: str | None = Field(default=None, examples=["unknown_table"])


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a router that may refuse with these statuses."""
    described = {
        400: "the body is not JSON",
        401: "no token, or an unknown one",
        403: "not allowed (banned, not seated, not the creator, not an admin)",
        404: "no such table or player",
        409: "the table's state refuses it (full, started, over, taken...)",
        413: "the request body is over TABLEE_MAX_BODY_BYTES",
        429: "too many requests: wait the Retry-After seconds (code rate_limited)",
        503: "unavailable (the admin API without a token set)",
    }
    return {s: {"model": ErrorOut, "description": described[s]} for s in statuses}


class NewPlayer(BaseModel):
    name: str = Field(
        description=f"{NAME_MIN} to {NAME_MAX} characters: letters, digits, spaces, - _ . '",
        examples=["Amélie"],
    )

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        name = " ".join(unicodedata.normalize("NFC", value).split())
        if not NAME_MIN <= len(name) <= NAME_MAX:
            raise ValueError(f"a name has {NAME_MIN} to {NAME_MAX} characters")
        if not _NAME_CHARS.match(name):
            raise ValueError("a name holds only letters, digits, spaces and - _ . '")
        if not any(c.isalnum() for c in name):
            raise ValueError("a name needs at least one letter or digit")
        return name


class Player(BaseModel):
    id: int
    name: str
    created_at: datetime


class NewPlayerResponse(Player):
    token: str = Field(description="the player's secret bearer token: shown once, keep it")


class Me(Player):
    tables: list[int] = Field(description="tables where this player has a seat")


class NewTableRequest(BaseModel):
    game: str = Field(examples=["contrecarte"])
    players: int = Field(examples=[4])
    options: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: float | None = Field(
        default=None, description="seconds per decision; null: no timer", examples=[30]
    )
    bots: list[int] = Field(default_factory=list, description="seats played by bots")
    bot_levels: dict[int, Literal["debutant", "confirme"]] = Field(
        default_factory=dict,
        description="robot level per bot seat (seat number: level); a bot seat not named plays"
        " as a debutant",
        examples=[{"1": "confirme"}],
    )
    private: bool = Field(
        default=False,
        description="hidden from the lobby; seen and joined with its invitation code only",
    )
    rated: bool | None = Field(
        default=None,
        description="classée (true) or amicale (false); null: classée when no seat is a bot's."
        " Only games between people are rated",
    )
    robot_after: int = Field(
        default=3,
        ge=0,
        le=100,
        description="a person the timer plays for this many decisions in a row is handed to a"
        " robot, and takes the seat back by coming back; 0: never",
    )
    spectators: str = Field(
        default="hidden",
        description="what spectators see: 'hidden' (no hand), or every hand delayed: 'moves:N'"
        " (N moves behind, 1 to 200), 'trick' (a trick behind), 'deal' (a deal behind)",
        examples=["hidden", "moves:8", "trick"],
    )
    deal_replays: bool = Field(
        default=False,
        description="a finished deal may be replayed with every hand while the game goes on"
        " (default: replays only once the game is over)",
    )


class JoinRequest(BaseModel):
    seat: int | None = Field(default=None, description="a free seat; null: the first free one")
    invitation: str | None = Field(
        default=None,
        max_length=64,
        description="a private table's invitation code (from its link); required there",
    )


class StartRequest(BaseModel):
    fill_with_bots: bool = Field(default=False, description="bots take the empty seats")


class LeaderboardEntry(BaseModel):
    player_id: int
    name: str
    played: int
    won: int


class SeatInfo(BaseModel):
    seat: int
    kind: str = Field(description="player, bot or empty")
    player_id: int | None
    name: str | None
    connected: bool = Field(description="the seat's player has a live connection to the table")
    level: str | None = Field(
        default=None, description="a bot seat's robot level: debutant or confirme"
    )
    away: Away | None = Field(
        default=None,
        description="a robot plays for the seat's person, who may take the seat back",
    )
    absent_since: datetime | None = Field(
        default=None,
        description="since when the seat's person has been away: disconnected, or handed to a"
        " robot (a table not over)",
    )


class Away(BaseModel):
    why: Literal["left", "timeout"] = Field(
        description="left: the person left the table; timeout: the timer played for them"
        " robot_after times in a row"
    )
    since: datetime
    back: bool = Field(
        description="the person asked for the seat back while it had a decision to make: it is"
        " theirs once the robot has made it"
    )


class Creator(BaseModel):
    id: int
    name: str | None


class Watchers(BaseModel):
    count: int
    names: list[str]


class Shuffle(BaseModel):
    commitment: str | None = Field(
        description="sha256(seed || salt) of the current game, published at the deal (null: dealt"
        " before commitments); docs/fairness.md"
    )
    stacked: bool = Field(description="a stacked deck (tests, admins): never shown as verified")
    seed: int | None = Field(description="revealed once the game is over")
    salt: str | None = Field(description="64 hex digits, revealed once the game is over")


class TableInfo(BaseModel):
    id: int
    game: str
    title: str
    status: str = Field(description="waiting, playing or finished")
    players: int
    options: dict[str, Any]
    turn_seconds: float | None
    private: bool
    invitation: str | None = Field(
        default=None,
        description="a private table's invitation code (the link's `invitation`); null: public",
    )
    creator: Creator | None
    game_no: int = Field(description="1, then one more per rematch")
    version: int
    seats: list[SeatInfo]
    free_seats: list[int]
    deadline: datetime | None
    rematch_votes: list[int]
    wins: list[int] = Field(description="games won per seat at this table")
    created_at: datetime
    rated: bool = Field(
        description="the game moves its players' ratings (a classée table, every seat a person's)"
    )
    watchers: Watchers = Field(description="who watches without a seat: count and names")
    robot_after: int = Field(
        default=3, description="timeouts in a row that hand a person to a robot (0: never)"
    )
    shuffle: Shuffle
    spectators: str = Field(
        description="what spectators see: hidden (no hand), moves:N, trick or deal (every hand,"
        " that far behind)"
    )
    deal_replays: bool = Field(
        description="a finished deal may be replayed with every hand while the game goes on"
    )


class GameResult(BaseModel):
    game_no: int
    game: str
    finished_at: datetime
    outcome: dict[str, Any]
    seats: list[dict[str, Any]]
    deals: list[dict[str, Any]]


class Results(BaseModel):
    table: TableInfo
    games: list[GameResult]
