"""Motton: 20 rounds of 10 down to 1 and back up to 10 cards; bid your tricks, make them exactly.

Rules: the motton section of the house rule text, with the choices of ``DECISIONS.md``.

Variant and options
-------------------
- 2 to 5 players, 52 cards, order A K Q J T 9 ... 2 (ace high). Round ``r`` (1-20) deals
  10, 9, ..., 1, 1, 2, ..., 10 cards each; the next card is turned up and gives trump, except a
  king: that round is played without trump.
- Bids: from the seat after the dealer, each seat bids once how many tricks it will take, 0 up to
  the cards in hand.
- Play: the seat after the dealer leads; follow the suit led if you can, else play anything (no
  obligation to trump or to go higher). The highest trump takes the trick, else the highest card of
  the suit led; the winner leads next.
- Score: a seat that takes exactly its bid scores ``(10 + tricks - cards) * tricks + 10``; any
  other seat scores nothing that round. If nobody makes their bid, the round is replayed: the same
  number of cards, a new deal, the same dealer. Otherwise the seat after the dealer (the round's
  first leader) deals the next round. Highest total after round 20 wins (ties: every tied seat).
- Options: ``blind`` (false): bids are made before the turned card is shown; it stays hidden from
  everyone (the dealer too) until the last bid, then is turned up. ``constrained`` (false): the
  last bidder may not bid the number that makes the bids add up to the cards in hand.
  ``first_dealer`` (common to every game; default seat ``n-1``, a rematch moves it one seat): the
  dealer of round 1.

Phases
------
- ``bid``: ``turn`` bids.
- ``play``: ``turn`` plays a card.
- ``deal``: a round is over (its last trick still shows as ``last_trick``); ``dealer`` deals the
  next round, or the replay of this one. The first round is dealt by ``new``.
- ``over``: after round 20.

Actions
-------
- ``{"type": "bid", "value": 2}`` — an int, 0 to the cards in hand (in ``constrained``, not the
  value that would make the bids total the cards in hand, for the last bidder).
- ``{"type": "play", "card": "QH"}``.
- ``{"type": "deal"}`` — in phase ``deal``, by ``dealer``.

Events
------
- ``deal`` (public): ``seat`` (dealer), ``deal`` (round 1-20), ``cards`` (per hand), ``replay``
  (how many times this round has been replayed so far: 0 on its first deal).
- ``hand`` (``to`` its owner only): ``seat``, ``cards``.
- ``turn_up``: ``seat`` (dealer), ``card``, ``trump`` (a suit letter, or None after a king). At the
  deal, or after the last bid with ``blind``.
- ``bid``: ``seat``, ``value``.
- ``play``: ``seat``, ``card``. ``trick``: ``seat`` (the winner), ``cards`` (play order).
- ``deal_end``: ``seat`` None, ``deal``, ``cards``, ``bids``, ``tricks``, ``scores`` (points of
  the round per seat), ``totals``, ``replayed`` (true: nobody made it, it is dealt again),
  ``breakdown`` (per seat, ``_breakdown.py``: ``base`` 10 per bid made exactly, ``tricks`` the
  rest of the formula, (10 + tricks − ``cards``) × tricks; a missed bid scores nothing; the
  lines add up to ``scores``).
- ``game_end``: ``seat`` None, ``scores``, ``winners``.

Views
-----
The common keys (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand`` (own
cards, sorted; None for a spectator), ``counts``, ``scores`` (running totals), ``deal`` (round
1-20), ``trump`` (suit letter or None; None too while a blind turn-up is hidden), ``trick``
([{"seat", "card"}...]), ``last_trick`` ({"cards": [...], "winner": s} or None), ``bids`` ([{"seat",
"value"}...] in bidding order), ``tricks_won``) and:

- ``cards``: how many cards each seat was dealt this round (an int); ``replay``: times this
  round was replayed;
- ``turned``: the turned card, or None while it is hidden (``blind``, before the last bid);
  ``turned_hidden``: whether it is;
- ``forbidden_bid``: in ``constrained``, the value the last bidder may not bid when they are on
  turn, else None;
- ``blind``, ``constrained``: the options;
- ``sheet``: one row per round made, in order: {"deal", "cards", "dealer", "trump", "bids",
  "tricks", "scores", "replays"} (``replays``: how many deals of that round nobody made; their
  bids and tricks are in their ``deal_end`` events).

A seat sees its own hand only; the undealt stock is hidden from everyone; played cards are public.

Dealing order for ``deck=``
---------------------------
A full 52-card deck stacks round 1 only: one card at a time, starting with the seat after the
dealer ``d``: card ``i < 10 n`` goes to seat ``(d + 1 + i) % n`` (``i % n`` with the default
dealer); card ``10 n`` is turned up; the rest is
the stock. Later deals are shuffled from ``rng(seed, "deal", round)``, and a replay from
``rng(seed, "deal", round, "replay", k)``.
"""

from tablee.games.registry import register

from .game import Motton
from .rules import ROUND_CARDS, MottonState, Phase, Row, round_score, trump_of

GAME = register(Motton())

__all__ = [
    "GAME",
    "ROUND_CARDS",
    "Motton",
    "MottonState",
    "Phase",
    "Row",
    "round_score",
    "trump_of",
]
