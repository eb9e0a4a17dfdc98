"""The cluster kit itself: a process whose port was taken meanwhile starts on another one."""

from __future__ import annotations

import socket

import pytest

import tests.cluster.kit as kit
from tests.cluster.kit import Cluster, processes

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def test_a_process_whose_port_is_taken_starts_on_another(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        real, calls = kit.free_port, []

        def first_taken() -> int:
            calls.append(1)
            return taken if len(calls) == 1 else real()

        monkeypatch.setattr(kit, "free_port", first_taken)
        async with processes(cluster, "a") as (a,):
            assert a.port != taken and len(calls) == 2
            # the failed bind is not counted as the process's error
            assert not a.errors(), a.output()
