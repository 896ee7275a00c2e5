"""The ``bank`` model: points that reach the loot, opponents' steals included.

``shared/MODELS.md``: a stopped line stays face up until the player's next
turn. The value of a decision point is the expected sum of the active
player's cards that reach its loot: at the start of its next turn, or when
the pile runs out. After it stops (or busts) every other player, in seat
order, plays one turn following the `turn`-optimal policy for its own
position (stop on a tie, decline on a tie).

How it is computed
------------------
* Stopping with line ``L``: an opponent's turn takes each value ``v`` of
  ``L`` with some chance; by linearity, with two players the value is
  ``sum(L) - E[points the opponent steals]``, one DP over the opponent's turn
  under its `turn`-optimal policy (:func:`opponent_steals`). Exact.
* Three to five players (**approximation "independent opponents"**): each
  opponent's turn is solved from the table as it stands when the active
  player stops (its own line collected, every other line in reach), and the
  opponents are treated as independent: ``L`` keeps value ``v`` with chance
  ``prod_j (1 - P_j(v))``. Ignored: the cards earlier opponents draw (and
  the pile running out during their turns) and the lines they leave for
  later ones. The error against a simulation of the exact definition is
  measured in ``tests/test_bank_duel.py`` and reported in the README.
* Drawing: as in `turn`, with the stop values above. A point whose stop
  value is at least its `turn` draw value (an upper bound on any bank draw
  value: bank payoffs never exceed turn payoffs) stops without expanding.

Exact mode uses :class:`~fractions.Fraction` throughout; float mode runs the
opponents' turns in the compiled kernel (:func:`solver.kernel.steal_chances`).
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from . import kernel
from .cards import Counts, bump, counts, pile_code, put, total_value
from .position import Position
from .turn import Number, StealChoice, TurnSolver

__all__ = ["APPROXIMATION", "BankSolver", "BankTooSlow", "opponent_steals"]

#: Named in the output whenever three or more players make `bank` approximate.
APPROXIMATION = "independent opponents"



class BankTooSlow(ValueError):
    """The caller's time budget ran out before the answer was found."""


def opponent_steals(pile: Counts, others: Counts, weights: tuple[Number, ...], exact: bool = True) -> Number:
    """Expected ``weights`` an opponent steals in one `turn`-optimal turn.

    The opponent starts its turn (empty line, must draw) with ``pile`` and
    ``others`` in reach; losing value ``i + 1`` costs ``weights[i]``.

    >>> opponent_steals((0, 0, 0, 0, 0, 0, 0, 0, 0, 1), (0,) * 9 + (2,), (0,) * 9 + (20,))
    Fraction(20, 1)
    """
    if not exact:
        chances = kernel.steal_chances(np.array(pile, np.int64), np.array(others, np.int64))
        return float(np.dot(np.array(weights, np.float64), chances))
    solver = TurnSolver(pile, (0,) * 10, others)
    memo: dict[tuple[Counts, Counts], Fraction] = {}

    def at(p: Counts, line: Counts, avail: Counts, start: bool) -> Fraction:
        n = sum(p)
        if n == 0:
            return Fraction(0)
        if not start:
            if (p, avail) in memo:
                return memo[p, avail]
            if not solver.should_draw(p, line, avail):
                memo[p, avail] = Fraction(0)
                return Fraction(0)
        total = Fraction(0)
        for i, c in enumerate(p):
            if not c or (sum(line) >= 3 and line[i]):
                continue  # no card, or a bust: nothing more is stolen
            child, drawn = put(p, i, c - 1), bump(line, i, 1)
            k = avail[i]
            if k and (sum(drawn) >= 3 or solver.steal_choice(i + 1, child, drawn, avail).action == "take"):
                s = weights[i] + at(child, bump(drawn, i, k), put(avail, i, 0), False)
            else:
                s = at(child, drawn, avail, False)
            total += Fraction(c, n) * s
        if not start:
            memo[p, avail] = total
        return total

    return at(tuple(pile), (0,) * 10, tuple(others), True)


def steal_chances(pile: Counts, others: Counts, values: list[int], exact: bool = True) -> dict[int, Number]:
    """Chance that an opponent's `turn`-optimal turn steals each value index in ``values``."""
    if exact:
        return {i: opponent_steals(pile, others, tuple(1 if m == i else 0 for m in range(10)), True) for i in values}
    chances = kernel.steal_chances(np.array(pile, np.int64), np.array(others, np.int64))
    return {i: float(chances[i]) for i in values}


