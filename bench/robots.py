"""Robot strength: duplicate matches between two levels (run by hand, prints figures).

Every deal is played twice on the same cards, so that the luck of the deal cancels out:

- team games (belote, contrée): the first level's team sits at seats {0, 2}, then, on the same
  deal, at {1, 3}; a deal's figure is the first level's team score minus the other team's, the
  mean of the two plays;
- the others (tarot at 3/4/5, barbu, motton, yaniv, Contrecarte, freeze): one seat of the
  first level (seat ``k mod n`` for deal ``k``) among seats of the second level, and the same deal
  with the second level in every seat; a deal's figure is that seat's points in the first play
  minus its points in the second (tarot: its share; barbu: minus the points it took; motton: its
  round score; yaniv and freeze: the others' mean points minus its own; Contrecarte: 1 for a
  win).

With ``--partner`` (belote, contrée) the first level sits at one seat (``k mod 4``) with a
partner and two opponents of the second level, and the same deal is played again by the second
level alone: a deal's figure is that seat's team score minus the other team's in the first play,
minus the same in the second — what a player of the second level (a person's stand-in) gains
with a partner of the first.

Printed per game: deals, the mean figure with its 95 % confidence interval (normal, from the
deals' spread), contracts taken and made by each level on the same deals (belote, contrée, tarot:
the taker's side; motton: bids made exactly), and the first level's decision CPU time p50/p99
(decisions with a choice). Barbu's, motton's and yaniv's deals go through their rounds in turn
(deal ``k`` is round ``k mod 5``, ``k mod 20``, ``k mod 3``; the rounds before it are played by
the débutant).

    .venv/bin/python bench/robots.py --deals 2000 --jobs 2              # the issue's figures
    .venv/bin/python bench/robots.py --games belote,tarot4 --deals 200 --worlds 8
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tablee.bots.levels import CONFIRME, DEBUTANT, LEVELS, Budget, decide
from tablee.engine import Event, Game
from tablee.games import get_game


@dataclass(frozen=True)
class Spec:
    game: str
    players: int
    teams: bool = False
    #: rounds of a match: deal ``k`` is played at round ``k mod rounds`` (1: the first deal)
    rounds: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    #: a deal still going after this many moves is left out (see ``MAX_MOVES``)
    max_moves: int = 1_000


SPECS: dict[str, Spec] = {
    "belote": Spec("belote", 4, teams=True),
    "contree": Spec("contree", 4, teams=True),
    "tarot3": Spec("tarot", 3),
    "tarot4": Spec("tarot", 4),
    "tarot5": Spec("tarot", 5),
    "barbu": Spec("barbu", 4, rounds=5),
    "motton": Spec("motton", 4, rounds=20),
    "yaniv": Spec("yaniv", 4, rounds=3, max_moves=300),
    "contrecarte": Spec("contrecarte", 4),
    "freeze": Spec("freeze", 4, rounds=5),
}
TRICK_GAMES = ("belote", "contree", "tarot3", "tarot4", "tarot5", "barbu", "motton")


@dataclass
class Played:
    """One play of a deal: each seat's points, who took the contract and whether it was made."""

    points: list[float]
    taker: int | None = None
    made: bool | None = None
    bids_made: list[bool] | None = None


def _deal_result(spec: Spec, event: Event, players: int) -> Played:
    kind = event["type"]
    if kind == "redeal":
        return Played([0.0] * players)
    if spec.game in ("belote", "contree"):
        scores = event["scores"]
        pts = [float(scores[s % 2] - scores[1 - s % 2]) for s in range(players)]
        return Played(pts, int(event["taker"]), bool(event["made"]))
    if spec.game == "tarot":
        res = event["result"]
        return Played([float(x) for x in res["shares"]], int(res["taker"]), bool(res["made"]))
    if spec.game == "barbu":
        return Played([-float(x) for x in event["scores"]])
    if spec.game == "yaniv":
        # each for themselves, the lowest total wins: a round's worth is the others' points
        # against the seat's own
        pts = event["points"]
        return Played(
            [sum(pts) / (players - 1) - pts[s] * players / (players - 1) for s in range(players)]
        )
    if spec.game == "contrecarte":
        # one game is one deal: a win is worth 1
        return Played([float(x) for x in event["scores"]])
    if spec.game == "freeze":
        # the lowest total wins: a round's worth is the others' mean score (the freezer's bet
        # counted) minus the seat's
        pts = event["scores"]
        return Played(
            [sum(pts) / (players - 1) - pts[s] * players / (players - 1) for s in range(players)]
        )
    if spec.game == "motton":
        made = [b == t for b, t in zip(event["bids"], event["tricks"], strict=True)]
        return Played([float(x) for x in event["scores"]], bids_made=made)
    raise ValueError(spec.game)


