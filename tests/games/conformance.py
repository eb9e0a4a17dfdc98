"""The invariants every registered game must keep, as reusable checks.

``test_conformance.py`` runs them on random playouts of every game; the checks live here so that a
test can also feed them a deliberately broken game and see them fail.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import fields
from typing import Any

from tablee import bots
from tablee.engine import Game, IllegalAction, visible_events
from tablee.engine.secrecy import leaks
from tablee.games import replay

MAX_STEPS = 30_000


def canonical(game: Game, state: Any) -> str:
    return json.dumps(game.to_json(state), sort_keys=True)


def check_views(
    game: Game, state: Any, players: int, events: list[dict[str, Any]] | None = None
) -> None:
    """No seat's view or events name a card it may not see; a spectator sees no hand. The views
    built at once (``views``, as every seat is told a change) are the views built one by one."""
    seats = [*range(players), None]
    # the same text: the same keys in the same order
    each = json.dumps([[seat, game.view(state, seat)] for seat in seats])
    assert json.dumps([list(v) for v in game.views(state, seats).items()]) == each
    assert game.views(state, seats[1:2]) == {seats[1]: game.view(state, seats[1])}
    assert game.views(state, []) == {}
    for seat in seats:
        view = game.view(state, seat)
        json.dumps(view)  # JSON-able
        secret = game.hidden(state, seat)
        leaked = leaks(view, secret)
        assert not leaked, f"view of seat {seat} leaks {sorted(leaked)}"
        leaked = leaks(visible_events(events or [], seat), secret)
        assert not leaked, f"events for seat {seat} leak {sorted(leaked)}"


def check_fields(state: Any) -> None:
    """The state holds exactly its dataclass's fields, in order, and equals the state its
    constructor builds from them. The engine makes states without the constructor (``evolve``,
    a dict of fields sealed): a field missing, extra or misspelt there escapes the type checker
    and the dataclass's ``==``."""
    names = [f.name for f in fields(state)]
    assert list(vars(state)) == names, f"fields {list(vars(state))}, not {names}"
    assert type(state)(**vars(state)) == state, "not the state the constructor builds"


def copy_of(game: Game, state: Any) -> Any:
    """A copy of ``state`` that shares nothing with it: its JSON form read back."""
    return game.from_json(json.loads(json.dumps(game.to_json(state))))


def check_refused(game: Game, state: Any, seat: int, action: Any, snapshot: Any = None) -> None:
    """``snapshot``: ``copy_of(game, state)`` when the caller already has one. Comparing the
    state with an unshared copy catches a change made in place; comparing canonical JSON forms
    did the same at several times the cost, once per refused action."""
    if snapshot is None:
        snapshot = copy_of(game, state)
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        assert str(exc), "IllegalAction must carry a reason"
    else:
        raise AssertionError(
            f"{game.name}: seat {seat} action {action!r} was accepted but not legal"
        )
    assert state == snapshot, "a refused action changed the state"


def illegal_samples(
    game: Game, state: Any, players: int, options: dict[str, Any], rnd: random.Random
) -> list[tuple[int, Any]]:
    """Malformed and illegal actions to try: unknown type, a type that is no string, missing
    fields, not an object, wrong seat, a card that is not legal."""
    out: list[tuple[int, Any]] = []
    seat = rnd.randrange(players)
    out += [(seat, {"type": "frobnicate"}), (seat, "play"), (seat, {"card": "AS"}), (seat, None)]
    # a type that is not a string, not even hashable (JSON gives lists and objects)
    out += [(seat, {"type": ["play"]}), (seat, {"type": {"play": 1}})]
    out += [(players, {"type": "pass"}), (-1, {"type": "pass"})]
    legal_by_seat = {s: game.legal_actions(state, s) for s in range(players)}
    for s, legal in legal_by_seat.items():
        for action in legal:
            if len(action) > 1:
                bare = {"type": action["type"]}
                if bare not in legal:
                    out.append((s, bare))
                break
    for s, legal in legal_by_seat.items():
        if not legal:
            # a seat with nothing to do tries what someone else may do
            for other in legal_by_seat.values():
                if other:
                    out.append((s, rnd.choice(other)))
                    break
    for s, legal in legal_by_seat.items():
        cards = [a for a in legal if "card" in a]
        if cards:
            template = rnd.choice(cards)
            allowed = {a["card"] for a in cards if a["type"] == template["type"]}
            deck = game.deck(players, options)
            candidates = [c for c in deck if c not in allowed]
            if candidates:
                bad = dict(template, card=rnd.choice(candidates))
                if bad not in legal:
                    out.append((s, bad))
            out.append((s, dict(template, card="ZZ")))
    return out


