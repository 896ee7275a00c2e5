"""`duel` and `win` compiled (numba): the endgame models' float speed path.

The recursion of :mod:`solver.duel` and :mod:`solver.win` (turn start,
choice, stop, draw, a steal on offer, R5's bust, R6's lost turn, R9's end)
over float64, in one kernel for both models. A pile and each line are packed
in an int64, four bits per value. The memo is an open-addressing hash table
in flat arrays whose key is four int64 words holding what the exact paths'
keys hold: the pile, the live counts of both lines, the points (and, for
`win`, the cards) of the mover's dead values, the mover's card count up to
the R5 threshold, and for `win` the clamped standing. One more merge than the
exact paths: the other's cards of dead values are sure to reach its loot, so
they are counted at once (in the value for `duel`, in the standing for
`win`) and left out of the key. A memo that fills up is
retried larger, up to :data:`MAX_LOG2_SLOTS` slots (48 bytes each); past
that, or past the work limit a time budget sets, the model refuses with a
message. The exact paths stay the reference: the tests check this kernel
against them on random endgames.

>>> from solver.cards import counts
>>> solver = EndgameSolver(DUEL_MODE, counts([10]))
>>> solver.value(DRAW, counts([10]), counts([4]), counts([]))      # my 4, the last card a 10: 14 for me
14.0
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .advice import Budget, SlowModel, TooLarge
from .cards import Counts
from .core import BUST_THRESHOLD

__all__ = ["CHOICE", "DRAW", "DUEL_MODE", "EndgameSolver", "MAX_LOG2_SLOTS", "MAX_PILE", "MAX_POINTS",
           "POINTS_PER_SECOND",
           "START", "STOP", "WIN_MODE"]

#: What is solved: the expected score difference (`duel`) or the chance to win (`win`).
DUEL_MODE, WIN_MODE = np.int64(0), np.int64(1)
#: What a call asks for: a turn start (the mover's line empty), a point where it may stop or draw (the
#: better of the two), drawing from it, or stopping there. (int64 constants: numba's cache, see kernel.py)
START, CHOICE, DRAW, STOP = np.int64(0), np.int64(1), np.int64(2), np.int64(3)
#: Piles above this are refused without trying.
MAX_PILE = 18
#: The largest memo tried: 2**26 slots of 48 bytes, 3.2 GB.
MAX_LOG2_SLOTS = 26
#: New memo points a time budget allows per second, `duel`'s and `win`'s (measured on the project's 2-core
#: machine: about 0.55 million and 0.6 to 1 million; kept below, so a limit is rarely overshot).
POINTS_PER_SECOND = (400_000, 500_000)
#: Memo points a solve may make without a time budget (about a minute), so that no pile hangs.
MAX_POINTS = 20_000_000

_MIX = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing
_GEN, _COUNT, _LIMIT, _FULL, _DONE, _WORK, _SLOW = 0, 1, 2, 3, 4, 5, 6


def pack(c: Counts) -> int:
    """Counts of values 1 to 10 as one int, four bits a value (a count is at most 11).

    >>> hex(pack((1, 0, 0, 0, 0, 0, 0, 0, 0, 2)))
    '0x2000000001'
    """
    return sum(n << (4 * i) for i, n in enumerate(c))


@njit(cache=True, nogil=True)
def _count(x, i):  # type: ignore[no-untyped-def]
    return (x >> (4 * i)) & 15


@njit(cache=True, nogil=True)
def _points(x):  # type: ignore[no-untyped-def]
    total = 0
    for i in range(10):
        total += (i + 1) * ((x >> (4 * i)) & 15)
    return total


_NIBBLE_LOW = np.int64(0x1111111111)  # the lowest bit of each of the ten four-bit counts
_ALL = np.int64(0xFFFFFFFFFF)
_BYTES = np.int64(0x0F0F0F0F0F)
_SUM = np.int64(0x0101010101)


@njit(cache=True, nogil=True)
def _cards(x):  # type: ignore[no-untyped-def]
    # The ten counts summed without a loop: pairs into five bytes, then one multiply adds the bytes.
    y = (x & _BYTES) + ((x >> 4) & _BYTES)
    return ((y * _SUM) >> 32) & 0xFF


@njit(cache=True, nogil=True)
def _live(pile):  # type: ignore[no-untyped-def]
    # A mask of the values still in the pile: all four bits of each non-zero count.
    m = pile | (pile >> 1)
    m = (m | (m >> 2)) & _NIBBLE_LOW
    return m * 15


@njit(cache=True, nogil=True)
def _line_word(line, live_mask, mode):  # type: ignore[no-untyped-def]
    # A line as the key needs it: live counts, then the points (and for `win` the cards) of dead values.
    gone = line & ~live_mask & _ALL
    if gone == 0:
        return line
    dead_cards = _cards(gone) if mode == 1 else 0
    return (line & live_mask) | (_points(gone) << 40) | (dead_cards << 50)


@njit(cache=True, nogil=True)
def _beyond(x, reach):  # type: ignore[no-untyped-def]
    return reach + 1 if x > 0 else -(reach + 1)


@njit(cache=True, nogil=True)
def _key(pile, mover, other, n, started, sp, sc, sl, low, mode):  # type: ignore[no-untyped-def]
    # The four words of a point's key (see solver.duel._key and solver.win._key).
    size = min(_cards(mover), BUST_THRESHOLD)
    live_mask = _live(pile)
    w0 = pile | (started << 40) | (size << 41)
    w1 = _line_word(other, live_mask, mode)
    w2 = _line_word(mover, live_mask, mode)
    w3 = 0
    if mode == 1:
        left = _points(pile) + _points(mover) + _points(other)
        still = n + _cards(mover) + _cards(other)
        if abs(sp) > left:
            sp, sc, sl = _beyond(sp, left), 0, 0
        elif abs(sc) > still:
            sc, sl = _beyond(sc, still), 0
        elif abs(sl) > n:
            sl = _beyond(sl, n)
        w3 = (sp + 2048) | ((sc + 2048) << 12) | ((sl + 2048) << 24) | (low << 36)
    return w0, w1, w2, w3


@njit(cache=True, nogil=True)
def _probe(keys, stamps, gen, w0, w1, w2, w3):  # type: ignore[no-untyped-def]
    mask = keys.shape[0] - 1
    h = ((w0 * _MIX) ^ (w1 * 31) ^ (w2 * 1000003) ^ (w3 * 7919)) * _MIX
    h = (h ^ (h >> 29)) & mask
    while stamps[h] == gen and not (keys[h, 0] == w0 and keys[h, 1] == w1 and keys[h, 2] == w2
                                    and keys[h, 3] == w3):
        h = (h + 1) & mask
    return h


@njit(cache=True, nogil=True)
def _store(keys, stamps, values, meta, h, w0, w1, w2, w3, value):  # type: ignore[no-untyped-def]
    if meta[_COUNT] >= meta[_LIMIT]:
        meta[_FULL] = 1
        return
    if meta[_WORK] >= 0 and meta[_DONE] >= meta[_WORK]:
        meta[_SLOW] = 1
        return
    keys[h, 0] = w0
    keys[h, 1] = w1
    keys[h, 2] = w2
    keys[h, 3] = w3
    stamps[h] = meta[_GEN]
    values[h] = value
    meta[_COUNT] += 1
    meta[_DONE] += 1


@njit(cache=True, nogil=True)
def _end(mover, other, sp, sc, sl, low, mode):  # type: ignore[no-untyped-def]
    # R9: both lines reach the loots. `duel`: the difference; `win`: R11, then R12.
    points = _points(mover) - _points(other)
    if mode == 0:
        return float(points)
    points += sp
    if points != 0:
        return 1.0 if points > 0 else 0.0
    cards = sc + _cards(mover) - _cards(other)
    if cards != 0:
        return 1.0 if cards > 0 else 0.0
    if sl != 0:
        return 1.0 if sl < 0 else 0.0
    return 1.0 if low else 0.0


@njit(cache=True, nogil=True)
def _solve(kind, pile, mover, other, n, sp, sc, sl, low, mode, keys, stamps, values, meta):  # type: ignore[no-untyped-def]
    if kind == CHOICE and n == 0:
        return _end(mover, other, sp, sc, sl, low, mode)
    if kind == STOP:  # stop: the other banks its line (R3) and plays; the mover's line stays in its reach
        banked = _points(other)
        rest = _solve(START, pile, np.int64(0), mover, n, banked - sp, _cards(other) - sc, -sl,
                      np.int64(1 - low), mode, keys, stamps, values, meta)
        if mode == 0:
            return -(banked + rest)
        return 1.0 - rest
    # The other's cards of values gone from the pile will reach its loot whatever happens (nobody can
    # draw their value to steal them, and its line is not drawing): count them now, out of the key.
    live_mask = _live(pile)
    gone = other & ~live_mask & _ALL
    if gone:
        dead, dead_cards = _points(gone), _cards(gone)
        rest = _solve(kind, pile, mover, other & live_mask, n, sp - dead, sc - dead_cards, sl, low, mode, keys, stamps,
                      values, meta)
        return rest - dead if mode == 0 else rest
    w0, w1, w2, w3 = _key(pile, mover, other, n, np.int64(kind == START), sp, sc, sl, low, mode)
    if kind != DRAW:  # a turn start or a choice: memoised
        h = _probe(keys, stamps, meta[_GEN], w0, w1, w2, w3)
        if stamps[h] == meta[_GEN]:
            return values[h]
    if meta[_FULL] or meta[_SLOW]:
        return 0.0  # discarded: the caller retries or refuses
    # Drawing (kind 0, 2, and kind 1's draw).
    size = _cards(mover)
    banked = _points(other)
    total = 0.0
    for i in range(10):
        c = (pile >> (4 * i)) & 15
        if c == 0:
            continue
        one = np.int64(1) << (4 * i)
        if size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15:  # R5: the line is lost (R6), a lost turn counted
            if n == 1:  # R9 after R6: the other's line reaches its loot
                if mode == 0:
                    value = -float(banked)
                else:
                    value = _end(np.int64(0), other, sp, sc, sl + 1, low, mode)
            else:
                rest = _solve(START, pile - one, np.int64(0), np.int64(0), n - 1, banked - sp,
                              _cards(other) - sc, -(sl + 1), np.int64(1 - low), mode, keys, stamps, values, meta)
                value = -(banked + rest) if mode == 0 else 1.0 - rest
        else:
            value = _solve(CHOICE, pile - one, mover + one, other, n - 1, sp, sc, sl, low, mode,
                           keys, stamps, values, meta)
            k = (other >> (4 * i)) & 15
            if k:  # R7: the steal on offer, the mover's choice
                took = _solve(CHOICE, pile - one, mover + one + k * one, other - k * one, n - 1, sp, sc, sl,
                              low, mode, keys, stamps, values, meta)
                if took > value:
                    value = took
        total += c * value
    draw = total / n
    if kind == DRAW:
        return draw
    best = draw
    if kind == CHOICE:
        stop = _solve(STOP, pile, mover, other, n, sp, sc, sl, low, mode, keys, stamps, values, meta)
        if stop >= best:
            best = stop
    h = _probe(keys, stamps, meta[_GEN], w0, w1, w2, w3)  # again: the slot found above may be taken now
    _store(keys, stamps, values, meta, h, w0, w1, w2, w3, best)
    return best


@njit(cache=True, nogil=True)
def _rehash(keys, stamps, values, gen, new_keys, new_stamps, new_values, new_meta):  # type: ignore[no-untyped-def]
    # Every entry of a full memo into a larger one (each was complete when stored, so stays valid).
    for h in range(keys.shape[0]):
        if stamps[h] == gen:
            g = _probe(new_keys, new_stamps, new_meta[_GEN], keys[h, 0], keys[h, 1], keys[h, 2], keys[h, 3])
            new_keys[g, 0] = keys[h, 0]
            new_keys[g, 1] = keys[h, 1]
            new_keys[g, 2] = keys[h, 2]
            new_keys[g, 3] = keys[h, 3]
            new_stamps[g] = new_meta[_GEN]
            new_values[g] = values[h]
            new_meta[_COUNT] += 1


class EndgameSolver:
    """Compiled values of one two-player endgame (a memo kept between calls, as the models ask for the
    steal, stop and draw of the same turn).

    ``standing`` (for `win`: points, cards, lost turns, the mover's minus the other's, and whether the
    mover has the lower seat) is that of the root's mover; ``budget`` turns into a work limit."""

    def __init__(self, mode: np.int64, pile: Counts, standing: tuple[int, int, int, bool] = (0, 0, 0, False),
                 budget: Budget | None = None, max_log2: int = MAX_LOG2_SLOTS) -> None:
        self.n = sum(pile)
        name = "duel" if mode == DUEL_MODE else "win"
        if self.n > MAX_PILE:
            raise TooLarge(f"{name} solves piles of up to {MAX_PILE} cards; this pile has {self.n}: "
                           f"ask again nearer the end of the game")
        self.mode, self.name, self.standing, self.budget = mode, name, standing, budget
        self.max_log2 = max_log2
        self.log2 = min(max_log2, 16 if self.n <= 8 else 20)  # grown (x4, kept entries rehashed) as it fills
        self._new_table()

    def _new_table(self) -> None:
        size = 1 << self.log2
        rate = POINTS_PER_SECOND[int(self.mode)]
        work = MAX_POINTS if self.budget is None else int(min(self.budget.seconds * rate, MAX_POINTS))
        self.keys = np.zeros((size, 4), np.int64)
        self.stamps = np.zeros(size, np.int64)
        self.values = np.zeros(size, np.float64)
        self.meta = np.array([1, 0, int(size * 0.7), 0, 0, work, 0], dtype=np.int64)

    def value(self, kind: np.int64, pile: Counts, line: Counts, reach: Counts) -> float:
        """The value at a point of the root mover's turn: ``kind`` is :data:`CHOICE`, :data:`DRAW` or
        :data:`STOP` (:data:`START` for a turn start, whose line is empty)."""
        sp, sc, sl, low = self.standing
        while True:
            got = float(_solve(kind, np.int64(pack(pile)), np.int64(pack(line)), np.int64(pack(reach)),
                               np.int64(sum(pile)), np.int64(sp), np.int64(sc), np.int64(sl), np.int64(low),
                               self.mode, self.keys, self.stamps, self.values, self.meta))
            if self.meta[_SLOW]:
                if self.budget is None or self.budget.seconds * POINTS_PER_SECOND[int(self.mode)] >= MAX_POINTS:
                    raise TooLarge(f"{self.name} gave up on this {self.n}-card pile after {MAX_POINTS:,} positions "
                                   f"(about a minute's work); ask again nearer the end of the game")
                raise SlowModel(f"{self.name} needs more than {self.budget.seconds:g} s for this {self.n}-card pile, "
                                f"the time limit given; a longer limit may let it answer")
            if not self.meta[_FULL]:
                return got
            if self.log2 >= self.max_log2:
                raise TooLarge(f"{self.name} gave up on this {self.n}-card pile: its memo of {1 << self.log2:,} "
                               f"positions ({(48 << self.log2) / 1e9:.1f} GB) is full")
            self.log2 = min(self.max_log2, self.log2 + 2)
            old = self.keys, self.stamps, self.values, self.meta
            self._new_table()
            _rehash(old[0], old[1], old[2], old[3][_GEN], self.keys, self.stamps, self.values, self.meta)
            self.meta[_DONE] = old[3][_DONE]  # the work already spent counts against the limit
            del old  # then solve again from the root: what was stored before the memo filled is kept
