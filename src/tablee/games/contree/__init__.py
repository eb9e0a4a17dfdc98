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

Sans-atout and tout-atout (option ``sa_ta``, default off; ``DECISIONS.md``, "Variants")
    A bid may name ``"suit": "SA"`` (sans-atout) or ``"TA"`` (tout-atout) instead of a suit; the
    contract's ``trump`` is then ``SA`` or ``TA``. At the same value a bid outranks another by its
    trump, suits < SA < TA (a suit never outbids a suit at the same value); a higher value always
    outbids.
    SA: no trump. Follow the led suit, else any card; each suit ranks A T K Q J 9 8 7, worth
    A 19, T 10, K 4, Q 3, J 2 (152 + 10 de der = 162; capot 252). No belote.
    TA: every suit is a trump suit. Follow the led suit and go higher than the best card of it in
    the trick when you can; void, any card (no cutting). Each suit ranks J 9 A T K Q 8 7, worth
    J 14, 9 9, A 6, T 5, K 3, Q 1 (162 a deal; capot 252). A K and Q of one suit held by one
    player make a belote (20) each: "belote" with the first played, "rebelote" with the second
    (the call and the view's ``belote`` entry name the ``suit``).
    Scoring, contre and surcontre as for a suit. Views add ``variants`` (``{"sa_ta": true}``).
    Timeout and robots: they bid suits only, as without the option; they play SA and TA
    contracts by the same rule (the cheapest card that keeps the trick, else the cheapest).

Annonces (option ``annonces``, default off; ``DECISIONS.md``, "Variants")
    Sequences of one suit in the natural order A K Q J T 9 8 7: tierce (3) 20, cinquante (4) 50,
    cent (5 or more) 100; carrés: of jacks 200, of nines 150, of aces, tens, kings or queens 100
    (none of 8s or 7s). A card may be in one carré and one sequence; a run counts once, whole.
    On its first turn to play, before its first card, a seat holding announcements may send
    ``{"type": "announce", "kinds": [...]}`` (the legal action names every kind its hand holds,
    e.g. ``["tierce", "carre_J"]``); the kinds are public (event ``announce``, view
    ``annonces.declared``), the cards are not. Playing the first card without it is passing.
    At the end of the first trick the best announcement is found: a carré beats a sequence
    (carrés by value, then A T K Q), a longer sequence a shorter, then the higher top card, then
    the trump sequence, then the first announced. Its side shows all its announcements (event
    ``annonces_shown``: ``team``, ``annonces`` with their ``cards``, ``points``; view
    ``annonces.shown``, ``annonces.team``, ``annonces.points``), whose cards are public from then
    on, and scores them; the other side scores none. Belote-rebelote is scored as without the
    option. The sheet rows add ``annonces`` (per team). Views add ``variants``.
    Timeout and robots: announce whatever the hand holds (it never costs the side a point).
    Scoring: announcements do not count towards the bid (made on card points + belote); every
    announcement shown goes to the side that made the contract, or set it; contre and surcontre
    multiply the bid only.

Events
    ``deal`` (public; ``seat`` = dealer), ``hand`` (to its seat only: ``cards``), ``pass``,
    ``bid`` (``value``, ``suit``), ``contre``, ``surcontre``, ``decline``, ``redeal`` (``seat`` =
    next dealer), ``contract`` (``trump``, ``value``, ``coinche``), ``play``, ``belote`` /
    ``rebelote``, ``trick`` (``seat`` = winner, ``cards``, ``points``), ``deal_end`` (the sheet
    row and ``breakdown``), ``game_end`` (``scores``, ``winners``).

    ``deal_end``'s ``breakdown`` (per team, ``_breakdown.py``) adds up to the row's ``scores``.
    Made: ``cards`` and ``dix_de_der`` (or ``capot``: 252) of the takers, and of the defenders
    unless the contract was contré; ``belote`` (20 to its team); ``contract`` (``value`` ×
    ``coinche`` to the takers). Failed: ``chute`` (162 to the defenders), ``contract`` (``value``
    × ``coinche`` to the defenders), ``belote`` (each team its own). ``annonces`` (option): every
    announcement shown, to the side that made or set the contract (``all``).
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
