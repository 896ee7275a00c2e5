"""The compiled float kernels (numba): the labelled speed path, and the rules' one specialised copy.

The same recursions as :mod:`solver.models.turn` and :mod:`solver.models.bank` over the
core (:mod:`solver.game.core`), over float64 instead of exact numbers, with
points packed in ints and memos in flat arrays, compiled with numba and
cached on disk. The tests check them against the exact paths on random
points.

>>> import numpy as np
>>> pile = np.array([11] * 5 + [7] * 5, dtype=np.int64)
>>> round(turn_value(pile, np.zeros(10, np.int64), new_table(14), 0, 0, 0, 0, False), 4)
15.5212
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.game import cards

__all__ = ["bank_value", "full_tables", "keep_chances", "new_table", "pile_code", "table_status", "turn_value"]

_BASE = 12
_TIE = 1e-9  # solver.models.advice.beats: floats beat by more than their rounding
# Flags as int64 constants: the recursion must call itself with exactly the
# types it was entered with, or numba's on-disk cache crashes on reload
# (numba issue #6713).
_POINT = np.int64(1)
_DRAW = np.int64(0)
_YES = np.bool_(True)
_NO = np.bool_(False)


def pile_code(pile: np.ndarray) -> int:
    """The pile as one base-12 number, the memo key's pile part (see :func:`solver.game.cards.pile_code`)."""
    return cards.pile_code(pile)


@njit(cache=True, nogil=True)
def _risk_gain(pile, reach, stolen, mask):  # type: ignore[no-untyped-def]
    # One more card's risk (pile cards of values held) and gain (points the
    # other pile cards would add, steals taken), summed over the pile.
    risk = 0
    gain = 0
    for i in range(10):
        c = pile[i]
        if (mask >> i) & 1:
            risk += c
        elif c > 0:
            k = 0 if (stolen >> i) & 1 else reach[i]
            gain += c * (i + 1) * (1 + k)
    return risk, gain


@njit(cache=True, nogil=True)
def _lookahead_stops(pile, reach, stolen, line_sum, line_size, mask):  # type: ignore[no-untyped-def]
    # solver.game.core.TurnState.lookahead_stops: with three or more cards down,
    # `turn` stops exactly when one more card gains no more than it risks.
    if line_size < 3:
        return False
    risk, gain = _risk_gain(pile, reach, stolen, mask)
    return gain <= risk * line_sum


# -- the compiled `bank` ---------------------------------------------------------------------------
# Memos are open-addressing hash tables in flat arrays: keys, a generation
# stamp per slot (a slot is live only when its stamp is the table's current
# generation, so emptying a table is one increment), the value, and for the
# opponents' table steal chances per slot. ``meta`` holds [generation,
# entries, limit, overflowed, points made, work limit, out of work]: past
# the limit a table stops inserting and flags it, and the caller retries
# with a larger one (values computed after an overflow are discarded); past
# the work limit (-1: none) the pass stops and says so.
_GEN, _COUNT, _LIMIT, _FULL, _DONE, _WORK, _SLOW = 0, 1, 2, 3, 4, 5, 6
FULL = _FULL  # meta's "a memo filled up" flag, for callers that retry larger
_MIX = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing
# What a `bank` call asks for, as int64 constants (see _POINT above on numba's cache).
_B_POINT = np.int64(0)
_B_STOP = np.int64(1)
_B_DRAW = np.int64(2)


def new_table(log2_size: int, rows: bool = False, work: int = -1) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                             np.ndarray, np.ndarray]:
    """An empty memo of ``2**log2_size`` slots (with ten floats a slot when ``rows``; ``work``: a limit on points)."""
    size = 1 << log2_size
    meta = np.array([1, 0, int(size * 0.7), 0, 0, work, 0], dtype=np.int64)
    return (np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.float64),
            np.zeros((size if rows else 1, 10), np.float64), meta)


def table_status(tables: list) -> str:  # type: ignore[type-arg]
    """``"ok"``, ``"full"`` (a memo filled up: retry larger) or ``"slow"`` (the work limit was reached)."""
    metas = [t[4] for t in tables if isinstance(t, tuple)]
    if any(m[_SLOW] for m in metas):
        return "slow"
    return "full" if any(m[_FULL] for m in metas) else "ok"


def full_tables(tables: list) -> list[bool]:  # type: ignore[type-arg]
    """Which of the three memos filled up."""
    return [bool(t[4][_FULL]) for t in tables if isinstance(t, tuple)]


