"""The protocol module: one parser, one list of error codes, and no bare code left in src/."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tablee.engine import IllegalAction
from tablee.protocol import (
    Act,
    ErrorCode,
    Hello,
    Ping,
    ProtocolError,
    Sync,
    parse,
)
from tablee.tables import Superseded, TableError

SRC = Path(__file__).resolve().parents[2] / "src" / "tablee"


def _code_args() -> list[tuple[str, int, ast.expr]]:
    """The code argument of every ``TableError(...)``, ``ProtocolError(...)`` and
    ``<something>.error(...)`` call in src/."""
    out = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name in {"TableError", "ProtocolError"} or (
                name == "error"
                and isinstance(f, ast.Attribute)
                and f.value is not None
                and not (isinstance(f.value, ast.Name) and f.value.id in {"log", "logger"})
            ):
                out.append((str(path.relative_to(SRC)), node.lineno, node.args[0]))
    return out


def test_every_error_the_server_raises_or_sends_names_an_error_code_member() -> None:
    sites = _code_args()
    assert len(sites) >= 30, sites
    bare = [
        (path, line)
        for path, line, arg in sites
        if not (
            (isinstance(arg, ast.Attribute) and ast.unparse(arg).startswith("ErrorCode."))
            or ast.unparse(arg) in {"exc.code", "code"}
        )
    ]
    assert bare == [], f"error codes given as bare values: {bare}"
    members = {m.name for m in ErrorCode}
    named = {
        ast.unparse(arg).removeprefix("ErrorCode.")
        for _, _, arg in sites
        if ast.unparse(arg).startswith("ErrorCode.")
    }
    assert named <= members


@pytest.mark.parametrize(
    ("engine_code", "code"),
    [
        ("illegal_action", ErrorCode.ILLEGAL_ACTION),
        ("bad_action", ErrorCode.BAD_ACTION),
        ("not_your_turn", ErrorCode.NOT_YOUR_TURN),
        ("game_over", ErrorCode.TABLE_OVER),
        ("something_new", ErrorCode.ILLEGAL_ACTION),
        ("superseded", ErrorCode.ILLEGAL_ACTION),
    ],
)
def test_a_games_refusal_becomes_a_protocol_code_and_unknown_codes_an_illegal_action(
    engine_code: str, code: ErrorCode
) -> None:
    err = TableError.refused(IllegalAction("no", engine_code))
    assert err.code is code and err.message == "no"


def test_superseded_is_no_protocol_error() -> None:
    assert not issubclass(Superseded, TableError)
    assert "superseded" not in {m.value for m in ErrorCode}


@pytest.mark.parametrize(
    ("text", "code", "mid"),
    [
        ("{not json", ErrorCode.BAD_JSON, None),
        ("[1]", ErrorCode.BAD_REQUEST, None),
        ('{"id": 4}', ErrorCode.BAD_REQUEST, 4),
        ('{"type": 4, "id": "a"}', ErrorCode.BAD_REQUEST, "a"),
        ('{"type": "dance", "id": 5}', ErrorCode.UNKNOWN_TYPE, 5),
        ('{"type": "sync", "id": 6}', ErrorCode.BAD_REQUEST, 6),
        ('{"type": "sync", "table": 1.0, "id": 6}', ErrorCode.BAD_REQUEST, 6),
        ('{"type": "sync", "table": true, "id": 6}', ErrorCode.BAD_REQUEST, 6),
        ('{"type": "sync", "table": "1", "id": 6}', ErrorCode.BAD_REQUEST, 6),
        ('{"type": "hello", "token": ""}', ErrorCode.BAD_REQUEST, None),
        ('{"type": "hello", "token": 12}', ErrorCode.BAD_REQUEST, None),
        ('{"type": "act", "table": 1, "action": [], "id": 7}', ErrorCode.BAD_REQUEST, 7),
        ('{"type": "' + "x" * 300 + '"}', ErrorCode.TOO_LARGE, None),
    ],
)
def test_the_parser_refuses_with_the_code_and_the_messages_id(
    text: str, code: ErrorCode, mid: Any
) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse(text, 256)
    assert refused.value.code is code and refused.value.message
    assert refused.value.id == mid


def test_the_parser_reads_each_client_message_and_ignores_unknown_fields() -> None:
    assert parse('{"type": "ping"}', 256) == Ping(type="ping")
    assert parse('{"type": "hello", "token": "t", "x": 1}', 256) == Hello(type="hello", token="t")
    assert parse('{"type": "sync", "table": 3, "id": [1]}', 256) == Sync(
        type="sync", table=3, id=[1]
    )
    act = parse('{"type": "act", "table": 3, "action": {"type": "play"}, "id": 9}', 256)
    assert isinstance(act, Act) and act.action == {"type": "play"} and act.id == 9


def test_a_wrong_field_is_named_in_the_refusal() -> None:
    for field, text in [
        ("'table'", '{"type": "subscribe", "table": null}'),
        ("'token'", '{"type": "hello"}'),
        ("'action'", '{"type": "act", "table": 1, "action": 3}'),
    ]:
        with pytest.raises(ProtocolError) as refused:
            parse(text, 256)
        assert refused.value.message.startswith(field)
