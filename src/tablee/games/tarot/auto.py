"""Tarot's timeout move: what the table plays for a seat out of time (and for a robot): a bid
from the hand's strength, the call of the longest suit's king, the cheapest écart, no chelem, and
a plain, prudent card (``_auto_card`` says how)."""

from __future__ import annotations

from collections.abc import Sequence

from tablee.cards import SUITS, TAROT_TRUMPS
from tablee.engine import Action
from tablee.games import _tricks

from .rules import (
    EXCUSE,
    HALF_POINTS,
    PETIT,
    POWER,
    TRUMP_SET,
    WILD,
    Phase,
    TarotState,
    attackers,
    is_trump,
    partner_for,
    power_key,
    suit_key,
    suit_of,
)


def auto_action(state: TarotState, seat: int, legal: list[Action]) -> Action:
    """The move for ``seat``, whose ``legal`` actions are not empty."""
    phase = state.phase
    if phase is Phase.BID:
        return _auto_bid(state, seat, legal)
    if phase is Phase.CALL:
        hand = state.hands[seat]
        cards = [a["card"] for a in legal if a["card"] not in hand] or [legal[0]["card"]]
        length = {s: sum(1 for c in hand if suit_of(c) == s) for s in SUITS}
        return {"type": "call", "card": max(cards, key=lambda c: length[c[1]])}
    if phase is Phase.ECART:
        cards = [a["card"] for a in legal if a["type"] == "discard"]
        pick = min(cards, key=lambda c: (is_trump(c), HALF_POINTS[c], POWER[c]))
        return {"type": "discard", "card": pick}
    if phase is Phase.CHELEM:
        return {"type": "no_chelem"}
    if phase is Phase.PLAY:
        cards = [a["card"] for a in legal if a["type"] == "play"]
        return {"type": "play", "card": _auto_card(state, seat, cards)}
    return legal[0]


def _auto_bid(state: TarotState, seat: int, legal: list[Action]) -> Action:
    strength = hand_strength(state.hands[seat])
    want = None
    if strength >= 56:
        want = "garde"
    elif strength >= 40:
        want = "prise"
    offered = {a.get("contract") for a in legal}
    if want == "garde" and "garde" not in offered:
        want = None
    if want is not None and want in offered:
        return {"type": "bid", "contract": want}
    return {"type": "pass"}


def _unseen_trumps(state: TarotState, seat: int) -> list[int]:
    """Powers of the trumps ``seat`` cannot place: not in its hand, not played, not shown in
    the écart. Another hand (or a hidden chien) may hold them."""
    # the écart's trumps are shown to everyone; its other cards are no trumps anyway
    seen = {*state.hands[seat], *state.trick, *(c for c in state.ecart if c in TRUMP_SET)}
    for t in state.tricks:
        seen.update(t.cards)
    return [POWER[c] for c in TAROT_TRUMPS if c not in seen]


def _auto_card(state: TarotState, seat: int, cards: list[str]) -> str:
    """A plain, prudent card: win the trick cheaply when the team is not already winning it,
    else give the least valuable card — the Excuse instead when that card is a bout or an
    honour from the queen up; otherwise the Excuse is kept for when it is forced. Under a
    partner's trick that nothing can take any more (the last to play, or a trump above
    every trump the seat cannot place), give points: the Petit if it may, else the most
    valuable plain card. The Petit: while another seat may hold a trump, it is played only
    where it is safe (winning as the last to play, or under such a partner's trick); when
    no other seat can, nothing can catch it and it waits for the last trick (petit au bout;
    the 21 is led before it). At five, a seat that does not know the partner yet plays as
    if the taker were alone."""
    if len(cards) == 1:
        return cards[0]
    choices = [c for c in cards if c != EXCUSE] or cards
    trick = state.trick
    if not trick:
        return min(choices, key=lambda c: (is_trump(c), c == PETIT, HALF_POINTS[c], POWER[c]))
    n = state.players
    last = len(trick) == n - 1
    unseen = _unseen_trumps(state, seat)
    attack = attackers(state)
    if state.called is not None and partner_for(state, seat) is None:
        # the seat does not know the partner yet: playing as if it did would tell the table
        assert state.taker is not None
        attack = frozenset({state.taker})
    best = _tricks.winner(trick, suit_key, "A", power_key, power_key, wild=WILD)
    mate_wins = ((state.leader + best) % n in attack) == (seat in attack)
    if not mate_wins:
        winning = [
            c
            for c in choices
            if _tricks.winner((*trick, c), suit_key, "A", power_key, power_key, wild=WILD)
            == len(trick)
        ]
        if not (last and unseen):
            winning = [c for c in winning if c != PETIT] or winning
        if winning:
            return min(winning, key=lambda c: (POWER[c], HALF_POINTS[c]))
        cheapest = min(choices, key=lambda c: (HALF_POINTS[c], POWER[c]))
        if EXCUSE in cards and HALF_POINTS[cheapest] >= HALF_POINTS["QS"]:
            return EXCUSE
        return cheapest
    # a partner holds the trick: give points when it is theirs for sure, else keep it small
    top = max((POWER[c] for c in trick if is_trump(c)), default=0)
    if last or (top and all(p < top for p in unseen)):
        if PETIT in choices and unseen:
            return PETIT
        plain = [c for c in choices if not is_trump(c)]
        if plain:
            return max(plain, key=lambda c: (HALF_POINTS[c], -POWER[c]))
    return min(choices, key=lambda c: (HALF_POINTS[c], POWER[c]))


def hand_strength(hand: Sequence[str]) -> float:
    """A rough bidding measure, scaled to a hand of 18 cards: bouts, trumps, honours."""
    trumps = sum(1 for c in hand if c in TRUMP_SET)
    s = 0.0
    for c in hand:
        if c == "A21":
            s += 10
        elif c == EXCUSE:
            s += 8
        elif c == PETIT:
            s += 8 if trumps >= 6 else 3
        elif c in TRUMP_SET:
            s += 3 if POWER[c] >= 16 else 2
        else:
            s += {"K": 6, "Q": 3, "C": 2, "J": 1}.get(c[0], 0)
    return s * 18 / len(hand) if hand else 0.0
