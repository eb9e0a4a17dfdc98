"""Yaniv: lay down sets and runs, draw, and call "yaniv" with 7 points or fewer in hand.

The house text (``wiki-barbu-freeze-motton-yaniv.fr.txt``) is unfinished; ``DECISIONS.md``
completes it. This docstring is the spec of what tablée plays.

Players, cards, match
---------------------
- 2 to 8 players, 54 cards: the 52 French cards and two jokers ``X1``, ``X2``.
- Values: jokers 0, A 1, 2-9 their face, T/J/Q/K 10. A hand's value is the sum of its cards.
- One game is a match of rounds. After a round's scoring a total that has just reached exactly 50
  or 100 drops by 50 (once: 100 drops to 50 and stays there; a seat already at 50 that adds 0
  points has reached nothing and keeps 50); when a total exceeds 100 the game stops and the lowest
  total wins (ties: every seat on it wins).
- No table options of its own (``first_dealer``, common to every game: see below).

Dealing (and ``deck=``)
-----------------------
Each player gets 5 cards; the next card is turned face up to start the discard; the rest is the
stock, top first. A stacked deck (first round only) is dealt in packets of 5, from the first
player round the table: by default ``deck[0:5]`` to seat 0 (the first player), ``deck[5:10]`` to
seat 1, ...; with a first player ``f``, ``deck[5k:5k+5]`` to seat ``(f + k) % n``; then
``deck[5n]`` is turned up and ``deck[5n+1:]`` is the stock, ``deck[5n+1]`` on top. Later rounds
shuffle the 54 cards with ``rng(seed, "deal", round)``.

The seat after the option ``first_dealer`` (common to every game; default seat ``n-1``, a rematch
moves it one seat) plays first in round 1: seat 0 by default. The first player of every later
round is the winner of the previous one: the caller after a successful yaniv; after an assaf, the
other seat with the lowest hand (on a tie, the first of them in play order after the caller).
``dealer`` in the view is the seat before the first player.

Phases and actions
------------------
- ``turn`` (the seat in ``turn``):
  ``{"type": "yaniv"}`` when the hand is worth 7 points or fewer (allowed from the first turn), or
  ``{"type": "discard", "cards": [...]}``.
- ``draw`` (the same seat, right after its discard):
  ``{"type": "draw", "from": "stock"}`` or ``{"type": "draw", "from": "discard", "card": "7H"}``.
  Discarding and drawing are two actions so that each is a small exact list and each gets the
  table's timer; the card drawn back is chosen after the discard, as at a real table.
- ``show`` (after a yaniv, while the game goes on): every hand lies face up. The next round's first
  player starts it with ``{"type": "next"}`` (the table does it when their time runs out).
- ``over``: the match is finished; every hand of the last round stays shown.

Discards
--------
A discard is one of:

- a single card;
- a set: 2 or more cards whose natural (non-joker) cards all have one rank; jokers stand in for
  that rank. A group whose only natural card is one card (``5H X1``, ``5H X1 X2``) is a set, and so
  is ``X1 X2``. A group that is a set is never read as a run;
- a run: 3 or more cards, at least two natural cards, all naturals of one suit, consecutive with
  jokers standing in for the missing cards and possibly extending either end. The ace is low
  (``AH 2H 3H``), the king is the top, a run never wraps (``QH KH AH`` is no run).

Canonical order (how ``legal_actions`` writes each group, once): a single as itself; a set with its
naturals in suit order S, H, D, C, then ``X1``, then ``X2``; a run from its low end up, each joker
at the place it stands. Jokers are interchangeable: when a group holds both, ``X1`` is laid in the
lower place. A group using one joker while both are held is listed once with each joker (they are
different cards left in the hand).

``apply`` also accepts a group written in another order: a set or a run without a choice of
placement in any order; joker names are renumbered by their place in the list (``X2 5H X1`` reads as
``X1 5H X2``). When the cards can be laid as more than one run (a joker below or above, e.g.
``5H 6H X1`` is 4-5-6 or 5-6-7), the order given must be one of them, read from the low end;
otherwise the discard is refused with the possible layouts in the reason. Invalid groups are refused
with a reason ("a run needs 3 or more cards of one suit", "not a set: 7H and 8S differ", ...).

Drawing
-------
After the discard the player draws one card: the top of the stock, or one of the cards the
previous player discarded (the turned card, for the round's first player): any card of a single
or a set, only an end card of a run. A joker at an end of a run is an end card: it may be taken,
and in the taker's hand it is a plain joker again (it stood for that place only on the table). A
player never takes back their own discard. The cards of the previous discard that stay on the
table go under the new discard (the "pile").

When a draw takes the last card of the stock, the pile (the discard except its top group, which the
next player may still take) is shuffled at once into a new stock with
``rng(seed, "reshuffle", round, n)``, ``n`` counting the reshuffles of the match. The stock is thus
never empty when a player must draw. (Hands never exceed 5 cards, so the pile always holds at least
9 cards at that moment.)

Yaniv and scoring
-----------------
Calling yaniv ends the round: every hand is shown. If no other player's hand is worth as little as
the caller's or less, the caller scores 0 and everyone else adds their hand's value. Otherwise
("assaf"): the caller adds their hand + 30, every player at or below the caller adds 0, the others
add their hand. Then each total that this round's points brought to exactly 50 or 100 drops by 50.
A total above 100 ends the game.

What each seat sees (``view``)
------------------------------
Common keys: ``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn`` (the seat playing;
in ``show`` the next round's first player; ``None`` when over), ``hand`` (own cards, sorted;
``None`` for a spectator), ``counts``, ``scores``, ``deal`` (the round number). Yaniv keys:

- ``first``: the round's first player; ``hand_value``: own hand's value (``None`` for a spectator);
- ``discard``: ``{"cards", "kind", "takeable"}``, the previous player's discard, the cards that may
  be drawn (``kind`` is ``single``, ``set`` or ``run``);
- ``laid``: during ``draw``, ``{"cards", "kind"}`` the current player's discard, else ``None``;
- ``stock``, ``pile``: numbers of cards;
- ``known``: per seat, the cards that seat took from the discard and still holds: everyone saw
  them taken, so every view shows them (and ``hidden`` does not count them);
- ``shown`` / ``values``: per seat, the hands and their values once a yaniv showed them (``show``
  and ``over``), else ``None``;
- ``history``: one entry per finished round: ``round``, ``caller``, ``assaf`` (bool), ``values``
  (hand values), ``points`` (added this round), ``dropped`` (seats whose total dropped by 50),
  ``scores`` (totals after the round);
- ``yaniv_max``: 7.

Hidden cards: the stock, and the cards of the other hands except their ``known`` cards; once hands
are shown (``show``, ``over``) only the stock.

Events
------
- ``{"type": "discard", "seat", "cards", "kind"}`` (public, canonical order);
- ``{"type": "draw", "seat", "from": "stock", "card", "to": [seat]}`` and its public twin
  ``{"type": "draw", "seat", "from": "stock"}``;
- ``{"type": "draw", "seat", "from": "discard", "card"}`` (public);
- ``{"type": "reshuffle", "seat", "count"}`` (public; ``seat`` drew the last card);
- ``{"type": "yaniv", "seat", "value", "hands", "values", "assaf", "assafers"}`` (public);
- ``{"type": "deal_end", "seat", "round", "points", "dropped", "scores", "breakdown"}`` (public;
  ``seat`` is the caller); ``breakdown`` (per seat, ``_breakdown.py``): ``hand`` the hand values
  counted (the caller's own only when assafed, an assafer's never), ``assaf`` the caller's 30
  of penalty, ``drop`` -50 for a total landing on 50 or 100; they add up to the change of the
  totals (``points`` less the drops);
- ``{"type": "game_end", "seat", "scores", "winners"}`` when the match ends;
- ``{"type": "deal", "seat", "round", "first", "discard"}`` (public) and
  ``{"type": "hand", "seat", "cards", "to": [seat]}`` for each seat, when ``next`` deals a round.

Timeout play (``auto_action``)
------------------------------
Call yaniv with 3 points or fewer, or with 7 or fewer when every other hand looks bigger: a hand
whose cards are all known (taken from the discard) must be worth more; otherwise its known cards
plus 4 per unknown card must exceed the caller's hand by more than 3. Never call when a hand whose
cards are all known is worth as little or less (a sure assaf). Else discard the legal group
worth the most points (more cards first on a tie). Then take back the lowest card of the previous
discard if it is worth less than the group just laid and is worth 3 or less or matches the rank of
a card still held; otherwise draw from the stock. (Taking back only cards worth less than the
discard means a turn that does not touch the stock always lowers the hand, so timed-out players
never pass the same cards back and forth forever.) Never take back a card that would leave the
hand wholly known and worth exactly as much as another wholly known hand: each would see a sure
assaf in the other and never call (two seats each holding a joker seen taken, one card in hand,
would pass the jokers round the table without end); draw from the stock instead. A hand changes
only at its own draw, so no two wholly known hands ever tie and the lowest of them may always
call. In ``show``: start the next round.
"""

from tablee.games.registry import register

from .game import Yaniv
from .rules import (
    DECK,
    HAND_SIZE,
    YANIV_MAX,
    Phase,
    RoundResult,
    YanivState,
    card_value,
    discards,
    hand_value,
    layouts,
    sort_hand,
    takeable,
)

GAME = register(Yaniv())

__all__ = [
    "DECK",
    "GAME",
    "HAND_SIZE",
    "YANIV_MAX",
    "Phase",
    "RoundResult",
    "Yaniv",
    "YanivState",
    "card_value",
    "discards",
    "hand_value",
    "layouts",
    "sort_hand",
    "takeable",
]
