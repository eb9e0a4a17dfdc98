"""The games the server deals, their player counts and options."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tablee.games import game_names, get_game

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
async def games() -> list[dict[str, Any]]:
    """Every game: name, title, summary, player counts and options with their defaults."""
    return [get_game(name).describe() for name in game_names()]
