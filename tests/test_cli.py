"""The ``tablee`` command line."""

from __future__ import annotations

import json

import pytest

from tablee.cli import main


def test_simulate_prints_a_whole_contrecarte_game_to_its_outcome(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--game", "contrecarte", "--players", "4", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# Contrecarte: 4 joueurs")
    moves = [line for line in lines if line[:5].strip().isdigit()]
    assert moves and all("seat " in line and '"type":' in line for line in moves)
    assert lines[-1].startswith("# outcome: ")
    outcome = json.loads(lines[-1].removeprefix("# outcome: "))
    (winner,) = outcome["winners"]
    assert outcome["scores"][winner] == 1 and sum(outcome["scores"]) == 1
    # the winner made the last move
    assert moves[-1].split()[2] == str(winner)


def test_simulate_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "poker"]) == 2
    assert "known games" in capsys.readouterr().err
