"""Freeze rules on stacked decks, and above all who knows which card.

Round 1: the dealer is the last seat, seat 0 plays first; seat s gets the packet ``deck[4s:4s+4]``
as line 0 (slots 0, 1) then line 1 (slots 0, 1); the stock follows, top first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tablee.cards import deck_52
from tablee.engine import IllegalAction, visible_events
from tablee.engine.secrecy import leaks
from tablee.games import get_game
from tablee.games.freeze import (
    PUBLIC,
    FreezeState,
    Phase,
    line_points,
    round_scores,
    value,
)

G = get_game("freeze")
ALL = frozenset(deck_52())


def stacked(*packets: tuple[str, str, str, str], stock: tuple[str, ...] = ()) -> list[str]:
    head = [c for p in packets for c in p] + list(stock)
    assert len(set(head)) == len(head)
    return head + [c for c in deck_52() if c not in head]


def new(*packets: tuple[str, str, str, str], stock: tuple[str, ...] = (), rounds: int = 5) -> Any:
    return G.new(
        players=len(packets), options={"rounds": rounds}, deck=stacked(*packets, stock=stock)
    )


def act(state: Any, seat: int, kind: str, **fields: int) -> tuple[Any, list[dict[str, Any]]]:
    return G.apply(state, seat, {"type": kind, **fields})


def layout(state: Any, viewer: int | None, seat: int) -> list[list[str | None]]:
    out: list[list[str | None]] = G.view(state, viewer)["layouts"][seat]
    return out


def refused(state: Any, seat: int, action: dict[str, Any], match: str, code: str = "") -> None:
    with pytest.raises(IllegalAction, match=match) as err:
        G.apply(state, seat, action)
    if code:
        assert err.value.code == code


P0 = ("2S", "3S", "4S", "5S")
P1 = ("2H", "3H", "4H", "5H")
P2 = ("9D", "TD", "4D", "6D")


# -- deal and views -------------------------------------------------------------------------------


def test_deal_two_lines_of_two_face_down_only_the_bottom_line_seen() -> None:
    s = new(P0, P1)
    v0 = G.view(s, 0)
    assert v0["hand"] == [[None, None], ["4S", "5S"]]
    assert v0["layouts"][1] == [[None, None], [None, None]]
    assert v0["counts"] == [4, 4] and v0["turn"] == 0 and v0["dealer"] == 1
    assert G.hidden(s, 0) == ALL - {"4S", "5S"}
    assert G.hidden(s, None) == ALL
    assert G.view(s, None)["hand"] is None
    assert layout(s, None, 0) == [[None, None], [None, None]]


def test_the_discard_starts_empty_no_take_and_no_speed() -> None:
    s = new(P0, P1)
    assert G.view(s, 0)["discard"] == []
    assert G.legal_actions(s, 0) == [{"type": "draw"}, {"type": "freeze"}]
    assert G.legal_actions(s, 1) == []
    refused(s, 0, {"type": "take", "line": 0, "slot": 0}, "discard pile is empty")
    refused(s, 1, {"type": "speed", "line": 1, "slot": 0}, "no fresh discard")


def test_the_bottom_line_stays_known_after_other_turns() -> None:
    s = new(P0, P1, stock=("6C", "7D"))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    s, _ = act(s, 1, "draw")
    s, _ = act(s, 1, "replace", line=0, slot=0)
    assert G.view(s, 0)["hand"] == [[None, None], ["4S", "5S"]]
    assert G.view(s, 1)["hand"] == [["7D", None], ["4H", "5H"]]


# -- a turn ---------------------------------------------------------------------------------------


def test_draw_is_seen_by_the_drawer_only() -> None:
    s = new(P0, P1, stock=("9C",))
    s, events = act(s, 0, "draw")
    assert s.phase is Phase.DRAWN
    assert {"type": "draw", "seat": 0, "card": "9C"} in visible_events(events, 0)
    assert visible_events(events, 1) == [{"type": "draw", "seat": 0}]
    assert visible_events(events, None) == [{"type": "draw", "seat": 0}]
    assert G.view(s, 0)["drawn"] == "9C"
    assert G.view(s, 1)["drawn"] is None and G.view(s, 1)["holding"] == 0
    assert "9C" in G.hidden(s, 1) and "9C" not in G.hidden(s, 0)


def test_replace_keeps_the_drawn_card_known_to_the_drawer_and_discards_the_old_face_up() -> None:
    s = new(("2S", "3S", "7S", "5S"), P1, stock=("2C",))
    s, _ = act(s, 0, "draw")
    s, events = act(s, 0, "replace", line=1, slot=0)
    # the replaced card is a 7 but it has no power: the turn is over
    assert s.phase is Phase.TURN and s.turn == 1
    assert events == [{"type": "replace", "seat": 0, "line": 1, "slot": 0, "card": "7S"}]
    assert G.view(s, 0)["hand"] == [[None, None], ["2C", "5S"]]
    assert layout(s, 1, 0) == [[None, None], [None, None]]
    assert G.view(s, 1)["discard"] == ["7S"] and G.view(s, None)["discard"] == ["7S"]


def test_take_the_top_discard_replaces_a_card_and_everyone_saw_it() -> None:
    s = new(P0, P1, stock=("8C",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "replace", line=1, slot=0)  # 4S on the discard
    s, events = act(s, 1, "take", line=0, slot=1)
    assert events[0]["card"] == "4S" and events[0]["discarded"] == "3H"
    assert s.discard == ("3H",) and s.turn == 0
    for viewer in (0, 1, None):
        assert layout(s, viewer, 1)[0][1] == "4S"
    assert "4S" not in G.hidden(s, None)


def test_draw_then_discard_a_card_without_power_ends_the_turn() -> None:
    s = new(P0, P1, stock=("5C",))
    s, _ = act(s, 0, "draw")
    s, events = act(s, 0, "discard")
    assert events == [{"type": "discard", "seat": 0, "card": "5C", "power": None}]
    assert s.phase is Phase.TURN and s.turn == 1 and s.discard == ("5C",)


def test_red_king_has_no_power() -> None:
    s = new(P0, P1, stock=("KH",))
    s, _ = act(s, 0, "draw")
    s, events = act(s, 0, "discard")
    assert events[0]["power"] is None and s.phase is Phase.TURN and s.turn == 1


def test_freeze_is_only_at_the_start_of_a_turn() -> None:
    s = new(P0, P1, stock=("5C",))
    s, _ = act(s, 0, "draw")
    refused(s, 0, {"type": "freeze"}, "cannot freeze now")


def test_not_your_turn_and_malformed_actions_are_refused() -> None:
    s = new(P0, P1)
    refused(s, 1, {"type": "draw"}, "not your turn", "not_your_turn")
    refused(s, 0, {"type": "take"}, "needs 'line'", "bad_action")
    refused(s, 0, {"type": "draw", "card": "AS"}, "unexpected field", "bad_action")
    refused(s, 0, {"type": "deal"}, "nothing to deal")


# -- powers and knowledge -------------------------------------------------------------------------


def test_after_a_peek_only_the_peeker_knows() -> None:
    s = new(P0, P1, P2, stock=("7C",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    assert s.phase is Phase.PEEK and G.to_act(s) == (0,)
    peeks = [{"type": "peek", "line": li, "slot": sl} for li in (0, 1) for sl in (0, 1)]
    assert G.legal_actions(s, 0) == [*peeks, {"type": "pass"}]
    s, events = act(s, 0, "peek", line=0, slot=1)
    assert G.view(s, 0)["hand"] == [[None, "3S"], ["4S", "5S"]]
    for other in (1, 2, None):
        assert layout(s, other, 0)[0][1] is None
        assert "3S" in G.hidden(s, other)
        assert not leaks(visible_events(events, other), {"3S"})
    assert s.turn == 1 and s.phase is Phase.TURN


def test_a_nine_spies_on_an_opponents_card_only_the_spy_learns_it() -> None:
    s = new(P0, P1, P2, stock=("9C",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    assert s.phase is Phase.SPY
    refused(s, 0, {"type": "spy", "target": 0, "line": 0, "slot": 0}, "another player")
    s, _ = act(s, 0, "spy", target=1, line=0, slot=0)
    assert layout(s, 0, 1)[0][0] == "2H"
    # the owner did not know it and still does not
    assert layout(s, 1, 1)[0][0] is None and layout(s, 2, 1)[0][0] is None


def test_a_power_may_be_declined() -> None:
    s = new(P0, P1, stock=("TC",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    s, events = act(s, 0, "pass")
    assert events == [{"type": "pass", "seat": 0}] and s.turn == 1
    assert G.hidden(s, 0) == ALL - {"4S", "5S", "TC"}


def test_blind_swap_knowledge_travels_with_the_cards() -> None:
    """Seat 0 swaps its known 4S with seat 1's 5H (known to seat 1 only): no face is shown."""
    s = new(P0, P1, P2, stock=("JC",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    assert s.phase is Phase.SWAP
    before = {seat: G.hidden(s, seat) for seat in (0, 1, 2, None)}
    s, events = act(s, 0, "swap", line=1, slot=0, target=1, target_line=1, target_slot=1)
    assert s.layouts[0][1] == ("5H", "5S") and s.layouts[1][1] == ("4H", "4S")
    # the swapper still knows its card in its new place; the card it received stays unknown
    assert layout(s, 0, 1) == [[None, None], [None, "4S"]]
    assert G.view(s, 0)["hand"] == [[None, None], [None, "5S"]]
    # the owner still knows its 5H where it went, and does not learn the 4S it received
    assert layout(s, 1, 0) == [[None, None], ["5H", None]]
    assert G.view(s, 1)["hand"] == [[None, None], ["4H", None]]
    # a bystander learns nothing
    assert layout(s, 2, 0) == [[None, None], [None, None]]
    for seat in (0, 1, 2, None):
        assert G.hidden(s, seat) == before[seat]
        assert not leaks(visible_events(events, seat), ALL - {"JC"})


def test_blind_swap_of_two_unknown_cards_teaches_nobody() -> None:
    s = new(P0, P1, stock=("QC",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    s, _ = act(s, 0, "swap", line=0, slot=0, target=1, target_line=0, target_slot=1)
    assert s.layouts[0][0] == ("3H", "3S") and s.layouts[1][0] == ("2H", "2S")
    assert G.hidden(s, 0) == ALL - {"4S", "5S", "QC"}
    assert G.hidden(s, 1) == ALL - {"4H", "5H", "QC"}


def test_black_king_looks_then_swaps_the_card_it_looked_at() -> None:
    s = new(P0, P1, P2, stock=("KS",))
    s, _ = act(s, 0, "draw")
    s, events = act(s, 0, "discard")
    assert events[0]["power"] == "king" and s.phase is Phase.KING_LOOK
    s, _ = act(s, 0, "spy", target=2, line=0, slot=0)
    assert s.phase is Phase.KING_SWAP and G.to_act(s) == (0,)
    assert G.view(s, 1)["looked"] == {"target": 2, "line": 0, "slot": 0}
    assert layout(s, 0, 2)[0][0] == "9D"
    legal = G.legal_actions(s, 0)
    assert {"type": "pass"} in legal and len(legal) == 5
    assert all(a["target"] == 2 and a["target_line"] == 0 for a in legal if a["type"] == "swap")
    bad = {"type": "swap", "line": 0, "slot": 0, "target": 1, "target_line": 0, "target_slot": 0}
    refused(s, 0, bad, "the card you looked at")
    s, _ = act(s, 0, "swap", line=1, slot=1, target=2, target_line=0, target_slot=0)
    assert G.view(s, 0)["hand"] == [[None, None], ["4S", "9D"]]
    assert layout(s, 0, 2)[0][0] == "5S"  # seat 0 knew its 5S and still does
    assert layout(s, 2, 2)[0][0] is None  # seat 2 never saw it
    assert s.turn == 1


def test_black_king_may_look_and_keep() -> None:
    s = new(P0, P1, stock=("KC",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    s, _ = act(s, 0, "spy", target=1, line=0, slot=1)
    s, _ = act(s, 0, "pass")
    assert s.layouts == new(P0, P1).layouts and s.turn == 1
    assert layout(s, 0, 1)[0][1] == "3H"


# -- speeds ---------------------------------------------------------------------------------------


def discard_first(packets: tuple[tuple[str, str, str, str], ...], card: str) -> Any:
    """Seat 0 draws ``card`` and discards it (no power wanted): a speed window is open."""
    s = new(*packets, stock=(card, "AC", "AD"))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    assert s.phase is Phase.TURN and s.turn == 1
    return s


def test_speeds_are_listed_out_of_turn_for_every_seat_while_the_window_is_open() -> None:
    s = discard_first((P0, P1, P2), "4C")
    assert G.to_act(s) == (1,)
    for seat in (0, 2):
        assert G.legal_actions(s, seat) == [
            {"type": "speed", "line": li, "slot": sl} for li in (0, 1) for sl in (0, 1)
        ]
    assert {"type": "speed", "line": 1, "slot": 0} in G.legal_actions(s, 1)


def test_speed_of_the_matching_rank_puts_the_card_on_the_discard() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, events = act(s, 2, "speed", line=1, slot=0)
    assert events == [
        {"type": "speed", "seat": 2, "line": 1, "slot": 0, "card": "4D", "good": True}
    ]
    assert s.layouts[2] == (("9D", "TD"), ("6D",))
    assert s.discard == ("4C", "4D")
    assert s.turn == 1  # not the next player's speed: the turn does not move
    assert G.view(s, 1)["speed"] == "used"


def test_wrong_speed_is_a_fault_the_card_goes_back_known_to_all_with_an_unseen_penalty() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, events = act(s, 2, "speed", line=0, slot=1)  # the TD: wrong rank
    assert events[0]["good"] is False and events[0]["card"] == "TD"
    assert events[1] == {"type": "penalty", "seat": 2, "line": 0}
    assert s.layouts[2] == (("9D", "TD", "AC"), ("4D", "6D"))
    for viewer in (0, 1, 2, None):
        assert layout(s, viewer, 2)[0][1] == "TD"
    # the penalty card is seen by nobody, the penalised player included
    for viewer in (0, 1, 2, None):
        assert layout(s, viewer, 2)[0][2] is None
        assert not leaks(visible_events(events, viewer), {"AC"})
    assert s.known["TD"] & PUBLIC and s.discard == ("4C",)


def test_penalty_card_goes_at_the_end_of_the_shorter_line() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, _ = act(s, 2, "speed", line=1, slot=0)  # good: the bottom line is down to one card
    s, _ = act(s, 1, "draw")
    s, _ = act(s, 1, "discard")  # the AC
    s, events = act(s, 2, "speed", line=1, slot=0)  # 6D on an ace: a fault
    assert {"type": "penalty", "seat": 2, "line": 1} in events
    assert s.layouts[2] == (("9D", "TD"), ("6D", "AD"))


def test_second_speed_on_a_discard_is_a_fault_even_with_the_right_rank() -> None:
    s = discard_first((P0, ("2H", "3H", "4H", "5H"), ("9D", "TD", "4D", "6D")), "4C")
    s, _ = act(s, 2, "speed", line=1, slot=0)  # the 4D: good
    s, events = act(s, 0, "speed", line=1, slot=0)  # the 4S: right rank, too late
    assert events[0]["good"] is False
    assert s.layouts[0] == (("2S", "3S", "AC"), ("4S", "5S"))
    assert s.discard == ("4C", "4D")


def test_second_speed_is_a_fault_even_after_a_faulty_first_one() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, _ = act(s, 2, "speed", line=0, slot=0)  # the 9D: a fault
    s, events = act(s, 0, "speed", line=1, slot=0)  # the 4S would have matched
    assert events[0]["good"] is False and "4S" in s.layouts[0][1]


def test_a_speed_by_the_next_player_takes_their_turn() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, _ = act(s, 1, "speed", line=1, slot=0)  # the 4H, by seat 1 whose turn it is
    assert s.turn == 2 and s.phase is Phase.TURN
    assert s.discard == ("4C", "4H")
    assert G.legal_actions(s, 1) == [
        {"type": "speed", "line": li, "slot": sl} for li, sl in ((0, 0), (0, 1), (1, 0))
    ]


def test_a_faulty_speed_by_the_next_player_also_takes_their_turn() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, _ = act(s, 1, "speed", line=0, slot=0)
    assert s.turn == 2 and len(s.layouts[1][0]) == 3


def test_the_speed_window_closes_with_the_next_main_turn_action() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, _ = act(s, 1, "draw")
    assert G.legal_actions(s, 2) == [] and G.legal_actions(s, 0) == []
    refused(s, 2, {"type": "speed", "line": 1, "slot": 0}, "no fresh discard")


def test_no_speed_during_a_power() -> None:
    s = new(P0, P1, stock=("7C",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    assert G.legal_actions(s, 1) == []


# -- freeze ---------------------------------------------------------------------------------------


def test_after_a_freeze_every_other_player_plays_one_more_turn_then_all_is_shown() -> None:
    s = new(P0, P1, P2, stock=("5C", "6C", "2D"))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    s, events = act(s, 1, "freeze")
    assert events == [{"type": "freeze", "seat": 1}] and G.view(s, 0)["frozen"] == 1
    assert {"type": "freeze"} not in G.legal_actions(s, 2)
    s, _ = act(s, 2, "draw")
    s, _ = act(s, 2, "discard")
    assert s.turn == 0 and s.phase is Phase.TURN
    s, _ = act(s, 0, "draw")
    s, events = act(s, 0, "discard")
    assert s.phase is Phase.SHOWN and G.to_act(s) == (0,)  # the next dealer deals
    end = events[-1]
    assert end["type"] == "deal_end" and end["seat"] == 1
    assert end["layouts"][2] == [["9D", "TD"], ["4D", "6D"]]
    assert layout(s, None, 2) == [["9D", "TD"], ["4D", "6D"]]
    assert G.hidden(s, None) == frozenset(s.stock)


def test_a_frozen_hand_cannot_be_targeted_nor_speed() -> None:
    s = new(P0, P1, P2, stock=("JC", "4C"))
    s, _ = act(s, 0, "freeze")
    s, _ = act(s, 1, "draw")
    s, _ = act(s, 1, "discard")
    assert s.phase is Phase.SWAP
    assert {a.get("target") for a in G.legal_actions(s, 1) if a["type"] == "swap"} == {2}
    bad = {"type": "swap", "line": 0, "slot": 0, "target": 0, "target_line": 0, "target_slot": 0}
    refused(s, 1, bad, "frozen hand")
    s, _ = act(s, 1, "pass")  # the JC lies on the discard: a speed window is open
    assert G.legal_actions(s, 0) == [] and G.legal_actions(s, 1)
    refused(s, 0, {"type": "speed", "line": 1, "slot": 0}, "frozen")


def test_a_power_with_no_possible_target_is_skipped() -> None:
    s = new(P0, P1, stock=("9C",))
    s, _ = act(s, 0, "freeze")
    s, _ = act(s, 1, "draw")
    s, events = act(s, 1, "discard")  # the only opponent is frozen
    assert events[0]["power"] is None and s.phase is Phase.SHOWN


def test_a_speed_by_the_next_player_can_be_their_last_turn() -> None:
    s = new(P0, P1, P2, stock=("4C",))
    s, _ = act(s, 0, "freeze")
    s, _ = act(s, 1, "draw")
    s, _ = act(s, 1, "discard")
    s, _ = act(s, 2, "speed", line=1, slot=0)  # the 4D, the last turn before the freezer
    assert s.phase is Phase.SHOWN and s.discard == ("4C", "4D")


# -- scoring --------------------------------------------------------------------------------------


def test_card_values() -> None:
    assert [value(c) for c in ("AS", "2H", "9C", "TD", "JH", "QS")] == [1, 2, 9, 10, 10, 10]
    assert value("KS") == value("KC") == 10 and value("KH") == value("KD") == -1


def test_line_of_a_kind_counts_zero() -> None:
    assert line_points(["KH", "KD"]) == 0  # not -2
    assert line_points(["KH", "KS"]) == 0  # the text: one red and one black king is not 9
    assert line_points(["5S", "5D", "5C"]) == 0
    assert line_points(["5S", "5D", "6C"]) == 16
    assert line_points(["5S"]) == 5 and line_points([]) == 0


def test_freezer_strictly_lowest_scores_minus_ten() -> None:
    s = new(("AS", "AH", "2S", "3S"), ("9H", "8C", "TH", "4H"), stock=("6C",), rounds=1)
    s, _ = act(s, 0, "freeze")
    s, _ = act(s, 1, "draw")
    s, events = act(s, 1, "discard")
    assert events[-1]["points"] == [5, 31]
    assert events[-1]["scores"] == [-10, 31]
    assert G.outcome(s) == {"scores": [-10, 31], "winners": [0], "history": [[-10, 31]]}


def test_freezer_not_strictly_lowest_scores_points_plus_five_per_player_at_or_below() -> None:
    assert round_scores([10, 10, 3, 20], 0) == [20, 10, 3, 20]
    assert round_scores([4, 5, 6], 0) == [-10, 5, 6]
    s = new(("AS", "9S", "2S", "3S"), ("AH", "9H", "2H", "3H"), stock=("6C",), rounds=1)
    s, _ = act(s, 0, "freeze")
    s, _ = act(s, 1, "draw")
    s, events = act(s, 1, "discard")
    assert events[-1]["scores"] == [15 + 5, 15]  # a tie loses the bet


def test_a_line_of_a_kind_scores_zero_in_a_round() -> None:
    s = new(("KH", "KD", "QS", "QH"), ("2H", "3H", "4H", "5H"), stock=("6C",), rounds=1)
    s, _ = act(s, 0, "freeze")
    s, _ = act(s, 1, "draw")
    s, events = act(s, 1, "discard")
    assert events[-1]["points"] == [0, 14] and events[-1]["scores"] == [-10, 14]


def test_the_match_lasts_rounds_rounds_and_the_lowest_total_wins() -> None:
    s = new(P0, P1, stock=("6C",), rounds=2)
    s, _ = act(s, 0, "freeze")
    s, _ = act(s, 1, "draw")
    s, _ = act(s, 1, "discard")
    assert s.phase is Phase.SHOWN and not G.is_over(s)
    assert G.legal_actions(s, 0) == [{"type": "deal"}] and G.legal_actions(s, 1) == []
    refused(s, 1, {"type": "deal"}, "next dealer", "not_your_turn")
    s, events = act(s, 0, "deal")
    assert s.round == 2 and s.dealer == 0 and s.turn == 1 and s.discard == ()
    assert next(e for e in events if e.get("to") == [1])["cards"] == list(s.layouts[1][1])
    assert G.hidden(s, 1) == ALL - set(s.layouts[1][1])
    s, _ = act(s, 1, "freeze")
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    assert G.is_over(s) and len(s.history) == 2
    out = G.outcome(s)
    assert out is not None
    assert out["scores"] == [a + b for a, b in zip(*s.history, strict=True)]
    assert out["winners"] == [i for i, v in enumerate(out["scores"]) if v == min(out["scores"])]


# -- the stock ------------------------------------------------------------------------------------


def test_empty_stock_reshuffles_the_discard_but_its_top() -> None:
    s = new(P0, P1)
    s = replace(s, discard=s.stock, stock=())
    top = s.discard[-1]
    a, events = act(s, 0, "draw")
    assert a.discard == (top,) and len(a.stock) == 52 - 8 - 2
    assert events[0] == {"type": "reshuffle", "seat": 0, "count": 52 - 8 - 1}
    b, _ = act(s, 0, "draw")
    assert a == b  # seeded: replays identically
    assert G.hidden(a, 0) == ALL - {"4S", "5S", a.drawn, top}


def test_nothing_left_to_draw_no_draw_offered_and_no_penalty() -> None:
    s = new(P0, P1, P2)
    rest, last = s.stock[:-1], s.stock[-1]
    # every card but one lies in a layout: the stock is empty, one card on the discard
    crowded = (s.layouts[2][0] + rest, s.layouts[2][1])
    s = replace(
        s,
        layouts=(s.layouts[0], s.layouts[1], crowded),
        known={**s.known, **dict.fromkeys(rest, 0)},
        stock=(),
        discard=(last,),
        speed=1,
    )
    legal = G.legal_actions(s, 0)
    assert {"type": "draw"} not in legal and {"type": "freeze"} in legal
    assert {"type": "take", "line": 0, "slot": 0} in legal
    t, events = act(s, 2, "speed", line=1, slot=1)  # a fault, with no card left to take
    assert [e["type"] for e in events] == ["speed"]
    assert len(t.layouts[2][0]) == 2 + len(rest) and len(t.layouts[2][1]) == 2


def test_a_player_who_can_neither_draw_take_nor_freeze_passes() -> None:
    s = new(P0, P1, P2)
    s = replace(
        s,
        layouts=(((), ()), *s.layouts[1:]),
        known={c: m for c, m in s.known.items() if c not in P0},
        stock=(),
        discard=(s.stock[-1],),
        frozen=1,
    )
    assert G.legal_actions(s, 0) == [{"type": "pass"}]
    s, events = act(s, 0, "pass")
    assert events[0] == {"type": "pass", "seat": 0} and s.phase is Phase.SHOWN


# -- the table's move -----------------------------------------------------------------------------


def test_auto_action_replaces_a_known_high_card_with_a_low_draw() -> None:
    s = new(("2S", "3S", "TS", "5S"), P1, stock=("AC",))
    s, _ = act(s, 0, "draw")
    assert G.auto_action(s, 0) == {"type": "replace", "line": 1, "slot": 0}


def test_auto_action_never_breaks_a_known_line_of_a_kind() -> None:
    # the bottom line QS QH counts 0: a 5 in place of a queen would make it 15
    s = new(("2S", "3S", "QS", "QH"), P1, stock=("5C", "AC"))
    s, _ = act(s, 0, "draw")
    action = G.auto_action(s, 0)
    assert action["type"] == "discard" or action.get("line") == 0
    # nor takes a low discard into it
    t = new(P0, ("2H", "3H", "QS", "QH"), stock=("AC",))
    t, _ = act(t, 0, "draw")
    t, _ = act(t, 0, "discard")
    action = G.auto_action(t, 1)
    assert action["type"] == "draw" or action.get("line") == 0


def test_auto_action_discards_a_high_draw_and_aims_its_power_at_unknown_cards() -> None:
    s = new(P0, P1, stock=("7C", "9C"))
    s, _ = act(s, 0, "draw")
    assert G.auto_action(s, 0) == {"type": "discard"}
    s, _ = act(s, 0, "discard")
    assert G.auto_action(s, 0) == {"type": "peek", "line": 0, "slot": 0}
    s, _ = act(s, 0, "peek", line=0, slot=0)
    s, _ = act(s, 1, "draw")
    s, _ = act(s, 1, "discard")
    # seat 0 peeked at its 2S, but seat 1 does not know it
    assert G.auto_action(s, 1) == {"type": "spy", "target": 0, "line": 0, "slot": 0}


def test_auto_action_swaps_a_known_high_card_for_a_known_low_one() -> None:
    s = new(("2S", "3S", "TS", "KC"), ("AH", "9H", "4H", "5H"), stock=("9C", "6C", "QC"))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    s, _ = act(s, 0, "spy", target=1, line=0, slot=0)  # the AH
    s, _ = act(s, 1, "draw")
    s, _ = act(s, 1, "replace", line=1, slot=1)  # seat 1 discards the 5H
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")  # the QC
    assert G.auto_action(s, 0) == {
        "type": "swap",
        "line": 1,
        "slot": 1,
        "target": 1,
        "target_line": 0,
        "target_slot": 0,
    }


def test_auto_action_freezes_when_its_known_total_is_low_and_never_speeds() -> None:
    s = new(("AS", "2S", "AD", "2D"), P1, stock=("4C", "6C"))
    s = replace(s, known={**s.known, "AS": 1, "2S": 1})
    assert G.auto_action(s, 0) == {"type": "freeze"}
    t = new(P0, ("4H", "3H", "4D", "5H"), stock=("4C",))
    t, _ = act(t, 0, "draw")
    t, _ = act(t, 0, "discard")
    # seat 1 knows a 4 matching the discard, yet the table never speeds for it
    assert G.auto_action(t, 1)["type"] != "speed"
    with pytest.raises(IllegalAction, match="nothing to do"):
        G.auto_action(t, 0)


def test_auto_action_takes_a_low_discard_over_a_known_high_card() -> None:
    s = new(P0, ("2H", "3H", "KS", "5H"), stock=("AC",))
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 0, "discard")
    assert G.auto_action(s, 1) == {"type": "take", "line": 1, "slot": 0}


def test_state_round_trips_through_json() -> None:
    s = discard_first((P0, P1, P2), "4C")
    s, _ = act(s, 2, "speed", line=0, slot=1)
    assert G.from_json(G.to_json(s)) == s
    assert isinstance(s, FreezeState)
