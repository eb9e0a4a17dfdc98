"""Contrée's rules as data and pure functions: the packets, the bids, the score of a deal. The
spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Sequence

from tablee.games._belote_common import (
    TOTAL,
    Call,
    Contract,
    Tally,
    stack_packets,
    team_of,
)

PACKETS = (3, 2, 3)
CAPOT_BID = 250
GENERALE = 500
BID_VALUES = (*range(80, 170, 10), CAPOT_BID, GENERALE)
BID_LABELS = {str(CAPOT_BID): "capot", str(GENERALE): "générale"}


def stacked_deck(hands: Sequence[Sequence[str]], dealer: int = 3) -> list[str]:
    """The deck (top first) that deals ``hands`` (8 cards per seat) in packets of 3-2-3."""
    return stack_packets(hands, dealer, PACKETS)[0]


def trailing_passes(calls: Sequence[Call]) -> int:
    n = 0
    for call in reversed(calls):
        if call.type != "pass":
            break
        n += 1
    return n


def deal_scores(contract: Contract, t: Tally) -> tuple[tuple[int, int], bool]:
    """The scores per team of a played deal and whether the contract was made."""
    takers = team_of(contract.taker)
    defenders = 1 - takers
    points = [t.card_points[i] + t.belote[i] for i in (0, 1)]
    if contract.value == GENERALE:
        made = t.tricks_by_seat[contract.taker] == 8
    elif contract.value == CAPOT_BID:
        made = t.capot == takers
    else:
        made = points[takers] >= contract.value
    bid = contract.value * contract.coinche
    scores = [0, 0]
    if made:
        scores[takers] = points[takers] + bid
        scores[defenders] = points[defenders] if contract.coinche == 1 else t.belote[defenders]
    else:
        scores[takers] = t.belote[takers]
        scores[defenders] = TOTAL + bid + t.belote[defenders]
    return (scores[0], scores[1]), made
