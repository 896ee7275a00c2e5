"""The ``turn`` model: the expected haul of this turn, solved exactly.

``docs/MODELS.md``: the value of a state is the expected sum of the active
player's line when its turn ends (its own stop, the pile running out, or 0
on a bust), with optimal draws, stops and steals. In Norvig's one line,
over the core's chance children (:meth:`solver.game.core.TurnState.draws`)::

    value(p) = max(stop(p), sum(count * value(after(d)) for d in p.draws()) / pile size)

Why it is fast and still exact
------------------------------
Within one turn the pile only shrinks and a steal only empties a value of
the reach, so a state is pinned down by its pile and its reach, packed in
one int (:attr:`~solver.game.core.TurnState.key`): that is the memo key, and
nothing else is. A draw at pile size ``n`` weighs each
child by ``count / n``. Instead of fractions, every value at pile size
``n`` is kept multiplied by the falling factorial ``scale[n] = n (n-1) ...
(n-d+1)``, ``d`` the most cards the turn can still draw
(:func:`~solver.game.core.max_draws`): then every sum is integer arithmetic,
comparisons stay exact, and one division at the end gives the
:class:`~fractions.Fraction`. The float mode runs the same recursion over
float64 in the compiled kernel (:mod:`solver.models.kernel`).

>>> from solver.game.cards import DECK_COPIES
>>> s = TurnSolver(TurnState.start(DECK_COPIES))
>>> s.draw_value()
Fraction(9663700139, 622614630)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.models.advice import Advice, Budget, NextCard, StealChoice, Then, advice_at, beats
from solver.game.cards import VALUES
from solver.game.core import Draw, TurnState, max_draws
from solver.utilities.numbers import EXACT, Context, Number
from solver.game.position import Position

__all__ = ["TURN", "TurnModel", "TurnSolver", "next_cards", "turn_report"]


class TurnSolver:
    """`turn` values of every state of one turn, from its root.

    Ask about any point the turn can reach from ``root`` (the memo is shared,
    so a whole turn costs one solve). A state that does not follow from the
    root, or lies beyond the draws the solver was sized for, is refused with
    the reason rather than answered wrongly.

    >>> from solver.game.cards import counts
    >>> s = TurnSolver(TurnState.start((1, 1, 1, 0, 0, 0, 0, 0, 0, 0), counts([1, 2, 3])))
    >>> s.stop_value(), s.draw_value()      # every card busts: stop
    (Fraction(6, 1), Fraction(0, 1))
    """

    def __init__(self, root: TurnState, numbers: Context = EXACT) -> None:
        n = root.pile_size
        if n == 0:
            raise ValueError("the pile is empty: no card can be drawn")
        self.root = root
        self.numbers = numbers
        depth = max_draws(n, root.line_size, sum(1 for c in root.line if c))
        # scale[m] = m (m-1) ... down to the pile size after the last possible draw.
        self.floor = n - depth
        scale = [1] * (n + 1)
        for m in range(self.floor + 1, n + 1):
            scale[m] = scale[m - 1] * m
        self.scale = scale
        self._memo: dict[int, int] = {}
        if not numbers.exact:
            from solver.models import kernel

            self._kernel = kernel
            self._fast_size = 14
            self._fast_table = kernel.new_table(self._fast_size)
            self._fast_reach = np.array(root.reach, dtype=np.int64)

    # -- public queries ----------------------------------------------------------------
    def stop_value(self, point: TurnState | None = None) -> Number:
        """Value of stopping: the line's face value."""
        point = self._checked(point)
        value: Number = self.numbers.of(point.line_value)
        return value

    def draw_value(self, point: TurnState | None = None) -> Number:
        """Value of drawing one more card, then playing on optimally."""
        return self._draw_value(self._checked(point))

    def best_value(self, point: TurnState | None = None) -> Number:
        """Value of the state: the better of stop and draw (draw if the line is empty)."""
        return self._best(self._checked(point))

    def should_draw(self, point: TurnState | None = None) -> bool:
        """The policy: draw only when strictly better than stopping (stop on a tie)."""
        return self._draws(self._checked(point))

    def _draws(self, point: TurnState) -> bool:
        if point.line_size == 0:
            return True  # R4: at least one card
        if point.pile_size == 0 or point.lookahead_stops:
            return False
        n = point.pile_size
        if not self.numbers.exact:
            return beats(self._fast(point, with_stop=False), point.line_value)  # a float tie stops too
        return self._draw(point) > point.line_value * self.scale[n]

    def steal_choice(self, draw: Draw) -> StealChoice:
        """Take against decline for the steal a drawn card offers (``draw.took`` must be set)."""
        if draw.took is None or draw.kept is None:
            raise ValueError(f"a {draw.value} offers no steal here: nobody else holds one")
        return StealChoice(self.best_value(draw.took), self.best_value(draw.kept))

    def takes(self, draw: Draw) -> bool:
        """The policy's steal choice after ``draw`` (decline on a tie; always take when free)."""
        if draw.took is None:
            return False
        self._checked(draw.point)
        return self._takes(draw)

    # Unchecked forms of the queries above, for points already known to belong
    # to this turn (the opponents' passes in `bank` ask them at every state).
    def _takes(self, draw: Draw) -> bool:
        if draw.free_steal:
            return True
        kept = draw.point.drawn(draw.value)
        return beats(self._best(kept.stolen(draw.value)), self._best(kept))  # a float tie declines too

    def _draw_value(self, point: TurnState) -> Number:
        n = point.pile_size
        if n == 0:
            raise ValueError("the pile is empty: no card can be drawn")
        if not self.numbers.exact:
            return self._fast(point, with_stop=False)
        return self.numbers.ratio(self._draw(point), self.scale[n])

    def _best(self, point: TurnState) -> Number:
        stop = self.numbers.of(point.line_value)
        if point.pile_size == 0:
            return stop  # R9: the game is over, the line counts
        draw = self._draw_value(point)
        return draw if point.line_size == 0 else max(stop, draw)

    # -- checks --------------------------------------------------------------------------
    def _checked(self, point: TurnState | None) -> TurnState:
        """The root for None; else the state, if it follows from the root and fits the solve."""
        root = self.root
        if point is None:
            return root
        for i in range(10):
            drawn = root.pile[i] - point.pile[i]
            stolen = root.reach[i] - point.reach[i]
            if drawn < 0 or point.reach[i] not in (0, root.reach[i]) or point.line[i] != root.line[i] + drawn + stolen:
                raise ValueError(f"the {i + 1}s of this state do not follow from the solved position "
                                 f"(pile {root.pile[i]}, line {root.line[i]}, in reach {root.reach[i]}): "
                                 f"not a state of this turn")
        n = point.pile_size
        if n - max_draws(n, point.line_size, sum(1 for c in point.line if c)) < self.floor:
            raise ValueError(f"line {' '.join(map(str, _cards(point.line)))} cannot be reached in the turn this "
                             f"solver was built for (it could draw more cards than that turn can): "
                             f"solve it from its own position")
        return point

    # -- exact recursion (scaled integers) --------------------------------------------------
    def _value(self, point: TurnState) -> int:
        """Scaled value of a state where the player may stop or draw."""
        n = point.pile_size
        if n == 0:
            return point.line_value  # R9: the pile ran out, the line counts (scale[0] == 1)
        got = self._memo.get(point.key)
        if got is None:
            stop = point.line_value * self.scale[n]
            if point.lookahead_stops:
                got = stop  # the monotone case (solver.game.core): no draw beats it, nothing below is needed
            else:
                draw = self._draw(point)
                got = draw if draw > stop else stop
            self._memo[point.key] = got
        return got

    def _draw(self, point: TurnState) -> int:
        """Scaled value of drawing one card: the sum over its values (a bust adds 0).

        A child already in the memo is read by its key, never built."""
        memo = self._memo
        total = 0
        for d in point.draws():
            if d.busts:
                continue
            if d.stealable:
                child = memo.get(d.took_key)
                if child is None:
                    child = self._value(d.point.drawn(d.value).stolen(d.value))
                if not d.free_steal:  # below three cards declining may keep the line safe longer
                    declined = memo.get(d.kept_key)
                    if declined is None:
                        declined = self._value(d.point.drawn(d.value))
                    if declined >= child:
                        child = declined
            else:
                child = memo.get(d.kept_key)
                if child is None:
                    child = self._value(d.point.drawn(d.value))
            total += d.cards * child
        return total

    # -- float path (compiled) ---------------------------------------------------------------
    def _fast(self, point: TurnState, with_stop: bool) -> float:
        stolen = sum(1 << i for i in range(10) if self.root.reach[i] and not point.reach[i])
        mask = sum(1 << i for i in range(10) if point.line[i])
        pile = np.array(point.pile, dtype=np.int64)
        while True:
            value = self._kernel.turn_value(pile, self._fast_reach, self._fast_table, stolen, point.line_value,
                                            point.line_size, mask, with_stop)
            if self._kernel.table_status([self._fast_table]) == "ok":
                return value
            self._fast_size += 2  # the memo filled up: start again with one four times larger
            self._fast_table = self._kernel.new_table(self._fast_size)


