"""Contrecarte's rules as data and pure functions: the deck, what fits on what, the state, the
cards given to a seat. The spec is the package's docstring."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from tablee.cards import CC_COLORS, deck_contrecarte, parse_contrecarte, shuffled
from tablee.engine import Action, Event


class Phase(enum.Enum):
    PLAY = "play"
    DRAWN = "drawn"
    CONTEST = "contest"
    OVER = "over"


PLAY, DRAWN, CONTEST, OVER = Phase.PLAY, Phase.DRAWN, Phase.CONTEST, Phase.OVER

HAND_SIZE = 7
WILD, WILD4 = "W", "W+4"
WILDS = frozenset((WILD, WILD4))
NUMBERS = frozenset("0123456789")
COLORS = CC_COLORS
COLOR_SET = frozenset(COLORS)

DECK = tuple(deck_contrecarte())
ALL_CARDS = frozenset(DECK)
#: card -> colour ("" for W/W+4) and card -> face, parsed once
COLOR: dict[str, str] = {c: parse_contrecarte(c).color for c in ALL_CARDS}
FACE: dict[str, str] = {c: parse_contrecarte(c).face for c in ALL_CARDS}
_FITS_FACE = {
    (col, face): frozenset(c for c in ALL_CARDS if c in WILDS or COLOR[c] == col or FACE[c] == face)
    for col in COLORS
    for face in {*FACE.values()}
}
#: (colour in force, top card) -> the cards that may be played on it (the sets are shared
#: between top cards of one face: keyed by the card itself, a move spares a look-up of its face)
FITS: dict[tuple[str, str], frozenset[str]] = {
    (col, top): _FITS_FACE[col, FACE[top]] for col in COLORS for top in ALL_CARDS
}
#: the cards that only pass the turn on (numbers and W): most plays, told apart in one look-up
NO_EFFECT = frozenset(c for c in ALL_CARDS if FACE[c] in NUMBERS or c == WILD)
#: a joker's plays, one per colour named (copied: the caller owns the actions it gets)
WILD_PLAYS = {w: tuple({"type": "play", "card": w, "color": x} for x in COLORS) for w in WILDS}
COLOR_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}


@dataclass(frozen=True)
class ContrecarteState:
    players: int
    seed: int | str
    #: who dealt; the seat after plays first
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    #: top card first
    stock: tuple[str, ...]
    #: bottom first, top card last
    discard: tuple[str, ...]
    #: the colour in force (the top card's, or the one named with a joker)
    color: str
    direction: int
    #: the seat that plays (or, in the contest window, the target of the +4)
    turn: int
    phase: Phase
    #: the card drawn this turn, when it fits (phase drawn)
    drawn: str | None
    #: who played the pending +4 (phase contest)
    poser: int | None
    #: hidden: whether the pending +4 was legal when played
    plus4_legal: bool
    #: said "Carte !" since reaching one card (meaningful only while holding one card)
    announced: tuple[bool, ...]
    reshuffles: int
    winner: int | None


_new_instance = object.__new__
_set = object.__setattr__


# A move builds the next state as a draft, ``state.__dict__.copy()``, whose fields it assigns,
# then seals it with ``_seal``. That is ``dataclasses.replace`` without its cost: a frozen
# dataclass's ``__init__`` goes through ``object.__setattr__`` once per field (microseconds per
# move), a dict copy is one C-level operation, and the draft is at once the changed state that
# helpers such as ``_give`` read. Only this module does it, with field names; the conformance
# suite checks that every state round-trips through JSON to an equal state. The engine gives
# every first state and every state read from JSON a plain dict of fields (see
# ``tablee.engine.state``), and the drafts copied from a plain dict stay plain.


def seal(draft: dict[str, Any]) -> ContrecarteState:
    """The state whose fields are ``draft`` (a copy of another state's, then changed)."""
    new = _new_instance(ContrecarteState)
    _set(new, "__dict__", draft)
    return new


def with_item(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    # a list round trip is cheaper than two slices and an unpacking for a handful of seats
    out = list(items)
    out[i] = value
    return tuple(out)


def add_plays(out: list[Action], card: str, last: bool) -> None:
    """The play actions of one card; ``last``: the play leaves one card, so it may be announced."""
    if card in WILDS:
        for col in COLORS:
            out.append({"type": "play", "card": card, "color": col})
            if last:
                out.append({"type": "play", "card": card, "color": col, "announce": True})
    else:
        out.append({"type": "play", "card": card})
        if last:
            out.append({"type": "play", "card": card, "announce": True})


def give(
    new: dict[str, Any], seat: int, count: int, reason: str, events: list[Event]
) -> tuple[str, ...]:
    """``seat`` draws ``count`` cards, reshuffling the discard (all but its top) into the stock
    when it runs out; fewer when nothing is left. Works on the draft ``new`` of the next state
    (as already changed: hands, discard, announced), changes it and appends the events."""
    stock = new["stock"]
    got = stock[:count]
    if len(got) == count:
        new["stock"] = stock[count:]
    else:
        stock = ()
        discard = new["discard"]
        if len(discard) > 1:
            reshuffles = new["reshuffles"]
            fresh = shuffled(discard[:-1], new["seed"], "reshuffle", reshuffles)
            new["reshuffles"] = reshuffles + 1
            new["discard"] = discard[-1:]
            events.append({"type": "reshuffle", "seat": seat, "count": len(fresh)})
            need = count - len(got)
            got += tuple(fresh[:need])
            stock = tuple(fresh[need:])
        new["stock"] = stock
    events.append({"type": "draw", "seat": seat, "count": len(got), "reason": reason})
    if got:
        events.append(
            {"type": "draw", "seat": seat, "cards": list(got), "reason": reason, "to": [seat]}
        )
        hands = new["hands"]
        new["hands"] = with_item(hands, seat, hands[seat] + got)
        announced = new["announced"]
        if announced[seat]:
            new["announced"] = with_item(announced, seat, False)
    return got