@njit(cache=True, nogil=True)
def _probe(keys, stamps, gen, key):  # type: ignore[no-untyped-def]
    mask = keys.shape[0] - 1
    h = (key * _MIX) >> 20
    h = (h ^ (h >> 31)) & mask
    while stamps[h] == gen and keys[h] != key:
        h = (h + 1) & mask
    return h


@njit(cache=True, nogil=True)
def _claim(keys, stamps, meta, h, key):  # type: ignore[no-untyped-def]
    # Take slot h for key; False (and the table flagged) when it is full.
    if meta[_COUNT] >= meta[_LIMIT]:
        meta[_FULL] = 1
        return False
    if meta[_WORK] >= 0 and meta[_DONE] >= meta[_WORK]:
        meta[_SLOW] = 1
        return False
    keys[h] = key
    stamps[h] = meta[_GEN]
    meta[_COUNT] += 1
    meta[_DONE] += 1
    return True


@njit(cache=True, nogil=True)
def _turn(pile, reach, tk, ts, tv, meta, stolen, n, line_sum, line_size, mask, code, with_stop):  # type: ignore[no-untyped-def]
    # `turn` value of a state (with_stop) or of drawing from it, memoised in an array table.
    if n == 0:
        return float(line_sum)  # R9
    key = code | (stolen << 40)
    if with_stop:
        h = _probe(tk, ts, meta[_GEN], key)
        if ts[h] == meta[_GEN]:
            return tv[h]
    if meta[_FULL]:
        return 0.0
    if with_stop and _lookahead_stops(pile, reach, stolen, line_sum, line_size, mask):
        best = float(line_sum)  # stopping is optimal (solver.game.core: the monotone case)
        h = _probe(tk, ts, meta[_GEN], key)
        if _claim(tk, ts, meta, h, key):
            tv[h] = best
        return best
    total = 0.0
    can_bust = line_size >= 3
    power = 1
    for i in range(10):
        c = pile[i]
        if c > 0 and not (can_bust and (mask >> i) & 1):  # R5: a bust adds 0
            v = i + 1
            bit = 1 << i
            pile[i] = c - 1
            k = reach[i]
            if k > 0 and not (stolen & bit):  # R7
                child = _turn(pile, reach, tk, ts, tv, meta, stolen | bit, n - 1, line_sum + v + v * k,
                              line_size + 1 + k, mask | bit, code - power, _POINT)
                if line_size + 1 < 3:
                    declined = _turn(pile, reach, tk, ts, tv, meta, stolen, n - 1, line_sum + v, line_size + 1,
                                     mask | bit, code - power, _POINT)
                    if declined >= child:
                        child = declined
            else:
                child = _turn(pile, reach, tk, ts, tv, meta, stolen, n - 1, line_sum + v, line_size + 1, mask | bit,
                              code - power, _POINT)
            pile[i] = c
            total += c * child
        power *= _BASE
    draw = total / n
    if not with_stop:
        return draw
    best = draw if draw > line_sum else float(line_sum)
    h = _probe(tk, ts, meta[_GEN], key)
    if _claim(tk, ts, meta, h, key):
        tv[h] = best
    return best


def turn_value(pile: np.ndarray, reach: np.ndarray, table: tuple, stolen: int, line_sum: int, line_size: int,  # type: ignore[type-arg]
               mask: int, with_stop: bool) -> float:
    """`turn` value of a state (``with_stop``: the better of stop and draw) or of drawing from it.

    ``reach`` is what the others hold at the turn's root, ``stolen`` the
    values taken since, ``mask`` the values in the line; ``table`` a memo
    from :func:`new_table`, kept between calls of the same turn (check
    :func:`table_status` with it afterwards: a full memo means retry larger).
    """
    tk, ts, tv, _, meta = table
    return float(_turn(pile.copy(), reach, tk, ts, tv, meta, np.int64(stolen), np.int64(int(pile.sum())),
                       np.int64(line_sum), np.int64(line_size), np.int64(mask), np.int64(pile_code(pile)),
                       _POINT if with_stop else _DRAW))


