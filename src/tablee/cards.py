"""Card notation, decks and seeded shuffles. Pure: no I/O, no global random.

The notation is the contract of DESIGN.md and is used verbatim in actions, views, logs and tests:

- French decks (32, 52, 54): rank then suit. Ranks ``2``-``9``, ``T`` (10), ``J``, ``Q``, ``K``,
  ``A``; suits ``S`` (pique), ``H`` (cœur), ``D`` (carreau), ``C`` (trèfle). Jokers: ``X1``, ``X2``.
- Tarot (78): suit cards ``1S`` ... ``9S``, ``TS``, ``JS`` (valet), ``CS`` (cavalier), ``QS``,
  ``KS``; trumps ``A1`` ... ``A21``; the Excuse ``EX``.
- Contrecarte (108): colour (``R``, ``B``, ``G``, ``Y``) then face (``0``-``9``, ``S``, ``R``,
  ``+2``); colourless ``W`` and ``W+4``.

Cards are plain ``str`` everywhere (cheap to hash, compare and serialise); this module parses them
into small named tuples when a game needs the parts, and raises :class:`CardError` (a ``ValueError``
that says what is wrong) on anything malformed.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from typing import NamedTuple

SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
RANKS_52 = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
RANKS_32 = ("7", "8", "9", "T", "J", "Q", "K", "A")
JOKERS = ("X1", "X2")

TAROT_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "C", "Q", "K")
TAROT_TRUMPS = tuple(f"A{n}" for n in range(1, 22))
EXCUSE = "EX"

CC_COLORS = ("R", "B", "G", "Y")
CC_COLOR_NAMES = {"R": "rouge", "B": "bleu", "G": "vert", "Y": "jaune"}
CC_FACES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
CC_WILD = "W"
CC_WILD4 = "W+4"


class CardError(ValueError):
    """A card string that is not in the notation of the deck it was read for."""


class French(NamedTuple):
    rank: str
    suit: str


class Tarot(NamedTuple):
    """A tarot card. ``suit`` is ``S``/``H``/``D``/``C``, ``A`` for trumps, ``EX`` for the Excuse;
    ``rank`` is the face for suit cards, the number (1..21) as text for trumps, ``""`` for EX."""

    rank: str
    suit: str


class Contre(NamedTuple):
    """A Contrecarte card: ``color`` is ``""`` for ``W`` and ``W+4``."""

    color: str
    face: str


def parse_french(card: str, *, jokers: bool = False) -> French:
    if not isinstance(card, str):
        raise CardError(f"a card is a string, got {type(card).__name__}")
    if jokers and card in JOKERS:
        return French(card[1], "X")
    if len(card) != 2 or card[0] not in RANKS_52 or card[1] not in SUITS:
        hint = " or X1/X2" if jokers else ""
        raise CardError(
            f"malformed card {card!r}: expected rank (2-9, T, J, Q, K, A)"
            f" then suit (S, H, D, C){hint}"
        )
    return French(card[0], card[1])


def parse_tarot(card: str) -> Tarot:
    if not isinstance(card, str):
        raise CardError(f"a card is a string, got {type(card).__name__}")
    if card == EXCUSE:
        return Tarot("", "EX")
    if card in _TAROT_TRUMP_SET:
        return Tarot(card[1:], "A")
    if len(card) == 2 and card[0] in TAROT_RANKS and card[1] in SUITS:
        return Tarot(card[0], card[1])
    raise CardError(
        f"malformed tarot card {card!r}: expected 1-9/T/J/C/Q/K then S/H/D/C, A1..A21 or EX"
    )


def parse_contrecarte(card: str) -> Contre:
    if not isinstance(card, str):
        raise CardError(f"a card is a string, got {type(card).__name__}")
    if card in (CC_WILD, CC_WILD4):
        return Contre("", card)
    if len(card) >= 2 and card[0] in CC_COLORS and card[1:] in CC_FACES:
        return Contre(card[0], card[1:])
    raise CardError(
        f"malformed Contrecarte card {card!r}: expected colour (R, B, G, Y) then face "
        "(0-9, S, R, +2), or W / W+4"
    )


_TAROT_TRUMP_SET = frozenset(TAROT_TRUMPS)


def deck_32() -> list[str]:
    return [r + s for s in SUITS for r in RANKS_32]


def deck_52() -> list[str]:
    return [r + s for s in SUITS for r in RANKS_52]


def deck_54() -> list[str]:
    return [*deck_52(), *JOKERS]


def deck_tarot() -> list[str]:
    return [r + s for s in SUITS for r in TAROT_RANKS] + list(TAROT_TRUMPS) + [EXCUSE]


def deck_contrecarte() -> list[str]:
    cards: list[str] = []
    for c in CC_COLORS:
        cards.append(c + "0")
        for face in CC_FACES[1:]:
            cards += [c + face, c + face]
    cards += [CC_WILD] * 4 + [CC_WILD4] * 4
    return cards


DECKS = {
    "32": deck_32,
    "52": deck_52,
    "54": deck_54,
    "tarot": deck_tarot,
    "contrecarte": deck_contrecarte,
}


def rng(seed: int | str, *salt: object) -> random.Random:
    """A private random generator for one purpose (a deal, a reshuffle) of one table.

    Seeding from a digest of the seed and the salt gives a stream that is the same on every
    machine and Python build, and independent streams for independent purposes, so that replaying
    a table's action log always deals the same cards.
    """
    text = ":".join(str(p) for p in (seed, *salt))
    digest = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def shuffled(cards: Iterable[str], seed: int | str, *salt: object) -> list[str]:
    """The cards in a random order drawn from ``rng(seed, *salt)``.

    The Fisher-Yates walk of ``random.Random.shuffle`` (CPython 3.11), spelled out on
    ``getrandbits``: the same order as ``rng(...).shuffle``, in half the time (no Python-level
    ``_randbelow`` call per card, and a deal happens every game), and pinned here rather than left
    to whatever a later Python's ``shuffle`` does, since a replay must deal the same cards."""
    deck = list(cards)
    n = len(deck)
    bits = rng(seed, *salt).getrandbits
    # Slot i takes a card drawn below i + 1 (a draw of that many bits, redrawn while too big);
    # the steps come from a table so that the loop does no arithmetic of its own.
    steps = _STEPS[_STEP_TABLE - n :] if n <= _STEP_TABLE else _steps(n)
    for i, below, k in steps:
        j = bits(k)
        while j >= below:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _steps(n: int) -> tuple[tuple[int, int, int], ...]:
    """Fisher-Yates on ``n`` cards, last slot first: (slot, draw below, bits to draw)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


_STEP_TABLE = 256
_STEPS = _steps(_STEP_TABLE)


def check_deck(cards: Sequence[str], expected: Sequence[str]) -> list[str]:
    """Validate a stacked deck: it must be a permutation of ``expected``. Returns it as a list."""
    if not isinstance(cards, list | tuple):
        raise CardError("a stacked deck is a list of card strings")
    for card in cards:
        if not isinstance(card, str):
            raise CardError(f"a card is a string, got {type(card).__name__}")
    from collections import Counter

    have, want = Counter(cards), Counter(expected)
    if have != want:
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        parts = []
        if extra:
            parts.append(f"unexpected {', '.join(extra[:8])}")
        if missing:
            parts.append(f"missing {', '.join(missing[:8])}")
        raise CardError(f"stacked deck is not a full deck: {'; '.join(parts)}")
    return list(cards)
