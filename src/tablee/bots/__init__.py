"""Move policies: what a seat plays when no person does. Pure: no I/O, randomness from a seed."""

from __future__ import annotations

import random
from typing import Any

from tablee.engine import Action, Game


def auto(game: Game, state: Any, seat: int) -> Action:
    """The table's own move for a seat (the timeout auto-player)."""
    return game.auto_action(state, seat)


def random_legal(game: Game, state: Any, seat: int, rnd: random.Random) -> Action:
    return rnd.choice(game.legal_actions(state, seat))


def next_move(game: Game, state: Any) -> tuple[int, Action] | None:
    """The first seat the game waits on and the table's move for it; None when over."""
    for seat in game.to_act(state):
        if game.legal_actions(state, seat):
            return seat, game.auto_action(state, seat)
    return None
