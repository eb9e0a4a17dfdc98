"""What a seat knows of the cards it cannot see, and deals of them that agree with it.

A search robot never reads a state: it reads the seat's ``view`` and the events the seat saw
(``visible_events``), and from them builds a :class:`Knowledge`: the cards whose place it does not
know (``unseen``), the places they may lie in (other hands, a stock, a chien, an écart) with how
many each holds, the cards it knows to lie in a place it cannot see (the turned card in the
taker's hand, the second card of an announced belote, a tarot poignée), and the cards each place
cannot hold (a seat that did not follow a suit holds none of it). :func:`sample` then deals the
unseen cards to the places, at random from a seeded ``random.Random``, so that every constraint
holds and every place gets exactly its size.

Places are seat numbers (another seat's hand) or names of piles (``"stock"``, ``"chien"``,
``"ecart"``, ``"turned"``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Place = int | str
Play = tuple[int, str]


@dataclass(frozen=True)
class PastTrick:
    """A finished trick of the current deal, as the events told it: plays in order, winner."""

    plays: tuple[Play, ...]
    winner: int

    @property
    def leader(self) -> int:
        return self.plays[0][0]

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(c for _, c in self.plays)


@dataclass(frozen=True)
class History:
    """The current deal as the seat saw it: finished tricks, the trick on the table, and every
    event since the deal began."""

    tricks: tuple[PastTrick, ...]
    trick: tuple[Play, ...]
    events: tuple[dict[str, Any], ...]

    def played(self) -> list[str]:
        out = [c for t in self.tricks for c in t.cards]
        out += [c for _, c in self.trick]
        return out

    def played_by(self, seat: int) -> list[str]:
        out = [c for t in self.tricks for s, c in t.plays if s == seat]
        out += [c for s, c in self.trick if s == seat]
        return out

    def all_plays(self) -> list[tuple[int, tuple[Play, ...], int, str]]:
        """Every play of the deal with what lay on the table before it:
        ``(trick index, plays before it in that trick, seat, card)``."""
        out = []
        for i, t in enumerate((*self.tricks, PastTrick(self.trick, -1))):
            for j, (seat, card) in enumerate(t.plays):
                out.append((i, t.plays[:j], seat, card))
        return out


def deal_history(view: Mapping[str, Any], events: Sequence[dict[str, Any]]) -> History | None:
    """The current deal's plays from ``events`` (everything the seat saw since the deal began, or
    more: the last ``deal`` event starts the deal; without one, the events start with the game),
    checked against the view: the same trick on the table, as many finished tricks as the view
    counts. None when they disagree (events missing): the robot then knows too little to search."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "deal":
            start = i + 1
            break
    tricks: list[PastTrick] = []
    current: list[Play] = []
    for e in events[start:]:
        kind = e.get("type")
        if kind == "play":
            current.append((int(e["seat"]), str(e["card"])))
        elif kind == "trick":
            if not current:
                return None
            tricks.append(PastTrick(tuple(current), int(e["seat"])))
            current = []
    on_table = [(int(p["seat"]), str(p["card"])) for p in view.get("trick") or ()]
    if current != on_table or len(tricks) != sum(view.get("tricks_won") or ()):
        return None
    return History(tuple(tricks), tuple(current), tuple(events[start:]))


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows of the cards it cannot see (see the module docstring)."""

    seat: int
    #: the cards to deal, sorted (never the seat's own, a played card or a known one)
    unseen: tuple[str, ...]
    #: how many of ``unseen`` each place gets
    sizes: Mapping[Place, int]
    #: cards known to lie in a place the seat cannot see
    known: Mapping[Place, tuple[str, ...]] = field(default_factory=dict)
    #: cards a place cannot hold
    excluded: Mapping[Place, frozenset[str]] = field(default_factory=dict)
    history: History | None = None


def exclude(out: dict[Place, set[str]], place: Place, cards: Iterable[str]) -> None:
    out.setdefault(place, set()).update(cards)


def knowledge(
    seat: int,
    deck: Iterable[str],
    mine: Iterable[str],
    gone: Iterable[str],
    sizes: Mapping[Place, int],
    known: Mapping[Place, Iterable[str]] | None = None,
    excluded: Mapping[Place, Iterable[str]] | None = None,
    history: History | None = None,
) -> Knowledge | None:
    """A checked :class:`Knowledge`: ``sizes`` are the places' whole sizes (known cards
    included); ``gone``: cards out of play (played, shown on the table). None when the counts do
    not add up (an inconsistent view or history)."""
    known_t = {p: tuple(sorted(set(cs))) for p, cs in (known or {}).items() if cs}
    placed = {c for cs in known_t.values() for c in cs}
    mine, gone = set(mine), set(gone)
    taken = mine | gone
    if placed & taken or mine & gone:
        return None
    unseen = tuple(sorted(set(deck) - taken - placed))
    rest = {p: n - len(known_t.get(p, ())) for p, n in sizes.items()}
    if any(n < 0 for n in rest.values()) or sum(rest.values()) != len(unseen):
        return None
    if any(p not in rest for p in known_t):
        return None
    excl = {p: frozenset(cs) & frozenset(unseen) for p, cs in (excluded or {}).items()}
    return Knowledge(seat, unseen, rest, known_t, excl, history)


def _order(places: Iterable[Place]) -> list[Place]:
    return sorted(places, key=lambda p: (isinstance(p, str), str(p)))


def sample(know: Knowledge, rng: random.Random, tries: int = 12) -> dict[Place, list[str]] | None:
    """A deal of the unseen cards to the places (known cards included) that keeps every
    constraint, drawn from ``rng``; None when no deal can (the knowledge contradicts itself).

    Cards go out most constrained first, each to a place drawn in proportion to the room left in
    the places it may go to; a rare dead end starts over, and after ``tries`` dead ends a
    matching (augmenting paths, in a random order) finds a deal if there is one."""
    places = _order(p for p, n in know.sizes.items() if n > 0)
    cards = list(know.unseen)
    allowed = {c: [p for p in places if c not in know.excluded.get(p, ())] for c in cards}
    for _ in range(tries):
        room = {p: know.sizes[p] for p in places}
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        out: dict[Place, list[str]] = {p: [] for p in places}
        for card in order:
            opts = [p for p in allowed[card] if room[p] > 0]
            if not opts:
                break
            total = sum(room[p] for p in opts)
            pick = rng.randrange(total)
            for p in opts:
                pick -= room[p]
                if pick < 0:
                    break
            out[p].append(card)
            room[p] -= 1
        else:
            return _with_known(know, out)
    matched = _matching(cards, allowed, {p: know.sizes[p] for p in places}, rng)
    return None if matched is None else _with_known(know, matched)


def _with_known(know: Knowledge, out: dict[Place, list[str]]) -> dict[Place, list[str]]:
    for p, cs in know.known.items():
        out.setdefault(p, []).extend(cs)
    return out


def _matching(
    cards: list[str], allowed: dict[str, list[Place]], room: dict[Place, int], rng: random.Random
) -> dict[Place, list[str]] | None:
    slots: list[Place] = [p for p in _order(room) for _ in range(room[p])]
    by_place: dict[Place, list[int]] = {}
    for i, p in enumerate(slots):
        by_place.setdefault(p, []).append(i)
    holder: list[str | None] = [None] * len(slots)
    order = cards[:]
    rng.shuffle(order)

    def place(card: str, seen: set[int]) -> bool:
        options = [i for p in allowed[card] for i in by_place.get(p, ())]
        rng.shuffle(options)
        for i in options:
            if i in seen:
                continue
            seen.add(i)
            other = holder[i]
            if other is None or place(other, seen):
                holder[i] = card
                return True
        return False

    for card in order:
        if not place(card, set()):
            return None
    out: dict[Place, list[str]] = {p: [] for p in room}
    for i, held in enumerate(holder):
        assert held is not None
        out[slots[i]].append(held)
    return out
