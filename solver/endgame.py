"""`duel` and `win` compiled (numba): the endgame models' float speed path.

The recursion of :mod:`solver.duel` and :mod:`solver.win` (turn start,
choice, stop, draw, a steal on offer, R5's bust, R6's lost turn, R9's end)
over float64, in one kernel for both models. A pile and each line are packed
in an int64, four bits per value. The memo is an open-addressing hash table,
one row of six words a slot (so a probe reads one place in memory), whose
key is four int64 words holding what the exact paths' keys hold: the pile,
the live counts of both lines, the points (and, for `win`, the cards) of the
mover's dead values, the mover's card count up to the R5 threshold, and for
`win` the clamped standing. One more merge than the exact paths: the other's
cards of dead values are sure to reach its loot, so they are counted at once
(in the value for `duel`, in the standing for `win`) and left out of the key.

Speed comes from memory, not arithmetic: past a few hundred thousand points
the memo is far larger than the caches, so the table is sized for the pile
at the start, lies in huge pages, and a draw asks for its children's slots
(a prefetch) before solving the first of them. A memo that fills up is
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

import mmap

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .advice import Budget, SlowModel, TooLarge
from .cards import Counts, counts, total_value
from .core import BUST_THRESHOLD

__all__ = ["CHOICE", "DRAW", "DUEL_MODE", "EndgameSolver", "clamped", "MAX_LOG2_SLOTS", "MAX_PILE", "MAX_POINTS",
           "POINTS_PER_SECOND",
           "START", "STOP", "WIN_MODE"]

#: What is solved: the expected score difference (`duel`) or the chance to win (`win`).
DUEL_MODE, WIN_MODE = np.int64(0), np.int64(1)
#: What a call asks for: a turn start (the mover's line empty), a point where it may stop or draw (the
#: better of the two), drawing from it, or stopping there. (int64 constants: numba's cache, see kernel.py)
START, CHOICE, DRAW, STOP = np.int64(0), np.int64(1), np.int64(2), np.int64(3)
#: Piles above this are refused without trying.
MAX_PILE = 18
#: The largest memo tried: 2**25 slots of 48 bytes, 1.6 GB (room for MAX_POINTS at the fill allowed, 0.7).
MAX_LOG2_SLOTS = 25
#: New memo points a time budget allows per second, `duel`'s and `win`'s (measured on the project's 2-core
#: machine: 1.3 to 2 million and 0.35 to 0.8 million, a `win` point costing two probes; kept below, so a
#: limit is rarely overshot).
POINTS_PER_SECOND = (800_000, 300_000)
#: Memo points a solve may make without a time budget (15 to 60 s of work here), so that no pile hangs.
MAX_POINTS = 20_000_000

#: The memo's first size (log2 slots) by pile size, `duel`'s and `win`'s, from their points on the bench's
#: hard endgames (``bench --endgames``): `duel` 53 thousand at 10 cards, 244 thousand at 12, 1.08 million
#: at 14, 6.0 million at 16; `win` 215 thousand at 10 cards, 5.1 million at 12, over 47 million at 14.
_START_LOG2 = ((16,) * 9 + (17, 17, 19, 19, 21, 21, 24, 24, 25, 25),
               (16,) * 9 + (19, 19, 24, 24, 25, 25, 25, 25, 25, 25))

_MIX = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing
_GEN, _COUNT, _LIMIT, _FULL, _DONE, _WORK, _SLOW = 0, 1, 2, 3, 4, 5, 6
#: A memo slot is one row of six words, so that a probe reads one place in memory, not three arrays:
#: the four key words, the stamp saying the slot is taken, the value (a float64 read through a view).
_STAMP, _VALUE, _WORDS = 4, 5, 6


def _zeros(slots: int) -> npt.NDArray[np.int64]:
    """A zeroed memo, in huge pages where the kernel gives them: random probes over hundreds of MB would
    otherwise miss the TLB on nearly every one."""
    size = slots * _WORDS * 8
    buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        buf.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(buf, dtype=np.int64).reshape(slots, _WORDS)


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
    w0, w1, w2 = _lines_key(pile, mover, other, started, mode)
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
def _lines_key(pile, mover, other, started, mode):  # type: ignore[no-untyped-def]
    # The first three words of a key: the pile, the turn start flag and R5's count, the two lines.
    size = min(_cards(mover), BUST_THRESHOLD)
    live_mask = _live(pile)
    return (pile | (started << 40) | (size << 41), _line_word(other, live_mask, mode),
            _line_word(mover, live_mask, mode))


@njit(cache=True, nogil=True)
def _home(memo, w0, w1, w2, w3):  # type: ignore[no-untyped-def]
    # Where a key's probe starts.
    h = ((w0 * _MIX) ^ (w1 * 31) ^ (w2 * 1000003) ^ (w3 * 7919)) * _MIX
    return (h ^ (h >> 29)) & (memo.shape[0] - 1)


@njit(cache=True, nogil=True)
def _probe(memo, gen, w0, w1, w2, w3):  # type: ignore[no-untyped-def]
    mask = memo.shape[0] - 1
    h = _home(memo, w0, w1, w2, w3)
    while memo[h, _STAMP] == gen and not (memo[h, 0] == w0 and memo[h, 1] == w1 and memo[h, 2] == w2
                                          and memo[h, 3] == w3):
        h = (h + 1) & mask
    return h


@intrinsic
def _prefetch(typingctx, memo, h):  # type: ignore[no-untyped-def]
    # LLVM's prefetch of a memo slot (numba has no prefetch of its own).
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        table = context.make_array(signature.args[0])(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], table,  # type: ignore[no-untyped-call]
                                       [args[1], zero], wraparound=False)
        byte_ptr, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        kind = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, kind, "llvm.prefetch.p0i8")  # type: ignore[no-untyped-call]
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])  # read, keep in cache, data
        return context.get_dummy_value()
    return types.void(memo, h), codegen


@njit(cache=True, nogil=True)
def _fetch(kind, pile, mover, other, n, sp, sc, sl, low, mode, memo):  # type: ignore[no-untyped-def]
    # Ask the memory for the slot of a point about to be solved, as _solve will key it, so that the
    # probes of a draw's ten children wait for memory together rather than one after another.
    live_mask = _live(pile)
    gone = other & ~live_mask & _ALL
    if gone:
        other, sc = other & live_mask, sc - _cards(gone)
        sp = sp - _points(gone)
    w0, w1, w2, w3 = _key(pile, mover, other, n, np.int64(kind == START), sp, sc, sl, low, mode)
    _prefetch(memo, _home(memo, w0, w1, w2, w3))  # type: ignore[call-arg]


@njit(cache=True, nogil=True)
def _claim(memo, meta, h, w0, w1, w2, w3):  # type: ignore[no-untyped-def]
    # Take slot h for a key (its value is written next), unless the memo is full or the work limit reached.
    if meta[_COUNT] >= meta[_LIMIT]:
        meta[_FULL] = 1
        return False
    if meta[_WORK] >= 0 and meta[_DONE] >= meta[_WORK]:
        meta[_SLOW] = 1
        return False
    memo[h, 0] = w0
    memo[h, 1] = w1
    memo[h, 2] = w2
    memo[h, 3] = w3
    memo[h, _STAMP] = meta[_GEN]
    meta[_COUNT] += 1
    meta[_DONE] += 1
    return True


@njit(cache=True, nogil=True)
def _store(memo, vals, meta, h, w0, w1, w2, w3, value):  # type: ignore[no-untyped-def]
    if _claim(memo, meta, h, w0, w1, w2, w3):
        vals[h, _VALUE] = value


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


# -- `win`'s certain results -------------------------------------------------------------------------------
# A standing (points, cards, lost turns, seat: R11 then R12) is one integer, ordered as R12 orders them and
# moved by adding (a turn passing is K - x): see _standing. `win` at a point is a non-decreasing function of it
# (more of a lead never hurts), 0 up to some standing and 1 from some standing on, and nearly every point the
# search meets is one of those: one player is sure to win (98% of them on an 8-card pile). _bounds finds both
# ends, lo (the best standing that surely loses) and hi (the worst that surely wins), for a point without its
# standing, in one pass the size of `duel`'s; the search then keys by standing only what lies between.
_SURE = np.int64(2**31 - 1)  # beyond every standing: "never" (a standing is under 2**27 in size)
_NO_STANDING = np.int64(-1)  # the fourth key word of a point's bounds (a standing's word is never negative)


@njit(cache=True, nogil=True)
def _standing(points, cards, lost, low):  # type: ignore[no-untyped-def]
    # Lexicographic as R11 and R12 decide (more points, more cards, fewer lost turns, the lower seat), for
    # cards and lost turns within +-127 (a clamped root standing keeps them there): sure to win iff >= 1.
    return ((points * 256 + cards) * 256 - lost) * 2 + low


@njit(cache=True, nogil=True)
def _clip(x):  # type: ignore[no-untyped-def]
    return max(-_SURE, min(_SURE, x))


@njit(cache=True, nogil=True)
def _handed(k, lo, hi):  # type: ignore[no-untyped-def]
    # The bounds of 1 - v(k - x), given those of v: the turn passed, the other's standing is k - x.
    return _clip(k - hi), _clip(k - lo)


@njit(cache=True, nogil=True)
def _bounds(kind, pile, mover, other, n, memo, meta):  # type: ignore[no-untyped-def]
    # (lo, hi) of `win` at a point, over the mover's standing x: 0 for x <= lo, 1 for x >= hi. The same
    # recursion as _solve's, with "every draw" for a chance node and "either choice" for the mover's.
    if kind == CHOICE and n == 0:  # R9: both lines reach the loots
        hi = 1 - _standing(_points(mover) - _points(other), _cards(mover) - _cards(other), 0, 0)
        return hi - 1, hi
    if kind == STOP:
        lo, hi = _bounds(START, pile, np.int64(0), mover, n, memo, meta)
        return _handed(_standing(_points(other), _cards(other), 0, 1), lo, hi)
    live_mask = _live(pile)
    gone = other & ~live_mask & _ALL
    if gone:  # the other's dead cards reach its loot: the standing moves by them (as in _solve)
        lo, hi = _bounds(kind, pile, mover, other & live_mask, n, memo, meta)
        shift = _standing(_points(gone), _cards(gone), 0, 0)
        return _clip(lo + shift), _clip(hi + shift)
    w0, w1, w2 = _lines_key(pile, mover, other, np.int64(kind == START), np.int64(1))
    h = 0
    if kind != DRAW:
        h = _probe(memo, meta[_GEN], w0, w1, w2, _NO_STANDING)
        if memo[h, _STAMP] == meta[_GEN]:
            word = memo[h, _VALUE]
            return word >> 32, (word << 32) >> 32
    if meta[_FULL] or meta[_SLOW]:
        return -_SURE, _SURE  # nothing known (the solve is discarded anyway)
    size = _cards(mover)
    banked, banked_cards = _points(other), _cards(other)
    lo, hi = _SURE, -_SURE  # drawing: 0 if every card gives 0, 1 if every card gives 1
    for i in range(10):
        if (pile >> (4 * i)) & 15 == 0:
            continue
        one = np.int64(1) << (4 * i)
        if size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15:  # R5, R6
            if n == 1:  # R9: the other's line reaches its loot, the mover's lost turn counts
                c_hi = 1 - _standing(-banked, -banked_cards, 1, 0)
                c_lo = c_hi - 1
            else:
                b_lo, b_hi = _bounds(START, pile - one, np.int64(0), np.int64(0), n - 1, memo, meta)
                c_lo, c_hi = _handed(_standing(banked, banked_cards, -1, 1), b_lo, b_hi)
        else:
            c_lo, c_hi = _bounds(CHOICE, pile - one, mover + one, other, n - 1, memo, meta)
            k = (other >> (4 * i)) & 15
            if k:  # R7: the better of taking and declining is 0 if both are, 1 if either is
                t_lo, t_hi = _bounds(CHOICE, pile - one, mover + one + k * one, other - k * one, n - 1, memo, meta)
                c_lo, c_hi = min(c_lo, t_lo), min(c_hi, t_hi)
        lo, hi = min(lo, c_lo), max(hi, c_hi)
    if kind == DRAW:
        return lo, hi
    if kind == CHOICE:  # stopping or drawing: 0 if both are, 1 if either is
        s_lo, s_hi = _bounds(STOP, pile, mover, other, n, memo, meta)
        lo, hi = min(lo, s_lo), min(hi, s_hi)
    if memo[h, _STAMP] == meta[_GEN]:
        h = _probe(memo, meta[_GEN], w0, w1, w2, _NO_STANDING)
    if _claim(memo, meta, h, w0, w1, w2, _NO_STANDING):
        memo[h, _VALUE] = (lo << 32) | (hi & 0xFFFFFFFF)
    return lo, hi


@njit(cache=True, nogil=True)
def _solve(kind, pile, mover, other, n, sp, sc, sl, low, mode, memo, vals, meta):  # type: ignore[no-untyped-def]
    if kind == CHOICE and n == 0:
        return _end(mover, other, sp, sc, sl, low, mode)
    if kind == STOP:  # stop: the other banks its line (R3) and plays; the mover's line stays in its reach
        banked = _points(other)
        rest = _solve(START, pile, np.int64(0), mover, n, banked - sp, _cards(other) - sc, -sl,
                      np.int64(1 - low), mode, memo, vals, meta)
        if mode == 0:
            return -(banked + rest)
        return 1.0 - rest
    # The other's cards of values gone from the pile will reach its loot whatever happens (nobody can
    # draw their value to steal them, and its line is not drawing): count them now, out of the key.
    live_mask = _live(pile)
    gone = other & ~live_mask & _ALL
    if gone:
        dead, dead_cards = _points(gone), _cards(gone)
        rest = _solve(kind, pile, mover, other & live_mask, n, sp - dead, sc - dead_cards, sl, low, mode, memo, vals,
                      meta)
        return rest - dead if mode == 0 else rest
    if mode == 1 and kind != DRAW:  # `win`: a standing that surely loses or surely wins needs no search
        lo, hi = _bounds(kind, pile, mover, other, n, memo, meta)
        x = _standing(sp, sc, sl, low)
        if x <= lo:
            return 0.0
        if x >= hi:
            return 1.0
    w0, w1, w2, w3 = _key(pile, mover, other, n, np.int64(kind == START), sp, sc, sl, low, mode)
    h = 0
    if kind != DRAW:  # a turn start or a choice: memoised
        h = _probe(memo, meta[_GEN], w0, w1, w2, w3)
        if memo[h, _STAMP] == meta[_GEN]:
            return vals[h, _VALUE]
    if meta[_FULL] or meta[_SLOW]:
        return 0.0  # discarded: the caller retries or refuses
    # Drawing (kind 0, 2, and kind 1's draw).
    size = _cards(mover)
    banked = _points(other)
    if kind == CHOICE:
        _fetch(START, pile, np.int64(0), mover, n, banked - sp, _cards(other) - sc, -sl, np.int64(1 - low), mode,
               memo)
    if n > 1:
        for i in range(10):
            if (pile >> (4 * i)) & 15 and not (size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15):
                one = np.int64(1) << (4 * i)
                _fetch(CHOICE, pile - one, mover + one, other, n - 1, sp, sc, sl, low, mode, memo)
                k = (other >> (4 * i)) & 15
                if k:
                    _fetch(CHOICE, pile - one, mover + one + k * one, other - k * one, n - 1, sp, sc, sl, low, mode,
                           memo)
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
                              _cards(other) - sc, -(sl + 1), np.int64(1 - low), mode, memo, vals, meta)
                value = -(banked + rest) if mode == 0 else 1.0 - rest
        else:
            value = _solve(CHOICE, pile - one, mover + one, other, n - 1, sp, sc, sl, low, mode,
                           memo, vals, meta)
            k = (other >> (4 * i)) & 15
            if k:  # R7: the steal on offer, the mover's choice
                took = _solve(CHOICE, pile - one, mover + one + k * one, other - k * one, n - 1, sp, sc, sl,
                              low, mode, memo, vals, meta)
                if took > value:
                    value = took
        total += c * value
    draw = total / n
    if kind == DRAW:
        return draw
    best = draw
    if kind == CHOICE:
        stop = _solve(STOP, pile, mover, other, n, sp, sc, sl, low, mode, memo, vals, meta)
        if stop >= best:
            best = stop
    if memo[h, _STAMP] == meta[_GEN]:  # the free slot found above was taken meanwhile: probe again
        h = _probe(memo, meta[_GEN], w0, w1, w2, w3)
    _store(memo, vals, meta, h, w0, w1, w2, w3, best)
    return best


@njit(cache=True, nogil=True)
def _rehash(memo, gen, new_memo, new_meta):  # type: ignore[no-untyped-def]
    # Every entry of a full memo into a larger one (each was complete when stored, so stays valid).
    for h in range(memo.shape[0]):
        if memo[h, _STAMP] == gen:
            g = _probe(new_memo, new_meta[_GEN], memo[h, 0], memo[h, 1], memo[h, 2], memo[h, 3])
            for j in range(_WORDS):
                new_memo[g, j] = memo[h, j]
            new_memo[g, _STAMP] = new_meta[_GEN]
            new_meta[_COUNT] += 1


def clamped(standing: tuple[int, int, int, bool], pile: Counts, line: Counts,
            reach: Counts) -> tuple[int, int, int, bool]:
    """A `win` standing (points, cards, lost turns, the mover's minus the other's; the lower seat) with
    what can no longer change the result merged: ahead by more points than are left to move, the
    tie-breaks cannot matter; ahead by more cards than are left, lost turns cannot; more lost turns apart
    than cards left to bust on, the seat cannot. The value is the same; the numbers stay small.

    >>> clamped((30, 5, 1, True), counts([10]), counts([3]), counts([]))     # 13 points left: won
    (14, 0, 0, True)
    >>> clamped((0, 0, -40, False), counts([10]), counts([3]), counts([]))   # level, 40 lost turns fewer
    (0, 0, -2, False)
    """
    points, cards, lost, low = standing
    left = total_value(pile) + total_value(line) + total_value(reach)
    still = sum(pile) + sum(line) + sum(reach)
    busts = sum(pile)  # a lost turn takes a card
    if abs(points) > left:
        return _beyond_reach(points, left), 0, 0, low
    if abs(cards) > still:
        return points, _beyond_reach(cards, still), 0, low
    if abs(lost) > busts:
        return points, cards, _beyond_reach(lost, busts), low
    return points, cards, lost, low


def _beyond_reach(x: int, reach: int) -> int:
    """``x``, known to be beyond ``±reach``: one value for every such ``x`` of its sign."""
    return reach + 1 if x > 0 else -(reach + 1)


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
        # Sized for the pile (a memo that fills is grown x4 and the solve run again from the root, which
        # costs a fifth or more of the time), at most a fifth of it unused for `duel`'s hard endgames.
        self.log2 = min(max_log2, _START_LOG2[int(mode)][self.n])
        self._new_table()

    def _new_table(self) -> None:
        size = 1 << self.log2
        rate = POINTS_PER_SECOND[int(self.mode)]
        work = MAX_POINTS if self.budget is None else int(min(self.budget.seconds * rate, MAX_POINTS))
        self.memo = _zeros(size)
        self.vals = self.memo.view(np.float64)  # the value column, read as floats
        self.meta = np.array([1, 0, int(size * 0.7), 0, 0, work, 0], dtype=np.int64)

    def value(self, kind: np.int64, pile: Counts, line: Counts, reach: Counts) -> float:
        """The value at a point of the root mover's turn: ``kind`` is :data:`CHOICE`, :data:`DRAW` or
        :data:`STOP` (:data:`START` for a turn start, whose line is empty)."""
        sp, sc, sl, low = clamped(self.standing, pile, line, reach)
        while True:
            got = float(_solve(kind, np.int64(pack(pile)), np.int64(pack(line)), np.int64(pack(reach)),
                               np.int64(sum(pile)), np.int64(sp), np.int64(sc), np.int64(sl), np.int64(low),
                               self.mode, self.memo, self.vals, self.meta))
            if self.meta[_SLOW]:
                if self.budget is None or self.budget.seconds * POINTS_PER_SECOND[int(self.mode)] >= MAX_POINTS:
                    raise TooLarge(f"{self.name} gave up on this {self.n}-card pile after {MAX_POINTS:,} positions "
                                   f"(its work limit, under a minute); ask again nearer the end of the game")
                raise SlowModel(f"{self.name} needs more than {self.budget.seconds:g} s for this {self.n}-card pile, "
                                f"the time limit given; a longer limit may let it answer")
            if not self.meta[_FULL]:
                return got
            if self.log2 >= self.max_log2:
                raise TooLarge(f"{self.name} gave up on this {self.n}-card pile: its memo of {1 << self.log2:,} "
                               f"positions ({(48 << self.log2) / 1e9:.1f} GB) is full")
            self.log2 = min(self.max_log2, self.log2 + 2)
            old_memo, old_meta = self.memo, self.meta
            self._new_table()
            _rehash(old_memo, old_meta[_GEN], self.memo, self.meta)
            self.meta[_DONE] = old_meta[_DONE]  # the work already spent counts against the limit
            del old_memo  # then solve again from the root: what was stored before the memo filled is kept
