"""How the store writes JSON columns (one encoder for the SQLAlchemy engines and the direct
writer of moves, so both write the same text)."""

from __future__ import annotations

import json
from typing import Any

import orjson


def json_text(value: Any) -> str:
    """The JSON columns' encoder: orjson (the table's row is written on every move), the
    standard encoder for what orjson refuses (a whole number beyond 64 bits)."""
    try:
        # OPT_NON_STR_KEYS only when needed (``away``, keyed by seats): it doubles orjson's cost
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)
