"""``tablee serve`` with its event loop's late turns timed and sampled (for ``bench/load.py
--stalls FILE``): what the loop was doing whenever it was late.

A callback on the loop beats every 2 ms; each beat that comes more than 5 ms late is a *lag* (the
loop ran other work, or waited for the interpreter's lock, that long without returning to its
timers). A thread looks every 4 ms: while the last beat is more than 10 ms old, it takes
the main thread's stack (``sys._current_frames``) — a *sample* of what kept the loop — marked
``[gc]`` when the collector was running. A thread gets the interpreter's lock back only at its
switch interval (5 ms), so a stall of 30 ms gives about six samples: the counts are shares, not
times. At SIGTERM one line per lag and per sample is written to FILE, with ``time.monotonic()``
(the same clock in every process of the machine), for the load test to sum up over its measured
window.

    python bench/stall_serve.py FILE serve --port 8000 ...
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from typing import Any

from serving import serve

BEAT = 0.002
LATE = 0.005
STALL = 0.010


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]
    lags: list[tuple[float, float]] = []
    samples: list[tuple[float, str]] = []
    last = [time.monotonic()]
    collecting = [False]
    stopping = threading.Event()

    def collector(phase: str, info: dict[str, Any]) -> None:
        collecting[0] = phase == "start"

    def beat(loop: Any, due: float) -> None:
        now = time.monotonic()
        last[0] = now
        if now - due > LATE:
            lags.append((now, now - due))
        loop.call_later(BEAT, beat, loop, now + BEAT)

    def watch(main_id: int) -> None:
        while not stopping.wait(0.004):
            now = time.monotonic()
            if now - last[0] <= STALL:
                continue
            frame = sys._current_frames().get(main_id)
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append(f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_name}")
                frame = frame.f_back
            if collecting[0]:
                stack.insert(0, "[gc]")
            samples.append((now, ";".join(reversed(stack))))

    import uvicorn

    startup = uvicorn.Server.startup

    async def timed_startup(self: Any, sockets: Any = None) -> None:
        import asyncio

        await startup(self, sockets)
        loop = asyncio.get_running_loop()
        last[0] = time.monotonic()
        loop.call_later(BEAT, beat, loop, last[0] + BEAT)
        threading.Thread(target=watch, args=(threading.get_ident(),), daemon=True).start()

    uvicorn.Server.startup = timed_startup  # type: ignore[method-assign]

    def write() -> None:
        stopping.set()
        with open(out, "w") as f:
            for at, lag in lags:
                f.write(f"lag {at:.4f} {lag * 1000:.2f}\n")
            for at, stack in samples:
                f.write(f"sample {at:.4f} {stack}\n")

    gc.callbacks.append(collector)
    serve(argv, write)


if __name__ == "__main__":
    main()
