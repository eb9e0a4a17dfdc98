"""What the instrumented ``tablee serve`` wrappers of the load test share (``gc_serve.py``,
``profiled_serve.py``, ``stall_serve.py``): run the server from this process until SIGTERM, then
write what was gathered, whatever way the server stopped.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any


def serve(
    argv: list[str],
    finish: Callable[[], None],
    run: Callable[[Callable[[list[str]], Any], list[str]], Any] | None = None,
) -> None:
    """Runs ``tablee`` with ``argv`` (by ``run(tablee, argv)`` when given, to wrap the call) and
    calls ``finish`` once it has stopped."""

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    # uvicorn restores this handler after its graceful shutdown and raises the signal again
    signal.signal(signal.SIGTERM, stop)
    from tablee.cli import main as tablee

    try:
        if run is None:
            tablee(argv)
        else:
            run(tablee, argv)
    finally:
        finish()
