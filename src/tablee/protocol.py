"""The WebSocket protocol: every message both ways, its one parser, its error codes, its encoding.

One definition per message type, as a Pydantic model: the server parses what clients send with
:func:`parse` and builds what it sends from these models (``state`` is built as a plain dict on the
hot path of every move, checked against :class:`State` by the tests). The JSON Schema of both
directions (:func:`json_schema`) is served by the app and rendered in docs/protocol.md
(``python -m tablee.protocol --markdown``).

Pure: Pydantic, the standard library and orjson; imported by ``tables/`` and ``api/`` alike.
"""

from __future__ import annotations

import argparse
import json
import sys
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
    """Every code an ``error`` message (and a refused REST call's ``code``) carries; what each
    means is in :data:`ERROR_DOCS`."""

    BAD_JSON = "bad_json"
    BAD_REQUEST = "bad_request"
    BAD_MESSAGE = "bad_message"
    TOO_LARGE = "too_large"
    UNKNOWN_TYPE = "unknown_type"
    RATE_LIMITED = "rate_limited"
    UNAUTHORIZED = "unauthorized"
    BANNED = "banned"
    FORBIDDEN = "forbidden"
    INTERNAL = "internal"
    UNAVAILABLE = "unavailable"
    CONFLICT = "conflict"
    STALE_VERSION = "stale_version"
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
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_ACTION = "illegal_action"
    BAD_ACTION = "bad_action"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_SEATS = "too_many_seats"
    NAME_TAKEN = "name_taken"
    ROBOT_PLAYS = "robot_plays"
    NOT_AWAY = "not_away"
    BAD_CHAT = "bad_chat"
    MUTED = "muted"
    UNKNOWN_MESSAGE = "unknown_message"


ERROR_DOCS: dict[ErrorCode, str] = {
    ErrorCode.BAD_JSON: "the frame is not JSON text (or is a binary frame)",
    ErrorCode.BAD_REQUEST: "not an object with a string 'type', or a field missing or of the "
    "wrong type (REST: a value out of range)",
    ErrorCode.BAD_MESSAGE: "JSON the server does not read: nested too deep, or strings that are "
    "not valid Unicode (a lone UTF-16 surrogate)",
    ErrorCode.TOO_LARGE: "a frame larger than the server's limit",
    ErrorCode.UNKNOWN_TYPE: "a 'type' the server does not know",
    ErrorCode.RATE_LIMITED: "too many messages too fast: this one was not done; a client that "
    "goes on is disconnected (1008)",
    ErrorCode.UNAUTHORIZED: "no 'hello' yet, or a token nobody holds",
    ErrorCode.BANNED: "the player is banned from this server",
    ErrorCode.FORBIDDEN: "only someone else may do this (starting a table: its creator)",
    ErrorCode.INTERNAL: "the server failed on this message; nothing changed",
    ErrorCode.UNAVAILABLE: "the server's database did not answer in time: nothing was "
    "acknowledged; try again in a moment (REST: 503, with Retry-After; a move is answered "
    "'conflict' instead)",
    ErrorCode.CONFLICT: (
        "the table was busy with other changes too long, or the server that keeps it (or its"
        " database) did not answer in time; send the same act again (its id: a move made"
        " already is answered as it was)"
    ),
    ErrorCode.STALE_VERSION: (
        "an act's 'version' is not the table's version: the move was decided on an older state "
        "and nothing was applied (sync, then decide again)"
    ),
    ErrorCode.UNKNOWN_TABLE: "there is no such table",
    ErrorCode.NOT_SEATED: "the player does not sit at this table",
    ErrorCode.ALREADY_SEATED: "the player already sits at this table",
    ErrorCode.TABLE_FULL: "every seat is taken, or the game has started",
    ErrorCode.SEAT_TAKEN: "this seat is taken",
    ErrorCode.SEATS_EMPTY: "the table cannot start: seats are empty",
    ErrorCode.NOT_STARTED: "the game has not started yet",
    ErrorCode.ALREADY_STARTED: "the game has already started",
    ErrorCode.NOT_FINISHED: "the game is not over yet (a rematch vote)",
    ErrorCode.TABLE_OVER: "the game is over, or an admin closed the table",
    ErrorCode.NOT_A_PLAYER: "that seat holds no player (admin)",
    ErrorCode.NOT_YOUR_TURN: "the game refuses the move: not this seat's turn",
    ErrorCode.ILLEGAL_ACTION: "the game refuses the move: against the rules",
    ErrorCode.BAD_ACTION: "the game refuses the move: not an action of this game (missing or "
    "wrong fields)",
    ErrorCode.TOO_MANY_TABLES: "REST: the player has as many waiting tables as a player may "
    "create (TABLEE_MAX_WAITING_TABLES)",
    ErrorCode.TOO_MANY_SEATS: "REST: the player holds as many seats at tables not over as a "
    "player may (TABLEE_MAX_OPEN_SEATS)",
    ErrorCode.NAME_TAKEN: "REST: another player has this name, or one that differs only in case "
    "or Unicode look-alikes",
    ErrorCode.ROBOT_PLAYS: "a robot plays for this seat since its person left or was handed "
    "over (the timer played for them too often): take the seat back first",
    ErrorCode.NOT_AWAY: "no robot plays for this seat: there is nothing to take back",
    ErrorCode.BAD_CHAT: "a chat message refused: empty, longer than 300 characters, with control "
    "characters, or an unknown quick phrase",
    ErrorCode.MUTED: "an admin muted this player in every chat for a time",
    ErrorCode.UNKNOWN_MESSAGE: "there is no such chat message (a report)",
}


