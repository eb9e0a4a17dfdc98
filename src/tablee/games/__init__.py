"""Every game, one module (or package) each, and the registry of games by name.

Importing this package imports every game module, and each registers its game
(``tablee.games.registry.register``). Modules whose names start with ``_`` are shared helpers, and
``registry`` and ``replay`` the package's own services: neither is a game.
"""

import importlib
import pkgutil

from .registry import game_names, get_game, register
from .replay import replay, replay_steps

_SERVICES = frozenset({"registry", "replay"})

for _mod in pkgutil.iter_modules(__path__):
    if not _mod.name.startswith("_") and _mod.name not in _SERVICES:
        importlib.import_module(f"{__name__}.{_mod.name}")

__all__ = ["game_names", "get_game", "register", "replay", "replay_steps"]
