"""Barbu rules, on stacked decks (the barbu section of the house text and DECISIONS.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from tablee.cards import deck_52
from tablee.engine import IllegalAction, InvalidOptions
from tablee.games import get_game
from tablee.games.barbu import BarbuState, trick_points

GAME = get_game("barbu")
ROUND = {"tricks": 0, "hearts": 1, "queens": 2, "king": 3, "all": 4}


def stack(hands: Sequence[Sequence[str]], players: int = 4) -> list[str]:
    """The deck that deals ``hands`` (seat 0 first): one card at a time from seat 0."""
    size = len(hands[0])
    assert all(len(h) == size for h in hands)
    return [hands[i % players][i // players] for i in range(size * players)]


def fill(partial: Sequence[Sequence[str]], players: int = 4) -> list[list[str]]:
    """Complete each seat's hand with the cards nobody was given, in deck order."""
    deck = GAME.deck(players)
    used = {c for h in partial for c in h}
    rest = [c for c in deck if c not in used]
    size = len(deck) // players
    hands = []
    for h in partial:
        need = size - len(h)
        hands.append([*h, *rest[:need]])
        rest = rest[need:]
    return hands


def new(hands: Sequence[Sequence[str]], contract: str = "tricks", players: int = 4) -> BarbuState:
    state = GAME.new(players=players, deck=stack(hands, players))
    return replace(state, round=ROUND[contract])


def play(state: BarbuState, *cards: str) -> BarbuState:
    for card in cards:
        state, _ = GAME.apply(state, state.turn, {"type": "play", "card": card})
    return state


def finish_round(state: BarbuState) -> tuple[BarbuState, list[dict]]:
    events: list[dict] = []
    while state.phase.value == "play":
        state, evs = GAME.apply(state, state.turn, GAME.auto_action(state, state.turn))
        events += evs
    return state, events


# hands with no club for seats 2 and 3, so they discard on a club lead
CLUBS = [c for c in deck_52() if c[1] == "C"]
VOID_IN_CLUBS = fill(
    [
        ["KC", "AH", "2H", "4S"],
        [c for c in CLUBS if c != "KC"],
        ["QH", "5H"],
        ["3H", "6H"],
    ]
)


def test_stacked_deck_deals_one_card_at_a_time_from_seat_0() -> None:
    state = GAME.new(players=4, deck=stack(VOID_IN_CLUBS))
    for seat in range(4):
        assert sorted(state.hands[seat]) == sorted(VOID_IN_CLUBS[seat])
    assert state.turn == 0 and state.dealer == 3


def test_must_follow_the_suit_led() -> None:
    state = play(new(VOID_IN_CLUBS), "KC")
    with pytest.raises(IllegalAction, match="you must follow clubs"):
        GAME.apply(state, 1, {"type": "play", "card": VOID_IN_CLUBS[1][-1]})
    assert {a["card"][1] for a in GAME.legal_actions(state, 1)} == {"C"}


def test_void_in_the_suit_led_may_play_anything() -> None:
    state = play(new(VOID_IN_CLUBS), "KC", "2C")
    assert {a["card"] for a in GAME.legal_actions(state, 2)} == set(state.hands[2])


@pytest.mark.parametrize("contract", ["hearts", "king", "all"])
def test_no_heart_lead_before_a_heart_is_discarded(contract: str) -> None:
    state = new(VOID_IN_CLUBS, contract)
    legal = {a["card"] for a in GAME.legal_actions(state, 0)}
    assert "AH" not in legal and "2H" not in legal and "KC" in legal
    with pytest.raises(IllegalAction, match="may not lead a heart"):
        GAME.apply(state, 0, {"type": "play", "card": "2H"})


@pytest.mark.parametrize("contract", ["tricks", "queens"])
def test_hearts_may_be_led_at_once_in_rounds_1_and_3(contract: str) -> None:
    state = new(VOID_IN_CLUBS, contract)
    assert {"type": "play", "card": "2H"} in GAME.legal_actions(state, 0)


def test_heart_discarded_on_another_suit_opens_hearts() -> None:
    state = play(new(VOID_IN_CLUBS, "hearts"), "KC", "2C", "5H", "6H")
    assert state.hearts_broken and state.turn == 0  # KC held the trick
    assert {"type": "play", "card": "2H"} in GAME.legal_actions(state, 0)


