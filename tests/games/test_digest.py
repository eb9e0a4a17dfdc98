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
    "barbu": "0b1f0db07b8d0b4c2346d3fc2207973678dc9ce97830adfb323dfb30419953a1",
    "belote": "1707493349468c7179160854a366838f493417ae286f6ccf65b755004f7edc5f",
    "contrecarte": "5f9e78e9eaffc399b3fd813ce1da103985ed7113eeb91751e48978523ea65390",
    "contree": "775e6bfe0728e78afeefd95e9ec749cf5891076864ffa66d1b33a88e88feb85c",
    "freeze": "ce380c460fa791bb112421863811389e1f2e0fd2888a063911731dc48c958216",
    "motton": "377cb3528928d0ed3b863c48e8211b432dc4968b46e845ae41880c9f8da407b6",
    "tarot": "132c6d247f9615ef0b9b5e59c29e404a8ee810c681afa07e7fbf4b515f46dbfe",
    "yaniv": "e6973fe1211a09e916b8e9dfe4223887ff26861428f47aca6a02c53e64f1a266",
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
