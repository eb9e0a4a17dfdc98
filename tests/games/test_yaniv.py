"""Yaniv rules on stacked decks (the spec is the docstring of ``tablee.games.yaniv``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from tablee.cards import shuffled
from tablee.engine import IllegalAction, visible_events
from tablee.engine.serial import to_jsonable
from tablee.games.yaniv import (
    DECK,
    GAME,
    Phase,
    Yaniv,
    YanivState,
    discards,
    hand_value,
    sort_hand,
)

game = GAME
assert isinstance(game, Yaniv)


def stacked(hands: Sequence[Sequence[str]], turned: str, stock: Sequence[str] = ()) -> list[str]:
    """A full deck dealing ``hands`` (5 cards each, seat 0 first), turning ``turned``, with
    ``stock`` on top of the stock and every other card below it."""
    used = [c for h in hands for c in h] + [turned, *stock]
    assert all(len(h) == 5 for h in hands) and len(set(used)) == len(used)
    return [*used, *(c for c in DECK if c not in used)]


def new(hands: Sequence[Sequence[str]], turned: str = "9C", stock: Sequence[str] = ()) -> Any:
    return game.new(players=len(hands), deck=stacked(hands, turned, stock))


def act(state: Any, seat: int, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    return game.apply(state, seat, action)


def discard(state: Any, seat: int, *cards: str) -> tuple[Any, list[dict[str, Any]]]:
    return act(state, seat, {"type": "discard", "cards": list(cards)})


def refused(state: Any, seat: int, action: dict[str, Any], match: str, code: str = "") -> None:
    before = game.to_json(state)
    with pytest.raises(IllegalAction, match=match) as err:
        game.apply(state, seat, action)
    if code:
        assert err.value.code == code
    assert game.to_json(state) == before


HANDS_2 = [["5H", "6H", "7H", "5S", "KD"], ["2C", "3C", "QS", "QD", "X1"]]
#: an opponent holding none of the cards the tests lay
OPP = ["8C", "9D", "TS", "JC", "QS"]


# -- the deal ------------------------------------------------------------------------------------


def test_deal_five_cards_each_then_turn_the_top_of_the_stock() -> None:
    state = new(HANDS_2, turned="9C", stock=["4D"])
    view = game.view(state, 0)
    assert view["hand"] == list(sort_hand(HANDS_2[0]))
    assert view["counts"] == [5, 5]
    assert view["discard"] == {"cards": ["9C"], "kind": "single", "takeable": ["9C"]}
    assert view["stock"] == 54 - 11
    assert state.stock[0] == "4D"
    assert view["turn"] == 0 and view["dealer"] == 1 and view["deal"] == 1


def test_card_values_jokers_0_ace_1_faces_10_others_their_face() -> None:
    assert hand_value(["X1", "X2"]) == 0
    assert hand_value(["AS"]) == 1
    assert hand_value(["JH", "QH", "KH", "TH"]) == 40
    assert hand_value(["2C", "9D"]) == 11


def test_stacked_deck_must_be_the_54_cards() -> None:
    with pytest.raises(ValueError, match="missing X2"):
        game.new(players=2, deck=[c for c in DECK if c != "X2"])


# -- discards ------------------------------------------------------------------------------------


def test_discard_one_card_then_draw() -> None:
    state = new(HANDS_2)
    state, events = discard(state, 0, "KD")
    assert events == [{"type": "discard", "seat": 0, "cards": ["KD"], "kind": "single"}]
    assert state.phase is Phase.DRAW and state.hands[0] == ("5S", "5H", "6H", "7H")
    assert game.view(state, 1)["laid"] == {"cards": ["KD"], "kind": "single"}


def test_discard_set_of_two_cards_of_one_rank() -> None:
    state, events = discard(new(HANDS_2), 0, "5H", "5S")
    assert events[0]["cards"] == ["5S", "5H"] and events[0]["kind"] == "set"
    assert state.hands[0] == ("6H", "7H", "KD")


def test_discard_set_of_three_and_four() -> None:
    state = new([["7S", "7H", "7D", "7C", "KD"], OPP])
    after, events = discard(state, 0, "7C", "7H", "7S", "7D")
    assert events[0]["cards"] == ["7S", "7H", "7D", "7C"]
    assert after.hands[0] == ("KD",)
    _, events = discard(state, 0, "7H", "7D", "7S")
    assert events[0]["kind"] == "set"


def test_joker_stands_in_a_set() -> None:
    state = new([HANDS_2[1], HANDS_2[0]])
    _, events = discard(state, 0, "X1", "QD", "QS")
    assert events[0] == {"type": "discard", "seat": 0, "cards": ["QS", "QD", "X1"], "kind": "set"}
    _, events = discard(state, 0, "QS", "X1")
    assert events[0]["kind"] == "set"


def test_one_card_with_both_jokers_is_a_set_and_two_jokers_alone_are_a_set() -> None:
    state = new([["X1", "X2", "5H", "9S", "KD"], OPP], turned="2C")
    _, events = discard(state, 0, "X2", "5H", "X1")
    assert events[0]["kind"] == "set" and events[0]["cards"] == ["5H", "X1", "X2"]
    _, events = discard(state, 0, "X2", "X1")
    assert events[0]["kind"] == "set" and events[0]["cards"] == ["X1", "X2"]


def test_discard_run_of_three_consecutive_cards_of_one_suit() -> None:
    state, events = discard(new(HANDS_2), 0, "5H", "6H", "7H")
    assert events[0]["cards"] == ["5H", "6H", "7H"] and events[0]["kind"] == "run"
    assert state.hands[0] == ("5S", "KD")


def test_run_with_ace_low() -> None:
    state = new([["AH", "2H", "3H", "4H", "KD"], OPP], turned="2C")
    _, events = discard(state, 0, "AH", "2H", "3H", "4H")
    assert events[0]["kind"] == "run"


def test_run_does_not_wrap_from_king_to_ace() -> None:
    state = new([["QH", "KH", "AH", "4S", "KD"], OPP], turned="2C")
    refused(state, 0, {"type": "discard", "cards": ["QH", "KH", "AH"]}, "does not go from K to A")
    assert {"type": "discard", "cards": ["QH", "KH", "AH"]} not in game.legal_actions(state, 0)


def test_joker_cannot_extend_a_run_below_the_ace_or_above_the_king() -> None:
    state = new([["AH", "2H", "X1", "QS", "KS"], ["8C", "9D", "TS", "JC", "QD"]], turned="2C")
    runs = [a["cards"] for a in game.legal_actions(state, 0) if len(a.get("cards", [])) == 3]
    assert ["AH", "2H", "X1"] in runs and ["X1", "AH", "2H"] not in runs
    assert ["X1", "QS", "KS"] in runs and ["QS", "KS", "X1"] not in runs
    _, events = discard(state, 0, "X1", "AH", "2H")  # one way to lay them: any order
    assert events[0]["cards"] == ["AH", "2H", "X1"]


def test_joker_fills_a_gap_in_a_run() -> None:
    state = new([["5D", "X2", "7D", "JS", "KD"], OPP], turned="2C")
    _, events = discard(state, 0, "5D", "X2", "7D")
    assert events[0]["cards"] == ["5D", "X2", "7D"] and events[0]["kind"] == "run"


def test_joker_extends_a_run_at_either_end_and_the_order_given_says_which() -> None:
    state = new([["5D", "6D", "X1", "JS", "KD"], OPP], turned="2C")
    legal = game.legal_actions(state, 0)
    assert {"type": "discard", "cards": ["X1", "5D", "6D"]} in legal
    assert {"type": "discard", "cards": ["5D", "6D", "X1"]} in legal
    _, low = discard(state, 0, "X1", "5D", "6D")
    _, high = discard(state, 0, "5D", "6D", "X1")
    assert low[0]["cards"] == ["X1", "5D", "6D"] and high[0]["cards"] == ["5D", "6D", "X1"]
    refused(state, 0, {"type": "discard", "cards": ["6D", "5D", "X1"]}, "X1 5D 6D or 5D 6D X1")


def test_two_jokers_in_a_run_are_laid_x1_below_x2() -> None:
    state = new([["5D", "X2", "X1", "8D", "KD"], OPP], turned="2C")
    _, events = discard(state, 0, "5D", "X2", "X1", "8D")
    assert events[0]["cards"] == ["5D", "X1", "X2", "8D"]
    legal = [a["cards"] for a in game.legal_actions(state, 0) if a["type"] == "discard"]
    assert ["5D", "X1", "X2", "8D"] in legal and ["5D", "X2", "X1", "8D"] not in legal


def test_set_and_plain_run_accepted_in_any_order() -> None:
    state = new(HANDS_2)
    _, events = discard(state, 0, "7H", "5H", "6H")
    assert events[0]["cards"] == ["5H", "6H", "7H"]


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (["7H", "KD"], "not a set: 7H and KD differ"),
        (["5H", "7H"], "a run needs 3 or more cards of one suit"),
        (["5H", "6H", "5S"], r"neither a set .* nor a run .*differ in suit"),
        (["5H", "7H", "KD"], "differ in suit"),
    ],
)
def test_invalid_groups_are_refused_with_a_reason(cards: list[str], reason: str) -> None:
    state = new(HANDS_2)
    refused(state, 0, {"type": "discard", "cards": cards}, reason, "illegal_action")


def test_run_with_a_gap_and_no_joker_is_refused() -> None:
    state = new([["5H", "6H", "8H", "KD", "KS"], OPP], turned="2C")
    refused(state, 0, {"type": "discard", "cards": ["5H", "6H", "8H"]}, "1 cards are missing")


def test_discard_of_cards_not_held_or_listed_twice_or_malformed_is_refused() -> None:
    state = new(HANDS_2)
    refused(state, 0, {"type": "discard", "cards": ["QS"]}, "you do not hold QS")
    refused(state, 0, {"type": "discard", "cards": ["5H", "5H"]}, "5H twice")
    refused(state, 0, {"type": "discard", "cards": ["ZZ"]}, "not a card", "bad_action")
    refused(state, 0, {"type": "discard", "cards": []}, "needs 'cards'", "bad_action")
    refused(state, 0, {"type": "discard", "cards": "5H"}, "needs 'cards'", "bad_action")


def test_legal_discards_list_every_group_once() -> None:
    groups = discards(sort_hand(["5H", "6H", "X1"]))
    assert sorted((k, list(g)) for k, g in groups) == sorted(
        [
            ("single", ["5H"]),
            ("single", ["6H"]),
            ("single", ["X1"]),
            ("set", ["5H", "X1"]),
            ("set", ["6H", "X1"]),
            ("run", ["X1", "5H", "6H"]),
            ("run", ["5H", "6H", "X1"]),
        ]
    )
    assert len({g for _, g in discards(sort_hand(["5H", "6H", "7H", "X1", "X2"]))}) == len(
        discards(sort_hand(["5H", "6H", "7H", "X1", "X2"]))
    )


def test_a_group_using_one_of_two_jokers_is_listed_with_each() -> None:
    groups = {g for _, g in discards(sort_hand(["5H", "X1", "X2", "9C", "KD"]))}
    assert ("5H", "X1") in groups and ("5H", "X2") in groups


# -- drawing -------------------------------------------------------------------------------------


def test_first_player_may_take_the_turned_card() -> None:
    state, _ = discard(new(HANDS_2, turned="AC"), 0, "KD")
    assert {"type": "draw", "from": "discard", "card": "AC"} in game.legal_actions(state, 0)
    state, events = act(state, 0, {"type": "draw", "from": "discard", "card": "AC"})
    assert events == [{"type": "draw", "seat": 0, "from": "discard", "card": "AC"}]
    assert "AC" in state.hands[0] and state.top == ("KD",) and state.turn == 1


def test_draw_from_the_stock_is_private_with_a_public_twin() -> None:
    state, _ = discard(new(HANDS_2, stock=["4D"]), 0, "KD")
    state, events = act(state, 0, {"type": "draw", "from": "stock"})
    assert visible_events(events, 0) == [
        {"type": "draw", "seat": 0, "from": "stock", "card": "4D"},
        {"type": "draw", "seat": 0, "from": "stock"},
    ]
    assert visible_events(events, 1) == [{"type": "draw", "seat": 0, "from": "stock"}]
    assert "4D" in game.hidden(state, 1) and "4D" not in str(game.view(state, 1))


def test_any_card_of_a_set_may_be_drawn_back() -> None:
    state, _ = discard(new(HANDS_2), 0, "5H", "5S")
    state, _ = act(state, 0, {"type": "draw", "from": "stock"})
    assert game.view(state, 1)["discard"]["takeable"] == ["5S", "5H"]
    state, _ = discard(state, 1, "QS", "QD")
    draws = [a for a in game.legal_actions(state, 1) if a.get("from") == "discard"]
    assert [a["card"] for a in draws] == ["5S", "5H"]
    after, _ = act(state, 1, {"type": "draw", "from": "discard", "card": "5H"})
    assert "5H" in after.hands[1] and "5S" in after.pile and after.top == ("QS", "QD")


def test_only_an_end_card_of_a_run_may_be_drawn_back() -> None:
    state, _ = discard(new(HANDS_2), 0, "5H", "6H", "7H")
    state, _ = act(state, 0, {"type": "draw", "from": "stock"})
    state, _ = discard(state, 1, "QS")
    draws = [a["card"] for a in game.legal_actions(state, 1) if a.get("from") == "discard"]
    assert draws == ["5H", "7H"]
    refused(state, 1, {"type": "draw", "from": "discard", "card": "6H"}, "only an end card")
    after, _ = act(state, 1, {"type": "draw", "from": "discard", "card": "7H"})
    assert "7H" in after.hands[1]


def test_joker_at_the_end_of_a_run_may_be_drawn_and_is_a_plain_joker() -> None:
    state = new([["5D", "6D", "X1", "JS", "KD"], ["2C", "3C", "QS", "QD", "X2"]], turned="2S")
    state, _ = discard(state, 0, "5D", "6D", "X1")
    state, _ = act(state, 0, {"type": "draw", "from": "stock"})
    state, _ = discard(state, 1, "QS", "QD")
    assert [a["card"] for a in game.legal_actions(state, 1) if "card" in a] == ["5D", "X1"]
    state, _ = act(state, 1, {"type": "draw", "from": "discard", "card": "X1"})
    assert "X1" in state.hands[1]
    # it is a joker again: with the other joker it makes a set, with 2C 3C a run
    groups = {g for _, g in discards(state.hands[1])}
    assert ("X1", "X2") in groups and ("2C", "3C", "X1") in groups


def test_cannot_take_back_your_own_discard_or_a_card_not_discarded() -> None:
    state, _ = discard(new(HANDS_2, turned="9C"), 0, "KD")
    refused(state, 0, {"type": "draw", "from": "discard", "card": "KD"}, "your own discard")
    refused(state, 0, {"type": "draw", "from": "discard", "card": "2D"}, "not in the previous")
    refused(state, 0, {"type": "draw", "from": "discard"}, "needs 'card'", "bad_action")
    refused(state, 0, {"type": "draw"}, "needs 'from'", "bad_action")


def test_a_card_drawn_from_the_discard_is_public_until_discarded_again() -> None:
    state, _ = discard(new(HANDS_2, turned="AC"), 0, "KD")
    state, _ = act(state, 0, {"type": "draw", "from": "discard", "card": "AC"})
    assert game.view(state, 1)["known"] == [["AC"], []]
    assert game.view(state, None)["known"][0] == ["AC"]
    assert "AC" not in game.hidden(state, 1) and "5H" in game.hidden(state, 1)
    state, _ = discard(state, 1, "QS")
    state, _ = act(state, 1, {"type": "draw", "from": "stock"})
    state, _ = discard(state, 0, "AC")
    assert game.view(state, 1)["known"] == [[], []]


def test_turn_order_discard_then_draw() -> None:
    state = new(HANDS_2)
    refused(state, 1, {"type": "discard", "cards": ["QS"]}, "seat 0's turn", "not_your_turn")
    refused(state, 0, {"type": "draw", "from": "stock"}, "discard first")
    state, _ = discard(state, 0, "KD")
    refused(state, 0, {"type": "discard", "cards": ["5S"]}, "discarded already")
    refused(state, 0, {"type": "yaniv"}, "start of your turn")
    state, _ = act(state, 0, {"type": "draw", "from": "stock"})
    assert game.to_act(state) == (1,) and state.phase is Phase.TURN


# -- reshuffle -----------------------------------------------------------------------------------


def test_empty_stock_reshuffles_the_discard_except_its_top_group() -> None:
    state, _ = discard(new(HANDS_2), 0, "5H", "5S")
    state, _ = act(state, 0, {"type": "draw", "from": "stock"})
    state, _ = discard(state, 1, "QS", "QD")
    # leave one card in the stock: the rest lies under the discard
    last, buried = state.stock[0], state.stock[1:]
    state = replace(state, stock=(last,), pile=state.pile + buried)
    after, events = act(state, 1, {"type": "draw", "from": "stock"})
    assert events[-1] == {"type": "reshuffle", "seat": 1, "count": len(buried) + 3}
    assert after.top == ("QS", "QD") and after.pile == ()
    assert sorted(after.stock) == sorted((*buried, "9C", "5S", "5H"))
    assert after.stock != (*state.pile, "5S", "5H")  # shuffled
    again, _ = act(state, 1, {"type": "draw", "from": "stock"})
    assert again.stock == after.stock  # seeded: replay gives the same stock
    assert after.stock == tuple(shuffled((*state.pile, "5S", "5H"), 0, "reshuffle", 1, 1))
    later, _ = act(replace(state, reshuffles=1), 1, {"type": "draw", "from": "stock"})
    assert later.stock != after.stock  # salted per reshuffle
    assert game.view(after, 0)["stock"] == len(buried) + 3


# -- yaniv and scoring ---------------------------------------------------------------------------


def yaniv_table(
    hands: Sequence[Sequence[str]], scores: Sequence[int] = (), turned: str = "KS"
) -> YanivState:
    """Seat 0 to play, holding ``hands[0]``; every other card in the stock."""
    state = game.new(players=len(hands), seed=0)
    wanted = {c for h in hands for c in h} | {turned}
    return replace(
        state,
        hands=tuple(sort_hand(h) for h in hands),
        top=(turned,),
        stock=tuple(c for c in DECK if c not in wanted),
        scores=tuple(scores) if scores else state.scores,
    )


def test_yaniv_needs_seven_points_or_fewer() -> None:
    state = yaniv_table([["AS", "2S", "5H"], ["KD", "KH"]])
    assert {"type": "yaniv"} not in game.legal_actions(state, 0)
    refused(state, 0, {"type": "yaniv"}, "7 points or fewer.*worth 8")
    state = yaniv_table([["AS", "2S", "4H"], ["KD", "KH"]])
    assert {"type": "yaniv"} in game.legal_actions(state, 0)


def test_yaniv_caller_scores_0_others_add_their_hands() -> None:
    state = yaniv_table([["AS", "2S", "4H"], ["KD", "KH"], ["8C"]], scores=[10, 20, 30])
    after, events = act(state, 0, {"type": "yaniv"})
    assert after.scores == (10, 40, 38)
    assert events[0] == {
        "type": "yaniv",
        "seat": 0,
        "value": 7,
        "hands": [["AS", "2S", "4H"], ["KH", "KD"], ["8C"]],
        "values": [7, 20, 8],
        "assaf": False,
        "assafers": [],
    }
    assert events[1]["type"] == "deal_end" and events[1]["points"] == [0, 20, 8]


def test_assaf_caller_adds_hand_plus_30_and_seats_at_or_below_add_0() -> None:
    state = yaniv_table([["AS", "2S", "4H"], ["X1", "7D"], ["3C", "4C"], ["KD"]])
    after, events = act(state, 0, {"type": "yaniv"})
    assert events[0]["assaf"] is True and events[0]["assafers"] == [1, 2]
    assert after.scores == (37, 0, 0, 10)
    assert after.history[-1].assaf and after.history[-1].points == (37, 0, 0, 10)


def test_hands_are_shown_after_a_yaniv() -> None:
    state = yaniv_table([["AS", "2S", "4H"], ["KD", "KH"]])
    after, _ = act(state, 0, {"type": "yaniv"})
    assert after.phase is Phase.SHOW
    view = game.view(after, None)
    assert view["shown"] == [["AS", "2S", "4H"], ["KH", "KD"]] and view["values"] == [7, 20]
    assert game.hidden(after, None) == frozenset(after.stock)


@pytest.mark.parametrize(("before", "hand", "after"), [(30, "KD KH", 0), (80, "KD KH", 50)])
def test_a_total_of_exactly_50_or_100_drops_by_50(before: int, hand: str, after: int) -> None:
    state = yaniv_table([["AS"], hand.split()], scores=[0, before])
    new_state, events = act(state, 0, {"type": "yaniv"})
    assert new_state.scores == (0, after)
    assert events[1]["dropped"] == [1]
    assert new_state.phase is Phase.SHOW


def test_a_total_already_at_50_that_adds_nothing_does_not_drop_again() -> None:
    # "un joueur atteignant exactement le score de 50": only a total that reaches 50 drops; a
    # seat left at 50 by an earlier drop (from 100) that adds 0 reaches nothing
    state = yaniv_table([["AS"], ["KD"]], scores=[50, 20])
    after, events = act(state, 0, {"type": "yaniv"})
    assert after.scores == (50, 30) and events[1]["dropped"] == []
    assaf = yaniv_table([["2S"], ["AD"], ["KD"]], scores=[0, 50, 0])
    after, events = act(assaf, 0, {"type": "yaniv"})
    assert after.scores == (32, 50, 10) and events[1]["dropped"] == []


def test_game_ends_when_a_total_exceeds_100_lowest_total_wins() -> None:
    state = yaniv_table([["AS"], ["KD"], ["2S"]], scores=[60, 95, 40])
    after, events = act(state, 0, {"type": "yaniv"})
    assert game.is_over(after) and after.scores == (60, 105, 42)
    assert game.outcome(after) == {"scores": [60, 105, 42], "winners": [2], "rounds": 1}
    assert events[-1] == {"type": "game_end", "seat": 0, "scores": [60, 105, 42], "winners": [2]}
    assert game.to_act(after) == () and game.legal_actions(after, 0) == []


def test_a_total_of_exactly_100_does_not_end_the_game() -> None:
    state = yaniv_table([["AS"], ["KD"]], scores=[0, 90])
    after, _ = act(state, 0, {"type": "yaniv"})
    assert not game.is_over(after) and after.scores == (0, 50)


def test_next_round_starts_with_the_caller_after_a_yaniv() -> None:
    state = yaniv_table([["KD"], ["AS"], ["QD"]])
    state = replace(state, turn=1)
    after, _ = act(state, 1, {"type": "yaniv"})
    assert game.to_act(after) == (1,) and game.legal_actions(after, 0) == []
    refused(after, 0, {"type": "next"}, "waiting for seat 1", "not_your_turn")
    dealt, events = act(after, 1, {"type": "next"})
    assert dealt.round == 2 and dealt.first == 1 and dealt.turn == 1 and dealt.phase is Phase.TURN
    assert game.view(dealt, 0)["dealer"] == 0
    assert [len(h) for h in dealt.hands] == [5, 5, 5] and dealt.known == ((), (), ())
    assert events[0] == {"type": "deal", "seat": 1, "round": 2, "first": 1, "discard": dealt.top[0]}
    assert visible_events(events, 2)[1] == {
        "type": "hand",
        "seat": 2,
        "cards": list(dealt.hands[2]),
    }


def test_next_round_starts_with_the_lowest_hand_after_an_assaf() -> None:
    state = yaniv_table([["4S"], ["3D"], ["2C"], ["2D"]])
    after, _ = act(state, 0, {"type": "yaniv"})
    assert after.turn == 2  # 2C and 2D tie: the first after the caller
    state = replace(yaniv_table([["4S"], ["3D"], ["2C"], ["2D"]]), turn=3)
    after, _ = act(state, 3, {"type": "yaniv"})
    assert after.turn == 2  # the caller ties with 2C: the assafer wins


# -- timeout play and the codec ------------------------------------------------------------------


def test_auto_calls_yaniv_with_three_points_or_fewer() -> None:
    state = yaniv_table([["AS", "2S"], ["AD"]])
    assert game.auto_action(state, 0) == {"type": "yaniv"}


def test_auto_never_calls_a_sure_assaf() -> None:
    # seat 1 holds only the AD it took from the discard: calling with 3 points would cost 3 + 30
    state = replace(yaniv_table([["AS", "2S"], ["AD"]]), known=((), ("AD",)))
    assert game.auto_action(state, 0) == {"type": "discard", "cards": ["2S"]}


def test_auto_waits_with_seven_points_when_another_hand_may_be_lower() -> None:
    state = yaniv_table([["AS", "2S", "4D"], ["KD"]])
    assert game.auto_action(state, 0) == {"type": "discard", "cards": ["4D"]}
    state = yaniv_table([["AS", "2S", "4D"], ["KD", "KS", "QH"]])
    assert game.auto_action(state, 0) == {"type": "yaniv"}


def test_auto_calls_yaniv_when_every_other_hand_is_known_and_bigger() -> None:
    state = yaniv_table([["AD", "3H"], ["2S", "3S"]])
    state = replace(state, known=((), ("2S", "3S")))
    assert game.auto_action(state, 0) == {"type": "yaniv"}
    state = replace(state, known=((), ("3S",)))  # 2S unknown: it might be a joker
    assert game.auto_action(state, 0) == {"type": "discard", "cards": ["3H"]}


def test_auto_discards_the_highest_value_group() -> None:
    state = new([["KD", "QH", "JD", "QD", "2C"], OPP], turned="9C")
    assert game.auto_action(state, 0) == {"type": "discard", "cards": ["JD", "QD", "KD"]}


def test_auto_draws_a_low_card_or_a_pair_from_the_discard_else_the_stock() -> None:
    state, _ = discard(new(HANDS_2, turned="2D"), 0, "KD")
    assert game.auto_action(state, 0) == {"type": "draw", "from": "discard", "card": "2D"}
    state, _ = discard(new(HANDS_2, turned="7S"), 0, "KD")
    assert game.auto_action(state, 0) == {"type": "draw", "from": "discard", "card": "7S"}
    state, _ = discard(new(HANDS_2, turned="9C"), 0, "KD")
    assert game.auto_action(state, 0) == {"type": "draw", "from": "stock"}


def test_auto_takes_back_only_a_card_worth_less_than_its_discard() -> None:
    # else two timed-out players could pass the same low cards back and forth forever
    state, _ = discard(new(HANDS_2, turned="3D"), 0, "5S")
    assert game.auto_action(state, 0) == {"type": "draw", "from": "discard", "card": "3D"}
    state, _ = discard(new([["3S", "AC", "2H", "8D", "KD"], OPP], turned="3D"), 0, "3S")
    assert game.auto_action(state, 0) == {"type": "draw", "from": "stock"}


def test_auto_leaves_a_joker_that_would_tie_two_wholly_known_hands() -> None:
    # seat 1 holds only the X2 it took from the discard: with X1 seat 0's hand would be wholly
    # known and worth 0 too, and neither would ever call into the other's sure assaf
    state = replace(
        yaniv_table([["AD"], ["X2"], ["KD"], ["QD"]], turned="X1"), known=((), ("X2",), (), ())
    )
    state, _ = discard(state, 0, "AD")
    assert game.auto_action(state, 0) == {"type": "draw", "from": "stock"}
    # X2 unseen (it came from the stock): taking X1 blocks no one
    state = replace(state, known=((), (), (), ()))
    assert game.auto_action(state, 0) == {"type": "draw", "from": "discard", "card": "X1"}
    # seat 0 keeps a card of its own: its hand stays partly unknown, so it takes the joker
    state = replace(
        yaniv_table([["AD", "2C"], ["X2"], ["KD"], ["QD"]], turned="X1"),
        known=((), ("X2",), (), ()),
    )
    state, _ = discard(state, 0, "2C")
    assert game.auto_action(state, 0) == {"type": "draw", "from": "discard", "card": "X1"}


@pytest.mark.parametrize("seed", [253, 355])
def test_auto_alone_ends_the_matches_where_two_jokers_went_round_for_ever(seed: int) -> None:
    # both matches used to reach a round of one-card hands where two seats, each holding a
    # joker seen taken from the discard, passed the jokers round the table without end
    state = game.new(players=4, seed=seed)
    for _ in range(5000):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, game.auto_action(state, seat))
    assert game.is_over(state)


def test_auto_alone_ends_a_match_at_every_table_size() -> None:
    for players in range(2, 9):
        for seed in range(8):
            state = game.new(players=players, seed=seed)
            for _ in range(5000):
                if game.is_over(state):
                    break
                seat = game.to_act(state)[0]
                state, _ = game.apply(state, seat, game.auto_action(state, seat))
            assert game.is_over(state), (players, seed)


def test_to_json_matches_the_generic_codec_and_round_trips() -> None:
    state = yaniv_table([["AS"], ["KD"]], scores=[0, 90])
    state, _ = act(state, 0, {"type": "yaniv"})
    state, _ = act(state, 0, {"type": "next"})
    state, _ = discard(state, 0, state.hands[0][0])
    assert game.to_json(state) == to_jsonable(state)
    assert game.from_json(game.to_json(state)) == state
