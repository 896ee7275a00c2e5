"""The ``bank`` model: points that reach the loot, opponents' steals included.

``docs/MODELS.md``: a stopped line stays face up until the player's next
turn. The value of a point is the expected sum of the active player's cards
that reach its loot: at the start of its next turn, or when the pile runs
out. After it stops (or busts) every other player, in seat order, plays one
turn following the `turn`-optimal policy for its own position (stop on a
tie, decline on a tie).

How it is computed
------------------
* Stopping with line ``L``: an opponent's turn takes each value ``v`` of
  ``L`` with some chance; by linearity, with two players the value is
  ``sum(L) - E[points the opponent steals]``, one pass over the opponent's
  turn under its `turn`-optimal policy (:func:`opponent_steals`). Exact.
* Three to five players (**approximation "independent opponents"**): each
  opponent's turn is solved from the table as it stands when the active
  player stops (its own line collected, every other line in reach), and the
  opponents are treated as independent: ``L`` keeps value ``v`` with chance
  ``prod_j (1 - P_j(v))``. Ignored: the cards earlier opponents draw (and
  the pile running out during their turns) and the lines they leave for
  later ones. Its error against a simulation of the exact definition is
  measured and reported in the README.
* Drawing: over the core's chance children, with the stop values above. A
  point whose stop value is at least its `turn` draw value (an upper bound
  on any bank draw value: bank payoffs never exceed turn payoffs) stops
  without expanding. Unlike `turn`, both steal choices are solved
  everywhere: a bigger line changes what opponents do.

Exact mode (:data:`~solver.numbers.EXACT`) uses fractions throughout; float
mode runs the opponents' turns in the compiled kernel
(:func:`solver.kernel.steal_chances`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from .advice import Advice, Budget, SlowModel, StealChoice, advice_at
from .cards import Counts, add, counts
from .core import NO_CARDS, TurnPoint
from .numbers import EXACT, Context, Number
from .position import Position
from .turn import TurnSolver

__all__ = ["APPROXIMATION", "BANK", "BankModel", "BankSolver", "opponent_steals", "steal_chances"]

#: Named in the output whenever three or more players make `bank` approximate.
APPROXIMATION = "independent opponents"


def opponent_steals(start: TurnPoint, weights: tuple[Fraction, ...]) -> Fraction:
    """Expected ``weights`` an opponent steals in one `turn`-optimal turn (exact).

    The opponent starts its turn at ``start`` (empty line, must draw); taking
    value ``i + 1`` costs ``weights[i]``.

    >>> opponent_steals(TurnPoint.start((0,) * 9 + (1,), reach=(0,) * 9 + (2,)), (Fraction(0),) * 9 + (Fraction(20),))
    Fraction(20, 1)
    """
    solver = TurnSolver(start, EXACT)
    memo: dict[int, Fraction] = {}

    def at(p: TurnPoint, first: bool) -> Fraction:
        n = p.pile_size
        if n == 0:
            return Fraction(0)
        key = p.key
        if not first:
            if key in memo:
                return memo[key]
            if not solver.should_draw(p):
                memo[key] = Fraction(0)
                return memo[key]
        total = Fraction(0)
        for d in p.draws():
            if d.kept is None:
                continue  # a bust: nothing more is stolen
            if d.took is not None and solver.takes(d):
                total += d.cards * (weights[d.value - 1] + at(d.took, False))
            else:
                total += d.cards * at(d.kept, False)
        total /= n
        if not first:
            memo[key] = total
        return total

    return at(start, True)


def steal_chances(start: TurnPoint, numbers: Context) -> list[Number]:
    """Chance that an opponent's `turn`-optimal turn from ``start`` steals each value (index ``v - 1``)."""
    if numbers.exact:
        zero = (Fraction(0),) * 10
        return [opponent_steals(start, zero[:i] + (Fraction(1),) + zero[i + 1:]) if start.reach[i] else Fraction(0)
                for i in range(10)]
    from . import kernel

    chances = kernel.steal_chances(np.array(start.pile, np.int64), np.array(start.reach, np.int64))
    return [float(x) for x in chances]


