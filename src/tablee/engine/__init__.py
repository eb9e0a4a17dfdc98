"""The engine contract: what a game is, its errors, options and state codec. Pure and synchronous.

The games themselves, their registry by name and ``replay`` are ``tablee.games``."""

from .errors import IllegalAction, InvalidOptions, UnknownGame
from .game import FIRST_DEALER, Action, BaseGame, Event, Game, first_dealer, visible_events
from .options import OptionSpec

__all__ = [
    "FIRST_DEALER",
    "Action",
    "BaseGame",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "OptionSpec",
    "UnknownGame",
    "first_dealer",
    "visible_events",
]
