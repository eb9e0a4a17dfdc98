"""Contrecarte: BFmania's eight-américain family game, 2 to 6 players, each for themselves.

Rules: the house text, as decided in the rules decisions (Contrecarte section). One game is one
deal; the first player to play their last card wins. No options of its own.

Cards (see ``tablee.cards``): ``R``/``B``/``G``/``Y`` then ``0``-``9``, ``S`` (passe), ``R``
(inversion), ``+2``; colourless ``W`` (joker) and ``W+4``. 108 cards; two copies of every coloured
card except the ``0`` s, four ``W`` and four ``W+4``.

Deal and ``deck=``
    The dealer is the option ``first_dealer`` common to every game (default: the last seat,
    ``n-1``; a rematch moves it to the next seat, see ``tablee.engine.game``); the seat after the
    dealer plays first, direction increasing (seat 0 by default). The cards are dealt one at a
    time round the table starting at the seat after the dealer, 7 rounds: with a stacked deck (top
    card first) and dealer ``d``, card ``deck[j]`` (``j < 7n``) goes to seat ``(d + 1 + j) % n``,
    so by default seat ``i`` gets ``deck[i]``, ``deck[i+n]``, ... ``deck[i+6n]``. The rest is the
    stock, ``deck[7n]`` on top, and its top card is turned to start the discard. A turned card
    that is not a number (``0``-``9``) is put back and the stock reshuffled (``rng(seed, "turn",
    k)``) until a number turns up, so the first card is never special. A seeded game shuffles the
    deck with ``rng(seed, "deal", 1)`` and deals it the same way.

Phases (``phase``)
    ``play``: the seat ``turn`` plays a card or draws. ``drawn``: it drew a card that fits and may
    play that card or pass. ``contest``: a ``W+4`` is pending; ``turn`` is its target, who contests
    or accepts. ``over``: somebody has no card left.

Actions
    - ``{"type": "play", "card": C}``; a ``W``/``W+4`` also names the colour that goes on:
      ``{"type": "play", "card": "W+4", "color": "B"}``. The card must fit: same colour as the
      colour in force (the top card's, or the one named with the last joker), or same face as the
      top card (``7`` on ``7``, ``+2`` on ``+2``, ``S`` on ``S``, ``R`` on ``R``); ``W``/``W+4``
      go on anything. A ``W+4`` is never refused: whether it was legal (no card of the colour in
      force in the hand) is recorded, hidden, for a contest. In phase ``drawn`` only the drawn card
      may be played. A play that leaves exactly one card may carry ``"announce": true``: the player
      says "Carte !" with the card (both variants are listed in ``legal_actions``). The table's
      ``auto_action`` always uses it: that is how "the table announces for the player" is done,
      since after its move the seat is no longer the one the table waits on.
    - ``{"type": "draw"}``: in phase ``play`` only, once per turn, allowed even when a card fits.
      If the drawn card fits the phase becomes ``drawn``, else the turn passes. With nothing left to
      draw (empty stock, discard reduced to its top) the player draws nothing and the turn passes.
    - ``{"type": "pass"}``: in phase ``drawn`` only (after drawing a card that fits).
    - ``{"type": "contest"}`` / ``{"type": "accept"}``: the target of a ``W+4``. Accept: draws 4 and
      loses the turn. Contest of an illegal +4: the poser draws 4, the contester plays next on the
      named colour. Contest of a legal +4: the contester draws 6 and loses the turn. Only the
      verdict is revealed, never the poser's hand.
    - ``{"type": "announce"}``: "Carte !", by a seat holding exactly one card that has not
      announced since it reached one card. Out of turn: any time, never changes the turn.
    - ``{"type": "catch", "target": T}``: by any other seat, when seat ``T`` holds exactly one card.
      ``T`` draws 2 if it had not announced; else the accuser draws 2 (false accusation). Out of
      turn, never changes the turn. Catching a seat with another card count is refused.

Effects of a card: ``S`` skips the next player; ``R`` reverses the direction (with 2 players it acts
as a skip: the player plays again); ``+2``: the next player draws 2 and is skipped; ``W``: the named
colour goes on; ``W+4``: the named colour goes on and the next player must contest or accept. No
stacking: a ``+2``/``+4`` is answered by drawing, never by another one. A ``W+4`` played as the last
card wins at once (nothing to contest: no card of any colour is left in that hand).

Empty stock: when a draw needs a card, the discard pile except its top card is reshuffled
(``rng(seed, "reshuffle", k)``) into a new stock; if nothing is left, the draw is cut short.

``to_act``: ``(turn,)`` — the seat whose turn it is, or the +4 target during the contest window.
Out-of-turn actions (``announce``, ``catch``) appear in every entitled seat's ``legal_actions``.

Events (``"seat"`` is who did it)
    ``play`` {card, color (W/W+4 only), announce (when said with the card)}; ``draw`` public
    {count, reason} with a private twin {cards} ``to`` the drawer (reason: ``turn``, ``+2``,
    ``+4``, ``contest``, ``catch``); ``reshuffle`` {count}; ``pass``; ``skip`` (seat: the skipped
    player); ``reverse`` {direction}; ``accept``; ``contest`` {poser, verdict: ``legal`` or
    ``illegal``}; ``announce``; ``catch`` {target, caught: bool}; ``deal_end`` {winner, scores}.

What each seat sees (``view``)
    Common keys (``game``, ``players``, ``phase``, ``seat``, ``dealer``, ``turn``, ``hand`` (own
    cards in the order received; ``None`` for a spectator), ``counts``, ``scores``, ``deal``) and
    ``top`` (the discard's top card), ``color`` (colour in force), ``direction`` (1 or -1),
    ``stock`` and ``discard`` (sizes), ``pending`` ({poser, target} during a contest window, else
    ``None``), ``announced`` (seats holding one card that have said "Carte !"), ``drawn`` (the
    card this seat drew and may still play, else ``None``), ``winner``. Never another hand, the
    stock, or whether a pending +4 is legal.

``auto_action`` (the table's move on a timeout): a fitting card, coloured cards before jokers,
never an illegal ``W+4``, naming the colour most held, announcing when it leaves one card; else
draw; after drawing, play the drawn card if it fits (same limits) else pass; contest window:
accept. A seat holding one unannounced card that cannot win at once announces. Out of turn: say
"Carte !" if due, else catch a seat that forgot to (never a false accusation), else refused.

Outcome: ``{"scores": [1 for the winner, 0 for the others], "winners": [w]}``. The tally of wins
and rematches are the table's business.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablee.cards import CC_COLORS, check_deck, deck_contrecarte, parse_contrecarte, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.games.registry import register


class Phase(enum.Enum):
    PLAY = "play"
    DRAWN = "drawn"
    CONTEST = "contest"
    OVER = "over"


PLAY, DRAWN, CONTEST, OVER = Phase.PLAY, Phase.DRAWN, Phase.CONTEST, Phase.OVER

HAND_SIZE = 7
WILD, WILD4 = "W", "W+4"
WILDS = frozenset((WILD, WILD4))
NUMBERS = frozenset("0123456789")
COLORS = CC_COLORS
_COLOR_SET = frozenset(COLORS)

_DECK = tuple(deck_contrecarte())
ALL_CARDS = frozenset(_DECK)
#: card -> colour ("" for W/W+4) and card -> face, parsed once
COLOR: dict[str, str] = {c: parse_contrecarte(c).color for c in ALL_CARDS}
FACE: dict[str, str] = {c: parse_contrecarte(c).face for c in ALL_CARDS}
_FITS_FACE = {
    (col, face): frozenset(c for c in ALL_CARDS if c in WILDS or COLOR[c] == col or FACE[c] == face)
    for col in COLORS
    for face in {*FACE.values()}
}
#: (colour in force, top card) -> the cards that may be played on it (the sets are shared
#: between top cards of one face: keyed by the card itself, a move spares a look-up of its face)
FITS: dict[tuple[str, str], frozenset[str]] = {
    (col, top): _FITS_FACE[col, FACE[top]] for col in COLORS for top in ALL_CARDS
}
#: the cards that only pass the turn on (numbers and W): most plays, told apart in one look-up
_NO_EFFECT = frozenset(c for c in ALL_CARDS if FACE[c] in NUMBERS or c == WILD)
#: a joker's plays, one per colour named (copied: the caller owns the actions it gets)
_WILD_PLAYS = {w: tuple({"type": "play", "card": w, "color": x} for x in COLORS) for w in WILDS}
_COLOR_NAME = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}


@dataclass(frozen=True)
class ContrecarteState:
    players: int
    seed: int | str
    #: who dealt; the seat after plays first
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    #: top card first
    stock: tuple[str, ...]
    #: bottom first, top card last
    discard: tuple[str, ...]
    #: the colour in force (the top card's, or the one named with a joker)
    color: str
    direction: int
    #: the seat that plays (or, in the contest window, the target of the +4)
    turn: int
    phase: Phase
    #: the card drawn this turn, when it fits (phase drawn)
    drawn: str | None
    #: who played the pending +4 (phase contest)
    poser: int | None
    #: hidden: whether the pending +4 was legal when played
    plus4_legal: bool
    #: said "Carte !" since reaching one card (meaningful only while holding one card)
    announced: tuple[bool, ...]
    reshuffles: int
    winner: int | None


_new_instance = object.__new__
_set = object.__setattr__


# A move builds the next state as a draft, ``state.__dict__.copy()``, whose fields it assigns,
# then seals it with ``_seal``. That is ``dataclasses.replace`` without its cost: a frozen
# dataclass's ``__init__`` goes through ``object.__setattr__`` once per field (microseconds per
# move), a dict copy is one C-level operation, and the draft is at once the changed state that
# helpers such as ``_give`` read. Only this module does it, with field names; the conformance
# suite checks that every state round-trips through JSON to an equal state. The engine gives
# every first state and every state read from JSON a plain dict of fields (see
# ``tablee.engine.state``), and the drafts copied from a plain dict stay plain.


def _seal(draft: dict[str, Any]) -> ContrecarteState:
    """The state whose fields are ``draft`` (a copy of another state's, then changed)."""
    new = _new_instance(ContrecarteState)
    _set(new, "__dict__", draft)
    return new


def _with(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    # a list round trip is cheaper than two slices and an unpacking for a handful of seats
    out = list(items)
    out[i] = value
    return tuple(out)


class Contrecarte(BaseGame[ContrecarteState]):
    name = "contrecarte"
    title = "Contrecarte"
    min_players = 2
    max_players = 6
    state_type = ContrecarteState
    summary = "Posez toutes vos cartes le premier : couleur ou valeur, jokers, +2, +4 contestables."

    def __init__(self) -> None:
        self._handlers: dict[
            str, Callable[[ContrecarteState, int, Action], tuple[ContrecarteState, list[Event]]]
        ] = {
            "play": self._play,
            "draw": self._draw,
            "pass": self._pass,
            "contest": self._answer,
            "accept": self._answer,
            "announce": self._announce,
            "catch": self._catch,
        }

    # -- construction ---------------------------------------------------------------------------

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(_DECK)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> ContrecarteState:
        cards = shuffled(_DECK, seed, "deal", 1) if deck is None else check_deck(deck, _DECK)
        dealer = options["first_dealer"]
        first = (dealer + 1) % players
        dealt = HAND_SIZE * players
        hands = tuple(tuple(cards[(i - first) % players : dealt : players]) for i in range(players))
        stock = cards[dealt:]
        attempt = 0
        while FACE[stock[0]] not in NUMBERS:
            attempt += 1
            stock = shuffled(stock, seed, "turn", attempt)
        top = stock[0]
        # sealed like the states that follow (see _seal): the frozen dataclass's __init__ would
        # cost a tenth of the deal
        return _seal(
            {
                "players": players,
                "seed": seed,
                "dealer": dealer,
                "hands": hands,
                "stock": tuple(stock[1:]),
                "discard": (top,),
                "color": COLOR[top],
                "direction": 1,
                "turn": first,
                "phase": PLAY,
                "drawn": None,
                "poser": None,
                "plus4_legal": False,
                "announced": (False,) * players,
                "reshuffles": 0,
                "winner": None,
            }
        )

    # -- reading the state ----------------------------------------------------------------------

    def players(self, state: ContrecarteState) -> int:
        return state.players

    def is_over(self, state: ContrecarteState) -> bool:
        return state.phase is OVER

    def to_act(self, state: ContrecarteState) -> tuple[int, ...]:
        return () if state.phase is OVER else (state.turn,)

    def outcome(self, state: ContrecarteState) -> dict[str, Any] | None:
        w = state.winner
        if w is None:
            return None
        return {"scores": [int(s == w) for s in range(state.players)], "winners": [w]}

    def cards(self, state: ContrecarteState) -> list[str]:
        out = [c for hand in state.hands for c in hand]
        out += state.stock
        out += state.discard
        return out

    def hidden(self, state: ContrecarteState, seat: int | None) -> frozenset[str]:
        # A code is visible as soon as one copy is in the discard or the seat's own hand.
        seen = set(state.discard)
        if seat is not None:
            seen.update(state.hands[seat])
        return ALL_CARDS.difference(seen)

    def view(self, state: ContrecarteState, seat: int | None) -> dict[str, Any]:
        n = state.players
        over = state.phase is OVER
        pending = {"poser": state.poser, "target": state.turn} if state.phase is CONTEST else None
        return {
            "game": self.name,
            "players": n,
            "phase": state.phase.value,
            "seat": seat,
            "dealer": state.dealer,
            "turn": None if over else state.turn,
            "hand": None if seat is None else list(state.hands[seat]),
            "counts": [len(h) for h in state.hands],
            "scores": [int(s == state.winner) for s in range(n)],
            "deal": 1,
            "top": state.discard[-1],
            "color": state.color,
            "direction": state.direction,
            "stock": len(state.stock),
            "discard": len(state.discard),
            "pending": pending,
            "announced": [s for s in range(n) if state.announced[s] and len(state.hands[s]) == 1],
            "drawn": state.drawn if seat is not None and seat == state.turn else None,
            "winner": state.winner,
        }

    def legal_actions(self, state: ContrecarteState, seat: int) -> list[Action]:
        phase = state.phase
        if phase is OVER:
            return []
        hands = state.hands
        hand = hands[seat]
        out: list[Action] = []
        if seat == state.turn:
            if phase is PLAY:
                # the fitting cards picked in C, each once (a hand may hold two copies)
                playable = dict.fromkeys(
                    filter(FITS[state.color, state.discard[-1]].__contains__, hand)
                )
                if len(hand) == 2:
                    for c in playable:
                        _add_plays(out, c, True)
                else:
                    for c in playable:
                        if c in WILDS:
                            out += map(dict.copy, _WILD_PLAYS[c])
                        else:
                            out.append({"type": "play", "card": c})
                out.append({"type": "draw"})
            elif phase is DRAWN:
                _add_plays(out, state.drawn, len(hand) == 2)  # type: ignore[arg-type]
                out.append({"type": "pass"})
            else:
                out.append({"type": "contest"})
                out.append({"type": "accept"})
        if 1 in map(len, hands):
            if len(hand) == 1 and not state.announced[seat]:
                out.append({"type": "announce"})
            for t, h in enumerate(hands):
                if len(h) == 1 and t != seat:
                    out.append({"type": "catch", "target": t})
        return out

    # -- moves ----------------------------------------------------------------------------------

    def apply(
        self, state: ContrecarteState, seat: int, action: Any
    ) -> tuple[ContrecarteState, list[Event]]:
        # The common case in a few operations (this is every move of every playout); anything
        # unusual goes through BaseGame.apply, whose generic checks give the precise errors.
        if (
            action.__class__ is dict
            and seat.__class__ is int
            and state.phase is not OVER
            and 0 <= seat < state.players
        ):
            kind = action.get("type")
            # a list or an object as the type would make the lookup raise TypeError
            if kind.__class__ is str:
                handler = self._handlers.get(kind)
                if handler is not None:
                    return handler(state, seat, action)
        return super().apply(state, seat, action)

    def _apply(
        self, state: ContrecarteState, seat: int, action: Action
    ) -> tuple[ContrecarteState, list[Event]]:
        kind = action["type"]
        handler = self._handlers.get(kind)
        if handler is None:
            raise IllegalAction(
                f"unknown action {kind!r}; Contrecarte actions: {', '.join(self._handlers)}",
                "bad_action",
            )
        return handler(state, seat, action)

    def _play(
        self, state: ContrecarteState, seat: int, action: Action
    ) -> tuple[ContrecarteState, list[Event]]:
        if seat != state.turn:
            raise IllegalAction("it is not your turn to play", "not_your_turn")
        card = action.get("card")
        if card.__class__ is not str or card not in COLOR:
            raise IllegalAction(f"not a Contrecarte card: {card!r}", "bad_action")
        if len(action) == 2:
            # "type" and "card" only: the usual play
            named = announce = None
        else:
            named = action.get("color")
            announce = action.get("announce")
            if len(action) != 2 + ("color" in action) + ("announce" in action):
                raise IllegalAction("a play has only 'card', 'color' and 'announce'", "bad_action")
        wild = card in WILDS
        if wild:
            if named.__class__ is not str or named not in _COLOR_SET:
                raise IllegalAction(
                    f"name the colour that goes on with your {card}: R, B, G or Y", "bad_action"
                )
        elif named is not None:
            raise IllegalAction("only a joker or a +4 names a colour", "bad_action")
        if announce is not None and announce is not True:
            raise IllegalAction("'announce' is true or absent", "bad_action")
        phase = state.phase
        if phase is CONTEST:
            raise IllegalAction("answer the +4 first: contest or accept")
        hand = state.hands[seat]
        if phase is DRAWN:
            if card != state.drawn:
                raise IllegalAction(f"you may only play the card you drew ({state.drawn})")
        elif card not in hand:
            raise IllegalAction(f"you do not hold {card}")
        discard = state.discard
        top = discard[-1]
        color = state.color
        if card not in FITS[color, top]:
            raise IllegalAction(
                f"{card} does not go on {top}: play a {_COLOR_NAME[color]} card,"
                f" a {FACE[top]}, a W or a W+4"
            )
        i = hand.index(card)
        rest = hand[:i] + hand[i + 1 :]
        if announce and len(rest) != 1:
            raise IllegalAction('you say "Carte !" with the card that leaves you only one')

        event: Event = {"type": "play", "seat": seat, "card": card}
        if named is not None:
            event["color"] = named
        if announce:
            event["announce"] = True
        events = [event]
        new = state.__dict__.copy()
        hands = list(state.hands)  # _with, spelled out on the one path every play takes
        hands[seat] = rest
        new["hands"] = tuple(hands)
        new["discard"] = discard + (card,)  # noqa: RUF005 -- concatenation is the faster here
        new["color"] = named if wild else COLOR[card]
        if phase is DRAWN:
            new["phase"] = PLAY
            new["drawn"] = None
        said = announce is True
        if state.announced[seat] != said:
            new["announced"] = _with(state.announced, seat, said)
        n = state.players
        if not rest:
            new["phase"] = OVER
            new["winner"] = seat
            events.append(
                {
                    "type": "deal_end",
                    "seat": seat,
                    "winner": seat,
                    "scores": [int(s == seat) for s in range(n)],
                }
            )
            return _seal(new), events

        d = state.direction
        nxt = (seat + d) % n
        if card in _NO_EFFECT:
            new["turn"] = nxt
            return _seal(new), events
        face = FACE[card]
        if face == WILD4:
            # legal only without a card of the colour in force (jokers have no colour)
            legal = True
            for c in rest:
                if COLOR[c] == color:
                    legal = False
                    break
            new["turn"] = nxt
            new["phase"] = CONTEST
            new["poser"] = seat
            new["plus4_legal"] = legal
        elif face == "S":
            events.append({"type": "skip", "seat": nxt})
            new["turn"] = (nxt + d) % n
        elif face == "R":
            d = -d
            events.append({"type": "reverse", "seat": seat, "direction": d})
            new["direction"] = d
            # with two players the reverse acts as a skip: the player plays again
            new["turn"] = seat if n == 2 else (seat + d) % n
        else:
            # +2: the next player draws two and is skipped
            new["turn"] = (nxt + d) % n
            _give(new, nxt, 2, "+2", events)
            events.append({"type": "skip", "seat": nxt})
        return _seal(new), events

    def _draw(
        self, state: ContrecarteState, seat: int, action: Action
    ) -> tuple[ContrecarteState, list[Event]]:
        if seat != state.turn:
            raise IllegalAction("it is not your turn to draw", "not_your_turn")
        if len(action) != 1:
            raise IllegalAction("a draw has no fields", "bad_action")
        if state.phase is not PLAY:
            if state.phase is DRAWN:
                raise IllegalAction("you have already drawn this turn: play the card or pass")
            raise IllegalAction("answer the +4 first: contest or accept")
        events: list[Event] = []
        new = state.__dict__.copy()
        got = _give(new, seat, 1, "turn", events)
        # the top card is the same before and after a reshuffle, which keeps it
        if got and got[0] in FITS[state.color, state.discard[-1]]:
            new["phase"] = DRAWN
            new["drawn"] = got[0]
        else:
            new["turn"] = (seat + state.direction) % state.players
        return _seal(new), events

    def _pass(
        self, state: ContrecarteState, seat: int, action: Action
    ) -> tuple[ContrecarteState, list[Event]]:
        if seat != state.turn:
            raise IllegalAction("it is not your turn to pass", "not_your_turn")
        if len(action) != 1:
            raise IllegalAction("a pass has no fields", "bad_action")
        if state.phase is not DRAWN:
            raise IllegalAction("you may pass only after drawing a card that you could play")
        new = state.__dict__.copy()
        new["turn"] = (seat + state.direction) % state.players
        new["phase"] = PLAY
        new["drawn"] = None
        return _seal(new), [{"type": "pass", "seat": seat}]

    def _answer(
        self, state: ContrecarteState, seat: int, action: Action
    ) -> tuple[ContrecarteState, list[Event]]:
        kind = action["type"]
        if state.phase is not CONTEST:
            if seat != state.turn:
                raise IllegalAction(f"it is not your turn to {kind}", "not_your_turn")
            raise IllegalAction(f"there is no +4 to {kind}")
        if seat != state.turn:
            raise IllegalAction(f"only the target of the +4 may {kind} it", "not_your_turn")
        if len(action) != 1:
            raise IllegalAction(f"{kind} has no fields", "bad_action")
        poser = state.poser
        assert poser is not None
        after = (seat + state.direction) % state.players
        new = state.__dict__.copy()
        new["phase"] = PLAY
        new["poser"] = None
        new["plus4_legal"] = False
        events: list[Event]
        if kind == "accept":
            events = [{"type": "accept", "seat": seat}]
            new["turn"] = after
            _give(new, seat, 4, "+4", events)
        elif not state.plus4_legal:
            events = [{"type": "contest", "seat": seat, "poser": poser, "verdict": "illegal"}]
            # the poser draws; the contester plays next, on the named colour
            _give(new, poser, 4, "contest", events)
        else:
            events = [{"type": "contest", "seat": seat, "poser": poser, "verdict": "legal"}]
            new["turn"] = after
            _give(new, seat, 6, "contest", events)
        return _seal(new), events

    def _announce(
        self, state: ContrecarteState, seat: int, action: Action
    ) -> tuple[ContrecarteState, list[Event]]:
        if len(action) != 1:
            raise IllegalAction("an announce has no fields", "bad_action")
        if len(state.hands[seat]) != 1:
            raise IllegalAction('you say "Carte !" only when you hold one card')
        if state.announced[seat]:
            raise IllegalAction('you have already said "Carte !"')
        new = state.__dict__.copy()
        new["announced"] = _with(state.announced, seat, True)
        return _seal(new), [{"type": "announce", "seat": seat}]

    def _catch(
        self, state: ContrecarteState, seat: int, action: Action
    ) -> tuple[ContrecarteState, list[Event]]:
        target = action.get("target")
        if len(action) != 2 or target.__class__ is not int:
            raise IllegalAction("a catch names its 'target' seat", "bad_action")
        if not 0 <= target < state.players:
            raise IllegalAction(f"there is no seat {target}", "bad_action")
        if target == seat:
            raise IllegalAction("you cannot catch yourself")
        if len(state.hands[target]) != 1:
            raise IllegalAction(f"seat {target} does not hold exactly one card")
        caught = not state.announced[target]
        events: list[Event] = [{"type": "catch", "seat": seat, "target": target, "caught": caught}]
        new = state.__dict__.copy()
        _give(new, target if caught else seat, 2, "catch", events)
        return _seal(new), events

    # -- the table's move -----------------------------------------------------------------------

    def auto_action(self, state: ContrecarteState, seat: int) -> Action:
        phase = state.phase
        if phase is OVER:
            raise IllegalAction("the game is over", "game_over")
        hand = state.hands[seat]
        if seat == state.turn:
            if phase is CONTEST:
                return {"type": "accept"}
            fits = FITS[state.color, state.discard[-1]]
            if phase is DRAWN:
                drawn = state.drawn
                assert drawn is not None
                if drawn != WILD4 or _plus4_legal(hand, drawn, state.color):
                    return _auto_play(hand, drawn)
                return {"type": "pass"}
            if len(hand) == 1 and hand[0] in fits:
                return _auto_play(hand, hand[0])
            if len(hand) == 1 and not state.announced[seat]:
                return {"type": "announce"}
            choice = _auto_choice(hand, fits, state.color)
            return {"type": "draw"} if choice is None else _auto_play(hand, choice)
        if len(hand) == 1 and not state.announced[seat]:
            return {"type": "announce"}
        for target, other in enumerate(state.hands):
            # announcements are public: catching a seat that has not announced is no gamble
            if len(other) == 1 and not state.announced[target] and target != seat:
                return {"type": "catch", "target": target}
        raise IllegalAction("it is not your turn", "not_your_turn")


def _add_plays(out: list[Action], card: str, last: bool) -> None:
    """The play actions of one card; ``last``: the play leaves one card, so it may be announced."""
    if card in WILDS:
        for col in COLORS:
            out.append({"type": "play", "card": card, "color": col})
            if last:
                out.append({"type": "play", "card": card, "color": col, "announce": True})
    else:
        out.append({"type": "play", "card": card})
        if last:
            out.append({"type": "play", "card": card, "announce": True})


def _give(
    new: dict[str, Any], seat: int, count: int, reason: str, events: list[Event]
) -> tuple[str, ...]:
    """``seat`` draws ``count`` cards, reshuffling the discard (all but its top) into the stock
    when it runs out; fewer when nothing is left. Works on the draft ``new`` of the next state
    (as already changed: hands, discard, announced), changes it and appends the events."""
    stock = new["stock"]
    got = stock[:count]
    if len(got) == count:
        new["stock"] = stock[count:]
    else:
        stock = ()
        discard = new["discard"]
        if len(discard) > 1:
            reshuffles = new["reshuffles"]
            fresh = shuffled(discard[:-1], new["seed"], "reshuffle", reshuffles)
            new["reshuffles"] = reshuffles + 1
            new["discard"] = discard[-1:]
            events.append({"type": "reshuffle", "seat": seat, "count": len(fresh)})
            need = count - len(got)
            got += tuple(fresh[:need])
            stock = tuple(fresh[need:])
        new["stock"] = stock
    events.append({"type": "draw", "seat": seat, "count": len(got), "reason": reason})
    if got:
        events.append(
            {"type": "draw", "seat": seat, "cards": list(got), "reason": reason, "to": [seat]}
        )
        hands = new["hands"]
        new["hands"] = _with(hands, seat, hands[seat] + got)
        announced = new["announced"]
        if announced[seat]:
            new["announced"] = _with(announced, seat, False)
    return got


def _plus4_legal(hand: tuple[str, ...], card: str, color: str) -> bool:
    """Whether playing ``card`` (a W+4 in ``hand``) now is legal: no other card of ``color``."""
    return all(COLOR[c] != color for c in hand)


def _most_held(hand: Sequence[str], fallback: str) -> str:
    counts = {col: 0 for col in COLORS}
    for c in hand:
        col = COLOR[c]
        if col:
            counts[col] += 1
    best = max(COLORS, key=lambda col: counts[col])
    return best if counts[best] else fallback


def _auto_choice(hand: tuple[str, ...], fits: frozenset[str], color: str) -> str | None:
    """The card the table plays: a fitting coloured card of the colour most held (keeping the
    jokers for later), else a joker, else a legal +4; ``None``: draw."""
    counts = {col: 0 for col in COLORS}
    for c in hand:
        col = COLOR[c]
        if col:
            counts[col] += 1
    best: str | None = None
    for c in hand:
        if (
            c in fits
            and c not in WILDS
            and (best is None or counts[COLOR[c]] > counts[COLOR[best]])
        ):
            best = c
    if best is not None:
        return best
    if WILD in hand:
        return WILD
    if WILD4 in hand and counts[color] == 0:
        return WILD4
    return None


def _auto_play(hand: tuple[str, ...], card: str) -> Action:
    i = hand.index(card)
    rest = hand[:i] + hand[i + 1 :]
    action: Action = {"type": "play", "card": card}
    if card in WILDS:
        action["color"] = _most_held(rest, COLORS[0])
    if len(rest) == 1:
        action["announce"] = True
    return action


GAME = register(Contrecarte())