class CloseCode(IntEnum):
    """WebSocket close codes the server uses (with a reason); see :data:`CLOSE_DOCS`."""

    NORMAL = 1000
    POLICY_VIOLATION = 1008
    UNAUTHORIZED = 4401
    BANNED = 4403
    TOO_SLOW = 4408


CLOSE_DOCS: dict[CloseCode, str] = {
    CloseCode.NORMAL: "the server shuts the connection down",
    CloseCode.POLICY_VIOLATION: "the client went on sending over its rate limit",
    CloseCode.UNAUTHORIZED: "'hello' with a token nobody holds",
    CloseCode.BANNED: "the player is banned (also sent at once to a player an admin bans)",
    CloseCode.TOO_SLOW: "the client does not read what it is sent (its queue is full)",
}


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
    invitation: StrictStr | None = Field(
        default=None,
        max_length=64,
        description="a private table's invitation code (from its link): without it, a private"
        " table where the player neither sits nor is the creator is an `unknown_table`",
    )


class Unsubscribe(_Message):
    type: Literal["unsubscribe"]
    table: StrictInt = Field(description=_TABLE_DOC)


class Sync(_Message):
    """Send me this table's current state again (after a version gap)."""

    type: Literal["sync"]
    table: StrictInt = Field(description=_TABLE_DOC)


class Act(_Message):
    """A move at a table where the player sits; ``action`` is one of the state's ``legal``.

    Its ``id`` is also the move's idempotency key, per player and table: an ``act`` sent again
    with the same ``id`` (a retry after a lost connection, on any process) gets the first
    answer again (the same ``ack``, or the same ``error``) and is never applied twice."""

    type: Literal["act"]
    table: StrictInt = Field(description=_TABLE_DOC)
    action: dict[str, Any] = Field(description="the game's action object, with its 'type'")
    version: StrictInt | None = Field(
        default=None,
        description=(
            "the table's version the move was decided on (the state's 'version'); if the table "
            "has moved on, the move is refused as 'stale_version' and nothing is applied"
        ),
    )


#: the quick phrases a client sends in one tap (``chat`` with ``phrase``): key -> text shown
QUICK_PHRASES: dict[str, str] = {
    "bonjour": "Bonjour !",
    "bien_joue": "Bien joué !",
    "merci": "Merci",
    "bravo_partenaire": "Bravo partenaire",
    "oups": "Oups",
    "bonne_partie": "Bonne partie",
    "vite": "On accélère ?",
    "au_revoir": "Au revoir !",
}
#: a chat message's length, in characters once trimmed
CHAT_MAX_CHARS = 300


