"""The ``duel`` model: two players, the rest of the game, both optimal.

``docs/MODELS.md``: zero-sum; the value is the expected final score
difference (active player minus opponent) of all points still to be banked
from this position to the end of the game. Loots already banked are sunk and
left out.

A state is (pile, the mover's line, the other's line); a turn start has an
empty mover line. The memo key keeps only what the value depends on (see
:func:`_key`: cards of values gone from the pile only count as points).
Values are kept from the mover's side (negamax): when the
turn passes, the other player first banks its line (R3), then its value
counts against the mover. Like :mod:`solver.models.turn`, values at pile size ``n``
are kept multiplied by ``n!``, so every sum is integer arithmetic and the
answer one exact :class:`~fractions.Fraction`.

It cannot cover a full deck. Piles above :data:`MAX_PILE` are refused at
once, and a solve that would hold more than :data:`MAX_STATES` points is
stopped with :class:`~solver.models.advice.TooLarge`, so memory stays bounded.

>>> from solver.game.position import Position
>>> pos = Position.from_dict({"players": [{"line": [4], "loot": [1] * 11 + [2] * 11 + [3] * 11 + [4] * 10
...     + [5] * 11 + [6] * 7 + [7] * 7 + [8] * 7 + [9] * 7 + [10] * 6}, {}], "active": 0})
>>> pos.pile_size(), DUEL.advise(pos).draw     # one card, a 10: 4 + 10 for me
(1, Fraction(14, 1))
"""

from __future__ import annotations

import math
from typing import Any

from solver.models.advice import Advice, Budget, SlowModel, TooLarge, advice_at
from solver.game.cards import Counts, total_value
from solver.game.core import BUST_THRESHOLD, NO_CARDS, TurnState
from solver.models.endgame import CHOICE, DRAW, DUEL_MODE, STOP, EndgameSolver
from solver.utilities.numbers import EXACT, Context, Number
from solver.game.position import Position

__all__ = ["DUEL", "MAX_PILE", "MAX_STATES", "DuelModel", "DuelSolver", "ExactEndgame"]

#: Piles larger than this are refused without trying.
MAX_PILE = 12
#: Points a solve may memoise (about 0.3 KB each) before it gives up.
MAX_STATES = 3_000_000



def _key(pile: Counts, mover: Counts | None, other: Counts) -> tuple[int, ...]:
    """What a state's value depends on, and nothing else.

    A value with no card left in the pile can never be drawn again, so it can
    neither bust anyone nor be stolen: of such "dead" cards in a line only
    their points matter (and, for the mover, how many cards it holds, up to
    the threshold of R5). In an endgame most values are dead, which merges many
    points. ``mover`` is None at a turn start (its line was just banked).
    """
    key = list(pile)
    for line in (other, mover):
        if line is None:
            key.append(-1)
            continue
        dead = 0
        for i, c in enumerate(pile):
            if c:
                key.append(line[i])
            else:
                dead += (i + 1) * line[i]
        key.append(dead)
    if mover is not None:
        key.append(min(sum(mover), BUST_THRESHOLD))
    return tuple(key)


class ExactEndgame:
    """What the exact endgame solvers (`duel` here, `win` in :mod:`solver.models.win`) share: the pile limit,
    the factorials values are scaled by, the memo, and the checks of the time budget and memory bound."""

    name = "endgame"
    #: What a refusal for a large pile suggests, and what one at the memory bound adds.
    too_large = "ask again nearer the end of the game"
    memory_note = ""

    def __init__(self, pile: Counts, max_states: int = MAX_STATES, budget: Budget | None = None) -> None:
        n = sum(pile)
        if n > MAX_PILE:
            raise TooLarge(f"{self.name} solves piles of up to {MAX_PILE} cards exactly; this pile has {n}: "
                           f"{self.too_large}")
        self.max_states = max_states
        self.budget = budget
        self.fact = [math.factorial(m) for m in range(n + 1)]
        self._memo: dict[tuple[int, ...], int] = {}

    def _check(self) -> None:
        n = len(self.fact) - 1
        # The clock is read every 256 new points: cheap, and a budget overshoots by milliseconds.
        if self.budget is not None and not len(self._memo) & 255 and self.budget.spent():
            raise SlowModel(f"{self.name} needs more than {self.budget.seconds:g} s for this {n}-card pile, the "
                            f"time limit given; without a limit it answers, more slowly")
        if len(self._memo) > self.max_states:
            raise TooLarge(f"{self.name} gave up on this {n}-card pile after {self.max_states:,} positions "
                           f"(its memory bound){self.memory_note}")

    def value(self, scaled: int, point: TurnState, numbers: Context = EXACT) -> Number:
        """A scaled value of ``point`` (a chance for `win`) as a value (exact, or its float view)."""
        result: Number = numbers.ratio(scaled, self.fact[point.pile_size])
        return result


