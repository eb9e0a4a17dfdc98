"""The ``tablee`` command: ``simulate``, ``replay``, ``verify`` (and ``serve`` once the server is
installed)."""

from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.parse
import urllib.request
from collections.abc import Sequence
from typing import Any

from tablee import bots
from tablee.engine import IllegalAction, UnknownGame, visible_events
from tablee.export import exported_games, state_digest
from tablee.fairness import verify_game
from tablee.games import game_names, get_game, replay


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
    """Every state of an exported table, game by game: each action, then the state it leads to
    (``game.to_json``, one JSON line). Exits 1 when a game's final state differs from the table's
    (its ``final_state_sha256``) or a game cannot be rebuilt."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    game = get_game(data["game"])
    players, table_options = data["players"], data.get("options")
    status = 0
    for g in exported_games(data):
        options = table_options if g.options is None else g.options
        head = f"# {game.title}, table {data.get('table', '?')}, game {g.game_no}"
        if g.seed is None and g.deck is None:
            print(f"{head}: no seed was kept for this game; it cannot be rebuilt")
            status = 1
            continue
        print(f"{head}, {len(g.actions)} actions")
        state = game.new(players=players, options=options, seed=g.seed, deck=g.deck)
        print(json.dumps(game.to_json(state), ensure_ascii=False, sort_keys=True))
        for i, (seat, action) in enumerate(g.actions, 1):
            state, _ = game.apply(state, seat, action)
            print(f"{i:5d}  seat {seat}  {_fmt(action)}")
            print(json.dumps(game.to_json(state), ensure_ascii=False, sort_keys=True))
        final = replay(game, players, options, g.seed, g.actions, deck=g.deck)
        assert game.to_json(final) == game.to_json(state)
        print(f"# over: {game.is_over(state)}; outcome: {json.dumps(game.outcome(state))}")
        if g.digest is not None:
            digest = state_digest(game, state)
            if digest == g.digest:
                print(f"# final state matches the table's (sha256 {digest})")
            else:
                print(
                    f"tablee: game {g.game_no}: the replay ends on sha256 {digest},"
                    f" the table ended on {g.digest}",
                    file=sys.stderr,
                )
                status = 1
    return status


def _load(source: str) -> dict[str, Any]:
    """An export file, or a table's address: its page (``…/#/table/7``, ``…/#/replay/7/1``) or
    an API address (``…/api/tables/7/log``, a game's ``…/replay``), fetched over HTTP."""
    if not re.match(r"^https?://", source):
        with open(source, encoding="utf-8") as f:
            data = json.load(f)
    else:
        url = source
        if "/api/" not in source:
            m = re.search(r"/(?:table|tables|replay)/(\d+)", source)
            if m is None:
                raise ValueError(f"no table number in {source!r}")
            parts = urllib.parse.urlsplit(source)
            url = f"{parts.scheme}://{parts.netloc}/api/tables/{m.group(1)}/log"
            # a private table's link carries its invitation code, which the log needs too
            code = re.search(r"[?&]invitation=([\w-]+)", source)
            if code is not None:
                url += f"?invitation={code.group(1)}"
        with urllib.request.urlopen(url, timeout=30) as resp:
            data = json.loads(resp.read().decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("not a table export")
    return data


def verify_source(source: str) -> int:
    """``tablee verify``: each finished game of an export (or of a table, fetched): its seed and
    salt hash to the commitment published at the deal, and the seed deals the game played (the
    log replayed: every move legal, the same end). Exit 0 when at least one game was checked and
    every finished game passed; 1 otherwise (a stacked deck is never verified)."""
    data = _load(source)
    game = get_game(data["game"])
    players, table_options = data["players"], data.get("options")
    checked = failed = 0
    for g in exported_games(data):
        head = f"{game.title}, table {data.get('table', '?')}, game {g.game_no}"
        if g.status is not None and g.status != "finished":
            print(f"# {head}: not over, seed not revealed: skipped")
            continue
        options = table_options if g.options is None else g.options
        check = verify_game(
            game,
            players,
            options,
            g.game_no,
            g.seed,
            g.salt,
            g.commitment,
            g.deck,
            g.actions,
            final_digest=g.digest,
            outcome=g.outcome,
        )
        checked += 1
        for note in check.notes:
            print(f"# {head}: {note}")
        if check.verified:
            print(f"{head}: VERIFIED")
        else:
            failed += 1
            for problem in check.problems:
                print(f"{head}: NOT VERIFIED: {problem}", file=sys.stderr)
    if checked == 0:
        print("tablee: no finished game to verify", file=sys.stderr)
        return 1
    return 1 if failed else 0


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
    v = sub.add_parser(
        "verify",
        help="check a finished table's shuffle: commitment, seed, deals and moves"
        " (an export file or the table's address)",
    )
    v.add_argument("source", help="an export file, or a table's address (http...)")
    sub.add_parser("games", help="list the games")
    _add_serve(sub)
    return p


def _add_serve(sub: Any) -> None:
    try:
        from tablee.api.cli import (  # type: ignore[import-not-found,unused-ignore]
            add_ratings_parser,
            add_serve_parser,
        )
    except ImportError:
        return
    add_serve_parser(sub)
    add_ratings_parser(sub)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "simulate":
            game = get_game(args.game)
            players = args.players or game.min_players
            return simulate(args.game, players, args.seed, json.loads(args.options))
        if args.command == "replay":
            return replay_file(args.file)
        if args.command == "verify":
            return verify_source(args.source)
        if args.command == "games":
            for name in game_names():
                g = get_game(name)
                print(f"{name:12s} {g.min_players}-{g.max_players} joueurs  {g.title}")
            return 0
        handler = getattr(args, "handler", None)
        if handler is not None:
            return int(handler(args))
    except (UnknownGame, IllegalAction, ValueError, KeyError, OSError) as exc:
        print(f"tablee: {exc}", file=sys.stderr)
        return 2
    return 1
