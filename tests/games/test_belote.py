"""Belote rules on stacked decks (seat 3 deals the first deal, seat 0 speaks and leads first)."""

from __future__ import annotations

from typing import Any

import pytest

from tablee.cards import deck_32
from tablee.engine import IllegalAction, InvalidOptions
from tablee.engine.secrecy import leaks
from tablee.engine.state import evolve
from tablee.games._belote_common import (
    BeloteState,
    Contract,
    Phase,
    Tally,
    annonces,
    sort_hand,
)
from tablee.games.belote import GAME, deal_scores, stacked_deck


def cards(text: str) -> list[str]:
    return text.split()


# seat 0 takes hearts (the turned 10); seat 2 holds the belote (KH QH); seat 3 has no heart
OBLIGATIONS = [
    cards("AH TH AS KS QS AD KD 7C"),
    cards("7H 8H TS 9S 8S TD 9D 8C"),
    cards("JH 9H KH QH 7S QD 8D 9C"),
    cards("JS AC TC KC QC JC JD 7D"),
]
ALL_TRUMPS = [
    cards("JH 9H AH TH KH QH 8H 7H"),
    cards("AS TS KS QS JS 9S 8S 7S"),
    cards("AD TD KD QD JD 9D 8D 7D"),
    cards("AC TC KC QC JC 9C 8C 7C"),
]

# Found by playing seeded deals (seat 0 taking, then every seat's timeout move), kept as
# stacked decks and card-by-card plays. The takers' 71 + belote 20 = the defenders' 91.
TIE_WITH_BELOTE_DECK = cards(
    "JD TD AS AD QC 8C KH QH 9S TH AC TC 7S 9D KS QS 7H 8D JS TS 9H 8H 8S JH 7C QD KC KD 9C AH "
    "JC 7D"
)
TIE_WITH_BELOTE_PLAYS = cards(
    "7S QS 9S JS 7C 9C JC 8H 8S KS 7H TS 8D 7D 9D QD 8C KC TC 9H JD AD KD TH AC TD QC QH KH AH "
    "AS JH"
)


# 81 - 81 without belote (trump diamonds)
TIE_DECK = cards(
    "AC 9C 8H JC 7S AD QC QH JS QD 9D QS 7H TD KS TS 9S 8S TH KH 8D TC KD JD 7C 8C 9H AS AH KC "
    "7D JH"
)
TIE_PLAYS = cards(
    "7H AD 9H JH 7S 8S QS 8D 8H JD QH KH 7C QC KC TC 9C JC 9S 7D QD KD 8C JS TD KS AS 9D TH AC "
    "TS AH"
)
# the takers make 20 + their belote 20 against 142
FAILED_DECK = cards(
    "TS KH QS 7S AH JC KC KS QC 8C 8H AS JS QH 8S JH TD 7C 9S AD 7H JD QD 9H 9C TC 9D KD 8D TH "
    "AC 7D"
)
FAILED_PLAYS = cards(
    "7H AH 7C 8H 7S KS AS JS 7D JD 9H 8D 8S 9D 9S QS QD JH KD AD 9C QC AC QH KH JC KC TH 8C TS "
    "TC TD"
)


def act(state: BeloteState, seat: int, action: dict[str, Any]) -> BeloteState:
    new, _ = GAME.apply(state, seat, action)
    return new


