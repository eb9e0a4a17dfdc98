"""The game of freeze: the deal, the moves (a turn, its powers, the speeds) and what a seat sees.
The spec is the package's docstring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from tablee.engine import Action, BaseGame, Event, IllegalAction, OptionSpec
from tablee.engine.moves import Handler, Move, MoveTable, whole_number
from tablee.engine.state import evolve

from . import auto
from .rounds import end_turn, next_round, penalty, refill
from .rules import (
    CLOSED,
    DECK,
    OPEN,
    POWER_NAMES,
    POWER_PHASES,
    PUBLIC,
    SPEED_NAMES,
    USED,
    FreezeState,
    Phase,
    can_draw,
    deal,
    knows,
    learnt,
    moved,
    positions,
    power_of,
    put,
    seen_layouts,
    set_layout,
    swap_action,
    targets,
)

#: the fields of each action: whole numbers, and no other
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
#: the phases a move is played in (besides a pass, the turn's or a power's, and a speed)
_PHASES: dict[str, tuple[Phase, ...]] = {
    "draw": (Phase.TURN,),
    "take": (Phase.TURN,),
    "freeze": (Phase.TURN,),
    "discard": (Phase.DRAWN,),
    "replace": (Phase.DRAWN,),
    "peek": (Phase.PEEK,),
    "spy": (Phase.SPY, Phase.KING_LOOK),
    "swap": (Phase.SWAP, Phase.KING_SWAP),
}
#: how a refusal names a move, when not by its type
_LABELS = {"take": "take the discard"}
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
_WHOLE = whole_number("a {kind} needs '{field}', a whole number")
_NOT_YOUR_TURN = "it is not your turn"
_NEXT_DEALER = "the next dealer deals the next round"


def _moves(
    handlers: Mapping[str, Handler],
    *,
    turn_pass: Handler,
    power_pass: Handler,
    speed: Handler,
    deal: Handler,
) -> MoveTable:
    """Every phase takes every action type, checked alike (fields first: see ``fields_first``):
    a speed from any seat; between rounds, only the next dealer's deal; during a round, the
    turn player's moves of the phase, and for the others the reason they are not played now."""

    def move(kind: str, handler: Handler | None = None, **how: Any) -> Move:
        fields = {f: _WHOLE for f in _FIELDS[kind]}
        return Move(handler, fields, only=True, **how)

    table: dict[Phase, dict[str, Move]] = {}
    for phase in Phase:
        if phase is Phase.OVER:
            continue
        moves = {"speed": move("speed", speed)}
        if phase is Phase.SHOWN:
            moves["deal"] = move("deal", deal, turn=_NEXT_DEALER)
            for kind in (*handlers, "pass"):
                moves[kind] = move(
                    kind, turn=_NEXT_DEALER, refusal="the round is over: deal the next one"
                )
        else:
            moves["deal"] = move("deal", refusal="the round is not over: there is nothing to deal")
            wrong = f"now: {_PHASE_HINTS[phase]}"
            for kind, handler in handlers.items():
                if phase in _PHASES[kind]:
                    moves[kind] = move(kind, handler, turn=_NOT_YOUR_TURN, waits_on="turn")
                else:
                    label = _LABELS.get(kind, kind)
                    moves[kind] = move(
                        kind,
                        turn=_NOT_YOUR_TURN,
                        waits_on="turn",
                        refusal=f"you cannot {label} {wrong}",
                    )
            if phase is Phase.TURN:
                moves["pass"] = move("pass", turn_pass, turn=_NOT_YOUR_TURN, waits_on="turn")
            elif phase in POWER_PHASES:
                moves["pass"] = move("pass", power_pass, turn=_NOT_YOUR_TURN, waits_on="turn")
            else:
                moves["pass"] = move(
                    "pass", turn=_NOT_YOUR_TURN, waits_on="turn", refusal=f"you cannot pass {wrong}"
                )
        table[phase] = moves
    return table


