"""Engine speed: random playouts and moves per second for every registered game.

Run by hand (``make bench``), never from the tests. For each game, a random playout deals a new
game from a fresh seed and plays it to the end: the first seat in ``to_act`` that has a legal
action picks one uniformly at random from ``legal_actions`` and ``apply`` checks it, as the server
would. Figures are the median of several runs of a fixed duration, in CPU time of this process
(steadier than the wall clock on a shared machine).

- ``playouts/s``: whole random games per second; ``moves/game``: their mean length;
- ``moves/s``: random moves per second (``legal_actions`` + choice + ``apply``);
- ``auto moves/s``: moves per second when ``auto_action`` (the table's timeout move) decides.

The variants of a game (``VARIANTS``: its table options of ``DECISIONS.md``, "Variants") are
measured the same way, each on a line of its own (``barbu[choice=True]``).

When ``rlcard`` is installed (``pip install -e '.[bench]'``), RLCard's UNO (4 players, random legal
actions through its own ``get_legal_actions``/``step``) is measured the same way, turn about with
the Contrecarte figures run by run (so that a change of the machine's load falls on both); the
Contrecarte/UNO ratios printed are the medians of the per-run ratios. The two games do not last
alike: UNO as RLCard plays it draws only when nothing fits and plays a fitting drawn card at
once, where Contrecarte lets a player draw at will, pass, bluff a +4 and catch a forgotten
"Carte !". So the bench also plays Contrecarte with RLCard's policy ("contrecarte/uno-policy": a
random fitting card, drawing only when none fits, a fitting drawn card played, a +4 accepted),
still through ``legal_actions`` and ``apply``, which compares the engines on games of the same
kind. Last, the same random-playout loop is run around an engine that costs nothing
(``Weightless``) for games as long as random Contrecarte's: the most playouts/s any engine could
reach behind this API in this interpreter, printed as a ratio to UNO's ("ceiling").
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, Protocol

from tablee.engine import Game
from tablee.games import game_names, get_game

Runner = Callable[[int], int]  # plays one game from a seed, returns its number of moves


class Playable(Protocol):
    """The part of the engine contract a random playout uses."""

    def new(self, players: int, seed: int, options: dict[str, Any] | None = ...) -> Any: ...
    def is_over(self, state: Any) -> bool: ...
    def to_act(self, state: Any) -> tuple[int, ...]: ...
    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]: ...
    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[dict[str, Any]]]: ...


class Weightless:
    """An engine that costs nothing: its "game" lasts ``length`` moves, each offering the same
    actions. A random playout of it measures the playout loop alone (the calls of the contract,
    the random choice), i.e. the most playouts/s any engine could reach behind this API, in this
    interpreter, for games of that length."""

    def __init__(self, length: int) -> None:
        self.length = length
        self.seats = (0,)
        self.legal: list[dict[str, Any]] = [{"type": "play", "card": c} for c in ("R1", "B2")]
        self.legal.append({"type": "draw"})

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> int:
        return 0

    def is_over(self, state: int) -> bool:
        return state >= self.length

    def to_act(self, state: int) -> tuple[int, ...]:
        return self.seats

    def legal_actions(self, state: int, seat: int) -> list[dict[str, Any]]:
        return self.legal

    def apply(self, state: int, seat: int, action: Any) -> tuple[int, list[dict[str, Any]]]:
        return state + 1, []


#: the variants (table options, DECISIONS.md "Variants") measured besides each game's defaults
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "barbu": [{"choice": True}],
    "belote": [{"target": 501}, {"annonces": True}, {"annonces": True, "target": 1000}],
    "contree": [{"sa_ta": True}, {"annonces": True}, {"annonces": True, "sa_ta": True}],
}


def variant_label(name: str, options: dict[str, Any]) -> str:
    return f"{name}[{','.join(f'{k}={v}' for k, v in sorted(options.items()))}]"


def random_playout(game: Playable, players: int, options: dict[str, Any] | None = None) -> Runner:
    # only a variant passes options: the weightless engine takes none
    extra = {"options": options} if options else {}

    def run(seed: int) -> int:
        rnd = random.Random(seed)
        state = game.new(players=players, seed=seed, **extra)
        moves = 0
        while not game.is_over(state):
            for seat in game.to_act(state):
                legal = game.legal_actions(state, seat)
                if legal:
                    break
            state, _ = game.apply(state, seat, rnd.choice(legal))
            moves += 1
        return moves

    return run


def auto_playout(game: Game, players: int, options: dict[str, Any] | None = None) -> Runner:
    def run(seed: int) -> int:
        state = game.new(players=players, options=options, seed=seed)
        moves = 0
        while not game.is_over(state):
            for seat in game.to_act(state):
                if game.legal_actions(state, seat):
                    break
            state, _ = game.apply(state, seat, game.auto_action(state, seat))
            moves += 1
        return moves

    return run


def uno_policy_playout(game: Game, players: int) -> Runner:
    """Contrecarte played the way RLCard's random UNO agent plays: a random fitting card; draw
    only when none fits; a fitting drawn card is played; a +4 is accepted; no "Carte !"."""

    def run(seed: int) -> int:
        rnd = random.Random(seed)
        state = game.new(players=players, seed=seed)
        moves = 0
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, seat, _uno_choice(rnd, game.legal_actions(state, seat)))
            moves += 1
        return moves

    return run


def _uno_choice(rnd: random.Random, legal: list[dict[str, object]]) -> dict[str, object]:
    plays = [a for a in legal if a["type"] == "play" and "announce" not in a]
    if plays:
        return rnd.choice(plays)
    if {"type": "accept"} in legal:
        return {"type": "accept"}
    return {"type": "draw"} if {"type": "draw"} in legal else {"type": "pass"}


def rlcard_uno_playout(players: int) -> Runner:
    from rlcard.games.uno.game import UnoGame  # type: ignore[import-untyped]

    game = UnoGame(num_players=players)

    def run(seed: int) -> int:
        rnd = random.Random(seed)
        game.np_random.seed(seed)
        game.init_game()
        moves = 0
        while not game.is_over():
            game.step(rnd.choice(game.get_legal_actions()))
            moves += 1
        return moves

    return run


def breakdown(players: int, games: int) -> None:
    """Where a Contrecarte game played UNO-style spends its time, beside RLCard's UNO: the games
    are played once and recorded, then each part is replayed alone (CPU microseconds per game)."""
    game = get_game("contrecarte")
    records = []
    for seed in range(games):
        rnd = random.Random(seed)
        state = game.new(players=players, seed=seed)
        steps = []
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            action = _uno_choice(rnd, game.legal_actions(state, seat))
            steps.append((state, seat, action))
            state, _ = game.apply(state, seat, action)
        records.append(steps)
    moves = sum(map(len, records))

    def clock(part: Callable[[], object]) -> float:
        start = time.process_time()
        part()
        return (time.process_time() - start) / games * 1e6

    steps = [step for r in records for step in r]

    def legal_only() -> None:
        for state, seat, _ in steps:
            game.legal_actions(state, seat)

    def apply_only() -> None:
        for state, seat, action in steps:
            game.apply(state, seat, action)

    def legal_and_policy() -> None:
        rnd = random.Random(0)
        for state, seat, _ in steps:
            _uno_choice(rnd, game.legal_actions(state, seat))

    deal = clock(lambda: [game.new(players=players, seed=s) for s in range(games)])
    legal = clock(legal_only)
    apply = clock(apply_only)
    policy = clock(legal_and_policy) - legal
    # the whole playouts, turn about with RLCard's UNO when it is installed (the load changes)
    runners = {"contrecarte": uno_policy_playout(game, players)}
    with contextlib.suppress(ImportError):
        runners["rlcard uno"] = rlcard_uno_playout(4)
    figures = measure_group(runners, 0.5, 5)
    whole = 1e6 / statistics.median(figures["contrecarte"]["playouts"])
    print(f"contrecarte UNO-style, {players} seats, {moves / games:.1f} moves/game, us/game:")
    print(f"  new {deal:.0f}  legal_actions {legal:.0f}  apply {apply:.0f}  policy {policy:.0f}")
    print(f"  whole playout {whole:.0f} ({whole / (moves / games):.2f} us/move)")
    if "rlcard uno" in figures:
        uno = figures["rlcard uno"]
        print(
            f"rlcard uno, 4 seats, {statistics.mean(uno['length']):.1f} moves/game:"
            f" {1e6 / statistics.median(uno['playouts']):.0f} us/game"
            f" (contrecarte's playouts/s x{ratio(figures['contrecarte'], uno, 'playouts'):.2f},"
            " runs turn about)"
        )


Figures = dict[str, list[float]]  # "playouts", "moves", "length": one value per run


def measure_group(runners: dict[str, Runner], seconds: float, runs: int) -> dict[str, Figures]:
    """Playouts/s, moves/s and game length of each runner over ``runs`` runs of about
    ``seconds`` CPU seconds each. The runners take turns run by run, so that a change of the
    machine's load during the measure falls on all of them alike (the ratios are per run)."""
    out: dict[str, Figures] = {
        name: {"playouts": [], "moves": [], "length": []} for name in runners
    }
    seed = 0
    for run in runners.values():
        run(seed)  # warm-up: imports, caches
    for _ in range(runs):
        for name, run in runners.items():
            games = moves = 0
            start = time.process_time()
            while (elapsed := time.process_time() - start) < seconds:
                seed += 1
                moves += run(seed)
                games += 1
            out[name]["playouts"].append(games / elapsed)
            out[name]["moves"].append(moves / elapsed)
            out[name]["length"].append(moves / games)
    return out


