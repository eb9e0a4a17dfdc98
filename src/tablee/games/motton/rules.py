"""Motton's rules as data and pure functions: the rounds, the state, the bids and cards allowed.
The spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tablee.games._tricks import STANDARD_POWER, Trick, french_suit, playable

ROUND_CARDS = (*range(10, 0, -1), *range(1, 11))
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

power = STANDARD_POWER


def round_score(cards: int, tricks: int) -> int:
    """Points for a bid made exactly (the text's formula and table)."""
    return (10 + tricks - cards) * tricks + 10


def trump_of(turned: str) -> str | None:
    return None if turned[0] == "K" else turned[1]


class Phase(StrEnum):
    BID = "bid"
    PLAY = "play"
    DEAL = "deal"
    OVER = "over"


@dataclass(frozen=True)
class Row:
    """One line of the score sheet: a round as it was finally played."""

    deal: int
    cards: int
    dealer: int
    trump: str | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    #: deals of this round that nobody made before this one
    replays: int


@dataclass(frozen=True)
class MottonState:
    players: int
    seed: int | str
    blind: bool
    constrained: bool
    phase: Phase
    #: 0-based; in phase ``deal``, the round about to be dealt
    round: int
    #: times the current round has been replayed (0 on its first deal)
    replay: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    turned: str
    #: the turned card is shown (always, except during a blind bidding)
    revealed: bool
    bids: tuple[int | None, ...]
    turn: int
    leader: int
    trick: tuple[str, ...]
    #: cards of this round's finished tricks
    played: tuple[str, ...]
    tricks_won: tuple[int, ...]
    last_trick: Trick | None
    scores: tuple[int, ...]
    sheet: tuple[Row, ...]


def cards_in_round(state: MottonState) -> int:
    return ROUND_CARDS[state.round]


def trump(state: MottonState) -> str | None:
    return trump_of(state.turned)


def forbidden_bid(state: MottonState) -> int | None:
    """With ``constrained``, the value the last bidder may not bid (else None)."""
    if not state.constrained or state.phase is not Phase.BID:
        return None
    if sum(b is None for b in state.bids) != 1:
        return None
    rest = cards_in_round(state) - sum(b for b in state.bids if b is not None)
    return rest if rest >= 0 else None


def legal_bids(state: MottonState, seat: int) -> list[int]:
    if state.phase is not Phase.BID or seat != state.turn:
        return []
    banned = forbidden_bid(state)
    return [v for v in range(cards_in_round(state) + 1) if v != banned]


def legal_cards(state: MottonState, seat: int) -> list[str]:
    if state.phase is not Phase.PLAY or seat != state.turn:
        return []
    return playable(state.hands[seat], state.trick, french_suit, None)


def highest(scores: Sequence[int]) -> list[int]:
    high = max(scores)
    return [s for s, v in enumerate(scores) if v == high]
