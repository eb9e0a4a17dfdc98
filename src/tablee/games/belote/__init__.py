"""Belote — the house rules (``belote.fr.txt``) as decided in ``DECISIONS.md``.

Players and match
    4 seats; teams {0, 2} and {1, 3}. The first deal's dealer is the option ``first_dealer``
    common to every game (default seat 3; a rematch moves it one seat); the dealer moves one seat
    each deal (a cancelled deal counts); the seat after the dealer speaks first and leads the first
    trick. Option ``target`` (default ``None``): ``None`` plays one deal (the text: no 1,000-point
    match) — the game ends with the first deal that is played out; a number plays deals until,
    at the end of a deal, a team has at least ``target`` points and more than the other team
    (a tie at or over the target plays another deal).

Dealing (the order ``deck=`` is read in, top card first; only the first deal is stacked)
    32 cards. Packets of 3 then of 2 to each seat in turn starting after the dealer ``d`` (seats
    d+1, d+2, d+3, d, mod 4, twice): 20 cards. The 21st card is turned up. The last 11 are dealt
    after the take, in turn from the seat after the dealer: the taker gets the turned card and 2
    cards, every other seat 3. :func:`stacked_deck` builds a deck from the wanted hands.

Bidding (phase ``bidding``, ``round`` 1 then 2)
    Round 1, each seat in turn: ``{"type": "take"}`` (the turned card's suit is trump) or
    ``{"type": "pass"}``. After four passes, round 2 from the seat after the dealer:
    ``{"type": "take", "suit": S}`` with S one of the three other suits, or ``{"type": "pass"}``.
    The first take ends the bidding and completes the hands; four more passes cancel the deal
    (a sheet row with ``cancelled``), and the next dealer deals at once.

Play (phase ``play``): ``{"type": "play", "card": C}``
    Trump order J 9 A T K Q 8 7 (J 20, 9 14, A 11, T 10, K 4, Q 3); plain A T K Q J 9 8 7
    (A 11, T 10, K 4, Q 3, J 2). Follow the led suit when you can; on a trump lead, play a higher
    trump when you can. Void in a led plain suit:
    - an opponent holds the trick: you must trump; overtrump when you can, else trump lower
      (undertrump) — a discard is allowed only when you have no trump;
    - your partner holds the trick: you may play any card, and when you choose to trump, that
      trump must overtrump the best trump in the trick when you can ("lorsque vous choisissez
      d'atout, continuez à suratouter si possible"); any trump when you cannot.
    The highest trump, else the highest card of the led suit, wins; the winner leads next.
    Belote/Rebelote: the seat holding the K and Q of trump once the hands are complete announces
    "belote" with the first of them played and "rebelote" with the second (automatically, in the
    events and the view); 20 points to that team, wherever the two cards fall.

Scoring (one row of the sheet per deal)
    Card points 152 + 10 for the last trick = 162; a team taking all 8 tricks counts 252 (capot).
    The takers make it when their card points + belote >= the defenders' card points + belote
    (a tie is made, "au moins"). Made: each team scores its own card points + belote. Failed
    ("dedans"): the takers 0, the defenders 162 (252 on a capot) + every belote announced.
    Single deal: the winners are the takers when made, else the defenders. Match: the team with
    more points.

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
    Scoring: a side's shown announcements count in its total, both for whether the takers made
    it (card points + belote + announcements, against the defenders' same total) and for what
    each side scores; takers who fail lose theirs to the defenders, who then score 162 (252) +
    every belote + every announcement shown.

Matches in points (option ``target``)
    The lobby offers "une donne" (the default, ``None``), "501 points" and "1000 points" (and
    other totals, from 100).

Between deals (phase ``deal_over``, matches only)
    The scored deal stays on view until the next dealer sends ``{"type": "deal"}`` (the timeout
    move), which deals the next deal.

Timeout moves (``auto_action``)
    Bidding: take only with a clearly strong hand, counting the turned card the taker would get:
    the J of the suit with 5 trumps, or with 4 trumps and the 9 or an outside ace, or with 3
    trumps, the 9 and an outside ace; else pass.
    Play: the cheapest legal card with which the team still holds the trick, else the cheapest
    (fewest points, a plain card before a trump, the lowest).

Views (``view(state, seat)``)
    ``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand`` (the viewer's own
    cards, sorted; ``None`` for a spectator), ``counts``, ``scores`` (match total per seat),
    ``team_scores``, ``target``, ``deal``, ``turned`` (the turned card: on the table during the
    bidding, then known to be in the taker's hand), ``round``, ``bids`` (``{"seat", "type",
    "suit"?}``), ``contract`` (``{"taker", "trump", "value": 0, "coinche": 1}`` or None),
    ``trump``, ``leader``, ``trick`` / ``last_trick`` (``[{"seat", "card"}]`` in play order;
    ``{"cards", "winner"}``), ``tricks_won`` (per seat), ``team_tricks``, ``belote``
    (``[{"seat", "type": "belote" | "rebelote"}]``), ``sheet`` (per deal: ``deal``, ``dealer``,
    ``taker``, ``trump``, ``card_points``, ``belote``, ``capot``, ``made``, ``cancelled``,
    ``scores`` per team). No other hand, ever; the stock is never shown.

Events
    ``deal`` (public: ``deal``, ``turned``; ``seat`` = dealer), ``hand`` (to its seat only:
    ``cards``), ``pass`` / ``take`` (``suit``), ``complete`` (to its seat: ``cards`` received;
    public twin: ``count``), ``redeal`` (``seat`` = next dealer), ``contract`` (``trump``),
    ``play`` (``card``), ``belote`` / ``rebelote`` (``card``), ``trick`` (``seat`` = winner,
    ``cards``, ``points``), ``deal_end`` (the sheet row and ``breakdown``), ``game_end``
    (``scores``, ``winners``).

    ``deal_end``'s ``breakdown`` (per team, ``_breakdown.py``) adds up to the row's ``scores``.
    Made: ``cards`` (each team's card points), ``dix_de_der`` (10 to the last trick's team) or
    ``capot`` (252 to the team that took every trick), ``belote`` (20 to its team),
    ``annonces`` (option: each team its shown announcements). Dedans: ``chute`` (162 to the
    defenders) or the defenders' ``capot``, ``belote`` and ``annonces`` (``all``: every one, the
    takers' too, to the defenders).
"""

from tablee.games.registry import register

from .game import FIRST_PACKETS, Belote, deal_scores, stacked_deck

GAME = register(Belote())

__all__ = ["FIRST_PACKETS", "GAME", "Belote", "deal_scores", "stacked_deck"]
