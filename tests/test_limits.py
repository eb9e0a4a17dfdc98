"""Token buckets (tablee.limits): the caller gives the time, so nothing here sleeps."""

from __future__ import annotations

import math

import pytest

from tablee.limits import Buckets, Rate, TokenBucket, check_rate


@pytest.mark.parametrize(
    ("text", "burst", "per_second"),
    [
        ("600/minute", 600, 10),
        ("600/minutes", 600, 10),
        ("20/10s", 20, 2),
        ("10/second burst 40", 40, 10),
        ("2 / 30 minutes, burst 9", 9, 2 / 1800),
        ("24/day", 24, 24 / 86400),
        ("5/h", 5, 5 / 3600),
    ],
)
def test_a_rate_is_n_per_period_with_a_burst_of_n_unless_told(
    text: str, burst: float, per_second: float
) -> None:
    rate = Rate.parse(text)
    assert rate is not None
    assert rate.burst == burst
    assert rate.per_second == pytest.approx(per_second)


@pytest.mark.parametrize("text", ["off", "OFF", " none "])
def test_off_is_no_limit(text: str) -> None:
    assert Rate.parse(text) is None


@pytest.mark.parametrize(
    "text", ["", "10", "10/ms", "10/fortnight", "0/minute", "-1/s", "1/0s", "5/s burst 0", "abc"]
)
def test_a_rate_that_means_nothing_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="rate"):
        check_rate(text)


def test_a_bucket_allows_its_burst_then_one_token_per_refill_interval() -> None:
    bucket = TokenBucket(Rate(burst=3, per_second=0.5), now=100.0)
    assert [bucket.take(100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    # empty: the next token comes in two seconds, and a refusal takes nothing
    assert bucket.take(100.0) == pytest.approx(2.0)
    assert bucket.take(101.0) == pytest.approx(1.0)
    assert bucket.take(102.0) == 0.0
    assert bucket.take(102.0) == pytest.approx(2.0)


def test_a_bucket_never_holds_more_than_its_burst() -> None:
    bucket = TokenBucket(Rate(burst=2, per_second=1), now=0.0)
    assert bucket.take(1_000_000.0, cost=2) == 0.0
    assert bucket.take(1_000_000.0) == pytest.approx(1.0)


def test_a_cost_above_the_burst_never_fits() -> None:
    bucket = TokenBucket(Rate(burst=2, per_second=1), now=0.0)
    assert bucket.take(0.0, cost=3) == math.inf
    assert bucket.take(0.0, cost=2) == 0.0  # the refusal took nothing


def test_a_clock_going_back_gives_no_tokens() -> None:
    bucket = TokenBucket(Rate(burst=1, per_second=1), now=10.0)
    assert bucket.take(10.0) == 0.0
    assert bucket.take(5.0) > 0
    assert bucket.take(10.5) == pytest.approx(0.5)


def test_keys_have_their_own_buckets() -> None:
    buckets: Buckets[str] = Buckets(Rate(burst=2, per_second=1))
    assert buckets.take("a", 0.0) == buckets.take("a", 0.0) == 0.0
    assert buckets.take("a", 0.0) > 0
    assert buckets.take("b", 0.0) == 0.0


def test_buckets_that_filled_up_again_are_forgotten() -> None:
    buckets: Buckets[int] = Buckets(Rate(burst=1, per_second=1))
    for key in range(100):
        buckets.take(key, float(key))  # each is full again a second later
    # idle keys went as new ones came: only the last few are kept
    assert len(buckets) <= 3
    assert 99 in buckets


def test_buckets_keep_at_most_max_keys_and_drop_the_least_recently_used() -> None:
    buckets: Buckets[int] = Buckets(Rate(burst=5, per_second=0.001), max_keys=10)
    for key in range(50):
        buckets.take(key, 0.0)
    assert len(buckets) == 10
    assert 0 not in buckets and 49 in buckets
    buckets.take(40, 0.0)  # used again: kept while newer keys push older ones out
    for key in range(100, 109):
        buckets.take(key, 0.0)
    assert 40 in buckets and 41 not in buckets


def test_an_empty_bucket_is_not_forgotten_so_waiting_is_not_skipped() -> None:
    buckets: Buckets[str] = Buckets(Rate(burst=1, per_second=0.01))
    buckets.take("flood", 0.0)
    for i in range(1000):
        buckets.take(f"other{i}", 1.0)
    assert buckets.take("flood", 2.0) > 0
