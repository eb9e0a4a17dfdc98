"""What belote and contrée share: the seats and teams, the state, the play of the cards,
Belote/Rebelote, the count of a deal, the pause between deals, the match, the views.

A game of the family (``belote.py``, ``contree.py``) subclasses :class:`BeloteFamily` and supplies
the dealing (``_deal_cards``), the bidding (``_bidding_legal``, ``_apply_bidding``,
``_auto_bid``) and the scoring of a finished deal (``_score``). Their module docstrings are the
specs; this module implements what those specs say in common:

- 4 seats, teams {0, 2} and {1, 3}; the first deal's dealer is the option ``first_dealer``
  (default seat 3; a rematch moves it one seat); the dealer moves one seat each deal (a cancelled
  deal included); the seat after the dealer speaks and leads first.
- Play: follow the led suit; void in a plain suit, trump when an opponent holds the trick,
  overtrumping when you can and undertrumping when you cannot; when your partner holds the trick
  you may play any card, but a trump you choose to play must overtrump when you can; on a trump
  lead, go higher when you can. Trump order J 9 A T K Q 8 7, plain order A T K Q J 9 8 7.
- Belote/Rebelote: the seat holding the K and Q of trump once the hands are complete announces
  "belote" with the first of them played and "rebelote" with the second, automatically; 20 points
  to that seat's team.
- The count: card points (152) + 10 for the last trick; a team taking all 8 tricks counts 252.
- After a scored deal that does not end the match, the game pauses in phase ``deal_over`` (the
  last trick and the deal's sheet row stay on view) until the next dealer sends
  ``{"type": "deal"}`` (timeout: the table deals).
"""

from __future__ import annotations

import enum
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import SUITS, check_deck, deck_32, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.state import evolve

from ._tricks import (
    BELOTE_PLAIN_ORDER,
    BELOTE_TRUMP_ORDER,
    Trick,
    belote_points,
    french_suit,
    hand_events,
    last_trick_view,
    order_power,
    playable,
    refusal,
    trick_view,
    winner,
    without,
)

PLAYERS = 4
TOTAL = 162  # 152 card points + 10 for the last trick
CAPOT = 252  # 152 + 100 when a team takes every trick
LAST_TRICK = 10
BELOTE = 20
TRICKS = 8

PLAIN_POWER = order_power(BELOTE_PLAIN_ORDER)
TRUMP_POWER = order_power(BELOTE_TRUMP_ORDER)
DECK = tuple(deck_32())
DECK_SET = frozenset(DECK)


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % PLAYERS


class Phase(enum.StrEnum):
    BIDDING = "bidding"
    SURCONTRE = "surcontre"  # contrée: the window after a contre
    PLAY = "play"
    DEAL_OVER = "deal_over"  # a deal is scored; the next dealer deals
    OVER = "over"


@dataclass(frozen=True)
class Call:
    """One bidding action: ``type`` is pass / take / bid / contre / surcontre / decline."""

    seat: int
    type: str
    value: int | None = None
    suit: str | None = None


@dataclass(frozen=True)
class Contract:
    """The contract: in contrée bidding, the highest bid so far. ``value`` is 0 in belote;
    ``coinche`` is 1, 2 (contré) or 4 (surcontré)."""

    taker: int
    trump: str
    value: int = 0
    coinche: int = 1


@dataclass(frozen=True)
class SheetRow:
    """One deal on the score sheet; ``made`` is None for a cancelled deal (everybody passed)."""

    deal: int
    dealer: int
    taker: int | None = None
    trump: str | None = None
    value: int = 0
    coinche: int = 1
    card_points: tuple[int, int] = (0, 0)
    belote: tuple[int, int] = (0, 0)
    capot: int | None = None  # the team that took every trick
    made: bool | None = None
    scores: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class BeloteState:
    seed: int | str
    target: int | None
    deal: int  # 1-based, every deal counted (cancelled ones too): salts the shuffle
    dealer: int
    phase: Phase
    turn: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...] = ()  # belote: the cards dealt after the take
    turned: str | None = None  # belote: the turned card (kept on view for the whole deal)
    round: int = 1  # belote: bidding round 1 or 2
    calls: tuple[Call, ...] = ()
    contract: Contract | None = None
    leader: int = 0
    trick: tuple[str, ...] = ()
    tricks: tuple[Trick, ...] = ()
    belote_holder: int | None = None
    announced: tuple[Call, ...] = ()  # type "belote" / "rebelote"
    scores: tuple[int, int] = (0, 0)
    sheet: tuple[SheetRow, ...] = ()


