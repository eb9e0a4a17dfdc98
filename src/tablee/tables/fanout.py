"""Who watches a table and what each one is sent: subscribers, presence (the seats' "connected"
flags), and the per-seat ``state`` messages.

Each subscriber gets the view of its own seat (``game.view``), that seat's legal actions, and the
events its seat may see (``visible_events``), never anything else from the state. After a change
the state of each seat is built and encoded once, whatever the number of its subscribers (several
tabs, spectators), and the ``info`` block, the same for all, once for the table; the seats' views
are built at once (``game.views``: what they share, once) and what their states share is read
once (``Shared``).

A change's states carry ``info`` only when it changed since the table's last change (its
``version`` and ``deadline`` aside, which every state carries itself): most moves change
nothing of it, and it was most of a state's bytes. Nor is it built for such a change: the table
marks it to be built again when something it is made of changes (``LiveTable.info_dirty``), and
a change not marked so has the info last told. A subscriber has the current info from its
``subscribe`` or ``sync`` answer on; one whose answer held another info than the one last told
has the next change's states carry it again.

With several processes, only the table's home tells its changes (``leads``); it hands the
other processes with subscribers there (``watchers``) the frames of the change, every seat's
part built once (``relay``), and they pass them on to their sockets (``relayed``) without
building anything. A process that is not the home tells its subscribers itself only what they
were not shown yet (``LiveTable.shown``): a change it made itself (a seat taken through it), or
one it caught up with because its frames did not come.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from datetime import datetime
from typing import Any

from tablee.bots.levels import DEBUTANT
from tablee.engine import Event, visible_events
from tablee.fairness import HIDDEN, shuffle_info, spectator_mode
from tablee.games import get_game
from tablee.protocol import dumps

from .live import JOURNAL_MAX, Frames, LiveTable, Subscriber, deal_history, utcnow
from .records import BOT, EMPTY, FINISHED, PLAYER, PLAYING, TableRecord
from .spectators import Delay, Moment, open_view

#: a placeholder for ``info`` in a state message whose info is joined to it as text
_NO_INFO: dict[str, Any] = {}
_NO_INFO_TAIL = ',"info":{}}'
#: what every state carries itself: not a change of ``info``
_OWN_KEYS = ("version", "deadline")


#: at most this many frames relayed around a read of a copy are kept for a socket subscribing on
#: it (more: that socket syncs on the gap, as a client does whenever it sees one)
KEPT_RELAYS = 16


#: ``Coordination.relay``: (table, the change's frames, the processes to send them to)
Relay = Callable[[LiveTable, Frames, Collection[str]], None]


def info_key(info: dict[str, Any]) -> str:
    """What tells whether a table's info changed (``version`` and ``deadline`` aside)."""
    return dumps({k: v for k, v in info.items() if k not in _OWN_KEYS})


