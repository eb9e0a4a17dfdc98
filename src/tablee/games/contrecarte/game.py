"""The game of contrecarte: the deal, the moves and what a seat sees. The spec is the package's
docstring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from tablee.cards import check_deck, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.moves import Handler, Move, MoveTable
from tablee.games._breakdown import breakdown, line, one

from . import auto
from .rules import (
    ALL_CARDS,
    COLOR,
    COLOR_NAMES,
    COLOR_SET,
    CONTEST,
    DECK,
    DRAWN,
    FACE,
    FITS,
    HAND_SIZE,
    NO_EFFECT,
    NUMBERS,
    OVER,
    PLAY,
    WILD4,
    WILD_PLAYS,
    WILDS,
    ContrecarteState,
    add_plays,
    give,
    seal,
    with_item,
)


class Contrecarte(BaseGame[ContrecarteState]):
    name = "contrecarte"
    title = "Contrecarte"
    min_players = 2
    max_players = 6
    state_type = ContrecarteState
    summary = "Posez toutes vos cartes le premier : couleur ou valeur, jokers, +2, +4 contestables."
    over_phase = OVER

    # -- construction ---------------------------------------------------------------------------

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> ContrecarteState:
        cards = shuffled(DECK, seed, "deal", 1) if deck is None else check_deck(deck, DECK)
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
        return seal(
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

    # the common reads, spelled out with the module's constant: every move of a playout calls
    # them, and a class attribute read through the instance (``over_phase``) costs more
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
            **self.view_header(
                state,
                seat,
                turn=None if over else state.turn,
                scores=[int(s == state.winner) for s in range(n)],
                deal=1,
            ),
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

    def views(
        self, state: ContrecarteState, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        hands, turn, drawn = state.hands, state.turn, state.drawn
        return self._spectators_views(
            state,
            seats,
            lambda seat: {"hand": list(hands[seat]), "drawn": drawn if seat == turn else None},
        )

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
                        add_plays(out, c, True)
                else:
                    for c in playable:
                        if c in WILDS:
                            out += map(dict.copy, WILD_PLAYS[c])
                        else:
                            out.append({"type": "play", "card": c})
                out.append({"type": "draw"})
            elif phase is DRAWN:
                add_plays(out, state.drawn, len(hand) == 2)  # type: ignore[arg-type]
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
        # The common case in a few operations (this is every move of every playout): the move's
        # handler at once. Anything unusual goes through BaseGame.apply, whose generic checks and
        # dispatch give the precise errors; every handler checks the seat and fields itself.
        if (
            action.__class__ is dict
            and seat.__class__ is int
            and state.phase is not OVER
            and 0 <= seat < state.players
        ):
            kind = action.get("type")
            # a list or an object as the type would make the lookup raise TypeError
            if kind.__class__ is str:
                handler = _FAST.get(kind)
                if handler is not None:
                    return handler(self, state, seat, action)
        return super().apply(state, seat, action)

    def refuse(self, state: ContrecarteState, seat: int, action: Action) -> IllegalAction:
        return IllegalAction(
            f"unknown action {action['type']!r}; Contrecarte actions: {', '.join(self._handlers)}",
            "bad_action",
        )

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
            if named.__class__ is not str or named not in COLOR_SET:
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
                f"{card} does not go on {top}: play a {COLOR_NAMES[color]} card,"
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
        hands = list(state.hands)  # with_item, spelled out on the one path every play takes
        hands[seat] = rest
        new["hands"] = tuple(hands)
        new["discard"] = discard + (card,)  # noqa: RUF005 -- concatenation is the faster here
        new["color"] = named if wild else COLOR[card]
        if phase is DRAWN:
            new["phase"] = PLAY
            new["drawn"] = None
        said = announce is True
        if state.announced[seat] != said:
            new["announced"] = with_item(state.announced, seat, said)
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
                    "cards_left": [len(h) for h in new["hands"]],
                    "breakdown": breakdown("seat", n, [line("out", one(n, seat, 1))]),
                }
            )
            return seal(new), events

        d = state.direction
        nxt = (seat + d) % n
        if card in NO_EFFECT:
            new["turn"] = nxt
            return seal(new), events
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
            give(new, nxt, 2, "+2", events)
            events.append({"type": "skip", "seat": nxt})
        return seal(new), events

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
        got = give(new, seat, 1, "turn", events)
        # the top card is the same before and after a reshuffle, which keeps it
        if got and got[0] in FITS[state.color, state.discard[-1]]:
            new["phase"] = DRAWN
            new["drawn"] = got[0]
        else:
            new["turn"] = (seat + state.direction) % state.players
        return seal(new), events

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
        return seal(new), [{"type": "pass", "seat": seat}]

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
            give(new, seat, 4, "+4", events)
        elif not state.plus4_legal:
            events = [{"type": "contest", "seat": seat, "poser": poser, "verdict": "illegal"}]
            # the poser draws; the contester plays next, on the named colour
            give(new, poser, 4, "contest", events)
        else:
            events = [{"type": "contest", "seat": seat, "poser": poser, "verdict": "legal"}]
            new["turn"] = after
            give(new, seat, 6, "contest", events)
        return seal(new), events

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
        new["announced"] = with_item(state.announced, seat, True)
        return seal(new), [{"type": "announce", "seat": seat}]

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
        give(new, target if caught else seat, 2, "catch", events)
        return seal(new), events

    #: every phase takes every type of action: each handler tells the phases apart (a play in the
    #: contest window is refused with "answer the +4 first", not with the phase's actions)
    _handlers: ClassVar[dict[str, Handler]] = {
        "play": _play,
        "draw": _draw,
        "pass": _pass,
        "contest": _answer,
        "accept": _answer,
        "announce": _announce,
        "catch": _catch,
    }
    _every_move: ClassVar[Mapping[str, Move]] = {kind: Move(h) for kind, h in _handlers.items()}
    moves: ClassVar[MoveTable] = dict.fromkeys((PLAY, DRAWN, CONTEST), _every_move)

    # -- the table's move -----------------------------------------------------------------------

    # the policy itself, without a call of its own in between (it refuses a seat with nothing to do)
    auto_action = staticmethod(auto.auto_action)


#: the fast path's handlers, a module global: read once per move
_FAST = Contrecarte._handlers
