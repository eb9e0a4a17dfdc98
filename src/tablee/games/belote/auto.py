"""Belote's timeout bid: take when the turned suit (round 1) or another suit (round 2) is clearly
strong (``strong_suit``), else pass. The play of the cards is the family's (``_belote_common``)."""

from __future__ import annotations

from tablee.cards import SUITS
from tablee.engine import Action
from tablee.games._belote_common import BeloteState, strong_suit


def auto_bid(state: BeloteState, seat: int) -> Action:
    assert state.turned is not None
    hand = state.hands[seat]
    turned_suit = state.turned[1]
    if state.round == 1:
        if strong_suit(hand, [turned_suit], state.turned) is not None:
            return {"type": "take"}
        return {"type": "pass"}
    others = [s for s in SUITS if s != turned_suit]
    suit = strong_suit(hand, others)
    return {"type": "pass"} if suit is None else {"type": "take", "suit": suit}