class Chat(_Message):
    """A chat message at a table (``table``) or in the lobby (no ``table``): free ``text``
    (1 to 300 characters once trimmed, no control characters) or a quick ``phrase`` (a key of
    the quick phrases). Acknowledged once stored; its ``id`` is its idempotency key (a ``chat``
    sent again with the same ``id`` is acknowledged again, never stored twice). Spectators'
    messages during a deal of a partnership game reach the spectators only until the deal ends."""

    type: Literal["chat"]
    table: StrictInt | None = Field(default=None, description="a table id; absent: the lobby")
    text: StrictStr | None = Field(default=None, description="the message (or a 'phrase')")
    phrase: StrictStr | None = Field(
        default=None, description="a quick phrase's key: " + ", ".join(QUICK_PHRASES)
    )


class LobbySubscribe(_Message):
    """Receive the lobby's chat; the last messages (``chat_history``) follow the ``ack``."""

    type: Literal["lobby_subscribe"]


class LobbyUnsubscribe(_Message):
    type: Literal["lobby_unsubscribe"]


class ChatReport(_Message):
    """Report a chat message to the admins (once per message and player)."""

    type: Literal["chat_report"]
    message: StrictInt = Field(description="the reported chat message's id")
    reason: StrictStr = Field(default="", max_length=200, description="why, in a few words")


class Rematch(_Message):
    """A seated player's vote for a new game at this finished table (as ``POST
    /api/tables/{id}/rematch``, without a request of its own): acknowledged once counted, before
    the state that shows it; the new game is dealt once every seated person has voted. Refused
    as ``not_finished`` while the game goes on (a vote sent again once the new game began, too)."""

    type: Literal["rematch"]
    table: StrictInt = Field(description=_TABLE_DOC)


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = (
    Hello
    | Subscribe
    | Unsubscribe
    | Sync
    | Act
    | Rematch
    | Ping
    | Chat
    | LobbySubscribe
    | LobbyUnsubscribe
    | ChatReport
)

#: every client message by its ``type``
CLIENT_MESSAGES: dict[str, type[_Message]] = {
    "hello": Hello,
    "subscribe": Subscribe,
    "unsubscribe": Unsubscribe,
    "sync": Sync,
    "act": Act,
    "rematch": Rematch,
    "ping": Ping,
    "chat": Chat,
    "lobby_subscribe": LobbySubscribe,
    "lobby_unsubscribe": LobbyUnsubscribe,
    "chat_report": ChatReport,
}

#: what a refused field's ``bad_request`` says
_FIELD_ERRORS = {
    "table": "'table' (a table id, a number) is missing",
    "token": "'token' (a string) is missing",
    "action": "'action' (an object with a 'type') is missing",
    "text": "'text' is a string",
    "phrase": "'phrase' is a string",
    "message": "'message' (a chat message id, a number) is missing",
    "reason": "'reason' is a string of at most 200 characters",
}


#: how deep objects and arrays may nest in a client message (actions are two levels deep)
MAX_DEPTH = 32
_TOO_DEEP = f"a message may nest objects and arrays at most {MAX_DEPTH} deep"
_NOT_UNICODE = "a message's strings must be Unicode text (a lone UTF-16 surrogate is not)"


def _bad_values(value: Any, depth_left: int) -> str | None:
    """Why a parsed value cannot be read on (too deep, not Unicode), or None."""
    stack = [(value, depth_left)]
    while stack:
        v, left = stack.pop()
        if isinstance(v, str):
            try:
                v.encode()
            except UnicodeEncodeError:
                return _NOT_UNICODE
        elif isinstance(v, dict | list):
            if left <= 0:
                return _TOO_DEEP
            items = [*v.keys(), *v.values()] if isinstance(v, dict) else v
            stack.extend((item, left - 1) for item in items)
    return None


def _check_values(msg: Any, text: str) -> None:
    # the walk only runs when the text could hold a problem: deep enough to count brackets
    # past the limit, or an escape (a surrogate comes only from a \u escape: the frame itself
    # was decoded from UTF-8)
    if "\\u" not in text and text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    why = _bad_values(msg, MAX_DEPTH)
    if why is not None:
        mid = msg.get("id") if isinstance(msg, dict) else None
        # the answer carries the id only when it can be sent back
        raise ProtocolError(ErrorCode.BAD_MESSAGE, why, None if _bad_values(mid, 8) else mid)


def parse(text: str, max_bytes: int) -> ClientMessage:
    """One text frame as a client message; raises :class:`ProtocolError` (with the message's
    ``id`` when it could be read) for anything else."""
    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a message may hold at most {max_bytes} bytes")
    try:
        msg = json.loads(text)
    except RecursionError:  # far deeper than MAX_DEPTH
        raise ProtocolError(ErrorCode.BAD_MESSAGE, _TOO_DEEP) from None
    except ValueError:
        raise ProtocolError(ErrorCode.BAD_JSON, "a message is one JSON object") from None
    _check_values(msg, text)
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


