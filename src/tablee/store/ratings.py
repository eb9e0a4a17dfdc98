"""Ratings in the database: the rating of a finished game, written in the transaction that writes
its result; the recomputation from the stored results; the reads of profiles and leaderboards.

A game is rated when its table is rated ("classée") and every seat was a person's from the first
move to the last: no robot seat at the end, and no move of this game made by a robot (a seat
handed to a robot mid-game). ``tablee.ratings`` does the arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Integer, bindparam, cast, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from tablee.ratings import Skill, rate
from tablee.tables.records import PLAYER, PlayerRecord, TableRecord

from . import models as m
from .names import name_key
from .rows import player_record as _player


class Engine(Protocol):
    """What the ratings' reads need of the store (``repo.Store``, which is not imported here:
    the store's writer imports this module)."""

    @property
    def engine(self) -> AsyncEngine: ...

    def session(self) -> AsyncSession: ...


RATINGS = m.cast_table(m.Rating)
CHANGES = m.cast_table(m.RatingChange)
ACTIONS = m.cast_table(m.ActionRow)
RESULTS = m.cast_table(m.Result)
RESULT_SEATS = m.cast_table(m.ResultSeat)


# A game's end is written in the moves' group commit (on SQLite in its thread, every move queued
# behind it waiting): its statements are built once, and its players' rows go in one statement
# each rather than one a player (a four-player game's end: 16 statements, 2.8 ms of CPU, before)
_ROBOT_MOVE = (
    select(ACTIONS.c.seq)
    .where(
        ACTIONS.c.table_id == bindparam("table_id"),
        ACTIONS.c.game_no == bindparam("game_no"),
        ACTIONS.c.source == "bot",
    )
    .limit(1)
)
_KNOWN = select(RATINGS.c.player_id, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.played).where(
    RATINGS.c.game == bindparam("game"),
    RATINGS.c.player_id.in_(bindparam("players", expanding=True)),
)
_KNOWN_LOCKED = _KNOWN.with_for_update()  # two games of one player finishing on two processes
_UPDATE = (
    update(RATINGS)
    .where(RATINGS.c.player_id == bindparam("b_player"), RATINGS.c.game == bindparam("b_game"))
    .values(
        mu=bindparam("mu"),
        sigma=bindparam("sigma"),
        played=bindparam("played"),
        updated_at=bindparam("updated_at"),
    )
)
_INSERT = insert(RATINGS)
_CHANGE = insert(CHANGES)


def counts(conn: Connection, t: TableRecord) -> bool:
    """Whether the game just finished at ``t`` is rated (its actions are written already)."""
    if not t.rated or not t.seats:
        return False
    people = [s.player_id for s in t.seats if s.kind == PLAYER and s.player_id is not None]
    if len(people) != len(t.seats) or len(set(people)) != len(people):
        return False
    robot = conn.scalar(_ROBOT_MOVE, {"table_id": t.id, "game_no": t.game_no})
    return robot is None


def rate_game(
    conn: Connection,
    table_id: int,
    game_no: int,
    game: str,
    outcome: dict[str, Any],
    players: Sequence[int],
    at: datetime,
) -> None:
    """The ratings of the players (one per seat, in seat order) after this game, and the history
    rows of what it changed."""
    q = _KNOWN_LOCKED if conn.dialect.name == "postgresql" else _KNOWN
    known = {r.player_id: r for r in conn.execute(q, {"game": game, "players": list(players)})}
    before = [Skill(known[p].mu, known[p].sigma) if p in known else Skill() for p in players]
    after = rate(game, len(players), outcome, before)
    updated: list[dict[str, Any]] = []
    added: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    for seat, (p, old, new) in enumerate(zip(players, before, after, strict=True)):
        if p in known:
            updated.append(
                {
                    "b_player": p,
                    "b_game": game,
                    "mu": new.mu,
                    "sigma": new.sigma,
                    "played": known[p].played + 1,
                    "updated_at": at,
                }
            )
        else:
            added.append(
                {
                    "player_id": p,
                    "game": game,
                    "mu": new.mu,
                    "sigma": new.sigma,
                    "played": 1,
                    "updated_at": at,
                }
            )
        changes.append(
            {
                "table_id": table_id,
                "game_no": game_no,
                "seat": seat,
                "player_id": p,
                "game": game,
                "mu_before": old.mu,
                "sigma_before": old.sigma,
                "mu_after": new.mu,
                "sigma_after": new.sigma,
                "at": at,
            }
        )
    if updated:
        conn.execute(_UPDATE, updated)
    if added:
        conn.execute(_INSERT, added)
    conn.execute(_CHANGE, changes)


