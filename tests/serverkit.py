"""What the server tests share: a clean database per test (SQLite, and PostgreSQL when configured),
an app with a test client, WebSocket helpers that check every frame for leaks, and a tiny game.

PostgreSQL: ``TABLEE_TEST_POSTGRES_URL`` (``postgresql+asyncpg://...``). Unset: the PostgreSQL
variants are skipped, except with ``CI=true``, where a missing or unreachable server fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc
from starlette.testclient import WebSocketTestSession

from tablee.api import create_app
from tablee.cards import rng
from tablee.engine import BaseGame, IllegalAction, OptionSpec
from tablee.engine.game import Action, Event
from tablee.engine.secrecy import leaks
from tablee.games import get_game, register
from tablee.games.registry import _GAMES
from tablee.settings import Settings
from tablee.store import Store

POSTGRES_ENV = "TABLEE_TEST_POSTGRES_URL"

#: a test's ``failure``: the database out of reach as the drivers tell it (a connection refused,
#: a statement past its time, a pool whose connections are all held by such statements)
database_away = pytest.mark.parametrize(
    "failure",
    [
        ConnectionRefusedError(111, "Connection refused"),
        TimeoutError(),
        sa_exc.TimeoutError("QueuePool limit of size 10 overflow 8 reached"),
    ],
    ids=["refused", "silent", "pool"],
)


# -- databases -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Database:
    kind: str
    url: str
    schema: str | None = None

    def settings(self, **overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "database_url": self.url,
            "database_schema": self.schema,
            "bot_delay_seconds": 0.01,
            "admin_token": None,
            "redis_url": None,
        }
        values.update(overrides)
        return Settings(**values)

    def query(self, method: str, *args: Any) -> Any:
        """One call of a ``Store`` method, with no app running."""

        async def run() -> Any:
            store = Store(self.url, self.schema)
            try:
                return await getattr(store, method)(*args)
            finally:
                await store.close()

        return asyncio.run(run())


def unavailable(reason: str, needed: str) -> NoReturn:
    """What a test needs (a service, a program) is missing: a failure in CI, which runs every
    test, and a skip elsewhere."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(f"{reason}, and CI needs {needed}")
    pytest.skip(reason)


def _postgres_url() -> str | None:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        unavailable(f"{POSTGRES_ENV} is not set", "the PostgreSQL tests")
    return url


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _pg(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_plain(url), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _pg_run(url: str, sql: str) -> None:
    try:
        asyncio.run(_pg(url, sql))
    except (TimeoutError, OSError) as exc:
        unavailable(f"PostgreSQL at {url} is unreachable: {exc}", "the PostgreSQL tests")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Database]:
    """A clean database: a new SQLite file, or a new schema on the PostgreSQL server."""
    if request.param == "sqlite":
        yield Database("sqlite", f"sqlite+aiosqlite:///{tmp_path}/tablee.db")
        return
    yield from _postgres_schema()


@pytest.fixture(params=[pytest.param("postgres", marks=pytest.mark.postgres)])
def postgres_db() -> Iterator[Database]:
    """A new schema on the PostgreSQL server, for what only PostgreSQL has (write locks)."""
    yield from _postgres_schema()


def _postgres_schema() -> Iterator[Database]:
    url = _postgres_url()
    assert url is not None
    schema = f"t_{uuid.uuid4().hex[:16]}"
    _pg_run(url, f'CREATE SCHEMA "{schema}"')
    try:
        yield Database("postgres", url, schema)
    finally:
        _pg_run(url, f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def sqlite_db(tmp_path: Any) -> Database:
    return Database("sqlite", f"sqlite+aiosqlite:///{tmp_path}/tablee.db")


async def migrated(db: Database) -> AsyncIterator[Store]:
    """A migrated store on ``db``, closed after."""
    s = Store(db.url, db.schema)
    await s.migrate()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Store]:
    """A migrated store on a clean database (SQLite, then PostgreSQL)."""
    async for s in migrated(database):
        yield s


class OtherProcesses:
    """Stands for a broker between processes that delivers nothing: a manager given it checks
    the stored version before every change, as it does when several processes share tables."""

    async def start(self, listener: Any) -> None:
        pass

    async def publish(self, table_id: int, version: int) -> None:
        pass

    async def close(self) -> None:
        pass


# -- the app -------------------------------------------------------------------------------------


