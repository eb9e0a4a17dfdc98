"""The engine contract: games, their registry, errors and replay. Pure and synchronous."""

from .errors import IllegalAction, InvalidOptions, UnknownGame
from .game import Action, BaseGame, Event, Game, visible_events
from .options import OptionSpec
from .registry import game_names, get_game, register
from .replay import replay

__all__ = [
    "Action",
    "BaseGame",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "OptionSpec",
    "UnknownGame",
    "game_names",
    "get_game",
    "register",
    "replay",
    "visible_events",
]
