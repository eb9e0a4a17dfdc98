"""Contrecarte's timeout move: what the table plays for a seat out of time (and for a robot). The
policy is the spec's ``auto_action`` paragraph (the package's docstring)."""

from __future__ import annotations

from collections.abc import Sequence

from tablee.engine import Action, IllegalAction

from .rules import (
    COLOR,
    COLORS,
    CONTEST,
    DRAWN,
    FITS,
    OVER,
    WILD,
    WILD4,
    WILDS,
    ContrecarteState,
)


def auto_action(state: ContrecarteState, seat: int) -> Action:
    """The move for ``seat``: its turn's, or out of turn a "Carte !" due or a catch."""
    phase = state.phase
    if phase is OVER:
        raise IllegalAction("the game is over", "game_over")
    hand = state.hands[seat]
    if seat == state.turn:
        if phase is CONTEST:
            return {"type": "accept"}
        fits = FITS[state.color, state.discard[-1]]
        if phase is DRAWN:
            drawn = state.drawn
            assert drawn is not None
            if drawn != WILD4 or _plus4_legal(hand, drawn, state.color):
                return _auto_play(hand, drawn)
            return {"type": "pass"}
        if len(hand) == 1 and hand[0] in fits:
            return _auto_play(hand, hand[0])
        if len(hand) == 1 and not state.announced[seat]:
            return {"type": "announce"}
        choice = _auto_choice(hand, fits, state.color)
        return {"type": "draw"} if choice is None else _auto_play(hand, choice)
    if len(hand) == 1 and not state.announced[seat]:
        return {"type": "announce"}
    for target, other in enumerate(state.hands):
        # announcements are public: catching a seat that has not announced is no gamble
        if len(other) == 1 and not state.announced[target] and target != seat:
            return {"type": "catch", "target": target}
    raise IllegalAction("it is not your turn", "not_your_turn")


def _plus4_legal(hand: tuple[str, ...], card: str, color: str) -> bool:
    """Whether playing ``card`` (a W+4 in ``hand``) now is legal: no other card of ``color``."""
    return all(COLOR[c] != color for c in hand)


def _most_held(hand: Sequence[str], fallback: str) -> str:
    counts = {col: 0 for col in COLORS}
    for c in hand:
        col = COLOR[c]
        if col:
            counts[col] += 1
    best = max(COLORS, key=lambda col: counts[col])
    return best if counts[best] else fallback


def _auto_choice(hand: tuple[str, ...], fits: frozenset[str], color: str) -> str | None:
    """The card the table plays: a fitting coloured card of the colour most held (keeping the
    jokers for later), else a joker, else a legal +4; ``None``: draw."""
    counts = {col: 0 for col in COLORS}
    for c in hand:
        col = COLOR[c]
        if col:
            counts[col] += 1
    best: str | None = None
    for c in hand:
        if (
            c in fits
            and c not in WILDS
            and (best is None or counts[COLOR[c]] > counts[COLOR[best]])
        ):
            best = c
    if best is not None:
        return best
    if WILD in hand:
        return WILD
    if WILD4 in hand and counts[color] == 0:
        return WILD4
    return None


def _auto_play(hand: tuple[str, ...], card: str) -> Action:
    i = hand.index(card)
    rest = hand[:i] + hand[i + 1 :]
    action: Action = {"type": "play", "card": card}
    if card in WILDS:
        action["color"] = _most_held(rest, COLORS[0])
    if len(rest) == 1:
        action["announce"] = True
    return action