@njit(cache=True, nogil=True)
def _opponent(pile, reach, watch, ok, os, ov, orows, meta, stolen, n, line_sum, line_size, mask, code):  # type: ignore[no-untyped-def]
    # One opponent's `turn`-optimal turn from a state where it draws: its
    # value in ov[slot] and, in orows[slot, j], the chance it steals value
    # watch[j] + 1 from here on (only the watched values: the active line's).
    # A child where it stops (solver.game.core: the one-step look-ahead, checked
    # in O(1) from this state's risk and gain) or where the pile is out is
    # a leaf: worth its line, stealing nothing more, never stored. Returns
    # the slot, or -1 when a memo is full or the work is spent.
    if meta[_FULL] or meta[_SLOW]:
        return -1
    key = code | (stolen << 40)
    gen = meta[_GEN]
    h = _probe(ok, os, gen, key)
    if os[h] == gen:
        return h
    if not _claim(ok, os, meta, h, key):
        return -1
    m = watch.shape[0]
    for j in range(m):
        orows[h, j] = 0.0
    risk, gain = _risk_gain(pile, reach, stolen, mask)
    total = 0.0
    can_bust = line_size >= 3
    power = 1
    for i in range(10):
        c = pile[i]
        if c > 0 and not (can_bust and (mask >> i) & 1):  # R5: a bust steals nothing more
            v = i + 1
            bit = 1 << i
            held = (mask >> i) & 1
            k = 0 if stolen & bit else reach[i]
            # The children's risk and gain: the drawn value is held from now on.
            child_risk = risk - 1 if held else risk + c - 1
            child_gain = gain if held else gain - c * v * (1 + k)
            pile[i] = c - 1
            kept_sum = line_sum + v
            if n == 1 or (line_size + 1 >= 3 and child_gain <= child_risk * kept_sum):
                kept = -1  # a leaf: the pile is out, or it stops here
                kept_value = float(kept_sum)
            else:
                kept = _opponent(pile, reach, watch, ok, os, ov, orows, meta, stolen, n - 1, kept_sum,
                                 line_size + 1, mask | bit, code - power)
                kept_value = ov[kept] if kept >= 0 else 0.0
            child, child_value, took = kept, kept_value, False
            if k > 0:  # R7: the steal on offer
                took_sum = line_sum + v + v * k
                if n == 1 or (line_size + 1 + k >= 3 and child_gain <= child_risk * took_sum):
                    t = -1
                    t_value = float(took_sum)
                else:
                    t = _opponent(pile, reach, watch, ok, os, ov, orows, meta, stolen | bit, n - 1, took_sum,
                                  line_size + 1 + k, mask | bit, code - power)
                    t_value = ov[t] if t >= 0 else 0.0
                # Free with three down; else decline on a tie, a float tie too: an exact tie summed two ways
                # may differ in its last bits, and which branch is taken changes what is stolen.
                if line_size + 1 >= 3 or t_value > kept_value + _TIE * max(1.0, abs(kept_value)):
                    child, child_value, took = t, t_value, True
            pile[i] = c
            total += c * child_value
            if child >= 0:
                for j in range(m):
                    orows[h, j] += c * orows[child, j]
            if took:
                for j in range(m):
                    if watch[j] == i:
                        orows[h, j] += c
        power *= _BASE
    for j in range(m):
        orows[h, j] /= n
    ov[h] = total / n
    return h


@njit(cache=True, nogil=True)
def _keep(pile, line, opp_lines, stolen, n, ok, os, ov, orows, ometa, out):  # type: ignore[no-untyped-def]
    # out[v - 1]: the chance the active line keeps its value v through every
    # opponent's turn ("independent opponents" past two players; exact for two).
    for j in range(10):
        out[j] = 1.0
    opponents = opp_lines.shape[0]
    reach = np.zeros(10, np.int64)
    held = 0
    for i in range(10):
        if line[i] > 0:
            held += 1
    watch = np.zeros(held, np.int64)  # the values of the line: only their steal chances are needed
    held = 0
    for i in range(10):
        if line[i] > 0:
            watch[held] = i
            held += 1
    code = 0
    power = 1
    for i in range(10):
        code += pile[i] * power
        power *= _BASE
    for o in range(opponents):
        for i in range(10):
            r = line[i]
            if not (stolen >> i) & 1:
                for q in range(opponents):
                    if q != o:
                        r += opp_lines[q, i]
            reach[i] = r
        ometa[_GEN] += 1  # a new opponent turn: empty its memo
        ometa[_COUNT] = 0
        zero = np.int64(0)  # int64, not a literal: the recursion's entry types must match its own calls
        h = _opponent(pile, reach, watch, ok, os, ov, orows, ometa, zero, n, zero, zero, zero, code)  # R4: it draws
        if h >= 0:
            for j in range(watch.shape[0]):
                out[watch[j]] *= 1.0 - orows[h, j]


