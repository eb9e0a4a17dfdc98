"""Motton rules, on stacked decks (the motton section of the house text and DECISIONS.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tablee.cards import deck_52
from tablee.engine import IllegalAction, InvalidOptions, visible_events
from tablee.engine.secrecy import leaks
from tablee.games import get_game
from tablee.games.motton import ROUND_CARDS, MottonState, round_score

GAME = get_game("motton")

# The text's score table: row = cards in hand, column = tricks taken (0..cards).
TEXT_TABLE = {
    10: [10, 11, 14, 19, 26, 35, 46, 59, 74, 91, 110],
    9: [10, 12, 16, 22, 30, 40, 52, 66, 82, 100],
    8: [10, 13, 18, 25, 34, 45, 58, 73, 90],
    7: [10, 14, 20, 28, 38, 50, 64, 80],
    6: [10, 15, 22, 31, 42, 55, 70],
    5: [10, 16, 24, 34, 46, 60],
    4: [10, 17, 26, 37, 50],
    3: [10, 18, 28, 40],
    2: [10, 19, 30],
    1: [10, 20],
}


def stack(hands: Sequence[Sequence[str]], turned: str) -> list[str]:
    """The deck that deals ``hands`` (seat 0 first, 10 cards each) and turns up ``turned``."""
    n = len(hands)
    dealt = [hands[i % n][i // n] for i in range(10 * n)]
    rest = [c for c in deck_52() if c not in dealt and c != turned]
    return [*dealt, turned, *rest]


def new(
    hands: Sequence[Sequence[str]], turned: str, **options: Any
) -> MottonState:
    return GAME.new(players=len(hands), options=options, deck=stack(hands, turned))


def act(state: MottonState, seat: int, action: dict[str, Any]) -> tuple[MottonState, list]:
    return GAME.apply(state, seat, action)


def bids(state: MottonState, *values: int) -> MottonState:
    for v in values:
        state, _ = act(state, state.turn, {"type": "bid", "value": v})
    return state


def play_out(state: MottonState) -> tuple[MottonState, list[dict]]:
    """Play the round's cards with auto_action; bids must be in."""
    events: list[dict] = []
    while state.phase.value == "play":
        state, evs = act(state, state.turn, GAME.auto_action(state, state.turn))
        events += evs
    return state, events


SPADES = [r + "S" for r in "23456789TJQKA"]
HEARTS = [r + "H" for r in "23456789TJQKA"]
DIAMONDS = [r + "D" for r in "23456789TJQKA"]
# seat 0 holds the top spades and hearts: it takes every trick whatever it plays
STRONG = [SPADES[-5:] + HEARTS[-5:], SPADES[:5] + HEARTS[:5]]


@pytest.mark.parametrize("cards", sorted(TEXT_TABLE))
def test_score_formula_matches_the_text_table(cards: int) -> None:
    assert [round_score(cards, t) for t in range(cards + 1)] == TEXT_TABLE[cards]


