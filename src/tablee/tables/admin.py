"""What an admin does to live tables: close one, kick a seat, change the turn timer, free a banned
player's seats, carry a rename to the seats; and the forensic reads (the full state, the export).

Every change is an edit of the table's record committed through the manager's public ``edit``, the
one commit path of every change (under the table's turn, version checked, saved, then pushed to
the subscribers with an event saying what happened), exactly like a player's join or leave, so
other processes serving the same database pick it up the same way.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from tablee.engine import FIRST_DEALER, Event
from tablee.export import FORMAT, VERSION, state_digest
from tablee.fairness import commitment
from tablee.games import get_game
from tablee.protocol import ErrorCode
from tablee.store.admin import AdminStore

from .changes import close_record, closed_reason
from .errors import TableError
from .live import LiveTable
from .manager import TableManager
from .records import BOT, EMPTY, FINISHED, PLAYER, PLAYING, SeatRecord, TableRecord
from .seats import check_turn_seconds

log = logging.getLogger("tablee.admin")


def _running_scores(live: LiveTable) -> list[Any]:
    """The match totals at this moment, as the spectator's view shows them (empty if none)."""
    if live.state is None:
        return []
    scores = live.game.view(live.state, None).get("scores")
    if isinstance(scores, list) and len(scores) == live.rec.players:
        return scores
    return []


async def close(manager: TableManager, table_id: int, reason: str, by: str) -> LiveTable:
    """The table ends now, with no winner; everyone subscribed is told why (a ``table_closed``
    event and ``outcome.closed``). A closed table takes no more moves, joins or rematches."""
    live = await manager.current(table_id)

    def change(rec: TableRecord) -> list[Event]:
        if closed_reason(rec) is not None:
            raise TableError(ErrorCode.TABLE_OVER, "this table is already closed")
        return close_record(rec, reason, by, _running_scores(live))

    await manager.edit(table_id, change)
    log.info("table closed: %s", reason, extra={"table": table_id, "seat": None, "by": by})
    return live


async def kick(
    manager: TableManager,
    table_id: int,
    seat: int | None,
    reason: str,
    by: str,
    player_id: int | None = None,
) -> tuple[LiveTable, dict[str, Any]]:
    """The seat's player leaves (``seat=None``: wherever ``player_id`` sits, read under the
    table's lock): during a game a bot takes the seat and plays on; otherwise the seat becomes
    free. Returns the table and ``{seat, player_id, name, replaced_by}``."""
    done: dict[str, Any] = {}

    def change(rec: TableRecord) -> list[Event]:
        nonlocal seat
        if seat is None and player_id is not None:
            seat = rec.seat_of(player_id)
            if seat is None:
                raise TableError(ErrorCode.NOT_A_PLAYER, "the player no longer sits at this table")
        if seat is None or not 0 <= seat < rec.players:
            raise TableError(
                ErrorCode.BAD_REQUEST, f"there is no seat {seat} at this table", ("path", "seat")
            )
        if closed_reason(rec) is not None:
            raise TableError(ErrorCode.TABLE_OVER, "this table is closed")
        held = rec.seats[seat]
        if held.kind != PLAYER:
            raise TableError(
                ErrorCode.NOT_A_PLAYER, f"seat {seat} holds no player (it is {held.kind})"
            )
        kind = BOT if rec.status == PLAYING else EMPTY
        rec.seats[seat] = SeatRecord(seat, kind)
        rec.away.pop(seat, None)  # a kicked player has no seat to take back
        rec.rematch_votes = [s for s in rec.rematch_votes if s != seat]
        done.update(seat=seat, player_id=held.player_id, name=held.name, replaced_by=kind)
        return [
            {
                "type": "player_left",
                "seat": seat,
                "name": held.name,
                "replaced_by": kind,
                "kicked": True,
                "reason": reason,
            }
        ]

    live = await manager.edit(table_id, change)
    log.info(
        "seat kicked (%s): %s",
        done["replaced_by"],
        reason,
        extra={"table": table_id, "seat": done["seat"], "player": done["player_id"], "by": by},
    )
    return live, done


async def set_timer(manager: TableManager, table_id: int, seconds: float | None) -> LiveTable:
    """A new turn timer; during a game the seats to act get a fresh deadline (none: no timer)."""
    check_turn_seconds(seconds)
    live = await manager.current(table_id)

    def change(rec: TableRecord) -> list[Event]:
        if closed_reason(rec) is not None:
            raise TableError(ErrorCode.TABLE_OVER, "this table is closed")
        rec.turn_seconds = seconds
        if rec.status == PLAYING:
            to_act = live.to_act()
            rec.deadline = (
                datetime.now(UTC) + timedelta(seconds=seconds)
                if seconds is not None and to_act
                else None
            )
        return [{"type": "timer_changed", "seat": None, "turn_seconds": seconds}]

    return await manager.edit(table_id, change)