class Server:
    """An app under a test client, with helpers for players and tables."""

    def __init__(self, db: Database, **settings: Any) -> None:
        self.db = db
        self.app = create_app(db.settings(**settings))
        self.client = TestClient(self.app)

    def __enter__(self) -> Server:
        self.client.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.client.__exit__(*exc)

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a coroutine function on the app's event loop."""
        portal = self.client.portal
        assert portal is not None

        async def run() -> Any:
            return await fn(*args, **kwargs)

        return portal.call(run)

    def player(self, name: str) -> Player:
        r = self.client.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        return Player(body["id"], body["name"], body["token"])

    def headers(self, p: Player) -> dict[str, str]:
        return {"Authorization": f"Bearer {p.token}"}

    def post(self, path: str, p: Player | None = None, **kw: Any) -> Any:
        return self.client.post(path, headers=self.headers(p) if p else {}, **kw)

    def create_table(self, p: Player, **body: Any) -> dict[str, Any]:
        r = self.post("/api/tables", p, json=body)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def stacked_table(self, creator: Player, game: str, players: int, **kw: Any) -> dict[str, Any]:
        """A table with a chosen seed or deck (not possible through the public API)."""
        rec = self.call(self.app.state.store.player, creator.id)
        live = self.call(self.manager.create_table, rec, game, players, **kw)
        info: dict[str, Any] = self.manager.info(live)
        return info

    def check_secrets(self, frames: list[dict[str, Any]], p: Player | None) -> None:
        """No state frame names a card its receiver could not see at that frame's version: each
        frame is checked against ``game.hidden`` of the state the log gives at that version."""
        by_table: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for f in frames:
            if f.get("type") == "state" and f["view"] is not None:
                by_table.setdefault((f["table"], f["info"]["game_no"]), []).append(f)
        for (table_id, game_no), fs in by_table.items():
            rec = self.call(self.app.state.store.table, table_id)
            game = get_game(rec.game)
            seed, deck = rec.seed, rec.deck
            if game_no != rec.game_no:
                continue  # an earlier game's seed is not kept on the table row
            log = self.call(self.app.state.store.actions, table_id, game_no)
            state = game.new(rec.players, rec.options, seed=seed, deck=deck)
            i = 0
            for f in sorted(fs, key=lambda f: f["version"]):
                while i < len(log) and log[i].version <= f["version"]:
                    state, _ = game.apply(state, log[i].seat, log[i].action)
                    i += 1
                seat = f["view"].get("seat")
                if p is not None:
                    assert seat == next(
                        (s["seat"] for s in f["info"]["seats"] if s["player_id"] == p.id), None
                    ), "a frame shows another seat's view"
                if f.get("behind") is not None:
                    # a delayed spectator's frame (every hand shown): exactly the game as it was
                    # ``behind`` moves ago, never a card of a later moment (once the game is
                    # over, nothing of it is secret)
                    if not f["over"]:
                        self._check_delayed(game, rec, log[: i - f["behind"]], f)
                    continue
                secret = game.hidden(state, seat)
                payload = {k: v for k, v in f.items() if k != "info"}
                leaked = leaks(payload, secret)
                if leaked:
                    raise LeakError(
                        f"table {table_id} v{f['version']} seat {seat}: {sorted(leaked)}"
                    )
        self.frames_checked = getattr(self, "frames_checked", 0) + sum(map(len, by_table.values()))

    def _check_delayed(self, game: Any, rec: Any, rows: list[Any], f: dict[str, Any]) -> None:
        """A delayed spectator's frame is the game as it was ``behind`` moves ago: with every
        hand (exactly those of that moment), or before any moment far enough behind, the deal as
        dealt without a hand; never a card of a later moment."""
        assert f["view"]["seat"] is None and f["legal"] == [], f
        then = game.new(rec.players, rec.options, seed=rec.seed, deck=rec.deck)
        for row in rows:
            then, _ = game.apply(then, row.seat, row.action)
        if f["view"]["phase"] != game.view(then, None)["phase"]:
            raise LeakError(f"table {rec.id} v{f['version']}: not the game {f['behind']} moves ago")
        if "hands" not in f["view"]:
            assert not rows, "a delayed spectator without hands sees the deal as dealt"
            payload = {k: v for k, v in f.items() if k != "info"}
            if leaks(payload, game.hidden(then, None)):
                raise LeakError(f"table {rec.id} v{f['version']}: a hidden card")
            return
        assert f["behind"] >= 1, f
        hands = [game.view(then, s).get("hand") for s in range(rec.players)]
        if f["view"]["hands"] != hands:
            raise LeakError(f"table {rec.id} v{f['version']}: not the game {f['behind']} moves ago")
        self.delayed_checked = getattr(self, "delayed_checked", 0) + 1

    def ws(self, p: Player | None = None) -> WS:
        session = self.client.websocket_connect("/ws")
        return WS(session, self, p)


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    token: str


class LeakError(AssertionError):
    pass


