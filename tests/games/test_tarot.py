"""French tarot: every rule of the house text, on stacked decks, and its half-point scoring."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from tablee.cards import deck_tarot, shuffled
from tablee.engine import IllegalAction, visible_events
from tablee.engine.secrecy import leaks
from tablee.games import get_game
from tablee.games.tarot import (
    CHIEN_SIZE,
    HALF_POINTS,
    HAND_SIZE,
    Phase,
    TarotGame,
    TarotState,
    deal_score,
    has_petit_sec,
    poignee_cards,
    rules,
    scoring,
    shares,
)

G = get_game("tarot")
assert isinstance(G, TarotGame)
GAME: TarotGame = G
ALL = deck_tarot()


# -- helpers ---------------------------------------------------------------------------------------


def suit(s: str, ranks: str = "123456789TJCQK") -> list[str]:
    return [r + s for r in ranks]


def trumps(*numbers: int) -> list[str]:
    return [f"A{n}" for n in numbers]


def stack(
    players: int,
    hands: dict[int, Sequence[str]],
    chien: Sequence[str] = (),
    dealer: int | None = None,
) -> list[str]:
    """A deck that deals exactly these hands and chien (seats not given, and the rest of the
    chien, are filled from the unused cards in deck order)."""
    n, size = players, HAND_SIZE[players]
    dealer = n - 1 if dealer is None else dealer
    used = [c for h in hands.values() for c in h] + list(chien)
    assert len(set(used)) == len(used), "a card is given twice"
    # the Petit goes last, so that no filled hand is petit sec
    rest = sorted((c for c in ALL if c not in set(used)), key=lambda c: c == "A1")
    full: dict[int, list[str]] = {}
    for s in range(n):
        h = list(hands.get(s, ()))
        assert len(h) <= size
        while len(h) < size:
            h.append(rest.pop(0))
        full[s] = h
    ch = list(chien)
    while len(ch) < CHIEN_SIZE[n]:
        ch.append(rest.pop(0))
    assert not rest and len(ch) == CHIEN_SIZE[n]
    deck: list[str] = []
    taken = dict.fromkeys(range(n), 0)
    for p in range(n * size // 3):
        s = (dealer + 1 + p) % n
        deck += full[s][taken[s] : taken[s] + 3]
        taken[s] += 3
    return deck + ch


def new(
    players: int,
    hands: dict[int, Sequence[str]],
    chien: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> TarotState:
    state = GAME.new(players=players, options=options or {}, deck=stack(players, hands, chien))
    for s, h in hands.items():
        if len(h) == HAND_SIZE[players]:
            assert Counter(state.hands[s]) == Counter(h), "the stacked deal was dealt again"
    return state


def act(state: TarotState, seat: int, kind: str, **fields: Any) -> TarotState:
    return GAME.apply(state, seat, {"type": kind, **fields})[0]


def step(state: TarotState, seat: int, kind: str, **fields: Any) -> tuple[TarotState, list[Any]]:
    return GAME.apply(state, seat, {"type": kind, **fields})


def bidding(state: TarotState, *bids: str) -> TarotState:
    """Each seat in turn, from the seat after the dealer: a contract or "pass"."""
    for bid in bids:
        seat = GAME.to_act(state)[0]
        state = act(state, seat, "pass") if bid == "pass" else act(state, seat, "bid", contract=bid)
    return state


def take(
    state: TarotState,
    taker: int,
    contract: str,
    *,
    call: str | None = None,
    ecart: Sequence[str] | None = None,
    chelem: bool = False,
) -> TarotState:
    """Bidding where ``taker`` takes ``contract`` and everyone else passes, then the call, the
    écart (given, or the table's choice) and the chelem decision: the state of the first card."""
    n = state.players
    first = (state.dealer + 1) % n
    bids = ["pass"] * n
    bids[(taker - first) % n] = contract
    state = bidding(state, *bids[: (taker - first) % n + 1 if contract == "garde_contre" else n])
    assert state.taker == taker
    if state.phase is Phase.CALL:
        card = call or GAME.auto_action(state, taker)["card"]
        state = act(state, taker, "call", card=card)
    if state.phase is Phase.ECART:
        for card in ecart or ():
            state = act(state, taker, "discard", card=card)
        while state.phase is Phase.ECART:
            state = GAME.apply(state, taker, GAME.auto_action(state, taker))[0]
    assert state.phase is Phase.CHELEM
    return act(state, taker, "chelem" if chelem else "no_chelem")


def playable(state: TarotState) -> tuple[int, set[str]]:
    seat = GAME.to_act(state)[0]
    return seat, {a["card"] for a in GAME.legal_actions(state, seat) if a["type"] == "play"}


def play(state: TarotState, *cards: str) -> TarotState:
    """Each card played in turn by the seat to play."""
    for card in cards:
        seat = GAME.to_act(state)[0]
        state = act(state, seat, "play", card=card)
    return state


Policy = Callable[[TarotState, int, list[str]], str | None]


def prefer(order: Iterable[str]) -> Policy:
    """A seat that plays the first legal card of ``order`` (else the table's choice)."""
    ranked = list(order)

    def choose(state: TarotState, seat: int, legal: list[str]) -> str | None:
        return next((c for c in ranked if c in legal), None)

    return choose


def play_out(
    state: TarotState, policies: dict[int, Policy] | None = None, *, until_trick: int | None = None
) -> TarotState:
    """Plays cards (policies, else ``auto_action``) until the deal ends, or until ``until_trick``
    tricks are complete."""
    policies = policies or {}
    while state.phase is Phase.PLAY:
        if until_trick is not None and len(state.tricks) >= until_trick and not state.trick:
            break
        seat = GAME.to_act(state)[0]
        legal = [a["card"] for a in GAME.legal_actions(state, seat) if a["type"] == "play"]
        card = policies[seat](state, seat, legal) if seat in policies else None
        if card is None:
            card = GAME.auto_action(state, seat)["card"]
        state = act(state, seat, "play", card=card)
    return state


def result(state: TarotState) -> Any:
    assert state.phase in (Phase.END, Phase.OVER)
    return state.history[-1]


# -- dealing ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_gives_packets_of_three_from_the_seat_after_the_dealer_and_the_chien_last(
    players: int,
) -> None:
    attempt = 0
    while True:
        deck = shuffled(ALL, "packets", attempt)
        size = HAND_SIZE[players]
        expected: list[list[str]] = [[] for _ in range(players)]
        for i in range(players * size):
            expected[(players - 1 + 1 + i // 3) % players].append(deck[i])
        if not any(has_petit_sec(h) for h in expected):
            break
        attempt += 1
    state = GAME.new(players=players, deck=deck)
    assert state.dealer == players - 1
    for seat in range(players):
        assert Counter(state.hands[seat]) == Counter(expected[seat])
        assert GAME.view(state, seat)["hand"] == list(state.hands[seat])
    assert Counter(state.hands[0]) >= Counter(deck[:3]), "the first packet goes after the dealer"
    assert Counter(state.hands[1]) >= Counter(deck[3:6])
    assert state.chien == tuple(deck[-CHIEN_SIZE[players] :])
    assert len(state.chien) == (3 if players == 5 else 6)


def test_petit_sec_deals_again_at_once_by_the_same_dealer() -> None:
    sec = ["A1", *suit("H"), "1D", "2D", "3D"]
    state = GAME.new(players=4, deck=stack(4, {1: sec}))
    assert Counter(state.hands[1]) != Counter(sec)
    assert state.dealer == 3 and state.deal == 1 and state.phase is Phase.BID
    assert not any(has_petit_sec(h) for h in state.hands)
    assert Counter(GAME.cards(state)) == Counter(ALL)
    assert GAME.view(state, 0)["redeal"] == {"reason": "petit_sec", "seat": 1}


def test_petit_with_the_excuse_is_not_petit_sec() -> None:
    hand = ["A1", "EX", *suit("H"), "1D", "2D"]
    state = new(4, {1: hand})
    assert Counter(state.hands[1]) == Counter(hand)
    assert GAME.view(state, 1)["redeal"] is None


# -- bidding ---------------------------------------------------------------------------------------


def test_each_player_speaks_once_from_the_seat_after_the_dealer() -> None:
    state = GAME.new(players=4, seed=11)
    assert GAME.to_act(state) == (0,)
    with pytest.raises(IllegalAction) as err:
        act(state, 1, "pass")
    assert err.value.code == "not_your_turn"
    state = bidding(state, "prise")
    assert GAME.to_act(state) == (1,)
    state = bidding(state, "garde")
    assert {a.get("contract") for a in GAME.legal_actions(state, 2)} == {
        None,
        "garde_sans",
        "garde_contre",
    }
    with pytest.raises(IllegalAction, match="higher than garde"):
        act(state, 2, "bid", contract="prise")
    state = bidding(state, "pass", "pass")
    assert state.taker == 1 and state.contract == "garde"
    assert [s for s, _ in state.bids] == [0, 1, 2, 3]
    assert GAME.legal_actions(state, 0) == [], "seat 0 already spoke"


def test_garde_contre_ends_the_bidding_at_once() -> None:
    state = GAME.new(players=4, seed=12)
    state, events = step(bidding(state, "pass"), 1, "bid", contract="garde_contre")
    assert state.taker == 1 and state.contract == "garde_contre"
    assert state.phase is Phase.CHELEM
    assert len(state.bids) == 2, "seats 2 and 3 do not speak"
    assert {"type": "taker", "seat": 1, "contract": "garde_contre"} in events


def test_everyone_passing_makes_the_next_dealer_deal() -> None:
    state = GAME.new(players=4, seed=13)
    before = state.hands
    state = bidding(state, "pass", "pass", "pass")
    state, events = step(state, 3, "pass")
    assert state.dealer == 0 and state.deal == 1, "a passed deal does not count"
    assert state.phase is Phase.BID and GAME.to_act(state) == (1,)
    assert state.hands != before and state.bids == ()
    assert any(e["type"] == "redeal" and e["reason"] == "all_passed" for e in events)
    assert Counter(GAME.cards(state)) == Counter(ALL)


# -- the chien and the écart -----------------------------------------------------------------------


def test_prise_shows_the_chien_to_everyone_and_the_taker_takes_it() -> None:
    chien = ["1C", "2C", "3C", "4C", "5C", "KC"]
    state = new(4, {}, chien=chien)
    state, events = step(bidding(state, "prise", "pass", "pass"), 3, "pass")
    shown = [e for e in events if e["type"] == "chien"]
    assert shown == [{"type": "chien", "seat": 0, "cards": chien}]
    assert all(len(visible_events(shown, s)) == 1 for s in [0, 1, 2, 3, None])
    for s in [0, 1, 2, 3, None]:
        assert GAME.view(state, s)["chien"] == chien
    assert state.phase is Phase.ECART and len(state.hands[0]) == 24
    assert set(chien) <= set(state.hands[0]) and state.chien == ()


def test_ecart_may_hold_no_king_no_trump_and_no_excuse() -> None:
    hand = ["KS", "A5", "EX", "A21", "A1", *suit("H", "123456789TJC"), "1D"]
    state = new(4, {0: hand}, chien=["2D", "3D", "4D", "5D", "6D", "KD"])
    state = bidding(state, "garde", "pass", "pass", "pass")
    legal = {a["card"] for a in GAME.legal_actions(state, 0) if a["type"] == "discard"}
    assert legal == {*suit("H", "123456789TJC"), "1D", "2D", "3D", "4D", "5D", "6D"}
    for card, reason in [("KS", "king"), ("KD", "king"), ("A5", "trump"), ("EX", "bout")]:
        with pytest.raises(IllegalAction, match=reason):
            act(state, 0, "discard", card=card)
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, 0, "discard", card="7C")


def test_ecart_fallback_puts_trumps_other_than_bouts_only_for_the_missing_cards() -> None:
    # 4 plain non-king cards for an écart of 6: exactly two trumps go in, never a bout
    hand = [*suit("S", "K"), *suit("H", "K"), *suit("D", "K"), *suit("C", "K")]
    hand += ["A1", "A21", "EX", *trumps(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    chien = ["1S", "2S", "3S", "4S", "A13", "A14"]
    state = new(4, {0: hand}, chien=chien)
    state = bidding(state, "prise", "pass", "pass", "pass")

    def legal(s: TarotState) -> set[str]:
        return {a["card"] for a in GAME.legal_actions(s, 0) if a["type"] == "discard"}

    assert legal(state) == {"1S", "2S", "3S", "4S", *trumps(*range(2, 15))}
    state = act(state, 0, "discard", card="A2")
    state = act(state, 0, "discard", card="A13")
    assert legal(state) == {"1S", "2S", "3S", "4S"}, "two trumps fill what is missing"
    with pytest.raises(IllegalAction, match="plain cards"):
        act(state, 0, "discard", card="A3")
    for card in ["1S", "2S", "3S"]:
        state = act(state, 0, "discard", card=card)
    state, events = step(state, 0, "discard", card="4S")
    assert state.phase is Phase.CHELEM
    assert {"type": "ecart", "seat": 0, "count": 6, "trumps": ["A2", "A13"]} in events
    for s in [1, 2, 3, None]:
        assert GAME.view(state, s)["ecart"] == ["A2", "A13"], "trumps in the écart are shown"
    assert "A2" not in GAME.hidden(state, 1)


def test_ecart_fallback_requires_every_plain_card_first() -> None:
    hand = [*suit("S", "K"), *suit("H", "K"), *suit("D", "K"), *suit("C", "K")]
    hand += ["A1", "A21", "EX", *trumps(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    state = new(4, {0: hand}, chien=["1S", "2S", "3S", "4S", "A13", "A14"])
    state = bidding(state, "prise", "pass", "pass", "pass")
    for card in ["1S", "2S", "3S", "4S", "A3"]:
        state = act(state, 0, "discard", card=card)
    left = {a["card"] for a in GAME.legal_actions(state, 0) if a["type"] == "discard"}
    assert left == set(trumps(2, *range(4, 15)))
    assert not left & {"A1", "A21", "EX", "KS"}


def test_ecart_discards_stay_private_until_complete_and_undo_takes_back_the_last() -> None:
    state = new(4, {}, chien=["1C", "2C", "3C", "4C", "5C", "6C"])
    state = bidding(state, "prise", "pass", "pass", "pass")
    assert {"type": "undo"} not in GAME.legal_actions(state, 0)
    state = act(state, 0, "discard", card="1C")
    state, events = step(state, 0, "discard", card="2C")
    assert visible_events(events, 0) == [
        {"type": "discard", "seat": 0, "card": "2C"},
        {"type": "discard", "seat": 0, "count": 2},
    ]
    assert visible_events(events, 1) == [{"type": "discard", "seat": 0, "count": 2}]
    assert GAME.view(state, 1)["ecart"] == [] and GAME.view(state, 0)["ecart"] == ["1C", "2C"]
    state, events = step(state, 0, "undo")
    assert state.ecart == ("1C",) and "2C" in state.hands[0]
    assert visible_events(events, 2) == [{"type": "undo", "seat": 0, "count": 1}]
    for card in ["2C", "3C", "4C", "5C", "6C"]:
        state = act(state, 0, "discard", card=card)
    assert state.phase is Phase.CHELEM and len(state.hands[0]) == 18
    assert GAME.view(state, 1)["ecart"] == [], "plain cards of the écart stay hidden"


@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_guards_without_the_chien_keep_it_hidden_from_everyone(contract: str) -> None:
    chien = ["KC", "A21", "1C", "2C", "3C", "4C"]
    state = new(4, {}, chien=chien)
    state = take(state, 0, contract)
    for s in [0, 1, 2, 3, None]:
        assert GAME.view(state, s)["chien"] is None
        assert set(chien) <= GAME.hidden(state, s)
    state = play_out(state)
    assert GAME.view(state, 2)["chien"] == chien, "the chien is revealed at the end"


def test_garde_sans_counts_the_chien_for_the_taker_and_garde_contre_for_the_defence() -> None:
    chien = ["KC", "A21", "1C", "2C", "3C", "QH"]
    sans = play_out(take(new(4, {}, chien=chien), 0, "garde_sans"))
    contre = play_out(take(new(4, {}, chien=chien), 0, "garde_contre"))
    assert [t.cards for t in sans.tricks] == [t.cards for t in contre.tricks], "same play"
    half_sans, bouts_sans, _ = scoring.count(sans)
    half_contre, bouts_contre, _ = scoring.count(contre)
    assert half_sans - half_contre == sum(HALF_POINTS[c] for c in chien) == 9 + 9 + 3 + 7
    assert bouts_sans - bouts_contre == 1
    assert result(sans).contract == "garde_sans" and result(contre).contract == "garde_contre"


# -- five players: the king call and the secret partner ---------------------------------------


def calls(state: TarotState) -> set[str]:
    return {a["card"] for a in GAME.legal_actions(state, state.taker or 0) if a["type"] == "call"}


def test_five_players_the_taker_calls_a_king_before_the_chien_is_shown() -> None:
    state = bidding(new(5, {}), "prise", "pass", "pass", "pass", "pass")
    assert state.phase is Phase.CALL and GAME.to_act(state) == (0,)
    assert GAME.view(state, 1)["chien"] is None
    assert calls(state) == {"KS", "KH", "KD", "KC"}
    with pytest.raises(IllegalAction, match="king"):
        act(state, 0, "call", card="QH")


def test_holding_the_four_kings_calls_a_queen_and_with_the_queens_a_cavalier() -> None:
    kings = ["KS", "KH", "KD", "KC"]
    queens = ["QS", "QH", "QD", "QC"]
    cavaliers = ["CS", "CH", "CD", "CC"]
    cases = [
        (kings + trumps(*range(2, 13)), set(queens)),
        (kings + queens + trumps(*range(2, 9)), set(cavaliers)),
        (kings + queens + cavaliers + trumps(2, 3, 4), {"JS", "JH", "JD", "JC"}),
    ]
    for hand, expected in cases:
        state = bidding(new(5, {0: hand}), "prise", "pass", "pass", "pass", "pass")
        assert calls(state) == expected


def test_calling_ones_own_king_plays_alone_and_only_the_taker_knows_it() -> None:
    state = new(5, {0: ["KS", *trumps(*range(2, 16))]})
    state = take(state, 0, "garde_sans", call="KS")
    assert state.partner is None
    assert GAME.view(state, 0)["partner"] == 0
    assert all(GAME.view(state, s)["partner"] is None for s in [1, 2, 3, 4, None])
    record = result(play_out(state))
    assert record.partner is None
    assert record.shares == (4 * record.score, *[-record.score] * 4)


def test_called_card_in_the_chien_means_alone_without_knowing_it() -> None:
    state = new(5, {}, chien=["KH", "1C", "2C"])
    state = take(state, 0, "garde_sans", call="KH")
    assert state.partner is None
    assert all(GAME.view(state, s)["partner"] is None for s in [0, 1, 2, 3, 4, None])
    state = play_out(state)
    assert all(GAME.view(state, s)["partner"] == 0 for s in [0, 1, 2, 3, 4])
    record = result(state)
    assert record.shares == (4 * record.score, *[-record.score] * 4)


def test_called_card_seen_in_the_chien_on_a_prise_tells_everyone_the_taker_is_alone() -> None:
    state = new(5, {}, chien=["KH", "1C", "2C"])
    state = bidding(state, "prise", "pass", "pass", "pass", "pass")
    state = act(state, 0, "call", card="KH")
    assert state.partner is None and "KH" in state.hands[0]
    assert all(GAME.view(state, s)["partner"] == 0 for s in [0, 1, 2, 3, 4, None])


def test_partner_stays_secret_until_the_called_card_is_played() -> None:
    def deal(holder: int) -> TarotState:
        other = 4 if holder == 3 else 3
        hands: dict[int, list[str]] = {
            holder: ["KH", *suit("C", "123456789TJCQK")],
            other: ["A2", *suit("D", "123456789TJCQK")],
        }
        return take(new(5, hands), 0, "prise", call="KH")

    state = deal(3)
    twin = deal(4)
    assert state.partner == 3 and twin.partner == 4
    for s in [0, 1, 2, None]:
        assert GAME.view(state, s) == GAME.view(twin, s), "nothing tells the partner apart"
    while not state.partner_known:
        for s in [0, 1, 2, 4, None]:
            assert GAME.view(state, s)["partner"] is None
        assert GAME.view(state, 3)["partner"] == 3
        seat = GAME.to_act(state)[0]
        state, events = GAME.apply(state, seat, GAME.auto_action(state, seat))
    assert {"type": "partner", "seat": 3, "taker": 0} in events
    assert all(GAME.view(state, s)["partner"] == 3 for s in [0, 1, 2, 3, 4, None])


def test_first_trick_may_not_open_the_called_suit_except_with_the_called_card() -> None:
    # seat 1 takes and calls the king of hearts; seat 0 leads the first trick
    leader = ["KH", "2H", "3H", "1S", "2S", "A21", *trumps(*range(3, 12))]
    state = take(new(5, {0: leader}), 1, "garde_sans", call="KH")
    seat, legal = playable(state)
    assert seat == 0 and "KH" in legal and "1S" in legal
    assert not legal & {"2H", "3H"}
    with pytest.raises(IllegalAction, match="called suit"):
        act(state, 0, "play", card="2H")

    leader = ["2H", "3H", "1S", "2S", "A21", *trumps(*range(3, 13))]
    state = take(new(5, {0: leader}), 1, "garde_sans", call="KH")
    assert not playable(state)[1] & {"2H", "3H"}
    state = play_out(play(state, "A21"), until_trick=1)
    assert state.tricks[0].winner == 0, "the 21 takes the first trick"
    assert {"2H", "3H"} <= playable(state)[1], "the rule is for the first trick only"


# -- announcements: poignée and chelem ----------------------------------------------------------


def test_announced_chelem_gives_the_first_lead_to_the_taker() -> None:
    state = take(GAME.new(players=4, seed=21), 2, "garde_sans", chelem=True)
    assert state.chelem is True and GAME.to_act(state) == (2,)
    state = take(GAME.new(players=4, seed=21), 2, "garde_sans")
    assert state.chelem is False and GAME.to_act(state) == (0,)


@pytest.mark.parametrize(
    ("players", "levels"), [(3, (13, 15, 18)), (4, (10, 13, 15)), (5, (8, 10, 13))]
)
def test_poignee_levels_follow_the_player_count(players: int, levels: tuple[int, ...]) -> None:
    def offered(count: int, excuse: bool) -> list[str]:
        held = trumps(*range(2, count + 2 - excuse)) + (["EX"] if excuse else [])
        state = take(new(players, {0: held}), 1, "garde_sans")
        assert GAME.to_act(state) == (0,)
        return [a["level"] for a in GAME.legal_actions(state, 0) if a["type"] == "poignee"]

    simple, double, triple = levels
    assert offered(simple - 1, False) == []
    assert offered(simple, False) == ["simple"]
    assert offered(simple, True) == ["simple"], "the Excuse counts as a trump"
    assert offered(double, False) == ["simple", "double"]
    assert offered(triple, True) == ["simple", "double", "triple"]


def test_poignee_shows_the_lowest_trumps_bouts_last_and_the_excuse_only_when_needed() -> None:
    hand = ["A1", "A21", "EX", *trumps(*range(3, 13)), "1S"]
    assert poignee_cards(hand, 10) == tuple(trumps(*range(3, 13)))
    hand = ["A1", "A21", "EX", *trumps(*range(2, 10)), "1S"]
    assert poignee_cards(hand, 10) == tuple(trumps(1, *range(2, 10), 21))
    hand = ["EX", *trumps(*range(2, 11)), "1S"]
    assert poignee_cards(hand, 10) == (*trumps(*range(2, 11)), "EX")


def test_poignee_is_shown_to_everyone_before_your_first_card_and_only_once() -> None:
    held = ["EX", "A1", *trumps(*range(9, 21))]
    state = take(new(4, {1: held}), 0, "garde_sans")
    state = play_out(state, until_trick=0)
    state = play(state, GAME.auto_action(state, 0)["card"])
    assert [a["level"] for a in GAME.legal_actions(state, 1) if a["type"] == "poignee"] == [
        "simple",
        "double",
    ]
    state, events = step(state, 1, "poignee", level="double")
    shown = trumps(1, *range(9, 21))
    assert events == [{"type": "poignee", "seat": 1, "level": "double", "cards": shown}]
    for s in [0, 1, 2, 3, None]:
        assert GAME.view(state, s)["poignees"] == [{"seat": 1, "level": "double", "cards": shown}]
        assert not GAME.hidden(state, s) & set(shown)
    assert "EX" in GAME.hidden(state, 0), "the Excuse was not needed"
    assert GAME.to_act(state) == (1,), "a poignée is not a turn"
    with pytest.raises(IllegalAction, match="already"):
        act(state, 1, "poignee", level="simple")
    state = play_out(state, until_trick=1)
    state = play_out(state, until_trick=2)
    with pytest.raises(IllegalAction):
        act(state, 1, "poignee", level="simple")


def test_poignee_needs_the_trumps_and_comes_before_the_first_card() -> None:
    state = take(new(4, {1: trumps(*range(2, 11))}), 0, "garde_sans")
    state = play(state, GAME.auto_action(state, 0)["card"])
    with pytest.raises(IllegalAction, match="needs 13 trumps"):
        act(state, 1, "poignee", level="double")
    state = play(state, GAME.auto_action(state, 1)["card"])
    state = play_out(state, until_trick=1)
    while GAME.to_act(state) != (1,):
        state = play(state, GAME.auto_action(state, GAME.to_act(state)[0])["card"])
    with pytest.raises(IllegalAction, match="before your first card"):
        act(state, 1, "poignee", level="simple")


# -- playing the cards -----------------------------------------------------------------------------

RULES_HANDS: dict[int, list[str]] = {
    0: ["5H", *suit("S"), "A1", "A20", "A21"],
    1: ["1H", "2H", "3H", "4H", "6H", "7H", "8H", "9H", "A2", "EX", *suit("C", "12345678")],
    2: ["A5", "A12", "A15", "A16", *suit("D")],
    3: [*trumps(3, 4, 6, 7, 8, 9, 10, 11, 13, 14, 17, 18, 19), *suit("C", "TJCQK")],
}


def rules_deal() -> TarotState:
    state = new(4, RULES_HANDS, chien=["TH", "JH", "CH", "QH", "KH", "9C"])
    return take(state, 0, "garde_sans")


def refused(state: TarotState, card: str, reason: str) -> None:
    seat = GAME.to_act(state)[0]
    with pytest.raises(IllegalAction, match=reason) as err:
        act(state, seat, "play", card=card)
    assert err.value.code == "illegal_action"


def test_you_must_follow_the_suit_led_and_the_excuse_may_always_be_played() -> None:
    state = play(rules_deal(), "5H")
    assert playable(state) == (1, {"1H", "2H", "3H", "4H", "6H", "7H", "8H", "9H", "EX"})
    refused(state, "A2", "you must follow hearts")
    refused(state, "1C", "you must follow hearts")


def test_without_the_suit_you_must_trump() -> None:
    state = play(rules_deal(), "5H", "6H")
    assert playable(state) == (2, {"A5", "A12", "A15", "A16"})
    refused(state, "1D", "you must trump")


def test_a_trump_must_go_above_the_best_trump_already_played() -> None:
    state = play(rules_deal(), "5H", "6H", "A12")
    assert playable(state) == (3, {"A13", "A14", "A17", "A18", "A19"})
    refused(state, "A3", "you must overtrump")
    refused(state, "TC", "you must trump")
    state = play(state, "A13")
    assert state.tricks[-1].winner == 3, "the highest trump takes the trick"


def test_on_a_trump_lead_you_overtrump_if_you_can_else_play_any_trump() -> None:
    state = play(rules_deal(), "5H", "6H", "A12", "A13", "A19")
    assert playable(state) == (0, {"A20", "A21"})
    refused(state, "A1", "you must overtrump")
    state = play(state, "A20")
    assert playable(state) == (1, {"A2", "EX"}), "cannot overtrump: any trump"
    refused(state, "1H", "you must follow trumps")
    state = play(state, "A2")
    assert playable(state) == (2, {"A5", "A15", "A16"})


def test_without_the_suit_nor_trumps_any_card_may_be_played() -> None:
    state = play(rules_deal(), "5H", "6H", "A12", "A13", "A19", "A20", "A2", "A5", "1S")
    assert state.tricks[1].winner == 0
    seat, legal = playable(state)
    assert seat == 1 and legal == set(state.hands[1])
    state = play(state, "1C")
    assert playable(state) == (2, {"A15", "A16"})
    state = play(state, "A15")
    assert playable(state) == (3, {"A17", "A18"})


def test_after_an_excuse_lead_the_next_card_sets_the_suit() -> None:
    hands = {
        0: ["EX", "A1", "A2", *suit("S"), "1D"],
        1: [*suit("H", "123456789"), *suit("C", "123456789")],
        2: [*suit("H", "TJCQK"), *suit("D", "23456789TJCQK")],
    }
    state = take(new(4, hands), 0, "garde_sans")
    state = play(state, "EX")
    seat, legal = playable(state)
    assert seat == 1 and legal == set(state.hands[1])
    state = play(state, "5H")
    assert playable(state) == (2, {"TH", "JH", "CH", "QH", "KH"})
    state = play(state, "TH")
    state = play(state, GAME.auto_action(state, 3)["card"])
    assert state.tricks[0].cards == ("EX", "5H", "TH", "A3")
    assert state.tricks[0].winner == 3, "seat 3 trumps; the Excuse never takes the trick"


# -- the Excuse -----------------------------------------------------------------------------------


def test_the_excuse_must_be_played_by_the_next_to_last_trick() -> None:
    state = play_out(rules_deal(), until_trick=16)
    assert "EX" in state.hands[1] and len(state.hands[1]) == 2
    assert not rules.team_on_slam(state, 1)
    while GAME.to_act(state) != (1,):
        state = play(state, GAME.auto_action(state, GAME.to_act(state)[0])["card"])
    assert playable(state) == (1, {"EX"})
    other = next(c for c in state.hands[1] if c != "EX")
    refused(state, other, "Excuse")


# Three players: the taker holds every trump, the Excuse and two kings; a chien of small cards.
SLAM_TAKER = [*trumps(*range(1, 22)), "EX", "KS", "KH"]
SLAM_CHIEN = ["1D", "2D", "3D", "4D", "5D", "6D"]
SLAM_ORDER = [*trumps(*range(2, 22)), "KS", "KH", "A1", "EX"]


def slam_deal(contract: str, chelem: bool) -> TarotState:
    state = new(3, {0: SLAM_TAKER}, chien=SLAM_CHIEN)
    return take(state, 0, contract, ecart=SLAM_CHIEN, chelem=chelem)


def test_the_team_making_the_chelem_may_keep_the_excuse_and_it_wins_the_last_trick() -> None:
    state = play_out(slam_deal("garde", True), {0: prefer(SLAM_ORDER)}, until_trick=22)
    assert set(state.hands[0]) == {"A1", "EX"}
    assert playable(state) == (0, {"A1", "EX"}), "the Excuse may be kept for the end"
    state = play_out(state, {0: prefer(SLAM_ORDER)})
    last = state.tricks[-1]
    assert last.cards[0] == "EX" and last.winner == 0
    assert result(state).slam == "attack"
    assert result(state).petit_au_bout == "attack", "petit at the next-to-last trick counts"


def test_the_excuse_stays_with_its_team_for_a_half_point_card() -> None:
    # a defender holds the Excuse; the taker wins every trick, the Excuse trick included
    taker = [*trumps(*range(1, 22)), "KS", "KH", "KD"]
    state = new(3, {0: taker, 1: ["EX"]}, chien=SLAM_CHIEN)
    state = take(state, 0, "prise", ecart=SLAM_CHIEN)
    state = play_out(state, {0: prefer([*trumps(*range(2, 22)), "KS", "KH", "KD", "A1"])})
    excuse = next(t for t in state.tricks if "EX" in t.cards)
    assert excuse.winner == 0 and state.tricks.index(excuse) <= 22
    record = result(state)
    assert record.points2 == 182 - 9 + 1, "the attack gets half a point for the Excuse"
    assert record.bouts == 2
    assert record.slam == "attack", "a chelem even though the defence kept its Excuse"
    assert record.petit_au_bout == "attack"
    # made by 87 - 41 = 46; petit au bout 10; contract 25; unannounced chelem 200
    assert record.score == 46 + 10 + 25 + 200
    assert record.shares == (2 * 281, -281, -281)


# Five players, seat 0 leads: seats 0 and 1 hold every trump and win every trick, seat 1 only the
# first (its KS on the 1S lead); seat 0 keeps the Excuse and the 10 of trumps for trick 14. The
# called KH lies with seat 1 or seat 2 (swapped with the QH): the only difference between twins.
SECRET_HANDS: dict[int, list[str]] = {
    0: ["EX", "1S", *trumps(*range(9, 22))],
    1: ["KS", *trumps(*range(1, 9)), "1H", "2H", "3H", "4H", "5H"],
    2: [*suit("D", "123456789T"), "6H", "7H", "8H", "9H"],
}
# seat 0 leads its trumps from the top after overtrumping seat 1's lead with the 9
SECRET_ORDER = ["1S", "A9", *trumps(*range(21, 9, -1)), "A2", *trumps(*range(3, 9)), "A1"]


def secret_twin(called_at: int, taker: int) -> TarotState:
    """The deal above, with ``taker`` calling the KH held by ``called_at`` (1 or 2)."""
    hands = {s: list(h) for s, h in SECRET_HANDS.items()}
    hands[called_at].append("KH")
    hands[3 - called_at].append("QH")
    state = take(new(5, hands), taker, "garde_sans", call="KH")
    assert state.partner == called_at
    # the KH and QH stay in hand; every seat plays the same card in both twins
    keep_last = [*SECRET_ORDER, *suit("D"), *suit("C"), *suit("S"), *suit("H", "123456789TJC")]
    return play_out(state, dict.fromkeys(range(5), prefer(keep_last)), until_trick=13)


@pytest.mark.parametrize("taker", [0, 3], ids=["taker", "defender"])
def test_at_five_only_a_team_its_holder_knows_to_be_on_slam_may_keep_the_excuse(taker: int) -> None:
    # Seat 0 holds the Excuse at the next-to-last trick; seat 1 won a trick and seat 0 won the
    # others. Is seat 1 on seat 0's side? Only the partner knows, so seat 0 must play the Excuse
    # whoever holds the KH (the taker's team or the defence could be on slam: it cannot tell).
    twins = [secret_twin(1, taker), secret_twin(2, taker)]
    for state in twins:
        assert [t.winner for t in state.tricks] == [1, *[0] * 12]
        assert set(state.hands[0]) == {"EX", "A10"}
        assert GAME.view(state, 0)["partner"] is None
    a, b = twins
    assert GAME.view(a, 0) == GAME.view(b, 0), "seat 0 cannot tell the twins apart"
    assert GAME.legal_actions(a, 0) == GAME.legal_actions(b, 0) == [{"type": "play", "card": "EX"}]
    assert GAME.auto_action(a, 0) == GAME.auto_action(b, 0)
    for state in twins:
        refused(state, "A10", "Excuse")


def test_at_five_the_excuse_may_be_kept_once_the_called_card_showed_the_team_on_slam() -> None:
    # as above, seat 0 taking; seat 1 throws the KH on trick 10, so everyone knows seat 1 won
    # its trick for the attack: the taker may keep the Excuse, and it takes the last trick
    hands = {s: list(h) for s, h in SECRET_HANDS.items()}
    hands[1].append("KH")
    hands[2].append("QH")
    state = take(new(5, hands), 0, "garde_sans", call="KH")
    order = [*SECRET_ORDER, "KH", *suit("D"), *suit("C"), *suit("H")]
    policies = dict.fromkeys(range(5), prefer(order))
    state = play_out(state, policies, until_trick=13)
    assert state.partner_known and [t.winner for t in state.tricks] == [1, *[0] * 12]
    assert playable(state) == (0, {"EX", "A10"}), "the Excuse may be kept for the end"
    state = play_out(state, {0: prefer(["A10", "EX"])})
    assert state.tricks[-1].cards[0] == "EX" and state.tricks[-1].winner == 0
    assert result(state).slam == "attack"


# -- petit au bout ---------------------------------------------------------------------------------

# Three players, garde sans by seat 0 who holds no trump (clubs and small diamonds); seat 1 holds
# every trump, the Excuse and two kings; seat 2 the other spades and hearts.
WEAK_TAKER = [*suit("C"), *suit("D", "123456789T")]
TRUMPER = [*trumps(*range(1, 22)), "EX", "KS", "KH"]
WEAK_CHIEN = ["JD", "CD", "QD", "KD", "1S", "1H"]


def trumper_deal() -> TarotState:
    state = new(3, {0: WEAK_TAKER, 1: TRUMPER}, chien=WEAK_CHIEN)
    return take(state, 0, "garde_sans")


def test_petit_au_bout_goes_to_the_team_winning_the_last_trick() -> None:
    # the taker's 10 of diamonds takes the first trick (seat 1 excuses itself); seat 1 then
    # trumps, runs its trumps and kings and trumps the last trick with the Petit
    order = ["EX", "A2", *trumps(*range(21, 2, -1)), "KS", "KH", "A1"]
    state = play_out(trumper_deal(), {0: prefer(["TD"]), 1: prefer(order)})
    assert state.tricks[0].winner == 0
    assert "A1" in state.tricks[-1].cards and state.tricks[-1].winner == 1
    record = result(state)
    assert record.petit_au_bout == "defence" and record.slam is None
    assert not record.made and record.contract == "garde_sans"
    # the chien (13) + the first trick (1) + ½ for the Excuse = 14½ points, no bout:
    # failed by 41½, rounded against the taker to 42; petit au bout lost -10; -25; x4
    assert record.points2 == 29
    assert record.score == (-42 - 10 - 25) * 4 == -308
    assert record.shares == (-616, 308, 308)


def test_petit_au_bout_counts_at_the_next_to_last_trick_when_the_excuse_is_kept() -> None:
    order = ["A2", *trumps(*range(21, 2, -1)), "KS", "KH", "A1", "EX"]
    state = play_out(trumper_deal(), {1: prefer(order)})
    assert "A1" in state.tricks[-2].cards and "EX" in state.tricks[-1].cards
    assert state.tricks[-1].winner == 1, "the defence's Excuse wins the last trick of its chelem"
    record = result(state)
    assert record.slam == "defence" and record.petit_au_bout == "defence"
    # 13 points from the chien, no bout: failed by 43; -10 -25; x4; the defence's chelem -200
    assert record.points2 == 26 and record.score == (-43 - 10 - 25) * 4 - 200


def test_petit_not_at_the_end_counts_nothing() -> None:
    order = ["A1", *trumps(*range(21, 1, -1)), "KS", "KH", "EX"]
    state = play_out(trumper_deal(), {1: prefer(order)})
    assert result(state).petit_au_bout is None


# -- scoring ---------------------------------------------------------------------------------------


def test_the_texts_example_garde_two_bouts_47_points_and_the_petit_au_bout() -> None:
    score, made = deal_score("garde", 2 * 47, 2, petit_au_bout=1)
    assert (score, made) == (82, True)
    assert shares(4, 0, None, score) == (246, -82, -82, -82)


def test_half_points_are_rounded_for_the_taker_when_made() -> None:
    assert deal_score("prise", 83, 2) == (26, True)  # made by ½: 25½ -> 26
    assert deal_score("prise", 2 * 41, 2) == (25, True)  # exactly the requirement is made


def test_half_points_are_rounded_against_the_taker_when_failed() -> None:
    assert deal_score("prise", 81, 2) == (-26, False)  # failed by ½: -25½ -> -26
    # failed by ½ with the petit au bout won: -½ + 10 - 25 = -15½ -> -16
    assert deal_score("prise", 2 * 50 + 1, 1, petit_au_bout=1) == (-16, False)


def test_half_points_round_the_margin_before_the_contract_multiplies_it() -> None:
    # "made by ½" is made by 1 and "failed by ½" failed by 1, as French players count it:
    # the rounding is on the margin, then the 25 and the petit au bout, then the multiplier
    assert deal_score("garde", 83, 2) == ((1 + 25) * 2, True)
    assert deal_score("garde", 81, 2) == ((-1 - 25) * 2, False)
    assert deal_score("garde_contre", 2 * 36 + 1, 3, petit_au_bout=-1) == ((1 - 10 + 25) * 6, True)
    assert deal_score("garde_sans", 2 * 55 + 1, 0, poignees=20) == ((-1 - 25) * 4 - 20, False)


def test_a_failed_garde_sans_with_the_petit_au_bout_lost() -> None:
    # 45 points with one bout: failed by 6; petit au bout lost -10; -25; x4
    assert deal_score("garde_sans", 90, 1, petit_au_bout=-1) == (-164, False)
    assert shares(3, 2, None, -164) == (164, 164, -328)


def test_contract_multipliers() -> None:
    for contract, mult in [("prise", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)]:
        assert deal_score(contract, 2 * 46, 2) == (30 * mult, True)


def test_poignees_go_to_the_side_that_wins_the_deal_unmultiplied() -> None:
    assert deal_score("garde", 2 * 46, 2, poignees=20) == (60 + 20, True)
    assert deal_score("garde", 2 * 36, 2, poignees=30) == (-60 - 30, False)


def test_each_chelem_case() -> None:
    base = (55 + 25) * 2  # garde, 91 points with three bouts
    assert deal_score("garde", 182, 3, chelem_announced=True, attack_slam=True)[0] == base + 400
    assert deal_score("garde", 182, 3, attack_slam=True)[0] == base + 200
    assert deal_score("garde", 2 * 60, 3, chelem_announced=True)[0] == (24 + 25) * 2 - 200
    assert deal_score("prise", 0, 0, defence_slam=True)[0] == -56 - 25 - 200
    assert deal_score("prise", 0, 0, chelem_announced=True, defence_slam=True)[0] == -81 - 400


def test_shares_sum_to_zero_with_the_taker_paid_by_every_defender() -> None:
    assert shares(3, 1, None, 10) == (-10, 20, -10)
    assert shares(4, 3, None, -7) == (7, 7, 7, -21)
    assert shares(5, 0, 2, 10) == (20, -10, 10, -10, -10), "taker x2, partner x1"
    assert shares(5, 0, None, 10) == (40, -10, -10, -10, -10), "alone: x4"


def test_announced_chelem_made_with_a_triple_poignee() -> None:
    state = slam_deal("garde", True)
    assert [a["level"] for a in GAME.legal_actions(state, 0) if a["type"] == "poignee"][-1] == (
        "triple"
    )
    state = act(state, 0, "poignee", level="triple")
    record = result(play_out(state, {0: prefer(SLAM_ORDER)}))
    assert (record.points2, record.bouts, record.petit_au_bout) == (182, 3, "attack")
    # made by 55; petit au bout 10; 25; x2; triple poignée 40; announced chelem 400
    assert record.score == (55 + 10 + 25) * 2 + 40 + 400 == 620
    assert record.shares == (1240, -620, -620)


def test_chelem_made_without_announcement() -> None:
    record = result(play_out(slam_deal("prise", False), {0: prefer(SLAM_ORDER)}))
    assert record.slam == "attack" and not record.chelem_announced
    assert record.score == 55 + 10 + 25 + 200


def test_announced_chelem_failed() -> None:
    taker = [*trumps(*range(1, 22)), "EX", "KS", "2S"]
    state = new(3, {0: taker}, chien=SLAM_CHIEN)
    state = take(state, 0, "garde", ecart=SLAM_CHIEN, chelem=True)
    state = play_out(state, {0: prefer(["2S", *trumps(*range(2, 22)), "KS", "A1", "EX"])})
    assert state.tricks[0].winner != 0
    record = result(state)
    assert record.made and record.chelem_announced and record.slam is None
    plain = deal_score("garde", record.points2, record.bouts, petit_au_bout=1)[0]
    assert record.petit_au_bout == "attack"
    assert record.score == plain - 200


def test_defence_chelem_costs_the_taker_200() -> None:
    hands = {
        0: [*suit("S", "123456789"), *suit("H", "123456789")],
        1: trumps(*range(4, 22)),
        2: ["A1", "A2", "A3", "EX"],
    }
    state = new(4, hands, chien=["1D", "2D", "3D", "4D", "5D", "6D"])
    state = take(state, 0, "prise", ecart=["1D", "2D", "3D", "4D", "5D", "6D"])
    state = play_out(state)
    record = result(state)
    assert all(t.winner != 0 for t in state.tricks)
    assert (record.slam, record.points2, record.bouts, record.petit_au_bout) == (
        "defence",
        6,
        0,
        None,
    )
    assert record.score == -53 - 25 - 200 == -278
    assert record.shares == (-834, 278, 278, 278)


def test_a_poignee_shown_by_a_defender_counts_for_the_attack_when_it_wins() -> None:
    taker = ["A1", *trumps(*range(12, 22)), "EX", "KS", "KH", "KD", "KC", "QS", "QH"]
    defender = [*trumps(*range(2, 12)), *suit("S", "12345678")]
    state = take(new(4, {0: taker, 1: defender}), 0, "garde")
    state = play(state, GAME.auto_action(state, 0)["card"])
    state = act(state, 1, "poignee", level="simple")
    record = result(play_out(state))
    assert record.made and record.poignees == 20
    petit = {"attack": 1, "defence": -1, None: 0}[record.petit_au_bout]
    without = deal_score("garde", record.points2, record.bouts, petit_au_bout=petit)[0]
    assert record.score == without + 20


def test_five_players_with_a_partner_the_taker_counts_double_and_the_partner_single() -> None:
    state = new(5, {3: ["KH", *trumps(*range(8, 22))]})
    state = take(state, 0, "garde", call="KH")
    assert state.partner == 3
    record = result(play_out(state))
    s = record.score
    assert record.partner == 3
    assert record.shares == (2 * s, -s, -s, s, -s) and sum(record.shares) == 0
    assert s > 0, "the partner's fifteen trumps make the contract"


def test_five_players_the_attack_pools_the_partners_tricks() -> None:
    state = new(5, {3: ["KH", *trumps(*range(8, 22))]})
    state = play_out(take(state, 0, "garde", call="KH"))
    attack = {0, 3}
    half = sum(HALF_POINTS[c] for t in state.tricks if t.winner in attack for c in t.cards)
    half += sum(HALF_POINTS[c] for c in state.ecart)
    excuse = next(t for t in state.tricks if "EX" in t.cards)
    owner = (excuse.leader + excuse.cards.index("EX")) % 5
    if (owner in attack) != (excuse.winner in attack):
        half += -8 if excuse.winner in attack else 8
    assert result(state).points2 == half


# -- the match ------------------------------------------------------------------------------------


def auto_deal(state: TarotState) -> TarotState:
    """Plays one deal with the table's moves (whatever the bids give)."""
    if state.phase is Phase.END:
        state = act(state, GAME.to_act(state)[0], "deal")
    deal = state.deal
    while not GAME.is_over(state) and not (state.phase is Phase.END and state.deal == deal):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, GAME.auto_action(state, seat))[0]
    return state


def test_the_match_lasts_one_deal_per_player_by_default_and_sums_to_zero() -> None:
    state = GAME.new(players=3, seed=5)
    assert GAME.view(state, 0)["deals"] == 3
    while not GAME.is_over(state):
        state = auto_deal(state)
    assert len(state.history) == 3
    assert [r.deal for r in state.history] == [1, 2, 3]
    assert all(sum(r.shares) == 0 for r in state.history)
    assert sum(state.scores) == 0
    assert list(state.scores) == [sum(r.shares[s] for r in state.history) for s in range(3)]
    out = GAME.outcome(state)
    assert out is not None and out["scores"] == list(state.scores)
    assert out["winners"] == [s for s in range(3) if state.scores[s] == max(state.scores)]
    assert GAME.to_act(state) == () and GAME.legal_actions(state, 0) == []


def test_the_deals_option_sets_the_length_of_the_match() -> None:
    state = GAME.new(players=4, options={"deals": 1}, seed=8)
    state = auto_deal(state)
    assert GAME.is_over(state) and len(state.history) == 1
    with pytest.raises(ValueError, match="deals"):
        GAME.new(players=4, options={"deals": 0})


def test_after_a_deal_the_next_dealer_deals_the_next_one() -> None:
    state = auto_deal(GAME.new(players=4, seed=9))
    assert state.phase is Phase.END and GAME.outcome(state) is None
    dealer = state.dealer
    nxt = (dealer + 1) % 4
    assert GAME.to_act(state) == (nxt,)
    assert GAME.legal_actions(state, nxt) == [{"type": "deal"}]
    assert GAME.hidden(state, None) == frozenset(), "everything is shown at the end of a deal"
    view = GAME.view(state, None)
    assert view["result"]["shares"] == list(state.history[-1].shares)
    assert len(view["chien"]) == 6
    with pytest.raises(IllegalAction):
        act(state, dealer, "deal")
    state, events = step(state, nxt, "deal")
    assert state.dealer == nxt and state.deal == 2 and state.phase is Phase.BID
    assert events[0] == {"type": "deal", "seat": nxt, "deal": 2}
    assert GAME.view(state, 0)["result"] is None and GAME.view(state, 0)["last_trick"] is None


def test_the_end_of_a_deal_reveals_chien_ecart_and_result_to_everyone() -> None:
    state = take(new(4, {}, chien=["1C", "2C", "3C", "4C", "5C", "6C"]), 0, "garde_sans")
    while True:
        seat = GAME.to_act(state)[0]
        state, events = GAME.apply(state, seat, GAME.auto_action(state, seat))
        if state.phase is not Phase.PLAY:
            break
    end = next(e for e in events if e["type"] == "deal_end")
    assert "to" not in end and end["chien"] == ["1C", "2C", "3C", "4C", "5C", "6C"]
    assert end["result"]["contract"] == "garde_sans" and end["scores"] == list(state.scores)


# -- views --------------------------------------------------------------------------------------


def test_views_hold_the_common_keys_and_only_the_viewers_hand() -> None:
    state = GAME.new(players=5, seed=3)
    for seat in [0, 1, 2, 3, 4, None]:
        view = GAME.view(state, seat)
        for key in ["game", "players", "phase", "seat", "dealer", "turn", "hand", "counts"]:
            assert key in view
        for key in ["scores", "deal", "trump", "trick", "last_trick", "bids", "tricks_won"]:
            assert key in view
        assert view["game"] == "tarot" and view["seat"] == seat and view["turn"] == 0
        assert view["counts"] == [15] * 5 and view["chien_size"] == 3
        assert view["hand"] == (None if seat is None else list(state.hands[seat]))
        secret = GAME.hidden(state, seat)
        assert set(state.chien) <= secret
        mine = set() if seat is None else set(state.hands[seat])
        assert secret == set(ALL) - mine
        json.dumps(view)


def test_history_rows_name_no_card() -> None:
    state = auto_deal(GAME.new(players=4, seed=4))
    state = act(state, GAME.to_act(state)[0], "deal")
    assert not leaks(GAME.view(state, 1)["history"], set(ALL))


# -- the table's moves --------------------------------------------------------------------------


def test_auto_action_passes_a_weak_hand_and_takes_a_strong_one() -> None:
    weak = new(4, {0: [*suit("S", "123456789"), *suit("H", "123456789")]})
    assert GAME.auto_action(weak, 0) == {"type": "pass"}
    strong = new(4, {0: ["A21", "A1", "EX", *trumps(*range(10, 20)), "KS", "KH", "KD", "QS", "1C"]})
    assert GAME.auto_action(strong, 0) == {"type": "bid", "contract": "garde"}


def test_auto_ecart_puts_aside_small_plain_cards() -> None:
    hand = ["KS", "KH", "QD", "CD", "JD", *trumps(*range(2, 15)), "EX"][:18]
    state = new(4, {0: hand}, chien=["1C", "2C", "3C", "4C", "5C", "TC"])
    state = bidding(state, "prise", "pass", "pass", "pass")
    while state.phase is Phase.ECART:
        state = GAME.apply(state, 0, GAME.auto_action(state, 0))[0]
    assert sorted(state.ecart) == sorted(["1C", "2C", "3C", "4C", "5C", "TC"])


def test_auto_action_announces_nothing_and_plays_a_legal_card() -> None:
    state = take(new(4, {0: trumps(*range(2, 17))}), 1, "garde")
    assert GAME.auto_action(state, 0)["type"] == "play"
    chelem = bidding(GAME.new(players=4, seed=30), "garde_contre")
    assert GAME.auto_action(chelem, 0) == {"type": "no_chelem"}


def test_auto_action_excuses_itself_rather_than_give_the_petit_to_the_other_side() -> None:
    hands = {
        0: ["A21", *suit("S"), "1D", "2D", "3D"],
        1: ["A1", "EX", *suit("H"), "4D", "5D"],
    }
    state = play(take(new(4, hands), 0, "garde_sans"), "A21")
    assert playable(state) == (1, {"A1", "EX"})
    assert GAME.auto_action(state, 1) == {"type": "play", "card": "EX"}


def test_auto_action_does_not_win_with_the_petit_while_others_may_still_overtrump() -> None:
    hands = {
        0: ["1H", *suit("S"), "1D", "2D", "3D"],
        1: ["A1", "A5", *suit("C"), "4D", "5D"],
    }
    state = play(take(new(4, hands), 0, "garde_sans"), "1H")
    assert playable(state) == (1, {"A1", "A5"})
    assert GAME.auto_action(state, 1) == {"type": "play", "card": "A5"}


def test_auto_action_takes_the_trick_with_the_petit_when_last_to_play() -> None:
    hands = {
        0: ["1H", *suit("S"), "1D", "2D", "3D"],
        1: [*suit("H", "23456789"), *suit("D", "456789TJCQ")],
        2: [*suit("H", "TJCQK"), *suit("C", "123456789TJCQ")],
        3: ["A1", "A5", *suit("C", "K"), *trumps(*range(6, 21))],
    }
    state = take(new(4, hands), 3, "garde_sans")
    state = play(state, "1H", "2H", "TH")
    assert playable(state) == (3, {"A1", "A5"} | {f"A{n}" for n in range(6, 21)})
    assert GAME.auto_action(state, 3) == {"type": "play", "card": "A1"}


def test_auto_action_saves_the_petit_under_a_partners_trick_when_last_to_play() -> None:
    hands = {
        0: ["1H", *suit("S"), "1D", "2D", "3D"],
        1: [*suit("H", "23456789"), *suit("D", "456789TJCQ")],
        2: [*suit("H", "TJCQK"), *suit("C", "123456789TJCQ")],
        3: ["A1", "A5", *suit("C", "K"), *trumps(*range(6, 21))],
    }
    state = take(new(4, hands), 0, "garde_sans")
    state = play(state, "1H", "2H", "TH")
    assert playable(state) == (3, {"A1", "A5"} | {f"A{n}" for n in range(6, 21)})
    assert GAME.auto_action(state, 3) == {"type": "play", "card": "A1"}, "the defence keeps it"


def test_auto_action_plays_on_what_the_seat_knows_not_on_the_secret_partner() -> None:
    # five players: seat 4 takes and calls the KH, held by seat 3; seat 3's cavalier holds the
    # first trick. The taker does not know its partner yet, so its timeout move may not feed
    # seat 3 (that would tell everyone who the partner is): it plays its smallest spade.
    hands = {
        0: ["1S"],
        1: ["3S"],
        2: ["4S"],
        3: ["CS", "KH"],
        4: ["JS", "2S", *suit("D", "123456789TJCQ")],
    }
    state = take(new(5, hands), 4, "garde_sans", call="KH")
    assert state.partner == 3 and GAME.view(state, 4)["partner"] is None
    state = play(state, "1S", "3S", "4S", "CS")
    assert playable(state) == (4, {"JS", "2S"})
    assert GAME.auto_action(state, 4) == {"type": "play", "card": "2S"}


def test_auto_action_brings_the_petit_home_when_no_other_trump_is_out() -> None:
    # three players: the taker holds every trump, so the Petit cannot be caught; it waits for
    # the last trick (the 21 goes before it) and makes the petit au bout
    taker = [*trumps(*range(1, 22)), "KS", "KH", "KD"]
    state = take(new(3, {0: taker, 1: ["EX"]}, chien=SLAM_CHIEN), 0, "prise", ecart=SLAM_CHIEN)
    state = play_out(state)
    assert state.tricks[-1].cards[0] == "A1" and "A21" in state.tricks[-2].cards
    assert result(state).petit_au_bout == "attack"


def test_auto_action_keeps_the_petit_for_the_last_trick_when_nobody_can_trump_it() -> None:
    # four players, seat 3 takes a prise: with the chien it holds every trump but the four it
    # must put in the écart (shown to all), so the Petit cannot be caught; last to play on a
    # heart lead it trumps with its smallest other trump, and the Petit makes the petit au bout
    taker = ["A1", *trumps(*range(5, 21)), "KC"]
    state = new(
        4,
        {0: ["1H", *suit("S"), "1D", "2D", "3D"], 3: taker},
        chien=["A2", "A3", "A4", "A21", "1C", "2C"],
    )
    state = take(state, 3, "prise", ecart=["1C", "2C", "A2", "A3", "A4", "A5"])
    state = play(state, "1H")
    for seat in (1, 2):
        state = play(state, GAME.auto_action(state, seat)["card"])
    assert GAME.to_act(state) == (3,) and "A1" in playable(state)[1]
    assert GAME.auto_action(state, 3) == {"type": "play", "card": "A6"}
    state = play_out(state)
    assert "A1" in state.tricks[-1].cards
    assert result(state).petit_au_bout == "attack"


@pytest.mark.parametrize("taker", [0, 1], ids=["mate", "opponent"])
def test_auto_action_puts_the_petit_under_a_trick_its_side_surely_wins_only(taker: int) -> None:
    # four players: seat 0 leads a heart, seat 1 trumps with the 21, which nothing can beat;
    # seat 2 (not last to play) must trump too. Its side's trick: the Petit is saved there.
    # The other side's trick: never the Petit while a smaller trump is legal.
    hands = {
        0: ["1H", *suit("S"), "1D", "2D", "3D"],
        1: ["A21", *suit("C"), "4D", "5D", "6D"],
        2: ["A1", "A5", *suit("D", "789TJCQK"), *trumps(*range(6, 14))],
    }
    state = take(new(4, hands), taker, "garde_sans")
    state = play(state, "1H", "A21")
    assert playable(state) == (2, {"A1", *trumps(*range(5, 14))})
    expected = "A1" if taker == 0 else "A5"
    assert GAME.auto_action(state, 2) == {"type": "play", "card": expected}