def test_a_heart_lead_under_the_exception_does_not_open_hearts() -> None:
    only_hearts = fill([[c for c in deck_52() if c[1] == "H"], [], [], []])
    state = play(new(only_hearts, "hearts"), "2H", only_hearts[1][0])
    assert not state.hearts_broken


def test_holding_only_hearts_allows_a_heart_lead() -> None:
    only_hearts = fill([[c for c in deck_52() if c[1] == "H"], [], [], []])
    state = new(only_hearts, "all")
    assert {a["card"] for a in GAME.legal_actions(state, 0)} == set(only_hearts[0])
    state = play(state, "2H")
    assert state.trick == ("2H",)


def test_text_example_trick_costs_35_in_round_5() -> None:
    # Q♥, 3♥, 10♣, K♣: 20 for the queen, 10 for the hearts, 5 for the trick
    state = play(new(VOID_IN_CLUBS, "all"), "KC", "TC", "QH", "3H")
    assert state.last_trick is not None and state.last_trick.winner == 0
    assert state.points == (35, 0, 0, 0)
    assert trick_points(["QH", "3H", "TC", "KC"], ROUND["all"]) == 35


def test_barbu_costs_80_and_its_heart_in_round_5() -> None:
    assert trick_points(["KH", "2C", "3C", "4C"], ROUND["king"]) == 80
    assert trick_points(["KH", "2C", "3C", "4C"], ROUND["all"]) == 80 + 5 + 5


@pytest.mark.parametrize(
    ("players", "contract", "total"),
    [
        (4, "tricks", 65),
        (4, "hearts", 65),
        (4, "queens", 80),
        (4, "king", 80),
        (4, "all", 290),
        (5, "tricks", 50),
        (5, "hearts", 65),
        (5, "queens", 80),
        (5, "king", 80),
        (5, "all", 275),
    ],
)
def test_each_round_hands_out_its_whole_total(players: int, contract: str, total: int) -> None:
    state = replace(GAME.new(players=players, seed=11), round=ROUND[contract])
    state, events = finish_round(state)
    end = next(e for e in events if e["type"] == "deal_end")
    assert sum(end["scores"]) == total
    assert end["contract"] == contract


def test_five_players_play_without_the_black_twos() -> None:
    deck = GAME.deck(5)
    assert len(deck) == 50 and "2C" not in deck and "2S" not in deck and "2H" in deck
    state = GAME.new(players=5, seed=3)
    assert [len(h) for h in state.hands] == [10] * 5
    with pytest.raises(InvalidOptions, match="deck"):
        GAME.new(players=5, deck=deck_52())


def test_first_leader_deals_the_next_round() -> None:
    state = GAME.new(players=4, seed=8)
    assert state.dealer == 3 and state.turn == 0
    state, _ = finish_round(state)
    assert state.phase.value == "deal" and GAME.to_act(state) == (0,)
    assert GAME.legal_actions(state, 1) == []
    assert GAME.view(state, 2)["last_trick"] is not None  # the last trick stays on the table
    state, events = GAME.apply(state, 0, {"type": "deal"})
    assert state.dealer == 0 and state.turn == 1 and state.round == 1
    assert events[0] == {"type": "deal", "seat": 0, "deal": 2, "contract": "hearts"}
    assert [e["to"] for e in events if e["type"] == "hand"] == [[0], [1], [2], [3]]


def test_five_rounds_in_order_lowest_total_wins() -> None:
    state = GAME.new(players=4, seed=21)
    contracts = []
    while not GAME.is_over(state):
        contracts.append(GAME.view(state, None)["contract"])
        state, _ = finish_round(state)
        if state.phase.value == "deal":
            state, _ = GAME.apply(state, state.dealer, {"type": "deal"})
    assert contracts == ["tricks", "hearts", "queens", "king", "all"]
    view = GAME.view(state, 0)
    assert [sum(row) for row in view["sheet"]] == [65, 65, 80, 80, 290]
    totals = [sum(col) for col in zip(*view["sheet"], strict=True)]
    assert view["scores"] == totals
    out = GAME.outcome(state)
    assert out is not None and out["winners"] == [s for s in range(4) if totals[s] == min(totals)]