def play(state: BeloteState, *cards: str) -> tuple[BeloteState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for card in cards:
        state, ev = GAME.apply(state, state.turn, {"type": "play", "card": card})
        events += ev
    return state, events


def auto_to_end(state: BeloteState) -> tuple[BeloteState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    while state.phase is Phase.PLAY:
        seat = GAME.to_act(state)[0]
        state, ev = GAME.apply(state, seat, GAME.auto_action(state, seat))
        events += ev
    return state, events


def legal_cards(state: BeloteState, seat: int) -> set[str]:
    return {a["card"] for a in GAME.legal_actions(state, seat)}


def refused(state: BeloteState, seat: int, action: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, action)
    return err.value


def obligations_game() -> BeloteState:
    state = GAME.new(4, deck=stacked_deck(OBLIGATIONS, turned="TH", taker=0))
    return act(state, 0, {"type": "take"})


# -- dealing and bidding -------------------------------------------------------------------------


def test_deal_packets_of_3_then_2_from_the_seat_after_the_dealer_then_the_turned_card() -> None:
    deck = deck_32()
    state = GAME.new(4, deck=deck)
    assert state.dealer == 3
    assert state.hands[0] == (*deck[0:3], *deck[12:14])
    assert state.hands[3] == (*deck[9:12], *deck[18:20])
    assert state.turned == deck[20]
    assert GAME.view(state, 1)["turned"] == deck[20]


def test_seat_after_the_dealer_speaks_first_and_leads_first() -> None:
    state = GAME.new(4, seed=1)
    assert GAME.to_act(state) == (0,)
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}, {"type": "take"}]
    assert GAME.legal_actions(state, 1) == []
    assert refused(state, 1, {"type": "pass"}).code == "not_your_turn"
    state = obligations_game()
    assert state.phase is Phase.PLAY and GAME.to_act(state) == (0,)


def test_taker_gets_the_turned_card_and_2_others_3_in_turn() -> None:
    deck = deck_32()
    state = act(act(GAME.new(4, deck=deck), 0, {"type": "pass"}), 1, {"type": "take"})
    assert state.contract == Contract(taker=1, trump=deck[20][1])
    assert state.hands[0][5:] == tuple(deck[21:24])
    assert state.hands[1][5:] == (deck[20], *deck[24:26])
    assert state.hands[2][5:] == tuple(deck[26:29])
    assert state.hands[3][5:] == tuple(deck[29:32])
    assert all(len(h) == 8 for h in state.hands)


def test_first_round_takes_the_turned_suit_without_naming_it() -> None:
    state = GAME.new(4, deck=deck_32())
    assert refused(state, 0, {"type": "take", "suit": "S"}).code == "bad_action"
    state = act(state, 0, {"type": "take"})
    assert state.contract is not None and state.contract.trump == deck_32()[20][1]


def test_second_round_names_another_suit_than_the_turned_one() -> None:
    state = GAME.new(4, deck=deck_32())  # turned: the 21st card, JD
    turned_suit = state.turned[1]  # type: ignore[index]
    for seat in range(4):
        state = act(state, seat, {"type": "pass"})
    assert state.round == 2 and GAME.to_act(state) == (0,)
    takes = [a for a in GAME.legal_actions(state, 0) if a["type"] == "take"]
    assert {a["suit"] for a in takes} == {"S", "H", "D", "C"} - {turned_suit}
    err = refused(state, 0, {"type": "take", "suit": turned_suit})
    assert "another suit" in err.reason
    assert refused(state, 0, {"type": "take"}).code == "bad_action"
    state = act(state, 0, {"type": "take", "suit": "S" if turned_suit != "S" else "H"})
    assert state.phase is Phase.PLAY


def test_all_pass_twice_cancels_the_deal_and_the_next_dealer_deals() -> None:
    state = GAME.new(4, deck=deck_32())
    for i in range(8):
        state, events = GAME.apply(state, i % 4, {"type": "pass"})
    assert {"type": "redeal", "seat": 0} in events
    assert state.dealer == 0 and state.deal == 2 and state.phase is Phase.BIDDING
    assert GAME.to_act(state) == (1,)
    assert state.hands != GAME.new(4, deck=deck_32()).hands
    assert GAME.view(state, None)["sheet"][0]["cancelled"] is True
    assert not GAME.is_over(state)


# -- the play of the cards -----------------------------------------------------------------------


def test_plain_lead_must_follow_suit_in_play() -> None:
    state = obligations_game()
    state, _ = play(state, "7C", "8C", "9C")
    assert legal_cards(state, 3) == {"AC", "TC", "KC", "QC", "JC"}
    assert refused(state, 3, {"type": "play", "card": "JS"}).reason == "you must follow clubs"


