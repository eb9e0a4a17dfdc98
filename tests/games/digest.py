"""A seeded behaviour digest of every game: what a refactor of the engines must leave unchanged.

Seeded games of every registered game, at every player count and under a few option sets, are
played to the end by four policies (uniformly random moves, the timeout move ``auto_action``, the
robots' ``tablee.bots.play``, and a mix of random and timeout moves, which plays through JSON: the
state it moves from is read back from its JSON form). At every step a sha256 takes in the state's
JSON form, ``to_act``, ``is_over``, every seat's legal actions, every seat's view and the
spectator's (and the cards each may not see), the cards of the state, the events of the move
played, and the refusal (``IllegalAction`` code and reason) of a handful of malformed or illegal
actions: an unknown type, a type that is no string, an action that is no object, a seat that does
not exist, another seat's move, a move without its fields, a field of the wrong type, a card that
is not in hand or is no card at all. Once a game is over, its outcome and the refusals of a game
over go in too; and each game's ``describe()`` and decks.

``python -m tests.games.digest`` prints each game's digest (``--cases``: each case's, to find
where two versions part).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tablee import bots
from tablee.engine import Game, IllegalAction
from tablee.games import game_names, get_game

#: a game longer than this is a bug, not a case
MAX_STEPS = 20_000

POLICIES = ("random", "auto", "bot", "mixed")


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    policy: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.game}-{self.players}p-{self.policy}-{self.seed}" + (
            f"[{opts}]" if opts else ""
        )


#: option sets played besides the defaults, per game (the defaults always are)
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "belote": [{"target": 500}, {"target": 1000}],
    "contree": [{"target": 500}],
    "tarot": [{"deals": 2}],
    "motton": [{"blind": True}, {"constrained": True}],
    "freeze": [{"rounds": 1}],
}

#: games whose random games are long (over a thousand moves): fewer of them
_LONG = {"motton", "yaniv"}


def cases(name: str) -> Iterator[Case]:
    game = get_game(name)
    for n in range(game.min_players, game.max_players + 1):
        # every policy under the default options, the first dealer moved for one of them
        for i, policy in enumerate(POLICIES):
            options = {"first_dealer": 0} if policy == "mixed" else {}
            yield Case(name, n, policy, 100 * n + i, options)
        if name not in _LONG:
            yield Case(name, n, "random", 100 * n + 9)
        for j, options in enumerate(OPTION_SETS.get(name, [])):
            yield Case(name, n, POLICIES[(n + j) % len(POLICIES)], 100 * n + 50 + j, options)


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def _refusal(game: Game, state: Any, seat: Any, action: Any) -> Any:
    """How ``game`` answers ``seat`` playing ``action``: the refusal's code and reason, or what
    an accepted action gives (the next state and its events)."""
    try:
        after, events = game.apply(state, seat, action)
    except IllegalAction as exc:
        return ["refused", exc.code, exc.reason]
    except Exception as exc:  # a crash is behaviour too, kept visible
        return ["crashed", type(exc).__name__, str(exc)]
    return ["accepted", game.to_json(after), events]


def _bad_actions(
    game: Game,
    players: int,
    options: dict[str, Any],
    to_act: tuple[int, ...],
    legal: dict[int, list[dict[str, Any]]],
    rnd: random.Random,
) -> list[tuple[Any, Any]]:
    acting = next((s for s in to_act if legal[s]), to_act[0] if to_act else 0)
    out: list[tuple[Any, Any]] = [
        (acting, {"type": "frobnicate"}),
        (acting, {"type": ["play"]}),
        (acting, "play"),
        (players, {"type": "pass"}),
        (True, {"type": "pass"}),
    ]
    mine = legal.get(acting, [])
    # another seat's move: a seat that may do nothing now tries the acting seat's
    idle = [s for s in range(players) if not legal[s]]
    if idle and mine:
        out.append((rnd.choice(idle), rnd.choice(mine)))
    with_fields = [a for a in mine if len(a) > 1]
    if with_fields:
        template = rnd.choice(with_fields)
        bare = {"type": template["type"]}
        if bare not in mine:
            out.append((acting, bare))
        key = sorted(k for k in template if k != "type")[0]
        out.append((acting, dict(template, **{key: [template[key]]})))
    cards = [a for a in mine if "card" in a]
    if cards:
        template = rnd.choice(cards)
        allowed = {a["card"] for a in cards if a["type"] == template["type"]}
        others = [c for c in game.deck(players, options) if c not in allowed]
        if others:
            out.append((acting, dict(template, card=rnd.choice(others))))
        out.append((acting, dict(template, card="ZZ")))
        out.append((acting, dict(template, card=7)))
    return out


def play_case(case: Case, h: Any) -> int:
    """Plays ``case`` into the hash ``h``; returns the number of moves."""
    game = get_game(case.game)
    n = case.players
    rnd = random.Random(case.label())
    options = game.normalize_options(case.options)
    state = game.new(n, case.options, seed=case.seed)
    upd = h.update
    for step in range(MAX_STEPS):
        if case.policy == "mixed":
            state = game.from_json(json.loads(_dump(game.to_json(state))))
        upd(_dump(game.to_json(state)))
        over = game.is_over(state)
        to_act = game.to_act(state)
        legal = {s: game.legal_actions(state, s) for s in range(n)}
        upd(_dump([over, to_act, legal]))
        for seat in [*range(n), None]:
            upd(_dump(game.view(state, seat)))
            upd(_dump(sorted(game.hidden(state, seat))))
        upd(_dump(game.cards(state)))
        bad = _bad_actions(game, n, options, to_act, legal, rnd)
        upd(_dump([_refusal(game, state, s, a) for s, a in bad]))
        if over:
            upd(_dump(game.outcome(state)))
            return step
        movers = [s for s in to_act if legal[s]]
        seat = movers[0] if case.policy in ("auto", "bot") else rnd.choice(movers)
        if case.policy == "random" or (case.policy == "mixed" and rnd.random() < 0.5):
            action = rnd.choice(legal[seat])
        elif case.policy == "bot":
            action = bots.play(game, state, seat)
        else:
            action = game.auto_action(state, seat)
        state, events = game.apply(state, seat, action)
        upd(_dump([seat, action, events]))
    raise AssertionError(f"{case.label()} did not end within {MAX_STEPS} steps")


def game_digest(name: str, per_case: dict[str, str] | None = None) -> str:
    """The digest of every case of game ``name``; ``per_case`` receives each case's own."""
    whole = hashlib.sha256()
    game = get_game(name)
    decks = [
        game.deck(n, game.normalize_options({}))
        for n in range(game.min_players, game.max_players + 1)
    ]
    whole.update(_dump([game.describe(), decks]))
    for case in cases(name):
        one = hashlib.sha256()
        play_case(case, one)
        digest = one.hexdigest()
        whole.update(digest.encode())
        if per_case is not None:
            per_case[case.label()] = digest
    return whole.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to digest (default: all)")
    parser.add_argument("--cases", action="store_true", help="print each case's digest too")
    args = parser.parse_args(argv)
    for name in args.games or game_names():
        start = time.process_time()
        per_case: dict[str, str] = {}
        digest = game_digest(name, per_case)
        took = time.process_time() - start
        print(f"{name:12} {digest}  ({len(per_case)} cases, {took:.1f} s CPU)")
        if args.cases:
            for label, d in per_case.items():
                print(f"  {label:40} {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
