"""A test game where every seat may act at any time: each ``tap`` carries a token the client
chose, and the state keeps every token in the order the table accepted them. A tap applied twice,
or lost after its ack, shows in the list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.engine import BaseGame, IllegalAction, OptionSpec
from tablee.engine.game import Action, Event
from tablee.games import get_game, register
from tablee.games.registry import _GAMES


@dataclass(frozen=True)
class RaceState:
    players: int
    target: int
    taps: tuple[tuple[int, str], ...]
    seed: int | str


class RaceGame(BaseGame[RaceState]):
    name = "race"
    title = "Race"
    min_players = 2
    max_players = 4
    state_type = RaceState
    option_specs = (OptionSpec("taps", "int", 20, "Taps", min=1, max=1000),)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> RaceState:
        return RaceState(players, options["taps"], (), seed)

    def players(self, state: RaceState) -> int:
        return state.players

    def is_over(self, state: RaceState) -> bool:
        return len(state.taps) >= state.target

    def to_act(self, state: RaceState) -> tuple[int, ...]:
        return () if self.is_over(state) else tuple(range(state.players))

    def legal_actions(self, state: RaceState, seat: int) -> list[Action]:
        return [] if self.is_over(state) else [{"type": "tap", "token": "any"}]

    def _apply(self, state: RaceState, seat: int, action: Action) -> tuple[RaceState, list[Event]]:
        token = action.get("token")
        if action.get("type") != "tap" or not isinstance(token, str):
            raise IllegalAction("a tap needs a 'token'", "bad_action")
        new = RaceState(state.players, state.target, (*state.taps, (seat, token)), state.seed)
        return new, [{"type": "tap", "seat": seat, "token": token}]

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "players": state.players,
            "phase": "over" if self.is_over(state) else "play",
            "seat": seat,
            "taps": [token for _, token in state.taps],
        }

    def auto_action(self, state: RaceState, seat: int) -> Action:
        return {"type": "tap", "token": f"auto-{seat}-{len(state.taps)}"}

    def outcome(self, state: RaceState) -> dict[str, Any] | None:
        if not self.is_over(state):
            return None
        counts = [sum(1 for s, _ in state.taps if s == seat) for seat in range(state.players)]
        return {"scores": counts, "winners": [s for s, c in enumerate(counts) if c == max(counts)]}

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return []

    def cards(self, state: RaceState) -> list[str]:
        return []

    def hidden(self, state: RaceState, seat: int | None) -> frozenset[str]:
        return frozenset()


def race() -> RaceGame:
    existing = _GAMES.get("race")
    if isinstance(existing, RaceGame):
        return existing
    game = RaceGame()
    register(game)
    assert get_game("race") is game
    return game