def test_plain_lead_void_opponent_master_must_trump_in_play() -> None:
    state, _ = play(obligations_game(), "7C", "8C", "9C", "AC")
    assert state.turn == 3  # seat 3 won the trick with the ace and leads
    state, _ = play(state, "KC")
    assert legal_cards(state, 0) == {"AH", "TH"}
    assert refused(state, 0, {"type": "play", "card": "AS"}).reason == "you must trump"


def test_plain_lead_void_unable_to_overtrump_must_undertrump_in_play() -> None:
    state, _ = play(obligations_game(), "7C", "8C", "9C", "AC", "KC", "TH")
    assert legal_cards(state, 1) == {"7H", "8H"}
    assert refused(state, 1, {"type": "play", "card": "TS"}).reason == "you must trump"


def test_partner_master_you_may_discard_but_a_trump_must_overtrump_in_play() -> None:
    state, _ = play(obligations_game(), "7C", "8C", "9C", "AC", "KC", "TH", "8H")
    # seat 0 (the partner) holds the trick with the 10 of trump
    assert legal_cards(state, 2) == {"7S", "QD", "8D", "JH", "9H"}
    err = refused(state, 2, {"type": "play", "card": "KH"})
    assert err.reason == "your partner holds the trick: you may discard, but a trump must overtrump"
    state, events = play(state, "7S")
    assert events[-1]["type"] == "trick" and events[-1]["seat"] == 0
    assert GAME.view(state, 2)["last_trick"]["winner"] == 0


def test_trump_lead_must_overtrump_in_play() -> None:
    state, _ = play(obligations_game(), "7C", "8C", "9C", "AC", "KC", "TH", "8H", "7S")
    state, _ = play(state, "AH", "7H")  # seat 1 cannot beat the ace: its last trump
    assert legal_cards(state, 2) == {"JH", "9H"}
    assert refused(state, 2, {"type": "play", "card": "KH"}).reason == (
        "you must play a higher trump"
    )


def test_a_card_not_in_hand_or_off_the_deck_is_refused() -> None:
    state = obligations_game()
    assert refused(state, 0, {"type": "play", "card": "7H"}).reason == "you do not hold 7H"
    assert refused(state, 0, {"type": "play", "card": "1H"}).code == "bad_action"
    assert refused(state, 0, {"type": "play"}).code == "bad_action"
    assert refused(state, 1, {"type": "play", "card": "7H"}).code == "not_your_turn"


# -- belote, dix de der, capot, made and failed ----------------------------------------------------


def test_belote_and_rebelote_count_20_when_k_and_q_fall_in_different_tricks() -> None:
    state, events = auto_to_end(obligations_game())
    kinds = [(e["type"], e["seat"]) for e in events if e["type"] in ("belote", "rebelote")]
    assert kinds == [("belote", 2), ("rebelote", 2)]
    trick_of = {c: i for i, t in enumerate(state.tricks) for c in t.cards}
    assert trick_of["KH"] != trick_of["QH"]
    assert state.sheet[-1].belote == (20, 0)
    view = GAME.view(state, 1)
    assert view["belote"] == [{"seat": 2, "type": "belote"}, {"seat": 2, "type": "rebelote"}]


def test_no_belote_when_the_k_and_q_of_trump_are_in_two_hands() -> None:
    hands = [h[:] for h in OBLIGATIONS]
    hands[2][3], hands[1][7] = "8C", "QH"  # seat 1 gets the QH, seat 2 keeps the KH
    state = act(GAME.new(4, deck=stacked_deck(hands, "TH", 0)), 0, {"type": "take"})
    state, events = auto_to_end(state)
    assert not [e for e in events if e["type"] in ("belote", "rebelote")]
    assert state.sheet[-1].belote == (0, 0)


def test_last_trick_counts_10_and_a_deal_totals_162() -> None:
    state, _ = auto_to_end(obligations_game())
    row = state.sheet[-1]
    assert row.capot is None and sum(row.card_points) == 162


