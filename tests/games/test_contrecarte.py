"""Contrecarte rules, on stacked decks (the house text and the Contrecarte decisions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

import pytest

from tablee.cards import deck_contrecarte, shuffled
from tablee.engine import IllegalAction, visible_events
from tablee.engine.secrecy import leaks
from tablee.games import get_game
from tablee.games.contrecarte import FACE, NUMBERS, ContrecarteState

GAME = get_game("contrecarte")
Events = list[dict[str, Any]]

# Seven-card hands that do not fit on B8 (no blue, no 8, no joker): fillers for the seats a test
# is not about.
RED = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
GREEN = ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]
YELLOW = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]


def stacked(hands: Sequence[Sequence[str]], top: str, stock: Sequence[str] = ()) -> list[str]:
    """The deck that deals ``hands`` (7 cards each, one at a time from seat 0), turns ``top`` and
    leaves ``stock`` on top of the stock; the unnamed cards follow in deck order."""
    n = len(hands)
    assert all(len(h) == 7 for h in hands)
    named = Counter(c for h in hands for c in h) + Counter([top, *stock])
    full = Counter(deck_contrecarte())
    assert not named - full, f"more copies than the deck holds: {named - full}"
    rest = list((full - named).elements())
    return [*(hands[i % n][i // n] for i in range(7 * n)), top, *stock, *rest]


def new(hands: Sequence[Sequence[str]], top: str = "B8", stock: Sequence[str] = ()) -> Any:
    return GAME.new(players=len(hands), deck=stacked(hands, top, stock))


def keep(state: ContrecarteState, seat: int, *cards: str) -> ContrecarteState:
    """A later position: ``seat`` holds only ``cards``; the others go under the stock."""
    gone = list(state.hands[seat])
    for c in cards:
        gone.remove(c)
    hands = list(state.hands)
    hands[seat] = tuple(cards)
    return replace(state, hands=tuple(hands), stock=state.stock + tuple(gone))


def act(state: Any, seat: int, kind: str, **fields: Any) -> tuple[Any, Events]:
    return GAME.apply(state, seat, {"type": kind, **fields})


def play(state: Any, seat: int, card: str, **fields: Any) -> Any:
    return act(state, seat, "play", card=card, **fields)[0]


def refused(
    state: Any, seat: int, action: dict[str, Any], *, code: str, match: str | None = None
) -> None:
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction, match=match) as err:
        GAME.apply(state, seat, action)
    assert err.value.code == code
    assert GAME.to_json(state) == before


def played_cards(state: Any, seat: int) -> set[str]:
    return {a["card"] for a in GAME.legal_actions(state, seat) if a["type"] == "play"}


def conserved(state: Any) -> bool:
    return Counter(GAME.cards(state)) == Counter(deck_contrecarte())


# -- the deal --------------------------------------------------------------------------------------


def test_deal_one_card_at_a_time_from_seat_0_then_the_turned_card() -> None:
    deck = stacked([RED, GREEN, YELLOW], "B8", ["B5"])
    state = GAME.new(players=3, deck=deck)
    assert state.hands == (tuple(RED), tuple(GREEN), tuple(YELLOW))
    assert state.discard == ("B8",) and state.color == "B"
    assert state.stock[0] == "B5" and len(state.stock) == 108 - 21 - 1
    assert GAME.to_act(state) == (0,)
    view = GAME.view(state, 0)
    assert view["dealer"] == 2 and view["turn"] == 0 and view["direction"] == 1


def test_a_rematch_dealer_deals_from_the_seat_after_and_that_seat_plays_first() -> None:
    """The first dealer moves one seat per rematch (``first_dealer``): the same stacked deck
    starts at the seat after the dealer, which plays first, direction still increasing."""
    deck = stacked([RED, GREEN, YELLOW], "B8", ["B5"])
    state = GAME.new(players=3, options={"first_dealer": 0}, deck=deck)
    assert state.hands == (tuple(YELLOW), tuple(RED), tuple(GREEN))
    assert state.discard == ("B8",) and state.stock[0] == "B5"
    assert GAME.to_act(state) == (1,)
    view = GAME.view(state, 1)
    assert view["dealer"] == 0 and view["turn"] == 1 and view["direction"] == 1
    state, _ = act(state, 1, "draw")  # B5 fits: seat 1 may still play it
    state, _ = act(state, 1, "pass")
    assert GAME.to_act(state) == (2,)


def test_states_built_without_the_constructor_hold_exactly_the_dataclass_fields() -> None:
    # the engine builds its states from dicts of fields (for speed): a field missing, extra or
    # misspelt there would escape the type checker
    names = [f.name for f in fields(ContrecarteState)]
    state = GAME.new(players=3, seed=4)
    while not GAME.is_over(state):
        assert list(vars(state)) == names
        assert ContrecarteState(**vars(state)) == state
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, GAME.auto_action(state, seat))[0]
    assert list(vars(state)) == names
    assert GAME.from_json(GAME.to_json(state)) == state


def test_first_turned_card_is_never_special() -> None:
    for special in ("W+4", "W", "GS", "YR", "B+2"):
        state = new([RED, GREEN], top=special, stock=["RS", "W"])
        top = state.discard[-1]
        assert FACE[top] in NUMBERS, f"{special} turned: {top} started the discard"
        assert special in state.stock and state.color == top[0]
        assert conserved(state)
    for seed in range(100):
        assert FACE[GAME.new(players=4, seed=seed).discard[-1]] in NUMBERS


# -- matching --------------------------------------------------------------------------------------


def test_match_by_colour_or_by_face_jokers_on_anything() -> None:
    state = new([["B3", "R8", "G2", "Y+2", "G6", "W", "W+4"], RED], top="B8")
    assert played_cards(state, 0) == {"B3", "R8", "W", "W+4"}
    refused(state, 0, {"type": "play", "card": "G2"}, code="illegal_action", match="does not go")
    assert play(state, 0, "R8").color == "R"


def test_plus2_on_plus2_matches_by_face_and_penalties_do_not_stack() -> None:
    state = new([["B+2", *RED[:6]], ["R+2", *GREEN[:6]], ["G+2", *YELLOW[:6]]], top="B8")
    state, events = act(state, 0, "play", card="B+2")
    # seat 1 does not get to answer with its +2: it drew two and lost its turn
    assert len(state.hands[1]) == 9 and GAME.to_act(state) == (2,)
    assert {"type": "skip", "seat": 1} in events
    assert "G+2" in played_cards(state, 2)
    state = play(state, 2, "G+2")
    assert len(state.hands[0]) == 6 + 2 and GAME.to_act(state) == (1,)


def test_after_a_joker_the_named_colour_counts_not_the_top_card() -> None:
    state = new([["W", *RED[:6]], ["B4", "G9", "R8", "Y8", *YELLOW[:3]]], top="B8")
    state = play(state, 0, "W", color="G")
    assert state.color == "G" and GAME.view(state, 1)["color"] == "G"
    assert played_cards(state, 1) == {"G9"}
    refused(state, 1, {"type": "play", "card": "B4"}, code="illegal_action")


# -- drawing ---------------------------------------------------------------------------------------


def test_draw_is_allowed_when_a_card_fits_then_only_the_drawn_card_may_be_played() -> None:
    state = new([["B3", *RED[:6]], GREEN], top="B8", stock=["B5"])
    state, events = act(state, 0, "draw")
    assert state.hands[0][-1] == "B5" and GAME.to_act(state) == (0,)
    assert visible_events(events, 0)[-1]["cards"] == ["B5"]
    assert "B5" not in str(visible_events(events, 1))
    assert [a["type"] for a in GAME.legal_actions(state, 0)] == ["play", "pass"]
    assert GAME.view(state, 0)["drawn"] == "B5" and GAME.view(state, 1)["drawn"] is None
    refused(state, 0, {"type": "play", "card": "B3"}, code="illegal_action", match="card you drew")
    refused(state, 0, {"type": "draw"}, code="illegal_action", match="already drawn")
    assert play(state, 0, "B5").discard[-1] == "B5"


def test_a_drawn_card_that_does_not_fit_ends_the_turn() -> None:
    state = new([RED, GREEN], top="B8", stock=["Y2"])
    state, _ = act(state, 0, "draw")
    assert "Y2" in state.hands[0] and GAME.to_act(state) == (1,)


def test_pass_only_after_drawing_a_card_that_fits() -> None:
    state = new([RED, GREEN], top="B8", stock=["B1"])
    refused(state, 0, {"type": "pass"}, code="illegal_action", match="only after drawing")
    state, _ = act(state, 0, "draw")
    state, events = act(state, 0, "pass")
    assert events == [{"type": "pass", "seat": 0}]
    assert "B1" in state.hands[0] and GAME.to_act(state) == (1,)


# -- special cards ---------------------------------------------------------------------------------


def test_skip_makes_the_next_player_lose_a_turn() -> None:
    state = new([["BS", *RED[:6]], GREEN, YELLOW], top="B8")
    state, events = act(state, 0, "play", card="BS")
    assert GAME.to_act(state) == (2,) and {"type": "skip", "seat": 1} in events


def test_reverse_changes_the_direction() -> None:
    state = new([["BR", *RED[:6]], GREEN, ["B1", *YELLOW[:6]]], top="B8")
    state = play(state, 0, "BR")
    assert state.direction == -1 and GAME.to_act(state) == (2,)
    state = play(state, 2, "B1")
    assert GAME.to_act(state) == (1,)


def test_reverse_with_two_players_acts_as_a_skip() -> None:
    state = new([["BR", *RED[:6]], GREEN], top="B8")
    state = play(state, 0, "BR")
    assert GAME.to_act(state) == (0,)


# -- the +4 and its contest ------------------------------------------------------------------------


def test_plus4_accepted_target_draws_four_and_loses_the_turn() -> None:
    state = new([["W+4", *RED[:6]], GREEN, YELLOW], top="B8")
    state = play(state, 0, "W+4", color="R")
    assert GAME.to_act(state) == (1,) and state.phase.value == "contest"
    assert GAME.view(state, 2)["pending"] == {"poser": 0, "target": 1}
    assert [a["type"] for a in GAME.legal_actions(state, 1)] == ["contest", "accept"]
    state, events = act(state, 1, "accept")
    assert len(state.hands[1]) == 11 and GAME.to_act(state) == (2,) and state.color == "R"
    assert events[0] == {"type": "accept", "seat": 1}


def test_plus4_contested_when_illegal_poser_draws_four() -> None:
    # seat 0 still holds B3, of the colour in force: its +4 is illegal
    state = new([["W+4", "B3", *RED[:5]], ["R9", *GREEN[:6]], YELLOW], top="B8")
    state = play(state, 0, "W+4", color="R")
    state, events = act(state, 1, "contest")
    assert events[0] == {"type": "contest", "seat": 1, "poser": 0, "verdict": "illegal"}
    assert len(state.hands[0]) == 6 + 4 and len(state.hands[1]) == 7
    # the contester plays next, on the named colour
    assert GAME.to_act(state) == (1,) and state.color == "R" and "R9" in played_cards(state, 1)


def test_plus4_contested_when_legal_contester_draws_six_and_is_skipped() -> None:
    state = new([["W+4", *RED[:6]], GREEN, YELLOW], top="B8")
    state = play(state, 0, "W+4", color="R")
    state, events = act(state, 1, "contest")
    assert events[0]["verdict"] == "legal"
    assert len(state.hands[0]) == 6 and len(state.hands[1]) == 7 + 6
    assert GAME.to_act(state) == (2,)


def test_a_contest_reveals_only_the_verdict() -> None:
    state = new([["W+4", "B3", *RED[:5]], GREEN, YELLOW], top="B8")
    state = play(state, 0, "W+4", color="G")
    for seat in (1, 2, None):
        view = GAME.view(state, seat)
        assert "B3" not in str(view) and "legal" not in str(view)
    state, events = act(state, 1, "contest")
    for seat in (1, 2, None):
        assert not leaks(visible_events(events, seat), {"B3", *RED[:5]})
    # the poser alone sees the four cards it drew
    assert next(e for e in visible_events(events, 0) if "cards" in e)["cards"]


def test_the_contest_window_takes_no_card_no_stacking_on_a_plus4() -> None:
    state = new([["W+4", *RED[:6]], ["W+4", "G+2", *GREEN[:5]], YELLOW], top="B8")
    state = play(state, 0, "W+4", color="G")
    refused(state, 1, {"type": "play", "card": "W+4", "color": "R"}, code="illegal_action")
    refused(state, 1, {"type": "play", "card": "G+2"}, code="illegal_action", match="answer")
    refused(state, 2, {"type": "accept"}, code="not_your_turn")


def test_after_a_joker_the_named_colour_decides_whether_a_plus4_is_legal() -> None:
    # seat 1 holds blue (the colour under the joker) but no green (the named colour): legal
    hands = [["W", *RED[:6]], ["W+4", "B1", "B2", *YELLOW[:4]], GREEN]
    state = play(new(hands, top="B8"), 0, "W", color="G")
    state = play(state, 1, "W+4", color="Y")
    state, events = act(state, 2, "contest")
    assert events[0]["verdict"] == "legal" and len(state.hands[2]) == 13
    # the same with a green card in seat 1's hand: illegal
    hands = [["W", *RED[:6]], ["W+4", "G9", "B2", *YELLOW[:4]], GREEN]
    state = play(new(hands, top="B8"), 0, "W", color="G")
    state = play(state, 1, "W+4", color="Y")
    state, events = act(state, 2, "contest")
    assert events[0]["verdict"] == "illegal" and len(state.hands[1]) == 6 + 4


def test_a_plus4_as_the_last_card_wins_at_once() -> None:
    state = keep(new([["W+4", *RED[:6]], GREEN, YELLOW], top="B8"), 0, "W+4")
    state, events = act(state, 0, "play", card="W+4", color="R")
    assert GAME.is_over(state) and GAME.to_act(state) == ()
    assert GAME.outcome(state) == {"scores": [1, 0, 0], "winners": [0]}
    assert events[-1]["type"] == "deal_end" and events[-1]["winner"] == 0
    assert all(GAME.legal_actions(state, s) == [] for s in range(3))


# -- "Carte !" -------------------------------------------------------------------------------------


def one_card_left(announce: bool = False) -> ContrecarteState:
    """Three players; seat 0 has just played B3 and holds G5 only; seat 1 to play."""
    state = keep(
        new([["B3", "G5", *RED[:5]], GREEN, YELLOW], top="B8", stock=["B2"]), 0, "B3", "G5"
    )
    return play(state, 0, "B3", **({"announce": True} if announce else {}))


def test_announce_carte_with_one_card_out_of_turn() -> None:
    state = one_card_left()
    assert {"type": "announce"} in GAME.legal_actions(state, 0)
    assert {"type": "catch", "target": 0} in GAME.legal_actions(state, 2)
    state, events = act(state, 0, "announce")
    assert events == [{"type": "announce", "seat": 0}]
    assert GAME.to_act(state) == (1,) and GAME.view(state, 2)["announced"] == [0]
    refused(state, 0, {"type": "announce"}, code="illegal_action", match="already")


def test_catch_an_unannounced_last_card_target_draws_two() -> None:
    state, events = act(one_card_left(), 2, "catch", target=0)
    assert events[0] == {"type": "catch", "seat": 2, "target": 0, "caught": True}
    assert len(state.hands[0]) == 3 and len(state.hands[2]) == 7
    assert GAME.to_act(state) == (1,)


def test_false_accusation_costs_the_accuser_two_cards() -> None:
    state, _ = act(one_card_left(), 0, "announce")
    state, events = act(state, 1, "catch", target=0)
    assert events[0]["caught"] is False
    assert len(state.hands[0]) == 1 and len(state.hands[1]) == 9
    assert GAME.to_act(state) == (1,)


def test_announce_said_with_the_play_that_leaves_one_card() -> None:
    state = keep(new([["B3", "G5", *RED[:5]], GREEN, YELLOW], top="B8"), 0, "B3", "G5")
    assert {"type": "play", "card": "B3", "announce": True} in GAME.legal_actions(state, 0)
    refused(state, 0, {"type": "play", "card": "B3", "announce": False}, code="bad_action")
    state = play(state, 0, "B3", announce=True)
    assert {"type": "announce"} not in GAME.legal_actions(state, 0)
    state, events = act(state, 1, "catch", target=0)
    assert events[0]["caught"] is False
    full = new([["B3", "G5", *RED[:5]], GREEN, YELLOW], top="B8")
    refused(full, 0, {"type": "play", "card": "B3", "announce": True}, code="illegal_action")


def test_back_to_one_card_later_needs_a_new_announce() -> None:
    start = new([["B3", "G5", *RED[:5]], ["B1", *GREEN[:6]]], top="B8", stock=["B2"])
    state = keep(start, 0, "B3", "G5")
    state = play(state, 0, "B3", announce=True)
    state = play(state, 1, "B1")
    state, _ = act(state, 0, "draw")  # B2 fits: two cards, the announce no longer holds
    state = play(state, 0, "B2")
    assert state.hands[0] == ("G5",) and GAME.view(state, 1)["announced"] == []
    assert {"type": "announce"} in GAME.legal_actions(state, 0)
    state, events = act(state, 1, "catch", target=0)
    assert events[0]["caught"] is True and len(state.hands[0]) == 3


def test_catching_a_seat_with_other_than_one_card_is_refused() -> None:
    state = one_card_left()
    refused(state, 0, {"type": "catch", "target": 1}, code="illegal_action", match="exactly one")
    refused(state, 0, {"type": "catch", "target": 0}, code="illegal_action", match="yourself")
    refused(state, 1, {"type": "catch", "target": 7}, code="bad_action")
    refused(state, 1, {"type": "catch"}, code="bad_action")


# -- the stock -------------------------------------------------------------------------------------


def test_empty_stock_reshuffles_the_discard_keeping_its_top() -> None:
    state = new([RED, GREEN], top="B8")
    # a later position: everything but the hands already went through the discard
    state = replace(state, stock=(), discard=(*state.stock, "B8"))
    old = state.discard
    state, events = act(state, 0, "draw")
    assert events[0] == {"type": "reshuffle", "seat": 0, "count": len(old) - 1}
    assert state.discard == ("B8",) and len(state.stock) == len(old) - 2
    # the new stock comes from the table's seed, salted per reshuffle: replay is exact
    assert state.hands[0][-1] == shuffled(old[:-1], state.seed, "reshuffle", 0)[0]
    assert conserved(state)


def test_nothing_left_to_draw_the_drawer_passes() -> None:
    state = new([RED, GREEN], top="B8")
    state = replace(state, stock=(), hands=(tuple(RED), (*GREEN, *state.stock)))
    state, events = act(state, 0, "draw")
    assert events == [{"type": "draw", "seat": 0, "count": 0, "reason": "turn"}]
    assert len(state.hands[0]) == 7 and GAME.to_act(state) == (1,) and conserved(state)


def test_a_penalty_draw_is_cut_short_when_nothing_is_left() -> None:
    state = new([["B+2", *RED[:6]], GREEN], top="B8")
    state = replace(state, stock=(), hands=(state.hands[0], (*GREEN, *state.stock)))
    before = len(state.hands[1])
    state, events = act(state, 0, "play", card="B+2")
    # only B8, under the +2, could be reshuffled into a stock: one card instead of two
    assert {"type": "draw", "seat": 1, "count": 1, "reason": "+2"} in events
    assert state.hands[1][-1] == "B8" and len(state.hands[1]) == before + 1
    assert state.discard == ("B+2",) and state.stock == ()
    assert GAME.to_act(state) == (0,) and conserved(state)


# -- the table's move ------------------------------------------------------------------------------


def test_auto_play_never_plays_an_illegal_plus4() -> None:
    # seat 0 draws a W+4 while holding blue, the colour in force: the table passes
    state = new([["B3", "W+4", *RED[:5]], GREEN], top="B8", stock=["W+4"])
    assert GAME.auto_action(state, 0) == {"type": "play", "card": "B3"}
    state, _ = act(state, 0, "draw")
    assert GAME.auto_action(state, 0) == {"type": "pass"}


def test_auto_play_names_the_colour_it_holds_most() -> None:
    state = new([["W+4", "R1", "R2", "G1", "Y3", "R3", "Y4"], GREEN], top="B8")
    assert GAME.auto_action(state, 0) == {"type": "play", "card": "W+4", "color": "R"}
    state = new([["W", "G2", "R1", "G1", "Y3", "G3", "B4"], GREEN], top="B8")
    # a fitting coloured card before a joker
    assert GAME.auto_action(state, 0) == {"type": "play", "card": "B4"}
    state = keep(state, 0, "W", "G2", "G1", "Y3")
    assert GAME.auto_action(state, 0) == {"type": "play", "card": "W", "color": "G"}


def test_auto_play_draws_then_plays_the_drawn_card_or_passes() -> None:
    state = new([RED, GREEN], top="B8", stock=["B2"])
    assert GAME.auto_action(state, 0) == {"type": "draw"}
    state, _ = act(state, 0, "draw")
    assert GAME.auto_action(state, 0) == {"type": "play", "card": "B2"}


def test_auto_play_announces_for_the_player_and_accepts_a_plus4() -> None:
    state = keep(new([["B3", "G5", *RED[:5]], GREEN, YELLOW], top="B8"), 0, "B3", "G5")
    assert GAME.auto_action(state, 0) == {"type": "play", "card": "B3", "announce": True}
    state = new([["W+4", *RED[:6]], GREEN, YELLOW], top="B8")
    state = play(state, 0, "W+4", color="R")
    assert GAME.auto_action(state, 1) == {"type": "accept"}
    # one unannounced card that cannot be played now: say "Carte !" first
    state = keep(new([RED, GREEN], top="B8"), 0, "R1")
    assert GAME.auto_action(state, 0) == {"type": "announce"}


def test_auto_action_out_of_turn_catches_only_a_forgotten_carte() -> None:
    state = one_card_left()
    assert GAME.auto_action(state, 0) == {"type": "announce"}
    assert GAME.auto_action(state, 2) == {"type": "catch", "target": 0}
    state, _ = act(state, 0, "announce")
    with pytest.raises(IllegalAction):
        GAME.auto_action(state, 2)


# -- the end ---------------------------------------------------------------------------------------


def test_the_game_ends_with_the_first_empty_hand_rematch_is_the_tables_business() -> None:
    state = keep(new([["B3", *RED[:6]], GREEN], top="B8"), 0, "B3")
    state = play(state, 0, "B3")
    assert GAME.outcome(state) == {"scores": [1, 0], "winners": [0]}
    refused(state, 1, {"type": "draw"}, code="game_over")
    assert GAME.view(state, None)["winner"] == 0 and GAME.to_act(state) == ()
    assert not any(a["type"] == "rematch" for s in range(2) for a in GAME.legal_actions(state, s))


# -- actions and views -----------------------------------------------------------------------------


def test_malformed_and_out_of_turn_actions_are_refused_with_a_reason() -> None:
    state = new([["W", "B3", *RED[:5]], GREEN], top="B8")
    refused(state, 0, {"type": "play", "card": "W"}, code="bad_action", match="colour")
    refused(state, 0, {"type": "play", "card": "W", "color": "X"}, code="bad_action")
    refused(state, 0, {"type": "play", "card": "B3", "color": "R"}, code="bad_action")
    refused(state, 0, {"type": "play", "card": "B9"}, code="illegal_action", match="do not hold")
    refused(state, 0, {"type": "play", "card": "ZZ"}, code="bad_action")
    refused(state, 0, {"type": "draw", "x": 1}, code="bad_action")
    refused(state, 0, {"type": "shout"}, code="bad_action")
    refused(state, 0, {"type": ["play"]}, code="bad_action", match="string")
    refused(state, 0, {"type": {"play": "W"}}, code="bad_action", match="string")
    refused(state, 1, {"type": "draw"}, code="not_your_turn")
    refused(state, 1, {"type": "play", "card": "G1"}, code="not_your_turn")


def test_each_seat_sees_its_own_hand_and_the_public_table_only() -> None:
    state = new([RED, GREEN, YELLOW], top="B8")
    view = GAME.view(state, 1)
    assert view["hand"] == GREEN and view["counts"] == [7, 7, 7]
    assert view["top"] == "B8" and view["stock"] == 108 - 22 and view["pending"] is None
    assert not leaks(view, set(RED + YELLOW))
    assert GAME.view(state, None)["hand"] is None
    assert GAME.hidden(state, 1) >= set(RED + YELLOW) and not GAME.hidden(state, 1) & set(GREEN)
    assert "B8" not in GAME.hidden(state, None)


# -- what the others are told ----------------------------------------------------------------------


def told(events: Events, seat: int | None) -> Events:
    return visible_events(events, seat)


def test_every_draw_is_told_to_the_others_as_a_count_only() -> None:
    """Whatever the reason (turn, +2, +4, contest either way, catch either way), the others hear
    who drew how many and why; the cards go to the drawer alone."""
    base = [["B+2", "W+4", "B3", "G5", *RED[:3]], ["R9", *GREEN[:6]], YELLOW]
    moves: list[tuple[Any, int, dict[str, Any], int, str]] = []
    state = new(base, top="B8")
    moves.append((state, 0, {"type": "draw"}, 0, "turn"))
    moves.append((state, 0, {"type": "play", "card": "B+2"}, 1, "+2"))
    plus4 = play(state, 0, "W+4", color="R")
    moves.append((plus4, 1, {"type": "accept"}, 1, "+4"))
    moves.append((plus4, 1, {"type": "contest"}, 0, "contest"))  # B3 held: illegal
    legal = play(keep(state, 0, "W+4", "G5", "R1"), 0, "W+4", color="G")
    moves.append((legal, 1, {"type": "contest"}, 1, "contest"))
    alone = one_card_left()
    moves.append((alone, 2, {"type": "catch", "target": 0}, 0, "catch"))
    moves.append((act(alone, 0, "announce")[0], 2, {"type": "catch", "target": 0}, 2, "catch"))
    for before, seat, action, drawer, reason in moves:
        after, events = GAME.apply(before, seat, action)
        drawn = list(after.hands[drawer][len(before.hands[drawer]) :])
        assert drawn, (action, reason)
        public = {"type": "draw", "seat": drawer, "count": len(drawn), "reason": reason}
        for other in (*(s for s in range(after.players) if s != drawer), None):
            draws = [e for e in told(events, other) if e["type"] == "draw"]
            assert draws == [public], (action, other)
        mine = [e for e in told(events, drawer) if e["type"] == "draw"]
        assert mine == [public, {"type": "draw", "seat": drawer, "cards": drawn, "reason": reason}]


def test_a_legal_plus4_contested_tells_the_others_the_verdict_and_a_count_only() -> None:
    # the poser's hand (all red under a W+4 on blue) must not transpire from the verdict
    stock = ["B1", "B2", "B3", "B4", "B5", "B6"]
    state = new([["W+4", *RED[:6]], GREEN, YELLOW], top="B8", stock=stock)
    state = play(state, 0, "W+4", color="G")
    after, events = act(state, 1, "contest")
    for seat in (1, 2, None):
        assert told(events, seat)[:2] == [
            {"type": "contest", "seat": 1, "poser": 0, "verdict": "legal"},
            {"type": "draw", "seat": 1, "count": 6, "reason": "contest"},
        ]
        assert not leaks(told(events, seat), set(RED[:6]))
        view = GAME.view(after, seat)
        assert not leaks(view, set(RED[:6])) and view["counts"] == [6, 13, 7]
    assert GAME.view(after, 1)["hand"][7:] == told(events, 1)[2]["cards"] == stock
