"""The game of barbu: dealing, the moves and what a seat sees. The spec is the package's
docstring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from tablee.cards import shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction, OptionSpec
from tablee.engine.moves import Move, MoveTable
from tablee.engine.state import evolve
from tablee.games._breakdown import breakdown
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
    Choice,
    Phase,
    barbu_deck,
    contract_index,
    contract_name,
    legal_cards,
    lowest,
    penalty_lines,
    power,
    remaining,
    rounds_in_match,
    trick_points,
)

CHOOSE_NEEDS_A_CONTRACT = "a choose needs a 'contract': " + ", ".join(ROUNDS)


def _contract_field(kind: str, name: str, value: Any) -> None:
    if value not in ROUNDS:
        raise IllegalAction(CHOOSE_NEEDS_A_CONTRACT, "bad_action")


class Barbu(BaseGame[BarbuState]):
    name = "barbu"
    title = "Barbu"
    min_players = 4
    max_players = 5
    state_type = BarbuState
    summary = "Cinq manches de levées sans atout : plis, cœurs, dames, barbu, puis tout à la fois."
    over_phase = Phase.OVER
    option_specs = (
        OptionSpec(
            "choice",
            "bool",
            False,
            "Barbu au choix",
            help="chaque donneur choisit le contrat de sa donne parmi ceux qu'il n'a pas encore"
            " joués ; chacun donne les cinq contrats",
        ),
    )

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
            choice=Choice(chosen=empty) if options["choice"] else None,
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
                "contract": contract_name(state),
            }
        ]
        events += hand_events(hands)
        if state.choice is None:
            return new, events
        # au choix: the dealer names the contract with the hand in view; the last one left is
        # named for them
        left = remaining(new, state.dealer)
        if len(left) > 1:
            return evolve(new, phase=Phase.CHOOSE, turn=state.dealer), events
        return self._chosen(new, left[0], events)

    def _chosen(
        self, state: BarbuState, contract: str, events: list[Event]
    ) -> tuple[BarbuState, list[Event]]:
        choice = state.choice
        assert choice is not None
        chosen = list(choice.chosen)
        chosen[state.dealer] = (*chosen[state.dealer], contract)
        new = evolve(
            state,
            phase=Phase.PLAY,
            turn=state.leader,
            choice=evolve(choice, chosen=tuple(chosen), contract=contract),
        )
        return new, [*events, {"type": "choose", "seat": state.dealer, "contract": contract}]

    def _choose(
        self, state: BarbuState, seat: int, action: Action
    ) -> tuple[BarbuState, list[Event]]:
        contract = action["contract"]
        if contract not in remaining(state, seat):
            raise IllegalAction(
                f"you have already chosen {contract}; choose among"
                f" {', '.join(remaining(state, seat))}"
            )
        return self._chosen(state, contract, [])

    # -- moves --------------------------------------------------------------------------------

    def legal_actions(self, state: BarbuState, seat: int) -> list[Action]:
        if state.phase is Phase.DEAL:
            return [{"type": "deal"}] if seat == state.dealer else []
        if state.phase is Phase.CHOOSE:
            if seat != state.dealer:
                return []
            return [{"type": "choose", "contract": c} for c in remaining(state, seat)]
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
        pts = trick_points(trick, contract_index(state))
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
        contract = contract_name(state)
        events.append(
            {
                "type": "deal_end",
                "seat": None,
                "deal": state.round + 1,
                "contract": contract,
                "scores": list(state.points),
                "totals": list(scores),
                "breakdown": breakdown("seat", n, penalty_lines(state)),
            }
        )
        sheet = (*state.sheet, state.points)
        choice = state.choice
        if choice is not None:
            assert contract is not None
            state = evolve(
                state, choice=evolve(choice, contract=None, played=(*choice.played, contract))
            )
        if state.round + 1 == rounds_in_match(state):
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
        Phase.DEAL: {"deal": Move(_deal, turn="it is not your turn to deal", waits_on="dealer")},
        Phase.PLAY: {
            "play": Move(_play, {"card": french_card}, turn="it is not your turn", waits_on="turn")
        },
        Phase.CHOOSE: {
            "choose": Move(
                _choose,
                {"contract": _contract_field},
                turn="the dealer chooses the contract",
                waits_on="dealer",
            )
        },
    }

    # -- reading the state ----------------------------------------------------------------------

    def to_act(self, state: BarbuState) -> tuple[int, ...]:
        if state.phase is Phase.PLAY:
            return (state.turn,)
        if state.phase is Phase.DEAL or state.phase is Phase.CHOOSE:
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

    def to_json(self, state: BarbuState) -> dict[str, Any]:
        data = super().to_json(state)
        if data["choice"] is None:
            # the JSON form of a game without the option stays as it always was
            del data["choice"]
        return data

    def from_json(self, data: Mapping[str, Any]) -> BarbuState:
        if "choice" not in data:
            data = {**data, "choice": None}
        return super().from_json(data)

    def cards(self, state: BarbuState) -> list[str]:
        out = [c for hand in state.hands for c in hand]
        out += state.trick
        out += [c for pile in state.taken for c in pile]
        return out

    def hidden(self, state: BarbuState, seat: int | None) -> frozenset[str]:
        return frozenset(c for s, hand in enumerate(state.hands) if s != seat for c in hand)

    def view(self, state: BarbuState, seat: int | None) -> dict[str, Any]:
        n = state.players
        out = {
            **self.view_header(
                state,
                seat,
                turn=self.to_act(state)[0]
                if state.phase is Phase.PLAY or state.phase is Phase.CHOOSE
                else None,
                deal=state.round + 1,
            ),
            "contract": contract_name(state),
            "trump": None,
            "trick": trick_view(state.leader, state.trick, n),
            "last_trick": last_trick_view(state.last_trick, n),
            "bids": [],
            "tricks_won": list(state.tricks_won),
            "points": list(state.points),
            "hearts_broken": state.hearts_broken,
            "sheet": [list(row) for row in state.sheet],
        }
        choice = state.choice
        if choice is not None:
            out |= {
                "choice": True,
                "rounds": rounds_in_match(state),
                "chosen": [list(c) for c in choice.chosen],
                "sheet_contracts": list(choice.played),
            }
        return out

    def views(
        self, state: BarbuState, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        hands = state.hands
        return self._spectators_views(state, seats, lambda seat: {"hand": list(hands[seat])})

    # -- the table's move for a seat out of time ------------------------------------------------

    def auto_action(self, state: BarbuState, seat: int) -> Action:
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn", "not_your_turn")
        return auto.auto_action(state, seat)
