"""Every registered game, at every allowed player count, keeps the engine contract.

Seeded random playouts run to the end; ``--playouts N`` plays more of them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablee.engine import Game
from tablee.engine.state import evolve
from tablee.games import game_names, get_game

from .conformance import auto_playout, check_fields, check_refused, check_views, playout
from .variants import variant_cases

DEFAULT_PLAYOUTS = 3

CASES = [
    (name, n)
    for name in game_names()
    for n in range(get_game(name).min_players, get_game(name).max_players + 1)
]


def ids(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}p"


@pytest.mark.parametrize("case", CASES, ids=[ids(c) for c in CASES])
def test_random_playouts_keep_every_invariant(case: tuple[str, int], playouts: int | None) -> None:
    name, n = case
    game = get_game(name)
    for seed in range(playouts or DEFAULT_PLAYOUTS):
        # the default first dealer, then the others in turn (a rematch moves it)
        options = {} if seed == 0 else {"first_dealer": (seed - 1) % n}
        playout(game, n, seed, options=options)


@pytest.mark.parametrize("case", CASES, ids=[ids(c) for c in CASES])
def test_the_first_dealer_deals_and_the_next_seat_speaks_first(case: tuple[str, int]) -> None:
    """The option every game takes: the deal turns with the dealer (the same shuffle or stacked
    deck gives the hand of seat ``s`` under the default dealer to seat ``s + d + 1`` under dealer
    ``d``), and without it the last seat deals, exactly as before the option existed."""
    name, n = case
    game = get_game(name)
    default = game.new(n, {}, seed=11)
    assert game.to_json(default) == game.to_json(game.new(n, {"first_dealer": n - 1}, seed=11))
    assert game.view(default, None)["dealer"] == n - 1 and game.to_act(default) == (0,)
    stacked = game.deck(n, game.normalize_options({}))[::-1]
    stacked_default = game.new(n, {}, deck=stacked)
    for d in range(n):
        for state, base in (
            (game.new(n, {"first_dealer": d}, seed=11), default),
            (game.new(n, {"first_dealer": d}, deck=stacked), stacked_default),
        ):
            assert game.view(state, None)["dealer"] == d
            assert game.to_act(state) == ((d + 1) % n,)
            for s in range(n):
                assert game.hidden(state, (s + d + 1) % n) == game.hidden(base, s), (d, s)


VARIANT_CASES = variant_cases()


def variant_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, n, options = case
    return "-".join([name, f"{n}p", *(f"{k}={v}" for k, v in sorted(options.items()))])


@pytest.mark.parametrize("case", VARIANT_CASES, ids=[variant_id(c) for c in VARIANT_CASES])
def test_every_variant_keeps_every_invariant(
    case: tuple[str, int, dict[str, Any]], playouts: int | None
) -> None:
    """Random playouts of each variant (the first dealer moved as in the defaults' playouts), and
    a game played by the timeout move alone, which must end."""
    name, n, variant = case
    game = get_game(name)
    for seed in range(playouts or DEFAULT_PLAYOUTS):
        options = dict(variant) if seed == 0 else {**variant, "first_dealer": (seed - 1) % n}
        playout(game, n, seed, options=options)
    assert game.outcome(auto_playout(game, n, seed=2000 + n, options=variant)) is not None


@pytest.mark.parametrize("case", CASES, ids=[ids(c) for c in CASES])
def test_auto_action_alone_finishes_the_game(case: tuple[str, int]) -> None:
    name, n = case
    state = auto_playout(get_game(name), n, seed=1000 + n)
    assert get_game(name).outcome(state) is not None


@pytest.mark.parametrize("name", game_names())
def test_same_seed_same_deal(name: str) -> None:
    game = get_game(name)
    a = game.new(players=game.min_players, options={}, seed=42)
    b = game.new(players=game.min_players, options={}, seed=42)
    c = game.new(players=game.min_players, options={}, seed=43)
    assert game.to_json(a) == game.to_json(b)
    assert game.to_json(a) != game.to_json(c)


@pytest.mark.parametrize("name", game_names())
def test_secrets_exist_at_the_start(name: str) -> None:
    """Guards the leak check itself: a game that declared nothing hidden would pass it vacuously."""
    game = get_game(name)
    for n in (game.min_players, game.max_players):
        state = game.new(players=n, options={}, seed=5)
        assert game.hidden(state, None), "a spectator must not see every card"
        for seat in range(n):
            assert game.hidden(state, seat), f"seat {seat} sees every card at the start"


class _LeakyGame:
    """A real game whose view also shows the next seat's secret cards."""

    def __init__(self, inner: Game) -> None:
        self._inner = inner

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._inner, attr)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        view = dict(self._inner.view(state, seat))
        target = 0 if seat is None else (seat + 1) % self._inner.players(state)
        view["peek"] = sorted(self._inner.hidden(state, seat) - self._inner.hidden(state, target))
        return view

    def views(self, state: Any, seats: Any) -> dict[int | None, dict[str, Any]]:
        return {seat: self.view(state, seat) for seat in seats}


@pytest.mark.parametrize("name", game_names())
def test_the_leak_check_bites(name: str) -> None:
    inner = get_game(name)
    n = inner.min_players
    state = inner.new(players=n, options={}, seed=3)
    check_views(inner, state, n)
    with pytest.raises(AssertionError, match="leaks"):
        check_views(_LeakyGame(inner), state, n)  # type: ignore[arg-type]


class _TamperingGame:
    """A real game whose ``apply`` changes the state it is given before deciding."""

    def __init__(self, inner: Game) -> None:
        self._inner = inner

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._inner, attr)

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        # every state keeps its seed; a refusal does not read it
        object.__setattr__(state, "seed", f"{state.seed}-tampered")
        return self._inner.apply(state, seat, action)


@pytest.mark.parametrize("name", game_names())
def test_the_refusal_check_bites(name: str) -> None:
    inner = get_game(name)
    state = inner.new(players=inner.min_players, options={}, seed=3)
    check_refused(inner, state, 0, {"type": "frobnicate"})
    with pytest.raises(AssertionError, match="a refused action changed the state"):
        check_refused(_TamperingGame(inner), state, 0, {"type": "frobnicate"})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", game_names())
def test_the_field_check_bites(name: str) -> None:
    game = get_game(name)
    state = game.new(players=game.min_players, options={}, seed=3)
    check_fields(state)
    extra = evolve(state)
    extra.__dict__["sede"] = 3  # a misspelt field, unseen by ==
    assert extra == state
    with pytest.raises(AssertionError, match="fields"):
        check_fields(extra)
    missing = evolve(state)
    del missing.__dict__["seed"]
    with pytest.raises(AssertionError, match="fields"):
        check_fields(missing)
