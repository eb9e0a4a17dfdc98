"""Table options a game accepts: declared once, validated once, described to clients."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import InvalidOptions

OptionKind = Literal["int", "bool", "choice"]


@dataclass(frozen=True)
class OptionSpec:
    """One table option. ``label`` is the French text a client shows next to the control."""

    name: str
    kind: OptionKind
    default: Any
    label: str
    help: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[Any, ...] = ()
    #: ``None`` allowed (e.g. "number of deals: default one per player").
    nullable: bool = False

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "nullable": self.nullable,
        }
        if self.kind == "int":
            out["min"], out["max"] = self.min, self.max
        if self.kind == "choice":
            out["choices"] = list(self.choices)
        return out

    def check(self, value: Any) -> Any:
        if value is None:
            if self.nullable or self.default is None:
                return None
            raise InvalidOptions(self.name, "may not be null")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(self.name, f"must be true or false, got {value!r}")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(self.name, f"must be a whole number, got {value!r}")
            if self.min is not None and value < self.min:
                raise InvalidOptions(self.name, f"must be at least {self.min}, got {value}")
            if self.max is not None and value > self.max:
                raise InvalidOptions(self.name, f"must be at most {self.max}, got {value}")
            return value
        if value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(self.name, f"must be one of {allowed}, got {value!r}")
        return value


@dataclass(frozen=True)
class OptionSet:
    specs: Sequence[OptionSpec] = field(default_factory=tuple)

    def normalize(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked, unknown names refused."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise InvalidOptions("options", "must be an object")
        known = {s.name: s for s in self.specs}
        for name in options:
            if name not in known:
                names = ", ".join(known) or "none"
                raise InvalidOptions(name, f"unknown option (this game's options: {names})")
        return {s.name: s.check(options.get(s.name, s.default)) for s in self.specs}
