"""Chat on two app processes (one PostgreSQL, one Redis): a message written through one process
reaches the sockets of the other, the rate limit holds across them, and an admin's mute or
deletion on one process holds at once on the other."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cluster.kit import Client, Cluster, new_player, processes, rest

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

TOKEN = "cluster-chat-admin"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}


async def _chat(c: Client, text: str, table: int | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "chat", "text": text}
    if table is not None:
        msg["table"] = table
    return await c.request(msg)


async def test_an_admin_mute_on_one_process_silences_the_player_on_another(
    cluster: Cluster,
) -> None:
    # B would find nothing in its own memory: the mute is read where messages are stored
    async with processes(cluster, "a", "b", admin_token=TOKEN, chat_rate="4/minute") as (a, b):
        alice, bob = await new_player(a, "Alice"), await new_player(b, "Bob")
        body = {"game": "toy", "players": 2, "options": {"deals": 2}}
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        await rest(b, "POST", f"/api/tables/{tid}/join", bob)
        async with Client(a, alice) as ca, Client(b, bob) as cb:
            for c in (ca, cb):
                await c.subscribe(tid)
            # a message through B reaches Alice's socket on A, and the other way round
            assert (await _chat(cb, "Salut depuis B", tid))["type"] == "ack"
            got = await ca.until(lambda f: f["type"] == "chat")
            assert got["message"]["text"] == "Salut depuis B"
            assert got["message"]["author"]["id"] == bob.id
            assert (await _chat(ca, "Salut depuis A", tid))["type"] == "ack"
            await cb.until(
                lambda f: f["type"] == "chat" and f["message"]["text"] == "Salut depuis A"
            )

            # the lobby too
            async with Client(a, None) as watcher:
                assert (await watcher.request({"type": "lobby_subscribe"}))["type"] == "ack"
                assert (await _chat(cb, "Qui joue ?"))["type"] == "ack"
                await watcher.until(lambda f: f["type"] == "chat" and f["message"]["table"] is None)

            # the admin, served by A, mutes Bob, whose socket is on B
            out = await rest(
                a,
                "POST",
                f"/api/admin/players/{bob.id}/mute",
                headers=ADMIN,
                json={"minutes": 5, "reason": "insultes"},
            )
            assert out["player"] == bob.id
            told = await cb.until(lambda f: f["type"] == "chat_muted")
            assert "retiré la parole" in told["message"]
            refused = await _chat(cb, "je parle encore", tid)
            assert refused["type"] == "error" and refused["code"] == "muted", refused
            assert not cb.closed  # silenced, not disconnected: he still plays
            # a deletion on A takes the message away on B
            first = next(f for f in ca.frames if f["type"] == "chat")
            await rest(
                a, "DELETE", f"/api/admin/chat/messages/{first['message']['id']}", headers=ADMIN
            )
            gone = await cb.until(lambda f: f["type"] == "chat_deleted")
            assert gone["message"] == first["message"]["id"]
            await rest(a, "POST", f"/api/admin/players/{bob.id}/unmute", headers=ADMIN)
            assert (await _chat(cb, "pardon", tid))["type"] == "ack"


async def test_the_chat_rate_limit_is_one_bucket_across_the_processes(cluster: Cluster) -> None:
    async with processes(cluster, "a", "b", chat_rate="3/minute") as (a, b):
        alice = await new_player(a, "Alice")
        async with Client(a, alice) as ca, Client(b, alice) as cb:
            answers = [await _chat(c, f"m{i}") for i, c in enumerate((ca, cb, ca, cb))]
            assert [x["type"] for x in answers] == ["ack", "ack", "ack", "error"]
            assert answers[-1]["code"] == "rate_limited"
            assert "trop vite" in answers[-1]["message"]


async def test_a_tip_from_the_gallery_reaches_a_player_away_from_the_home_after_the_deal(
    cluster: Cluster,
) -> None:
    """A belote table made on A (its home); Alice plays through B, Carol watches through A and
    writes a tip: B holds it back from Alice until the deal ends there too — B follows the deal
    although the changes reach it as A's frames."""
    async with processes(cluster, "a", "b") as (a, b):
        alice, carol = await new_player(a, "Alice"), await new_player(a, "Carol")
        body = {"game": "belote", "players": 4, "bots": [1, 2, 3]}
        tid = (await rest(a, "POST", "/api/tables", alice, json=body))["id"]
        async with Client(b, alice) as ca, Client(a, carol) as cc:
            st = await ca.subscribe(tid)
            await cc.subscribe(tid)
            assert (await _chat(cc, "Joue atout !", tid))["type"] == "ack"
            tip = await cc.until(lambda f: f["type"] == "chat")
            assert tip["message"]["audience"] == "spectators"
            ended: int | None = None
            for _ in range(200):
                ended = next(
                    (
                        i
                        for i, f in enumerate(ca.frames)
                        if f["type"] == "state"
                        and any(e["type"] == "deal_end" for e in f["events"])
                    ),
                    None,
                )
                if ended is not None:
                    break
                st = ca.latest(tid)
                if 0 in st["to_act"] and st["legal"]:
                    answer = await ca.act(tid, st["legal"][0])
                    assert answer["type"] in {"ack", "error"}, answer
                await ca.state_at(tid, st["version"] + 1)
            assert ended is not None, "the deal did not end"
            got = await ca.until(
                lambda f: f["type"] == "chat" and f["message"]["id"] == tip["message"]["id"]
            )
            assert ca.frames.index(got) > ended, "the tip reached the player during the deal"
    assert not a.errors() and not b.errors(), a.output() + b.output()