@dataclass(frozen=True)
class Tally:
    """What a finished deal's tricks are worth."""

    card_points: tuple[int, int]
    belote: tuple[int, int]
    capot: int | None  # the team that took every trick
    tricks_by_seat: tuple[int, ...]


def tally(state: BeloteState) -> Tally:
    assert state.contract is not None
    trump = state.contract.trump
    points = [0, 0]
    by_seat = [0] * PLAYERS
    for t in state.tricks:
        points[team_of(t.winner)] += sum(belote_points(c, trump) for c in t.cards)
        by_seat[t.winner] += 1
    team_tricks = (by_seat[0] + by_seat[2], by_seat[1] + by_seat[3])
    capot = next((team for team in (0, 1) if team_tricks[team] == TRICKS), None)
    if capot is not None:
        points[capot] = CAPOT
    else:
        points[team_of(state.tricks[-1].winner)] += LAST_TRICK
    belote = [0, 0]
    if len(state.announced) == 2:
        belote[team_of(state.announced[0].seat)] = BELOTE
    return Tally((points[0], points[1]), (belote[0], belote[1]), capot, tuple(by_seat))


def belote_holder(hands: Sequence[Sequence[str]], trump: str) -> int | None:
    pair = {"K" + trump, "Q" + trump}
    return next((s for s, h in enumerate(hands) if pair <= set(h)), None)


def strong_suit(hand: Sequence[str], suits: Sequence[str], extra: str | None = None) -> str | None:
    """The timeout bidder's test: a suit in which the hand (plus ``extra``, the turned card it
    would get) is clearly strong — its J with 5 trumps, or with 4 trumps and the 9 or an outside
    ace, or with 3 trumps, the 9 and an outside ace; the strongest such suit, else None."""
    cards = [*hand, extra] if extra else list(hand)
    best: tuple[int, str] | None = None
    for s in suits:
        trumps = [c for c in cards if c[1] == s]
        ranks = {c[0] for c in trumps}
        if "J" not in ranks:
            continue
        n, nine = len(trumps), "9" in ranks
        ace = any(c[1] != s and c[0] == "A" for c in cards)
        if not (n >= 5 or (n >= 4 and (nine or ace)) or (n >= 3 and nine and ace)):
            continue
        strength = sum(belote_points(c, s) for c in trumps) + 10 * n
        if best is None or strength > best[0]:
            best = (strength, s)
    return None if best is None else best[1]


def deal_packets(
    cards: Sequence[str], dealer: int, packets: Sequence[int]
) -> tuple[list[list[str]], int]:
    """Deal ``packets`` (e.g. 3 then 2) to each seat in turn from the seat after the dealer;
    returns the hands and how many cards were used."""
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    pos = 0
    for n in packets:
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            hands[seat] += cards[pos : pos + n]
            pos += n
    return hands, pos


def stack_packets(
    hands: Sequence[Sequence[str]], dealer: int, packets: Sequence[int]
) -> tuple[list[str], list[list[str]]]:
    """The inverse of ``deal_packets``: the top of a deck that deals each seat the first cards of
    its hand in ``packets``, and what is left of each hand."""
    rest = [list(h) for h in hands]
    deck: list[str] = []
    for n in packets:
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            deck += rest[seat][:n]
            del rest[seat][:n]
    return deck, rest


def sort_hand(hand: Sequence[str], trump: str | None) -> list[str]:
    def key(card: str) -> tuple[int, int]:
        s = card[1]
        power = TRUMP_POWER(card) if s == trump else PLAIN_POWER(card)
        return (-1 if s == trump else SUITS.index(s), -power)

    return sorted(hand, key=key)


def _bad(reason: str) -> IllegalAction:
    return IllegalAction(reason, "bad_action")


def _not_your_turn(reason: str = "it is not your turn") -> IllegalAction:
    return IllegalAction(reason, "not_your_turn")


