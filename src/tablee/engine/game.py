"""The game-agnostic contract every game implements (DESIGN.md, "The engine contract").

A game is an object without state of its own: the state is a frozen dataclass of plain values that
every method takes and ``apply`` replaces. ``BaseGame`` holds what every game does the same way
(argument checks, options, JSON, event visibility, the dispatch of a move, the read methods of a
state that has ``players``, ``phase`` and ``turn`` fields, the header of every view); a game
subclasses it, implements ``_new``, declares its ``moves`` (phase -> action type -> ``Move``, see
``.moves``) and the rest of the contract.

Besides its own ``option_specs``, every game takes one option the engine declares for all:
``first_dealer``, the seat that deals the first deal (``None``, the default: the last seat, so
seat 0 speaks first). A rematch sets it to the seat after the previous game's first dealer, so
that the first deal of a match rotates as the dealer does from one deal to the next. The lobby's
form does not show it (``describe`` leaves it out): nobody has a seat yet when it is filled in.

Events are dicts with a ``type``. An event carrying ``"to": [seats]`` is seen only by those seats
(a card drawn, a card peeked at); without ``to`` it is public. ``visible_events`` strips ``to``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from tablee.cards import CardError, check_deck, shuffled

from .errors import IllegalAction, InvalidOptions
from .moves import Move, MoveTable, unexpected_field
from .options import OptionSet, OptionSpec
from .serial import from_jsonable, to_jsonable
from .state import plain

Action = dict[str, Any]
Event = dict[str, Any]
S = TypeVar("S")

FIRST_DEALER = "first_dealer"
_FIRST_DEALER_SPEC = OptionSpec(
    FIRST_DEALER,
    "int",
    None,
    "Premier donneur",
    help="vide : le dernier siège, et le siège 0 parle le premier",
    min=0,
    nullable=True,
)


def first_dealer(players: int, options: Mapping[str, Any] | None) -> int:
    """The seat dealing the first deal under ``options`` (normalized or not): the option's
    seat, else the last seat."""
    seat = (options or {}).get(FIRST_DEALER)
    return players - 1 if seat is None else int(seat)


@runtime_checkable
class Game(Protocol):
    # read-only: a game declares them once for the class (``BaseGame``'s ClassVars), and mypy
    # matches a ClassVar to a protocol property but not to a settable instance attribute
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...

    def new(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        deck: Sequence[str] | None = None,
    ) -> Any: ...
    def players(self, state: Any) -> int: ...
    def to_act(self, state: Any) -> tuple[int, ...]: ...
    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...
    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]: ...
    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...
    def views(
        self, state: Any, seats: Iterable[int | None]
    ) -> dict[int | None, dict[str, Any]]: ...
    def auto_action(self, state: Any, seat: int) -> Action: ...
    def is_over(self, state: Any) -> bool: ...
    def outcome(self, state: Any) -> dict[str, Any] | None: ...
    def to_json(self, state: Any) -> dict[str, Any]: ...
    def from_json(self, data: Mapping[str, Any]) -> Any: ...
    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]: ...
    def cards(self, state: Any) -> list[str]: ...
    def hidden(self, state: Any, seat: int | None) -> frozenset[str]: ...
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]: ...
    def describe(self) -> dict[str, Any]: ...


_NO_MOVES: Mapping[str, Move] = {}
#: a view header's value the game does not give: read from the state's common fields
_COMMON: Any = object()


class BaseGame(ABC, Generic[S]):
    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: one line of French for the lobby
    summary: ClassVar[str] = ""
    #: phase -> action type -> how the phase takes it: what ``_apply`` dispatches on
    moves: ClassVar[MoveTable] = {}
    #: the phase of a finished game (``state.phase``): ``is_over`` and ``to_act`` read it
    over_phase: ClassVar[Any] = None
    #: check a move's fields before whether the seat may make it (else after)
    fields_first: ClassVar[bool] = False
    #: whether the game refuses seats in ``check_seat`` (set for each game class)
    _checks_seat: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._checks_seat = cls.check_seat is not BaseGame.check_seat

    # -- construction -------------------------------------------------------------------------

    def new(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        deck: Sequence[str] | None = None,
    ) -> S:
        self.check_players(players)
        opts = self.normalize_options(options)
        dealer = first_dealer(players, opts)
        if dealer >= players:
            raise InvalidOptions(
                FIRST_DEALER, f"seats are numbered 0 to {players - 1}, not {dealer}"
            )
        # the hook gets the seat itself, the default resolved
        opts[FIRST_DEALER] = dealer
        # plain: the states evolved from it keep their fields in plain dicts (see .state)
        return plain(self._new(players, opts, 0 if seed is None else seed, deck))

    @abstractmethod
    def _new(
        self, players: int, options: dict[str, Any], seed: int | str, deck: Sequence[str] | None
    ) -> S:
        """The state before the first move. ``options`` are normalized, and
        ``options["first_dealer"]`` is the first deal's dealer (a seat, never ``None``)."""

    @staticmethod
    def first_cards(deck: Sequence[str] | None, full: Sequence[str], seed: int | str) -> list[str]:
        """The cards of the first deal: a stacked ``deck`` checked to hold exactly the ``full``
        deck's cards, else the full deck shuffled from the seed for deal 1."""
        if deck is None:
            return shuffled(full, seed, "deal", 1)
        try:
            return check_deck(deck, full)
        except CardError as exc:
            raise InvalidOptions("deck", str(exc)) from None

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptions("players", f"must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                "players",
                f"{self.name} is played by {self.min_players} to {self.max_players} players,"
                f" not {players}",
            )

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The game's own options and ``first_dealer``, defaults filled in, all checked (the
        dealer's seat against the player count in ``new``, which knows it)."""
        return OptionSet((*self.option_specs, _FIRST_DEALER_SPEC)).normalize(options)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [s.describe() for s in self.option_specs],
        }

    # -- moves ----------------------------------------------------------------------------------

    def apply(self, state: S, seat: int, action: Any) -> tuple[S, list[Event]]:
        """Checks what every game checks the same way, then hands over to ``_apply``."""
        n = self.players(state)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise IllegalAction(f"there is no seat {seat!r} at this table", "bad_action")
        if not isinstance(action, dict):
            raise IllegalAction("an action is an object with a 'type'", "bad_action")
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalAction("an action needs a 'type' (a string)", "bad_action")
        if self.is_over(state):
            raise IllegalAction("the game is over", "game_over")
        return self._apply(state, seat, action)

    def _apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """One dispatch for every game: ``check_seat``, then the phase's ``Move`` for the action's
        type (none: ``refuse``), whether the seat may make it (``Move.turn``), its fields, and its
        handler (or its refusal). Every move of every game passes here: the checks are inlined."""
        if self._checks_seat:
            self.check_seat(state, seat)
        kind = action["type"]
        st: Any = state
        move = self.moves.get(st.phase, _NO_MOVES).get(kind)
        if move is None:
            raise self.refuse(state, seat, action)
        if self.fields_first:
            self._check_fields(kind, move, action)
        turn = move.turn
        if turn is not None:
            field = move.waits_on
            if seat != getattr(st, field) if field else seat not in self.to_act(state):
                raise IllegalAction(turn.format_map(st.__dict__), "not_your_turn")
        if not self.fields_first:
            if move.only:
                self._check_fields(kind, move, action)
            else:
                for name, check in move.fields.items():
                    check(kind, name, action.get(name))
        handler = move.handler
        if handler is None:
            raise IllegalAction(move.refusal or f"you cannot {kind} now")
        return handler(self, state, seat, action)

    @staticmethod
    def _check_fields(kind: str, move: Move, action: Action) -> None:
        if move.only:
            extra = sorted(set(action) - {"type", *move.fields})
            if extra:
                raise unexpected_field(kind, extra[0])
        for name, check in move.fields.items():
            check(kind, name, action.get(name))

    def check_seat(self, state: S, seat: int) -> None:
        """Refuses a seat before anything else is looked at; by default, nothing."""

    def refuse(self, state: S, seat: int, action: Action) -> IllegalAction:
        """The error for a type the phase does not take: by default ``reject``'s."""
        return self.reject(state, seat, action)

    def reject(self, state: S, seat: int, action: Action) -> IllegalAction:
        """The error for an action not in ``legal_actions``, as precise as the generic level can
        be; games raise more specific reasons before falling back on this."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return IllegalAction("it is not your turn", "not_your_turn")
        types = sorted({a["type"] for a in legal})
        if action.get("type") not in types:
            return IllegalAction(
                f"you cannot {action.get('type')!r} now; you may: {', '.join(types)}"
            )
        return IllegalAction(f"illegal {action.get('type')}: {_describe(action)}")

    # -- reading a state that has ``players``, ``phase`` and ``turn`` fields -----------------------

    def players(self, state: S) -> int:
        st: Any = state
        return st.players

    def is_over(self, state: S) -> bool:
        st: Any = state
        return st.phase is self.over_phase

    def to_act(self, state: S) -> tuple[int, ...]:
        """The seat whose ``turn`` it is, none once the game is over."""
        st: Any = state
        return () if st.phase is self.over_phase else (st.turn,)

    def view_header(
        self,
        state: S,
        seat: int | None,
        *,
        deal: int,
        dealer: int = _COMMON,
        turn: int | None = _COMMON,
        hand: Any = _COMMON,
        counts: list[int] = _COMMON,
        scores: list[int] = _COMMON,
    ) -> dict[str, Any]:
        """The keys every view starts with: game, players, phase, seat, dealer, turn (the first
        seat of ``to_act``), hand (the seat's, None for a spectator), counts (cards per hand),
        scores and deal. A value not given is read from the state's fields of those names
        (``dealer``, ``hands``, ``scores``); ``deal`` is each game's own count."""
        st: Any = state
        if turn is _COMMON:
            waiting = self.to_act(state)
            turn = waiting[0] if waiting else None
        if hand is _COMMON:
            hand = None if seat is None else list(st.hands[seat])
        return {
            "game": self.name,
            "players": self.players(state),
            "phase": st.phase.value,
            "seat": seat,
            "dealer": st.dealer if dealer is _COMMON else dealer,
            "turn": turn,
            "hand": hand,
            "counts": [len(h) for h in st.hands] if counts is _COMMON else counts,
            "scores": list(st.scores) if scores is _COMMON else scores,
            "deal": deal,
        }

    # -- the rest of the contract ---------------------------------------------------------------

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]: ...
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def views(self, state: S, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """``view(state, seat)`` of each of ``seats``. A state is shown to every seat after
        every move: a game whose seats' views differ in a few keys (the seat, its hand) overrides
        this to build the rest once. The views may share values: they are read, not changed."""
        return {seat: self.view(state, seat) for seat in seats}

    def _spectators_views(
        self,
        state: S,
        seats: Iterable[int | None],
        own: Callable[[int], Mapping[str, Any]],
    ) -> dict[int | None, dict[str, Any]]:
        """``views`` of a game where a seat sees what a spectator sees and a few keys of its own:
        the spectator's view built once, and for each seat a copy with its ``seat`` and
        ``own(seat)`` (keys the spectator's view has too, so that they keep their places)."""
        out: dict[int | None, dict[str, Any]] = {}
        seats = list(seats)
        if not seats:
            return out
        common = self.view(state, None)
        for seat in seats:
            if seat is None:
                out[seat] = common
                continue
            mine = out[seat] = common.copy()
            mine["seat"] = seat
            mine.update(own(seat))
        return out

    @abstractmethod
    def auto_action(self, state: S, seat: int) -> Action: ...
    @abstractmethod
    def outcome(self, state: S) -> dict[str, Any] | None: ...
    @abstractmethod
    def deck(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        """The full deck the game is dealt from (for stacked-deck checks and conservation)."""

    @abstractmethod
    def cards(self, state: S) -> list[str]:
        """Every card of the state, wherever it lies (hands, piles, tricks, chien...)."""

    @abstractmethod
    def hidden(self, state: S, seat: int | None) -> frozenset[str]:
        """Card names ``seat`` may not see: every copy of them lies where that seat cannot look.
        ``seat=None``: a spectator. The conformance suite checks views and events against it."""

    def to_json(self, state: S) -> dict[str, Any]:
        data = to_jsonable(state)
        assert isinstance(data, dict)
        return data

    def from_json(self, data: Mapping[str, Any]) -> S:
        # built by the dataclass's __init__: plain, like the states of a game (see .state)
        return plain(from_jsonable(self.state_type, data))


def visible_events(events: Sequence[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator), without their ``to`` field."""
    out = []
    for e in events:
        to = e.get("to")
        if to is None:
            out.append(e)
        elif seat is not None and seat in to:
            out.append({k: v for k, v in e.items() if k != "to"})
    return out


def _describe(action: Action) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "type") or "no details"
