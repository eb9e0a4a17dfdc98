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
chien, ecart}; ``game_over`` {seat: None, scores, winners}.

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

Secrets (``hidden``): the other hands, the chien until shown (under garde sans/contre: until the
end of the deal), the écart for everyone but the taker — minus every card whose name was shown
(the chien on a prise/garde, poignées, trumps of the écart) and the called card, whose name is
public: where it lies is the secret, and no view or event tells it before it is played. At the
end of a deal nothing is hidden.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tablee.cards import EXCUSE, SUITS, TAROT_RANKS, TAROT_TRUMPS, check_deck, deck_tarot, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction, OptionSpec
from tablee.engine.state import evolve
from tablee.games import _tricks
from tablee.games._tricks import Trick, last_trick_view, trick_view, without
from tablee.games.registry import register

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
HAND_SIZE = {3: 24, 4: 18, 5: 15}
CHIEN_SIZE = {3: 6, 4: 6, 5: 3}
POIGNEE_LEVELS = ("simple", "double", "triple")
POIGNEE_TRUMPS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
POIGNEE_VALUE = {"simple": 20, "double": 30, "triple": 40}
BOUTS = ("A1", "A21", EXCUSE)
PETIT = "A1"
REQUIRED = {3: 36, 2: 41, 1: 51, 0: 56}
#: the call ladder at five: a king, else a queen, else a cavalier, else a valet
CALL_RANKS = ("K", "Q", "C", "J")
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "A": "trumps"}

_DECK = tuple(deck_tarot())
_DECK_SET = frozenset(_DECK)
_TRUMP_SET = frozenset(TAROT_TRUMPS)
_WILD = frozenset({EXCUSE})
_HONOUR_HALF = {"K": 9, "Q": 7, "C": 5, "J": 3}


def _half_points(card: str) -> int:
    if card in BOUTS:
        return 9
    if card in _TRUMP_SET:
        return 1
    return _HONOUR_HALF.get(card[0], 1)


HALF_POINTS = {c: _half_points(c) for c in _DECK}
POWER = {
    c: 0 if c == EXCUSE else int(c[1:]) if c in _TRUMP_SET else TAROT_RANKS.index(c[0]) + 1
    for c in _DECK
}
#: display and storage order of a hand: suits by rank, then trumps, then the Excuse
_ORDER = {c: i for i, c in enumerate(_DECK)}


def suit_of(card: str) -> str:
    """``S``/``H``/``D``/``C`` for suit cards, ``A`` for trumps, ``EX`` for the Excuse."""
    if card == EXCUSE:
        return EXCUSE
    if card in _TRUMP_SET:
        return "A"
    return card[1]


_SUIT = {c: suit_of(c) for c in _DECK}
# dict lookups: the trick helpers call these for every card of every trick
_suit = _SUIT.__getitem__
_power = POWER.__getitem__


def is_trump(card: str) -> bool:
    return card in _TRUMP_SET


def is_plain(card: str) -> bool:
    return card != EXCUSE and card not in _TRUMP_SET


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_ORDER.__getitem__))


def trump_count(hand: Iterable[str]) -> int:
    """Trumps for a poignée or petit sec: the Excuse counts as one."""
    return sum(1 for c in hand if c in _TRUMP_SET or c == EXCUSE)


def has_petit_sec(hand: Iterable[str]) -> bool:
    hand = list(hand)
    return PETIT in hand and trump_count(hand) == 1


