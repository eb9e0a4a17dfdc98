"""Replays and the public log of finished games: every hand shown, rebuilt from the seed and the
action log by the engine (``games.replay_steps``, the same replay ``tablee replay`` runs on an
export), never from stored views.

A game is replayed with every hand once it is over. While it is being played, only when the
table allows it (``deal_replays``) and only its finished deals: the replay stops at the move
that ended the last one, whose step shows no hand (that move may deal the next deal), and neither
the seed nor the salt is told (they would deal the deals to come).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from tablee.engine import FIRST_DEALER
from tablee.export import FORMAT, VERSION, state_digest
from tablee.fairness import commitment
from tablee.games import get_game, replay_steps
from tablee.protocol import ErrorCode, dumps
from tablee.store.admin import AdminStore

from .errors import TableError
from .live import LiveTable
from .manager import TableManager
from .records import FINISHED, PLAYER, LoggedAction


@dataclass(frozen=True)
class _Dealt:
    """How one game of the table was dealt, and whether it is over."""

    seed: int | None
    salt: str | None
    deck: list[str] | None
    options: dict[str, Any]
    over: bool
    outcome: dict[str, Any] | None


def not_over(game_no: int) -> TableError:
    return TableError(
        ErrorCode.NOT_FINISHED,
        f"La partie {game_no} de cette table n'est pas terminée : son replay avec toutes les"
        " mains viendra à la fin.",
    )


async def _dealt(manager: TableManager, live: LiveTable, game_no: int) -> _Dealt:
    rec = live.rec
    if game_no < 1 or game_no > rec.game_no or (game_no == rec.game_no and live.state is None):
        raise TableError(
            ErrorCode.NOT_FINISHED, f"Cette table n'a pas (encore) de partie {game_no}."
        )
    if game_no == rec.game_no:
        return _Dealt(
            rec.seed, rec.salt, rec.deck, rec.options, rec.status == FINISHED, rec.outcome
        )
    past = {g.game_no: g for g in await AdminStore(manager.store).game_seeds(rec.id)}.get(game_no)
    if past is None:
        return _Dealt(None, None, None, rec.options, True, None)
    options = past.options
    if options is None:
        # finished before each game's options were kept: dealt by the default first dealer
        options = {k: v for k, v in rec.options.items() if k != FIRST_DEALER}
    return _Dealt(past.seed, past.salt, past.deck, options, True, past.outcome)


async def _actions(manager: TableManager, live: LiveTable, game_no: int) -> list[LoggedAction]:
    rows = await manager.store.actions(live.rec.id, game_no)
    if game_no == live.rec.game_no:
        # the log up to the state this process holds (moves may arrive meanwhile)
        rows = [a for a in rows if a.seq <= live.seq]
    return rows


def _seats(live: LiveTable) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name if s.kind == PLAYER else None,
            "level": s.level,
        }
        for s in live.rec.seats
    ]


async def game_replay(manager: TableManager, table_id: int, game_no: int) -> dict[str, Any]:
    """One game of the table, move by move with every hand: the whole game once it is over;
    while it is played, its finished deals if the table allows it (else ``not_finished``)."""
    live = await manager.current(table_id)
    rec = live.rec
    game = get_game(rec.game)
    dealt = await _dealt(manager, live, game_no)
    if not dealt.over and not rec.deal_replays:
        raise not_over(game_no)
    if dealt.seed is None and dealt.deck is None:
        raise TableError(
            ErrorCode.NOT_FINISHED,
            f"La donne de la partie {game_no} n'a pas été gardée : elle ne peut pas être rejouée.",
        )
    rows = await _actions(manager, live, game_no)
    moves = [(a.seat, a.action) for a in rows]
    steps = replay_steps(game, rec.players, dealt.options, dealt.seed, moves, deck=dealt.deck)
    if not dealt.over:
        steps = _finished_deals(steps)
        if len(steps) <= 1:
            raise not_over(game_no)
        moves = moves[: len(steps) - 1]
    revealed = dealt.over
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "table": rec.id,
        "game": rec.game,
        "title": game.title,
        "players": rec.players,
        "game_no": game_no,
        "options": dealt.options,
        "seats": _seats(live),
        "complete": dealt.over,
        "shuffle": {
            "commitment": None
            if dealt.salt is None or dealt.seed is None
            else commitment(dealt.seed, dealt.salt),
            "stacked": dealt.deck is not None,
            "seed": dealt.seed if revealed else None,
            "salt": dealt.salt if revealed else None,
        },
        "outcome": dealt.outcome if dealt.over else None,
        "actions": [{"seat": s, "action": a} for s, a in moves],
        "steps": steps,
    }
    if revealed:
        # the one-game export form (``tablee.export``): ``tablee verify`` and ``tablee replay``
        # read this document as it is
        doc.update(seed=dealt.seed, salt=dealt.salt, deck=dealt.deck)
        doc["commitment"] = doc["shuffle"]["commitment"]
        if dealt.seed is not None or dealt.deck is not None:
            final = game.new(rec.players, dealt.options, seed=dealt.seed, deck=dealt.deck)
            for seat, action in moves:
                final, _ = game.apply(final, seat, action)
            doc["final_state_sha256"] = state_digest(game, final)
    return doc


#: the replays of finished games last asked for, encoded (a finished game never changes; a long
#: one takes a quarter of a second to rebuild and weighs about a megabyte)
CACHED_REPLAYS = 16
_cache: OrderedDict[tuple[int, int, int], str] = OrderedDict()


async def game_replay_text(manager: TableManager, table_id: int, game_no: int) -> str:
    """``game_replay`` as JSON text; a complete replay is kept (``CACHED_REPLAYS``), under the
    table's number, game and creation (a new database reuses numbers)."""
    live = await manager.current(table_id)
    key = (table_id, game_no, int(live.rec.created_at.timestamp() * 1e6))
    text = _cache.get(key)
    if text is not None:
        _cache.move_to_end(key)
        return text
    doc = await game_replay(manager, table_id, game_no)
    text = dumps(doc)
    if doc["complete"]:
        _cache[key] = text
        if len(_cache) > CACHED_REPLAYS:
            _cache.popitem(last=False)
    return text