def recompute(conn: Connection) -> int:
    """Every rating and its history rebuilt from the rated results, oldest first; how many games
    were rated."""
    conn.execute(delete(CHANGES))
    conn.execute(delete(RATINGS))
    results = (
        conn.execute(
            select(
                RESULTS.c.table_id,
                RESULTS.c.game_no,
                RESULTS.c.game,
                RESULTS.c.outcome,
                RESULTS.c.finished_at,
            )
            .where(RESULTS.c.rated.is_(True))
            .order_by(RESULTS.c.finished_at, RESULTS.c.table_id, RESULTS.c.game_no)
        )
    ).all()
    seats: dict[tuple[int, int], list[int]] = {}
    rows = (
        conn.execute(
            select(RESULT_SEATS.c.table_id, RESULT_SEATS.c.game_no, RESULT_SEATS.c.player_id)
            .where(RESULT_SEATS.c.player_id.is_not(None))
            .order_by(RESULT_SEATS.c.table_id, RESULT_SEATS.c.game_no, RESULT_SEATS.c.seat)
        )
    ).all()
    for table_id, game_no, player_id in rows:
        seats.setdefault((table_id, game_no), []).append(player_id)
    for r in results:
        rate_game(
            conn,
            r.table_id,
            r.game_no,
            r.game,
            r.outcome,
            seats[(r.table_id, r.game_no)],
            r.finished_at,
        )
    return len(results)


# -- reads ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingRow:
    player_id: int
    name: str
    game: str
    mu: float
    sigma: float
    #: rated games
    played: int
    #: games won at this game (rated or not)
    won: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


