"""Barbu's timeout move: what the table plays for a seat out of time (and for a robot).

Duck tricks and shed what costs: lead low and safe, follow with the highest card that still loses,
discard the most expensive card (the barbu, queens, hearts, then high cards); when a trick cannot
be avoided, take it with the highest card that costs nothing.
"""

from __future__ import annotations

from tablee.engine import Action

from .rules import BarbuState, Phase, card_points, legal_cards, power


def auto_action(state: BarbuState, seat: int) -> Action:
    """The move for ``seat``, which the game waits on."""
    if state.phase is Phase.DEAL:
        return {"type": "deal"}
    legal = legal_cards(state, seat)
    rnd = state.round

    def cost(card: str) -> int:
        return card_points(card, rnd)

    if not state.trick:
        card = min(legal, key=lambda c: (cost(c) > 0, power(c), c))
        return {"type": "play", "card": card}
    led = state.trick[0][1]
    follow = [c for c in legal if c[1] == led]
    if not follow:
        card = max(legal, key=lambda c: (cost(c), power(c), c))
        return {"type": "play", "card": card}
    best = max(power(c) for c in state.trick if c[1] == led)
    under = [c for c in follow if power(c) < best]
    if under:
        card = max(under, key=lambda c: (cost(c), power(c)))
    elif len(state.trick) == state.players - 1:
        card = max(follow, key=lambda c: (-cost(c), power(c)))
    else:
        # someone after us may still go over: stay as low as we can
        card = min(follow, key=lambda c: (cost(c), power(c)))
    return {"type": "play", "card": card}
