"""The table export format (``GET /api/admin/tables/{id}/export``, read by ``tablee replay``).

A whole table: every game played at it (a rematch is a new game with a new seed and the next
first dealer), each with its seed (or stacked deck), its options and its action log, so the log
rebuilds every state::

    {"format": "tablee-export", "version": 1, "table": 7, "game": "belote", "players": 4,
     "options": {...}, "seats": [...],
     "games": [{"game_no": 1, "seed": 123, "deck": null, "options": {...},
                "status": "finished", "outcome": {...},
                "actions": [{"seq": 1, "seat": 0, "action": {...}, "source": "player",
                             "at": "..."}, ...],
                "final_state_sha256": "...",
                "salt": "64 hex digits", "commitment": "sha256(seed || salt)"}, ...]}

The top-level ``options`` are the table's now (its current game's); a game without its own
``options`` (an export written before they were kept) is rebuilt with those. The one-game form
``{"game", "players", "options", "seed", "deck"?, "actions": [{"seat", "action"}]}`` is read too.
``salt`` and ``commitment`` are the game's shuffle commitment (``tablee.fairness``; absent
for a game dealt before they were published); ``tablee verify`` checks them.
``final_state_sha256`` is the digest of the table's own final state: a replay that ends elsewhere
says so.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

FORMAT = "tablee-export"
VERSION = 1


def state_digest(game: Any, state: Any) -> str:
    """sha256 of a state's canonical JSON (``game.to_json``, sorted keys, no spaces)."""
    text = json.dumps(game.to_json(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class ExportedGame:
    game_no: int
    seed: int | str | None
    deck: list[str] | None
    #: the options the game was dealt with; None: the export's top-level options
    options: dict[str, Any] | None
    actions: list[tuple[int, dict[str, Any]]]
    digest: str | None
    #: the shuffle's salt and the commitment published at the deal (``tablee.fairness``)
    salt: str | None = None
    commitment: str | None = None
    status: str | None = None
    outcome: dict[str, Any] | None = None


def exported_games(data: Mapping[str, Any]) -> Iterator[ExportedGame]:
    """The games of an export, in order (a one-game file gives one)."""
    if data.get("format", FORMAT) != FORMAT:
        raise ValueError(f"not a table export: format {data.get('format')!r}")
    if int(data.get("version", VERSION)) > VERSION:
        raise ValueError(f"export version {data['version']} is newer than this tablee reads")
    games = data["games"] if "games" in data else [dict(data, game_no=data.get("game_no", 1))]
    for g in games:
        yield ExportedGame(
            game_no=int(g.get("game_no", 1)),
            seed=g.get("seed"),
            deck=g.get("deck"),
            options=g.get("options"),
            actions=[(int(a["seat"]), a["action"]) for a in g.get("actions", [])],
            digest=g.get("final_state_sha256"),
            salt=g.get("salt"),
            commitment=g.get("commitment"),
            status=g.get("status"),
            outcome=g.get("outcome"),
        )


__all__ = ["FORMAT", "VERSION", "ExportedGame", "exported_games", "state_digest"]
