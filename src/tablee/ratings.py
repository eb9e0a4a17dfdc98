"""Ratings per game: Weng-Lin (``openskill``'s Plackett-Luce model), which rates teams and
free-for-all rankings alike. Pure: no I/O, no clock, no randomness; the store keeps the numbers.

How each game's outcome is read (only games between people are rated; the store decides that):

- belote, contrée: the two teams ({0, 2} and {1, 3}), the winning team first;
- tarot: every scored deal of the match is one rating, the taker's side (with the called partner
  at five) against the defence, ranked by whether the contract was made; the deals are rated in
  order;
- barbu, motton, freeze, yaniv, contrecarte (and any other game): each seat alone, ranked by its
  final score, in the direction the winners show (the best score wins: highest in motton, lowest
  in barbu, freeze and yaniv); equal scores are ties.

The conservative rating shown on leaderboards is ``mu - 3 sigma`` (``ordinal``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate: the player is very likely at least this good."""
        return self.mu - 3 * self.sigma


#: one rated match: teams of seats, and each team's rank (0 best; equal ranks tie)
Match = tuple[list[list[int]], list[float]]


def matches(game: str, players: int, outcome: Mapping[str, Any]) -> list[Match]:
    """The rated matches a finished game makes, in order (one for most games; one per scored
    deal in tarot)."""
    winners = set(outcome.get("winners") or [])
    if game in ("belote", "contree"):
        teams = [[0, 2], [1, 3]]
        return [(teams, [0.0 if set(t) & winners else 1.0 for t in teams])]
    if game == "tarot":
        out: list[Match] = []
        for deal in outcome.get("deals") or []:
            taker = deal.get("taker")
            if not isinstance(taker, int):
                continue
            attack = {taker}
            partner = deal.get("partner")
            if isinstance(partner, int):
                attack.add(partner)
            defence = [s for s in range(players) if s not in attack]
            made = bool(deal.get("made"))
            out.append(([sorted(attack), defence], [0.0, 1.0] if made else [1.0, 0.0]))
        return out
    scores = list(outcome.get("scores") or [])
    if len(scores) != players or not all(isinstance(s, int | float) for s in scores):
        return [
            ([[s] for s in range(players)], [0.0 if s in winners else 1.0 for s in range(players)])
        ]
    best = {scores[s] for s in winners}
    higher = not best or max(best) == max(scores)
    ranks = [float(-v if higher else v) for v in scores]
    return [([[s] for s in range(players)], ranks)]


def rate(
    game: str, players: int, outcome: Mapping[str, Any], before: Sequence[Skill]
) -> list[Skill]:
    """Each seat's rating after the game, from ``before`` (one per seat)."""
    now = list(before)
    for teams, ranks in matches(game, players, outcome):
        rated = MODEL.rate(
            [[MODEL.rating(mu=now[s].mu, sigma=now[s].sigma) for s in team] for team in teams],
            ranks=list(ranks),
        )
        for team, new in zip(teams, rated, strict=True):
            for seat, r in zip(team, new, strict=True):
                now[seat] = Skill(r.mu, r.sigma)
    return now


__all__ = ["MU", "SIGMA", "Match", "Skill", "matches", "rate"]
