"""One app process of the cluster tests: the app with the test games, under uvicorn, configured
by the ``TABLEE_*`` environment variables (``python -m tests.cluster.app``)."""

from __future__ import annotations

import uvicorn

from tablee.api import create_app
from tablee.settings import Settings
from tests.cluster.race import race
from tests.serverkit import toy


def main() -> None:
    toy()
    race()
    settings = Settings()
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        ws_max_size=1 << 20,
    )


if __name__ == "__main__":
    main()