@njit(cache=True, nogil=True)
def _stop(pile, line, opp_lines, stolen, n, line_sum, ok, os, ov, orows, ometa, scratch):  # type: ignore[no-untyped-def]
    if n == 0:
        return float(line_sum)  # R9: the line reaches the loot
    _keep(pile, line, opp_lines, stolen, n, ok, os, ov, orows, ometa, scratch)
    value = 0.0
    for i in range(10):
        value += (i + 1) * line[i] * scratch[i]
    return value


@njit(cache=True, nogil=True)
def _bank(pile, line, reach, opp_lines, bk, bs, bv, bmeta, tk, ts, tv, tmeta, ok, os, ov, orows, ometa, scratch,  # type: ignore[no-untyped-def]
          stolen, n, line_sum, line_size, mask, code, kind):
    # kind 0: value of a state (the better of stop and draw, memoised);
    # kind 1: value of stopping there; kind 2: value of drawing there.
    if n == 0:
        return float(line_sum)  # R9
    if kind == 1:
        return _stop(pile, line, opp_lines, stolen, n, line_sum, ok, os, ov, orows, ometa, scratch)
    key = code | (stolen << 40)
    if kind == 0:
        h = _probe(bk, bs, bmeta[_GEN], key)
        if bs[h] == bmeta[_GEN]:
            return bv[h]
    if bmeta[_FULL] or tmeta[_FULL] or ometa[_FULL] or ometa[_SLOW]:
        return 0.0
    if kind == 0:
        # `turn`'s draw value bounds bank's from above (bank never pays more).
        # Where turn would draw, solve the draw first: if it beats the whole
        # line, the stop value (at most the line) is never needed.
        bound = _turn(pile, reach, tk, ts, tv, tmeta, stolen, n, line_sum, line_size, mask, code, _DRAW)
        if bound >= line_sum:
            draw = _bank(pile, line, reach, opp_lines, bk, bs, bv, bmeta, tk, ts, tv, tmeta, ok, os, ov, orows,
                         ometa, scratch, stolen, n, line_sum, line_size, mask, code, _B_DRAW)
            if draw >= line_sum:
                best = draw
            else:
                stop = _stop(pile, line, opp_lines, stolen, n, line_sum, ok, os, ov, orows, ometa, scratch)
                best = draw if draw > stop else stop
        else:
            stop = _stop(pile, line, opp_lines, stolen, n, line_sum, ok, os, ov, orows, ometa, scratch)
            if stop >= bound:
                best = stop  # no draw can beat it
            else:
                draw = _bank(pile, line, reach, opp_lines, bk, bs, bv, bmeta, tk, ts, tv, tmeta, ok, os, ov, orows,
                             ometa, scratch, stolen, n, line_sum, line_size, mask, code, _B_DRAW)
                best = draw if draw > stop else stop
        h = _probe(bk, bs, bmeta[_GEN], key)
        if _claim(bk, bs, bmeta, h, key):
            bv[h] = best
        return best
    # kind 2: draw one card; both steal choices are solved (a bigger line changes what opponents do).
    total = 0.0
    can_bust = line_size >= 3
    power = 1
    for i in range(10):
        c = pile[i]
        if c > 0 and not (can_bust and (mask >> i) & 1):  # R5: a bust banks nothing
            v = i + 1
            bit = 1 << i
            pile[i] = c - 1
            line[i] += 1
            child = _bank(pile, line, reach, opp_lines, bk, bs, bv, bmeta, tk, ts, tv, tmeta, ok, os, ov, orows,
                          ometa, scratch, stolen, n - 1, line_sum + v, line_size + 1, mask | bit, code - power,
                          _B_POINT)
            k = reach[i]
            if k > 0 and not (stolen & bit):  # R7: take or decline, the better (decline on a tie)
                line[i] += k
                took = _bank(pile, line, reach, opp_lines, bk, bs, bv, bmeta, tk, ts, tv, tmeta, ok, os, ov, orows,
                             ometa, scratch, stolen | bit, n - 1, line_sum + v + v * k, line_size + 1 + k, mask | bit,
                             code - power, _B_POINT)
                line[i] -= k
                if took > child:
                    child = took
            line[i] -= 1
            pile[i] = c
            total += c * child
        power *= _BASE
    return total / n


