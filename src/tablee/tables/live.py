"""A table held in memory: its record, its game state, its subscribers and its tasks; and what a
connection must be to receive its states.

The seats the game waits on (``to_act``) and each seat's legal actions are asked of the game once
per state and kept with it: a move reads them to set the deadline, the fan-out to build every
seat's state, the scheduler to find its bots, and the next move to compare with; a state is never
changed in place (``apply`` returns a new one), so its answers hold for as long as it is current.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import json.encoder
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from operator import attrgetter
from typing import Any, Protocol

from tablee.engine import Action, Event, Game
from tablee.protocol import ErrorCode

from .records import PLAYER, PLAYING, LoggedAction, SeatRecord, TableRecord

#: the answers to players' moves a table remembers (their idempotency keys): a re-sent ``act`` is
#: a retry of one of the last moves, never of a move this far back
REMEMBERED_REQUESTS = 512

#: the first answer to a move: the version it made (an ``ack``), or the refusal (code, message)
Answer = int | tuple[ErrorCode, str]

#: a table record's fields but those every state carries itself (``fanout._OWN_KEYS``): when
#: one of them changes, the table's ``info`` may have
_INFO_FIELDS = attrgetter(
    *(f.name for f in dataclasses.fields(TableRecord) if f.name not in ("version", "deadline"))
)

#: the legal actions kept for a seat that has none (most seats, most of the time): one list for
#: all, rather than an empty list per seat and state that lives as long as its state
_NO_ACTIONS: list[Action] = []

#: what ``json.dumps(..., sort_keys=True)`` encodes with, made once: ``dumps`` builds a new
#: encoder on every call given any option (the same text, a third of the cost of a key)
_KEY_ENCODER = json.JSONEncoder(sort_keys=True)
#: its C encoder itself, made once too (``encode`` makes one a call, half of what is left); no
#: check for cycles: what it encodes was read from JSON. None where the interpreter has none
_MAKE_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)
_KEY_CHUNKS: Callable[[Any, int], Sequence[str]] | None = (
    None
    if _MAKE_ENCODER is None
    else _MAKE_ENCODER(
        None,
        _KEY_ENCODER.default,
        json.encoder.encode_basestring_ascii,
        None,
        _KEY_ENCODER.key_separator,
        _KEY_ENCODER.item_separator,
        True,
        False,
        True,
    )
)


def request_key(
    player_id: int, message_id: Any, action: Any = None, version: int | None = None
) -> str | None:
    """A move's idempotency key: the player and the ``act`` as sent (its id, action and expected
    version), hashed to a fixed size (an id may be long; the key is stored with the log row).
    None: no id, no key.

    A retry sends the very same ``act``; a client that numbers its moves from 1 on every
    connection sends a new move with an old id but another action or version, which must not
    be taken for a retry (with ``version`` that can never happen: versions only grow)."""
    if message_id is None:
        return None
    # json, not orjson: an id may hold an integer beyond 64 bits; and the text of the keys
    # already stored with the log's rows (a move sent again after a restart finds its key)
    sent = [player_id, message_id, action, version]
    text = _KEY_ENCODER.encode(sent) if _KEY_CHUNKS is None else "".join(_KEY_CHUNKS(sent, 0))
    return hashlib.sha256(text.encode()).hexdigest()


class Subscriber(Protocol):
    """A connection that receives a table's states. ``send`` must not block (it queues)."""

    @property
    def player_id(self) -> int | None: ...

    def send(self, text: str) -> None: ...


#: the events of the current deal a subscriber is sent at most (its journal shows no more)
JOURNAL_MAX = 300


