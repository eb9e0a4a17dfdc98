"""The WebSocket fed generated messages (hypothesis): every one is answered, and a refused one
changes nothing.

Messages are drawn near the protocol, where mistakes hide: the real message types with fields of
every JSON kind, table ids from real ones to numbers no column holds, and actions of Contrecarte's
real types with cards, colours and targets that are sometimes right. A message with an ``id``
gets exactly one answer carrying it (an ``ack``, or an ``error`` with a code); after an error the
table — its stored version, its log and its live state — is as it was; after an ``ack`` of an
``act`` the version has moved by one. The connection stays open throughout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.serverkit import WS, Database, Server

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
CARDS = st.sampled_from(["R1", "B7", "G+2", "YS", "RR", "W", "W+4", "R0", "QH", "", "W+5"])
ACTION = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "draw", "pass", "contest", "accept", "announce", "catch"])},
    optional={
        "card": CARDS | JSON,
        "color": st.sampled_from(["R", "B", "G", "Y", "X"]) | JSON,
        "announce": st.booleans() | JSON,
        "target": st.integers(-2, 5) | JSON,
    },
)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[WS], int]]:
    folder = tmp_path_factory.mktemp("wsfuzz")
    db = Database("sqlite", f"sqlite+aiosqlite:///{folder}/tablee.db")
    with Server(db, max_message_bytes=2048) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        t = srv.stacked_table(alice, "contrecarte", 2, seed=7)
        srv.post(f"/api/tables/{t['id']}/join", bob)
        with srv.ws(alice) as wa, srv.ws(bob) as wb:
            wa.sync(t["id"])
            wb.sync(t["id"])
            yield srv, [wa, wb], t["id"]


def _message(tid: int) -> st.SearchStrategy[dict[str, Any]]:
    table_ids = st.sampled_from([tid] * 6 + [tid + 1000, 0, -1, 2**31, 10**23]) | JSON
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("act"), "table": st.just(tid), "action": ACTION}),
        st.fixed_dictionaries({"type": st.just("act"), "table": st.just(tid), "action": ACTION}),
        st.fixed_dictionaries(
            {"type": st.just("act"), "table": table_ids, "action": ACTION | JSON}
        ),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["subscribe", "sync", "unsubscribe"]), "table": table_ids}
        ),
        # (a hello with a wrong token closes the connection, on purpose: test_ws checks it)
        st.fixed_dictionaries({"type": st.sampled_from(["ping", "dance"]) | JSON}),
        st.dictionaries(st.text(max_size=6), JSON, max_size=4),
    ).filter(lambda m: m.get("type") != "hello")


def _snapshot(srv: Server, tid: int) -> tuple[Any, ...]:
    rec = srv.call(srv.app.state.store.table, tid)
    log = srv.call(srv.app.state.store.actions, tid, rec.game_no)
    live = srv.manager.cached(tid)
    return rec.version, len(log), live.rec.version, live.game.to_json(live.state)


def test_every_message_is_answered_and_a_refused_one_changes_nothing(
    table: tuple[Server, WS, int],
) -> None:
    srv, conns, tid = table
    counter = iter(range(1, 1 << 30))
    seen: dict[str, int] = {}

    @given(data=st.data())
    @settings(
        max_examples=300,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(data: st.DataObject) -> None:
        ws = data.draw(st.sampled_from(conns))
        msg = data.draw(_message(tid))
        mid = f"fuzz-{next(counter)}"
        msg["id"] = mid
        before = _snapshot(srv, tid)
        ws.send(json.dumps(msg))
        answer = ws.until(lambda f: f.get("id") == mid)
        after = _snapshot(srv, tid)
        kind = f"{msg.get('type')}:{answer.get('code', answer['type'])}"
        seen[kind] = seen.get(kind, 0) + 1
        if answer["type"] == "error":
            assert isinstance(answer["code"], str) and answer["message"], answer
            assert after == before, f"{msg} was refused ({answer['code']}) but changed the table"
        elif msg.get("type") == "act":
            assert answer["type"] == "ack", answer
            assert after[0] == before[0] + 1 and after[1] == before[1] + 1, msg
        else:
            assert answer["type"] in {"ack", "pong", "welcome"}, answer
            assert after == before, f"{msg} changed the table"
        # the connection is still open and still answers
        assert ws.request({"type": "ping", "id": f"{mid}-ping"})["type"] == "pong"

    check()
    # the run reached both sides: moves accepted, and refusals of several kinds
    assert seen.get("act:ack", 0) >= 1, seen
    assert len([k for k in seen if k.startswith("act:") and k != "act:ack"]) >= 4, seen