async def free_player_seats(
    manager: TableManager, table_ids: list[int], player_id: int, reason: str, by: str
) -> list[dict[str, Any]]:
    """A banned player's seats: bots take them in running games, the others become free (closed
    tables keep them, as history). Returns what was done per table."""
    out = []
    for table_id in table_ids:
        try:
            _, done = await kick(manager, table_id, None, reason, by, player_id=player_id)
        except TableError as exc:  # gone meanwhile (left, closed): nothing to free
            log.info("seat not freed: %s", exc.message, extra={"table": table_id, "seat": None})
            continue
        out.append({"table": table_id, **done})
    return out


async def renamed(
    manager: TableManager, table_ids: list[int], player_id: int, name: str
) -> list[int]:
    """Pushes a player's new name to the tables this process holds where they sit or created."""
    out = []
    for table_id in table_ids:
        if manager.cached(table_id) is None:
            continue

        def change(rec: TableRecord) -> list[Event]:
            events: list[Event] = []
            for s in rec.seats:
                if s.kind == PLAYER and s.player_id == player_id:
                    s.name = name
                    events.append({"type": "player_renamed", "seat": s.seat, "name": name})
            if rec.creator_id == player_id:
                rec.creator_name = name
            return events

        await manager.edit(table_id, change)
        out.append(table_id)
    return out


# -- forensics ------------------------------------------------------------------------------------


def full_state(manager: TableManager, live: LiveTable) -> dict[str, Any]:
    """Everything about a table, hands included (the admin's eyes only)."""
    rec, game, state = live.rec, live.game, live.state
    players = range(rec.players)
    return {
        "table": manager.info(live),
        "seed": rec.seed,
        "deck": rec.deck,
        "game_no": rec.game_no,
        "moves": live.seq,
        "outcome": rec.outcome,
        "closed": closed_reason(rec),
        "to_act": list(live.to_act()),
        "legal": {str(s): live.legal(s) for s in live.to_act()},
        "hands": None if state is None else [game.view(state, s).get("hand") for s in players],
        "state": None if state is None else game.to_json(state),
        "state_sha256": None if state is None else state_digest(game, state),
        "subscribers": len(live.subscribers),
        "timer_armed": live.timer is not None,
        "bot_thinking": live.bot_task is not None,
    }


def _game_entry(
    game: Any,
    game_no: int,
    seed: int | None,
    deck: list[str] | None,
    options: dict[str, Any],
    actions: list[Any],
    status: str,
    outcome: dict[str, Any] | None,
    final: Any,
    salt: str | None = None,
) -> dict[str, Any]:
    return {
        "game_no": game_no,
        "seed": seed,
        "deck": deck,
        "salt": salt,
        "commitment": None if seed is None or salt is None else commitment(seed, salt),
        "options": options,
        "status": status,
        "outcome": outcome,
        "actions": [
            {
                "seq": a.seq,
                "seat": a.seat,
                "action": a.action,
                "source": a.source,
                "at": None if a.at is None else a.at.isoformat(),
            }
            for a in actions
        ],
        "final_state_sha256": None if final is None else state_digest(game, final),
    }


async def export(manager: TableManager, table_id: int) -> dict[str, Any]:
    """The whole action log of every game of the table with its deal seed and options:
    ``tablee replay FILE`` rebuilds and prints every state (docs/admin.md gives the format)."""
    live = await manager.current(table_id)
    rec = live.rec
    game = get_game(rec.game)
    store = manager.store
    games: list[dict[str, Any]] = []
    finished = {g.game_no: g for g in await AdminStore(store).game_seeds(table_id)}
    for game_no in range(1, rec.game_no + 1):
        actions = await store.actions(table_id, game_no)
        if game_no == rec.game_no:
            if live.state is None:
                continue  # the table still waits for its players: nothing dealt yet
            # the log up to the state this process holds (moves may arrive meanwhile)
            actions = [a for a in actions if a.seq <= live.seq]
            games.append(
                _game_entry(
                    game,
                    game_no,
                    rec.seed,
                    rec.deck,
                    rec.options,
                    actions,
                    rec.status,
                    rec.outcome,
                    live.state,
                    rec.salt,
                )
            )
            continue
        past = finished.get(game_no)
        seed = None if past is None else past.seed
        deck = None if past is None else past.deck
        options = None if past is None else past.options
        if options is None:
            # finished before each game's options were kept, when every game was dealt by the
            # default first dealer
            options = {k: v for k, v in rec.options.items() if k != FIRST_DEALER}
        final = None
        if seed is not None or deck is not None:
            final = game.new(rec.players, options, seed=seed, deck=deck)
            for a in actions:
                final, _ = game.apply(final, a.seat, a.action)
        games.append(
            _game_entry(
                game,
                game_no,
                seed,
                deck,
                options,
                actions,
                FINISHED,
                None if past is None else past.outcome,
                final,
                None if past is None else past.salt,
            )
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "table": rec.id,
        "game": rec.game,
        "players": rec.players,
        "options": rec.options,
        "turn_seconds": rec.turn_seconds,
        "created_at": rec.created_at.isoformat(),
        "seats": [
            {"seat": s.seat, "kind": s.kind, "player_id": s.player_id, "name": s.name}
            for s in rec.seats
        ],
        "games": games,
    }


__all__ = [
    "close",
    "export",
    "free_player_seats",
    "full_state",
    "kick",
    "renamed",
    "set_timer",
]
