"""The "confirmé" robot at yaniv: the call decided by play-outs on what the seat knows.

When the seat may call yaniv, it weighs calling against playing on (the débutant's discard, the
most points laid), over worlds of the hidden cards: the other hands (their cards taken from the
discard are public: ``known``), the stock, and the cards of the pile the events did not tell (the
first round's turned card). Calling is scored at once by the round's count; playing on is played
out to the end of the round by the débutant. The round's result for the seat is the others' mean
points minus its own. Its other moves are the débutant's.

What the seat knows of the discard: every discard and every card drawn back is public, so the
events of the round tell which cards lie in the pile (until a reshuffle puts them back in the
stock) and so cannot be in a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablee.engine import Action, Event, Game

from .knowledge import Knowledge, Place, knowledge
from .search import Adapter

DECK = (*(r + s for s in "SHDC" for r in "A23456789TJQK"), "X1", "X2")
YANIV = {"type": "yaniv"}


def card_value(card: str) -> int:
    if card in ("X1", "X2"):
        return 0
    if card[0] == "A":
        return 1
    return 10 if card[0] in "TJQK" else int(card[0])


def _pile(events: Sequence[Event]) -> tuple[list[str], int] | None:
    """The cards lying in the pile (under the top discard) by the round's events, and how many
    more lie there unnamed (the first round's turned card); None if the events do not hold the
    round (a ``show`` since its deal)."""
    start = 0
    top: list[str] | None = None
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "deal":
            start = i + 1
            top = [str(events[i]["discard"])]
            break
    pile: list[str] = []
    unnamed = 0
    laid: list[str] = []
    for e in events[start:]:
        kind = e.get("type")
        if kind == "discard":
            laid = [str(c) for c in e["cards"]]
        elif kind == "draw":
            if e.get("from") == "stock" and "card" in e:
                continue  # the seat's own twin of its stock draw: counted by the public one
            if e.get("from") == "discard":
                card = str(e["card"])
                if top is None:
                    # the first round's turned card, named when drawn back
                    top = []
                elif card in top:
                    top.remove(card)
            if top is None:
                unnamed += 1
            else:
                pile += top
            top = laid
        elif kind == "reshuffle":
            pile, unnamed = [], 0
        elif kind in ("yaniv", "deal_end"):
            return None
    return pile, unnamed


class YanivAdapter(Adapter):
    #: the débutant's rounds last a few dozen moves; but two hands of a joker each, both seen
    #: taken from the discard, pass the jokers back and forth for ever (neither calls into a
    #: sure assaf): such a play-out is cut short
    max_steps = 150

    def unfinished(self, game: Game, state: Any, seat: int) -> float:
        """The hands as they lie: the others' mean value minus the seat's."""
        hands = game.to_json(state)["hands"]
        values = [sum(card_value(c) for c in h) for h in hands]
        others = [v for s, v in enumerate(values) if s != seat]
        return float(sum(others) / len(others) - values[seat])

    def knowledge(
        self, game: Game, view: Mapping[str, Any], events: Sequence[Event]
    ) -> Knowledge | None:
        seat = view.get("seat")
        if seat is None or view.get("phase") != "turn":
            return None
        tracked = _pile(events)
        if tracked is None:
            return None
        pile, unnamed = tracked
        if len(pile) + unnamed != view["pile"]:
            return None
        n = view["players"]
        known: dict[Place, list[str]] = {s: view["known"][s] for s in range(n) if s != seat}
        sizes: dict[Place, int] = {s: view["counts"][s] for s in range(n) if s != seat}
        sizes["stock"] = view["stock"]
        if unnamed:
            sizes["pile"] = unnamed
        gone = [*pile, *view["discard"]["cards"]]
        return knowledge(seat, DECK, view["hand"], gone, sizes, known, None, None)

    def build(
        self, game: Game, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> Any:
        seat, n = know.seat, view["players"]
        tracked = _pile_of(view, know)
        data = {
            "players": n,
            "seed": 0,
            "round": view["deal"],
            "phase": "turn",
            "turn": view["turn"],
            "first": view["first"],
            "hands": [
                sorted(view["hand"] if s == seat else deal.get(s, ()), key=DECK.index)
                for s in range(n)
            ],
            "known": [list(k) for k in view["known"]],
            "stock": list(deal.get("stock", ())),
            "pile": [*tracked, *deal.get("pile", ())],
            "top": list(view["discard"]["cards"]),
            "top_kind": view["discard"]["kind"],
            "laid": [],
            "laid_kind": "",
            "scores": list(view["scores"]),
            "history": [],
            "reshuffles": 0,
        }
        return game.from_json(data)

    def utility(self, event: Event, seat: int) -> float | None:
        if event.get("type") != "deal_end":
            return None
        points = event["points"]
        others = [p for s, p in enumerate(points) if s != seat]
        return float(sum(others) / len(others) - points[seat])


def _pile_of(view: Mapping[str, Any], know: Knowledge) -> list[str]:
    """The named cards of the pile: what the knowledge rules out of every place and the view
    does not show."""
    shown = {*view["discard"]["cards"], *view["hand"]}
    placed = {*know.unseen, *(c for cs in know.known.values() for c in cs)}
    return [c for c in DECK if c not in shown and c not in placed]


def playing_on(legal: Sequence[Action]) -> Action | None:
    """The débutant's discard: the group worth the most points (more cards on a tie)."""
    groups = [a for a in legal if a["type"] == "discard"]
    if not groups:
        return None
    return max(groups, key=lambda a: (sum(card_value(c) for c in a["cards"]), len(a["cards"])))


def candidates(view: Mapping[str, Any], legal: Sequence[Action]) -> list[Action] | None:
    """Calling or playing on, when the seat may call; None otherwise (the débutant decides)."""
    if YANIV not in legal:
        return None
    on = playing_on(legal)
    return None if on is None else [YANIV, on]
