"""The game of belote: dealing, the bidding, the count. The spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from tablee.cards import SUITS
from tablee.engine import Action, Event, IllegalAction, OptionSpec
from tablee.engine.moves import Move, MoveTable
from tablee.engine.state import evolve
from tablee.games._belote_common import (
    ANNONCES,
    NOT_YOUR_TURN_TO_SPEAK,
    PLAYERS,
    TOTAL,
    BeloteFamily,
    BeloteState,
    Call,
    Contract,
    Phase,
    Tally,
    deal_packets,
    stack_packets,
    team_of,
)
from tablee.games._belote_common.rules import card_lines
from tablee.games._breakdown import Line, line, one

from . import auto

FIRST_PACKETS = (3, 2)


def stacked_deck(
    hands: Sequence[Sequence[str]], turned: str, taker: int, dealer: int = 3
) -> list[str]:
    """The deck (top first) that deals ``hands`` (8 cards per seat, the taker's including the
    turned card) when ``taker`` takes: each seat's first 5 cards (the taker's without the turned
    card) go in the 3-2 packets, the rest in the completion."""
    first = [list(h) for h in hands]
    first[taker].remove(turned)
    deck, rest = stack_packets(first, dealer, FIRST_PACKETS)
    deck.append(turned)
    for i in range(1, PLAYERS + 1):
        deck += rest[(dealer + i) % PLAYERS]
    return deck


def deal_scores(contract: Contract, t: Tally) -> tuple[tuple[int, int], bool]:
    """The scores per team of a played deal and whether the takers made it."""
    takers = team_of(contract.taker)
    defenders = 1 - takers
    # annonces (option): each side's shown announcements count in its total
    own = [t.card_points[i] + t.belote[i] + t.annonces[i] for i in (0, 1)]
    if own[takers] >= own[defenders]:  # "au moins": a tie is made
        return (own[0], own[1]), True
    scores = [0, 0]
    scores[defenders] = t.card_points[defenders] if t.capot == defenders else TOTAL
    # a side that fails loses its announcements to the other side
    scores[defenders] += t.belote[0] + t.belote[1] + t.annonces[0] + t.annonces[1]
    return (scores[0], scores[1]), False


def deal_breakdown(contract: Contract, t: Tally, made: bool) -> list[Line]:
    """How ``deal_scores`` came to its scores, per team: made, each team its cards, the dix de
    der (or a capot) and its belote; dedans, the defenders the whole deal's 162 (or their capot)
    and every belote."""
    takers = team_of(contract.taker)
    defenders = 1 - takers
    if made:
        return [
            *card_lines(t, (True, True)),
            line("belote", t.belote),
            line("annonces", t.annonces),
        ]
    if t.capot == defenders:
        lines = card_lines(t, (True, True))
    else:
        lines = [line("chute", one(2, defenders, TOTAL))]
    return [
        *lines,
        line("belote", one(2, defenders, t.belote[0] + t.belote[1]), all=True),
        line("annonces", one(2, defenders, t.annonces[0] + t.annonces[1]), all=True),
    ]


class Belote(BeloteFamily):
    name = "belote"
    title = "Belote"
    summary = "Belote à quatre, deux équipes : prise à la retourne, capot, belote-rebelote."
    option_specs = (
        OptionSpec(
            "target",
            "int",
            None,
            "Partie en points",
            help="vide : une seule donne ; sinon, donnes jusqu'à ce total (ex. 1000)",
            min=100,
            max=100_000,
            nullable=True,
        ),
        ANNONCES,
    )

    def _deal_cards(
        self, cards: Sequence[str], dealer: int
    ) -> tuple[list[list[str]], tuple[str, ...], str | None]:
        hands, used = deal_packets(cards, dealer, FIRST_PACKETS)
        return hands, tuple(cards[used + 1 :]), cards[used]

    def _bidding_legal(self, state: BeloteState, seat: int) -> list[Action]:
        if seat != state.turn:
            return []
        if state.round == 1:
            return [{"type": "pass"}, {"type": "take"}]
        assert state.turned is not None
        turned_suit = state.turned[1]
        return [{"type": "pass"}] + [{"type": "take", "suit": s} for s in SUITS if s != turned_suit]

    def _pass(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        calls = (*state.calls, Call(seat, "pass"))
        events: list[Event] = [{"type": "pass", "seat": seat}]
        nxt = (seat + 1) % PLAYERS
        if len(calls) < PLAYERS * state.round:
            return evolve(state, calls=calls, turn=nxt), events
        if state.round == 1:
            return evolve(state, calls=calls, turn=nxt, round=2), events
        return self._cancel_deal(evolve(state, calls=calls), events)

    def _take_move(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        assert state.turned is not None
        turned_suit = state.turned[1]
        if state.round == 1:
            if "suit" in action:
                raise IllegalAction(
                    "in the first round you take the turned suit: send take without a 'suit'",
                    "bad_action",
                )
            suit = turned_suit
        else:
            suit = self.check_suit(action)
            if suit == turned_suit:
                raise IllegalAction("in the second round you must name another suit")
        return self._take(state, seat, suit)

    def _take(self, state: BeloteState, seat: int, suit: str) -> tuple[BeloteState, list[Event]]:
        assert state.turned is not None
        call = Call(seat, "take", suit=suit if state.round == 2 else None)
        events: list[Event] = [{"type": "take", "seat": seat, "suit": suit}]
        hands = [list(h) for h in state.hands]
        stock = list(state.stock)
        for i in range(1, PLAYERS + 1):
            s = (state.dealer + i) % PLAYERS
            if s == seat:
                got = [state.turned, *stock[:2]]
                del stock[:2]
            else:
                got = stock[:3]
                del stock[:3]
            hands[s] += got
            events.append({"type": "complete", "seat": s, "cards": got, "to": [s]})
            events.append({"type": "complete", "seat": s, "count": len(got)})
        assert not stock
        state = evolve(
            state,
            calls=(*state.calls, call),
            hands=tuple(tuple(h) for h in hands),
            stock=(),
        )
        return self._start_play(state, Contract(taker=seat, trump=suit), events)

    def _auto_bid(self, state: BeloteState, seat: int, legal: list[Action]) -> Action:
        return auto.auto_bid(state, seat)

    moves: ClassVar[MoveTable] = {
        **BeloteFamily.common_moves,
        Phase.BIDDING: {
            "pass": Move(_pass, turn=NOT_YOUR_TURN_TO_SPEAK, waits_on="turn"),
            "take": Move(_take_move, turn=NOT_YOUR_TURN_TO_SPEAK, waits_on="turn"),
        },
    }

    def _score(self, state: BeloteState, t: Tally) -> tuple[tuple[int, int], bool]:
        assert state.contract is not None
        return deal_scores(state.contract, t)

    def _breakdown(self, state: BeloteState, t: Tally, made: bool) -> list[Line]:
        assert state.contract is not None
        return deal_breakdown(state.contract, t, made)

    def _view_extra(self, state: BeloteState, seat: int | None) -> dict[str, Any]:
        return {"round": state.round if state.phase is Phase.BIDDING else None}