class Shared:
    """What every seat's state of one change shares, read once for all of them: the views
    built (a seat missing here is built on its own), the seats the table waits on, the deadline,
    and the events when none is private (else each seat's are picked)."""

    __slots__ = ("deadline", "events", "over", "playing", "public", "to_act", "views")

    def __init__(
        self, live: LiveTable, events: list[Event], views: dict[int | None, dict[str, Any]]
    ) -> None:
        rec = live.rec
        self.views = views
        self.events = events
        self.playing = playing = live.state is not None and rec.status == PLAYING
        self.over = rec.status == FINISHED
        self.to_act = list(live.to_act())
        self.deadline = _iso(rec.deadline) if playing else None
        self.public: list[Event] | None = (
            None if any("to" in e for e in events) else visible_events(events, None)
        )


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
        #: this process tells the table's changes (its home); the others relay what it sends
        self.leads: Callable[[LiveTable], bool] = lambda live: True
        #: the other processes with subscribers at a table this process leads
        self.watchers: Callable[[LiveTable], Collection[str]] = lambda live: ()
        #: sends them a change's frames (``Coordination.relay``)
        self.relay: Relay | None = None

    def add(self, live: LiveTable, sub: Subscriber) -> None:
        """``sub`` watches ``live`` from now on (as its seat, if its player has one) and gets its
        state at once."""
        if sub not in live.subscribers:
            live.subscribers[sub] = live.rec.version
            live.info_dirty = True
            pid = sub.player_id
            if pid is not None:
                live.presence[pid] += 1
                if live.presence[pid] == 1 and self.leads(live):
                    # the seat's "connected" flag, or the spectators shown, changed: tell the
                    # others (a home elsewhere tells them, once it has read the presence)
                    self.tell(live, [], exclude=sub)
        sub.send(self.subscribed_text(live, self.seat_of(live, sub)))
        self.sent_copy(live, sub)
        if self.leads(live) or len(live.subscribers) == 1:
            # nobody else here waits for frames up to the copy's version
            live.shown = max(live.shown, live.rec.version)
            live.untold = []

    def sent_copy(self, live: LiveTable, sub: Subscriber) -> None:
        """``sub`` was just sent its state of the copy here. Away from the home, the copy and
        what the other subscribers here were shown (the relayed frames) may differ: read while
        frames were relayed, it may be behind them (those kept past it are sent now: the other
        sockets had them, and will not be sent them again) or ahead of them (those up to it,
        still to come for the others, are not sent to ``sub``)."""
        version = live.rec.version
        live.subscribers[sub] = version
        if live.shown > version:
            for frames in live.relays:
                if frames.version > version:
                    part = self._relayed_part(frames, sub)
                    if part is not None:
                        sub.send(part + frames.info)

    def remove(self, live: LiveTable, sub: Subscriber) -> bool:
        if sub not in live.subscribers:
            return False
        del live.subscribers[sub]
        live.info_dirty = True
        pid = sub.player_id
        if pid is not None:
            live.presence[pid] -= 1
            if live.presence[pid] <= 0:
                del live.presence[pid]
                if self.leads(live):
                    self.tell(live, [])
        return True

    def seat_of(self, live: LiveTable, sub: Subscriber) -> int | None:
        pid = sub.player_id
        return None if pid is None else live.seat_of(pid)

    def tell(self, live: LiveTable, events: list[Event], exclude: Subscriber | None = None) -> None:
        """Every subscriber's state after a change, with the change's ``events``; and, at the
        home of a table other processes watch too, their frames."""
        to = self.watchers(live)
        if not live.subscribers and not to:
            return
        live.shown = max(live.shown, live.rec.version)
        parts: dict[int | None, str] = {}
        seat_of = live.seat_of
        seats = [
            (sub, None if (pid := sub.player_id) is None else seat_of(pid))
            for sub in live.subscribers
        ]
        relaying = bool(to) and self.relay is not None
        # ``info`` is the same for every seat and the last key of a state: encoded once, then
        # joined to each seat's own part (the same bytes as encoding the whole message); left
        # out when every subscriber has it already. Built again only when something it is made
        # of changed (most moves change nothing of it): the record but its version and deadline
        # (``LiveTable.advance``), the subscribers and their presence (``add``, ``remove``) —
        # and, looked at here, the players connected elsewhere and the watchers' names. A home
        # relaying to other processes hands them it whole: the one built last, at this
        # version and deadline
        remote = self.remote(live.rec.id)
        elsewhere = frozenset(remote) if remote else None
        watchers = tuple(
            (sub.player_id, getattr(getattr(sub, "player", None), "name", None))
            for sub, seat in seats
            if seat is None
        )
        changed, full = False, ""
        if (
            live.info_dirty
            or live.info_told is None
            or live.info_last is None
            or elsewhere != live.info_remote
            or watchers != live.info_watchers
        ):
            whole = live.info_last = self.info(live)
            live.info_dirty = False
            live.info_remote, live.info_watchers = elsewhere, watchers
            key = info_key(whole)
            changed = key != live.info_told
            live.info_told = key
            if changed or relaying:
                full = ',"info":' + dumps(whole) + "}"
        elif relaying:
            rec = live.rec
            now = {"version": rec.version, "deadline": _iso(rec.deadline)}
            full = ',"info":' + dumps({**live.info_last, **now}) + "}"
        info = full if changed else "}"
        told = [(sub, seat) for sub, seat in seats if sub is not exclude]
        # what the seats' states share, built once: every seat's view at once (the game builds
        # what they have in common once), the seats the table waits on, the deadline...
        shared = Shared(
            live,
            events,
            self._views(
                live, (*range(live.rec.players), None) if relaying else {seat for _, seat in told}
            ),
        )
        for sub, seat in told:
            part = parts.get(seat)
            if part is None:
                part = parts[seat] = self._part(live, seat, shared)
            sub.send(part + info)
        if relaying:
            assert self.relay is not None
            for seat in (*range(live.rec.players), None):
                if seat not in parts:
                    parts[seat] = self._part(live, seat, shared)
            rec = live.rec
            seated = [s.player_id if s.kind == PLAYER else None for s in rec.seats]
            self.relay(live, Frames(rec.version, seated, parts, full, changed), to)

    def _part(
        self,
        live: LiveTable,
        seat: int | None,
        shared: Shared,
    ) -> str:
        """A seat's state of a change without its ``info`` and closing brace."""
        msg = self._message(live, seat, shared, info=_NO_INFO, told=True)
        return dumps(msg)[: -len(_NO_INFO_TAIL)]

    @staticmethod
    def _views(live: LiveTable, seats: Collection[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of ``seats`` in the table's state (a spectator's is left out where the
        spectators see a delayed table: ``state_message`` builds it)."""
        state = live.state
        if state is None:
            return {}
        if live.rec.spectators != HIDDEN:
            seats = [seat for seat in seats if seat is not None]
        return live.game.views(state, seats)

    def relayed(self, live: LiveTable, frames: Frames) -> None:
        """The frames of a change the table's home made, for this process's subscribers: each
        its seat's part. A change they were shown already (this process told it, having caught
        up) is not sent again."""
        if frames.version <= live.shown:
            return
        version = live.shown = frames.version
        if live.keeping or (live.keep_until and time.monotonic() < live.keep_until):
            if len(live.relays) < KEPT_RELAYS:
                live.relays.append(frames)
        elif live.keep_until or live.relays:
            # the window after the last read has passed: nothing kept, no clock read per frame
            live.keep_until = 0.0
            live.relays = []
        if live.untold and version >= live.rec.version:
            live.untold = []  # the moves the copy read ahead of the frames: all relayed now
        tail = frames.info if frames.info_changed or live.relay_due else "}"
        live.relay_due = False
        for sub, since in list(live.subscribers.items()):
            if version > since:  # else its state, of the copy read ahead, had this change
                part = self._relayed_part(frames, sub)
                if part is not None:
                    sub.send(part + tail)

    @staticmethod
    def _relayed_part(frames: Frames, sub: Subscriber) -> str | None:
        pid = sub.player_id
        seats = frames.seats
        return frames.parts.get(seats.index(pid) if pid is not None and pid in seats else None)

    # -- what clients see ------------------------------------------------------------------------

    def state_text(self, live: LiveTable, seat: int | None, events: Iterable[Event] = ()) -> str:
        """A state with its ``info``, for one subscriber (``sync``)."""
        msg = self.state_message(live, seat, events)
        self._answered(live, msg["info"])
        return dumps(msg)

    @staticmethod
    def _answered(live: LiveTable, info: dict[str, Any]) -> None:
        """A subscriber was sent ``info`` alone: if it is not the one last told to all, the next
        change tells it again (else that subscriber would keep this one). The next frames
        relayed from another process carry it in any case."""
        live.relay_due = True
        if live.info_told is not None and info_key(info) != live.info_told:
            live.info_told = None

    def subscribed_text(self, live: LiveTable, seat: int | None) -> str:
        """The answer to a subscription: the state, and the current deal's events as ``seat``
        saw them (``journal``), from which a page that was not watching (a reload, a late
        joiner, a spectator) writes its journal."""
        msg = self.state_message(live, seat)
        info = msg.pop("info")
        self._answered(live, info)
        msg["journal"] = (
            visible_events(deal_history(live.history), seat)[-JOURNAL_MAX:]
            # a delayed spectator's would run ahead of its moment: the cards played since, with
            # the hands of the moment, are the hands of now
            if live.state is not None and not msg.get("behind")
            else []
        )
        msg["info"] = info
        return dumps(msg)

    def state_message(
        self,
        live: LiveTable,
        seat: int | None,
        events: Iterable[Event] = (),
        info: dict[str, Any] | None = None,
        told: bool = False,
    ) -> dict[str, Any]:
        """``seat``'s state message; ``told``: the one of a change (``tell``), whose events a
        delayed spectator gets when its moment comes."""
        return self._message(live, seat, Shared(live, list(events), {}), info, told)

    def _message(
        self,
        live: LiveTable,
        seat: int | None,
        shared: Shared,
        info: dict[str, Any] | None = None,
        told: bool = False,
    ) -> dict[str, Any]:
        if seat is None and live.rec.spectators != HIDDEN and live.state is not None:
            return self._delayed(live, shared.events, info, told)
        rec, state = live.rec, live.state
        view = shared.views.get(seat)
        if view is None and state is not None:
            view = live.game.view(state, seat)
        shown = shared.public
        return {
            "type": "state",
            "table": rec.id,
            "version": rec.version,
            "view": view,
            # a seat a robot plays for: its person watches (and may take it back), the robot plays
            "legal": live.legal(seat)
            if shared.playing and seat is not None and seat not in rec.away
            else [],
            "to_act": shared.to_act,
            "deadline": shared.deadline,
            "over": shared.over,
            "outcome": rec.outcome if shared.over else None,
            "events": visible_events(shared.events, seat) if shown is None else shown,
            "info": info if info is not None else self.info(live),
        }

    def _delayed(
        self, live: LiveTable, events: list[Event], info: dict[str, Any] | None, told: bool
    ) -> dict[str, Any]:
        """A spectator's state at a table whose spectators see every hand, delayed
        (``spectators.py``): the moment its delay shows, every hand in it, and the events up to
        that moment only. Before there is one, the deal as it was dealt, without a hand: what
        happened since is told with the hands, never before them (the cards played since a
        moment and the hands of that moment are the hands of now)."""
        rec, game = live.rec, live.game
        mode = spectator_mode(rec.spectators)
        delay = live.delay
        if not isinstance(delay, Delay) or delay.mode != mode:
            delay = live.delay = Delay(mode)
        before = delay.seq if delay.game_no == rec.game_no else -1
        delay.follow(rec, game, live.move_seats, live.move_actions, live.seq)
        moved = delay.seq != before
        over = rec.status == FINISHED
        moment = Moment(live.seq, live.state) if over else delay.moment()
        if moment is None:
            view = game.view(delay.start, None)
            seq, shown = 0, ([] if moved or not told else visible_events(events, None))
        else:
            view = open_view(game, moment.state)
            seq = moment.seq
            if not told:
                # a new subscriber: the moment without the events before it
                delay.events_until(seq)
                shown = []
            elif moved:
                shown = delay.events_until(seq)
            else:
                shown = visible_events(events, None)
        state = moment.state if moment is not None else delay.start
        return {
            "type": "state",
            "table": rec.id,
            "version": rec.version,
            "view": view,
            "legal": [],
            "to_act": [] if over else list(game.to_act(state)),
            "deadline": None,
            "over": over,
            "outcome": rec.outcome if over else None,
            "events": shown,
            "behind": live.seq - seq,
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
        connected = {
            s.seat: s.kind == PLAYER
            and (present.get(s.player_id or 0, 0) > 0 or s.player_id in remote)
            for s in rec.seats
        }
        gone = _absent_since(watching, rec, connected)
        return {
            "id": rec.id,
            "game": rec.game,
            "title": game.title,
            "status": rec.status,
            "players": rec.players,
            "options": rec.options,
            "turn_seconds": rec.turn_seconds,
            "private": rec.private,
            # whoever is shown a private table may see it already (seated, its creator, or they
            # brought the code): they may pass the invitation on
            "invitation": rec.invitation if rec.private else None,
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
                    "connected": connected[s.seat],
                    "level": (s.level or DEBUTANT) if s.kind == BOT else None,
                    # a robot plays for the person (left, or handed over): why, since when, and
                    # whether they asked for the seat back
                    "away": _away(rec.away.get(s.seat)) if s.kind == PLAYER else None,
                    "absent_since": gone.get(s.seat),
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
            "rated": rec.rated and not rec.away and not any(s.kind == BOT for s in rec.seats),
            # the commitment from the deal on; the seed and salt once the game is over
            "shuffle": shuffle_info(rec.seed, rec.salt, rec.deck, rec.status == FINISHED),
            "spectators": rec.spectators,
            "deal_replays": rec.deal_replays,
            "robot_after": rec.robot_after,
        }


def _away(away: dict[str, Any] | None) -> dict[str, Any] | None:
    if away is None:
        return None
    return {"why": away.get("why"), "since": away.get("since"), "back": bool(away.get("back"))}


def _absent_since(
    live: LiveTable | None, rec: TableRecord, connected: dict[int, bool]
) -> dict[int, str]:
    """Since when each person sitting at a table not over has been away from it: disconnected
    (as this process saw it: since the first time it found them gone), or handed to a robot
    (since then, whether or not they watch)."""
    out: dict[int, str] = {}
    if rec.status == FINISHED:
        return out
    # a table not held here (a lobby row): only the hand-overs, whose time the record keeps
    seen = live.absent_since if live is not None else {}
    now = utcnow()
    for s in rec.seats:
        pid = s.player_id
        if s.kind != PLAYER or pid is None:
            continue
        if connected[s.seat]:
            seen.pop(pid, None)
        elif live is not None:
            seen.setdefault(pid, now)
        away = rec.away.get(s.seat)
        if away is not None and away.get("since"):
            out[s.seat] = str(away["since"])
        elif pid in seen:
            out[s.seat] = seen[pid].isoformat()
    return out


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
        elif live.seat_of(pid) is None:
            name = getattr(getattr(sub, "player", None), "name", None)
            names[pid] = str(name) if name else f"#{pid}"
    return {"count": len(names) + anonymous, "names": sorted(names.values(), key=str.casefold)}


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()
