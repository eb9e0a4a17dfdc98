"""The game of motton: dealing, the moves and what a seat sees. The spec is the package's
docstring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from tablee.cards import deck_52, shuffled
from tablee.engine import Action, BaseGame, Event, IllegalAction, OptionSpec
from tablee.engine.moves import Move, MoveTable, whole_number
from tablee.engine.state import evolve
from tablee.games._breakdown import breakdown, line
from tablee.games._tricks import (
    Trick,
    french_card,
    french_suit,
    hand_events,
    last_trick_view,
    raised,
    standard_hand,
    trick_view,
    winner,
    without,
)

from . import auto
from .rules import (
    ROUND_CARDS,
    SUIT_WORDS,
    MottonState,
    Phase,
    Row,
    cards_in_round,
    forbidden_bid,
    highest,
    legal_bids,
    legal_cards,
    power,
    round_score,
    trump_of,
)


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
    over_phase = Phase.OVER

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

    def legal_actions(self, state: MottonState, seat: int) -> list[Action]:
        if state.phase is Phase.DEAL:
            return [{"type": "deal"}] if seat == state.dealer else []
        if state.phase is Phase.BID:
            return [{"type": "bid", "value": v} for v in legal_bids(state, seat)]
        return [{"type": "play", "card": c} for c in legal_cards(state, seat)]

    # -- moves ----------------------------------------------------------------------------------

    def _deal_next(
        self, state: MottonState, seat: int, action: Action
    ) -> tuple[MottonState, list[Event]]:
        if state.replay:
            salt: tuple[object, ...] = ("deal", state.round + 1, "replay", state.replay)
        else:
            salt = ("deal", state.round + 1)
        return self._dealt(state, shuffled(deck_52(), state.seed, *salt))

    def _bid(
        self, state: MottonState, seat: int, action: Action
    ) -> tuple[MottonState, list[Event]]:
        value = action["value"]
        k = cards_in_round(state)
        if not 0 <= value <= k:
            raise IllegalAction(f"a bid is from 0 to {k} tricks this round")
        if value == forbidden_bid(state):
            raise IllegalAction(
                f"you may not bid {value}: the bids would add up to the {k} cards in hand"
            )
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

    def _play(
        self, state: MottonState, seat: int, action: Action
    ) -> tuple[MottonState, list[Event]]:
        card = action["card"]
        if card not in state.hands[seat]:
            raise IllegalAction(f"you do not hold {card}")
        if state.trick and card[1] != state.trick[0][1]:
            led = state.trick[0][1]
            if any(c[1] == led for c in state.hands[seat]):
                raise IllegalAction(f"you must follow {SUIT_WORDS[led]}")
        n = state.players
        hands = without(state.hands, seat, card)
        trick = (*state.trick, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        if len(trick) < n:
            return evolve(state, hands=hands, trick=trick, turn=(seat + 1) % n), events
        won_by = (state.leader + winner(trick, french_suit, trump_of(state.turned), power)) % n
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
        k = cards_in_round(state)
        bids = tuple(b or 0 for b in state.bids)
        made = [bids[s] == state.tricks_won[s] for s in range(n)]
        points = tuple(round_score(k, state.tricks_won[s]) if made[s] else 0 for s in range(n))
        replayed = not any(made)
        scores = tuple(a + b for a, b in zip(state.scores, points, strict=True))
        row = Row(
            deal=state.round + 1,
            cards=k,
            dealer=state.dealer,
            trump=trump_of(state.turned),
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
                "breakdown": breakdown(
                    "seat",
                    n,
                    [
                        line("base", [10 if m else 0 for m in made]),
                        line(
                            "tricks",
                            [
                                (10 + state.tricks_won[s] - k) * state.tricks_won[s]
                                if made[s]
                                else 0
                                for s in range(n)
                            ],
                            cards=k,
                        ),
                    ],
                ),
            }
        )
        if replayed:
            # same number of cards, new deal, same dealer
            return evolve(state, phase=Phase.DEAL, replay=state.replay + 1), events
        sheet = (*state.sheet, row)
        if state.round + 1 == len(ROUND_CARDS):
            new = evolve(state, phase=Phase.OVER, scores=scores, sheet=sheet)
            winners = highest(scores)
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

    moves: ClassVar[MoveTable] = {
        Phase.DEAL: {
            "deal": Move(_deal_next, turn="it is not your turn to deal", waits_on="dealer")
        },
        Phase.BID: {
            "bid": Move(
                _bid,
                {"value": whole_number("a bid needs a 'value': a whole number of tricks")},
                turn="it is not your turn",
                waits_on="turn",
            )
        },
        Phase.PLAY: {
            "play": Move(_play, {"card": french_card}, turn="it is not your turn", waits_on="turn")
        },
    }

    # -- reading the state ----------------------------------------------------------------------

    def to_act(self, state: MottonState) -> tuple[int, ...]:
        if state.phase is Phase.DEAL:
            return (state.dealer,)
        if state.phase is Phase.OVER:
            return ()
        return (state.turn,)

    def outcome(self, state: MottonState) -> dict[str, Any] | None:
        if state.phase is not Phase.OVER:
            return None
        return {"scores": list(state.scores), "winners": highest(state.scores)}

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
            **self.view_header(
                state,
                seat,
                turn=state.turn if state.phase in (Phase.BID, Phase.PLAY) else None,
                deal=state.round + 1,
            ),
            "cards": cards_in_round(state),
            "replay": state.replay,
            "trump": trump_of(state.turned) if state.revealed else None,
            "turned": state.turned if state.revealed else None,
            "turned_hidden": not state.revealed,
            "trick": trick_view(state.leader, state.trick, n),
            "last_trick": last_trick_view(state.last_trick, n),
            "bids": [
                {"seat": s % n, "value": state.bids[s % n]}
                for s in range(first, first + n)
                if state.bids[s % n] is not None
            ],
            "forbidden_bid": forbidden_bid(state),
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

    def views(
        self, state: MottonState, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        hands = state.hands
        return self._spectators_views(state, seats, lambda seat: {"hand": list(hands[seat])})

    # -- the table's move for a seat out of time ------------------------------------------------

    def auto_action(self, state: MottonState, seat: int) -> Action:
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn", "not_your_turn")
        return auto.auto_action(state, seat)
