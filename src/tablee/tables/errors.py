"""Why the tables layer refused something: a protocol error code and a sentence."""

from __future__ import annotations

#: HTTP status per code, for the REST layer (the WebSocket sends the code itself)
HTTP_STATUS = {
    "unknown_table": 404,
    "unauthorized": 401,
    "forbidden": 403,
    "not_seated": 403,
    "bad_request": 422,
}


class TableError(Exception):
    """``code`` is one of the protocol's error codes (``not_your_turn``, ``table_full``...)."""

    def __init__(self, code: str, message: str, loc: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: for a ``bad_request`` over REST: where the wrong value is (``("body", "seat")``)
        self.loc = loc

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 409)
