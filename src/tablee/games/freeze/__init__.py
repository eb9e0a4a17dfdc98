"""Freeze: four face-down cards, powers, speeds, and a bet on having the lowest hand.

Rules: the freeze section of the house text, completed by the "Freeze" section of the decisions.

Players and cards
    2 to 8 players, one 52-card deck (every card is unique, so a card code names one card).
    Option ``rounds`` (default 5, 1..50): the number of rounds of the match.

Layouts and positions
    Each player has a layout of two lines: line 0 (the top line) and line 1 (the bottom line),
    two face-down cards each at the deal. A position is ``line`` (0 or 1) and ``slot`` (0-based
    index in that line). Lines change length: a speeded card leaves its line (the cards after
    it close up), a penalty card is added at the end of the shorter line (the top line when both
    are as long), a replaced or swapped card takes the place of the one it replaces.

Deal (``deck=`` stacks the first round, top card first)
    The dealer of round 1 is the option ``first_dealer`` common to every game (default seat n-1;
    a rematch moves it one seat); the dealer moves one seat each round; the seat after the
    dealer plays first. Packets of 4 cards go to each seat in turn, starting after the dealer:
    the packet's cards are line 0 slot 0, line 0 slot 1, line 1 slot 0, line 1 slot 1. The rest is
    the stock (its first card is the top). The discard pile starts empty. Each player has seen
    their bottom line once and keeps knowing it. Round r is dealt from ``shuffled(deck,
    seed, "deal", r)``.

Knowledge
    The state records, for every card in a layout, which seats know it and whether it was shown
    to the whole table; knowledge travels with the card when it moves. A seat knows: its bottom
    line from the deal, a card it drew and put in its layout, a card it peeked at or spied, and
    every card shown to the table (a card taken from the discard, a speeded card that was wrong,
    every layout at the end of a round). A blind swap (J/Q) shows no face: each seat keeps knowing
    exactly the cards it knew, wherever they went. The discard pile is public (every card was seen
    landing); the stock is unknown to everyone; the drawn card is known to its drawer only.

Phases and actions (``line``/``slot`` address the actor's own layout; ``target`` is another seat
and ``target_line``/``target_slot`` a position in that seat's layout)
    ``turn``       the turn player (``turn``), at the start of their turn, chooses one of:
                   ``{"type": "draw"}`` (the stock is not exhausted), then phase ``drawn``;
                   ``{"type": "take", "line": l, "slot": i}``: the top discard replaces that card
                   of yours, which is discarded face up; the turn ends;
                   ``{"type": "freeze"}`` (nobody has frozen this round); the turn ends;
                   ``{"type": "pass"}`` only when none of those is possible (nothing to draw,
                   nothing to take or no card to replace, and the freeze already called).
    ``drawn``      the turn player holds the drawn card: ``{"type": "discard"}`` puts it on the
                   discard and starts its power, if it has one and a target exists, else ends the
                   turn; ``{"type": "replace", "line": l, "slot": i}`` puts it in that place and
                   discards the old card face up (no power); the turn ends.
    ``peek``       (7, 8) ``{"type": "peek", "line": l, "slot": i}``: look at one of your cards.
    ``spy``        (9, 10) ``{"type": "spy", "target": t, "line": l, "slot": i}``: look at a card
                   of another seat.
    ``swap``       (J, Q) ``{"type": "swap", "line": l, "slot": i, "target": t, "target_line": tl,
                   "target_slot": ti}``: exchange one of your cards with another seat's, unseen.
    ``king_look``  (black K) ``{"type": "spy", ...}`` as for a 9, then phase ``king_swap``.
    ``king_swap``  ``{"type": "swap", ...}`` whose target is the card just looked at, or pass.
                   In every power phase ``{"type": "pass"}`` declines the power and ends the turn.
                   A power whose target cannot exist (no card of your own to peek at or swap, no
                   card in an unfrozen opponent's layout) is skipped. Red kings and A..6 have no
                   power. A frozen hand is never a target (no spy, no swap).
    ``shown``      the round is over and every layout is face up; the next round's dealer sends
                   ``{"type": "deal"}``.
    ``over``       the match is over: nothing is legal.

Speeds: ``{"type": "speed", "line": l, "slot": i}``, out of turn
    The window: it opens when a turn ends with a card landing on the discard (a discard, a
    replace or a take; after the discarded card's power, if any) and closes with the next
    main-turn action (draw, take, freeze, pass). Speeds are therefore accepted only in the
    ``turn`` phase, from every seat that is not frozen and has a card, the turn player included:
    they are listed in ``legal_actions`` but not in ``to_act``. The speeded card is shown to the
    table. The first speed of a window whose card has the rank of the top discard is good: the
    card goes on the discard. A wrong card, or any later speed in the same window (the speeded
    card does not open a new window: speeds are not chained), is a fault: the card goes back in
    its place, known to all, and the player takes a penalty card from the stock, unseen by
    everyone, at the end of their shorter line. A speed (good or a fault) by the turn player counts
    as their turn. The last turn of a round ends the round at once: its discard cannot be speeded.

Freeze
    Only at the start of your turn, once per round. The freezer's layout is frozen: they play no
    more turns, cannot speed and cannot be targeted. Every other player plays one more turn (a
    speed by the turn player counts as that turn); when the turn comes back to the freezer all
    layouts are shown and the round is scored.

Empty stock
    Before a card is taken from an empty stock (a draw or a penalty), the discard pile except its
    top card is shuffled into a new stock (``shuffled(cards, seed, "reshuffle", round, k)`` for
    the k-th reshuffle of the round). If nothing is left to draw, ``draw`` is not offered and a
    penalty is simply not taken; a turn player who then cannot take or freeze passes.

Scoring
    A = 1, 2..10 face value, J, Q and black kings 10, red kings -1. A line of at least 2 cards all
    of the same rank counts 0 (two red kings: 0, not -2). A player's points are the sum of their
    two lines. The freezer scores -10 if their points are strictly lower than everyone else's;
    otherwise their points + 5 per other player at or below them. The others score their points.
    After ``rounds`` rounds the lowest total wins (ties share the win).

View (the common keys, plus)
    ``"hand"``: the viewer's layout, two lists (lines) of card codes or ``None`` for a card the
    viewer does not know; ``"layouts"``: the same for every seat; ``"counts"``: cards per seat;
    ``"discard"``: the discard pile, top card last; ``"stock"``: the number of cards in the stock;
    ``"drawn"``: the drawn card for its drawer, else ``None``; ``"holding"``: the seat holding a
    drawn card or ``None``; ``"frozen"``: the freezer's seat or ``None``; ``"looked"``: during
    ``king_swap``, the card looked at ``{"target", "line", "slot"}``; ``"speed"``: ``"closed"``,
    ``"open"`` (the first speed on the top discard is still to come) or ``"used"``;
    ``"history"``: the per-round scores; ``"points"``: the points of the last scored round.
    A seat sees a card exactly when it knows it; a spectator sees the public cards.

Events (``to`` marks private ones; each private event has a public twin without the card)
    ``draw`` {seat} and private {seat, card}; ``discard`` {seat, card, power}; ``replace``
    {seat, line, slot, card (the discarded one)}; ``take`` {seat, line, slot, card, discarded};
    ``freeze`` {seat}; ``pass`` {seat}; ``peek`` {seat, line, slot} and private with card;
    ``spy`` {seat, target, line, slot} and private with card; ``swap`` {seat, line, slot,
    target, target_line, target_slot}; ``speed`` {seat, line, slot, card, good}; ``penalty``
    {seat, line} (no card); ``reshuffle`` {seat, count}; ``deal_end`` {seat (the freezer),
    round, layouts, points, scores, totals, breakdown}; ``breakdown`` (per seat,
    ``_breakdown.py``) holds a ``row`` line per line of cards (``row`` 1 or 2, ``same``: per seat,
    a line of one rank that counts 0), then ``freeze_won`` (the freezer strictly lowest: their
    points become -10) or ``freeze_lost`` (+5 per other player at or below them, ``count``); the
    lines add up to ``scores``; ``deal`` {seat (the dealer), round} with a private
    ``see`` {seat, cards} of each seat's bottom line.
"""

from tablee.games.registry import register

from .game import Freeze
from .rules import (
    DECK,
    PUBLIC,
    FreezeState,
    Phase,
    knows,
    layout_points,
    line_points,
    power_of,
    round_scores,
    value,
)

GAME = register(Freeze())

__all__ = [
    "DECK",
    "GAME",
    "PUBLIC",
    "Freeze",
    "FreezeState",
    "Phase",
    "knows",
    "layout_points",
    "line_points",
    "power_of",
    "round_scores",
    "value",
]
