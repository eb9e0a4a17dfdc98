"""What each game declares in its moves table holds in the states its games reach."""

from __future__ import annotations

import random

import pytest

from tablee.engine import BaseGame
from tablee.games import game_names, get_game


@pytest.mark.parametrize("name", game_names())
def test_a_moves_waiting_seat_is_the_seat_to_act(name: str) -> None:
    """``Move.waits_on`` names the state field the dispatch reads instead of ``to_act``: in every
    state of seeded games, that field holds the one seat of ``to_act``."""
    game = get_game(name)
    assert isinstance(game, BaseGame)
    checked = 0
    for players in range(game.min_players, game.max_players + 1):
        rnd = random.Random(players)
        state = game.new(players, seed=players)
        while not game.is_over(state):
            for move in game.moves.get(state.phase, {}).values():
                if move.waits_on is not None:
                    assert game.to_act(state) == (getattr(state, move.waits_on),), state.phase
                    checked += 1
            seat = next(s for s in game.to_act(state) if game.legal_actions(state, s))
            state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
    assert checked or not any(
        m.waits_on for moves in game.moves.values() for m in moves.values()
    )
