"""The ``duel`` model: two players, the rest of the game, both optimal.

``shared/MODELS.md``: zero-sum; the value is the expected final score
difference (active player minus opponent) of all points still to be banked
from this position to the end of the game. Loots already banked are sunk and
left out.

A point is (pile, the mover's line, the other's line); a turn start has an
empty mover line. The memo key keeps only what the value depends on (see
:func:`_key`: cards of values gone from the pile only count as points). Values are kept from the mover's side (negamax): when the
turn passes, the other player first banks its line (R3), then its value
counts against the mover. Like :mod:`solver.turn`, values at pile size ``n``
are kept multiplied by ``n!``, so every sum is integer arithmetic and the
answer one exact :class:`~fractions.Fraction`.

It cannot cover a full deck. Piles above :data:`MAX_PILE` are refused at
once, and a solve that would hold more than :data:`MAX_STATES` points is
stopped with :class:`DuelTooLarge`, so memory stays bounded.

>>> from solver.position import Position
>>> pos = Position.from_dict({"players": [{"line": [4], "loot": [1] * 11 + [2] * 11 + [3] * 11 + [4] * 10
...     + [5] * 11 + [6] * 7 + [7] * 7 + [8] * 7 + [9] * 7 + [10] * 6}, {}], "active": 0})
>>> pos.pile_size(), advise_duel(pos).draw     # one card, a 10: 4 + 10 for me
(1, Fraction(14, 1))
"""

from __future__ import annotations

import math
from fractions import Fraction

from .cards import Counts, bump, counts, put
from .position import Position
from .turn import StealChoice

__all__ = ["MAX_PILE", "MAX_STATES", "DuelSolver", "DuelTooLarge", "advise_duel"]

#: Piles larger than this are refused without trying.
MAX_PILE = 12
#: Points a solve may memoise (about 0.3 KB each) before it gives up.
MAX_STATES = 3_000_000



class DuelTooLarge(ValueError):
    """The position is beyond what `duel` can solve in bounded time and memory."""


def _key(pile: Counts, mover: Counts | None, other: Counts) -> tuple[int, ...]:
    """What a point's value depends on, and nothing else.

    A value with no card left in the pile can never be drawn again, so it can
    neither bust anyone nor be stolen: of such "dead" cards in a line only
    their points matter (and, for the mover, how many cards it holds, up to
    the three of R5). In an endgame most values are dead, which merges many
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
        key.append(min(sum(mover), 3))
    return tuple(key)


class DuelSolver:
    """Exact `duel` values of points of a two-player game."""

    def __init__(self, pile: Counts, max_states: int = MAX_STATES) -> None:
        n = sum(pile)
        if n > MAX_PILE:
            raise DuelTooLarge(f"duel solves piles of up to {MAX_PILE} cards exactly; this pile has {n}: "
                               f"use the turn or bank model, or ask again nearer the end of the game")
        self.max_states = max_states
        self.fact = [math.factorial(m) for m in range(n + 1)]
        self._memo: dict[tuple[int, ...], int] = {}

    def _check(self) -> None:
        if len(self._memo) > self.max_states:
            n = len(self.fact) - 1
            raise DuelTooLarge(f"duel gave up on this {n}-card pile after {self.max_states:,} positions "
                               f"(its memory bound); piles of up to about {MAX_PILE} cards are solved")

    # All values below are scaled by fact[pile size] of the point they belong to.
    def start(self, pile: Counts, other: Counts) -> int:
        """Scaled value of the mover's turn start (its own line already banked, so empty)."""
        key = _key(pile, None, other)
        got = self._memo.get(key)
        if got is None:
            got = self._draw(pile, (0,) * 10, other)
            self._memo[key] = got
            self._check()
        return got

    def choice(self, pile: Counts, mover: Counts, other: Counts) -> int:
        """Scaled value of a point where the mover may stop or draw."""
        n = sum(pile)
        if n == 0:
            return sum((i + 1) * (a - b) for i, (a, b) in enumerate(zip(mover, other)))  # R9
        key = _key(pile, mover, other)
        got = self._memo.get(key)
        if got is None:
            got = max(self.stop(pile, mover, other), self._draw(pile, mover, other))
            self._memo[key] = got
            self._check()
        return got

    def stop(self, pile: Counts, mover: Counts, other: Counts) -> int:
        """Scaled value of stopping: the other banks its line, then plays."""
        n = sum(pile)
        banked = sum((i + 1) * c for i, c in enumerate(other))
        return -(banked * self.fact[n] + self.start(pile, mover))

    def _draw(self, pile: Counts, mover: Counts, other: Counts) -> int:
        n = sum(pile)
        total = 0
        held = sum(mover)
        for i, c in enumerate(pile):
            if not c:
                continue
            child = put(pile, i, c - 1)
            if held >= 3 and mover[i]:
                # R6: the line is lost; the other banks its line (R9 if the pile is out) and plays.
                banked = sum((j + 1) * x for j, x in enumerate(other))
                rest = 0 if n == 1 else self.start(child, (0,) * 10)
                total += c * -(banked * self.fact[n - 1] + rest)
                continue
            drawn = bump(mover, i, 1)
            value = self.choice(child, drawn, other)
            if other[i]:  # R7: the steal on offer, the mover's choice
                took = bump(drawn, i, other[i])
                value = max(value, self.choice(child, took, put(other, i, 0)))
            total += c * value
        return total

    def unscale(self, scaled: int, pile: Counts) -> Fraction:
        return Fraction(scaled, self.fact[sum(pile)])


def advise_duel(position: Position, exact: bool = True):  # type: ignore[no-untyped-def]
    """`duel` advice for a two-player position (the Advice schema of :mod:`solver.advice`)."""
    from .advice import Advice, bust_probability

    if len(position.players) != 2:
        raise DuelTooLarge(f"duel is a two-player model; this position has {len(position.players)} players")
    pile = position.pile()
    mover = counts(position.line)
    other = counts(position.players[1 - position.active].line)
    s = DuelSolver(pile)
    steal = None
    offer = position.steal_on_offer()
    if offer is not None:
        i = offer - 1
        took_mover = bump(mover, i, other[i])
        took_other = put(other, i, 0)
        take = s.unscale(s.choice(pile, took_mover, took_other), pile)
        decline = s.unscale(s.choice(pile, mover, other), pile)
        steal = StealChoice(take, decline)
        if steal.action == "take":
            mover, other = took_mover, took_other
    stop = s.unscale(s.stop(pile, mover, other), pile) if sum(mover) else None
    draw = s.unscale(s._draw(pile, mover, other), pile)
    num = (lambda x: x) if exact else float  # noqa: E731 - the float mode is a view of the exact answer
    return Advice("duel", pile, bust_probability(pile, counts(position.line), exact),
                  None if steal is None else StealChoice(num(steal.take), num(steal.decline)),
                  None if stop is None else num(stop), num(draw), exact)