class Freeze(BaseGame[FreezeState]):
    name = "freeze"
    title = "Freeze"
    summary = "Quatre cartes cachées, des pouvoirs, des speeds : freezez avec le moins de points."
    min_players = 2
    max_players = 8
    state_type = FreezeState
    over_phase = Phase.OVER
    # a malformed action is refused as such before whose turn it is is looked at
    fields_first = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("rounds", "int", 5, "Nombre de manches", min=1, max=50),
    )

    # -- construction -----------------------------------------------------------------------------

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> FreezeState:
        cards = self.first_cards(deck, DECK, seed)
        dealer = options["first_dealer"]
        layouts, known, stock = deal(players, cards, dealer)
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
        layouts = seen_layouts(state, seat)
        reveal = state.phase in (Phase.SHOWN, Phase.OVER)
        looked = None
        if state.phase is Phase.KING_SWAP and state.look is not None:
            t, line, slot = state.look
            looked = {"target": t, "line": line, "slot": slot}
        return {
            **self.view_header(
                state,
                seat,
                turn=None if reveal else state.turn,
                hand=None if seat is None else layouts[seat],
                counts=[sum(len(row) for row in lay) for lay in state.layouts],
                deal=state.round,
            ),
            "layouts": layouts,
            "rounds": state.rounds,
            "discard": list(state.discard),
            "stock": len(state.stock),
            "drawn": state.drawn if seat is not None and seat == state.turn else None,
            "holding": state.turn if state.drawn is not None else None,
            "frozen": state.frozen,
            "looked": looked,
            "speed": SPEED_NAMES[state.speed],
            "history": [list(h) for h in state.history],
            "points": list(state.points),
        }

    def views(
        self, state: FreezeState, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        def own(seat: int) -> dict[str, Any]:
            layouts = seen_layouts(state, seat)
            drawn = state.drawn if seat == state.turn else None
            return {"hand": layouts[seat], "layouts": layouts, "drawn": drawn}

        return self._spectators_views(state, seats, own)

    # -- what may be done -------------------------------------------------------------------------

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
        own = list(positions(state.layouts[seat]))
        if seat == state.turn:
            if ph is Phase.TURN:
                if can_draw(state):
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
                    for t, li, sl in targets(state, seat)
                ]
            elif ph is Phase.SWAP:
                theirs = list(targets(state, seat))
                out += [swap_action(li, sl, t, tl, ts) for li, sl in own for t, tl, ts in theirs]
            elif ph is Phase.KING_SWAP and state.look is not None:
                t, tl, ts = state.look
                out += [swap_action(li, sl, t, tl, ts) for li, sl in own]
            if ph in POWER_PHASES:
                out.append({"type": "pass"})
        if self._may_speed(state, seat):
            out += [{"type": "speed", "line": li, "slot": sl} for li, sl in own]
        return out

    # -- moves ------------------------------------------------------------------------------------

    # each handler checks the positions, then builds the next state

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

    def _draw(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        if not can_draw(state):
            raise IllegalAction("there is nothing left to draw")
        events: list[Event] = []
        stock, discard, reshuffles = refill(state, seat, events)
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
        if not state.discard:
            raise IllegalAction("the discard pile is empty")
        line, slot = action["line"], action["slot"]
        old = self._own(state, seat, line, slot)
        top = state.discard[-1]
        layouts = put(state.layouts, seat, line, slot, top)
        # everyone saw which card was taken and where it went
        known = moved(state.known, old, top, PUBLIC)
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
        return end_turn(new, events, OPEN)

    def _freeze(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        if state.frozen is not None:
            raise IllegalAction(f"seat {state.frozen} has already frozen this round")
        events: list[Event] = [{"type": "freeze", "seat": seat}]
        return end_turn(evolve(state, frozen=seat), events, CLOSED)

    def _pass(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        if self.legal_actions(state, seat)[0]["type"] != "pass":
            raise IllegalAction("you may only pass when you can neither draw, take nor freeze")
        return end_turn(state, [{"type": "pass", "seat": seat}], CLOSED)

    def _decline(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        """A pass in a power phase: the power is not used."""
        return end_turn(state, [{"type": "pass", "seat": seat}], OPEN)

    def _discard(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        card = state.drawn
        assert card is not None
        power = power_of(card)
        own = any(state.layouts[seat])
        others = next(targets(state, seat), None) is not None
        reachable = {Phase.PEEK: own, Phase.SWAP: own and others}
        if power is not None and not reachable.get(power, others):
            power = None
        new = evolve(state, discard=(*state.discard, card), drawn=None)
        events: list[Event] = [
            {
                "type": "discard",
                "seat": seat,
                "card": card,
                "power": None if power is None else POWER_NAMES[power],
            }
        ]
        if power is None:
            return end_turn(new, events, OPEN)
        return evolve(new, phase=power), events

    def _replace(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        line, slot = action["line"], action["slot"]
        old = self._own(state, seat, line, slot)
        card = state.drawn
        assert card is not None
        layouts = put(state.layouts, seat, line, slot, card)
        known = moved(state.known, old, card, 1 << seat)
        new = evolve(state, layouts=layouts, known=known, discard=(*state.discard, old), drawn=None)
        events: list[Event] = [
            {"type": "replace", "seat": seat, "line": line, "slot": slot, "card": old}
        ]
        return end_turn(new, events, OPEN)

    def _peek(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        line, slot = action["line"], action["slot"]
        card = self._own(state, seat, line, slot)
        known = learnt(state.known, card, 1 << seat)
        pub = {"type": "peek", "seat": seat, "line": line, "slot": slot}
        events: list[Event] = [pub, {**pub, "card": card, "to": [seat]}]
        return end_turn(evolve(state, known=known), events, OPEN)

    def _spy(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        t, line, slot = action["target"], action["line"], action["slot"]
        card = self._theirs(state, seat, t, line, slot)
        known = learnt(state.known, card, 1 << seat)
        pub = {"type": "spy", "seat": seat, "target": t, "line": line, "slot": slot}
        events: list[Event] = [pub, {**pub, "card": card, "to": [seat]}]
        new = evolve(state, known=known)
        if state.phase is Phase.KING_LOOK and any(state.layouts[seat]):
            return evolve(new, phase=Phase.KING_SWAP, look=(t, line, slot)), events
        return end_turn(new, events, OPEN)

    def _swap(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        line, slot = action["line"], action["slot"]
        t, tl, ts = action["target"], action["target_line"], action["target_slot"]
        mine = self._own(state, seat, line, slot)
        theirs = self._theirs(state, seat, t, tl, ts)
        if state.phase is Phase.KING_SWAP and state.look != (t, tl, ts):
            raise IllegalAction("the black king swaps the card you looked at, or nothing")
        # no face is shown: ``known`` is keyed by card, so each seat keeps knowing exactly the
        # cards it knew, in their new places
        layouts = put(put(state.layouts, seat, line, slot, theirs), t, tl, ts, mine)
        events: list[Event] = [{**swap_action(line, slot, t, tl, ts), "seat": seat}]
        return end_turn(evolve(state, layouts=layouts), events, OPEN)

    def _speed(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        line, slot = action["line"], action["slot"]
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
                layouts=set_layout(state.layouts, seat, new_lay),
                known=known,
                discard=(*state.discard, card),
                speed=USED,
            )
        else:
            # the card goes back where it was, face down, but everyone has seen it
            known = learnt(state.known, card, PUBLIC)
            new = penalty(evolve(state, known=known, speed=USED), seat, events)
        if seat == state.turn:
            return end_turn(new, events, USED)
        return new, events

    def _next_round(
        self, state: FreezeState, seat: int, action: Action
    ) -> tuple[FreezeState, list[Event]]:
        return next_round(state)

    moves: ClassVar[MoveTable] = _moves(
        {
            "draw": _draw,
            "take": _take,
            "freeze": _freeze,
            "discard": _discard,
            "replace": _replace,
            "peek": _peek,
            "spy": _spy,
            "swap": _swap,
        },
        turn_pass=_pass,
        power_pass=_decline,
        speed=_speed,
        deal=_next_round,
    )

    # -- the table's move for a seat whose time ran out -------------------------------------------

    def auto_action(self, state: FreezeState, seat: int) -> Action:
        if seat not in self.to_act(state):
            raise IllegalAction(f"seat {seat} has nothing to do now", "not_your_turn")
        action = auto.auto_action(state, seat)
        legal = self.legal_actions(state, seat)
        if action in legal:
            return action
        return next(a for a in legal if a["type"] != "speed")
