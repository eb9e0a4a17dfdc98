"""Shared test settings. ``--playouts N`` (or TABLEE_PLAYOUTS) raises the number of random games
the conformance suite plays per game and player count."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--playouts",
        type=int,
        default=int(os.environ.get("TABLEE_PLAYOUTS", "0")) or None,
        help="random playouts per game and player count in the conformance suite",
    )


@pytest.fixture
def playouts(request: pytest.FixtureRequest) -> int | None:
    value: int | None = request.config.getoption("--playouts")
    return value
