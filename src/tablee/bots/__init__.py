"""Move policies: what a bot seat plays. Pure: no I/O, no randomness. (The move the table makes
for a person out of time is the game's own ``auto_action``.)"""

from __future__ import annotations

from typing import Any

from tablee.engine import Action, Game

from .bidding import BIDDERS


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