def deal_history(events: list[Event]) -> list[Event]:
    """The current deal's events among a game's ``events``: from its last ``deal`` event on (the
    whole game when no deal was dealt since its start)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "deal":
            return events[i:]
    return events


#: how many of a finished game's events (and actions) are freed a turn of the event loop
FREE_CHUNK = 256


def let_go(*lists: list[Any]) -> None:
    """``lists`` (a finished game's events and actions: a thousand objects or more) are emptied a
    chunk a turn of the event loop, after the change that let go of them has sent its frames,
    rather than at once while the moves queued behind it wait (``bench/votes.py``: the vote that
    deals, p50 0.6-1.0 ms and up to 4.6 freeing them at once, 0.3 and at most 0.45 so). They are
    the caller's no more: emptied in place (a copy would touch every item too, for half the
    cost). Without a running loop, nothing is done: they are freed with their last reference."""
    with contextlib.suppress(RuntimeError):  # no running loop
        loop = asyncio.get_running_loop()
        for items in lists:
            if items:
                loop.call_soon(_free_chunk, items)


def _free_chunk(items: list[Any]) -> None:
    del items[-FREE_CHUNK:]
    if items:
        asyncio.get_running_loop().call_soon(_free_chunk, items)


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclasses.dataclass(frozen=True)
class Frames:
    """A change's frames as the table's home hands them to the other processes."""

    version: int
    #: the person sitting at each seat then (None: nobody, or a robot)
    seats: list[int | None]
    #: each seat's state without its ``info`` and closing brace (``None``: the spectators')
    parts: dict[int | None, str]
    #: the table's info, as it ends a state: ``',"info":{...}}'``
    info: str
    #: the info changed since the home's last change (else a state ends with ``"}"``)
    info_changed: bool


class LiveTable:
    def __init__(self, rec: TableRecord, game: Game, state: Any, seq: int) -> None:
        self.rec = rec
        self.game = game
        self.state = state
        #: actions in the current game's log
        self.seq = seq
        self.lock = asyncio.Lock()
        #: each subscriber, and the version of the state it was last sent alone (subscribing,
        #: ``sync``): a change relayed from the home at or below it is not sent to it
        self.subscribers: dict[Subscriber, int] = {}
        #: live subscriptions per player (several tabs are fine)
        self.presence: Counter[int] = Counter()
        #: since when each seated person not connected has been seen so (``fanout.info``)
        self.absent_since: dict[int, datetime] = {}
        self.timer: asyncio.TimerHandle | None = None
        self.bot_task: asyncio.Task[None] | None = None
        #: the current game's events, as its moves told them (rebuilt from the log when the table
        #: is loaded): a confirmé robot reads the current deal's, as its seat saw them
        self.history: list[Event] = []
        #: the current game's log, each move's seat and action (rebuilt with ``history``): what a
        #: delayed spectator's shadow game replays (``spectators.py``). Two lists, not one of
        #: pairs: a pair holding an action is tracked by the garbage collector for as long as the
        #: game lasts, one object more a move
        self.move_seats: list[int] = []
        self.move_actions: list[Action] = []
        #: that shadow game, while the table has spectators and delays them
        self.delay: Any = None
        #: the table's ``info`` as the last change told it (``fanout.info_key``): a change
        #: whose info is the same leaves it out of its states; None: tell it
        self.info_told: str | None = None
        #: something ``info`` is made of changed since it was last built for a change (the
        #: record but its version and deadline, the subscribers, their presence): the next
        #: change builds it again to see; else it is known to be the one told
        self.info_dirty = True
        #: the record's fields ``info`` is made of (``_INFO_FIELDS``) as ``advance`` last read
        #: them: a new record is compared with these, the older record not read again (cold by
        #: then, it was most of the comparison's cost)
        self._info_fields = _INFO_FIELDS(rec)
        #: what else ``info`` was built from then (``fanout.tell``): the players connected
        #: through other processes, and the watchers without a seat (id, name)
        self.info_remote: frozenset[int] | None = None
        self.info_watchers: tuple[tuple[int | None, str | None], ...] = ()
        #: the info last built (a home relaying hands it on at each change's version and deadline)
        self.info_last: dict[str, Any] | None = None
        #: the newest version this process's subscribers were shown (told, relayed, or the
        #: version of their subscription): a change at or below it is not told them again
        self.shown = rec.version
        #: the next frames relayed from the table's home carry the info (a subscriber here was
        #: answered one that may not be the one they last told)
        self.relay_due = False
        #: away from the home, the frames relayed while the copy was being read (``keeping``)
        #: or shortly after (until ``keep_until``, monotonic: a subscription reads twice, the
        #: lock let go between): the copy read may be behind them, and a socket subscribing on
        #: it is sent those past its version after its state (the sockets here had them)
        self.relays: list[Frames] = []
        self.keeping = False
        self.keep_until = 0.0
        #: away from the home, the events of the home's moves the copy read ahead of their
        #: relayed frames, not told here (the frames bring them); told if the frames never come
        self.untold: list[Event] = []
        #: the state the answers below belong to
        self._known: Any = None
        self._to_act: tuple[int, ...] | None = None
        self._legal: dict[int, list[Action]] = {}
        #: the first answer to each recent move by its idempotency key (``request_key``)
        self.requests: OrderedDict[str, Answer] = OrderedDict()
        #: each seated person's seat (``seat_of``), and the seats it was read from
        self._seated: dict[int | None, int] = {}
        self._seated_from: list[SeatRecord] | None = None

    def remember(self, key: str | None, answer: Answer) -> None:
        if key is None or key in self.requests:
            return
        self.requests[key] = answer
        if len(self.requests) > REMEMBERED_REQUESTS:
            self.requests.popitem(last=False)

    def remember_rows(self, rows: list[LoggedAction]) -> None:
        """The keys of logged moves (loaded, or caught up with from another process)."""
        for row in rows:
            self.remember(row.request, row.version)

    def log_rows(self, rows: list[LoggedAction]) -> None:
        """Logged moves of the current game, after those already held (``move_seats``)."""
        for row in rows:
            self.log_move(row.seat, row.action)

    def log_move(self, seat: int, action: Action) -> None:
        self.move_seats.append(seat)
        self.move_actions.append(action)

    @property
    def id(self) -> int:
        return self.rec.id

    def seat_of(self, player_id: int) -> int | None:
        """``rec.seat_of``, which a move asks for several times (its checks, each subscriber's
        state): read once for the record's seats. A move's record shares them with the record
        before it and an edit's has new ones: a table's record never has its seats changed in
        place."""
        seats = self.rec.seats
        if seats is not self._seated_from:
            self._seated = {}
            for s in seats:
                if s.kind == PLAYER:
                    self._seated.setdefault(s.player_id, s.seat)
            self._seated_from = seats
        return self._seated.get(player_id)

    def to_act(self) -> tuple[int, ...]:
        """The seats the table waits on: none unless a game is being played."""
        if self.state is None or self.rec.status != PLAYING:
            return ()
        if self._known is self.state and self._to_act is not None:
            return self._to_act
        return self.waiting()

    def waiting(self) -> tuple[int, ...]:
        """The game's own ``to_act`` of the current state, whatever the table's status."""
        if self._known is not self.state:
            self._forget()
        if self._to_act is None:
            self._to_act = tuple(self.game.to_act(self.state))
        return self._to_act

    def legal(self, seat: int) -> list[Action]:
        """The game's legal actions of ``seat`` in the current state (shared: not to be changed)."""
        if self._known is not self.state:
            self._forget()
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = self.game.legal_actions(self.state, seat) or _NO_ACTIONS
        return found

    def advance(
        self,
        rec: TableRecord,
        state: Any,
        seq: int,
        to_act: tuple[int, ...] | None = None,
        legal: dict[int, list[Action]] | None = None,
    ) -> None:
        """The table at a new version, with what is already known of its state. Another game
        (or none) starts its ``history`` afresh."""
        if state is None or self.state is None or rec.game_no != self.rec.game_no:
            let_go(self.history, self.move_actions)
            self.history = []
            self.move_seats = []
            self.move_actions = []
        if rec is not self.rec:
            fields = _INFO_FIELDS(rec)
            if fields != self._info_fields:
                self.info_dirty = True
            self._info_fields = fields
        self.rec, self.seq = rec, seq
        if state is not self.state:
            self.state = state
            self._known = state
            self._to_act = to_act
            self._legal = dict(legal) if legal else {}

    def _forget(self) -> None:
        """The state was set from outside ``advance`` (tests, replays): nothing is known of it."""
        self._known = self.state
        self._to_act = None
        self._legal = {}
