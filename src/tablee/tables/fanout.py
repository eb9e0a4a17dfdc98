"""Who watches a table and what each one is sent: subscribers, presence (the seats' "connected"
flags), and the per-seat ``state`` messages.

Each subscriber gets the view of its own seat (``game.view``), that seat's legal actions, and the
events its seat may see (``visible_events``), never anything else from the state. After a change
the state of each seat is built and encoded once, whatever the number of its subscribers (several
tabs, spectators), and the ``info`` block, the same for all, once for the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable
from datetime import datetime
from typing import Any

from tablee.bots.levels import DEBUTANT
from tablee.engine import Event, visible_events
from tablee.games import get_game
from tablee.protocol import dumps

from .live import LiveTable, Subscriber
from .records import BOT, EMPTY, FINISHED, PLAYER, PLAYING, TableRecord

#: a placeholder for ``info`` in a state message whose info is joined to it as text
_NO_INFO: dict[str, Any] = {}
_NO_INFO_TAIL = ',"info":{}}'


class FanOut:
    def __init__(
        self,
        cached: Callable[[int], LiveTable | None],
        remote: Callable[[int], Collection[int]],
    ) -> None:
        #: the tables held in memory (a record shown from the store shows a newer copy's seats)
        self.cached = cached
        #: the players connected to a table through other processes
        self.remote = remote

    def add(self, live: LiveTable, sub: Subscriber) -> None:
        """``sub`` watches ``live`` from now on (as its seat, if its player has one) and gets its
        state at once."""
        if sub not in live.subscribers:
            live.subscribers[sub] = None
            pid = sub.player_id
            if pid is not None:
                live.presence[pid] += 1
                if live.presence[pid] == 1:
                    # the seat's "connected" flag, or the spectators shown, changed: tell the others
                    self.tell(live, [], exclude=sub)
        sub.send(self.state_text(live, self.seat_of(live, sub)))

    def remove(self, live: LiveTable, sub: Subscriber) -> bool:
        if sub not in live.subscribers:
            return False
        del live.subscribers[sub]
        pid = sub.player_id
        if pid is not None:
            live.presence[pid] -= 1
            if live.presence[pid] <= 0:
                del live.presence[pid]
                self.tell(live, [])
        return True

    def seat_of(self, live: LiveTable, sub: Subscriber) -> int | None:
        pid = sub.player_id
        return None if pid is None else live.rec.seat_of(pid)

    def tell(self, live: LiveTable, events: list[Event], exclude: Subscriber | None = None) -> None:
        """Every subscriber's state after a change, with the change's ``events``."""
        if not live.subscribers:
            return
        texts: dict[int | None, str] = {}
        # ``info`` is the same for every seat and the last key of a state: encoded once, then
        # joined to each seat's own part (the same bytes as encoding the whole message)
        info = ',"info":' + dumps(self.info(live)) + "}"
        for sub in list(live.subscribers):
            if sub is exclude:
                continue
            seat = self.seat_of(live, sub)
            text = texts.get(seat)
            if text is None:
                own = dumps(self.state_message(live, seat, events, info=_NO_INFO))
                text = texts[seat] = own[: -len(_NO_INFO_TAIL)] + info
            sub.send(text)

    # -- what clients see ------------------------------------------------------------------------

    def state_text(self, live: LiveTable, seat: int | None, events: Iterable[Event] = ()) -> str:
        return dumps(self.state_message(live, seat, events))

    def state_message(
        self,
        live: LiveTable,
        seat: int | None,
        events: Iterable[Event] = (),
        info: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        rec, game, state = live.rec, live.game, live.state
        playing = state is not None and rec.status == PLAYING
        return {
            "type": "state",
            "table": rec.id,
            "version": rec.version,
            "view": None if state is None else game.view(state, seat),
            "legal": live.legal(seat) if playing and seat is not None else [],
            "to_act": list(live.to_act()),
            "deadline": _iso(rec.deadline) if playing else None,
            "over": rec.status == FINISHED,
            "outcome": rec.outcome if rec.status == FINISHED else None,
            "events": visible_events(list(events), seat),
            "info": info if info is not None else self.info(live),
        }

    def info(self, live: LiveTable | TableRecord) -> dict[str, Any]:
        """A table's public description (lobby, REST, the ``info`` block of states)."""
        watching: LiveTable | None = live if isinstance(live, LiveTable) else None
        if isinstance(live, LiveTable):
            rec, present = live.rec, live.presence
        else:
            rec, present = live, Counter()
            cached = self.cached(rec.id)
            if cached is not None and cached.rec.version >= rec.version:
                rec, present = cached.rec, cached.presence
                watching = cached
        remote = self.remote(rec.id)
        game = get_game(rec.game)
        return {
            "id": rec.id,
            "game": rec.game,
            "title": game.title,
            "status": rec.status,
            "players": rec.players,
            "options": rec.options,
            "turn_seconds": rec.turn_seconds,
            "private": rec.private,
            "creator": None
            if rec.creator_id is None
            else {"id": rec.creator_id, "name": rec.creator_name},
            "game_no": rec.game_no,
            "version": rec.version,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "player_id": s.player_id,
                    "name": s.name if s.kind == PLAYER else None,
                    "connected": s.kind == PLAYER
                    and (present.get(s.player_id or 0, 0) > 0 or s.player_id in remote),
                    "level": (s.level or DEBUTANT) if s.kind == BOT else None,
                }
                for s in rec.seats
            ],
            "free_seats": [s.seat for s in rec.seats if s.kind == EMPTY],
            "deadline": _iso(rec.deadline),
            "rematch_votes": list(rec.rematch_votes),
            "wins": list(rec.wins),
            "created_at": _iso(rec.created_at),
            "watchers": _watchers(watching),
            # a robot seat (from the start, or a seat handed over mid-game) makes the game amicale
            "rated": rec.rated and not any(s.kind == BOT for s in rec.seats),
        }


def _watchers(live: LiveTable | None) -> dict[str, Any]:
    """Who watches a table without a seat (this process's connections): how many, and the names
    of those who said hello (one name per person, however many tabs)."""
    if live is None:
        return {"count": 0, "names": []}
    names: dict[int, str] = {}
    anonymous = 0
    for sub in live.subscribers:
        pid = sub.player_id
        if pid is None:
            anonymous += 1
        elif live.rec.seat_of(pid) is None:
            name = getattr(getattr(sub, "player", None), "name", None)
            names[pid] = str(name) if name else f"#{pid}"
    return {"count": len(names) + anonymous, "names": sorted(names.values(), key=str.casefold)}


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()
