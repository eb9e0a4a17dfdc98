"""Player names are unique without regard to case and Unicode look-alikes.

Two names are the same name when their keys are equal: NFKC (compatibility forms folded: full-width
``Ａｌｉｃｅ``, ligatures ``ﬁ``, the ``ℌ`` of mathematics...), then case folding (``ß`` and ``ss``,
``Σ`` and ``ς``), NFKC again (case folding may undo it), spaces collapsed. Letters of different
scripts that merely look alike (a Cyrillic ``а`` and a Latin ``a``) are different letters: the key
does not fold them. The key is stored (``players.name_key``) under a unique index; migration 0004
computed it for the names already there, so changing this function needs a migration that computes
it again.
"""

from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


#: names nobody may take at sign-up or claim (compared by key): they would pass for the house. An
#: admin may still rename a player to one of them.
RESERVED = frozenset(
    name_key(n)
    for n in (
        "admin",
        "administrateur",
        "root",
        "robot",
        "bot",
        "tablée",
        "tablee",
        "système",
        "systeme",
        "modérateur",
        "moderateur",
        "support",
        "invité",
        "anonyme",
    )
)


def reserved(name: str) -> bool:
    return name_key(name) in RESERVED


class NameReserved(Exception):
    """The name is one of the house's (``RESERVED``)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class NameTaken(Exception):
    """Another player has this name (or one with the same key)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


__all__ = ["RESERVED", "NameReserved", "NameTaken", "name_key", "reserved"]