async def stored(conn: AsyncConnection) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating and every history row, in a fixed order (tests compare a recomputation)."""
    ratings = (
        await conn.execute(select(RATINGS).order_by(RATINGS.c.player_id, RATINGS.c.game))
    ).all()
    changes = (
        await conn.execute(
            select(CHANGES).order_by(CHANGES.c.table_id, CHANGES.c.game_no, CHANGES.c.seat)
        )
    ).all()
    return [tuple(r[:-1]) for r in ratings], [tuple(c[:-1]) for c in changes]


class RatingStore:
    """The ratings' reads and the recomputation, over the store's engine."""

    def __init__(self, store: Engine) -> None:
        self.store = store

    async def recompute(self) -> int:
        async with self.store.engine.begin() as conn:
            return await conn.run_sync(recompute)

    async def stored(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        async with self.store.engine.connect() as conn:
            return await stored(conn)

    async def player_named(self, name: str) -> PlayerRecord | None:
        """The player whose name has the key of ``name`` (any case, look-alikes)."""
        async with self.store.session() as s:
            row = await s.scalar(select(m.Player).where(m.Player.name_key == name_key(name)))
            return None if row is None else _player(row)

    async def profile(self, player_id: int, last: int) -> dict[str, Any]:
        """Games played and won per game, the ratings, their history (oldest first) and the
        ``last`` games finished (newest first). A private table's games count, but the page is
        public: their table is not named (its number would lead past the invitation)."""
        won = func.sum(cast(m.ResultSeat.won, Integer))
        async with self.store.session() as s:
            per_game = (
                await s.execute(
                    select(m.Result.game, func.count(), won)
                    .join(
                        m.ResultSeat,
                        (m.ResultSeat.table_id == m.Result.table_id)
                        & (m.ResultSeat.game_no == m.Result.game_no),
                    )
                    .where(m.ResultSeat.player_id == player_id)
                    .group_by(m.Result.game)
                    .order_by(m.Result.game)
                )
            ).all()
            ratings = {
                r.game: r
                for r in (
                    await s.scalars(select(m.Rating).where(m.Rating.player_id == player_id))
                ).all()
            }
            history = (
                await s.execute(
                    select(m.RatingChange, m.Table.private)
                    .join(m.Table, m.Table.id == m.RatingChange.table_id)
                    .where(m.RatingChange.player_id == player_id)
                    .order_by(m.RatingChange.at, m.RatingChange.table_id, m.RatingChange.game_no)
                )
            ).all()
            games = (
                await s.execute(
                    select(
                        m.Result,
                        m.ResultSeat.seat,
                        m.ResultSeat.won,
                        m.ResultSeat.score,
                        m.Table.private,
                    )
                    .join(
                        m.ResultSeat,
                        (m.ResultSeat.table_id == m.Result.table_id)
                        & (m.ResultSeat.game_no == m.Result.game_no),
                    )
                    .join(m.Table, m.Table.id == m.Result.table_id)
                    .where(m.ResultSeat.player_id == player_id)
                    .order_by(m.Result.finished_at.desc(), m.Result.table_id.desc())
                    .limit(last)
                )
            ).all()

        def rating(game: str) -> dict[str, Any] | None:
            r = ratings.get(game)
            if r is None:
                return None
            return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma, "rated": r.played}

        return {
            "games": [
                {"game": g, "played": int(p), "won": int(w or 0), "rating": rating(g)}
                for g, p, w in per_game
            ],
            "history": [
                {
                    "game": h.game,
                    "table_id": None if private else h.table_id,
                    "game_no": None if private else h.game_no,
                    "at": h.at.isoformat(),
                    "mu": h.mu_after,
                    "sigma": h.sigma_after,
                    "ordinal": h.mu_after - 3 * h.sigma_after,
                    "change": (h.mu_after - 3 * h.sigma_after) - (h.mu_before - 3 * h.sigma_before),
                }
                for h, private in history
            ],
            "last_games": [
                {
                    "table_id": None if private else r.table_id,
                    "game_no": None if private else r.game_no,
                    "private": bool(private),
                    "game": r.game,
                    "finished_at": r.finished_at.isoformat(),
                    "seat": seat,
                    "won": won_,
                    "score": score,
                    "rated": r.rated,
                }
                for r, seat, won_, score, private in games
            ],
        }

    async def leaderboard(self, game: str, min_games: int, limit: int) -> list[RatingRow]:
        """Players by conservative rating (mu - 3 sigma) at ``game``, among those with at least
        ``min_games`` rated games; their wins at that game beside."""
        wins = (
            select(m.ResultSeat.player_id, func.count().label("won"))
            .join(
                m.Result,
                (m.Result.table_id == m.ResultSeat.table_id)
                & (m.Result.game_no == m.ResultSeat.game_no),
            )
            .where(m.Result.game == game, m.ResultSeat.won.is_(True))
            .group_by(m.ResultSeat.player_id)
            .subquery()
        )
        ordinal = m.Rating.mu - 3 * m.Rating.sigma
        q = (
            select(m.Rating, m.Player.name, wins.c.won)
            .join(m.Player, m.Player.id == m.Rating.player_id)
            .outerjoin(wins, wins.c.player_id == m.Rating.player_id)
            .where(m.Rating.game == game, m.Rating.played >= min_games)
            .order_by(ordinal.desc(), m.Rating.player_id)
            .limit(limit)
        )
        async with self.store.session() as s:
            return [
                RatingRow(r.player_id, name, r.game, r.mu, r.sigma, r.played, int(w or 0))
                for r, name, w in (await s.execute(q)).all()
            ]


__all__ = ["RatingRow", "RatingStore", "counts", "rate_game", "recompute", "stored"]
