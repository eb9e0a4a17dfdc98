"""Structured logs: one JSON object per line, with ``table`` and ``seat`` on lines about a table.

Nothing is configured at import: ``tablee serve`` calls ``configure_logging(settings)``. A line is
"about a table" when its call passed ``extra={"table": id, "seat": s}``, or when it was logged
inside ``log_context(table=..., seat=...)`` (the WebSocket handler and the table manager open one
around each message and each move), so a library's line logged there carries them too.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Any

_UNSET: Any = object()
_table: ContextVar[int | None] = ContextVar("tablee_log_table", default=None)
_seat: ContextVar[int | None] = ContextVar("tablee_log_seat", default=None)

#: attributes every ``LogRecord`` has; anything else on a record came from ``extra=``
_STANDARD = frozenset(
    vars(logging.LogRecord("x", logging.INFO, "x", 0, "x", None, None)).keys()
    | {"message", "asctime", "taskName"}
)


class log_context:
    """Lines logged inside (this task and the tasks it starts) are about ``table`` and ``seat``.

    A class, not a generator context manager: it is entered on every move, and a generator
    costs several times more to set up."""

    __slots__ = ("_s", "_seat", "_t", "_table")

    def __init__(self, table: int | None, seat: int | None = None) -> None:
        self._table = table
        self._seat = seat

    def __enter__(self) -> None:
        self._t = _table.set(self._table)
        self._s = _seat.set(self._seat)

    def __exit__(self, *exc: object) -> None:
        _seat.reset(self._s)
        _table.reset(self._t)


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return str(value)


def _where(record: logging.LogRecord) -> tuple[Any, Any] | None:
    """The (table, seat) a line is about: its ``extra`` fields, else the context's; None: none."""
    table = getattr(record, "table", _UNSET)
    seat = getattr(record, "seat", _UNSET)
    if table is _UNSET:
        table = _table.get()
        if seat is _UNSET:
            seat = _seat.get()
    if table is None:
        return None
    return table, None if seat is _UNSET else seat


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", ["table", "seat"], ...extra fields, ["exc"]}``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        where = _where(record)
        if where is not None:
            out["table"], out["seat"] = where
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out and not key.startswith("_"):
                out[key] = _plain(value)
        if record.exc_info:
            out["exc"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = record.stack_info
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


class TextFormatter(logging.Formatter):
    """The human form (``TABLEE_LOG_FORMAT=text``): the table and seat as a prefix."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        where = _where(record)
        if where is None:
            return text
        table, seat = where
        return f"[table {table}" + ("" if seat is None else f" seat {seat}") + "] " + text


#: the handler ``configure_logging`` installed (replaced, not stacked, on a second call)
_HANDLER: logging.Handler | None = None


def configure_logging(
    level: str = "info", fmt: str = "json", stream: IO[str] | None = None
) -> logging.Handler:
    """One handler on the root logger (stderr by default); uvicorn's loggers propagate to it."""
    global _HANDLER
    root = logging.getLogger()
    if _HANDLER is not None:
        root.removeHandler(_HANDLER)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers.clear()
        lg.propagate = True
    _HANDLER = handler
    return handler


__all__ = ["JsonFormatter", "TextFormatter", "configure_logging", "log_context"]
