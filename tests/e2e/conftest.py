"""Browser tests: a real server (uvicorn on a free port, a temporary SQLite file) in a thread of the
test process, and Debian's Chromium driven by Playwright.

Playwright never downloads a browser here: ``executable_path`` points at the system Chromium
(``make test`` installs it when it is missing). Each test gets a fresh browser context (its own
localStorage, so its own guest player) and fails on any console error of any page it opened.
Screenshots go to ``test-artifacts/screenshots/`` (ignored by git) for a person to look at.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

# a dependency of the project's tests (pyproject.toml): missing, collection fails, as it must in CI
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    expect,
    sync_playwright,
)

from tests.serverkit import unavailable

CHROMIUM = os.environ.get("TABLEE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"

# A busy machine (CI has two cores) may take a few seconds to draw a page: every wait gets 15 s.
expect.set_options(timeout=15_000)

# Playwright must never fetch a browser of its own.
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """The app under uvicorn in a thread with its own event loop. ``run(fn)`` runs
    ``fn(app)`` (a coroutine function) on that loop, for what the REST API does not offer (a
    stacked deck); ``restart()`` stops it and serves the same database on the same port again."""

    def __init__(self, db_path: Path, bot_delay: float = 0.05) -> None:
        self.db_path = db_path
        self.bot_delay = bot_delay
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.app: Any = None

    def start(self) -> None:
        import uvicorn

        from tablee.api import create_app
        from tablee.settings import Settings

        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{self.db_path}",
            bot_delay_seconds=self.bot_delay,
            log_level="warning",
            # every test's people come from one address within minutes: more than a household
            rate_limit_new_players="off",
            rate_limit_new_tables="off",
        )
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        live = self

        class _Server(uvicorn.Server):
            async def serve(self, sockets: Any = None) -> None:
                live.loop = asyncio.get_running_loop()
                await super().serve(sockets)

        self._server = _Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)
        self._server = self._thread = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def run(self, fn: Callable[[Any], Coroutine[Any, Any, Any]], timeout: float = 20) -> Any:
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(fn(self.app), self.loop).result(timeout)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("e2e") / "tablee.db")
    live.start()
    yield live
    live.stop()


# Module scope: Playwright's sync API keeps an event loop running in the main thread while it is
# open, and asyncio tests of later modules could not start theirs.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} is missing (`make test` installs it)", "the browser tests")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class Pages:
    """Browser contexts of one test; every page's console errors are collected."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def new(
        self,
        width: int = 1280,
        height: int = 860,
        phone: bool = False,
        trick_pause: int | None = 0,
        motion: bool = False,
    ) -> Page:
        """A page of a new browser context; ``phone``: a touch screen of device scale 3, as a
        phone's browser reports it (coarse pointer, no hover, the viewport meta tag obeyed).
        ``trick_pause``: how long a completed trick stays on the felt (ms); none by default, so
        the robots' games go at their pace; ``None``: the page's own pause. ``motion``: cards
        slide (else the browser asks for reduced motion, so that what a test measures is where
        a card rests, not where it flies)."""
        ctx = self.browser.new_context(
            viewport={"width": width, "height": height},
            locale="fr-FR",
            is_mobile=phone,
            has_touch=phone,
            device_scale_factor=3 if phone else 1,
            reduced_motion="no-preference" if motion else "reduce",
        )
        ctx.set_default_timeout(15_000)
        if trick_pause is not None:
            ctx.add_init_script(f"window.tableeTrickPause = {int(trick_pause)};")
        self.contexts.append(ctx)
        page = ctx.new_page()
        self.watch(page)
        return page

    def watch(self, page: Page) -> None:
        def on_console(msg: ConsoleMessage) -> None:
            if msg.type == "error":
                self.errors.append(f"{page.url}: {msg.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    p = Pages(browser)
    yield p
    p.close()
    assert not p.errors, "console errors:\n" + "\n".join(p.errors)


@pytest.fixture(autouse=True)
def _same_deal_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table a test creates is dealt from the same seed, unless the test picks another."""
    from .helpers import DEFAULT_SEED, fixed_seed

    fixed_seed(monkeypatch, DEFAULT_SEED)


@pytest.fixture(autouse=True)
def _names_free_again(server: LiveServer) -> Iterator[None]:
    """Each test's people are new people, who may pick the names earlier tests' people picked:
    once a test is over, its players' names are free again (names are unique, docs/server.md;
    one server serves every test, for speed)."""
    yield

    async def retire(app: Any) -> None:
        from sqlalchemy import text

        async with app.state.store.engine.begin() as conn:
            await conn.execute(text("UPDATE players SET name_key = NULL"))

    server.run(retire)


@pytest.fixture(scope="session", autouse=True)
def _screenshots_dir() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)


def screenshot(page: Page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
