"""Limits of the REST API, as ASGI middleware (docs/admin.md, "Limits").

- ``RateLimit``: token buckets (``tablee.limits``) per client address and per player token on
  every ``/api/...`` request, and per address on the creation of players and tables. A refusal is
  a 429 with ``Retry-After`` and the usual error body, code ``rate_limited``, a French message.
  Requests bearing the admin token are not limited.
- ``BodyLimit``: a body over ``TABLEE_MAX_BODY_BYTES`` is refused with 413 before it is read: at
  once when ``Content-Length`` announces it, else (chunked) as soon as the bytes received pass the
  limit; the connection is then closed, so the rest is never read. Bodies within the limit are
  read whole before the app runs (nothing here is an upload), so a slow body never holds a route.

- ``new_table_allowed``, ``open_seat_allowed`` (route dependencies): a player holds at most
  ``TABLEE_MAX_OPEN_SEATS`` seats at tables that are not over, and has created at most
  ``TABLEE_MAX_WAITING_TABLES`` tables still waiting; beyond, 409 ``too_many_seats`` or
  ``too_many_tables``. Counted in the database before the change: two requests of one player at
  the same instant may both pass (the rate limits keep that to a few).

The WebSocket endpoint is not concerned: its handler keeps its own limits.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tablee.limits import Buckets, Rate
from tablee.protocol import ErrorCode
from tablee.settings import Settings
from tablee.tables import TableError

from .deps import CurrentPlayer, QueriesDep, SettingsDep

#: the creations limited per address, besides every request
NEW_PLAYER = ("POST", "/api/players")
NEW_TABLE = ("POST", "/api/tables")


@dataclass(frozen=True)
class Refusal:
    wait: float
    message: str

    @property
    def retry_after(self) -> int:
        return max(1, math.ceil(self.wait)) if math.isfinite(self.wait) else 3600


def _buckets(text: str) -> Buckets[str] | None:
    rate = Rate.parse(text)
    return None if rate is None else Buckets(rate)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def say_wait(seconds: float) -> str:
    """A wait as a person reads it: ``12 s``, ``3 min``, ``2 h``."""
    s = max(1, math.ceil(seconds)) if math.isfinite(seconds) else 3600
    if s < 90:
        return f"{s} s"
    if s < 90 * 60:
        return f"{math.ceil(s / 60)} min"
    return f"{math.ceil(s / 3600)} h"


def address_key(scope: Scope) -> str:
    """Who a request comes from, for the buckets: the client address (what the proxy vouched
    for, once uvicorn has read its headers), an IPv6 address by its /64 (one subscriber's
    network: a single machine may hold any address in it)."""
    client = scope.get("client")
    host = str(client[0]) if client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            token = token.strip()
            return token if scheme.lower() == "bearer" and token else None
    return None


class RestLimits:
    """The buckets of one app. ``clock`` is read once per request (tests give their own)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.address = _buckets(settings.rate_limit_address)
        self.player = _buckets(settings.rate_limit_player)
        self.new_players = _buckets(settings.rate_limit_new_players)
        self.new_tables = _buckets(settings.rate_limit_new_tables)
        self._admin = _digest(settings.admin_token) if settings.admin_token else None

    def check(self, method: str, path: str, address: str, token: str | None) -> Refusal | None:
        """None when the request may go on (its tokens are taken), else why not."""
        admin = self._admin
        if token is not None and admin is not None and hmac.compare_digest(_digest(token), admin):
            return None
        now = self.clock()
        if self.address is not None:
            wait = self.address.take(address, now)
            if wait:
                return Refusal(wait, "Trop de requêtes depuis votre adresse")
        if token is not None and self.player is not None:
            # keyed by a digest: any header, however long, costs a few bytes here
            key = hashlib.blake2b(token.encode(), digest_size=16).hexdigest()
            wait = self.player.take(key, now)
            if wait:
                return Refusal(wait, "Trop de requêtes avec ce compte")
        if (method, path) == NEW_PLAYER and self.new_players is not None:
            wait = self.new_players.take(address, now)
            if wait:
                return Refusal(wait, "Trop de joueurs créés depuis votre adresse")
        if (method, path) == NEW_TABLE and self.new_tables is not None:
            wait = self.new_tables.take(address, now)
            if wait:
                return Refusal(wait, "Trop de tables créées depuis votre adresse")
        return None


def _count(scope: Scope, code: ErrorCode) -> None:
    app = scope.get("app")
    ops = getattr(getattr(app, "state", None), "ops", None)
    if ops is not None:
        ops.error(code, "rest")


class RateLimit:
    def __init__(self, app: ASGIApp, limits: RestLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        refusal = self.limits.check(
            scope["method"], scope["path"], address_key(scope), bearer(scope)
        )
        if refusal is None:
            await self.app(scope, receive, send)
            return
        _count(scope, ErrorCode.RATE_LIMITED)
        wait = refusal.retry_after
        response = JSONResponse(
            {
                "detail": f"{refusal.message} : réessayez dans {say_wait(wait)}.",
                "code": ErrorCode.RATE_LIMITED,
            },
            status_code=429,
            headers={"Retry-After": str(wait)},
        )
        await response(scope, receive, send)


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _content_length(scope)
        if length is not None and length > self.max_bytes:
            await self._refuse(scope, receive, send)  # nothing read: not even a 100 Continue
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its body was in: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # later calls wait for the client to leave, as usual

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        _count(scope, ErrorCode.TOO_LARGE)
        limit = self.max_bytes
        shown = f"{limit // 1024} Kio" if limit % 1024 == 0 else f"{limit} octets"
        response = JSONResponse(
            {"detail": f"Requête trop grande : {shown} au plus.", "code": ErrorCode.TOO_LARGE},
            status_code=413,
            # the rest of the body is never read: the connection ends with this answer
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)


# -- what one player may have open (REST only: tables and seats are taken over REST) --------------


async def _open_seat_allowed(
    player: CurrentPlayer, queries: QueriesDep, settings: SettingsDep
) -> int:
    """The waiting tables the player created; refuses a new seat beyond the bound."""
    waiting, seats = await queries.open_counts(player.id)
    bound = settings.max_open_seats
    if bound and seats >= bound:
        raise TableError(
            ErrorCode.TOO_MANY_SEATS,
            f"Vous occupez déjà {seats} places à des tables en cours (au plus {bound}) : quittez"
            " une table avant de vous asseoir à une autre.",
        )
    return waiting


async def open_seat_allowed(
    player: CurrentPlayer, queries: QueriesDep, settings: SettingsDep
) -> None:
    """A dependency of the routes that seat the player (join)."""
    await _open_seat_allowed(player, queries, settings)


async def new_table_allowed(
    player: CurrentPlayer, queries: QueriesDep, settings: SettingsDep
) -> None:
    """A dependency of table creation: the creator takes a seat, and the table waits."""
    waiting = await _open_seat_allowed(player, queries, settings)
    bound = settings.max_waiting_tables
    if bound and waiting >= bound:
        raise TableError(
            ErrorCode.TOO_MANY_TABLES,
            f"Vous avez déjà {waiting} tables en attente de joueurs (au plus {bound}) : lancez-en"
            " une, ou quittez-en une, avant d'en créer une autre.",
        )


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses a malformed length before we see it
    return None


__all__ = [
    "BodyLimit",
    "RateLimit",
    "Refusal",
    "RestLimits",
    "address_key",
    "new_table_allowed",
    "open_seat_allowed",
    "say_wait",
]
