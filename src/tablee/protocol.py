"""The WebSocket protocol: every message both ways, its one parser, its error codes, its encoding.

One definition per message type, as a Pydantic model: the server parses what clients send with
:func:`parse` and builds what it sends from these models (``state`` is built as a plain dict on the
hot path of every move, checked against :class:`State` by the tests). The JSON Schema of both
directions (:func:`json_schema`) is served by the app and rendered in docs/protocol.md
(``python -m tablee.protocol --markdown``).

Pure: Pydantic, the standard library and orjson; imported by ``tables/`` and ``api/`` alike.
"""

from __future__ import annotations

import json
from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)


class ErrorCode(StrEnum):
    """Every code an ``error`` message (and a refused REST call's ``code``) carries."""

    #: a frame is not JSON text (or is binary)
    BAD_JSON = "bad_json"
    #: a message is not an object with a string ``type``, or a field is missing or of the wrong type
    BAD_REQUEST = "bad_request"
    #: a message is JSON but not one the server reads (nested too deep, strings that are not
    #: valid Unicode)
    BAD_MESSAGE = "bad_message"
    #: a frame larger than the server's limit
    TOO_LARGE = "too_large"
    #: a ``type`` the server does not know
    UNKNOWN_TYPE = "unknown_type"
    #: too many messages too fast; nothing was done
    RATE_LIMITED = "rate_limited"
    #: no ``hello`` yet, or an unknown token
    UNAUTHORIZED = "unauthorized"
    #: the player is banned from this server
    BANNED = "banned"
    #: only someone else may do this (start a table: its creator)
    FORBIDDEN = "forbidden"
    #: the server failed on this message; nothing changed
    INTERNAL = "internal"
    #: the table busy with other changes for too long; try again
    CONFLICT = "conflict"
    UNKNOWN_TABLE = "unknown_table"
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    SEATS_EMPTY = "seats_empty"
    NOT_STARTED = "not_started"
    ALREADY_STARTED = "already_started"
    NOT_FINISHED = "not_finished"
    TABLE_OVER = "table_over"
    NOT_A_PLAYER = "not_a_player"
    #: the game refuses the move: not this seat's turn
    NOT_YOUR_TURN = "not_your_turn"
    #: the game refuses the move: against the rules
    ILLEGAL_ACTION = "illegal_action"
    #: the game refuses the move: not an action of this game (missing or wrong fields)
    BAD_ACTION = "bad_action"


class CloseCode(IntEnum):
    """WebSocket close codes the server uses, with the reason sent along."""

    NORMAL = 1000
    #: a client that keeps sending over its rate limit
    POLICY_VIOLATION = 1008
    #: ``hello`` with a token nobody holds
    UNAUTHORIZED = 4401
    #: the player is banned
    BANNED = 4403
    #: the client does not read what it is sent
    TOO_SLOW = 4408


class ProtocolError(Exception):
    """A frame the server refuses before any handler runs: answered with an ``error``."""

    def __init__(self, code: ErrorCode, message: str, id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = id


# -- client -> server ----------------------------------------------------------------------------

_ID_DOC = (
    "any JSON value, echoed in the answer to this message (the browser client numbers its moves)"
)
_TABLE_DOC = "a table id"


class _Message(BaseModel):
    # unknown fields are ignored (older and newer clients); known ones are checked strictly
    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)

    id: Any = Field(default=None, description=_ID_DOC)


class Hello(_Message):
    """First message of a connection: who the player is (a bad token closes with 4401)."""

    type: Literal["hello"]
    token: StrictStr = Field(min_length=1, description="the player's token")


class Subscribe(_Message):
    """Receive this table's states (as the seated player, else as a spectator); the current
    state follows the ``ack``."""

    type: Literal["subscribe"]
    table: StrictInt = Field(description=_TABLE_DOC)


class Unsubscribe(_Message):
    type: Literal["unsubscribe"]
    table: StrictInt = Field(description=_TABLE_DOC)


class Sync(_Message):
    """Send me this table's current state again (after a version gap)."""

    type: Literal["sync"]
    table: StrictInt = Field(description=_TABLE_DOC)


class Act(_Message):
    """A move at a table where the player sits; ``action`` is one of the state's ``legal``."""

    type: Literal["act"]
    table: StrictInt = Field(description=_TABLE_DOC)
    action: dict[str, Any] = Field(description="the game's action object, with its 'type'")


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Hello | Subscribe | Unsubscribe | Sync | Act | Ping

#: every client message by its ``type``
CLIENT_MESSAGES: dict[str, type[_Message]] = {
    "hello": Hello,
    "subscribe": Subscribe,
    "unsubscribe": Unsubscribe,
    "sync": Sync,
    "act": Act,
    "ping": Ping,
}

