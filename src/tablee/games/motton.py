"""Motton: 20 rounds of 10 down to 1 and back up to 10 cards; bid your tricks, make them exactly.

Rules: the motton section of the house rule text, with the choices of ``DECISIONS.md``.

Variant and options
-------------------
- 2 to 5 players, 52 cards, order A K Q J T 9 ... 2 (ace high). Round ``r`` (1-20) deals
  10, 9, ..., 1, 1, 2, ..., 10 cards each; the next card is turned up and gives trump, except a
  king: that round is played without trump.
- Bids: from the seat after the dealer, each seat bids once how many tricks it will take, 0 up to
  the cards in hand.
- Play: the seat after the dealer leads; follow the suit led if you can, else play anything (no
  obligation to trump or to go higher). The highest trump takes the trick, else the highest card of
  the suit led; the winner leads next.
- Score: a seat that takes exactly its bid scores ``(10 + tricks - cards) * tricks + 10``; any
  other seat scores nothing that round. If nobody makes their bid, the round is replayed: the same
  number of cards, a new deal, the same dealer. Otherwise the seat after the dealer (the round's
  first leader) deals the next round. Highest total after round 20 wins (ties: every tied seat).
- Options: ``blind`` (false): bids are made before the turned card is shown; it stays hidden from
  everyone (the dealer too) until the last bid, then is turned up. ``constrained`` (false): the
  last bidder may not bid the number that makes the bids add up to the cards in hand.
  ``first_dealer`` (common to every game; default seat ``n-1``, a rematch moves it one seat): the
  dealer of round 1.

Phases
------
- ``bid``: ``turn`` bids.
- ``play``: ``turn`` plays a card.
- ``deal``: a round is over (its last trick still shows as ``last_trick``); ``dealer`` deals the
  next round, or the replay of this one. The first round is dealt by ``new``.
- ``over``: after round 20.

Actions
-------
- ``{"type": "bid", "value": 2}`` — an int, 0 to the cards in hand (in ``constrained``, not the
  value that would make the bids total the cards in hand, for the last bidder).
- ``{"type": "play", "card": "QH"}``.
- ``{"type": "deal"}`` — in phase ``deal``, by ``dealer``.

Events
------
- ``deal`` (public): ``seat`` (dealer), ``deal`` (round 1-20), ``cards`` (per hand), ``replay``
  (how many times this round has been replayed so far: 0 on its first deal).
- ``hand`` (``to`` its owner only): ``seat``, ``cards``.
- ``turn_up``: ``seat`` (dealer), ``card``, ``trump`` (a suit letter, or None after a king). At the
  deal, or after the last bid with ``blind``.
- ``bid``: ``seat``, ``value``.
- ``play``: ``seat``, ``card``. ``trick``: ``seat`` (the winner), ``cards`` (play order).
- ``deal_end``: ``seat`` None, ``deal``, ``cards``, ``bids``, ``tricks``, ``scores`` (points of
  the round per seat), ``totals``, ``replayed`` (true: nobody made it, it is dealt again).
- ``game_end``: ``seat`` None, ``scores``, ``winners``.

Views
-----
The common keys (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand`` (own
cards, sorted; None for a spectator), ``counts``, ``scores`` (running totals), ``deal`` (round
1-20), ``trump`` (suit letter or None; None too while a blind turn-up is hidden), ``trick``
([{"seat", "card"}...]), ``last_trick`` ({"cards": [...], "winner": s} or None), ``bids`` ([{"seat",
"value"}...] in bidding order), ``tricks_won``) and:

- ``cards``: how many cards each seat was dealt this round (an int); ``replay``: times this
  round was replayed;
- ``turned``: the turned card, or None while it is hidden (``blind``, before the last bid);
  ``turned_hidden``: whether it is;
- ``forbidden_bid``: in ``constrained``, the value the last bidder may not bid when they are on
  turn, else None;
- ``blind``, ``constrained``: the options;
- ``sheet``: one row per round made, in order: {"deal", "cards", "dealer", "trump", "bids",
  "tricks", "scores", "replays"} (``replays``: how many deals of that round nobody made; their
  bids and tricks are in their ``deal_end`` events).

A seat sees its own hand only; the undealt stock is hidden from everyone; played cards are public.

Dealing order for ``deck=``
---------------------------
A full 52-card deck stacks round 1 only: one card at a time, starting with the seat after the
dealer ``d``: card ``i < 10 n`` goes to seat ``(d + 1 + i) % n`` (``i % n`` with the default
dealer); card ``10 n`` is turned up; the rest is
the stock. Later deals are shuffled from ``rng(seed, "deal", round)``, and a replay from
``rng(seed, "deal", round, "replay", k)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tablee.cards import deck_52, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction, OptionSpec
from tablee.engine.state import evolve
from tablee.games.registry import register

from ._tricks import (
    STANDARD_ORDER,
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

ROUND_CARDS = (*range(10, 0, -1), *range(1, 11))
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

_power = STANDARD_POWER


def round_score(cards: int, tricks: int) -> int:
    """Points for a bid made exactly (the text's formula and table)."""
    return (10 + tricks - cards) * tricks + 10


def trump_of(turned: str) -> str | None:
    return None if turned[0] == "K" else turned[1]


class Phase(StrEnum):
    BID = "bid"
    PLAY = "play"
    DEAL = "deal"
    OVER = "over"


@dataclass(frozen=True)
class Row:
    """One line of the score sheet: a round as it was finally played."""

    deal: int
    cards: int
    dealer: int
    trump: str | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    #: deals of this round that nobody made before this one
    replays: int


@dataclass(frozen=True)
class MottonState:
    players: int
    seed: int | str
    blind: bool
    constrained: bool
    phase: Phase
    #: 0-based; in phase ``deal``, the round about to be dealt
    round: int
    #: times the current round has been replayed (0 on its first deal)
    replay: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    turned: str
    #: the turned card is shown (always, except during a blind bidding)
    revealed: bool
    bids: tuple[int | None, ...]
    turn: int
    leader: int
    trick: tuple[str, ...]
    #: cards of this round's finished tricks
    played: tuple[str, ...]
    tricks_won: tuple[int, ...]
    last_trick: Trick | None
    scores: tuple[int, ...]
    sheet: tuple[Row, ...]


class Motton(BaseGame[MottonState]):
    name = "motton"
    title = "Motton"
    min_players = 2
    max_players = 5
    state_type = MottonState
    option_specs = (
        OptionSpec(
            "blind",
            "bool",
            False,
            "À l'aveugle",
            help="On annonce sans connaître l'atout, retourné une fois les annonces faites.",
        ),
        OptionSpec(
            "constrained",
            "bool",
            False,
            "Avec contrainte",
            help="La somme des annonces ne peut pas égaler le nombre de cartes en main.",
        ),
    )
    summary = "Annoncez vos levées et réalisez-les exactement, en 20 tours de 10 à 1 à 10 cartes."

    # -- construction ---------------------------------------------------------------------------

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return deck_52()

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> MottonState:
        cards = self.first_cards(deck, deck_52(), seed)
        zeros = (0,) * players
        state = MottonState(
            players=players,
            seed=seed,
            blind=options["blind"],
            constrained=options["constrained"],
            phase=Phase.DEAL,
            round=0,
            replay=0,
            dealer=options["first_dealer"],
            hands=tuple(() for _ in range(players)),
            stock=(),
            turned="",
            revealed=False,
            bids=(None,) * players,
            turn=0,
            leader=0,
            trick=(),
            played=(),
            tricks_won=zeros,
            last_trick=None,
            scores=zeros,
            sheet=(),
        )
        return self._dealt(state, cards)[0]

    def _dealt(self, state: MottonState, cards: Sequence[str]) -> tuple[MottonState, list[Event]]:
        n = state.players
        k = ROUND_CARDS[state.round]
        first = (state.dealer + 1) % n
        hands = tuple(standard_hand(cards[(s - first) % n : n * k : n]) for s in range(n))
        turned = cards[n * k]
        new = evolve(
            state,
            phase=Phase.BID,
            hands=hands,
            stock=tuple(cards[n * k + 1 :]),
            turned=turned,
            revealed=not state.blind,
            bids=(None,) * n,
            turn=first,
            leader=first,
            trick=(),
            played=(),
            tricks_won=(0,) * n,
            last_trick=None,
        )
        events: list[Event] = [
            {
                "type": "deal",
                "seat": state.dealer,
                "deal": state.round + 1,
                "cards": k,
                "replay": state.replay,
            }
        ]
        events += hand_events(hands)
        if new.revealed:
            events.append(self._turn_up_event(new))
        return new, events

    def _turn_up_event(self, state: MottonState) -> Event:
        return {
            "type": "turn_up",
            "seat": state.dealer,
            "card": state.turned,
            "trump": trump_of(state.turned),
        }

    # -- rules ----------------------------------------------------------------------------------

    def cards_in_round(self, state: MottonState) -> int:
        return ROUND_CARDS[state.round]

    def forbidden_bid(self, state: MottonState) -> int | None:
        """With ``constrained``, the value the last bidder may not bid (else None)."""
        if not state.constrained or state.phase is not Phase.BID:
            return None
        if sum(b is None for b in state.bids) != 1:
            return None
        rest = self.cards_in_round(state) - sum(b for b in state.bids if b is not None)
        return rest if rest >= 0 else None

    def legal_bids(self, state: MottonState, seat: int) -> list[int]:
        if state.phase is not Phase.BID or seat != state.turn:
            return []
        banned = self.forbidden_bid(state)
        return [v for v in range(self.cards_in_round(state) + 1) if v != banned]

    def legal_cards(self, state: MottonState, seat: int) -> list[str]:
        if state.phase is not Phase.PLAY or seat != state.turn:
            return []
        return playable(state.hands[seat], state.trick, french_suit, None)

    def trump(self, state: MottonState) -> str | None:
        return trump_of(state.turned)

    def legal_actions(self, state: MottonState, seat: int) -> list[Action]:
        if state.phase is Phase.DEAL:
            return [{"type": "deal"}] if seat == state.dealer else []
        if state.phase is Phase.BID:
            return [{"type": "bid", "value": v} for v in self.legal_bids(state, seat)]
        return [{"type": "play", "card": c} for c in self.legal_cards(state, seat)]

    def _apply(
        self, state: MottonState, seat: int, action: Action
    ) -> tuple[MottonState, list[Event]]:
        kind = action["type"]
        expected = {Phase.DEAL: "deal", Phase.BID: "bid", Phase.PLAY: "play"}[state.phase]
        if kind != expected:
            raise self.reject(state, seat, action)
        if state.phase is Phase.DEAL:
            if seat != state.dealer:
                raise IllegalAction("it is not your turn to deal", "not_your_turn")
            return self._deal_next(state)
        if seat != state.turn:
            raise IllegalAction("it is not your turn", "not_your_turn")
        if state.phase is Phase.BID:
            value = action.get("value")
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalAction("a bid needs a 'value': a whole number of tricks", "bad_action")
            k = self.cards_in_round(state)
            if not 0 <= value <= k:
                raise IllegalAction(f"a bid is from 0 to {k} tricks this round")
            if value == self.forbidden_bid(state):
                raise IllegalAction(
                    f"you may not bid {value}: the bids would add up to the {k} cards in hand"
                )
            return self._bid(state, seat, value)
        card = french_card(action)
        if card not in state.hands[seat]:
            raise IllegalAction(f"you do not hold {card}")
        if state.trick and card[1] != state.trick[0][1]:
            led = state.trick[0][1]
            if any(c[1] == led for c in state.hands[seat]):
                raise IllegalAction(f"you must follow {SUIT_WORDS[led]}")
        return self._play(state, seat, card)

    def _deal_next(self, state: MottonState) -> tuple[MottonState, list[Event]]:
        if state.replay:
            salt: tuple[object, ...] = ("deal", state.round + 1, "replay", state.replay)
        else:
            salt = ("deal", state.round + 1)
        return self._dealt(state, shuffled(deck_52(), state.seed, *salt))

    def _bid(self, state: MottonState, seat: int, value: int) -> tuple[MottonState, list[Event]]:
        n = state.players
        bids = list(state.bids)
        bids[seat] = value
        events: list[Event] = [{"type": "bid", "seat": seat, "value": value}]
        if any(b is None for b in bids):
            return evolve(state, bids=tuple(bids), turn=(seat + 1) % n), events
        new = evolve(
            state,
            bids=tuple(bids),
            phase=Phase.PLAY,
            turn=state.leader,
            revealed=True,
        )
        if not state.revealed:
            events.append(self._turn_up_event(new))
        return new, events

    def _play(self, state: MottonState, seat: int, card: str) -> tuple[MottonState, list[Event]]:
        n = state.players
        hands = without(state.hands, seat, card)
        trick = (*state.trick, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        if len(trick) < n:
            return evolve(state, hands=hands, trick=trick, turn=(seat + 1) % n), events
        won_by = (state.leader + winner(trick, french_suit, self.trump(state), _power)) % n
        events.append({"type": "trick", "seat": won_by, "cards": list(trick)})
        new = evolve(
            state,
            hands=hands,
            trick=(),
            played=state.played + trick,
            turn=won_by,
            leader=won_by,
            tricks_won=raised(state.tricks_won, won_by),
            last_trick=Trick(state.leader, trick, won_by),
        )
        if any(new.hands):
            return new, events
        return self._round_end(new, events)

    def _round_end(
        self, state: MottonState, events: list[Event]
    ) -> tuple[MottonState, list[Event]]:
        n = state.players
        k = self.cards_in_round(state)
        bids = tuple(b or 0 for b in state.bids)
        made = [bids[s] == state.tricks_won[s] for s in range(n)]
        points = tuple(round_score(k, state.tricks_won[s]) if made[s] else 0 for s in range(n))
        replayed = not any(made)
        scores = tuple(a + b for a, b in zip(state.scores, points, strict=True))
        row = Row(
            deal=state.round + 1,
            cards=k,
            dealer=state.dealer,
            trump=self.trump(state),
            bids=bids,
            tricks=state.tricks_won,
            scores=points,
            replays=state.replay,
        )
        events.append(
            {
                "type": "deal_end",
                "seat": None,
                "deal": state.round + 1,
                "cards": k,
                "bids": list(bids),
                "tricks": list(state.tricks_won),
                "scores": list(points),
                "totals": list(scores),
                "replayed": replayed,
            }
        )
        if replayed:
            # same number of cards, new deal, same dealer
            return evolve(state, phase=Phase.DEAL, replay=state.replay + 1), events
        sheet = (*state.sheet, row)
        if state.round + 1 == len(ROUND_CARDS):
            new = evolve(state, phase=Phase.OVER, scores=scores, sheet=sheet)
            winners = _highest(scores)
            events.append(
                {"type": "game_end", "seat": None, "scores": list(scores), "winners": winners}
            )
            return new, events
        new = evolve(
            state,
            phase=Phase.DEAL,
            round=state.round + 1,
            replay=0,
            dealer=(state.dealer + 1) % n,
            scores=scores,
            sheet=sheet,
        )
        return new, events

    # -- reading the state ----------------------------------------------------------------------

    def players(self, state: MottonState) -> int:
        return state.players

    def to_act(self, state: MottonState) -> tuple[int, ...]:
        if state.phase is Phase.DEAL:
            return (state.dealer,)
        if state.phase is Phase.OVER:
            return ()
        return (state.turn,)

    def is_over(self, state: MottonState) -> bool:
        return state.phase is Phase.OVER

    def outcome(self, state: MottonState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        return {"scores": list(state.scores), "winners": _highest(state.scores)}

    def cards(self, state: MottonState) -> list[str]:
        out = [c for hand in state.hands for c in hand]
        out += state.stock
        out.append(state.turned)
        out += state.trick
        out += state.played
        return out

    def hidden(self, state: MottonState, seat: int | None) -> frozenset[str]:
        out = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        out.update(state.stock)
        if not state.revealed:
            out.add(state.turned)
        return frozenset(out)

    def view(self, state: MottonState, seat: int | None) -> dict[str, Any]:
        n = state.players
        first = (state.dealer + 1) % n
        return {
            "game": self.name,
            "players": n,
            "phase": state.phase.value,
            "seat": seat,
            "dealer": state.dealer,
            "turn": state.turn if state.phase in (Phase.BID, Phase.PLAY) else None,
            "hand": None if seat is None else list(state.hands[seat]),
            "counts": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "deal": state.round + 1,
            "cards": self.cards_in_round(state),
            "replay": state.replay,
            "trump": self.trump(state) if state.revealed else None,
            "turned": state.turned if state.revealed else None,
            "turned_hidden": not state.revealed,
            "trick": trick_view(state.leader, state.trick, n),
            "last_trick": last_trick_view(state.last_trick, n),
            "bids": [
                {"seat": s % n, "value": state.bids[s % n]}
                for s in range(first, first + n)
                if state.bids[s % n] is not None
            ],
            "forbidden_bid": self.forbidden_bid(state),
            "tricks_won": list(state.tricks_won),
            "blind": state.blind,
            "constrained": state.constrained,
            "sheet": [
                {
                    "deal": r.deal,
                    "cards": r.cards,
                    "dealer": r.dealer,
                    "trump": r.trump,
                    "bids": list(r.bids),
                    "tricks": list(r.tricks),
                    "scores": list(r.scores),
                    "replays": r.replays,
                }
                for r in state.sheet
            ],
        }

    # -- the table's move for a seat out of time ------------------------------------------------

    def auto_action(self, state: MottonState, seat: int) -> Action:
        """Bid the tricks the hand is expected to take; then play to make that bid exactly: win
        cheaply while tricks are missing, duck with the highest loser once the bid is made."""
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn", "not_your_turn")
        if state.phase is Phase.DEAL:
            return {"type": "deal"}
        if state.phase is Phase.BID:
            return {"type": "bid", "value": self._auto_bid(state, seat)}
        return {"type": "play", "card": self._auto_card(state, seat)}

    def _auto_bid(self, state: MottonState, seat: int) -> int:
        hand = state.hands[seat]
        trump = self.trump(state) if state.revealed else None
        seen = set(hand)
        if state.revealed:
            seen.add(state.turned)
        unseen = 52 - len(seen)
        # chance that a given unseen card is in an opponent's hand
        p_out = min(1.0, (state.players - 1) * len(hand) / unseen)
        # a plain winner may still be ruffed: more likely with more opponents and longer hands
        ruff = 0.0 if trump is None else min(0.5, 0.04 * (state.players - 1) * len(hand) / 2)
        expected = 0.0
        for card in hand:
            suit, power = card[1], _power(card)
            higher = sum(
                1
                for r in STANDARD_ORDER[power + 1 :]
                if r + suit not in seen
            )
            p = (1.0 - p_out) ** higher
            if suit == trump:
                # low trumps still win tricks once a suit runs out
                p = max(p, 0.3)
            elif trump is not None:
                p *= 1.0 - ruff
            expected += p
        legal = self.legal_bids(state, seat)
        return min(legal, key=lambda v: (abs(v - expected), v))

    def _auto_card(self, state: MottonState, seat: int) -> str:
        legal = self.legal_cards(state, seat)
        trump = self.trump(state)
        bid = state.bids[seat] or 0
        want = bid > state.tricks_won[seat]
        n = state.players

        def strength(card: str) -> int:
            return _power(card) + (13 if card[1] == trump else 0)

        if not state.trick:
            if want:
                masters = [c for c in legal if self._is_master(state, seat, c)]
                if masters:
                    return max(masters, key=strength)
                trumps = [c for c in legal if c[1] == trump]
                if trumps:
                    return max(trumps, key=strength)
            return min(legal, key=lambda c: (c[1] == trump, _power(c)))

        led = state.trick[0][1]

        def key(card: str) -> tuple[int, int]:
            if card[1] == trump:
                return (2, _power(card))
            if card[1] == led:
                return (1, _power(card))
            return (0, _power(card))

        best = max(key(c) for c in state.trick)
        winning = [c for c in legal if key(c) > best]
        losing = [c for c in legal if key(c) <= best]
        last = len(state.trick) == n - 1
        if want:
            if winning:
                return min(winning, key=key) if last else max(winning, key=key)
            # keep the strong cards for later: throw the weakest
            return min(legal, key=lambda c: (c[1] == trump, _power(c)))
        if losing:
            # shed the card most likely to win a trick we do not want later
            return max(losing, key=lambda c: (c[1] != trump, _power(c)))
        return max(winning, key=key) if last else min(winning, key=key)

    def _is_master(self, state: MottonState, seat: int, card: str) -> bool:
        """No card that could beat ``card`` in its suit is still unseen by ``seat``."""
        gone = set(state.played) | set(state.hands[seat])
        if state.revealed:
            gone.add(state.turned)
        suit = card[1]
        return all(r + suit in gone for r in STANDARD_ORDER[_power(card) + 1 :])


def _highest(scores: Sequence[int]) -> list[int]:
    high = max(scores)
    return [s for s, v in enumerate(scores) if v == high]


GAME = register(Motton())
