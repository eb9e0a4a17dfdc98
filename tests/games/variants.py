"""The variants each game offers as table options (``DECISIONS.md``, "Variants"): the
conformance and decision-secrecy suites play every one of them at every player count, besides
the defaults."""

from __future__ import annotations

from typing import Any

from tablee.games import game_names, get_game

#: option sets that turn a variant on, per game (the defaults are always played)
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "barbu": [{"choice": True}],
    "belote": [{"target": 501}, {"annonces": True}, {"annonces": True, "target": 1000}],
    "contree": [{"sa_ta": True}, {"annonces": True}, {"annonces": True, "sa_ta": True}],
}


def variant_cases() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options) for every variant at every allowed player count."""
    return [
        (name, n, options)
        for name in game_names()
        if name in VARIANTS
        for options in VARIANTS[name]
        for n in range(get_game(name).min_players, get_game(name).max_players + 1)
    ]
