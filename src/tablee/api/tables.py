"""Tables over REST: create, list the lobby, show, join, leave, start, rematch, results; and the
leaderboard. Moves go through the WebSocket."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query, Response

from tablee.tables import LiveTable, PlayerRecord, TableManager, replays

from .deps import CurrentPlayer, Invitation, ManagerDep, Offset, QueriesDep, TableId, Viewer
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
        robot_after=body.robot_after,
        spectators=body.spectators,
        deal_replays=body.deal_replays,
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
    """The lobby: public tables, newest first (never a private table: those are reached by
    their invitation link)."""
    rows = await queries.lobby(status, game, limit, offset)
    return [manager.info(r) for r in rows]


async def _shown(
    manager: TableManager, table_id: int, who: Viewer, invitation: str | None
) -> LiveTable:
    """The table if this viewer may see it: a private table only to its creator, its seated
    players, whoever brings its invitation, and the admin token; to anyone else, 404 as for a
    table that does not exist."""
    if who is True:
        return await manager.current(table_id)
    player_id = who.id if isinstance(who, PlayerRecord) else None
    return await manager.visible(table_id, player_id, invitation)


@router.get("/tables/{table_id}", response_model=TableInfo)
async def show_table(
    table_id: TableId, manager: ManagerDep, who: Viewer, invitation: Invitation = None
) -> dict[str, Any]:
    """A table. A private one needs its ``invitation`` (from its link), unless one sits there
    or created it: otherwise 404, as for a table that does not exist."""
    return manager.info(await _shown(manager, table_id, who, invitation))


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
    seat is taken. A private table takes its ``invitation`` (otherwise 404, as for a table that
    does not exist)."""
    seat = body.seat if body is not None else None
    invitation = body.invitation if body is not None else None
    return manager.info(await manager.join(player, table_id, seat, invitation))


@router.post("/tables/{table_id}/leave", response_model=TableInfo)
async def leave(table_id: TableId, player: CurrentPlayer, manager: ManagerDep) -> dict[str, Any]:
    """Leave your seat. During a game a robot plays on for you and you keep the seat: take it
    back with ``take_back``; leaving again then gives it to the robot for good."""
    return manager.info(await manager.leave(player, table_id))


@router.post("/tables/{table_id}/take_back", response_model=TableInfo)
async def take_back(
    table_id: TableId, player: CurrentPlayer, manager: ManagerDep
) -> dict[str, Any]:
    """Take back the seat a robot plays for you (you left, or the timer played for you too often):
    at once, or, when the seat has a decision before it, once the robot has made it (the seat's
    ``away.back`` says it is asked for meanwhile)."""
    return manager.info(await manager.take_back(player, table_id))


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
async def results(
    table_id: TableId,
    manager: ManagerDep,
    queries: QueriesDep,
    who: Viewer,
    invitation: Invitation = None,
) -> dict[str, Any]:
    """Every finished game of the table: outcome, seats, per-deal scores (a private table's as
    for ``GET /api/tables/{id}``)."""
    live = await _shown(manager, table_id, who, invitation)
    return {"table": manager.info(live), "games": await queries.results(table_id)}


@router.get(
    "/tables/{table_id}/games/{game_no}/replay",
    response_class=Response,
    responses={200: {"content": {"application/json": {"schema": {"type": "object"}}}}},
)
async def game_replay(
    table_id: TableId,
    game_no: Annotated[int, Path(ge=1)],
    manager: ManagerDep,
    who: Viewer,
    invitation: Invitation = None,
) -> Response:
    """A finished game move by move with every hand shown (``steps``: the public view, every
    seat's hand, the seats to act and the move's events), rebuilt from the seed and the log by
    the engine; its seed, salt and commitment; the one-game export form (``tablee verify``
    reads it). A game being played: 409 ``not_finished``, unless the table allows its finished
    deals to be replayed (``deal_replays``): then those only, without the seed. A private
    table's as for ``GET /api/tables/{id}``."""
    await _shown(manager, table_id, who, invitation)
    return Response(
        await replays.game_replay_text(manager, table_id, game_no), media_type="application/json"
    )


@router.get("/tables/{table_id}/log")
async def public_log(
    table_id: TableId, manager: ManagerDep, who: Viewer, invitation: Invitation = None
) -> dict[str, Any]:
    """The table's finished games in the export format, seeds and salts revealed (the game being
    played is left out): ``tablee verify URL`` checks each against its commitment. A private
    table's as for ``GET /api/tables/{id}``."""
    await _shown(manager, table_id, who, invitation)
    return await replays.public_log(manager, table_id)


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
