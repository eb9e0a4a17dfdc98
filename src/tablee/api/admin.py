"""The admin API under ``/api/admin`` (docs/admin.md).

Guarded by the bearer token ``TABLEE_ADMIN_TOKEN``: unset, every route answers 503 saying how to
enable it; a missing or wrong token gets 401 and nothing else (compared in constant time, before
any parameter is looked at). Every action, and every read that shows secrets (a table's full state,
an export), is written to the audit log with who did it: the token's identity, ``admin``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from tablee.tables import MAX_ID, AdminQueries, Queries, closed_reason
from tablee.tables import admin as table_admin
from tablee.tables.chat import line as chat_line

from .deps import (
    AdminQueriesDep,
    ChatDep,
    ManagerDep,
    Offset,
    PlayerId,
    QueriesDep,
    TableId,
)
from .guards import ADMIN_NAME, Admin, check_admin
from .ops import Ops, get_ops
from .schemas import NewPlayer, errors

log = logging.getLogger("tablee.admin")

_bearer = HTTPBearer(auto_error=False, description="the server's TABLEE_ADMIN_TOKEN")


async def require_admin(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Admin:
    """The dependency form (``credentials`` only shows the scheme in the OpenAPI docs)."""
    return check_admin(request)


class GuardedRoute(APIRoute):
    """Checks the token before anything else of the request is read: a request without the
    right token learns nothing, not even whether its body or parameters were valid."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            check_admin(request)
            return await handler(request)

        return guarded


AdminDep = Annotated[Admin, Depends(require_admin)]
OpsDep = Annotated[Ops, Depends(get_ops)]
router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(require_admin)],
    route_class=GuardedRoute,
    responses=errors(400, 401, 403, 404, 409, 503),
)

Limit = Annotated[int, Query(ge=1, le=500)]


async def audit(
    repo: AdminQueries,
    ops: Ops,
    admin: Admin,
    action: str,
    target_type: str | None,
    target_id: int | None,
    details: dict[str, Any] | None = None,
) -> None:
    await repo.audit(admin.name, action, target_type, target_id, details, admin.ip)
    ops.admin_actions.labels(action).inc()
    extra: dict[str, Any] = {"admin": admin.name, "action": action, "details": details or {}}
    if target_type == "table":
        extra.update(table=target_id, seat=(details or {}).get("seat"))
    elif target_type == "player":
        extra["player"] = target_id
    log.info("admin action %s on %s %s", action, target_type, target_id, extra=extra)


def _page(items: list[Any], total: int, limit: int, offset: int) -> dict[str, Any]:
    return {"items": items, "total": total, "limit": limit, "offset": offset}


# -- tables ---------------------------------------------------------------------------------------


class CloseRequest(BaseModel):
    reason: str = Field(
        default="closed by an admin",
        min_length=1,
        max_length=200,
        description="told to everyone at the table",
    )


class KickRequest(BaseModel):
    reason: str = Field(default="removed by an admin", min_length=1, max_length=200)


class TimerRequest(BaseModel):
    turn_seconds: float | None = Field(description="seconds per decision; null: no timer")


def _row(manager: Any, rec: Any) -> dict[str, Any]:
    info: dict[str, Any] = manager.info(rec)
    info["seed"] = rec.seed
    info["closed"] = closed_reason(rec)
    info["outcome"] = rec.outcome
    return info


