"""Move policies: what a seat plays when no person does. Pure: no I/O, randomness from a seed."""

from __future__ import annotations

import random
from typing import Any

from tablee.engine import Action, Game

from .bidding import BIDDERS


def auto(game: Game, state: Any, seat: int) -> Action:
    """The table's own move for a seat (the timeout auto-player)."""
    return game.auto_action(state, seat)


def random_legal(game: Game, state: Any, seat: int, rnd: random.Random) -> Action:
    return rnd.choice(game.legal_actions(state, seat))


def play(game: Game, state: Any, seat: int) -> Action:
    """A bot seat's move: it bids as a player would (``bidding``), from its own view only, and
    otherwise plays as the table does."""
    bidder = BIDDERS.get(game.name)
    if bidder is not None:
        legal = game.legal_actions(state, seat)
        choice = bidder(game.view(state, seat), legal)
        if choice is not None and choice in legal:
            return choice
    return game.auto_action(state, seat)


def next_move(game: Game, state: Any) -> tuple[int, Action] | None:
    """The first seat the game waits on and a bot's move for it; None when over."""
    for seat in game.to_act(state):
        if game.legal_actions(state, seat):
            return seat, play(game, state, seat)
    return None
