"""The "confirmé" robot's bidding at contrée: what the cards are worth in each suit, measured.

Over the worlds the seat's knowledge allows (every hand complete at contrée's bidding), each suit
is played out as trump with the seat's team taking it, and the current contract as it stands: the
team's points in each world (card points, belote, capot). A bid of ``value`` in a suit is then
worth, on average, what contrée's count gives the team for those points (made when they reach the
value; a capot bid when the team took every trick); a contre, what the count gives against the
current contract doubled. Passing is played out as it would go: the other seats bid as the
débutant does, then the deal is played. The robot makes the best of these.

It counts the score of a bid that is never outbid nor contré: the bids after it (and a contre of
it) are the other seats' choices; the play-outs of passing see them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from tablee.engine import Action, Event, Game

from .knowledge import Knowledge
from .search import Stop, default_move, play_out, same_moves
from .tricks import BeloteAdapter

TOTAL = 162
CAPOT_BID = 250
GENERALE = 500


def contree_score(team: int, takers: int, value: int, coinche: int, row: Mapping[str, Any]) -> int:
    """Contrée's count of one played deal (``row``: the ``deal_end`` event's card points, belote,
    capot), as ``team``'s score minus the other team's, had ``takers`` bid ``value`` with
    ``coinche`` (1, 2 contré, 4 surcontré)."""
    cards, belote = row["card_points"], row["belote"]
    points = [cards[i] + belote[i] for i in (0, 1)]
    defenders = 1 - takers
    made = row["capot"] == takers if value == CAPOT_BID else points[takers] >= value
    bid = value * coinche
    scores = [0, 0]
    if made:
        scores[takers] = points[takers] + bid
        scores[defenders] = points[defenders] if coinche == 1 else belote[defenders]
    else:
        scores[takers] = belote[takers]
        scores[defenders] = TOTAL + bid + belote[defenders]
    return scores[team] - scores[1 - team]


def _deal_end(game: Game, adapter: BeloteAdapter, state: Any) -> Event:
    for _ in range(200):
        seat = game.to_act(state)[0]
        state, events = game.apply(state, seat, default_move(game, adapter, state, seat))
        for e in events:
            if e.get("type") == "deal_end":
                return e
    raise AssertionError("a contrée play-out did not end")


def choose_bid(
    game: Game,
    adapter: BeloteAdapter,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    know: Knowledge,
    rng: random.Random,
    count: int,
    stop: Stop | None = None,
) -> Action | None:
    seat = know.seat
    team = seat % 2
    current = view.get("contract")
    bids = [a for a in legal if a["type"] == "bid" and a["value"] != GENERALE]
    if current is not None and int(current["taker"]) == (seat + 2) % 4:
        # the partner's suit stands: raise it or pass, never bid against the partner
        bids = [a for a in bids if a["suit"] == current["trump"]]
    suits = sorted({a["suit"] for a in bids})
    contre = {"type": "contre"} if {"type": "contre"} in legal else None
    passing = {"type": "pass"} if {"type": "pass"} in legal else None
    rows: dict[str, list[Event]] = {s: [] for s in suits}
    against: list[Event] = []
    pass_total = 0.0
    worlds = 0
    for _ in range(count):
        if worlds and stop is not None and stop():
            break
        deal = adapter.draw(view, know, rng)
        if deal is None:
            break
        state = adapter.build(game, view, know, deal)
        if not same_moves(game.legal_actions(state, seat), legal):
            continue
        worlds += 1
        if passing is not None:
            after, events = game.apply(state, seat, passing)
            pass_total += play_out(game, adapter, after, events, seat)
        for suit in suits:
            contract = {"taker": seat, "trump": suit, "value": 80, "coinche": 1}
            state = adapter.played_deal(game, view, deal, seat, contract)
            rows[suit].append(_deal_end(game, adapter, state))
        if contre is not None and current is not None:
            contract = {**current, "coinche": 2}
            against.append(
                _deal_end(game, adapter, adapter.played_deal(game, view, deal, seat, contract))
            )
    if not worlds:
        return None
    options: list[tuple[float, int, Action]] = []
    if passing is not None:
        options.append((pass_total / worlds, 0, passing))
    if contre is not None and current is not None and against:
        takers = int(current["taker"]) % 2
        value = int(current["value"])
        ev = sum(contree_score(team, takers, value, 2, r) for r in against) / len(against)
        options.append((ev, 1, contre))
    for action in bids:
        suit, value = action["suit"], int(action["value"])
        ev = sum(contree_score(team, team, value, 1, r) for r in rows[suit]) / len(rows[suit])
        options.append((ev, 2, action))
    # the best value; on a tie the quieter call (pass before contre before a bid; a lower bid)
    best = max(options, key=lambda o: (o[0], -o[1], -int(o[2].get("value", 0))))
    return best[2]