def test_capot_counts_252() -> None:
    state = act(GAME.new(4, deck=stacked_deck(ALL_TRUMPS, "7H", 0)), 0, {"type": "take"})
    state, _ = auto_to_end(state)
    row = state.sheet[-1]
    assert row.capot == 0 and row.card_points == (252, 0) and row.belote == (20, 0)
    assert row.made and row.scores == (272, 0)


def test_tie_is_made_au_moins_each_team_scores_its_own_total() -> None:
    state = act(GAME.new(4, deck=TIE_DECK), 0, {"type": "take"})
    state, _ = play(state, *TIE_PLAYS)
    row = state.sheet[-1]
    assert row.card_points == (81, 81) and row.made is True and row.scores == (81, 81)
    assert GAME.outcome(state)["winners"] == [0, 2]  # type: ignore[index]


def test_tie_counting_the_takers_belote_is_made() -> None:
    state = act(GAME.new(4, deck=TIE_WITH_BELOTE_DECK), 0, {"type": "take"})
    state, _ = play(state, *TIE_WITH_BELOTE_PLAYS)
    row = state.sheet[-1]
    assert row.card_points == (71, 91) and row.belote == (20, 0)
    assert row.made is True and row.scores == (91, 91)


def test_failed_dedans_takers_0_defenders_162_plus_every_belote() -> None:
    state = act(GAME.new(4, deck=FAILED_DECK), 0, {"type": "take"})
    state, _ = play(state, *FAILED_PLAYS)
    row = state.sheet[-1]
    assert row.card_points == (20, 142) and row.belote == (20, 0)
    assert row.made is False and row.scores == (0, 182)
    out = GAME.outcome(state)
    assert out is not None and out["winners"] == [1, 3] and out["scores"] == [0, 182, 0, 182]


def test_failed_against_a_defenders_capot_gives_them_252_plus_every_belote() -> None:
    t = Tally((0, 252), (20, 20), capot=1, tricks_by_seat=(0, 4, 0, 4))
    assert deal_scores(Contract(taker=0, trump="H"), t) == ((0, 292), False)


def test_made_each_team_scores_its_own_points_and_belote() -> None:
    t = Tally((100, 62), (0, 20), capot=None, tricks_by_seat=(3, 1, 2, 2))
    assert deal_scores(Contract(taker=2, trump="S"), t) == ((100, 82), True)


def test_the_defenders_belote_counts_against_the_takers() -> None:
    t = Tally((90, 72), (0, 20), capot=None, tricks_by_seat=(3, 1, 2, 2))
    assert deal_scores(Contract(taker=0, trump="S"), t) == ((0, 182), False)


# -- the match, views and timeouts -----------------------------------------------------------------


def test_single_deal_by_default_the_game_ends_after_the_first_deal_played() -> None:
    state, events = auto_to_end(obligations_game())
    assert GAME.is_over(state) and GAME.to_act(state) == ()
    assert events[-1]["type"] == "game_end"
    assert next(e for e in events if e["type"] == "deal_end")["scores"] == list(
        state.sheet[-1].scores
    )


def test_target_plays_deals_until_a_team_reaches_it_and_the_next_dealer_deals() -> None:
    state = GAME.new(4, options={"target": 300}, deck=stacked_deck(ALL_TRUMPS, "7H", 0))
    state, _ = auto_to_end(act(state, 0, {"type": "take"}))
    assert state.phase is Phase.DEAL_OVER and state.scores == (272, 0)
    assert GAME.to_act(state) == (0,) and GAME.legal_actions(state, 0) == [{"type": "deal"}]
    assert refused(state, 1, {"type": "deal"}).code == "not_your_turn"
    assert GAME.view(state, 1)["last_trick"] is not None
    state = act(state, 0, {"type": "deal"})
    assert state.dealer == 0 and state.deal == 2 and GAME.to_act(state) == (1,)
    for _ in range(5000):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        state = act(state, seat, GAME.auto_action(state, seat))
    assert GAME.is_over(state)
    a, b = state.scores
    assert max(a, b) >= 300 and a != b
    out = GAME.outcome(state)
    assert out is not None and out["winners"] == ([0, 2] if a > b else [1, 3])


