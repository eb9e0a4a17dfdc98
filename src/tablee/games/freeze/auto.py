"""Freeze's timeout move: what the table plays for a seat out of time (and for a robot).

Keep low cards and known lines of a kind, replace known high ones, aim powers at unknown cards,
freeze when the hand looks low enough; never speed (a wrong guess costs a card).
"""

from __future__ import annotations

from tablee.engine import Action

from .rules import (
    FreezeState,
    Phase,
    can_draw,
    knows,
    line_points,
    positions,
    swap_action,
    targets,
    value,
)

#: what an unknown card is worth on average
_UNKNOWN_VALUE = 6


def auto_action(state: FreezeState, seat: int) -> Action:
    """Keep low cards and known lines of a kind, replace known high ones, aim powers at
    unknown cards, freeze when the hand looks low enough; never speed (a wrong guess costs a
    card)."""
    ph = state.phase
    if ph is Phase.SHOWN:
        return {"type": "deal"}
    lay = state.layouts[seat]
    own = list(positions(lay))
    mine = [(lay[li][sl], li, sl) for li, sl in own]
    # a known line of a kind counts 0: replacing or swapping away one of its cards only adds
    # (the ranks are read only once every card of the line is known to the seat)
    zero = {
        li
        for li, row in enumerate(lay)
        if len(row) >= 2
        and all(knows(state.known[c], seat) for c in row)
        and len({c[0] for c in row}) == 1
    }
    known = [
        (value(c), li, sl) for c, li, sl in mine if knows(state.known[c], seat) and li not in zero
    ]
    unknown = [(li, sl) for c, li, sl in mine if not knows(state.known[c], seat)]
    # the top line first: the bottom line was seen at the deal
    unknown.sort()
    high = max(known, default=None)
    if ph is Phase.TURN:
        return _auto_turn(state, seat, high, unknown)
    if ph is Phase.DRAWN:
        assert state.drawn is not None
        v = value(state.drawn)
        if high is not None and v < high[0]:
            return {"type": "replace", "line": high[1], "slot": high[2]}
        if unknown and v <= 3:
            return {"type": "replace", "line": unknown[0][0], "slot": unknown[0][1]}
        return {"type": "discard"}
    if ph is Phase.PEEK:
        if unknown:
            return {"type": "peek", "line": unknown[0][0], "slot": unknown[0][1]}
        return {"type": "pass"}
    if ph in (Phase.SPY, Phase.KING_LOOK):
        for t, li, sl in targets(state, seat):
            if not knows(state.known[state.layouts[t][li][sl]], seat):
                return {"type": "spy", "target": t, "line": li, "slot": sl}
        return {"type": "pass"}
    if ph is Phase.SWAP:
        if high is None:
            return {"type": "pass"}
        best = None
        blind = None
        for t, li, sl in targets(state, seat):
            c = state.layouts[t][li][sl]
            if knows(state.known[c], seat):
                if best is None or value(c) < best[0]:
                    best = (value(c), t, li, sl)
            elif blind is None:
                blind = (t, li, sl)
        if best is not None and best[0] < high[0]:
            return swap_action(high[1], high[2], *best[1:])
        if blind is not None and high[0] > _UNKNOWN_VALUE + 1:
            return swap_action(high[1], high[2], *blind)
        return {"type": "pass"}
    if ph is Phase.KING_SWAP and state.look is not None:
        t, tl, ts = state.look
        v = value(state.layouts[t][tl][ts])
        if high is not None and v < high[0]:
            return swap_action(high[1], high[2], t, tl, ts)
        if unknown and v <= 3:
            return swap_action(unknown[0][0], unknown[0][1], t, tl, ts)
        return {"type": "pass"}
    return {"type": "pass"}


def _auto_turn(
    state: FreezeState,
    seat: int,
    high: tuple[int, int, int] | None,
    unknown: list[tuple[int, int]],
) -> Action:
    lay = state.layouts[seat]
    n = state.players
    estimate = 0
    for row in lay:
        if all(knows(state.known[c], seat) for c in row):
            estimate += line_points(row)
        else:
            estimate += sum(
                value(c) if knows(state.known[c], seat) else _UNKNOWN_VALUE for c in row
            )
    if state.frozen is None and (
        estimate <= 7 or (state.turns >= 6 * n and estimate <= 15) or state.turns >= 12 * n
    ):
        return {"type": "freeze"}
    if state.discard and (high is not None or unknown):
        tv = value(state.discard[-1])
        if high is not None and tv <= 2 and tv < high[0]:
            return {"type": "take", "line": high[1], "slot": high[2]}
        if tv <= 2 and unknown:
            return {"type": "take", "line": unknown[0][0], "slot": unknown[0][1]}
        if high is not None and tv + 4 < high[0]:
            return {"type": "take", "line": high[1], "slot": high[2]}
    if can_draw(state):
        return {"type": "draw"}
    if state.frozen is None:
        return {"type": "freeze"}
    if state.discard and (high is not None or unknown):
        li, sl = (high[1], high[2]) if high is not None else unknown[0]
        return {"type": "take", "line": li, "slot": sl}
    return {"type": "pass"}
