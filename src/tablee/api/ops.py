"""Operations: ``/healthz``, ``/metrics`` (Prometheus text), and what feeds them.

Each app owns an ``Ops`` (``app.state.ops``) with its own Prometheus registry, so several apps in
one process (tests) never share counters. It counts the moves (a hook of the table manager), the
error codes sent (WebSocket and REST), and holds the open WebSocket connections (the admin's ban
closes a player's live sockets through it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections import Counter as Tally
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

from tablee.protocol import ErrorCode
from tablee.tables import FINISHED

from .security import require_metrics_token

if TYPE_CHECKING:
    from tablee.tables import LiveTable, TableManager

    from .heap import HeapKeeper
    from .ws import Connection

log = logging.getLogger("tablee.ops")
router = APIRouter(tags=["operations"])

#: seconds from a move's arrival to its commit
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: seconds of a group commit: a fsync on a local disk is a fraction of a millisecond
COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
HEALTH_TIMEOUT = 5.0


class Ops:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter(
            "tablee_moves",
            "Accepted moves, by game and source (player, timer, bot)",
            ["game", "source"],
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "tablee_action_seconds",
            "Seconds from a move's arrival to its commit (lock wait, rules, database)",
            ["source"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "tablee_store_commit_seconds",
            "Seconds of a group commit of table writes, from its start until its task resumes"
            " with the outcome (the database's share of a move's tablee_action_seconds; its"
            " count: transactions)",
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.committed = Counter(
            "tablee_store_writes",
            "Table writes committed in groups (per transaction: this over"
            " tablee_store_commit_seconds_count)",
            registry=self.registry,
        )
        self.errors = Counter(
            "tablee_errors",
            "Refusals sent to clients, by error code and channel (ws, rest, admin)",
            ["code", "channel"],
            registry=self.registry,
        )
        self.games_finished = Counter(
            "tablee_games_finished",
            "Games played to their end, by game",
            ["game"],
            registry=self.registry,
        )
        self.admin_actions = Counter(
            "tablee_admin_actions",
            "Admin actions written to the audit log, by action",
            ["action"],
            registry=self.registry,
        )
        self.sockets: set[Connection] = set()
        self._move_metrics: dict[tuple[str, str], tuple[Any, Any]] = {}
        self.manager: TableManager | None = None
        #: the server process's garbage collector keeper (``tablee serve`` sets it)
        self.heap: HeapKeeper | None = None
        self.registry.register(_Live(self))

    def attach(self, manager: TableManager) -> None:
        self.manager = manager
        manager.move_hooks.append(self.on_move)
        # bans made on other processes close the sockets held here
        manager.ban_hooks.append(self.close_player)
        manager.logout_hooks.append(self.log_out_player)
        manager.connected_players = self.connected_players
        manager.store.commit_hooks.append(self.on_commit)

    # -- feeds -----------------------------------------------------------------------------------

    def on_move(self, live: LiveTable, seat: int, action: Any, source: str, seconds: float) -> None:
        game = live.rec.game
        # the children of the labels, looked up once: this runs on every move
        children = self._move_metrics.get((game, source))
        if children is None:
            children = self._move_metrics[game, source] = (
                self.moves.labels(game, source),
                self.action_seconds.labels(source),
            )
        children[0].inc()
        children[1].observe(seconds)
        if log.isEnabledFor(logging.DEBUG):
            kind = action.get("type") if isinstance(action, dict) else None
            log.debug(
                "move",
                extra={
                    "table": live.id,
                    "seat": seat,
                    "source": source,
                    "action": kind,
                    "ms": round(seconds * 1000, 3),
                },
            )
        if live.rec.status == FINISHED:
            self.games_finished.labels(game).inc()
            outcome = live.rec.outcome or {}
            log.info(
                "game over",
                extra={
                    "table": live.id,
                    "seat": seat,
                    "game": game,
                    "game_no": live.rec.game_no,
                    "winners": outcome.get("winners"),
                },
            )

    def on_commit(self, seconds: float, writes: int) -> None:
        self.commit_seconds.observe(seconds)
        self.committed.inc(writes)

    def error(self, code: ErrorCode, channel: str = "ws") -> None:
        self.errors.labels(code, channel).inc()

    @contextlib.contextmanager
    def connected(self, conn: Connection) -> Iterator[None]:
        self.sockets.add(conn)
        conn.on_error = self.error
        try:
            yield
        finally:
            self.sockets.discard(conn)

    def sockets_of(self, player_id: int) -> list[Connection]:
        return [c for c in self.sockets if c.player_id == player_id]

    def connected_players(self) -> set[int]:
        return {c.player_id for c in self.sockets if c.player_id is not None}

    def close_player(self, player_id: int) -> int:
        """A banned player's sockets here: told why, then closed. How many were open."""
        return sum(conn.ban() for conn in self.sockets_of(player_id))

    def log_out_player(self, player_id: int) -> int:
        """The sockets here of a player who logged out everywhere: told why, then closed."""
        return sum(conn.log_out() for conn in self.sockets_of(player_id))

    def metrics_text(self) -> bytes:
        return generate_latest(self.registry)


