"""The shared trick-taking helpers, on belote's rules (trump hearts unless said otherwise)."""

from __future__ import annotations

from collections.abc import Sequence

from tablee.cards import deck_32
from tablee.games._tricks import (
    BELOTE_PLAIN_ORDER,
    BELOTE_TRUMP_ORDER,
    belote_points,
    french_suit,
    order_power,
    playable,
    refusal,
    winner,
)


def cards(text: str) -> list[str]:
    return text.split()


PLAIN = order_power(BELOTE_PLAIN_ORDER)
TRUMP = order_power(BELOTE_TRUMP_ORDER)
RULES = {"must_trump": True, "must_overtrump": True, "overtrump_when_free": True}


def legal(hand: str, trick: str, *, partner_master: bool = False, trump: str = "H") -> set[str]:
    return set(
        playable(
            hand.split(),
            trick.split(),
            french_suit,
            trump,
            TRUMP,
            partner_master=partner_master,
            **RULES,
        )
    )


def why(card: str, hand: str, trick: str, *, partner_master: bool = False) -> str | None:
    return refusal(
        card,
        hand.split(),
        trick.split(),
        french_suit,
        "H",
        TRUMP,
        partner_master=partner_master,
        **RULES,
    )


def win(trick: Sequence[str], trump: str | None = "H") -> str:
    return trick[winner(trick, french_suit, trump, PLAIN, TRUMP)]


# -- orders and points ---------------------------------------------------------------------------


def test_trump_order_is_j_9_a_t_k_q_8_7() -> None:
    order = ["JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H"]
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert win([low, high]) == high
            assert win([high, low]) == high


def test_plain_order_is_a_t_k_q_j_9_8_7() -> None:
    order = ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"]
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert win([low, high]) == high


def test_smallest_trump_beats_the_ace_of_the_led_suit() -> None:
    assert win(["AS", "7H", "TS", "KS"]) == "7H"


def test_a_discard_of_another_plain_suit_never_wins() -> None:
    assert win(["7S", "AD", "AC", "8S"]) == "8S"


def test_without_trump_the_highest_card_of_the_led_suit_wins() -> None:
    assert win(["9S", "JS", "AH", "7S"], trump=None) == "JS"


def test_card_points_trump_j20_9_14_and_plain_values() -> None:
    assert [belote_points(c + "H", "H") for c in "J9ATKQ87"] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [belote_points(c + "S", "H") for c in "ATKQJ987"] == [11, 10, 4, 3, 2, 0, 0, 0]


def test_the_32_cards_total_152_points_whatever_the_trump() -> None:
    for trump in "SHDC":
        assert sum(belote_points(c, trump) for c in deck_32()) == 152


# -- a plain suit led ----------------------------------------------------------------------------


def test_plain_lead_you_must_follow_suit_even_holding_trumps() -> None:
    assert legal("7S KS JH AD", "AS") == {"7S", "KS"}
    assert why("JH", "7S KS JH AD", "AS") == "you must follow spades"


def test_plain_lead_follow_suit_even_when_your_partner_is_master() -> None:
    assert legal("7S KS JH AD", "AS 8S", partner_master=True) == {"7S", "KS"}


def test_plain_lead_void_and_opponent_master_you_must_trump() -> None:
    assert legal("7H KH AD 8C", "AS") == {"7H", "KH"}
    assert why("AD", "7H KH AD 8C", "AS") == "you must trump"


def test_plain_lead_void_and_opponent_trumped_you_must_overtrump() -> None:
    assert legal("7H AH AD 8C", "AS TH") == {"AH"}
    assert why("7H", "7H AH AD 8C", "AS TH") == "you must overtrump"


def test_plain_lead_void_and_unable_to_overtrump_you_must_undertrump() -> None:
    assert legal("7H 8H AD 8C", "AS 9H") == {"7H", "8H"}
    assert why("AD", "7H 8H AD 8C", "AS 9H") == "you must trump"


def test_plain_lead_void_without_trump_you_may_play_any_card() -> None:
    assert legal("AD 8C 7D", "AS TH") == {"AD", "8C", "7D"}


def test_plain_lead_partner_master_you_may_discard_any_card() -> None:
    assert legal("7H KH AD 8C", "AS 8S", partner_master=True) == {"7H", "KH", "AD", "8C"}


def test_partner_master_with_a_trump_choosing_to_trump_you_must_overtrump() -> None:
    # the partner trumped with the 10: a discard is free, a trump must go over the 10
    assert legal("7H AH 9H AD 8C", "AS TH", partner_master=True) == {"AH", "9H", "AD", "8C"}
    assert why("7H", "7H AH 9H AD 8C", "AS TH", partner_master=True) == (
        "your partner holds the trick: you may discard, but a trump must overtrump"
    )


def test_partner_master_unable_to_overtrump_you_may_undertrump_or_discard() -> None:
    assert legal("7H 8H AD", "AS JH", partner_master=True) == {"7H", "8H", "AD"}


def test_partner_master_holding_only_lower_trumps_you_may_play_any() -> None:
    assert legal("7H 8H", "AS JH", partner_master=True) == {"7H", "8H"}


# -- trump led -----------------------------------------------------------------------------------


def test_trump_lead_you_must_overtrump_when_you_can() -> None:
    assert legal("7H 9H AH AS", "TH") == {"9H", "AH"}
    assert why("7H", "7H 9H AH AS", "TH") == "you must play a higher trump"
    assert why("AS", "7H 9H AH AS", "TH") == "you must follow hearts"


def test_trump_lead_overtrump_the_best_trump_not_the_first() -> None:
    assert legal("AH TH 7H", "8H 9H") == {"AH", "TH", "7H"}  # nothing beats the 9: any trump
    assert legal("JH TH 7H", "8H 9H") == {"JH"}


def test_trump_lead_unable_to_overtrump_any_trump() -> None:
    assert legal("7H 8H AS", "JH") == {"7H", "8H"}


def test_trump_lead_void_in_trump_any_card() -> None:
    assert legal("AS 7D KC", "JH") == {"AS", "7D", "KC"}


def test_trump_lead_you_must_overtrump_even_your_partner() -> None:
    assert legal("7H AH KS", "TH 8H", partner_master=True) == {"AH"}


# -- what the other games rely on ----------------------------------------------------------------


def test_without_overtrump_when_free_a_master_partner_frees_every_card() -> None:
    allowed = playable(
        cards("7H AH AD"),
        ["AS", "TH"],
        french_suit,
        "H",
        TRUMP,
        must_trump=True,
        must_overtrump=True,
        partner_master=True,
    )
    assert set(allowed) == {"7H", "AH", "AD"}


def test_a_lead_is_always_free() -> None:
    assert legal("7H AS KD", "") == {"7H", "AS", "KD"}
    assert why("ZZ", "7H AS", "AS") == "you do not hold ZZ"
