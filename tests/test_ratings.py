"""How each game's outcome becomes Weng-Lin matches (``tablee.ratings``)."""

from __future__ import annotations

from tablee.ratings import MU, Skill, matches, rate


def test_belote_and_contree_rate_the_two_teams_winners_first() -> None:
    for game in ("belote", "contree"):
        assert matches(game, 4, {"winners": [1, 3], "scores": [80, 82, 80, 82]}) == [
            ([[0, 2], [1, 3]], [1.0, 0.0])
        ]


def test_tarot_at_five_puts_the_called_partner_on_the_takers_side_deal_by_deal() -> None:
    outcome = {
        "scores": [0] * 5,
        "winners": [0],
        "deals": [
            {"taker": 0, "partner": 3, "made": True},
            {"taker": 1, "partner": 1, "made": False},  # called their own king: alone
            {"taker": 2, "partner": None, "made": True},
        ],
    }
    assert matches("tarot", 5, outcome) == [
        ([[0, 3], [1, 2, 4]], [0.0, 1.0]),
        ([[1], [0, 2, 3, 4]], [1.0, 0.0]),
        ([[2], [0, 1, 3, 4]], [0.0, 1.0]),
    ]
    after = rate("tarot", 5, outcome, [Skill()] * 5)
    assert after[0].mu == after[3].mu  # taker and partner won the first deal together


def test_lowest_score_games_rank_the_lowest_first() -> None:
    for game in ("barbu", "freeze", "yaniv"):
        ((teams, ranks),) = matches(game, 4, {"scores": [10, 20, -5, 30], "winners": [2]})
        assert teams == [[0], [1], [2], [3]]
        order = sorted(range(4), key=lambda s: ranks[s])
        assert order == [2, 0, 1, 3]
        after = rate(game, 4, {"scores": [10, 20, -5, 30], "winners": [2]}, [Skill()] * 4)
        assert after[2].mu > MU > after[3].mu


def test_highest_score_games_rank_the_highest_first_and_ties_tie() -> None:
    ((_, ranks),) = matches("motton", 3, {"scores": [3, 9, 3], "winners": [1]})
    assert ranks[1] < ranks[0] == ranks[2]
    ((_, ranks),) = matches("contrecarte", 3, {"scores": [0, 1, 0], "winners": [1]})
    assert ranks[1] < ranks[0] == ranks[2]
    after = rate("contrecarte", 3, {"scores": [0, 1, 0], "winners": [1]}, [Skill()] * 3)
    assert after[0] == after[2] and after[1].mu > MU


def test_the_conservative_rating_is_mu_minus_three_sigma() -> None:
    assert Skill(30.0, 2.0).ordinal == 24.0