class _Live(Collector):
    """Gauges read at scrape time: tables held in memory, open sockets."""

    def __init__(self, ops: Ops) -> None:
        self.ops = ops

    def collect(self) -> Iterable[Metric]:
        tables = GaugeMetricFamily(
            "tablee_tables",
            "Tables this process holds, by game and status",
            labels=["game", "status"],
        )
        counts: Tally[tuple[str, str]] = Tally()
        if self.ops.manager is not None:
            for live in self.ops.manager.live_tables():
                counts[(live.rec.game, live.rec.status)] += 1
        for (game, status), n in sorted(counts.items()):
            tables.add_metric([game, status], n)
        yield tables
        manager = self.ops.manager
        if manager is not None:
            yield CounterMetricFamily(
                "tablee_catch_ups",
                "Held tables brought up to date from the database (their new log rows replayed)",
                value=manager.pipeline.catch_ups,
            )
            sqlite = manager.store.sqlite_moves
            if sqlite is not None:
                groups = CounterMetricFamily(
                    "tablee_store_sqlite_move_groups",
                    "SQLite: groups of moves alone committed on the event loop (small ones, the"
                    " file free) and in the moves' thread",
                    labels=["where"],
                )
                for where in ("loop", "thread"):
                    groups.add_metric([where], sqlite[where])
                yield groups
                yield CounterMetricFamily(
                    "tablee_store_sqlite_slow_loop_commits",
                    "SQLite: commits on the event loop slow enough to send the groups to the"
                    " thread a while (a slow disk)",
                    value=sqlite["slow"],
                )
            crossed = CounterMetricFamily(
                "tablee_cluster_messages",
                "Several processes: changes' frames relayed and received, moves sent to a"
                " table's home and served there, tables handed to another home and received",
                labels=["kind"],
            )
            for kind, n in sorted(manager.coordination.counts().items()):
                crossed.add_metric([kind], n)
            yield crossed
        sockets = list(self.ops.sockets)
        yield GaugeMetricFamily(
            "tablee_websockets", "Open WebSocket connections", value=len(sockets)
        )
        players = {c.player_id for c in sockets if c.player_id is not None}
        yield GaugeMetricFamily(
            "tablee_websocket_players",
            "Players with at least one open WebSocket connection",
            value=len(players),
        )
        heap = self.ops.heap
        if heap is not None:
            # the allocated blocks, not ``gc.get_freeze_count()``, which walks every frozen
            # object (15 ms of the event loop at 1.5 million)
            yield GaugeMetricFamily(
                "tablee_heap_allocated_blocks",
                "Memory blocks the interpreter holds (what the heap's growth is read from)",
                value=sys.getallocatedblocks(),
            )
            if heap.garbage_rate is not None:
                yield GaugeMetricFamily(
                    "tablee_heap_garbage_rate",
                    "Memory blocks of garbage made a second, as the last sweep found (what the "
                    "next sweep waits for)",
                    value=heap.garbage_rate,
                )
            yield CounterMetricFamily(
                "tablee_heap_freezes",
                "Times the heap was frozen (moved out of the garbage collector's passes)",
                value=heap.freezes,
            )
            yield CounterMetricFamily(
                "tablee_heap_sweeps",
                "Collections of the whole heap, frozen objects included",
                value=heap.sweeps,
            )
            yield GaugeMetricFamily(
                "tablee_heap_last_sweep_seconds",
                "How long the last sweep of the whole heap held the process",
                value=heap.last_seconds,
            )


def get_ops(request: Request) -> Ops:
    ops: Ops = request.app.state.ops
    return ops


@router.get(
    "/healthz",
    responses={503: {"description": "the database does not answer"}},
)
async def healthz(request: Request) -> JSONResponse:
    """200 when the database answers, 503 when it does not."""
    queries = request.app.state.queries
    try:
        await asyncio.wait_for(queries.ping(), HEALTH_TIMEOUT)
    except Exception as exc:  # any failure means "not healthy", whatever the driver raised
        log.warning("health check: the database is unreachable: %s", type(exc).__name__)
        return JSONResponse(
            {"status": "unavailable", "database": "unreachable", "error": type(exc).__name__},
            status_code=503,
        )
    return JSONResponse({"status": "ok", "database": "ok"})


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    dependencies=[Depends(require_metrics_token)],
    responses={
        401: {"description": "no token, or not the metrics or admin token"},
        503: {"description": "neither TABLEE_METRICS_TOKEN nor TABLEE_ADMIN_TOKEN is set"},
    },
)
async def metrics(request: Request) -> Response:
    """Prometheus text exposition format; ``Authorization: Bearer`` the metrics token
    (``TABLEE_METRICS_TOKEN``) or the admin token."""
    return Response(get_ops(request).metrics_text(), media_type=CONTENT_TYPE_LATEST)


__all__ = ["Ops", "get_ops", "router"]
