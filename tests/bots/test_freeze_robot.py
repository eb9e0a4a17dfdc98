"""The confirmé at freeze (``bots/freeze.py``) on stacked decks: it speeds what lowers its points,
never a card of a line that counts 0 nor a red king, freezes a known low hand and not a high one,
and swaps its known high card away.

Round 1: the dealer is the last seat, seat 0 plays first; seat s gets the packet ``deck[4s:4s+4]``
as line 0 (slots 0, 1) then line 1 (slots 0, 1), and knows line 1; the stock follows, top first.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from tablee.bots import freeze, levels
from tablee.bots.levels import CONFIRME, DEBUTANT, Budget, decide
from tablee.cards import deck_52
from tablee.engine import Action, Event, visible_events
from tablee.games import get_game
from tablee.games.freeze import knows

G = get_game("freeze")
SMALL = Budget(worlds=3)
P0 = ("5S", "6S", "4S", "8S")
P2 = ("5D", "6D", "4D", "8D")


def new(*packets: tuple[str, str, str, str], stock: tuple[str, ...] = ()) -> Any:
    head = [c for p in packets for c in p] + list(stock)
    deck = head + [c for c in deck_52() if c not in head]
    return G.new(players=len(packets), options={"rounds": 5}, deck=deck)


def after_a_discard(seat1: tuple[str, str, str, str], card: str) -> tuple[Any, list[Event]]:
    """Seat 0 draws ``card`` and discards it, declining its power: seat 1's turn, the speed
    window open on ``card``."""
    s = new(P0, seat1, P2, stock=(card, "AC", "AD"))
    events: list[Event] = []
    for action in ({"type": "draw"}, {"type": "discard"}):
        s, more = G.apply(s, 0, action)
        events += more
    if s.phase.value != "turn":
        s, more = G.apply(s, 0, {"type": "pass"})
        events += more
    assert s.turn == 1 and G.view(s, 1)["speed"] == "open"
    return s, events


def confirme(state: Any, seat: int, events: list[Event]) -> Action:
    move = decide(G, state, seat, events, level=CONFIRME, seed=1, budget=SMALL)
    assert move in G.legal_actions(state, seat)
    return move


def test_the_confirme_is_freezes_own_policy() -> None:
    assert levels.POLICIES["freeze"] is freeze.decide


def test_it_speeds_a_known_card_of_the_top_discards_rank() -> None:
    # speeding the nine leaves a red king (-1); taking the nine beside it, a line of nines (0)
    s, events = after_a_discard(("7H", "5H", "9H", "KH"), "9C")
    assert confirme(s, 1, events) == {"type": "speed", "line": 1, "slot": 0}
    # the débutant never speeds
    assert decide(G, s, 1, events, level=DEBUTANT)["type"] != "speed"


def test_it_does_not_speed_a_card_of_a_line_that_counts_zero() -> None:
    s, events = after_a_discard(("7H", "5H", "9H", "9S"), "9C")
    assert confirme(s, 1, events)["type"] != "speed"


def test_it_does_not_speed_a_red_king() -> None:
    s, events = after_a_discard(("7H", "5H", "KH", "3H"), "KD")
    assert confirme(s, 1, events)["type"] != "speed"


def test_it_does_not_speed_a_card_it_does_not_know() -> None:
    # the top line is unknown to seat 1, though it holds a nine there
    s, events = after_a_discard(("9H", "5H", "AH", "2H"), "9C")
    assert confirme(s, 1, events)["type"] != "speed"


def _knowing_all(packet: tuple[str, str, str, str]) -> Any:
    s = new(packet, ("7H", "5H", "9H", "2H"), P2)
    known = {c: m | 1 if c in packet else m for c, m in s.known.items()}
    return replace(s, known=known)


def test_it_does_not_freeze_a_known_high_hand() -> None:
    high = _knowing_all(("TS", "JS", "QS", "9S"))
    assert confirme(high, 0, [])["type"] != "freeze"


def test_a_jack_swaps_its_known_high_card_away() -> None:
    s = new(("5S", "AS", "TS", "2S"), ("7H", "5H", "9H", "2H"), P2, stock=("JC",))
    events: list[Event] = []
    s, more = G.apply(s, 0, {"type": "draw"})
    events += more
    s, more = G.apply(s, 0, {"type": "discard"})
    events += more
    assert s.phase.value == "swap"
    move = confirme(s, 0, events)
    assert move["type"] == "swap" and (move["line"], move["slot"]) == (1, 0)


def test_it_freezes_a_known_low_hand() -> None:
    low = _knowing_all(("AS", "2S", "KH", "KD"))
    assert confirme(low, 0, []) == {"type": "freeze"}


def test_which_cards_their_holders_know_is_told_by_the_events() -> None:
    """Followed through seeded rounds played half by the débutant, half at random (swaps,
    speeds right and wrong, penalties): what the robot reads of who knows each card is true."""
    rnd = random.Random(3)
    checked = 0
    for seed in range(6):
        state = G.new(players=4, options={"rounds": 2}, seed=seed)
        events: list[Event] = []
        for _ in range(400):
            if G.is_over(state):
                break
            seat = G.to_act(state)[0]
            view = G.view(state, seat)
            if view["phase"] == "turn":
                tracked = freeze.owners_know(visible_events(events, seat), view)
                assert tracked is not None
                for s, lay in enumerate(state.layouts):
                    for li, row in enumerate(lay):
                        for sl, card in enumerate(row):
                            assert tracked[0][s][li][sl] == knows(state.known[card], s)
                            checked += 1
            legal = G.legal_actions(state, seat)
            speeds = [a for s in range(4) if s != seat for a in G.legal_actions(state, s)]
            if speeds and rnd.random() < 0.1:
                # an out-of-turn speed, right or wrong
                who = next(s for s in range(4) if s != seat and G.legal_actions(state, s))
                state, more = G.apply(state, who, rnd.choice(G.legal_actions(state, who)))
            elif rnd.random() < 0.5:
                state, more = G.apply(state, seat, rnd.choice(legal))
            else:
                state, more = G.apply(state, seat, decide(G, state, seat, events))
            events += more
    assert checked > 1000
