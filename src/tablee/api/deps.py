"""FastAPI dependencies: the app's table manager, queries, settings, and the bearer player."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, HTTPException, Path, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from tablee.settings import Settings
from tablee.tables import MAX_ID, AdminQueries, Chat, PlayerRecord, Queries, TableManager

_bearer = HTTPBearer(auto_error=False, description="the token POST /api/players returned")


def get_queries(request: Request) -> Queries:
    queries: Queries = request.app.state.queries
    return queries


def get_admin_queries(request: Request) -> AdminQueries:
    queries: AdminQueries = request.app.state.admin_queries
    return queries


def get_manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def get_chat(request: Request) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


QueriesDep = Annotated[Queries, Depends(get_queries)]
AdminQueriesDep = Annotated[AdminQueries, Depends(get_admin_queries)]
#: path ids: a number no row can have is refused (422) before it reaches the database
TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="a table's id")]
PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="a player's id")]
#: a page offset, bounded so the database never meets a number it cannot hold
Offset = Annotated[int, Query(ge=0, le=MAX_ID)]
ManagerDep = Annotated[TableManager, Depends(get_manager)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ChatDep = Annotated[Chat, Depends(get_chat)]


async def current_player(
    queries: QueriesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> PlayerRecord:
    if credentials is None:
        raise HTTPException(
            401,
            "this needs a player's token: Authorization: Bearer <token> (POST /api/players)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    player = await queries.player_by_token(credentials.credentials)
    if player is None:
        raise HTTPException(401, "unknown token", headers={"WWW-Authenticate": "Bearer"})
    if player.banned:
        raise HTTPException(403, "this player is banned from this server; ask its admins why")
    return player


CurrentPlayer = Annotated[PlayerRecord, Depends(current_player)]


async def viewer(
    request: Request,
    queries: QueriesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> PlayerRecord | bool | None:
    """Who looks at a table (its privacy depends on it): ``True`` for the admin token, the
    player of a player's token, None for no token (or one nobody holds: a stranger)."""
    if credentials is None:
        return None
    token = credentials.credentials
    admin = request.app.state.settings.admin_token
    if admin and hmac.compare_digest(token.encode(), admin.encode()):
        return True
    return await queries.player_by_token(token)


Viewer = Annotated[PlayerRecord | bool | None, Depends(viewer)]
#: a private table's invitation code, as its link carries it
Invitation = Annotated[
    str | None, Query(max_length=64, description="a private table's invitation code")
]
