"""Games by name. Each game module registers its game at import; importing ``tablee.games`` (which
any import of this module does first) imports every game module."""

from __future__ import annotations

from tablee.engine import Game, UnknownGame

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(name, game_names()) from None


def game_names() -> list[str]:
    return sorted(_GAMES)
