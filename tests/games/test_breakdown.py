"""Every game's ``deal_end`` says how the deal was scored (``breakdown``): its lines add up to the
points the deal gave, as the game's own scoring counted them (the scores before and after the
deal), over seeded games of every game; and for the belote family, the breakdown of hand-built
tallies (made, dedans, capot, contré) against ``deal_scores``."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from tablee.engine import Event
from tablee.games import game_names, get_game
from tablee.games._belote_common import CAPOT, TOTAL, Contract, Tally
from tablee.games.belote.game import deal_breakdown as belote_breakdown
from tablee.games.belote.game import deal_scores as belote_scores
from tablee.games.contree.rules import deal_breakdown as contree_breakdown
from tablee.games.contree.rules import deal_scores as contree_scores

from .variants import VARIANTS


def _delta(before: Any, after: Any) -> list[int]:
    return [b - a for a, b in zip(before.scores, after.scores, strict=True)]


#: the points a deal gave, read from the game's state before and after it (not from the event)
DEAL_POINTS: dict[str, Callable[[Any, Any, Any], list[int]]] = {
    "belote": lambda g, s0, s1: _delta(s0, s1),
    "contree": lambda g, s0, s1: _delta(s0, s1),
    "tarot": lambda g, s0, s1: _delta(s0, s1),
    "barbu": lambda g, s0, s1: _delta(s0, s1),
    "freeze": lambda g, s0, s1: _delta(s0, s1),
    "yaniv": lambda g, s0, s1: _delta(s0, s1),
    # a deal nobody made is dealt again with the scores untouched
    "motton": lambda g, s0, s1: _delta(s0, s1),
    # one deal: the outcome is the deal's
    "contrecarte": lambda g, s0, s1: list(g.outcome(s1)["scores"]),
}

#: the items each game's breakdown may hold (its docstring lists them)
ITEMS = {
    "belote": {"cards", "dix_de_der", "capot", "belote", "chute", "annonces"},
    "contree": {"cards", "dix_de_der", "capot", "belote", "chute", "contract", "annonces"},
    "tarot": {"contract", "margin", "petit_au_bout", "poignee", "chelem", "chelem_defence"},
    "barbu": {"tricks", "hearts", "queens", "king"},
    "motton": {"base", "tricks"},
    "freeze": {"row", "freeze_won", "freeze_lost"},
    "yaniv": {"hand", "assaf", "drop"},
    "contrecarte": {"out"},
}

PER = {"belote": "team", "contree": "team"}


def _deal_ends(
    name: str, players: int, seed: int, rng: random.Random, options: dict[str, Any]
) -> list[tuple[Event, list[int]]]:
    """A seeded game played to its end (random legal moves, some timeout moves): each
    ``deal_end`` with the points its deal gave."""
    g = get_game(name)
    state = g.new(players=players, options=options, seed=seed)
    found = []
    for _ in range(20_000):
        if g.is_over(state):
            break
        seat = g.to_act(state)[0]
        legal = g.legal_actions(state, seat)
        action = rng.choice(legal) if rng.random() < 0.5 else g.auto_action(state, seat)
        new, events = g.apply(state, seat, action)
        for e in events:
            if e["type"] == "deal_end":
                found.append((e, DEAL_POINTS[name](g, state, new)))
        state = new
    assert g.is_over(state)
    return found


@pytest.mark.parametrize("name", game_names())
def test_the_deal_breakdown_adds_up_to_the_points_of_the_deal(name: str) -> None:
    g = get_game(name)
    items: set[str] = set()
    deals = 0
    option_sets = [{}, *VARIANTS.get(name, [])]
    for players in sorted({g.min_players, min(g.max_players, 4)}):
        for seed, options in itertools.product(range(3), option_sets):
            for event, points in _deal_ends(name, players, seed, random.Random(seed), options):
                b = event["breakdown"]
                assert b["per"] == PER.get(name, "seat")
                width = 2 if b["per"] == "team" else players
                assert len(b["total"]) == width
                for ln in b["lines"]:
                    assert len(ln["points"]) == width and any(ln["points"]), ln
                    items.add(ln["item"])
                sums = [sum(ln["points"][i] for ln in b["lines"]) for i in range(width)]
                assert sums == b["total"] == points, (name, players, seed, event)
                deals += 1
    assert deals >= 3
    assert items <= ITEMS[name], items - ITEMS[name]


def _tally(points: tuple[int, int], belote: tuple[int, int] = (0, 0), **kw: Any) -> Tally:
    capot = kw.get("capot")
    return Tally(
        points,
        belote,
        capot,
        (2, 2, 2, 2),
        kw.get("annonces", (0, 0)),
        last=None if capot is not None else kw["last"],
    )


def _items(lines: list[dict[str, Any]]) -> dict[str, list[int]]:
    return {ln["item"]: ln["points"] for ln in lines if any(ln["points"])}


BELOTE_CASES = [
    # made: each team its cards, the dix de der to the last trick's team, belote to its team
    (Contract(taker=0, trump="H"), _tally((100, 62), (20, 0), last=0), True),
    # dedans: the defenders take 162 and every belote
    (Contract(taker=1, trump="S"), _tally((100, 62), (0, 20), last=0), False),
    # capot of the takers
    (Contract(taker=2, trump="D"), _tally((CAPOT, 0), (20, 0), capot=0), True),
    # capot of the defenders: they count their 252 and every belote
    (Contract(taker=0, trump="C"), _tally((0, CAPOT), (20, 0), capot=1), False),
    # annonces count in each team's total; dedans, the defenders take them all
    (Contract(taker=0, trump="H"), _tally((90, 72), annonces=(20, 0), last=0), True),
    (Contract(taker=0, trump="H"), _tally((72, 90), annonces=(20, 50), last=1), False),
]


@pytest.mark.parametrize(("contract", "t", "made"), BELOTE_CASES)
def test_belote_breakdown_made_dedans_and_capot(contract: Contract, t: Tally, made: bool) -> None:
    scores, is_made = belote_scores(contract, t)
    assert is_made == made
    lines = belote_breakdown(contract, t, made)
    got = _items(lines)
    assert [sum(p[i] for p in got.values()) for i in (0, 1)] == list(scores)
    if not made:
        defenders = 1 - contract.taker % 2
        if t.capot is None:
            assert got["chute"][defenders] == TOTAL
        assert got.get("belote", [0, 0])[defenders] == sum(t.belote)
        assert got.get("annonces", [0, 0])[defenders] == sum(t.annonces)
    elif t.capot is None:
        assert got["dix_de_der"][t.last or 0] == 10


CONTREE_CASES = [
    (Contract(taker=0, trump="H", value=80), _tally((100, 62), (20, 0), last=0), True),
    # contré and made: the defenders keep only their belote, the contract counts double
    (Contract(taker=1, trump="S", value=90, coinche=2), _tally((62, 100), (20, 0), last=1), True),
    # surcontré and failed: the defenders 162 + the contract x4, each team its belote
    (Contract(taker=0, trump="D", value=120, coinche=4), _tally((90, 72), (20, 20), last=1), False),
    (Contract(taker=2, trump="C", value=250), _tally((CAPOT, 0), capot=0), True),
    # annonces go to the side that made or set the contract, outside the multiplier
    (
        Contract(taker=1, trump="S", value=80, coinche=2),
        _tally((62, 100), annonces=(50, 0), last=1),
        True,
    ),
    (
        Contract(taker=0, trump="D", value=100, coinche=2),
        _tally((90, 72), annonces=(20, 0), last=1),
        False,
    ),
]


@pytest.mark.parametrize(("contract", "t", "made"), CONTREE_CASES)
def test_contree_breakdown_contract_coinche_and_chute(
    contract: Contract, t: Tally, made: bool
) -> None:
    scores, is_made = contree_scores(contract, t)
    assert is_made == made
    lines = contree_breakdown(contract, t, made)
    got = _items(lines)
    assert [sum(p[i] for p in got.values()) for i in (0, 1)] == list(scores)
    takers = contract.taker % 2
    winners = takers if made else 1 - takers
    assert got["contract"][winners] == contract.value * contract.coinche
    (contract_line,) = [ln for ln in lines if ln["item"] == "contract"]
    assert contract_line["coinche"] == contract.coinche
    if made and contract.coinche > 1:
        assert "cards" not in got or got["cards"][1 - takers] == 0


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans", "garde_contre"])
def test_tarot_breakdown_petit_au_bout_poignees_and_chelem_multiply_as_the_score(
    contract: str,
) -> None:
    """Every part of a tarot score, against ``deal_score``: the contract and the margin times
    the multiplier, the petit au bout too, the poignées not, a chelem announced or not."""
    from tablee.games.tarot.scoring import deal_score, score_lines

    for points2, bouts, petit, poignees, announced, attack, defence in itertools.product(
        (40, 81, 82, 120, 182),
        (0, 1, 3),
        (-1, 0, 1),
        (0, 20, 50),
        (False, True),
        (False, True),
        (False, True),
    ):
        if attack and defence:
            continue
        kw = {
            "petit_au_bout": petit,
            "poignees": poignees,
            "chelem_announced": announced,
            "attack_slam": attack,
            "defence_slam": defence,
        }
        score, made = deal_score(contract, points2, bouts, **kw)
        lines = score_lines(contract, points2, bouts, **kw)
        assert sum(part for _, part, _ in lines) == score
        parts = {item: part for item, part, _ in lines}
        assert (
            parts["contract"]
            == (25 if made else -25)
            * {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}[contract]
        )
        assert parts["petit_au_bout"] == 10 * petit * parts["contract"] // (25 if made else -25)
        assert parts["poignee"] == (poignees if made else -poignees)
