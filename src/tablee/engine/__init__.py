"""The engine contract: games, their registry, errors and replay. Pure and synchronous."""

from .errors import IllegalAction, InvalidOptions, UnknownGame
from .game import FIRST_DEALER, Action, BaseGame, Event, Game, first_dealer, visible_events
from .options import OptionSpec
from .registry import game_names, get_game, register
from .replay import replay

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
    "game_names",
    "get_game",
    "register",
    "replay",
    "visible_events",
]
