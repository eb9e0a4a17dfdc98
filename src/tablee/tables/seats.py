"""The rules of seats and of a table's lifecycle, as edits of its record (``changes.Edit``): join,
leave, start, rematch; and the checks of a new table. Pure: the manager commits these through the
pipeline, which may run an edit again on a fresher copy."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tablee.bots.levels import DEBUTANT, LEVELS
from tablee.engine import FIRST_DEALER, Event, InvalidOptions, first_dealer
from tablee.protocol import ErrorCode

from .changes import Edit, begin, close_record, refuse_closed, set_timeouts
from .errors import TableError, unknown_table
from .live import utcnow
from .records import (
    BOT,
    EMPTY,
    FINISHED,
    LEFT,
    PLAYER,
    PLAYING,
    WAITING,
    PlayerRecord,
    SeatRecord,
)
from .records import TableRecord as Rec

MIN_TURN_SECONDS = 0.05
MAX_TURN_SECONDS = 86_400.0


def hidden_from(rec: Rec, player: PlayerRecord, invitation: str | None = None) -> None:
    """A private table is unknown to whoever neither sits there, nor created it, nor brings its
    invitation (``TableRecord.admits``): the same answer as for a table that does not exist."""
    if not rec.admits(player.id, invitation):
        raise unknown_table(rec.id)


def join(player: PlayerRecord, seat: int | None, invitation: str | None = None) -> Edit:
    """A free seat, at a private table with its invitation code only."""

    def change(rec: Rec) -> list[Event]:
        hidden_from(rec, player, invitation)
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
    """Waiting or finished: the seat becomes free. Playing: a robot plays for the player, who
    keeps the seat and may take it back (``take_back``); leaving again while it plays gives the
    seat to the robot for good."""

    def change(rec: Rec) -> list[Event]:
        hidden_from(rec, player)
        seat = rec.seat_of(player.id)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "Vous n'êtes pas assis à cette table.")
        rec.rematch_votes = [s for s in rec.rematch_votes if s != seat]
        if rec.status == PLAYING and rec.away.get(seat, {}).get("why") != LEFT:
            rec.away[seat] = {"why": LEFT, "since": utcnow().isoformat(), "back": False}
            set_timeouts(rec, seat, 0)
            return [
                {
                    "type": "player_left",
                    "seat": seat,
                    "name": player.name,
                    "replaced_by": BOT,
                    "may_return": True,
                }
            ]
        kind = BOT if rec.status == PLAYING else EMPTY
        rec.seats[seat] = SeatRecord(seat, kind)
        rec.away.pop(seat, None)
        set_timeouts(rec, seat, 0)
        events: list[Event] = [
            {"type": "player_left", "seat": seat, "name": player.name, "replaced_by": kind}
        ]
        return events + end_if_nobody_left(rec)

    return change


def take_back(player: PlayerRecord, to_act: Callable[[], Iterable[int]]) -> Edit:
    """The player takes back the seat a robot plays for them (``leave``, or the timer's
    hand-over). ``to_act``: the seats the game waits on, read when the edit is decided. The seat
    is theirs again at once when it has no decision to make; otherwise once the robot has made it
    (``changes.stand_in``, in the robot's move): a decision is never half the robot's and half
    the player's, nor made twice."""

    def change(rec: Rec) -> list[Event]:
        hidden_from(rec, player)
        seat = rec.seat_of(player.id)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "Vous n'êtes pas assis à cette table.")
        away = rec.away.get(seat)
        if away is None:
            raise TableError(
                ErrorCode.NOT_AWAY, "Aucun robot ne joue pour vous : vous tenez déjà votre place."
            )
        if rec.status == PLAYING and seat in set(to_act()):
            if away.get("back"):
                return []
            away["back"] = True
            return [{"type": "player_returning", "seat": seat, "name": player.name}]
        del rec.away[seat]
        set_timeouts(rec, seat, 0)
        return [{"type": "player_back", "seat": seat, "name": player.name}]

    return change


