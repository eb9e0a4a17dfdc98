"""Finding card names in anything sent to a seat: the hidden-information check.

The check is deliberately dumb: every string in the JSON (keys and values) is a token, and a token
equal to a card the seat may not see is a leak. Games name cards only by their notation, so a leak
cannot hide behind formatting.
"""

from __future__ import annotations

from typing import Any

#: leaves that are never a card name: skipped on their exact type before any other check
_NUMBERS = frozenset((int, float, bool, type(None)))


def leaks(obj: Any, secret: set[str] | frozenset[str]) -> set[str]:
    """The secret cards named anywhere in ``obj``: every string, dict keys included."""
    if not secret:
        return set()
    # an explicit stack rather than recursion, dispatching on the exact type of plain JSON values
    # (most of a view is card strings, small ints and lists): the conformance suite checks every
    # view of every step, and the generic ``isinstance`` chain made it the slowest part of a match
    found: set[str] = set()
    stack = [obj]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        kind = type(item)
        if kind is str:
            if item in secret:
                found.add(item)
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif kind is dict:
            for k, v in item.items():
                key = k if type(k) is str else str(k)
                if key in secret:
                    found.add(key)
                if type(v) not in _NUMBERS:
                    push(v)
        elif kind in _NUMBERS:
            continue
        # subclasses (a StrEnum, a dict subclass) and sets: the generic checks
        elif isinstance(item, str):
            if item in secret:
                found.add(item)
        elif isinstance(item, dict):
            push(dict(item))
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return found
