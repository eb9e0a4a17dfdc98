"""The server process's garbage collector (``api/heap.py``): the heap frozen on a beat, so that
no pass walks what was there before, and swept whole now and then, so that cyclic garbage among
frozen objects is not kept for ever."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tablee.api.heap import HeapKeeper
from tablee.api.ops import Ops
from tests.serverkit import free_port


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collector() -> Iterator[None]:
    """Whatever a test does to the collector is undone after it."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_sweep_collects_the_cycles_a_freeze_kept_from_the_collector(collector: None) -> None:
    alive = _cycle()
    gc.freeze()  # the keeper's beat: the cycle was alive then
    gc.collect()
    assert alive() is not None, "a frozen object was walked by a pass"
    keeper = HeapKeeper()
    assert keeper.sweep() >= 2
    assert alive() is None
    assert gc.get_freeze_count() > 0, "the heap was not frozen again after the sweep"


async def test_the_keeper_freezes_on_its_beat_and_sweeps_on_its_own(collector: None) -> None:
    keeper = HeapKeeper(freeze=0.01, sweep=0.6, soonest=0.0, growth=1000.0)
    keeper.start()
    try:
        frozen = gc.get_freeze_count()
        kept = [[i] for i in range(20_000)]  # alive, tracked, made after the start
        young = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
        await asyncio.sleep(0.05)
        # what the passes would have walked is out of their reach now
        assert gc.get_freeze_count() >= frozen + len(kept)
        assert len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1)) < young
        assert keeper.sweeps == 0, "swept before its time, with the heap hardly grown"
        alive = _cycle()  # frozen with its cycle at the next beat, until a sweep
        await asyncio.sleep(0.8)
        assert keeper.sweeps >= 1 and alive() is None
    finally:
        keeper.stop()
    sweeps = keeper.sweeps
    await asyncio.sleep(0.05)
    assert keeper.sweeps == sweeps, "the keeper went on after it was stopped"


async def test_a_heap_grown_is_swept_but_not_sooner_than_said(collector: None) -> None:
    # grown by 1 % rather than a quarter: the same rule, without a quarter of the test
    # process's heap to make
    keeper = HeapKeeper(freeze=0.01, sweep=3600.0, growth=1.01, soonest=3600.0, look=0.01)
    keeper.start()
    try:
        kept = [[i] for i in range(sys.getallocatedblocks() // 20)]  # 5 % more, at least
        await asyncio.sleep(0.1)
        assert keeper.sweeps == 0, "swept sooner than the least time between sweeps"
        keeper.soonest = 0.0
        await asyncio.sleep(0.1)
        assert keeper.sweeps == 1
        await asyncio.sleep(0.1)  # grown no more since: not swept again
        assert keeper.sweeps == 1 and len(kept) > 0
    finally:
        keeper.stop()


def test_a_room_arriving_is_not_swept_but_garbage_and_a_fourfold_heap_are(
    collector: None,
) -> None:
    keeper = HeapKeeper()
    keeper.sweep()  # what it found is what the test process had: the rate is learnt anew below
    size = sys.getallocatedblocks()
    # before any rate is known, all of a growth may be garbage: a quarter more is swept
    keeper.garbage_rate = None
    assert keeper.due(int(size * 1.3), 60.0) and not keeper.due(int(size * 1.2), 60.0)
    # a room arriving: the heap grows by a tenth, all of it alive
    kept = [[i] for i in range(size // 10)]
    keeper.sweep()
    assert keeper.garbage_rate is not None
    size = sys.getallocatedblocks()
    # the rate it found makes little of a minute: doubling is not swept, growing fourfold is
    assert keeper.garbage_rate * 60 < size / 8
    assert not keeper.due(size * 2, 60.0)
    assert keeper.due(size * 4 + 1, 60.0)
    # then garbage: cycles alive at a freeze and dropped since, as a socket's when it closes
    junk: list[Node] = []
    for _ in range(size // 10):
        a, b = Node(), Node()
        a.other, b.other = b, a
        junk.append(a)
    gc.freeze()
    probe = weakref.ref(junk[0])
    del junk
    assert probe() is not None
    keeper.sweep()
    assert probe() is None
    # found at that rate, a quarter's growth in the same minute is swept
    assert keeper.due(int(sys.getallocatedblocks() * 1.3), 60.0)
    assert len(kept) > 0


def test_the_freezes_sweeps_and_heap_size_are_in_the_metrics(collector: None) -> None:
    ops = Ops()
    assert b"tablee_heap_sweeps" not in ops.metrics_text()  # no keeper: not a server process
    ops.heap = HeapKeeper()
    ops.heap.sweep()
    text = ops.metrics_text().decode()
    assert "tablee_heap_sweeps_total 1.0" in text
    assert "tablee_heap_freezes_total 0.0" in text  # a sweep is no beat
    blocks = next(
        line for line in text.splitlines() if line.startswith("tablee_heap_allocated_blocks ")
    )
    assert float(blocks.split()[1]) > 0
    assert f"tablee_heap_last_sweep_seconds {ops.heap.last_seconds}" in text
    rate = next(line for line in text.splitlines() if line.startswith("tablee_heap_garbage_rate "))
    assert float(rate.split()[1]) == ops.heap.garbage_rate


def test_tablee_serve_keeps_its_heap_frozen(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "TABLEE_ADMIN_TOKEN": "heap-test-admin-token-0123456789"}
    url = f"sqlite+aiosqlite:///{tmp_path}/tablee.db"
    args = [sys.executable, "-m", "tablee", "serve", "--port", str(port), "--database-url", url]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            assert proc.poll() is None, "the server exited"
            time.sleep(0.05)
        auth = {"Authorization": f"Bearer {env['TABLEE_ADMIN_TOKEN']}"}
        time.sleep(0.5)  # a few beats of the keeper
        text = httpx.get(f"{base}/metrics", headers=auth).text
        freezes = next(
            line for line in text.splitlines() if line.startswith("tablee_heap_freezes_total ")
        )
        assert float(freezes.split()[1]) > 1  # frozen at start-up, then on its beat
        assert "tablee_heap_sweeps_total 0.0" in text
    finally:
        proc.terminate()
        proc.wait(10)
