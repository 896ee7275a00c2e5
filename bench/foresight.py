"""How much of `win`'s step functions the root's answer needs, with foresight of every choice and with
Star1's bounds: a measurement of pruning inside the step functions.

`win`'s compiled path (:mod:`solver.models.endgame`) solves each state for every standing within reach. The root
needs far less: where stopping is better, nothing below the draw; where the draw is, nothing below the
stop; of a steal on offer, only the better branch. No search can know which is better before solving
both, so what foresight counts is the least that pruning inside the step functions could ever solve:
the floor under any bounds that were to prune them. What a search could do without foresight is
counted too (``bounded``): at a choice the stop is solved first, then the draw's children, the busts
first, each only over the standings where the draw may still beat the stop, the children seen so far at
their chances and the rest counted as sure wins (Star1's bound, Ballard 1983); steals are solved both ways.

After a full solve, each state is asked for the standings its parents need (one interval, the hull of
all they ask), from the root's own standing down, the best choice read from the solved functions. Then
the states asked and their steps inside what was asked are counted. :func:`policy_chance` checks the
count: the root's chance from the chosen branches alone, never reading a state outside what it was asked.
(Each way, the chosen branches are among those asked.) ``python -m bench.speed --win-anatomy`` prints
the counts.

>>> from bench.speed import endgame
>>> asked = foresight(endgame(8, 1))
>>> asked.states < asked.solver.states and asked.steps < asked.solver.steps
True
>>> asked.chance == policy_chance(asked)
True
>>> foresight(endgame(8, 1), bounded=True).steps > asked.steps
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from solver.game.core import BUST_THRESHOLD
from solver.models.endgame import (CHOICE, START, STOP, WIN_MODE, EndgameSolver, chance_at, clamped, dead_cards,
                                   encoded_standing, holds_win_state, packed, packed_cards, packed_points,
                                   stored_steps, win_slot, win_view)
from solver.game.position import Position
from solver.models.win import standing

__all__ = ["Foresight", "foresight", "policy_chance"]

_FAR = np.int64(2**61)  # beyond every standing


@njit(cache=True, nogil=True)
def _next_step(xs, off, ln, sign, k, x):  # type: ignore[no-untyped-def]
    # The first standing after x where a view (see endgame.win_view) may change.
    if sign > 0:  # the first step j with xs[j] + k > x
        lo, hi = 0, ln
        while lo < hi:
            mid = (lo + hi) // 2
            if xs[off + mid] + k <= x:
                lo = mid + 1
            else:
                hi = mid
        return _FAR if lo == ln else xs[off + lo] + k
    lo, hi = 0, ln  # reflected: step j is at k - xs[j] + 1, after x for the last j with xs[j] <= k - x
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[off + mid] <= k - x:
            lo = mid + 1
        else:
            hi = mid
    return _FAR if lo == 0 else k - xs[off + lo - 1] + 1


@njit(cache=True, nogil=True)
def _split(xs, vs, a, b, lo, hi):  # type: ignore[no-untyped-def]
    # Within [lo, hi], the hulls of the standings where view a beats view b, and where it does not.
    better_lo, better_hi, other_lo, other_hi = _FAR, -_FAR, _FAR, -_FAR
    x = lo
    while x <= hi:
        after = min(_next_step(xs, a[0], a[1], a[2], a[3], x), _next_step(xs, b[0], b[1], b[2], b[3], x))
        end = min(after - 1, hi)
        if chance_at(xs, vs, a[0], a[1], a[2], a[3], x) > chance_at(xs, vs, b[0], b[1], b[2], b[3], x):
            better_lo, better_hi = min(better_lo, x), max(better_hi, end)
        else:
            other_lo, other_hi = min(other_lo, x), max(other_hi, end)
        x = after
    return better_lo, better_hi, other_lo, other_hi


@njit(cache=True, nogil=True)
def _view(kind, pile, mover, other, n, memo, meta, xs, vs, scr, fscr):  # type: ignore[no-untyped-def]
    # A solved state's view (a memo hit all the way down).
    off, ln, sign, k = win_view(kind, pile, mover, other, n, memo, meta, xs, vs, scr, fscr)
    return np.array([off, ln, sign, k])


@njit(cache=True, nogil=True)
def _doubt(xs, vs, seen, weights, terms, rest, n, stop, lo, hi):  # type: ignore[no-untyped-def]
    # Within [lo, hi], the hull of the standings where the draw may still beat the stop: its children seen
    # so far (a term is the better of its two views, R7's steal, when its second is not -1) at their
    # chances, the rest (their weight) counted as sure wins.
    doubt_lo, doubt_hi = _FAR, -_FAR
    x = lo
    while x <= hi:
        after = _next_step(xs, stop[0], stop[1], stop[2], stop[3], x)
        bound = rest
        for t in range(terms):
            chance = 0.0
            for j in range(2):
                v = seen[t, j]
                if j == 0 or v[0] >= 0:
                    after = min(after, _next_step(xs, v[0], v[1], v[2], v[3], x))
                    chance = max(chance, chance_at(xs, vs, v[0], v[1], v[2], v[3], x))
            bound += weights[t] * chance
        end = min(after - 1, hi)
        if bound / n > chance_at(xs, vs, stop[0], stop[1], stop[2], stop[3], x):
            doubt_lo, doubt_hi = min(doubt_lo, x), max(doubt_hi, end)
        x = after
    return doubt_lo, doubt_hi


@njit(cache=True, nogil=True)
def _ask(kind, pile, mover, other, n, lo, hi, memo, meta, xs, vs, scr, fscr, asked, bounded):  # type: ignore[no-untyped-def]
    # Ask a state for the standings lo..hi (its mover's), and its branches for what they need: the chosen
    # ones, or with ``bounded`` those Star1's bounds cannot rule out. The cases and the maps of standings
    # are endgame.win_view's (its _chances), read backwards.
    if lo > hi or (kind == CHOICE and n == 0):
        return
    if kind == STOP:  # the other's turn: its standing is K - x
        k = encoded_standing(packed_points(other), packed_cards(other), 0, 1)
        _ask(START, pile, np.int64(0), mover, n, k - hi, k - lo, memo, meta, xs, vs, scr, fscr, asked, bounded)
        return
    gone = dead_cards(pile, other)
    if gone:  # the other's dead cards banked: the standing moves by them
        k = encoded_standing(packed_points(gone), packed_cards(gone), 0, 0)
        _ask(kind, pile, mover, other - gone, n, lo - k, hi - k, memo, meta, xs, vs, scr, fscr, asked, bounded)
        return
    h = win_slot(kind, pile, mover, other, memo, meta)
    lo, hi = min(asked[h, 0], lo), max(asked[h, 1], hi)
    if lo == asked[h, 0] and hi == asked[h, 1]:
        return  # asked before
    asked[h, 0], asked[h, 1] = lo, hi
    stop = np.zeros(4, np.int64)
    if kind == CHOICE:
        stop = _view(STOP, pile, mover, other, n, memo, meta, xs, vs, scr, fscr)
        if bounded:  # the stop wherever the choice is: the draw is pruned against it
            _ask(STOP, pile, mover, other, n, lo, hi, memo, meta, xs, vs, scr, fscr, asked, bounded)
        else:  # the draw where it beats the stop (a tie stops, as the kernel does), else the stop
            off, ln = stored_steps(memo, h)
            best = np.array([off, ln, 1, 0])
            lo, hi, stop_lo, stop_hi = _split(xs, vs, best, stop, lo, hi)
            _ask(STOP, pile, mover, other, n, stop_lo, stop_hi, memo, meta, xs, vs, scr, fscr, asked, bounded)
    size = packed_cards(mover)
    seen = np.full((10, 2, 4), -1, np.int64)  # the draw's terms so far, for the bounds
    weights = np.zeros(10)
    terms, rest = 0, float(n)
    for busts in (True, False):  # the busts first: their chances bound the draw soonest
        for i in range(10):
            c = (pile >> (4 * i)) & 15
            if c == 0 or (size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15 != 0) != busts:
                continue
            if bounded and kind == CHOICE:
                lo, hi = _doubt(xs, vs, seen, weights, terms, rest, n, stop, lo, hi)
            if lo > hi:
                return
            one = np.int64(1) << (4 * i)
            s = (other >> (4 * i)) & 15
            if busts:  # R5, R6: the other's turn (R9: none)
                k = encoded_standing(packed_points(other), packed_cards(other), -1, 1)
                if n > 1:
                    _ask(START, pile - one, np.int64(0), np.int64(0), n - 1, k - hi, k - lo, memo, meta, xs, vs, scr,
                         fscr, asked, bounded)
                    seen[terms, 0] = _view(START, pile - one, np.int64(0), np.int64(0), n - 1, memo, meta, xs, vs, scr,
                                           fscr)
                    seen[terms, 0, 2], seen[terms, 0, 3] = -seen[terms, 0, 2], k - seen[terms, 0, 3]
                else:
                    seen[terms, 0] = (0, 1, 1, 1 - encoded_standing(-packed_points(other), -packed_cards(other), 1, 0))
            elif s == 0:
                _ask(CHOICE, pile - one, mover + one, other, n - 1, lo, hi, memo, meta, xs, vs, scr, fscr, asked,
                     bounded)
                seen[terms, 0] = _view(CHOICE, pile - one, mover + one, other, n - 1, memo, meta, xs, vs, scr, fscr)
            else:  # R7: the steal, taken where it is better
                seen[terms, 0] = _view(CHOICE, pile - one, mover + one, other, n - 1, memo, meta, xs, vs, scr, fscr)
                seen[terms, 1] = _view(CHOICE, pile - one, mover + one + s * one, other - s * one, n - 1, memo, meta,
                                       xs, vs, scr, fscr)
                take_lo, take_hi, keep_lo, keep_hi = lo, hi, lo, hi
                if not bounded:
                    take_lo, take_hi, keep_lo, keep_hi = _split(xs, vs, seen[terms, 1], seen[terms, 0], lo, hi)
                _ask(CHOICE, pile - one, mover + one + s * one, other - s * one, n - 1, take_lo, take_hi, memo, meta,
                     xs, vs, scr, fscr, asked, bounded)
                _ask(CHOICE, pile - one, mover + one, other, n - 1, keep_lo, keep_hi, memo, meta, xs, vs, scr, fscr,
                     asked, bounded)
            weights[terms] = c
            rest -= c
            terms += 1


@njit(cache=True, nogil=True)
def _count(memo, meta, xs, asked):  # type: ignore[no-untyped-def]
    # The states asked, and their steps inside what was asked (the first counted as one, the chance there).
    states = steps = 0
    for h in range(memo.shape[0]):
        if holds_win_state(memo, meta, h) and asked[h, 0] <= asked[h, 1]:
            states += 1
            off, ln = stored_steps(memo, h)
            steps += 1
            for j in range(ln):
                steps += asked[h, 0] < xs[off + j] <= asked[h, 1]
    return states, steps


@njit(cache=True, nogil=True)
def _policy(kind, pile, mover, other, n, x, memo, meta, xs, vs, scr, fscr, asked, outside):  # type: ignore[no-untyped-def]
    # The chance at standing x from the chosen branches alone (as _ask chose them), counting the states read
    # outside what they were asked (outside[0]) and all states read (outside[1]).
    if kind == CHOICE and n == 0:
        v = _view(kind, pile, mover, other, n, memo, meta, xs, vs, scr, fscr)
        return chance_at(xs, vs, v[0], v[1], v[2], v[3], x)
    if kind == STOP:
        k = encoded_standing(packed_points(other), packed_cards(other), 0, 1)
        return 1.0 - _policy(START, pile, np.int64(0), mover, n, k - x, memo, meta, xs, vs, scr, fscr, asked, outside)
    gone = dead_cards(pile, other)
    if gone:
        k = encoded_standing(packed_points(gone), packed_cards(gone), 0, 0)
        return _policy(kind, pile, mover, other - gone, n, x - k, memo, meta, xs, vs, scr, fscr, asked, outside)
    h = win_slot(kind, pile, mover, other, memo, meta)
    outside[0] += not (asked[h, 0] <= x <= asked[h, 1])
    outside[1] += 1
    if kind == CHOICE:
        off, ln = stored_steps(memo, h)
        stop = _view(STOP, pile, mover, other, n, memo, meta, xs, vs, scr, fscr)
        if chance_at(xs, vs, off, ln, 1, 0, x) <= chance_at(xs, vs, stop[0], stop[1], stop[2],
                                                                                  stop[3], x):
            return _policy(STOP, pile, mover, other, n, x, memo, meta, xs, vs, scr, fscr, asked, outside)
    size = packed_cards(mover)
    total = 0.0
    for i in range(10):
        c = (pile >> (4 * i)) & 15
        if c == 0:
            continue
        one = np.int64(1) << (4 * i)
        if size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15:
            if n == 1:  # R9: the other's line reaches its loot
                chance = 1.0 if 1 - encoded_standing(-packed_points(other), -packed_cards(other), 1, 0) <= x else 0.0
            else:
                k = encoded_standing(packed_points(other), packed_cards(other), -1, 1)
                chance = 1.0 - _policy(START, pile - one, np.int64(0), np.int64(0), n - 1, k - x, memo, meta, xs, vs,
                                       scr, fscr, asked, outside)
        else:
            s = (other >> (4 * i)) & 15
            if s:  # R7: the steal taken where it is better
                keep = _view(CHOICE, pile - one, mover + one, other, n - 1, memo, meta, xs, vs, scr, fscr)
                took = _view(CHOICE, pile - one, mover + one + s * one, other - s * one, n - 1, memo, meta, xs, vs, scr,
                             fscr)
                if (chance_at(xs, vs, took[0], took[1], took[2], took[3], x)
                        <= chance_at(xs, vs, keep[0], keep[1], keep[2], keep[3], x)):
                    s = 0
            chance = _policy(CHOICE, pile - one, mover + one + s * one, other - s * one, n - 1, x, memo, meta, xs, vs,
                             scr, fscr, asked, outside)
        total += c * chance
    return total / n


@dataclass(frozen=True)
class Foresight:
    """What the root's chance needs of a solved endgame: ``states`` of the solver's and ``steps`` of its."""

    solver: EndgameSolver
    position: Position
    asked: npt.NDArray[np.int64]
    states: int
    steps: int
    chance: float


def _root(position: Position) -> tuple[tuple[np.int64, np.int64, np.int64, np.int64], np.int64]:
    """The root state, packed, and its mover's standing (clamped as the solver clamps it)."""
    p = position.turn_state()
    points, cards, lost, low = clamped(tuple(standing(position)), p.pile, p.line, p.reach)  # type: ignore[arg-type]
    return packed(p.pile, p.line, p.reach), np.int64(encoded_standing(points, cards, lost, int(low)))


