"""``tablee serve`` with each player's move and each statement of SQLite's moves' thread timed
(for ``bench/load.py --trace FILE``): where a move's time goes.

- A move: when the server began to handle its ``act`` frame, and when it acknowledged it (the
  move committed; its state goes out in the same step). With the clients' own times (the act
  sent, its state read) the load test splits each move's act → state into its way to the server,
  its time in the server and its way back.
- A statement of the moves' thread (``store/direct.py``, SQLite): its wall time, and the CPU
  time of the thread over it. The module gives up the interpreter's lock over each statement's
  work in SQLite and takes it back after: the wall time less the CPU time is what the statement
  waited for the disk (an fsync), for the lock, or for a core.

At SIGTERM one line per move (``act TABLE IN ACKNOWLEDGED``) and per statement (``sql AT KIND
WALL_MS CPU_MS``) is written to FILE, with ``time.monotonic()`` (one clock for every process of
the machine).

    python bench/trace_serve.py FILE serve --port 8000 ...
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from serving import serve

#: the name of ``store/direct.py``'s thread
MOVES_THREAD = "tablee-moves"


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]
    acts: list[tuple[int, float, float]] = []
    statements: list[tuple[float, str, float, float]] = []
    mono, cpu = time.monotonic, time.thread_time

    def timed(statement: Callable[..., sqlite3.Cursor], sql: str, args: Any) -> sqlite3.Cursor:
        at, used = mono(), cpu()
        try:
            return statement(sql, *args)
        finally:
            statements.append((at, sql.split(None, 1)[0], mono() - at, cpu() - used))

    class Timed(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            return timed(super().execute, sql, args)

        def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
            return timed(super().executemany, sql, args)

    connect = sqlite3.connect

    def timed_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        if threading.current_thread().name == MOVES_THREAD:
            kwargs.setdefault("factory", Timed)
        return connect(*args, **kwargs)

    sqlite3.connect = timed_connect  # type: ignore[assignment]

    from tablee.api import ws

    handle_act = ws._HANDLERS["act"]

    async def timed_act(conn: Any, msg: Any) -> None:
        began = mono()
        ack = conn._ack

        def acknowledged(mid: Any) -> None:
            acts.append((msg.table, began, mono()))
            ack(mid)

        # a connection handles its frames one at a time: this act's acknowledgement is its own
        conn._ack = acknowledged
        try:
            await handle_act(conn, msg)
        finally:
            del conn._ack

    ws._HANDLERS["act"] = timed_act

    def write() -> None:
        with open(out, "w") as f:
            for table, began, acked in acts:
                f.write(f"act {table} {began:.6f} {acked:.6f}\n")
            for at, kind, wall, used in statements:
                f.write(f"sql {at:.6f} {kind} {wall * 1000:.3f} {used * 1000:.3f}\n")

    serve(argv, write)


if __name__ == "__main__":
    main()
