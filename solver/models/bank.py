"""The ``bank`` model: points that reach the loot, opponents' steals included.

``docs/MODELS.md``: a stopped line stays face up until the player's next
turn. The value of a state is the expected sum of the active player's cards
that reach its loot: at the start of its next turn, or when the pile runs
out. After it stops (or busts) every other player, in seat order, plays one
turn following the `turn`-optimal policy for its own position (stop on a
tie, decline on a tie).

How it is computed
------------------
* Stopping with line ``L``: an opponent's turn takes each value ``v`` of
  ``L`` with some chance ``P(v)``; by linearity, with two players the value
  is ``sum over v of v * L_v * (1 - P(v))``: one pass over the opponent's
  turn under its `turn`-optimal policy (:func:`steal_chances`). Exact.
* Three to five players (**approximation "independent opponents"**): each
  opponent's turn is solved from the table as it stands when the active
  player stops (its own line collected, every other line in reach), and the
  opponents are treated as independent: ``L`` keeps value ``v`` with chance
  ``prod_j (1 - P_j(v))``. Ignored: the cards earlier opponents draw (and
  the pile running out during their turns) and the lines they leave for
  later ones. Its error against a simulation of the exact definition is
  measured and reported in docs/PERFORMANCE.md.
* An opponent's `turn`-optimal policy needs no search past three cards:
  there it stops exactly when one more card gains no more than it risks
  (:attr:`~solver.game.core.TurnState.lookahead_stops`, proved in
  :mod:`solver.game.core`), so its pass covers only the turns it really plays.
* Drawing: over the core's chance children, both steal choices solved (a
  bigger line changes what opponents do). `turn`'s draw value bounds bank's
  from above (bank never pays more than turn). Where turn would draw, the
  draw is solved first, and if it beats the whole line the stop value (at
  most the line) is never needed; where turn would stop, the stop value is
  solved first, and if it reaches the bound the draw is never needed. So
  the opponents' turns are solved mostly where the player might really
  stop.

The exact path (:data:`~solver.utilities.numbers.EXACT`) runs over the core in
Python with scaled integers for the opponents' turns; the float path runs
all of it in one compiled pass (:func:`solver.models.kernel.bank_value`), checked
against the exact one in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from solver.models.advice import Advice, Budget, SlowModel, advice_at
from solver.game.cards import Counts, counts
from solver.game.core import NO_CARDS, TurnState
from solver.utilities.numbers import EXACT, Context, Number
from solver.game.position import Position
from solver.models.turn import TurnSolver

__all__ = ["APPROXIMATION", "BANK", "BankModel", "BankSolver", "TheftRisk", "steal_chances", "theft_risk"]

#: Named in the output whenever three or more players make `bank` approximate.
APPROXIMATION = "independent opponents"

#: Opponent states the compiled pass looks at per second (it turns a time budget into a work budget; the
#: figure is the bench's, see docs/PERFORMANCE.md).
STATES_PER_SECOND = 2_500_000


def steal_chances(start: TurnState, check: Callable[[], None] | None = None) -> list[Fraction]:
    """Exact chance that an opponent's `turn`-optimal turn from ``start`` steals each value (index ``v - 1``).

    The opponent starts its turn at ``start`` (its own line just collected,
    so empty; it must draw) with ``start.reach`` in reach. ``check``, if
    given, is called every 256 new points and may raise to give up.

    >>> steal_chances(TurnState.start((0,) * 9 + (1,), reach=(0,) * 9 + (2,)))[9]
    Fraction(1, 1)
    """
    solver = TurnSolver(start, EXACT)
    watched = [i for i in range(10) if start.reach[i]]
    memo: dict[int, list[int]] = {}
    scale = solver.scale

    def at(p: TurnState, first: bool) -> list[int]:
        # Expected steals from p on, per watched value, times scale[pile size].
        n = p.pile_size
        if n == 0 or (not first and not solver._draws(p)):  # points of its own turn: no need to check them
            return [0] * len(watched)
        got = memo.get(p.key)
        if got is not None:
            return got
        if check is not None and not len(memo) & 255:  # one opponent's turn can take a second: look inside it
            check()
        total = [0] * len(watched)
        for d in p.draws():
            if d.busts:
                continue  # nothing more is stolen
            took = d.stealable and solver._takes(d)
            child = at(d.took if took else d.kept, False)  # type: ignore[arg-type]
            for j, i in enumerate(watched):
                total[j] += d.cards * (child[j] + (scale[n - 1] if took and i == d.value - 1 else 0))
        memo[p.key] = total
        return total

    row = at(start, True)
    out = [Fraction(0)] * 10
    for j, i in enumerate(watched):
        out[i] = Fraction(row[j], scale[start.pile_size])
    return out


class BankSolver:
    """`bank` values for every state of the active player's turn.

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
        self.root = position.turn_state()
        self.root_opponents = tuple(counts(position.players[s].line) for s in order)
        self.approximation = APPROXIMATION if seats > 2 else None
        self.turn = TurnSolver(self.root, numbers)
        self._memo: dict[int, Number] = {}
        self._stops: dict[int, Number] = {}
        if not numbers.exact:
            self._fast = _Compiled(self.root, self.root_opponents, budget, seats)

    # -- public queries -------------------------------------------------------------------------
    def stop_value(self, point: TurnState | None = None) -> Number:
        """Expected points of the line that reach the loot if the player stops at ``point``."""
        point = self._checked(point)
        return self._fast.value(point, 1) if not self.numbers.exact else self._stop(point)

    def draw_value(self, point: TurnState | None = None) -> Number:
        """Value of drawing one more card at ``point``, then playing on for `bank`."""
        point = self._checked(point)
        if point.pile_size == 0:
            raise ValueError("the pile is empty: no card can be drawn")
        return self._fast.value(point, 2) if not self.numbers.exact else self._draw(point)

    def best_value(self, point: TurnState | None = None) -> Number:
        """Value of a state where the player may stop or draw (draw if the line is empty)."""
        point = self._checked(point)
        if point.line_size == 0 and point.pile_size:
            return self.draw_value(point)
        return self._fast.value(point, 0) if not self.numbers.exact else self._point(point)

    def keep_chances(self, point: TurnState | None = None) -> list[Number]:
        """Per value (index ``v - 1``): the chance the line keeps its cards of that value if the player stops."""
        point = self._checked(point)
        if not self.numbers.exact:
            return self._fast.keep(point)
        return list(self._keep(point))

    # -- the exact recursion ------------------------------------------------------------------------
    def _checked(self, point: TurnState | None) -> TurnState:
        return self.root if point is None else self.turn._checked(point)

    def _opponents(self, point: TurnState) -> list[Counts]:
        """The opponents' lines at ``point``: what the active player has stolen is gone from them."""
        return [tuple(c if point.reach[i] else 0 for i, c in enumerate(o)) for o in self.root_opponents]

    def _keep(self, point: TurnState) -> list[Fraction]:
        keep = [Fraction(1)] * 10
        if point.pile_size == 0:
            return keep  # R9: the game is over, the line reaches the loot
        opponents = self._opponents(point)
        for j in range(len(opponents)):
            reach = list(point.line)
            for k, o in enumerate(opponents):
                if k != j:
                    reach = [a + b for a, b in zip(reach, o)]
            chances = steal_chances(TurnState.start(point.pile, NO_CARDS, reach), self._check_budget)
            keep = [x * (1 - p) if point.line[i] else x for i, (x, p) in enumerate(zip(keep, chances))]
        return keep

    def _check_budget(self) -> None:
        if self.budget is not None and self.budget.spent():
            raise SlowModel(_too_slow(self.budget.seconds, self.root, self.players))

    def _stop(self, point: TurnState) -> Fraction:
        got = self._stops.get(point.key)
        if got is not None:
            return got  # type: ignore[return-value]
        self._check_budget()
        keep = self._keep(point)
        value = sum((Fraction((i + 1) * point.line[i]) * keep[i] for i in range(10)), Fraction(0))
        self._stops[point.key] = value
        return value

    def _point(self, point: TurnState) -> Fraction:
        """Value of a state where the player may stop or draw (after the steal)."""
        if point.pile_size == 0:
            return Fraction(point.line_value)  # R9: the line reaches the loot
        got = self._memo.get(point.key)
        if got is not None:
            return got  # type: ignore[return-value]
        line = point.line_value
        bound = self.turn.draw_value(point)  # bank never pays more than turn
        if bound >= line:  # turn would draw: solve the draw first; beating the line, it needs no stop value
            draw = self._draw(point)
            best = draw if draw >= line else max(self._stop(point), draw)
        else:
            stop = self._stop(point)
            best = stop if stop >= bound else max(stop, self._draw(point))
        self._memo[point.key] = best
        return best

    def _draw(self, point: TurnState) -> Fraction:
        total = Fraction(0)
        for d in point.draws():
            if d.busts:
                continue  # R5: a bust banks nothing
            after = self._point(d.point.drawn(d.value))
            if d.stealable:  # R7: take or decline, the better (decline on a tie)
                take = self._point(d.point.drawn(d.value).stolen(d.value))
                after = take if take > after else after
            total += d.cards * after
        return total / point.pile_size


