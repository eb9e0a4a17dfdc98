"""Tarot's rules as data and pure functions: the deck and its points, the deal, the state, and
what a state says (who speaks, who attacks, which cards may go in the écart or be played, who
takes a trick, who knows the partner). The spec is the package's docstring."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import EXCUSE, SUITS, TAROT_RANKS, TAROT_TRUMPS, deck_tarot
from tablee.games import _tricks
from tablee.games._tricks import Trick

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

DECK = tuple(deck_tarot())
DECK_SET = frozenset(DECK)
TRUMP_SET = frozenset(TAROT_TRUMPS)
WILD = frozenset({EXCUSE})
_HONOUR_HALF = {"K": 9, "Q": 7, "C": 5, "J": 3}


def _half_points(card: str) -> int:
    if card in BOUTS:
        return 9
    if card in TRUMP_SET:
        return 1
    return _HONOUR_HALF.get(card[0], 1)


HALF_POINTS = {c: _half_points(c) for c in DECK}
POWER = {
    c: 0 if c == EXCUSE else int(c[1:]) if c in TRUMP_SET else TAROT_RANKS.index(c[0]) + 1
    for c in DECK
}
#: display and storage order of a hand: suits by rank, then trumps, then the Excuse
ORDER = {c: i for i, c in enumerate(DECK)}


def suit_of(card: str) -> str:
    """``S``/``H``/``D``/``C`` for suit cards, ``A`` for trumps, ``EX`` for the Excuse."""
    if card == EXCUSE:
        return EXCUSE
    if card in TRUMP_SET:
        return "A"
    return card[1]


SUIT = {c: suit_of(c) for c in DECK}
# dict lookups: the trick helpers call these for every card of every trick
suit_key = SUIT.__getitem__
power_key = POWER.__getitem__


def is_trump(card: str) -> bool:
    return card in TRUMP_SET


def is_plain(card: str) -> bool:
    return card != EXCUSE and card not in TRUMP_SET


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def trump_count(hand: Iterable[str]) -> int:
    """Trumps for a poignée or petit sec: the Excuse counts as one."""
    return sum(1 for c in hand if c in TRUMP_SET or c == EXCUSE)


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
    return tuple(sort_cards(h) for h in hands), tuple(deck[players * size :])


def poignee_cards(hand: Sequence[str], count: int) -> tuple[str, ...]:
    """The cards the table shows for a poignée of ``count``: the lowest trumps, the 21 and the
    Petit only when the others do not suffice, the Excuse only when the trumps do not."""
    trumps = [c for c in hand if c in TRUMP_SET]
    plain_trumps = sorted((c for c in trumps if c not in BOUTS), key=power_key)
    order = plain_trumps + [c for c in ("A21", PETIT) if c in trumps]
    if EXCUSE in hand:
        order.append(EXCUSE)
    return sort_cards(order[:count])


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
FRESH_DEAL: dict[str, Any] = {
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


def speaker(state: TarotState) -> int:
    return (state.dealer + 1 + len(state.bids)) % state.players


def current(state: TarotState) -> int:
    return (state.leader + len(state.trick)) % state.players


def attackers(state: TarotState) -> frozenset[int]:
    if state.taker is None:
        return frozenset()
    if state.partner is None:
        return frozenset({state.taker})
    return frozenset({state.taker, state.partner})


def public_cards(state: TarotState) -> set[str]:
    """Cards whose name everyone has seen, wherever they lie now: the chien shown on a
    prise/garde, poignées, trumps shown in the écart, and the called card (its name is public;
    who holds it is the secret, and no view tells it)."""
    known: set[str] = set()
    if state.chien_shown:
        known.update(state.chien_dealt)
    for p in state.poignees:
        known.update(p.cards)
    if state.phase is not Phase.ECART:
        known.update(c for c in state.ecart if c in TRUMP_SET)
    if state.called is not None:
        known.add(state.called)
    return known


def best_bid(state: TarotState) -> str | None:
    best = None
    for _, c in state.bids:
        if c != "pass":
            best = c
    return best


def callable_cards(state: TarotState) -> list[str]:
    assert state.taker is not None
    hand = state.hands[state.taker]
    for rank in CALL_RANKS:
        cards = [rank + s for s in SUITS]
        if not all(c in hand for c in cards):
            return cards
    return []  # pragma: no cover - 16 honours do not fit in a hand of 15


def ecart_allowed(state: TarotState) -> list[str]:
    """Cards the taker may put in the écart next (house rule and its fallback)."""
    assert state.taker is not None
    hand = state.hands[state.taker]
    need = CHIEN_SIZE[state.players]
    plain = [c for c in hand if is_plain(c) and c[0] != "K"]
    plain_total = len(plain) + sum(1 for c in state.ecart if is_plain(c))
    trumps_allowed = max(0, need - plain_total)
    trumps_in = sum(1 for c in state.ecart if c in TRUMP_SET)
    if trumps_in < trumps_allowed:
        return plain + [c for c in hand if c in TRUMP_SET and c not in BOUTS]
    return plain


def poignee_levels(state: TarotState, seat: int) -> list[str]:
    hand = state.hands[seat]
    if len(hand) != HAND_SIZE[state.players] or any(p.seat == seat for p in state.poignees):
        return []
    count = trump_count(hand)
    return [
        lv
        for lv, need in zip(POIGNEE_LEVELS, POIGNEE_TRUMPS[state.players], strict=True)
        if count >= need
    ]


def team_on_slam(state: TarotState, seat: int) -> bool:
    """Has ``seat``'s team won every trick so far? The truth, for scoring: never for what
    ``seat`` may do (see ``_known_on_slam``)."""
    attack = attackers(state)
    mine = seat in attack
    return bool(state.tricks) and all((t.winner in attack) == mine for t in state.tricks)


def known_mates(state: TarotState, seat: int) -> frozenset[int]:
    """The seats ``seat`` knows to be on its side: its whole team once it knows the partner
    (or when there is none to know), else only itself."""
    if state.called is not None and partner_for(state, seat) is None:
        return frozenset({seat})
    attack = attackers(state)
    return attack if seat in attack else frozenset(range(state.players)) - attack


def known_on_slam(state: TarotState, seat: int) -> bool:
    """Does ``seat`` know that its team has won every trick so far? At five, while the
    partner is secret to it, a trick won by another seat might be the other side's."""
    mates = known_mates(state, seat)
    return bool(state.tricks) and all(t.winner in mates for t in state.tricks)


