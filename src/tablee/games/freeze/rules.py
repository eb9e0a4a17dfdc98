"""Freeze's rules as data and pure functions: card values and powers, who knows which card, the
state and the deal, where a power may reach. The spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tablee.cards import deck_52
from tablee.engine import Action


class Phase(StrEnum):
    TURN = "turn"
    DRAWN = "drawn"
    PEEK = "peek"
    SPY = "spy"
    SWAP = "swap"
    KING_LOOK = "king_look"
    KING_SWAP = "king_swap"
    SHOWN = "shown"
    OVER = "over"


#: speed window states
CLOSED, OPEN, USED = 0, 1, 2
SPEED_NAMES = ("closed", "open", "used")

DECK = tuple(deck_52())
_VALUES = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 10, "J": 10, "Q": 10,
}  # fmt: skip
POWERS = {"7": Phase.PEEK, "8": Phase.PEEK, "9": Phase.SPY, "T": Phase.SPY}
POWERS |= {"J": Phase.SWAP, "Q": Phase.SWAP}
POWER_NAMES = {
    Phase.PEEK: "peek",
    Phase.SPY: "spy",
    Phase.SWAP: "swap",
    Phase.KING_LOOK: "king",
}
POWER_PHASES = frozenset((Phase.PEEK, Phase.SPY, Phase.SWAP, Phase.KING_LOOK, Phase.KING_SWAP))


def value(card: str) -> int:
    if card[0] == "K":
        return -1 if card[1] in "HD" else 10
    return _VALUES[card[0]]


def power_of(card: str) -> Phase | None:
    if card[0] == "K":
        return Phase.KING_LOOK if card[1] in "SC" else None
    return POWERS.get(card[0])


def line_points(cards: Sequence[str]) -> int:
    if len(cards) >= 2 and all(c[0] == cards[0][0] for c in cards):
        return 0
    return sum(value(c) for c in cards)


#: the knowledge bit of a card shown to the table (seats use bits 0..7): everyone knows it
PUBLIC = 1 << 8

Line = tuple[str, ...]
Layout = tuple[Line, ...]


def knows(mask: int, seat: int | None) -> bool:
    return bool(mask & PUBLIC) or (seat is not None and bool(mask >> seat & 1))


def seen_layouts(state: FreezeState, seat: int | None) -> list[list[list[str | None]]]:
    """Every layout as ``seat`` sees it: the faces it knows (every face between rounds and at
    the end, when every layout lies face up), None for the others."""
    if state.phase in (Phase.SHOWN, Phase.OVER):
        return [[list(row) for row in lay] for lay in state.layouts]
    known = state.known
    return [
        [[c if knows(known[c], seat) else None for c in row] for row in lay]
        for lay in state.layouts
    ]


@dataclass(frozen=True)
class FreezeState:
    players: int
    seed: int | str
    rounds: int
    round: int
    dealer: int
    phase: Phase
    turn: int
    layouts: tuple[Layout, ...]
    #: who knows each card lying in a layout: bit s for seat s, PUBLIC once shown to the table.
    #: Cards are unique, so the key follows the card wherever it moves: knowledge travels.
    known: dict[str, int]
    stock: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # top last
    drawn: str | None
    #: the card a black king looked at: (target, line, slot)
    look: tuple[int, int, int] | None
    frozen: int | None
    speed: int
    turns: int
    reshuffles: int
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]


def deal(
    players: int, cards: Sequence[str], dealer: int
) -> tuple[tuple[Layout, ...], dict[str, int], tuple[str, ...]]:
    layouts: list[Layout] = [((), ())] * players
    known: dict[str, int] = {}
    for k in range(players):
        seat = (dealer + 1 + k) % players
        p = cards[4 * k : 4 * k + 4]
        layouts[seat] = ((p[0], p[1]), (p[2], p[3]))
        known |= {p[0]: 0, p[1]: 0, p[2]: 1 << seat, p[3]: 1 << seat}
    return tuple(layouts), known, tuple(cards[4 * players :])


def put(
    layouts: tuple[Layout, ...], seat: int, line: int, slot: int, card: str
) -> tuple[Layout, ...]:
    lay = layouts[seat]
    row = lay[line]
    new_row = (*row[:slot], card, *row[slot + 1 :])
    new_lay = (new_row, lay[1]) if line == 0 else (lay[0], new_row)
    return (*layouts[:seat], new_lay, *layouts[seat + 1 :])


def set_layout(layouts: tuple[Layout, ...], seat: int, lay: Layout) -> tuple[Layout, ...]:
    return (*layouts[:seat], lay, *layouts[seat + 1 :])


def positions(lay: Layout) -> Iterator[tuple[int, int]]:
    for line, row in enumerate(lay):
        for slot in range(len(row)):
            yield line, slot


def learnt(known: dict[str, int], card: str, bits: int) -> dict[str, int]:
    return {**known, card: known[card] | bits}


def moved(known: dict[str, int], out: str, into: str, bits: int) -> dict[str, int]:
    """``out`` left a layout for the discard, ``into`` took its place, known by ``bits``."""
    new = dict(known)
    del new[out]
    new[into] = bits
    return new


def layout_points(lay: Layout) -> int:
    return sum(line_points(row) for row in lay)


def round_scores(points: Sequence[int], freezer: int) -> list[int]:
    """The freezer's bet: strictly lowest scores -10, else their points + 5 per player at or
    below them."""
    out = list(points)
    mine = points[freezer]
    at_or_below = sum(1 for s, p in enumerate(points) if s != freezer and p <= mine)
    out[freezer] = -10 if at_or_below == 0 else mine + 5 * at_or_below
    return out


def can_draw(state: FreezeState) -> bool:
    return bool(state.stock) or len(state.discard) >= 2


def targets(state: FreezeState, seat: int) -> Iterator[tuple[int, int, int]]:
    """Cards of other seats a power may reach: never a frozen hand."""
    n = state.players
    for k in range(1, n):
        t = (seat + k) % n
        if t != state.frozen:
            for line, slot in positions(state.layouts[t]):
                yield t, line, slot


def swap_action(line: int, slot: int, t: int, tl: int, ts: int) -> Action:
    return {
        "type": "swap",
        "line": line,
        "slot": slot,
        "target": t,
        "target_line": tl,
        "target_slot": ts,
    }
