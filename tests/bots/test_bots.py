"""Bot seats: legal moves only, decisions from their own view only, and bids a player would make.

The quality checks play seeded deals with four bots and count: how many deals somebody takes (a
table of bots that passes deal after deal is no fun), and how many contracts are made (a bot that
takes anything is no partner). Seeds are fixed: the counts are the same on every run.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from tablee import bots
from tablee.bots import bidding
from tablee.games import game_names, get_game


def _bots_play(name: str, players: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    game = get_game(name)
    state = game.new(players=players, seed=seed)
    events: list[dict[str, Any]] = []
    for _ in range(20_000):
        if game.is_over(state):
            return state, events
        seat = game.to_act(state)[0]
        action = bots.play(game, state, seat)
        assert action in game.legal_actions(state, seat), (name, seat, action)
        state, more = game.apply(state, seat, action)
        events += more
    raise AssertionError(f"{name}: bots did not finish a game")


@pytest.mark.parametrize("name", game_names())
def test_a_table_of_bots_plays_legal_moves_to_the_end(name: str) -> None:
    game = get_game(name)
    for players in sorted({game.min_players, game.max_players}):
        state, _ = _bots_play(name, players, seed=11)
        assert game.outcome(state) is not None


def _deals(name: str, players: int, seeds: range) -> Counter[str]:
    c: Counter[str] = Counter()
    for seed in seeds:
        _, events = _bots_play(name, players, seed)
        for e in events:
            if e["type"] == "redeal" and e.get("reason", "all_passed") == "all_passed":
                c["all passed"] += 1
            elif e["type"] == "deal_end":
                row = {**e, **e.get("result", {})}
                c["played"] += 1
                c["made"] += bool(row["made"])
                if row.get("value", 0) > 80:
                    c["above 80"] += 1
    return c


def test_belote_bots_take_most_deals_and_make_most_contracts() -> None:
    c = _deals("belote", 4, range(60))
    assert c["played"] / (c["played"] + c["all passed"]) >= 0.7, c
    assert c["made"] / c["played"] >= 0.7, c


def test_contree_bots_bid_by_their_hands_and_make_most_contracts() -> None:
    c = _deals("contree", 4, range(4))
    assert c["played"] / (c["played"] + c["all passed"]) >= 0.8, c
    assert c["above 80"] >= c["played"] / 2, c  # not an 80 on every hand
    assert c["made"] / c["played"] >= 0.7, c


def test_tarot_bots_take_most_deals() -> None:
    c = _deals("tarot", 4, range(10))
    assert c["played"] / (c["played"] + c["all passed"]) >= 0.6, c


def _belote_round_one(hand: list[str], turned: str) -> dict[str, Any]:
    return {"phase": "bidding", "hand": hand, "turned": turned, "round": 1, "bids": []}


def test_a_belote_bot_takes_with_the_jack_and_nine_of_the_turned_suit() -> None:
    view = _belote_round_one(["JH", "9H", "AS", "7C", "8D"], "TH")
    assert bidding.belote(view, [{"type": "pass"}, {"type": "take"}]) == {"type": "take"}


def test_a_belote_bot_passes_a_hand_without_trumps_or_aces() -> None:
    view = _belote_round_one(["7S", "8S", "QC", "7D", "8D"], "TH")
    assert bidding.belote(view, [{"type": "pass"}, {"type": "take"}]) == {"type": "pass"}


def _contree_view(hand: list[str], seat: int, bids: list[dict[str, Any]]) -> dict[str, Any]:
    last = next((b for b in reversed(bids) if b["type"] == "bid"), None)
    contract = None
    if last is not None:
        contract = {"taker": last["seat"], "trump": last["suit"], "value": last["value"]}
    return {"phase": "bidding", "hand": hand, "seat": seat, "bids": bids, "contract": contract}


def _contree_legal(above: int) -> list[dict[str, Any]]:
    values = [v for v in (*range(80, 170, 10), 250, 500) if v > above]
    return [{"type": "pass"}] + [
        {"type": "bid", "value": v, "suit": s} for v in values for s in "SHDC"
    ]


def test_a_contree_bot_raises_its_partner_by_the_aces_and_trump_honours_it_holds() -> None:
    bids = [{"seat": 0, "type": "bid", "value": 80, "suit": "H"}, {"seat": 1, "type": "pass"}]
    # two aces and the jack of the partner's trump: +40
    view = _contree_view(["AS", "AC", "JH", "7D", "8D", "7C", "8S", "9C"], 2, bids)
    assert bidding.contree(view, _contree_legal(80)) == {"type": "bid", "value": 120, "suit": "H"}


def test_a_contree_bot_does_not_raise_its_partner_twice_on_the_same_hand() -> None:
    bids = [
        {"seat": 0, "type": "bid", "value": 80, "suit": "H"},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "bid", "value": 120, "suit": "H"},
        {"seat": 3, "type": "pass"},
        {"seat": 0, "type": "bid", "value": 130, "suit": "H"},
        {"seat": 1, "type": "pass"},
    ]
    view = _contree_view(["AS", "AC", "JH", "7D", "8D", "7C", "8S", "9C"], 2, bids)
    assert bidding.contree(view, _contree_legal(130)) == {"type": "pass"}


@pytest.mark.parametrize("name", sorted(bidding.BIDDERS))
def test_a_bot_bids_from_its_own_view_only(name: str) -> None:
    """Whatever the other hands hold, the same view gives the same bid."""
    game = get_game(name)
    for seed in range(30):
        state = game.new(players=4, seed=seed)
        seat = game.to_act(state)[0]
        decided = bots.play(game, state, seat)
        others = [s for s in range(4) if s != seat]
        hands = list(state.hands)
        # the other seats' cards, dealt among them the other way round
        pool = [c for s in others for c in hands[s]]
        pool.reverse()
        for s in others:
            hands[s], pool = tuple(pool[: len(hands[s])]), pool[len(hands[s]) :]
        swapped = dataclasses.replace(state, hands=tuple(hands))
        assert game.view(swapped, seat) == game.view(state, seat)
        assert bots.play(game, swapped, seat) == decided
