"""Cheap copies of the frozen dataclass states, whose fields stay in a dict of their own.

A frozen dataclass's ``__init__`` (and so ``dataclasses.replace``) goes through
``object.__setattr__`` once per field: microseconds per move, most of the time of a move in the
trick games. ``evolve`` copies the instance's ``__dict__`` instead, one C-level operation.

It also matters which dict. An instance built by ``__init__`` whose ``__dict__`` is then read
holds its fields the way CPython shares them between instances of a class (a split dict), and so
do the copies of that dict. CPython 3.11 does not specialise a field read on such an instance: it
costs about three times a read from a plain dict, and a move reads dozens. ``plain`` moves a
state's fields into a dict of its own; the engine applies it to the first state of a game and to
every state read from JSON, and the copies ``evolve`` makes of a plain dict stay plain.

For dataclasses without ``__post_init__`` or slots, whose fields are all in ``__dict__``.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_new_instance = object.__new__
_set = object.__setattr__


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)`` without running ``__init__``."""
    fields = obj.__dict__
    # copy() keeps a plain dict plain and is cheaper than building one ({**fields, **changes})
    new_fields = fields.copy()
    new_fields.update(changes)
    assert len(new_fields) == len(fields), f"unknown fields {set(changes) - set(fields)}"
    new = _new_instance(type(obj))
    _set(new, "__dict__", new_fields)
    return new


def plain(obj: T) -> T:
    """An equal instance whose fields are in a plain dict (not one shared with the class)."""
    new = _new_instance(type(obj))
    # dict() builds a dict of its own; a split dict's copy() would stay split
    _set(new, "__dict__", dict(obj.__dict__))
    return new