def keep_info(frame: dict[str, Any], infos: dict[int, dict[str, Any]]) -> bool:
    """As the browser does with a ``state`` frame: a change's state leaves ``info`` out when it
    did not change, and the last one (kept in ``infos``, per table) holds at this state's version
    and deadline. True when the frame had none of its own."""
    if frame.get("type") != "state":
        return False
    if "info" in frame:
        infos[frame["table"]] = frame["info"]
        return False
    kept = infos[frame["table"]]  # a state without info never comes first
    frame["info"] = {**kept, "version": frame["version"], "deadline": frame["deadline"]}
    return True


class WS:
    """A WebSocket test session that checks every state frame against the game's hidden cards."""

    def __init__(self, session: WebSocketTestSession, server: Server, p: Player | None) -> None:
        self.cm = session
        self.server = server
        self.player = p
        self.s: WebSocketTestSession | None = None
        self.frames: list[dict[str, Any]] = []
        #: each table's info as last received, and how many states left it out (unchanged)
        self.infos: dict[int, dict[str, Any]] = {}
        self.infos_kept = 0

    def __enter__(self) -> WS:
        self.s = self.cm.__enter__()
        if self.player is not None:
            self.send({"type": "hello", "token": self.player.token})
            assert self.recv()["type"] == "welcome"
        return self

    def __exit__(self, *exc: Any) -> None:
        self.cm.__exit__(*exc)
        if exc[0] is None:
            self.server.check_secrets(self.frames, self.player)

    def send(self, msg: Any) -> None:
        assert self.s is not None
        if isinstance(msg, str):
            self.s.send_text(msg)
        else:
            self.s.send_text(json.dumps(msg))

    def raw(self, timeout: float = 10) -> dict[str, Any]:
        s = self.s
        assert s is not None

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await s._send_rx.receive()

        message = s.portal.call(get)
        s._raise_on_close(message)
        frame: dict[str, Any] = json.loads(message["text"])
        self.infos_kept += keep_info(frame, self.infos)
        return frame

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = self.raw(timeout)
        self.frames.append(frame)
        return frame

    def until(self, pred: Any, timeout: float = 10) -> dict[str, Any]:
        """Frames are read until one satisfies ``pred``."""
        while True:
            frame = self.recv(timeout)
            if pred(frame):
                return frame

    def state(self, table: int | None = None, timeout: float = 10) -> dict[str, Any]:
        return self.until(
            lambda f: f["type"] == "state" and (table is None or f["table"] == table), timeout
        )

    _ids = iter(range(1, 1 << 30))

    def sync(self, table: int) -> dict[str, Any]:
        """The table's current state for this connection."""
        mid = f"sync-{next(self._ids)}"
        self.send({"type": "sync", "table": table, "id": mid})
        answer = self.until(lambda f: f.get("id") == mid)
        assert answer["type"] == "ack", answer
        return self.state(table)

    def act(self, table: int, action: Any) -> dict[str, Any]:
        """Send a move; its answer (ack or error)."""
        mid = next(self._ids)
        self.send({"type": "act", "table": table, "action": action, "id": mid})
        return self.until(lambda f: f["type"] in {"ack", "error"} and f.get("id") == mid)

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send, then return the answer (ack, error, welcome or pong), skipping states."""
        self.send(msg)
        return self.until(lambda f: f["type"] in {"ack", "error", "welcome", "pong"})


def play_out(
    conns: dict[int, WS],
    table: int,
    choose: Any = None,
    max_moves: int = 5000,
) -> dict[str, Any]:
    """Seats move, each through its own connection, until the game is over: ``choose(state)``
    picks from the seat's ``legal`` (first by default). Returns the final state."""
    any_ws = next(iter(conns.values()))
    for _ in range(max_moves):
        st = any_ws.sync(table)
        if st["over"]:
            return st
        seat = st["to_act"][0]
        mine = conns[seat].sync(table)
        if mine["over"]:
            return mine
        if seat not in mine["to_act"]:
            continue
        action = choose(mine) if choose else mine["legal"][0]
        answer = conns[seat].act(table, action)
        assert answer["type"] == "ack", (answer, action)
    raise AssertionError("the game did not end")


# -- a tiny game with hidden hands, for tests that need no real game -------------------------------


@dataclass(frozen=True)
class ToyState:
    players: int
    hands: tuple[tuple[str, ...], ...]
    played: tuple[tuple[int, str], ...]
    turn: int
    rounds: int
    deal: int
    scores: tuple[int, ...]
    seed: int | str


#: five deals of sixteen cards: a card is never dealt twice, so a card played in an earlier deal
#: never becomes secret again
TOY_DECK = [f"T{i:02d}" for i in range(1, 81)]


