"""What a change of a table is, decided on the table as it is in memory (no I/O here).

Every change goes through the one commit path (``pipeline.py``): a *decision* reads the live table
and returns a ``Change`` — the table's next record (version + 1), its game state, the events to
tell, and for a move the log row — or raises ``TableError`` and changes nothing. There are two
kinds of decision:

- a move (``move``): a seat's action applied by the game, logged with its source (``player``,
  ``timer``, ``bot``); the deadline follows the seats the game waits on;
- an edit (``edit``) of the table's record: seats, lifecycle, timer, names (``seats.py``,
  ``admin.py``); an edit that starts a game deals it from the record's seed.

Decisions are pure functions of the live table, so the pipeline may decide again on a fresher
copy when another process wrote first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from tablee.engine import Action, Event, Game, IllegalAction
from tablee.fairness import commitment
from tablee.protocol import ErrorCode

from .errors import Repeated, TableError
from .live import LiveTable, utcnow
from .records import FINISHED, PLAYER, PLAYING, TIMEOUT, WAITING, LoggedAction, TableRecord

_T = TypeVar("_T")

#: an edit of a table's record (a copy): changes it, or raises ``TableError``; returns the events
Edit = Callable[[TableRecord], list[Event]]


@dataclass
class Change:
    #: the table's record at its next version
    rec: TableRecord
    state: Any
    #: actions in the current game's log
    seq: int
    #: what the subscribers are told (each sees those its seat may see)
    events: list[Event]
    #: for a move: its log row (None: an edit, which writes the record and its seats)
    move: LoggedAction | None = None
    #: the ``deal_end`` events of the move, kept as the table's per-deal scores
    deal_events: list[Event] = field(default_factory=list)
    #: what the decision already asked the game of the new state (``to_act``, legal actions)
    to_act: tuple[int, ...] | None = None
    legal: dict[int, list[Action]] = field(default_factory=dict)


Decision = Callable[[LiveTable], Change]


def move(seat: int, action: Any, source: str) -> Decision:
    """The decision of a seat's action (the caller checked that the seat is the one to move)."""
    return lambda live: move_change(live, seat, action, source)


def edit(change: Edit) -> Decision:
    return lambda live: edit_change(live, change)


def player_move(
    player_id: int, action: Any, request: str | None = None, version: int | None = None
) -> Decision:
    """A player's action, at the seat the player holds at that moment. ``request``: its
    idempotency key (a key the table knows raises ``Repeated``: decided under the table's turn,
    after catching up with the other processes, so a retry is never applied twice); ``version``:
    the table's version the player decided on (another one: ``stale_version``)."""

    def decide(live: LiveTable) -> Change:
        rec = live.rec
        if request is not None and request in live.requests:
            raise Repeated(live.requests[request])
        if version is not None and version != rec.version:
            raise TableError(
                ErrorCode.STALE_VERSION,
                f"the table is at version {rec.version}, not {version}: nothing was played",
            )
        seat = live.seat_of(player_id)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "you do not sit at this table")
        if rec.status == WAITING:
            raise TableError(ErrorCode.NOT_STARTED, "the game has not started yet")
        if rec.status == FINISHED:
            refuse_closed(rec)
            raise TableError(ErrorCode.TABLE_OVER, "the game is over")
        if seat in rec.away:
            raise TableError(
                ErrorCode.ROBOT_PLAYS,
                "Un robot joue à votre place : reprenez d'abord votre place.",
            )
        return move_change(live, seat, action, "player", request)

    return decide


def move_change(
    live: LiveTable, seat: int, action: Any, source: str, request: str | None = None
) -> Change:
    rec, state, game = live.rec, live.state, live.game
    try:
        new_state, events = game.apply(state, seat, action)
    except IllegalAction as exc:
        raise TableError.refused(exc) from None
    # a move replaces the record's lists and dicts that it changes and never changes one in
    # place: the new record shares the others (the seats above all) with the one before, which
    # spares five copies a move and the garbage collector the objects they would keep alive
    new = _shallow(rec)
    new.version += 1
    seq = live.seq + 1
    now = utcnow()
    after: tuple[int, ...] = ()
    legal: dict[int, list[Action]] = {}
    if game.is_over(new_state):
        new.status = FINISHED
        new.outcome = game.outcome(new_state) or {}
        new.deadline = None
        new.rematch_votes = []
        new.wins = list(rec.wins)
        for w in new.outcome.get("winners") or []:
            if isinstance(w, int) and 0 <= w < len(new.wins):
                new.wins[w] += 1
    else:
        before = live.waiting()
        after = tuple(game.to_act(new_state))
        # a seat that decided and has a new decision to make (a contest, then its play) gets its
        # time again; not after the table's own move, which goes on at once (a draw, then play or
        # pass), nor after a move that left its choices as they were (a false "Carte !"
        # accusation with nothing left to draw must not buy time)
        again = False
        if source != "timer" and seat in before and seat in after:
            legal[seat] = game.legal_actions(new_state, seat)
            again = legal[seat] != live.legal(seat)
        new.deadline = deadline(new, before, after, rec.deadline, now, again)
    told = announced(new, seat, source, events)
    if new.status == PLAYING:
        told += stand_in(new, rec, seat, source, after, now)
    else:
        # the game is over: nothing is left to decide, a seat asked back is its person's again
        for back in [s for s, a in new.away.items() if a.get("back")]:
            new.away = _without(new.away, back)
            told.append({"type": "player_back", "seat": back, "name": new.seats[back].name})
    deal_events = [e for e in events if e.get("type") == "deal_end" and "to" not in e]
    return Change(
        new,
        new_state,
        seq,
        told,
        move=LoggedAction(seq, seat, action, source, now, request=request),
        deal_events=deal_events,
        to_act=after,
        legal=legal,
    )