def test_target_option_is_checked() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new(4, options={"target": 5})
    assert GAME.new(4, options={"target": None}).target is None


def test_view_shows_own_hand_and_turned_card_never_another_hand() -> None:
    state = obligations_game()
    view = GAME.view(state, 1)
    assert sorted(view["hand"]) == sorted(OBLIGATIONS[1])
    assert view["turned"] == "TH" and view["trump"] == "H" and view["counts"] == [8] * 4
    assert GAME.view(state, None)["hand"] is None
    assert GAME.hidden(state, 1) == frozenset(c for s in (0, 2, 3) for c in OBLIGATIONS[s]) - {"TH"}


def test_timeout_passes_a_weak_hand_and_takes_a_clearly_strong_one() -> None:
    state = GAME.new(4, deck=stacked_deck(OBLIGATIONS, "TH", 0))
    assert GAME.auto_action(state, 0) == {"type": "pass"}  # AH TH: no J, no 9
    strong = GAME.new(4, deck=stacked_deck(ALL_TRUMPS, "7H", 0))
    assert GAME.auto_action(strong, 0) == {"type": "take"}
    hands = [h[:] for h in ALL_TRUMPS]
    # J 9 and the turned 7 of trump, but no outside ace: not clearly strong
    hands[0][2:5], hands[2][1:4] = hands[2][1:4], hands[0][2:5]  # JH 9H TD KD QD + 7H
    assert GAME.auto_action(GAME.new(4, deck=stacked_deck(hands, "7H", 0)), 0) == {"type": "pass"}
    hands[0][2], hands[2][0] = hands[2][0], hands[0][2]  # JH 9H AD KD QD + 7H
    assert GAME.auto_action(GAME.new(4, deck=stacked_deck(hands, "7H", 0)), 0) == {"type": "take"}


def test_timeout_plays_the_cheapest_card_that_still_wins_else_the_cheapest() -> None:
    state, _ = play(obligations_game(), "7C", "8C", "9C")
    assert GAME.auto_action(state, 3) == {"type": "play", "card": "JC"}  # beats the 9 for 2
    state, _ = play(state, "AC", "KC")
    assert GAME.auto_action(state, 0) == {"type": "play", "card": "TH"}  # 10 < 11 points
    state, _ = play(state, "TH")
    assert GAME.auto_action(state, 1) == {"type": "play", "card": "7H"}  # cannot win: cheapest


def test_a_tie_at_or_over_the_target_plays_another_deal() -> None:
    state = GAME.new(4, options={"target": 300})
    assert not GAME._match_over(evolve(state, scores=(310, 310)))
    assert GAME._match_over(evolve(state, scores=(310, 300)))
    assert not GAME._match_over(evolve(state, scores=(290, 120)))


# -- annonces (option ``annonces``; DECISIONS.md, "Variants") -------------------------------------

# with OBLIGATIONS (hearts trump, taken by seat 0): seat 0 a tierce A K Q of spades, seat 1 a
# tierce T 9 8 of spades, seat 2 a tierce K Q J of hearts, seat 3 a cent A K Q J T of clubs


def annonces_game(**options: Any) -> BeloteState:
    deck = stacked_deck(OBLIGATIONS, turned="TH", taker=0)
    return act(GAME.new(4, {"annonces": True, **options}, deck=deck), 0, {"type": "take"})


def announce(state: BeloteState) -> tuple[BeloteState, list[dict[str, Any]]]:
    """The seat on turn announces what its hand holds (the legal action)."""
    action = GAME.legal_actions(state, state.turn)[0]
    assert action["type"] == "announce"
    return GAME.apply(state, state.turn, action)


