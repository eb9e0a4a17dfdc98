"""A move is applied once, however often it is sent (issue: a re-sent ``act`` became a second
move whenever its player was legitimately to act again): the ``act``'s id is an idempotency key
per player and table, and an expected ``version`` refuses a move decided on an older state."""

from __future__ import annotations

from typing import Any

from tablee.cards import deck_contrecarte
from tests.serverkit import Database, Server

#: seat 0 holds two red skips: at two players a skip gives seat 0 the turn again, so the same
#: move sent twice would be legal twice
HANDS = {
    0: ["RS", "RS", "R3", "G1", "G2", "B4", "Y7"],
    1: ["B1", "B2", "G3", "Y4", "R6", "G6", "Y6"],
}
TURNED = "R5"
SKIP = {"type": "play", "card": "RS"}


def stacked_deck() -> list[str]:
    rest = deck_contrecarte()
    for card in [*HANDS[0], *HANDS[1], TURNED]:
        rest.remove(card)
    return [*(HANDS[i % 2][i // 2] for i in range(14)), TURNED, *rest]


def act(table: int, mid: Any, action: Any = SKIP, **extra: Any) -> dict[str, Any]:
    return {"type": "act", "table": table, "action": action, "id": mid, **extra}


def test_a_resent_act_is_answered_again_not_played_again(database: Database) -> None:
    with Server(database) as srv:
        alice, bob = srv.player("Alice"), srv.player("Bob")
        tid: int = srv.stacked_table(alice, "contrecarte", 2, deck=stacked_deck())["id"]
        srv.post(f"/api/tables/{tid}/join", bob)
        with srv.ws(alice) as wa:
            wa.request({"type": "subscribe", "table": tid})
            first = wa.state(tid)
            assert first["to_act"] == [0] and SKIP in first["legal"]
            version = first["version"]
            assert wa.request(act(tid, "move-1", version=version)) == {
                "type": "ack",
                "id": "move-1",
            }
            after = wa.state(tid)
            # the skip gives seat 0 the turn again: the same move is legal again
            assert after["to_act"] == [0] and SKIP in after["legal"]
            assert after["view"]["counts"] == [6, 7]
            # the retry of the same move: the first answer again, nothing played
            assert wa.request(act(tid, "move-1", version=version)) == {
                "type": "ack",
                "id": "move-1",
            }
            assert wa.sync(tid)["view"]["counts"] == [6, 7]
        # after a reconnect too
        with srv.ws(alice) as wa:
            again = act(tid, "move-1", version=version)
            assert wa.request(again) == {"type": "ack", "id": "move-1"}
            wa.request({"type": "subscribe", "table": tid})
            now = wa.state(tid)
            assert now["view"]["counts"] == [6, 7] and now["version"] == version + 1
            # a move decided on an older state: refused, nothing played
            stale = wa.request(act(tid, "move-2", version=version))
            assert stale["type"] == "error" and stale["code"] == "stale_version"
            assert wa.sync(tid)["view"]["counts"] == [6, 7]
            # another id is another move
            ok = wa.request(act(tid, "move-3", version=version + 1))
            assert ok == {"type": "ack", "id": "move-3"}
            assert wa.sync(tid)["view"]["counts"] == [5, 7]
        # rebuilt from the store, as after a restart (the key is kept with the log row)

        async def rebuild() -> None:
            assert srv.manager.forget(srv.manager.cached(tid), finished_only=False)

        srv.call(rebuild)
        assert srv.manager.cached(tid) is None
        with srv.ws(alice) as wa:
            again = act(tid, "move-3", version=version + 1)
            assert wa.request(again) == {"type": "ack", "id": "move-3"}
            # an old id with another expected version is another move (a client numbering its
            # moves afresh on each connection), not a retry
            red3 = {"type": "play", "card": "R3"}
            assert wa.request(act(tid, "move-1", red3, version=version + 2))["type"] == "ack"
            assert wa.sync(tid)["view"]["counts"] == [4, 7]
            # any JSON id is a key, an integer beyond 64 bits too
            big = wa.request(act(tid, 10**30, version=0))
            assert big["type"] == "error" and big["code"] == "stale_version"
