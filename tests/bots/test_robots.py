"""The "confirmé" robot: what it knows is true, the worlds it imagines agree with it, it rebuilds
the real game when given the real cards, and it decides only from what its seat may know.

States come from seeded games played half by the débutant and half at random (states a table
plays and states nobody would choose), with every event recorded; the real state is read here
only to check the robot against it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from tablee import bots
from tablee.bots import contrecarte as cc_bot
from tablee.bots import levels
from tablee.bots.contree_bids import contree_score
from tablee.bots.knowledge import Knowledge, Place, knowledge, sample
from tablee.bots.levels import CONFIRME, DEBUTANT, Budget, decide
from tablee.bots.tricks import ADAPTERS
from tablee.engine import Event, Game, visible_events
from tablee.games import get_game
from tests.games.test_decision_secrecy import SECRET_TWINS
from tests.games.variants import VARIANTS

CASES = [
    ("belote", 4, {}),
    ("contree", 4, {}),
    ("tarot", 3, {}),
    ("tarot", 4, {}),
    ("tarot", 5, {}),
    ("barbu", 4, {}),
    ("barbu", 5, {}),
    ("motton", 3, {}),
    ("motton", 5, {"blind": True}),
]
IDS = ["-".join([g, f"{n}p", *sorted(o)]) for g, n, o in CASES]
#: the games whose confirmé is a policy of its own (``levels.POLICIES``), not a trick search
POLICY_CASES = [
    ("freeze", 4, {}),
    ("yaniv", 4, {}),
    ("yaniv", 3, {}),
]
POLICY_IDS = ["-".join([g, f"{n}p", *sorted(o)]) for g, n, o in POLICY_CASES]


def moments(
    name: str, players: int, options: dict[str, Any], seed: int, every: int = 1
) -> Iterator[tuple[Game, Any, int, list[Event]]]:
    """(game, state, seat to act, events so far) along a seeded game, one step in ``every``."""
    game = get_game(name)
    rnd = random.Random(seed)
    state = game.new(players=players, options=options, seed=seed)
    events: list[Event] = []
    for step in range(1500):
        if game.is_over(state):
            return
        seat = game.to_act(state)[0]
        if step % every == 0:
            yield game, state, seat, events
        legal = game.legal_actions(state, seat)
        action = bots.play(game, state, seat) if rnd.random() < 0.5 else rnd.choice(legal)
        state, more = game.apply(state, seat, action)
        events = events + more


def true_deal(game: Game, state: Any, know: Knowledge) -> dict[Place, list[str]]:
    """Where the real state holds the cards the seat cannot see (read from its JSON)."""
    data = game.to_json(state)
    out: dict[Place, list[str]] = {}
    for place in {*know.sizes, *know.known}:
        if isinstance(place, int):
            out[place] = list(data["hands"][place])
        elif place == "turned":
            out[place] = [data["turned"]]
        else:
            out[place] = list(data[place])
    return out


def searched_moments(
    name: str, players: int, options: dict[str, Any], seed: int
) -> Iterator[tuple[Game, Any, int, list[Event], dict[str, Any], Knowledge]]:
    adapter = ADAPTERS[name]
    for game, state, seat, events in moments(name, players, options, seed):
        view = game.view(state, seat)
        if view["phase"] not in levels.SEARCHED[name]:
            continue
        know = adapter.knowledge(game, view, visible_events(events, seat))
        assert know is not None, (name, view["phase"])
        yield game, state, seat, events, view, know


# -- the sampler -----------------------------------------------------------------------------------


def _toy() -> Knowledge:
    deck = [r + s for s in "SHDC" for r in "789TJQKA"]
    mine = deck[:8]
    played = deck[8:12]
    know = knowledge(
        0,
        deck,
        mine,
        played,
        {1: 7, 2: 6, 3: 7},
        known={3: ["AC"]},
        # seat 1 showed void in hearts and diamonds, seat 2 in spades and clubs
        excluded={1: [c for c in deck if c[1] in "HD"], 2: [c for c in deck if c[1] in "SC"]},
    )
    assert know is not None
    return know


def test_the_sampler_never_deals_a_card_to_a_seat_void_in_its_suit() -> None:
    know = _toy()
    rnd = random.Random(1)
    for _ in range(300):
        deal = sample(know, rnd)
        assert deal is not None
        assert not any(c[1] in "HD" for c in deal[1]), deal[1]
        assert not any(c[1] in "SC" for c in deal[2]), deal[2]


def test_the_sampler_respects_hand_sizes_and_known_cards() -> None:
    know = _toy()
    rnd = random.Random(2)
    for _ in range(100):
        deal = sample(know, rnd)
        assert deal is not None
        assert [len(deal[s]) for s in (1, 2, 3)] == [7, 6, 7]
        assert "AC" in deal[3]
        dealt = [c for cs in deal.values() for c in cs]
        assert sorted(dealt) == sorted([*know.unseen, "AC"])


def test_the_sampler_never_deals_the_seats_own_or_played_cards() -> None:
    know = _toy()
    deck = [r + s for s in "SHDC" for r in "789TJQKA"]
    rnd = random.Random(3)
    for _ in range(100):
        deal = sample(know, rnd)
        assert deal is not None
        dealt = {c for cs in deal.values() for c in cs}
        assert not dealt & set(deck[:12])


def test_the_sampler_spreads_its_deals_and_repeats_them_from_a_seed() -> None:
    know = _toy()
    first = [sample(know, random.Random(9)) for _ in range(2)]
    assert first[0] == first[1]
    where = Counter(
        next(p for p, cs in deal.items() if "8D" in cs)
        for deal in (sample(know, random.Random(k)) for k in range(200))
        if deal is not None
    )
    # seat 1 holds no diamond; 8D may lie with seat 2 or seat 3, and both happen
    assert set(where) == {2, 3}, where


def test_the_sampler_finds_the_one_deal_a_tight_knowledge_allows() -> None:
    deck = ["AS", "KS", "AH", "KH"]
    know = knowledge(0, deck, [], [], {1: 2, 2: 2}, excluded={1: ["AH", "KH"], 2: ["AS"]})
    assert know is not None
    for seed in range(20):
        deal = sample(know, random.Random(seed))
        assert deal is not None
        assert sorted(deal[1]) == ["AS", "KS"] and sorted(deal[2]) == ["AH", "KH"]


def test_the_sampler_says_when_no_deal_fits() -> None:
    deck = ["AS", "KS", "AH", "KH"]
    know = knowledge(0, deck, [], [], {1: 2, 2: 2}, excluded={1: ["AH", "KH", "KS"]})
    assert know is not None
    assert sample(know, random.Random(0)) is None


def test_a_knowledge_whose_counts_do_not_add_up_is_refused() -> None:
    deck = ["AS", "KS", "AH", "KH"]
    assert knowledge(0, deck, ["AS"], [], {1: 2, 2: 2}) is None
    assert knowledge(0, deck, ["AS"], ["AS"], {1: 3}) is None


# -- the knowledge of real games -------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_what_the_robot_knows_is_true(name: str, players: int, options: dict[str, Any]) -> None:
    """The real hidden cards keep every constraint the robot drew from its view and events: each
    place's size, the cards it knows where they lie, the cards it rules out of a place."""
    checked = excluded = 0
    for seed in range(3):
        for game, state, _, _, _, know in searched_moments(name, players, options, seed):
            deal = true_deal(game, state, know)
            for place, size in know.sizes.items():
                assert len(deal[place]) == size + len(know.known.get(place, ())), place
            for place, cards in know.known.items():
                assert set(cards) <= set(deal[place]), (place, cards)
            for place, cards in know.excluded.items():
                assert not set(cards) & set(deal[place]), (place, set(cards) & set(deal[place]))
                excluded += len(cards)
            dealt = sorted(c for cs in deal.values() for c in cs)
            assert dealt == sorted([*know.unseen, *(c for cs in know.known.values() for c in cs)])
            checked += 1
    assert checked >= 20
    assert excluded > 0  # voids were found, and they were right


