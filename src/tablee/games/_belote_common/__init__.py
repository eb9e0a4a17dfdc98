"""What belote and contrée share: the seats and teams, the state, the play of the cards,
Belote/Rebelote, the count of a deal, the pause between deals, the match, the views.

A game of the family (``belote.py``, ``contree.py``) subclasses :class:`BeloteFamily` and supplies
the dealing (``_deal_cards``), the bidding (``_bidding_legal``, ``_apply_bidding``,
``_auto_bid``) and the scoring of a finished deal (``_score``). Their module docstrings are the
specs; this module implements what those specs say in common:

- 4 seats, teams {0, 2} and {1, 3}; the first deal's dealer is the option ``first_dealer``
  (default seat 3; a rematch moves it one seat); the dealer moves one seat each deal (a cancelled
  deal included); the seat after the dealer speaks and leads first.
- Play: follow the led suit; void in a plain suit, trump when an opponent holds the trick,
  overtrumping when you can and undertrumping when you cannot; when your partner holds the trick
  you may play any card, but a trump you choose to play must overtrump when you can; on a trump
  lead, go higher when you can. Trump order J 9 A T K Q 8 7, plain order A T K Q J 9 8 7.
- Belote/Rebelote: the seat holding the K and Q of trump once the hands are complete announces
  "belote" with the first of them played and "rebelote" with the second, automatically; 20 points
  to that seat's team.
- The count: card points (152) + 10 for the last trick; a team taking all 8 tricks counts 252.
- After a scored deal that does not end the match, the game pauses in phase ``deal_over`` (the
  last trick and the deal's sheet row stay on view) until the next dealer sends
  ``{"type": "deal"}`` (timeout: the table deals).
"""

from tablee.engine import OptionSpec

from .auto import auto_card, strong_suit
from .family import NOT_YOUR_TURN_TO_SPEAK, BeloteFamily
from .rules import (
    BELOTE,
    CAPOT,
    DECK,
    DECK_SET,
    LAST_TRICK,
    PLAIN_POWER,
    PLAYERS,
    SA,
    TA,
    TOTAL,
    TRICKS,
    TRUMP_POWER,
    TRUMP_RANK,
    BeloteState,
    Call,
    Contract,
    Phase,
    SheetRow,
    Tally,
    belote_holder,
    card_points,
    deal_packets,
    partner_of,
    playable_cards,
    sort_hand,
    stack_packets,
    tally,
    team_of,
)

#: the option of belote and contrée: the annonces (``annonces.py``)
ANNONCES = OptionSpec(
    "annonces",
    "bool",
    False,
    "Annonces",
    help="tierce, cinquante, cent et carrés, annoncés avec la première carte et montrés à la fin"
    " du premier pli ; seul le camp de la meilleure annonce marque les siennes",
)

__all__ = [
    "ANNONCES",
    "BELOTE",
    "CAPOT",
    "DECK",
    "DECK_SET",
    "LAST_TRICK",
    "NOT_YOUR_TURN_TO_SPEAK",
    "PLAIN_POWER",
    "PLAYERS",
    "SA",
    "TA",
    "TOTAL",
    "TRICKS",
    "TRUMP_POWER",
    "TRUMP_RANK",
    "BeloteFamily",
    "BeloteState",
    "Call",
    "Contract",
    "Phase",
    "SheetRow",
    "Tally",
    "auto_card",
    "belote_holder",
    "card_points",
    "deal_packets",
    "partner_of",
    "playable_cards",
    "sort_hand",
    "stack_packets",
    "strong_suit",
    "tally",
    "team_of",
]
