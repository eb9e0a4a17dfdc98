"""The rules of seats and of a table's lifecycle, as edits of its record (``changes.Edit``): join,
leave, start, rematch; and the checks of a new table. Pure: the manager commits these through the
pipeline, which may run an edit again on a fresher copy."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tablee.engine import FIRST_DEALER, Event, InvalidOptions, first_dealer
from tablee.protocol import ErrorCode

from .changes import Edit, begin, refuse_closed
from .errors import TableError
from .records import BOT, EMPTY, FINISHED, PLAYER, PLAYING, WAITING, PlayerRecord, SeatRecord
from .records import TableRecord as Rec

MIN_TURN_SECONDS = 0.05
MAX_TURN_SECONDS = 86_400.0


def join(player: PlayerRecord, seat: int | None) -> Edit:
    def change(rec: Rec) -> list[Event]:
        refuse_closed(rec)
        if rec.seat_of(player.id) is not None:
            raise TableError(ErrorCode.ALREADY_SEATED, "you already sit at this table")
        if rec.status == PLAYING:
            raise TableError(ErrorCode.TABLE_FULL, "the game has started; you may watch it")
        free = [s.seat for s in rec.seats if s.kind == EMPTY]
        if not free:
            raise TableError(ErrorCode.TABLE_FULL, "every seat of this table is taken")
        if seat is None:
            chosen = free[0]
        elif not isinstance(seat, int) or not 0 <= seat < rec.players:
            raise TableError(
                ErrorCode.BAD_REQUEST,
                f"there is no seat {seat} at this table",
                ("body", "seat"),
            )
        elif seat not in free:
            raise TableError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
        else:
            chosen = seat
        rec.seats[chosen] = SeatRecord(chosen, PLAYER, player.id, player.name)
        events: list[Event] = [{"type": "player_joined", "seat": chosen, "name": player.name}]
        if rec.status == WAITING and all(s.kind != EMPTY for s in rec.seats):
            events += begin(rec)
        return events

    return change


def leave(player: PlayerRecord) -> Edit:
    """Waiting or finished: the seat becomes free. Playing: a bot takes the seat."""

    def change(rec: Rec) -> list[Event]:
        seat = rec.seat_of(player.id)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "you do not sit at this table")
        kind = BOT if rec.status == PLAYING else EMPTY
        rec.seats[seat] = SeatRecord(seat, kind)
        rec.rematch_votes = [s for s in rec.rematch_votes if s != seat]
        events: list[Event] = [
            {"type": "player_left", "seat": seat, "name": player.name, "replaced_by": kind}
        ]
        return events + end_if_nobody_left(rec)

    return change


def start(player: PlayerRecord, fill_with_bots: bool) -> Edit:
    def change(rec: Rec) -> list[Event]:
        if rec.creator_id != player.id:
            raise TableError(ErrorCode.FORBIDDEN, "only the table's creator may start it")
        if rec.status != WAITING:
            raise TableError(ErrorCode.ALREADY_STARTED, "the game has already started")
        empty = [s.seat for s in rec.seats if s.kind == EMPTY]
        if empty and not fill_with_bots:
            raise TableError(
                ErrorCode.SEATS_EMPTY,
                f"seat(s) {', '.join(map(str, empty))} are empty: wait for players,"
                " or start with fill_with_bots",
            )
        if not any(s.kind == PLAYER for s in rec.seats):
            raise TableError(ErrorCode.SEATS_EMPTY, NOBODY_SEATED)
        for s in empty:
            rec.seats[s] = SeatRecord(s, BOT)
        return begin(rec)

    return change


def rematch(player: PlayerRecord, seed: int) -> Edit:
    """A seated player's vote for a new game at the table; the game starts once every seated
    person has voted and no seat is empty. The new game is dealt from ``seed``, and its first
    deal by the seat after the one that dealt the previous game's first deal (the
    ``first_dealer`` option, kept with the table's options)."""

    def change(rec: Rec) -> list[Event]:
        seat = rec.seat_of(player.id)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "you do not sit at this table")
        if rec.status != FINISHED:
            raise TableError(ErrorCode.NOT_FINISHED, "the game is not over yet")
        refuse_closed(rec)
        if seat not in rec.rematch_votes:
            rec.rematch_votes = sorted([*rec.rematch_votes, seat])
        events: list[Event] = [{"type": "rematch_vote", "seat": seat}]
        humans = {s.seat for s in rec.seats if s.kind == PLAYER}
        if all(s.kind != EMPTY for s in rec.seats) and humans <= set(rec.rematch_votes):
            rec.game_no += 1
            rec.seed = seed
            rec.deck = None
            # the first deal moves on as every deal does: no seat keeps playing first
            dealer = (first_dealer(rec.players, rec.options) + 1) % rec.players
            rec.options = {**rec.options, FIRST_DEALER: dealer}
            rec.outcome = None
            rec.rematch_votes = []
            events += begin(rec)
        return events

    return change


#: a table is played by people: robots alone would play on for nobody (and cost every other
#: table its share of the process)
NOBODY_SEATED = (
    "Une table a besoin d'au moins une personne assise : des robots seuls ne jouent pas."
)

#: the reason of a table that ended because every person left it
ALL_LEFT = "Tout le monde est parti : la partie s'arrête."


def end_if_nobody_left(rec: Rec) -> list[Event]:
    """A game in play with no person seated any more ends at once, with no winner (its robots
    would play on for nobody), as an admin's close does (``outcome.closed``, by ``server``)."""
    if rec.status != PLAYING or any(s.kind == PLAYER for s in rec.seats):
        return []
    rec.status = FINISHED
    rec.deadline = None
    rec.rematch_votes = []
    rec.outcome = {
        "scores": [],
        "winners": [],
        "closed": True,
        "reason": ALL_LEFT,
        "by": "server",
        "status_before": PLAYING,
    }
    return [{"type": "table_closed", "seat": None, "reason": ALL_LEFT, "by": "server"}]


def first_seats(
    players: int, bots: Iterable[int], creator: PlayerRecord | None
) -> list[SeatRecord]:
    """A new table's seats: the bots where asked, the creator in the first other seat. A
    player's table needs a seat for its creator (robots alone: ``InvalidOptions`` on ``bots``);
    without a creator (the server's own tools and tests) robots may fill it."""
    bot_seats = _check_bots(bots, players)
    if creator is not None and len(bot_seats) >= players:
        raise InvalidOptions("bots", NOBODY_SEATED)
    seats = [SeatRecord(i, BOT if i in bot_seats else EMPTY) for i in range(players)]
    if creator is not None:
        for s in seats:
            if s.kind == EMPTY:
                s.kind, s.player_id = PLAYER, creator.id
                break
    return seats


def check_turn_seconds(turn_seconds: float | None) -> None:
    if turn_seconds is not None and not (MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS):
        raise InvalidOptions(
            "turn_seconds",
            f"must be null (no timer) or between {MIN_TURN_SECONDS} and"
            f" {MAX_TURN_SECONDS:g} seconds, got {turn_seconds}",
        )


def _check_bots(bots: Iterable[Any], players: int) -> set[int]:
    out: set[int] = set()
    for b in bots:
        if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b < players:
            raise InvalidOptions("bots", f"seats are numbered 0 to {players - 1}, not {b!r}")
        if b in out:
            raise InvalidOptions("bots", f"seat {b} is listed twice")
        out.add(b)
    return out
