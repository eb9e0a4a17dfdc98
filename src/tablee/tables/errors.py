"""Why the tables layer refused something (a protocol :class:`ErrorCode` and a sentence), and the
one place where the games' refusal codes become protocol codes."""

from __future__ import annotations

from tablee.engine import IllegalAction
from tablee.protocol import ErrorCode

#: HTTP status per code, for the REST layer (the WebSocket sends the code itself)
HTTP_STATUS = {
    ErrorCode.UNAVAILABLE: 503,
    ErrorCode.UNKNOWN_TABLE: 404,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.NOT_SEATED: 403,
    ErrorCode.BAD_REQUEST: 422,
}

#: ``IllegalAction.code`` of the games -> the protocol's code; any other code is an illegal action
ENGINE_CODES = {
    "illegal_action": ErrorCode.ILLEGAL_ACTION,
    "bad_action": ErrorCode.BAD_ACTION,
    "not_your_turn": ErrorCode.NOT_YOUR_TURN,
    "game_over": ErrorCode.TABLE_OVER,
}


class TableError(Exception):
    """A refusal: ``code`` is what the client is told (``not_your_turn``, ``table_full``...)."""

    def __init__(self, code: ErrorCode, message: str, loc: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: for a ``bad_request`` over REST: where the wrong value is (``("body", "seat")``)
        self.loc = loc

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 409)

    @classmethod
    def refused(cls, exc: IllegalAction) -> TableError:
        """A game's refusal as the protocol tells it."""
        return cls(ENGINE_CODES.get(exc.code, ErrorCode.ILLEGAL_ACTION), exc.reason)


#: what a message or a REST call that failed on the database out of reach is told
DATABASE_AWAY = (
    "the database did not answer in time: nothing was acknowledged; try again in a moment"
)


def database_away(exc: BaseException) -> TableError | None:
    """The refusal of a message or a REST call that failed on the database out of reach (a
    partition, a restart: ``unavailable``, send it again), or None for any other failure."""
    from tablee.store.writes import unreachable  # the store imports this package's records

    if not unreachable(exc):
        return None
    return TableError(ErrorCode.UNAVAILABLE, DATABASE_AWAY)


def database_errors() -> tuple[type[Exception], ...]:
    """The classes of the failures ``database_away`` may tell as the database out of reach."""
    from tablee.store.writes import driver_errors

    return driver_errors()


def unknown_table(table_id: int) -> TableError:
    """There is no such table, or none this viewer may know of (a private table without its
    invitation): the two answers are the same, word for word."""
    return TableError(ErrorCode.UNKNOWN_TABLE, f"there is no table {table_id}")


class Repeated(Exception):
    """A re-sent ``act`` (its idempotency key is known): nothing is applied again; the caller
    gives the first answer again (``answer``: the version the move made, or the refusal's code
    and message)."""

    def __init__(self, answer: int | tuple[ErrorCode, str]) -> None:
        super().__init__("a move already answered")
        self.answer = answer


class Superseded(Exception):
    """An automatic move (timer, bot) was chosen for a state another process has replaced since:
    the caller decides again from the new one. Never sent to a client."""


class NotHome(Exception):
    """A player's move reached a process that is not (or no longer) the table's home: the
    manager sends it to the home. Never sent to a client."""
