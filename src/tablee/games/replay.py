"""Rebuilding a state from its seed and action log."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tablee.engine import Action, Game

from .registry import get_game


def replay(
    game: Game | str,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int | str | None,
    actions: Iterable[tuple[int, Action] | Sequence[Any]],
    deck: Sequence[str] | None = None,
) -> Any:
    """Apply ``actions`` (``(seat, action)`` pairs, in log order) to a new game. Any action the
    game refuses raises ``IllegalAction``: a log that does not replay is corrupt."""
    g = get_game(game) if isinstance(game, str) else game
    state = g.new(players=players, options=options, seed=seed, deck=deck)
    for seat, action in actions:
        state, _ = g.apply(state, seat, action)
    return state
