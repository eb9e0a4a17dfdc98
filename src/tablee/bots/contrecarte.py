"""The "confirmé" robot at Contrecarte: a few direct rules of play (``ruled``), and near the end of
the game each move of its turn weighed by play-outs on worlds of the hidden cards that agree with
what its seat saw.

The rules, read from the seat's view and what the others showed they lacked: when the next seat
is low, stop it (a +2, a passe, an inversion, a legal +4); play a colour the next seat showed it
lacks; a joker names the colour most held, ties toward one the next seat lacks. Measured against
the table's move, each alone gains a few thousandths of a win a game: small, as a seat that is
stopped mostly hands its win to one of the others, not to the robot.

What the seat knows (from its view and the events it saw, never the state):

- its own hand, the other hands' sizes, the stock's size, whose turn and which way;
- the discard pile: every play is public, so the pile is known card by card since the last
  reshuffle (its bottom card, the first one turned, is named only while it is on top);
- what a seat showed it lacked. A seat that drew on its turn had no card that fitted (no card of
  the colour in force, no coloured card of the top card's face, no joker), and the card it drew
  did not fit either unless it played it; a seat that laid a joker had no fitting coloured card,
  one that laid a +4 had no joker either. That is how the table's own move plays (a person may
  hold back a card, so these are the likely hands, not the certain ones). A seat that draws again
  gets cards the seat knows nothing of: so many cards of its hand are then free of the rule.

A world deals the unseen cards to the other hands (the ones they lacked kept out, as far as the
unseen cards allow), the stock and the pile's unnamed bottom. Each candidate move (every card that
fits, a joker with each colour; or drawing; after a draw, playing the drawn card or passing) is
applied in every world and the game played on by the table's own move for every seat, for at most
``HORIZON`` moves: a win or a loss, else the seat's chance from the hands' sizes (``odds``).

Where it searches: only near the end of the game (a hand of ``CLOSE`` cards or fewer). Before,
the moves' chances differ by a few hundredths of a win, less than a few dozen play-outs can tell:
picking the best mean there is picking at random (measured: far worse than the table's move). And
even near the end it leaves the table's move only for a move whose gain over it, world by world,
clears ``MARGIN`` standard errors.

The contest window: the robot accepts, as the table's move does. A contest only pays against a
+4 that was illegal, and nothing the seat sees tells it that: a seat that showed it lacked the
colour in force plays its +4 legally, and one that did not may just hold none of it. Contesting
on a guess would lose 6 cards each time the +4 was fair.

Out of turn (or first on its turn): "Carte !" when due, and a catch of a seat that forgot it
(announcements are public: a catch is never a guess).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tablee.engine import Action, Event, Game
from tablee.games.contrecarte.rules import (
    COLOR,
    COLORS,
    DECK,
    DRAWN,
    FACE,
    PLAY,
    WILD,
    WILD4,
    WILDS,
    ContrecarteState,
    seal,
)

from .search import Stop


class Budget(Protocol):
    """What the policy reads of ``levels.Budget`` (not imported: ``levels`` imports this)."""

    @property
    def worlds(self) -> int: ...


#: worlds per decision for each world of the budget: a play-out is a few tenths of a
#: millisecond, and a win or a loss is a noisy measure
WORLDS_PER_BUDGET = 12
#: how many standard errors a move's gain over the table's own must clear: most moves change
#: the odds by a few hundredths, less than the noise of a few dozen worlds
MARGIN = 1.0
#: a play-out is cut after this many moves and scored by ``odds``: the win itself, many moves
#: away, is mostly the luck of the draws, and a shorter look is both cheaper and less noisy
HORIZON = 40
#: the search is for the end of the game: while every hand holds more than this, the
#: moves' odds differ by less than the worlds can tell
CLOSE = 3
#: fitted (maximum likelihood) on 21,000 positions of 1,500 games of the table's move at 4
CARD_WEIGHT = 0.3
TURN_WEIGHT = 0.2


@dataclass
class Lacks:
    """What one seat showed it lacked: ``hard`` for its whole hand, ``soft`` for all of it but
    ``free`` cards (drawn since it showed it)."""

    hard: set[str] = field(default_factory=set)
    soft: set[str] = field(default_factory=set)
    free: int = 0

    def drew(self, count: int) -> None:
        self.soft |= self.hard
        self.hard = set()
        self.free += count

    def empty(self) -> bool:
        return not self.hard and not self.soft


@dataclass(frozen=True)
class Knowledge:
    seat: int
    #: the pile under and with its top, bottom first; None for a card the seat never saw named
    pile: tuple[str | None, ...]
    #: the cards whose place the seat does not know, in the deck's order
    unseen: tuple[str, ...]
    lacks: Mapping[int, Lacks]


def _not_fitting(color: str, top: str) -> set[str]:
    """The cards that fit on ``top`` with ``color`` in force: what a seat that drew lacked."""
    face = FACE[top]
    return {c for c in DECK if c in WILDS or COLOR[c] == color or FACE[c] == face}


def read(view: Mapping[str, Any], events: Sequence[Event]) -> Knowledge | None:
    """What the seat of ``view`` knows, or None when the events do not tell the pile the view
    counts (events missing)."""
    seat = view.get("seat")
    hand = view.get("hand")
    if seat is None or hand is None:
        return None
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "deal_end":
            start = i + 1
            break
    played = any(e.get("type") == "play" for e in events[start:])
    top: str | None = None if played else str(view["top"])
    pile: list[str | None] = [top]
    color: str | None = None if top is None else COLOR[top]
    lacks: dict[int, Lacks] = {}
    for e in events[start:]:
        kind = e.get("type")
        who = e.get("seat")
        if kind == "play":
            card = str(e["card"])
            if top is not None and color is not None and who != seat and card in WILDS:
                shown = {c for c in _not_fitting(color, top) if c not in WILDS}
                if card == WILD4:
                    shown.add(WILD)
                lacks.setdefault(int(who), Lacks()).hard |= shown  # type: ignore[arg-type]
            pile.append(card)
            top = card
            color = str(e["color"]) if card in WILDS else COLOR[card]
        elif kind == "draw" and "cards" not in e:
            if who == seat or who is None:
                continue
            got = int(e["count"])
            seat_lacks = lacks.setdefault(int(who), Lacks())
            seat_lacks.drew(got)
            if e.get("reason") == "turn" and top is not None and color is not None:
                # it drew rather than play: it held nothing that fitted (nor, unless it plays
                # it next, does the card it drew: a pass tells otherwise, see below)
                seat_lacks.hard |= _not_fitting(color, top)
        elif kind == "pass" and who != seat and who is not None:
            # the card it drew fitted and it kept it: one card of its hand may be anything
            lacks.setdefault(int(who), Lacks()).drew(1)
        elif kind == "reshuffle":
            pile = pile[-1:]
    if len(pile) != view["discard"] or (pile[-1] is not None and pile[-1] != view["top"]):
        return None
    if pile[-1] is None:
        pile[-1] = str(view["top"])
    unseen = list(DECK)
    for c in (*hand, *(c for c in pile if c is not None)):
        try:
            unseen.remove(c)
        except ValueError:
            return None
    hidden = sum(view["counts"][s] for s in range(view["players"]) if s != seat)
    if len(unseen) != hidden + view["stock"] + pile.count(None):
        return None
    return Knowledge(int(seat), tuple(pile), tuple(unseen), lacks)


def world(view: Mapping[str, Any], know: Knowledge, rng: random.Random) -> ContrecarteState:
    """A full state agreeing with ``know``: the unseen cards dealt at random, the seats that
    showed they lacked cards dealt first and kept from them while the unseen cards allow."""
    pool = list(know.unseen)
    rng.shuffle(pool)
    n = view["players"]
    counts = view["counts"]
    hands: list[tuple[str, ...]] = [()] * n
    hands[know.seat] = tuple(view["hand"])
    order = sorted(
        (s for s in range(n) if s != know.seat),
        key=lambda s: -len(know.lacks[s].hard) if s in know.lacks else 0,
    )
    for s in order:
        size = counts[s]
        lacks = know.lacks.get(s)
        if lacks is None or lacks.empty():
            hands[s] = tuple(pool[:size])
            del pool[:size]
            continue
        taken: list[str] = []
        rest: list[str] = []
        free = max(0, lacks.free)
        for c in pool:
            if len(taken) < size and c not in lacks.hard and (c not in lacks.soft or free > 0):
                if c in lacks.soft:
                    free -= 1
                taken.append(c)
            else:
                rest.append(c)
        # the seat's reading of the others may be wrong (a person holds back a card): the
        # hand is then completed with whatever is left
        while len(taken) < size:
            taken.append(rest.pop())
        hands[s] = tuple(taken)
        pool = rest
    unnamed = know.pile.count(None)
    bottom = pool[:unnamed]
    del pool[:unnamed]
    pile = [c if c is not None else bottom.pop() for c in know.pile]
    drawn = view["drawn"]
    return seal(
        {
            "players": n,
            "seed": rng.getrandbits(32),
            "dealer": view["dealer"],
            "hands": tuple(hands),
            "stock": tuple(pool),
            "discard": tuple(pile),
            "color": view["color"],
            "direction": view["direction"],
            "turn": view["turn"],
            "phase": DRAWN if drawn is not None else PLAY,
            "drawn": drawn,
            "poser": None,
            "plus4_legal": False,
            "announced": tuple(s in view["announced"] and counts[s] == 1 for s in range(n)),
            "reshuffles": 0,
            "winner": None,
        }
    )


def candidates(legal: Sequence[Action]) -> list[Action]:
    """The moves of the turn worth weighing: plays (with "Carte !" when it may be said: never
    worth keeping back), the draw, the pass."""
    out: list[Action] = []
    said = {(a.get("card"), a.get("color")) for a in legal if a.get("announce")}
    for a in legal:
        kind = a["type"]
        if kind == "play":
            if a.get("announce") or (a.get("card"), a.get("color")) not in said:
                out.append(a)
        elif kind in ("draw", "pass"):
            out.append(a)
    return out


def play_out(game: Game, state: Any, events: Sequence[Event], seat: int) -> float:
    """``seat``'s chance to win the game played on from ``state`` by the table's move: 1 or 0
    when it ends within ``HORIZON`` moves, else ``odds`` on the hands as they lie."""
    auto = game.auto_action
    apply = game.apply
    for _ in range(HORIZON):
        for e in events:
            if e["type"] == "deal_end":
                return float(e["winner"] == seat)
        actor = state.turn
        state, events = apply(state, actor, auto(state, actor))
    for e in events:
        if e["type"] == "deal_end":
            return float(e["winner"] == seat)
    return odds([len(h) for h in state.hands], state.turn)[seat]


def odds(counts: Sequence[int], turn: int) -> list[float]:
    """Each seat's chance to win from its card count and whose turn it is: a logistic fit on
    games of the table's move (``exp(-CARD_WEIGHT * cards + TURN_WEIGHT * (seat is to play))``,
    normalised)."""
    weights = [
        math.exp(-CARD_WEIGHT * c + (TURN_WEIGHT if s == turn else 0.0))
        for s, c in enumerate(counts)
    ]
    total = sum(weights)
    return [w / total for w in weights]


def out_of_turn(view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
    """ "Carte !" when due, else a catch of a seat that holds one card unannounced."""
    if {"type": "announce"} in legal:
        return {"type": "announce"}
    for a in legal:
        if a["type"] == "catch" and a["target"] not in view["announced"]:
            return a
    return None


#: which of the direct rules are on (see ``ruled``); dropped after measuring (no gain): a number
#: card rather than an action card while the next seat is not low, a joker played to change to
#: a colour the next seat lacks, colours it lacked before drawing once more counted as lacked
RULES = {"threat": True, "starve": True, "joker_color": True}
#: the next seat is "low" from this many cards down: it may go out on its next turns
LOW = 2
_BY_COLOR = {col: frozenset(c for c in DECK if COLOR[c] == col) for col in COLORS}


def lacked_colors(lacks: Lacks | None) -> set[str]:
    """The colours a seat showed it holds none of (its whole hand)."""
    if lacks is None:
        return set()
    return {col for col, cards in _BY_COLOR.items() if cards <= lacks.hard}


def _held(hand: Sequence[str]) -> dict[str, int]:
    counts = {col: 0 for col in COLORS}
    for c in hand:
        if COLOR[c]:
            counts[COLOR[c]] += 1
    return counts


def _named(rest: Sequence[str], avoid: set[str]) -> str:
    """The colour a joker names: the one most held after it; ties (and a hand of jokers only)
    broken toward a colour the next seat lacks."""
    held = _held(rest)
    return max(COLORS, key=lambda col: (held[col], col in avoid))


def ruled(view: Mapping[str, Any], legal: Sequence[Action], know: Knowledge) -> Action | None:
    """A direct rule's move on the seat's turn (phase play), or None to leave it to the
    search and the table's move. ``RULES`` tells which rules are on, tried in this order:

    - ``threat``: the next seat holds ``LOW`` cards or fewer: stop it with a +2, a passe, an
      inversion (unless it hands the turn to a seat as low: at 2 players it is a passe), or a
      +4 that is legal (no card of the colour in force);
    - ``starve``: a fitting card of a colour the next seat showed it lacks (the most held of
      them): it draws, unless it holds the top card's face or a joker;
    - ``joker_color``: when only a joker fits, a W names the colour most held, ties broken
      toward one the next seat lacks (the table's move breaks them by the colours' order).
    """
    seat = know.seat
    n = view["players"]
    counts = view["counts"]
    hand: list[str] = list(view["hand"])
    step = view["direction"]
    after = (seat + step) % n
    before = (seat - step) % n
    lacked = lacked_colors(know.lacks.get(after))
    plays = [a for a in candidates(legal) if a["type"] == "play"]
    color = view["color"]

    def joker(card: str) -> Action | None:
        rest = list(hand)
        rest.remove(card)
        name = _named(rest, lacked)
        for a in plays:
            if a["card"] == card and a.get("color") == name:
                return a
        return None

    coloured = [a for a in plays if a["card"] not in WILDS]
    if RULES["threat"] and counts[after] <= LOW and len(hand) > 1:
        for face in ("+2", "S", "R"):
            for a in coloured:
                if FACE[a["card"]] != face:
                    continue
                if face == "R" and n > 2 and counts[before] <= LOW:
                    continue
                return a
        if WILD4 in hand and all(COLOR[c] != color for c in hand):
            return joker(WILD4)
    if RULES["starve"] and lacked:
        switch = [a for a in coloured if COLOR[a["card"]] in lacked]
        if switch:
            held = _held(hand)
            return max(switch, key=lambda a: held[COLOR[a["card"]]])
    if RULES["joker_color"] and not coloured and WILD in hand:
        return joker(WILD)
    return None


def decide(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    events: Sequence[Event],
    rng: random.Random,
    budget: Budget,
    stop: Stop | None = None,
) -> Action | None:
    """The confirmé's move (``levels.Policy``), or None to play as the débutant."""
    seat = view.get("seat")
    urgent = out_of_turn(view, legal)
    if urgent is not None:
        return urgent
    if seat is None or view.get("turn") != seat or view.get("pending") is not None:
        # the contest window: accept, as the débutant does (see the module's docstring)
        return None
    moves = candidates(legal)
    if len(moves) < 2:
        return None
    know = read(view, events)
    if know is None:
        return None
    if view.get("drawn") is None:
        move = ruled(view, legal, know)
        if move is not None:
            return move
    if min(view["counts"]) > CLOSE:
        return None
    count = max(1, budget.worlds * WORLDS_PER_BUDGET)
    # each world's results, move by move: a move is weighed against the table's own on the same
    # worlds (their difference is far less noisy than either result)
    results: list[list[float]] = []
    default: Action | None = None
    for _ in range(count):
        if results and stop is not None and stop():
            break
        state = world(view, know, rng)
        if default is None:
            default = game.auto_action(state, seat)
            if default not in moves:
                return None
        row = []
        for action in moves:
            after, more = game.apply(state, seat, action)
            row.append(play_out(game, after, more, seat))
        results.append(row)
    assert default is not None
    return better(moves, results, moves.index(default))


def better(moves: Sequence[Action], results: Sequence[Sequence[float]], default: int) -> Action:
    """The move whose gain over ``default`` (results per world, per move) is the largest among
    those measured clearly above zero (``MARGIN`` standard errors); else the default."""
    worlds = len(results)
    best, best_gain = default, 0.0
    if worlds < 2:
        return moves[default]
    for i in range(len(moves)):
        if i == default:
            continue
        diffs = [row[i] - row[default] for row in results]
        mean = sum(diffs) / worlds
        var = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
        if mean > best_gain and mean > MARGIN * math.sqrt(var / worlds):
            best, best_gain = i, mean
    return moves[best]