def test_view_shows_round_points_and_running_totals() -> None:
    state = play(new(VOID_IN_CLUBS, "all"), "KC", "TC", "QH", "3H")
    view = GAME.view(state, 1)
    assert view["points"] == [35, 0, 0, 0] and view["scores"] == [0, 0, 0, 0]
    assert view["hand"] == list(state.hands[1]) and view["counts"] == [12] * 4
    assert view["contract"] == "all" and view["deal"] == 5 and view["hearts_broken"]
    assert GAME.view(state, None)["hand"] is None


def test_auto_action_sheds_the_barbu_when_void() -> None:
    hands = fill([["2C"], [c for c in CLUBS if c != "2C"][:12], ["KH"], []])
    state = play(new(hands, "king"), "2C", "AC")
    assert state.turn == 2 and "KH" in state.hands[2]
    assert GAME.auto_action(state, 2) == {"type": "play", "card": "KH"}


def test_auto_action_ducks_with_its_highest_losing_card() -> None:
    hands = fill([["KD"], ["QD", "JD", "2D", "AD"], [], []])
    state = play(new(hands, "tricks"), "KD")
    assert GAME.auto_action(state, 1) == {"type": "play", "card": "QD"}


def test_auto_action_leads_a_low_harmless_card() -> None:
    hands = fill([["2S", "QS", "2H", "KH"], [], [], []])
    state = new(hands, "all")
    card = GAME.auto_action(state, 0)["card"]
    assert card[0] == "2" and card[1] != "H"


def test_wrong_seat_and_malformed_plays_are_refused() -> None:
    state = new(VOID_IN_CLUBS)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, {"type": "play", "card": "TC"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "play"})
    assert err.value.code == "bad_action"
    with pytest.raises(IllegalAction, match="you do not hold"):
        GAME.apply(state, 0, {"type": "play", "card": "TC"})


def test_auto_action_is_only_for_the_seat_on_turn() -> None:
    state = new(VOID_IN_CLUBS)
    with pytest.raises(IllegalAction) as err:
        GAME.auto_action(state, 1)
    assert err.value.code == "not_your_turn"


# -- barbu au choix (option ``choice``; DECISIONS.md, "Variants") ----------------------------------


def play_round(state: BarbuState) -> BarbuState:
    """The round in progress played out by the timeout move, then the next one dealt."""
    state, _ = finish_round(state)
    if state.phase.value == "deal":
        state, _ = GAME.apply(state, state.dealer, {"type": "deal"})
    return state


def test_au_choix_the_dealer_chooses_the_contract_with_the_hand_in_view() -> None:
    hands = fill([["KH"], [], [], []])
    state = GAME.new(players=4, options={"choice": True}, deck=stack(hands))
    assert state.phase.value == "choose" and GAME.to_act(state) == (3,)
    view = GAME.view(state, 3)
    assert view["contract"] is None and view["hand"] == list(state.hands[3])
    assert view["chosen"] == [[], [], [], []] and view["rounds"] == 20
    assert [a["contract"] for a in GAME.legal_actions(state, 3)] == [
        "tricks", "hearts", "queens", "king", "all"
    ]
    assert GAME.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="dealer chooses") as exc:
        GAME.apply(state, 0, {"type": "choose", "contract": "king"})
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalAction, match="contract"):
        GAME.apply(state, 3, {"type": "choose", "contract": "spades"})
    state, events = GAME.apply(state, 3, {"type": "choose", "contract": "king"})
    assert events == [{"type": "choose", "seat": 3, "contract": "king"}]
    assert state.phase.value == "play" and GAME.to_act(state) == (0,)
    assert GAME.view(state, None)["contract"] == "king"