def start(player: PlayerRecord, fill_with_bots: bool) -> Edit:
    def change(rec: Rec) -> list[Event]:
        hidden_from(rec, player)
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


def rematch(player: PlayerRecord, seed: int, salt: str | None = None) -> Edit:
    """A seated player's vote for a new game at the table; the game starts once every seated
    person has voted and no seat is empty. The new game is dealt from ``seed``, and its first
    deal by the seat after the one that dealt the previous game's first deal (the
    ``first_dealer`` option, kept with the table's options); ``salt``: its shuffle commitment's
    (``tablee.fairness``)."""

    def change(rec: Rec) -> list[Event]:
        hidden_from(rec, player)
        seat = rec.seat_of(player.id)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "you do not sit at this table")
        if rec.status != FINISHED:
            raise TableError(ErrorCode.NOT_FINISHED, "the game is not over yet")
        refuse_closed(rec)
        if seat not in rec.rematch_votes:
            rec.rematch_votes = sorted([*rec.rematch_votes, seat])
        events: list[Event] = [{"type": "rematch_vote", "seat": seat}]
        if rec.away.pop(seat, None) is not None:
            # a person a robot played for who asks for the next game is back
            set_timeouts(rec, seat, 0)
            events.append({"type": "player_back", "seat": seat, "name": player.name})
        # a person a robot plays for does not hold the next game up (the robot plays on for them)
        humans = {s.seat for s in rec.seats if s.kind == PLAYER and s.seat not in rec.away}
        if all(s.kind != EMPTY for s in rec.seats) and humans <= set(rec.rematch_votes):
            rec.game_no += 1
            rec.seed = seed
            rec.salt = salt
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
    return close_record(rec, ALL_LEFT, "server")


#: the reason of a waiting table closed because nobody came (``TABLEE_WAITING_TABLE_TTL_SECONDS``)
NOBODY_CAME = "Personne n'est venu s'asseoir : la table est fermée."


def expire() -> Edit:
    """A waiting table nobody joined is closed (the sweep of ``TableManager``): over with no
    winner, as an admin's close (``outcome.closed``, by ``server``); the lobby shows only
    waiting and playing tables, so it leaves the lobby, and its creator's seat and waiting table
    stop counting against their bounds. Refused (``already_started``) if, by the time the edit
    runs, someone else sat down or the table started."""

    def change(rec: Rec) -> list[Event]:
        if rec.status != WAITING or any(
            s.kind == PLAYER and s.player_id != rec.creator_id for s in rec.seats
        ):
            raise TableError(ErrorCode.ALREADY_STARTED, "the table is not waiting alone any more")
        return close_record(rec, NOBODY_CAME, "server")

    return change


def first_seats(
    players: int,
    bots: Iterable[int],
    creator: PlayerRecord | None,
    levels: Mapping[int, str] | None = None,
) -> list[SeatRecord]:
    """A new table's seats: the bots where asked (each at its robot level, by default the
    débutant), the creator in the first other seat. A player's table needs a seat for its
    creator (robots alone: ``InvalidOptions`` on ``bots``); without a creator (the server's own
    tools and tests) robots may fill it."""
    bot_seats = _check_bots(bots, players)
    if creator is not None and len(bot_seats) >= players:
        raise InvalidOptions("bots", NOBODY_SEATED)
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


#: the most decisions in a row the timer may make for a person before a robot takes over
MAX_ROBOT_AFTER = 100


def check_robot_after(robot_after: int) -> None:
    if (
        isinstance(robot_after, bool)
        or not isinstance(robot_after, int)
        or not 0 <= robot_after <= MAX_ROBOT_AFTER
    ):
        raise InvalidOptions(
            "robot_after",
            f"doit être un entier de 0 (jamais) à {MAX_ROBOT_AFTER}, pas {robot_after!r}",
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
