"""The belote family's rules as data and pure functions: seats and teams, the state, the count of
a deal, the dealing, the cards a seat may play. The family's docstring (the package's) says what
they implement."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import SUITS, deck_32
from tablee.games._tricks import (
    BELOTE_PLAIN_ORDER,
    BELOTE_TRUMP_ORDER,
    Trick,
    belote_points,
    french_suit,
    order_power,
    playable,
    winner,
)

PLAYERS = 4
TOTAL = 162  # 152 card points + 10 for the last trick
CAPOT = 252  # 152 + 100 when a team takes every trick
LAST_TRICK = 10
BELOTE = 20
TRICKS = 8

PLAIN_POWER = order_power(BELOTE_PLAIN_ORDER)
TRUMP_POWER = order_power(BELOTE_TRUMP_ORDER)
DECK = tuple(deck_32())
DECK_SET = frozenset(DECK)


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % PLAYERS


class Phase(enum.StrEnum):
    BIDDING = "bidding"
    SURCONTRE = "surcontre"  # contrée: the window after a contre
    PLAY = "play"
    DEAL_OVER = "deal_over"  # a deal is scored; the next dealer deals
    OVER = "over"


@dataclass(frozen=True)
class Call:
    """One bidding action: ``type`` is pass / take / bid / contre / surcontre / decline."""

    seat: int
    type: str
    value: int | None = None
    suit: str | None = None


@dataclass(frozen=True)
class Contract:
    """The contract: in contrée bidding, the highest bid so far. ``value`` is 0 in belote;
    ``coinche`` is 1, 2 (contré) or 4 (surcontré)."""

    taker: int
    trump: str
    value: int = 0
    coinche: int = 1


@dataclass(frozen=True)
class SheetRow:
    """One deal on the score sheet; ``made`` is None for a cancelled deal (everybody passed)."""

    deal: int
    dealer: int
    taker: int | None = None
    trump: str | None = None
    value: int = 0
    coinche: int = 1
    card_points: tuple[int, int] = (0, 0)
    belote: tuple[int, int] = (0, 0)
    capot: int | None = None  # the team that took every trick
    made: bool | None = None
    scores: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class BeloteState:
    seed: int | str
    target: int | None
    deal: int  # 1-based, every deal counted (cancelled ones too): salts the shuffle
    dealer: int
    phase: Phase
    turn: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...] = ()  # belote: the cards dealt after the take
    turned: str | None = None  # belote: the turned card (kept on view for the whole deal)
    round: int = 1  # belote: bidding round 1 or 2
    calls: tuple[Call, ...] = ()
    contract: Contract | None = None
    leader: int = 0
    trick: tuple[str, ...] = ()
    tricks: tuple[Trick, ...] = ()
    belote_holder: int | None = None
    announced: tuple[Call, ...] = ()  # type "belote" / "rebelote"
    scores: tuple[int, int] = (0, 0)
    sheet: tuple[SheetRow, ...] = ()


@dataclass(frozen=True)
class Tally:
    """What a finished deal's tricks are worth."""

    card_points: tuple[int, int]
    belote: tuple[int, int]
    capot: int | None  # the team that took every trick
    tricks_by_seat: tuple[int, ...]


def tally(state: BeloteState) -> Tally:
    assert state.contract is not None
    trump = state.contract.trump
    points = [0, 0]
    by_seat = [0] * PLAYERS
    for t in state.tricks:
        points[team_of(t.winner)] += sum(belote_points(c, trump) for c in t.cards)
        by_seat[t.winner] += 1
    team_tricks = (by_seat[0] + by_seat[2], by_seat[1] + by_seat[3])
    capot = next((team for team in (0, 1) if team_tricks[team] == TRICKS), None)
    if capot is not None:
        points[capot] = CAPOT
    else:
        points[team_of(state.tricks[-1].winner)] += LAST_TRICK
    belote = [0, 0]
    if len(state.announced) == 2:
        belote[team_of(state.announced[0].seat)] = BELOTE
    return Tally((points[0], points[1]), (belote[0], belote[1]), capot, tuple(by_seat))


def belote_holder(hands: Sequence[Sequence[str]], trump: str) -> int | None:
    pair = {"K" + trump, "Q" + trump}
    return next((s for s, h in enumerate(hands) if pair <= set(h)), None)


def deal_packets(
    cards: Sequence[str], dealer: int, packets: Sequence[int]
) -> tuple[list[list[str]], int]:
    """Deal ``packets`` (e.g. 3 then 2) to each seat in turn from the seat after the dealer;
    returns the hands and how many cards were used."""
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    pos = 0
    for n in packets:
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            hands[seat] += cards[pos : pos + n]
            pos += n
    return hands, pos


def stack_packets(
    hands: Sequence[Sequence[str]], dealer: int, packets: Sequence[int]
) -> tuple[list[str], list[list[str]]]:
    """The inverse of ``deal_packets``: the top of a deck that deals each seat the first cards of
    its hand in ``packets``, and what is left of each hand."""
    rest = [list(h) for h in hands]
    deck: list[str] = []
    for n in packets:
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            deck += rest[seat][:n]
            del rest[seat][:n]
    return deck, rest


def sort_hand(hand: Sequence[str], trump: str | None) -> list[str]:
    def key(card: str) -> tuple[int, int]:
        s = card[1]
        power = TRUMP_POWER(card) if s == trump else PLAIN_POWER(card)
        return (-1 if s == trump else SUITS.index(s), -power)

    return sorted(hand, key=key)


def trick_rules(state: BeloteState, seat: int) -> dict[str, Any]:
    """The obligations of ``seat`` on the trick being played, as ``_tricks.playable`` takes them."""
    assert state.contract is not None
    trump = state.contract.trump
    partner_master = False
    if state.trick:
        w = winner(state.trick, french_suit, trump, PLAIN_POWER, TRUMP_POWER)
        partner_master = (state.leader + w) % PLAYERS == partner_of(seat)
    return {
        "suit": french_suit,
        "trump": trump,
        "trump_power": TRUMP_POWER,
        "must_trump": True,
        "must_overtrump": True,
        "partner_master": partner_master,
        "overtrump_when_free": True,
    }


def playable_cards(state: BeloteState, seat: int) -> list[str]:
    hand = state.hands[seat]
    if not state.trick:
        return list(hand)
    return playable(hand, state.trick, **trick_rules(state, seat))
