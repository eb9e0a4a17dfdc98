"""Every game, one module (or package) each; importing this package registers them all.

Modules whose names start with ``_`` are shared helpers, not games. A game module registers itself
with ``tablee.engine.register`` at import.
"""

import importlib
import pkgutil

from tablee.engine import game_names, get_game

for _mod in pkgutil.iter_modules(__path__):
    if not _mod.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_mod.name}")

__all__ = ["game_names", "get_game"]
