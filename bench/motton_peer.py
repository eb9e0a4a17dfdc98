"""Motton next to its nearest published peer: OpenSpiel's ``oh_hell``, random playouts, one run.

Both games are driven the same way from Python: ask for the legal actions, pick one uniformly at
random, apply it. A motton playout is a whole match (20 rounds, replays included); an ``oh_hell``
playout is OpenSpiel's single deal (chance picks the number of tricks, 1..(51 // players)), so the
fair comparisons are decisions/s and deals/s; playouts/s is printed for each game's own unit.
Rates are per second of this process's CPU time, so that a busy machine skews them less; each
figure is the median of ``--runs`` runs.

    python bench/motton_peer.py [--seconds 2] [--runs 3] [--players 3 4 5]

Needs ``open_spiel`` (``pip install open_spiel``); without it, motton is measured alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from tablee.games import get_game


def motton_rate(players: int, seconds: float) -> dict[str, float]:
    game = get_game("motton")
    rnd = random.Random(players)
    playouts = decisions = deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new(players=players, seed=rnd.randrange(1 << 30))
        deals += 1
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            action = rnd.choice(game.legal_actions(state, seat))
            if action["type"] == "deal":
                deals += 1
            state, _ = game.apply(state, seat, action)
            decisions += 1
        playouts += 1
    elapsed = time.process_time() - start
    return {
        "playouts/s": playouts / elapsed,
        "deals/s": deals / elapsed,
        "decisions/s": decisions / elapsed,
    }


def oh_hell_rate(pyspiel: Any, players: int, seconds: float) -> dict[str, float]:
    game = pyspiel.load_game("oh_hell", {"players": players})
    rnd = random.Random(players)
    playouts = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rnd.choices(outcomes, probs)[0])
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
                decisions += 1
        playouts += 1
    elapsed = time.process_time() - start
    return {
        "playouts/s": playouts / elapsed,
        "deals/s": playouts / elapsed,
        "decisions/s": decisions / elapsed,
    }


def median(measure: Callable[[], dict[str, float]], runs: int) -> dict[str, float]:
    results = [measure() for _ in range(runs)]
    return {k: statistics.median(r[k] for r in results) for k in results[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median shown)")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    args = parser.parse_args()
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        pyspiel = None
        print("open_spiel is not installed: measuring motton alone")
    print(f"{'game':<20}{'players':>8}{'playouts/s':>12}{'deals/s':>10}{'decisions/s':>13}")
    for n in args.players:
        rows = [("motton", median(partial(motton_rate, n, args.seconds), args.runs))]
        if pyspiel is not None and n >= 3:  # oh_hell needs 3 to 7 players
            peer = median(partial(oh_hell_rate, pyspiel, n, args.seconds), args.runs)
            rows.append(("open_spiel oh_hell", peer))
        for name, r in rows:
            print(
                f"{name:<20}{n:>8}{r['playouts/s']:>12.1f}{r['deals/s']:>10.1f}"
                f"{r['decisions/s']:>13.0f}"
            )


if __name__ == "__main__":
    main()
