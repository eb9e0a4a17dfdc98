"""The benchmarks run (their figures are read by people, never asserted: see bench/)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tablee.games import game_names, get_game

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_engine_bench_prints_a_row_per_game_and_the_engine_free_loop(
    capsys: pytest.CaptureFixture[str],
) -> None:
    engines = load("engines")
    assert engines.main(["--seconds", "0.02", "--runs", "1", "--no-rlcard"]) == 0
    rows = {line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert set(game_names()) | {"contrecarte/uno-policy", "no"} <= rows


def test_weightless_engine_plays_games_of_the_length_it_is_given() -> None:
    engines = load("engines")
    assert engines.random_playout(engines.Weightless(1193), 4)(7) == 1193


def test_uno_policy_plays_contrecarte_through_the_contract() -> None:
    # the policy only picks among the legal actions, so every move of its games is accepted
    engines = load("engines")
    game = get_game("contrecarte")
    rnd = random.Random(3)
    state = game.new(players=4, seed=3)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        action = engines._uno_choice(rnd, legal)
        assert action in legal
        assert action["type"] != "draw" or not [a for a in legal if a["type"] == "play"]
        state, _ = game.apply(state, seat, action)


def test_robot_bench_prints_a_row_per_game_with_its_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    robots = load("robots")
    assert robots.main(["--games", "belote,tarot3", "--deals", "2", "--worlds", "2"]) == 0
    assert robots.main(["--games", "contree", "--deals", "2", "--worlds", "2", "--partner"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert [r.split()[0] for r in rows] == ["belote", "tarot3", "contree"]
    assert all("±" in r and "p99" in r for r in rows)


def test_robot_bench_prints_a_small_figure_to_three_places_of_its_interval() -> None:
    robots = load("robots")
    assert robots.figure(0.0075, 0.0145).split() == ["+0.0075", "±", "0.0145"]
    assert robots.figure(0.00445, 0.00335).split() == ["+0.00445", "±", "0.00335"]
    assert robots.figure(-1.5, 0.3).split() == ["-1.50", "±", "0.30"]
    assert robots.figure(12.0, 2.5).split() == ["+12.00", "±", "2.50"]


def test_the_writes_bench_measures_both_paths_at_each_group_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    writes = load("writes")
    asyncio.run(writes.run(f"sqlite+aiosqlite:///{tmp_path}/w.db", None, 100))
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    measured = {r[0]: r for r in rows if r and r[0] in ("alone", "groups")}
    assert set(measured) == {"alone", "groups"}
    alone = measured["alone"]
    # SQLAlchemy's CPU / wall, the driver's, and their ratio
    assert float(alone[1]) > 0 and float(alone[4]) > 0 and alone[-1].endswith("x")
    # the WAL's pages a move writes, both ways: its table's row and its log row at least alone,
    # fewer a move when a group's moves share pages
    pages = {r[1]: [float(x) for x in r[-2:]] for r in rows if r and r[0] == "pages"}
    assert set(pages) == {"alone", "groups"}
    assert all(n >= 2 for n in pages["alone"])
    assert all(0 < g < a for g, a in zip(pages["groups"], pages["alone"], strict=True))
    # a move's write at a room's pace, with SQLite's checkpoints and with a thread making them
    paced = {r[1]: r for r in rows if r and r[0] == "checkpoints"}
    assert set(paced) == {"automatic", "in"}
    for row in paced.values():
        p50, p99, p999 = (float(x) for x in row[-7:-4])
        assert 0 < p50 <= p99 <= p999
        assert row[-3:-1] == ["of", "100"]  # every write timed


def test_the_pipeline_bench_plays_the_moves_it_is_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import asyncio

    pipeline = load("pipeline")
    asyncio.run(pipeline.run(3, 60, 1))
    words = capsys.readouterr().out.split()
    assert int(words[0]) >= 60 and words[1:4] == ["moves", "at", "3"]


def test_the_load_bench_reads_the_window_s_commits_from_what_metrics_exports() -> None:
    # the figures after the tablée row come from the server's own /metrics text: a metric
    # renamed there would leave them out without a word
    from tablee.api.ops import Ops

    load_bench = load("load")
    ops = Ops()
    before: dict[str, float] = {}
    load_bench.add_counters(ops.metrics_text().decode(), before)
    for seconds, writes in ((0.0004, 1), (0.0015, 3), (0.004, 2), (0.02, 2)):
        ops.on_commit(seconds, writes)
    ops.action_seconds.labels("player").observe(0.003)
    ops.action_seconds.labels("player").observe(0.007)
    ops.action_seconds.labels("timer").observe(2.0)  # not a player's: left out
    after: dict[str, float] = {}
    load_bench.add_counters(ops.metrics_text().decode(), after)
    figures = load_bench.commits({k: v - before.get(k, 0.0) for k, v in after.items()})
    assert figures["count"] == 4
    assert figures["writes each"] == 2
    assert figures["mean ms"] == pytest.approx((0.4 + 1.5 + 4 + 20) / 4)
    assert figures["p99 ms ≤"] == 25  # the bucket that holds the slowest of four
    assert figures["move mean ms"] == pytest.approx(5)
    assert figures["move p99 ms ≤"] == 10
    assert "on loop %" not in figures  # no SQLite moves' writer here


def test_the_load_bench_reads_where_sqlite_committed_the_window_s_moves() -> None:
    # the names are /metrics' own (tests/api/test_ops.py reads them off a SQLite server)
    load_bench = load("load")

    def text(loop: int, thread: int, slow: int) -> str:
        return (
            "# TYPE tablee_store_sqlite_move_groups counter\n"
            f'tablee_store_sqlite_move_groups_total{{where="loop"}} {loop}\n'
            f'tablee_store_sqlite_move_groups_total{{where="thread"}} {thread}\n'
            "# TYPE tablee_store_sqlite_slow_loop_commits counter\n"
            f"tablee_store_sqlite_slow_loop_commits_total {slow}\n"
            "# TYPE tablee_store_commit_seconds histogram\n"
            f'tablee_store_commit_seconds_bucket{{le="+Inf"}} {loop + thread}\n'
            f"tablee_store_commit_seconds_sum {0.001 * (loop + thread)}\n"
            "# TYPE tablee_action_seconds histogram\n"
            f'tablee_action_seconds_bucket{{le="+Inf",source="player"}} {loop + thread}\n'
            f'tablee_action_seconds_sum{{source="player"}} {0.002 * (loop + thread)}\n'
        )

    before: dict[str, float] = {}
    after: dict[str, float] = {}
    load_bench.add_counters(text(10, 5, 1), before)
    load_bench.add_counters(text(40, 15, 3), after)
    figures = load_bench.commits({k: v - before.get(k, 0.0) for k, v in after.items()})
    assert figures["on loop %"] == pytest.approx(75)  # 30 of the window's 40 groups
    assert figures["slow loop commits"] == 2


@pytest.mark.parametrize("name", ["views", "codec"])
def test_a_per_game_bench_prints_a_row_per_game(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load(name)
    assert bench.main(["--states", "5", "--runs", "1"]) == 0
    rows = {line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows == set(game_names())


def test_the_first_request_bench_prints_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("first_request")
    assert bench.main(["--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.rsplit(None, 3)[0]: line.split()[-3:] for line in lines[1:]}
    assert set(rows) == {"walked", "not walked"}
    assert all(float(ms) > 0 for figures in rows.values() for ms in figures)


def test_the_load_bench_splits_each_traced_move_into_its_way_there_its_time_in_and_back(
    tmp_path: Path,
) -> None:
    # ``--trace``: each move the clients timed is found among the server's by its table and
    # times (one clock); a wrong match would print another move's split
    trace = tmp_path / "trace"
    trace.write_text(
        "act 1 10.001000 10.003000\n"
        "act 2 10.500000 10.520000\n"
        "act 1 11.000000 11.004000\n"
        "sql 10.2 BEGIN 0.020 0.010\n"
        "sql 10.3 COMMIT 2.000 0.100\n"
        "sql 99.0 COMMIT 50.000 0.100\n"  # outside the window: left out
    )
    moves = [
        (1, 10.000, 10.004),
        (2, 10.499, 10.530),
        (1, 10.999, 11.005),
        (3, 10.0, 10.1),  # never seen by the server
        (2, 10.49, 10.51),  # read before table 2's next act was acknowledged: not that one
    ]
    out = load("load").ways(str(trace), moves, (10.0, 20.0))
    lines = out.splitlines()
    assert "3 of 5 moves found in the server" in lines[0]
    # to the server / in it / back, ms: (1, 2, 1), (1, 20, 10), (1, 4, 1)
    assert lines[1].split()[-5:] == ["1.00", "/", "8.67", "/", "4.00"]
    # the slowest: the move of table 2 (31 ms)
    assert lines[2].split()[-5:] == ["1.00", "/", "20.00", "/", "10.00"]
    commit = next(line for line in lines if line.split()[0] == "COMMIT")
    assert commit.split()[1] == "1" and "2.00 / 2.00 / 2.00  against  0.10" in commit


def test_the_load_bench_tells_the_moves_sent_beside_a_game_s_end_from_the_others() -> None:
    load_bench = load("load")
    ends = [20.0, 10.0]  # as the client processes add them: not in order
    sent = [9.985, 9.995, 10.0, 10.04, 10.06, 15.0, 19.995, 20.049]
    latencies = [0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008]
    beside, apart = load_bench.beside_ends(sent, latencies, ends)
    # from 10 ms before an end was read to 50 ms after
    assert beside == [0.002, 0.003, 0.004, 0.007, 0.008]
    assert apart == [0.001, 0.005, 0.006]
    stats = load_bench.Stats(latencies=latencies, sent=sent, ends=ends)
    figures = load_bench._beside(stats)
    assert figures["share %"] == pytest.approx(62.5)
    assert figures["beside p99 ms"] == pytest.approx(8)
    assert figures["apart p99 ms"] == pytest.approx(6)
    assert load_bench._beside(load_bench.Stats(latencies=[0.001], sent=[1.0])) == {}


def test_the_vote_paths_bench_votes_both_ways_each_round(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # each vote is checked in the bench itself: refused ``not_finished`` over REST and over the
    # socket, answered within its time
    bench = load("vote_paths")
    assert bench.main(["--tables", "1", "--votes", "3", "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 tables, 4 players, 3 votes each a round"
    rows = [line.split() for line in lines[2:]]
    assert [(r[0], r[1]) for r in rows] == [
        ("1", "rest"),
        ("1", "socket"),
        ("2", "socket"),
        ("2", "rest"),
    ]
    assert all(float(r[3]) > 0 and float(r[4]) >= float(r[3]) for r in rows)
