"""Contrée rules on stacked decks (seat 3 deals the first deal, seat 0 speaks and leads first).
The play of the cards is belote's (``test_belote.py``, ``test_tricks.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tablee.cards import deck_32
from tablee.engine import IllegalAction
from tablee.games._belote_common import BeloteState, Contract, Phase, Tally
from tablee.games.contree import BID_VALUES, GAME, deal_scores, stacked_deck


def cards(text: str) -> list[str]:
    return text.split()


ALL_TRUMPS = [
    cards("JH 9H AH TH KH QH 8H 7H"),
    cards("AS TS KS QS JS 9S 8S 7S"),
    cards("AD TD KD QD JD 9D 8D 7D"),
    cards("AC TC KC QC JC 9C 8C 7C"),
]
# seat 1, a defender, holds every heart
DEFENDER_TRUMPS = [ALL_TRUMPS[1], ALL_TRUMPS[0], ALL_TRUMPS[2], ALL_TRUMPS[3]]

PASS = {"type": "pass"}


def bid(value: int, suit: str) -> dict[str, Any]:
    return {"type": "bid", "value": value, "suit": suit}


def act(state: BeloteState, seat: int, *actions: dict[str, Any]) -> BeloteState:
    for action in actions:
        state, _ = GAME.apply(state, seat, action)
        seat = (seat + 1) % 4
    return state


def refused(state: BeloteState, seat: int, action: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, action)
    return err.value


def auto_to_end_of_deal(state: BeloteState) -> BeloteState:
    while state.phase not in (Phase.DEAL_OVER, Phase.OVER):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.auto_action(state, seat))
    return state


def tally(points: tuple[int, int], belote: tuple[int, int] = (0, 0), **kw: Any) -> Tally:
    return Tally(points, belote, kw.get("capot"), kw.get("tricks", (2, 2, 2, 2)))


# -- dealing -------------------------------------------------------------------------------------


def test_deal_packets_of_3_2_3_from_the_seat_after_the_dealer_no_turned_card() -> None:
    deck = deck_32()
    state = GAME.new(4, deck=deck)
    assert state.dealer == 3 and state.turned is None and not state.stock
    assert state.hands[0] == (*deck[0:3], *deck[12:14], *deck[20:23])
    assert state.hands[3] == (*deck[9:12], *deck[18:20], *deck[29:32])
    assert stacked_deck(ALL_TRUMPS)[:3] == ["JH", "9H", "AH"]
    assert GAME.new(4, deck=stacked_deck(ALL_TRUMPS)).hands[2] == tuple(ALL_TRUMPS[2])


# -- bidding -------------------------------------------------------------------------------------


def test_bids_run_80_to_160_then_capot_250_then_generale_500_with_a_suit() -> None:
    state = GAME.new(4, seed=2)
    legal = GAME.legal_actions(state, 0)
    assert legal[0] == PASS and len(legal) == 1 + 11 * 4
    assert BID_VALUES == (80, 90, 100, 110, 120, 130, 140, 150, 160, 250, 500)
    assert {a["value"] for a in legal[1:]} == set(BID_VALUES)


def test_a_bid_must_be_higher_than_the_last() -> None:
    state = act(GAME.new(4, seed=2), 0, bid(100, "S"))
    values = {a["value"] for a in GAME.legal_actions(state, 1) if a["type"] == "bid"}
    assert min(values) == 110
    assert refused(state, 1, bid(100, "H")).reason == "you must bid higher than 100"
    assert refused(state, 1, bid(85, "H")).code == "bad_action"
    assert refused(state, 1, bid(True, "H")).code == "bad_action"  # type: ignore[arg-type]
    # a JSON client may send 110.0: the bid values are whole numbers, refused, never a crash
    assert refused(state, 1, bid(110.0, "H")).code == "bad_action"  # type: ignore[arg-type]
    assert refused(state, 1, bid(110, "X")).code == "bad_action"
    assert refused(state, 2, bid(110, "H")).code == "not_your_turn"


def test_a_team_may_outbid_itself_and_generale_cannot_be_outbid() -> None:
    state = act(GAME.new(4, seed=2), 0, bid(80, "S"), PASS, bid(90, "S"), PASS, bid(500, "H"))
    assert state.contract == Contract(taker=0, trump="H", value=500)
    assert [a for a in GAME.legal_actions(state, 1) if a["type"] == "bid"] == []


def test_three_passes_after_a_bid_end_the_bidding_and_the_seat_after_the_dealer_leads() -> None:
    state = act(GAME.new(4, seed=2), 0, PASS, bid(80, "S"), PASS, PASS, PASS)
    assert state.phase is Phase.PLAY
    assert state.contract == Contract(taker=1, trump="S", value=80)
    assert GAME.to_act(state) == (0,) and GAME.view(state, 2)["trump"] == "S"


def test_four_passes_redeal_by_the_next_dealer() -> None:
    start = GAME.new(4, seed=2)
    state, events = start, []
    for seat in range(4):
        state, events = GAME.apply(state, seat, PASS)
    assert {"type": "redeal", "seat": 0} in events
    assert state.phase is Phase.BIDDING and state.dealer == 0 and state.deal == 2
    assert GAME.to_act(state) == (1,) and state.hands != start.hands
    assert state.sheet[-1].made is None and state.scores == (0, 0)


def test_contre_out_of_turn_by_either_defender() -> None:
    state = act(GAME.new(4, seed=2), 0, bid(80, "H"))
    assert GAME.to_act(state) == (1,)
    assert {"type": "contre"} in GAME.legal_actions(state, 3)  # not seat 3's turn
    assert {"type": "contre"} in GAME.legal_actions(state, 1)
    assert GAME.legal_actions(state, 2) == []
    assert "own team" in refused(state, 2, {"type": "contre"}).reason
    state, events = GAME.apply(state, 3, {"type": "contre"})
    assert events == [{"type": "contre", "seat": 3}]
    assert state.phase is Phase.SURCONTRE and state.contract is not None
    assert state.contract.coinche == 2 and GAME.to_act(state) == (0,)


def test_contre_only_until_the_next_bid_and_only_against_a_bid() -> None:
    state = GAME.new(4, seed=2)
    assert "no bid" in refused(state, 1, {"type": "contre"}).reason
    state = act(state, 0, bid(80, "H"), bid(90, "S"))
    # seat 1's bid replaced seat 0's: now seats 0 and 2 may contre, seat 3 may not
    assert {"type": "contre"} in GAME.legal_actions(state, 0)
    assert {"type": "contre"} not in GAME.legal_actions(state, 3)


def test_after_a_contre_the_bidding_stops_and_the_bidding_team_may_surcontre() -> None:
    state = act(GAME.new(4, seed=2), 0, bid(80, "H"))
    state = act(state, 1, {"type": "contre"})
    assert GAME.legal_actions(state, 0) == [{"type": "surcontre"}, {"type": "decline"}]
    assert GAME.legal_actions(state, 2) == [{"type": "surcontre"}]  # the partner, out of turn
    assert GAME.legal_actions(state, 1) == [] and GAME.legal_actions(state, 3) == []
    assert refused(state, 0, bid(90, "S")).code == "illegal_action"
    assert refused(state, 1, {"type": "surcontre"}).code == "not_your_turn"
    assert refused(state, 2, {"type": "decline"}).code == "illegal_action"
    surcontred, events = GAME.apply(state, 2, {"type": "surcontre"})
    assert surcontred.phase is Phase.PLAY and surcontred.contract is not None
    assert surcontred.contract.coinche == 4 and GAME.to_act(surcontred) == (0,)
    assert events[-1]["type"] == "contract" and events[-1]["coinche"] == 4


def test_timeout_in_the_surcontre_window_declines() -> None:
    state = act(act(GAME.new(4, seed=2), 0, bid(80, "H")), 1, {"type": "contre"})
    assert GAME.auto_action(state, 0) == {"type": "decline"}
    state = act(state, 0, {"type": "decline"})
    assert state.phase is Phase.PLAY and state.contract is not None
    assert state.contract.coinche == 2


def test_timeout_never_contres_nor_surcontres_for_a_seat_not_waited_on() -> None:
    state = act(GAME.new(4, seed=2), 0, bid(80, "H"))
    assert {"type": "contre"} in GAME.legal_actions(state, 3)
    with pytest.raises(IllegalAction) as refusal:
        GAME.auto_action(state, 3)
    assert refusal.value.code == "not_your_turn"
    state = act(state, 1, {"type": "contre"})
    assert GAME.legal_actions(state, 2) == [{"type": "surcontre"}]
    with pytest.raises(IllegalAction) as refusal:
        GAME.auto_action(state, 2)
    assert refusal.value.code == "not_your_turn"


def test_timeout_bids_80_with_a_clearly_strong_hand_else_passes() -> None:
    strong = GAME.new(4, deck=stacked_deck(ALL_TRUMPS))
    assert GAME.auto_action(strong, 0) == bid(80, "H")
    assert GAME.auto_action(act(strong, 0, PASS), 1) == bid(80, "S")  # nobody bid yet
    after_a_bid = act(GAME.new(4, deck=stacked_deck(DEFENDER_TRUMPS)), 0, bid(80, "S"))
    assert GAME.auto_action(after_a_bid, 1) == PASS  # never overbids
    assert GAME.auto_action(GAME.new(4, seed=2), 0) == PASS


# -- scoring lines -------------------------------------------------------------------------------


def test_made_takers_score_their_points_plus_the_bid_defenders_their_points() -> None:
    assert deal_scores(Contract(0, "H", 100), tally((110, 52))) == ((210, 52), True)


def test_made_counts_the_takers_belote_toward_the_bid() -> None:
    got = deal_scores(Contract(1, "H", 110), tally((72, 90), (0, 20)))
    assert got == ((72, 220), True)


def test_failed_takers_keep_their_belote_defenders_162_plus_bid_plus_their_belote() -> None:
    assert deal_scores(Contract(0, "H", 100), tally((90, 72), (0, 20))) == ((0, 282), False)
    assert deal_scores(Contract(0, "H", 130), tally((90, 72), (20, 0))) == ((20, 292), False)


def test_contre_made_takers_points_plus_twice_the_bid_defenders_only_their_belote() -> None:
    got = deal_scores(Contract(0, "H", 100, coinche=2), tally((120, 42), (0, 20)))
    assert got == ((320, 20), True)


def test_contre_failed_defenders_162_plus_twice_the_bid_plus_their_belote() -> None:
    got = deal_scores(Contract(0, "H", 100, coinche=2), tally((70, 92), (20, 20)))
    assert got == ((20, 382), False)


def test_surcontre_made_and_failed_four_times_the_bid() -> None:
    made = deal_scores(Contract(2, "S", 90, coinche=4), tally((100, 62)))
    assert made == ((460, 0), True)
    failed = deal_scores(Contract(2, "S", 90, coinche=4), tally((80, 82), (0, 20)))
    assert failed == ((0, 162 + 360 + 20), False)


def test_capot_bid_made_only_when_the_team_takes_every_trick() -> None:
    made = deal_scores(Contract(0, "H", 250), tally((252, 0), capot=0, tricks=(5, 0, 3, 0)))
    assert made == ((502, 0), True)
    failed = deal_scores(Contract(0, "H", 250), tally((150, 12), tricks=(4, 1, 3, 0)))
    assert failed == ((0, 412), False)


def test_generale_made_only_when_the_bidder_alone_takes_every_trick() -> None:
    alone = deal_scores(Contract(2, "C", 500), tally((252, 0), capot=0, tricks=(0, 0, 8, 0)))
    assert alone == ((752, 0), True)
    with_partner = tally((252, 0), capot=0, tricks=(1, 0, 7, 0))
    assert deal_scores(Contract(2, "C", 500), with_partner) == ((0, 662), False)


def test_an_unannounced_capot_counts_252_plus_the_bid() -> None:
    got = deal_scores(Contract(0, "H", 80), tally((252, 0), capot=0, tricks=(4, 0, 4, 0)))
    assert got == ((332, 0), True)


# -- whole deals ---------------------------------------------------------------------------------


def test_capot_bid_played_out_scores_252_plus_belote_plus_250() -> None:
    state = act(GAME.new(4, deck=stacked_deck(ALL_TRUMPS)), 0, bid(250, "H"), PASS, PASS, PASS)
    state = auto_to_end_of_deal(state)
    row = state.sheet[-1]
    assert row.capot == 0 and row.card_points == (252, 0) and row.belote == (20, 0)
    assert row.made and row.scores == (522, 0) and state.scores == (522, 0)


def test_generale_played_out_scores_252_plus_belote_plus_500() -> None:
    state = act(GAME.new(4, deck=stacked_deck(ALL_TRUMPS)), 0, bid(500, "H"), PASS, PASS, PASS)
    row = auto_to_end_of_deal(state).sheet[-1]
    assert row.made and row.scores == (772, 0)


def test_contre_failed_played_out_against_a_defender_holding_every_trump() -> None:
    state = act(GAME.new(4, deck=stacked_deck(DEFENDER_TRUMPS)), 0, bid(80, "H"))
    state = act(state, 1, {"type": "contre"})
    state = auto_to_end_of_deal(act(state, 0, {"type": "decline"}))
    row = state.sheet[-1]
    assert row.coinche == 2 and row.capot == 1 and row.belote == (0, 20)
    assert row.made is False and row.scores == (0, 162 + 160 + 20)


def test_match_runs_to_the_target_and_the_next_dealer_deals_between_deals() -> None:
    state = GAME.new(4, deck=stacked_deck(ALL_TRUMPS))
    assert state.target == 2000
    state = auto_to_end_of_deal(act(state, 0, bid(80, "H"), PASS, PASS, PASS))
    assert state.phase is Phase.DEAL_OVER and state.scores == (352, 0)
    assert GAME.to_act(state) == (0,) and GAME.auto_action(state, 0) == {"type": "deal"}
    state = act(state, 0, {"type": "deal"})
    assert state.dealer == 0 and state.deal == 2 and GAME.to_act(state) == (1,)

    short = GAME.new(4, options={"target": 300}, deck=stacked_deck(ALL_TRUMPS))
    short = auto_to_end_of_deal(act(short, 0, bid(80, "H"), PASS, PASS, PASS))
    out = GAME.outcome(short)
    assert GAME.is_over(short) and out is not None
    assert out["winners"] == [0, 2] and out["scores"] == [352, 0, 352, 0]


def test_view_lists_the_bids_and_the_contract_never_another_hand() -> None:
    state = act(GAME.new(4, deck=stacked_deck(ALL_TRUMPS)), 0, bid(80, "H"), bid(90, "S"))
    view = GAME.view(state, 2)
    assert view["bids"] == [
        {"seat": 0, "type": "bid", "value": 80, "suit": "H"},
        {"seat": 1, "type": "bid", "value": 90, "suit": "S"},
    ]
    assert view["contract"] == {"taker": 1, "trump": "S", "value": 90, "coinche": 1}
    assert sorted(view["hand"]) == sorted(ALL_TRUMPS[2]) and view["turned"] is None
    assert view["bid_labels"] == {"250": "capot", "500": "générale"}
    assert GAME.hidden(state, 2) == frozenset(c for s in (0, 1, 3) for c in ALL_TRUMPS[s])


# -- sans-atout and tout-atout (option ``sa_ta``; DECISIONS.md, "Variants") -----------------------

SA_TA = {"sa_ta": True}


def sa_ta_game(hands: list[list[str]] | None = None, seed: int = 2) -> BeloteState:
    if hands is None:
        return GAME.new(4, SA_TA, seed=seed)
    return GAME.new(4, SA_TA, deck=stacked_deck(hands))


def play_cards(state: BeloteState, *cards_played: str) -> tuple[BeloteState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for card in cards_played:
        state, evs = GAME.apply(state, state.turn, {"type": "play", "card": card})
        events += evs
    return state, events


def test_sa_ta_bids_name_sans_atout_or_tout_atout_only_with_the_option() -> None:
    plain = GAME.new(4, seed=2)
    assert refused(plain, 0, bid(80, "SA")).code == "bad_action"
    assert "sa_ta" not in GAME.to_json(plain) and "variants" not in GAME.to_json(plain)
    assert "variants" not in GAME.view(plain, 0)
    state = sa_ta_game()
    legal = GAME.legal_actions(state, 0)
    assert len(legal) == 1 + 11 * 6
    assert bid(80, "SA") in legal and bid(500, "TA") in legal
    assert GAME.view(state, 0)["variants"] == {"sa_ta": True, "annonces": False}
    assert "suit" in refused(state, 0, bid(80, "XX")).reason


def test_sa_ta_at_the_same_value_a_suit_is_below_sa_below_ta() -> None:
    state = act(sa_ta_game(), 0, bid(100, "S"))
    same = [a["suit"] for a in GAME.legal_actions(state, 1) if a.get("value") == 100]
    assert same == ["SA", "TA"]
    assert "same value" in refused(state, 1, bid(100, "H")).reason
    state = act(state, 1, bid(100, "SA"))
    assert [a["suit"] for a in GAME.legal_actions(state, 2) if a.get("value") == 100] == ["TA"]
    state = act(state, 2, bid(100, "TA"))
    assert refused(state, 3, bid(100, "TA")).code == "illegal_action"
    assert min(a["value"] for a in GAME.legal_actions(state, 3) if a["type"] == "bid") == 110
    state = act(state, 3, PASS, PASS, PASS)
    assert state.phase is Phase.PLAY and state.contract == Contract(taker=2, trump="TA", value=100)


def take(state: BeloteState, value: int, trump: str) -> BeloteState:
    return act(state, 0, bid(value, trump), PASS, PASS, PASS)


def test_sans_atout_follow_the_suit_else_any_card_the_ace_wins() -> None:
    # seat 0 leads the 10 of hearts; seat 1 has no heart and may discard anything
    hands = [
        cards("TH KS QS JS 9S 8S 7S AS"),
        cards("AD TD KD QD JD 9D 8D 7D"),
        cards("AH KH QH JH 9H 8H 7H TS"),
        cards("AC TC KC QC JC 9C 8C 7C"),
    ]
    state = take(sa_ta_game(hands), 80, "SA")
    state, _ = play_cards(state, "TH")
    assert {a["card"] for a in GAME.legal_actions(state, 1)} == set(hands[1])
    state, _ = play_cards(state, "7D")
    assert {a["card"] for a in GAME.legal_actions(state, 2)} == set(hands[2][:7])
    state, events = play_cards(state, "AH", "7C")
    trick = next(e for e in events if e["type"] == "trick")
    # the ace takes it, worth 19; the 10 is worth 10
    assert trick["seat"] == 2 and trick["points"] == 19 + 10


def test_sans_atout_counts_a_19_t_10_k_4_q_3_j_2_and_162_a_deal_no_belote() -> None:
    state = take(sa_ta_game(ALL_TRUMPS), 80, "SA")
    state = auto_to_end_of_deal(state)
    row = state.sheet[-1]
    assert sum(row.card_points) in (162, 252) and row.belote == (0, 0)
    assert not any(c.type in ("belote", "rebelote") for c in state.announced)


def test_tout_atout_follow_and_go_higher_in_the_led_suit_no_cutting() -> None:
    hands = [
        cards("9H KS QS JS 9S 8S 7S AS"),
        cards("JH 7H TD KD QD JD 9D 8D"),
        cards("AH KH QH TH 8H 7D TS AD"),
        cards("AC TC KC QC JC 9C 8C 7C"),
    ]
    state = take(sa_ta_game(hands), 80, "TA")
    state, _ = play_cards(state, "9H")
    # the led suit is a trump suit: seat 1 must go over the 9 with its jack
    assert [a["card"] for a in GAME.legal_actions(state, 1)] == ["JH"]
    assert "higher" in refused(state, 1, {"type": "play", "card": "7H"}).reason
    state, _ = play_cards(state, "JH")
    # seat 2 cannot go over the jack: any heart
    assert {a["card"] for a in GAME.legal_actions(state, 2)} == {"AH", "KH", "QH", "TH", "8H"}
    state, _ = play_cards(state, "8H")
    # seat 3 has no heart: any card, and a club does not cut
    assert len(GAME.legal_actions(state, 3)) == 8
    state, events = play_cards(state, "JC")
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["seat"] == 1 and trick["points"] == 9 + 14 + 0 + 14


def test_tout_atout_a_k_and_q_of_any_suit_in_one_hand_is_a_belote_each() -> None:
    hands = [
        cards("KH QH KS QS 7D 8D 9D TD"),
        cards("AH TH JH 9H 8H 7H AD JD"),
        cards("AS TS JS 9S 8S 7S KD QD"),
        cards("AC TC KC QC JC 9C 8C 7C"),
    ]
    state = take(sa_ta_game(hands), 80, "TA")
    state, events = play_cards(state, "KH")
    assert {"type": "belote", "seat": 0, "card": "KH"} in events
    state = auto_to_end_of_deal(state)
    says = [(c.seat, c.type, c.suit) for c in state.announced]
    # seat 0: hearts and spades; seat 2: diamonds; seat 3: clubs
    assert says.count((0, "rebelote", "H")) == 1 and (0, "rebelote", "S") in says
    assert (2, "rebelote", "D") in says and (3, "rebelote", "C") in says
    row = state.sheet[-1]
    assert row.belote == (3 * 20, 20)
    assert GAME.view(state, 1)["belote"][0] == {"seat": 0, "type": "belote", "suit": "H"}


def test_tout_atout_counts_j_14_9_9_a_6_t_5_k_3_q_1_and_162_a_deal() -> None:
    state = take(sa_ta_game(seed=5), 90, "TA")
    state = auto_to_end_of_deal(state)
    row = state.sheet[-1]
    assert sum(row.card_points) in (162, 252)


def test_sa_ta_timeout_and_robots_bid_suits_only() -> None:
    from tablee import bots

    state = sa_ta_game(ALL_TRUMPS)
    assert GAME.auto_action(state, 0)["suit"] == "H"
    assert bots.play(GAME, state, 0).get("suit", "H") in "SHDC"


# -- annonces (option ``annonces``; DECISIONS.md, "Variants") -------------------------------------


def with_annonces(points: tuple[int, int], annonces: tuple[int, int], **kw: Any) -> Tally:
    return Tally(points, (0, 0), kw.get("capot"), (2, 2, 2, 2), annonces)


def test_annonces_do_not_count_towards_the_bid_and_go_to_the_side_that_made_it() -> None:
    # 90 card points and a cinquante (50) do not make a bid of 100
    got = deal_scores(Contract(0, "H", 100), with_annonces((90, 72), (50, 0)))
    assert got == ((0, 162 + 100 + 50), False)
    # made: the defenders' tierce goes to the takers
    got = deal_scores(Contract(0, "H", 100), with_annonces((110, 52), (0, 20)))
    assert got == ((110 + 100 + 20, 52), True)


def test_annonces_are_not_multiplied_by_contre_nor_surcontre() -> None:
    got = deal_scores(Contract(0, "H", 100, coinche=2), with_annonces((110, 52), (100, 0)))
    assert got == ((110 + 200 + 100, 0), True)
    got = deal_scores(Contract(0, "H", 100, coinche=4), with_annonces((80, 82), (100, 0)))
    assert got == ((0, 162 + 400 + 100), False)


def test_annonces_in_a_played_contree_deal_each_seat_announces_with_its_first_card() -> None:
    # seat 0 holds a carré of jacks, seat 2 a tierce, seats 1 and 3 a tierce each: the carré is
    # the best, so seats 0 and 2 show theirs; the others' are never shown
    hands = [
        cards("JH JS JD JC 7H 8S 7D 8C"),
        cards("AS KS QS 9H 8H 9D 8D 9C"),
        cards("AH TH KH QH TS 9S 7S AD"),
        cards("TD KD QD AC TC KC QC 7C"),
    ]
    state = GAME.new(4, {"annonces": True}, deck=stacked_deck(hands))
    state = act(state, 0, bid(80, "S"), PASS, PASS, PASS)
    assert GAME.legal_actions(state, 0)[0] == {"type": "announce", "kinds": ["carre_J"]}
    events: list[dict[str, Any]] = []
    for _ in range(4):
        seat = state.turn
        state, evs = GAME.apply(state, seat, GAME.auto_action(state, seat))
        events += evs
        if evs[0]["type"] == "announce":
            state, evs = GAME.apply(state, seat, GAME.auto_action(state, seat))
            events += evs
    said = [(e["seat"], e["kinds"]) for e in events if e["type"] == "announce"]
    assert (0, ["carre_J"]) in said and (1, ["tierce"]) in said
    shown = next(e for e in events if e["type"] == "annonces_shown")
    assert shown["team"] == 0 and shown["points"] == 200 + 20
    assert [a["kind"] for a in shown["annonces"]] == ["carre_J", "tierce"]
    assert {"QS", "KS"} <= GAME.hidden(state, 0) and {"KC", "QC"} <= GAME.hidden(state, 0)
    state = auto_to_end_of_deal(state)
    assert state.sheet[-1].annonces == (220, 0)