def bank_value(pile: np.ndarray, line: np.ndarray, reach: np.ndarray, opp_lines: np.ndarray, tables: list,  # type: ignore[type-arg]
               stolen: int, kind: int) -> float:
    """`bank` value at a state: ``kind`` 0 the state (best of stop and draw), 1 stop, 2 draw.

    ``reach`` is what the other players hold at the start of the turn (for
    the active player's steals), ``opp_lines`` the opponents' lines in seat
    order (rows), ``stolen`` the values taken this turn. ``tables`` are the
    memos (:func:`new_table`: bank, turn, opponents with rows) and a scratch
    row; check :func:`table_status` after the call (the value is only
    meaningful when it is ``"ok"``).
    """
    (bk, bs, bv, _, bmeta), (tk, ts, tv, _, tmeta), (ok, os, ov, orows, ometa), scratch = tables
    line = line.copy()
    n = int(pile.sum())
    size = int(line.sum())
    mask = sum(1 << i for i in range(10) if line[i])
    line_sum = int(sum((i + 1) * int(line[i]) for i in range(10)))
    value = _bank(pile.copy(), line, reach, opp_lines, bk, bs, bv, bmeta, tk, ts, tv, tmeta, ok, os, ov, orows, ometa,
                  scratch, np.int64(stolen), np.int64(n), np.int64(line_sum), np.int64(size), np.int64(mask),
                  np.int64(pile_code(pile)), np.int64(kind))
    return float(value)


def keep_chances(pile: np.ndarray, line: np.ndarray, opp_lines: np.ndarray, stolen: int, tables: list) -> np.ndarray:  # type: ignore[type-arg]
    """Chance that the line keeps each value (index v - 1) through the opponents' turns.

    Check :func:`table_status` after the call, as for :func:`bank_value`.
    """
    _, _, (ok, os, ov, orows, ometa), scratch = tables
    out = np.ones(10)
    n = int(pile.sum())
    if n:
        _keep(pile.copy(), line, opp_lines, np.int64(stolen), np.int64(n), ok, os, ov, orows, ometa, out)
    return out


# -- the chance to win: the evaluator's inputs and network, and the turn's search ----------------------
# docs/MODELS.md, "the chance to win from any position"; the plain Python search is
# solver.models.chances.TurnSearch, the numpy network solver.models.evaluator.Evaluator.chances.
SEAT_FEATURES = 16
SHARED_FEATURES = 14
#: A network trained with them reads two more inputs per seat, after the shared ones: how exposed its face-up
#: line is to the next card (the points one card steals from it on average, and the chance it steals any).
EXPOSURE_FEATURES = 2
_W_BEST = np.int64(0)
_W_DRAW = np.int64(1)
_W_STOP = np.int64(2)


@njit(cache=True, nogil=True)
def features_into(x, pile, lines, pts, cards, lost, to_play, rounds_left, n):  # type: ignore[no-untyped-def]
    # The evaluator's inputs for one table (solver.models.evaluator.features says what each is).
    tot = np.empty(n)
    for s in range(n):
        t = float(pts[s])
        for i in range(10):
            t += (i + 1) * lines[s, i]
        tot[s] = t
    for k in range(n):
        s = (to_play + k) % n
        base = k * SEAT_FEATURES
        lp = 0
        lc = 0
        for i in range(10):
            lp += (i + 1) * lines[s, i]
            lc += lines[s, i]
            x[base + 6 + i] = lines[s, i] / 3.0
        best = -1e18
        for j in range(n):
            if j != s and tot[j] > best:
                best = tot[j]
        x[base + 0] = pts[s] / 100.0
        x[base + 1] = cards[s] / 30.0
        x[base + 2] = lost[s] / 5.0
        x[base + 3] = lp / 50.0
        x[base + 4] = lc / 10.0
        x[base + 5] = (tot[s] - best) / 50.0
    o = SEAT_FEATURES * n
    size = 0
    points = 0
    for i in range(10):
        x[o + i] = pile[i] / 9.0
        size += pile[i]
        points += (i + 1) * pile[i]
    x[o + 10] = size / 90.0
    x[o + 11] = points / 445.0
    x[o + 12] = to_play / 4.0
    x[o + 13] = rounds_left / 6.0
    if x.shape[0] > o + SHARED_FEATURES:  # a network that reads the lines' exposure
        e = o + SHARED_FEATURES
        for k in range(n):
            s = (to_play + k) % n
            steals = 0.0
            hits = 0.0
            for i in range(10):
                if lines[s, i] > 0:
                    steals += lines[s, i] * (i + 1) * pile[i]
                    hits += pile[i]
            x[e + EXPOSURE_FEATURES * k] = steals / size / 10.0 if size else 0.0
            x[e + EXPOSURE_FEATURES * k + 1] = hits / size if size else 0.0


