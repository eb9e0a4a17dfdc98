"""Perfect-information Monte Carlo on the seat's knowledge: the "confirmé" robot's search.

For each of ``worlds`` deals of the hidden cards drawn by ``knowledge.sample`` (every one agreeing
with what the seat saw), the adapter of the game builds a full state from the seat's view and that
deal; each candidate move is applied to it and the deal is played out to its end by the default
policy (every seat, the deciding one included: the table's prudent ``auto_action``, and the
débutant bidders while a bidding lasts). A move's value is its mean result over the worlds, in the
points of the deal from the deciding seat's side (``Adapter.utility``). Every candidate is played
out on the same worlds, so the differences between moves are not drowned by the luck of the deal.

The default policy plays each seat from its own cards only (``auto_action`` never reads another
hand: the decision-secrecy suite checks it), so a play-out is how the rest of the deal would go
with those cards, not how it would go if everybody saw everything.

Pure: the randomness is the ``random.Random`` passed in, and a wall-clock limit is a callable the
caller passes (``stop``), checked between worlds.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tablee.engine import Action, Event, Game, IllegalAction

from .bidding import BIDDERS
from .knowledge import Knowledge, Place, sample

#: a play-out longer than this is a bug of the adapter (a deal of any game is shorter)
MAX_STEPS = 5_000

Stop = Callable[[], bool]


class Adapter(ABC):
    """How the search reads one game: the seat's knowledge, a full state from a deal of the hidden
    cards, and the result of a deal for a seat."""

    @abstractmethod
    def knowledge(
        self, game: Game, view: Mapping[str, Any], events: Sequence[Event]
    ) -> Knowledge | None:
        """What the seat of ``view`` knows, or None where the robot does not search."""

    @abstractmethod
    def build(
        self, game: Game, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> Any:
        """A full state: the view's public facts and own hand, the hidden cards from ``deal``."""

    @abstractmethod
    def utility(self, event: Event, seat: int) -> float | None:
        """The deal's result for ``seat`` when ``event`` ends the deal, else None."""

    def bidding(self, state: Any) -> bool:
        """Whether the seats bid (the débutant bidder speaks for them in a play-out)."""
        return False

    #: a play-out this long is cut short and scored by ``unfinished``
    max_steps = MAX_STEPS

    def unfinished(self, game: Game, state: Any, seat: int) -> float:
        """The result for ``seat`` of a play-out cut short; by default, a bug of the adapter."""
        raise AssertionError(f"{game.name}: a play-out did not end")

    def policy(self, game: Game, state: Any, seat: int) -> Action | None:
        """The play-outs' move where the adapter knows better than the débutant (a world's
        state: its seats' own cards are the world's), else None."""
        return None

    def violations(
        self, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> int:
        """How many of the other seats' calls ``deal`` makes unlikely (their bids read as the
        débutant would have meant them); 0: none."""
        return 0

    def draw(
        self, view: Mapping[str, Any], know: Knowledge, rng: random.Random, tries: int = 12
    ) -> dict[Place, list[str]] | None:
        """A deal agreeing with ``know``, and with the bids when one of ``tries`` does (else the
        one that disagrees least)."""
        best: tuple[int, dict[Place, list[str]]] | None = None
        for _ in range(tries):
            deal = sample(know, rng)
            if deal is None:
                return None
            bad = self.violations(view, know, deal)
            if bad == 0:
                return deal
            if best is None or bad < best[0]:
                best = (bad, deal)
        return None if best is None else best[1]


def default_move(game: Game, adapter: Adapter, state: Any, seat: int) -> Action:
    """The play-outs' policy: the adapter's own where it has one (the tarot écart), the
    débutant's bids, the table's timeout move for the rest."""
    own = adapter.policy(game, state, seat)
    if own is not None:
        return own
    if adapter.bidding(state):
        bidder = BIDDERS.get(game.name)
        if bidder is not None:
            legal = game.legal_actions(state, seat)
            choice = bidder(game.view(state, seat), legal)
            if choice is not None and choice in legal:
                return choice
    return game.auto_action(state, seat)


def same_moves(a: Sequence[Action], b: Sequence[Action]) -> bool:
    """The same moves, in any order (a state lists a hand in its own order)."""
    return len(a) == len(b) and all(x in b for x in a)


def play_out(game: Game, adapter: Adapter, state: Any, events: Sequence[Event], seat: int) -> float:
    """The result for ``seat`` of the deal from ``state`` (just reached with ``events``) played to
    its end by the default policy."""
    for _ in range(adapter.max_steps):
        for e in events:
            u = adapter.utility(e, seat)
            if u is not None:
                return u
        actors = game.to_act(state)
        if not actors:
            return 0.0
        actor = actors[0]
        state, events = game.apply(state, actor, default_move(game, adapter, state, actor))
    return adapter.unfinished(game, state, seat)


def worlds(
    game: Game,
    adapter: Adapter,
    view: Mapping[str, Any],
    know: Knowledge,
    rng: random.Random,
    count: int,
    stop: Stop | None = None,
) -> list[Any]:
    """Up to ``count`` full states agreeing with ``know`` (fewer when ``stop`` says so; at least
    one unless the knowledge contradicts itself)."""
    out: list[Any] = []
    for _ in range(count):
        if out and stop is not None and stop():
            break
        deal = adapter.draw(view, know, rng)
        if deal is None:
            break
        out.append(adapter.build(game, view, know, deal))
    return out


def pimc(
    game: Game,
    adapter: Adapter,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    know: Knowledge,
    rng: random.Random,
    count: int,
    stop: Stop | None = None,
    candidates: Sequence[Action] | None = None,
) -> Action | None:
    """The candidate (``candidates``, by default every move of ``legal``) with the best mean
    play-out over ``count`` worlds; ties go to the default policy's own move. None when no world
    could be built."""
    seat = know.seat
    moves = list(legal if candidates is None else candidates)
    totals = [0.0] * len(moves)
    played = 0
    default: Action | None = None
    for _ in range(count):
        if played and stop is not None and stop():
            break
        deal = adapter.draw(view, know, rng)
        if deal is None:
            break
        state = adapter.build(game, view, know, deal)
        # a world where the seat could not make exactly its real moves is not one it may be in
        if not same_moves(game.legal_actions(state, seat), legal):
            continue
        if default is None:
            default = default_move(game, adapter, state, seat)
        for i, action in enumerate(moves):
            try:
                after, events = game.apply(state, seat, action)
            except IllegalAction:  # pragma: no cover - legal in this world, checked above
                continue
            totals[i] += play_out(game, adapter, after, events, seat)
        played += 1
    if not played:
        return None
    best = max(totals)
    if default is not None and default in moves and totals[moves.index(default)] >= best - 1e-9:
        return default
    return moves[totals.index(best)]
