"""How a freeze turn and round end: the next turn, the penalty card, the stock refilled from the
discard, the round scored, the next one dealt. The spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Sequence

from tablee.cards import shuffled
from tablee.engine import Event
from tablee.engine.state import evolve
from tablee.games._breakdown import Line, breakdown, line, one

from .rules import (
    CLOSED,
    DECK,
    FreezeState,
    Layout,
    Phase,
    can_draw,
    deal,
    layout_points,
    line_points,
    round_scores,
    set_layout,
)


def penalty(state: FreezeState, seat: int, events: list[Event]) -> FreezeState:
    if not can_draw(state):
        return state
    stock, discard, reshuffles = refill(state, seat, events)
    lay = state.layouts[seat]
    line = 1 if len(lay[1]) < len(lay[0]) else 0
    row = (*lay[line], stock[0])
    new_lay = (row, lay[1]) if line == 0 else (lay[0], row)
    events.append({"type": "penalty", "seat": seat, "line": line})
    return evolve(
        state,
        layouts=set_layout(state.layouts, seat, new_lay),
        known={**state.known, stock[0]: 0},
        stock=stock[1:],
        discard=discard,
        reshuffles=reshuffles,
    )


def refill(
    state: FreezeState, seat: int, events: list[Event]
) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """The stock, after shuffling the discard but its top into it when it is empty."""
    if state.stock:
        return state.stock, state.discard, state.reshuffles
    k = state.reshuffles + 1
    stock = tuple(shuffled(state.discard[:-1], state.seed, "reshuffle", state.round, k))
    events.append({"type": "reshuffle", "seat": seat, "count": len(stock)})
    return stock, state.discard[-1:], k


def end_turn(
    state: FreezeState, events: list[Event], window: int
) -> tuple[FreezeState, list[Event]]:
    nxt = (state.turn + 1) % state.players
    if nxt == state.frozen:
        return end_round(state, events)
    new = evolve(
        state,
        phase=Phase.TURN,
        turn=nxt,
        drawn=None,
        look=None,
        speed=window,
        turns=state.turns + 1,
    )
    return new, events


def freeze_lines(layouts: Sequence[Layout], freezer: int) -> list[Line]:
    """``round_scores`` line by line: each line of cards (``row`` 1, 2) at its points (a line of
    one rank counts 0: ``same``), then the freezer's bet: strictly lowest, their points become
    -10 (``freeze_won``); else 5 per other player at or below them (``freeze_lost``, ``count``)."""
    n = len(layouts)
    out: list[Line] = []
    for row in range(max(len(lay) for lay in layouts)):
        cards = [lay[row] if row < len(lay) else () for lay in layouts]
        out.append(
            line(
                "row",
                [line_points(c) for c in cards],
                row=row + 1,
                same=[len(c) >= 2 and all(x[0] == c[0][0] for x in c) for c in cards],
            )
        )
    points = [layout_points(lay) for lay in layouts]
    mine = points[freezer]
    at_or_below = sum(1 for s, p in enumerate(points) if s != freezer and p <= mine)
    if at_or_below == 0:
        out.append(line("freeze_won", one(n, freezer, -10 - mine)))
    else:
        out.append(line("freeze_lost", one(n, freezer, 5 * at_or_below), count=at_or_below))
    return out


def end_round(state: FreezeState, events: list[Event]) -> tuple[FreezeState, list[Event]]:
    freezer = state.frozen
    assert freezer is not None
    points = [layout_points(lay) for lay in state.layouts]
    scored = round_scores(points, freezer)
    totals = tuple(a + b for a, b in zip(state.scores, scored, strict=True))
    last = state.round >= state.rounds
    events.append(
        {
            "type": "deal_end",
            "seat": freezer,
            "round": state.round,
            "layouts": [[list(row) for row in lay] for lay in state.layouts],
            "points": points,
            "scores": scored,
            "totals": list(totals),
            "breakdown": breakdown("seat", state.players, freeze_lines(state.layouts, freezer)),
        }
    )
    new = evolve(
        state,
        phase=Phase.OVER if last else Phase.SHOWN,
        drawn=None,
        look=None,
        speed=CLOSED,
        scores=totals,
        history=(*state.history, tuple(scored)),
        points=tuple(points),
    )
    return new, events


def next_round(state: FreezeState) -> tuple[FreezeState, list[Event]]:
    n = state.players
    dealer = (state.dealer + 1) % n
    number = state.round + 1
    layouts, known, stock = deal(n, shuffled(DECK, state.seed, "deal", number), dealer)
    new = evolve(
        state,
        round=number,
        dealer=dealer,
        phase=Phase.TURN,
        turn=(dealer + 1) % n,
        layouts=layouts,
        known=known,
        stock=stock,
        discard=(),
        drawn=None,
        look=None,
        frozen=None,
        speed=CLOSED,
        turns=0,
        reshuffles=0,
    )
    events: list[Event] = [{"type": "deal", "seat": dealer, "round": number}]
    events += [
        {"type": "see", "seat": s, "cards": list(layouts[s][1]), "to": [s]} for s in range(n)
    ]
    return new, events
