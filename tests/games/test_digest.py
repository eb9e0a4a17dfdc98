"""Seeded games of every game behave exactly as they did: states, events, views, legal actions and
refusals, hashed step by step (``digest.py`` says what goes in).

The pinned values were computed on the code before the engines were restructured; a refactor
leaves every one of them unchanged. A change that is meant to alter behaviour updates the pinned
value deliberately, naming why in its commit (``python -m tests.games.digest`` prints the new
values, ``--cases`` each case's to see where the games part).
"""

from __future__ import annotations

import pytest

from tablee.games import game_names

from .digest import game_digest

PINNED = {
    "barbu": "592005e6be093c92f0d1a81602079f2d91ad48a72a80e87ca0171c5f4940281c",
    "belote": "459ec852904ea9ccd036d451f175313eaf9d828d7bae62957c0360e462c0af47",
    "contrecarte": "b948d1f73e83b7ddb432f1faa9b3426a23e2b03fb9a2fde462cbad2b4257ee4f",
    "contree": "a7f1e035d4a34cbf0210eb24c93f6e5cf6242c3c715aa4e9233b0d08499104c1",
    "freeze": "44dc0ac14883018209a1798f7d1af0d7f56f11947801d298ab2e4d5cd6a2476f",
    "motton": "ee9925cd3afc77736c170f4820453d100ffb4e20caa5d340817f35c625e39d36",
    "tarot": "b154e9697c98954aa5ba722c3204fc92740ea157da160905b4a5b73a599f9f9c",
    "yaniv": "ba484312c2e239d9d9499ebc9fcfa6c41b2112cc514fbf33cb79502927d3cf9d",
}


def test_every_game_is_pinned() -> None:
    # the server tests register a toy game of their own in the same process
    assert sorted(PINNED) == [name for name in game_names() if name != "toy"]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_seeded_games_behave_as_pinned(name: str) -> None:
    assert game_digest(name) == PINNED[name], (
        f"{name} no longer behaves as pinned: a refactor must not change behaviour; a deliberate"
        " change updates PINNED and says why in its commit"
    )
