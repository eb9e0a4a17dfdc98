"""What a server open to the internet answers to odd input and sends with every page.

- ``InputGuard`` (ASGI middleware): a NUL byte in the query string is a 400 (PostgreSQL cannot
  hold one; no parameter of ours wants one); a JSON body holding a lone UTF-16 surrogate
  (``"\\ud800"``: text no database or JSON encoder can write), a number out of range (``1e400``,
  ``NaN``, ``Infinity``) or nesting deeper than ``MAX_DEPTH`` is a 422 naming it, before any
  route sees it.
  Under ``/api/admin`` the admin token is checked first, as every admin route does (a request
  without it learns nothing of its body).
- ``validation_error``: FastAPI's 422, with the echoed input made printable, so that no refusal
  can fail to be written (a 500).
- ``SecurityHeaders`` (ASGI middleware): a Content-Security-Policy (the client's own scripts,
  styles and socket only; no frames), ``X-Content-Type-Options``, ``Referrer-Policy``,
  ``X-Frame-Options``, ``Permissions-Policy`` and ``Cross-Origin-Opener-Policy`` on every answer.
- ``require_metrics_token``: ``/metrics`` wants the metrics token or the admin token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
from typing import Any

from fastapi import HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tablee.protocol import ErrorCode

from .guards import check_admin

#: deeper JSON bodies are refused (ours nest three levels at most: options of a table)
MAX_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")

#: the pages of the browser client: its own files only (the favicon is a data: URI)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: FastAPI's /docs and /redoc load their scripts from a CDN and run inline ones: they only get
#: the frame ban
DOCS_CSP = "frame-ancestors 'none'"
DOCS = ("/docs", "/redoc")
HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


# -- odd input ------------------------------------------------------------------------------------


class _Bad(ValueError):
    def __init__(self, kind: str, message: str, loc: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        #: where in the body (keys and indexes), when known
        self.loc = loc


SURROGATE_MESSAGE = (
    "texte invalide : un caractère \\ud800 à \\udfff seul (une moitié de paire UTF-16) n'est"
    " pas du texte"
)


def _constant(name: str) -> Any:
    raise _Bad("invalid_number", f"nombre invalide : {name} n'est pas un nombre fini")


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Bad("invalid_number", "nombre hors limites : il doit être fini")
    return value


def _lone_surrogate(text: str) -> bool:
    # json.loads joins every valid pair into one character: a surrogate left is a lone one
    return _SURROGATE.search(text) is not None


def json_problem(body: bytes) -> _Bad | None:
    """What makes this JSON body unfit for any route, or None (also for a body that is not
    JSON at all: FastAPI answers that one itself)."""
    if not body.strip():
        return None
    try:
        value = json.loads(body, parse_constant=_constant, parse_float=_number)
    except _Bad as bad:
        return bad
    except RecursionError:
        return _Bad("too_deep", f"JSON trop imbriqué : {MAX_DEPTH} niveaux au plus")
    except ValueError:
        return None
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        item, loc = stack.pop()
        if isinstance(item, str):
            if _lone_surrogate(item):
                return _Bad("invalid_text", SURROGATE_MESSAGE, loc)
            continue
        if not isinstance(item, (dict, list)):
            continue
        if len(loc) >= MAX_DEPTH:
            return _Bad("too_deep", f"JSON trop imbriqué : {MAX_DEPTH} niveaux au plus")
        if isinstance(item, dict):
            for k, v in item.items():
                if _lone_surrogate(k):
                    return _Bad("invalid_text", SURROGATE_MESSAGE, (*loc, printable(k)))
                stack.append((v, (*loc, k)))
        else:
            stack.extend((v, (*loc, i)) for i, v in enumerate(item))
    return None


def _is_json(scope: Scope) -> bool:
    """FastAPI reads a body as JSON when it says so, or says nothing."""
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            kind = value.decode("latin-1").split(";")[0].strip().lower()
            return kind == "application/json" or kind.endswith("+json")
    return True


async def _read(receive: Receive) -> tuple[bytes, bool]:
    """The whole body (bounded by ``BodyLimit`` outside), and whether the client stayed."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"", False
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), True


class InputGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query: bytes = scope.get("query_string", b"")
        if b"%00" in query or b"\x00" in query:
            nul = "La requête contient un caractère nul (%00) : il n'a sa place nulle part ici."
            await self._refuse(
                scope,
                receive,
                send,
                JSONResponse({"detail": nul, "code": ErrorCode.BAD_REQUEST}, 400),
            )
            return
        body, stayed = await _read(receive)
        if not stayed:
            return
        bad = json_problem(body) if body and _is_json(scope) else None
        if bad is not None:
            errors = [{"loc": ["body", *bad.loc], "msg": bad.message, "type": bad.kind}]
            await self._refuse(scope, receive, send, JSONResponse({"detail": errors}, 422))
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, response: JSONResponse
    ) -> None:
        if scope["path"].startswith("/api/admin"):
            try:
                check_admin(Request(scope))
            except HTTPException as exc:
                response = JSONResponse({"detail": exc.detail}, exc.status_code, exc.headers)
        app = scope.get("app")
        ops = getattr(getattr(app, "state", None), "ops", None)
        if ops is not None and response.status_code in (400, 422):
            ops.error(ErrorCode.BAD_REQUEST, "rest")
        await response(scope, receive, send)


def printable(value: Any) -> Any:
    """``value`` with what JSON cannot write replaced: lone surrogates by U+FFFD, numbers that
    are not finite by their name."""
    if isinstance(value, str):
        if _lone_surrogate(value):
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {printable(k): printable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [printable(v) for v in value]
    return value


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's own 422 (``{"detail": [{loc, msg, type, input...}]}``), always writable."""
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": printable(jsonable_encoder(exc.errors()))}, status_code=422)


# -- headers --------------------------------------------------------------------------------------


def _csp(scope: Scope) -> bytes:
    path: str = scope["path"]
    if path.startswith(DOCS):
        return DOCS_CSP.encode()
    # the socket by its own address too: 'self' covers ws: and wss: only in recent browsers
    host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
    if not _HOST.match(host):
        return f"{CSP}; connect-src 'self'".encode()
    return f"{CSP}; connect-src 'self' ws://{host} wss://{host}".encode()


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                have = {k.lower() for k, _ in headers}
                extra = [*HEADERS, (b"content-security-policy", _csp(scope))]
                headers.extend((k, v) for k, v in extra if k not in have)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# -- /metrics -------------------------------------------------------------------------------------


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


METRICS_OFF = (
    "/metrics needs a token: set TABLEE_METRICS_TOKEN (for the scraper) or TABLEE_ADMIN_TOKEN,"
    " and send it as `Authorization: Bearer <token>`"
)


def require_metrics_token(request: Request) -> None:
    """The metrics token or the admin token, compared in constant time; 503 when neither is set,
    401 otherwise."""
    settings = request.app.state.settings
    accepted = [t for t in (settings.metrics_token, settings.admin_token) if t]
    if not accepted:
        raise HTTPException(503, METRICS_OFF)
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    given = given.strip() if scheme.lower() == "bearer" else ""
    found = False
    for token in accepted:  # every one compared, so the time says nothing of which matched
        found |= hmac.compare_digest(_digest(given), _digest(token))
    if not found:
        raise HTTPException(
            401,
            "/metrics needs Authorization: Bearer <TABLEE_METRICS_TOKEN or TABLEE_ADMIN_TOKEN>",
            headers={"WWW-Authenticate": "Bearer"},
        )


__all__ = [
    "CSP",
    "MAX_DEPTH",
    "InputGuard",
    "SecurityHeaders",
    "json_problem",
    "printable",
    "require_metrics_token",
    "validation_error",
]
