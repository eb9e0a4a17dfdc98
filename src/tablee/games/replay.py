"""Rebuilding a state from its seed and action log."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tablee.engine import Action, Game, visible_events

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


def replay_steps(
    game: Game | str,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int | str | None,
    actions: Iterable[tuple[int, Action] | Sequence[Any]],
    deck: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """A finished game move by move, every hand shown: the state after the deal, then after each
    logged action — its public view (a spectator's: ``view(state, None)``), every seat's hand
    (``hands``: what ``view(state, seat)`` gives each seat), the seats it waits on and the
    public events of the move (a private event is told to its seat in its own words; the hands
    already show what it hid). Rebuilt from the seed and the log by the engine, as ``replay``
    does: never from stored views. For finished games only: the live stream is what players may
    see meanwhile."""
    g = get_game(game) if isinstance(game, str) else game
    state = g.new(players=players, options=options, seed=seed, deck=deck)

    def step(n: int, seat: int | None, action: Action | None, events: list[Any]) -> dict[str, Any]:
        return {
            "n": n,
            "seat": seat,
            "action": action,
            "view": g.view(state, None),
            "hands": [g.view(state, s).get("hand") for s in range(players)],
            "to_act": list(g.to_act(state)),
            "over": g.is_over(state),
            "events": visible_events(events, None),
        }

    steps = [step(0, None, None, [])]
    for n, (seat, action) in enumerate(actions, 1):
        state, events = g.apply(state, seat, action)
        steps.append(step(n, seat, action, events))
    return steps
