"""The server's JSON on a move's way: every seat's state encoded (``protocol.dumps``) against
orjson with ``OPT_NON_STR_KEYS`` on every call (the encoder before), for every registered game,
in the same run (run by hand).

For each game this samples states of random games (``bench/views.py``'s sample), builds each
seat's state message as a table sends it after a move (its view, its legal actions, the seats
to act), checks that both encoders write the same text, then times encoding all of them. Figures
are microseconds of CPU time a change (every seat and a spectator), the median of several runs.

    .venv/bin/python bench/codec.py [--states 400] [--runs 5]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from views import clock, per_game

from tablee.engine import Game
from tablee.protocol import dumps


def messages(game: Game, states: list[Any], players: int) -> list[list[dict[str, Any]]]:
    """Each sampled change's state messages, one a seat and a spectator's."""
    out = []
    for version, state in enumerate(states):
        to_act = list(game.to_act(state))
        views = game.views(state, [*range(players), None])
        out.append(
            [
                {
                    "type": "state",
                    "table": 1,
                    "version": version,
                    "view": view,
                    "legal": game.legal_actions(state, seat) if seat is not None else [],
                    "to_act": to_act,
                    "deadline": None,
                    "over": False,
                    "outcome": None,
                    "events": [],
                }
                for seat, view in views.items()
            ]
        )
    return out


def before(msg: dict[str, Any]) -> str:
    """The encoder before: orjson told to accept keys that are not text, for every message."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


def figures(changes: list[list[dict[str, Any]]], runs: int) -> tuple[float, float]:
    """Microseconds a change: its messages encoded by ``before``, and by ``dumps``."""
    for change in changes:
        for msg in change:
            assert dumps(msg) == before(msg), "the two encoders disagree"

    def now() -> None:
        for change in changes:
            for msg in change:
                dumps(msg)

    def then() -> None:
        for change in changes:
            for msg in change:
                before(msg)

    scale = 1e6 / len(changes)
    return clock(then, runs) * scale, clock(now, runs) * scale


def main(argv: list[str] | None = None) -> int:
    return per_game(
        argv,
        __doc__,
        ("before µs", "dumps µs"),
        lambda game, players, states, runs: figures(messages(game, states, players), runs),
    )


if __name__ == "__main__":
    raise SystemExit(main())
