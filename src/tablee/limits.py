"""Token buckets: how often one key (an address, a player, a connection) may do something.

Every limit of the server is this one small thing: the REST middleware, the WebSocket handler, the
chat. It is pure: the caller gives the time (seconds on a monotonic clock, ``time.monotonic()`` in
the server, plain numbers in tests), so nothing here sleeps or reads a clock, and a test drives it
second by second.

A rate is written ``"N/period"``: a bucket of N tokens, refilled at N per period. ``"600/minute"``
allows a burst of 600 at once, then ten a second on average. ``"20/10s"``: 20 per ten seconds.
``"10/second burst 40"``: ten a second, bursts of 40. ``"off"``: no limit.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

UNITS = {"s": 1.0, "second": 1.0, "m": 60.0, "minute": 60.0, "h": 3600.0, "hour": 3600.0}
UNITS |= {"d": 86400.0, "day": 86400.0}
_RATE = re.compile(
    r"^\s*(?P<count>\d+(?:\.\d+)?)\s*/\s*(?P<every>\d+(?:\.\d+)?)?\s*(?P<unit>[a-z]+)"
    r"(?:\s*,?\s*burst\s+(?P<burst>\d+(?:\.\d+)?))?\s*$",
    re.IGNORECASE,
)
OFF = {"off", "none", "unlimited"}


@dataclass(frozen=True)
class Rate:
    """At most ``burst`` tokens in the bucket, ``per_second`` tokens back each second."""

    burst: float
    per_second: float

    def __post_init__(self) -> None:
        if not (self.burst >= 1 and math.isfinite(self.burst)):
            raise ValueError("a rate's burst is at least 1")
        if not (self.per_second > 0 and math.isfinite(self.per_second)):
            raise ValueError("a rate refills more than nothing")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"N/period"``, ``"N/period burst B"``; ``"off"``: None (no limit). ValueError when
        the text is neither."""
        if text.strip().lower() in OFF:
            return None
        m = _RATE.match(text)
        unit = _unit(m["unit"]) if m else None
        if m is None or unit is None:
            raise ValueError(
                f"not a rate: {text!r} (write N/second, N/minute, N/hour, N/day, N/10s,"
                " N/minute burst B, or off)"
            )
        count = float(m["count"])
        period = float(m["every"] or 1) * unit
        if count <= 0 or period <= 0:
            raise ValueError(f"not a rate: {text!r} (a count and a period above zero)")
        burst = float(m["burst"]) if m["burst"] else count
        return cls(burst=burst, per_second=count / period)


def _unit(word: str) -> float | None:
    word = word.lower()
    if word not in UNITS and len(word) > 2 and word.endswith("s"):
        word = word[:-1]  # minutes, hours
    return UNITS.get(word)


def check_rate(text: str) -> str:
    """The text, once known to parse (a settings validator)."""
    Rate.parse(text)
    return text


class TokenBucket:
    """A bucket that starts full. ``take`` spends tokens, or says how long to wait."""

    __slots__ = ("at", "rate", "tokens")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate = rate
        self.tokens = rate.burst
        self.at = now

    def _refill(self, now: float) -> None:
        if now > self.at:  # a clock that goes back refills nothing and takes nothing back
            self.tokens = min(self.rate.burst, self.tokens + (now - self.at) * self.rate.per_second)
            self.at = now

    def take(self, now: float, cost: float = 1.0) -> float:
        """0.0 when ``cost`` tokens were taken; else nothing is taken and the answer is the
        seconds until they would be there (``inf`` for a cost above the burst)."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return 0.0
        if cost > self.rate.burst:
            return math.inf
        return (cost - self.tokens) / self.rate.per_second

    def full(self, now: float) -> bool:
        """Full again: the same as a bucket never used."""
        self._refill(now)
        return self.tokens >= self.rate.burst


class Buckets(Generic[K]):
    """One bucket per key, made on first use.

    Memory stays bounded: each call drops the least recently used buckets that have filled up
    again (a full bucket is the same as none), and beyond ``max_keys`` the least recently used go
    whatever their level (a key that comes back then starts full: only someone holding more keys
    than that gains a burst)."""

    def __init__(self, rate: Rate, max_keys: int = 100_000) -> None:
        if max_keys < 1:
            raise ValueError("max_keys is at least 1")
        self.rate = rate
        self.max_keys = max_keys
        self._buckets: OrderedDict[K, TokenBucket] = OrderedDict()

    def take(self, key: K, now: float, cost: float = 1.0) -> float:
        """As ``TokenBucket.take``, for this key's bucket."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, now)
        else:
            self._buckets.move_to_end(key)
        wait = bucket.take(now, cost)
        self._prune(now)
        return wait

    def _prune(self, now: float) -> None:
        # a couple of the oldest per call: the work of a call stays constant, and idle keys
        # still go as fast as new ones come
        for _ in range(2):
            if not self._buckets:
                break
            key, oldest = next(iter(self._buckets.items()))
            if not oldest.full(now):
                break
            del self._buckets[key]
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)

    def __contains__(self, key: object) -> bool:
        return key in self._buckets


__all__ = ["Buckets", "Rate", "TokenBucket", "check_rate"]
