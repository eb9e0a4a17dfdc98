"""Contrée — the house rules (``contree.fr.txt``) as decided in ``DECISIONS.md``.

Players and match
    4 seats; teams {0, 2} and {1, 3}. The first deal's dealer is the option ``first_dealer``
    common to every game (default seat 3; a rematch moves it one seat); the dealer moves one seat
    each deal (a redeal counts); the seat after the dealer speaks first and leads the first trick.
    Option ``target`` (default 2000): deals are played until, at the end of a deal, a team has at
    least ``target`` points and more than the other team (a tie plays another deal).

Dealing (the order ``deck=`` is read in, top card first; only the first deal is stacked)
    32 cards in packets of 3, then 2, then 3 to each seat in turn starting after the dealer ``d``
    (seats d+1, d+2, d+3, d, mod 4, three times). No turned card. :func:`stacked_deck` builds a
    deck from the wanted hands.

Bidding (phase ``bidding``), from the seat after the dealer, each in turn:
    ``{"type": "pass"}`` or ``{"type": "bid", "value": V, "suit": S}`` with V higher than the
    last bid, among 80, 90, ..., 160, 250 (capot: the team takes every trick) and 500 (générale:
    the bidder alone takes every trick); S the trump suit (S, H, D, C). A team may outbid
    itself. Three passes after a bid end the bidding; four passes before any bid cancel the deal
    (a sheet row with ``cancelled``) and the next dealer deals at once.
    ``{"type": "contre"}``: while a bid stands and no contre was made, either opponent of its
    bidder may contre, out of turn, until the next bid. The bidding stops there and phase
    ``surcontre`` opens: ``{"type": "surcontre"}`` from the bidder or the bidder's partner
    (out of turn), or ``{"type": "decline"}`` from the bidder, who is the seat waited on (timeout:
    decline). Either closes the window and the play starts.

Play (phase ``play``): ``{"type": "play", "card": C}`` — exactly belote's trick rules
    Trump order J 9 A T K Q 8 7 (J 20, 9 14, A 11, T 10, K 4, Q 3); plain A T K Q J 9 8 7
    (A 11, T 10, K 4, Q 3, J 2). Follow the led suit; on a trump lead, play a higher trump when
    you can. Void in a led plain suit: when an opponent holds the trick, trump (overtrump when you
    can, else trump lower; discard only without trumps); when your partner holds the trick, any
    card, but a trump you choose to play must overtrump when you can.
    Belote/Rebelote: the seat holding the K and Q of trump announces them automatically as they
    are played; 20 points to that team.

Scoring (one sheet row per deal; a team's "points" = card points + 10 for the last trick, 252 when
it took all 8 tricks, + its belote)
    Made: capot (250) when the takers' team took all 8 tricks; générale (500) when the bidder
    alone took them; any other bid when the takers' points >= the bid.
    Not contré: made → takers: their points + the bid; defenders: their points. Failed → takers:
    their belote only; defenders: 162 + the bid + their belote.
    Contré (×2) / surcontré (×4): made → takers: their points + 2× (4×) the bid; defenders: their
    belote only. Failed → defenders: 162 + 2× (4×) the bid + their belote; takers: their belote.
    The winners are the team with more points when the match ends.

Between deals (phase ``deal_over``)
    The scored deal stays on view until the next dealer sends ``{"type": "deal"}`` (the timeout
    move), which deals the next deal.

Timeout moves (``auto_action``)
    Bidding: the opening bid of 80 when nobody has bid and the hand is clearly strong in a suit
    (its J with 5 trumps, or with 4 trumps and the 9 or an outside ace, or with 3 trumps, the 9
    and an outside ace), else pass; never a contre; decline in the surcontre window.
    Play: the cheapest legal card with which the team still holds the trick, else the cheapest
    (fewest points, a plain card before a trump, the lowest).

Views (``view(state, seat)``)
    As belote's (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand``,
    ``counts``, ``scores``, ``team_scores``, ``target``, ``deal``, ``turned`` (always None),
    ``bids`` (``{"seat", "type", "value"?, "suit"?}``), ``contract`` (the highest bid so far:
    ``{"taker", "trump", "value", "coinche"}``), ``trump``, ``leader``, ``trick``,
    ``last_trick``, ``tricks_won``, ``team_tricks``, ``belote``, ``sheet`` (rows with
    ``value`` and ``coinche``)), plus ``bid_labels`` (``{"250": "capot", "500": "générale"}``).
    No other hand, ever.

Events
    ``deal`` (public; ``seat`` = dealer), ``hand`` (to its seat only: ``cards``), ``pass``,
    ``bid`` (``value``, ``suit``), ``contre``, ``surcontre``, ``decline``, ``redeal`` (``seat`` =
    next dealer), ``contract`` (``trump``, ``value``, ``coinche``), ``play``, ``belote`` /
    ``rebelote``, ``trick`` (``seat`` = winner, ``cards``, ``points``), ``deal_end`` (the sheet
    row), ``game_end`` (``scores``, ``winners``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.cards import SUITS
from tablee.engine import Action, Event, IllegalAction, OptionSpec
from tablee.engine.state import evolve
from tablee.games.registry import register

from ._belote_common import (
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
    strong_suit,
    team_of,
)

PACKETS = (3, 2, 3)
CAPOT_BID = 250
GENERALE = 500
BID_VALUES = (*range(80, 170, 10), CAPOT_BID, GENERALE)
BID_LABELS = {str(CAPOT_BID): "capot", str(GENERALE): "générale"}


def stacked_deck(hands: Sequence[Sequence[str]], dealer: int = 3) -> list[str]:
    """The deck (top first) that deals ``hands`` (8 cards per seat) in packets of 3-2-3."""
    return stack_packets(hands, dealer, PACKETS)[0]


def trailing_passes(calls: Sequence[Call]) -> int:
    n = 0
    for call in reversed(calls):
        if call.type != "pass":
            break
        n += 1
    return n


def deal_scores(contract: Contract, t: Tally) -> tuple[tuple[int, int], bool]:
    """The scores per team of a played deal and whether the contract was made."""
    takers = team_of(contract.taker)
    defenders = 1 - takers
    points = [t.card_points[i] + t.belote[i] for i in (0, 1)]
    if contract.value == GENERALE:
        made = t.tricks_by_seat[contract.taker] == 8
    elif contract.value == CAPOT_BID:
        made = t.capot == takers
    else:
        made = points[takers] >= contract.value
    bid = contract.value * contract.coinche
    scores = [0, 0]
    if made:
        scores[takers] = points[takers] + bid
        scores[defenders] = points[defenders] if contract.coinche == 1 else t.belote[defenders]
    else:
        scores[takers] = t.belote[takers]
        scores[defenders] = TOTAL + bid + t.belote[defenders]
    return (scores[0], scores[1]), made


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
            out += [
                {"type": "bid", "value": v, "suit": s}
                for v in BID_VALUES
                if v > floor
                for s in SUITS
            ]
        if contract is not None and team_of(seat) != team_of(contract.taker):
            out.append({"type": "contre"})
        return out

    def _apply_bidding(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        kind = action["type"]
        contract = state.contract
        if state.phase is Phase.SURCONTRE:
            assert contract is not None
            if kind not in ("surcontre", "decline"):
                raise self.reject(state, seat, action)
            if team_of(seat) != team_of(contract.taker):
                raise IllegalAction(
                    "only the contré team may surcontre or decline", "not_your_turn"
                )
            if kind == "decline" and seat != contract.taker:
                raise IllegalAction("only the bidder declines; you may surcontre")
            calls = (*state.calls, Call(seat, kind))
            coinche = 4 if kind == "surcontre" else 2
            return self._start_play(
                evolve(state, calls=calls),
                evolve(contract, coinche=coinche),
                [{"type": kind, "seat": seat}],
            )
        if kind == "contre":
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
        if kind not in ("pass", "bid"):
            raise self.reject(state, seat, action)
        self.check_turn(state, seat)
        nxt = (seat + 1) % PLAYERS
        if kind == "pass":
            calls = (*state.calls, Call(seat, "pass"))
            events: list[Event] = [{"type": "pass", "seat": seat}]
            passes = trailing_passes(calls)
            if contract is None and passes == PLAYERS:
                return self._cancel_deal(evolve(state, calls=calls), events)
            if contract is not None and passes == PLAYERS - 1:
                return self._start_play(evolve(state, calls=calls), contract, events)
            return evolve(state, calls=calls, turn=nxt), events
        value = action.get("value")
        if type(value) is not int or value not in BID_VALUES:  # 110.0 == 110, True == 1
            raise IllegalAction(
                "a bid needs a 'value': 80, 90, ... 160, 250 (capot) or 500 (générale)",
                "bad_action",
            )
        suit = self.check_suit(action)
        if contract is not None and value <= contract.value:
            raise IllegalAction(f"you must bid higher than {contract.value}")
        return (
            evolve(
                state,
                calls=(*state.calls, Call(seat, "bid", value=value, suit=suit)),
                contract=Contract(taker=seat, trump=suit, value=value),
                turn=nxt,
            ),
            [{"type": "bid", "seat": seat, "value": value, "suit": suit}],
        )

    def _auto_bid(self, state: BeloteState, seat: int, legal: list[Action]) -> Action:
        if seat not in self.to_act(state):
            # a seat's only moves out of turn are a contre or a surcontre: the player's choices,
            # never made for them
            raise IllegalAction(
                "the table moves only for the seat it waits on: it never contres nor surcontres",
                "not_your_turn",
            )
        if state.phase is Phase.SURCONTRE:
            return {"type": "decline"}
        if state.contract is None:
            suit = strong_suit(state.hands[seat], SUITS)
            if suit is not None:
                return {"type": "bid", "value": BID_VALUES[0], "suit": suit}
        return {"type": "pass"}

    # -- scoring --------------------------------------------------------------------------------

    def _score(self, state: BeloteState, t: Tally) -> tuple[tuple[int, int], bool]:
        assert state.contract is not None
        return deal_scores(state.contract, t)

    def _view_extra(self, state: BeloteState, seat: int | None) -> dict[str, Any]:
        return {"bid_labels": dict(BID_LABELS)}


GAME = register(Contree())