@njit(cache=True, nogil=True)
def features_batch(pile, lines, pts, cards, lost, to_play, rounds_left, n, exposure):  # type: ignore[no-untyped-def]
    b = pile.shape[0]
    x = np.zeros((b, (SEAT_FEATURES + (EXPOSURE_FEATURES if exposure else 0)) * n + SHARED_FEATURES))
    for r in range(b):
        features_into(x[r], pile[r], lines[r], pts[r], cards[r], lost[r], to_play[r], rounds_left[r], n)
    return x


@njit(cache=True, nogil=True)
def chances_into(x, w1, b1, w2, b2, out):  # type: ignore[no-untyped-def]
    # The network for one row (solver.models.evaluator.Evaluator.chances is the numpy reference).
    hidden = w1.shape[1]
    outs = w2.shape[1]
    z = b2.copy()
    for j in range(hidden):
        a = b1[j]
        for i in range(x.shape[0]):
            a += x[i] * w1[i, j]
        if a > 0.0:
            for k in range(outs):
                z[k] += a * w2[j, k]
    _softmax_into(z, out)


@njit(cache=True, nogil=True)
def _softmax_into(z, out):  # type: ignore[no-untyped-def]
    if z.shape[0] == 1:  # two players: one logistic unit, the chance of the second seat in turn order
        p1 = 1.0 / (1.0 + np.exp(-z[0]))
        out[0] = 1.0 - p1
        out[1] = p1
        return
    m = z.max()
    s = 0.0
    for k in range(z.shape[0]):
        z[k] = np.exp(z[k] - m)
        s += z[k]
    for k in range(z.shape[0]):
        out[k] = z[k] / s


@njit(cache=True, nogil=True)
def _standings_into(acc, tot, nxt, n, w1, std_rows):  # type: ignore[no-untyped-def]
    # Add the standings' part of the first layer (the only inputs not linear in the cards) to ``acc``: each
    # seat's points minus the best other seat's, in turn order from the next seat.
    hidden = acc.shape[0]
    top, second, top_seat = -1e18, -1e18, -1
    for s in range(n):
        if tot[s] > top:
            second, top, top_seat = top, tot[s], s
        elif tot[s] > second:
            second = tot[s]
    for k in range(n):
        s = (nxt + k) % n
        d = (tot[s] - (second if s == top_seat else top)) / 50.0
        if d != 0.0:
            row = std_rows[k]
            for j in range(hidden):
                acc[j] += d * w1[row, j]


@njit(cache=True, nogil=True)
def _exposure_into(acc, pile, drop, line, mover, lines0, stolen, a, nxt, n, w1, exp_rows):  # type: ignore[no-untyped-def]
    # Add the lines' exposure to ``acc`` (inputs that are not linear in the cards either: a line times the
    # pile), at the next seat's turn start: the next seat has banked its line (R3); the mover's is ``line``
    # (``mover``; a bust leaves none); the others' are as at the root less the values stolen. ``drop``: a card
    # gone from ``pile`` (the card that busted), or -1. ``exp_rows[0] < 0``: the network reads no exposure.
    if exp_rows[0] < 0:
        return
    size = 0
    for i in range(10):
        size += pile[i]
    if drop >= 0:
        size -= 1
    if size == 0:
        return
    hidden = acc.shape[0]
    for k in range(1, n):  # k = 0 is the next seat, whose line is banked
        s = (nxt + k) % n
        if s == a and not mover:
            continue
        steals = 0.0
        hits = 0.0
        for i in range(10):
            c = line[i] if s == a else (0 if (stolen >> i) & 1 else lines0[s, i])
            if c > 0:
                left = pile[i] - (1 if i == drop else 0)
                steals += c * (i + 1) * left
                hits += left
        e1 = steals / size / 10.0
        e2 = hits / size
        row = exp_rows[k]
        if e1 != 0.0 or e2 != 0.0:
            for j in range(hidden):
                acc[j] += e1 * w1[row, j] + e2 * w1[row + 1, j]


