"""``tablee serve`` under cProfile (for ``bench/load.py --profile FILE``): the profile is written
when the server stops on SIGTERM.

    python bench/profiled_serve.py FILE serve --port 8000 ...
"""

from __future__ import annotations

import cProfile
import signal
import sys
from typing import Any


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    # uvicorn restores this handler after its graceful shutdown and raises the signal again
    signal.signal(signal.SIGTERM, stop)
    from tablee.cli import main as tablee

    profile = cProfile.Profile()
    try:
        profile.runcall(tablee, argv)
    finally:
        profile.dump_stats(out)


if __name__ == "__main__":
    main()
