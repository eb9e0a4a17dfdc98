"""Barbu: five rounds of tricks without trump, each with its own penalty; the lowest total wins.

Rules: the barbu section of the house rule text, with the choices of ``DECISIONS.md``.

Variant and options
-------------------
- 4 players with 52 cards (13 each), or 5 players without the two black 2s (``2C``, ``2S``: 50
  cards, 10 each). No table options of its own (``first_dealer``, common to every game: see
  Seats). Card order, strongest first: A K Q J T 9 ... 2.
- A match is five rounds, always in this order (the ``contract`` key of views and events):

  ===== ========== ===============================================
  round contract   each trick costs its winner
  ===== ========== ===============================================
  1     ``tricks`` 5 points per trick
  2     ``hearts`` 5 points per heart
  3     ``queens`` 20 points per queen
  4     ``king``   80 points for the king of hearts (the barbu)
  5     ``all``    every one of the above: Q♥ 3♥ T♣ K♣ costs 20 + 10 + 5 = 35; K♥ alone 80 + 5 + 5
  ===== ========== ===============================================

  Totals of a round: tricks 65 at four players, 50 at five; hearts 65; queens 80; king 80; all 290
  at four, 275 at five. The lowest total after round 5 wins (ties: every tied seat wins).
- No trump: follow the suit led if you can, else play anything; the highest card of the suit led
  takes the trick and its winner leads the next one. Every card is played in every round.
- In rounds 2, 4 and 5 a heart may not be led until a heart has been discarded on another suit in
  that round, unless the leader holds only hearts (leading a heart then does not open hearts).
- Seats: the first dealer is the option ``first_dealer`` (default seat ``n-1``; a rematch moves it
  one seat), the seat after the dealer leads the first trick, and that first leader deals the next
  round (so the dealer moves one seat per round).

Barbu au choix (option ``choice``, default off; ``DECISIONS.md``, "Variants")
-----------------------------------------------------------------------------
- Each round is dealt, then its dealer, the hand in view, chooses its contract among the five
  contracts that dealer has not chosen yet: ``{"type": "choose", "contract": "king"}`` in phase
  ``choose`` (the dealer is the seat waited on). When one contract is left, it is named for the
  dealer and the play starts at once.
- The dealer still moves one seat per round, so the match ends when every player has dealt each
  contract once: 20 rounds at four players, 25 at five. The lowest total wins.
- The heart-lead rule and the penalties follow the contract chosen.
- Events: ``deal`` has ``contract`` None; ``choose`` (public: ``seat`` the dealer, ``contract``).
- Views add ``choice`` (true), ``rounds`` (rounds in the match), ``chosen`` (per seat, the
  contracts it has chosen) and ``sheet_contracts`` (the contract of each row of ``sheet``);
  ``contract`` is None while the dealer chooses.
- Timeout move: the contract the dealer's hand fears least, i.e. the least its own cards would
  cost if it took them all, its J, Q, K and A counting 5 each as tricks under ``tricks`` and
  ``all``; ties go to the text's order.

Phases
------
- ``play``: ``turn`` plays a card.
- ``choose``: au choix only, the dealer chooses the round's contract.
- ``deal``: a round is over (its last trick still shows as ``last_trick``); the next round's dealer
  deals it. The very first round is dealt by ``new``.
- ``over``: after round 5.

Actions
-------
- ``{"type": "play", "card": "QH"}`` — the seat on turn plays a card of its hand.
- ``{"type": "deal"}`` — in phase ``deal``, the dealer of the next round deals it.

Events
------
- ``deal`` (public): ``seat`` (dealer), ``deal`` (round 1-5), ``contract``.
- ``hand`` (``to`` its owner only): ``seat``, ``cards`` — the hand just dealt.
- ``play``: ``seat``, ``card``.
- ``trick``: ``seat`` (the winner), ``cards`` (play order), ``points`` (what the trick cost).
- ``deal_end``: ``seat`` None, ``deal``, ``contract``, ``scores`` (the round, per seat),
  ``totals`` (running, per seat), ``breakdown`` (per seat, the lines of ``_breakdown.py``: what
  the round's cards cost, by kind — ``tricks`` 5 per trick, ``hearts`` 5 per heart, ``queens``
  20 per queen, ``king`` 80 for the king of hearts, each line with ``each`` and the ``count``
  taken per seat; the contract's kinds only, the last round all four; they add up to ``scores``).
- ``game_end``: ``seat`` None, ``scores``, ``winners``.

Views
-----
The common keys (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand`` (own
cards, sorted; None for a spectator), ``counts``, ``scores`` (running totals), ``deal`` (round
1-5), ``trump`` (always None), ``trick`` ([{"seat", "card"}...]), ``last_trick``
({"cards": [...], "winner": s} or None), ``bids`` (always []), ``tricks_won`` (this round)) and:

- ``contract``: the round's contract (see the table above);
- ``points``: what each seat has taken this round so far;
- ``hearts_broken``: a heart has been discarded on another suit this round;
- ``sheet``: one list of per-seat points for every finished round, in order.

Cards already played are public; a seat sees its own hand only, a spectator no hand.

Dealing order for ``deck=``
---------------------------
The stacked deck (52 cards at four players, 50 at five) deals round 1 only: one card at a time,
starting with the seat after the dealer ``d`` and going round: card ``i`` goes to seat
``(d + 1 + i) % n`` (``i % n`` with the default dealer). Later rounds are shuffled from
``rng(seed, "deal", round)``.
"""

from tablee.games.registry import register

from .game import Barbu
from .rules import ROUNDS, BarbuState, Phase, barbu_deck, card_points, legal_cards, trick_points

GAME = register(Barbu())

__all__ = [
    "GAME",
    "ROUNDS",
    "Barbu",
    "BarbuState",
    "Phase",
    "barbu_deck",
    "card_points",
    "legal_cards",
    "trick_points",
]