def edit_change(live: LiveTable, change: Edit) -> Change:
    """A seat or lifecycle change, made on a copy of the record."""
    rec = copy_record(live.rec)
    events = change(rec)
    rec.version += 1
    state, seq, to_act = live.state, live.seq, None
    if rec.status == PLAYING and (live.rec.status != PLAYING or rec.game_no != live.rec.game_no):
        state, seq = live.game.new(rec.players, rec.options, seed=rec.seed, deck=rec.deck), 0
        to_act = tuple(live.game.to_act(state))
        rec.deadline = deadline(rec, (), to_act, None)
    return Change(rec, state, seq, events, to_act=to_act)


def replay(
    rec: TableRecord, game: Game, state: Any, after: int, rows: Iterable[LoggedAction]
) -> tuple[Any, int, list[Event]]:
    """``state`` (at ``after`` actions; None: a new deal) with the logged ``rows`` applied: the
    new state, its action count, and the events of the rows."""
    if state is None:
        state, after = game.new(rec.players, rec.options, seed=rec.seed, deck=rec.deck), 0
    events: list[Event] = []
    seq = after
    for row in rows:
        state, evs = game.apply(state, row.seat, row.action)
        events.extend(announced(rec, row.seat, row.source, evs))
        seq = row.seq
    return state, seq, events


def stand_in(
    new: TableRecord,
    rec: TableRecord,
    seat: int,
    source: str,
    after: tuple[int, ...],
    now: datetime,
) -> list[Event]:
    """What a move at ``seat`` does to the robots standing in for people (on ``new``, the next
    record): the person's count of decisions the timer made in a row (one more when the timer
    ended a decision of theirs, none when they played), their hand-over to a robot at
    ``robot_after``; and the take-back the person asked for while the robot had this decision to
    make, which applies now that it is made (in the same commit as the robot's move: no move of
    that seat is lost or made twice). Returns the events to tell. ``new`` shares its lists and
    dicts with ``rec`` (``move_change``): they are replaced, never changed in place."""
    held = new.seats[seat]
    if held.kind != PLAYER:
        return []
    name = held.name
    away = new.away.get(seat)
    if away is not None:
        if not away.get("back"):
            return []
        new.away = _without(new.away, seat)
        set_timeouts(new, seat, 0)
        return [{"type": "player_back", "seat": seat, "name": name}]
    if source == "player":
        set_timeouts(new, seat, 0)
        return []
    # a timer's move ends the decision it timed out when the seat has nothing more to decide, or
    # a new decision with its own time (a draw then a play under the one deadline counts once)
    if source != "timer" or (seat in after and new.deadline == rec.deadline):
        return []
    count = (new.timeouts[seat] if seat < len(new.timeouts) else 0) + 1
    if new.robot_after <= 0 or count < new.robot_after:
        set_timeouts(new, seat, count)
        return []
    set_timeouts(new, seat, 0)
    new.away = {**new.away, seat: {"why": TIMEOUT, "since": now.isoformat(), "back": False}}
    return [{"type": "handed_to_robot", "seat": seat, "name": name, "timeouts": count}]


