"""Freeze: four face-down cards, powers, speeds, and a bet on having the lowest hand.

Rules: the freeze section of the house text, completed by the "Freeze" section of the decisions.

Players and cards
    2 to 8 players, one 52-card deck (every card is unique, so a card code names one card).
    Option ``rounds`` (default 5, 1..50): the number of rounds of the match.

Layouts and positions
    Each player has a layout of two lines: line 0 (the top line) and line 1 (the bottom line),
    two face-down cards each at the deal. A position is ``line`` (0 or 1) and ``slot`` (0-based
    index in that line). Lines change length: a speeded card leaves its line (the cards after
    it close up), a penalty card is added at the end of the shorter line (the top line when both
    are as long), a replaced or swapped card takes the place of the one it replaces.

Deal (``deck=`` stacks the first round, top card first)
    The dealer of round 1 is the option ``first_dealer`` common to every game (default seat n-1;
    a rematch moves it one seat); the dealer moves one seat each round; the seat after the
    dealer plays first. Packets of 4 cards go to each seat in turn, starting after the dealer:
    the packet's cards are line 0 slot 0, line 0 slot 1, line 1 slot 0, line 1 slot 1. The rest is
    the stock (its first card is the top). The discard pile starts empty. Each player has seen
    their bottom line once and keeps knowing it. Round r is dealt from ``shuffled(deck,
    seed, "deal", r)``.

Knowledge
    The state records, for every card in a layout, which seats know it and whether it was shown
    to the whole table; knowledge travels with the card when it moves. A seat knows: its bottom
    line from the deal, a card it drew and put in its layout, a card it peeked at or spied, and
    every card shown to the table (a card taken from the discard, a speeded card that was wrong,
    every layout at the end of a round). A blind swap (J/Q) shows no face: each seat keeps knowing
    exactly the cards it knew, wherever they went. The discard pile is public (every card was seen
    landing); the stock is unknown to everyone; the drawn card is known to its drawer only.

Phases and actions (``line``/``slot`` address the actor's own layout; ``target`` is another seat
and ``target_line``/``target_slot`` a position in that seat's layout)
    ``turn``       the turn player (``turn``), at the start of their turn, chooses one of:
                   ``{"type": "draw"}`` (the stock is not exhausted), then phase ``drawn``;
                   ``{"type": "take", "line": l, "slot": i}``: the top discard replaces that card
                   of yours, which is discarded face up; the turn ends;
                   ``{"type": "freeze"}`` (nobody has frozen this round); the turn ends;
                   ``{"type": "pass"}`` only when none of those is possible (nothing to draw,
                   nothing to take or no card to replace, and the freeze already called).
    ``drawn``      the turn player holds the drawn card: ``{"type": "discard"}`` puts it on the
                   discard and starts its power, if it has one and a target exists, else ends the
                   turn; ``{"type": "replace", "line": l, "slot": i}`` puts it in that place and
                   discards the old card face up (no power); the turn ends.
    ``peek``       (7, 8) ``{"type": "peek", "line": l, "slot": i}``: look at one of your cards.
    ``spy``        (9, 10) ``{"type": "spy", "target": t, "line": l, "slot": i}``: look at a card
                   of another seat.
    ``swap``       (J, Q) ``{"type": "swap", "line": l, "slot": i, "target": t, "target_line": tl,
                   "target_slot": ti}``: exchange one of your cards with another seat's, unseen.
    ``king_look``  (black K) ``{"type": "spy", ...}`` as for a 9, then phase ``king_swap``.
    ``king_swap``  ``{"type": "swap", ...}`` whose target is the card just looked at, or pass.
                   In every power phase ``{"type": "pass"}`` declines the power and ends the turn.
                   A power whose target cannot exist (no card of your own to peek at or swap, no
                   card in an unfrozen opponent's layout) is skipped. Red kings and A..6 have no
                   power. A frozen hand is never a target (no spy, no swap).
    ``shown``      the round is over and every layout is face up; the next round's dealer sends
                   ``{"type": "deal"}``.
    ``over``       the match is over: nothing is legal.

Speeds: ``{"type": "speed", "line": l, "slot": i}``, out of turn
    The window: it opens when a turn ends with a card landing on the discard (a discard, a
    replace or a take; after the discarded card's power, if any) and closes with the next
    main-turn action (draw, take, freeze, pass). Speeds are therefore accepted only in the
    ``turn`` phase, from every seat that is not frozen and has a card, the turn player included:
    they are listed in ``legal_actions`` but not in ``to_act``. The speeded card is shown to the
    table. The first speed of a window whose card has the rank of the top discard is good: the
    card goes on the discard. A wrong card, or any later speed in the same window (the speeded
    card does not open a new window: speeds are not chained), is a fault: the card goes back in
    its place, known to all, and the player takes a penalty card from the stock, unseen by
    everyone, at the end of their shorter line. A speed (good or a fault) by the turn player counts
    as their turn. The last turn of a round ends the round at once: its discard cannot be speeded.

Freeze
    Only at the start of your turn, once per round. The freezer's layout is frozen: they play no
    more turns, cannot speed and cannot be targeted. Every other player plays one more turn (a
    speed by the turn player counts as that turn); when the turn comes back to the freezer all
    layouts are shown and the round is scored.

Empty stock
    Before a card is taken from an empty stock (a draw or a penalty), the discard pile except its
    top card is shuffled into a new stock (``shuffled(cards, seed, "reshuffle", round, k)`` for
    the k-th reshuffle of the round). If nothing is left to draw, ``draw`` is not offered and a
    penalty is simply not taken; a turn player who then cannot take or freeze passes.

Scoring
    A = 1, 2..10 face value, J, Q and black kings 10, red kings -1. A line of at least 2 cards all
    of the same rank counts 0 (two red kings: 0, not -2). A player's points are the sum of their
    two lines. The freezer scores -10 if their points are strictly lower than everyone else's;
    otherwise their points + 5 per other player at or below them. The others score their points.
    After ``rounds`` rounds the lowest total wins (ties share the win).

View (the common keys, plus)
    ``"hand"``: the viewer's layout, two lists (lines) of card codes or ``None`` for a card the
    viewer does not know; ``"layouts"``: the same for every seat; ``"counts"``: cards per seat;
    ``"discard"``: the discard pile, top card last; ``"stock"``: the number of cards in the stock;
    ``"drawn"``: the drawn card for its drawer, else ``None``; ``"holding"``: the seat holding a
    drawn card or ``None``; ``"frozen"``: the freezer's seat or ``None``; ``"looked"``: during
    ``king_swap``, the card looked at ``{"target", "line", "slot"}``; ``"speed"``: ``"closed"``,
    ``"open"`` (the first speed on the top discard is still to come) or ``"used"``;
    ``"history"``: the per-round scores; ``"points"``: the points of the last scored round.
    A seat sees a card exactly when it knows it; a spectator sees the public cards.

Events (``to`` marks private ones; each private event has a public twin without the card)
    ``draw`` {seat} and private {seat, card}; ``discard`` {seat, card, power}; ``replace``
    {seat, line, slot, card (the discarded one)}; ``take`` {seat, line, slot, card, discarded};
    ``freeze`` {seat}; ``pass`` {seat}; ``peek`` {seat, line, slot} and private with card;
    ``spy`` {seat, target, line, slot} and private with card; ``swap`` {seat, line, slot,
    target, target_line, target_slot}; ``speed`` {seat, line, slot, card, good}; ``penalty``
    {seat, line} (no card); ``reshuffle`` {seat, count}; ``deal_end`` {seat (the freezer),
    round, layouts, points, scores, totals}; ``deal`` {seat (the dealer), round} with a private
    ``see`` {seat, cards} of each seat's bottom line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from tablee.cards import deck_52, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction, OptionSpec
from tablee.engine.state import evolve
from tablee.games.registry import register


class Phase(StrEnum):
    TURN = "turn"
    DRAWN = "drawn"
    PEEK = "peek"
    SPY = "spy"
    SWAP = "swap"
    KING_LOOK = "king_look"
    KING_SWAP = "king_swap"
    SHOWN = "shown"
    OVER = "over"


#: speed window states
CLOSED, OPEN, USED = 0, 1, 2
_SPEED_NAMES = ("closed", "open", "used")

DECK = tuple(deck_52())
_VALUES = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 10, "J": 10, "Q": 10,
}  # fmt: skip
_POWERS = {"7": Phase.PEEK, "8": Phase.PEEK, "9": Phase.SPY, "T": Phase.SPY}
_POWERS |= {"J": Phase.SWAP, "Q": Phase.SWAP}
_POWER_NAMES = {
    Phase.PEEK: "peek",
    Phase.SPY: "spy",
    Phase.SWAP: "swap",
    Phase.KING_LOOK: "king",
}
_POWER_PHASES = frozenset((Phase.PEEK, Phase.SPY, Phase.SWAP, Phase.KING_LOOK, Phase.KING_SWAP))
#: what an unknown card is worth on average, for the auto-player
_UNKNOWN_VALUE = 6


def value(card: str) -> int:
    if card[0] == "K":
        return -1 if card[1] in "HD" else 10
    return _VALUES[card[0]]


def power_of(card: str) -> Phase | None:
    if card[0] == "K":
        return Phase.KING_LOOK if card[1] in "SC" else None
    return _POWERS.get(card[0])


def line_points(cards: Sequence[str]) -> int:
    if len(cards) >= 2 and all(c[0] == cards[0][0] for c in cards):
        return 0
    return sum(value(c) for c in cards)


#: the knowledge bit of a card shown to the table (seats use bits 0..7): everyone knows it
PUBLIC = 1 << 8

Line = tuple[str, ...]
Layout = tuple[Line, ...]


def knows(mask: int, seat: int | None) -> bool:
    return bool(mask & PUBLIC) or (seat is not None and bool(mask >> seat & 1))


@dataclass(frozen=True)
class FreezeState:
    players: int
    seed: int | str
    rounds: int
    round: int
    dealer: int
    phase: Phase
    turn: int
    layouts: tuple[Layout, ...]
    #: who knows each card lying in a layout: bit s for seat s, PUBLIC once shown to the table.
    #: Cards are unique, so the key follows the card wherever it moves: knowledge travels.
    known: dict[str, int]
    stock: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # top last
    drawn: str | None
    #: the card a black king looked at: (target, line, slot)
    look: tuple[int, int, int] | None
    frozen: int | None
    speed: int
    turns: int
    reshuffles: int
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]


def _deal(
    players: int, cards: Sequence[str], dealer: int
) -> tuple[tuple[Layout, ...], dict[str, int], tuple[str, ...]]:
    layouts: list[Layout] = [((), ())] * players
    known: dict[str, int] = {}
    for k in range(players):
        seat = (dealer + 1 + k) % players
        p = cards[4 * k : 4 * k + 4]
        layouts[seat] = ((p[0], p[1]), (p[2], p[3]))
        known |= {p[0]: 0, p[1]: 0, p[2]: 1 << seat, p[3]: 1 << seat}
    return tuple(layouts), known, tuple(cards[4 * players :])


def _put(
    layouts: tuple[Layout, ...], seat: int, line: int, slot: int, card: str
) -> tuple[Layout, ...]:
    lay = layouts[seat]
    row = lay[line]
    new_row = (*row[:slot], card, *row[slot + 1 :])
    new_lay = (new_row, lay[1]) if line == 0 else (lay[0], new_row)
    return (*layouts[:seat], new_lay, *layouts[seat + 1 :])


def _set_layout(layouts: tuple[Layout, ...], seat: int, lay: Layout) -> tuple[Layout, ...]:
    return (*layouts[:seat], lay, *layouts[seat + 1 :])


def _positions(lay: Layout) -> Iterator[tuple[int, int]]:
    for line, row in enumerate(lay):
        for slot in range(len(row)):
            yield line, slot


def _learnt(known: dict[str, int], card: str, bits: int) -> dict[str, int]:
    return {**known, card: known[card] | bits}


def _moved(known: dict[str, int], out: str, into: str, bits: int) -> dict[str, int]:
    """``out`` left a layout for the discard, ``into`` took its place, known by ``bits``."""
    new = dict(known)
    del new[out]
    new[into] = bits
    return new


def layout_points(lay: Layout) -> int:
    return sum(line_points(row) for row in lay)


def round_scores(points: Sequence[int], freezer: int) -> list[int]:
    """The freezer's bet: strictly lowest scores -10, else their points + 5 per player at or
    below them."""
    out = list(points)
    mine = points[freezer]
    at_or_below = sum(1 for s, p in enumerate(points) if s != freezer and p <= mine)
    out[freezer] = -10 if at_or_below == 0 else mine + 5 * at_or_below
    return out


class Freeze(BaseGame[FreezeState]):
    name = "freeze"
    title = "Freeze"
    summary = "Quatre cartes cachées, des pouvoirs, des speeds : freezez avec le moins de points."
    min_players = 2
    max_players = 8
    state_type = FreezeState
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("rounds", "int", 5, "Nombre de manches", min=1, max=50),
    )

    # -- construction -----------------------------------------------------------------------------

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> FreezeState:
        cards = self.first_cards(deck, DECK, seed)
        dealer = options["first_dealer"]
        layouts, known, stock = _deal(players, cards, dealer)
        return FreezeState(
            players=players,
            seed=seed,
            rounds=options["rounds"],
            round=1,
            dealer=dealer,
            phase=Phase.TURN,
            turn=(dealer + 1) % players,
            layouts=layouts,
            known=known,
            stock=stock,
            discard=(),
            drawn=None,
            look=None,
            frozen=None,
            speed=CLOSED,
            turns=0,
            reshuffles=0,
            scores=(0,) * players,
            history=(),
            points=(),
        )

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    # -- reading the state ------------------------------------------------------------------------

    def players(self, state: FreezeState) -> int:
        return state.players

    def is_over(self, state: FreezeState) -> bool:
        return state.phase is Phase.OVER

    def to_act(self, state: FreezeState) -> tuple[int, ...]:
        if state.phase is Phase.OVER:
            return ()
        if state.phase is Phase.SHOWN:
            return ((state.dealer + 1) % state.players,)
        return (state.turn,)

    def outcome(self, state: FreezeState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        best = min(state.scores)
        return {
            "scores": list(state.scores),
            "winners": [s for s, v in enumerate(state.scores) if v == best],
            "history": [list(h) for h in state.history],
        }

    def cards(self, state: FreezeState) -> list[str]:
        out = [c for lay in state.layouts for row in lay for c in row]
        out += state.stock
        out += state.discard
        if state.drawn is not None:
            out.append(state.drawn)
        return out

    def hidden(self, state: FreezeState, seat: int | None) -> frozenset[str]:
        if state.phase in (Phase.SHOWN, Phase.OVER):
            return frozenset(state.stock)
        seen = set(state.discard)
        seen.update(c for c, mask in state.known.items() if knows(mask, seat))
        if state.drawn is not None and seat == state.turn:
            seen.add(state.drawn)
        return frozenset(c for c in DECK if c not in seen)

    def view(self, state: FreezeState, seat: int | None) -> dict[str, Any]:
        # between rounds and at the end every layout lies face up
        reveal = state.phase in (Phase.SHOWN, Phase.OVER)
        known = state.known

        def face(card: str) -> str | None:
            return card if reveal or knows(known[card], seat) else None

        layouts = [[[face(c) for c in row] for row in lay] for lay in state.layouts]
        looked = None
        if state.phase is Phase.KING_SWAP and state.look is not None:
            t, line, slot = state.look
            looked = {"target": t, "line": line, "slot": slot}
        return {
            "game": self.name,
            "players": state.players,
            "phase": state.phase.value,
            "seat": seat,
            "dealer": state.dealer,
            "turn": None if reveal else state.turn,
            "hand": None if seat is None else layouts[seat],
            "layouts": layouts,
            "counts": [sum(len(row) for row in lay) for lay in state.layouts],
            "scores": list(state.scores),
            "deal": state.round,
            "rounds": state.rounds,
            "discard": list(state.discard),
            "stock": len(state.stock),
            "drawn": state.drawn if seat is not None and seat == state.turn else None,
            "holding": state.turn if state.drawn is not None else None,
            "frozen": state.frozen,
            "looked": looked,
            "speed": _SPEED_NAMES[state.speed],
            "history": [list(h) for h in state.history],
            "points": list(state.points),
        }

    # -- what may be done -------------------------------------------------------------------------

    def _can_draw(self, state: FreezeState) -> bool:
        return bool(state.stock) or len(state.discard) >= 2

    def _targets(self, state: FreezeState, seat: int) -> Iterator[tuple[int, int, int]]:
        """Cards of other seats a power may reach: never a frozen hand."""
        n = state.players
        for k in range(1, n):
            t = (seat + k) % n
            if t != state.frozen:
                for line, slot in _positions(state.layouts[t]):
                    yield t, line, slot

    def _may_speed(self, state: FreezeState, seat: int) -> bool:
        return (
            state.phase is Phase.TURN
            and state.speed != CLOSED
            and seat != state.frozen
            and any(state.layouts[seat])
        )

    def legal_actions(self, state: FreezeState, seat: int) -> list[Action]:
        if not 0 <= seat < state.players or state.phase is Phase.OVER:
            return []
        ph = state.phase
        if ph is Phase.SHOWN:
            return [{"type": "deal"}] if seat == (state.dealer + 1) % state.players else []
        out: list[Action] = []
        own = list(_positions(state.layouts[seat]))
        if seat == state.turn:
            if ph is Phase.TURN:
                if self._can_draw(state):
                    out.append({"type": "draw"})
                if state.discard:
                    out += [{"type": "take", "line": li, "slot": sl} for li, sl in own]
                if state.frozen is None:
                    out.append({"type": "freeze"})
                if not out:
                    out.append({"type": "pass"})
            elif ph is Phase.DRAWN:
                out.append({"type": "discard"})
                out += [{"type": "replace", "line": li, "slot": sl} for li, sl in own]
            elif ph is Phase.PEEK:
                out += [{"type": "peek", "line": li, "slot": sl} for li, sl in own]
            elif ph in (Phase.SPY, Phase.KING_LOOK):
                out += [
                    {"type": "spy", "target": t, "line": li, "slot": sl}
                    for t, li, sl in self._targets(state, seat)
                ]
            elif ph is Phase.SWAP:
                theirs = list(self._targets(state, seat))
                out += [_swap_action(li, sl, t, tl, ts) for li, sl in own for t, tl, ts in theirs]
            elif ph is Phase.KING_SWAP and state.look is not None:
                t, tl, ts = state.look
                out += [_swap_action(li, sl, t, tl, ts) for li, sl in own]
            if ph in _POWER_PHASES:
                out.append({"type": "pass"})
        if self._may_speed(state, seat):
            out += [{"type": "speed", "line": li, "slot": sl} for li, sl in own]
        return out

    # -- moves ------------------------------------------------------------------------------------

    def _apply(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        kind = action["type"]
        fields = _FIELDS.get(kind)
        if fields is None:
            raise self.reject(state, seat, action)
        extra = sorted(set(action) - {"type", *fields})
        if extra:
            raise IllegalAction(f"unexpected field {extra[0]!r} in a {kind}", "bad_action")
        for f in fields:
            v = action.get(f)
            if isinstance(v, bool) or not isinstance(v, int):
                raise IllegalAction(f"a {kind} needs '{f}', a whole number", "bad_action")
        if kind == "speed":
            return self._speed(state, seat, action["line"], action["slot"])
        if state.phase is Phase.SHOWN:
            if seat != (state.dealer + 1) % state.players:
                raise IllegalAction("the next dealer deals the next round", "not_your_turn")
            if kind != "deal":
                raise IllegalAction("the round is over: deal the next one")
            return self._next_round(state)
        if kind == "deal":
            raise IllegalAction("the round is not over: there is nothing to deal")
        if seat != state.turn:
            raise IllegalAction("it is not your turn", "not_your_turn")
        return _HANDLERS[kind](self, state, seat, action)

    # each handler checks the phase and the positions, then builds the next state

    def _own(self, state: FreezeState, seat: int, line: int, slot: int) -> str:
        if line not in (0, 1) or not 0 <= slot < len(state.layouts[seat][line]):
            raise IllegalAction(f"you have no card at line {line}, slot {slot}")
        return state.layouts[seat][line][slot]

    def _theirs(self, state: FreezeState, seat: int, t: int, line: int, slot: int) -> str:
        if not 0 <= t < state.players:
            raise IllegalAction(f"there is no seat {t} at this table")
        if t == seat:
            raise IllegalAction("the target must be another player")
        if t == state.frozen:
            raise IllegalAction("a frozen hand cannot be touched")
        if line not in (0, 1) or not 0 <= slot < len(state.layouts[t][line]):
            raise IllegalAction(f"seat {t} has no card at line {line}, slot {slot}")
        return state.layouts[t][line][slot]

    def _expect(self, state: FreezeState, kind: str, *phases: Phase) -> None:
        if state.phase not in phases:
            raise IllegalAction(f"you cannot {kind} now: {_PHASE_HINTS[state.phase]}")

    def _draw(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "draw", Phase.TURN)
        if not self._can_draw(state):
            raise IllegalAction("there is nothing left to draw")
        events: list[Event] = []
        stock, discard, reshuffles = self._refill(state, seat, events)
        card = stock[0]
        events += [
            {"type": "draw", "seat": seat},
            {"type": "draw", "seat": seat, "card": card, "to": [seat]},
        ]
        new = evolve(
            state,
            phase=Phase.DRAWN,
            stock=stock[1:],
            discard=discard,
            reshuffles=reshuffles,
            drawn=card,
            speed=CLOSED,
        )
        return new, events

    def _take(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "take the discard", Phase.TURN)
        if not state.discard:
            raise IllegalAction("the discard pile is empty")
        line, slot = action["line"], action["slot"]
        old = self._own(state, seat, line, slot)
        top = state.discard[-1]
        layouts = _put(state.layouts, seat, line, slot, top)
        # everyone saw which card was taken and where it went
        known = _moved(state.known, old, top, PUBLIC)
        discard = (*state.discard[:-1], old)
        events: list[Event] = [
            {
                "type": "take",
                "seat": seat,
                "line": line,
                "slot": slot,
                "card": top,
                "discarded": old,
            }
        ]
        new = evolve(state, layouts=layouts, known=known, discard=discard)
        return self._end_turn(new, events, OPEN)

    def _freeze(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "freeze", Phase.TURN)
        if state.frozen is not None:
            raise IllegalAction(f"seat {state.frozen} has already frozen this round")
        events: list[Event] = [{"type": "freeze", "seat": seat}]
        return self._end_turn(evolve(state, frozen=seat), events, CLOSED)

    def _pass(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        if state.phase is Phase.TURN:
            if self.legal_actions(state, seat)[0]["type"] != "pass":
                raise IllegalAction("you may only pass when you can neither draw, take nor freeze")
            return self._end_turn(state, [{"type": "pass", "seat": seat}], CLOSED)
        self._expect(state, "pass", *_POWER_PHASES)
        return self._end_turn(state, [{"type": "pass", "seat": seat}], OPEN)

    def _discard(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "discard", Phase.DRAWN)
        card = state.drawn
        assert card is not None
        power = power_of(card)
        own = any(state.layouts[seat])
        others = next(self._targets(state, seat), None) is not None
        reachable = {Phase.PEEK: own, Phase.SWAP: own and others}
        if power is not None and not reachable.get(power, others):
            power = None
        new = evolve(state, discard=(*state.discard, card), drawn=None)
        events: list[Event] = [
            {
                "type": "discard",
                "seat": seat,
                "card": card,
                "power": None if power is None else _POWER_NAMES[power],
            }
        ]
        if power is None:
            return self._end_turn(new, events, OPEN)
        return evolve(new, phase=power), events

    def _replace(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "replace", Phase.DRAWN)
        line, slot = action["line"], action["slot"]
        old = self._own(state, seat, line, slot)
        card = state.drawn
        assert card is not None
        layouts = _put(state.layouts, seat, line, slot, card)
        known = _moved(state.known, old, card, 1 << seat)
        new = evolve(
            state, layouts=layouts, known=known, discard=(*state.discard, old), drawn=None
        )
        events: list[Event] = [
            {"type": "replace", "seat": seat, "line": line, "slot": slot, "card": old}
        ]
        return self._end_turn(new, events, OPEN)

    def _peek(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "peek", Phase.PEEK)
        line, slot = action["line"], action["slot"]
        card = self._own(state, seat, line, slot)
        known = _learnt(state.known, card, 1 << seat)
        pub = {"type": "peek", "seat": seat, "line": line, "slot": slot}
        events: list[Event] = [pub, {**pub, "card": card, "to": [seat]}]
        return self._end_turn(evolve(state, known=known), events, OPEN)

    def _spy(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "spy", Phase.SPY, Phase.KING_LOOK)
        t, line, slot = action["target"], action["line"], action["slot"]
        card = self._theirs(state, seat, t, line, slot)
        known = _learnt(state.known, card, 1 << seat)
        pub = {"type": "spy", "seat": seat, "target": t, "line": line, "slot": slot}
        events: list[Event] = [pub, {**pub, "card": card, "to": [seat]}]
        new = evolve(state, known=known)
        if state.phase is Phase.KING_LOOK and any(state.layouts[seat]):
            return evolve(new, phase=Phase.KING_SWAP, look=(t, line, slot)), events
        return self._end_turn(new, events, OPEN)

    def _swap(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        self._expect(state, "swap", Phase.SWAP, Phase.KING_SWAP)
        line, slot = action["line"], action["slot"]
        t, tl, ts = action["target"], action["target_line"], action["target_slot"]
        mine = self._own(state, seat, line, slot)
        theirs = self._theirs(state, seat, t, tl, ts)
        if state.phase is Phase.KING_SWAP and state.look != (t, tl, ts):
            raise IllegalAction("the black king swaps the card you looked at, or nothing")
        # no face is shown: ``known`` is keyed by card, so each seat keeps knowing exactly the
        # cards it knew, in their new places
        layouts = _put(_put(state.layouts, seat, line, slot, theirs), t, tl, ts, mine)
        events: list[Event] = [{**_swap_action(line, slot, t, tl, ts), "seat": seat}]
        return self._end_turn(evolve(state, layouts=layouts), events, OPEN)

    def _speed(
        self, state: FreezeState, seat: int, line: int, slot: int
    ) -> tuple[FreezeState, list[Event]]:
        if state.phase is not Phase.TURN or state.speed == CLOSED:
            raise IllegalAction("there is no fresh discard to speed on")
        if seat == state.frozen:
            raise IllegalAction("your hand is frozen")
        card = self._own(state, seat, line, slot)
        top = state.discard[-1]
        good = state.speed == OPEN and card[0] == top[0]
        events: list[Event] = [
            {
                "type": "speed",
                "seat": seat,
                "line": line,
                "slot": slot,
                "card": card,
                "good": good,
            }
        ]
        if good:
            lay = state.layouts[seat]
            row = (*lay[line][:slot], *lay[line][slot + 1 :])
            new_lay = (row, lay[1]) if line == 0 else (lay[0], row)
            known = dict(state.known)
            del known[card]
            new = evolve(
                state,
                layouts=_set_layout(state.layouts, seat, new_lay),
                known=known,
                discard=(*state.discard, card),
                speed=USED,
            )
        else:
            # the card goes back where it was, face down, but everyone has seen it
            known = _learnt(state.known, card, PUBLIC)
            new = self._penalty(evolve(state, known=known, speed=USED), seat, events)
        if seat == state.turn:
            return self._end_turn(new, events, USED)
        return new, events

    def _penalty(self, state: FreezeState, seat: int, events: list[Event]) -> FreezeState:
        if not self._can_draw(state):
            return state
        stock, discard, reshuffles = self._refill(state, seat, events)
        lay = state.layouts[seat]
        line = 1 if len(lay[1]) < len(lay[0]) else 0
        row = (*lay[line], stock[0])
        new_lay = (row, lay[1]) if line == 0 else (lay[0], row)
        events.append({"type": "penalty", "seat": seat, "line": line})
        return evolve(
            state,
            layouts=_set_layout(state.layouts, seat, new_lay),
            known={**state.known, stock[0]: 0},
            stock=stock[1:],
            discard=discard,
            reshuffles=reshuffles,
        )

    def _refill(
        self, state: FreezeState, seat: int, events: list[Event]
    ) -> tuple[tuple[str, ...], tuple[str, ...], int]:
        """The stock, after shuffling the discard but its top into it when it is empty."""
        if state.stock:
            return state.stock, state.discard, state.reshuffles
        k = state.reshuffles + 1
        stock = tuple(shuffled(state.discard[:-1], state.seed, "reshuffle", state.round, k))
        events.append({"type": "reshuffle", "seat": seat, "count": len(stock)})
        return stock, state.discard[-1:], k

    def _end_turn(
        self, state: FreezeState, events: list[Event], window: int
    ) -> tuple[FreezeState, list[Event]]:
        nxt = (state.turn + 1) % state.players
        if nxt == state.frozen:
            return self._end_round(state, events)
        new = evolve(
            state,
            phase=Phase.TURN,
            turn=nxt,
            drawn=None,
            look=None,
            speed=window,
            turns=state.turns + 1,
        )
        return new, events

    def _end_round(
        self, state: FreezeState, events: list[Event]
    ) -> tuple[FreezeState, list[Event]]:
        freezer = state.frozen
        assert freezer is not None
        points = [layout_points(lay) for lay in state.layouts]
        scored = round_scores(points, freezer)
        totals = tuple(a + b for a, b in zip(state.scores, scored, strict=True))
        last = state.round >= state.rounds
        events.append(
            {
                "type": "deal_end",
                "seat": freezer,
                "round": state.round,
                "layouts": [[list(row) for row in lay] for lay in state.layouts],
                "points": points,
                "scores": scored,
                "totals": list(totals),
            }
        )
        new = evolve(
            state,
            phase=Phase.OVER if last else Phase.SHOWN,
            drawn=None,
            look=None,
            speed=CLOSED,
            scores=totals,
            history=(*state.history, tuple(scored)),
            points=tuple(points),
        )
        return new, events

    def _next_round(self, state: FreezeState) -> tuple[FreezeState, list[Event]]:
        n = state.players
        dealer = (state.dealer + 1) % n
        number = state.round + 1
        layouts, known, stock = _deal(n, shuffled(DECK, state.seed, "deal", number), dealer)
        new = evolve(
            state,
            round=number,
            dealer=dealer,
            phase=Phase.TURN,
            turn=(dealer + 1) % n,
            layouts=layouts,
            known=known,
            stock=stock,
            discard=(),
            drawn=None,
            look=None,
            frozen=None,
            speed=CLOSED,
            turns=0,
            reshuffles=0,
        )
        events: list[Event] = [{"type": "deal", "seat": dealer, "round": number}]
        events += [
            {"type": "see", "seat": s, "cards": list(layouts[s][1]), "to": [s]} for s in range(n)
        ]
        return new, events

    # -- the table's move for a seat whose time ran out -------------------------------------------

    def auto_action(self, state: FreezeState, seat: int) -> Action:
        if seat not in self.to_act(state):
            raise IllegalAction(f"seat {seat} has nothing to do now", "not_your_turn")
        action = self._auto(state, seat)
        legal = self.legal_actions(state, seat)
        if action in legal:
            return action
        return next(a for a in legal if a["type"] != "speed")

    def _auto(self, state: FreezeState, seat: int) -> Action:
        """Keep low cards and known lines of a kind, replace known high ones, aim powers at
        unknown cards, freeze when the hand looks low enough; never speed (a wrong guess costs a
        card)."""
        ph = state.phase
        if ph is Phase.SHOWN:
            return {"type": "deal"}
        lay = state.layouts[seat]
        own = list(_positions(lay))
        mine = [(lay[li][sl], li, sl) for li, sl in own]
        # a known line of a kind counts 0: replacing or swapping away one of its cards only adds
        # (the ranks are read only once every card of the line is known to the seat)
        zero = {
            li
            for li, row in enumerate(lay)
            if len(row) >= 2
            and all(knows(state.known[c], seat) for c in row)
            and len({c[0] for c in row}) == 1
        }
        known = [
            (value(c), li, sl)
            for c, li, sl in mine
            if knows(state.known[c], seat) and li not in zero
        ]
        unknown = [(li, sl) for c, li, sl in mine if not knows(state.known[c], seat)]
        # the top line first: the bottom line was seen at the deal
        unknown.sort()
        high = max(known, default=None)
        if ph is Phase.TURN:
            return self._auto_turn(state, seat, high, unknown)
        if ph is Phase.DRAWN:
            assert state.drawn is not None
            v = value(state.drawn)
            if high is not None and v < high[0]:
                return {"type": "replace", "line": high[1], "slot": high[2]}
            if unknown and v <= 3:
                return {"type": "replace", "line": unknown[0][0], "slot": unknown[0][1]}
            return {"type": "discard"}
        if ph is Phase.PEEK:
            if unknown:
                return {"type": "peek", "line": unknown[0][0], "slot": unknown[0][1]}
            return {"type": "pass"}
        if ph in (Phase.SPY, Phase.KING_LOOK):
            for t, li, sl in self._targets(state, seat):
                if not knows(state.known[state.layouts[t][li][sl]], seat):
                    return {"type": "spy", "target": t, "line": li, "slot": sl}
            return {"type": "pass"}
        if ph is Phase.SWAP:
            if high is None:
                return {"type": "pass"}
            best = None
            blind = None
            for t, li, sl in self._targets(state, seat):
                c = state.layouts[t][li][sl]
                if knows(state.known[c], seat):
                    if best is None or value(c) < best[0]:
                        best = (value(c), t, li, sl)
                elif blind is None:
                    blind = (t, li, sl)
            if best is not None and best[0] < high[0]:
                return _swap_action(high[1], high[2], *best[1:])
            if blind is not None and high[0] > _UNKNOWN_VALUE + 1:
                return _swap_action(high[1], high[2], *blind)
            return {"type": "pass"}
        if ph is Phase.KING_SWAP and state.look is not None:
            t, tl, ts = state.look
            v = value(state.layouts[t][tl][ts])
            if high is not None and v < high[0]:
                return _swap_action(high[1], high[2], t, tl, ts)
            if unknown and v <= 3:
                return _swap_action(unknown[0][0], unknown[0][1], t, tl, ts)
            return {"type": "pass"}
        return {"type": "pass"}

    def _auto_turn(
        self,
        state: FreezeState,
        seat: int,
        high: tuple[int, int, int] | None,
        unknown: list[tuple[int, int]],
    ) -> Action:
        lay = state.layouts[seat]
        n = state.players
        estimate = 0
        for row in lay:
            if all(knows(state.known[c], seat) for c in row):
                estimate += line_points(row)
            else:
                estimate += sum(
                    value(c) if knows(state.known[c], seat) else _UNKNOWN_VALUE for c in row
                )
        if state.frozen is None and (
            estimate <= 7 or (state.turns >= 6 * n and estimate <= 15) or state.turns >= 12 * n
        ):
            return {"type": "freeze"}
        if state.discard and (high is not None or unknown):
            tv = value(state.discard[-1])
            if high is not None and tv <= 2 and tv < high[0]:
                return {"type": "take", "line": high[1], "slot": high[2]}
            if tv <= 2 and unknown:
                return {"type": "take", "line": unknown[0][0], "slot": unknown[0][1]}
            if high is not None and tv + 4 < high[0]:
                return {"type": "take", "line": high[1], "slot": high[2]}
        if self._can_draw(state):
            return {"type": "draw"}
        if state.frozen is None:
            return {"type": "freeze"}
        if state.discard and (high is not None or unknown):
            li, sl = (high[1], high[2]) if high is not None else unknown[0]
            return {"type": "take", "line": li, "slot": sl}
        return {"type": "pass"}


def _swap_action(line: int, slot: int, t: int, tl: int, ts: int) -> Action:
    return {
        "type": "swap",
        "line": line,
        "slot": slot,
        "target": t,
        "target_line": tl,
        "target_slot": ts,
    }


_Handler = Callable[[Freeze, FreezeState, int, Action], tuple[FreezeState, list[Event]]]
_HANDLERS: dict[str, _Handler] = {
    "draw": Freeze._draw,
    "take": Freeze._take,
    "freeze": Freeze._freeze,
    "pass": Freeze._pass,
    "discard": Freeze._discard,
    "replace": Freeze._replace,
    "peek": Freeze._peek,
    "spy": Freeze._spy,
    "swap": Freeze._swap,
}
_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": (),
    "take": ("line", "slot"),
    "freeze": (),
    "pass": (),
    "discard": (),
    "replace": ("line", "slot"),
    "peek": ("line", "slot"),
    "spy": ("target", "line", "slot"),
    "swap": ("line", "slot", "target", "target_line", "target_slot"),
    "speed": ("line", "slot"),
    "deal": (),
}
_PHASE_HINTS = {
    Phase.TURN: "it is the start of a turn (draw, take the discard or freeze)",
    Phase.DRAWN: "you hold the card you drew (discard it or replace one of your cards)",
    Phase.PEEK: "your 7/8 lets you peek at one of your cards (or pass)",
    Phase.SPY: "your 9/10 lets you spy on an opponent's card (or pass)",
    Phase.SWAP: "your jack/queen lets you swap one of your cards with an opponent's (or pass)",
    Phase.KING_LOOK: "your black king lets you look at an opponent's card first (or pass)",
    Phase.KING_SWAP: "your black king lets you swap the card you looked at (or pass)",
    Phase.SHOWN: "the round is over",
    Phase.OVER: "the game is over",
}

GAME = register(Freeze())