def _too_slow(seconds: float, root: TurnState, players: int) -> str:
    return (f"bank needs more than {seconds:g} s for this position ({root.pile_size} cards in the pile, "
            f"{players} players), the time limit given; without a limit it answers, more slowly")


class _Compiled:
    """The float path: memos in flat arrays for :mod:`solver.models.kernel`, grown and retried when one fills up."""

    def __init__(self, root: TurnState, opponents: tuple[Counts, ...], budget: Budget | None, players: int) -> None:
        self.root = root
        self.reach = np.array(root.reach, np.int64)
        self.opponents = np.array(opponents, np.int64).reshape(len(opponents), 10)
        self.budget = budget
        self.players = players
        self.sizes = [16, 16, 13]
        self.work = -1 if budget is None else int(max(budget.seconds, 0.0) * STATES_PER_SECOND)
        self._tables = self._new_tables()

    def _new_tables(self) -> list[Any]:
        from solver.models import kernel

        work = self.work
        b, t, o = self.sizes
        return [kernel.new_table(b), kernel.new_table(t), kernel.new_table(o, rows=True, work=work), np.ones(10)]

    def _run(self, call: Any) -> Any:
        from solver.models import kernel

        while True:
            out = call(self._tables)
            status = kernel.table_status(self._tables)
            if self.work >= 0:  # the work done counts against the budget, across retries too
                self.work = max(0, self.work - int(self._tables[2][4][4]))
            if status == "slow":
                seconds = 0.0 if self.budget is None else self.budget.seconds
                raise SlowModel(_too_slow(seconds, self.root, self.players))
            if status == "ok":
                return out
            self.sizes = [s + 2 if full else s for s, full in zip(self.sizes, kernel.full_tables(self._tables))]
            if max(self.sizes) > 26:
                raise SlowModel(f"bank needs more memory than it allows itself for this position "
                                f"({self.root.pile_size} cards in the pile, {self.players} players)")
            self._tables = self._new_tables()

    def _stolen(self, point: TurnState) -> int:
        return sum(1 << i for i in range(10) if self.root.reach[i] and not point.reach[i])

    def value(self, point: TurnState, kind: int) -> float:
        from solver.models import kernel

        pile, line = np.array(point.pile, np.int64), np.array(point.line, np.int64)
        return float(self._run(lambda tables: kernel.bank_value(pile, line, self.reach, self.opponents, tables,
                                                                  self._stolen(point), kind)))

    def keep(self, point: TurnState) -> list[Number]:
        from solver.models import kernel

        pile, line = np.array(point.pile, np.int64), np.array(point.line, np.int64)
        out = self._run(lambda tables: kernel.keep_chances(pile, line, self.opponents, self._stolen(point), tables))
        return [float(x) for x in out]


