"""The delayed spectators' shadow game (``tables/spectators.py``), on whole robot games."""

from __future__ import annotations

from typing import Any

import pytest

from tablee import bots
from tablee.fairness import spectator_mode
from tablee.games import get_game
from tablee.tables.live import utcnow
from tablee.tables.records import PLAYING, TableRecord
from tablee.tables.spectators import Delay


def _record(game: str, players: int, options: dict[str, Any], seed: int) -> TableRecord:
    return TableRecord(
        id=1, game=game, options=options, players=players, turn_seconds=None, private=False,
        creator_id=None, status=PLAYING, game_no=1, seed=seed, deck=None, version=1,
        deadline=None, outcome=None, wins=[0] * players, rematch_votes=[], created_at=utcnow(),
    )  # fmt: skip


def _played(game: str, players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every state of a robots' game and the moves between them."""
    g = get_game(game)
    state = g.new(players, options, seed=seed)
    states, moves, ends = [state], [], []
    while (move := bots.next_move(g, state)) is not None and len(moves) < 400:
        state, events = g.apply(state, *move)
        states.append(state)
        moves.append(move)
        if any(e["type"] == "deal_end" for e in events):
            ends.append(len(moves))
    return [states, moves, ends]


def _log(moves: list[tuple[int, Any]]) -> tuple[list[int], list[Any]]:
    """The moves as a table keeps them: the seats, the actions (``LiveTable.move_seats``)."""
    return [seat for seat, _ in moves], [action for _, action in moves]


@pytest.mark.parametrize("mode", ["moves:5", "trick", "deal"])
def test_the_shadow_is_always_behind_and_a_deal_behind_never_shows_the_deal_played(
    mode: str,
) -> None:
    g = get_game("contree")
    rec = _record("contree", 4, {"target": 500}, 11)
    states, moves, ends = _played("contree", 4, {"target": 500}, 11)
    delay = Delay(spectator_mode(mode))
    shown = 0
    for seq in range(len(moves) + 1):
        delay.follow(rec, g, *_log(moves), seq)
        moment = delay.moment()
        if moment is None:
            continue
        shown += 1
        assert moment.seq < seq  # never the table as it is, never ahead
        assert g.to_json(moment.state) == g.to_json(states[moment.seq])
        if mode == "moves:5":
            assert seq - moment.seq == 5
        if mode == "deal":
            # the deal shown is over (its last move is played): none of its cards is in a hand
            # of the deal being played
            assert any(moment.seq < end <= seq for end in ends)
    assert shown > 10


def test_the_shadow_starts_again_with_a_new_game() -> None:
    g = get_game("belote")
    rec = _record("belote", 4, {}, 5)
    _, moves, _ = _played("belote", 4, {}, 5)
    delay = Delay(spectator_mode("moves:2"))
    delay.follow(rec, g, *_log(moves), 10)
    assert delay.moment() is not None and delay.moment().seq == 8  # type: ignore[union-attr]
    rec.game_no = 2
    delay.follow(rec, g, [], [], 0)
    assert delay.moment() is None and delay.seq == 0
