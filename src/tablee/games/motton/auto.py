"""Motton's timeout move: what the table plays for a seat out of time (and for a robot).

Bid the tricks the hand is expected to take; then play to make that bid exactly: win cheaply while
tricks are missing, duck with the highest loser once the bid is made.
"""

from __future__ import annotations

from tablee.engine import Action
from tablee.games._tricks import STANDARD_ORDER
from tablee.games._tricks import STANDARD_POWER as _power

from .rules import MottonState, Phase, legal_bids, legal_cards, trump_of


def auto_action(state: MottonState, seat: int) -> Action:
    """The move for ``seat``, which the game waits on."""
    if state.phase is Phase.DEAL:
        return {"type": "deal"}
    if state.phase is Phase.BID:
        return {"type": "bid", "value": _auto_bid(state, seat)}
    return {"type": "play", "card": _auto_card(state, seat)}


def _auto_bid(state: MottonState, seat: int) -> int:
    hand = state.hands[seat]
    trump = trump_of(state.turned) if state.revealed else None
    seen = set(hand)
    if state.revealed:
        seen.add(state.turned)
    unseen = 52 - len(seen)
    # chance that a given unseen card is in an opponent's hand
    p_out = min(1.0, (state.players - 1) * len(hand) / unseen)
    # a plain winner may still be ruffed: more likely with more opponents and longer hands
    ruff = 0.0 if trump is None else min(0.5, 0.04 * (state.players - 1) * len(hand) / 2)
    expected = 0.0
    for card in hand:
        suit, power = card[1], _power(card)
        higher = sum(1 for r in STANDARD_ORDER[power + 1 :] if r + suit not in seen)
        p = (1.0 - p_out) ** higher
        if suit == trump:
            # low trumps still win tricks once a suit runs out
            p = max(p, 0.3)
        elif trump is not None:
            p *= 1.0 - ruff
        expected += p
    legal = legal_bids(state, seat)
    return min(legal, key=lambda v: (abs(v - expected), v))


def _auto_card(state: MottonState, seat: int) -> str:
    legal = legal_cards(state, seat)
    trump = trump_of(state.turned)
    bid = state.bids[seat] or 0
    want = bid > state.tricks_won[seat]
    n = state.players

    def strength(card: str) -> int:
        return _power(card) + (13 if card[1] == trump else 0)

    if not state.trick:
        if want:
            masters = [c for c in legal if _is_master(state, seat, c)]
            if masters:
                return max(masters, key=strength)
            trumps = [c for c in legal if c[1] == trump]
            if trumps:
                return max(trumps, key=strength)
        return min(legal, key=lambda c: (c[1] == trump, _power(c)))

    led = state.trick[0][1]

    def key(card: str) -> tuple[int, int]:
        if card[1] == trump:
            return (2, _power(card))
        if card[1] == led:
            return (1, _power(card))
        return (0, _power(card))

    best = max(key(c) for c in state.trick)
    winning = [c for c in legal if key(c) > best]
    losing = [c for c in legal if key(c) <= best]
    last = len(state.trick) == n - 1
    if want:
        if winning:
            return min(winning, key=key) if last else max(winning, key=key)
        # keep the strong cards for later: throw the weakest
        return min(legal, key=lambda c: (c[1] == trump, _power(c)))
    if losing:
        # shed the card most likely to win a trick we do not want later
        return max(losing, key=lambda c: (c[1] != trump, _power(c)))
    return max(winning, key=key) if last else min(winning, key=key)


def _is_master(state: MottonState, seat: int, card: str) -> bool:
    """No card that could beat ``card`` in its suit is still unseen by ``seat``."""
    gone = set(state.played) | set(state.hands[seat])
    if state.revealed:
        gone.add(state.turned)
    suit = card[1]
    return all(r + suit in gone for r in STANDARD_ORDER[_power(card) + 1 :])
