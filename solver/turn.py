"""The ``turn`` model: the expected haul of this turn, solved exactly.

``shared/MODELS.md``: the value of a decision point is the expected sum of
the active player's line when its turn ends (its own stop, the pile running
out, or 0 on a bust), with optimal draws, stops and steals. In Norvig's one
line: ``value(s) = max(stop(s), mean over next cards of value(s + card))``.

Why it is fast and still exact
------------------------------
Within one turn the pile only shrinks, so a decision point is pinned down by
two small things relative to where the turn was solved from (the *root*):
the pile (which says what was drawn) and the set of values stolen so far.
Both pack into one int: that int is the memo key, and nothing else is.

A draw at pile size ``n`` weighs each child by ``count / n``. Instead of
fractions, every value at pile size ``n`` is kept multiplied by the falling
factorial ``scale[n] = n (n-1) ... (n-d+1)``, ``d`` the most cards the turn
can still draw. Then ``scaled(s) = max(line_sum * scale[n],
sum(count * scaled(child)))`` is integer arithmetic, comparisons stay exact,
and one division at the end gives the :class:`~fractions.Fraction`. The
float mode runs the same recursion over float64 in :mod:`solver.kernel`,
compiled with numba.

>>> from solver.cards import DECK_COPIES
>>> s = TurnSolver(DECK_COPIES)
>>> s.draw_value()
Fraction(9663700139, 622614630)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

import numpy as np

from . import kernel
from .cards import Counts, bump, pile_code, put, total_value

__all__ = ["Number", "StealChoice", "TurnSolver", "max_draws"]

Number = Union[Fraction, float]

# One base-12 digit per value (cards.pile_code); a draw of value i + 1 subtracts _POW[i].
_POW = tuple(12**i for i in range(10))
_BIT = tuple(1 << i for i in range(10))


def max_draws(pile_size: int, line_size: int, line_values: int) -> int:
    """An upper bound on the cards a turn can still draw.

    While the line has fewer than three cards any card joins it; after that
    (R5) only a value not yet held does, so at most one card per value.

    >>> max_draws(90, 0, 0), max_draws(5, 0, 0), max_draws(40, 4, 3)
    (13, 5, 7)
    """
    return min(pile_size, max(0, 3 - line_size) + 10 - line_values)


@dataclass(frozen=True)
class StealChoice:
    """Values of taking and of declining a steal on offer."""

    take: Number
    decline: Number

    @property
    def action(self) -> str:
        """``"take"`` or ``"decline"``; decline on an exact tie."""
        return "take" if self.take > self.decline else "decline"


class TurnSolver:
    """Exact (or float) `turn` values for every decision point of one turn.

    ``pile``, ``line`` and ``others`` are count vectors: the pile, the active
    line, and the face-up cards all other players hold (what a steal takes).
    Later points of the same turn can be asked about too (pass their pile,
    line and others): the memo is shared, so a whole turn costs one solve.

    >>> from solver.cards import counts
    >>> s = TurnSolver((1, 1, 1, 0, 0, 0, 0, 0, 0, 0), counts([1, 2, 3]))
    >>> s.stop_value(), s.draw_value()      # every card busts: stop
    (Fraction(6, 1), Fraction(0, 1))
    """

    def __init__(
        self,
        pile: Counts,
        line: Counts = (0,) * 10,
        others: Counts = (0,) * 10,
        *,
        exact: bool = True,
    ) -> None:
        n = sum(pile)
        if n == 0:
            raise ValueError("the pile is empty: no card can be drawn")
        self.root = (tuple(pile), tuple(line), tuple(others))
        self.exact = exact
        depth = max_draws(n, sum(line), sum(1 for c in line if c))
        # scale[m] = m (m-1) ... down to the pile size after the last possible draw.
        floor = n - depth
        scale = [1] * (n + 1)
        for m in range(floor + 1, n + 1):
            scale[m] = scale[m - 1] * m
        self.scale = scale
        self._memo: dict[int, int] = {}
        self._pile = list(pile)  # mutated during the recursion, restored after
        if not exact:
            self._fast_memo = kernel.new_memo()
            self._fast_others = np.array(others, dtype=np.int64)

    # -- public queries ------------------------------------------------------
    def stop_value(self, line: Counts | None = None) -> Number:
        """Value of stopping now: the line's face value."""
        total = total_value(self.root[1] if line is None else line)
        return Fraction(total) if self.exact else float(total)

    def draw_value(self, pile: Counts | None = None, line: Counts | None = None,
                   others: Counts | None = None) -> Number:
        """Value of drawing one more card, then playing on optimally."""
        pile, line, others = self._point(pile, line, others)
        n = sum(pile)
        if n == 0:
            raise ValueError("the pile is empty: no card can be drawn")
        stolen, line_sum, size, mask = self._stolen(others), total_value(line), sum(line), _mask(line)
        if not self.exact:
            return kernel.draw_value(np.array(pile, dtype=np.int64), self._fast_others, self._fast_memo,
                                     stolen, line_sum, size, mask)
        self._pile = list(pile)
        return Fraction(self._draw(pile_code(pile), stolen, n, line_sum, size, mask), self.scale[n])

    def best_value(self, pile: Counts | None = None, line: Counts | None = None,
                   others: Counts | None = None) -> Number:
        """Value of the point: the better of stop and draw (draw if the line is empty)."""
        pile, line, others = self._point(pile, line, others)
        if sum(pile) == 0:
            return self.stop_value(line)  # R9: the game is over, the line counts
        draw = self.draw_value(pile, line, others)
        return draw if sum(line) == 0 else max(self.stop_value(line), draw)

    def should_draw(self, pile: Counts | None = None, line: Counts | None = None,
                    others: Counts | None = None) -> bool:
        """The policy: draw only when strictly better than stopping (stop on a tie)."""
        pile, line, others = self._point(pile, line, others)
        if sum(line) == 0:
            return True  # R4: at least one card
        return self.draw_value(pile, line, others) > self.stop_value(line)

    def steal_choice(self, value: int, pile: Counts | None = None, line: Counts | None = None,
                     others: Counts | None = None) -> StealChoice:
        """Values of taking and of declining the steal of ``value`` just drawn."""
        pile, line, others = self._point(pile, line, others)
        i = value - 1
        if others[i] == 0:
            raise ValueError(f"no other player holds a {value}: there is no steal on offer")
        took_line = bump(line, i, others[i])
        took_others = put(others, i, 0)
        return StealChoice(self.best_value(pile, took_line, took_others), self.best_value(pile, line, others))

    # -- the recursion ---------------------------------------------------------
    def _point(self, pile: Counts | None, line: Counts | None,
               others: Counts | None) -> tuple[Counts, Counts, Counts]:
        """Fill in the root for what is not given, and check it is a point of this turn."""
        root_pile, root_line, root_others = self.root
        pile = root_pile if pile is None else tuple(pile)
        line = root_line if line is None else tuple(line)
        others = root_others if others is None else tuple(others)
        for i in range(10):
            drawn = root_pile[i] - pile[i]
            stolen = root_others[i] - others[i]
            if drawn < 0 or others[i] not in (0, root_others[i]) or line[i] != root_line[i] + drawn + stolen:
                raise ValueError(f"the {i + 1}s do not follow from the solved position: not a point of this turn")
        return pile, line, others

    def _stolen(self, others: Counts) -> int:
        return sum(_BIT[i] for i in range(10) if self.root[2][i] and not others[i])

    def _choice(self, code: int, stolen: int, n: int, line_sum: int, line_size: int, mask: int) -> int:
        """Scaled value of a point where the player may stop or draw."""
        if n == 0:
            return line_sum  # R9: the pile ran out, the line counts (scale[0] == 1)
        # The pile and the stolen values pin the point down (the line follows).
        key = code | (stolen << 40)
        got = self._memo.get(key)
        if got is None:
            stop = line_sum * self.scale[n]
            draw = self._draw(code, stolen, n, line_sum, line_size, mask)
            got = draw if draw > stop else stop
            self._memo[key] = got
        return got

    def _draw(self, code: int, stolen: int, n: int, line_sum: int, line_size: int, mask: int) -> int:
        """Scaled value of drawing one card: the sum over its values."""
        pile = self._pile
        others = self.root[2]
        total = 0
        can_bust = line_size >= 3
        for i in range(10):
            c = pile[i]
            if not c:
                continue
            bit = _BIT[i]
            if can_bust and mask & bit:
                continue  # R5: a bust is worth 0
            v = i + 1
            pile[i] = c - 1
            child_code = code - _POW[i]
            k = others[i]
            if k and not stolen & bit:  # R7: a steal is on offer
                child = self._choice(child_code, stolen | bit, n - 1, line_sum + v + v * k,
                                     line_size + 1 + k, mask | bit)
                # With three cards already down a steal only adds points (the
                # cards that bust stay the same), so it is always taken then;
                # before that, declining can keep the line safe one draw longer.
                if line_size + 1 < 3:
                    declined = self._choice(child_code, stolen, n - 1, line_sum + v, line_size + 1, mask | bit)
                    if declined >= child:
                        child = declined
            else:
                child = self._choice(child_code, stolen, n - 1, line_sum + v, line_size + 1, mask | bit)
            pile[i] = c
            total += c * child
        return total


def _mask(line: Counts) -> int:
    return sum(_BIT[i] for i in range(10) if line[i])