#: what a refused field's ``bad_request`` says
_FIELD_ERRORS = {
    "table": "'table' (a table id, a number) is missing",
    "token": "'token' (a string) is missing",
    "action": "'action' (an object with a 'type') is missing",
}


def parse(text: str, max_bytes: int) -> ClientMessage:
    """One text frame as a client message; raises :class:`ProtocolError` (with the message's
    ``id`` when it could be read) for anything else."""
    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a message may hold at most {max_bytes} bytes")
    try:
        msg = json.loads(text)
    except ValueError:
        raise ProtocolError(ErrorCode.BAD_JSON, "a message is one JSON object") from None
    if not isinstance(msg, dict):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "a message is a JSON object with a 'type'")
    mid = msg.get("id")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "a message needs a 'type' (a string)", mid)
    model = CLIENT_MESSAGES.get(kind)
    if model is None:
        known = ", ".join(sorted(CLIENT_MESSAGES))
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r}; known: {known}", mid
        )
    try:
        return model.model_validate(msg)  # type: ignore[return-value]
    except ValidationError as exc:
        field = next((str(e["loc"][0]) for e in exc.errors() if e["loc"]), "")
        message = _FIELD_ERRORS.get(field, f"'{field}' is not valid")
        raise ProtocolError(ErrorCode.BAD_REQUEST, message, mid) from None


# -- server -> client ----------------------------------------------------------------------------


class Reply(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ack(Reply):
    """The message with this ``id`` was done (an ``act``: committed, before its ``state``)."""

    type: Literal["ack"] = "ack"
    id: Any = Field(description="the acknowledged message's id (null when it had none)")


class Error(Reply):
    """The message was refused and changed nothing (``id``: the refused message's, if any)."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str = Field(description="a sentence a player can read")
    id: Any = Field(default=None, description="the refused message's id; absent if it had none")


class PlayerRef(Reply):
    id: int
    name: str


class Welcome(Reply):
    """The answer to a good ``hello``."""

    type: Literal["welcome"] = "welcome"
    player: PlayerRef
    id: Any = Field(default=None, description="the hello's id; absent if it had none")


class Pong(Reply):
    type: Literal["pong"] = "pong"
    id: Any = Field(default=None, description="the ping's id; absent if it had none")


class SeatInfo(Reply):
    seat: int
    kind: str = Field(description="player, bot or empty")
    player_id: int | None
    name: str | None
    connected: bool


class TableInfo(Reply):
    """A table's public description (also the REST lobby's)."""

    id: int
    game: str
    title: str
    status: str = Field(description="waiting, playing or finished")
    players: int
    options: dict[str, Any]
    turn_seconds: int | None
    private: bool
    creator: PlayerRef | None
    game_no: int
    version: int
    seats: list[SeatInfo]
    free_seats: list[int]
    deadline: str | None = Field(description="ISO-8601")
    rematch_votes: list[int]
    wins: list[int]
    created_at: str | None = Field(description="ISO-8601")


class State(Reply):
    """After every change of a subscribed table (and after ``subscribe`` and ``sync``): what
    this connection's seat may see. Versions go up by one per change; a gap means: ``sync``."""

    type: Literal["state"] = "state"
    table: int
    version: int
    view: dict[str, Any] | None = Field(description="the game's view for this seat")
    legal: list[dict[str, Any]] = Field(
        description="exactly the actions 'act' accepts from this seat now (empty: spectators)"
    )
    to_act: list[int] = Field(description="the seats the game waits on")
    deadline: str | None = Field(description="ISO-8601 deadline of the seats to act, if timed")
    over: bool
    outcome: dict[str, Any] | None
    events: list[dict[str, Any]] = Field(description="what happened since the previous state")
    info: TableInfo


ServerMessage = Ack | Error | Welcome | Pong | State

#: validates any server message (tests check every frame the server sends with it)
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(
    Annotated[ServerMessage, Field(discriminator="type")]  # type: ignore[arg-type]
)
#: the client messages as one type (for the schema; :func:`parse` reads frames)
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]  # type: ignore[arg-type]
)


# -- encoding ------------------------------------------------------------------------------------


def dumps(msg: dict[str, Any]) -> str:
    """A message as compact JSON text, UTF-8 unescaped. orjson writes the same text as the
    standard encoder (``ensure_ascii=False``, no spaces) several times faster, and a state is
    encoded for every seat after every move."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        # a whole number beyond 64 bits, which only the standard encoder writes
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def encode(msg: Reply) -> str:
    """A reply as text: the fields it was given (an absent ``id`` stays absent)."""
    return dumps({"type": msg.type} | msg.model_dump(exclude_unset=True))  # type: ignore[attr-defined]
