"""The one dispatch of ``BaseGame``: a game's declared moves decide who may move, which fields a
move needs and how each wrong move is refused, the same way for every game."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.moves import Move, MoveTable, card_of, refusal, whole_number
from tablee.engine.state import evolve


class Phase(enum.StrEnum):
    BID = "bid"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class Counting:
    players: int
    phase: Phase
    turn: int
    total: int


class CountingGame(BaseGame[Counting]):
    """Seats in turn bid a number, then play a card; a spy may look at any time."""

    name = "counting"
    title = "Counting"
    min_players = 2
    max_players = 3
    state_type = Counting
    over_phase = Phase.OVER

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> Counting:
        return Counting(players, Phase.BID, 0, 0)

    def _bid(self, state: Counting, seat: int, action: Action) -> tuple[Counting, list[Event]]:
        return evolve(state, phase=Phase.PLAY, total=action["value"]), []

    def _play(self, state: Counting, seat: int, action: Action) -> tuple[Counting, list[Event]]:
        return evolve(state, phase=Phase.OVER), [{"type": "play", "card": action["card"]}]

    def _look(self, state: Counting, seat: int, action: Action) -> tuple[Counting, list[Event]]:
        return state, [{"type": "look", "seat": seat, "to": [seat]}]

    moves: ClassVar[MoveTable] = {
        Phase.BID: {
            "bid": Move(
                _bid, {"value": whole_number("a {kind} needs '{field}'")}, turn="seat {turn} bids"
            ),
            "play": refusal("bid first", turn="not yours"),
            "look": Move(_look, only=True),
        },
        Phase.PLAY: {
            "play": Move(
                _play,
                {"card": card_of({"AS", "KH"}, "a play needs a card", "{value!r}: no such card")},
                turn="not yours",
            ),
            "look": Move(_look, only=True),
        },
    }

    def legal_actions(self, state: Counting, seat: int) -> list[Action]:
        out: list[Action] = [{"type": "look"}] if state.phase is not Phase.OVER else []
        if seat == state.turn and state.phase is Phase.BID:
            out.append({"type": "bid", "value": 1})
        if seat == state.turn and state.phase is Phase.PLAY:
            out += [{"type": "play", "card": "AS"}, {"type": "play", "card": "KH"}]
        return out

    def view(self, state: Counting, seat: int | None) -> dict[str, Any]:
        return {}

    def auto_action(self, state: Counting, seat: int) -> Action:
        return self.legal_actions(state, seat)[-1]

    def outcome(self, state: Counting) -> dict[str, Any] | None:
        return None

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return []

    def cards(self, state: Counting) -> list[str]:
        return []

    def hidden(self, state: Counting, seat: int | None) -> frozenset[str]:
        return frozenset()


GAME = CountingGame()


def refused(state: Counting, seat: int, action: Any) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, action)
    return err.value.code, err.value.reason


def test_the_common_reads_come_from_the_state_fields() -> None:
    state = GAME.new(2)
    assert GAME.players(state) == 2 and GAME.to_act(state) == (0,) and not GAME.is_over(state)
    over = evolve(state, phase=Phase.OVER)
    assert GAME.is_over(over) and GAME.to_act(over) == ()


def test_a_declared_move_is_played_by_its_handler() -> None:
    state, events = GAME.apply(GAME.new(2), 0, {"type": "bid", "value": 3})
    assert state.phase is Phase.PLAY and state.total == 3 and events == []
    state, events = GAME.apply(state, 0, {"type": "play", "card": "KH"})
    assert GAME.is_over(state) and events == [{"type": "play", "card": "KH"}]


def test_a_type_the_phase_does_not_take_gets_the_uniform_refusal() -> None:
    assert refused(GAME.new(2), 0, {"type": "pass"}) == (
        "illegal_action",
        "you cannot 'pass' now; you may: bid, look",
    )


def test_a_seat_the_game_does_not_wait_on_gets_the_moves_turn_text() -> None:
    assert refused(GAME.new(2), 1, {"type": "bid", "value": 1}) == ("not_your_turn", "seat 0 bids")


def test_fields_are_checked_once_the_seat_may_move() -> None:
    state = GAME.new(2)
    assert refused(state, 0, {"type": "bid"}) == ("bad_action", "a bid needs 'value'")
    assert refused(state, 0, {"type": "bid", "value": True}) == (
        "bad_action",
        "a bid needs 'value'",
    )
    play = GAME.apply(state, 0, {"type": "bid", "value": 1})[0]
    assert refused(play, 0, {"type": "play", "card": 7}) == ("bad_action", "a play needs a card")
    assert refused(play, 0, {"type": "play", "card": "QD"}) == ("bad_action", "'QD': no such card")
    # the turn before the fields
    assert refused(play, 1, {"type": "play"}) == ("not_your_turn", "not yours")


def test_only_refuses_any_other_field() -> None:
    assert refused(GAME.new(2), 1, {"type": "look", "at": 0}) == (
        "bad_action",
        "unexpected field 'at' in a look",
    )
    assert GAME.apply(GAME.new(2), 1, {"type": "look"})[1] == [
        {"type": "look", "seat": 1, "to": [1]}
    ]


def test_a_declared_refusal_says_why_after_the_turn_check() -> None:
    state = GAME.new(2)
    assert refused(state, 0, {"type": "play", "card": "AS"}) == ("illegal_action", "bid first")
    assert refused(state, 1, {"type": "play", "card": "AS"}) == ("not_your_turn", "not yours")


def test_fields_first_checks_the_fields_before_the_turn() -> None:
    class FieldsFirst(CountingGame):
        fields_first = True

    assert refused_by(FieldsFirst(), 1, {"type": "bid"}) == ("bad_action", "a bid needs 'value'")


def test_check_seat_refuses_before_anything_else() -> None:
    class Strict(CountingGame):
        def check_seat(self, state: Counting, seat: int) -> None:
            if seat != state.turn:
                raise IllegalAction(f"wait for seat {state.turn}", "not_your_turn")

    assert refused_by(Strict(), 1, {"type": "frobnicate"}) == ("not_your_turn", "wait for seat 0")


def refused_by(game: CountingGame, seat: int, action: Any) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as err:
        game.apply(game.new(2), seat, action)
    return err.value.code, err.value.reason


def test_waits_on_reads_the_seat_from_the_state_instead_of_to_act() -> None:
    class ByField(CountingGame):
        moves: ClassVar[MoveTable] = {
            Phase.BID: {"bid": Move(CountingGame._bid, turn="seat {turn} bids", waits_on="turn")}
        }

        def to_act(self, state: Counting) -> tuple[int, ...]:
            raise AssertionError("waits_on reads the state's field")

    game = ByField()
    state = game.new(2)
    with pytest.raises(IllegalAction, match="seat 0 bids"):
        game.apply(state, 1, {"type": "bid", "value": 1})
    assert game.apply(state, 0, {"type": "bid", "value": 1})[0].total == 1
