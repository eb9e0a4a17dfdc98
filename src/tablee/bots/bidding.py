"""How a bot seat bids, from what that seat sees: its view and its legal actions, nothing else.

The table's timeout move (``auto_action``) bids only on a hand that cannot go wrong, since it speaks
for an absent person. A bot seat is a player: it bids what a sound player would, or a table of bots
would pass deal after deal. Each bidder here reads the seat's ``view`` (its own hand, the bids so
far, the turned card) and picks one of ``legal``; ``None`` leaves the decision to ``auto_action``.

The measures are rules of thumb a club player uses, tuned so that a table of four bots takes most
deals and makes most of its contracts (``tests/bots`` plays seeded deals and checks both).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablee.engine import Action
from tablee.games.tarot import hand_strength

Bidder = Callable[[dict[str, Any], list[Action]], Action | None]

SUITS = "SHDC"
#: what a card is worth to the side that has chosen its suit as trump (roughly: tricks it wins)
_TRUMP_WORTH = {"J": 7.0, "9": 5.5, "A": 4.0, "T": 3.5, "K": 2.0, "Q": 2.0, "8": 1.5, "7": 1.5}


def belote_suit_strength(hand: Sequence[str], trump: str) -> float:
    """A hand's worth with ``trump``: its trumps, then side aces and guarded tens."""
    worth = 0.0
    trumps = [c for c in hand if c[1] == trump]
    for c in trumps:
        worth += _TRUMP_WORTH[c[0]]
    worth += max(0, len(trumps) - 3) * 2.0  # long trumps draw the others' and win the tail
    for c in hand:
        if c[1] == trump:
            continue
        if c[0] == "A":
            worth += 3.0
        elif c[0] == "T" and f"A{c[1]}" in hand:
            worth += 1.5
    return worth


#: belote: a deal is taken at this worth (hand + the turned card it would get)
BELOTE_TAKE = 13.0


def belote(view: dict[str, Any], legal: list[Action]) -> Action | None:
    if view.get("phase") != "bidding" or not view.get("turned"):
        return None
    hand: list[str] = list(view["hand"])
    turned: str = view["turned"]
    best: tuple[float, Action] | None = None
    for action in legal:
        if action["type"] != "take":
            continue
        suit = action.get("suit", turned[1])
        # the taker gets the turned card too
        worth = belote_suit_strength([*hand, turned], suit)
        if worth >= BELOTE_TAKE and (best is None or worth > best[0]):
            best = (worth, action)
    return best[1] if best is not None else {"type": "pass"}


#: contrée: points a hand promises = BASE + SCALE x its worth (cards of 8, no turned card)
CONTREE_BASE, CONTREE_SCALE = 40.0, 3.0
#: what each partner's ace or trump honour adds to the partner's bid
CONTREE_SUPPORT = {"A": 10, "J": 20, "9": 10}


def contree(view: dict[str, Any], legal: list[Action]) -> Action | None:
    if view.get("phase") != "bidding":
        return None
    if {"type": "decline"} in legal:
        return {"type": "decline"}
    hand: list[str] = list(view["hand"])
    seat: int = view["seat"]
    contract = view.get("contract")
    # the débutant bids suits only (sans-atout and tout-atout, when the table offers them, are
    # left to the players)
    bids = [a for a in legal if a["type"] == "bid" and a["suit"] in SUITS]
    if not bids:
        return {"type": "pass"} if {"type": "pass"} in legal else None
    wanted: dict[str, int] = {}
    for suit in SUITS:
        promise = CONTREE_BASE + CONTREE_SCALE * belote_suit_strength(hand, suit)
        wanted[suit] = int(promise // 10 * 10)
    spoke = any(b.get("seat") == seat and b.get("type") == "bid" for b in view.get("bids", ()))
    if contract is not None and (contract["taker"] - seat) % 4 == 2:
        if spoke:
            # the hand was told once already: the partner's raise is no news about it
            return {"type": "pass"}
        # the partner's suit: support it by what this hand brings to it, never bid over it
        suit = contract["trump"]
        support = sum(CONTREE_SUPPORT.get(c[0], 0) for c in hand if c[0] == "A" or c[1] == suit)
        target = contract["value"] + support // 10 * 10
        raise_to = [a for a in bids if a["suit"] == suit and a["value"] <= min(target, 160)]
        return max(raise_to, key=lambda a: a["value"]) if raise_to else {"type": "pass"}
    choices = [a for a in bids if a["value"] <= min(wanted[a["suit"]], 160)]
    if not choices:
        return {"type": "pass"}
    # the lowest bid in the strongest suit: room for the partner to say more
    suit = max((a["suit"] for a in choices), key=lambda s: wanted[s])
    return min((a for a in choices if a["suit"] == suit), key=lambda a: a["value"])


#: tarot: a hand's measure (``tarot.hand_strength``, scaled to 18 cards) per contract
TAROT_CONTRACTS = (("garde_contre", 56.0), ("garde_sans", 49.0), ("garde", 40.0), ("prise", 33.0))


def tarot(view: dict[str, Any], legal: list[Action]) -> Action | None:
    if view.get("phase") != "bid":
        return None
    strength = hand_strength(view["hand"])
    offered = {a.get("contract"): a for a in legal if a["type"] == "bid"}
    for contract, threshold in TAROT_CONTRACTS:
        if strength >= threshold and contract in offered:
            return offered[contract]
    return {"type": "pass"}


BIDDERS: dict[str, Bidder] = {"belote": belote, "contree": contree, "tarot": tarot}
