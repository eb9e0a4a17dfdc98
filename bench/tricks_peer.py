"""Trick-taking engines side by side: random legal playouts per second.

tablée's belote (one deal) and contrée (a match to 2000, also counted per deal) against the
nearest games of OpenSpiel — euchre (four players in two teams, a turned card, two bidding rounds:
belote's shape) and bridge played out card by card (an auction with doubles: contrée's shape) —
and of RLCard (bridge, through its game object, without the observation encoding of its env).
Peers are measured only when installed (``make bench`` installs them). Figures are printed,
nothing is asserted.

    python bench/tricks_peer.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from tablee.games import get_game

BRIDGE_PLAYED_OUT = "bridge(use_double_dummy_result=false)"


def rate(run_one: Callable[[int], int], seconds: float) -> tuple[float, float]:
    """(playouts per second, deals per second) over about ``seconds``."""
    start = time.perf_counter()
    playouts = deals = 0
    while time.perf_counter() - start < seconds:
        deals += run_one(playouts)
        playouts += 1
    elapsed = time.perf_counter() - start
    return playouts / elapsed, deals / elapsed


def tablee_playout(name: str) -> Callable[[int], int]:
    game = get_game(name)

    def run(seed: int) -> int:
        rnd = random.Random(seed)
        state = game.new(players=4, seed=seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
        return sum(1 for row in state.sheet if row.made is not None)

    return run


def open_spiel_playout(spec: str) -> Callable[[int], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(spec)

    def run(seed: int) -> int:
        rnd = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions = [a for a, _ in state.chance_outcomes()]
            else:
                actions = state.legal_actions()
            state.apply_action(rnd.choice(actions))
        return 1

    return run


def rlcard_bridge_playout() -> Callable[[int], int] | None:
    try:
        import numpy as np
        from rlcard.games.bridge.game import BridgeGame
    except ImportError:
        return None

    def run(seed: int) -> int:
        rnd = random.Random(seed)
        game = BridgeGame()
        game.np_random = np.random.RandomState(seed)
        game.init_game()
        while not game.is_over():
            game.step(rnd.choice(game.judger.get_legal_actions()))
        return 1

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine")
    args = parser.parse_args()
    engines: list[tuple[str, Callable[[int], int] | None]] = [
        ("tablée belote (1 deal)", tablee_playout("belote")),
        ("tablée contrée (match to 2000)", tablee_playout("contree")),
        ("OpenSpiel euchre", open_spiel_playout("euchre")),
        (
            "OpenSpiel bridge (card play)",
            open_spiel_playout("bridge(use_double_dummy_result=false)"),
        ),
        ("RLCard bridge", rlcard_bridge_playout()),
    ]
    print(f"{'engine':34} {'playouts/s':>11} {'deals/s':>9}")
    for label, run in engines:
        if run is None:
            print(f"{label:34} {'not installed':>21}")
            continue
        playouts, deals = rate(run, args.seconds)
        print(f"{label:34} {playouts:11.1f} {deals:9.1f}")


if __name__ == "__main__":
    main()
