"""The game of barbu: dealing, the moves and what a seat sees. The spec is the package's
docstring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tablee.cards import shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.moves import Move, MoveTable
from tablee.engine.state import evolve
from tablee.games._tricks import (
    Trick,
    french_card,
    french_suit,
    hand_events,
    last_trick_view,
    raised,
    standard_hand,
    trick_view,
    winner,
    without,
)

from . import auto
from .rules import (
    ROUNDS,
    SUIT_WORDS,
    BarbuState,
    Phase,
    barbu_deck,
    legal_cards,
    lowest,
    power,
    trick_points,
)


class Barbu(BaseGame[BarbuState]):
    name = "barbu"
    title = "Barbu"
    min_players = 4
    max_players = 5
    state_type = BarbuState
    summary = "Cinq manches de levées sans atout : plis, cœurs, dames, barbu, puis tout à la fois."
    over_phase = Phase.OVER

    # -- construction ---------------------------------------------------------------------------

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return barbu_deck(players)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> BarbuState:
        cards = self.first_cards(deck, barbu_deck(players), seed)
        empty = tuple(() for _ in range(players))
        zeros = (0,) * players
        state = BarbuState(
            players=players,
            seed=seed,
            phase=Phase.DEAL,
            round=0,
            dealer=options["first_dealer"],
            hands=empty,
            turn=0,
            leader=0,
            trick=(),
            hearts_broken=False,
            taken=empty,
            tricks_won=zeros,
            points=zeros,
            last_trick=None,
            scores=zeros,
            sheet=(),
        )
        return self._dealt(state, cards)[0]

    def _dealt(self, state: BarbuState, cards: Sequence[str]) -> tuple[BarbuState, list[Event]]:
        n = state.players
        first = (state.dealer + 1) % n
        hands = tuple(standard_hand(cards[(s - first) % n :: n]) for s in range(n))
        zeros = (0,) * n
        new = evolve(
            state,
            phase=Phase.PLAY,
            hands=hands,
            turn=first,
            leader=first,
            trick=(),
            hearts_broken=False,
            taken=tuple(() for _ in range(n)),
            tricks_won=zeros,
            points=zeros,
            last_trick=None,
        )
        events: list[Event] = [
            {
                "type": "deal",
                "seat": state.dealer,
                "deal": state.round + 1,
                "contract": ROUNDS[state.round],
            }
        ]
        events += hand_events(hands)
        return new, events

    # -- moves --------------------------------------------------------------------------------

    def legal_actions(self, state: BarbuState, seat: int) -> list[Action]:
        if state.phase is Phase.DEAL:
            return [{"type": "deal"}] if seat == state.dealer else []
        return [{"type": "play", "card": c} for c in legal_cards(state, seat)]

    def _deal(self, state: BarbuState, seat: int, action: Action) -> tuple[BarbuState, list[Event]]:
        cards = shuffled(barbu_deck(state.players), state.seed, "deal", state.round + 1)
        return self._dealt(state, cards)

    def _play(self, state: BarbuState, seat: int, action: Action) -> tuple[BarbuState, list[Event]]:
        card = action["card"]
        if card not in state.hands[seat]:
            raise IllegalAction(f"you do not hold {card}")
        if card not in legal_cards(state, seat):
            if state.trick:
                raise IllegalAction(f"you must follow {SUIT_WORDS[state.trick[0][1]]}")
            raise IllegalAction(
                "you may not lead a heart until a heart has been discarded on another suit"
            )
        n = state.players
        hands = without(state.hands, seat, card)
        broken = state.hearts_broken or (
            bool(state.trick) and card[1] == "H" and state.trick[0][1] != "H"
        )
        trick = (*state.trick, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        if len(trick) < n:
            new = evolve(state, hands=hands, trick=trick, turn=(seat + 1) % n, hearts_broken=broken)
            return new, events
        won_by = (state.leader + winner(trick, french_suit, None, power)) % n
        pts = trick_points(trick, state.round)
        taken = list(state.taken)
        taken[won_by] = taken[won_by] + trick
        events.append({"type": "trick", "seat": won_by, "cards": list(trick), "points": pts})
        new = evolve(
            state,
            hands=hands,
            trick=(),
            turn=won_by,
            leader=won_by,
            hearts_broken=broken,
            taken=tuple(taken),
            tricks_won=raised(state.tricks_won, won_by),
            points=raised(state.points, won_by, pts),
            last_trick=Trick(state.leader, trick, won_by),
        )
        if any(new.hands):
            return new, events
        return self._round_end(new, events)

    def _round_end(self, state: BarbuState, events: list[Event]) -> tuple[BarbuState, list[Event]]:
        n = state.players
        scores = tuple(a + b for a, b in zip(state.scores, state.points, strict=True))
        events.append(
            {
                "type": "deal_end",
                "seat": None,
                "deal": state.round + 1,
                "contract": ROUNDS[state.round],
                "scores": list(state.points),
                "totals": list(scores),
            }
        )
        sheet = (*state.sheet, state.points)
        if state.round + 1 == len(ROUNDS):
            new = evolve(state, phase=Phase.OVER, scores=scores, sheet=sheet)
            winners = lowest(scores)
            events.append(
                {"type": "game_end", "seat": None, "scores": list(scores), "winners": winners}
            )
            return new, events
        # the first leader of the round deals the next one
        new = evolve(
            state,
            phase=Phase.DEAL,
            round=state.round + 1,
            dealer=(state.dealer + 1) % n,
            scores=scores,
            sheet=sheet,
        )
        return new, events

    moves: ClassVar[MoveTable] = {
        Phase.DEAL: {"deal": Move(_deal, turn="it is not your turn to deal")},
        Phase.PLAY: {"play": Move(_play, {"card": french_card}, turn="it is not your turn")},
    }

    # -- reading the state ----------------------------------------------------------------------

    def to_act(self, state: BarbuState) -> tuple[int, ...]:
        if state.phase is Phase.PLAY:
            return (state.turn,)
        if state.phase is Phase.DEAL:
            return (state.dealer,)
        return ()

    def outcome(self, state: BarbuState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        return {
            "scores": list(state.scores),
            "winners": lowest(state.scores),
            "sheet": [list(row) for row in state.sheet],
        }

    def cards(self, state: BarbuState) -> list[str]:
        out = [c for hand in state.hands for c in hand]
        out += state.trick
        out += [c for pile in state.taken for c in pile]
        return out

    def hidden(self, state: BarbuState, seat: int | None) -> frozenset[str]:
        return frozenset(c for s, hand in enumerate(state.hands) if s != seat for c in hand)

    def view(self, state: BarbuState, seat: int | None) -> dict[str, Any]:
        n = state.players
        return {
            **self.view_header(
                state,
                seat,
                turn=state.turn if state.phase is Phase.PLAY else None,
                deal=state.round + 1,
            ),
            "contract": ROUNDS[state.round],
            "trump": None,
            "trick": trick_view(state.leader, state.trick, n),
            "last_trick": last_trick_view(state.last_trick, n),
            "bids": [],
            "tricks_won": list(state.tricks_won),
            "points": list(state.points),
            "hearts_broken": state.hearts_broken,
            "sheet": [list(row) for row in state.sheet],
        }

    # -- the table's move for a seat out of time ------------------------------------------------

    def auto_action(self, state: BarbuState, seat: int) -> Action:
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn", "not_your_turn")
        return auto.auto_action(state, seat)