@njit(cache=True, nogil=True)
def _head(hbuf, n, w2, b2, z, out):  # type: ignore[no-untyped-def]
    # The network past its first layer's sums ``hbuf``: the mover's chance (the last seat from the next).
    for k in range(z.shape[0]):
        z[k] = b2[k]
    for j in range(hbuf.shape[0]):
        v = hbuf[j]
        if v > 0.0:
            for k in range(z.shape[0]):
                z[k] += v * w2[j, k]
    _softmax_into(z, out)
    return out[n - 1]


@njit(cache=True, nogil=True)
def _turn_start(h, tot, a, nxt, n, w1, std_rows, w2, b2, hbuf, z, out, pile, line, lines0, stolen,  # type: ignore[no-untyped-def]
                exp_rows):
    # The evaluator at the next seat's turn start after a stop: the first layer's linear part ``h`` was kept
    # along the search's path; the standings and the lines' exposure are added here.
    for j in range(h.shape[0]):
        hbuf[j] = h[j]
    _standings_into(hbuf, tot, nxt, n, w1, std_rows)
    _exposure_into(hbuf, pile, np.int64(-1), line, True, lines0, stolen, a, nxt, n, w1, exp_rows)
    return _head(hbuf, n, w2, b2, z, out)


@njit(cache=True, nogil=True)
def _game_end(busted, size, tot, ocards, a, n, loot_pts, loot_cards, lost, rounds_left, deck, w1, b1, w2, b2,  # type: ignore[no-untyped-def]
              x, out):
    # R9: the pile is out; every line goes to its loot. R11, R12 decide (or, before a match's last round,
    # R15, the next round's start is valued, its first seat taken as equally likely).
    pts = np.empty(n, np.int64)
    cards = np.empty(n, np.int64)
    lst = np.empty(n, np.int64)
    for s in range(n):
        pts[s] = np.int64(tot[s])
        cards[s] = loot_cards[s] + ocards[s]
        lst[s] = lost[s]
    if busted:
        pts[a] = loot_pts[a]
        cards[a] = loot_cards[a]
        lst[a] += 1
    else:
        cards[a] = loot_cards[a] + size
    if rounds_left == 0:
        win = 0
        for s in range(1, n):
            if (pts[s] > pts[win] or (pts[s] == pts[win] and cards[s] > cards[win])
                    or (pts[s] == pts[win] and cards[s] == cards[win] and lst[s] < lst[win])):
                win = s
        return 1.0 if win == a else 0.0
    empty = np.zeros((n, 10), np.int64)
    total = 0.0
    for f in range(n):
        features_into(x, deck, empty, pts, cards, lst, f, rounds_left - 1, n)
        chances_into(x, w1, b1, w2, b2, out)
        total += out[(a - f) % n]
    return total / n