def foresight(position: Position, bounded: bool = False, solved: Foresight | None = None) -> Foresight:
    """Solve a two-player endgame's `win` at its turn state (or take ``solved``'s solve of it), then count
    what its chance needs with foresight of every choice, or (``bounded``) what Star1's bounds leave in
    doubt (see the module's text)."""
    p = position.turn_state()
    if solved is None:
        solver = EndgameSolver(WIN_MODE, position.pile(), standing(position))
        chance = solver.value(CHOICE, p.pile, p.line, p.reach)
    else:
        solver, chance = solved.solver, solved.chance
    asked = np.empty((solver.memo.shape[0], 2), np.int64)
    asked[:, 0], asked[:, 1] = _FAR, -_FAR
    (pile, line, reach, n), x = _root(position)
    _ask(CHOICE, pile, line, reach, n, x, x, solver.memo, solver.meta, solver.xs, solver.vs, solver.scr, solver.fscr,
         asked, bounded)
    states, steps = _count(solver.memo, solver.meta, solver.xs, asked)
    return Foresight(solver, position, asked, int(states), int(steps), chance)


def policy_chance(asked: Foresight) -> float:
    """The root's chance from the chosen branches alone; raises if a state is read outside what it was
    asked (the count would then be short)."""
    s = asked.solver
    (pile, line, reach, n), x = _root(asked.position)
    outside = np.zeros(2, np.int64)
    chance = float(_policy(CHOICE, pile, line, reach, n, x, s.memo, s.meta, s.xs, s.vs, s.scr, s.fscr, asked.asked,
                           outside))
    if outside[0]:
        raise AssertionError(f"{outside[0]} of {outside[1]} states read outside the standings asked of them")
    return chance
