"""Finding card names in anything sent to a seat: the hidden-information check.

The check is deliberately dumb: every string in the JSON (keys and values) is a token, and a token
equal to a card the seat may not see is a leak. Games name cards only by their notation, so a leak
cannot hide behind formatting.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def tokens(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from tokens(v)
    elif isinstance(obj, list | tuple | set | frozenset):
        for v in obj:
            yield from tokens(v)


def leaks(obj: Any, secret: set[str] | frozenset[str]) -> set[str]:
    """The secret cards named anywhere in ``obj`` (the tokens of ``tokens``)."""
    if not secret:
        return set()
    # an explicit stack rather than ``tokens``: the conformance suite checks every view of every
    # step, and nested generators made that the slowest part of a long match
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in secret:
                found.add(item)
        elif isinstance(item, dict):
            for k, v in item.items():
                if str(k) in secret:
                    found.add(str(k))
                stack.append(v)
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return found
