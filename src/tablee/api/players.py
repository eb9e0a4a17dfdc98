"""Guest players: an account is a name and a secret bearer token."""

from __future__ import annotations

from fastapi import APIRouter

from .deps import CurrentPlayer, QueriesDep
from .schemas import Me, NewPlayer, NewPlayerResponse, errors

router = APIRouter(prefix="/api", tags=["players"], responses=errors(400, 401, 403))


@router.post(
    "/players",
    status_code=201,
    response_model=NewPlayerResponse,
    # a name another player has, or one the server keeps for itself: name_taken
    responses=errors(409),
)
async def create_player(body: NewPlayer, queries: QueriesDep) -> NewPlayerResponse:
    """A guest account. The token is returned once; send it as ``Authorization: Bearer``."""
    player, token = await queries.create_player(body.name)
    return NewPlayerResponse(
        id=player.id, name=player.name, created_at=player.created_at, token=token
    )


@router.get("/me", response_model=Me)
async def me(player: CurrentPlayer, queries: QueriesDep) -> Me:
    tables = await queries.tables_of_player(player.id)
    return Me(id=player.id, name=player.name, created_at=player.created_at, tables=tables)
