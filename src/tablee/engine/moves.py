"""The moves a game accepts, declared once: phase → action type → :class:`Move`.

A game lists, for each phase of its state, the action types it accepts there and how: the handler
that plays the move, the seats that may make it and the fields it needs. ``BaseGame._apply``
dispatches through that table, so that every game refuses the same things the same way: a type the
phase does not take gets the "you may: ..." refusal of ``BaseGame.reject``, a seat the game does not
wait on gets the move's ``turn`` text, a missing or malformed field its check's text. What a move
needs beyond that (a card that must follow suit, a bid higher than the last) is the handler's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction

Action = dict[str, Any]
Event = dict[str, Any]

#: a game's moves: phase -> action type -> Move
MoveTable = Mapping[Any, Mapping[str, "Move"]]
#: checks one field of an action: ``(action type, field name, value)``; raises ``IllegalAction``
Check = Callable[[str, str, Any], None]
#: plays a move: ``(game, state, seat, action) -> (next state, events)``
Handler = Callable[[Any, Any, int, Action], tuple[Any, list[Event]]]


@dataclass(frozen=True)
class Move:
    """How a phase takes one type of action.

    ``turn``: the refusal (code ``not_your_turn``) for a seat not in ``to_act``, a template of the
    state's fields (``"it is seat {turn}'s turn"``); ``None``: any seat may try, the handler
    decides. ``fields``: checked in order once the seat may move. ``only``: no other field is
    allowed. ``refusal``: the move is known but never played in this phase; the seat is told why.
    """

    handler: Handler | None = None
    fields: Mapping[str, Check] = field(default_factory=dict)
    turn: str | None = None
    only: bool = False
    refusal: str | None = None


def refusal(reason: str, turn: str | None = None) -> Move:
    """A move the phase knows but never plays: ``reason`` says why (code ``illegal_action``)."""
    return Move(turn=turn, refusal=reason)


def whole_number(reason: str) -> Check:
    """A field that must be an int (not a bool). ``reason`` may name ``{kind}`` and ``{field}``."""

    def check(kind: str, name: str, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalAction(reason.format(kind=kind, field=name), "bad_action")

    return check


def card_of(deck: Collection[str], missing: str, unknown: str) -> Check:
    """A field naming a card of ``deck``. ``missing``: the refusal when it is no string;
    ``unknown``: when it is no card of the deck (it may name the ``{value!r}``)."""

    def check(kind: str, name: str, value: Any) -> None:
        if not isinstance(value, str):
            raise IllegalAction(missing.format(kind=kind, field=name), "bad_action")
        if value not in deck:
            raise IllegalAction(unknown.format(kind=kind, field=name, value=value), "bad_action")

    return check


def unexpected_field(kind: str, extra: str) -> IllegalAction:
    return IllegalAction(f"unexpected field {extra!r} in a {kind}", "bad_action")
