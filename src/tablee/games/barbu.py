"""Barbu: five rounds of tricks without trump, each with its own penalty; the lowest total wins.

Rules: the barbu section of the house rule text, with the choices of ``DECISIONS.md``.

Variant and options
-------------------
- 4 players with 52 cards (13 each), or 5 players without the two black 2s (``2C``, ``2S``: 50
  cards, 10 each). No table options of its own (``first_dealer``, common to every game: see
  Seats). Card order, strongest first: A K Q J T 9 ... 2.
- A match is five rounds, always in this order (the ``contract`` key of views and events):

  ===== ========== ===============================================
  round contract   each trick costs its winner
  ===== ========== ===============================================
  1     ``tricks`` 5 points per trick
  2     ``hearts`` 5 points per heart
  3     ``queens`` 20 points per queen
  4     ``king``   80 points for the king of hearts (the barbu)
  5     ``all``    every one of the above: Q♥ 3♥ T♣ K♣ costs 20 + 10 + 5 = 35; K♥ alone 80 + 5 + 5
  ===== ========== ===============================================

  Totals of a round: tricks 65 at four players, 50 at five; hearts 65; queens 80; king 80; all 290
  at four, 275 at five. The lowest total after round 5 wins (ties: every tied seat wins).
- No trump: follow the suit led if you can, else play anything; the highest card of the suit led
  takes the trick and its winner leads the next one. Every card is played in every round.
- In rounds 2, 4 and 5 a heart may not be led until a heart has been discarded on another suit in
  that round, unless the leader holds only hearts (leading a heart then does not open hearts).
- Seats: the first dealer is the option ``first_dealer`` (default seat ``n-1``; a rematch moves it
  one seat), the seat after the dealer leads the first trick, and that first leader deals the next
  round (so the dealer moves one seat per round).

Phases
------
- ``play``: ``turn`` plays a card.
- ``deal``: a round is over (its last trick still shows as ``last_trick``); the next round's dealer
  deals it. The very first round is dealt by ``new``.
- ``over``: after round 5.

Actions
-------
- ``{"type": "play", "card": "QH"}`` — the seat on turn plays a card of its hand.
- ``{"type": "deal"}`` — in phase ``deal``, the dealer of the next round deals it.

Events
------
- ``deal`` (public): ``seat`` (dealer), ``deal`` (round 1-5), ``contract``.
- ``hand`` (``to`` its owner only): ``seat``, ``cards`` — the hand just dealt.
- ``play``: ``seat``, ``card``.
- ``trick``: ``seat`` (the winner), ``cards`` (play order), ``points`` (what the trick cost).
- ``deal_end``: ``seat`` None, ``deal``, ``contract``, ``scores`` (the round, per seat),
  ``totals`` (running, per seat).
- ``game_end``: ``seat`` None, ``scores``, ``winners``.

Views
-----
The common keys (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand`` (own
cards, sorted; None for a spectator), ``counts``, ``scores`` (running totals), ``deal`` (round
1-5), ``trump`` (always None), ``trick`` ([{"seat", "card"}...]), ``last_trick``
({"cards": [...], "winner": s} or None), ``bids`` (always []), ``tricks_won`` (this round)) and:

- ``contract``: the round's contract (see the table above);
- ``points``: what each seat has taken this round so far;
- ``hearts_broken``: a heart has been discarded on another suit this round;
- ``sheet``: one list of per-seat points for every finished round, in order.

Cards already played are public; a seat sees its own hand only, a spectator no hand.

Dealing order for ``deck=``
---------------------------
The stacked deck (52 cards at four players, 50 at five) deals round 1 only: one card at a time,
starting with the seat after the dealer ``d`` and going round: card ``i`` goes to seat
``(d + 1 + i) % n`` (``i % n`` with the default dealer). Later rounds are shuffled from
``rng(seed, "deal", round)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tablee.cards import deck_52, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.state import evolve
from tablee.games.registry import register

from ._tricks import (
    STANDARD_POWER,
    Trick,
    french_card,
    french_suit,
    hand_events,
    last_trick_view,
    playable,
    raised,
    standard_hand,
    trick_view,
    winner,
    without,
)

ROUNDS = ("tricks", "hearts", "queens", "king", "all")
#: the rounds (0-based) where a heart may not be led before one has been discarded
HEART_LEAD_RULE = frozenset({1, 3, 4})
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

_power = STANDARD_POWER


class Phase(StrEnum):
    PLAY = "play"
    DEAL = "deal"
    OVER = "over"


@dataclass(frozen=True)
class BarbuState:
    players: int
    seed: int | str
    phase: Phase
    #: 0-based; in phase ``deal``, the round about to be dealt
    round: int
    #: in phase ``deal``, the dealer of the round about to be dealt
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turn: int
    leader: int
    trick: tuple[str, ...]
    hearts_broken: bool
    #: cards won this round, per seat
    taken: tuple[tuple[str, ...], ...]
    tricks_won: tuple[int, ...]
    #: points taken this round, per seat
    points: tuple[int, ...]
    last_trick: Trick | None
    scores: tuple[int, ...]
    sheet: tuple[tuple[int, ...], ...]


def card_points(card: str, rnd: int) -> int:
    """What one card costs the trick's winner in round ``rnd`` (0-based), the trick itself aside."""
    pts = 0
    if card[1] == "H" and rnd in (1, 4):
        pts += 5
    if card[0] == "Q" and rnd in (2, 4):
        pts += 20
    if card == "KH" and rnd in (3, 4):
        pts += 80
    return pts


