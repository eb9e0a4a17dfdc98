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
from tablee.games._belote_common.rules import card_lines
from tablee.games._breakdown import Line, line, one

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
    # annonces (option): outside the bid and its multiplier, every announcement shown goes to
    # the side that made or set the contract
    scores[takers if made else defenders] += t.annonces[0] + t.annonces[1]
    return (scores[0], scores[1]), made


def deal_breakdown(contract: Contract, t: Tally, made: bool) -> list[Line]:
    """How ``deal_scores`` came to its scores, per team: made, the takers their cards, dix de
    der (or capot), belote and the contract (its value, x2 contré, x4 surcontré), the defenders
    their cards unless the contract was contré and their belote; failed, the defenders the
    deal's 162 and the contract, each team its own belote."""
    takers = team_of(contract.taker)
    defenders = 1 - takers
    bid = contract.value * contract.coinche
    about = {"value": contract.value, "coinche": contract.coinche}
    if made:
        counted = [True, True]
        counted[defenders] = contract.coinche == 1
        return [
            *card_lines(t, counted),
            line("belote", t.belote),
            line("contract", one(2, takers, bid), **about),
            line("annonces", one(2, takers, t.annonces[0] + t.annonces[1]), all=True),
        ]
    return [
        line("chute", one(2, defenders, TOTAL)),
        line("contract", one(2, defenders, bid), **about),
        line("belote", t.belote),
        line("annonces", one(2, defenders, t.annonces[0] + t.annonces[1]), all=True),
    ]