def _finished_deals(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps up to the move that ended the last finished deal; that step shows no hand and
    no view (the move may have dealt the next deal)."""
    last = max(
        (i for i, s in enumerate(steps) if any(e.get("type") == "deal_end" for e in s["events"])),
        default=0,
    )
    if last == 0:
        return steps[:1]
    end = dict(steps[last], hands=None, view=None, to_act=[])
    end["events"] = [e for e in end["events"] if e.get("type") in ("deal_end", "trick")]
    return [*steps[:last], end]


async def public_log(manager: TableManager, table_id: int) -> dict[str, Any]:
    """The table's finished games in the export format (``tablee.export``), each with its seed,
    salt and commitment revealed: what ``tablee verify URL`` checks. A game still being played
    is left out."""
    live = await manager.current(table_id)
    rec = live.rec
    games = []
    for game_no in range(1, rec.game_no + 1):
        dealt = await _dealt_or_none(manager, live, game_no)
        if dealt is None or not dealt.over:
            continue
        rows = await _actions(manager, live, game_no)
        games.append(
            {
                "game_no": game_no,
                "seed": dealt.seed,
                "salt": dealt.salt,
                "commitment": None
                if dealt.salt is None or dealt.seed is None
                else commitment(dealt.seed, dealt.salt),
                "deck": dealt.deck,
                "options": dealt.options,
                "status": FINISHED,
                "outcome": dealt.outcome,
                "actions": [{"seq": a.seq, "seat": a.seat, "action": a.action} for a in rows],
                "final_state_sha256": _final(rec.game, rec.players, dealt, rows),
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "table": rec.id,
        "game": rec.game,
        "players": rec.players,
        "options": rec.options,
        "seats": _seats(live),
        "games": games,
    }


async def _dealt_or_none(manager: TableManager, live: LiveTable, game_no: int) -> _Dealt | None:
    try:
        return await _dealt(manager, live, game_no)
    except TableError:
        return None


def _final(name: str, players: int, dealt: _Dealt, rows: list[LoggedAction]) -> str | None:
    if dealt.seed is None and dealt.deck is None:
        return None
    game = get_game(name)
    state = game.new(players, dealt.options, seed=dealt.seed, deck=dealt.deck)
    for a in rows:
        state, _ = game.apply(state, a.seat, a.action)
    return state_digest(game, state)


__all__ = ["game_replay", "game_replay_text", "not_over", "public_log"]