def test_au_choix_the_contract_chosen_sets_the_penalties_and_the_heart_lead_rule() -> None:
    hands = fill([["KH", "2H"], [], [], []])
    state = GAME.new(players=4, options={"choice": True}, deck=stack(hands))
    state, _ = GAME.apply(state, 3, {"type": "choose", "contract": "king"})
    # the king's contract: no heart lead before hearts are opened
    assert all(a["card"][1] != "H" for a in GAME.legal_actions(state, 0))
    state, events = finish_round(state)
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["contract"] == "king" and sum(end["scores"]) == 80
    assert GAME.view(state, None)["sheet_contracts"] == ["king"]


def test_au_choix_a_dealer_never_chooses_a_contract_twice() -> None:
    state = GAME.new(players=4, options={"choice": True}, seed=4)
    state, _ = GAME.apply(state, 3, {"type": "choose", "contract": "all"})
    # round 2 to 4 are dealt by seats 0 to 2; seat 3 deals again in round 5
    for _ in range(4):
        state = play_round(state)
        if state.phase.value == "choose" and state.dealer != 3:
            state, _ = GAME.apply(state, state.dealer, GAME.auto_action(state, state.dealer))
    assert state.dealer == 3 and state.phase.value == "choose"
    left = [a["contract"] for a in GAME.legal_actions(state, 3)]
    assert left == ["tricks", "hearts", "queens", "king"]
    with pytest.raises(IllegalAction, match="already chosen all"):
        GAME.apply(state, 3, {"type": "choose", "contract": "all"})


def test_au_choix_every_player_deals_each_contract_once_then_the_lowest_total_wins() -> None:
    for players in (4, 5):
        state = GAME.new(players=players, options={"choice": True}, seed=30 + players)
        while not GAME.is_over(state):
            if state.phase.value == "choose":
                state, _ = GAME.apply(state, state.dealer, GAME.auto_action(state, state.dealer))
            state = play_round(state)
        view = GAME.view(state, None)
        assert len(view["sheet"]) == len(view["sheet_contracts"]) == 5 * players
        assert all(sorted(c) == sorted(ROUND) for c in view["chosen"])
        totals = [sum(col) for col in zip(*view["sheet"], strict=True)]
        out = GAME.outcome(state)
        assert out is not None and out["scores"] == totals
        assert out["winners"] == [s for s in range(players) if totals[s] == min(totals)]


def test_au_choix_the_last_contract_left_is_named_for_the_dealer() -> None:
    state = GAME.new(players=4, options={"choice": True}, seed=5)
    for _ in range(16):  # each seat has dealt four contracts
        if state.phase.value == "choose":
            state, _ = GAME.apply(state, state.dealer, GAME.auto_action(state, state.dealer))
        state = play_round(state)
    assert state.round == 16 and state.phase.value == "play"
    assert GAME.view(state, None)["contract"] == next(
        c for c in ROUND if c not in state.choice.chosen[state.dealer][:-1]  # type: ignore[union-attr]
    )


def test_au_choix_timeout_chooses_the_contract_the_hand_fears_least() -> None:
    # seat 3 holds the barbu, seven hearts and no queen: the queens cost it nothing
    mine = ["KH", "AH", "JH", "TH", "9H", "8H", "7H", "2S", "2D", "3S", "3D", "4S", "4D"]
    state = GAME.new(players=4, options={"choice": True}, deck=stack(fill([[], [], [], mine])))
    assert GAME.auto_action(state, 3) == {"type": "choose", "contract": "queens"}
    state, _ = GAME.apply(state, 3, {"type": "choose", "contract": "queens"})
    for _ in range(4):
        state = play_round(state)
        if state.phase.value == "choose" and state.dealer != 3:
            state, _ = GAME.apply(state, state.dealer, GAME.auto_action(state, state.dealer))
    # queens chosen already: the tricks contract comes next for such a hand
    state = evolve_hand(state, 3, mine)
    assert GAME.auto_action(state, 3) == {"type": "choose", "contract": "tricks"}


def evolve_hand(state: BarbuState, seat: int, hand: list[str]) -> BarbuState:
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    return replace(state, hands=tuple(hands))


def test_without_the_option_the_json_form_has_no_choice() -> None:
    state = GAME.new(players=4, seed=1)
    assert "choice" not in GAME.to_json(state)
    assert GAME.from_json(GAME.to_json(state)) == state
    assert "choice" in GAME.to_json(GAME.new(players=4, options={"choice": True}, seed=1))
