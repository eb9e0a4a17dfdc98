"""A change's views: every seat's built one by one (``view``) and at once (``views``), for every
registered game (run by hand).

After every move a table sends each seat its state, whose bulk is the seat's view. For each game
this plays random games (random legal moves, as ``bench/engines.py`` does), keeps a sample of the
states they pass through, and times, over the same states, building the view of every seat and
of a spectator one by one, then at once. Figures are microseconds of CPU time a change (the
median of several runs, each over the whole sample), and their ratio.

    .venv/bin/python bench/views.py [--states 400] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tablee.engine import Game
from tablee.games import game_names, get_game


def sample(game: Game, players: int, states: int, seed: int) -> list[Any]:
    """``states`` states met in random games, spread over their whole length."""
    rnd = random.Random(seed)
    out: list[Any] = []
    game_no = 0
    while len(out) < states:
        state = game.new(players=players, seed=seed + game_no)
        game_no += 1
        while not game.is_over(state) and len(out) < states:
            seat = next((s for s in game.to_act(state) if game.legal_actions(state, s)), None)
            if seat is None:
                break
            state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
            if rnd.random() < 0.25:
                out.append(state)
    return out


def clock(work: Callable[[], object], runs: int) -> float:
    """The median CPU seconds of ``runs`` calls of ``work``."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def figures(
    game: Game, states: list[Any], seats: list[int | None], runs: int
) -> tuple[float, float]:
    """Microseconds a state: ``seats``' views one by one, and at once."""

    def one_by_one() -> None:
        for state in states:
            for seat in seats:
                game.view(state, seat)

    def at_once() -> None:
        for state in states:
            game.views(state, seats)

    scale = 1e6 / len(states)
    return clock(one_by_one, runs) * scale, clock(at_once, runs) * scale


def per_game(
    argv: list[str] | None,
    doc: str | None,
    columns: tuple[str, str],
    measure: Callable[[Game, int, list[Any], int], tuple[float, float]],
) -> int:
    """A row a registered game: its two figures ``measure(game, players, states, runs)`` over the
    states sampled, under ``columns``, and their ratio (the second over the first)."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--states", type=int, default=400, help="states sampled a game")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    one, two = columns
    print(f"{'game':<12} {'players':>7} {one:>14} {two:>14} {'ratio':>6}")
    for name in game_names():
        game = get_game(name)
        players = min(game.max_players, max(game.min_players, 4))
        states = sample(game, players, args.states, args.seed)
        first, second = measure(game, players, states, args.runs)
        print(f"{name:<12} {players:>7} {first:>14.1f} {second:>14.1f} {second / first:>6.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return per_game(
        argv,
        __doc__,
        ("one by one µs", "at once µs"),
        lambda game, players, states, runs: figures(game, states, [*range(players), None], runs),
    )


if __name__ == "__main__":
    raise SystemExit(main())
