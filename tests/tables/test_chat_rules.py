"""The chat's rules that need no server: what a message may hold, and which games are played in
partnerships (where spectators talk among themselves during a deal)."""

from __future__ import annotations

import pytest

from tablee.games import get_game
from tablee.games.registry import game_names
from tablee.protocol import CHAT_MAX_CHARS, QUICK_PHRASES, ErrorCode
from tablee.tables import TableError
from tablee.tables.chat import clean, partnership


def test_partnership_games_are_belote_contree_and_tarot_at_five() -> None:
    found = {
        (name, n)
        for name in game_names()
        for n in range(get_game(name).min_players, get_game(name).max_players + 1)
        if partnership(name, n)
    }
    assert found == {("belote", 4), ("contree", 4), ("tarot", 5)}


@pytest.mark.parametrize(
    "text",
    [
        "Bien joué 👍",
        "👨\u200d👩\u200d👧 en famille",  # a joiner inside an emoji stays
        "Très « bien » — vraiment !",
        "x" * CHAT_MAX_CHARS,
    ],
)
def test_ordinary_text_is_kept_trimmed(text: str) -> None:
    assert clean(f"  {text}\u00a0", None) == (text, None)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " \t ",
        "a\nb",
        "a\rb",
        "tab\there",
        "\x00",
        "\x1b[31mrouge",
        "a\u202eb",
        "a\u2066b",
        "x" * 301,
    ],
)
def test_empty_long_and_control_text_is_refused(text: str) -> None:
    with pytest.raises(TableError) as refused:
        clean(text, None)
    assert refused.value.code == ErrorCode.BAD_CHAT


def test_a_quick_phrase_is_its_french_text_and_nothing_else() -> None:
    for key, said in QUICK_PHRASES.items():
        assert clean(None, key) == (said, key)
    refusals = {
        (None, "nope"): "n'existe pas",
        ("et du texte", "merci"): "pas les deux",
        (None, None): "vide",
    }
    for (text, phrase), why in refusals.items():
        with pytest.raises(TableError) as refused:
            clean(text, phrase)
        assert refused.value.code == ErrorCode.BAD_CHAT and why in refused.value.message