class BeloteFamily(BaseGame[BeloteState]):
    min_players = PLAYERS
    max_players = PLAYERS
    state_type = BeloteState

    # -- hooks of each game -------------------------------------------------------------------

    @abstractmethod
    def _deal_cards(
        self, cards: Sequence[str], dealer: int
    ) -> tuple[list[list[str]], tuple[str, ...], str | None]:
        """(hands, stock, turned card) from a shuffled or stacked deck."""

    @abstractmethod
    def _bidding_legal(self, state: BeloteState, seat: int) -> list[Action]: ...

    @abstractmethod
    def _apply_bidding(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]: ...

    @abstractmethod
    def _auto_bid(self, state: BeloteState, seat: int, legal: list[Action]) -> Action: ...

    @abstractmethod
    def _score(self, state: BeloteState, t: Tally) -> tuple[tuple[int, int], bool]:
        """The deal's scores per team and whether the contract was made."""

    def _view_extra(self, state: BeloteState, seat: int | None) -> dict[str, Any]:
        return {}

    # -- construction and dealing -------------------------------------------------------------

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> BeloteState:
        cards = check_deck(deck, DECK) if deck is not None else shuffled(DECK, seed, "deal", 1)
        base = BeloteState(
            seed=seed,
            target=options.get("target"),
            deal=1,
            dealer=options["first_dealer"],
            phase=Phase.BIDDING,
            turn=0,
            hands=((),) * PLAYERS,
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

    def is_over(self, state: BeloteState) -> bool:
        return state.phase is Phase.OVER

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
            return [{"type": "play", "card": c} for c in self._playable(state, seat)]
        if phase is Phase.BIDDING or phase is Phase.SURCONTRE:
            return self._bidding_legal(state, seat)
        if phase is Phase.DEAL_OVER and seat == state.turn:
            return [{"type": "deal"}]
        return []

    def _apply(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        phase = state.phase
        if phase is Phase.PLAY:
            return self._apply_play(state, seat, action)
        if phase is Phase.BIDDING or phase is Phase.SURCONTRE:
            return self._apply_bidding(state, seat, action)
        assert phase is Phase.DEAL_OVER
        if action["type"] != "deal":
            raise self.reject(state, seat, action)
        if seat != state.turn:
            raise _not_your_turn(f"seat {state.turn} deals the next deal")
        return self._next_deal(state, [])

    def auto_action(self, state: BeloteState, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise _not_your_turn("this seat has nothing to do now")
        if state.phase is Phase.PLAY:
            return {"type": "play", "card": self._auto_card(state, seat, legal)}
        if state.phase is Phase.DEAL_OVER:
            return legal[0]
        return self._auto_bid(state, seat, legal)

    # -- the play of the cards ----------------------------------------------------------------

    def _trick_rules(self, state: BeloteState, seat: int) -> dict[str, Any]:
        assert state.contract is not None
        trump = state.contract.trump
        partner_master = False
        if state.trick:
            w = winner(state.trick, french_suit, trump, PLAIN_POWER, TRUMP_POWER)
            partner_master = (state.leader + w) % PLAYERS == partner_of(seat)
        return {
            "suit": french_suit,
            "trump": trump,
            "trump_power": TRUMP_POWER,
            "must_trump": True,
            "must_overtrump": True,
            "partner_master": partner_master,
            "overtrump_when_free": True,
        }

    def _playable(self, state: BeloteState, seat: int) -> list[str]:
        hand = state.hands[seat]
        if not state.trick:
            return list(hand)
        return playable(hand, state.trick, **self._trick_rules(state, seat))

    def _apply_play(
        self, state: BeloteState, seat: int, action: Action
    ) -> tuple[BeloteState, list[Event]]:
        if action["type"] != "play":
            raise self.reject(state, seat, action)
        if seat != state.turn:
            raise _not_your_turn(f"it is seat {state.turn}'s turn to play")
        card = action.get("card")
        if not isinstance(card, str) or card not in DECK_SET:
            raise _bad("a play needs a 'card' of the 32-card deck, e.g. 'JH'")
        hand = state.hands[seat]
        if card not in self._playable(state, seat):
            why = f"you do not hold {card}"
            if state.trick and card in hand:
                why = refusal(card, hand, state.trick, **self._trick_rules(state, seat)) or why
            raise IllegalAction(why)
        assert state.contract is not None
        trump = state.contract.trump
        hands = without(state.hands, seat, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        announced = state.announced
        if seat == state.belote_holder and card[1] == trump and card[0] in "KQ":
            kind = "rebelote" if announced else "belote"
            announced = (*announced, Call(seat, kind))
            events.append({"type": kind, "seat": seat, "card": card})
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
        w = (state.leader + winner(trick, french_suit, trump, PLAIN_POWER, TRUMP_POWER)) % PLAYERS
        tricks = (*state.tricks, Trick(state.leader, trick, w))
        events.append(
            {
                "type": "trick",
                "seat": w,
                "cards": trick_view(state.leader, trick, PLAYERS),
                "points": sum(belote_points(c, trump) for c in trick),
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
        if len(tricks) < TRICKS:
            return new, events
        return self._end_deal(new, events)

    def _auto_card(self, state: BeloteState, seat: int, legal: list[Action]) -> str:
        """The cheapest legal card with which the seat's team still holds the trick, else the
        cheapest legal card. Cheapest: fewest card points, then a plain card before a trump,
        then the lowest."""
        assert state.contract is not None
        trump = state.contract.trump
        cards = [a["card"] for a in legal]

        def cost(c: str) -> tuple[int, bool, int]:
            is_trump = c[1] == trump
            power = TRUMP_POWER if is_trump else PLAIN_POWER
            return (belote_points(c, trump), is_trump, power(c))

        team = team_of(seat)
        keeping = []
        for c in cards:
            trick = (*state.trick, c)
            w = winner(trick, french_suit, trump, PLAIN_POWER, TRUMP_POWER)
            if team_of(state.leader + w) == team:
                keeping.append(c)
        return min(keeping or cards, key=cost)

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
        )
        scores = (state.scores[0] + deal_scores[0], state.scores[1] + deal_scores[1])
        events = [*events, {"type": "deal_end", "seat": contract.taker, **_row_view(row)}]
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
        return frozenset(secret)

    def view(self, state: BeloteState, seat: int | None) -> dict[str, Any]:
        contract = state.contract
        trump = contract.trump if contract else None
        last = state.tricks[-1] if state.tricks else None
        won = [0] * PLAYERS
        for t in state.tricks:
            won[t.winner] += 1
        playing = state.phase in (Phase.BIDDING, Phase.PLAY, Phase.DEAL_OVER)
        out: dict[str, Any] = {
            "game": self.name,
            "players": PLAYERS,
            "phase": state.phase.value,
            "seat": seat,
            "dealer": state.dealer,
            "turn": self.to_act(state)[0] if playing or state.phase is Phase.SURCONTRE else None,
            "hand": None
            if seat is None
            else sort_hand(state.hands[seat], None if state.phase is Phase.BIDDING else trump),
            "counts": [len(h) for h in state.hands],
            "scores": [state.scores[team_of(s)] for s in range(PLAYERS)],
            "team_scores": list(state.scores),
            "target": state.target,
            "deal": state.deal,
            "turned": state.turned,
            "bids": [_call_view(c) for c in state.calls],
            "contract": None if contract is None else _contract_view(contract),
            "trump": trump,
            "leader": state.leader,
            "trick": trick_view(state.leader, state.trick, PLAYERS),
            "last_trick": last_trick_view(last, PLAYERS),
            "tricks_won": won,
            "team_tricks": [won[0] + won[2], won[1] + won[3]],
            "belote": [{"seat": c.seat, "type": c.type} for c in state.announced],
            "sheet": [_row_view(r) for r in state.sheet],
        }
        out.update(self._view_extra(state, seat))
        return out

    # -- helpers for the bidding of each game -------------------------------------------------

    @staticmethod
    def check_turn(state: BeloteState, seat: int) -> None:
        if seat != state.turn:
            raise _not_your_turn(f"it is seat {state.turn}'s turn to speak")

    @staticmethod
    def check_suit(action: Action) -> str:
        suit = action.get("suit")
        if suit not in SUITS:
            raise _bad("name a trump 'suit': S, H, D or C")
        assert isinstance(suit, str)
        return suit


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
    }
