"""The game of yaniv: the moves, the round's end and what a seat sees. The spec is the package's
docstring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from tablee.cards import JOKERS, check_deck, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction
from tablee.engine.moves import Move, MoveTable, refusal
from tablee.engine.state import evolve
from tablee.games._breakdown import breakdown, line, one

from . import auto
from .rules import (
    ASSAF_PENALTY,
    CARD_SET,
    DECK,
    LIMIT,
    YANIV_MAX,
    Phase,
    RoundResult,
    YanivState,
    deal_round,
    discards,
    group_error,
    hand_value,
    layouts,
    replace_at,
    sort_hand,
    takeable,
)


class Yaniv(BaseGame[YanivState]):
    name = "yaniv"
    title = "Yaniv"
    summary = "Posez séries et suites, piochez, et annoncez yaniv à 7 points ou moins."
    min_players = 2
    max_players = 8
    state_type = YanivState
    over_phase = Phase.OVER

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> YanivState:
        cards = list(DECK) if deck is None else check_deck(deck, DECK)
        if deck is None:
            cards = shuffled(cards, seed, "deal", 1)
        first = (options["first_dealer"] + 1) % players
        return deal_round(players, seed, 1, first, cards, (0,) * players, (), 0)

    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        return list(DECK)

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

    def check_seat(self, state: YanivState, seat: int) -> None:
        if seat != state.turn:
            if state.phase is Phase.SHOW:
                raise IllegalAction(
                    f"waiting for seat {state.turn} to start the next round", "not_your_turn"
                )
            raise IllegalAction(f"it is seat {state.turn}'s turn", "not_your_turn")

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
            raise IllegalAction(group_error(cards))
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
            hands=replace_at(state.hands, seat, kept),
            known=replace_at(state.known, seat, tuple(c for c in known if c not in group)),
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
            hands=replace_at(state.hands, seat, sort_hand((*hand, card))),
            known=replace_at(state.known, seat, known),
            stock=stock,
            pile=pile,
            top=state.laid,
            top_kind=state.laid_kind,
            laid=(),
            laid_kind="",
            reshuffles=reshuffles,
        )
        return new, events

    def _yaniv(
        self, state: YanivState, seat: int, action: Action
    ) -> tuple[YanivState, list[Event]]:
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
                "breakdown": breakdown(
                    "seat",
                    n,
                    [
                        line(
                            "hand",
                            [
                                p - (ASSAF_PENALTY if s == seat and assafers else 0)
                                for s, p in enumerate(points)
                            ],
                        ),
                        line("assaf", one(n, seat, ASSAF_PENALTY if assafers else 0)),
                        line("drop", [-50 if s in dropped else 0 for s in range(n)]),
                    ],
                ),
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

    def _next_round(
        self, state: YanivState, seat: int, action: Action
    ) -> tuple[YanivState, list[Event]]:
        round_ = state.round + 1
        cards = shuffled(DECK, state.seed, "deal", round_)
        new = deal_round(
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

    moves: ClassVar[MoveTable] = {
        Phase.TURN: {
            "yaniv": Move(_yaniv),
            "discard": Move(_discard),
            "draw": refusal("discard first, then draw"),
        },
        Phase.DRAW: {
            "draw": Move(_draw),
            "discard": refusal(
                "you have discarded already: now draw from the stock or the discard"
            ),
            "yaniv": refusal("yaniv is called at the start of your turn, before discarding"),
        },
        Phase.SHOW: {"next": Move(_next_round)},
    }

    # -- views ----------------------------------------------------------------------------------

    def view(self, state: YanivState, seat: int | None) -> dict[str, Any]:
        n = state.players
        shown = state.phase in (Phase.SHOW, Phase.OVER)
        own = state.hands[seat] if seat is not None else None
        return {
            **self.view_header(state, seat, dealer=(state.first - 1) % n, deal=state.round),
            "hand_value": None if own is None else hand_value(own),
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

    def views(
        self, state: YanivState, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        hands = state.hands
        return self._spectators_views(
            state,
            seats,
            lambda seat: {"hand": list(hands[seat]), "hand_value": hand_value(hands[seat])},
        )

    # -- timeout play ---------------------------------------------------------------------------

    def auto_action(self, state: YanivState, seat: int) -> Action:
        if state.phase is Phase.OVER or seat != state.turn:
            raise IllegalAction("it is not your turn", "not_your_turn")
        return auto.auto_action(state, seat)
