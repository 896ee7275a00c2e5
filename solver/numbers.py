"""One number context for every model: exact fractions or labelled floats.

A model computes with whole numbers as long as it can (counts of cards,
points, scaled sums) and turns them into values through a context:
:data:`EXACT` gives :class:`~fractions.Fraction`, :data:`FLOAT` gives
``float`` (the labelled speed path). Code that only ever runs exactly takes
``Numbers[Fraction]`` and gets ``Fraction`` back, so the union of the two
never leaks into it.

>>> EXACT.ratio(24, 79), FLOAT.ratio(1, 4), EXACT.of(22)
(Fraction(24, 79), 0.25, Fraction(22, 1))
>>> numbers(exact=False) is FLOAT
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Generic, TypeVar, Union

__all__ = ["EXACT", "FLOAT", "Number", "Numbers", "numbers"]

#: A value as a model reports it: exact, or a float from the speed path.
Number = Union[Fraction, float]

N = TypeVar("N", Fraction, float)


class Numbers(Generic[N]):
    """How whole numbers become values: ``kind`` is ``Fraction`` or ``float``."""

    def __init__(self, kind: type[N], exact: bool) -> None:
        self.kind = kind
        self.exact = exact

    def of(self, whole: int) -> N:
        """A whole number as a value."""
        return self.kind(whole)

    def ratio(self, numerator: int, denominator: int) -> N:
        """``numerator / denominator`` as a value (exact in :data:`EXACT`)."""
        return self.kind(numerator) / denominator

    @property
    def zero(self) -> N:
        return self.kind(0)

    @property
    def one(self) -> N:
        return self.kind(1)

    def __repr__(self) -> str:
        return "EXACT" if self.exact else "FLOAT"


EXACT: Numbers[Fraction] = Numbers(Fraction, True)
FLOAT: Numbers[float] = Numbers(float, False)


def numbers(exact: bool) -> Numbers[Fraction] | Numbers[float]:
    """The context for a caller's ``--exact`` choice."""
    return EXACT if exact else FLOAT
