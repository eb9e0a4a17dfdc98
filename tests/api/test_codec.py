"""The server's JSON text: what a client is sent (``protocol.dumps``) and what the store writes
(``store.encoding.json_text``) are the standard encoder's text for any value a message or a
column may hold — text keys or seats' numbers as keys, whole numbers beyond 64 bits, any text —
whichever of orjson's paths or the standard encoder writes it."""

from __future__ import annotations

import json
from typing import Any

import orjson
from hypothesis import given
from hypothesis import strategies as st

from tablee.protocol import dumps
from tablee.store.encoding import json_text

#: a JSON key as the server's dicts hold them: text, or a seat's number (``away``, a game's view)
keys = st.text() | st.integers(min_value=-5, max_value=2**70)

#: what a state or a column may hold, but floats (orjson writes some as the standard encoder does
#: not, e.g. 1e16: they are checked against orjson's own text below)
values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=14,
)


def _standard(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@given(st.dictionaries(st.text(), values, max_size=5))
def test_a_message_is_the_standard_encoders_compact_unescaped_text(msg: dict[str, Any]) -> None:
    assert dumps(msg) == _standard(msg)


@given(values)
def test_a_column_is_read_back_as_the_value_written(value: Any) -> None:
    text = json_text(value)
    # a seat's number as a key comes back as its text, as JSON has it
    assert json.loads(text) == json.loads(_standard(value))
    if _fits_orjson(value):
        assert text == _standard(value)  # orjson's text, the same as the standard compact one


#: the same with floats (a rating, half points)
with_floats = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text() | st.integers(min_value=-5, max_value=2**40), inner, max_size=4)
    ),
    max_leaves=14,
)


@given(st.dictionaries(st.text(), with_floats, max_size=5))
def test_a_message_with_floats_is_the_text_orjson_always_wrote_here(msg: dict[str, Any]) -> None:
    before = orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    assert dumps(msg) == before
    assert json_text(msg) == before


def test_keys_that_are_seats_are_written_as_text_keys() -> None:
    away = {2: {"since": "2026-12-05T03:00:00+00:00", "back": False}}
    assert dumps({"type": "state", "away": away}) == (
        '{"type":"state","away":{"2":{"since":"2026-12-05T03:00:00+00:00","back":false}}}'
    )
    assert json_text(away) == '{"2":{"since":"2026-12-05T03:00:00+00:00","back":false}}'


def test_a_whole_number_beyond_64_bits_is_written_whole() -> None:
    assert dumps({"seed": 2**70, "k": {3: 1}}) == '{"seed":1180591620717411303424,"k":{"3":1}}'
    assert json_text({"seed": 2**70}) == '{"seed": 1180591620717411303424}'


def _fits_orjson(value: Any) -> bool:
    try:
        orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return False
    return True
