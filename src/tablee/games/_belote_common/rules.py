"""The belote family's rules as data and pure functions: seats and teams, the state, the count of
a deal, the dealing, the cards a seat may play. The family's docstring (the package's) says what
they implement."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import SUITS, deck_32
from tablee.games._breakdown import Line, line
from tablee.games._tricks import (
    BELOTE_PLAIN_ORDER,
    BELOTE_TRUMP_ORDER,
    Trick,
    belote_points,
    french_suit,
    order_power,
    playable,
    winner,
)

PLAYERS = 4
TOTAL = 162  # 152 card points + 10 for the last trick
CAPOT = 252  # 152 + 100 when a team takes every trick
LAST_TRICK = 10
BELOTE = 20
TRICKS = 8

PLAIN_POWER = order_power(BELOTE_PLAIN_ORDER)
TRUMP_POWER = order_power(BELOTE_TRUMP_ORDER)
DECK = tuple(deck_32())
DECK_SET = frozenset(DECK)

#: contrée's sans-atout and tout-atout contracts (option ``sa_ta``): a contract's ``trump``
SA = "SA"
TA = "TA"
#: sans-atout: every suit ranks A T K Q J 9 8 7 (the plain order), worth these points
SA_POINTS = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
#: tout-atout: every suit ranks J 9 A T K Q 8 7 (the trump order), worth these points
TA_POINTS = {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0}
#: at the same value a bid outranks another by its trump: suits < SA < TA
TRUMP_RANK = {SA: 1, TA: 2}


def card_points(card: str, trump: str) -> int:
    """What ``card`` is worth under a contract of ``trump`` (a suit, ``SA`` or ``TA``)."""
    if trump == SA:
        return SA_POINTS[card[0]]
    if trump == TA:
        return TA_POINTS[card[0]]
    return belote_points(card, trump)


def trick_winner(trick: Sequence[str], trump: str) -> int:
    """The index (in play order) of the card that takes ``trick``: the highest trump, else the
    highest card of the led suit; in SA and TA, the highest card of the led suit in its order."""
    if trump == SA:
        return winner(trick, french_suit, None, PLAIN_POWER)
    if trump == TA:
        return winner(trick, french_suit, None, TRUMP_POWER)
    return winner(trick, french_suit, trump, PLAIN_POWER, TRUMP_POWER)


def card_power(card: str, trump: str | None) -> int:
    """How strong ``card`` is in its suit under ``trump`` (for sorting and the cheapest card)."""
    if trump == TA or card[1] == trump:
        return TRUMP_POWER(card)
    return PLAIN_POWER(card)


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % PLAYERS


class Phase(enum.StrEnum):
    BIDDING = "bidding"
    SURCONTRE = "surcontre"  # contrée: the window after a contre
    PLAY = "play"
    DEAL_OVER = "deal_over"  # a deal is scored; the next dealer deals
    OVER = "over"


@dataclass(frozen=True)
class Call:
    """One bidding action: ``type`` is pass / take / bid / contre / surcontre / decline."""

    seat: int
    type: str
    value: int | None = None
    suit: str | None = None


@dataclass(frozen=True)
class Contract:
    """The contract: in contrée bidding, the highest bid so far. ``value`` is 0 in belote;
    ``coinche`` is 1, 2 (contré) or 4 (surcontré)."""

    taker: int
    trump: str
    value: int = 0
    coinche: int = 1


@dataclass(frozen=True)
class SheetRow:
    """One deal on the score sheet; ``made`` is None for a cancelled deal (everybody passed)."""

    deal: int
    dealer: int
    taker: int | None = None
    trump: str | None = None
    value: int = 0
    coinche: int = 1
    card_points: tuple[int, int] = (0, 0)
    belote: tuple[int, int] = (0, 0)
    capot: int | None = None  # the team that took every trick
    made: bool | None = None
    scores: tuple[int, int] = (0, 0)
    #: the announcements' points per team (option ``annonces``; None and left out without it)
    annonces: tuple[int, int] | None = None


@dataclass(frozen=True)
class Announce:
    """One announcement a seat holds (``annonces.py``): its ``kind`` (public once announced),
    its cards (public once shown), what it scores."""

    seat: int
    kind: str
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Variants:
    """The variants a table plays (``DECISIONS.md``, "Variants"); a state without any has None.
    With ``annonces``, the deal's announcements too (``annonces.py``)."""

    sa_ta: bool = False  # contrée: sans-atout and tout-atout bids
    annonces: bool = False
    #: per seat, the announcements it made (their cards secret until shown)
    declared: tuple[tuple[Announce, ...], ...] = ()
    #: the seats that announced, in order
    order: tuple[int, ...] = ()
    #: the side that showed (and scores) its announcements, once the first trick is over
    team: int | None = None