@router.get("/tables")
async def list_tables(
    repo: AdminQueriesDep,
    manager: ManagerDep,
    status: Annotated[str | None, Query(pattern="^(waiting|playing|finished)$")] = None,
    game: str | None = None,
    player: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="a player id: seated, played or created")
    ] = None,
    since: Annotated[datetime | None, Query(description="created at or after (ISO 8601)")] = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Every table, private ones too, newest first."""
    rows, total = await repo.tables(status, game, player, _aware(since), limit, offset)
    return _page([_row(manager, r) for r in rows], total, limit, offset)


@router.get("/tables/{table_id}")
async def show_table(
    table_id: TableId, admin: AdminDep, manager: ManagerDep, repo: AdminQueriesDep, ops: OpsDep
) -> dict[str, Any]:
    """The table in full, hands and seed included, and its home with several processes
    (audited: ``table.inspect``)."""
    live = await manager.current(table_id)
    out = table_admin.full_state(manager, live)
    # with several processes, the process that makes its changes (docs/scaling.md), read from
    # the database: this process's copy may be a relay's
    home = await manager.coordination.home_of(table_id)
    out["home"] = None
    if home is not None:
        out["home"] = {"process": home.process, "token": home.token, "alive": home.alive}
    await audit(repo, ops, admin, "table.inspect", "table", table_id, {"version": live.rec.version})
    return out


@router.post("/tables/{table_id}/close")
async def close_table(
    table_id: TableId,
    admin: AdminDep,
    manager: ManagerDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
    body: Annotated[CloseRequest | None, Body()] = None,
) -> dict[str, Any]:
    """Ends the table now with no winner; the seated players are told why. Waiting tables are
    cancelled the same way. 409 ``table_over`` if it is closed already."""
    reason = (body or CloseRequest()).reason
    live = await manager.current(table_id)
    before = live.rec.status
    await table_admin.close(manager, table_id, reason, admin.name)
    await audit(
        repo, ops, admin, "table.close", "table", table_id, {"reason": reason, "status": before}
    )
    return _row(manager, live.rec)


@router.post("/tables/{table_id}/seats/{seat}/kick")
async def kick_seat(
    table_id: TableId,
    seat: Annotated[int, Path(ge=0)],
    admin: AdminDep,
    manager: ManagerDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
    body: Annotated[KickRequest | None, Body()] = None,
) -> dict[str, Any]:
    """The seat's player is removed: a bot takes the seat during a game, otherwise it is freed."""
    reason = (body or KickRequest()).reason
    live, done = await table_admin.kick(manager, table_id, seat, reason, admin.name)
    await audit(repo, ops, admin, "table.kick", "table", table_id, {**done, "reason": reason})
    return _row(manager, live.rec)


@router.post("/tables/{table_id}/timer")
async def set_timer(
    table_id: TableId,
    body: TimerRequest,
    admin: AdminDep,
    manager: ManagerDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
) -> dict[str, Any]:
    """A new turn timer (seconds, or null for none); the current deadline is re-armed."""
    live = await manager.current(table_id)
    before = live.rec.turn_seconds
    await table_admin.set_timer(manager, table_id, body.turn_seconds)
    await audit(
        repo,
        ops,
        admin,
        "table.timer",
        "table",
        table_id,
        {"before": before, "after": body.turn_seconds},
    )
    return _row(manager, live.rec)


@router.get("/tables/{table_id}/export")
async def export_table(
    table_id: TableId, admin: AdminDep, manager: ManagerDep, repo: AdminQueriesDep, ops: OpsDep
) -> JSONResponse:
    """Every game of the table: seed, deck, action log, outcome; ``tablee replay FILE`` rebuilds
    and prints every state (audited: ``table.export``)."""
    data = await table_admin.export(manager, table_id)
    await audit(repo, ops, admin, "table.export", "table", table_id, {"games": len(data["games"])})
    return JSONResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="tablee-table-{table_id}.json"'},
    )


# -- players --------------------------------------------------------------------------------------


class BanRequest(BaseModel):
    reason: str = Field(default="banned by an admin", min_length=1, max_length=200)


def _player_json(p: Any, ops: Ops, **more: Any) -> dict[str, Any]:
    out = {
        "id": p.id,
        "name": p.name,
        "created_at": p.created_at.isoformat(),
        "banned": p.banned,
        "claimed": p.claimed,
        "sockets": len(ops.sockets_of(p.id)),
    }
    out.update(more)
    return out


