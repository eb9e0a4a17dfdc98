"""The "confirmé" robot at freeze: expected points from what the seat knows.

Every card the seat does not see is worth, on average, the mean value of the cards it has not
seen (the deck less the discard pile, the cards it knows in the layouts and the card it holds).
From that:

- a move's worth is the seat's expected points after it (a line of one rank it knows counts 0);
  a draw is worth the mean, over the unseen cards, of the best use of each (replace a card, or
  discard it and use its power);
- a speed: a card the seat knows has the rank of the top discard leaves the layout; it is played
  when that lowers the points more than the draw or the take would (a speed ends the turn);
- the freeze: the unknown cards of every layout are dealt from the unseen ones many times, and
  the freezer's bet is counted on each deal (strictly lowest: -10; else its points + 5 per seat
  at or below); it freezes when that beats its points now less what its next turns may gain;
- swaps: one of its cards against an opponent's, for the largest expected gain, counting what
  the opponent takes (the figure is the others' mean against the seat's own);
- spies: an unknown card of the opponent whose hand looks lowest (the likeliest freezer).

It reads only the view (the cards its seat knows), its legal moves and the events it saw.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from tablee.engine import Action, Event, Game
from tablee.games.freeze.rules import DECK, swap_action, value

from .search import Stop

Row = list[str]
Lay = list[Row]

#: the points the seat's next turns may still gain when it does not freeze now (tuned on the
#: duplicate bench); fewer when little is left to improve
FREEZE_MARGIN = 6.0
#: how much an opponent's points drop in the one turn they play after a freeze
LAST_TURN_GAIN = 1.0
#: freeze bets dealt to weigh a freeze
FREEZE_WORLDS = 64
#: what knowing one more of its cards is worth to the seat (better replaces, a surer freeze)
KNOWING = 0.5
#: what looking at an opponent's card is worth (a surer freeze, a swap target)
SPYING = 0.3


def decide(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    events: Sequence[Event],
    rng: random.Random,
    budget: Any,
    stop: Stop | None,
) -> Action | None:
    """The confirmé's move at freeze, or None to play as the débutant."""
    seat = view.get("seat")
    if seat is None or view.get("phase") not in _PHASES:
        return None
    seen = _Seen(view, events)
    return _PHASES[str(view["phase"])](seen, view, legal, rng)


#: a card the seat does not see: one its holder does not know either (at the mean of the cards
#: the seat has not seen), one its holder knows and kept (lower: ``KEPT``)
UNSEEN, KEPT_CARD = "?", "!"
#: the mean value of an opponent's card its holder knows and the seat does not, by eights of
#: turns played in the round: the débutant keeps its low cards (measured on its deals)
KEPT = (4.75, 3.3, 2.6, 2.2)
_MARKS = (UNSEEN, KEPT_CARD)


