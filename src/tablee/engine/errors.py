"""Errors of the engine contract."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the game refuses: wrong seat, wrong phase, malformed, or against the rules.

    ``reason`` is a sentence a player can read ("you must follow hearts"); ``code`` is a short
    machine code the server maps to its protocol errors (``not_your_turn``, ``illegal_action``,
    ``bad_action``, ``game_over``).
    """

    def __init__(self, reason: str, code: str = "illegal_action") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class InvalidOptions(ValueError):
    """Table options (or a player count) a game cannot be played with; ``field`` names it."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class UnknownGame(KeyError):
    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(name)
        self.name = name
        self.known = known

    def __str__(self) -> str:
        return f"unknown game {self.name!r}; known games: {', '.join(self.known)}"