@router.get("/players")
async def list_players(
    repo: AdminQueriesDep,
    ops: OpsDep,
    q: Annotated[str | None, Query(max_length=64, description="part of a name, or an id")] = None,
    banned: bool | None = None,
    claimed: Annotated[bool | None, Query(description="accounts (true) or guests (false)")] = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Players, newest first; ``q`` searches names (any case) and ids."""
    rows, total = await repo.players(q, banned, limit, offset, claimed)
    items = [_player_json(p, ops, seats=p.seats, played=p.played) for p in rows]
    return _page(items, total, limit, offset)


async def _player_or_404(queries: Queries, player_id: int) -> Any:
    player = await queries.player(player_id)
    if player is None:
        raise HTTPException(404, f"there is no player {player_id}")
    return player


@router.get("/players/{player_id}")
async def show_player(player_id: PlayerId, queries: QueriesDep, ops: OpsDep) -> dict[str, Any]:
    player = await _player_or_404(queries, player_id)
    tables = await queries.tables_of_player(player_id)
    return _player_json(player, ops, tables=tables)


@router.post("/players/{player_id}/ban")
async def ban_player(
    player_id: PlayerId,
    admin: AdminDep,
    queries: QueriesDep,
    manager: ManagerDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
    body: Annotated[BanRequest | None, Body()] = None,
) -> dict[str, Any]:
    """The player's token is refused everywhere from now on (REST 403, WebSocket ``banned``), their
    open sockets are closed, and their seats go to bots (running games) or become free."""
    reason = (body or BanRequest()).reason
    player = await _player_or_404(queries, player_id)
    await queries.set_banned(player_id, True)
    # sockets first: nothing more from this player gets in while the seats are handed over;
    # the other processes close theirs when they hear of it
    closed = ops.close_player(player_id)
    await manager.share_ban(player_id)
    tables = await queries.tables_of_player(player_id)
    freed = await table_admin.free_player_seats(
        manager, tables, player_id, f"banned: {reason}", admin.name
    )
    details = {"reason": reason, "name": player.name, "sockets_closed": closed, "seats": freed}
    await audit(repo, ops, admin, "player.ban", "player", player_id, details)
    out = _player_json(await _player_or_404(queries, player_id), ops)
    out.update(sockets_closed=closed, seats_freed=freed)
    return out


@router.post("/players/{player_id}/unban")
async def unban_player(
    player_id: PlayerId, admin: AdminDep, queries: QueriesDep, repo: AdminQueriesDep, ops: OpsDep
) -> dict[str, Any]:
    player = await _player_or_404(queries, player_id)
    await queries.set_banned(player_id, False)
    await audit(repo, ops, admin, "player.unban", "player", player_id, {"name": player.name})
    return _player_json(await _player_or_404(queries, player_id), ops)


@router.post("/players/{player_id}/rename")
async def rename_player(
    player_id: PlayerId,
    body: NewPlayer,
    admin: AdminDep,
    queries: QueriesDep,
    manager: ManagerDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
) -> dict[str, Any]:
    """A new name (same rules as at sign-up); the tables where the player sits show it at once."""
    player = await _player_or_404(queries, player_id)
    await repo.rename_player(player_id, body.name)
    tables = await queries.tables_of_player(player_id)
    await table_admin.renamed(manager, tables, player_id, body.name)
    await audit(
        repo,
        ops,
        admin,
        "player.rename",
        "player",
        player_id,
        {"from": player.name, "to": body.name},
    )
    return _player_json(await _player_or_404(queries, player_id), ops)


# -- stats and audit ------------------------------------------------------------------------------


# -- chat -----------------------------------------------------------------------------------------


class MuteRequest(BaseModel):
    minutes: float = Field(gt=0, le=60 * 24 * 365, description="how long the player is muted")
    reason: str = Field(default="muted by an admin", min_length=1, max_length=200)


def _chat_line(rec: Any) -> dict[str, Any]:
    """A message as players get it, and whether an admin deleted it."""
    return chat_line(rec) | {"deleted": rec.deleted}


@router.get("/chat/reports")
async def chat_reports(chat: ChatDep, limit: Limit = 100, offset: Offset = 0) -> dict[str, Any]:
    """The players' reports of chat messages, newest first, each with a copy of the message
    (kept when the message is deleted)."""
    rows, total = await chat.db.reports(limit, offset)
    items = [
        {
            "id": r.id,
            "message": r.message_id,
            "reporter": r.reporter_id,
            "reason": r.reason,
            "table": r.table_id,
            "author": {"id": r.author_id, "name": r.author_name},
            "text": r.text,
            "at": r.at.isoformat(),
        }
        for r in rows
    ]
    return _page(items, total, limit, offset)


@router.get("/chat/tables/{table_id}")
async def table_chat(table_id: TableId, chat: ChatDep, limit: Limit = 100) -> dict[str, Any]:
    """A table's last chat messages, all audiences (oldest first)."""
    return {"items": [_chat_line(r) for r in await chat.db.last(table_id, limit)]}


@router.get("/chat/lobby")
async def lobby_chat(chat: ChatDep, limit: Limit = 100) -> dict[str, Any]:
    """The lobby's last chat messages (oldest first)."""
    return {"items": [_chat_line(r) for r in await chat.db.last(None, limit)]}


@router.delete("/chat/messages/{message_id}")
async def delete_chat_message(
    message_id: Annotated[int, Path(ge=1, le=MAX_ID)],
    admin: AdminDep,
    chat: ChatDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
) -> dict[str, Any]:
    """Deletes a message: taken away from every client that shows it (every process), and from
    the history; the reports of it keep their copy."""
    rec = await chat.delete(message_id)
    if rec is None:
        raise HTTPException(404, "no such chat message")
    details = {"table": rec.table_id, "author": rec.author_id, "text": rec.text}
    await audit(repo, ops, admin, "chat.delete", "chat", message_id, details)
    return _chat_line(rec) | {"deleted": True}


@router.post("/players/{player_id}/mute")
async def mute_player(
    player_id: PlayerId,
    body: MuteRequest,
    admin: AdminDep,
    queries: QueriesDep,
    chat: ChatDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
) -> dict[str, Any]:
    """The player writes nothing in any chat for ``minutes``: refused at once on every process,
    and their open sockets are told (``chat_muted``)."""
    player = await _player_or_404(queries, player_id)
    until = datetime.now(UTC) + timedelta(minutes=body.minutes)
    mute = await chat.mute(player_id, until, body.reason, admin.name)
    details = {"name": player.name, "minutes": body.minutes, "reason": body.reason}
    await audit(repo, ops, admin, "player.mute", "player", player_id, details)
    return {"player": player_id, "until": mute.until.isoformat(), "reason": mute.reason}


@router.post("/players/{player_id}/unmute")
async def unmute_player(
    player_id: PlayerId,
    admin: AdminDep,
    queries: QueriesDep,
    chat: ChatDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
) -> dict[str, Any]:
    player = await _player_or_404(queries, player_id)
    was = await chat.unmute(player_id)
    await audit(repo, ops, admin, "player.unmute", "player", player_id, {"name": player.name})
    return {"player": player_id, "was_muted": was}


@router.get("/stats")
async def stats(
    repo: AdminQueriesDep,
    manager: ManagerDep,
    ops: OpsDep,
    days: Annotated[int, Query(ge=1, le=366)] = 14,
) -> dict[str, Any]:
    """Tables per game and status, connected sockets, moves per minute, games finished per day."""
    now = datetime.now(UTC)
    by_status: dict[str, dict[str, int]] = {}
    for game, status, n in await repo.table_counts():
        by_status.setdefault(status, {})[game] = n
    last_minute = await repo.moves_since(now - timedelta(minutes=1))
    last_5 = await repo.moves_since(now - timedelta(minutes=5))
    start = (now - timedelta(days=days - 1)).replace(hour=0, minute=0, second=0, microsecond=0)
    per_day: dict[str, dict[str, int]] = {}
    for day in (start + timedelta(days=i) for i in range(days)):
        per_day[day.strftime("%Y-%m-%d")] = {}
    for day_s, game, n in await repo.finished_per_day(start):
        per_day.setdefault(day_s, {})[game] = n
    players, banned = await repo.player_counts()
    sockets = list(ops.sockets)
    return {
        "at": now.isoformat(),
        "live_tables": by_status.get("playing", {}),
        "waiting_tables": by_status.get("waiting", {}),
        "tables": by_status,
        "sockets": len(sockets),
        "players_connected": len({c.player_id for c in sockets if c.player_id is not None}),
        "moves_last_minute": last_minute,
        "moves_per_minute": round(last_5 / 5, 2),
        "moves_since_start": manager.moves,
        "games_finished_per_day": [
            {"day": d, "total": sum(g.values()), "games": g} for d, g in per_day.items()
        ],
        "players": players,
        "banned_players": banned,
    }


@router.get("/processes")
async def list_processes(manager: ManagerDep) -> dict[str, Any]:
    """The app processes that share the database (docs/scaling.md): each one's lease as the
    database says now, how many tables it is the home of, and which one answers; and the playing
    tables that no live process is the home of (the next that needs one takes it). A process
    alone: ``multi_process`` false, and no leases (it is every table's home)."""
    coordination = manager.coordination
    found = await coordination.leases()
    if found is None:
        return {"multi_process": False, "this": None, "processes": [], "tables_without_home": 0}
    leases, orphans = found
    this = coordination.process_id
    return {
        "multi_process": True,
        "this": this,
        "processes": [
            {
                "id": lease.process,
                "alive": lease.alive,
                "alive_until": lease.alive_until.isoformat(),
                "tables": lease.tables,
                "this": lease.process == this,
            }
            for lease in leases
        ],
        "tables_without_home": orphans,
    }


@router.get("/audit")
async def audit_log(
    repo: AdminQueriesDep,
    actor: str | None = None,
    action: Annotated[
        str | None, Query(description="exact, or a prefix ending in * (table.*)")
    ] = None,
    target_type: Annotated[str | None, Query(pattern="^(table|player|chat)$")] = None,
    target_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Who did what, when, to what: newest first."""
    rows, total = await repo.audit_log(
        actor, action, target_type, target_id, _aware(since), _aware(until), limit, offset
    )
    return _page([r.to_json() for r in rows], total, limit, offset)


def _aware(value: datetime | None) -> datetime | None:
    """A time given without a zone is taken as UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


__all__ = ["ADMIN_NAME", "Admin", "require_admin", "router"]
