"""How the processes that serve one database take turns at a table: one strategy object per
manager, asked at the few points where that matters.

- ``writing(live)``: the turn to change a table, on an up-to-date copy (the pipeline's "lock" and
  "fresh state" steps);
- ``automatic(live)``: the turn to make a move the table makes itself (a timer's, a bot's), or
  False when another process makes it;
- ``published(live)``: a change was committed here (tell the others); ``heard`` on the host is
  the way back in, when another process committed one;
- ``fresh``, ``reading``: the catch-up a read needs;
- presence (``presence_changed``, ``remote_players``), bans (``share_ban``), loading
  (``loaded``), and ``start``/``close`` (what runs beside the tables: a poller...).

- the home (``leads``, ``route``, ``forward``, ``fence``, ``watchers``, ``relay``): which
  process decides a table's moves and tells every subscriber; where a player's move goes; the
  fencing token its writes carry; the frames it sends the other processes.

``Alone`` is the strategy of a single process, the home of every table (``cluster.Cluster``:
several on PostgreSQL and Redis, each table with a home of its own). Given a broker that reaches
other processes, ``Alone`` still catches up with the store before every change and every read
(``shared``): the tests use that to play two managers on one database.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Collection, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from tablee.limits import Rate

from .broker import Broker, LocalBroker

if TYPE_CHECKING:
    from tablee.store import Store
    from tablee.store.cluster import Home, Lease

    from .fanout import Frames
    from .live import LiveTable


class Timers(Protocol):
    def arm(self, live: LiveTable) -> None: ...

    def rearm(self, live: LiveTable) -> None: ...

    def stop(self, live: LiveTable) -> None: ...

    def schedule_bot(self, live: LiveTable) -> None: ...


class Host(Protocol):
    """What a strategy may ask of the manager it serves."""

    store: Store

    @property
    def scheduler(self) -> Timers:
        """The timers and bots (``scheduler.py``)."""

    connected_players: Callable[[], Iterable[int]]

    async def get(self, table_id: int) -> LiveTable: ...

    def cached(self, table_id: int) -> LiveTable | None: ...

    def live_tables(self) -> list[LiveTable]: ...

    async def load_unfinished(self) -> None: ...

    async def catch_up(self, live: LiveTable, relayed: bool = False) -> bool: ...

    async def heard(self, table_id: int, version: int) -> None: ...

    def retell(self, live: LiveTable) -> None: ...

    def relayed(self, live: LiveTable, frames: Frames) -> None: ...

    async def act(
        self,
        player: int,
        table_id: int,
        action: Any,
        on_accepted: Callable[[], None] | None = None,
        *,
        request_id: Any = None,
        version: int | None = None,
        hops: int = 0,
    ) -> object: ...

    def forget(self, live: LiveTable, *, finished_only: bool = True) -> bool: ...

    def banned_elsewhere(self, player_ids: Iterable[int]) -> None: ...

    def logged_out_elsewhere(self, player_id: int) -> None: ...

    def chat_heard(self, event: dict[str, Any]) -> None: ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> object: ...


class Coordination:
    """The strategy's interface, with what most strategies do: nothing."""

    #: other processes may write the tables: catch up with the store before changes and reads
    shared = False

    def bind(self, host: Host) -> None:
        self.host = host

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    def writing(self, live: LiveTable) -> contextlib.AbstractAsyncContextManager[None]:
        """The table's turn to change, on a copy brought up to date (when others write too)."""
        return _Turn(self, live)

    @contextlib.asynccontextmanager
    async def automatic(self, live: LiveTable, version: int | None = None) -> AsyncIterator[bool]:
        """``writing``, for a move the table makes itself; False: not this process's to make.
        ``version``: the one the move was chosen at, when it is only good for that one."""
        async with self.writing(live):
            yield True

    async def reading(self, live: LiveTable) -> None:
        """Makes the copy fit to show a client that asked (``sync``): when others may have
        written since, it catches up under the table's lock."""
        if self.shared:
            async with live.lock:
                await self.fresh(live)

    async def fresh(self, live: LiveTable) -> None:
        """Under the table's lock: catch up with what other processes wrote, if they may have."""
        if self.shared:
            await self.host.catch_up(live)

    def published(self, live: LiveTable) -> None:
        """A change of ``live`` was committed by this process (after its subscribers heard)."""

    def changed(self, live: LiveTable) -> None:
        """``live`` changed (here or elsewhere) and its subscribers were told."""

    async def loaded(self, live: LiveTable) -> None:
        """``live`` was just loaded from the store."""

    async def presence_changed(self, table_id: int) -> None:
        """The players with a subscription here at this table changed."""

    def remote_players(self, table_id: int) -> Collection[int]:
        """The players connected to this table through other processes."""
        return ()

    async def share_ban(self, player_id: int) -> None:
        """An admin of this process banned the player: tell the other processes."""

    async def share_logout(self, player_id: int) -> None:
        """The player logged out everywhere through this process: tell the other processes."""

    def share_chat(self, event: dict[str, Any]) -> None:
        """A chat event (a message stored here, a deletion, a mute): tell the other processes."""

    # -- the home --------------------------------------------------------------------------------

    def leads(self, live: LiveTable) -> bool:
        """This process is the table's home: it makes its moves, runs its timers and robots, and
        tells every subscriber (its own directly, the other processes' through ``relay``)."""
        return True

    async def route(self, live: LiveTable) -> str | None:
        """Where a player's move for the table is made: None here, else the home's process
        (taking the table over first if it has no home alive)."""
        return None

    async def forward(
        self,
        home: str,
        live: LiveTable,
        player_id: int,
        action: Any,
        on_accepted: Callable[[], None] | None,
        *,
        request_id: Any,
        version: int | None,
        hops: int,
    ) -> bool:
        """Sends a player's move to ``home`` and gives its answer (``on_accepted``, or the
        refusal raised as ``TableError``); False when the home could not be reached (the caller
        routes it again)."""
        raise NotImplementedError

    async def created(self, live: LiveTable) -> None:
        """``live`` was just created here."""

    def fence(self, live: LiveTable) -> int | None:
        """The fencing token this process's writes of the table carry (None: none)."""
        return None

    def watchers(self, live: LiveTable) -> Collection[str]:
        """The other processes with subscribers at a table this process is the home of."""
        return ()

    def relay(self, live: LiveTable, frames: Frames, to: Collection[str]) -> None:
        """Sends a change's frames to the processes ``to``."""

    def counts(self) -> dict[str, int]:
        """What crossed between processes since start-up, by kind (metrics)."""
        return {}

    #: this process's name among those that share the database (None: it is the only one)
    process_id: str | None = None

    async def home_of(self, table_id: int) -> Home | None:
        """The table's home as the database says now; None: this process, the only one, is
        every table's home (or there is no such table)."""
        return None

    async def leases(self) -> tuple[list[Lease], int] | None:
        """Every process's lease, and how many playing tables have no home alive (an admin's
        view, ``GET /api/admin/processes``); None: this process is the only one."""
        return None

    async def take_token(self, key: str, rate: Rate) -> float | None:
        """A token from the bucket ``key`` that every process shares: 0 when taken, else the
        seconds to wait; None when this strategy shares no buckets (the caller keeps its own)."""
        return None


class _Turn:
    """``Coordination.writing``: the table's lock, then ``fresh``. A class, not a generator
    context manager: it is entered on every move, and a generator costs several times more to
    set up and leave."""

    __slots__ = ("_coordination", "_live")

    def __init__(self, coordination: Coordination, live: LiveTable) -> None:
        self._coordination = coordination
        self._live = live

    async def __aenter__(self) -> None:
        lock = self._live.lock
        await lock.acquire()
        try:
            await self._coordination.fresh(self._live)
        except BaseException:
            lock.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._live.lock.release()


class Alone(Coordination):
    """A single process: the in-memory lock is the table's only writer's turn, and every
    unfinished table is loaded at start-up (its timers and bots armed)."""

    def __init__(self, broker: Broker | None = None) -> None:
        self.broker: Broker = broker or LocalBroker()
        self.shared = not isinstance(self.broker, LocalBroker)

    async def start(self) -> None:
        await self.host.load_unfinished()
        await self.broker.start(self.host.heard)

    async def close(self) -> None:
        await self.broker.close()

    def published(self, live: LiveTable) -> None:
        # a local broker would only tell this very process, which knows: no task per move
        if self.shared:
            self.host.spawn(self.broker.publish(live.id, live.rec.version))
