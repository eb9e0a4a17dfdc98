"""What framing one outgoing text frame costs the server: websockets' sans-I/O ``send_text`` and
``data_to_send`` (what uvicorn's protocol does for an ASGI ``websocket.send``) against
``api/ws.py``'s ``Direct.write`` (the header packed by hand), in the same run, for the sizes a
table sends (an ``ack``, a small and a full ``state``, a long one). Both write to the same stand-in
transport, which keeps the bytes; the bytes are checked identical before anything is timed.

    .venv/bin/python bench/frames.py [--frames 200000]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from types import SimpleNamespace

from websockets.protocol import State
from websockets.server import ServerProtocol

from tablee.api.ws import Direct

SIZES = (60, 500, 3000, 70000)


class Transport:
    """Keeps what is written, as a socket transport's ``write`` would take it."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.chunks.append(data)


def _open() -> ServerProtocol:
    conn = ServerProtocol()
    conn.state = State.OPEN  # as after the handshake
    return conn


def _by_websockets(text: str, frames: int) -> tuple[float, list[bytes]]:
    conn, transport = _open(), Transport()
    start = time.perf_counter()
    for _ in range(frames):
        conn.send_text(text.encode())
        transport.write(b"".join(conn.data_to_send()))
    took = time.perf_counter() - start
    return took, transport.chunks


def _by_direct(text: str, frames: int) -> tuple[float, list[bytes]]:
    transport = Transport()
    proto = SimpleNamespace(conn=_open(), transport=transport)
    direct = Direct(proto)
    start = time.perf_counter()
    for _ in range(frames):
        direct.write(text)
    took = time.perf_counter() - start
    return took, transport.chunks


async def run(frames: int) -> None:
    print(f"{'payload bytes':>14} {'websockets µs':>14} {'Direct µs':>10} {'ratio':>6}")
    for size in SIZES:
        text = "x" * size
        _, theirs = _by_websockets(text, 3)
        _, ours = _by_direct(text, 3)
        if theirs != ours:
            raise SystemExit(f"frames of {size} bytes differ: {theirs[0][:12]!r} {ours[0][:12]!r}")
        n = frames if size < 10000 else frames // 20
        # alternated, best of three each, so that neither gets the machine's quieter moments
        best_ws = best_direct = float("inf")
        for _ in range(3):
            best_ws = min(best_ws, _by_websockets(text, n)[0] / n)
            best_direct = min(best_direct, _by_direct(text, n)[0] / n)
        ratio = best_ws / best_direct
        print(f"{size:>14} {best_ws * 1e6:>14.2f} {best_direct * 1e6:>10.2f} {ratio:>5.1f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000)
    args = parser.parse_args()
    asyncio.run(run(args.frames))  # Direct takes the running loop


if __name__ == "__main__":
    main()
