"""Barbu's timeout move: what the table plays for a seat out of time (and for a robot).

Au choix, the dealer names the contract its hand fears least: the one where the cards it holds
would cost the least if it took them all, the tricks and the "all" contracts counting its high
cards (J to A) as tricks it may have to take; ties go to the text's order.

Duck tricks and shed what costs: lead low and safe, follow with the highest card that still loses,
discard the most expensive card (the barbu, queens, hearts, then high cards); when a trick cannot
be avoided, take it with the highest card that costs nothing.
"""

from __future__ import annotations

from tablee.engine import Action

from .rules import (
    ROUNDS,
    BarbuState,
    Phase,
    card_points,
    contract_index,
    legal_cards,
    power,
    remaining,
)

#: the cards a hand counts as tricks it may have to take (J, Q, K, A)
_HIGH = power("JS")


def _risk(hand: tuple[str, ...], contract: str) -> int:
    k = ROUNDS.index(contract)
    cost = sum(card_points(c, k) for c in hand)
    if k in (0, 4):
        cost += 5 * sum(1 for c in hand if power(c) >= _HIGH)
    return cost


def auto_action(state: BarbuState, seat: int) -> Action:
    """The move for ``seat``, which the game waits on."""
    if state.phase is Phase.DEAL:
        return {"type": "deal"}
    hand = state.hands[seat]
    if state.phase is Phase.CHOOSE:
        left = remaining(state, seat)
        return {"type": "choose", "contract": min(left, key=lambda c: _risk(hand, c))}
    legal = legal_cards(state, seat)
    rnd = contract_index(state)

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
