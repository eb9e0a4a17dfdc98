"""Contrée's timeout bid: open at 80 in a clearly strong suit (``strong_suit``) when nobody has
bid, decline a contre, else pass. The play of the cards is the family's (``_belote_common``)."""

from __future__ import annotations

from tablee.cards import SUITS
from tablee.engine import Action
from tablee.games._belote_common import BeloteState, Phase, strong_suit

from .rules import BID_VALUES


def auto_bid(state: BeloteState, seat: int) -> Action:
    """The bid for ``seat``, which the game waits on."""
    if state.phase is Phase.SURCONTRE:
        return {"type": "decline"}
    if state.contract is None:
        suit = strong_suit(state.hands[seat], SUITS)
        if suit is not None:
            return {"type": "bid", "value": BID_VALUES[0], "suit": suit}
    return {"type": "pass"}