class _Seen:
    """What the seat knows: the layouts as it sees them (an unseen card marked ``UNSEEN`` or
    ``KEPT_CARD``) and the unseen cards."""

    def __init__(self, view: Mapping[str, Any], events: Sequence[Event]) -> None:
        self.seat: int = view["seat"]
        self.players: int = view["players"]
        self.frozen: int | None = view["frozen"]
        tracked = owners_know(events, view)
        kept = tracked[0] if tracked is not None else None
        self.turns = tracked[1] if tracked is not None else 0
        self.layouts: list[Lay] = [
            [
                [
                    c
                    if c is not None
                    else KEPT_CARD
                    if kept is not None and s != self.seat and kept[s][li][sl]
                    else UNSEEN
                    for sl, c in enumerate(row)
                ]
                for li, row in enumerate(lay)
            ]
            for s, lay in enumerate(view["layouts"])
        ]
        self.mine: Lay = self.layouts[self.seat]
        gone = set(view["discard"])
        gone.update(c for lay in view["layouts"] for row in lay for c in row if c is not None)
        if view["drawn"] is not None:
            gone.add(view["drawn"])
        self.unseen = [c for c in DECK if c not in gone]
        values = [value(c) for c in self.unseen]
        kept_count = sum(c == KEPT_CARD for lay in self.layouts for row in lay for c in row)
        rest = len(values) - kept_count
        self.kept = KEPT[min(self.turns // 8, len(KEPT) - 1)]
        if kept_count and rest > 0:
            self.mean = (sum(values) - kept_count * self.kept) / rest
        else:
            self.mean = sum(values) / len(values) if values else 6.0
        # the chance that an unseen card lies in the stock (not kept low in a hand), for a draw
        self.beta = _tilt(values, self.kept) if kept_count else 0.0
        weights = [math.exp(-self.beta * v) for v in values]
        total = sum(weights) or 1.0
        self.stock_weights = [max(0.0, 1.0 - kept_count * w / total) for w in weights]

    def value(self, card: str, knowing: float = 0.0) -> float:
        if card == UNSEEN:
            return self.mean + knowing
        if card == KEPT_CARD:
            return self.kept + knowing
        return float(value(card))

    def points(self, lay: Lay, knowing: float = KNOWING) -> float:
        """Expected points of a layout: unseen cards at their mean, each ``knowing`` more (what
        not knowing a card of its own costs the seat)."""
        return sum(self.line(row, knowing) for row in lay)

    def line(self, row: Row, knowing: float = KNOWING) -> float:
        if len(row) >= 2 and row[0] not in _MARKS and all(c[0] == row[0][0] for c in row):
            return 0.0
        return sum(self.value(c, knowing) for c in row)

    def with_card(self, line: int, slot: int, card: str) -> Lay:
        lay = [list(row) for row in self.mine]
        lay[line][slot] = card
        return lay

    def without(self, line: int, slot: int) -> Lay:
        lay = [list(row) for row in self.mine]
        del lay[line][slot]
        return lay

    def targets(self) -> list[tuple[int, int, int]]:
        out = []
        for k in range(1, self.players):
            t = (self.seat + k) % self.players
            if t == self.frozen:
                continue
            for li, row in enumerate(self.layouts[t]):
                out += [(t, li, sl) for sl in range(len(row))]
        return out

    # -- what a drawn card is worth --------------------------------------------------------------

    def best_use(self, card: str) -> tuple[float, Action]:
        """The seat's expected points after the best use of a card it holds: replace one of its
        cards, or discard it (and use its power)."""
        now = self.points(self.mine)
        best: tuple[float, Action] = (now - self.power(card), {"type": "discard"})
        for li, row in enumerate(self.mine):
            for sl in range(len(row)):
                after = self.points(self.with_card(li, sl, card))
                if after < best[0]:
                    best = (after, {"type": "replace", "line": li, "slot": sl})
        return best

    def power(self, card: str) -> float:
        """What a discarded card's power is worth to the seat, in points."""
        rank = card[0]
        if rank in "78":
            return KNOWING if any(c in _MARKS for row in self.mine for c in row) else 0.0
        if rank in "9T":
            return SPYING if self.targets() else 0.0
        if rank in "JQ":
            move = self.best_swap()
            return 0.0 if move is None else move[0]
        if card in ("KS", "KC") and self.targets():
            return self.king_gain()
        return 0.0

    def swap_gain(self, line: int, slot: int, t: int, tl: int, ts: int) -> float:
        mine = self.mine[line][slot]
        theirs = self.layouts[t][tl][ts]
        before = self.points(self.mine)
        after = self.points(self.with_card(line, slot, theirs))
        lay = [list(row) for row in self.layouts[t]]
        their_before = self.points(lay)
        lay[tl][ts] = mine
        their_after = self.points(lay)
        return before - after + (their_after - their_before) / (self.players - 1)

    def best_swap(self) -> tuple[float, Action] | None:
        best: tuple[float, Action] | None = None
        for li, row in enumerate(self.mine):
            for sl in range(len(row)):
                for t, tl, ts in self.targets():
                    gain = self.swap_gain(li, sl, t, tl, ts)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, swap_action(li, sl, t, tl, ts))
        return best

    def king_gain(self) -> float:
        """A black king: look at a card, then swap it for one of the seat's if that gains (at
        least what a blind swap would)."""
        move = self.best_swap()
        return SPYING + (0.0 if move is None else move[0])

    def draw_points(self) -> float:
        """Expected points after a draw and the best use of the card drawn."""
        total = sum(self.stock_weights)
        if not total:
            return self.points(self.mine)
        uses = [
            self.best_use(c)[0] * w for c, w in zip(self.unseen, self.stock_weights, strict=True)
        ]
        return sum(uses) / total

    # -- the others ------------------------------------------------------------------------------

    def likeliest_freezer(self) -> list[int]:
        """Opponents that may be targeted, the lowest expected points first."""
        seats = [t for t in range(self.players) if t not in (self.seat, self.frozen)]
        return sorted(seats, key=lambda t: (self.points(self.layouts[t], 0.0), t))

    def freeze_value(self, rng: random.Random) -> float:
        """The seat's expected score in the round if it freezes now, less the others' mean: the
        unknown cards dealt from the unseen ones, the others a little lower after their last
        turn."""
        holes = [(s, li, sl) for s, lay in enumerate(self.layouts) for li, row in enumerate(lay)
                 for sl, c in enumerate(row) if c in _MARKS]  # fmt: skip
        # the kept cards first, drawn low
        holes.sort(key=lambda h: self.layouts[h[0]][h[1]][h[2]] != KEPT_CARD)
        kept = sum(self.layouts[s][li][sl] == KEPT_CARD for s, li, sl in holes)
        low = [math.exp(-self.beta * value(c)) for c in self.unseen]
        total = 0.0
        n = self.players
        for _ in range(FREEZE_WORLDS):
            pool = list(self.unseen)
            weights = list(low)
            dealt = []
            for _ in range(min(kept, len(pool))):
                i = rng.choices(range(len(pool)), weights)[0]
                dealt.append(pool.pop(i))
                weights.pop(i)
            rng.shuffle(pool)
            dealt += pool
            lays = [[list(row) for row in lay] for lay in self.layouts]
            for (s, li, sl), c in zip(holes, dealt, strict=False):
                lays[s][li][sl] = c
            pts = [_exact(lay) for lay in lays]
            others = [pts[s] - LAST_TURN_GAIN for s in range(n) if s != self.seat]
            mine = pts[self.seat]
            below = sum(1 for p in others if p <= mine)
            score = -10.0 if below == 0 else mine + 5.0 * below
            total += score - sum(others) / (n - 1)
        return total / FREEZE_WORLDS


def owners_know(
    events: Sequence[Event], view: Mapping[str, Any]
) -> tuple[list[list[list[bool]]], int] | None:
    """For every card of every layout, whether the seat holding it knows it, followed through
    the round's public events (the deal's bottom lines, replaces, peeks, takes, swaps, speeds,
    penalties), and the turns played in the round (draws, takes, freezes); None when the events
    do not tell the layouts the view shows."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") in ("deal", "deal_end"):
            start = i + 1
            break
    n = view["players"]
    # bit s: seat s knows the card; -1: everyone does
    masks = [[[0, 0], [1 << s, 1 << s]] for s in range(n)]
    turns = 0
    try:
        for e in events[start:]:
            kind = e.get("type")
            if kind in ("take", "freeze") or (kind == "draw" and "card" not in e):
                turns += 1
            if kind in ("peek", "spy") and "card" in e:
                continue  # the seat's own twin of a public event
            if kind == "replace":
                masks[e["seat"]][e["line"]][e["slot"]] = 1 << e["seat"]
            elif kind == "take":
                masks[e["seat"]][e["line"]][e["slot"]] = -1
            elif kind == "peek":
                masks[e["seat"]][e["line"]][e["slot"]] |= 1 << e["seat"]
            elif kind == "spy":
                masks[e["target"]][e["line"]][e["slot"]] |= 1 << e["seat"]
            elif kind == "swap":
                mine, theirs = masks[e["seat"]][e["line"]], masks[e["target"]][e["target_line"]]
                mine[e["slot"]], theirs[e["target_slot"]] = (
                    theirs[e["target_slot"]],
                    mine[e["slot"]],
                )
            elif kind == "speed":
                row = masks[e["seat"]][e["line"]]
                if e["good"]:
                    del row[e["slot"]]
                else:
                    row[e["slot"]] = -1
            elif kind == "penalty":
                masks[e["seat"]][e["line"]].append(0)
    except (IndexError, KeyError, TypeError):
        return None
    shapes = [[len(row) for row in lay] for lay in view["layouts"]]
    if [[len(row) for row in lay] for lay in masks] != shapes:
        return None
    kept = [[[m == -1 or bool(m >> s & 1) for m in row] for row in masks[s]] for s in range(n)]
    return kept, turns


def _tilt(values: Sequence[int], target: float) -> float:
    """The β for which the cards weighted by exp(-β value) have ``target`` for mean value."""
    if not values or target >= sum(values) / len(values):
        return 0.0
    lo, hi = 0.0, 4.0
    for _ in range(30):
        mid = (lo + hi) / 2
        w = [math.exp(-mid * v) for v in values]
        if sum(x * v for x, v in zip(w, values, strict=True)) / sum(w) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _exact(lay: Lay) -> float:
    out = 0.0
    for row in lay:
        if len(row) >= 2 and len({c[0] for c in row}) == 1:
            continue
        out += sum(value(c) for c in row)
    return out


# -- the phases ------------------------------------------------------------------------------------


def _turn(
    seen: _Seen, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
) -> Action | None:
    now = seen.points(seen.mine)
    options: list[tuple[float, int, Action]] = []
    if {"type": "draw"} in legal:
        options.append((seen.draw_points(), 0, {"type": "draw"}))
    top = view["discard"][-1] if view["discard"] else None
    for a in legal:
        if a["type"] == "take" and top is not None:
            options.append((seen.points(seen.with_card(a["line"], a["slot"], top)), 1, a))
        elif a["type"] == "speed" and view["speed"] == "open" and top is not None:
            card = seen.mine[a["line"]][a["slot"]]
            if card not in _MARKS and card[0] == top[0]:
                options.append((seen.points(seen.without(a["line"], a["slot"])), 2, a))
    best = min(options, key=lambda o: (o[0], o[1]), default=None)
    if {"type": "freeze"} in legal:
        # playing on: the best move's gain now, and the chance to freeze later on a lower hand
        mine = seen.points(seen.mine, 0.0)
        if best is not None:
            mine = min(mine, best[0] - now + mine)
        others = [seen.points(seen.layouts[t], 0.0) for t in range(seen.players) if t != seen.seat]
        keep = mine - sum(others) / len(others) - FREEZE_MARGIN
        if best is None or seen.freeze_value(rng) < keep:
            return {"type": "freeze"}
    if best is None:
        return None
    return best[2]


def _drawn(
    seen: _Seen, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
) -> Action | None:
    card = view["drawn"]
    if card is None:
        return None
    return seen.best_use(str(card))[1]


def _peek(
    seen: _Seen, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
) -> Action | None:
    for li, row in enumerate(seen.mine):
        for sl, c in enumerate(row):
            if c in _MARKS:
                return {"type": "peek", "line": li, "slot": sl}
    return {"type": "pass"}


def _spy(
    seen: _Seen, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
) -> Action | None:
    # a card its holder kept first: it tells most of that hand, and is a black king's likeliest
    # swap
    for t in seen.likeliest_freezer():
        for mark in (KEPT_CARD, UNSEEN):
            for li, row in enumerate(seen.layouts[t]):
                for sl, c in enumerate(row):
                    if c == mark:
                        return {"type": "spy", "target": t, "line": li, "slot": sl}
    return {"type": "pass"}


def _swap_phase(
    seen: _Seen, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
) -> Action | None:
    move = seen.best_swap()
    return {"type": "pass"} if move is None else move[1]


def _king_swap(
    seen: _Seen, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
) -> Action | None:
    looked = view["looked"]
    if looked is None:
        return None
    t, tl, ts = looked["target"], looked["line"], looked["slot"]
    best: tuple[float, Action] = (0.0, {"type": "pass"})
    for li, row in enumerate(seen.mine):
        for sl in range(len(row)):
            gain = seen.swap_gain(li, sl, t, tl, ts)
            if gain > best[0]:
                best = (gain, swap_action(li, sl, t, tl, ts))
    return best[1]


_PHASES = {
    "turn": _turn,
    "drawn": _drawn,
    "peek": _peek,
    "spy": _spy,
    "king_look": _spy,
    "swap": _swap_phase,
    "king_swap": _king_swap,
}
