"""Games by name. ``tablee.games`` registers every game module on import."""

from __future__ import annotations

from .errors import UnknownGame
from .game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    _load_games()
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(name, game_names()) from None


def game_names() -> list[str]:
    _load_games()
    return sorted(_GAMES)


def _load_games() -> None:
    import tablee.games  # noqa: F401 - importing registers every game