def _cards(c: tuple[int, ...]) -> list[int]:
    return [v for v, n in zip(VALUES, c) for _ in range(n)]


def next_cards(position: Position, numbers: Context = EXACT, solver: TurnSolver | None = None) -> list[NextCard]:
    """For each value of the next card: its chance and the best `turn` play after it.

    The line is taken as it stands after the better steal choice (if one is
    on offer now), the state where the player would draw. ``solver`` (rooted
    at this position's turn) is reused if given.
    """
    root = position.turn_state()
    solver = solver or TurnSolver(root, numbers)
    at = root
    offer = position.steal_on_offer()
    if offer is not None and beats(solver.best_value(root.stolen(offer)), solver.best_value(root)):
        at = root.stolen(offer)
    n = at.pile_size
    out = []
    for d in at.draws():
        p = numbers.ratio(d.cards, n)
        if d.kept is None:
            out.append(NextCard(d.value, p, True, None, Then.BUST, numbers.zero))
            continue
        steal = solver.steal_choice(d) if d.took is not None else None
        after = d.took if d.took is not None and solver.takes(d) else d.kept
        then = Then.GAME_OVER if n == 1 else Then.DRAW if solver.should_draw(after) else Then.STOP
        out.append(NextCard(d.value, p, False, steal, then, solver.best_value(after)))
    return out


class TurnModel:
    """The `turn` model behind the common protocol (see :class:`solver.models.advice.Model`)."""

    name = "turn"
    assumption = ("This turn's haul: the expected sum of your line when your turn ends (0 on a bust); "
                  "what opponents may steal later is ignored.")
    quick_exact = True

    def approximation(self, position: Position) -> str | None:
        return None

    def advise(self, position: Position, numbers: Context = EXACT, budget: Budget | None = None,
               solver: TurnSolver | None = None) -> Advice:
        """`turn` advice; ``solver`` (rooted at this position) is reused if given."""
        s = solver or TurnSolver(position.turn_state(), numbers)
        return advice_at(self.name, position, numbers, s.best_value, s.stop_value, s.draw_value)


TURN = TurnModel()


def turn_report(position: Position, numbers: Context = EXACT) -> tuple[Advice, list[NextCard]]:
    """`turn` advice and the next-card table from one solve (what the advisor shows)."""
    solver = TurnSolver(position.turn_state(), numbers)
    return TURN.advise(position, numbers, solver=solver), next_cards(position, numbers, solver)