def _ends_deal(event: Event) -> bool:
    return event["type"] == "deal_end" or (
        event["type"] == "redeal" and event.get("reason", "all_passed") == "all_passed"
    )


#: a deal's moves are far fewer; a deal still going is left out as endless (yaniv's débutants
#: once passed two jokers round for ever, each fearing the other's assaf)
MAX_MOVES = 1_000


def start(spec: Spec, k: int) -> tuple[Game, Any, list[Event]]:
    """Deal ``k``'s state and the events before it (earlier rounds played by the débutant)."""
    game = get_game(spec.game)
    state = game.new(players=spec.players, options=spec.options, seed=k)
    events: list[Event] = []
    target = k % spec.rounds
    rounds_done = moves = 0
    while rounds_done < target:
        moves += 1
        if moves > MAX_MOVES:  # an endless round on the way: the match's first round instead
            state, events, target = game.new(players=spec.players, seed=k), [], 0
            break
        seat = game.to_act(state)[0]
        state, more = game.apply(state, seat, decide(game, state, seat, events))
        events += more
        rounds_done += sum(
            1 for e in more if e["type"] == "deal_end" and not e.get("replayed", False)
        )
        if game.is_over(state):  # a match shorter than the round wanted: its first round
            state, events, target = game.new(players=spec.players, seed=k), [], 0
    # a round ends in the pause before the next deal: deal it
    while game.view(state, None)["phase"] in ("deal", "deal_over", "end", "show", "shown"):
        seat = game.to_act(state)[0]
        state, more = game.apply(state, seat, game.auto_action(state, seat))
        events += more
    return game, state, events


def play(spec: Spec, k: int, levels: Sequence[str], budget: Budget, times: list[float]) -> Played:
    """Deal ``k`` played to its end with ``levels[seat]`` in each seat."""
    game, state, events = start(spec, k)
    for step in range(10_000):
        seat = game.to_act(state)[0]
        level = levels[seat]
        searched = level != DEBUTANT and len(game.legal_actions(state, seat)) > 1
        t0 = time.process_time()
        action = decide(
            game, state, seat, events, level=level, seed=k * 100_003 + step, budget=budget
        )
        if searched:
            times.append(time.process_time() - t0)
        state, more = game.apply(state, seat, action)
        events += more
        for e in more:
            if _ends_deal(e):
                return _deal_result(spec, e, spec.players)
    return None


@dataclass
class Tally:
    figures: list[float] = field(default_factory=list)
    #: per level: deals played (seat-plays), contracts taken, made
    taken: dict[str, list[int]] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)
    #: deals left out: one of their plays did not end
    endless: int = 0

    def merge(self, other: Tally) -> None:
        self.figures += other.figures
        self.times += other.times
        self.endless += other.endless
        for level, (plays, took, made) in other.taken.items():
            row = self.taken.setdefault(level, [0, 0, 0])
            row[0] += plays
            row[1] += took
            row[2] += made

    def count(self, level: str, took: bool, made: bool, chances: int = 1) -> None:
        row = self.taken.setdefault(level, [0, 0, 0])
        row[0] += chances
        row[1] += took
        row[2] += took and made