def test_rounds_deal_ten_down_to_one_and_back_up() -> None:
    assert ROUND_CARDS == (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def test_stacked_deck_deals_one_card_at_a_time_then_turns_the_next() -> None:
    state = new(STRONG, "2C")
    assert sorted(state.hands[0]) == sorted(STRONG[0])
    assert sorted(state.hands[1]) == sorted(STRONG[1])
    assert state.turned == "2C" and GAME.view(state, 0)["trump"] == "C"
    assert len(state.stock) == 52 - 21 and state.dealer == 1 and state.turn == 0


def test_bidding_starts_after_the_dealer_and_allows_zero() -> None:
    state = GAME.new(players=3, seed=4)
    assert state.dealer == 2 and GAME.to_act(state) == (0,)
    assert [a["value"] for a in GAME.legal_actions(state, 0)] == list(range(11))
    state = bids(state, 0, 3, 10)
    assert state.phase.value == "play" and state.turn == 0
    view = GAME.view(state, 1)
    assert view["bids"] == [
        {"seat": 0, "value": 0},
        {"seat": 1, "value": 3},
        {"seat": 2, "value": 10},
    ]


def test_bid_out_of_range_or_out_of_turn_is_refused() -> None:
    state = new(STRONG, "2C")
    with pytest.raises(IllegalAction, match="from 0 to 10"):
        act(state, 0, {"type": "bid", "value": 11})
    with pytest.raises(IllegalAction) as err:
        act(state, 1, {"type": "bid", "value": 1})
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        act(state, 0, {"type": "bid", "value": True})
    assert err.value.code == "bad_action"


def _void_in_spades(turned: str) -> MottonState:
    hands = [SPADES[:10], [*DIAMONDS[:9], "AD"]]
    return bids(new(hands, turned), 1, 1)


def test_turned_card_gives_trump() -> None:
    state = _void_in_spades("QD")  # diamonds are trump: the void seat ruffs
    assert GAME.view(state, 0)["trump"] == "D"
    state, _ = act(state, 0, {"type": "play", "card": "2S"})
    state, _ = act(state, 1, {"type": "play", "card": "2D"})
    assert state.last_trick is not None and state.last_trick.winner == 1


def test_king_turned_means_no_trump() -> None:
    state = _void_in_spades("KD")
    view = GAME.view(state, 0)
    assert view["turned"] == "KD" and view["trump"] is None
    state, _ = act(state, 0, {"type": "play", "card": "2S"})
    state, _ = act(state, 1, {"type": "play", "card": "AD"})  # a diamond is only a discard
    assert state.last_trick is not None and state.last_trick.winner == 0


def test_must_follow_suit_else_play_anything() -> None:
    hands = [SPADES[:5] + HEARTS[:5], SPADES[5:10] + DIAMONDS[:5]]
    state = bids(new(hands, "2C"), 0, 0)
    state, _ = act(state, 0, {"type": "play", "card": "2H"})
    # seat 1 has no heart: anything goes, spades or diamonds
    assert {a["card"] for a in GAME.legal_actions(state, 1)} == set(hands[1])
    state, _ = act(state, 1, {"type": "play", "card": "2D"})
    assert state.turn == 0  # the led heart holds the trick
    state, _ = act(state, 0, {"type": "play", "card": "2S"})
    with pytest.raises(IllegalAction, match="you must follow spades"):
        act(state, 1, {"type": "play", "card": "3D"})


def test_exact_bids_score_by_the_formula() -> None:
    state = bids(new(STRONG, "2C"), 10, 0)
    state, events = play_out(state)
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["tricks"] == [10, 0] and end["scores"] == [110, 10] and not end["replayed"]
    assert state.scores == (110, 10)
    # the round's first leader (seat 0) deals the next one, of 9 cards
    assert state.phase.value == "deal" and state.dealer == 0 and state.round == 1
    state, events = act(state, 0, {"type": "deal"})
    assert events[0] == {"type": "deal", "seat": 0, "deal": 2, "cards": 9, "replay": 0}
    assert [len(h) for h in state.hands] == [9, 9] and state.turn == 1


def test_missed_bid_scores_nothing() -> None:
    state = bids(new(STRONG, "2C"), 10, 3)
    state, events = play_out(state)
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["scores"] == [110, 0]


def test_round_nobody_makes_is_replayed_same_cards_same_dealer_new_deal() -> None:
    state = bids(new(STRONG, "2C"), 5, 5)
    first_hands = state.hands
    state, events = play_out(state)
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["tricks"] == [10, 0] and end["replayed"] and end["scores"] == [0, 0]
    assert state.phase.value == "deal" and state.round == 0 and state.dealer == 1
    assert state.scores == (0, 0) and state.sheet == ()
    state, events = act(state, 1, {"type": "deal"})
    assert events[0] == {"type": "deal", "seat": 1, "deal": 1, "cards": 10, "replay": 1}
    assert [len(h) for h in state.hands] == [10, 10] and state.hands != first_hands
    assert GAME.to_act(state) == (0,)
    # a second failure is dealt from yet another salt
    second_hands = state.hands
    state = bids(state, 10, 10)
    state, _ = play_out(state)
    state, _ = act(state, 1, {"type": "deal"})
    assert state.replay == 2 and state.hands not in (first_hands, second_hands)


def test_constrained_last_bidder_cannot_make_the_bids_add_up() -> None:
    state = GAME.new(players=3, options={"constrained": True}, seed=9)
    state = bids(state, 3, 4)
    assert GAME.view(state, 0)["forbidden_bid"] == 3
    assert 3 not in [a["value"] for a in GAME.legal_actions(state, 2)]
    with pytest.raises(IllegalAction, match="add up to the 10 cards"):
        act(state, 2, {"type": "bid", "value": 3})
    assert GAME.auto_action(state, 2)["value"] != 3
    state = bids(state, 2)
    assert state.phase.value == "play"


def test_constrained_is_silent_when_the_bids_already_exceed_the_cards() -> None:
    state = GAME.new(players=3, options={"constrained": True}, seed=9)
    state = bids(state, 6, 6)
    assert GAME.view(state, 2)["forbidden_bid"] is None
    assert len(GAME.legal_actions(state, 2)) == 11


def test_without_constraint_every_bid_is_allowed() -> None:
    state = bids(GAME.new(players=3, seed=9), 3, 4)
    assert [a["value"] for a in GAME.legal_actions(state, 2)] == list(range(11))


def test_blind_bidding_hides_the_turned_card_until_bids_are_in() -> None:
    deck = stack([SPADES[:10], HEARTS[:10]], "5D")
    state = GAME.new(players=2, options={"blind": True}, deck=deck)
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["turned"] is None and view["trump"] is None and view["turned_hidden"]
        assert "5D" in GAME.hidden(state, seat)
        assert not leaks(view, {"5D"})
    state, events = act(state, 0, {"type": "bid", "value": 2})
    assert not leaks(GAME.view(state, 1), {"5D"}) and not leaks(events, {"5D"})
    state, events = act(state, 1, {"type": "bid", "value": 3})
    assert {"type": "turn_up", "seat": 1, "card": "5D", "trump": "D"} in visible_events(events, 0)
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["turned"] == "5D" and view["trump"] == "D" and not view["turned_hidden"]
        assert "5D" not in GAME.hidden(state, seat)


def test_blind_auto_bid_does_not_use_the_hidden_card() -> None:
    hands = [SPADES[:10], HEARTS[:10]]
    a = GAME.new(players=2, options={"blind": True}, deck=stack(hands, "QS"))  # all trumps
    b = GAME.new(players=2, options={"blind": True}, deck=stack(hands, "KC"))  # no trump
    assert GAME.auto_action(a, 0) == GAME.auto_action(b, 0)
    seen = GAME.new(players=2, deck=stack(hands, "QS"))
    assert GAME.auto_action(seen, 0) != GAME.auto_action(a, 0)


def test_without_blind_the_turn_up_is_shown_at_the_deal() -> None:
    state = GAME.new(players=2, seed=5)
    view = GAME.view(state, None)
    assert view["turned"] == state.turned and not view["turned_hidden"]


def test_match_is_twenty_rounds_highest_total_wins() -> None:
    state = GAME.new(players=4, seed=2)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, _ = act(state, seat, GAME.auto_action(state, seat))
    sheet = GAME.view(state, 0)["sheet"]
    assert [row["cards"] for row in sheet] == list(ROUND_CARDS)
    assert [row["dealer"] for row in sheet] == [(3 + r) % 4 for r in range(20)]
    totals = [sum(row["scores"][s] for row in sheet) for s in range(4)]
    assert list(state.scores) == totals
    for row in sheet:
        for s in range(4):
            made = row["bids"][s] == row["tricks"][s]
            assert row["scores"][s] == (round_score(row["cards"], row["tricks"][s]) if made else 0)
    out = GAME.outcome(state)
    assert out is not None and out["winners"] == [s for s in range(4) if totals[s] == max(totals)]


def test_auto_bid_counts_sure_tricks() -> None:
    strong = GAME.new(players=2, deck=stack(STRONG, "2C"))
    assert GAME.auto_action(strong, 0)["value"] >= 8
    weak = bids(strong, 10)
    assert GAME.auto_action(weak, 1)["value"] <= 1


def test_auto_play_ducks_once_the_bid_is_made() -> None:
    hands = [["9S", *HEARTS[:9]], ["8S", "TS", "2S", *DIAMONDS[:7]]]
    state = bids(new(hands, "2C"), 0, 0)
    state, _ = act(state, 0, {"type": "play", "card": "9S"})
    assert GAME.auto_action(state, 1) == {"type": "play", "card": "8S"}


def test_auto_play_takes_a_trick_it_still_needs() -> None:
    hands = [["9S", *HEARTS[:9]], ["8S", "TS", "AS", *DIAMONDS[:7]]]
    state = bids(new(hands, "2C"), 0, 1)
    state, _ = act(state, 0, {"type": "play", "card": "9S"})
    # last to play and a trick short: the cheapest winner
    assert GAME.auto_action(state, 1) == {"type": "play", "card": "TS"}


def test_options_and_deck_are_checked() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new(players=2, options={"blind": "yes"})
    with pytest.raises(InvalidOptions, match="deck"):
        GAME.new(players=2, deck=deck_52()[:-1])
    with pytest.raises(InvalidOptions):
        GAME.new(players=6)


def test_auto_action_is_only_for_the_seat_on_turn() -> None:
    state = GAME.new(players=3, seed=1)
    with pytest.raises(IllegalAction) as err:
        GAME.auto_action(state, 2)
    assert err.value.code == "not_your_turn"