def playable(state: TarotState, seat: int) -> list[str]:
    hand = state.hands[seat]
    trick = state.trick
    n_tricks = HAND_SIZE[state.players]
    if EXCUSE in hand and len(state.tricks) == n_tricks - 2 and not known_on_slam(state, seat):
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
        suit_key,
        "A",
        power_key,
        must_trump=True,
        must_overtrump=True,
        wild=WILD,
    )


def play_reason(state: TarotState, seat: int, card: str) -> str:
    """Why ``card`` (held) may not be played now."""
    hand = state.hands[seat]
    if playable(state, seat) == [EXCUSE]:
        return "you must play the Excuse now: it cannot be kept for the last trick"
    if not state.trick:
        return "you may not lead the called suit on the first trick, except the called card"
    led = _tricks.led_suit(state.trick, suit_key, WILD)
    if led is not None and any(suit_of(c) == led for c in hand) and suit_of(card) != led:
        return f"you must follow {SUIT_WORDS[led]}"
    if is_trump(card):
        return "you must overtrump: play a trump higher than the best one in the trick"
    return "you must trump"


def trick_winner(state: TarotState, trick: tuple[str, ...], last: bool) -> int:
    n = state.players
    if last and EXCUSE in trick:
        ex_seat = (state.leader + trick.index(EXCUSE)) % n
        if team_on_slam(state, ex_seat):
            return ex_seat
    idx = _tricks.winner(trick, suit_key, "A", power_key, power_key, wild=WILD)
    return (state.leader + idx) % n


def partner_for(state: TarotState, seat: int | None) -> int | None:
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