def duplicate(
    spec: Spec,
    k: int,
    first: str,
    second: str,
    budget: Budget,
    tally: Tally,
    partner: bool = False,
) -> None:
    """``partner``: at the team games, the first level plays one seat (``k mod 4``) with a
    partner and opponents of the second level, against the same deal played by the second level
    alone: what a player of the second level gains with a partner of the first."""
    n = spec.players
    if spec.teams and not partner:
        a = play(spec, k, [first, second] * 2, budget, tally.times)
        b = play(spec, k, [second, first] * 2, budget, tally.times)
        if a is None or b is None:
            tally.endless += 1
            return
        tally.figures.append((a.points[0] + b.points[1]) / 2)
        for res, first_team in ((a, 0), (b, 1)):
            if res.taker is None:
                tally.count(first, False, False)
                tally.count(second, False, False)
                continue
            took_first = res.taker % 2 == first_team
            tally.count(first, took_first, bool(res.made))
            tally.count(second, not took_first, bool(res.made))
        return
    seat = k % n
    levels = [second] * n
    levels[seat] = first
    a = play(spec, k, levels, budget, tally.times)
    b = play(spec, k, [second] * n, budget, [])
    if a is None or b is None:
        tally.endless += 1
        return
    tally.figures.append(a.points[seat] - b.points[seat])
    for level, res in ((first, a), (second, b)):
        if res.bids_made is not None:
            tally.count(level, True, res.bids_made[seat])
        else:
            took = res.taker is not None and (
                res.taker % 2 == seat % 2 if spec.teams else res.taker == seat
            )
            tally.count(level, took, bool(res.made))


def interval(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval."""
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def percentile(xs: Sequence[float], q: float) -> float:
    if not xs:
        return math.nan
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def figure(mean: float, half: float) -> str:
    """``mean ± half``: to two places, or, when the half-interval is below 0.1, to the place of
    its third significant digit (a small gain printed as +0.01 ± 0.01 cannot be read)."""
    if not math.isfinite(half) or half >= 0.1 or half == 0:
        return f"{mean:+8.2f} ± {half:6.2f}"
    places = 2 - math.floor(math.log10(half))
    return f"{mean:+8.{places}f} ± {half:6.{places}f}"


def report(name: str, first: str, second: str, tally: Tally) -> str:
    m, h = interval(tally.figures)
    parts = [f"{name:8} deals {len(tally.figures):5}  {first}-{second} {figure(m, h)}"]
    for level in (first, second):
        plays, took, made = tally.taken.get(level, [0, 0, 0])
        if took:
            parts.append(f"{level} took {took}/{plays} made {made}")
    if tally.endless:
        parts.append(f"{tally.endless} endless deals left out")
    t = tally.times
    parts.append(
        f"decision p50 {1000 * percentile(t, 0.5):.1f} ms p99 {1000 * percentile(t, 0.99):.1f} ms"
        f" ({len(t)} searched)"
    )
    return "  ".join(parts)


def run(
    name: str, deals: range, first: str, second: str, budget: Budget, partner: bool
) -> tuple[Tally, float]:
    """One worker's share of a game's deals, and the CPU time it took."""
    spec = SPECS[name]
    tally = Tally()
    cpu = time.process_time()
    for k in deals:
        duplicate(spec, k, first, second, budget, tally, partner)
    return tally, time.process_time() - cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games", default=",".join(SPECS), help="comma-separated: " + ",".join(SPECS)
    )
    parser.add_argument(
        "--deals", type=int, default=2000, help="deals per game (each played twice)"
    )
    parser.add_argument("--first-deal", type=int, default=0, help="deal numbers start here")
    parser.add_argument("--worlds", type=int, default=Budget().worlds, help="worlds per decision")
    parser.add_argument("--levels", default=f"{CONFIRME},{DEBUTANT}", help="first,second")
    parser.add_argument(
        "--partner",
        action="store_true",
        help="team games: the first level as the partner of the second, against the second alone",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="worker processes sharing a game's deals"
    )
    args = parser.parse_args(argv)
    first, second = args.levels.split(",")
    if first not in LEVELS or second not in LEVELS:
        parser.error(f"levels are {', '.join(LEVELS)}")
    budget = Budget(worlds=args.worlds)
    match = f"{first} partnering {second}" if args.partner else f"{first} against {second}"
    print(f"# {match}, {args.worlds} worlds a decision, deals from {args.first_deal}")
    deals = range(args.first_deal, args.first_deal + args.deals)
    # deals are dealt to the workers in turn, so each gets its share of every match round;
    # the figures do not depend on the number of workers (each deal is seeded by its number)
    shares = [deals[j :: args.jobs] for j in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in args.games.split(","):
            tally, cpu = Tally(), 0.0
            for part, seconds in pool.map(
                run,
                [name] * args.jobs,
                shares,
                [first] * args.jobs,
                [second] * args.jobs,
                [budget] * args.jobs,
                [args.partner] * args.jobs,
            ):
                tally.merge(part)
                cpu += seconds
            print(report(name, first, second, tally), f"cpu {cpu:.0f} s")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
