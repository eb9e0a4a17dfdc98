"""The "confirmé" robot at yaniv (``policy``, the confirmé's ``levels.POLICIES["yaniv"]``).

It reads the seat's view, its legal moves and the events it saw. The cards it has not seen where
they lie (``unseen``: the stock and the others' hands but their ``known`` cards) are what any
unknown card may be.

- Discard and draw are chosen together: for each group it may lay, the best draw after it (a
  card of the previous discard, or the stock at the mean over the unseen cards), a hand judged by
  its value less most of the group it can lay next turn (``hand_worth``). So it lays a high card
  to take the third of a set or the card that makes a run, and keeps a pair whose third lies on
  the discard. It never takes back a card that would tie its wholly known hand with another wholly
  known hand (the timeout move's rule: neither would ever call).
- It calls yaniv when the chance of an assaf is small and the call's expected figure positive: the
  others' unknown cards dealt at random from the unseen ones, low values likelier, as players keep
  low cards (``HELD_WEIGHTS``, measured on débutants' hands).

``YanivAdapter``: the worlds of a play-out search of the call (calling or playing on, each played
out by the débutant). Measured no better than the débutant's rule (1,998 duplicate deals, 8
worlds: -0.20 ± 0.33 points a round), it is not used; its reading of the pile (``_pile``) is.

What the seat knows of the discard: every discard and every card drawn back is public, so the
events of the round tell which cards lie in the pile (until a reshuffle puts them back in the
stock) and so cannot be in a hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from tablee.engine import Action, Event, Game
from tablee.games.yaniv.rules import discards, hand_value, sort_hand

from .knowledge import Knowledge, Place, knowledge
from .search import Adapter, Stop

ASSAF_PENALTY = 30
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
    #: the débutant's rounds last a few dozen moves; a play-out still going is cut short
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


# -- the confirmé's policy -------------------------------------------------------------------------

#: how much of the group a hand can lay next turn counts against its value: a hand is judged by
#: what it will hold once that group is laid, and a little by what it holds now (a yaniv may
#: end the round before its next turn)
SHED_WEIGHT = 0.8
#: the largest chance of an assaf the confirmé calls into
CALL_RISK = 0.2
#: hands sampled to weigh that chance
CALL_SAMPLES = 64


def _best_group(hand: tuple[str, ...]) -> int:
    if not hand:
        return 0
    return max(hand_value(g) for _, g in discards(sort_hand(hand)))


def hand_worth(hand: Sequence[str]) -> float:
    """Lower is better: the hand's value less most of the group it can lay next."""
    cards = tuple(hand)
    return hand_value(cards) - SHED_WEIGHT * _best_group(cards)


def unseen(view: Mapping[str, Any], events: Sequence[Event]) -> list[str]:
    """The cards the seat has not seen where they lie: the stock and the others' hands but their
    known cards (and, when the round's events are missing, the pile's), in deck order."""
    seen = {*view["hand"], *view["discard"]["cards"]}
    if view.get("laid"):
        seen.update(view["laid"]["cards"])
    for cards in view["known"]:
        seen.update(cards)
    tracked = _pile(events)
    if tracked is not None:
        seen.update(tracked[0])
    return [c for c in DECK if c not in seen]


def _draw_worth(rest: Sequence[str], card: str | None, pool: Sequence[str]) -> float:
    """The hand's worth after drawing ``card`` from the discard, or (None) the stock's mean."""
    if card is not None:
        return hand_worth([*rest, card])
    return sum(hand_worth([*rest, c]) for c in pool) / len(pool)


def best_draw(
    rest: Sequence[str], options: Sequence[str], pool: Sequence[str]
) -> tuple[float, str | None]:
    """The draw leaving the best hand: a card of ``options`` or (None) the stock; its worth."""
    best: tuple[float, str | None] = (_draw_worth(rest, None, pool), None)
    for card in options:
        worth = _draw_worth(rest, card, pool)
        if worth < best[0]:
            best = (worth, card)
    return best


