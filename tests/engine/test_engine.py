from __future__ import annotations

import enum
from dataclasses import dataclass, replace

import pytest

from tablee.cards import deck_52, shuffled
from tablee.engine import (
    BaseGame,
    IllegalAction,
    InvalidOptions,
    OptionSpec,
    UnknownGame,
    visible_events,
)
from tablee.engine.options import OptionSet
from tablee.engine.secrecy import leaks
from tablee.engine.serial import from_jsonable, to_jsonable
from tablee.engine.state import evolve, plain
from tablee.games import get_game


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGame) as err:
        get_game("poker")
    assert "poker" in str(err.value) and "known games" in str(err.value)


def test_illegal_action_is_a_value_error_with_a_reason() -> None:
    err = IllegalAction("you must follow hearts")
    assert isinstance(err, ValueError)
    assert err.reason == "you must follow hearts" and err.code == "illegal_action"


def test_options_fill_defaults_and_name_the_bad_field() -> None:
    specs = OptionSet(
        (
            OptionSpec("target", "int", 2000, "Objectif", min=500, max=5000),
            OptionSpec("blind", "bool", False, "À l'aveugle"),
        )
    )
    assert specs.normalize({}) == {"target": 2000, "blind": False}
    with pytest.raises(InvalidOptions) as err:
        specs.normalize({"target": 10})
    assert err.value.field == "target" and "at least 500" in str(err.value)
    with pytest.raises(InvalidOptions, match="unknown option"):
        specs.normalize({"colour": 1})
    with pytest.raises(InvalidOptions, match="true or false"):
        specs.normalize({"blind": 1})


@dataclass(frozen=True)
class Inner:
    cards: tuple[str, ...]
    owner: int | None


@dataclass(frozen=True)
class Outer:
    hands: tuple[tuple[str, ...], ...]
    inner: Inner
    scores: dict[str, int]
    known: frozenset[str]
    pair: tuple[int, str]


def test_state_codec_round_trip() -> None:
    s = Outer((("AS", "KH"), ()), Inner(("7C",), None), {"a": 1}, frozenset({"b", "a"}), (1, "x"))
    data = to_jsonable(s)
    assert data["known"] == ["a", "b"]
    assert from_jsonable(Outer, data) == s


def test_visible_events_filters_and_strips_recipients() -> None:
    events = [{"type": "drew", "seat": 1, "card": "G7", "to": [1]}, {"type": "drew", "seat": 1}]
    assert visible_events(events, 1) == [{"type": "drew", "seat": 1, "card": "G7"}, events[1]]
    assert visible_events(events, 0) == [events[1]]
    assert visible_events(events, None) == [events[1]]


def test_leaks_finds_cards_in_keys_and_nested_values() -> None:
    assert leaks({"hand": ["AS"], "x": {"KH": 1}}, {"KH", "QD"}) == {"KH"}
    assert leaks({"hand": ["AS"]}, {"KH"}) == set()


class _Suit(enum.StrEnum):
    HEARTS = "KH"


class _Sub(dict[str, object]):
    pass


def test_leaks_looks_past_numbers_and_into_every_container() -> None:
    secret = {"KH", "QD", "7C", "JS", "AS", "TD"}
    view = {
        "scores": [0, 12, -3, 1.5, True, None],
        "deep": [[1, [2, ("QD",)]], {"n": 3}],
        7: {"x": frozenset({"7C"})},
        "set": {"JS"},
        "enum": _Suit.HEARTS,
        "sub": _Sub(AS=1, other=["TD"]),
    }
    assert leaks(view, secret) == secret
    assert leaks({"hand": ["AS"]}, set()) == set()


def test_first_cards_checks_a_stacked_deck_or_shuffles_from_the_seed() -> None:
    full = deck_52()
    assert BaseGame.first_cards(None, full, 7) == shuffled(full, 7, "deal", 1)
    assert BaseGame.first_cards(None, full, 7) != BaseGame.first_cards(None, full, 8)
    stacked = list(reversed(full))
    assert BaseGame.first_cards(stacked, full, 7) == stacked
    with pytest.raises(InvalidOptions, match="deck") as err:
        BaseGame.first_cards(full[:-1], full, 7)
    assert "missing" in str(err.value)
    for game in ("barbu", "motton", "freeze"):
        with pytest.raises(InvalidOptions, match="deck"):
            get_game(game).new(players=4, deck=["AS", "AS"])


def test_first_dealer_is_an_option_of_every_game_checked_against_the_seats() -> None:
    from tablee.games import game_names

    for name in game_names():
        game = get_game(name)
        n = game.min_players
        assert game.normalize_options({})["first_dealer"] is None
        # the lobby's form leaves it out: nobody has a seat when it is filled in
        assert "first_dealer" not in [o["name"] for o in game.describe()["options"]]
        game.new(n, {"first_dealer": n - 1})
        for bad in (n, -1, "0", True, 1.5):
            with pytest.raises(InvalidOptions) as err:
                game.new(n, {"first_dealer": bad})
            assert err.value.field == "first_dealer", (name, bad)


@dataclass(frozen=True)
class _Point:
    x: int
    y: int
    tags: tuple[str, ...] = ()


def test_evolve_is_replace_and_leaves_the_original_alone() -> None:
    p = _Point(1, 2, ("a",))
    q = evolve(p, y=5)
    assert q == replace(p, y=5) and type(q) is _Point
    assert p == _Point(1, 2, ("a",))
    assert list(vars(q)) == ["x", "y", "tags"]
    assert evolve(p) == p and evolve(p) is not p


def test_evolve_refuses_an_unknown_field() -> None:
    with pytest.raises(AssertionError, match="unknown fields"):
        evolve(_Point(1, 2), z=3)


def test_plain_keeps_the_fields_and_their_order() -> None:
    p = _Point(1, 2, ("a",))
    q = plain(p)
    assert q == p and q is not p and list(vars(q)) == ["x", "y", "tags"]
    assert evolve(q, x=0) == _Point(0, 2, ("a",))
