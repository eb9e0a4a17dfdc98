"""The game of contrée: dealing, the bidding, the count. The spec is the package's docstring."""

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
    SA,
    TA,
    TRUMP_RANK,
    BeloteFamily,
    BeloteState,
    Call,
    Contract,
    Phase,
    Tally,
    deal_packets,
    team_of,
)
from tablee.games._breakdown import Line

from . import auto
from .rules import BID_LABELS, BID_VALUES, PACKETS, deal_breakdown, deal_scores, trailing_passes


class Contree(BeloteFamily):
    name = "contree"
    title = "Contrée"
    summary = "Belote contrée à quatre : enchères de 80 à la générale, contre et surcontre."
    option_specs = (
        OptionSpec(
            "target",
            "int",
            2000,
            "Partie en points",
            help="la partie s'arrête à la fin de la donne où une équipe atteint ce total",
            min=100,
            max=100_000,
        ),
        OptionSpec(
            "sa_ta",
            "bool",
            False,
            "Sans-atout et tout-atout",
            help="les enchères peuvent nommer sans-atout (SA) ou tout-atout (TA) au lieu d'une"
            " couleur ; à valeur égale, couleur < SA < TA",
        ),
        ANNONCES,
    )

    def _deal_cards(
        self, cards: Sequence[str], dealer: int
    ) -> tuple[list[list[str]], tuple[str, ...], str | None]:
        hands, _ = deal_packets(cards, dealer, PACKETS)
        return hands, (), None

    # -- bidding ------------------------------------------------------------------------------

    def _bidding_legal(self, state: BeloteState, seat: int) -> list[Action]:
        contract = state.contract
        if state.phase is Phase.SURCONTRE:
            assert contract is not None
            if team_of(seat) != team_of(contract.taker):
                return []
            out: list[Action] = [{"type": "surcontre"}]
            if seat == contract.taker:
                out.append({"type": "decline"})
            return out
        out = []
        if seat == state.turn:
            out.append({"type": "pass"})
            floor = contract.value if contract else 0
            if state.variants is not None and state.variants.sa_ta:
                out += self._bids_sa_ta(contract)
            else:
                out += [
                    {"type": "bid", "value": v, "suit": s}
                    for v in BID_VALUES
                    if v > floor
                    for s in SUITS
                ]
        if contract is not None and team_of(seat) != team_of(contract.taker):
            out.append({"type": "contre"})
        return out

    @staticmethod
    def _bids_sa_ta(contract: Contract | None) -> list[Action]:
        """The bids above ``contract`` when SA and TA may be named: a higher value, or the same
        value with a higher trump (suits < SA < TA)."""
        floor = (0, 0) if contract is None else (contract.value, TRUMP_RANK.get(contract.trump, 0))
        return [
            {"type": "bid", "value": v, "suit": s}
            for v in BID_VALUES
            for s in (*SUITS, SA, TA)
            if (v, TRUMP_RANK.get(s, 0)) > floor
        ]

    def _surcontre(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        kind = action["type"]
        contract = state.contract
        assert contract is not None
        if team_of(seat) != team_of(contract.taker):
            raise IllegalAction("only the contré team may surcontre or decline", "not_your_turn")
        if kind == "decline" and seat != contract.taker:
            raise IllegalAction("only the bidder declines; you may surcontre")
        calls = (*state.calls, Call(seat, kind))
        coinche = 4 if kind == "surcontre" else 2
        return self._start_play(
            evolve(state, calls=calls),
            evolve(contract, coinche=coinche),
            [{"type": kind, "seat": seat}],
        )

    def _contre(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        contract = state.contract
        if contract is None:
            raise IllegalAction("there is no bid to contre")
        if team_of(seat) == team_of(contract.taker):
            raise IllegalAction("you may not contre your own team's bid")
        return (
            evolve(
                state,
                calls=(*state.calls, Call(seat, "contre")),
                contract=evolve(contract, coinche=2),
                phase=Phase.SURCONTRE,
            ),
            [{"type": "contre", "seat": seat}],
        )

    def _pass(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        contract = state.contract
        calls = (*state.calls, Call(seat, "pass"))
        events: list[Event] = [{"type": "pass", "seat": seat}]
        passes = trailing_passes(calls)
        if contract is None and passes == PLAYERS:
            return self._cancel_deal(evolve(state, calls=calls), events)
        if contract is not None and passes == PLAYERS - 1:
            return self._start_play(evolve(state, calls=calls), contract, events)
        return evolve(state, calls=calls, turn=(seat + 1) % PLAYERS), events

    def _bid(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        contract = state.contract
        value = action.get("value")
        if type(value) is not int or value not in BID_VALUES:  # 110.0 == 110, True == 1
            raise IllegalAction(
                "a bid needs a 'value': 80, 90, ... 160, 250 (capot) or 500 (générale)",
                "bad_action",
            )
        sa_ta = state.variants is not None and state.variants.sa_ta
        if not sa_ta:
            suit = self.check_suit(action)
        elif action.get("suit") in (*SUITS, SA, TA):
            suit = action["suit"]
        else:
            raise IllegalAction(
                "name a 'suit': S, H, D, C, SA (sans-atout) or TA (tout-atout)", "bad_action"
            )
        if sa_ta and contract is not None:
            if {"type": "bid", "value": value, "suit": suit} not in self._bids_sa_ta(contract):
                raise IllegalAction(
                    f"you must bid higher than {contract.value} {contract.trump}"
                    " (at the same value: a suit < SA < TA)"
                )
        elif contract is not None and value <= contract.value:
            raise IllegalAction(f"you must bid higher than {contract.value}")
        return (
            evolve(
                state,
                calls=(*state.calls, Call(seat, "bid", value=value, suit=suit)),
                contract=Contract(taker=seat, trump=suit, value=value),
                turn=(seat + 1) % PLAYERS,
            ),
            [{"type": "bid", "seat": seat, "value": value, "suit": suit}],
        )

    moves: ClassVar[MoveTable] = {
        **BeloteFamily.common_moves,
        Phase.BIDDING: {
            "contre": Move(_contre),
            "pass": Move(_pass, turn=NOT_YOUR_TURN_TO_SPEAK, waits_on="turn"),
            "bid": Move(_bid, turn=NOT_YOUR_TURN_TO_SPEAK, waits_on="turn"),
        },
        Phase.SURCONTRE: {"surcontre": Move(_surcontre), "decline": Move(_surcontre)},
    }

    def _auto_bid(self, state: BeloteState, seat: int, legal: list[Action]) -> Action:
        if seat not in self.to_act(state):
            # a seat's only moves out of turn are a contre or a surcontre: the player's choices,
            # never made for them
            raise IllegalAction(
                "the table moves only for the seat it waits on: it never contres nor surcontres",
                "not_your_turn",
            )
        return auto.auto_bid(state, seat)

    # -- scoring --------------------------------------------------------------------------------

    def _score(self, state: BeloteState, t: Tally) -> tuple[tuple[int, int], bool]:
        assert state.contract is not None
        return deal_scores(state.contract, t)

    def _breakdown(self, state: BeloteState, t: Tally, made: bool) -> list[Line]:
        assert state.contract is not None
        return deal_breakdown(state.contract, t, made)

    def _view_extra(self, state: BeloteState, seat: int | None) -> dict[str, Any]:
        return {"bid_labels": dict(BID_LABELS)}
