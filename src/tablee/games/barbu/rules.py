"""Barbu's rules as data and pure functions: the rounds, the state, what a card costs, which cards
may be played. The spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tablee.cards import deck_52
from tablee.games._breakdown import Line, line
from tablee.games._tricks import STANDARD_POWER, Trick, french_suit, playable

ROUNDS = ("tricks", "hearts", "queens", "king", "all")
#: the rounds (0-based) where a heart may not be led before one has been discarded
HEART_LEAD_RULE = frozenset({1, 3, 4})
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

power = STANDARD_POWER


class Phase(StrEnum):
    PLAY = "play"
    DEAL = "deal"
    CHOOSE = "choose"  # barbu au choix: the dealer names the round's contract
    OVER = "over"


@dataclass(frozen=True)
class Choice:
    """Barbu au choix (option ``choice``): what the dealers chose. ``chosen``: per seat, the
    contracts that seat has chosen as dealer; ``contract``: the round's (None while its dealer
    chooses); ``played``: the contract of every finished round, in order (the sheet's rows)."""

    chosen: tuple[tuple[str, ...], ...]
    contract: str | None = None
    played: tuple[str, ...] = ()


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
    #: barbu au choix only (None: the five contracts in the text's order); left out of the JSON
    #: form when None, so that a game without the option reads and writes as it always did
    choice: Choice | None = None


def contract_index(state: BarbuState) -> int:
    """The round's contract as an index of ``ROUNDS`` (-1 while the dealer chooses it)."""
    choice = state.choice
    if choice is None:
        return state.round
    return -1 if choice.contract is None else ROUNDS.index(choice.contract)


def contract_name(state: BarbuState) -> str | None:
    k = contract_index(state)
    return None if k < 0 else ROUNDS[k]


def rounds_in_match(state: BarbuState) -> int:
    """Five rounds; au choix, every seat deals each of the five contracts once."""
    return len(ROUNDS) if state.choice is None else len(ROUNDS) * state.players


def remaining(state: BarbuState, seat: int) -> list[str]:
    """The contracts ``seat`` has not yet chosen as dealer, in the text's order."""
    assert state.choice is not None
    done = state.choice.chosen[seat]
    return [c for c in ROUNDS if c not in done]


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
    if contract_index(state) in HEART_LEAD_RULE and not state.hearts_broken:
        others = [c for c in hand if c[1] != "H"]
        if others:
            return others
    return list(hand)


def lowest(scores: Sequence[int]) -> list[int]:
    low = min(scores)
    return [s for s, v in enumerate(scores) if v == low]


def penalty_lines(state: BarbuState) -> list[Line]:
    """What the round's cards cost each seat, by kind (``trick_points`` split): 5 per trick
    (levées, and the last round), 5 per heart (cœurs, last), 20 per queen (dames, last), 80 for
    the king of hearts (roi de cœur, last); each line with the ``count`` taken per seat."""
    rnd = contract_index(state)
    kinds: list[tuple[str, int, Sequence[int]]] = []
    if rnd in (0, 4):
        kinds.append(("tricks", 5, state.tricks_won))
    if rnd in (1, 4):
        kinds.append(("hearts", 5, [sum(c[1] == "H" for c in won) for won in state.taken]))
    if rnd in (2, 4):
        kinds.append(("queens", 20, [sum(c[0] == "Q" for c in won) for won in state.taken]))
    if rnd in (3, 4):
        kinds.append(("king", 80, [int("KH" in won) for won in state.taken]))
    return [
        line(item, [each * k for k in counts], each=each, count=list(counts))
        for item, each, counts in kinds
    ]
