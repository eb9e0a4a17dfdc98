"""Fair play: the shuffle's commitment, its verification, and what spectators see.

**The commitment.** When a game is dealt the table publishes ``commitment(seed, salt)``::

    sha256( ascii(decimal(seed)) || salt )

``decimal(seed)`` is the seed written in base 10 (a ``-`` before a negative one, no leading
zeros, no spaces), encoded in ASCII; ``salt`` is 32 random bytes (shown and stored as 64
lower-case hex digits), appended raw. The salt has a fixed length, so the two parts cannot be
told apart in two ways. The digest is shown in lower-case hex. Once the game is over the seed and
the salt are revealed (the table's ``info``, the replay, the export): anyone can check that they
hash to the commitment and that the seed deals the game that was played (``verify_game``).

What it proves: the deal was fixed before the first move; the server could not choose or change
it after seeing a move. What it does not prove: that the seed itself was drawn at random (the
server could have chosen it before the game); nor anything about a stacked deck (``deck``), which
is marked as such and never shown as verified.

Pure: no I/O, no clock; the salt is drawn by the caller (``tables``).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablee.engine import Game, IllegalAction
from tablee.export import state_digest

#: the salt's length in bytes
SALT_BYTES = 32


@functools.lru_cache(maxsize=4096)
def commitment(seed: int, salt: str) -> str:
    """``sha256(ascii(decimal(seed)) || salt)`` in hex; ``salt`` in hex (64 digits). Kept per
    (seed, salt): every state's ``info`` shows it, after every move."""
    raw = bytes.fromhex(salt)
    if len(raw) != SALT_BYTES:
        raise ValueError(f"a salt is {SALT_BYTES} bytes ({2 * SALT_BYTES} hex digits)")
    return hashlib.sha256(str(int(seed)).encode("ascii") + raw).hexdigest()


def shuffle_info(
    seed: int, salt: str | None, deck: Sequence[str] | None, over: bool
) -> dict[str, Any]:
    """What a table tells everyone of its current game's shuffle: the commitment (None: dealt
    before commitments), whether its deck was stacked, and once the game is over the seed and
    salt."""
    return {
        "commitment": None if salt is None else commitment(seed, salt),
        "stacked": deck is not None,
        "seed": seed if over and salt is not None else None,
        "salt": salt if over else None,
    }


# -- verification ---------------------------------------------------------------------------------


@dataclass
class GameCheck:
    """What ``verify_game`` found about one game: ``verified`` only when every check passed."""

    game_no: int
    verified: bool = False
    stacked: bool = False
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def verify_game(
    game: Game,
    players: int,
    options: Mapping[str, Any] | None,
    game_no: int,
    seed: int | str | None,
    salt: str | None,
    claimed: str | None,
    deck: Sequence[str] | None,
    actions: Sequence[tuple[int, dict[str, Any]]],
    final_digest: str | None = None,
    outcome: Mapping[str, Any] | None = None,
) -> GameCheck:
    """Checks a finished game: the seed and salt hash to the commitment published at the deal
    (``claimed``), every logged move is legal in the game the seed deals (the log replayed by
    the engine: a card played must be in the hand the seed gave), the game is over at the end
    of the log, and its final state and outcome are the table's. A stacked deck is never
    verified."""
    check = GameCheck(game_no, stacked=deck is not None)
    if deck is not None:
        check.problems.append("stacked deck (tests, admins): not a shuffle, nothing to verify")
        return check
    if seed is None or salt is None:
        check.problems.append("seed or salt not revealed (the game is not over?)")
        return check
    if claimed is None:
        check.problems.append("no commitment was published for this game")
        return check
    try:
        computed = commitment(int(seed), salt)
    except ValueError as exc:
        check.problems.append(f"bad seed or salt: {exc}")
        return check
    if computed != claimed:
        check.problems.append(
            f"sha256(seed || salt) is {computed}, the commitment published was {claimed}"
        )
        return check
    check.notes.append(f"commitment {claimed} matches the seed and salt")
    state = game.new(players=players, options=options, seed=seed)
    for i, (seat, action) in enumerate(actions, 1):
        try:
            state, _ = game.apply(state, seat, action)
        except IllegalAction as exc:
            check.problems.append(
                f"move {i} (seat {seat}, {action}) is not legal in the game this seed deals: {exc}"
            )
            return check
    if not game.is_over(state):
        check.problems.append(f"the game is not over after its {len(actions)} moves")
        return check
    if final_digest is not None:
        digest = state_digest(game, state)
        if digest != final_digest:
            check.problems.append(
                f"the replay ends on state sha256 {digest}, the table ended on {final_digest}"
            )
            return check
    if outcome is not None:
        mine = game.outcome(state) or {}
        for key in ("winners", "scores"):
            if key in outcome and outcome.get(key) != mine.get(key):
                check.problems.append(
                    f"the replay's {key} are {mine.get(key)}, the table's {outcome.get(key)}"
                )
                return check
    check.notes.append(f"the seed deals the game played: {len(actions)} legal moves, same end")
    check.verified = True
    return check


# -- spectators -----------------------------------------------------------------------------------

HIDDEN, TRICK, DEAL = "hidden", "trick", "deal"
#: the longest delay in moves a table may ask for
MAX_DELAY_MOVES = 200
_MOVES = re.compile(r"^moves:([1-9][0-9]{0,2})$")


@dataclass(frozen=True)
class SpectatorMode:
    """What a table's spectators see. ``hidden``: no hand (the default); else every hand, as the
    game was ``moves`` moves ago, or at the end of the last complete trick (``trick``) or deal
    (``deal``)."""

    kind: str = HIDDEN
    moves: int = 0

    @property
    def delayed(self) -> bool:
        return self.kind != HIDDEN

    def __str__(self) -> str:
        return f"moves:{self.moves}" if self.kind == "moves" else self.kind


def spectator_mode(text: str | None) -> SpectatorMode:
    """Parses a table's ``spectators`` setting; raises ``ValueError`` on anything else."""
    if text is None or text == HIDDEN:
        return SpectatorMode()
    if text in (TRICK, DEAL):
        return SpectatorMode(text)
    m = _MOVES.match(text)
    if m and int(m.group(1)) <= MAX_DELAY_MOVES:
        return SpectatorMode("moves", int(m.group(1)))
    raise ValueError(
        f"spectators: 'hidden', 'trick', 'deal' or 'moves:N' (N from 1 to {MAX_DELAY_MOVES}),"
        f" not {text!r}"
    )


__all__ = [
    "SALT_BYTES",
    "GameCheck",
    "SpectatorMode",
    "commitment",
    "shuffle_info",
    "spectator_mode",
    "verify_game",
]
