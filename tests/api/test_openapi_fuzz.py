"""Every REST operation, fed generated requests from its own OpenAPI schema (schemathesis).

Whatever a client sends — numbers too large for any id, bodies that are not JSON, unknown fields,
odd Unicode — the server answers with a status its schema documents, in the shape it documents,
and never with a 500. Run as a player and as an admin (the admin routes need their token), on a
server that holds a few tables, so that the generated ids sometimes name real ones.

Examples are derandomized, so a run is the same every time; more with ``TABLEE_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.serverkit import Database, Uvicorn

ADMIN_TOKEN = "fuzz-admin-token-0123456789"
EXAMPLES = int(os.environ.get("TABLEE_FUZZ_EXAMPLES", "25"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("fuzz")
    db = Database("sqlite", f"sqlite+aiosqlite:///{folder}/tablee.db")
    with Uvicorn(db, admin_token=ADMIN_TOKEN) as server, httpx.Client(base_url=server.http) as http:
        tokens = [
            http.post("/api/players", json={"name": name}).json()["token"]
            for name in ("Alice", "Bob", "Claude")
        ]
        alice = {"Authorization": f"Bearer {tokens[0]}"}
        bob = {"Authorization": f"Bearer {tokens[1]}"}
        # a waiting table, a playing one and a finished one, ids 1 to 3
        http.post("/api/tables", json={"game": "contrecarte", "players": 3}, headers=alice)
        playing = http.post(
            "/api/tables", json={"game": "contrecarte", "players": 2}, headers=alice
        ).json()
        http.post(f"/api/tables/{playing['id']}/join", headers=bob)
        closed = http.post(
            "/api/tables", json={"game": "belote", "players": 4, "bots": [1, 2, 3]}, headers=alice
        ).json()
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        http.post(f"/api/admin/tables/{closed['id']}/close", json={"reason": "fuzz"}, headers=admin)
        # the account routes change who their caller is (a claim retires the guest token): a
        # player of their own
        accounts = {"Authorization": f"Bearer {tokens[2]}"}
        yield {
            "url": server.http,
            "player": alice,
            "other": bob,
            "admin": admin,
            "accounts": accounts,
        }


def _fuzz(operation: Any, headers: dict[str, str]) -> Any:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        case.call_and_validate(headers=headers, checks=CHECKS)

    return check


def test_every_operation_answers_what_its_schema_documents(fuzz_server: dict[str, Any]) -> None:
    schema = schemathesis.openapi.from_url(fuzz_server["url"] + "/openapi.json")
    failures: dict[str, str] = {}
    tested = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        path = operation.path
        kind = "admin" if path.startswith("/api/admin") else "player"
        headers = fuzz_server["accounts" if path.startswith("/api/accounts") else kind]
        try:
            _fuzz(operation, headers)()
        except Exception as exc:  # every operation's failure is reported at once
            failures[operation.label] = str(exc)[:2000]
        tested += 1
    assert tested >= 25, "the schema lost operations"
    assert not failures, "\n\n".join(f"{label}:\n{why}" for label, why in failures.items())


def test_ids_no_column_can_hold_are_refused_not_crashed(fuzz_server: dict[str, Any]) -> None:
    """The numbers that once made the database driver raise (a 500): now a 422 or a 404."""
    huge = 10**23
    with httpx.Client(base_url=fuzz_server["url"], headers=fuzz_server["player"]) as http:
        for path in (f"/api/tables/{huge}", f"/api/tables/{huge}/results"):
            assert http.get(path).status_code == 422
        assert http.get("/api/tables", params={"offset": huge}).status_code == 422
        table = http.post("/api/tables", json={"game": "contrecarte", "players": 3}).json()
        refused = http.post(
            f"/api/tables/{table['id']}/join", json={"seat": 11621}, headers=fuzz_server["other"]
        )
        assert refused.status_code == 422
        assert refused.json()["detail"][0]["loc"] == ["body", "seat"]
        admin = fuzz_server["admin"]
        assert http.get(f"/api/admin/players/{huge}", headers=admin).status_code == 422
        found = http.get("/api/admin/players", params={"q": "²" + "9" * 30}, headers=admin)
        assert found.status_code == 200 and found.json()["items"] == []


def test_a_websocket_subscribe_to_an_impossible_table_is_unknown(
    fuzz_server: dict[str, Any],
) -> None:
    import asyncio
    import json

    import websockets

    async def run() -> dict[str, Any]:
        url = fuzz_server["url"].replace("http://", "ws://") + "/ws"
        token = fuzz_server["player"]["Authorization"].split()[1]
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await ws.recv()
            await ws.send(json.dumps({"type": "subscribe", "table": 10**23, "id": 1}))
            answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return answer

    answer = asyncio.run(run())
    assert answer["type"] == "error" and answer["code"] == "unknown_table"
