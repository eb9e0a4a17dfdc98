"""The ``tablee`` command: ``simulate``, ``replay`` (and ``serve`` once the server is installed)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tablee import bots
from tablee.engine import IllegalAction, UnknownGame, get_game, replay, visible_events
from tablee.games import game_names


def _fmt(action: dict[str, Any]) -> str:
    return json.dumps(action, ensure_ascii=False, separators=(",", ":"))


def _fmt_event(event: dict[str, Any]) -> str:
    who = f" seat {event['seat']}" if event.get("seat") is not None else ""
    rest = {k: v for k, v in event.items() if k not in ("type", "seat")}
    return f"{event['type']}{who} {_fmt(rest)}" if rest else f"{event['type']}{who}"


def simulate(game_name: str, players: int, seed: int, options: dict[str, Any]) -> int:
    game = get_game(game_name)
    state = game.new(players=players, options=options, seed=seed)
    print(f"# {game.title}: {players} joueurs, graine {seed}")
    step = 0
    while (move := bots.next_move(game, state)) is not None:
        seat, action = move
        state, events = game.apply(state, seat, action)
        step += 1
        print(f"{step:5d}  seat {seat}  {_fmt(action)}")
        # what followed from the move, as a spectator sees it (no hidden card)
        for event in visible_events(events, None):
            if event.get("type") == action["type"] and event.get("seat") == seat:
                continue  # the action itself
            print(f"{'':13}-> {_fmt_event(event)}")
    outcome = game.outcome(state)
    print(f"# outcome: {json.dumps(outcome, ensure_ascii=False)}")
    return 0


def replay_file(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    game = get_game(data["game"])
    actions = [(row["seat"], row["action"]) for row in data["actions"]]
    state = game.new(
        players=data["players"],
        options=data.get("options"),
        seed=data["seed"],
        deck=data.get("deck"),
    )
    print(f"# {game.title}, table {data.get('table', '?')}, {len(actions)} actions")
    for i, (seat, action) in enumerate(actions, 1):
        state, _ = game.apply(state, seat, action)
        print(f"{i:5d}  seat {seat}  {_fmt(action)}")
        print(json.dumps(game.to_json(state), ensure_ascii=False, sort_keys=True))
    final = replay(
        game, data["players"], data.get("options"), data["seed"], actions, deck=data.get("deck")
    )
    assert game.to_json(final) == game.to_json(state)
    print(f"# over: {game.is_over(state)}; outcome: {json.dumps(game.outcome(state))}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablee", description="tablée card-table server")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("simulate", help="bots play a whole game and the log is printed")
    s.add_argument("--game", default="contrecarte")
    s.add_argument("--players", type=int, default=None)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--options", default="{}", help="table options as JSON")
    r = sub.add_parser("replay", help="rebuild and print every state of an exported table")
    r.add_argument("file")
    sub.add_parser("games", help="list the games")
    _add_serve(sub)
    return p


def _add_serve(sub: Any) -> None:
    try:
        from tablee.api.cli import add_serve_parser  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return
    add_serve_parser(sub)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "simulate":
            game = get_game(args.game)
            players = args.players or game.min_players
            return simulate(args.game, players, args.seed, json.loads(args.options))
        if args.command == "replay":
            return replay_file(args.file)
        if args.command == "games":
            for name in game_names():
                g = get_game(name)
                print(f"{name:12s} {g.min_players}-{g.max_players} joueurs  {g.title}")
            return 0
        handler = getattr(args, "handler", None)
        if handler is not None:
            return int(handler(args))
    except (UnknownGame, IllegalAction, ValueError) as exc:
        print(f"tablee: {exc}", file=sys.stderr)
        return 2
    return 1
