"""The game of tarot: the deals, the moves of each phase and the secrets kept. The spec is the
package's docstring; the rules read from a state are in ``rules``, the count and the scores in
``scoring``, what a seat sees in ``view``, the table's timeout move in ``auto``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from tablee.cards import EXCUSE, check_deck, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction, OptionSpec
from tablee.engine.moves import Move, MoveTable, card_of
from tablee.engine.state import evolve
from tablee.games._tricks import Trick, trick_view, without

from . import auto
from .rules import (
    BOUTS,
    CHIEN_SIZE,
    CONTRACTS,
    DECK,
    DECK_SET,
    FRESH_DEAL,
    HAND_SIZE,
    POIGNEE_LEVELS,
    POIGNEE_TRUMPS,
    TRUMP_SET,
    Phase,
    Poignee,
    TarotState,
    best_bid,
    callable_cards,
    current,
    deal_cards,
    ecart_allowed,
    has_petit_sec,
    is_plain,
    play_reason,
    playable,
    poignee_cards,
    poignee_levels,
    public_cards,
    sort_cards,
    speaker,
    trick_winner,
)
from .scoring import outcome, score_deal
from .view import view, views

_NOT_YOUR_TURN = "it is not your turn"
_CARD = card_of(DECK_SET, "this action needs a 'card'", "{value!r} is not a tarot card")


class TarotGame(BaseGame[TarotState]):
    name = "tarot"
    title = "Tarot"
    summary = "Le tarot à 3, 4 ou 5 joueurs : prise, garde, poignées, chelem et appel au roi."
    min_players = 3
    max_players = 5
    state_type = TarotState
    over_phase = Phase.OVER
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "deals",
            "int",
            None,
            "Nombre de donnes",
            help="Par défaut, une donne par joueur. Une donne où tous passent ne compte pas.",
            min=1,
            max=100,
            nullable=True,
        ),
    )

    # -- construction ------------------------------------------------------------------------------

    def deck(self, players: int, options: Any = None) -> list[str]:
        return list(DECK)

    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> TarotState:
        stacked = None if deck is None else check_deck(deck, DECK)
        base = TarotState(
            players=players,
            seed=seed,
            deals=options["deals"] or players,
            deal=1,
            attempt=0,
            dealer=options["first_dealer"],
            scores=(0,) * players,
            history=(),
            hands=(),
            chien=(),
            chien_dealt=(),
            leader=0,
            redeal=None,
            redeal_seat=None,
            **FRESH_DEAL,
        )
        state, _ = self._deal(base, base.dealer, 1, 0, stacked)
        return state

    def _deal(
        self,
        state: TarotState,
        dealer: int,
        deal_no: int,
        attempt: int,
        stacked: Sequence[str] | None = None,
        reason: str | None = None,
    ) -> tuple[TarotState, list[Event]]:
        """A fresh deal by ``dealer``, dealt again while someone is petit sec."""
        events: list[Event] = [{"type": "deal", "seat": dealer, "deal": deal_no}]
        redeal_seat = None
        while True:
            cards = (
                stacked
                if stacked is not None
                else shuffled(DECK, state.seed, "deal", deal_no, attempt)
            )
            hands, chien = deal_cards(cards, state.players, dealer)
            sec = next((s for s, h in enumerate(hands) if has_petit_sec(h)), None)
            if sec is None:
                break
            events.append({"type": "redeal", "seat": dealer, "reason": "petit_sec", "player": sec})
            reason, redeal_seat = "petit_sec", sec
            stacked, attempt = None, attempt + 1
        state = evolve(
            state,
            deal=deal_no,
            attempt=attempt,
            dealer=dealer,
            hands=hands,
            chien=chien,
            chien_dealt=chien,
            leader=(dealer + 1) % state.players,
            redeal=reason,
            redeal_seat=redeal_seat,
            **FRESH_DEAL,
        )
        return state, events

    # -- reading the state -------------------------------------------------------------------------

    def to_act(self, state: TarotState) -> tuple[int, ...]:
        phase = state.phase
        if phase is Phase.PLAY:
            return (current(state),)
        if phase is Phase.BID:
            return (speaker(state),)
        if phase in (Phase.CALL, Phase.ECART, Phase.CHELEM):
            assert state.taker is not None
            return (state.taker,)
        if phase is Phase.END:
            return ((state.dealer + 1) % state.players,)
        return ()

    def cards(self, state: TarotState) -> list[str]:
        out: list[str] = []
        for h in state.hands:
            out += h
        out += state.chien
        out += state.ecart
        out += state.trick
        for t in state.tricks:
            out += t.cards
        return out

    def hidden(self, state: TarotState, seat: int | None) -> frozenset[str]:
        if state.phase in (Phase.END, Phase.OVER):
            return frozenset()
        secret: set[str] = set()
        for s, hand in enumerate(state.hands):
            if s != seat:
                secret.update(hand)
        secret.update(state.chien)
        if seat != state.taker:
            secret.update(state.ecart)
        if not secret:
            return frozenset()
        known = public_cards(state)
        return frozenset(secret - known)

    # -- legal actions -----------------------------------------------------------------------------

    def legal_actions(self, state: TarotState, seat: int) -> list[Action]:
        phase = state.phase
        if phase is Phase.OVER or seat not in self.to_act(state):
            return []
        if phase is Phase.PLAY:
            out: list[Action] = [
                {"type": "poignee", "level": lv} for lv in poignee_levels(state, seat)
            ]
            out += [{"type": "play", "card": c} for c in playable(state, seat)]
            return out
        if phase is Phase.BID:
            best = best_bid(state)
            start = 0 if best is None else CONTRACTS.index(best) + 1
            return [{"type": "pass"}] + [{"type": "bid", "contract": c} for c in CONTRACTS[start:]]
        if phase is Phase.CALL:
            return [{"type": "call", "card": c} for c in callable_cards(state)]
        if phase is Phase.ECART:
            acts: list[Action] = [{"type": "discard", "card": c} for c in ecart_allowed(state)]
            if state.ecart:
                acts.append({"type": "undo"})
            return acts
        if phase is Phase.CHELEM:
            return [{"type": "chelem"}, {"type": "no_chelem"}]
        return [{"type": "deal"}]

    # -- moves -------------------------------------------------------------------------------------

    def _deal_next(
        self, state: TarotState, seat: int, action: Action
    ) -> tuple[TarotState, list[Event]]:
        return self._deal(state, (state.dealer + 1) % state.players, state.deal + 1, 0)

    def _bid(self, state: TarotState, seat: int, action: Action) -> tuple[TarotState, list[Event]]:
        bid = "pass" if action["type"] == "pass" else action.get("contract")
        if bid == "pass":
            events: list[Event] = [{"type": "pass", "seat": seat}]
        else:
            if not isinstance(bid, str) or bid not in CONTRACTS:
                raise IllegalAction(
                    f"a bid needs a 'contract': one of {', '.join(CONTRACTS)}", "bad_action"
                )
            best = best_bid(state)
            if best is not None and CONTRACTS.index(bid) <= CONTRACTS.index(best):
                raise IllegalAction(f"you must bid higher than {best}")
            events = [{"type": "bid", "seat": seat, "contract": bid}]
        bids = (*state.bids, (seat, bid))
        state = evolve(state, bids=bids, redeal=None, redeal_seat=None)
        if bid != "garde_contre" and len(bids) < state.players:
            return state, events
        best = best_bid(state)
        if best is None:
            events.append({"type": "redeal", "seat": state.dealer, "reason": "all_passed"})
            new, more = self._deal(
                state,
                (state.dealer + 1) % state.players,
                state.deal,
                state.attempt + 1,
                reason="all_passed",
            )
            return new, events + more
        taker = next(s for s, c in bids if c == best)
        state = evolve(state, taker=taker, contract=best)
        events.append({"type": "taker", "seat": taker, "contract": best})
        if state.players == 5:
            return evolve(state, phase=Phase.CALL), events
        return self._after_call(state, events)

    def _call(self, state: TarotState, seat: int, action: Action) -> tuple[TarotState, list[Event]]:
        card = action["card"]
        allowed = callable_cards(state)
        if card not in allowed:
            rank = {"K": "king", "Q": "queen", "C": "cavalier", "J": "valet"}[allowed[0][0]]
            raise IllegalAction(f"you must call a {rank}")
        partner = next((s for s, h in enumerate(state.hands) if card in h and s != seat), None)
        state = evolve(state, called=card, partner=partner)
        return self._after_call(state, [{"type": "call", "seat": seat, "card": card}])

    def _after_call(self, state: TarotState, events: list[Event]) -> tuple[TarotState, list[Event]]:
        assert state.taker is not None
        if state.contract in ("prise", "garde"):
            taker = state.taker
            hands = list(state.hands)
            hands[taker] = sort_cards((*hands[taker], *state.chien))
            events.append({"type": "chien", "seat": taker, "cards": list(state.chien_dealt)})
            known = state.partner_known or (
                state.called is not None and state.called in state.chien_dealt
            )
            state = evolve(
                state,
                hands=tuple(hands),
                chien=(),
                chien_shown=True,
                partner_known=known,
                phase=Phase.ECART,
            )
            return state, events
        return evolve(state, phase=Phase.CHELEM), events

    def _discard(
        self, state: TarotState, seat: int, action: Action
    ) -> tuple[TarotState, list[Event]]:
        card = action["card"]
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(f"you do not hold {card}")
        if card not in ecart_allowed(state):
            if card == EXCUSE or card in BOUTS:
                reason = "the écart may not hold a bout"
            elif card[0] == "K" and is_plain(card):
                reason = "the écart may not hold a king"
            else:
                reason = "the écart may not hold a trump while plain cards can fill it"
            raise IllegalAction(reason)
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        ecart = (*state.ecart, card)
        events: list[Event] = [
            {"type": "discard", "seat": seat, "card": card, "to": [seat]},
            {"type": "discard", "seat": seat, "count": len(ecart)},
        ]
        state = evolve(state, hands=tuple(hands), ecart=ecart)
        if len(ecart) < CHIEN_SIZE[state.players]:
            return state, events
        trumps = [c for c in ecart if c in TRUMP_SET]
        events.append({"type": "ecart", "seat": seat, "count": len(ecart), "trumps": trumps})
        return evolve(state, phase=Phase.CHELEM), events

    def _undo(self, state: TarotState, seat: int, action: Action) -> tuple[TarotState, list[Event]]:
        if not state.ecart:
            raise IllegalAction("there is no discarded card to take back")
        card = state.ecart[-1]
        hands = list(state.hands)
        hands[seat] = sort_cards((*hands[seat], card))
        ecart = state.ecart[:-1]
        events: list[Event] = [
            {"type": "undo", "seat": seat, "card": card, "to": [seat]},
            {"type": "undo", "seat": seat, "count": len(ecart)},
        ]
        return evolve(state, hands=tuple(hands), ecart=ecart), events

    def _chelem(
        self, state: TarotState, seat: int, action: Action
    ) -> tuple[TarotState, list[Event]]:
        announced = action["type"] == "chelem"
        leader = seat if announced else (state.dealer + 1) % state.players
        state = evolve(state, chelem=announced, leader=leader, phase=Phase.PLAY)
        return state, [{"type": "chelem", "seat": seat, "announced": announced}]

    def _poignee(
        self, state: TarotState, seat: int, action: Action
    ) -> tuple[TarotState, list[Event]]:
        level = action.get("level")
        if level not in POIGNEE_LEVELS:
            raise IllegalAction(
                f"a poignée needs a 'level': one of {', '.join(POIGNEE_LEVELS)}", "bad_action"
            )
        allowed = poignee_levels(state, seat)
        if level not in allowed:
            if any(p.seat == seat for p in state.poignees):
                raise IllegalAction("you have already shown a poignée")
            if len(state.hands[seat]) != HAND_SIZE[state.players]:
                raise IllegalAction("a poignée is shown before your first card")
            need = POIGNEE_TRUMPS[state.players][POIGNEE_LEVELS.index(level)]
            raise IllegalAction(f"a {level} poignée needs {need} trumps (the Excuse counts)")
        need = POIGNEE_TRUMPS[state.players][POIGNEE_LEVELS.index(level)]
        shown = poignee_cards(state.hands[seat], need)
        state = evolve(state, poignees=(*state.poignees, Poignee(seat, level, shown)))
        return state, [{"type": "poignee", "seat": seat, "level": level, "cards": list(shown)}]

    def _play(self, state: TarotState, seat: int, action: Action) -> tuple[TarotState, list[Event]]:
        card = action["card"]
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(f"you do not hold {card}")
        if card not in playable(state, seat):
            raise IllegalAction(play_reason(state, seat, card))
        n = state.players
        hands = without(state.hands, seat, card)
        trick = (*state.trick, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        partner_known = state.partner_known
        if card == state.called:
            partner_known = True
            events.append({"type": "partner", "seat": seat, "taker": state.taker})
        if len(trick) < n:
            state = evolve(state, hands=hands, trick=trick, partner_known=partner_known)
            return state, events
        last = len(state.tricks) == HAND_SIZE[n] - 1
        win = trick_winner(state, trick, last)
        done = Trick(state.leader, trick, win)
        events.append({"type": "trick", "seat": win, "cards": trick_view(state.leader, trick, n)})
        state = evolve(
            state,
            hands=hands,
            trick=(),
            tricks=(*state.tricks, done),
            leader=win,
            partner_known=partner_known,
        )
        if not last:
            return state, events
        return score_deal(state, events)

    moves: ClassVar[MoveTable] = {
        Phase.BID: {
            "bid": Move(_bid, turn=_NOT_YOUR_TURN),
            "pass": Move(_bid, turn=_NOT_YOUR_TURN),
        },
        Phase.CALL: {"call": Move(_call, {"card": _CARD}, turn=_NOT_YOUR_TURN)},
        Phase.ECART: {
            "discard": Move(_discard, {"card": _CARD}, turn=_NOT_YOUR_TURN),
            "undo": Move(_undo, turn=_NOT_YOUR_TURN),
        },
        Phase.CHELEM: {
            "chelem": Move(_chelem, turn=_NOT_YOUR_TURN),
            "no_chelem": Move(_chelem, turn=_NOT_YOUR_TURN),
        },
        Phase.PLAY: {
            "play": Move(_play, {"card": _CARD}, turn=_NOT_YOUR_TURN),
            "poignee": Move(_poignee, turn=_NOT_YOUR_TURN),
        },
        Phase.END: {"deal": Move(_deal_next, turn=_NOT_YOUR_TURN)},
    }

    def outcome(self, state: TarotState) -> dict[str, Any] | None:
        return outcome(state)

    # -- views -------------------------------------------------------------------------------------

    def view(self, state: TarotState, seat: int | None) -> dict[str, Any]:
        return view(self, state, seat)

    def views(
        self, state: TarotState, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        return views(self, state, seats)

    # -- the table's move for a seat out of time --------------------------------------------------

    def auto_action(self, state: TarotState, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("it is not your turn", "not_your_turn")
        return auto.auto_action(state, seat, legal)