def test_annonces_tierce_cinquante_cent_and_carres_a_card_in_a_carre_and_a_sequence() -> None:
    hand = cards("JH JS JD JC QH KH 9D 8D")
    found = {a.kind: (a.cards, a.points) for a in annonces.find(hand, 0)}
    assert found == {"carre_J": (("JS", "JH", "JD", "JC"), 200), "tierce": (("KH", "QH", "JH"), 20)}
    assert [a.kind for a in annonces.find(cards("AS KS QS JS TS 9S 8S 7S"), 1)] == ["cent"]
    # the 9 of diamonds is in the carré and in the cent
    assert [(a.kind, a.points) for a in annonces.find(cards("KD QD JD TD 9S 9H 9D 9C"), 1)] == [
        ("carre_9", 150),
        ("cent", 100),
    ]
    assert [(a.kind, a.points) for a in annonces.find(cards("KD QD JD TD 8S 9H 7D 9C"), 1)] == [
        ("cinquante", 50)
    ]
    # no carré of 8s or 7s; A K Q J T 9 8 7 is the natural order (a 9-8-7 is a tierce)
    assert [a.kind for a in annonces.find(cards("8S 8H 8D 8C 7S 7H 7D 9S"), 1)] == ["tierce"]
    assert annonces.find(cards("AS TS KS 9H 7D 8C QC JD"), 1) == ()


def test_annonces_announced_with_the_first_card_only_the_kind_is_public() -> None:
    state = annonces_game()
    assert GAME.legal_actions(state, 0)[0] == {"type": "announce", "kinds": ["tierce"]}
    assert refused(state, 0, {"type": "announce", "kinds": ["cent"]}).code == "bad_action"
    assert refused(state, 0, {"type": "announce"}).code == "bad_action"
    state, events = announce(state)
    assert events == [{"type": "announce", "seat": 0, "kinds": ["tierce"]}]
    # still seat 0's turn: its first card; announcing twice is refused
    assert state.turn == 0 and GAME.legal_actions(state, 0)[0]["type"] == "play"
    assert "first card" in refused(state, 0, {"type": "announce", "kinds": ["tierce"]}).reason
    view = GAME.view(state, 1)
    assert view["annonces"]["declared"] == [{"seat": 0, "kinds": ["tierce"]}]
    assert view["annonces"]["shown"] == [] and view["annonces"]["team"] is None
    # the cards of the tierce stay hidden from the others until shown
    assert {"AS", "KS", "QS"} <= GAME.hidden(state, 1)
    assert not leaks(view, GAME.hidden(state, 1))
    # playing the first card without announcing is passing: seat 1 plays at once
    state, _ = play(state, "AH")
    assert GAME.legal_actions(state, 1)[0] == {"type": "announce", "kinds": ["tierce"]}
    state, _ = play(state, "7H")
    assert GAME.legal_actions(state, 2)[0]["type"] == "announce"


def test_annonces_the_best_side_shows_and_scores_all_its_announcements_the_other_none() -> None:
    state = annonces_game()
    for card in ("AH", "7H", "JH", "JS"):  # every seat announces, then plays
        state, _ = announce(state)
        state, events = play(state, card)
    shown = next(e for e in events if e["type"] == "annonces_shown")
    # seat 3's cent is the best: its side shows the cent and seat 1's tierce
    assert shown["seat"] == 3 and shown["team"] == 1 and shown["points"] == 120
    assert [(a["seat"], a["kind"]) for a in shown["annonces"]] == [(1, "tierce"), (3, "cent")]
    view = GAME.view(state, 0)
    assert view["annonces"]["points"] == [0, 120]
    # the cards shown are public now; those of the other side's tierces never are
    assert not {"AC", "KC", "QC", "TC", "9S", "8S"} & GAME.hidden(state, 0)
    assert {"AC", "KC"} <= set(str(c) for a in view["annonces"]["shown"] for c in a["cards"])
    assert {"KH", "QH"} <= GAME.hidden(state, 1)
    state, _ = auto_to_end(state)
    row = GAME.view(state, None)["sheet"][-1]
    assert row["annonces"] == [0, 120]


def test_annonces_the_leak_check_knows_when_announced_cards_become_public() -> None:
    state = annonces_game()
    for card in ("AH", "7H", "JH"):
        state, _ = announce(state)
        state, _ = play(state, card)
    state, _ = announce(state)  # seat 3: its cent
    cent = ["AC", "KC", "QC", "TC"]  # JC still to play
    # announced, not shown: a view naming its cards leaks
    assert leaks({"peek": cent}, GAME.hidden(state, 0)) == set(cent)
    state, _ = play(state, "JS")
    # shown at the end of the first trick: naming them leaks nothing
    assert leaks({"peek": cent}, GAME.hidden(state, 0)) == set()