#: how much likelier a card of each value (0 to 10) is in another hand, unseen, than in the
#: stock: players keep low cards and lay high ones; a joker is usually seen taken. Measured over
#: 150 matches of débutants (hands of 4 cards or fewer)
HELD_WEIGHTS = (0.3, 2.2, 2.0, 1.6, 1.5, 1.1, 1.0, 0.8, 0.7, 0.6, 0.45)
#: the call's expected figure (the others' mean points minus the seat's) it must reach
CALL_GAIN = 0.0


def call_outlook(
    view: Mapping[str, Any], pool: Sequence[str], rng: random.Random, samples: int
) -> tuple[float, float]:
    """The chance of an assaf if the seat calls now, and the call's expected figure (the others'
    mean points minus the seat's), the others' unknown cards drawn from the unseen ones, low
    values likelier (``HELD_WEIGHTS``)."""
    seat, mine = view["seat"], int(view["hand_value"])
    others = []
    for s, count in enumerate(view["counts"]):
        if s != seat:
            known = view["known"][s]
            others.append((sum(card_value(c) for c in known), count - len(known)))
    values = [card_value(c) for c in pool]
    weights = [HELD_WEIGHTS[v] for v in values]
    unknown = sum(u for _, u in others)
    assafs = 0
    total = 0.0
    for _ in range(samples):
        dealt = rng.choices(values, weights, k=unknown) if unknown else []
        at = 0
        hands = []
        for base, u in others:
            hands.append(base + sum(dealt[at : at + u]))
            at += u
        if min(hands) <= mine:
            assafs += 1
            total += sum(h for h in hands if h > mine) / len(hands) - (mine + ASSAF_PENALTY)
        else:
            total += sum(hands) / len(hands)
    return assafs / samples, total / samples


def _takeable(view: Mapping[str, Any], rest: Sequence[str], options: Sequence[str]) -> list[str]:
    """The cards of ``options`` the seat would take back: not one leaving its hand wholly known
    and worth exactly a wholly known hand's value (the timeout move's rule: each would see a sure
    assaf in the other and never call; two one-card hands of a joker would go round for ever)."""
    seat = view["seat"]
    if any(c not in view["known"][seat] for c in rest):
        return list(options)
    base = sum(card_value(c) for c in rest)
    wholly = {
        sum(card_value(c) for c in known)
        for s, known in enumerate(view["known"])
        if s != seat and len(known) == view["counts"][s]
    }
    return [c for c in options if base + card_value(c) not in wholly]


def policy(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    events: Sequence[Event],
    rng: random.Random,
    budget: Any,
    stop: Stop | None = None,
) -> Action | None:
    """The confirmé's move at yaniv (``levels.Policy``), or None to play as the débutant."""
    phase = view.get("phase")
    if view.get("seat") is None or phase not in ("turn", "draw"):
        return None
    hand = list(view["hand"])
    pool = unseen(view, events)
    if not pool:
        return None
    if phase == "draw":
        options = [a["card"] for a in legal if a["type"] == "draw" and a["from"] == "discard"]
        _, card = best_draw(hand, _takeable(view, hand, options), pool)
        if card is None:
            return {"type": "draw", "from": "stock"}
        return {"type": "draw", "from": "discard", "card": card}
    if YANIV in legal:
        risk, gain = call_outlook(view, pool, rng, CALL_SAMPLES)
        if risk <= CALL_RISK and gain >= CALL_GAIN:
            return YANIV
    options = list(view["discard"]["takeable"])
    best: tuple[float, int, int] | None = None
    choice: Action | None = None
    for action in legal:
        if action["type"] != "discard":
            continue
        group = action["cards"]
        rest = [c for c in hand if c not in group]
        worth, _ = best_draw(rest, _takeable(view, rest, options), pool)
        key = (worth, -hand_value(group), -len(group))
        if best is None or key < best:
            best, choice = key, action
    return choice