def peek_id(text: str, max_bytes: int) -> Any:
    """The ``id`` of a frame that will not be done (to answer it), or None."""
    try:
        return parse(text, max_bytes).id
    except ProtocolError as exc:
        return exc.id


# -- server -> client ----------------------------------------------------------------------------


def _type_always_sent(schema: dict[str, Any]) -> None:
    # ``type`` has a default (so replies are built without it) but is always on the wire
    if "type" in schema.get("properties", {}):
        schema["required"] = ["type", *(r for r in schema.get("required", []) if r != "type")]


class Reply(BaseModel):
    """A server -> client message (or a part of one)."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_type_always_sent)


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


class Creator(Reply):
    id: int
    name: str | None


class Away(Reply):
    """Why a robot plays for a seat's person, and since when."""

    why: Literal["left", "timeout"] = Field(
        description="left: the person left the running game; timeout: the timer played for"
        " them robot_after decisions in a row"
    )
    since: str | None = Field(description="ISO-8601")
    back: bool = Field(
        description="the person asked for the seat back while it had a decision to make: it is"
        " theirs once the robot has made it"
    )


class SeatInfo(Reply):
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
        description="a robot plays for the seat's person, who keeps the seat and may take it back",
    )
    absent_since: str | None = Field(
        default=None,
        description="ISO-8601: since when the seat's person has been away from a table not over"
        " (disconnected, as the server saw it, or handed to a robot)",
    )


class Watchers(Reply):
    """Who watches a table without a seat (the connections of the server process that holds
    the table)."""

    count: int
    names: list[str] = Field(description="the spectators' names, one per person")


class Shuffle(Reply):
    """The current game's shuffle commitment (docs/fairness.md): ``sha256(seed || salt)``,
    published at the deal; the seed and salt revealed once the game is over."""

    commitment: str | None = Field(
        description="hex sha256 of the seed's decimal ASCII digits and the 32 salt bytes; null:"
        " dealt before commitments"
    )
    stacked: bool = Field(description="a stacked deck (tests, admins): never shown as verified")
    seed: int | None = Field(description="revealed once the game is over")
    salt: str | None = Field(description="64 hex digits, revealed once the game is over")


class TableInfo(Reply):
    """A table's public description (also the REST lobby's)."""

    id: int
    game: str
    title: str
    status: str = Field(description="waiting, playing or finished")
    players: int
    options: dict[str, Any]
    turn_seconds: float | None = Field(description="seconds per decision; null: no timer")
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
    deadline: str | None = Field(description="ISO-8601")
    rematch_votes: list[int] = Field(description="seats that voted for a rematch")
    wins: list[int] = Field(description="games won per seat at this table")
    created_at: str | None = Field(description="ISO-8601")
    rated: bool = Field(
        description="the game moves its players' ratings (a classée table, every seat a person's)"
    )
    watchers: Watchers
    robot_after: int = Field(
        default=3,
        description="a person the timer plays for this many decisions in a row is handed to a"
        " robot (0: never)",
    )
    shuffle: Shuffle
    spectators: str = Field(
        description="what spectators see: hidden (no hand), or every hand delayed: moves:N (N"
        " moves behind), trick (a trick behind), deal (a deal behind)"
    )
    deal_replays: bool = Field(
        description="a finished deal may be replayed with every hand while the game goes on"
    )


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
    behind: int | None = Field(
        default=None,
        description="a spectator of a table whose spectators see the game delayed: the view (with"
        " every hand, view.hands) is the game this many moves ago; to_act and events are those"
        " of that moment, the version the table's. Absent for players and other spectators",
    )
    journal: list[dict[str, Any]] | None = Field(
        default=None,
        description="only in the answer to 'subscribe': the current deal's events so far, as "
        "this seat may see them (its own private ones included), oldest first, at most 300",
    )
    info: TableInfo | None = Field(
        default=None,
        description="the table's description. Always in the answers to 'subscribe' and 'sync';"
        " after a change, only when it changed since the previous change (its version and"
        " deadline aside, which the state carries itself): absent, the last one received holds,"
        " with this state's version and deadline",
    )


