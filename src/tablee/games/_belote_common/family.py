"""``BeloteFamily``: the game class belote and contrée share (dealing, the play, the end of a
deal and of the match, the views). The family's docstring (the package's) is its spec."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from tablee.cards import SUITS, check_deck, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.moves import Move, MoveTable, card_of
from tablee.engine.state import evolve
from tablee.games._breakdown import Line, breakdown
from tablee.games._tricks import (
    Trick,
    hand_events,
    last_trick_view,
    refusal,
    trick_view,
    without,
)

from . import annonces
from .auto import auto_card
from .rules import (
    DECK,
    DECK_SET,
    PLAYERS,
    TRICKS,
    BeloteState,
    Call,
    Contract,
    Phase,
    SheetRow,
    Tally,
    Variants,
    belote_call,
    belote_holder,
    card_points,
    playable_cards,
    sort_hand,
    tally,
    team_of,
    trick_rules,
    trick_winner,
)

PLAY_NEEDS_A_CARD = "a play needs a 'card' of the 32-card deck, e.g. 'JH'"
#: the bidding's refusal of a seat that may not speak now
NOT_YOUR_TURN_TO_SPEAK = "it is seat {turn}'s turn to speak"


def _bad(reason: str) -> IllegalAction:
    return IllegalAction(reason, "bad_action")


def _not_your_turn(reason: str = "it is not your turn") -> IllegalAction:
    return IllegalAction(reason, "not_your_turn")


class BeloteFamily(BaseGame[BeloteState]):
    min_players = PLAYERS
    max_players = PLAYERS
    state_type = BeloteState
    over_phase = Phase.OVER

    # -- hooks of each game -------------------------------------------------------------------

    @abstractmethod
    def _deal_cards(
        self, cards: Sequence[str], dealer: int
    ) -> tuple[list[list[str]], tuple[str, ...], str | None]:
        """(hands, stock, turned card) from a shuffled or stacked deck."""

    @abstractmethod
    def _bidding_legal(self, state: BeloteState, seat: int) -> list[Action]: ...

    @abstractmethod
    def _auto_bid(self, state: BeloteState, seat: int, legal: list[Action]) -> Action: ...

    @abstractmethod
    def _score(self, state: BeloteState, t: Tally) -> tuple[tuple[int, int], bool]:
        """The deal's scores per team and whether the contract was made."""

    @abstractmethod
    def _breakdown(self, state: BeloteState, t: Tally, made: bool) -> list[Line]:
        """How ``_score`` came to its scores, as breakdown lines per team (``_breakdown.py``)."""

    def _view_extra(self, state: BeloteState, seat: int | None) -> dict[str, Any]:
        return {}

    # -- construction and dealing -------------------------------------------------------------

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> BeloteState:
        cards = check_deck(deck, DECK) if deck is not None else shuffled(DECK, seed, "deal", 1)
        variants = Variants(
            sa_ta=bool(options.get("sa_ta")), annonces=bool(options.get("annonces"))
        )
        base = BeloteState(
            seed=seed,
            target=options.get("target"),
            deal=1,
            dealer=options["first_dealer"],
            phase=Phase.BIDDING,
            turn=0,
            hands=((),) * PLAYERS,
            variants=None if variants == Variants() else variants,
        )
        state, _ = self._start_deal(base, cards)
        return state

    def _start_deal(
        self, state: BeloteState, cards: Sequence[str]
    ) -> tuple[BeloteState, list[Event]]:
        hands, stock, turned = self._deal_cards(cards, state.dealer)
        first = (state.dealer + 1) % PLAYERS
        state = evolve(
            state,
            phase=Phase.BIDDING,
            turn=first,
            hands=tuple(tuple(h) for h in hands),
            stock=stock,
            turned=turned,
            round=1,
            calls=(),
            contract=None,
            leader=first,
            trick=(),
            tricks=(),
            belote_holder=None,
            announced=(),
            variants=annonces.fresh(state.variants),
        )
        public: Event = {"type": "deal", "seat": state.dealer, "deal": state.deal}
        if turned is not None:
            public["turned"] = turned
        events = [public]
        events += hand_events(hands)
        return state, events

    def _next_deal(
        self, state: BeloteState, events: list[Event]
    ) -> tuple[BeloteState, list[Event]]:
        deal = state.deal + 1
        state = evolve(state, deal=deal, dealer=(state.dealer + 1) % PLAYERS)
        state, more = self._start_deal(state, shuffled(DECK, state.seed, "deal", deal))
        return state, events + more

    def _cancel_deal(
        self, state: BeloteState, events: list[Event]
    ) -> tuple[BeloteState, list[Event]]:
        """Everybody passed: the deal goes on the sheet as cancelled and the next dealer deals."""
        row = SheetRow(deal=state.deal, dealer=state.dealer)
        state = evolve(state, sheet=(*state.sheet, row))
        events = [*events, {"type": "redeal", "seat": (state.dealer + 1) % PLAYERS}]
        return self._next_deal(state, events)

    def _start_play(
        self, state: BeloteState, contract: Contract, events: list[Event]
    ) -> tuple[BeloteState, list[Event]]:
        first = (state.dealer + 1) % PLAYERS
        state = evolve(
            state,
            phase=Phase.PLAY,
            contract=contract,
            turn=first,
            leader=first,
            belote_holder=belote_holder(state.hands, contract.trump),
        )
        events = [
            *events,
            {
                "type": "contract",
                "seat": contract.taker,
                "trump": contract.trump,
                "value": contract.value,
                "coinche": contract.coinche,
            },
        ]
        return state, events

    # -- moves ----------------------------------------------------------------------------------

    def players(self, state: BeloteState) -> int:
        return PLAYERS

    def to_act(self, state: BeloteState) -> tuple[int, ...]:
        phase = state.phase
        if phase is Phase.OVER:
            return ()
        if phase is Phase.SURCONTRE:
            assert state.contract is not None
            return (state.contract.taker,)
        return (state.turn,)

    def legal_actions(self, state: BeloteState, seat: int) -> list[Action]:
        phase = state.phase
        if phase is Phase.PLAY:
            if seat != state.turn:
                return []
            plays = [{"type": "play", "card": c} for c in playable_cards(state, seat)]
            kinds = annonces.may_announce(state, seat) if state.variants else None
            return plays if kinds is None else [{"type": "announce", "kinds": list(kinds)}, *plays]
        if phase is Phase.BIDDING or phase is Phase.SURCONTRE:
            return self._bidding_legal(state, seat)
        if phase is Phase.DEAL_OVER and seat == state.turn:
            return [{"type": "deal"}]
        return []

    def _deal_next(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        return self._next_deal(state, [])

    def auto_action(self, state: BeloteState, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise _not_your_turn("this seat has nothing to do now")
        if state.phase is Phase.PLAY:
            if legal[0]["type"] == "announce":  # announcing never costs the side a point
                return legal[0]
            return {"type": "play", "card": auto_card(state, seat, legal)}
        if state.phase is Phase.DEAL_OVER:
            return legal[0]
        return self._auto_bid(state, seat, legal)

    # -- the play of the cards ----------------------------------------------------------------

    def _play(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        card = action["card"]
        hand = state.hands[seat]
        if card not in playable_cards(state, seat):
            why = f"you do not hold {card}"
            if state.trick and card in hand:
                why = refusal(card, hand, state.trick, **trick_rules(state, seat)) or why
            raise IllegalAction(why)
        assert state.contract is not None
        trump = state.contract.trump
        hands = without(state.hands, seat, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        announced = state.announced
        call = belote_call(state, seat, card)
        if call is not None:
            announced = (*announced, call)
            events.append({"type": call.type, "seat": seat, "card": card})
        trick = (*state.trick, card)
        if len(trick) < PLAYERS:
            new = evolve(
                state,
                hands=hands,
                trick=trick,
                turn=(seat + 1) % PLAYERS,
                announced=announced,
            )
            return new, events
        w = (state.leader + trick_winner(trick, trump)) % PLAYERS
        tricks = (*state.tricks, Trick(state.leader, trick, w))
        events.append(
            {
                "type": "trick",
                "seat": w,
                "cards": trick_view(state.leader, trick, PLAYERS),
                "points": sum(card_points(c, trump) for c in trick),
            }
        )
        new = evolve(
            state,
            hands=hands,
            trick=(),
            tricks=tricks,
            leader=w,
            turn=w,
            announced=announced,
        )
        if len(tricks) == 1 and new.variants is not None:
            new = annonces.show(new, events)
        if len(tricks) < TRICKS:
            return new, events
        return self._end_deal(new, events)

    #: the phases every game of the family plays alike; each adds its bidding phases
    common_moves: ClassVar[MoveTable] = {
        Phase.PLAY: {
            "play": Move(
                _play,
                {"card": card_of(DECK_SET, PLAY_NEEDS_A_CARD, PLAY_NEEDS_A_CARD)},
                turn="it is seat {turn}'s turn to play",
                waits_on="turn",
            ),
            "announce": Move(
                annonces.announce, turn="it is seat {turn}'s turn to play", waits_on="turn"
            ),
        },
        Phase.DEAL_OVER: {
            "deal": Move(_deal_next, turn="seat {turn} deals the next deal", waits_on="turn")
        },
    }

    # -- the end of a deal and of the match -----------------------------------------------------

    def _end_deal(self, state: BeloteState, events: list[Event]) -> tuple[BeloteState, list[Event]]:
        contract = state.contract
        assert contract is not None
        t = tally(state)
        deal_scores, made = self._score(state, t)
        row = SheetRow(
            deal=state.deal,
            dealer=state.dealer,
            taker=contract.taker,
            trump=contract.trump,
            value=contract.value,
            coinche=contract.coinche,
            card_points=t.card_points,
            belote=t.belote,
            capot=t.capot,
            made=made,
            scores=deal_scores,
            annonces=t.annonces if state.variants and state.variants.annonces else None,
        )
        scores = (state.scores[0] + deal_scores[0], state.scores[1] + deal_scores[1])
        end = {
            "type": "deal_end",
            "seat": contract.taker,
            **_row_view(row),
            "breakdown": breakdown("team", 2, self._breakdown(state, t, made)),
        }
        events = [*events, end]
        state = evolve(state, scores=scores, sheet=(*state.sheet, row))
        if self._match_over(state):
            state = evolve(state, phase=Phase.OVER)
            out = self.outcome(state)
            assert out is not None
            events.append(
                {
                    "type": "game_end",
                    "seat": None,
                    "scores": out["scores"],
                    "winners": out["winners"],
                }
            )
            return state, events
        return evolve(state, phase=Phase.DEAL_OVER, turn=(state.dealer + 1) % PLAYERS), events

    def _match_over(self, state: BeloteState) -> bool:
        if state.target is None:
            return True
        a, b = state.scores
        return max(a, b) >= state.target and a != b

    def _winning_team(self, state: BeloteState) -> int:
        a, b = state.scores
        if state.target is None or a == b:
            # a single deal: the contract decides (made on a tie, "au moins")
            row = state.sheet[-1]
            assert row.taker is not None
            return team_of(row.taker) if row.made else 1 - team_of(row.taker)
        return 0 if a > b else 1

    def outcome(self, state: BeloteState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        team = self._winning_team(state)
        return {
            "scores": [state.scores[team_of(s)] for s in range(PLAYERS)],
            "winners": [s for s in range(PLAYERS) if team_of(s) == team],
            "team_scores": list(state.scores),
        }

    def to_json(self, state: BeloteState) -> dict[str, Any]:
        data = super().to_json(state)
        if data["variants"] is None:
            # a table without variants keeps the JSON form it always had
            del data["variants"]
            for row in data["sheet"]:
                del row["annonces"]
        return data

    def from_json(self, data: Mapping[str, Any]) -> BeloteState:
        if "variants" not in data:
            sheet = [{"annonces": None, **row} for row in data["sheet"]]
            data = {**data, "variants": None, "sheet": sheet}
        return super().from_json(data)

    # -- what is where ------------------------------------------------------------------------

    def _turned_on_table(self, state: BeloteState) -> bool:
        return state.turned is not None and state.phase is Phase.BIDDING

    def cards(self, state: BeloteState) -> list[str]:
        out = [c for h in state.hands for c in h]
        out += state.stock
        if self._turned_on_table(state):
            assert state.turned is not None
            out.append(state.turned)
        out += state.trick
        for t in state.tricks:
            out += t.cards
        return out

    def hidden(self, state: BeloteState, seat: int | None) -> frozenset[str]:
        secret = set(state.stock)
        for s, h in enumerate(state.hands):
            if s != seat:
                secret.update(h)
        if state.turned is not None:
            # everybody saw the turned card go to the taker
            secret.discard(state.turned)
        if state.variants is not None:
            # the announcements shown at the end of the first trick
            for a in annonces.shown(state.variants):
                secret.difference_update(a.cards)
        return frozenset(secret)

    def view(self, state: BeloteState, seat: int | None) -> dict[str, Any]:
        contract = state.contract
        trump = contract.trump if contract else None
        last = state.tricks[-1] if state.tricks else None
        won = [0] * PLAYERS
        for t in state.tricks:
            won[t.winner] += 1
        playing = state.phase in (Phase.BIDDING, Phase.PLAY, Phase.DEAL_OVER)
        out: dict[str, Any] = self.view_header(
            state,
            seat,
            turn=self.to_act(state)[0] if playing or state.phase is Phase.SURCONTRE else None,
            hand=None if seat is None else self._hand(state, seat),
            scores=[state.scores[team_of(s)] for s in range(PLAYERS)],
            deal=state.deal,
        )
        out |= {
            "team_scores": list(state.scores),
            "target": state.target,
            "turned": state.turned,
            "bids": [_call_view(c) for c in state.calls],
            "contract": None if contract is None else _contract_view(contract),
            "trump": trump,
            "leader": state.leader,
            "trick": trick_view(state.leader, state.trick, PLAYERS),
            "last_trick": last_trick_view(last, PLAYERS),
            "tricks_won": won,
            "team_tricks": [won[0] + won[2], won[1] + won[3]],
            "belote": [_belote_view(c) for c in state.announced],
            "sheet": [_row_view(r) for r in state.sheet],
        }
        out.update(self._view_extra(state, seat))
        variants = state.variants
        if variants is not None:
            out["variants"] = {"sa_ta": variants.sa_ta, "annonces": variants.annonces}
            if variants.annonces:
                out["annonces"] = annonces.view(variants)
        return out

    def views(
        self, state: BeloteState, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        return self._spectators_views(state, seats, lambda seat: {"hand": self._hand(state, seat)})

    @staticmethod
    def _hand(state: BeloteState, seat: int) -> list[str]:
        """The seat's hand in its order of play: by suit, the trump's by rank once it is known."""
        contract = state.contract
        trump = None if contract is None or state.phase is Phase.BIDDING else contract.trump
        return sort_hand(state.hands[seat], trump)

    # -- helpers for the bidding of each game -------------------------------------------------

    @staticmethod
    def check_suit(action: Action) -> str:
        suit = action.get("suit")
        if suit not in SUITS:
            raise _bad("name a trump 'suit': S, H, D or C")
        assert isinstance(suit, str)
        return suit


def _belote_view(call: Call) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": call.seat, "type": call.type}
    if call.suit is not None:  # tout-atout: the pair's suit
        out["suit"] = call.suit
    return out


def _call_view(call: Call) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": call.seat, "type": call.type}
    if call.value is not None:
        out["value"] = call.value
    if call.suit is not None:
        out["suit"] = call.suit
    return out


def _contract_view(c: Contract) -> dict[str, Any]:
    return {"taker": c.taker, "trump": c.trump, "value": c.value, "coinche": c.coinche}


def _row_view(r: SheetRow) -> dict[str, Any]:
    return {
        "deal": r.deal,
        "dealer": r.dealer,
        "taker": r.taker,
        "trump": r.trump,
        "value": r.value,
        "coinche": r.coinche,
        "card_points": list(r.card_points),
        "belote": list(r.belote),
        "capot": r.capot,
        "made": r.made,
        "cancelled": r.made is None,
        "scores": list(r.scores),
        **({} if r.annonces is None else {"annonces": list(r.annonces)}),
    }