@dataclass(frozen=True)
class BeloteState:
    seed: int | str
    target: int | None
    deal: int  # 1-based, every deal counted (cancelled ones too): salts the shuffle
    dealer: int
    phase: Phase
    turn: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...] = ()  # belote: the cards dealt after the take
    turned: str | None = None  # belote: the turned card (kept on view for the whole deal)
    round: int = 1  # belote: bidding round 1 or 2
    calls: tuple[Call, ...] = ()
    contract: Contract | None = None
    leader: int = 0
    trick: tuple[str, ...] = ()
    tricks: tuple[Trick, ...] = ()
    belote_holder: int | None = None
    announced: tuple[Call, ...] = ()  # type "belote" / "rebelote"
    scores: tuple[int, int] = (0, 0)
    sheet: tuple[SheetRow, ...] = ()
    #: left out of the JSON form when None: a table without variants reads and writes as before
    variants: Variants | None = None


@dataclass(frozen=True)
class Tally:
    """What a finished deal's tricks are worth."""

    card_points: tuple[int, int]
    belote: tuple[int, int]
    capot: int | None  # the team that took every trick
    tricks_by_seat: tuple[int, ...]
    #: the shown announcements' points per team (option ``annonces``)
    annonces: tuple[int, int] = (0, 0)
    #: the team of the last trick's winner (its "dix de der"); None: a capot, or not known
    last: int | None = None


def tally(state: BeloteState) -> Tally:
    assert state.contract is not None
    trump = state.contract.trump
    points = [0, 0]
    by_seat = [0] * PLAYERS
    for t in state.tricks:
        points[team_of(t.winner)] += sum(card_points(c, trump) for c in t.cards)
        by_seat[t.winner] += 1
    team_tricks = (by_seat[0] + by_seat[2], by_seat[1] + by_seat[3])
    capot = next((team for team in (0, 1) if team_tricks[team] == TRICKS), None)
    if capot is not None:
        points[capot] = CAPOT
    else:
        points[team_of(state.tricks[-1].winner)] += LAST_TRICK
    belote = [0, 0]
    # one rebelote per pair played out (tout-atout: a pair of any suit)
    for call in state.announced:
        if call.type == "rebelote":
            belote[team_of(call.seat)] += BELOTE
    shown = [0, 0]
    v = state.variants
    if v is not None and v.team is not None:
        # the side with the best announcement scores all of its own (annonces.py)
        shown[v.team] = sum(
            a.points for s in v.order if team_of(s) == v.team for a in v.declared[s]
        )
    return Tally(
        (points[0], points[1]),
        (belote[0], belote[1]),
        capot,
        tuple(by_seat),
        (shown[0], shown[1]),
        last=None if capot is not None else team_of(state.tricks[-1].winner),
    )


def card_lines(t: Tally, counted: Sequence[bool]) -> list[Line]:
    """A tally's card points as breakdown lines, for the teams whose card points count: the
    cards, the dix de der, or a capot's 252."""
    if t.capot is not None:
        return [line("capot", [CAPOT if i == t.capot and counted[i] else 0 for i in (0, 1)])]
    der = [LAST_TRICK if i == t.last else 0 for i in (0, 1)]
    return [
        line("cards", [t.card_points[i] - der[i] if counted[i] else 0 for i in (0, 1)]),
        line("dix_de_der", [der[i] if counted[i] else 0 for i in (0, 1)]),
    ]