class ChatLine(Reply):
    """One chat message as clients see it (always shown as text, never as HTML)."""

    id: int
    table: int | None = Field(description="its table; null: the lobby")
    author: PlayerRef
    seat: int | None = Field(description="the author's seat when they wrote it; null: watching")
    text: str
    phrase: str | None = Field(description="the quick phrase's key, if it is one")
    at: str = Field(description="ISO-8601")
    audience: Literal["all", "spectators"] = Field(
        description="spectators: a spectator's message during a deal of a partnership game, "
        "seen by the players once the deal is over"
    )


class ChatPush(Reply):
    """A new chat message where this connection listens (a table it subscribed to, the lobby);
    also a spectators' message reaching the players once its deal is over."""

    type: Literal["chat"] = "chat"
    message: ChatLine


class ChatHistory(Reply):
    """The last chat messages this connection may see, oldest first: after a table's first
    ``state`` on ``subscribe``, and after ``lobby_subscribe``'s ``ack``."""

    type: Literal["chat_history"] = "chat_history"
    table: int | None = Field(description="the table; null: the lobby")
    messages: list[ChatLine]
    muted_until: str | None = Field(
        default=None, description="ISO-8601: an admin muted this player until then"
    )


class ChatDeleted(Reply):
    """An admin deleted this chat message: clients take it away."""

    type: Literal["chat_deleted"] = "chat_deleted"
    table: int | None
    message: int = Field(description="the deleted message's id")


class ChatMuted(Reply):
    """An admin muted this connection's player in every chat (until ``until``)."""

    type: Literal["chat_muted"] = "chat_muted"
    until: str = Field(description="ISO-8601")
    message: str = Field(description="a sentence a player can read")


ServerMessage = (
    Ack | Error | Welcome | Pong | State | ChatPush | ChatHistory | ChatDeleted | ChatMuted
)

#: validates any server message (tests check every frame the server sends with it)
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(
    Annotated[ServerMessage, Field(discriminator="type")]  # type: ignore[arg-type, maybe-unrecognized-str-typeform, unused-ignore]
)
#: the client messages as one type (for the schema; :func:`parse` reads frames)
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]  # type: ignore[arg-type, maybe-unrecognized-str-typeform, unused-ignore]
)


# -- encoding ------------------------------------------------------------------------------------


def dumps(msg: dict[str, Any]) -> str:
    """A message as compact JSON text, UTF-8 unescaped. orjson writes the same text as the
    standard encoder (``ensure_ascii=False``, no spaces) several times faster, and a state is
    encoded for every seat after every move."""
    try:
        # without OPT_NON_STR_KEYS, which doubles the cost of every dict (bench/codec.py): the
        # messages' keys are text but for a rare dict keyed by seats, encoded on the way below
        return orjson.dumps(msg).decode()
    except orjson.JSONEncodeError:
        return _dumps_any(msg)


def _dumps_any(msg: Any) -> str:
    """``dumps`` of what orjson's fast path refuses: keys that are not text (written as the
    standard encoder writes them), a whole number beyond 64 bits (only the standard encoder
    writes it)."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def ack_text(mid: Any) -> str:
    """``encode(Ack(id=mid))``, without building the model: every move is acknowledged."""
    return dumps({"type": "ack", "id": mid})


def encode(msg: Reply) -> str:
    """A reply as text: the fields it was given (an absent ``id`` stays absent)."""
    return dumps({"type": msg.type} | msg.model_dump(exclude_unset=True))  # type: ignore[attr-defined]


# -- the published schema ------------------------------------------------------------------------

SCHEMA_PATH = "/api/protocol/schema.json"


def json_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of every WebSocket message: ``ClientMessage`` (client ->
    server) and ``ServerMessage`` (server -> client) under ``$defs``, with the error and close
    codes and what each means."""
    ref = "#/$defs/{model}"
    client = CLIENT_MESSAGE.json_schema(ref_template=ref)
    server = SERVER_MESSAGE.json_schema(ref_template=ref, mode="serialization")
    defs: dict[str, Any] = {}
    for part in (client, server):
        for name, d in part.pop("$defs").items():
            assert defs.get(name, d) == d, f"two different definitions named {name}"
            defs[name] = d
    defs["ErrorCode"] = {
        "title": "ErrorCode",
        "type": "string",
        "oneOf": [{"const": c.value, "description": ERROR_DOCS[c]} for c in ErrorCode],
    }
    defs["CloseCode"] = {
        "title": "CloseCode",
        "description": "WebSocket close codes the server uses (with a reason)",
        "type": "integer",
        "oneOf": [{"const": c.value, "description": CLOSE_DOCS[c]} for c in CloseCode],
    }
    defs["ClientMessage"] = {"title": "ClientMessage", **client}
    defs["ServerMessage"] = {"title": "ServerMessage", **server}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_PATH,
        "title": "tablée WebSocket protocol (/ws)",
        "description": "JSON text frames, one object each. A message is a ClientMessage (client "
        "-> server) or a ServerMessage (server -> client).",
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(defs.items())),
    }