class BankSolver:
    """`bank` values for every point of the active player's turn.

    >>> pos = Position.from_dict({"players": [{"line": [9, 9, 2]}, {}], "active": 0})
    >>> b = BankSolver(pos)
    >>> b.stop_value() < 20     # the opponent may draw a 9 and take both
    True
    """

    def __init__(self, position: Position, numbers: Context = EXACT, budget: Budget | None = None) -> None:
        self.numbers = numbers
        self.budget = budget
        seats = len(position.players)
        self.players = seats
        # Opponents in the order they play after the active seat.
        order = [(position.active + k) % seats for k in range(1, seats)]
        self.root = position.turn_point()
        self.root_opponents = tuple(counts(position.players[s].line) for s in order)
        self.approximation = APPROXIMATION if seats > 2 else None
        self.turn = TurnSolver(self.root, numbers)
        self._memo: dict[int, Number] = {}
        self._stops: dict[int, Number] = {}

    # -- public queries -------------------------------------------------------------------------
    def stop_value(self, point: TurnPoint | None = None) -> Number:
        """Expected points of the line that reach the loot if the player stops at ``point``."""
        return self._stop(self._checked(point))

    def draw_value(self, point: TurnPoint | None = None) -> Number:
        """Value of drawing one more card at ``point``, then playing on for `bank`."""
        point = self._checked(point)
        if point.pile_size == 0:
            raise ValueError("the pile is empty: no card can be drawn")
        return self._draw(point)

    def best_value(self, point: TurnPoint | None = None) -> Number:
        """Value of a point where the player may stop or draw (draw if the line is empty)."""
        point = self._checked(point)
        if point.line_size == 0 and point.pile_size:
            return self._draw(point)
        return self._point(point)

    def steal_choice(self, value: int) -> StealChoice:
        """Take against decline for the steal of ``value`` on offer at the root."""
        return StealChoice(self.best_value(self.root.stolen(value)), self.best_value(self.root))

    # -- the recursion ----------------------------------------------------------------------------
    def _checked(self, point: TurnPoint | None) -> TurnPoint:
        return self.root if point is None else self.turn._checked(point)

    def _opponents(self, point: TurnPoint) -> list[Counts]:
        """The opponents' lines at ``point``: what the active player has stolen is gone from them."""
        return [tuple(c if point.reach[i] else 0 for i, c in enumerate(o)) for o in self.root_opponents]

    def _stop(self, point: TurnPoint) -> Number:
        if point.pile_size == 0:
            return self.numbers.of(point.line_value)  # R9: the line reaches the loot
        key = point.key
        got = self._stops.get(key)
        if got is not None:
            return got
        if self.budget is not None and self.budget.spent():
            raise SlowModel(f"bank needs more than {self.budget.seconds:g} s for this position "
                            f"({self.root.pile_size} cards in the pile, {self.players} players), the time limit "
                            f"given; without a limit it answers, more slowly")
        line, num = point.line, self.numbers
        opponents = self._opponents(point)
        value: Number
        if len(opponents) == 1 and num.exact:
            weights = tuple(Fraction((i + 1) * c) for i, c in enumerate(line))
            value = point.line_value - opponent_steals(TurnPoint.start(point.pile, NO_CARDS, line), weights)
        else:
            keep = [num.one] * 10
            for j in range(len(opponents)):
                reach = line
                for k, o in enumerate(opponents):
                    if k != j:
                        reach = add(reach, o)
                chances = steal_chances(TurnPoint.start(point.pile, NO_CARDS, reach), num)
                for i in range(10):
                    if line[i]:
                        keep[i] *= 1 - chances[i]
            value = sum(((i + 1) * line[i] * keep[i] for i in range(10)), num.zero)
        self._stops[key] = value
        return value

    def _point(self, point: TurnPoint) -> Number:
        """Value of a point where the player may stop or draw (after the steal)."""
        if point.pile_size == 0:
            return self._stop(point)
        key = point.key
        got = self._memo.get(key)
        if got is None:
            stop = self._stop(point)
            if stop >= self.turn.draw_value(point):
                got = stop  # no bank draw value can beat it
            else:
                draw = self._draw(point)
                got = draw if draw > stop else stop
            self._memo[key] = got
        return got

    def _draw(self, point: TurnPoint) -> Number:
        total = self.numbers.zero
        for d in point.draws():
            if d.kept is None:
                continue  # R5: a bust banks nothing
            after = self._point(d.kept)
            if d.took is not None:
                take = self._point(d.took)
                after = take if take > after else after
            total += d.cards * after
        result: Number = total / point.pile_size
        return result


class BankModel:
    """The `bank` model behind the common protocol (see :class:`solver.advice.Model`)."""

    name = "bank"
    assumption = ("Points that reach your loot: your line after every opponent has played one turn "
                  "(each playing for its own turn's haul) or the pile has run out.")
    quick_exact = False  # the advisor uses the compiled float path

    def approximation(self, position: Position) -> str | None:
        return APPROXIMATION if len(position.players) > 2 else None

    def advise(self, position: Position, numbers: Context = EXACT, budget: Budget | None = None) -> Advice:
        b = BankSolver(position, numbers, budget)
        return advice_at(self.name, position, numbers, b.best_value, b.stop_value, b.draw_value,
                         self.approximation(position))


BANK = BankModel()
