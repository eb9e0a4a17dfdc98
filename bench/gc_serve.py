"""``tablee serve`` with its garbage collector's passes timed (for ``bench/load.py --gc-pauses
FILE``): at SIGTERM, one line per pass is written to FILE — when it ended (``time.monotonic()``, the
same clock in every process of the machine), its generation, its milliseconds and the objects it
collected — for the load test to sum up over its measured window.

    python bench/gc_serve.py FILE serve --port 8000 ...
"""

from __future__ import annotations

import gc
import sys
import time
from typing import Any

from serving import serve


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]
    passes: list[tuple[float, int, float, int]] = []
    started = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            ms = (time.perf_counter() - started[0]) * 1000
            passes.append((time.monotonic(), info["generation"], ms, info["collected"]))

    def write() -> None:
        with open(out, "w") as f:
            for at, gen, ms, collected in passes:
                f.write(f"{at:.3f} {gen} {ms:.3f} {collected}\n")

    gc.callbacks.append(timed)
    serve(argv, write)


if __name__ == "__main__":
    main()
