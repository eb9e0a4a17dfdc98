"""Spectators who cannot coach: what a table's spectators see when its ``spectators`` setting
delays the game (``fairness.SpectatorMode``).

By default (``hidden``) a spectator sees no hand, live. With a delay it sees every hand, but of
the game as it was: ``moves:N`` moves ago; at the end of the trick before the last complete one
(``trick``: the end of the last one is the table as it is now); at the end of the last complete
deal (``deal``). A deal's last move may deal the next one in the same step, so a deal's end is
shown as the state just before that move: never a hand of the deal being played. Only ``deal``
keeps every card of the deal being played from the spectators; ``moves:N`` and ``trick`` show
the hands as they were a little earlier, the cards still held included (docs/fairness.md).

Until there is a moment far enough behind (the first N moves, the first two tricks, the first
deal), a spectator sees the deal as it was dealt, without a hand, and none of the moves: a card
played is told with the hands of its moment, never before them (the hands of a moment and the
cards played since are the hands of now). Once the game is over, the end with every hand.

The delayed game is a shadow: the current game's log (``LiveTable.move_seats`` and
``move_actions``) replayed by the game one move at a time as the table moves on, keeping only the
states it may still show. It belongs to the table's spectators alone: the players' states are
built as before, whoever watches.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from tablee.engine import Event, Game, visible_events
from tablee.fairness import TRICK, SpectatorMode

from .records import TableRecord


@dataclass
class Moment:
    """A state a delayed spectator may see: after ``seq`` moves of the current game."""

    seq: int
    state: Any


@dataclass
class Delay:
    """The shadow game of one table's delayed spectators."""

    mode: SpectatorMode
    game_no: int = 0
    seq: int = -1
    state: Any = None
    #: the current game as dealt (what is shown before any moment far enough behind)
    start: Any = None
    #: moves mode: the last N + 1 states, oldest first
    recent: deque[Moment] = field(default_factory=deque)
    #: trick and deal modes: the last two ends of a trick or a deal, oldest first
    marks: deque[Moment] = field(default_factory=lambda: deque(maxlen=2))
    #: the public events of each move not yet shown (by the move's number)
    pending: dict[int, list[Event]] = field(default_factory=dict)
    #: the moment shown last
    shown: int = 0

    def follow(
        self,
        rec: TableRecord,
        game: Game,
        seats: list[int],
        actions: list[dict[str, Any]],
        seq: int,
    ) -> None:
        """Brings the shadow to the table's ``seq`` moves of game ``rec.game_no`` (each move's
        seat and action, ``LiveTable.move_seats`` and ``move_actions``)."""
        if self.game_no != rec.game_no or seq < self.seq or self.state is None:
            self.game_no = rec.game_no
            self.state = game.new(rec.players, rec.options, seed=rec.seed, deck=rec.deck)
            self.start = self.state
            self.seq = 0
            self.recent = deque([Moment(0, self.state)], maxlen=self.mode.moves + 1)
            self.marks = deque(maxlen=2)
            self.pending = {}
            self.shown = 0
        while self.seq < seq and self.seq < len(seats):
            before = self.state
            self.state, events = game.apply(before, seats[self.seq], actions[self.seq])
            self.seq += 1
            types = {e.get("type") for e in events if "to" not in e}
            self.pending[self.seq] = visible_events(events, None)
            if self.mode.kind == "moves":
                self.recent.append(Moment(self.seq, self.state))
            elif "deal_end" in types:
                # the move that ends a deal may deal the next: its state before
                self.marks.append(Moment(self.seq - 1, before))
            elif self.mode.kind == TRICK and "trick" in types:
                self.marks.append(Moment(self.seq, self.state))

    def moment(self) -> Moment | None:
        """What the spectators may see now; None: nothing far enough behind yet."""
        if self.mode.kind == "moves":
            if self.seq < self.mode.moves or not self.recent:
                return None
            first = self.recent[0]
            return first if self.seq - first.seq == self.mode.moves else None
        if self.mode.kind == TRICK:
            # the end of the last trick is the table as it is now: the one before
            return self.marks[0] if len(self.marks) == 2 else None
        # a deal's end is shown before its last move: that deal is over
        return self.marks[-1] if self.marks else None

    def events_until(self, seq: int) -> list[Event]:
        """The public events of the moves up to ``seq`` not told yet (told once)."""
        out: list[Event] = []
        for n in sorted(k for k in self.pending if k <= seq):
            if n > self.shown:
                out.extend(self.pending[n])
            del self.pending[n]
        self.shown = max(self.shown, seq)
        return out


def open_view(game: Game, state: Any) -> dict[str, Any]:
    """A spectator's view of ``state`` with every seat's hand (``hands``): for a moment that is
    over, or a game that is."""
    view = dict(game.view(state, None))
    view["hands"] = [game.view(state, s).get("hand") for s in range(game.players(state))]
    return view


__all__ = ["Delay", "Moment", "open_view"]
