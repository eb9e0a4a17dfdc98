"""The admin token's check (``TABLEE_ADMIN_TOKEN``), apart from the admin routes: the input
guard (``security.py``) answers a refused admin request as the routes would, and it comes before
them. It imports nothing of the API, so any module may use it."""

from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass

from fastapi import HTTPException, Request

from tablee.protocol import ErrorCode

log = logging.getLogger("tablee.admin")

#: the identity audit rows carry for the admin token
ADMIN_NAME = "admin"
DISABLED = (
    "the admin API is disabled: set TABLEE_ADMIN_TOKEN to a long random secret (for instance"
    " the output of `python -c 'import secrets; print(secrets.token_urlsafe(32))'`) in the"
    " server's environment and restart it; then send it as `Authorization: Bearer <token>`"
)


@dataclass(frozen=True)
class Admin:
    name: str
    ip: str | None


def _digest(token: str) -> bytes:
    # equal-length digests: the comparison's time says nothing about the token's length either
    return hashlib.sha256(token.encode()).digest()


def check_admin(request: Request) -> Admin:
    """The request's admin, or the HTTP error to answer (503 disabled, 401 no or wrong token)."""
    expected = request.app.state.settings.admin_token
    if not expected:
        raise HTTPException(503, DISABLED)
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        given = ""
    given = given.strip()
    ip = request.client.host if request.client else None
    if not hmac.compare_digest(_digest(given), _digest(expected)):
        ops = getattr(request.app.state, "ops", None)
        if ops is not None:
            ops.error(ErrorCode.UNAUTHORIZED, "admin")
        log.warning("admin API: %s token", "wrong" if given else "no", extra={"ip": ip})
        raise HTTPException(
            401,
            "the admin API needs Authorization: Bearer <TABLEE_ADMIN_TOKEN>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return Admin(ADMIN_NAME, ip)