@dataclass(frozen=True)
class TheftRisk:
    """What stopping now risks on one value of the line: the chance the opponents' turns take it, and the points."""

    value: int
    cards: int
    chance: Number
    points_lost: Number  # expected: value * cards * chance


def theft_risk(position: Position, numbers: Context = EXACT, budget: Budget | None = None,
               point: TurnState | None = None) -> list[TheftRisk]:
    """For each value in the active line: the chance that the opponents' turns steal it if the player
    stops (under `bank`'s assumption, and its approximation past two players) and the expected points lost.

    The line is the one as it stands, or at ``point`` (a later state of the turn, e.g. after a steal).

    >>> pos = Position.from_dict({"players": [{"line": [9, 9, 2]}, {}], "active": 0})
    >>> [(r.value, r.cards) for r in theft_risk(pos)]
    [(2, 1), (9, 2)]
    >>> all(0 < r.chance < 1 for r in theft_risk(pos))
    True
    """
    point = point or position.turn_state()
    keep = BankSolver(position, numbers, budget).keep_chances(point)
    return [TheftRisk(v, c, 1 - keep[v - 1], v * c * (1 - keep[v - 1]))
            for v, c in zip(range(1, 11), point.line) if c]


class BankModel:
    """The `bank` model behind the common protocol (see :class:`solver.models.advice.Model`)."""

    name = "bank"
    assumption = ("Points that reach your loot: your line after every opponent has played one turn "
                  "(each playing for its own turn's haul) or the pile has run out.")
    quick_exact = False  # the advisor uses the compiled float path

    def approximation(self, position: Position) -> str | None:
        return APPROXIMATION if len(position.players) > 2 else None

    def advise(self, position: Position, numbers: Context = EXACT, budget: Budget | None = None,
               solver: BankSolver | None = None) -> Advice:
        """`bank` advice; ``solver`` (for this position) is reused if given, its memos and all."""
        b = solver or BankSolver(position, numbers, budget)
        return advice_at(self.name, position, numbers, b.best_value, b.stop_value, b.draw_value,
                         self.approximation(position))


BANK = BankModel()
