"""A move's idempotency key: the same for the same ``act``, and the same text as the keys stored
with the log's rows by every version before (a move sent again after a restart or an upgrade
finds its key)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tablee.tables.live import request_key

#: what a client's JSON may hold: integers beyond 64 bits, any text, nested objects
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def _stored_key(player: int, mid: Any, action: Any, version: int | None) -> str:
    """The key as ``json.dumps`` made it since the first version of the log."""
    text = json.dumps([player, mid, action, version], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@given(
    player=st.integers(min_value=1, max_value=2**40),
    mid=json_values,
    action=json_values,
    version=st.none() | st.integers(min_value=0, max_value=2**31),
)
def test_a_moves_key_is_the_one_the_log_stored_before(
    player: int, mid: Any, action: Any, version: int | None
) -> None:
    key = request_key(player, mid, action, version)
    assert key == (None if mid is None else _stored_key(player, mid, action, version))


def test_a_moves_key_does_not_depend_on_the_order_of_its_actions_keys() -> None:
    one = request_key(7, "m1", {"type": "play", "card": "7H", "color": "R"}, 3)
    other = request_key(7, "m1", {"color": "R", "card": "7H", "type": "play"}, 3)
    assert one == other
    assert one != request_key(7, "m1", {"type": "play", "card": "8H", "color": "R"}, 3)
    assert one != request_key(8, "m1", {"type": "play", "card": "7H", "color": "R"}, 3)