class ToyGame(BaseGame[ToyState]):
    """Each seat gets ``hand`` cards; in turn each plays one; the highest total wins. A deal ends
    with a public ``deal_end`` event; ``deals`` deals are played."""

    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 4
    state_type = ToyState

    option_specs = (
        OptionSpec("hand", "int", 3, "Cartes", min=1, max=4),
        OptionSpec("deals", "int", 1, "Donnes", min=1, max=5),
    )

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> ToyState:
        return self._deal(players, options["hand"], options["deals"], seed, 1, deck, (0,) * players)

    def _deal(
        self,
        n: int,
        hand: int,
        deals: int,
        seed: int | str,
        deal: int,
        deck: Sequence[str] | None,
        scores: tuple[int, ...],
    ) -> ToyState:
        cards = list(deck) if deck is not None else TOY_DECK[(deal - 1) * 16 : deal * 16]
        if deck is None:
            rng(seed, "deal", deal).shuffle(cards)
        hands = tuple(tuple(sorted(cards[i * hand : (i + 1) * hand])) for i in range(n))
        return ToyState(n, hands, (), 0, deals, deal, scores, seed)

    def players(self, state: ToyState) -> int:
        return state.players

    def is_over(self, state: ToyState) -> bool:
        return state.deal > state.rounds

    def to_act(self, state: ToyState) -> tuple[int, ...]:
        return () if self.is_over(state) else (state.turn,)

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        if self.is_over(state) or seat != state.turn:
            return []
        return [{"type": "play", "card": c} for c in state.hands[seat]]

    def _apply(self, state: ToyState, seat: int, action: Action) -> tuple[ToyState, list[Event]]:
        if seat != state.turn:
            raise IllegalAction("it is not your turn", "not_your_turn")
        if action.get("type") != "play":
            raise self.reject(state, seat, action)
        card = action.get("card")
        if not isinstance(card, str):
            raise IllegalAction("a play needs a 'card'", "bad_action")
        if card not in state.hands[seat]:
            raise IllegalAction(f"you do not hold {card}")
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        played = (*state.played, (seat, card))
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        new = replace(state, hands=tuple(hands), played=played, turn=(seat + 1) % state.players)
        if not any(new.hands):
            deal_scores = [0] * state.players
            for s, c in played:
                deal_scores[s] += int(c[1:])
            scores = tuple(a + b for a, b in zip(state.scores, deal_scores, strict=True))
            events.append(
                {"type": "deal_end", "seat": None, "deal": state.deal, "scores": deal_scores}
            )
            hand = len(played) // state.players
            n, rounds = state.players, state.rounds
            new = self._deal(n, hand, rounds, state.seed, state.deal + 1, None, scores)
            if new.deal > new.rounds:
                new = replace(new, hands=tuple(() for _ in range(n)))
        return new, events

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "players": state.players,
            "phase": "over" if self.is_over(state) else "play",
            "seat": seat,
            "dealer": state.players - 1,
            "turn": None if self.is_over(state) else state.turn,
            "hand": None if seat is None else list(state.hands[seat]),
            "counts": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "deal": min(state.deal, state.rounds),
            "played": [{"seat": s, "card": c} for s, c in state.played],
        }

    def auto_action(self, state: ToyState, seat: int) -> Action:
        return {"type": "play", "card": state.hands[seat][0]}

    def outcome(self, state: ToyState) -> dict[str, Any] | None:
        if not self.is_over(state):
            return None
        best = max(state.scores)
        return {
            "scores": list(state.scores),
            "winners": [s for s, v in enumerate(state.scores) if v == best],
        }

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(TOY_DECK)

    def cards(self, state: ToyState) -> list[str]:
        return list(TOY_DECK)

    def hidden(self, state: ToyState, seat: int | None) -> frozenset[str]:
        return frozenset(c for s, h in enumerate(state.hands) if s != seat for c in h)


def toy() -> ToyGame:
    """The toy game, registered (only for the tests that ask for it, after collection, so that
    the conformance suite of real games does not pick it up)."""
    existing = _GAMES.get("toy")
    if existing is not None:
        assert isinstance(existing, ToyGame)
        return existing
    game = ToyGame()
    register(game)
    assert get_game("toy") is game
    return game


@pytest.fixture
def toy_game() -> ToyGame:
    return toy()


# -- a real server -------------------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Uvicorn:
    """The app under a real uvicorn on a free port, in a thread (same process: test-only games
    stay registered)."""

    def __init__(self, db: Database, **settings: Any) -> None:
        import threading

        import uvicorn

        from tablee.api.cli import uvicorn_config

        self.port = free_port()
        s = db.settings(port=self.port, log_level="warning", **settings)
        self.app = create_app(s)
        self.server = uvicorn.Server(uvicorn_config(self.app, s))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"

    def __enter__(self) -> Uvicorn:
        import time

        self.thread.start()
        for _ in range(500):
            if self.server.started:
                return self
            if not self.thread.is_alive():
                break
            time.sleep(0.01)
        raise RuntimeError("uvicorn did not start")

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)
