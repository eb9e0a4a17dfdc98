"""Yaniv's rules as data and pure functions: card values, the groups a discard may lay, the
state and the deal. The spec is the package's docstring."""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import JOKERS, SUITS, deck_54
from tablee.engine.state import plain

HAND_SIZE = 5
YANIV_MAX = 7
ASSAF_PENALTY = 30
LIMIT = 100

RUN_RANKS = "A23456789TJQK"
RANK_NUM = {r: i + 1 for i, r in enumerate(RUN_RANKS)}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
DECK: tuple[str, ...] = tuple(deck_54())
CARD_SET = frozenset(DECK)


def card_value(card: str) -> int:
    return VALUES[card]


def _value(card: str) -> int:
    if card in JOKERS:
        return 0
    return min(RANK_NUM[card[0]], 10)


VALUES = {c: _value(c) for c in DECK}


def hand_value(cards: Iterable[str]) -> int:
    return sum(VALUES[c] for c in cards)


def _hand_key(card: str) -> tuple[int, int]:
    if card in JOKERS:
        return (0, JOKERS.index(card))
    return (RANK_NUM[card[0]], SUIT_INDEX[card[1]])


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_hand_key))


# -- groups --------------------------------------------------------------------------------------


def _split(cards: Sequence[str]) -> tuple[list[str], list[str]]:
    naturals = [c for c in cards if c not in JOKERS]
    jokers = sorted(c for c in cards if c in JOKERS)
    return naturals, jokers


def _as_set(cards: Sequence[str]) -> tuple[str, ...] | None:
    naturals, jokers = _split(cards)
    if len(cards) < 2 or len({c[0] for c in naturals}) > 1:
        return None
    return (*sorted(naturals, key=lambda c: SUIT_INDEX[c[1]]), *jokers)


def _as_runs(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every way to lay ``cards`` as a run (low end first), jokers placed X1 below X2."""
    naturals, jokers = _split(cards)
    if len(cards) < 3 or len(naturals) < 2 or len({c[1] for c in naturals}) != 1:
        return []
    by_num = {RANK_NUM[c[0]]: c for c in naturals}
    if len(by_num) != len(naturals):
        return []
    lo, hi = min(by_num), max(by_num)
    extra = len(jokers) - (hi - lo + 1 - len(naturals))
    out = []
    for below in range(extra, -1, -1):
        start, end = lo - below, hi + extra - below
        if start < 1 or end > len(RUN_RANKS):
            continue
        free = iter(jokers)
        out.append(tuple(by_num.get(k) or next(free) for k in range(start, end + 1)))
    return out


def layouts(cards: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The ways to lay these cards as one discard: ``(kind, cards in canonical order)``."""
    if len(cards) == 1:
        return [("single", (cards[0],))]
    as_set = _as_set(cards)
    if as_set is not None:
        return [("set", as_set)]
    return [("run", run) for run in _as_runs(cards)]


@functools.lru_cache(maxsize=8192)
def discards(hand: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every legal discard from ``hand``, each group once, in canonical order."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for size in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            out += layouts(combo)
    return tuple(out)


def takeable(group: Sequence[str], kind: str) -> tuple[str, ...]:
    """The cards of a discard the next player may draw: any of a set, the ends of a run."""
    if kind == "run":
        return (group[0], group[-1])
    return tuple(group)


def group_error(cards: Sequence[str]) -> str:
    """Why cards that make no discard make none (called only when ``layouts`` is empty)."""
    naturals, jokers = _split(cards)
    by_rank = {c[0]: c for c in naturals}
    ranks = list(by_rank.values())
    suits = {c[1]: c for c in naturals}
    if len(cards) == 2:
        a, b = naturals
        if a[1] == b[1]:
            return f"not a set: {a} and {b} differ; a run needs 3 or more cards of one suit"
        return f"not a set: {a} and {b} differ"
    if len(suits) > 1:
        a, b = list(suits.values())[:2]
        return (
            f"neither a set ({ranks[0]} and {ranks[1]} differ in rank) nor a run"
            f" ({a} and {b} differ in suit)"
        )
    nums = sorted(RANK_NUM[c[0]] for c in naturals)
    missing = nums[-1] - nums[0] + 1 - len(nums)
    low = next(c for c in naturals if RANK_NUM[c[0]] == nums[0])
    high = next(c for c in naturals if RANK_NUM[c[0]] == nums[-1])
    reason = (
        f"not a run: from {low} to {high} {missing} cards are missing"
        f" and you lay {len(jokers)} joker{'s' if len(jokers) != 1 else ''}"
    )
    if nums[0] == 1 and nums[-1] == len(RUN_RANKS):
        reason += " (the ace is low: a run does not go from K to A)"
    return reason


# -- state ---------------------------------------------------------------------------------------


class Phase(enum.StrEnum):
    TURN = "turn"
    DRAW = "draw"
    SHOW = "show"
    OVER = "over"


@dataclass(frozen=True)
class RoundResult:
    round: int
    caller: int
    assaf: bool
    values: tuple[int, ...]
    points: tuple[int, ...]
    dropped: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class YanivState:
    players: int
    seed: int | str
    round: int
    phase: Phase
    #: the seat playing; in ``show`` the next round's first player
    turn: int
    first: int
    hands: tuple[tuple[str, ...], ...]
    #: per seat, the cards it took from the discard and still holds (public knowledge)
    known: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    #: the discard under the top group, oldest first
    pile: tuple[str, ...]
    #: the previous player's discard: what may be drawn back
    top: tuple[str, ...]
    top_kind: str
    #: the current player's discard while it draws
    laid: tuple[str, ...]
    laid_kind: str
    scores: tuple[int, ...]
    history: tuple[RoundResult, ...]
    reshuffles: int


def replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def deal_round(
    players: int,
    seed: int | str,
    round_: int,
    first: int,
    cards: Sequence[str],
    scores: tuple[int, ...],
    history: tuple[RoundResult, ...],
    reshuffles: int,
) -> YanivState:
    hands: list[tuple[str, ...]] = [()] * players
    for k in range(players):
        hands[(first + k) % players] = sort_hand(cards[k * HAND_SIZE : (k + 1) * HAND_SIZE])
    turned = cards[players * HAND_SIZE]
    # plain: every round's states are evolved from it (see tablee.engine.state)
    return plain(
        YanivState(
            players=players,
            seed=seed,
            round=round_,
            phase=Phase.TURN,
            turn=first,
            first=first,
            hands=tuple(hands),
            known=((),) * players,
            stock=tuple(cards[players * HAND_SIZE + 1 :]),
            pile=(),
            top=(turned,),
            top_kind="single",
            laid=(),
            laid_kind="",
            scores=scores,
            history=history,
            reshuffles=reshuffles,
        )
    )
