"""Accounts over REST (``/api/accounts/...``): a guest claims its name with a password, logs in
from any browser, logs out, logs out everywhere, changes its password.

The tokens a claim or a login returns are session tokens: sent as ``Authorization: Bearer`` and in
the WebSocket's ``hello`` exactly as a guest's token. Logging out everywhere closes the player's
open WebSockets at once, on every process (as a ban does). Login attempts are limited per name and
per address (429 with ``Retry-After``).
"""

from __future__ import annotations

import re
import time
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field, field_validator

from tablee.limits import Buckets, Rate
from tablee.protocol import ErrorCode
from tablee.settings import Settings
from tablee.tables import Accounts, TableManager
from tablee.tables.accounts import login_key

from .deps import CurrentPlayer, ManagerDep
from .limits import Refusal, address_key, say_wait
from .ops import Ops, get_ops
from .schemas import Player, errors

router = APIRouter(prefix="/api/accounts", tags=["accounts"], responses=errors(401, 403, 409, 429))
_bearer = HTTPBearer(auto_error=False)
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,189}\.[^@\s]{1,63}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 200


def _password(value: str) -> str:
    if not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise ValueError(f"un mot de passe a de {PASSWORD_MIN} à {PASSWORD_MAX} caractères")
    return value


class ClaimRequest(BaseModel):
    password: str = Field(description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters")
    email: str | None = Field(default=None, description="optional; shown to nobody but admins")

    _check_password = field_validator("password")(classmethod(lambda cls, v: _password(v)))

    @field_validator("email")
    @classmethod
    def _check_email(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if not _EMAIL.match(value):
            raise ValueError("adresse e-mail invalide")
        return value


class LoginRequest(BaseModel):
    name: str = Field(max_length=64)
    password: str = Field(max_length=PASSWORD_MAX)


class PasswordChange(BaseModel):
    old_password: str = Field(max_length=PASSWORD_MAX)
    new_password: str

    _check_new = field_validator("new_password")(classmethod(lambda cls, v: _password(v)))


class SessionOut(BaseModel):
    player: Player
    token: str = Field(description="the session's bearer token: shown once, keep it")


class SessionInfo(BaseModel):
    id: int
    created_at: datetime
    expires_at: datetime
    ip: str | None
    user_agent: str | None


class AccountOut(Player):
    claimed: bool
    email: str | None
    claimed_at: datetime | None
    sessions: list[SessionInfo]


class LoginLimits:
    """Login attempts per name (by its key) and per address; every attempt counts."""

    def __init__(self, settings: Settings) -> None:
        self.clock = time.monotonic
        name, address = (
            Rate.parse(settings.rate_limit_login_name),
            Rate.parse(settings.rate_limit_login_address),
        )
        self.name: Buckets[str] | None = None if name is None else Buckets(name)
        self.address: Buckets[str] | None = None if address is None else Buckets(address)

    def check(self, name: str, address: str) -> Refusal | None:
        now = self.clock()
        if self.address is not None and (wait := self.address.take(address, now)):
            return Refusal(wait, "Trop de tentatives de connexion depuis votre adresse")
        if self.name is not None and (wait := self.name.take(login_key(name), now)):
            return Refusal(wait, "Trop de tentatives de connexion pour ce nom")
        return None


def get_accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def get_login_limits(request: Request) -> LoginLimits:
    limits: LoginLimits | None = getattr(request.app.state, "login_limits", None)
    if limits is None:
        limits = request.app.state.login_limits = LoginLimits(request.app.state.settings)
    return limits


AccountsDep = Annotated[Accounts, Depends(get_accounts)]


def _token(credentials: HTTPAuthorizationCredentials | None) -> str:
    assert credentials is not None  # CurrentPlayer has refused a request without one
    return credentials.credentials


TokenDep = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def _client(request: Request) -> tuple[str | None, str | None]:
    ip = request.client.host if request.client else None
    return ip, request.headers.get("user-agent")


def _player_out(p: Any) -> Player:
    return Player(id=p.id, name=p.name, created_at=p.created_at)


async def close_sockets(ops: Ops, manager: TableManager, player_id: int) -> int:
    """The player's open WebSockets, here at once and on the other processes (as a ban)."""
    closed = ops.log_out_player(player_id)
    await manager.share_logout(player_id)
    return closed


@router.post("/claim", status_code=201, response_model=SessionOut)
async def claim(
    body: ClaimRequest, player: CurrentPlayer, accounts: AccountsDep, request: Request
) -> SessionOut:
    """The guest keeps its name (and its games) with a password; its guest token stops working
    and the session token returned replaces it. 409 if it has an account already."""
    ip, agent = _client(request)
    token = await accounts.claim(player, body.password, body.email, ip, agent)
    return SessionOut(player=_player_out(player), token=token)


@router.post("/login", response_model=SessionOut)
async def login(
    body: LoginRequest,
    accounts: AccountsDep,
    request: Request,
    limits: Annotated[LoginLimits, Depends(get_login_limits)],
) -> Any:
    """A new session for an account (a fresh token at every login). The same 401 for an unknown
    name and a wrong password; 429 with ``Retry-After`` past the attempts allowed."""
    refusal = limits.check(body.name, address_key(request.scope))
    if refusal is not None:
        get_ops(request).error(ErrorCode.RATE_LIMITED, "rest")
        wait = refusal.retry_after
        return JSONResponse(
            {
                "detail": f"{refusal.message} : réessayez dans {say_wait(wait)}.",
                "code": ErrorCode.RATE_LIMITED,
            },
            status_code=429,
            headers={"Retry-After": str(wait)},
        )
    ip, agent = _client(request)
    player, token = await accounts.login(body.name, body.password, ip, agent)
    return SessionOut(player=_player_out(player), token=token)


@router.post("/logout")
async def logout(player: CurrentPlayer, credentials: TokenDep, accounts: AccountsDep) -> Any:
    """This session ends (its token no longer works). A guest has no session: 409."""
    if not player.claimed:
        return JSONResponse(
            {
                "detail": "Un invité ne peut pas se déconnecter sans perdre son nom : créez un"
                " compte d'abord.",
                "code": ErrorCode.CONFLICT,
            },
            status_code=409,
        )
    await accounts.logout(_token(credentials))
    return {"logged_out": True}


@router.post("/logout-everywhere")
async def logout_everywhere(
    player: CurrentPlayer, accounts: AccountsDep, manager: ManagerDep, request: Request
) -> dict[str, Any]:
    """Every session of the account ends, this one too, and its open WebSockets are closed
    (code 4401) on every process."""
    sessions = await accounts.logout_everywhere(player.id)
    closed = await close_sockets(get_ops(request), manager, player.id)
    return {"sessions_closed": sessions, "sockets_closed": closed}


@router.post("/password")
async def change_password(
    body: PasswordChange,
    player: CurrentPlayer,
    credentials: TokenDep,
    accounts: AccountsDep,
) -> dict[str, Any]:
    """A new password, given the current one; the account's other sessions end."""
    closed = await accounts.change_password(
        player, body.old_password, body.new_password, _token(credentials)
    )
    return {"changed": True, "other_sessions_closed": closed}


@router.get("/me", response_model=AccountOut)
async def account(player: CurrentPlayer, accounts: AccountsDep) -> Any:
    """The player's account: whether claimed, its email and its sessions."""
    found = await accounts.account(player.id)
    email, claimed_at, _ = found if found is not None else (None, None, 0)
    sessions = await accounts.sessions(player.id)
    return AccountOut(
        id=player.id,
        name=player.name,
        created_at=player.created_at,
        claimed=player.claimed,
        email=email,
        claimed_at=claimed_at,
        sessions=[
            SessionInfo(
                id=s.id,
                created_at=s.created_at,
                expires_at=s.expires_at,
                ip=s.ip,
                user_agent=s.user_agent,
            )
            for s in sessions
        ],
    )


__all__ = ["LoginLimits", "router"]