@njit(cache=True, nogil=True)
def _win(pile, line, size, line_pts, stolen, depth, want, reach0, lines0, tot, ocards, a, nxt, n,  # type: ignore[no-untyped-def]
         loot_pts, loot_cards, lost, rounds_left, deck, hp, hl, hs, dp, dl, ds, db, w1, b1, w2, b2, std_rows,
         hbuf, z, out, x, tk, ts, tv, meta, exp_rows):
    # The mover's chance to win at a state of its turn: best (memoised), of drawing, or of stopping.
    # A child already in the memo is read there before its first-layer sums are made; the standings after
    # a bust are the same whichever card busts, so they are added once (into ``hs``).
    if want == _W_STOP:
        for j in range(hp.shape[1]):
            hbuf[j] = hp[depth, j] + hl[depth, j]
        return _turn_start(hbuf, tot, a, nxt, n, w1, std_rows, w2, b2, hbuf, z, out, pile, line, lines0, stolen,
                           exp_rows)
    code = 0
    for i in range(10):
        code |= line[i] << (4 * i)
    key = code | (stolen << 40)
    gen = meta[_GEN]
    if want == _W_BEST:
        h = _probe(tk, ts, gen, key)
        if ts[h] == gen:
            return tv[h]
    if meta[_FULL]:
        return 0.0  # the memo is full: the caller retries with a larger one, so give up at once
    hidden = hp.shape[1]
    n_pile = 0
    for i in range(10):
        n_pile += pile[i]
    can_bust = size >= 3  # R5
    bust_ready = False
    total = 0.0
    for i in range(10):
        c = pile[i]
        if c == 0:
            continue
        if can_bust and line[i] > 0:  # R6: the line is lost, a lost turn counted
            if n_pile > 1:
                if not bust_ready:
                    keep = tot[a]
                    tot[a] = loot_pts[a]
                    for j in range(hidden):
                        hs[depth, j] = hp[depth, j] + db[j]
                    _standings_into(hs[depth], tot, nxt, n, w1, std_rows)
                    tot[a] = keep
                    bust_ready = True
                for j in range(hidden):
                    hbuf[j] = hs[depth, j] + dp[i, j]
                _exposure_into(hbuf, pile, np.int64(i), line, False, lines0, stolen, a, nxt, n, w1, exp_rows)
                v = _head(hbuf, n, w2, b2, z, out)
            else:
                v = _game_end(True, size, tot, ocards, a, n, loot_pts, loot_cards, lost, rounds_left, deck, w1,
                              b1, w2, b2, x, out)
            total += c * v
            continue
        pile[i] -= 1
        line[i] += 1
        tot[a] += i + 1
        d1 = depth + 1
        if n_pile == 1:
            v = _game_end(False, size + 1, tot, ocards, a, n, loot_pts, loot_cards, lost, rounds_left, deck, w1,
                          b1, w2, b2, x, out)
        else:
            h = _probe(tk, ts, gen, (code + (np.int64(1) << (4 * i))) | (stolen << 40))
            if ts[h] == gen:
                v = tv[h]
            else:
                for j in range(hidden):
                    hp[d1, j] = hp[depth, j] + dp[i, j]
                    hl[d1, j] = hl[depth, j] + dl[i, j]
                v = _win(pile, line, size + 1, line_pts + i + 1, stolen, d1, _W_BEST, reach0, lines0, tot, ocards, a,
                         nxt, n, loot_pts, loot_cards, lost, rounds_left, deck, hp, hl, hs, dp, dl, ds, db, w1, b1,
                         w2, b2, std_rows, hbuf, z, out, x, tk, ts, tv, meta, exp_rows)
        k = 0 if (stolen >> i) & 1 else reach0[i]
        if k > 0:  # R7: the steal on offer, taken (decline on a tie, R8)
            line[i] += k
            tot[a] += k * (i + 1)
            for s in range(n):
                if s != a:
                    tot[s] -= (i + 1) * lines0[s, i]
                    ocards[s] -= lines0[s, i]
            if n_pile == 1:
                t = _game_end(False, size + 1 + k, tot, ocards, a, n, loot_pts, loot_cards, lost, rounds_left,
                              deck, w1, b1, w2, b2, x, out)
            else:
                took = stolen | (np.int64(1) << i)
                h = _probe(tk, ts, gen, (code + (np.int64(1 + k) << (4 * i))) | (took << 40))
                if ts[h] == gen:
                    t = tv[h]
                else:
                    for j in range(hidden):
                        hp[d1, j] = hp[depth, j] + dp[i, j] + ds[i, j]
                        hl[d1, j] = hl[depth, j] + (1 + k) * dl[i, j]
                    t = _win(pile, line, size + 1 + k, line_pts + (i + 1) * (1 + k), took, d1, _W_BEST, reach0,
                             lines0, tot, ocards, a, nxt, n, loot_pts, loot_cards, lost, rounds_left, deck, hp, hl,
                             hs, dp, dl, ds, db, w1, b1, w2, b2, std_rows, hbuf, z, out, x, tk, ts, tv, meta,
                             exp_rows)
            line[i] -= k
            tot[a] -= k * (i + 1)
            for s in range(n):
                if s != a:
                    tot[s] += (i + 1) * lines0[s, i]
                    ocards[s] += lines0[s, i]
            if t > v + _TIE * max(1.0, abs(v)):
                v = t
        pile[i] += 1
        line[i] -= 1
        tot[a] -= i + 1
        total += c * v
    draw = total / n_pile
    if want == _W_DRAW:
        return draw
    best = draw
    if size > 0:
        for j in range(hidden):
            hbuf[j] = hp[depth, j] + hl[depth, j]
        stop = _turn_start(hbuf, tot, a, nxt, n, w1, std_rows, w2, b2, hbuf, z, out, pile, line, lines0, stolen,
                           exp_rows)
        if not draw > stop + _TIE * max(1.0, abs(stop)):
            best = stop
    h = _probe(tk, ts, gen, key)
    if _claim(tk, ts, meta, h, key):
        tv[h] = best
    return best