def median(figures: Figures) -> dict[str, float]:
    return {key: statistics.median(values) for key, values in figures.items()}


def ratio(ours: Figures, peer: Figures, key: str) -> float:
    """The median over runs of ours/peer, each run's pair measured back to back."""
    return statistics.median(a / b for a, b in zip(ours[key], peer[key], strict=True))


def default_players(game: Game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.min_players


def fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default=",".join(game_names()), help="comma-separated game names")
    p.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run")
    p.add_argument("--runs", type=int, default=5, help="runs per figure (the median is shown)")
    p.add_argument("--players", type=int, default=None, help="seats (default: 4 when allowed)")
    p.add_argument("--no-auto", action="store_true", help="skip the auto_action figures")
    p.add_argument("--no-rlcard", action="store_true", help="skip RLCard's UNO")
    p.add_argument(
        "--breakdown",
        action="store_true",
        help="only: where a UNO-style Contrecarte game's time goes",
    )
    args = p.parse_args(argv)
    if args.breakdown:
        breakdown(args.players or 4, 1000)
        return 0

    rows: list[tuple[str, int, dict[str, float], float | None]] = []
    measured: dict[str, Figures] = {}

    def group(
        runners: dict[str, Runner], players: dict[str, int], autos: dict[str, Runner]
    ) -> None:
        figures = measure_group(runners, args.seconds, args.runs)
        for name, f in figures.items():
            auto = autos.get(name)
            auto_moves = None
            if auto is not None:
                auto_moves = median(measure_group({name: auto}, args.seconds, args.runs)[name])
            rows.append(
                (
                    name,
                    players[name],
                    median(f),
                    None if auto_moves is None else auto_moves["moves"],
                )
            )
            measured[name] = f
            print(f"  measured {name}", flush=True)

    uno: Runner | None = None
    if not args.no_rlcard:
        try:
            uno = rlcard_uno_playout(4)
        except ImportError:
            print("  rlcard is not installed: pip install -e '.[bench]' to compare with its UNO")
    weightless = ""
    for name in [g for g in args.games.split(",") if g]:
        game = get_game(name)
        n = args.players or default_players(game)
        if not game.min_players <= n <= game.max_players:
            n = default_players(game)
        autos = {} if args.no_auto else {name: auto_playout(game, n)}
        runners = {name: random_playout(game, n)}
        seats = {name: n}
        if name == "contrecarte":
            # measured together, run by run: the UNO-style games, the same playout loop around
            # an engine that costs nothing for games as long as random ones, and RLCard's UNO
            runners["contrecarte/uno-policy"] = uno_policy_playout(game, n)
            # (the mean length over a fixed set of seeds: the lengths vary widely)
            length = round(statistics.mean(runners[name](-s) for s in range(1, 201)))
            weightless = f"no engine, {length} moves"
            runners[weightless] = random_playout(Weightless(length), n)
            if uno is not None:
                runners["rlcard uno"] = uno
                uno = None
            seats |= dict.fromkeys(runners, n) | {"rlcard uno": 4}
        group(runners, seats, autos)
        for options in VARIANTS.get(name, []):
            label = variant_label(name, options)
            group(
                {label: random_playout(game, n, options)},
                {label: n},
                {} if args.no_auto else {label: auto_playout(game, n, options)},
            )
    if uno is not None:
        group({"rlcard uno": uno}, {"rlcard uno": 4}, {})

    print()
    # a variant's label (``contree[annonces=True,sa_ta=True]``) widens the first column
    wide = max([24, *(len(r[0]) for r in rows)])
    head = f"{'game':{wide}} {'seats':>5} {'playouts/s':>11} {'moves/game':>11} {'moves/s':>10}"
    print(head + f" {'auto moves/s':>13}")
    print("-" * (len(head) + 14))
    for name, players, f, auto_moves in rows:
        print(
            f"{name:{wide}} {players:>5} {fmt(f['playouts']):>11} {fmt(f['length']):>11}"
            f" {fmt(f['moves']):>10} {fmt(auto_moves):>13}"
        )
    if "rlcard uno" in measured and "contrecarte" in measured:
        peer = measured["rlcard uno"]
        print()
        for label, key in (("random", "contrecarte"), ("uno-policy", "contrecarte/uno-policy")):
            print(
                f"contrecarte ({label}) / rlcard uno:"
                f" playouts/s x{ratio(measured[key], peer, 'playouts'):.2f},"
                f" moves/s x{ratio(measured[key], peer, 'moves'):.2f}"
            )
        print(
            "ceiling for random Contrecarte games, an engine costing nothing / rlcard uno:"
            f" playouts/s x{ratio(measured[weightless], peer, 'playouts'):.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
