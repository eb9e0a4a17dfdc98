"""The annonces of belote and contrée (option ``annonces``; ``DECISIONS.md``, "Variants").

Sequences of one suit in the natural order A K Q J T 9 8 7: tierce (3 cards) 20, cinquante (4) 50,
cent (5 or more) 100. Carrés: of jacks 200, of nines 150, of aces, tens, kings or queens 100 (no
carré of 8s or 7s). A card may be in one carré and one sequence; a run counts once, whole.

Each seat announces (or not) on its first turn to play, before its first card: ``{"type":
"announce", "kinds": [...]}`` names the kinds of every announcement its hand holds ("tierce",
"carre_J"), and that is public; playing a card without it is passing. At the end of the first
trick, the best announcement is found (a carré beats a sequence; carrés by value, then A T K Q; a
longer sequence beats a shorter; same length: the higher top card; equal: the trump sequence;
still equal: the first announced); its side shows all its announcements (their cards become
public) and scores them all; the other side scores none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.cards import SUITS
from tablee.engine import Event, IllegalAction
from tablee.engine.state import evolve

from .rules import PLAYERS, Announce, BeloteState, Variants, team_of

#: the natural order, highest first, in which sequences run
NATURAL = "AKQJT987"
SEQUENCE_POINTS = {3: 20, 4: 50}
CENT = 100
CARRE_POINTS = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
#: carrés of equal value, strongest first (the plain order of the cards)
CARRE_ORDER = "J9ATKQ"


def sequence_kind(length: int) -> str:
    return "tierce" if length == 3 else "cinquante" if length == 4 else "cent"


def find(hand: Sequence[str], seat: int) -> tuple[Announce, ...]:
    """Every announcement ``hand`` holds: its carrés, then its runs of 3 or more, by suit."""
    held = set(hand)
    out: list[Announce] = []
    for rank in CARRE_ORDER:
        cards = tuple(rank + s for s in SUITS)
        if held.issuperset(cards):
            out.append(Announce(seat, f"carre_{rank}", cards, CARRE_POINTS[rank]))
    for suit in SUITS:
        run: list[str] = []
        for rank in (*NATURAL, None):
            if rank is not None and rank + suit in held:
                run.append(rank + suit)
                continue
            if len(run) >= 3:
                points = SEQUENCE_POINTS.get(len(run), CENT)
                out.append(Announce(seat, sequence_kind(len(run)), tuple(run), points))
            run = []
    return tuple(out)


def strength(a: Announce, trump: str, order: Sequence[int]) -> tuple[int, ...]:
    """The key the best announcement has the highest of."""
    first = -order.index(a.seat)
    if a.kind.startswith("carre_"):
        return (1, a.points, -CARRE_ORDER.index(a.kind[-1]), 0, first)
    top = -NATURAL.index(a.cards[0][0])
    return (0, len(a.cards), top, int(a.cards[0][1] == trump), first)


def may_announce(state: BeloteState, seat: int) -> tuple[str, ...] | None:
    """The kinds ``seat`` may announce now (its first card still to play, on its turn), if any."""
    v = state.variants
    if v is None or not v.annonces or state.tricks or seat != state.turn:
        return None
    if seat in v.order:
        return None
    kinds = tuple(a.kind for a in find(state.hands[seat], seat))
    return kinds or None


def announce(
    game: Any, state: BeloteState, seat: int, action: dict[str, Any]
) -> tuple[BeloteState, list[Event]]:
    """The ``announce`` move: the seat's announcements noted (their kinds said aloud)."""
    kinds = may_announce(state, seat)
    if kinds is None:
        raise IllegalAction("you announce only with your first card, and only what you hold")
    if action.get("kinds") != list(kinds):
        raise IllegalAction(f"your hand holds: {', '.join(kinds)}", "bad_action")
    v = state.variants
    assert v is not None
    declared = list(v.declared)
    declared[seat] = find(state.hands[seat], seat)
    variants = evolve(v, declared=tuple(declared), order=(*v.order, seat))
    return evolve(state, variants=variants), [
        {"type": "announce", "seat": seat, "kinds": list(kinds)}
    ]


def show(state: BeloteState, events: list[Event]) -> BeloteState:
    """The end of the first trick: the side with the best announcement shows and scores all its
    announcements (an event says what they are)."""
    v = state.variants
    if v is None or not v.order:
        return state
    assert state.contract is not None
    trump = state.contract.trump
    every = [a for seat in v.order for a in v.declared[seat]]
    best = max(every, key=lambda a: strength(a, trump, v.order))
    team = team_of(best.seat)
    shown = [a for a in every if team_of(a.seat) == team]
    events.append(
        {
            "type": "annonces_shown",
            "seat": best.seat,
            "team": team,
            "annonces": [announce_view(a) for a in shown],
            "points": sum(a.points for a in shown),
        }
    )
    return evolve(state, variants=evolve(v, team=team))


def shown(v: Variants) -> list[Announce]:
    """The announcements shown (none before the end of the first trick)."""
    if v.team is None:
        return []
    return [a for seat in v.order if team_of(seat) == v.team for a in v.declared[seat]]


def points(v: Variants) -> list[int]:
    """What each team's shown announcements score."""
    out = [0, 0]
    if v.team is not None:
        out[v.team] = sum(a.points for a in shown(v))
    return out


def fresh(v: Variants | None) -> Variants | None:
    """The variants of a new deal: nothing announced yet."""
    if v is None or not v.annonces:
        return v
    return evolve(v, declared=((),) * PLAYERS, order=(), team=None)


def announce_view(a: Announce) -> dict[str, Any]:
    return {"seat": a.seat, "kind": a.kind, "cards": list(a.cards), "points": a.points}


def view(v: Variants) -> dict[str, Any]:
    """What everybody sees: who announced what kinds, in order; once shown, the cards."""
    return {
        "declared": [{"seat": s, "kinds": [a.kind for a in v.declared[s]]} for s in v.order],
        "team": v.team,
        "shown": [announce_view(a) for a in shown(v)],
        "points": points(v),
    }
