"""Tables over REST: create, list the lobby, show, join, leave, start, rematch, results; and the
leaderboard. Moves go through the WebSocket."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query

from .deps import CurrentPlayer, ManagerDep, Offset, QueriesDep, TableId
from .limits import new_table_allowed, open_seat_allowed
from .schemas import (
    JoinRequest,
    LeaderboardEntry,
    NewTableRequest,
    Results,
    StartRequest,
    TableInfo,
    errors,
)

router = APIRouter(prefix="/api", tags=["tables"], responses=errors(400, 401, 403, 404, 409))


@router.post(
    "/tables",
    status_code=201,
    response_model=TableInfo,
    dependencies=[Depends(new_table_allowed)],
)
async def create_table(
    body: NewTableRequest, player: CurrentPlayer, manager: ManagerDep
) -> dict[str, Any]:
    """A new table; the creator takes the first seat that is not a bot. It starts by itself when
    every seat is taken. 422 names the field at fault (game, players, an option, bots...)."""
    live = await manager.create_table(
        player,
        body.game,
        body.players,
        body.options,
        body.turn_seconds,
        body.bots,
        body.private,
        rated=body.rated,
        bot_levels=body.bot_levels,
    )
    return manager.info(live)


@router.get("/tables", response_model=list[TableInfo])
async def lobby(
    queries: QueriesDep,
    manager: ManagerDep,
    status: Annotated[str | None, Query(pattern="^(waiting|playing|finished)$")] = None,
    game: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Offset = 0,
) -> list[dict[str, Any]]:
    """The lobby: public tables, newest first (private tables are reached by their id)."""
    rows = await queries.lobby(status, game, limit, offset)
    return [manager.info(r) for r in rows]


@router.get("/tables/{table_id}", response_model=TableInfo)
async def show_table(table_id: TableId, manager: ManagerDep) -> dict[str, Any]:
    return manager.info(await manager.get(table_id))


@router.post(
    "/tables/{table_id}/join", response_model=TableInfo, dependencies=[Depends(open_seat_allowed)]
)
async def join(
    table_id: TableId,
    player: CurrentPlayer,
    manager: ManagerDep,
    body: Annotated[JoinRequest | None, Body()] = None,
) -> dict[str, Any]:
    """Sit at a table: the seat asked for, or the first free one. The game starts when the last
    seat is taken."""
    seat = body.seat if body is not None else None
    return manager.info(await manager.join(player, table_id, seat))


@router.post("/tables/{table_id}/leave", response_model=TableInfo)
async def leave(table_id: TableId, player: CurrentPlayer, manager: ManagerDep) -> dict[str, Any]:
    """Leave your seat. During a game a bot takes it over and plays on."""
    return manager.info(await manager.leave(player, table_id))


@router.post("/tables/{table_id}/start", response_model=TableInfo)
async def start(
    table_id: TableId,
    player: CurrentPlayer,
    manager: ManagerDep,
    body: Annotated[StartRequest | None, Body()] = None,
) -> dict[str, Any]:
    """The creator starts the game: every seat must be taken, unless ``fill_with_bots``."""
    fill = body.fill_with_bots if body is not None else False
    return manager.info(await manager.start_table(player, table_id, fill))


@router.post("/tables/{table_id}/rematch", response_model=TableInfo)
async def rematch(table_id: TableId, player: CurrentPlayer, manager: ManagerDep) -> dict[str, Any]:
    """Vote for a new game at this table; it starts once every seated person has voted."""
    return manager.info(await manager.rematch(player, table_id))


@router.get("/tables/{table_id}/results", response_model=Results)
async def results(table_id: TableId, manager: ManagerDep, queries: QueriesDep) -> dict[str, Any]:
    """Every finished game of the table: outcome, seats, per-deal scores."""
    live = await manager.get(table_id)
    return {"table": manager.info(live), "games": await queries.results(table_id)}


@router.get("/leaderboard", response_model=list[LeaderboardEntry])
async def leaderboard(
    queries: QueriesDep,
    game: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[LeaderboardEntry]:
    """Players by games won (then fewest played), over every game or one."""
    rows = await queries.leaderboard(game, limit)
    return [
        LeaderboardEntry(player_id=r.player_id, name=r.name, played=r.played, won=r.won)
        for r in rows
    ]