class BankSolver:
    """`bank` values for every decision point of the active player's turn.

    >>> pos = Position.from_dict({"players": [{"line": [9, 9, 2]}, {}], "active": 0})
    >>> b = BankSolver(pos)
    >>> b.stop_value() < 20     # the opponent may draw a 9 and take both
    True
    """

    def __init__(self, position: Position, exact: bool = True, max_seconds: float | None = None) -> None:
        self.exact = exact
        # None: no limit (the command line); the advisor sets one to keep its page quick.
        self.deadline = None if max_seconds is None else time.monotonic() + max_seconds
        self.max_seconds = max_seconds
        seats = len(position.players)
        # Opponents in the order they play after the active seat.
        self.order = [(position.active + k) % seats for k in range(1, seats)]
        self.root_pile = position.pile()
        self.root_line = counts(position.line)
        self.root_opp = tuple(counts(position.players[s].line) for s in self.order)
        self.root_others = tuple(sum(o[i] for o in self.root_opp) for i in range(10))
        self.approximation = APPROXIMATION if seats > 2 else None
        self.turn = TurnSolver(self.root_pile, self.root_line, self.root_others, exact=exact)
        self._memo: dict[int, Number] = {}
        self._stops: dict[int, Number] = {}

    def _zero(self) -> Number:
        return Fraction(0) if self.exact else 0.0

    # -- a point is (pile, line, stolen values) ---------------------------------
    def _key(self, pile: Counts, stolen: int) -> int:
        return pile_code(pile) | (stolen << 40)

    def _opp_lines(self, stolen: int) -> tuple[Counts, ...]:
        return tuple(tuple(0 if stolen >> i & 1 else c for i, c in enumerate(o)) for o in self.root_opp)

    def _stop(self, pile: Counts, line: Counts, stolen: int) -> Number:
        """Expected points of ``line`` that reach the loot if the player stops now."""
        if sum(pile) == 0:
            return Fraction(total_value(line)) if self.exact else float(total_value(line))
        key = self._key(pile, stolen)
        if key in self._stops:
            return self._stops[key]
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BankTooSlow(f"bank needs more than {self.max_seconds:g} s for this position ({sum(self.root_pile)} "
                              f"cards in the pile, {len(self.order) + 1} players); the command line has no time limit")
        opp = self._opp_lines(stolen)
        if len(opp) == 1:
            weights = tuple((i + 1) * c for i, c in enumerate(line))
            stolen_pts = opponent_steals(pile, line, weights, self.exact)
            value: Number = total_value(line) - stolen_pts
        else:
            keep = [Fraction(1) if self.exact else 1.0 for _ in range(10)]
            for j in range(len(opp)):
                reach = tuple(line[i] + sum(o[i] for k, o in enumerate(opp) if k != j) for i in range(10))
                chances = steal_chances(pile, reach, [i for i in range(10) if line[i]], self.exact)
                for i, p in chances.items():
                    keep[i] *= 1 - p
            value = sum(((i + 1) * line[i] * keep[i] for i in range(10)), self._zero())
        self._stops[key] = value
        return value

    def _point(self, pile: Counts, line: Counts, stolen: int) -> Number:
        """Value of a point where the player may stop or draw (after the steal)."""
        if sum(pile) == 0:
            return self._stop(pile, line, stolen)  # R9: the line reaches the loot
        key = self._key(pile, stolen)
        got = self._memo.get(key)
        if got is None:
            stop = self._stop(pile, line, stolen)
            others = self._others(stolen)
            if stop >= self.turn.draw_value(pile, line, others):
                got = stop  # no bank draw value can beat it
            else:
                got = max(stop, self._draw(pile, line, stolen))
            self._memo[key] = got
        return got

    def _others(self, stolen: int) -> Counts:
        return tuple(0 if stolen >> i & 1 else c for i, c in enumerate(self.root_others))

    def _after_draw(self, pile: Counts, drawn: Counts, stolen: int, i: int) -> Number:
        k = 0 if stolen >> i & 1 else self.root_others[i]
        decline = self._point(pile, drawn, stolen)
        if not k:
            return decline
        take = self._point(pile, bump(drawn, i, k), stolen | 1 << i)
        return take if take > decline else decline

    def _draw(self, pile: Counts, line: Counts, stolen: int) -> Number:
        n = sum(pile)
        total = self._zero()
        for i, c in enumerate(pile):
            if not c or (sum(line) >= 3 and line[i]):
                continue  # R5: a bust banks nothing
            p = Fraction(c, n) if self.exact else c / n
            total += p * self._after_draw(put(pile, i, c - 1), bump(line, i, 1), stolen, i)
        return total

    # -- public queries -----------------------------------------------------------
    def stop_value(self, pile: Counts | None = None, line: Counts | None = None, stolen: int = 0) -> Number:
        pile = self.root_pile if pile is None else pile
        line = self.root_line if line is None else line
        return self._stop(pile, line, stolen)

    def draw_value(self, pile: Counts | None = None, line: Counts | None = None, stolen: int = 0) -> Number:
        pile = self.root_pile if pile is None else pile
        line = self.root_line if line is None else line
        return self._draw(pile, line, stolen)

    def steal_choice(self, value: int) -> StealChoice:
        """Take against decline for the steal of ``value`` on offer at the root."""
        i = value - 1
        k = self.root_others[i]
        take = self._point(self.root_pile, bump(self.root_line, i, k), 1 << i)
        decline = self._point(self.root_pile, self.root_line, 0)
        return StealChoice(take, decline)