def deal_cards(
    deck: Sequence[str], players: int, dealer: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Hands (sorted) and chien from a deck, top card first: packets of 3 from the seat after
    the dealer; the chien is the last cards of the deck."""
    size = HAND_SIZE[players]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * size):
        hands[(dealer + 1 + i // 3) % players].append(deck[i])
    return tuple(_sorted(h) for h in hands), tuple(deck[players * size :])


def poignee_cards(hand: Sequence[str], count: int) -> tuple[str, ...]:
    """The cards the table shows for a poignée of ``count``: the lowest trumps, the 21 and the
    Petit only when the others do not suffice, the Excuse only when the trumps do not."""
    trumps = [c for c in hand if c in _TRUMP_SET]
    plain_trumps = sorted((c for c in trumps if c not in BOUTS), key=_power)
    order = plain_trumps + [c for c in ("A21", PETIT) if c in trumps]
    if EXCUSE in hand:
        order.append(EXCUSE)
    return _sorted(order[:count])


def required_points(bouts: int) -> int:
    return REQUIRED[bouts]


def deal_score(
    contract: str,
    points2: int,
    bouts: int,
    *,
    petit_au_bout: int = 0,
    poignees: int = 0,
    chelem_announced: bool = False,
    attack_slam: bool = False,
    defence_slam: bool = False,
) -> tuple[int, bool]:
    """The score of a deal from the taker's side, per defender, and whether it was made.

    ``points2``: the attack's card points in half points. ``petit_au_bout``: +1 when the attack
    won it, -1 when the defence did. ``poignees``: total value of every poignée shown (they go to
    the winning side). A half point in the margin is rounded in the taker's favour when made,
    against when failed (made by ½ is made by 1; failed by ½, failed by 1), before the contract
    multiplies it.
    """
    diff2 = points2 - 2 * required_points(bouts)
    made = diff2 >= 0
    sign = 1 if made else -1
    margin = -(-diff2 // 2) if made else diff2 // 2
    score = (margin + 10 * petit_au_bout + 25 * sign) * MULTIPLIER[contract]
    score += sign * poignees
    if chelem_announced:
        score += 400 if attack_slam else -200
    elif attack_slam:
        score += 200
    if defence_slam:
        score -= 200
    return score, made


def shares(players: int, taker: int, partner: int | None, score: int) -> tuple[int, ...]:
    """Each defender -score; the taker +score per defender; at five with a partner, the taker
    x2 and the partner x1."""
    out = [-score] * players
    if partner is not None and partner != taker:
        out[taker], out[partner] = 2 * score, score
    else:
        out[taker] = score * (players - 1)
    return tuple(out)


class Phase(enum.StrEnum):
    BID = "bid"
    CALL = "call"
    ECART = "ecart"
    CHELEM = "chelem"
    PLAY = "play"
    END = "end"
    OVER = "over"


@dataclass(frozen=True)
class Poignee:
    seat: int
    level: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DealRecord:
    """One scored deal. No card names: see the module docstring (views)."""

    deal: int
    dealer: int
    taker: int
    contract: str
    partner: int | None
    points2: int
    bouts: int
    required: int
    made: bool
    #: "attack", "defence" or None
    petit_au_bout: str | None
    poignees: int
    chelem_announced: bool
    #: "attack", "defence" or None: the side that took every trick
    slam: str | None
    score: int
    shares: tuple[int, ...]


@dataclass(frozen=True)
class TarotState:
    players: int
    seed: int | str
    deals: int
    deal: int
    attempt: int
    dealer: int
    scores: tuple[int, ...]
    history: tuple[DealRecord, ...]
    phase: Phase
    hands: tuple[tuple[str, ...], ...]
    #: the cards lying in the chien now (empty once the taker took it)
    chien: tuple[str, ...]
    #: the chien as dealt (shown on prise/garde, revealed at the end of the deal)
    chien_dealt: tuple[str, ...]
    chien_shown: bool
    bids: tuple[tuple[int, str], ...]
    taker: int | None
    contract: str | None
    called: str | None
    #: the seat holding the called card (secret); None when the taker plays alone
    partner: int | None
    partner_known: bool
    ecart: tuple[str, ...]
    chelem: bool | None
    poignees: tuple[Poignee, ...]
    leader: int
    trick: tuple[str, ...]
    tricks: tuple[Trick, ...]
    redeal: str | None
    redeal_seat: int | None


#: what a new deal starts from, in ``new`` and at every deal after it
_FRESH_DEAL: dict[str, Any] = {
    "phase": Phase.BID,
    "chien_shown": False,
    "bids": (),
    "taker": None,
    "contract": None,
    "called": None,
    "partner": None,
    "partner_known": False,
    "ecart": (),
    "chelem": None,
    "poignees": (),
    "trick": (),
    "tricks": (),
}


def _record_json(r: DealRecord) -> dict[str, Any]:
    points: float = r.points2 / 2
    return {
        "deal": r.deal,
        "dealer": r.dealer,
        "taker": r.taker,
        "contract": r.contract,
        "partner": r.partner,
        "points": int(points) if points.is_integer() else points,
        "bouts": r.bouts,
        "required": r.required,
        "made": r.made,
        "petit_au_bout": r.petit_au_bout,
        "poignees": r.poignees,
        "chelem_announced": r.chelem_announced,
        "slam": r.slam,
        "score": r.score,
        "shares": list(r.shares),
    }


class TarotGame(BaseGame[TarotState]):
    name = "tarot"
    title = "Tarot"
    summary = "Le tarot à 3, 4 ou 5 joueurs : prise, garde, poignées, chelem et appel au roi."
    min_players = 3
    max_players = 5
    state_type = TarotState
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "deals",
            "int",
            None,
            "Nombre de donnes",
            help="Par défaut, une donne par joueur. Une donne où tous passent ne compte pas.",
            min=1,
            max=100,
            nullable=True,
        ),
    )

    # -- construction ------------------------------------------------------------------------------

    def deck(self, players: int, options: Any = None) -> list[str]:
        return list(_DECK)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> TarotState:
        stacked = None if deck is None else check_deck(deck, _DECK)
        base = TarotState(
            players=players,
            seed=seed,
            deals=options["deals"] or players,
            deal=1,
            attempt=0,
            dealer=options["first_dealer"],
            scores=(0,) * players,
            history=(),
            hands=(),
            chien=(),
            chien_dealt=(),
            leader=0,
            redeal=None,
            redeal_seat=None,
            **_FRESH_DEAL,
        )
        state, _ = self._deal(base, base.dealer, 1, 0, stacked)
        return state

    def _deal(
        self,
        state: TarotState,
        dealer: int,
        deal_no: int,
        attempt: int,
        stacked: Sequence[str] | None = None,
        reason: str | None = None,
    ) -> tuple[TarotState, list[Event]]:
        """A fresh deal by ``dealer``, dealt again while someone is petit sec."""
        events: list[Event] = [{"type": "deal", "seat": dealer, "deal": deal_no}]
        redeal_seat = None
        while True:
            cards = (
                stacked
                if stacked is not None
                else shuffled(_DECK, state.seed, "deal", deal_no, attempt)
            )
            hands, chien = deal_cards(cards, state.players, dealer)
            sec = next((s for s, h in enumerate(hands) if has_petit_sec(h)), None)
            if sec is None:
                break
            events.append({"type": "redeal", "seat": dealer, "reason": "petit_sec", "player": sec})
            reason, redeal_seat = "petit_sec", sec
            stacked, attempt = None, attempt + 1
        state = evolve(
            state,
            deal=deal_no,
            attempt=attempt,
            dealer=dealer,
            hands=hands,
            chien=chien,
            chien_dealt=chien,
            leader=(dealer + 1) % state.players,
            redeal=reason,
            redeal_seat=redeal_seat,
            **_FRESH_DEAL,
        )
        return state, events

    # -- reading the state -------------------------------------------------------------------------

    def players(self, state: TarotState) -> int:
        return state.players

    def is_over(self, state: TarotState) -> bool:
        return state.phase is Phase.OVER

    def _speaker(self, state: TarotState) -> int:
        return (state.dealer + 1 + len(state.bids)) % state.players

    def _current(self, state: TarotState) -> int:
        return (state.leader + len(state.trick)) % state.players

    def to_act(self, state: TarotState) -> tuple[int, ...]:
        phase = state.phase
        if phase is Phase.PLAY:
            return (self._current(state),)
        if phase is Phase.BID:
            return (self._speaker(state),)
        if phase in (Phase.CALL, Phase.ECART, Phase.CHELEM):
            assert state.taker is not None
            return (state.taker,)
        if phase is Phase.END:
            return ((state.dealer + 1) % state.players,)
        return ()

    def attack(self, state: TarotState) -> frozenset[int]:
        if state.taker is None:
            return frozenset()
        if state.partner is None:
            return frozenset({state.taker})
        return frozenset({state.taker, state.partner})

    def cards(self, state: TarotState) -> list[str]:
        out: list[str] = []
        for h in state.hands:
            out += h
        out += state.chien
        out += state.ecart
        out += state.trick
        for t in state.tricks:
            out += t.cards
        return out

    def hidden(self, state: TarotState, seat: int | None) -> frozenset[str]:
        if state.phase in (Phase.END, Phase.OVER):
            return frozenset()
        secret: set[str] = set()
        for s, hand in enumerate(state.hands):
            if s != seat:
                secret.update(hand)
        secret.update(state.chien)
        if seat != state.taker:
            secret.update(state.ecart)
        if not secret:
            return frozenset()
        known = self._public_cards(state)
        return frozenset(secret - known)

    def _public_cards(self, state: TarotState) -> set[str]:
        """Cards whose name everyone has seen, wherever they lie now: the chien shown on a
        prise/garde, poignées, trumps shown in the écart, and the called card (its name is public;
        who holds it is the secret, and no view tells it)."""
        known: set[str] = set()
        if state.chien_shown:
            known.update(state.chien_dealt)
        for p in state.poignees:
            known.update(p.cards)
        if state.phase is not Phase.ECART:
            known.update(c for c in state.ecart if c in _TRUMP_SET)
        if state.called is not None:
            known.add(state.called)
        return known

    # -- legal actions -----------------------------------------------------------------------------

    def legal_actions(self, state: TarotState, seat: int) -> list[Action]:
        phase = state.phase
        if phase is Phase.OVER or seat not in self.to_act(state):
            return []
        if phase is Phase.PLAY:
            out: list[Action] = [
                {"type": "poignee", "level": lv} for lv in self._poignee_levels(state, seat)
            ]
            out += [{"type": "play", "card": c} for c in self.playable(state, seat)]
            return out
        if phase is Phase.BID:
            best = self._best_bid(state)
            start = 0 if best is None else CONTRACTS.index(best) + 1
            return [{"type": "pass"}] + [{"type": "bid", "contract": c} for c in CONTRACTS[start:]]
        if phase is Phase.CALL:
            return [{"type": "call", "card": c} for c in self.callable_cards(state)]
        if phase is Phase.ECART:
            acts: list[Action] = [{"type": "discard", "card": c} for c in self.ecart_allowed(state)]
            if state.ecart:
                acts.append({"type": "undo"})
            return acts
        if phase is Phase.CHELEM:
            return [{"type": "chelem"}, {"type": "no_chelem"}]
        return [{"type": "deal"}]

    def _best_bid(self, state: TarotState) -> str | None:
        best = None
        for _, c in state.bids:
            if c != "pass":
                best = c
        return best

    def callable_cards(self, state: TarotState) -> list[str]:
        assert state.taker is not None
        hand = state.hands[state.taker]
        for rank in CALL_RANKS:
            cards = [rank + s for s in SUITS]
            if not all(c in hand for c in cards):
                return cards
        return []  # pragma: no cover - 16 honours do not fit in a hand of 15

    def ecart_allowed(self, state: TarotState) -> list[str]:
        """Cards the taker may put in the écart next (house rule and its fallback)."""
        assert state.taker is not None
        hand = state.hands[state.taker]
        need = CHIEN_SIZE[state.players]
        plain = [c for c in hand if is_plain(c) and c[0] != "K"]
        plain_total = len(plain) + sum(1 for c in state.ecart if is_plain(c))
        trumps_allowed = max(0, need - plain_total)
        trumps_in = sum(1 for c in state.ecart if c in _TRUMP_SET)
        if trumps_in < trumps_allowed:
            return plain + [c for c in hand if c in _TRUMP_SET and c not in BOUTS]
        return plain

    def _poignee_levels(self, state: TarotState, seat: int) -> list[str]:
        hand = state.hands[seat]
        if len(hand) != HAND_SIZE[state.players] or any(p.seat == seat for p in state.poignees):
            return []
        count = trump_count(hand)
        return [
            lv
            for lv, need in zip(POIGNEE_LEVELS, POIGNEE_TRUMPS[state.players], strict=True)
            if count >= need
        ]

    def _team_on_slam(self, state: TarotState, seat: int) -> bool:
        """Has ``seat``'s team won every trick so far? The truth, for scoring: never for what
        ``seat`` may do (see ``_known_on_slam``)."""
        attack = self.attack(state)
        mine = seat in attack
        return bool(state.tricks) and all((t.winner in attack) == mine for t in state.tricks)

    def _known_mates(self, state: TarotState, seat: int) -> frozenset[int]:
        """The seats ``seat`` knows to be on its side: its whole team once it knows the partner
        (or when there is none to know), else only itself."""
        if state.called is not None and self._partner_for(state, seat) is None:
            return frozenset({seat})
        attack = self.attack(state)
        return attack if seat in attack else frozenset(range(state.players)) - attack

    def _known_on_slam(self, state: TarotState, seat: int) -> bool:
        """Does ``seat`` know that its team has won every trick so far? At five, while the
        partner is secret to it, a trick won by another seat might be the other side's."""
        mates = self._known_mates(state, seat)
        return bool(state.tricks) and all(t.winner in mates for t in state.tricks)

    def playable(self, state: TarotState, seat: int) -> list[str]:
        hand = state.hands[seat]
        trick = state.trick
        n_tricks = HAND_SIZE[state.players]
        if (
            EXCUSE in hand
            and len(state.tricks) == n_tricks - 2
            and not self._known_on_slam(state, seat)
        ):
            return [EXCUSE]
        if not trick:
            if not state.tricks and state.called is not None:
                called_suit = state.called[1]
                allowed = [c for c in hand if suit_of(c) != called_suit or c == state.called]
                if allowed:
                    return allowed
            return list(hand)
        return _tricks.playable(
            hand,
            trick,
            _suit,
            "A",
            _power,
            must_trump=True,
            must_overtrump=True,
            wild=_WILD,
        )

    def _play_reason(self, state: TarotState, seat: int, card: str) -> str:
        """Why ``card`` (held) may not be played now."""
        hand = state.hands[seat]
        if self.playable(state, seat) == [EXCUSE]:
            return "you must play the Excuse now: it cannot be kept for the last trick"
        if not state.trick:
            return "you may not lead the called suit on the first trick, except the called card"
        led = _tricks.led_suit(state.trick, _suit, _WILD)
        if led is not None and any(suit_of(c) == led for c in hand) and suit_of(card) != led:
            return f"you must follow {SUIT_WORDS[led]}"
        if is_trump(card):
            return "you must overtrump: play a trump higher than the best one in the trick"
        return "you must trump"

    # -- moves -------------------------------------------------------------------------------------

    def _apply(
        self, state: TarotState, seat: int, action: Action
    ) -> tuple[TarotState, list[Event]]:
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn", "not_your_turn")
        kind = action["type"]
        phase = state.phase
        if phase is Phase.PLAY:
            if kind == "play":
                return self._play(state, seat, self._card_field(action))
            if kind == "poignee":
                return self._poignee(state, seat, action)
        elif phase is Phase.BID:
            if kind in ("bid", "pass"):
                return self._bid(state, seat, action)
        elif phase is Phase.CALL:
            if kind == "call":
                return self._call(state, seat, self._card_field(action))
        elif phase is Phase.ECART:
            if kind == "discard":
                return self._discard(state, seat, self._card_field(action))
            if kind == "undo":
                return self._undo(state, seat)
        elif phase is Phase.CHELEM:
            if kind in ("chelem", "no_chelem"):
                return self._announce_chelem(state, seat, kind == "chelem")
        elif phase is Phase.END and kind == "deal":
            nxt = (state.dealer + 1) % state.players
            return self._deal(state, nxt, state.deal + 1, 0)
        raise self.reject(state, seat, action)

    @staticmethod
    def _card_field(action: Action) -> str:
        card = action.get("card")
        if not isinstance(card, str):
            raise IllegalAction("this action needs a 'card'", "bad_action")
        if card not in _DECK_SET:
            raise IllegalAction(f"{card!r} is not a tarot card", "bad_action")
        return card

    def _bid(self, state: TarotState, seat: int, action: Action) -> tuple[TarotState, list[Event]]:
        bid = "pass" if action["type"] == "pass" else action.get("contract")
        if bid == "pass":
            events: list[Event] = [{"type": "pass", "seat": seat}]
        else:
            if not isinstance(bid, str) or bid not in CONTRACTS:
                raise IllegalAction(
                    f"a bid needs a 'contract': one of {', '.join(CONTRACTS)}", "bad_action"
                )
            best = self._best_bid(state)
            if best is not None and CONTRACTS.index(bid) <= CONTRACTS.index(best):
                raise IllegalAction(f"you must bid higher than {best}")
            events = [{"type": "bid", "seat": seat, "contract": bid}]
        bids = (*state.bids, (seat, bid))
        state = evolve(state, bids=bids, redeal=None, redeal_seat=None)
        if bid != "garde_contre" and len(bids) < state.players:
            return state, events
        best = self._best_bid(state)
        if best is None:
            events.append({"type": "redeal", "seat": state.dealer, "reason": "all_passed"})
            new, more = self._deal(
                state,
                (state.dealer + 1) % state.players,
                state.deal,
                state.attempt + 1,
                reason="all_passed",
            )
            return new, events + more
        taker = next(s for s, c in bids if c == best)
        state = evolve(state, taker=taker, contract=best)
        events.append({"type": "taker", "seat": taker, "contract": best})
        if state.players == 5:
            return evolve(state, phase=Phase.CALL), events
        return self._after_call(state, events)

    def _call(self, state: TarotState, seat: int, card: str) -> tuple[TarotState, list[Event]]:
        allowed = self.callable_cards(state)
        if card not in allowed:
            rank = {"K": "king", "Q": "queen", "C": "cavalier", "J": "valet"}[allowed[0][0]]
            raise IllegalAction(f"you must call a {rank}")
        partner = next((s for s, h in enumerate(state.hands) if card in h and s != seat), None)
        state = evolve(state, called=card, partner=partner)
        return self._after_call(state, [{"type": "call", "seat": seat, "card": card}])

    def _after_call(self, state: TarotState, events: list[Event]) -> tuple[TarotState, list[Event]]:
        assert state.taker is not None
        if state.contract in ("prise", "garde"):
            taker = state.taker
            hands = list(state.hands)
            hands[taker] = _sorted((*hands[taker], *state.chien))
            events.append({"type": "chien", "seat": taker, "cards": list(state.chien_dealt)})
            known = state.partner_known or (
                state.called is not None and state.called in state.chien_dealt
            )
            state = evolve(
                state,
                hands=tuple(hands),
                chien=(),
                chien_shown=True,
                partner_known=known,
                phase=Phase.ECART,
            )
            return state, events
        return evolve(state, phase=Phase.CHELEM), events

    def _discard(self, state: TarotState, seat: int, card: str) -> tuple[TarotState, list[Event]]:
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(f"you do not hold {card}")
        if card not in self.ecart_allowed(state):
            if card == EXCUSE or card in BOUTS:
                reason = "the écart may not hold a bout"
            elif card[0] == "K" and is_plain(card):
                reason = "the écart may not hold a king"
            else:
                reason = "the écart may not hold a trump while plain cards can fill it"
            raise IllegalAction(reason)
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        ecart = (*state.ecart, card)
        events: list[Event] = [
            {"type": "discard", "seat": seat, "card": card, "to": [seat]},
            {"type": "discard", "seat": seat, "count": len(ecart)},
        ]
        state = evolve(state, hands=tuple(hands), ecart=ecart)
        if len(ecart) < CHIEN_SIZE[state.players]:
            return state, events
        trumps = [c for c in ecart if c in _TRUMP_SET]
        events.append({"type": "ecart", "seat": seat, "count": len(ecart), "trumps": trumps})
        return evolve(state, phase=Phase.CHELEM), events

    def _undo(self, state: TarotState, seat: int) -> tuple[TarotState, list[Event]]:
        if not state.ecart:
            raise IllegalAction("there is no discarded card to take back")
        card = state.ecart[-1]
        hands = list(state.hands)
        hands[seat] = _sorted((*hands[seat], card))
        ecart = state.ecart[:-1]
        events: list[Event] = [
            {"type": "undo", "seat": seat, "card": card, "to": [seat]},
            {"type": "undo", "seat": seat, "count": len(ecart)},
        ]
        return evolve(state, hands=tuple(hands), ecart=ecart), events

    def _announce_chelem(
        self, state: TarotState, seat: int, announced: bool
    ) -> tuple[TarotState, list[Event]]:
        leader = seat if announced else (state.dealer + 1) % state.players
        state = evolve(state, chelem=announced, leader=leader, phase=Phase.PLAY)
        return state, [{"type": "chelem", "seat": seat, "announced": announced}]

    def _poignee(
        self, state: TarotState, seat: int, action: Action
    ) -> tuple[TarotState, list[Event]]:
        level = action.get("level")
        if level not in POIGNEE_LEVELS:
            raise IllegalAction(
                f"a poignée needs a 'level': one of {', '.join(POIGNEE_LEVELS)}", "bad_action"
            )
        allowed = self._poignee_levels(state, seat)
        if level not in allowed:
            if any(p.seat == seat for p in state.poignees):
                raise IllegalAction("you have already shown a poignée")
            if len(state.hands[seat]) != HAND_SIZE[state.players]:
                raise IllegalAction("a poignée is shown before your first card")
            need = POIGNEE_TRUMPS[state.players][POIGNEE_LEVELS.index(level)]
            raise IllegalAction(f"a {level} poignée needs {need} trumps (the Excuse counts)")
        need = POIGNEE_TRUMPS[state.players][POIGNEE_LEVELS.index(level)]
        shown = poignee_cards(state.hands[seat], need)
        state = evolve(state, poignees=(*state.poignees, Poignee(seat, level, shown)))
        return state, [{"type": "poignee", "seat": seat, "level": level, "cards": list(shown)}]

    def _play(self, state: TarotState, seat: int, card: str) -> tuple[TarotState, list[Event]]:
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(f"you do not hold {card}")
        if card not in self.playable(state, seat):
            raise IllegalAction(self._play_reason(state, seat, card))
        n = state.players
        hands = without(state.hands, seat, card)
        trick = (*state.trick, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        partner_known = state.partner_known
        if card == state.called:
            partner_known = True
            events.append({"type": "partner", "seat": seat, "taker": state.taker})
        if len(trick) < n:
            state = evolve(state, hands=hands, trick=trick, partner_known=partner_known)
            return state, events
        last = len(state.tricks) == HAND_SIZE[n] - 1
        win = self._trick_winner(state, trick, last)
        done = Trick(state.leader, trick, win)
        events.append({"type": "trick", "seat": win, "cards": trick_view(state.leader, trick, n)})
        state = evolve(
            state,
            hands=hands,
            trick=(),
            tricks=(*state.tricks, done),
            leader=win,
            partner_known=partner_known,
        )
        if not last:
            return state, events
        return self._score(state, events)

    def _trick_winner(self, state: TarotState, trick: tuple[str, ...], last: bool) -> int:
        n = state.players
        if last and EXCUSE in trick:
            ex_seat = (state.leader + trick.index(EXCUSE)) % n
            if self._team_on_slam(state, ex_seat):
                return ex_seat
        idx = _tricks.winner(trick, _suit, "A", _power, _power, wild=_WILD)
        return (state.leader + idx) % n

    # -- scoring -----------------------------------------------------------------------------------

    def count(self, state: TarotState) -> tuple[int, int, int]:
        """(attack half points, attack bouts, petit au bout: +1 attack, -1 defence, 0 none) of a
        finished deal."""
        attack = self.attack(state)
        n = state.players
        half = 0
        bouts = 0
        for t in state.tricks:
            to_attack = t.winner in attack
            for i, card in enumerate(t.cards):
                owner = (t.leader + i) % n
                if card == EXCUSE and owner != t.winner and (owner in attack) != to_attack:
                    # the Excuse stays with its owner's team, who give a half-point card for it
                    if owner in attack:
                        half += HALF_POINTS[card] - 1
                        bouts += 1
                    else:
                        half += 1
                    continue
                if to_attack:
                    half += HALF_POINTS[card]
                    bouts += card in BOUTS
        # the écart (prise, garde) or the chien (garde sans) is the taker's; under garde contre
        # the chien is the defence's and adds nothing here
        attack_gets = state.chien if state.contract == "garde_sans" else state.ecart
        for card in attack_gets:
            half += HALF_POINTS[card]
            bouts += card in BOUTS
        petit = 0
        last = state.tricks[-1]
        where = None
        if PETIT in last.cards:
            where = last
        elif EXCUSE in last.cards and PETIT in state.tricks[-2].cards:
            where = state.tricks[-2]
        if where is not None:
            petit = 1 if where.winner in attack else -1
        return half, bouts, petit

    def _score(self, state: TarotState, events: list[Event]) -> tuple[TarotState, list[Event]]:
        assert state.taker is not None and state.contract is not None
        attack = self.attack(state)
        half, bouts, petit = self.count(state)
        attack_slam = all(t.winner in attack for t in state.tricks)
        defence_slam = not any(t.winner in attack for t in state.tricks)
        value = sum(POIGNEE_VALUE[p.level] for p in state.poignees)
        score, made = deal_score(
            state.contract,
            half,
            bouts,
            petit_au_bout=petit,
            poignees=value,
            chelem_announced=bool(state.chelem),
            attack_slam=attack_slam,
            defence_slam=defence_slam,
        )
        parts = shares(state.players, state.taker, state.partner, score)
        record = DealRecord(
            deal=state.deal,
            dealer=state.dealer,
            taker=state.taker,
            contract=state.contract,
            partner=state.partner,
            points2=half,
            bouts=bouts,
            required=required_points(bouts),
            made=made,
            petit_au_bout={1: "attack", -1: "defence", 0: None}[petit],
            poignees=value,
            chelem_announced=bool(state.chelem),
            slam="attack" if attack_slam else "defence" if defence_slam else None,
            score=score,
            shares=parts,
        )
        totals = tuple(a + b for a, b in zip(state.scores, parts, strict=True))
        over = state.deal >= state.deals
        state = evolve(
            state,
            scores=totals,
            history=(*state.history, record),
            phase=Phase.OVER if over else Phase.END,
            partner_known=True,
        )
        events.append(
            {
                "type": "deal_end",
                "seat": state.taker,
                "result": _record_json(record),
                "scores": list(totals),
                "chien": list(state.chien_dealt),
                "ecart": list(state.ecart),
            }
        )
        if over:
            out = self.outcome(state)
            assert out is not None
            events.append(
                {
                    "type": "game_over",
                    "seat": None,
                    "scores": out["scores"],
                    "winners": out["winners"],
                }
            )
        return state, events

    def outcome(self, state: TarotState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        best = max(state.scores)
        return {
            "scores": list(state.scores),
            "winners": [s for s, v in enumerate(state.scores) if v == best],
            "deals": [_record_json(r) for r in state.history],
        }

    # -- views -------------------------------------------------------------------------------------

    def _partner_for(self, state: TarotState, seat: int | None) -> int | None:
        if state.called is None or state.taker is None:
            return None
        actual = state.taker if state.partner is None else state.partner
        if state.partner_known:
            return actual
        if seat is not None and state.called in state.hands[seat]:
            return seat
        if seat == state.taker and state.called in state.ecart:
            return seat
        return None

    def view(self, state: TarotState, seat: int | None) -> dict[str, Any]:
        n = state.players
        ended = state.phase in (Phase.END, Phase.OVER)
        to_act = self.to_act(state)
        last = state.tricks[-1] if state.tricks else None
        if ended:
            ecart: list[str] = list(state.ecart)
        elif seat is not None and seat == state.taker:
            ecart = list(state.ecart)
        elif state.phase is Phase.ECART:
            ecart = []
        else:
            ecart = [c for c in state.ecart if c in _TRUMP_SET]
        tricks_won = [0] * n
        for t in state.tricks:
            tricks_won[t.winner] += 1
        return {
            "game": self.name,
            "players": n,
            "phase": state.phase.value,
            "seat": seat,
            "dealer": state.dealer,
            "turn": to_act[0] if to_act else None,
            "hand": None if seat is None else list(state.hands[seat]),
            "counts": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "deal": state.deal,
            "deals": state.deals,
            "trump": "A",
            "trick": trick_view(state.leader, state.trick, n),
            "last_trick": last_trick_view(last, n),
            "bids": [{"seat": s, "contract": c} for s, c in state.bids],
            "tricks_won": tricks_won,
            "history": [_record_json(r) for r in state.history],
            "taker": state.taker,
            "contract": state.contract,
            "called": state.called,
            "partner": self._partner_for(state, seat),
            "chien": list(state.chien_dealt) if state.chien_shown or ended else None,
            "chien_size": CHIEN_SIZE[n],
            "ecart": ecart,
            "chelem": state.chelem,
            "poignees": [
                {"seat": p.seat, "level": p.level, "cards": list(p.cards)} for p in state.poignees
            ],
            "leader": state.leader,
            "redeal": None
            if state.redeal is None
            else {"reason": state.redeal, "seat": state.redeal_seat},
            "result": _record_json(state.history[-1]) if ended and state.history else None,
        }

    # -- the table's move for a seat out of time --------------------------------------------------

    def auto_action(self, state: TarotState, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("it is not your turn", "not_your_turn")
        phase = state.phase
        if phase is Phase.BID:
            return self._auto_bid(state, seat, legal)
        if phase is Phase.CALL:
            hand = state.hands[seat]
            cards = [a["card"] for a in legal if a["card"] not in hand] or [legal[0]["card"]]
            length = {s: sum(1 for c in hand if suit_of(c) == s) for s in SUITS}
            return {"type": "call", "card": max(cards, key=lambda c: length[c[1]])}
        if phase is Phase.ECART:
            cards = [a["card"] for a in legal if a["type"] == "discard"]
            pick = min(cards, key=lambda c: (is_trump(c), HALF_POINTS[c], POWER[c]))
            return {"type": "discard", "card": pick}
        if phase is Phase.CHELEM:
            return {"type": "no_chelem"}
        if phase is Phase.PLAY:
            cards = [a["card"] for a in legal if a["type"] == "play"]
            return {"type": "play", "card": self._auto_card(state, seat, cards)}
        return legal[0]

    def _auto_bid(self, state: TarotState, seat: int, legal: list[Action]) -> Action:
        strength = hand_strength(state.hands[seat])
        want = None
        if strength >= 56:
            want = "garde"
        elif strength >= 40:
            want = "prise"
        offered = {a.get("contract") for a in legal}
        if want == "garde" and "garde" not in offered:
            want = None
        if want is not None and want in offered:
            return {"type": "bid", "contract": want}
        return {"type": "pass"}

    def _unseen_trumps(self, state: TarotState, seat: int) -> list[int]:
        """Powers of the trumps ``seat`` cannot place: not in its hand, not played, not shown in
        the écart. Another hand (or a hidden chien) may hold them."""
        # the écart's trumps are shown to everyone; its other cards are no trumps anyway
        seen = {*state.hands[seat], *state.trick, *(c for c in state.ecart if c in _TRUMP_SET)}
        for t in state.tricks:
            seen.update(t.cards)
        return [POWER[c] for c in TAROT_TRUMPS if c not in seen]

    def _auto_card(self, state: TarotState, seat: int, cards: list[str]) -> str:
        """A plain, prudent card: win the trick cheaply when the team is not already winning it,
        else give the least valuable card — the Excuse instead when that card is a bout or an
        honour from the queen up; otherwise the Excuse is kept for when it is forced. Under a
        partner's trick that nothing can take any more (the last to play, or a trump above
        every trump the seat cannot place), give points: the Petit if it may, else the most
        valuable plain card. The Petit: while another seat may hold a trump, it is played only
        where it is safe (winning as the last to play, or under such a partner's trick); when
        no other seat can, nothing can catch it and it waits for the last trick (petit au bout;
        the 21 is led before it). At five, a seat that does not know the partner yet plays as
        if the taker were alone."""
        if len(cards) == 1:
            return cards[0]
        choices = [c for c in cards if c != EXCUSE] or cards
        trick = state.trick
        if not trick:
            return min(choices, key=lambda c: (is_trump(c), c == PETIT, HALF_POINTS[c], POWER[c]))
        n = state.players
        last = len(trick) == n - 1
        unseen = self._unseen_trumps(state, seat)
        attack = self.attack(state)
        if state.called is not None and self._partner_for(state, seat) is None:
            # the seat does not know the partner yet: playing as if it did would tell the table
            assert state.taker is not None
            attack = frozenset({state.taker})
        best = _tricks.winner(trick, _suit, "A", _power, _power, wild=_WILD)
        mate_wins = ((state.leader + best) % n in attack) == (seat in attack)
        if not mate_wins:
            winning = [
                c
                for c in choices
                if _tricks.winner((*trick, c), _suit, "A", _power, _power, wild=_WILD)
                == len(trick)
            ]
            if not (last and unseen):
                winning = [c for c in winning if c != PETIT] or winning
            if winning:
                return min(winning, key=lambda c: (POWER[c], HALF_POINTS[c]))
            cheapest = min(choices, key=lambda c: (HALF_POINTS[c], POWER[c]))
            if EXCUSE in cards and HALF_POINTS[cheapest] >= HALF_POINTS["QS"]:
                return EXCUSE
            return cheapest
        # a partner holds the trick: give points when it is theirs for sure, else keep it small
        top = max((POWER[c] for c in trick if is_trump(c)), default=0)
        if last or (top and all(p < top for p in unseen)):
            if PETIT in choices and unseen:
                return PETIT
            plain = [c for c in choices if not is_trump(c)]
            if plain:
                return max(plain, key=lambda c: (HALF_POINTS[c], -POWER[c]))
        return min(choices, key=lambda c: (HALF_POINTS[c], POWER[c]))


def hand_strength(hand: Sequence[str]) -> float:
    """A rough bidding measure, scaled to a hand of 18 cards: bouts, trumps, honours."""
    trumps = sum(1 for c in hand if c in _TRUMP_SET)
    s = 0.0
    for c in hand:
        if c == "A21":
            s += 10
        elif c == EXCUSE:
            s += 8
        elif c == PETIT:
            s += 8 if trumps >= 6 else 3
        elif c in _TRUMP_SET:
            s += 3 if POWER[c] >= 16 else 2
        else:
            s += {"K": 6, "Q": 3, "C": 2, "J": 1}.get(c[0], 0)
    return s * 18 / len(hand) if hand else 0.0


GAME = register(TarotGame())
