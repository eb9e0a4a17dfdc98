"""Contrée — the house rules (``contree.fr.txt``) as decided in ``DECISIONS.md``.

Players and match
    4 seats; teams {0, 2} and {1, 3}. The first deal's dealer is the option ``first_dealer``
    common to every game (default seat 3; a rematch moves it one seat); the dealer moves one seat
    each deal (a redeal counts); the seat after the dealer speaks first and leads the first trick.
    Option ``target`` (default 2000): deals are played until, at the end of a deal, a team has at
    least ``target`` points and more than the other team (a tie plays another deal).

Dealing (the order ``deck=`` is read in, top card first; only the first deal is stacked)
    32 cards in packets of 3, then 2, then 3 to each seat in turn starting after the dealer ``d``
    (seats d+1, d+2, d+3, d, mod 4, three times). No turned card. :func:`stacked_deck` builds a
    deck from the wanted hands.

Bidding (phase ``bidding``), from the seat after the dealer, each in turn:
    ``{"type": "pass"}`` or ``{"type": "bid", "value": V, "suit": S}`` with V higher than the
    last bid, among 80, 90, ..., 160, 250 (capot: the team takes every trick) and 500 (générale:
    the bidder alone takes every trick); S the trump suit (S, H, D, C). A team may outbid
    itself. Three passes after a bid end the bidding; four passes before any bid cancel the deal
    (a sheet row with ``cancelled``) and the next dealer deals at once.
    ``{"type": "contre"}``: while a bid stands and no contre was made, either opponent of its
    bidder may contre, out of turn, until the next bid. The bidding stops there and phase
    ``surcontre`` opens: ``{"type": "surcontre"}`` from the bidder or the bidder's partner
    (out of turn), or ``{"type": "decline"}`` from the bidder, who is the seat waited on (timeout:
    decline). Either closes the window and the play starts.

Play (phase ``play``): ``{"type": "play", "card": C}`` — exactly belote's trick rules
    Trump order J 9 A T K Q 8 7 (J 20, 9 14, A 11, T 10, K 4, Q 3); plain A T K Q J 9 8 7
    (A 11, T 10, K 4, Q 3, J 2). Follow the led suit; on a trump lead, play a higher trump when
    you can. Void in a led plain suit: when an opponent holds the trick, trump (overtrump when you
    can, else trump lower; discard only without trumps); when your partner holds the trick, any
    card, but a trump you choose to play must overtrump when you can.
    Belote/Rebelote: the seat holding the K and Q of trump announces them automatically as they
    are played; 20 points to that team.

Scoring (one sheet row per deal; a team's "points" = card points + 10 for the last trick, 252 when
it took all 8 tricks, + its belote)
    Made: capot (250) when the takers' team took all 8 tricks; générale (500) when the bidder
    alone took them; any other bid when the takers' points >= the bid.
    Not contré: made → takers: their points + the bid; defenders: their points. Failed → takers:
    their belote only; defenders: 162 + the bid + their belote.
    Contré (×2) / surcontré (×4): made → takers: their points + 2× (4×) the bid; defenders: their
    belote only. Failed → defenders: 162 + 2× (4×) the bid + their belote; takers: their belote.
    The winners are the team with more points when the match ends.

Between deals (phase ``deal_over``)
    The scored deal stays on view until the next dealer sends ``{"type": "deal"}`` (the timeout
    move), which deals the next deal.

Timeout moves (``auto_action``)
    Bidding: the opening bid of 80 when nobody has bid and the hand is clearly strong in a suit
    (its J with 5 trumps, or with 4 trumps and the 9 or an outside ace, or with 3 trumps, the 9
    and an outside ace), else pass; never a contre; decline in the surcontre window.
    Play: the cheapest legal card with which the team still holds the trick, else the cheapest
    (fewest points, a plain card before a trump, the lowest).

Views (``view(state, seat)``)
    As belote's (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand``,
    ``counts``, ``scores``, ``team_scores``, ``target``, ``deal``, ``turned`` (always None),
    ``bids`` (``{"seat", "type", "value"?, "suit"?}``), ``contract`` (the highest bid so far:
    ``{"taker", "trump", "value", "coinche"}``), ``trump``, ``leader``, ``trick``,
    ``last_trick``, ``tricks_won``, ``team_tricks``, ``belote``, ``sheet`` (rows with
    ``value`` and ``coinche``)), plus ``bid_labels`` (``{"250": "capot", "500": "générale"}``).
    No other hand, ever.

Events
    ``deal`` (public; ``seat`` = dealer), ``hand`` (to its seat only: ``cards``), ``pass``,
    ``bid`` (``value``, ``suit``), ``contre``, ``surcontre``, ``decline``, ``redeal`` (``seat`` =
    next dealer), ``contract`` (``trump``, ``value``, ``coinche``), ``play``, ``belote`` /
    ``rebelote``, ``trick`` (``seat`` = winner, ``cards``, ``points``), ``deal_end`` (the sheet
    row), ``game_end`` (``scores``, ``winners``).
"""

from tablee.games.registry import register

from .game import Contree
from .rules import (
    BID_LABELS,
    BID_VALUES,
    CAPOT_BID,
    GENERALE,
    PACKETS,
    deal_scores,
    stacked_deck,
    trailing_passes,
)

GAME = register(Contree())

__all__ = [
    "BID_LABELS",
    "BID_VALUES",
    "CAPOT_BID",
    "GAME",
    "GENERALE",
    "PACKETS",
    "Contree",
    "deal_scores",
    "stacked_deck",
    "trailing_passes",
]
