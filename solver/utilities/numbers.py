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

__all__ = ["EXACT", "FLOAT", "Context", "Number", "Numbers", "difference", "exact", "numbers"]

#: A value as a model reports it: exact, or a float from the speed path.
Number = Union[Fraction, float]

N = TypeVar("N", Fraction, float)


class Numbers(Generic[N]):
    """How whole numbers become values; :data:`EXACT` and :data:`FLOAT` are the two contexts."""

    exact: bool

    def of(self, whole: int) -> N:
        """A whole number as a value."""
        raise NotImplementedError

    def ratio(self, numerator: int, denominator: int) -> N:
        """``numerator / denominator`` as a value (exact in :data:`EXACT`)."""
        raise NotImplementedError

    @property
    def zero(self) -> N:
        return self.of(0)

    @property
    def one(self) -> N:
        return self.of(1)


class _Exact(Numbers[Fraction]):
    exact = True

    def of(self, whole: int) -> Fraction:
        return Fraction(whole)

    def ratio(self, numerator: int, denominator: int) -> Fraction:
        return Fraction(numerator, denominator)

    def __repr__(self) -> str:
        return "EXACT"


class _Float(Numbers[float]):
    exact = False

    def of(self, whole: int) -> float:
        return float(whole)

    def ratio(self, numerator: int, denominator: int) -> float:
        return numerator / denominator  # int / int rounds once, correctly

    def __repr__(self) -> str:
        return "FLOAT"


EXACT: Numbers[Fraction] = _Exact()
FLOAT: Numbers[float] = _Float()

#: Either context, as a model that serves both takes it.
Context = Union[Numbers[Fraction], Numbers[float]]


def exact(x: Number) -> Fraction:
    """``x`` where only an exact value will do: a float here is a bug, said loudly.

    >>> exact(Fraction(1, 3))
    Fraction(1, 3)
    """
    if isinstance(x, Fraction):
        return x
    raise TypeError(f"an exact value was expected here, not the float {x!r}")


def difference(a: Number, b: Number) -> Number:
    """``|a - b|``, exact when both are.

    >>> difference(Fraction(1, 2), Fraction(3, 4)), difference(0.5, 0.25)
    (Fraction(1, 4), 0.25)
    """
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return abs(a - b)
    return abs(float(a) - float(b))


def numbers(exact: bool) -> Context:
    """The context for a caller's ``--exact`` choice."""
    return EXACT if exact else FLOAT