def _comparable(game: Game, state: Any) -> dict[str, Any]:
    """A state's JSON without what a seat cannot rebuild and does not need: the seed of later
    deals (and tarot's count of shuffles), tarot's record of earlier deals, and the order cards
    lie in within a hand."""
    data = game.to_json(state)
    data.pop("seed")
    if game.name == "tarot":
        data.pop("attempt")
        data.pop("history")
        data.pop("scores")
    data["hands"] = [sorted(h) for h in data["hands"]]
    for pile in ("stock", "chien", "chien_dealt", "ecart"):
        if pile in data:
            data[pile] = sorted(data[pile])
    return data


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_given_the_real_cards_the_robot_rebuilds_the_real_game(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """The worlds the robot plays out are the game itself: its state built from the view and the
    real hidden cards is the real state (but for what no seat can know and no play needs)."""
    adapter = ADAPTERS[name]
    checked = 0
    for seed in range(2):
        for game, state, _, _, view, know in searched_moments(name, players, options, seed):
            built = adapter.build(game, view, know, true_deal(game, state, know))
            assert _comparable(game, built) == _comparable(game, state)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_every_imagined_world_agrees_with_the_seat(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """A sampled world gives the seat the same hand, the same legal moves and the same public
    facts as the real game."""
    adapter = ADAPTERS[name]
    rnd = random.Random(5)
    for game, state, seat, _, view, know in searched_moments(name, players, options, 7):
        deal = adapter.draw(view, know, rnd)
        assert deal is not None
        world = adapter.build(game, view, know, deal)
        legal = game.legal_actions(state, seat)
        mine = game.legal_actions(world, seat)
        assert len(mine) == len(legal) and all(a in legal for a in mine)
        seen = game.view(world, seat)
        for key in ("hand", "counts", "trick", "last_trick", "phase", "turn", "tricks_won"):
            if key in view:
                assert seen[key] == view[key], key


# -- deciding from the seat's knowledge only -------------------------------------------------------

SMALL = Budget(worlds=3, bidding=2)


def _relabelled(
    game: Game, state: Any, events: list[Event], seat: int, rnd: random.Random
) -> tuple[Any, list[Event]]:
    """``state`` with the cards hidden from ``seat`` shuffled among the places they lie in, and
    the events the seat did not see told of the shuffled cards (``conformance.relabelled``,
    events included)."""
    secret = game.hidden(state, seat)
    names = sorted(secret & set(game.cards(state)))
    shuffled = names[:]
    rnd.shuffle(shuffled)
    mapping = dict(zip(names, shuffled, strict=True))

    def swap(obj: Any) -> Any:
        if isinstance(obj, str):
            return mapping.get(obj, obj)
        if isinstance(obj, list):
            return [swap(x) for x in obj]
        if isinstance(obj, dict):
            return {mapping.get(k, k): swap(v) for k, v in obj.items()}
        return obj

    twin = game.from_json(swap(game.to_json(state)))
    unseen = [e if "to" not in e or seat in e["to"] else swap(e) for e in events]
    return twin, unseen


def _twins(
    game: Game, state: Any, events: list[Event], seat: int, rnd: random.Random
) -> list[tuple[Any, list[Event]]]:
    out = []
    view = game.view(state, seat)
    for _ in range(10):
        twin, twin_events = _relabelled(game, state, events, seat, rnd)
        if game.view(twin, seat) == view:
            out.append((twin, twin_events))
            break
    extra = SECRET_TWINS.get(game.name)
    if extra is not None:
        twin = extra(game.from_json(game.to_json(state)), seat, rnd)
        if twin is not None and game.view(twin, seat) == view:
            out.append((twin, events))
    return out


def secrecy_cases(
    name: str, players: int, options: dict[str, Any]
) -> Iterator[tuple[Game, Any, int, list[Event], list[tuple[Any, list[Event]]]]]:
    rnd = random.Random(players)
    for seed in range(11, 31):
        for game, state, seat, events in moments(name, players, options, seed, every=5):
            if len(game.legal_actions(state, seat)) < 2:
                continue
            twins = _twins(game, state, events, seat, rnd)
            if twins:
                yield game, state, seat, events, twins


@pytest.mark.parametrize(("name", "players", "options"), CASES + POLICY_CASES, ids=IDS + POLICY_IDS)
def test_a_confirme_decides_only_with_what_its_seat_may_know(
    name: str, players: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twins that differ only in what the seat cannot know (the hidden cards, and the events
    telling of them to the others; tarot: who holds the called card) get the same move from the
    same seed."""
    searched = []
    think = levels.think

    def counted(*args: Any) -> Any:
        choice = think(*args)
        searched.append(choice is not None)
        return choice

    monkeypatch.setattr(levels, "think", counted)
    checked = 0
    for k, (game, state, seat, events, twins) in enumerate(secrecy_cases(name, players, options)):
        if k >= 14:
            break
        move = decide(game, state, seat, events, level=CONFIRME, seed=k, budget=SMALL)
        assert move in game.legal_actions(state, seat)
        for twin, twin_events in twins:
            again = decide(game, twin, seat, twin_events, level=CONFIRME, seed=k, budget=SMALL)
            assert again == move, (name, game.view(state, seat)["phase"], move, again)
            checked += 1
    assert checked >= 8
    # most decisions were the search's, not the débutant's it falls back on
    assert sum(searched) >= len(searched) / 2, searched


def test_the_secrecy_check_catches_a_robot_that_peeks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A robot whose worlds were the real game (it saw every card) decides differently on some
    twin: the check above can fail."""
    game = get_game("belote")
    adapter = ADAPTERS["belote"]
    real: dict[str, Any] = {}
    monkeypatch.setattr(adapter, "build", lambda *args: real["state"])
    caught = 0
    for k, (_, state, seat, events, twins) in enumerate(secrecy_cases("belote", 4, {})):
        if game.view(state, seat)["phase"] != "play":
            continue
        real["state"] = state
        move = decide(game, state, seat, events, level=CONFIRME, seed=k, budget=SMALL)
        for twin, twin_events in twins:
            real["state"] = twin
            caught += (
                decide(game, twin, seat, twin_events, level=CONFIRME, seed=k, budget=SMALL) != move
            )
    assert caught > 0


def test_the_same_seed_gives_the_same_move() -> None:
    for k, (game, state, seat, events, _) in enumerate(secrecy_cases("tarot", 4, {})):
        if k >= 6:
            break
        a = decide(game, state, seat, events, level=CONFIRME, seed=k, budget=SMALL)
        b = decide(game, state, seat, list(events), level=CONFIRME, seed=k, budget=SMALL)
        assert a == b


def test_the_debutant_is_the_bot_of_today_and_levels_are_checked() -> None:
    for game, state, seat, events in moments("contree", 4, {}, 3, every=7):
        assert decide(game, state, seat, events, level=DEBUTANT) == bots.play(game, state, seat)
    game = get_game("belote")
    state = game.new(players=4, seed=1)
    with pytest.raises(ValueError, match="unknown robot level"):
        decide(game, state, 0, [], level="expert")


def test_a_confirme_without_the_deals_events_plays_as_the_debutant() -> None:
    """Events missing (the view counts tricks the events do not tell): no search on a false
    history, the débutant's move instead."""
    for game, state, seat, _ in moments("belote", 4, {}, 4):
        if (
            game.view(state, seat)["phase"] == "play"
            and game.view(state, seat)["tricks_won"] != [0] * 4
        ):
            move = decide(game, state, seat, [], level=CONFIRME, seed=1, budget=SMALL)
            assert move == bots.play(game, state, seat)
            return
    raise AssertionError("no trick was played")


@pytest.mark.parametrize(("name", "players", "options"), CASES + POLICY_CASES, ids=IDS + POLICY_IDS)
def test_a_table_of_confirmes_plays_a_deal_to_its_end(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = get_game(name)
    state = game.new(players=players, options=options, seed=21)
    events: list[Event] = []
    for step in range(600):
        seat = game.to_act(state)[0]
        move = decide(game, state, seat, events, level=CONFIRME, seed=step, budget=SMALL)
        assert move in game.legal_actions(state, seat)
        state, more = game.apply(state, seat, move)
        events += more
        if any(e["type"] == "deal_end" for e in more):
            return
    raise AssertionError(f"{name}: the deal did not end")


# -- contrée's count, as the bidding reads it ------------------------------------------------------


def test_the_bidding_counts_a_contree_deal_as_the_game_does() -> None:
    """``contree_score`` on a played deal's figures gives the deal's own scores, contré and
    surcontré deals included."""
    seen: Counter[tuple[bool, int]] = Counter()
    game = get_game("contree")
    for seed in range(60):
        state = game.new(players=4, seed=seed)
        for _ in range(300):
            seat = game.to_act(state)[0]
            move = bots.play(game, state, seat)
            # a contre by the next opponent on some deals; a surcontre on some of those
            contre = [s for s in range(4) if {"type": "contre"} in game.legal_actions(state, s)]
            if contre and seed % 3:
                seat, move = contre[0], {"type": "contre"}
            elif game.view(state, None)["phase"] == "surcontre" and seed % 3 == 2:
                move = {"type": "surcontre"}
            state, more = game.apply(state, seat, move)
            ends = [e for e in more if e["type"] == "deal_end"]
            if ends:
                row = ends[0]
                takers = row["taker"] % 2
                for team in (0, 1):
                    got = contree_score(team, takers, row["value"], row["coinche"], row)
                    assert got == row["scores"][team] - row["scores"][1 - team], row
                seen[row["made"], row["coinche"]] += 1
                break
    assert {(True, 1), (False, 1), (False, 2)} <= set(seen), seen


def test_the_confirme_ecart_voids_a_short_suit_without_a_king_honours_first() -> None:
    from tablee.bots.tricks import tarot_ecart

    hand = ["3S", "QS", "KH", "2H", "5H", "1D", "4D", "7D", "9D", "A5", "A7"]
    discards = [{"type": "discard", "card": c} for c in hand if c[0] != "K" and c[0] != "A"]
    picks = []
    for _ in range(3):
        move = tarot_ecart(hand, discards)
        assert move is not None
        picks.append(move["card"])
        hand.remove(move["card"])
        discards.remove(move)
    # spades (two cards, no king) go first, the queen before the three; then diamonds, which
    # no king guards, before the small hearts the king guards
    assert picks == ["QS", "3S", "1D"]


# -- yaniv: the call -------------------------------------------------------------------------------


def _yaniv_calls() -> Iterator[tuple[Game, Any, int, list[Event], dict[str, Any], Knowledge]]:
    from tablee.bots import yaniv

    adapter = yaniv.YanivAdapter()
    for seed in range(6):
        for game, state, seat, events in moments("yaniv", 4, {}, seed):
            view = game.view(state, seat)
            if yaniv.candidates(view, game.legal_actions(state, seat)) is None:
                continue
            know = adapter.knowledge(game, view, visible_events(events, seat))
            assert know is not None
            yield game, state, seat, events, view, know


def test_what_a_yaniv_robot_knows_of_hands_and_pile_is_true() -> None:
    from tablee.bots import yaniv

    checked = named = 0
    for game, state, _, _, view, know in _yaniv_calls():
        data = game.to_json(state)
        for place, size in know.sizes.items():
            if isinstance(place, int):
                assert len(data["hands"][place]) == size + len(know.known.get(place, ()))
                assert set(know.known.get(place, ())) <= set(data["hands"][place])
        assert know.sizes["stock"] == len(data["stock"])
        pile = yaniv._pile_of(view, know)
        assert set(pile) <= set(data["pile"])
        named += len(pile)
        checked += 1
    assert checked >= 10 and named > 0


def test_a_yaniv_robot_calls_from_what_its_seat_may_know() -> None:
    # the moments it may call, each checked (the cases above check one step in five)
    rnd = random.Random(4)
    checked = 0
    for k, (game, state, seat, events, _, _) in enumerate(_yaniv_calls()):
        move = decide(game, state, seat, events, level=CONFIRME, seed=k, budget=SMALL)
        for twin, twin_events in _twins(game, state, events, seat, rnd):
            again = decide(game, twin, seat, twin_events, level=CONFIRME, seed=k, budget=SMALL)
            assert again == move
            checked += 1
    assert checked >= 10


def _yaniv_view(
    hands: list[list[str]], turned: str, known: tuple[tuple[str, ...], ...] = ()
) -> tuple[Game, Any]:
    from dataclasses import replace

    from tests.games.test_yaniv import yaniv_table

    state = yaniv_table(hands, turned=turned)
    if known:
        state = replace(state, known=known)
    return get_game("yaniv"), state


def _policy_move(game: Game, state: Any, seat: int = 0) -> Any:
    from tablee.bots import yaniv

    view = game.view(state, seat)
    legal = game.legal_actions(state, seat)
    return yaniv.policy(game, view, legal, [], random.Random(0), SMALL)


def test_the_yaniv_policy_lays_a_high_card_to_take_the_third_of_a_set() -> None:
    # the débutant lays the pair of sevens (14 points); the confirmé lays the king and takes
    # the 7C, to lay three sevens (21) next turn
    game, state = _yaniv_view(
        [["KS", "7H", "7D", "AC", "2C"], ["8C", "9D", "TS", "JC", "QS"]], "7C"
    )
    assert bots.play(game, state, 0) == {"type": "discard", "cards": ["7H", "7D"]}
    move = _policy_move(game, state)
    assert move == {"type": "discard", "cards": ["KS"]}
    state, _ = game.apply(state, 0, move)
    assert _policy_move(game, state) == {"type": "draw", "from": "discard", "card": "7C"}


def test_the_yaniv_policy_takes_the_card_that_makes_a_run() -> None:
    game, state = _yaniv_view(
        [["5H", "6H", "KD", "QC", "AS"], ["8C", "9D", "TS", "JC", "QS"]], "7H"
    )
    move = _policy_move(game, state)
    assert move["type"] == "discard" and not {"5H", "6H"} & set(move["cards"])
    state, _ = game.apply(state, 0, move)
    assert bots.play(game, state, 0) == {"type": "draw", "from": "stock"}
    assert _policy_move(game, state) == {"type": "draw", "from": "discard", "card": "7H"}


def test_the_yaniv_policy_calls_by_the_risk_of_an_assaf() -> None:
    full = ["8C", "9D", "TS", "JC", "QS"]
    # 7 points against three hands of five unseen cards: an assaf is unlikely
    game, state = _yaniv_view(
        [["3S", "4D"], full, ["8D", "9H", "TH", "JD", "QH"], ["8H", "9S", "TC", "JS", "QD"]], "KS"
    )
    assert _policy_move(game, state) == {"type": "yaniv"}
    # the same against a hand of one unseen card: it is likely worth 7 or less
    game, state = _yaniv_view([["3S", "4D"], full, ["5C"], ["8H", "9S", "TC", "JS", "QD"]], "KS")
    assert _policy_move(game, state)["type"] == "discard"
    # never into a sure assaf, even with 1 point: seat 1 holds only the joker it took
    game, state = _yaniv_view([["AS"], ["X1"], full], "KS", known=((), ("X1",), ()))
    assert _policy_move(game, state)["type"] == "discard"


def test_the_yaniv_policy_leaves_a_joker_that_would_tie_two_wholly_known_hands() -> None:
    # as the timeout move: with the X1, seat 0 and seat 1 (the X2 it took) would each see a
    # sure assaf in the other for ever
    game, state = _yaniv_view([["AD"], ["X2"], ["KD"], ["QD"]], "X1", known=((), ("X2",), (), ()))
    state, _ = game.apply(state, 0, {"type": "discard", "cards": ["AD"]})
    assert _policy_move(game, state) == {"type": "draw", "from": "stock"}
    game, state = _yaniv_view([["AD"], ["X2"], ["KD"], ["QD"]], "X1")
    state, _ = game.apply(state, 0, {"type": "discard", "cards": ["AD"]})
    assert _policy_move(game, state) == {"type": "draw", "from": "discard", "card": "X1"}


# -- the variants (DECISIONS.md, "Variants") -------------------------------------------------------


VARIANT_CASES = [(name, options) for name in sorted(VARIANTS) for options in VARIANTS[name]]


@pytest.mark.parametrize("case", VARIANT_CASES, ids=lambda c: f"{c[0]}-{'-'.join(sorted(c[1]))}")
def test_both_levels_play_every_variant_with_legal_moves(case: tuple[str, dict[str, Any]]) -> None:
    """The variants' new moves (barbu's choice of contract, SA and TA bids, the annonces) get a
    legal move from both levels; the confirmé searches barbu au choix's play and plays as the
    débutant at belote and contrée tables with variants."""
    name, options = case
    game = get_game(name)
    for level in (DEBUTANT, CONFIRME):
        state = game.new(4, options, seed=3)
        events: list[Event] = []
        types: set[str] = set()
        for step in range(60):
            if game.is_over(state):
                break
            seat = next(s for s in game.to_act(state) if game.legal_actions(state, s))
            action = decide(game, state, seat, events, level=level, seed=step, budget=Budget(2))
            assert action in game.legal_actions(state, seat), (level, action)
            types.add(action["type"])
            state, more = game.apply(state, seat, action)
            events += more
        assert "play" in types
        if options.get("choice"):
            assert "choose" in types  # the first round's dealer chose its contract


# -- Contrecarte: the confirmé's own policy --------------------------------------------------------

CONTRECARTE_CASES = [("contrecarte", 2, {}), ("contrecarte", 4, {}), ("contrecarte", 6, {})]
CONTRECARTE_IDS = [f"{g}-{n}p" for g, n, _ in CONTRECARTE_CASES]


@pytest.mark.parametrize(("name", "players", "options"), CONTRECARTE_CASES, ids=CONTRECARTE_IDS)
def test_a_contrecarte_confirme_decides_only_with_what_its_seat_may_know(
    name: str, players: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the robot searches only near the end of the game: here, at every move, so that the twins
    # test its worlds and not the débutant it falls back on
    monkeypatch.setattr(cc_bot, "CLOSE", 99)
    test_a_confirme_decides_only_with_what_its_seat_may_know(name, players, options, monkeypatch)


@pytest.mark.parametrize(("name", "players", "options"), CONTRECARTE_CASES, ids=CONTRECARTE_IDS)
def test_a_table_of_contrecarte_confirmes_plays_a_game_to_its_end(
    name: str, players: int, options: dict[str, Any]
) -> None:
    test_a_table_of_confirmes_plays_a_deal_to_its_end(name, players, options)


def test_what_a_contrecarte_robot_knows_of_the_pile_and_the_hands_is_true() -> None:
    """The unseen cards are exactly the others' hands, the stock and the pile's unnamed bottom;
    and at a table playing the table's move, a seat never holds a card it showed it lacked (nor
    more of them than it drew since)."""
    game = get_game("contrecarte")
    lacking = 0
    for seed in range(6):
        state = game.new(players=4, seed=seed)
        events: list[Event] = []
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            know = cc_bot.read(game.view(state, seat), visible_events(events, seat))
            assert know is not None
            hidden = [c for t, h in enumerate(state.hands) if t != seat for c in h]
            hidden += [*state.stock, *state.discard[: know.pile.count(None)]]
            assert Counter(know.unseen) == Counter(hidden)
            assert [c for c in know.pile if c is not None] == list(
                state.discard[know.pile.count(None) :]
            )
            for other, lacks in know.lacks.items():
                hand = state.hands[other]
                assert not any(c in lacks.hard for c in hand)
                assert sum(c in lacks.soft for c in hand) <= max(0, lacks.free)
                lacking += bool(lacks.hard)
            state, more = game.apply(state, seat, game.auto_action(state, seat))
            events += more
    assert lacking > 50


def _contrecarte(
    hands: list[list[str]], top: str, announced: tuple[bool, ...] | None = None
) -> tuple[Game, Any]:
    game = get_game("contrecarte")
    data = game.to_json(game.new(players=len(hands), seed=5))
    used = Counter(c for h in hands for c in h) + Counter([top])
    stock = list((Counter(game.deck(len(hands))) - used).elements())
    data.update(
        hands=hands,
        stock=stock,
        discard=[top],
        color=top[0],
        turn=0,
        phase="play",
        drawn=None,
        announced=list(announced or (False,) * len(hands)),
    )
    return game, game.from_json(data)


def test_a_contrecarte_confirme_keeps_its_joker_to_finish() -> None:
    """With a red card and a joker left on a red top, the red card goes first, with "Carte !":
    the joker then goes on anything."""
    game, state = _contrecarte([["W", "R5"], ["B1", "B2", "B3"], ["G1", "G2"], ["Y1", "Y2"]], "R7")
    move = decide(game, state, 0, [], level=CONFIRME, seed=3, budget=SMALL)
    assert move == {"type": "play", "card": "R5", "announce": True}


def test_a_contrecarte_confirme_hits_the_next_seat_on_its_last_card() -> None:
    """The next seat holds one card: a +2 makes it draw and skips it, where the débutant lays
    the first red card of its hand and lets it play its last."""
    hands = [["R5", "R+2", "B4", "G6"], ["R9"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]]
    game, state = _contrecarte(hands, "R7", (False, True, False, False))
    assert decide(game, state, 0, [], level=DEBUTANT)["card"] == "R5"
    move = decide(game, state, 0, [], level=CONFIRME, seed=3, budget=SMALL)
    assert move == {"type": "play", "card": "R+2"}


def _ruled(game: Game, state: Any, lacks: dict[int, set[str]] | None = None) -> Any:
    """Seat 0's move by the direct rules alone (None: left to the search and the table's move),
    the seats of ``lacks`` having shown they hold none of those cards."""
    view = game.view(state, 0)
    know = cc_bot.read(view, [])
    assert know is not None
    shown = {s: cc_bot.Lacks(hard=set(cards)) for s, cards in (lacks or {}).items()}
    return cc_bot.ruled(view, game.legal_actions(state, 0), replace(know, lacks=shown))


REDS = {c for c in cc_bot.DECK if c.startswith("R")}


def test_a_contrecarte_confirme_stops_a_low_next_seat_without_freeing_the_one_before() -> None:
    """The next seat holds two cards: a passe stops it; an inversion would hand the turn to the
    seat before, as low at 4 players (so the passe, else nothing), a passe at 2 players."""
    hands = [["R5", "RR", "RS", "B4"], ["B1", "B2"], ["G1", "G2", "G3"], ["Y1", "Y2"]]
    game, state = _contrecarte(hands, "R7")
    assert _ruled(game, state) == {"type": "play", "card": "RS"}
    hands[0] = ["R5", "RR", "B4"]
    game, state = _contrecarte(hands, "R7")
    assert _ruled(game, state) is None
    game, state = _contrecarte([hands[0], ["B1", "B2"]], "R7")
    assert _ruled(game, state) == {"type": "play", "card": "RR"}


def test_a_contrecarte_confirme_plays_a_colour_the_next_seat_lacks() -> None:
    """On a yellow 5 the débutant plays its green 5 (green is its most held colour); the next
    seat drew on red, so the confirmé plays its red 5 and leaves that seat to draw."""
    hands = [["R5", "G5", "G6", "B1"], ["B1", "B2", "B3"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]]
    game, state = _contrecarte(hands, "Y5")
    assert decide(game, state, 0, [], level=DEBUTANT)["card"] == "G5"
    assert _ruled(game, state) is None
    assert _ruled(game, state, {1: REDS}) == {"type": "play", "card": "R5"}
    assert _ruled(game, state, {2: REDS}) is None  # a seat that plays later tells nothing here


def test_a_contrecarte_confirme_names_for_its_joker_a_colour_the_next_seat_lacks() -> None:
    """A joker on a red top, a blue and a green card left: the débutant names blue (the first of
    the colours held alike), the confirmé green when the next seat showed it lacks green."""
    greens = {c for c in cc_bot.DECK if c.startswith("G")}
    hands = [["W", "B1", "G2"], ["B3", "B2", "B4"], ["G1", "G3", "G4"], ["Y1", "Y2", "Y3"]]
    game, state = _contrecarte(hands, "R7")
    assert decide(game, state, 0, [], level=DEBUTANT) == {"type": "play", "card": "W", "color": "B"}
    move = _ruled(game, state, {1: greens})
    assert move == {"type": "play", "card": "W", "color": "G"}


def test_a_contrecarte_confirme_accepts_a_plus_four() -> None:
    """Nothing the seat sees tells an illegal +4: it accepts, as the débutant does."""
    game = get_game("contrecarte")
    for seed in range(40):
        state = game.new(players=4, seed=seed)
        events: list[Event] = []
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if game.view(state, seat)["pending"] is not None:
                move = decide(game, state, seat, events, level=CONFIRME, seed=1, budget=SMALL)
                assert move == {"type": "accept"}
                return
            state, more = game.apply(state, seat, game.auto_action(state, seat))
            events += more
    raise AssertionError("no +4 was played")
