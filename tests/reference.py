"""Plain reference implementations, written from MODELS.md with no speed tricks.

They are deliberately naive: the whole state is the memo key, every steal
is tried both ways, every probability is a Fraction. The fast paths in
``solver/`` are checked against them.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import permutations

Counts = tuple[int, ...]


@lru_cache(maxsize=None)
def turn_draw(pile: Counts, line: Counts, others: Counts) -> Fraction:
    """`turn` value of drawing one card from this point."""
    n = sum(pile)
    total = Fraction(0)
    for i, c in enumerate(pile):
        if c == 0:
            continue
        if sum(line) >= 3 and line[i] > 0:
            continue  # bust: 0
        p = Fraction(c, n)
        child_pile = pile[:i] + (c - 1,) + pile[i + 1:]
        child_line = line[:i] + (line[i] + 1,) + line[i + 1:]
        best = turn_point(child_pile, child_line, others)
        if others[i]:
            took_line = child_line[:i] + (child_line[i] + others[i],) + child_line[i + 1:]
            took_others = others[:i] + (0,) + others[i + 1:]
            best = max(best, turn_point(child_pile, took_line, took_others))
        total += p * best
    return total


@lru_cache(maxsize=None)
def turn_point(pile: Counts, line: Counts, others: Counts) -> Fraction:
    """`turn` value of a point where the player may stop or draw."""
    stop = Fraction(sum((i + 1) * c for i, c in enumerate(line)))
    if sum(pile) == 0:
        return stop
    draw = turn_draw(pile, line, others)
    return draw if sum(line) == 0 else max(stop, draw)


def distinct_orders(cards: list[int]):
    """Every distinct order of a small multiset of cards (each equally likely)."""
    return set(permutations(cards))
