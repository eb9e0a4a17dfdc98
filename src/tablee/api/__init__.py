"""The FastAPI app: REST routers, the WebSocket endpoint, the browser client's static files.

``create_app(settings)`` builds an app; nothing is created at import. Its lifespan opens the tables
layer (``tablee.tables.Service``: the store, the table manager and the queries), applies the
migrations, and starts the table manager (which rebuilds every unfinished table and re-arms its
timers). This package reaches the stored data only through ``tablee.tables``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from tablee import __version__
from tablee.engine import InvalidOptions
from tablee.settings import Settings
from tablee.tables import Broker, Service, TableError, database_away, database_errors

from . import (
    accounts,
    admin,
    admin_accounts,
    games,
    ops,
    players,
    profiles,
    schemas,
    security,
    tables,
    ws,
)
from .limits import BodyLimit, RateLimit, RestLimits

if TYPE_CHECKING:
    from starlette.types import Message, Receive, Scope, Send

WEB = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("tablee")

_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>tablée</title>
<h1>tablée</h1><p>Le serveur de tables tourne. API : <a href="/docs">/docs</a>.</p>"""


class App(FastAPI):
    """The app, whose sockets of ``/ws`` go straight to their endpoint.

    Why. A socket lives as long as its page, and the way to its endpoint through Starlette and
    FastAPI (the error and exception middlewares, ours, which let sockets through, the router,
    the route, the dependency solver) stays on the stack while it lives: about 25 coroutines, 3
    exit stacks and a solved dependency a socket, 82 of the 177 objects the collector tracks for
    a socket that subscribed (``bench/sockets.py``), each one walked by every sweep of the heap
    (``heap.py``); and a handshake is matched and solved on the way.
    What that way adds to a socket is nothing the endpoint uses: it takes the socket alone,
    handles its own errors, and a raised one reaches the server as it would through them. The
    route stays, for the same endpoint under a prefix (a proxy's ``root_path``: another path).
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == ws.PATH:
            scope["app"] = self
            await ws.websocket_endpoint(WebSocket(scope, receive, send))
            return
        await super().__call__(scope, receive, send)


async def _walk_routes(app: FastAPI) -> None:
    """One request through the app, made before it serves any, that every route is matched
    against (a path none of them takes).

    Why. FastAPI builds a router's routes (their models, their dependencies) on the first
    request that walks them, and the middleware stack on the first request of all: 80 ms of
    the event loop for this app's first ``/metrics`` without the walk, 2 ms with it
    (``bench/first_request.py``; ``bench/load.py`` saw a paced room's first ``/metrics`` hold
    every table of the process for 54 ms). Made by whoever comes first after a start, that
    would hold every table of the process, the room that reconnects at once among them."""
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/\u00a0",
        "raw_path": b"/api/%C2%A0",
        "root_path": "",
        "query_string": b"",
        "headers": [],
        "client": None,
        "server": None,
    }

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        pass

    await app(scope, receive, send)


def create_app(settings: Settings | None = None, broker: Broker | None = None) -> FastAPI:
    settings = settings or Settings()
    operations = ops.Ops()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = Service(settings, broker)
        await service.migrate()
        app.state.manager = service.manager
        app.state.queries = service.queries
        app.state.admin_queries = service.admin
        app.state.accounts = service.accounts
        app.state.ratings = service.ratings
        app.state.chat = service.chat
        #: the store itself, for tests and tools only (the routes use the queries)
        app.state.store = service.store
        operations.attach(service.manager)
        await service.start()
        await _walk_routes(app)
        try:
            yield
        finally:
            await service.close()

    app = App(
        title="tablée",
        version=__version__,
        description="Card tables over REST and a WebSocket (`/ws`).",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.ops = operations

    @app.exception_handler(TableError)
    async def _table_error(request: Request, exc: TableError) -> JSONResponse:
        operations.error(exc.code, "rest")
        if exc.http_status == 422:
            # the shape FastAPI gives every other 422, so a client reads all refusals one way
            detail = [{"loc": list(exc.loc or ("body",)), "msg": exc.message, "type": exc.code}]
            return JSONResponse({"detail": detail, "code": exc.code}, status_code=422)
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=exc.http_status)

    async def _database_away(request: Request, exc: Exception) -> JSONResponse:
        refusal = database_away(exc)
        if refusal is None:
            raise exc  # a failure of the server's own: 500, and its traceback in the log
        # one line, not a traceback: while the database is away every call fails alike
        log.warning(
            "%s %s: the database is out of reach (%r)", request.method, request.url.path, exc
        )
        code = refusal.code
        operations.error(code, "rest")
        return JSONResponse(
            {"detail": refusal.message, "code": code},
            status_code=refusal.http_status,
            headers={"Retry-After": "1"},
        )

    for error in database_errors():
        app.add_exception_handler(error, _database_away)

    @app.exception_handler(InvalidOptions)
    async def _invalid(request: Request, exc: InvalidOptions) -> JSONResponse:
        loc = ["body", exc.field]
        top = {"game", "players", "bots", "bot_levels", "turn_seconds", "private", "options"}
        top |= {"spectators", "deal_replays"}
        if exc.field not in top:
            loc = ["body", "options", exc.field]
        return JSONResponse(
            {"detail": [{"loc": loc, "msg": exc.reason, "type": "invalid_option"}]},
            status_code=422,
        )

    app.add_exception_handler(RequestValidationError, security.validation_error)
    # outermost last: headers on every answer, then rate limits (cheapest refusal), then the
    # body's size, then its content
    app.add_middleware(security.InputGuard)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.state.rest_limits = RestLimits(settings)
    app.add_middleware(RateLimit, limits=app.state.rest_limits)
    app.add_middleware(security.SecurityHeaders)

    limited = schemas.errors(413, 429)
    # first: a socket taking the route (``App``: under a prefix) is matched against the routes in
    # order, and each router FastAPI walks costs it ~10 µs (60 µs behind the REST routers, 6 here)
    app.include_router(ws.router, responses=limited)
    app.include_router(players.router, responses=limited)
    app.include_router(accounts.router, responses=limited)
    app.include_router(games.router, responses=limited)
    app.include_router(tables.router, responses=limited)
    app.include_router(profiles.router, responses=limited)
    app.include_router(profiles.page)
    app.include_router(admin.router, responses=limited)
    app.include_router(admin_accounts.router, responses=limited)
    app.include_router(ops.router)

    if (WEB / "index.html").is_file():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        async def _home() -> HTMLResponse:
            return HTMLResponse(_PLACEHOLDER)

    return app


__all__ = ["create_app"]
