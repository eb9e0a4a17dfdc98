"""Yaniv's timeout move: what the table plays for a seat out of time (and for a robot). The
policy is the spec's "Timeout move" section (the package's docstring)."""

from __future__ import annotations

from tablee.cards import JOKERS
from tablee.engine import Action

from .rules import VALUES, YANIV_MAX, Phase, YanivState, discards, hand_value, takeable


def auto_action(state: YanivState, seat: int) -> Action:
    """The move for ``seat``, whose turn it is."""
    if state.phase is Phase.SHOW:
        return {"type": "next"}
    hand = state.hands[seat]
    if state.phase is Phase.DRAW:
        return _auto_draw(state, seat, hand)
    mine = hand_value(hand)
    if (
        mine <= YANIV_MAX
        and (mine <= 3 or _others_look_bigger(state, seat, mine))
        and not _sure_assaf(state, seat, mine)
    ):
        return {"type": "yaniv"}
    best = max(discards(hand), key=lambda g: (hand_value(g[1]), len(g[1])))
    return {"type": "discard", "cards": list(best[1])}


def _sure_assaf(state: YanivState, seat: int, mine: int) -> bool:
    """Another hand is wholly known (each card taken from the discard) and worth ``mine`` or
    less. Read from the public ``known`` cards only: the table plays in the seat's name."""
    return any(
        s != seat and len(hand) == len(state.known[s]) and hand_value(state.known[s]) <= mine
        for s, hand in enumerate(state.hands)
    )


def _others_look_bigger(state: YanivState, seat: int, mine: int) -> bool:
    for s, hand in enumerate(state.hands):
        if s == seat:
            continue
        known = state.known[s]
        unknown = len(hand) - len(known)
        if unknown == 0:
            if hand_value(known) <= mine:
                return False
        elif hand_value(known) + 4 * unknown <= mine + 3:
            return False
    return True


def _auto_draw(state: YanivState, seat: int, hand: tuple[str, ...]) -> Action:
    options = sorted(takeable(state.top, state.top_kind), key=VALUES.__getitem__)
    ranks = {c[0] for c in hand if c not in JOKERS}
    laid = hand_value(state.laid)
    for card in options:
        if VALUES[card] >= laid:
            break
        if (VALUES[card] <= 3 or (card not in JOKERS and card[0] in ranks)) and not _deadlock(
            state, seat, hand, card
        ):
            return {"type": "draw", "from": "discard", "card": card}
    return {"type": "draw", "from": "stock"}


def _deadlock(state: YanivState, seat: int, hand: tuple[str, ...], card: str) -> bool:
    """Taking ``card`` would leave the hand wholly known (every card taken from the discard) and
    worth exactly as much as another wholly known hand. Each of the two would then see a sure
    assaf in the other and never call: with one card each (two jokers, say) they would pass
    them round the table for ever. Hands change only at their own draw, so refusing such a draw
    keeps any two wholly known hands apart in value, and the lowest of them may always call."""
    known = state.known[seat]
    if any(c not in known for c in hand):
        return False
    mine = hand_value(hand) + VALUES[card]
    return any(
        s != seat and len(other) == len(state.known[s]) and hand_value(other) == mine
        for s, other in enumerate(state.hands)
    )
