"""How a deal was scored, line by line: the ``breakdown`` every game's ``deal_end`` event carries.

``{"per": "team" | "seat", "lines": [{"item", "points", ...}], "total": [...]}``: each line is
one part of the score (``item`` names it, e.g. ``"cards"``, ``"belote"``, ``"contract"``, with
what the line needs to be read: a contract, a factor, a count), ``points`` what it gives to each
team or seat; ``total`` is their sum, the points the deal gave. Lines that give nobody anything
are left out. Each game's docstring lists its items; the client writes them in French.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Line = dict[str, Any]


def line(item: str, points: Sequence[int], **about: Any) -> Line:
    return {"item": item, "points": [int(p) for p in points], **about}


def breakdown(per: str, width: int, lines: Sequence[Line]) -> dict[str, Any]:
    kept = [ln for ln in lines if any(ln["points"])]
    total = [sum(ln["points"][i] for ln in kept) for i in range(width)]
    return {"per": per, "lines": kept, "total": total}


def one(width: int, at: int, points: int) -> list[int]:
    """``points`` to ``at`` only."""
    return [points if i == at else 0 for i in range(width)]
