"""The server process's garbage collector (``api/heap.py``): the heap frozen on a beat, so that
no pass walks what was there before, and swept whole now and then, so that cyclic garbage among
frozen objects is not kept for ever."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from tablee.api.heap import HeapKeeper


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
    keeper = HeapKeeper(freeze=0.01, sweep=0.25)
    keeper.start()
    try:
        frozen = gc.get_freeze_count()
        kept = [[i] for i in range(20_000)]  # alive, tracked, made after the start
        young = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
        await asyncio.sleep(0.05)
        # what the passes would have walked is out of their reach now
        assert gc.get_freeze_count() >= frozen + len(kept)
        assert len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1)) < young
        assert keeper.sweeps == 0
        alive = _cycle()  # frozen with its cycle at the next beat, until a sweep
        await asyncio.sleep(0.4)
        assert keeper.sweeps >= 1 and alive() is None
    finally:
        keeper.stop()
    sweeps = keeper.sweeps
    await asyncio.sleep(0.05)
    assert keeper.sweeps == sweeps, "the keeper went on after it was stopped"