def _type_of(prop: dict[str, Any]) -> str:
    """A property's JSON Schema type, in a few words."""
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1]
    if "const" in prop:
        return json.dumps(prop["const"])
    if "anyOf" in prop:
        return " or ".join(_type_of(p) for p in prop["anyOf"])
    kind = prop.get("type")
    if kind == "array":
        return f"array of {_type_of(prop.get('items', {}))}"
    if kind == "object":
        return "object"
    if kind is None:
        return "any JSON"
    return str(kind)


def _model_section(name: str, schema: dict[str, Any]) -> list[str]:
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    kind = props.get("type", {}).get("const")
    head = f"### `{kind}`" if kind else f"### {name}"
    out = [head, ""]
    if schema.get("description"):
        out += [" ".join(str(schema["description"]).split()).replace("``", "`"), ""]
    out += ["| field | type | | |", "|---|---|---|---|"]
    for field, prop in sorted(props.items(), key=lambda fp: fp[0] != "type"):
        need = "required" if field in required else "optional"
        desc = " ".join(str(prop.get("description", "")).split()).replace("|", "\\|")
        out.append(f"| `{field}` | {_type_of(prop)} | {need} | {desc} |")
    return [*out, ""]


def markdown() -> str:
    """docs/protocol.md: the schema rendered for people (``python -m tablee.protocol
    --markdown``); a test checks the committed file is this text."""
    schema = json_schema()
    defs = schema["$defs"]

    def members(union: str) -> list[str]:
        return [str(r["$ref"]).rsplit("/", 1)[-1] for r in defs[union]["oneOf"]]

    client, server = members("ClientMessage"), members("ServerMessage")
    parts = [n for n in defs if n not in {*client, *server, "ClientMessage", "ServerMessage"}]
    parts = [n for n in parts if n not in {"ErrorCode", "CloseCode"}]
    lines = [
        "# The WebSocket protocol (`/ws`)",
        "",
        "<!-- generated by `python -m tablee.protocol --markdown` from src/tablee/protocol.py;"
        " do not edit -->",
        "",
        "JSON text frames, one object each, every client message answered. A message's `id`"
        " (any JSON value) comes back in its answer. Bad input never closes the connection and"
        " never changes a table (a `hello` with an unknown token closes it)."
        f" The machine-readable JSON Schema of every message is served at `{SCHEMA_PATH}`"
        " (generated from the same models); the REST side has its OpenAPI at `/openapi.json`."
        " The flow and the REST side: [server.md](server.md).",
        "",
        "## Client → server",
        "",
    ]
    for name in client:
        lines += _model_section(name, defs[name])
    lines += ["## Server → client", ""]
    for name in server:
        lines += _model_section(name, defs[name])
    lines += ["## Parts", ""]
    for name in parts:
        lines += _model_section(name, defs[name])
    lines += ["## Error codes", "", "| code | meaning |", "|---|---|"]
    lines += [f"| `{c}` | {ERROR_DOCS[c]} |" for c in ErrorCode]
    lines += ["", "## Close codes", "", "| code | meaning |", "|---|---|"]
    lines += [f"| {c.value} | {CLOSE_DOCS[c]} |" for c in CloseCode]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tablee.protocol", description="the WebSocket protocol's schema"
    )
    parser.add_argument("--markdown", action="store_true", help="docs/protocol.md, not JSON")
    args = parser.parse_args(argv)
    if args.markdown:
        sys.stdout.write(markdown())
    else:
        sys.stdout.write(json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
