"""Contrecarte: BFmania's eight-américain family game, 2 to 6 players, each for themselves.

Rules: the house text, as decided in the rules decisions (Contrecarte section). One game is one
deal; the first player to play their last card wins. No options of its own.

Cards (see ``tablee.cards``): ``R``/``B``/``G``/``Y`` then ``0``-``9``, ``S`` (passe), ``R``
(inversion), ``+2``; colourless ``W`` (joker) and ``W+4``. 108 cards; two copies of every coloured
card except the ``0`` s, four ``W`` and four ``W+4``.

Deal and ``deck=``
    The dealer is the option ``first_dealer`` common to every game (default: the last seat,
    ``n-1``; a rematch moves it to the next seat, see ``tablee.engine.game``); the seat after the
    dealer plays first, direction increasing (seat 0 by default). The cards are dealt one at a
    time round the table starting at the seat after the dealer, 7 rounds: with a stacked deck (top
    card first) and dealer ``d``, card ``deck[j]`` (``j < 7n``) goes to seat ``(d + 1 + j) % n``,
    so by default seat ``i`` gets ``deck[i]``, ``deck[i+n]``, ... ``deck[i+6n]``. The rest is the
    stock, ``deck[7n]`` on top, and its top card is turned to start the discard. A turned card
    that is not a number (``0``-``9``) is put back and the stock reshuffled (``rng(seed, "turn",
    k)``) until a number turns up, so the first card is never special. A seeded game shuffles the
    deck with ``rng(seed, "deal", 1)`` and deals it the same way.

Phases (``phase``)
    ``play``: the seat ``turn`` plays a card or draws. ``drawn``: it drew a card that fits and may
    play that card or pass. ``contest``: a ``W+4`` is pending; ``turn`` is its target, who contests
    or accepts. ``over``: somebody has no card left.

Actions
    - ``{"type": "play", "card": C}``; a ``W``/``W+4`` also names the colour that goes on:
      ``{"type": "play", "card": "W+4", "color": "B"}``. The card must fit: same colour as the
      colour in force (the top card's, or the one named with the last joker), or same face as the
      top card (``7`` on ``7``, ``+2`` on ``+2``, ``S`` on ``S``, ``R`` on ``R``); ``W``/``W+4``
      go on anything. A ``W+4`` is never refused: whether it was legal (no card of the colour in
      force in the hand) is recorded, hidden, for a contest. In phase ``drawn`` only the drawn card
      may be played. A play that leaves exactly one card may carry ``"announce": true``: the player
      says "Carte !" with the card (both variants are listed in ``legal_actions``). The table's
      ``auto_action`` always uses it: that is how "the table announces for the player" is done,
      since after its move the seat is no longer the one the table waits on.
    - ``{"type": "draw"}``: in phase ``play`` only, once per turn, allowed even when a card fits.
      If the drawn card fits the phase becomes ``drawn``, else the turn passes. With nothing left to
      draw (empty stock, discard reduced to its top) the player draws nothing and the turn passes.
    - ``{"type": "pass"}``: in phase ``drawn`` only (after drawing a card that fits).
    - ``{"type": "contest"}`` / ``{"type": "accept"}``: the target of a ``W+4``. Accept: draws 4 and
      loses the turn. Contest of an illegal +4: the poser draws 4, the contester plays next on the
      named colour. Contest of a legal +4: the contester draws 6 and loses the turn. Only the
      verdict is revealed, never the poser's hand.
    - ``{"type": "announce"}``: "Carte !", by a seat holding exactly one card that has not
      announced since it reached one card. Out of turn: any time, never changes the turn.
    - ``{"type": "catch", "target": T}``: by any other seat, when seat ``T`` holds exactly one card.
      ``T`` draws 2 if it had not announced; else the accuser draws 2 (false accusation). Out of
      turn, never changes the turn. Catching a seat with another card count is refused.

Effects of a card: ``S`` skips the next player; ``R`` reverses the direction (with 2 players it acts
as a skip: the player plays again); ``+2``: the next player draws 2 and is skipped; ``W``: the named
colour goes on; ``W+4``: the named colour goes on and the next player must contest or accept. No
stacking: a ``+2``/``+4`` is answered by drawing, never by another one. A ``W+4`` played as the last
card wins at once (nothing to contest: no card of any colour is left in that hand).

Empty stock: when a draw needs a card, the discard pile except its top card is reshuffled
(``rng(seed, "reshuffle", k)``) into a new stock; if nothing is left, the draw is cut short.

``to_act``: ``(turn,)`` — the seat whose turn it is, or the +4 target during the contest window.
Out-of-turn actions (``announce``, ``catch``) appear in every entitled seat's ``legal_actions``.

Events (``"seat"`` is who did it)
    ``play`` {card, color (W/W+4 only), announce (when said with the card)}; ``draw`` public
    {count, reason} with a private twin {cards} ``to`` the drawer (reason: ``turn``, ``+2``,
    ``+4``, ``contest``, ``catch``); ``reshuffle`` {count}; ``pass``; ``skip`` (seat: the skipped
    player); ``reverse`` {direction}; ``accept``; ``contest`` {poser, verdict: ``legal`` or
    ``illegal``}; ``announce``; ``catch`` {target, caught: bool}; ``deal_end`` {winner, scores,
    cards_left (per seat), breakdown (per seat, ``_breakdown.py``: one line ``out``, 1 to the
    winner, who laid their last card)}.

What each seat sees (``view``)
    Common keys (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand`` (own
    cards in the order received; ``None`` for a spectator), ``counts``, ``scores``, ``deal``) and
    ``top`` (the discard's top card), ``color`` (colour in force), ``direction`` (1 or -1),
    ``stock`` and ``discard`` (sizes), ``pending`` ({poser, target} during a contest window, else
    ``None``), ``announced`` (seats holding one card that have said "Carte !"), ``drawn`` (the
    card this seat drew and may still play, else ``None``), ``winner``. Never another hand, the
    stock, or whether a pending +4 is legal.

``auto_action`` (the table's move on a timeout): a fitting card, coloured cards before jokers,
never an illegal ``W+4``, naming the colour most held, announcing when it leaves one card; else
draw; after drawing, play the drawn card if it fits (same limits) else pass; contest window:
accept. A seat holding one unannounced card that cannot win at once announces. Out of turn: say
"Carte !" if due, else catch a seat that forgot to (never a false accusation), else refused.

Outcome: ``{"scores": [1 for the winner, 0 for the others], "winners": [w]}``. The tally of wins
and rematches are the table's business.
"""

from tablee.games.registry import register

from .game import Contrecarte
from .rules import (
    ALL_CARDS,
    COLOR,
    COLORS,
    FACE,
    FITS,
    HAND_SIZE,
    NUMBERS,
    WILD,
    WILD4,
    WILDS,
    ContrecarteState,
    Phase,
)

GAME = register(Contrecarte())

__all__ = [
    "ALL_CARDS",
    "COLOR",
    "COLORS",
    "FACE",
    "FITS",
    "GAME",
    "HAND_SIZE",
    "NUMBERS",
    "WILD",
    "WILD4",
    "WILDS",
    "Contrecarte",
    "ContrecarteState",
    "Phase",
]
