"""Robot levels: "debutant" (the heuristic bot of ``tablee.bots.play``) and "confirme" (search).

``decide`` is the one entry point: the table hands it the state, the seat and the events of the
game so far, and gets the robot's move. The débutant reads the state through ``bots.play`` (its
own view and the timeout move, both checked secret by the decision-secrecy suite). The confirmé
reads nothing of the state but the seat's ``view``, its legal actions and the events it saw
(``visible_events``): ``think`` never gets the state at all.

Randomness: ``seed`` seeds the one ``random.Random`` of the decision; the same inputs and seed give
the same move. The budget is a number of worlds (deals of the hidden cards) per decision, which
keeps a decision reproducible; ``stop`` (a callable the caller passes, e.g. a deadline check) may
end the search early, after at least one world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.engine import Action, Event, Game, IllegalAction, visible_events

from . import contrecarte, freeze, play, yaniv
from .contree_bids import choose_bid
from .search import Stop, pimc
from .tricks import ADAPTERS, BeloteAdapter, tarot_ecart

#: the confirmé's own policy at the games without a trick search: it reads the seat's view,
#: legal moves and seen events (never the state) and returns a move, or None to play as the
#: débutant there
Policy = Callable[
    [
        Game,
        Mapping[str, Any],
        Sequence[Action],
        Sequence[Event],
        random.Random,
        "Budget",
        Stop | None,
    ],
    Action | None,
]
POLICIES: dict[str, Policy] = {
    # its discards, draws and call judged by what the seat has seen
    "yaniv": yaniv.policy,
    # expected points from what the seat knows
    "freeze": freeze.decide,
    # rules of play against a low next seat, and near the end play-outs on worlds of what the
    # seat knows
    "contrecarte": contrecarte.decide,
}

DEBUTANT = "debutant"
CONFIRME = "confirme"
LEVELS = (DEBUTANT, CONFIRME)

#: the phases (view ``phase``) a confirmé searches in, per game; elsewhere it plays as the débutant
SEARCHED: dict[str, frozenset[str]] = {
    "belote": frozenset({"bidding", "play"}),
    "contree": frozenset({"bidding", "play"}),
    "tarot": frozenset({"bid", "call", "play"}),
    "barbu": frozenset({"play"}),
    "motton": frozenset({"bid", "play"}),
}


#: the phases where the seats bid: few decisions, each worth a whole deal
BIDDING_PHASES = frozenset({"bidding", "bid", "call"})


@dataclass(frozen=True)
class Budget:
    """How much a confirmé thinks: ``worlds`` deals of the hidden cards per decision, each
    candidate move played out once in each; ``bidding`` times as many for a bid (a bid's
    estimate is the maximum over many candidates: with few worlds, the luckiest one wins)."""

    worlds: int = 32
    bidding: int = 4

    def for_phase(self, phase: str) -> int:
        return self.worlds * (self.bidding if phase in BIDDING_PHASES else 1)


def decide(
    game: Game,
    state: Any,
    seat: int,
    events: Sequence[Event],
    *,
    level: str = DEBUTANT,
    seed: int = 0,
    budget: Budget | None = None,
    stop: Stop | None = None,
) -> Action:
    """The move of a robot of ``level`` in ``seat``. ``events``: the game's events so far (all of
    them, or at least the current deal's; the seat sees only its own, ``visible_events``)."""
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level!r}: one of {', '.join(LEVELS)}")
    if level == DEBUTANT:
        return play(game, state, seat)
    legal = game.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("this seat has nothing to do now", "not_your_turn")
    if len(legal) == 1:
        return legal[0]
    choice = think(
        game,
        game.view(state, seat),
        legal,
        visible_events(events, seat),
        random.Random(seed),
        budget or Budget(),
        stop,
    )
    if choice is not None and choice in legal:
        return choice
    return play(game, state, seat)


def think(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    events: Sequence[Event],
    rng: random.Random,
    budget: Budget,
    stop: Stop | None = None,
) -> Action | None:
    """The confirmé's choice from what the seat knows, or None to play as the débutant."""
    policy = POLICIES.get(game.name)
    if policy is not None:
        return policy(game, view, legal, events, rng, budget, stop)
    if game.name == "tarot" and view.get("phase") == "ecart":
        return tarot_ecart(view["hand"], legal)
    adapter = ADAPTERS.get(game.name)
    if adapter is None or view.get("phase") not in SEARCHED.get(game.name, ()):
        return None
    if view.get("variants"):
        # belote and contrée with variants (SA/TA, annonces): the search's worlds are built
        # without them, so the confirmé plays as the débutant there
        return None
    know = adapter.knowledge(game, view, events)
    if know is None:
        return None
    count = budget.for_phase(str(view["phase"]))
    if game.name == "contree" and view["phase"] == "bidding":
        assert isinstance(adapter, BeloteAdapter)
        return choose_bid(game, adapter, view, legal, know, rng, count, stop)
    return pimc(game, adapter, view, legal, know, rng, count, stop)
