"""French tarot for 3, 4 and 5 players, as the house text plays it (BFmania rules).

The house text ``tarot.fr.txt`` is the authority, completed by the Tarot section of DECISIONS.md.
This docstring is the spec of what the module implements.

Options
-------
- ``deals`` (int or null, default null = one deal per player): how many *played* deals make the
  match. A deal everyone passes is not played: it does not count, and the next dealer deals.

Cards and dealing
-----------------
78 cards in the notation of ``tablee.cards`` (``1S``..``KS`` with ``C`` the cavalier, trumps
``A1``..``A21``, the Excuse ``EX``). The first deal's dealer is the option ``first_dealer``
common to every game (default seat ``n-1``; a rematch moves it one seat); the dealer moves one
seat each played deal, and after a deal everyone passed.

Dealing order (used verbatim for a stacked ``deck=``, top card first): the first ``n × hand``
cards go out in packets of 3, the first packet to the seat after the dealer, then round the table
(card ``i`` goes to seat ``(dealer + 1 + i // 3) % n``); the chien is the last 6 cards of the deck
(the last 3 at five players). Hands: 24 at three, 18 at four, 15 at five. Each hand is kept
sorted (spades, hearts, diamonds, clubs by rank, then trumps, then the Excuse).

Petit sec (a hand whose only trump is the Petit, the Excuse counting as a trump): the cards are
dealt again at once by the same dealer, from a fresh shuffle (a stacked deck only stacks the
first deal). Shuffles come from ``rng(seed, "deal", deal_number, attempt)``.

Phases
------
``bid`` → (five players: ``call``) → (prise/garde: ``ecart``) → ``chelem`` → ``play`` → ``end``
(waiting for the next dealer to deal) … → ``over``.

- ``bid``: each seat speaks once, from the seat after the dealer: ``pass`` or a contract higher
  than the best so far (prise < garde < garde_sans < garde_contre). A garde contre ends the
  bidding at once. If everyone passes, the next dealer deals (same deal number).
- ``call`` (five players): the taker calls a king; a queen if they hold the four kings; a
  cavalier if they also hold the four queens; a valet if they also hold the four cavaliers (the
  text stops at the cavalier; the valet completes the ladder the same way). Any card of that rank
  may be called, one's own included (then the taker plays alone; nobody else knows). If the
  called card is in the chien, the taker plays alone, without knowing under garde sans/contre.
  The partner (the seat holding the called card) stays secret until the called card is played.
- ``ecart`` (prise and garde): the chien is shown to everyone and added to the taker's hand;
  the taker then puts aside as many cards, one ``discard`` at a time (``undo`` takes back the
  last one; the écart is final with its last card). House rule: no trump, no Excuse, no king.
  Fallback (DECISIONS): when the taker's plain non-king cards cannot fill the écart, trumps other
  than the bouts complete it — exactly as many as are missing, and every plain non-king card
  goes in first. Trumps put in the écart are shown to everyone once it is complete.
  Under garde sans the chien stays hidden and counts for the taker; under garde contre it stays
  hidden and counts for the defence.
- ``chelem``: the taker says ``chelem`` or ``no_chelem``. With a chelem announced the taker
  leads the first trick; otherwise the seat after the dealer does.
- ``play``: tricks. Before your own first card you may show a poignée (``poignee``) at your
  turn: you choose the level your trumps allow (the Excuse counts), the table chooses the cards
  shown — your lowest trumps, the Petit and the 21 only when the others do not suffice, the
  Excuse only when the trumps do not (DECISIONS). Thresholds: 13/15/18 trumps at three, 10/13/15
  at four, 8/10/13 at five; simple 20, double 30, triple 40 points.
  Card rules: follow the suit led; else trump; else any card. Whenever you play a trump you
  must go above the best trump already in the trick if you can (a trump lead included); if you
  cannot, any trump. The Excuse may be played at any time; when it is led, the next card sets
  the suit. The highest trump takes the trick, else the highest card of the suit led. At five,
  the first trick may not be opened in the called suit except with the called card itself
  (unless the leader holds nothing else). The Excuse must be played by the
  next-to-last trick at the latest, unless its holder's team has won every trick so far (it is
  making the chelem); played at the last trick by a team that won every other trick, it wins
  that trick. Otherwise it never wins: its owner's team keeps it and gives a half-point card to
  the winner's team (counted in half points: Excuse 4 for the owner, ½ for the winner — also
  when the owner's team has no trick, and when a team that kept it for a chelem lost the
  next-to-last trick and plays it last).
  At five, "its team has won every trick" is judged from what the holder knows, never from
  the secret partner: while the partner is secret to the holder (its view's ``partner`` is
  None), only the tricks it won itself count — a trick another seat won may be the other
  side's, so it must play the Excuse (the taker and a defender alike). Once it knows the
  partner (the called card played, seen in the chien, or its own), its whole team's tricks
  count. The text lets only the team that *is* making the chelem keep it; a player who cannot
  know that may not claim it, and the table draws no inference from the play (such as a seat
  showing void in the called suit). So the Excuse is only ever kept by a team that truly won
  every trick so far, and no seat's legal plays, refusal reasons or timeout move tell it who
  the partner is.
- ``end``: the deal is scored; the next dealer ``deal``\\ s the next one (this pause also lets
  everyone see the last trick, the chien and the écart).

Scoring (half points, as the text)
----------------------------------
Card points: bouts and kings 4½, queens 3½, cavaliers 2½, valets 1½, other cards ½ (91 in
all). The attack (taker + partner) needs 36/41/51/56 with 3/2/1/0 bouts. Score of the deal, from
the taker's side: (made or failed by) ± petit au bout 10 ± 25, × 1/2/4/6 (prise, garde, garde
sans, garde contre), ± poignées (to the side that wins the deal), + chelem (announced and made
+400, made without announcement +200, announced and failed −200, defence takes every trick −200;
the last two add up; a side that won every trick made a chelem even if the other side kept its
Excuse). A half point is rounded on the margin, before the multiplier: in the taker's favour when
made (made by ½ is made by 1), against when failed (failed by ½ is failed by 1) — the text says
how halves round, not when; French players round the margin (the FFT's count), and DECISIONS
lists the rounding before the multiplier. Petit au bout: the Petit in the last trick gives 10 to
the team that wins it; if the Excuse is in the last trick (kept for the chelem) the Petit in the
next-to-last trick counts instead. Made: attack points ≥ the requirement.

Shares: each defender −score, the taker +score × number of defenders; at five with a partner
who is another player, the taker ×2 and the partner ×1. Every deal sums to zero.

Actions
-------
``{"type": "pass"}``, ``{"type": "bid", "contract": "prise"|"garde"|"garde_sans"|"garde_contre"}``,
``{"type": "call", "card": "KH"}``, ``{"type": "discard", "card": "3S"}``, ``{"type": "undo"}``,
``{"type": "chelem"}``, ``{"type": "no_chelem"}``,
``{"type": "poignee", "level": "simple"|"double"|"triple"}``, ``{"type": "play", "card": "A7"}``,
``{"type": "deal"}``.

Events
------
``deal`` {seat: dealer, deal}; ``redeal`` {seat: dealer, reason: "petit_sec" (with ``player``) |
"all_passed"}; ``bid`` {seat, contract}; ``pass`` {seat}; ``taker`` {seat, contract};
``call`` {seat, card}; ``chien`` {seat: taker, cards}; ``discard`` {seat, card, to: [taker]} and
its public twin {seat, count}; ``undo`` likewise; ``ecart`` {seat, count, trumps};
``chelem`` {seat, announced}; ``poignee`` {seat, level, cards}; ``play`` {seat, card};
``partner`` {seat, taker} (the called card was just played by ``seat``; ``seat == taker``: alone);
``trick`` {seat: winner, cards: [{seat, card}]}; ``deal_end`` {seat: taker, result, scores,
chien, ecart, breakdown}; ``game_over`` {seat: None, scores, winners}.

Views
-----
Common keys (game, players, phase, seat, dealer, turn, hand, counts, scores, deal, trump = "A",
trick, last_trick, bids, tricks_won, history) plus: ``deals``, ``taker``, ``contract``, ``called``,
``partner`` (the partner's seat once this viewer knows it — publicly when the called card is
played or seen in the chien, or because the viewer holds it; the taker's own seat means alone;
None while secret), ``chien`` (its cards when shown, or at the end of the deal; else None),
``chien_size``, ``ecart`` (the taker sees their écart; others see the trumps shown in it; all of
it at the end of the deal), ``chelem`` (announced, or None before the taker decided),
``poignees`` [{seat, level, cards}], ``leader``, ``redeal`` ({reason, seat} when the cards were
just dealt again), ``result`` (the scored deal during ``end``/``over``). ``history`` rows (and
``result``, ``deal_end``'s ``result``, the outcome's ``deals``) are {deal, dealer, taker,
contract, partner, points (may end in .5), bouts, required, made, petit_au_bout ("attack",
"defence" or None), poignees (total value), chelem_announced, slam ("attack", "defence" or
None), score (per defender, from the taker's side), shares (per seat)}; they name no card (a
card of an old deal would collide with the cards of the current one).

``deal_end``'s ``breakdown`` (per seat, ``_breakdown.py``) is the deal's score part by part, each
part shared as the score is (the taker ×(n − 1), or ×2 and the partner ×1; each defender −1);
its lines add up to ``result.shares``: ``contract`` (±25 × the contract's ``factor``: prise 1,
garde 2, garde sans 4, garde contre 6; ``made``), ``margin`` (the ``card_points`` taken against
the ``required`` for their ``bouts``: the ``margin`` × ``factor``), ``petit_au_bout`` (±10 ×
``factor``, ``side`` "attack" or "defence"), ``poignee`` (the poignées' ``value`` to the winning
side), ``chelem`` (``announced``: +400 made, −200 failed; not announced: +200),
``chelem_defence`` (−200).

Secrets (``hidden``): the other hands, the chien until shown (under garde sans/contre: until the
end of the deal), the écart for everyone but the taker — minus every card whose name was shown
(the chien on a prise/garde, poignées, trumps of the écart) and the called card, whose name is
public: where it lies is the secret, and no view or event tells it before it is played. At the
end of a deal nothing is hidden.
"""

from tablee.games.registry import register

from .auto import hand_strength
from .game import TarotGame
from .rules import (
    BOUTS,
    CHIEN_SIZE,
    CONTRACTS,
    HALF_POINTS,
    HAND_SIZE,
    POIGNEE_LEVELS,
    POIGNEE_TRUMPS,
    POWER,
    DealRecord,
    Phase,
    Poignee,
    TarotState,
    deal_cards,
    has_petit_sec,
    poignee_cards,
    suit_of,
    trump_count,
)
from .scoring import deal_score, required_points, shares

GAME = register(TarotGame())

__all__ = [
    "BOUTS",
    "CHIEN_SIZE",
    "CONTRACTS",
    "GAME",
    "HALF_POINTS",
    "HAND_SIZE",
    "POIGNEE_LEVELS",
    "POIGNEE_TRUMPS",
    "POWER",
    "DealRecord",
    "Phase",
    "Poignee",
    "TarotGame",
    "TarotState",
    "deal_cards",
    "deal_score",
    "hand_strength",
    "has_petit_sec",
    "poignee_cards",
    "required_points",
    "shares",
    "suit_of",
    "trump_count",
]