def playout(
    game: Game,
    players: int,
    seed: int,
    *,
    thorough: bool = True,
    options: dict[str, Any] | None = None,
) -> Any:
    """One random game to the end, checking every invariant at every step."""
    rnd = random.Random(seed)
    options = dict(options or {})
    state = game.new(players=players, options=options, seed=seed)
    deck = Counter(game.deck(players, game.normalize_options(options)))
    log: list[tuple[int, dict[str, Any]]] = []
    events: list[dict[str, Any]] = []
    for step in range(MAX_STEPS):
        assert Counter(game.cards(state)) == deck, f"cards not conserved at step {step}"
        restored = copy_of(game, state)
        assert restored == state, "state does not round-trip through JSON"
        check_fields(state)
        check_fields(restored)
        check_views(game, state, players, events)
        if game.is_over(state):
            assert game.to_act(state) == (), "to_act must be empty when the game is over"
            for s in range(players):
                assert game.legal_actions(state, s) == [], "no legal action once over"
            out = game.outcome(state)
            assert out is not None and len(out["scores"]) == players
            assert all(0 <= w < players for w in out["winners"])
            break
        to_act = game.to_act(state)
        legal = {s: game.legal_actions(state, s) for s in range(players)}
        assert to_act, "nobody to act but the game is not over"
        assert any(legal[s] for s in to_act), f"no seat in to_act {to_act} has a legal action"
        for s in to_act:
            if legal[s]:
                auto = game.auto_action(state, s)
                assert auto in legal[s], f"auto_action {auto!r} of seat {s} is not legal"
        if thorough:
            for s, acts in legal.items():
                for a in acts:
                    game.apply(state, s, a)  # must not raise
            assert state == restored, "a legal action changed the state it was applied to"
            for s, bad in illegal_samples(
                game, state, players, game.normalize_options(options), rnd
            ):
                check_refused(game, state, s, bad, restored)
        # mostly the seats the game waits on; sometimes an out-of-turn move
        movers = [s for s in to_act if legal[s]]
        others = [s for s in range(players) if legal[s] and s not in to_act]
        seat = rnd.choice(others) if others and rnd.random() < 0.15 else rnd.choice(movers)
        action = rnd.choice(legal[seat])
        state, events = game.apply(state, seat, action)
        log.append((seat, action))
    else:
        raise AssertionError(f"{game.name} did not end within {MAX_STEPS} steps")
    rebuilt = replay(game, players, options, seed, log)
    assert canonical(game, rebuilt) == canonical(game, state), "replay differs from the game"
    return state


