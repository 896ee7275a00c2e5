"""Compiled float kernel of the `turn` recursion (numba), the labelled speed path.

The same recursion as :class:`solver.turn.TurnSolver`, over float64
probabilities instead of scaled integers, compiled with numba and cached on
disk. It is checked against the exact path in ``tests/test_turn.py``.

>>> import numpy as np
>>> memo = new_memo()
>>> pile = np.array([11] * 5 + [7] * 5, dtype=np.int64)
>>> round(draw_value(pile, np.zeros(10, np.int64), memo, 0, 0, 0, 0), 4)
15.5212
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict, List

from . import cards

__all__ = ["draw_value", "new_memo", "pile_code", "point_value", "steal_chances"]

_BASE = 12
# Flags as int64 constants: the recursion must call itself with exactly the
# types it was entered with, or numba's on-disk cache crashes on reload
# (numba issue #6713).
_POINT = np.int64(1)
_DRAW = np.int64(0)
_YES = np.bool_(True)
_NO = np.bool_(False)


def new_memo() -> Dict:
    """An empty memo: key (pile code | stolen << 40) -> value of that point."""
    return Dict.empty(key_type=types.int64, value_type=types.float64)


def pile_code(pile: np.ndarray) -> int:
    """The pile as one base-12 number, the memo key's pile part (see :func:`solver.cards.pile_code`)."""
    return cards.pile_code(pile)


@njit(cache=True)
def _value(pile, others, memo, stolen, n, line_sum, line_size, mask, code, with_stop):  # type: ignore[no-untyped-def]
    # with_stop: the value of the point (max of stop and draw, memoised);
    # without: the value of drawing one card from it.
    if with_stop:
        if n == 0:
            return float(line_sum)  # R9: the pile ran out, the line counts
        key = code | (stolen << 40)
        if key in memo:
            return memo[key]
    total = 0.0
    can_bust = line_size >= 3
    power = 1
    for i in range(10):
        c = pile[i]
        if c > 0 and not (can_bust and (mask >> i) & 1):  # R5: a bust adds 0
            v = i + 1
            bit = 1 << i
            pile[i] = c - 1
            child_code = code - power
            k = others[i]
            if k > 0 and not (stolen & bit):  # R7: a steal on offer
                child = _value(pile, others, memo, stolen | bit, n - 1, line_sum + v + v * k,
                               line_size + 1 + k, mask | bit, child_code, _POINT)
                if line_size + 1 < 3:  # only then can declining be better
                    declined = _value(pile, others, memo, stolen, n - 1, line_sum + v, line_size + 1,
                                      mask | bit, child_code, _POINT)
                    if declined >= child:
                        child = declined
            else:
                child = _value(pile, others, memo, stolen, n - 1, line_sum + v, line_size + 1,
                               mask | bit, child_code, _POINT)
            pile[i] = c
            total += c * child
        power *= _BASE
    draw = total / n
    if not with_stop:
        return draw
    stop = float(line_sum)
    best = draw if draw > stop else stop
    memo[code | (stolen << 40)] = best
    return best


def draw_value(pile: np.ndarray, others: np.ndarray, memo: Dict, stolen: int, line_sum: int,
               line_size: int, mask: int) -> float:
    """Value of drawing from a point (``pile`` int64[10] is restored after)."""
    return float(_value(pile, others, memo, stolen, int(pile.sum()), line_sum, line_size, mask,
                        pile_code(pile), _DRAW))


def point_value(pile: np.ndarray, others: np.ndarray, memo: Dict, stolen: int, line_sum: int,
                line_size: int, mask: int) -> float:
    """Value of a point where the player may stop or draw."""
    return float(_value(pile, others, memo, stolen, int(pile.sum()), line_sum, line_size, mask,
                        pile_code(pile), _POINT))


@njit(cache=True)
def _steal_chances(pile, others, memo, smemo, rows, stolen, n, line_sum, line_size, mask, code, at_start):  # type: ignore[no-untyped-def]
    # Entry i: the chance that an opponent's `turn`-optimal turn, from this
    # point on (at_start: its first draw, which it must make), steals value i + 1.
    out = np.zeros(10)
    if n == 0:
        return out
    key = code | (stolen << 40)
    if not at_start:
        if key in smemo:
            return rows[smemo[key]]
        draw = _value(pile, others, memo, stolen, n, line_sum, line_size, mask, code, _DRAW)
        if not draw > line_sum:  # it stops (stop on a tie)
            smemo[key] = len(rows)
            rows.append(out)
            return out
    can_bust = line_size >= 3
    power = 1
    for i in range(10):
        c = pile[i]
        if c > 0 and not (can_bust and (mask >> i) & 1):
            v = i + 1
            bit = 1 << i
            pile[i] = c - 1
            child_code = code - power
            k = others[i]
            if k > 0 and not (stolen & bit):
                take = True
                if line_size + 1 < 3:
                    took = _value(pile, others, memo, stolen | bit, n - 1, line_sum + v + v * k, line_size + 1 + k,
                                  mask | bit, child_code, _POINT)
                    declined = _value(pile, others, memo, stolen, n - 1, line_sum + v, line_size + 1, mask | bit,
                                      child_code, _POINT)
                    take = took > declined
                if take:
                    s = _steal_chances(pile, others, memo, smemo, rows, stolen | bit, n - 1, line_sum + v + v * k,
                                       line_size + 1 + k, mask | bit, child_code, _NO)
                    out += c * s
                    out[i] += c
                else:
                    out += c * _steal_chances(pile, others, memo, smemo, rows, stolen, n - 1, line_sum + v,
                                              line_size + 1, mask | bit, child_code, _NO)
            else:
                out += c * _steal_chances(pile, others, memo, smemo, rows, stolen, n - 1, line_sum + v,
                                          line_size + 1, mask | bit, child_code, _NO)
            pile[i] = c
        power *= _BASE
    out /= n
    if not at_start:
        smemo[key] = len(rows)
        rows.append(out)
    return out


def steal_chances(pile: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Chance that an opponent's `turn`-optimal turn, from its start, steals each value (index v - 1)."""
    rows = List.empty_list(types.float64[:])
    smemo = Dict.empty(key_type=types.int64, value_type=types.int64)
    out: np.ndarray = _steal_chances(pile, others, new_memo(), smemo, rows, 0, int(pile.sum()), 0, 0, 0,
                                     pile_code(pile), _YES)
    return out
