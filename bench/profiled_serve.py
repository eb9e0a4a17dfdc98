"""``tablee serve`` under cProfile (for ``bench/load.py --profile FILE``): the profile is written
when the server stops on SIGTERM.

    python bench/profiled_serve.py FILE serve --port 8000 ...
"""

from __future__ import annotations

import cProfile
import sys

from serving import serve


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]

    profile = cProfile.Profile()
    serve(argv, lambda: profile.dump_stats(out), run=profile.runcall)


if __name__ == "__main__":
    main()
