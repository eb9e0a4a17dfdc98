"""JSON codec for game states: frozen dataclasses of plain values, rebuilt from their type hints.

A state is plain data so that it can be stored, replayed and handed to bots. Supported field types:
``int``, ``str``, ``bool``, ``float``, ``None``, ``X | None``, ``tuple[X, ...]``, ``tuple[X, Y]``,
``dict[str, X]``, ``frozenset[X]`` (as a sorted list), ``Enum`` (by value) and nested dataclasses.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from typing import Any

#: leaves returned as they are; checked by exact type first because most of a state is card
#: strings and small ints, and the generic checks below cost microseconds per leaf
_PLAIN = frozenset((str, int, float, bool, type(None)))


def to_jsonable(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple:
        return [v if type(v) in _PLAIN else to_jsonable(v) for v in value]
    # the rest dispatch on a per-type encoder, found once per type (conformance playouts of long
    # matches encode their states thousands of times)
    enc = _ENCODERS.get(kind)
    if enc is None:
        enc = _ENCODERS[kind] = _encoder(kind)
    return enc(value)


_ENCODERS: dict[type, typing.Callable[[Any], Any]] = {}


def _encoder(kind: type) -> typing.Callable[[Any], Any]:
    if dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in _fields(kind))

        def enc_dc(v: Any) -> dict[str, Any]:
            # the plain-leaf shortcut inlined: most fields are ints, strings and flat tuples, and
            # a call per field was most of the cost of encoding a state
            out = {}
            for n in names:
                x = getattr(v, n)
                kind = type(x)
                if kind in _PLAIN:
                    out[n] = x
                elif kind is tuple:
                    out[n] = [y if type(y) in _PLAIN else to_jsonable(y) for y in x]
                else:
                    out[n] = to_jsonable(x)
            return out

        return enc_dc
    if issubclass(kind, enum.Enum):
        return lambda v: v.value
    if issubclass(kind, tuple | list):
        return lambda v: [x if type(x) in _PLAIN else to_jsonable(x) for x in v]
    if issubclass(kind, frozenset | set):
        return lambda v: sorted(to_jsonable(x) for x in v)
    if issubclass(kind, dict):
        return lambda v: {str(k): to_jsonable(x) for k, x in v.items()}
    return lambda v: v


def from_jsonable(tp: Any, data: Any) -> Any:
    return _decoder(tp)(data)


@functools.cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@functools.cache
def _decoder(tp: Any) -> typing.Callable[[Any], Any]:
    if tp is Any:
        return lambda d: d
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = _hints(tp)
        decs = [(f.name, _decoder(hints[f.name])) for f in _fields(tp)]
        cls = tp

        def dec_dc(d: Any) -> Any:
            return cls(**{name: dec(d[name]) for name, dec in decs})

        return dec_dc
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    if tp in (int, str, bool, float, type(None)):
        return lambda d: d
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1:
            inner = _decoder(non_none[0])
            return lambda d: None if d is None else inner(d)
        return lambda d: d
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda d: tuple(item(x) for x in d)
        decs_t = [_decoder(a) for a in args]
        return lambda d: tuple(dec(x) for dec, x in zip(decs_t, d, strict=True))
    if origin is frozenset:
        item = _decoder(args[0])
        return lambda d: frozenset(item(x) for x in d)
    if origin is dict:
        key_t, val_t = args
        kdec = int if key_t is int else (lambda k: k)
        vdec = _decoder(val_t)
        return lambda d: {kdec(k): vdec(v) for k, v in d.items()}
    if origin is typing.Literal:
        return lambda d: d
    raise TypeError(f"state field type {tp!r} is not supported by the state codec")