def test_annonces_best_carre_then_longer_then_higher_top_then_trump_then_first_announced() -> None:
    def best(hands: dict[int, str], trump: str = "H", order: tuple[int, ...] = (0, 1)) -> str:
        every = [a for s in order for a in annonces.find(cards(hands[s]), s)]
        top = max(every, key=lambda a: annonces.strength(a, trump, order))
        return f"{top.seat} {top.kind}"

    carre_q = "QS QH QD QC"
    assert best({0: "AS KS QS JS TS", 1: carre_q}) == "1 carre_Q"  # a carré beats a cent
    assert best({0: "9S 9H 9D 9C", 1: carre_q}) == "0 carre_9"  # carrés by value
    assert best({0: "AS TS KS QS 8D 7D", 1: "TD 9D 8D 7D"}, trump="C") == "1 cinquante"
    assert best({0: "KS QS JS", 1: "AD KD QD"}, trump="C") == "1 tierce"  # the higher top
    assert best({0: "KS QS JS", 1: "KD QD JD"}, trump="D") == "1 tierce"  # the trump sequence
    assert best({0: "KS QS JS", 1: "KD QD JD"}, trump="C", order=(1, 0)) == "1 tierce"
    assert best({0: "KS QS JS", 1: "KD QD JD"}, trump="C", order=(0, 1)) == "0 tierce"


def test_annonces_count_in_the_belote_total_and_a_failing_side_loses_them() -> None:
    takers = Contract(taker=0, trump="H")
    # 72 card points + a tierce = 92 against 90: made, each side its own
    made = Tally((72, 90), (0, 0), None, (2, 2, 2, 2), (20, 0))
    assert deal_scores(takers, made) == ((92, 90), True)
    # 70 + 20 against 92: failed, the defenders take 162 and the takers' tierce
    failed = Tally((70, 92), (0, 0), None, (2, 2, 2, 2), (20, 0))
    assert deal_scores(takers, failed) == ((0, 182), False)


def test_annonces_timeout_announces_and_without_the_option_nothing_changes() -> None:
    state = annonces_game()
    assert GAME.auto_action(state, 0) == {"type": "announce", "kinds": ["tierce"]}
    deck = stacked_deck(OBLIGATIONS, turned="TH", taker=0)
    plain = act(GAME.new(4, deck=deck), 0, {"type": "take"})
    assert all(a["type"] == "play" for a in GAME.legal_actions(plain, 0))
    assert "variants" not in GAME.to_json(plain) and "annonces" not in GAME.view(plain, 0)
    assert GAME.from_json(GAME.to_json(plain)) == plain


@pytest.mark.parametrize(
    ("trump", "sorted_hand"),
    [
        # the trump's suit first, from the jack; the others in spades, hearts, diamonds,
        # clubs order, from the ace
        ("H", ["JH", "9H", "QH", "7H", "AS", "TS", "KD", "JC"]),
        ("C", ["JC", "AS", "TS", "QH", "JH", "9H", "7H", "KD"]),
        # sans-atout: every suit in the plain order; tout-atout: in the trump order
        ("SA", ["AS", "TS", "QH", "JH", "9H", "7H", "KD", "JC"]),
        ("TA", ["AS", "TS", "JH", "9H", "QH", "7H", "KD", "JC"]),
        # before the contract: by suit, the plain order
        (None, ["AS", "TS", "QH", "JH", "9H", "7H", "KD", "JC"]),
    ],
)
def test_a_seats_hand_is_shown_by_suit_trump_first_strongest_first(
    trump: str | None, sorted_hand: list[str]
) -> None:
    hand = ["7H", "JC", "AS", "KD", "9H", "TS", "QH", "JH"]
    assert sort_hand(hand, trump) == sorted_hand
    assert sort_hand(list(reversed(hand)), trump) == sorted_hand
