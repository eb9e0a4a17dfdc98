"""Yaniv: lay down sets and runs, draw, and call "yaniv" with 7 points or fewer in hand.

The house text (``wiki-barbu-freeze-motton-yaniv.fr.txt``) is unfinished; ``DECISIONS.md``
completes it. This docstring is the spec of what tablée plays.

Players, cards, match
---------------------
- 2 to 8 players, 54 cards: the 52 French cards and two jokers ``X1``, ``X2``.
- Values: jokers 0, A 1, 2-9 their face, T/J/Q/K 10. A hand's value is the sum of its cards.
- One game is a match of rounds. After a round's scoring a total that has just reached exactly 50
  or 100 drops by 50 (once: 100 drops to 50 and stays there; a seat already at 50 that adds 0
  points has reached nothing and keeps 50); when a total exceeds 100 the game stops and the lowest
  total wins (ties: every seat on it wins).
- No table options of its own (``first_dealer``, common to every game: see below).

Dealing (and ``deck=``)
-----------------------
Each player gets 5 cards; the next card is turned face up to start the discard; the rest is the
stock, top first. A stacked deck (first round only) is dealt in packets of 5, from the first
player round the table: by default ``deck[0:5]`` to seat 0 (the first player), ``deck[5:10]`` to
seat 1, ...; with a first player ``f``, ``deck[5k:5k+5]`` to seat ``(f + k) % n``; then
``deck[5n]`` is turned up and ``deck[5n+1:]`` is the stock, ``deck[5n+1]`` on top. Later rounds
shuffle the 54 cards with ``rng(seed, "deal", round)``.

The seat after the option ``first_dealer`` (common to every game; default seat ``n-1``, a rematch
moves it one seat) plays first in round 1: seat 0 by default. The first player of every later
round is the winner of the previous one: the caller after a successful yaniv; after an assaf, the
other seat with the lowest hand (on a tie, the first of them in play order after the caller).
``dealer`` in the view is the seat before the first player.

Phases and actions
------------------
- ``turn`` (the seat in ``turn``):
  ``{"type": "yaniv"}`` when the hand is worth 7 points or fewer (allowed from the first turn), or
  ``{"type": "discard", "cards": [...]}``.
- ``draw`` (the same seat, right after its discard):
  ``{"type": "draw", "from": "stock"}`` or ``{"type": "draw", "from": "discard", "card": "7H"}``.
  Discarding and drawing are two actions so that each is a small exact list and each gets the
  table's timer; the card drawn back is chosen after the discard, as at a real table.
- ``show`` (after a yaniv, while the game goes on): every hand lies face up. The next round's first
  player starts it with ``{"type": "next"}`` (the table does it when their time runs out).
- ``over``: the match is finished; every hand of the last round stays shown.

Discards
--------
A discard is one of:

- a single card;
- a set: 2 or more cards whose natural (non-joker) cards all have one rank; jokers stand in for
  that rank. A group whose only natural card is one card (``5H X1``, ``5H X1 X2``) is a set, and so
  is ``X1 X2``. A group that is a set is never read as a run;
- a run: 3 or more cards, at least two natural cards, all naturals of one suit, consecutive with
  jokers standing in for the missing cards and possibly extending either end. The ace is low
  (``AH 2H 3H``), the king is the top, a run never wraps (``QH KH AH`` is no run).

Canonical order (how ``legal_actions`` writes each group, once): a single as itself; a set with its
naturals in suit order S, H, D, C, then ``X1``, then ``X2``; a run from its low end up, each joker
at the place it stands. Jokers are interchangeable: when a group holds both, ``X1`` is laid in the
lower place. A group using one joker while both are held is listed once with each joker (they are
different cards left in the hand).

``apply`` also accepts a group written in another order: a set or a run without a choice of
placement in any order; joker names are renumbered by their place in the list (``X2 5H X1`` reads as
``X1 5H X2``). When the cards can be laid as more than one run (a joker below or above, e.g.
``5H 6H X1`` is 4-5-6 or 5-6-7), the order given must be one of them, read from the low end;
otherwise the discard is refused with the possible layouts in the reason. Invalid groups are refused
with a reason ("a run needs 3 or more cards of one suit", "not a set: 7H and 8S differ", ...).

Drawing
-------
After the discard the player draws one card: the top of the stock, or one of the cards the
previous player discarded (the turned card, for the round's first player): any card of a single
or a set, only an end card of a run. A joker at an end of a run is an end card: it may be taken,
and in the taker's hand it is a plain joker again (it stood for that place only on the table). A
player never takes back their own discard. The cards of the previous discard that stay on the
table go under the new discard (the "pile").

When a draw takes the last card of the stock, the pile (the discard except its top group, which the
next player may still take) is shuffled at once into a new stock with
``rng(seed, "reshuffle", round, n)``, ``n`` counting the reshuffles of the match. The stock is thus
never empty when a player must draw. (Hands never exceed 5 cards, so the pile always holds at least
9 cards at that moment.)

Yaniv and scoring
-----------------
Calling yaniv ends the round: every hand is shown. If no other player's hand is worth as little as
the caller's or less, the caller scores 0 and everyone else adds their hand's value. Otherwise
("assaf"): the caller adds their hand + 30, every player at or below the caller adds 0, the others
add their hand. Then each total that this round's points brought to exactly 50 or 100 drops by 50.
A total above 100 ends the game.

What each seat sees (``view``)
------------------------------
Common keys: ``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn`` (the seat playing;
in ``show`` the next round's first player; ``None`` when over), ``hand`` (own cards, sorted;
``None`` for a spectator), ``counts``, ``scores``, ``deal`` (the round number). Yaniv keys:

- ``first``: the round's first player; ``hand_value``: own hand's value (``None`` for a spectator);
- ``discard``: ``{"cards", "kind", "takeable"}``, the previous player's discard, the cards that may
  be drawn (``kind`` is ``single``, ``set`` or ``run``);
- ``laid``: during ``draw``, ``{"cards", "kind"}`` the current player's discard, else ``None``;
- ``stock``, ``pile``: numbers of cards;
- ``known``: per seat, the cards that seat took from the discard and still holds: everyone saw
  them taken, so every view shows them (and ``hidden`` does not count them);
- ``shown`` / ``values``: per seat, the hands and their values once a yaniv showed them (``show``
  and ``over``), else ``None``;
- ``history``: one entry per finished round: ``round``, ``caller``, ``assaf`` (bool), ``values``
  (hand values), ``points`` (added this round), ``dropped`` (seats whose total dropped by 50),
  ``scores`` (totals after the round);
- ``yaniv_max``: 7.

Hidden cards: the stock, and the cards of the other hands except their ``known`` cards; once hands
are shown (``show``, ``over``) only the stock.

Events
------
- ``{"type": "discard", "seat", "cards", "kind"}`` (public, canonical order);
- ``{"type": "draw", "seat", "from": "stock", "card", "to": [seat]}`` and its public twin
  ``{"type": "draw", "seat", "from": "stock"}``;
- ``{"type": "draw", "seat", "from": "discard", "card"}`` (public);
- ``{"type": "reshuffle", "seat", "count"}`` (public; ``seat`` drew the last card);
- ``{"type": "yaniv", "seat", "value", "hands", "values", "assaf", "assafers"}`` (public);
- ``{"type": "deal_end", "seat", "round", "points", "dropped", "scores"}`` (public; ``seat`` is
  the caller);
- ``{"type": "game_end", "seat", "scores", "winners"}`` when the match ends;
- ``{"type": "deal", "seat", "round", "first", "discard"}`` (public) and
  ``{"type": "hand", "seat", "cards", "to": [seat]}`` for each seat, when ``next`` deals a round.

Timeout play (``auto_action``)
------------------------------
Call yaniv with 3 points or fewer, or with 7 or fewer when every other hand looks bigger: a hand
whose cards are all known (taken from the discard) must be worth more; otherwise its known cards
plus 4 per unknown card must exceed the caller's hand by more than 3. Never call when a hand whose
cards are all known is worth as little or less (a sure assaf). Else discard the legal group
worth the most points (more cards first on a tie). Then take back the lowest card of the previous
discard if it is worth less than the group just laid and is worth 3 or less or matches the rank of
a card still held; otherwise draw from the stock. (Taking back only cards worth less than the
discard means a turn that does not touch the stock always lowers the hand, so timed-out players
never pass the same cards back and forth forever.) In ``show``: start the next round.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import JOKERS, SUITS, check_deck, deck_54, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.state import evolve, plain
from tablee.games.registry import register

HAND_SIZE = 5
YANIV_MAX = 7
ASSAF_PENALTY = 30
LIMIT = 100

RUN_RANKS = "A23456789TJQK"
RANK_NUM = {r: i + 1 for i, r in enumerate(RUN_RANKS)}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
DECK: tuple[str, ...] = tuple(deck_54())
CARD_SET = frozenset(DECK)


def card_value(card: str) -> int:
    return _VALUES[card]


def _value(card: str) -> int:
    if card in JOKERS:
        return 0
    return min(RANK_NUM[card[0]], 10)


_VALUES = {c: _value(c) for c in DECK}


def hand_value(cards: Iterable[str]) -> int:
    return sum(_VALUES[c] for c in cards)


def _hand_key(card: str) -> tuple[int, int]:
    if card in JOKERS:
        return (0, JOKERS.index(card))
    return (RANK_NUM[card[0]], SUIT_INDEX[card[1]])


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_hand_key))


# -- groups --------------------------------------------------------------------------------------


def _split(cards: Sequence[str]) -> tuple[list[str], list[str]]:
    naturals = [c for c in cards if c not in JOKERS]
    jokers = sorted(c for c in cards if c in JOKERS)
    return naturals, jokers


def _as_set(cards: Sequence[str]) -> tuple[str, ...] | None:
    naturals, jokers = _split(cards)
    if len(cards) < 2 or len({c[0] for c in naturals}) > 1:
        return None
    return (*sorted(naturals, key=lambda c: SUIT_INDEX[c[1]]), *jokers)


def _as_runs(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every way to lay ``cards`` as a run (low end first), jokers placed X1 below X2."""
    naturals, jokers = _split(cards)
    if len(cards) < 3 or len(naturals) < 2 or len({c[1] for c in naturals}) != 1:
        return []
    by_num = {RANK_NUM[c[0]]: c for c in naturals}
    if len(by_num) != len(naturals):
        return []
    lo, hi = min(by_num), max(by_num)
    extra = len(jokers) - (hi - lo + 1 - len(naturals))
    out = []
    for below in range(extra, -1, -1):
        start, end = lo - below, hi + extra - below
        if start < 1 or end > len(RUN_RANKS):
            continue
        free = iter(jokers)
        out.append(tuple(by_num.get(k) or next(free) for k in range(start, end + 1)))
    return out


