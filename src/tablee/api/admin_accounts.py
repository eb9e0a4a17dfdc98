"""Accounts in the admin API (docs/admin.md, "Accounts"): a player's account and sessions, closing
them, resetting a password. Same guard and audit log as the rest of ``/api/admin`` (renaming a
player and searching players are there: ``POST /players/{id}/rename``, ``GET /players``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, HTTPException
from pydantic import BaseModel, Field

from .accounts import PASSWORD_MAX, PASSWORD_MIN, AccountsDep, close_sockets
from .admin import AdminDep, GuardedRoute, OpsDep, _player_or_404, audit, require_admin
from .deps import AdminQueriesDep, ManagerDep, PlayerId, QueriesDep
from .schemas import errors

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(require_admin)],
    route_class=GuardedRoute,
    responses=errors(400, 401, 403, 404, 409, 503),
)


class RevokeRequest(BaseModel):
    session_id: int | None = Field(
        default=None, ge=1, le=2**31 - 1, description="one session; null: every session"
    )


class PasswordReset(BaseModel):
    password: str = Field(min_length=PASSWORD_MIN, max_length=PASSWORD_MAX)


def _sessions(sessions: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": s.id,
            "created_at": s.created_at.isoformat(),
            "expires_at": s.expires_at.isoformat(),
            "ip": s.ip,
            "user_agent": s.user_agent,
        }
        for s in sessions
    ]


@router.get("/players/{player_id}/account")
async def show_account(
    player_id: PlayerId, queries: QueriesDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Whether the player has an account, its email, claim date and live sessions."""
    player = await _player_or_404(queries, player_id)
    found = await accounts.account(player_id)
    email, claimed_at, _ = found if found is not None else (None, None, 0)
    return {
        "id": player.id,
        "name": player.name,
        "claimed": player.claimed,
        "email": email,
        "claimed_at": claimed_at.isoformat() if claimed_at else None,
        "sessions": _sessions(await accounts.sessions(player_id)),
    }


@router.post("/players/{player_id}/sessions/revoke")
async def revoke_sessions(
    player_id: PlayerId,
    admin: AdminDep,
    queries: QueriesDep,
    accounts: AccountsDep,
    manager: ManagerDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
    body: Annotated[RevokeRequest | None, Body()] = None,
) -> dict[str, Any]:
    """Closes one session of the player, or all of them; closing all also closes the player's
    open WebSockets on every process (as the player's own "log out everywhere")."""
    player = await _player_or_404(queries, player_id)
    session_id = (body or RevokeRequest()).session_id
    if session_id is None:
        closed = await accounts.logout_everywhere(player_id)
        sockets = await close_sockets(ops, manager, player_id)
    else:
        closed = await accounts.close_session(player_id, session_id)
        if not closed:
            raise HTTPException(404, f"player {player_id} has no session {session_id}")
        sockets = 0
    details = {"name": player.name, "session": session_id, "sessions_closed": closed}
    await audit(repo, ops, admin, "player.sessions_revoke", "player", player_id, details)
    return {"sessions_closed": closed, "sockets_closed": sockets}


@router.post("/players/{player_id}/password")
async def reset_password(
    player_id: PlayerId,
    body: PasswordReset,
    admin: AdminDep,
    queries: QueriesDep,
    accounts: AccountsDep,
    manager: ManagerDep,
    repo: AdminQueriesDep,
    ops: OpsDep,
) -> dict[str, Any]:
    """Sets an account's password (a guest has none: 409); every session of the player ends and
    its sockets close. The password is not written to the audit log."""
    player = await _player_or_404(queries, player_id)
    if not player.claimed:
        raise HTTPException(409, "this player is a guest: it has no password to reset")
    await accounts.reset_password(player_id, body.password)
    sockets = await close_sockets(ops, manager, player_id)
    await audit(
        repo, ops, admin, "player.password_reset", "player", player_id, {"name": player.name}
    )
    return {"reset": True, "sockets_closed": sockets}