def away_news(old: TableRecord, new: TableRecord) -> list[Event]:
    """The events of the robots standing in for people between two records of a table, for a
    process that catches up with changes another one made (their events are told by the process
    that made them only): who left, who was handed over, who asked for their seat back, who has
    it back. The same events as ``stand_in`` and ``seats.leave``/``take_back`` tell."""
    out: list[Event] = []
    if old.game_no != new.game_no or len(old.seats) != len(new.seats):
        return out
    for seat, held in enumerate(new.seats):
        before, now = old.away.get(seat), new.away.get(seat)
        if held.kind != PLAYER or held.player_id != old.seats[seat].player_id:
            continue
        name = held.name
        if before is None and now is not None:
            if now.get("why") == TIMEOUT:
                out.append(
                    {
                        "type": "handed_to_robot",
                        "seat": seat,
                        "name": name,
                        "timeouts": new.robot_after,
                    }
                )
            else:
                out.append(
                    {
                        "type": "player_left",
                        "seat": seat,
                        "name": name,
                        "replaced_by": "bot",
                        "may_return": True,
                    }
                )
        if now is not None and now.get("back") and not (before or {}).get("back"):
            out.append({"type": "player_returning", "seat": seat, "name": name})
        if before is not None and now is None:
            out.append({"type": "player_back", "seat": seat, "name": name})
    return out


def set_timeouts(rec: TableRecord, seat: int, count: int) -> None:
    # a new list, or none when the count is already that (a player's move, nearly every one): a
    # move's record shares its list with the record before it (``move_change``)
    timeouts = rec.timeouts
    if len(timeouts) >= rec.players and timeouts[seat] == count:
        return
    timeouts = [*timeouts, *[0] * (rec.players - len(timeouts))]
    timeouts[seat] = count
    rec.timeouts = timeouts


def _without(away: dict[int, dict[str, Any]], seat: int) -> dict[int, dict[str, Any]]:
    return {s: a for s, a in away.items() if s != seat}


def copy_record(rec: TableRecord) -> TableRecord:
    # shallow copies, then new lists for what edits change in place (``dataclasses.replace``
    # re-runs ``__init__``, several times slower)
    new = _shallow(rec)
    new.seats = [_shallow(s) for s in rec.seats]
    new.wins = list(rec.wins)
    new.rematch_votes = list(rec.rematch_votes)
    new.away = {seat: dict(a) for seat, a in rec.away.items()} if rec.away else {}
    new.timeouts = list(rec.timeouts)
    return new


def _shallow(obj: _T) -> _T:
    """``copy.copy`` of a plain dataclass without its ``__reduce_ex__`` round trip, which costs
    several times more (a copy a move)."""
    new: _T = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def closed_reason(rec: TableRecord) -> str | None:
    """Why an admin closed the table (it stays over for good); None when it was not closed."""
    outcome = rec.outcome or {}
    if rec.status != FINISHED or not outcome.get("closed"):
        return None
    return str(outcome.get("reason") or "no reason given")


def close_record(
    rec: TableRecord, reason: str, by: str, scores: list[Any] | None = None
) -> list[Event]:
    """Ends the table with no winner, as closed (an admin's close, or the server's: nobody came,
    everybody left): ``outcome.closed`` with why, by whom and the status it had; the event."""
    before = rec.status
    rec.status = FINISHED
    rec.deadline = None
    rec.rematch_votes = []
    rec.outcome = {
        "scores": [] if scores is None else scores,
        "winners": [],
        "closed": True,
        "reason": reason,
        "by": by,
        "status_before": before,
    }
    return [{"type": "table_closed", "seat": None, "reason": reason, "by": by}]


def refuse_closed(rec: TableRecord) -> None:
    reason = closed_reason(rec)
    if reason is not None:
        raise TableError(ErrorCode.TABLE_OVER, f"an admin closed this table: {reason}")


def announced(rec: TableRecord, seat: int, source: str, events: list[Event]) -> list[Event]:
    """A move's events, told after an ``auto`` event when the table moved for a person whose
    time ran out: the game's own events read the same whoever chose the move, and the players
    must be able to tell that nobody at that seat did. (A bot's seat whose time ran out is no
    news: a bot's moves are the table's anyway.)"""
    if source != "timer" or rec.seats[seat].kind != PLAYER:
        return events
    return [{"type": "auto", "seat": seat, "source": source}, *events]


def begin(rec: TableRecord) -> list[Event]:
    """Marks the record as playing a new game (the edit's change deals it). Its event publishes
    the shuffle's commitment (``tablee.fairness``): the deal is fixed before the first move."""
    rec.status = PLAYING
    rec.outcome = None
    event: Event = {"type": "game_started", "game_no": rec.game_no}
    if rec.salt is not None:
        event["commitment"] = commitment(rec.seed, rec.salt)
        event["stacked"] = rec.deck is not None
    return [event]


def deadline(
    rec: TableRecord,
    before: tuple[int, ...],
    after: tuple[int, ...],
    current: datetime | None,
    now: datetime | None = None,
    renew: bool = False,
) -> datetime | None:
    if rec.turn_seconds is None or not after:
        return None
    if current is None or renew or set(before) != set(after):
        return (now or utcnow()) + timedelta(seconds=rec.turn_seconds)
    return current