def layouts(cards: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The ways to lay these cards as one discard: ``(kind, cards in canonical order)``."""
    if len(cards) == 1:
        return [("single", (cards[0],))]
    as_set = _as_set(cards)
    if as_set is not None:
        return [("set", as_set)]
    return [("run", run) for run in _as_runs(cards)]


@functools.lru_cache(maxsize=8192)
def discards(hand: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every legal discard from ``hand``, each group once, in canonical order."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for size in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            out += layouts(combo)
    return tuple(out)


def takeable(group: Sequence[str], kind: str) -> tuple[str, ...]:
    """The cards of a discard the next player may draw: any of a set, the ends of a run."""
    if kind == "run":
        return (group[0], group[-1])
    return tuple(group)


def _group_error(cards: Sequence[str]) -> str:
    """Why cards that make no discard make none (called only when ``layouts`` is empty)."""
    naturals, jokers = _split(cards)
    by_rank = {c[0]: c for c in naturals}
    ranks = list(by_rank.values())
    suits = {c[1]: c for c in naturals}
    if len(cards) == 2:
        a, b = naturals
        if a[1] == b[1]:
            return f"not a set: {a} and {b} differ; a run needs 3 or more cards of one suit"
        return f"not a set: {a} and {b} differ"
    if len(suits) > 1:
        a, b = list(suits.values())[:2]
        return (
            f"neither a set ({ranks[0]} and {ranks[1]} differ in rank) nor a run"
            f" ({a} and {b} differ in suit)"
        )
    nums = sorted(RANK_NUM[c[0]] for c in naturals)
    missing = nums[-1] - nums[0] + 1 - len(nums)
    low = next(c for c in naturals if RANK_NUM[c[0]] == nums[0])
    high = next(c for c in naturals if RANK_NUM[c[0]] == nums[-1])
    reason = (
        f"not a run: from {low} to {high} {missing} cards are missing"
        f" and you lay {len(jokers)} joker{'s' if len(jokers) != 1 else ''}"
    )
    if nums[0] == 1 and nums[-1] == len(RUN_RANKS):
        reason += " (the ace is low: a run does not go from K to A)"
    return reason


# -- state ---------------------------------------------------------------------------------------


class Phase(enum.StrEnum):
    TURN = "turn"
    DRAW = "draw"
    SHOW = "show"
    OVER = "over"


@dataclass(frozen=True)
class RoundResult:
    round: int
    caller: int
    assaf: bool
    values: tuple[int, ...]
    points: tuple[int, ...]
    dropped: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class YanivState:
    players: int
    seed: int | str
    round: int
    phase: Phase
    #: the seat playing; in ``show`` the next round's first player
    turn: int
    first: int
    hands: tuple[tuple[str, ...], ...]
    #: per seat, the cards it took from the discard and still holds (public knowledge)
    known: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    #: the discard under the top group, oldest first
    pile: tuple[str, ...]
    #: the previous player's discard: what may be drawn back
    top: tuple[str, ...]
    top_kind: str
    #: the current player's discard while it draws
    laid: tuple[str, ...]
    laid_kind: str
    scores: tuple[int, ...]
    history: tuple[RoundResult, ...]
    reshuffles: int


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _deal(
    players: int,
    seed: int | str,
    round_: int,
    first: int,
    cards: Sequence[str],
    scores: tuple[int, ...],
    history: tuple[RoundResult, ...],
    reshuffles: int,
) -> YanivState:
    hands: list[tuple[str, ...]] = [()] * players
    for k in range(players):
        hands[(first + k) % players] = sort_hand(cards[k * HAND_SIZE : (k + 1) * HAND_SIZE])
    turned = cards[players * HAND_SIZE]
    # plain: every round's states are evolved from it (see tablee.engine.state)
    return plain(
        YanivState(
            players=players,
            seed=seed,
            round=round_,
            phase=Phase.TURN,
            turn=first,
            first=first,
            hands=tuple(hands),
            known=((),) * players,
            stock=tuple(cards[players * HAND_SIZE + 1 :]),
            pile=(),
            top=(turned,),
            top_kind="single",
            laid=(),
            laid_kind="",
            scores=scores,
            history=history,
            reshuffles=reshuffles,
        )
    )


# -- the game ------------------------------------------------------------------------------------


class Yaniv(BaseGame[YanivState]):
    name = "yaniv"
    title = "Yaniv"
    summary = "Posez séries et suites, piochez, et annoncez yaniv à 7 points ou moins."
    min_players = 2
    max_players = 8
    state_type = YanivState

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> YanivState:
        cards = list(DECK) if deck is None else check_deck(deck, DECK)
        if deck is None:
            cards = shuffled(cards, seed, "deal", 1)
        first = (options["first_dealer"] + 1) % players
        return _deal(players, seed, 1, first, cards, (0,) * players, (), 0)

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def players(self, state: YanivState) -> int:
        return state.players

    def is_over(self, state: YanivState) -> bool:
        return state.phase is Phase.OVER

    def to_act(self, state: YanivState) -> tuple[int, ...]:
        return () if state.phase is Phase.OVER else (state.turn,)

    def cards(self, state: YanivState) -> list[str]:
        out = [c for hand in state.hands for c in hand]
        return [*out, *state.stock, *state.pile, *state.top, *state.laid]

    def hidden(self, state: YanivState, seat: int | None) -> frozenset[str]:
        secret = set(state.stock)
        if state.phase in (Phase.TURN, Phase.DRAW):
            for s, hand in enumerate(state.hands):
                if s != seat:
                    secret.update(c for c in hand if c not in state.known[s])
        return frozenset(secret)

    def outcome(self, state: YanivState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        best = min(state.scores)
        return {
            "scores": list(state.scores),
            "winners": [s for s, v in enumerate(state.scores) if v == best],
            "rounds": state.round,
        }

    def to_json(self, state: YanivState) -> dict[str, Any]:
        # The generic codec walks every card string; a yaniv match takes thousands of small
        # steps, each stored or compared, so this writes the same JSON directly (a test checks it
        # equals the generic encoding).
        return {
            "players": state.players,
            "seed": state.seed,
            "round": state.round,
            "phase": state.phase.value,
            "turn": state.turn,
            "first": state.first,
            "hands": [list(h) for h in state.hands],
            "known": [list(k) for k in state.known],
            "stock": list(state.stock),
            "pile": list(state.pile),
            "top": list(state.top),
            "top_kind": state.top_kind,
            "laid": list(state.laid),
            "laid_kind": state.laid_kind,
            "scores": list(state.scores),
            "history": [
                {
                    "round": r.round,
                    "caller": r.caller,
                    "assaf": r.assaf,
                    "values": list(r.values),
                    "points": list(r.points),
                    "dropped": list(r.dropped),
                    "scores": list(r.scores),
                }
                for r in state.history
            ],
            "reshuffles": state.reshuffles,
        }

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, state: YanivState, seat: int) -> list[Action]:
        if state.phase is Phase.OVER or seat != state.turn:
            return []
        if state.phase is Phase.SHOW:
            return [{"type": "next"}]
        if state.phase is Phase.DRAW:
            out: list[Action] = [{"type": "draw", "from": "stock"}]
            out += [
                {"type": "draw", "from": "discard", "card": c}
                for c in takeable(state.top, state.top_kind)
            ]
            return out
        hand = state.hands[seat]
        out = [{"type": "yaniv"}] if hand_value(hand) <= YANIV_MAX else []
        out += [{"type": "discard", "cards": list(group)} for _, group in discards(hand)]
        return out

    # -- moves ----------------------------------------------------------------------------------

    def _apply(
        self, state: YanivState, seat: int, action: Action
    ) -> tuple[YanivState, list[Event]]:
        kind = action["type"]
        if seat != state.turn:
            if state.phase is Phase.SHOW:
                raise IllegalAction(
                    f"waiting for seat {state.turn} to start the next round", "not_your_turn"
                )
            raise IllegalAction(f"it is seat {state.turn}'s turn", "not_your_turn")
        if state.phase is Phase.SHOW:
            if kind == "next":
                return self._next_round(state)
            raise self.reject(state, seat, action)
        if state.phase is Phase.TURN:
            if kind == "yaniv":
                return self._yaniv(state, seat)
            if kind == "discard":
                return self._discard(state, seat, action)
            if kind == "draw":
                raise IllegalAction("discard first, then draw")
            raise self.reject(state, seat, action)
        if kind == "draw":
            return self._draw(state, seat, action)
        if kind == "discard":
            raise IllegalAction(
                "you have discarded already: now draw from the stock or the discard"
            )
        if kind == "yaniv":
            raise IllegalAction("yaniv is called at the start of your turn, before discarding")
        raise self.reject(state, seat, action)

    def _discard(
        self, state: YanivState, seat: int, action: Action
    ) -> tuple[YanivState, list[Event]]:
        raw = action.get("cards")
        if not isinstance(raw, list) or not raw:
            raise IllegalAction("a discard needs 'cards': the list of cards you lay", "bad_action")
        for c in raw:
            if not isinstance(c, str) or c not in CARD_SET:
                raise IllegalAction(f"{c!r} is not a card of this game", "bad_action")
        if len(set(raw)) != len(raw):
            twice = next(c for c in raw if raw.count(c) > 1)
            raise IllegalAction(f"you listed {twice} twice")
        hand = state.hands[seat]
        for c in raw:
            if c not in hand:
                raise IllegalAction(f"you do not hold {c}")
        cards = tuple(raw)
        if "X1" in cards and "X2" in cards:
            names = iter(JOKERS)
            cards = tuple(next(names) if c in JOKERS else c for c in cards)
        options = layouts(cards)
        if not options:
            raise IllegalAction(_group_error(cards))
        exact = [opt for opt in options if opt[1] == cards]
        if exact:
            group_kind, group = exact[0]
        elif len(options) == 1:
            group_kind, group = options[0]
        else:
            ways = " or ".join(" ".join(g) for _, g in options)
            raise IllegalAction(
                "these cards make more than one run: write it from its low end with each joker"
                f" where it stands: {ways}"
            )
        kept = tuple(c for c in hand if c not in group)
        known = state.known[seat]
        new = evolve(
            state,
            phase=Phase.DRAW,
            hands=_replace_at(state.hands, seat, kept),
            known=_replace_at(state.known, seat, tuple(c for c in known if c not in group)),
            laid=group,
            laid_kind=group_kind,
        )
        return new, [{"type": "discard", "seat": seat, "cards": list(group), "kind": group_kind}]

    def _draw(self, state: YanivState, seat: int, action: Action) -> tuple[YanivState, list[Event]]:
        source = action.get("from")
        hand = state.hands[seat]
        known = state.known[seat]
        stock = state.stock
        leftover = state.top
        events: list[Event] = []
        if source == "stock":
            card = stock[0]
            stock = stock[1:]
            events.append(
                {"type": "draw", "seat": seat, "from": "stock", "card": card, "to": [seat]}
            )
            events.append({"type": "draw", "seat": seat, "from": "stock"})
        elif source == "discard":
            wanted = action.get("card")
            if not isinstance(wanted, str) or wanted not in CARD_SET:
                raise IllegalAction(
                    "drawing from the discard needs 'card': one the previous player discarded",
                    "bad_action",
                )
            card = wanted
            allowed = takeable(state.top, state.top_kind)
            if card in state.laid:
                raise IllegalAction(
                    f"you cannot take back your own discard; you may take {' or '.join(allowed)}"
                )
            if card not in state.top:
                raise IllegalAction(
                    f"{card} is not in the previous player's discard ({' '.join(state.top)})"
                )
            if card not in allowed:
                raise IllegalAction(
                    f"only an end card of a run may be taken: {' or '.join(allowed)}"
                )
            leftover = tuple(c for c in state.top if c != card)
            known = (*known, card)
            events.append({"type": "draw", "seat": seat, "from": "discard", "card": card})
        else:
            raise IllegalAction(
                "a draw needs 'from': 'stock', or 'discard' with the 'card' you take", "bad_action"
            )
        pile = state.pile + leftover
        reshuffles = state.reshuffles
        if not stock:
            # reshuffled at once so that nobody ever faces an empty stock; the top group stays
            reshuffles += 1
            stock = tuple(shuffled(pile, state.seed, "reshuffle", state.round, reshuffles))
            pile = ()
            events.append({"type": "reshuffle", "seat": seat, "count": len(stock)})
        new = evolve(
            state,
            phase=Phase.TURN,
            turn=(seat + 1) % state.players,
            hands=_replace_at(state.hands, seat, sort_hand((*hand, card))),
            known=_replace_at(state.known, seat, known),
            stock=stock,
            pile=pile,
            top=state.laid,
            top_kind=state.laid_kind,
            laid=(),
            laid_kind="",
            reshuffles=reshuffles,
        )
        return new, events

    def _yaniv(self, state: YanivState, seat: int) -> tuple[YanivState, list[Event]]:
        values = tuple(hand_value(h) for h in state.hands)
        mine = values[seat]
        if mine > YANIV_MAX:
            raise IllegalAction(
                f"yaniv needs {YANIV_MAX} points or fewer in hand; yours is worth {mine}"
            )
        n = state.players
        after = [(seat + k) % n for k in range(1, n)]
        assafers = [s for s in after if values[s] <= mine]
        if assafers:
            points = tuple(
                mine + ASSAF_PENALTY if s == seat else (0 if values[s] <= mine else values[s])
                for s in range(n)
            )
            low = min(values[s] for s in assafers)
            winner = next(s for s in assafers if values[s] == low)
        else:
            points = tuple(0 if s == seat else values[s] for s in range(n))
            winner = seat
        totals = [a + b for a, b in zip(state.scores, points, strict=True)]
        # "atteignant": a total left at 50 by an earlier drop that adds 0 reaches nothing
        dropped = tuple(s for s in range(n) if points[s] and totals[s] in (50, 100))
        for s in dropped:
            totals[s] -= 50
        scores = tuple(totals)
        over = max(scores) > LIMIT
        result = RoundResult(
            round=state.round,
            caller=seat,
            assaf=bool(assafers),
            values=values,
            points=points,
            dropped=dropped,
            scores=scores,
        )
        new = evolve(
            state,
            phase=Phase.OVER if over else Phase.SHOW,
            turn=winner,
            scores=scores,
            history=(*state.history, result),
        )
        events: list[Event] = [
            {
                "type": "yaniv",
                "seat": seat,
                "value": mine,
                "hands": [list(h) for h in state.hands],
                "values": list(values),
                "assaf": bool(assafers),
                "assafers": assafers,
            },
            {
                "type": "deal_end",
                "seat": seat,
                "round": state.round,
                "points": list(points),
                "dropped": list(dropped),
                "scores": list(scores),
            },
        ]
        if over:
            best = min(scores)
            events.append(
                {
                    "type": "game_end",
                    "seat": seat,
                    "scores": list(scores),
                    "winners": [s for s in range(n) if scores[s] == best],
                }
            )
        return new, events

    def _next_round(self, state: YanivState) -> tuple[YanivState, list[Event]]:
        round_ = state.round + 1
        cards = shuffled(DECK, state.seed, "deal", round_)
        new = _deal(
            state.players,
            state.seed,
            round_,
            state.turn,
            cards,
            state.scores,
            state.history,
            state.reshuffles,
        )
        events: list[Event] = [
            {
                "type": "deal",
                "seat": new.first,
                "round": round_,
                "first": new.first,
                "discard": new.top[0],
            }
        ]
        events += [
            {"type": "hand", "seat": s, "cards": list(new.hands[s]), "to": [s]}
            for s in range(state.players)
        ]
        return new, events

    # -- views ----------------------------------------------------------------------------------

    def view(self, state: YanivState, seat: int | None) -> dict[str, Any]:
        n = state.players
        shown = state.phase in (Phase.SHOW, Phase.OVER)
        own = state.hands[seat] if seat is not None else None
        return {
            "game": self.name,
            "players": n,
            "phase": state.phase.value,
            "seat": seat,
            "dealer": (state.first - 1) % n,
            "turn": None if state.phase is Phase.OVER else state.turn,
            "hand": None if own is None else list(own),
            "hand_value": None if own is None else hand_value(own),
            "counts": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "deal": state.round,
            "first": state.first,
            "discard": {
                "cards": list(state.top),
                "kind": state.top_kind,
                "takeable": list(takeable(state.top, state.top_kind)),
            },
            "laid": (
                {"cards": list(state.laid), "kind": state.laid_kind}
                if state.phase is Phase.DRAW
                else None
            ),
            "stock": len(state.stock),
            "pile": len(state.pile),
            "known": [list(k) for k in state.known],
            "shown": [list(h) for h in state.hands] if shown else None,
            "values": [hand_value(h) for h in state.hands] if shown else None,
            "history": [
                {
                    "round": r.round,
                    "caller": r.caller,
                    "assaf": r.assaf,
                    "values": list(r.values),
                    "points": list(r.points),
                    "dropped": list(r.dropped),
                    "scores": list(r.scores),
                }
                for r in state.history
            ],
            "yaniv_max": YANIV_MAX,
        }

    # -- timeout play ---------------------------------------------------------------------------

    def auto_action(self, state: YanivState, seat: int) -> Action:
        if state.phase is Phase.OVER or seat != state.turn:
            raise IllegalAction("it is not your turn", "not_your_turn")
        if state.phase is Phase.SHOW:
            return {"type": "next"}
        hand = state.hands[seat]
        if state.phase is Phase.DRAW:
            return _auto_draw(state, hand)
        mine = hand_value(hand)
        if (
            mine <= YANIV_MAX
            and (mine <= 3 or _others_look_bigger(state, seat, mine))
            and not _sure_assaf(state, seat, mine)
        ):
            return {"type": "yaniv"}
        best = max(discards(hand), key=lambda g: (hand_value(g[1]), len(g[1])))
        return {"type": "discard", "cards": list(best[1])}


def _sure_assaf(state: YanivState, seat: int, mine: int) -> bool:
    """Another hand is wholly known (each card taken from the discard) and worth ``mine`` or
    less. Read from the public ``known`` cards only: the table plays in the seat's name."""
    return any(
        s != seat and len(hand) == len(state.known[s]) and hand_value(state.known[s]) <= mine
        for s, hand in enumerate(state.hands)
    )


def _others_look_bigger(state: YanivState, seat: int, mine: int) -> bool:
    for s, hand in enumerate(state.hands):
        if s == seat:
            continue
        known = state.known[s]
        unknown = len(hand) - len(known)
        if unknown == 0:
            if hand_value(known) <= mine:
                return False
        elif hand_value(known) + 4 * unknown <= mine + 3:
            return False
    return True


def _auto_draw(state: YanivState, hand: tuple[str, ...]) -> Action:
    options = sorted(takeable(state.top, state.top_kind), key=_VALUES.__getitem__)
    ranks = {c[0] for c in hand if c not in JOKERS}
    laid = hand_value(state.laid)
    for card in options:
        if _VALUES[card] >= laid:
            break
        if _VALUES[card] <= 3 or (card not in JOKERS and card[0] in ranks):
            return {"type": "draw", "from": "discard", "card": card}
    return {"type": "draw", "from": "stock"}


GAME = register(Yaniv())
