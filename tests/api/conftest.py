"""Fixtures of the server tests (see tests/serverkit.py).

Every frame a test's WebSocket client receives is checked against the protocol: its model in
``tablee.protocol`` (the one definition) and the JSON Schema the app publishes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema_rs
import pytest

from tablee.protocol import SERVER_MESSAGE, json_schema
from tests.serverkit import WS, database, sqlite_db, toy_game

__all__ = ["check_frame", "database", "sqlite_db", "toy_game"]


@cache
def _published() -> Any:
    schema = json_schema()
    return jsonschema_rs.validator_for({"$ref": "#/$defs/ServerMessage", "$defs": schema["$defs"]})


def check_frame(frame: dict[str, Any]) -> None:
    """A frame the server sent follows its message's definition (AssertionError otherwise)."""
    SERVER_MESSAGE.validate_python(frame)
    errors = [e.message for e in _published().iter_errors(frame)]
    assert not errors, f"{frame} does not follow the published schema: {errors}"


@pytest.fixture(autouse=True)
def _frames_follow_the_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = WS.raw

    def checked(self: WS, timeout: float = 10) -> dict[str, Any]:
        frame = raw(self, timeout)
        check_frame(frame)
        return frame

    monkeypatch.setattr(WS, "raw", checked)