def trick_points(cards: Sequence[str], rnd: int) -> int:
    """What a whole trick costs its winner in round ``rnd`` (0-based)."""
    return (5 if rnd in (0, 4) else 0) + sum(card_points(c, rnd) for c in cards)


def barbu_deck(players: int) -> list[str]:
    cards = deck_52()
    if players == 5:
        cards = [c for c in cards if c not in ("2C", "2S")]
    return cards


class Barbu(BaseGame[BarbuState]):
    name = "barbu"
    title = "Barbu"
    min_players = 4
    max_players = 5
    state_type = BarbuState
    summary = "Cinq manches de levées sans atout : plis, cœurs, dames, barbu, puis tout à la fois."

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

    # -- rules ----------------------------------------------------------------------------------

    def legal_cards(self, state: BarbuState, seat: int) -> list[str]:
        if state.phase is not Phase.PLAY or seat != state.turn:
            return []
        hand = state.hands[seat]
        if state.trick:
            return playable(hand, state.trick, french_suit, None)
        if state.round in HEART_LEAD_RULE and not state.hearts_broken:
            others = [c for c in hand if c[1] != "H"]
            if others:
                return others
        return list(hand)

    def legal_actions(self, state: BarbuState, seat: int) -> list[Action]:
        if state.phase is Phase.DEAL:
            return [{"type": "deal"}] if seat == state.dealer else []
        return [{"type": "play", "card": c} for c in self.legal_cards(state, seat)]

    def _apply(
        self, state: BarbuState, seat: int, action: Action
    ) -> tuple[BarbuState, list[Event]]:
        kind = action["type"]
        if state.phase is Phase.DEAL:
            if kind != "deal":
                raise self.reject(state, seat, action)
            if seat != state.dealer:
                raise IllegalAction("it is not your turn to deal", "not_your_turn")
            cards = shuffled(barbu_deck(state.players), state.seed, "deal", state.round + 1)
            return self._dealt(state, cards)
        if kind != "play":
            raise self.reject(state, seat, action)
        if seat != state.turn:
            raise IllegalAction("it is not your turn", "not_your_turn")
        card = french_card(action)
        if card not in state.hands[seat]:
            raise IllegalAction(f"you do not hold {card}")
        if card not in self.legal_cards(state, seat):
            if state.trick:
                raise IllegalAction(f"you must follow {SUIT_WORDS[state.trick[0][1]]}")
            raise IllegalAction(
                "you may not lead a heart until a heart has been discarded on another suit"
            )
        return self._play(state, seat, card)

    def _play(self, state: BarbuState, seat: int, card: str) -> tuple[BarbuState, list[Event]]:
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
        won_by = (state.leader + winner(trick, french_suit, None, _power)) % n
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

    def _round_end(
        self, state: BarbuState, events: list[Event]
    ) -> tuple[BarbuState, list[Event]]:
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
            winners = _lowest(scores)
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

    # -- reading the state ----------------------------------------------------------------------

    def players(self, state: BarbuState) -> int:
        return state.players

    def to_act(self, state: BarbuState) -> tuple[int, ...]:
        if state.phase is Phase.PLAY:
            return (state.turn,)
        if state.phase is Phase.DEAL:
            return (state.dealer,)
        return ()

    def is_over(self, state: BarbuState) -> bool:
        return state.phase is Phase.OVER

    def outcome(self, state: BarbuState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        return {
            "scores": list(state.scores),
            "winners": _lowest(state.scores),
            "sheet": [list(row) for row in state.sheet],
        }

    def cards(self, state: BarbuState) -> list[str]:
        out = [c for hand in state.hands for c in hand]
        out += state.trick
        out += [c for pile in state.taken for c in pile]
        return out

    def hidden(self, state: BarbuState, seat: int | None) -> frozenset[str]:
        return frozenset(
            c for s, hand in enumerate(state.hands) if s != seat for c in hand
        )

    def view(self, state: BarbuState, seat: int | None) -> dict[str, Any]:
        n = state.players
        return {
            "game": self.name,
            "players": n,
            "phase": state.phase.value,
            "seat": seat,
            "dealer": state.dealer,
            "turn": state.turn if state.phase is Phase.PLAY else None,
            "hand": None if seat is None else list(state.hands[seat]),
            "counts": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "deal": state.round + 1,
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
        """Duck tricks and shed what costs: lead low and safe, follow with the highest card that
        still loses, discard the most expensive card (the barbu, queens, hearts, then high cards);
        when a trick cannot be avoided, take it with the highest card that costs nothing."""
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn", "not_your_turn")
        if state.phase is Phase.DEAL:
            return {"type": "deal"}
        legal = self.legal_cards(state, seat)
        rnd = state.round

        def cost(card: str) -> int:
            return card_points(card, rnd)

        if not state.trick:
            card = min(legal, key=lambda c: (cost(c) > 0, _power(c), c))
            return {"type": "play", "card": card}
        led = state.trick[0][1]
        follow = [c for c in legal if c[1] == led]
        if not follow:
            card = max(legal, key=lambda c: (cost(c), _power(c), c))
            return {"type": "play", "card": card}
        best = max(_power(c) for c in state.trick if c[1] == led)
        under = [c for c in follow if _power(c) < best]
        if under:
            card = max(under, key=lambda c: (cost(c), _power(c)))
        elif len(state.trick) == state.players - 1:
            card = max(follow, key=lambda c: (-cost(c), _power(c)))
        else:
            # someone after us may still go over: stay as low as we can
            card = min(follow, key=lambda c: (cost(c), _power(c)))
        return {"type": "play", "card": card}


def _lowest(scores: Sequence[int]) -> list[int]:
    low = min(scores)
    return [s for s, v in enumerate(scores) if v == low]


GAME = register(Barbu())