class DuelSolver(ExactEndgame):
    """Exact `duel` values of states of a two-player game, over the core's turn states.

    A state of the mover's turn is a :class:`~solver.game.core.TurnState` whose
    reach is the other player's line (two players: the only line in reach).
    """

    name = "duel"
    too_large = "use the turn or bank model, or ask again nearer the end of the game"
    memory_note = f"; piles of up to about {MAX_PILE} cards are solved"

    # All values below are scaled by fact[pile size] of the state they belong to.
    def start(self, pile: Counts, other: Counts) -> int:
        """Scaled value of the mover's turn start (its own line already banked, so empty)."""
        key = _key(pile, None, other)
        got = self._memo.get(key)
        if got is None:
            got = self.draw(TurnState.start(pile, NO_CARDS, other))
            self._memo[key] = got
            self._check()
        return got

    def choice(self, point: TurnState) -> int:
        """Scaled value of a state where the mover may stop or draw."""
        if point.pile_size == 0:
            return point.line_value - total_value(point.reach)  # R9: both lines reach the loots
        key = _key(point.pile, point.line, point.reach)
        got = self._memo.get(key)
        if got is None:
            got = max(self.stop(point), self.draw(point))
            self._memo[key] = got
            self._check()
        return got

    def stop(self, point: TurnState) -> int:
        """Scaled value of stopping: the other banks its line (R3), then plays."""
        return -(total_value(point.reach) * self.fact[point.pile_size] + self.start(point.pile, point.line))

    def draw(self, point: TurnState) -> int:
        """Scaled value of drawing one card; the steal on offer is the mover's choice (both solved)."""
        n = point.pile_size
        banked = total_value(point.reach)  # what the other banks when the turn passes to it
        total = 0
        for d in point.draws():
            if d.busts:
                # R6: the line is lost; the other banks its line (R9 if the pile is out) and plays.
                rest = 0 if n == 1 else self.start(d.pile, NO_CARDS)
                total += d.cards * -(banked * self.fact[n - 1] + rest)
                continue
            kept = point.drawn(d.value)
            value = self.choice(kept)
            if d.stealable:  # R7
                value = max(value, self.choice(kept.stolen(d.value)))
            total += d.cards * value
        return total


class DuelModel:
    """The `duel` model behind the common protocol (see :class:`solver.models.advice.Model`)."""

    name = "duel"
    assumption = ("Two players, the rest of the game: expected final score difference, both playing "
                  "optimally to the last card (small piles only).")
    quick_exact = False  # floats: the compiled kernel (solver.models.endgame), to larger piles than the exact path

    def approximation(self, position: Position) -> str | None:
        return None

    def advise(self, position: Position, numbers: Context = EXACT, budget: Budget | None = None) -> Advice:
        if len(position.players) != 2:
            raise TooLarge(f"duel is a two-player model; this position has {len(position.players)} players")
        if not numbers.exact:  # the compiled speed path, to larger piles
            e = EndgameSolver(DUEL_MODE, position.pile(), budget=budget)
            return advice_at(self.name, position, numbers, lambda p: e.value(CHOICE, p.pile, p.line, p.reach),
                             lambda p: e.value(STOP, p.pile, p.line, p.reach),
                             lambda p: e.value(DRAW, p.pile, p.line, p.reach))
        s = DuelSolver(position.pile(), budget=budget)
        return advice_at(self.name, position, numbers,
                         lambda p: s.value(s.choice(p), p, numbers),
                         lambda p: s.value(s.stop(p), p, numbers),
                         lambda p: s.value(s.draw(p), p, numbers))


DUEL = DuelModel()
