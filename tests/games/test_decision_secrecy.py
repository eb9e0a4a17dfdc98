"""No seat decides with what it cannot know: its legal actions (sent to its client), the reasons
its actions are refused for, and the move the table makes for it on a timeout (played in its name,
in view of everyone) depend only on what that seat may know.

Random states of every game, at every allowed player count, are checked against twins that differ
only in what one seat cannot know: the cards hidden from it shuffled among the places they lie in
(``conformance.relabelled``, kept when the seat's view of it is the same), and, where a game keeps
a secret that is not a card's name, that secret changed (who holds Tarot's called card; whether a
pending Contrecarte +4 was legal).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tablee.engine import Game
from tablee.games import game_names, get_game
from tablee.games.contrecarte import Phase as ContrecartePhase
from tablee.games.tarot import Phase as TarotPhase
from tablee.games.tarot import TarotState

from .conformance import (
    MAX_STEPS,
    check_decisions_secret,
    copy_of,
    decision_tries,
    twin_unseen,
)
from .variants import variant_cases

#: states checked per game and player count, spread over one game
STATES = 16

CASES: list[tuple[str, int, dict[str, Any]]] = [
    (name, n, {})
    for name in game_names()
    for n in range(get_game(name).min_players, get_game(name).max_players + 1)
]
# the turned card hidden from everyone during the bidding
CASES += [("motton", n, {"blind": True, "constrained": True}) for n in (2, 5)]
# every variant (DECISIONS.md, "Variants") at every player count
CASES += variant_cases()


def _tarot_partner_moved(state: Any, seat: int, rnd: random.Random) -> Any | None:
    """The called card's name is public, where it lies is not: while ``seat`` does not know the
    partner, swap the called card with a card hidden from ``seat`` lying elsewhere (another
    hand, or the chien or écart it cannot see), and move the partner with it."""
    assert isinstance(state, TarotState)
    game = get_game("tarot")
    called = state.called
    if called is None or state.partner_known or state.phase is not TarotPhase.PLAY:
        return None
    if called in state.hands[seat] or (seat == state.taker and called in state.ecart):
        return None
    places: list[tuple[str, int | None]] = [
        ("hands", s) for s in range(state.players) if s != seat
    ]
    places.append(("chien", None))
    if seat != state.taker:
        places.append(("ecart", None))

    def cards_at(data: dict[str, Any], place: tuple[str, int | None]) -> list[str]:
        field, s = place
        return data[field][s] if s is not None else data[field]

    data = game.to_json(state)
    home = next(p for p in places if called in cards_at(data, p))
    secret = game.hidden(state, seat)
    others = [(p, c) for p in places if p != home for c in cards_at(data, p) if c in secret]
    if not others:
        return None
    place, card = rnd.choice(others)
    mine, theirs = cards_at(data, home), cards_at(data, place)
    mine[mine.index(called)] = card
    theirs[theirs.index(card)] = called
    taker = state.taker
    data["partner"] = next(
        (s for s, hand in enumerate(data["hands"]) if called in hand and s != taker), None
    )
    return game.from_json(data)


def _plus4_flipped(state: Any, seat: int, rnd: random.Random) -> Any | None:
    """Whether a pending +4 was legal is known to its poser only (the contest reveals it)."""
    if state.phase is not ContrecartePhase.CONTEST or seat == state.poser:
        return None
    game = get_game("contrecarte")
    data = game.to_json(state)
    data["plus4_legal"] = not data["plus4_legal"]
    return game.from_json(data)


Twin = Callable[[Any, int, random.Random], Any | None]
#: the secrets of a game that are not a card's name
SECRET_TWINS: dict[str, Twin] = {"tarot": _tarot_partner_moved, "contrecarte": _plus4_flipped}


def sampled_states(game: Game, players: int, seed: int, options: dict[str, Any]) -> list[Any]:
    """``STATES`` states of one game, played half by the timeout move (states as a table plays
    them: contracts taken, slams, freezes) and half at random (states nobody would choose), taken
    in turn from each phase the game went through (a Contrecarte contest is a few states of
    hundreds)."""
    rnd = random.Random(seed)
    state = game.new(players=players, options=options, seed=seed)
    by_phase: dict[str, list[Any]] = {}
    for _ in range(MAX_STEPS):
        by_phase.setdefault(str(game.view(state, None)["phase"]), []).append(state)
        if game.is_over(state):
            break
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        seat = rnd.choice(movers)
        if rnd.random() < 0.5:
            action = game.auto_action(state, seat)
        else:
            action = rnd.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    for states in by_phase.values():
        rnd.shuffle(states)
    picks: list[Any] = []
    while len(picks) < STATES and any(by_phase.values()):
        for states in by_phase.values():
            if states and len(picks) < STATES:
                picks.append(states.pop())
    return picks


def ids(case: tuple[str, int, dict[str, Any]]) -> str:
    name, n, options = case
    return "-".join([name, f"{n}p", *sorted(options)])


@pytest.mark.parametrize("case", CASES, ids=[ids(c) for c in CASES])
def test_a_seat_decides_only_with_what_it_may_know(
    case: tuple[str, int, dict[str, Any]], playouts: int | None
) -> None:
    """One game per case; ``--playouts N`` samples N games."""
    name, n, options = case
    game = get_game(name)
    rnd = random.Random(n)
    extra = SECRET_TWINS.get(name)
    checked = missed = 0
    states = [
        state
        for k in range(playouts or 1)
        for state in sampled_states(game, n, 100 * k + n, options)
    ]
    for state in states:
        tries = decision_tries(game, state, n, game.normalize_options(options))
        for seat in range(n):
            twins = [twin_unseen(game, state, seat, rnd)]
            missed += twins[0] is None
            if extra is not None:
                twins.append(extra(copy_of(game, state), seat, rnd))
            for twin in twins:
                if twin is not None:
                    check_decisions_secret(game, state, twin, seat, tries)
                    checked += 1
    # the check must not pass by finding no twin
    assert missed <= checked // 4, (checked, missed)


class _PeekingGame:
    """A real game whose every seat may also name the first card of the next seat's secrets."""

    def __init__(self, inner: Game) -> None:
        self._inner = inner

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._inner, attr)

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        nxt = (seat + 1) % self._inner.players(state)
        peek = min(self._inner.hidden(state, seat) - self._inner.hidden(state, nxt))
        return [*self._inner.legal_actions(state, seat), {"type": "peek", "card": peek}]


@pytest.mark.parametrize("name", game_names())
def test_the_decision_check_bites(name: str) -> None:
    inner = get_game(name)
    n = inner.min_players
    state = inner.new(players=n, options={}, seed=3)
    rnd = random.Random(3)
    twin = twin_unseen(inner, state, 0, rnd)
    assert twin is not None
    check_decisions_secret(inner, state, twin, 0, [])
    with pytest.raises(AssertionError, match="legal depends on what it cannot know"):
        check_decisions_secret(_PeekingGame(inner), state, twin, 0, [])
