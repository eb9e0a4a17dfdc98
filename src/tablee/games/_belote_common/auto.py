"""The belote family's timeout moves, what the table plays for a seat out of time (and for a
robot): the card of the play, and the test of a strong suit the bidding of each game uses."""

from __future__ import annotations

from collections.abc import Sequence

from tablee.engine import Action
from tablee.games._tricks import belote_points

from .rules import BeloteState, card_points, card_power, team_of, trick_winner


def strong_suit(hand: Sequence[str], suits: Sequence[str], extra: str | None = None) -> str | None:
    """The timeout bidder's test: a suit in which the hand (plus ``extra``, the turned card it
    would get) is clearly strong — its J with 5 trumps, or with 4 trumps and the 9 or an outside
    ace, or with 3 trumps, the 9 and an outside ace; the strongest such suit, else None."""
    cards = [*hand, extra] if extra else list(hand)
    best: tuple[int, str] | None = None
    for s in suits:
        trumps = [c for c in cards if c[1] == s]
        ranks = {c[0] for c in trumps}
        if "J" not in ranks:
            continue
        n, nine = len(trumps), "9" in ranks
        ace = any(c[1] != s and c[0] == "A" for c in cards)
        if not (n >= 5 or (n >= 4 and (nine or ace)) or (n >= 3 and nine and ace)):
            continue
        strength = sum(belote_points(c, s) for c in trumps) + 10 * n
        if best is None or strength > best[0]:
            best = (strength, s)
    return None if best is None else best[1]


def auto_card(state: BeloteState, seat: int, legal: list[Action]) -> str:
    """The cheapest legal card with which the seat's team still holds the trick, else the
    cheapest legal card. Cheapest: fewest card points, then a plain card before a trump,
    then the lowest."""
    assert state.contract is not None
    trump = state.contract.trump
    cards = [a["card"] for a in legal]

    def cost(c: str) -> tuple[int, bool, int]:
        return (card_points(c, trump), c[1] == trump, card_power(c, trump))

    team = team_of(seat)
    keeping = []
    for c in cards:
        w = trick_winner((*state.trick, c), trump)
        if team_of(state.leader + w) == team:
            keeping.append(c)
    return min(keeping or cards, key=cost)
