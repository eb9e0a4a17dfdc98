"""The rules of seats and of a table's lifecycle, as edits of its record (``changes.Edit``): join,
leave, start, rematch; and the checks of a new table. Pure: the manager commits these through the
pipeline, which may run an edit again on a fresher copy."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tablee.bots.levels import DEBUTANT, LEVELS
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
        return [{"type": "player_left", "seat": seat, "name": player.name, "replaced_by": kind}]

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


def first_seats(
    players: int,
    bots: Iterable[int],
    creator: PlayerRecord | None,
    levels: Mapping[int, str] | None = None,
) -> list[SeatRecord]:
    """A new table's seats: the bots where asked (each at its robot level, by default the
    débutant), the creator in the first other seat."""
    bot_seats = _check_bots(bots, players)
    chosen = _check_levels(levels or {}, bot_seats)
    seats = [
        SeatRecord(i, BOT, level=chosen.get(i)) if i in bot_seats else SeatRecord(i, EMPTY)
        for i in range(players)
    ]
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


def _check_levels(levels: Mapping[Any, Any], bot_seats: set[int]) -> dict[int, str]:
    """The robot level of each bot seat that names one; the débutant (None) is not stored."""
    out: dict[int, str] = {}
    for seat, level in levels.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in bot_seats:
            raise InvalidOptions("bot_levels", f"seat {seat!r} is not a bot seat")
        if level not in LEVELS:
            raise InvalidOptions(
                "bot_levels", f"a robot level is one of {', '.join(LEVELS)}, not {level!r}"
            )
        if level != DEBUTANT:
            out[seat] = level
    return out
