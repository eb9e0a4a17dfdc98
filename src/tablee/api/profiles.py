"""Players' pages and the rated leaderboards: ``GET /api/profiles/{name}`` (games played and won
per game, ratings and their history, the last games with their results' links) and
``GET /api/leaderboard/{game}`` (by conservative rating, ``mu - 3 sigma``, wins beside)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, Field

from tablee.games import game_names
from tablee.tables.ratings import Ratings

from .deps import SettingsDep
from .schemas import errors

router = APIRouter(prefix="/api", tags=["profiles"], responses=errors(404))
#: the client's page address, outside the API
page = APIRouter()


def get_ratings(request: Request) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


RatingsDep = Annotated[Ratings, Depends(get_ratings)]


class RatingOut(BaseModel):
    mu: float
    sigma: float
    ordinal: float = Field(description="the conservative rating, mu - 3 sigma")
    rated: int = Field(description="rated games")


class GameStats(BaseModel):
    game: str
    played: int
    won: int
    rating: RatingOut | None


#: a private table's games are counted on a player's page, but not named
_UNNAMED = "null for a private table's game (its number would lead past the invitation)"


class HistoryPoint(BaseModel):
    game: str
    table_id: int | None = Field(description=_UNNAMED)
    game_no: int | None = Field(description=_UNNAMED)
    at: str
    mu: float
    sigma: float
    ordinal: float
    change: float = Field(description="what this game did to the conservative rating")


class LastGame(BaseModel):
    table_id: int | None = Field(description=_UNNAMED)
    game_no: int | None = Field(description=_UNNAMED)
    private: bool = Field(description="played at a private table")
    game: str
    finished_at: str
    seat: int
    won: bool
    score: float | None
    rated: bool
    results: str | None = Field(description="the table's results (REST); null: private")


class Profile(BaseModel):
    id: int
    name: str
    created_at: str
    claimed: bool = Field(description="an account (false: a guest)")
    games: list[GameStats]
    history: list[HistoryPoint] = Field(description="every rated game's rating, oldest first")
    last_games: list[LastGame] = Field(description="newest first")


class RatedEntry(BaseModel):
    rank: int
    player_id: int
    name: str
    rating: float = Field(description="mu - 3 sigma")
    mu: float
    sigma: float
    rated: int = Field(description="rated games at this game")
    won: int = Field(description="games won at this game")


@page.get("/joueur/{name}", include_in_schema=False)
async def player_page(name: Annotated[str, Path(max_length=64)]) -> RedirectResponse:
    """The player's page of the browser client (which routes by the URL's fragment)."""
    return RedirectResponse(f"/#/joueur/{quote(name, safe='')}", status_code=307)


@router.get("/profiles/{name}", response_model=Profile)
async def profile(
    name: Annotated[str, Path(min_length=1, max_length=64)],
    ratings: RatingsDep,
    last: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Any:
    """A player's page, by name (any case or look-alike form). 404 for no such player."""
    found = await ratings.profile(name, last)
    if found is None:
        raise HTTPException(404, f"Aucun joueur ne s'appelle « {name} ».")
    for g in found["last_games"]:
        g["results"] = None if g["private"] else f"/api/tables/{g['table_id']}/results"
    return found


@router.get("/leaderboard/{game}", response_model=list[RatedEntry])
async def rated_leaderboard(
    game: str,
    ratings: RatingsDep,
    settings: SettingsDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[RatedEntry]:
    """Players of one game by conservative rating (mu - 3 sigma), among those with at least
    ``TABLEE_LEADERBOARD_MIN_GAMES`` rated games; their wins at that game beside."""
    if game not in game_names():
        raise HTTPException(404, f"unknown game {game!r}")
    rows = await ratings.leaderboard(game, settings.leaderboard_min_games, limit)
    return [
        RatedEntry(
            rank=i,
            player_id=r.player_id,
            name=r.name,
            rating=r.ordinal,
            mu=r.mu,
            sigma=r.sigma,
            rated=r.played,
            won=r.won,
        )
        for i, r in enumerate(rows, 1)
    ]
