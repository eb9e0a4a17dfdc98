"""Barbu's rules as data and pure functions: the rounds, the state, what a card costs, which cards
may be played. The spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tablee.cards import deck_52
from tablee.games._tricks import STANDARD_POWER, Trick, french_suit, playable

ROUNDS = ("tricks", "hearts", "queens", "king", "all")
#: the rounds (0-based) where a heart may not be led before one has been discarded
HEART_LEAD_RULE = frozenset({1, 3, 4})
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

power = STANDARD_POWER


class Phase(StrEnum):
    PLAY = "play"
    DEAL = "deal"
    OVER = "over"


@dataclass(frozen=True)
class BarbuState:
    players: int
    seed: int | str
    phase: Phase
    #: 0-based; in phase ``deal``, the round about to be dealt
    round: int
    #: in phase ``deal``, the dealer of the round about to be dealt
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turn: int
    leader: int
    trick: tuple[str, ...]
    hearts_broken: bool
    #: cards won this round, per seat
    taken: tuple[tuple[str, ...], ...]
    tricks_won: tuple[int, ...]
    #: points taken this round, per seat
    points: tuple[int, ...]
    last_trick: Trick | None
    scores: tuple[int, ...]
    sheet: tuple[tuple[int, ...], ...]


def card_points(card: str, rnd: int) -> int:
    """What one card costs the trick's winner in round ``rnd`` (0-based), the trick itself aside."""
    pts = 0
    if card[1] == "H" and rnd in (1, 4):
        pts += 5
    if card[0] == "Q" and rnd in (2, 4):
        pts += 20
    if card == "KH" and rnd in (3, 4):
        pts += 80
    return pts


def trick_points(cards: Sequence[str], rnd: int) -> int:
    """What a whole trick costs its winner in round ``rnd`` (0-based)."""
    return (5 if rnd in (0, 4) else 0) + sum(card_points(c, rnd) for c in cards)


def barbu_deck(players: int) -> list[str]:
    cards = deck_52()
    if players == 5:
        cards = [c for c in cards if c not in ("2C", "2S")]
    return cards


def legal_cards(state: BarbuState, seat: int) -> list[str]:
    if state.phase is not Phase.PLAY or seat != state.turn:
        return []
    hand = state.hands[seat]
    if state.trick:
        return playable(hand, state.trick, french_suit, None)
    if state.round in HEART_LEAD_RULE and not state.hearts_broken:
        others = [c for c in hand if c[1] != "H"]
        if others:
            return others
    return list(hand)


def lowest(scores: Sequence[int]) -> list[int]:
    low = min(scores)
    return [s for s, v in enumerate(scores) if v == low]
