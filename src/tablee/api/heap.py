"""The garbage collector of a server process: the heap frozen ten times a second, swept whole
when the garbage it may hold is a quarter of it (and every hour at the latest).

Why. Under a room's pace a move makes about as many objects as it frees (the table's new state,
its old one), so the collector's young count, which is objects made less objects freed, hardly
moves while the young list itself grows with every state made since the last pass. When a pass
comes at last it walks that list, and what it finds is alive: at 1,000 tables and 4,000 sockets
(``bench/load.py --pace 1 --gc-pauses FILE``) young passes of up to 200 ms that collected nothing,
and middle passes of over 100 ms — the tail of the latency. Nearly nothing a move makes is cyclic
garbage: what reference counts free never needs the collector.

So every ``FREEZE_SECONDS`` everything the collector tracks is moved to its permanent generation
(``gc.freeze``, a splice of lists: no walk), and a pass walks at most what was made since. An
object frozen is still freed by its reference count as soon as nothing holds it; what the freeze
keeps from the collector is cyclic garbage whose objects were alive at a freeze (a socket's
objects when it closes, mostly). That garbage stays among the frozen objects, so the heap is
unfrozen and collected whole (a pass over every object: up to a second at thousands of sockets,
logged and in ``/metrics``), then frozen again, when the garbage it may hold is a quarter of
what it held after the last sweep — CPython's own rule for its full collections, applied to the
garbage rather than to the growth — but a minute after it at the soonest (a crowd connecting at
once is not swept at every step), and an hour after it at the latest. How much garbage it may
hold is learnt from the sweeps: before the first, all of its growth; then the garbage the last
sweep freed a second since the one before, times the seconds since (never more than the
growth). A room of 1,000 tables coming back (``bench/load.py --pace 1``) grew the heap about
threefold in a minute, all of it alive: swept at each quarter of growth, for 0.4–0.66 s each,
it freed 11,000–20,000 objects of millions. A steady room sweeps once an hour or as its garbage
comes; a growing one as its garbage comes. And the heap is swept whenever it grew fourfold: what
the learnt rate risks, if a process that made little garbage starts making much, is garbage of
at most three times the heap, for at most an hour; the next sweep learns the new rate. The
heap's size is read once a second from ``sys.getallocatedblocks`` (a walk of the arenas: a
fraction of a millisecond), not from ``gc.get_freeze_count``, which walks the frozen objects one
by one (15 ms at 1.5 million).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

log = logging.getLogger("tablee.heap")

#: how often the heap is frozen: a pass walks at most the objects made within this time
FREEZE_SECONDS = 0.1
#: the heap is collected whole when the garbage it may hold is this much (less one) of what it
#: held after the last sweep: at first all of its growth, then as the last sweep's rate says
SWEEP_GROWTH = 1.25
#: and whenever it grew this much, whatever the garbage
SWEEP_GROWTH_MAX = 4.0
#: how often that growth is looked at
GROWTH_SECONDS = 1.0
#: but not sooner than this after it
SWEEP_MIN_SECONDS = 60.0
#: and at the latest this long after it
SWEEP_SECONDS = 3600.0
#: the collector's thresholds (young, middle, old) between freezes
THRESHOLDS = (1_000, 100, 100)


class HeapKeeper:
    """Freezes the heap every ``freeze`` seconds and sweeps it when it grew by ``growth`` (looked
    at every ``look`` seconds, not sooner than ``soonest`` seconds after the last sweep) or
    ``sweep`` seconds after the last sweep, on the running event loop, until ``stop``."""

    def __init__(
        self,
        freeze: float = FREEZE_SECONDS,
        sweep: float = SWEEP_SECONDS,
        growth: float = SWEEP_GROWTH,
        soonest: float = SWEEP_MIN_SECONDS,
        look: float = GROWTH_SECONDS,
    ) -> None:
        self.freeze_every = freeze
        self.look_every = look
        self.sweep_every = sweep
        self.growth = growth
        #: memory blocks of garbage made a second, as the last sweep found (None: no sweep yet)
        self.garbage_rate: float | None = None
        self.soonest = soonest
        #: freezes and sweeps since the start (``/metrics``)
        self.freezes = 0
        self.sweeps = 0
        #: the last sweep's seconds
        self.last_seconds = 0.0
        self._handle: asyncio.TimerHandle | None = None
        self._swept_at = 0.0
        #: the memory blocks just after the last sweep (or the start), and when they were last
        #: compared with those of now
        self._swept_size = 0
        self._looked_at = 0.0

    def due(self, blocks: int, since: float) -> bool:
        """Whether a heap of ``blocks`` memory blocks, ``since`` seconds after the last sweep,
        may hold garbage enough to be swept (or grew fourfold)."""
        size = self._swept_size
        if blocks > size * max(SWEEP_GROWTH_MAX, self.growth):
            return True
        grown = blocks - size
        rate = self.garbage_rate
        garbage = grown if rate is None else min(grown, rate * since)
        return garbage > size * (self.growth - 1)

    def start(self) -> None:
        """From the event loop, once the app is up: what there is now lives as long as the
        process (modules, settings, the tables loaded) and is frozen at once."""
        gc.collect()
        gc.freeze()
        self.freezes += 1
        gc.set_threshold(*THRESHOLDS)
        self._swept_at = self._looked_at = time.monotonic()
        self._swept_size = sys.getallocatedblocks()
        self._schedule()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _schedule(self) -> None:
        self._handle = asyncio.get_running_loop().call_later(self.freeze_every, self._tick)

    def _tick(self) -> None:
        gc.freeze()
        self.freezes += 1
        now = time.monotonic()
        since = now - self._swept_at
        if since >= self.sweep_every:
            self.sweep()
        elif since >= self.soonest and now - self._looked_at >= self.look_every:
            self._looked_at = now
            if self.due(sys.getallocatedblocks(), since):
                self.sweep()
        self._schedule()

    def sweep(self) -> int:
        """Collects the whole heap, frozen objects included, then freezes it again; returns the
        objects collected."""
        started = time.perf_counter()
        before = sys.getallocatedblocks()
        since = time.monotonic() - self._swept_at
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        self.last_seconds = time.perf_counter() - started
        self.sweeps += 1
        self._swept_at = self._looked_at = time.monotonic()
        after = sys.getallocatedblocks()
        self.garbage_rate = max(before - after, 0) / max(since, 1e-3)
        self._swept_size = after
        log.info(
            "heap swept: %d objects collected in %.0f ms (%.0f memory blocks of garbage a second)",
            collected,
            self.last_seconds * 1000,
            self.garbage_rate,
        )
        return collected
