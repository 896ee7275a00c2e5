"""The Hit! deck (ruling R1) and small helpers for counting cards.

Cards are plain ints 1–10. A multiset of cards is kept as a *count vector*:
a tuple of ten ints where index ``v - 1`` holds how many cards of value ``v``
there are. Count vectors are hashable, cheap to compare and make the pile's
composition a one-liner.

>>> DECK_COPIES[0], DECK_COPIES[9], DECK_SIZE, DECK_TOTAL
(11, 7, 90, 445)
>>> counts([6, 1, 5, 5])
(1, 0, 0, 0, 2, 1, 0, 0, 0, 0)
>>> cards_of(counts([6, 1, 5, 5]))
[1, 5, 5, 6]
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "DECK_COPIES",
    "DECK_SIZE",
    "DECK_TOTAL",
    "VALUES",
    "Counts",
    "add",
    "bump",
    "cards_of",
    "counts",
    "deck",
    "pile_code",
    "put",
    "subtract",
    "total_value",
]

#: Card values, lowest first.
VALUES: tuple[int, ...] = tuple(range(1, 11))

#: R1: eleven each of 1–5, seven each of 6–10.
DECK_COPIES: tuple[int, ...] = (11,) * 5 + (7,) * 5

DECK_SIZE: int = sum(DECK_COPIES)
DECK_TOTAL: int = sum(v * n for v, n in zip(VALUES, DECK_COPIES))

Counts = tuple[int, ...]


def counts(cards: Iterable[int]) -> Counts:
    """Count vector of ``cards`` (values must already be valid 1–10)."""
    c = [0] * 10
    for v in cards:
        c[v - 1] += 1
    return tuple(c)


def cards_of(c: Counts) -> list[int]:
    """The cards of a count vector, lowest first."""
    return [v for v, n in zip(VALUES, c) for _ in range(n)]


def add(a: Counts, b: Counts) -> Counts:
    """Element-wise sum of two count vectors."""
    return tuple(x + y for x, y in zip(a, b))


def subtract(a: Counts, b: Counts) -> Counts:
    """Element-wise difference ``a - b`` (may go negative; callers check)."""
    return tuple(x - y for x, y in zip(a, b))


def total_value(c: Counts) -> int:
    """Sum of the face values of a count vector.

    >>> total_value(DECK_COPIES)
    445
    """
    return sum(v * n for v, n in zip(VALUES, c))


def deck() -> list[int]:
    """The 90 cards of a fresh deck, in value order (shuffle before use)."""
    return cards_of(DECK_COPIES)


def bump(c: Counts, i: int, k: int = 1) -> Counts:
    """``c`` with ``k`` more cards at index ``i`` (of value ``i + 1``; ``k`` may be negative).

    >>> bump((0, 2, 0, 0, 0, 0, 0, 0, 0, 0), 1, 3)[:3]
    (0, 5, 0)
    """
    return c[:i] + (c[i] + k,) + c[i + 1:]


def put(c: Counts, i: int, k: int) -> Counts:
    """``c`` with exactly ``k`` cards at index ``i``."""
    return c[:i] + (k,) + c[i + 1:]


def pile_code(c: Iterable[int]) -> int:
    """A count vector as one base-12 number (a count is at most 11): a cheap memo key.

    >>> pile_code((1, 2) + (0,) * 8)
    25
    """
    return sum(int(n) * 12**i for i, n in enumerate(c))