def auto_playout(game: Game, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
    """A game played by ``auto_action`` alone must end."""
    state = game.new(players=players, options=options or {}, seed=seed)
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return state
        seat = next(s for s in game.to_act(state) if game.legal_actions(state, s))
        state, _ = game.apply(state, seat, game.auto_action(state, seat))
    raise AssertionError(f"{game.name} played by auto_action did not end in {MAX_STEPS} steps")


# -- decisions that depend only on what the deciding seat may know --------------------------------


def relabelled(game: Game, state: Any, seat: int, rnd: random.Random) -> Any:
    """``state`` with the cards hidden from ``seat`` shuffled among the places they lie in: their
    names permuted everywhere in the state (dict keys included, so that whatever the state records
    about a card stays with the place it lies in), each name only with names dealt as many times
    (Contrecarte's single zeros stay single). Every place hidden from ``seat`` keeps its size.
    Not always a state the rules could reach (a card may land in a hand known to be void in its
    suit, a cached fact such as who holds the belote may no longer match the hands): the seat's
    decisions must not change either way, since a function of what the seat knows cannot tell.
    The seat may still tell the two apart where the rules show something of a hidden card (a
    tarot écart shows its trumps): ``twin_unseen`` keeps only twins the seat sees alike."""
    secret = game.hidden(state, seat)
    copies = Counter(c for c in game.cards(state) if c in secret)
    mapping: dict[str, str] = {}
    by_count: dict[int, list[str]] = {}
    for card, k in sorted(copies.items()):
        by_count.setdefault(k, []).append(card)
    for names in by_count.values():
        shuffled_names = names[:]
        rnd.shuffle(shuffled_names)
        mapping.update(zip(names, shuffled_names, strict=True))

    def swap(obj: Any) -> Any:
        if isinstance(obj, str):
            return mapping.get(obj, obj)
        if isinstance(obj, list):
            return [swap(x) for x in obj]
        if isinstance(obj, dict):
            return {mapping.get(k, k): swap(v) for k, v in obj.items()}
        return obj

    return game.from_json(swap(game.to_json(state)))


def twin_unseen(
    game: Game, state: Any, seat: int, rnd: random.Random, attempts: int = 20
) -> Any | None:
    """A ``relabelled`` twin of ``state`` whose view for ``seat`` is the same, if one of
    ``attempts`` is."""
    view = game.view(state, seat)
    for _ in range(attempts):
        twin = relabelled(game, state, seat, rnd)
        if game.view(twin, seat) == view:
            return twin
    return None


def decision_tries(game: Game, state: Any, players: int, options: dict[str, Any]) -> list[Any]:
    """Actions to put to a seat: every seat's legal actions, and each one naming a card with every
    card of the deck instead (most of them refused, each with its reason)."""
    tries: list[Any] = []
    seen: set[str] = set()

    def add(action: Any) -> None:
        key = json.dumps(action, sort_keys=True)
        if key not in seen:
            seen.add(key)
            tries.append(action)

    deck = sorted(set(game.deck(players, options)))
    for s in range(players):
        for action in game.legal_actions(state, s):
            add(action)
            if "card" in action:
                for card in deck:
                    add(dict(action, card=card))
    return tries


def decisions(game: Game, state: Any, seat: int, tries: list[Any]) -> dict[str, Any]:
    """What ``seat`` is told when it decides: its legal actions, the move the table makes for it on
    a timeout (and a bot in its seat), and the answer (accepted, or the refusal's code and
    reason) to each of ``tries``."""

    def answer(call: Any) -> Any:
        try:
            return call()
        except IllegalAction as exc:
            return ["refused", exc.code, str(exc)]

    legal = game.legal_actions(state, seat)
    out: dict[str, Any] = {"legal": legal}
    out["auto"] = answer(lambda: game.auto_action(state, seat)) if legal else None
    # a bot seat's move (its own bidding from its view, else the timeout move)
    out["bot"] = answer(lambda: bots.play(game, state, seat)) if legal else None
    out["answers"] = [
        "accepted" if a in legal else answer(lambda a=a: game.apply(state, seat, a) and "accepted")
        for a in tries
    ]
    return out


def check_decisions_secret(game: Game, state: Any, twin: Any, seat: int, tries: list[Any]) -> None:
    """``twin`` differs from ``state`` only in what ``seat`` may not know, and the seat sees the
    same view of both: it must get the same legal actions, timeout move and refusals."""
    assert game.view(twin, seat) == game.view(state, seat), "the seat can tell the twins apart"
    a, b = decisions(game, state, seat, tries), decisions(game, twin, seat, tries)
    for key in ("legal", "auto", "bot"):
        assert a[key] == b[key], (
            f"{game.name}: seat {seat}'s {key} depends on what it cannot know:"
            f" {a[key]!r} / {b[key]!r}"
        )
    for action, x, y in zip(tries, a["answers"], b["answers"], strict=True):
        assert x == y, (
            f"{game.name}: the answer to seat {seat}'s {action!r} depends on what it cannot"
            f" know: {x!r} / {y!r}"
        )
