"""Trick-taking helpers shared by belote, contrée, tarot, barbu and motton.

Written once for every deck: a game passes how to read a card's suit and how strong a card is, and
which obligations its rules impose. Functions are pure and work on card strings.

- ``winner``: the index (in play order) of the card that takes the trick.
- ``playable``: the cards a hand may play to a trick under follow / trump / overtrump /
  undertrump / partner-is-master rules.
- Belote/contrée card points and orders, and the plain-suit order used by barbu and motton.
- What every trick game's state does the same way (the next state is the engine's ``evolve``
  of the last): the finished ``Trick``, a card taken from a hand, a per-seat count raised, the
  views of the trick on the table and of the last one, the ``hand`` events of a deal, and the
  check of the ``card`` of a play action.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import CardError, parse_french
from tablee.engine import IllegalAction

SuitOf = Callable[[str], str]
Power = Callable[[str], int]

#: weakest to strongest
BELOTE_PLAIN_ORDER = "789JQKTA"
BELOTE_TRUMP_ORDER = "78QKTA9J"
STANDARD_ORDER = "23456789TJQKA"

BELOTE_PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
BELOTE_TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}


def french_suit(card: str) -> str:
    return card[1]


def order_power(order: str) -> Power:
    """Power from a rank order string, for cards written rank-then-suit."""
    index = {r: i for i, r in enumerate(order)}
    return lambda card: index[card[0]]


def led_suit(trick: Sequence[str], suit: SuitOf, wild: Collection[str] = ()) -> str | None:
    """The suit asked for: the first card that is not a wild (tarot's Excuse) sets it."""
    for card in trick:
        if card not in wild:
            return suit(card)
    return None


def winner(
    trick: Sequence[str],
    suit: SuitOf,
    trump: str | None,
    plain_power: Power,
    trump_power: Power | None = None,
    wild: Collection[str] = (),
) -> int:
    """Index of the winning card: the highest trump, else the highest card of the led suit.
    Wild cards (the Excuse) never win here; a game with an exception handles it itself."""
    led = led_suit(trick, suit, wild)
    tp = trump_power or plain_power
    best, best_key = 0, (-1, -1)
    for i, card in enumerate(trick):
        if card in wild:
            continue
        s = suit(card)
        if trump is not None and s == trump:
            key = (2, tp(card))
        elif s == led:
            key = (1, plain_power(card))
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def playable(
    hand: Sequence[str],
    trick: Sequence[str],
    suit: SuitOf,
    trump: str | None,
    trump_power: Power | None = None,
    *,
    must_trump: bool = False,
    must_overtrump: bool = False,
    partner_master: bool = False,
    overtrump_when_free: bool = False,
    wild: Collection[str] = (),
) -> list[str]:
    """The cards of ``hand`` that may be played to ``trick`` (cards already played, in order).

    - follow the led suit when you can (on a trump lead, go higher than the best trump when
      ``must_overtrump`` and you can);
    - void in a plain suit: with ``must_trump``, play a trump — higher than the best trump in the
      trick when ``must_overtrump`` and you can, else any trump (undertrump) — unless
      ``partner_master`` (belote: your partner holds the trick), which frees you;
    - freed by ``partner_master`` with ``overtrump_when_free`` (belote: "lorsque vous choisissez
      d'atout, continuez à suratouter si possible"): any card that is not a trump, or a trump
      higher than the best trump in the trick when you hold one (any trump when you don't);
    - no card of the suit and no trump (or no obligation): any card.
    Wild cards (the Excuse) may always be played.
    """
    hand = list(hand)
    led = led_suit(trick, suit, wild)
    if led is None:
        return hand
    wilds = [c for c in hand if c in wild]
    same = [c for c in hand if c not in wild and suit(c) == led]
    if same:
        if led == trump and must_overtrump and trump_power is not None:
            return _higher_trumps(same, trick, suit, trump, trump_power) + wilds
        return same + wilds
    trumps = [c for c in hand if c not in wild and trump is not None and suit(c) == trump]
    if not must_trump or not trumps:
        return hand
    if partner_master:
        if not (overtrump_when_free and must_overtrump and trump_power is not None):
            return hand
        allowed = set(_higher_trumps(trumps, trick, suit, trump, trump_power))
        return [c for c in hand if c in allowed or c not in trumps]
    if must_overtrump and trump_power is not None:
        return _higher_trumps(trumps, trick, suit, trump, trump_power) + wilds
    return trumps + wilds


def _higher_trumps(
    trumps: list[str], trick: Sequence[str], suit: SuitOf, trump: str | None, power: Power
) -> list[str]:
    in_trick = [power(c) for c in trick if suit(c) == trump]
    if not in_trick:
        return trumps
    best = max(in_trick)
    higher = [c for c in trumps if power(c) > best]
    return higher or trumps


def belote_points(card: str, trump: str | None) -> int:
    """Card points in belote and contrée (``trump=None``: no trump, every suit is plain)."""
    if trump is not None and card[1] == trump:
        return BELOTE_TRUMP_POINTS[card[0]]
    return BELOTE_PLAIN_POINTS[card[0]]


def belote_power(trump: str | None) -> tuple[Power, Power]:
    """(plain power, trump power) for belote and contrée."""
    del trump  # the orders do not depend on which suit is trump
    return order_power(BELOTE_PLAIN_ORDER), order_power(BELOTE_TRUMP_ORDER)


FRENCH_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def refusal(
    card: str,
    hand: Sequence[str],
    trick: Sequence[str],
    suit: SuitOf,
    trump: str | None,
    trump_power: Power | None = None,
    *,
    must_trump: bool = False,
    must_overtrump: bool = False,
    partner_master: bool = False,
    overtrump_when_free: bool = False,
    wild: Collection[str] = (),
    names: dict[str, str] | None = None,
) -> str | None:
    """Why ``card`` may not be played (a sentence for the player), or ``None`` when it may.
    Takes the same arguments as ``playable``."""
    if card not in hand:
        return f"you do not hold {card}"
    allowed = playable(
        hand,
        trick,
        suit,
        trump,
        trump_power,
        must_trump=must_trump,
        must_overtrump=must_overtrump,
        partner_master=partner_master,
        overtrump_when_free=overtrump_when_free,
        wild=wild,
    )
    if card in allowed:
        return None
    names = FRENCH_SUIT_NAMES if names is None else names
    led = led_suit(trick, suit, wild)
    assert led is not None  # a lead is always allowed
    if any(c not in wild and suit(c) == led for c in hand):
        if suit(card) == led:
            return "you must play a higher trump"
        return f"you must follow {names.get(led, led)}"
    if suit(card) == trump:
        if partner_master:
            return "your partner holds the trick: you may discard, but a trump must overtrump"
        return "you must overtrump"
    return "you must trump"


# -- the state of a trick game ---------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led it, its cards in play order, who took it."""

    leader: int
    cards: tuple[str, ...]
    winner: int


def without(
    hands: tuple[tuple[str, ...], ...], seat: int, card: str
) -> tuple[tuple[str, ...], ...]:
    """``hands`` once ``seat`` has played ``card``."""
    out = list(hands)
    out[seat] = tuple(c for c in hands[seat] if c != card)
    return tuple(out)


def raised(counts: tuple[int, ...], seat: int, by: int = 1) -> tuple[int, ...]:
    """``counts`` (one per seat) with ``seat``'s raised by ``by``."""
    out = list(counts)
    out[seat] += by
    return tuple(out)


STANDARD_POWER = order_power(STANDARD_ORDER)


def standard_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """A 52-card hand in display order: by suit (spades, hearts, clubs, diamonds), then rank."""
    return tuple(sorted(cards, key=lambda c: ("SHCD".index(c[1]), STANDARD_POWER(c))))


def hand_events(hands: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """One ``hand`` event per seat, seen by that seat only: the cards it was just dealt."""
    return [{"type": "hand", "seat": s, "cards": list(h), "to": [s]} for s, h in enumerate(hands)]


def trick_view(leader: int, cards: Sequence[str], players: int) -> list[dict[str, Any]]:
    """The cards of a trick with the seat that played each: ``[{"seat", "card"}...]``."""
    return [{"seat": (leader + i) % players, "card": c} for i, c in enumerate(cards)]


def last_trick_view(last: Trick | None, players: int) -> dict[str, Any] | None:
    """``{"cards": [{"seat", "card"}...], "winner": seat}``, or None before the first trick."""
    if last is None:
        return None
    return {"cards": trick_view(last.leader, last.cards, players), "winner": last.winner}


def french_card(kind: str, name: str, card: Any) -> None:
    """Checks the ``card`` of a play action: a card of the French notation (a ``Move`` field)."""
    if not isinstance(card, str):
        raise IllegalAction("a play needs a 'card'", "bad_action")
    try:
        parse_french(card)
    except CardError as exc:
        raise IllegalAction(str(exc), "bad_action") from None