def belote_holder(hands: Sequence[Sequence[str]], trump: str) -> int | None:
    pair = {"K" + trump, "Q" + trump}
    return next((s for s, h in enumerate(hands) if pair <= set(h)), None)


def belote_call(state: BeloteState, seat: int, card: str) -> Call | None:
    """The belote or rebelote ``seat`` says playing ``card``, if any. The K and Q of trump held by
    one seat once the hands are complete; tout-atout: of any suit (the call names its suit); no
    belote in sans-atout."""
    assert state.contract is not None
    trump = state.contract.trump
    if card[0] not in "KQ":
        return None
    if trump == TA:
        other = ("Q" if card[0] == "K" else "K") + card[1]
        if other in state.hands[seat]:
            return Call(seat, "belote", suit=card[1])
        said = Call(seat, "belote", suit=card[1])
        return Call(seat, "rebelote", suit=card[1]) if said in state.announced else None
    if seat == state.belote_holder and card[1] == trump:
        return Call(seat, "rebelote" if state.announced else "belote")
    return None


def deal_packets(
    cards: Sequence[str], dealer: int, packets: Sequence[int]
) -> tuple[list[list[str]], int]:
    """Deal ``packets`` (e.g. 3 then 2) to each seat in turn from the seat after the dealer;
    returns the hands and how many cards were used."""
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    pos = 0
    for n in packets:
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            hands[seat] += cards[pos : pos + n]
            pos += n
    return hands, pos


def stack_packets(
    hands: Sequence[Sequence[str]], dealer: int, packets: Sequence[int]
) -> tuple[list[str], list[list[str]]]:
    """The inverse of ``deal_packets``: the top of a deck that deals each seat the first cards of
    its hand in ``packets``, and what is left of each hand."""
    rest = [list(h) for h in hands]
    deck: list[str] = []
    for n in packets:
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            deck += rest[seat][:n]
            del rest[seat][:n]
    return deck, rest


def sort_hand(hand: Sequence[str], trump: str | None) -> list[str]:
    """``hand`` by suit (the trump's first) and, in each, from the strongest card: as a seat's
    view shows it."""
    order = _HAND_ORDERS.get(trump)
    if order is None:  # a card or trump of no deal of ours: the rule itself
        return sorted(hand, key=lambda card: _hand_order(card, trump))
    return sorted(hand, key=order.__getitem__)


def _hand_order(card: str, trump: str | None) -> tuple[int, int]:
    s = card[1]
    return (-1 if s == trump else SUITS.index(s), -card_power(card, trump))


#: each card's place in a sorted hand, for every trump (a view sorts every seat's hand)
_HAND_ORDERS: dict[str | None, dict[str, tuple[int, int]]] = {
    trump: {card: _hand_order(card, trump) for card in DECK} for trump in (None, *SUITS, SA, TA)
}


def trick_rules(state: BeloteState, seat: int) -> dict[str, Any]:
    """The obligations of ``seat`` on the trick being played, as ``_tricks.playable`` takes them.
    Sans-atout: follow the led suit, else any card. Tout-atout: follow the led suit going higher
    when you can (the led suit is the trump of the trick), else any card."""
    assert state.contract is not None
    trump = state.contract.trump
    if trump == SA:
        return {"suit": french_suit, "trump": None}
    if trump == TA:
        led = state.trick[0][1]
        return {
            "suit": french_suit,
            "trump": led,
            "trump_power": TRUMP_POWER,
            "must_overtrump": True,
        }
    partner_master = False
    if state.trick:
        w = winner(state.trick, french_suit, trump, PLAIN_POWER, TRUMP_POWER)
        partner_master = (state.leader + w) % PLAYERS == partner_of(seat)
    return {
        "suit": french_suit,
        "trump": trump,
        "trump_power": TRUMP_POWER,
        "must_trump": True,
        "must_overtrump": True,
        "partner_master": partner_master,
        "overtrump_when_free": True,
    }


def playable_cards(state: BeloteState, seat: int) -> list[str]:
    hand = state.hands[seat]
    if not state.trick:
        return list(hand)
    return playable(hand, state.trick, **trick_rules(state, seat))
