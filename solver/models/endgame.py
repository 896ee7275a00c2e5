"""`duel` and `win` compiled (numba): the endgame models' float speed path.

The recursion of :mod:`solver.models.duel` and :mod:`solver.models.win` (turn start,
choice, stop, draw, a steal on offer, R5's bust, R6's lost turn, R9's end)
over float64, in one kernel for both models. A pile and each line are packed
in an int64, four bits per value. The memo is an open-addressing hash table,
one row of six words a slot (so a probe reads one place in memory), whose
key is four int64 words holding what the exact paths' keys hold: the pile,
the live counts of both lines, the points (and, for `win`, the cards) of the
mover's dead values, the mover's card count up to the R5 threshold. `win`'s
key leaves the standing out: its value at a state is the chance to win as a
function of the standing, kept as steps in a pool (below). One more merge
than the exact paths: the other's cards of dead values are sure to reach
its loot, so they are counted at once (in the value for `duel`, in the
standing for `win`) and left out of the key.

Speed comes from memory, not arithmetic: past a few hundred thousand states
the memo is far larger than the caches, so the table is sized for the pile
at the start, lies in huge pages, and a draw asks for its children's slots
(a prefetch) before solving the first of them; `win`'s pool of steps, read
in runs, lies in ordinary pages, quicker to fault in. The recursions pass
their arrays without numba's reference counts (:func:`_borrowed`). A memo or pool that fills up
is retried larger, up to :data:`MAX_LOG2_SLOTS` slots (48 bytes each) and
2**27 steps; past that, or past the work limit a time budget sets, the model
refuses with a message. The exact paths stay the reference: the tests check this kernel
against them on random endgames.

A *state* is what the search solves and the memo keeps (a turn start or a
choice: the pile and both lines); a *point* is a score point. The timings
behind the constants below are in docs/PERFORMANCE.md ("Endgames: `duel`
and `win`"), each with its command.

Inspecting the search
---------------------

The measurements of bench/ (``bench/foresight.py``) read a solved `win` memo
through these names only, compiled (numba) where they are functions:

- :func:`packed` (a state's pile and lines as the kernels take them),
  :func:`packed_points` and :func:`packed_cards` (of a packed line),
  :func:`dead_cards` (a line's cards of values gone from the pile);
- :func:`encoded_standing` (a standing as the one integer the step functions
  are of), :func:`chance_at` (a view's chance at such a standing);
- :func:`win_view` (the view of `win` at a state, a memo hit once solved),
  :func:`win_slot` (the memo slot a `win` state is kept in),
  :func:`holds_win_state` and :func:`stored_steps` (what a slot holds: its
  steps' offset and count in the pool);
- the solver's arrays, :attr:`EndgameSolver.memo`, ``meta``, ``xs``, ``vs``,
  ``scr`` and ``fscr``, passed to them as they are.

>>> from solver.game.cards import counts
>>> solver = EndgameSolver(DUEL_MODE, counts([10]))
>>> solver.value(DRAW, counts([10]), counts([4]), counts([]))      # my 4, the last card a 10: 14 for me
14.0
"""

from __future__ import annotations

import math
import mmap
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from solver.models.advice import Budget, SlowModel, TooLarge
from solver.game.cards import Counts, counts, total_value
from solver.game.core import BUST_THRESHOLD

__all__ = ["CHOICE", "DRAW", "DUEL_MODE", "EndgameSolver", "clamped", "MAX_LOG2_SLOTS", "MAX_PILE", "MAX_WORK",
           "WORK_PER_SECOND",
           "WIN_STATE_WORK",
           "START", "STOP", "WIN_MODE",
           # Inspecting the search (the module's text):
           "chance_at", "dead_cards", "encoded_standing", "holds_win_state", "packed", "packed_cards",
           "packed_points", "stored_steps", "win_slot", "win_view"]

#: What is solved: the expected score difference (`duel`) or the chance to win (`win`).
DUEL_MODE, WIN_MODE = np.int64(0), np.int64(1)
#: What a call asks for: a turn start (the mover's line empty), a state where it may stop or draw (the
#: better of the two), drawing from it, or stopping there. (int64 constants: numba's cache, see kernel.py)
START, CHOICE, DRAW, STOP = np.int64(0), np.int64(1), np.int64(2), np.int64(3)
#: Piles above this are refused without trying.
MAX_PILE = 18
#: The largest memo tried: 2**25 slots of 48 bytes, 1.6 GB (room for MAX_WORK's states at the fill allowed, 0.7).
MAX_LOG2_SLOTS = 25
#: Work a time budget allows per second: `duel`'s new memo states; `win`'s steps of its chance functions, a
#: state counted as :data:`WIN_STATE_WORK` steps. Kept below the rates measured on the bench's endgames
#: (docs/PERFORMANCE.md, "Endgames: `duel` and `win`"), so a limit is rarely overshot.
WORK_PER_SECOND = (1_200_000, 20_000_000)
#: What a state of `win` costs besides its steps, in steps (a state's time over a step's, fitted as
#: docs/PERFORMANCE.md says in "Where `win`'s time goes").
WIN_STATE_WORK = 29
#: Work a solve may do without a time budget (under a minute on the machine of docs/PERFORMANCE.md), so that
#: no pile hangs: `duel`'s memo states and `win`'s steps (12 bytes each, in a pool of at most 2**27, 1.6 GB)
#: and states.
MAX_WORK = (20_000_000, 160_000_000)
_MAX_LOG2_STEPS = 27

#: The memo's first size (log2 slots) by pile size, `duel`'s and `win`'s, from their states on the bench's
#: hard endgames (those of ``python -m bench.speed --endgames``): `duel` 53 thousand at 10 cards, 244
#: thousand at 12, 1.08 million at 14, 6.0 million at 16; `win` 74 thousand at 10 cards, 335 thousand at 12,
#: 1.52 million at 14.
_START_LOG2 = ((16,) * 9 + (17, 17, 19, 19, 21, 21, 24, 24, 25, 25),
               (16,) * 9 + (17, 17, 19, 19, 22, 22, 23, 23, 24, 24))
#: The pool of `win`'s steps at the start (log2), by pile size: 0.28 million steps at 10 cards, 5.9 million
#: at 12, 82 million at 14 on the bench's close endgame; grown x4 when full.
_START_LOG2_STEPS = (16,) * 9 + (19, 19, 23, 23, 27, 27, 27, 27, 27, 27)

_MIX = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing
_GEN, _COUNT, _LIMIT, _FULL, _DONE, _WORK, _SLOW, _TOP, _POOL_FULL, _ROOT, _LEAD = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
#: A memo slot is one row of six words, so that a probe reads one place in memory, not three arrays:
#: the four key words, the stamp saying the slot is taken, the value (a float64 read through a view).
_STAMP, _VALUE, _WORDS = 4, 5, 6


def _zeros(slots: int) -> npt.NDArray[np.int64]:
    """A zeroed memo. (numpy asks for huge pages for an array this large, so random probes over hundreds of
    MB do not miss the TLB on nearly every one.)"""
    return np.zeros((slots, _WORDS), np.int64)


def _plain(size: int, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """A zeroed array in ordinary pages, for `win`'s pool of steps: read in runs, it gains little from huge
    pages, and they are slower to fault in (docs/PERFORMANCE.md, "What made the compiled path fast"). (A
    private anonymous map: numpy asks for huge pages for an array this large.)

    >>> _plain(4, np.int32)
    array([0, 0, 0, 0], dtype=int32)
    """
    if not hasattr(mmap, "MAP_PRIVATE"):  # Windows: numpy's own (it asks for huge pages on Linux only)
        return np.zeros(size, dtype)
    nbytes = size * np.dtype(dtype).itemsize
    return np.frombuffer(mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS), dtype, size)


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
def _key(pile, mover, other, started):  # type: ignore[no-untyped-def]
    # The four words of a `duel` state's key (see solver.models.duel._key); the fourth tells a key of `win`'s apart.
    w0, w1, w2 = _lines_key(pile, mover, other, started, np.int64(0))
    return w0, w1, w2, np.int64(0)


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


@intrinsic
def _borrowed(typingctx, array):  # type: ignore[no-untyped-def]
    # The same array without its reference count (a null meminfo), for the recursions: numba counts a
    # reference to each array passed at every call, an atomic add and subtract each: 15% of the samples
    # of a profile of `win`. The caller's array outlives the solve, so nothing is freed early.
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        view = context.make_array(signature.args[0])(context, builder, args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)  # type: ignore[no-untyped-call]
        return view._getvalue()
    return array(array), codegen


@njit(cache=True, nogil=True)
def _fetch(kind, pile, mover, other, memo, mode):  # type: ignore[no-untyped-def]
    # Ask the memory for the slot of a state about to be solved, as _solve or _chances will key it, so that
    # the probes of a draw's ten children wait for memory together rather than one after another.
    other = other & _live(pile)
    w0, w1, w2 = _lines_key(pile, mover, other, np.int64(kind == START), mode)
    _prefetch(memo, _home(memo, w0, w1, w2, -mode))  # type: ignore[call-arg]


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


# -- `duel` ------------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _solve(kind, pile, mover, other, n, memo, vals, meta):  # type: ignore[no-untyped-def]
    # `duel` at a state: the expected score difference, mover minus other, of all that is still to be banked.
    if kind == CHOICE and n == 0:
        return float(_points(mover) - _points(other))  # R9: both lines reach the loots
    if kind == STOP:  # stop: the other banks its line (R3) and plays; the mover's line stays in its reach
        return -(_points(other) + _solve(START, pile, np.int64(0), mover, n, memo, vals, meta))
    # The other's cards of values gone from the pile will reach its loot whatever happens (nobody can
    # draw their value to steal them, and its line is not drawing): count them now, out of the key.
    live_mask = _live(pile)
    gone = other & ~live_mask & _ALL
    if gone:
        return _solve(kind, pile, mover, other & live_mask, n, memo, vals, meta) - _points(gone)
    w0, w1, w2, w3 = _key(pile, mover, other, np.int64(kind == START))
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
        _fetch(START, pile, np.int64(0), mover, memo, DUEL_MODE)
    if n > 1:
        for i in range(10):
            if (pile >> (4 * i)) & 15 and not (size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15):
                one = np.int64(1) << (4 * i)
                _fetch(CHOICE, pile - one, mover + one, other, memo, DUEL_MODE)
                k = (other >> (4 * i)) & 15
                if k:
                    _fetch(CHOICE, pile - one, mover + one + k * one, other - k * one, memo, DUEL_MODE)
    total = 0.0
    for i in range(10):
        c = (pile >> (4 * i)) & 15
        if c == 0:
            continue
        one = np.int64(1) << (4 * i)
        if size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15:  # R5: the line is lost (R6)
            rest = 0.0 if n == 1 else _solve(START, pile - one, np.int64(0), np.int64(0), n - 1, memo, vals, meta)
            value = -(banked + rest)  # the other banks its line (R9 if that was the last card) and plays
        else:
            value = _solve(CHOICE, pile - one, mover + one, other, n - 1, memo, vals, meta)
            k = (other >> (4 * i)) & 15
            if k:  # R7: the steal on offer, the mover's choice
                took = _solve(CHOICE, pile - one, mover + one + k * one, other - k * one, n - 1, memo, vals, meta)
                if took > value:
                    value = took
        total += c * value
    draw = total / n
    if kind == DRAW:
        return draw
    best = draw
    if kind == CHOICE:
        stop = _solve(STOP, pile, mover, other, n, memo, vals, meta)
        if stop >= best:
            best = stop
    if memo[h, _STAMP] == meta[_GEN]:  # the free slot found above was taken meanwhile: probe again
        h = _probe(memo, meta[_GEN], w0, w1, w2, w3)
    _store(memo, vals, meta, h, w0, w1, w2, w3, best)
    return best


@njit(cache=True, nogil=True)
def _duel(kind, pile, mover, other, n, memo, vals, meta):  # type: ignore[no-untyped-def]
    # `duel` from Python: the recursion over borrowed arrays.
    return _solve(kind, pile, mover, other, n, _borrowed(memo), _borrowed(vals),  # type: ignore[call-arg]
                  _borrowed(meta))  # type: ignore[call-arg]


# -- `win` ---------------------------------------------------------------------------------------------------
# A standing (points, cards, lost turns, seat: R11 then R12) is one integer x, ordered as R12 orders them
# (_standing), so that a standing moves by adding (the other's dead cards banked) and a turn passing is
# K - x. The chance to win at a state is a step function of x (non-decreasing: a bigger lead never hurts),
# 0 below its first step, 1 from its last. It is solved once per state, without the standing, as a list of
# steps (x from which the chance is v) kept in a pool: a draw's is the chance-weighted sum of its
# children's, a choice's the larger of two. Only the standings the root's can reach are kept (windows:
# see the sweep), so a state's steps hold for one root's points and lead, and the memo is started anew
# for another. A child is used through a *view* (offset, length, sign, k): sign +1 is f(x - k), sign -1
# is 1 - f(k - x), the function of the other seat's standing once the turn has passed.
_CHANCES = np.int64(-1)  # the fourth key word of a `win` state (a `duel` state's is 0)
_NONE = np.int64(2**62)  # past every standing
_UNIT = np.int64(0)  # the pool's first step: 0 below x = 0, 1 from it (a game decided at its end)
#: A frame's scratch rows: of each view (where its steps are, its sign and shift, the step it is at, where
#: its next step is) and of each draw term (its first and second view); in floats, each view's chance now
#: and at its next step, and each term's weight.
_OFF, _LEN, _SIGN, _K, _AT, _NEXT, _TA, _TB = range(8)
_NOW, _NEXT_CHANCE, _WEIGHT = range(3)
_VIEWS = 24  # a draw's ten values with a steal each, and the stop: 21


@njit(cache=True, nogil=True)
def _standing(points, cards, lost, low):  # type: ignore[no-untyped-def]
    # The mover wins iff >= 1 (R11, then R12: more cards, fewer lost turns, the lower seat), for cards
    # within +-255 and lost turns within +-127: a clamped root standing keeps them within +-91 and +-19, and
    # a solve moves them by at most as much again. (It orders standings as R12 does while cards stay within
    # +-127; the kernel needs only the sign, as moves add to it and a turn passing reflects it.)
    return ((points * 256 + cards) * 256 - lost) * 2 + low


@njit(cache=True, nogil=True, inline='always')
def _step(xs, vs, off, ln, sign, k, p):  # type: ignore[no-untyped-def]
    # The p-th step of a view, in increasing x: where it is and the chance from there on.
    if sign > 0:
        return xs[off + p] + k, vs[off + p]
    j = ln - 1 - p  # 1 - f(k - x) steps where k - x leaves step j of f, from the top down
    return k - xs[off + j] + 1, 1.0 - (0.0 if j == 0 else vs[off + j - 1])


@njit(cache=True, nogil=True)
def _chance_at(xs, vs, off, ln, sign, k, x):  # type: ignore[no-untyped-def]
    # A view's chance at standing x (a binary search of its steps).
    y = x - k if sign > 0 else k - x
    lo, hi = 0, ln
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[off + mid] <= y:
            lo = mid + 1
        else:
            hi = mid
    v = 0.0 if lo == 0 else vs[off + lo - 1]
    return v if sign > 0 else 1.0 - v


@njit(cache=True, nogil=True, inline='always')
def _view(iv, v, off, ln, sign, k):  # type: ignore[no-untyped-def]
    iv[_OFF, v], iv[_LEN, v], iv[_SIGN, v], iv[_K, v] = off, ln, sign, k


@njit(cache=True, nogil=True, inline='always')
def _emit(xs, vs, meta, top, last, x, chance):  # type: ignore[no-untyped-def]
    # A step at the pool's top where the chance changes; a full pool is marked (the state is then
    # discarded and the solve retried larger).
    if chance == last:
        return top, last
    if top == xs.shape[0]:
        meta[_POOL_FULL] = 1
        return top, chance
    xs[top], vs[top] = x, chance
    return top + 1, chance


@njit(cache=True, nogil=True)
def _chances(kind, pile, mover, other, n, memo, meta, xs, vs, scr, fscr):  # type: ignore[no-untyped-def]
    # The view of `win` at a state, as a function of the mover's standing.
    one_view = np.int64(1)
    if kind == CHOICE and n == 0:  # R9: both lines reach the loots; a win iff the final standing is >= 1
        return _UNIT, one_view, one_view, 1 - _standing(_points(mover) - _points(other),
                                                         _cards(mover) - _cards(other), 0, 0)
    if kind == STOP:  # the other banks its line (R3): its standing is K - x, and we win when it does not
        off, ln, sign, k = _chances(START, pile, np.int64(0), mover, n, memo, meta, xs, vs, scr, fscr)
        return off, ln, -sign, _standing(_points(other), _cards(other), 0, 1) - k
    live_mask = _live(pile)
    gone = other & ~live_mask & _ALL
    if gone:  # the other's dead cards reach its loot: the standing moves by them (as in _solve)
        off, ln, sign, k = _chances(kind, pile, mover, other & live_mask, n, memo, meta, xs, vs, scr, fscr)
        return off, ln, sign, k + _standing(_points(gone), _cards(gone), 0, 0)
    w0, w1, w2 = _lines_key(pile, mover, other, np.int64(kind == START), np.int64(1))
    h = 0
    if kind != DRAW:
        h = _probe(memo, meta[_GEN], w0, w1, w2, _CHANCES)
        if memo[h, _STAMP] == meta[_GEN]:
            word = memo[h, _VALUE]
            return word >> 24, word & 0xFFFFFF, one_view, np.int64(0)
    if meta[_FULL] or meta[_SLOW] or meta[_POOL_FULL]:
        return _UNIT, one_view, one_view, np.int64(0)  # discarded: the caller retries or refuses
    # The views to merge: a draw's children (the steal's two, R7, are one term: the better of them) and,
    # at a choice, the stop. They are kept in this frame's rows of the scratch (a frame per pile size and
    # kind, as a turn start's frame is open while a choice at the same pile size asks for its stop).
    iv, fv = scr[2 * n + (kind == START)], fscr[2 * n + (kind == START)]
    views = terms = 0
    size = _cards(mover)
    banked, banked_cards = _points(other), _cards(other)
    if kind == CHOICE:  # the memo slots of the states asked next, at once (as in _solve)
        _fetch(START, pile, np.int64(0), mover, memo, WIN_MODE)
    if n > 1:
        for i in range(10):
            if (pile >> (4 * i)) & 15:
                one = np.int64(1) << (4 * i)
                if size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15:
                    _fetch(START, pile - one, np.int64(0), np.int64(0), memo, WIN_MODE)
                else:
                    _fetch(CHOICE, pile - one, mover + one, other, memo, WIN_MODE)
                    s = (other >> (4 * i)) & 15
                    if s:
                        _fetch(CHOICE, pile - one, mover + one + s * one, other - s * one, memo, WIN_MODE)
    for i in range(10):
        c = (pile >> (4 * i)) & 15
        if c == 0:
            continue
        one = np.int64(1) << (4 * i)
        iv[_TB, terms] = -1
        if size >= BUST_THRESHOLD and (mover >> (4 * i)) & 15:  # R5, R6: the line is lost, a lost turn counted
            if n == 1:  # R9: the other's line reaches its loot
                off, ln, sign, k = _UNIT, one_view, one_view, 1 - _standing(-banked, -banked_cards, 1, 0)
            else:
                off, ln, sign, k = _chances(START, pile - one, np.int64(0), np.int64(0), n - 1, memo, meta, xs, vs,
                                            scr, fscr)
                sign, k = -sign, _standing(banked, banked_cards, -1, 1) - k
            _view(iv, views, off, ln, sign, k)
            iv[_TA, terms] = views
            views += 1
        else:
            off, ln, sign, k = _chances(CHOICE, pile - one, mover + one, other, n - 1, memo, meta, xs, vs, scr, fscr)
            _view(iv, views, off, ln, sign, k)
            iv[_TA, terms] = views
            views += 1
            s = (other >> (4 * i)) & 15
            if s:
                off, ln, sign, k = _chances(CHOICE, pile - one, mover + one + s * one, other - s * one, n - 1, memo,
                                            meta, xs, vs, scr, fscr)
                _view(iv, views, off, ln, sign, k)
                iv[_TB, terms] = views
                views += 1
        fv[_WEIGHT, terms] = c
        terms += 1
    stop_view = -1
    if kind == CHOICE:
        off, ln, sign, k = _chances(STOP, pile, mover, other, n, memo, meta, xs, vs, scr, fscr)
        _view(iv, views, off, ln, sign, k)
        stop_view = views
        views += 1
    if meta[_FULL] or meta[_SLOW] or meta[_POOL_FULL]:
        return _UNIT, one_view, one_view, np.int64(0)
    # Sweep every view's steps in increasing standing (each view's next step at hand); a step of the result
    # wherever its chance changes. Only the standings the root's can still reach are kept: the points lead
    # moves by at most the points banked or lost since the root, so with the root's mover or the other to
    # play, it is within that of the root's lead or of its opposite (one window if the two meet). A window
    # starts with the chance there; past the last the chance is 1, as a reflection needs.
    x = _NONE  # the next standing where a view steps
    for v in range(views):
        fv[_NOW, v] = 0.0
        iv[_AT, v] = 0
        iv[_NEXT, v], fv[_NEXT_CHANCE, v] = _step(xs, vs, iv[_OFF, v], iv[_LEN, v], iv[_SIGN, v], iv[_K, v], 0)
        x = min(x, iv[_NEXT, v])
    moved = meta[_ROOT] - _points(pile) - _points(mover) - banked  # (banked: the other's line, counted above)
    lead = abs(meta[_LEAD])
    windows = 1 if lead <= moved else 2
    # (each window holds every cards and lost-turns lead _standing allows at its two ends)
    lo0 = _standing(-lead - moved, -255, 127, 0)
    hi0 = _standing(lead + moved if windows == 1 else moved - lead, 255, -127, 1)
    lo1, hi1 = _standing(lead - moved, -255, 127, 0), _standing(lead + moved, 255, -127, 1)
    w, lo, hi, started = 0, lo0, hi0, False
    first = meta[_TOP]
    top = first
    last = cur = 0.0  # the chance last stepped to, and the chance at the sweep
    while x != _NONE:
        after = _NONE
        for v in range(views):
            if iv[_NEXT, v] == x:  # a view's steps are strictly increasing: one step each at most
                fv[_NOW, v] = fv[_NEXT_CHANCE, v]
                p = iv[_AT, v] + 1
                iv[_AT, v] = p
                if p < iv[_LEN, v]:
                    iv[_NEXT, v], fv[_NEXT_CHANCE, v] = _step(xs, vs, iv[_OFF, v], iv[_LEN, v], iv[_SIGN, v],
                                                              iv[_K, v], p)
                else:
                    iv[_NEXT, v] = _NONE
            after = min(after, iv[_NEXT, v])
        at, x = x, after
        total = 0.0
        for t in range(terms):
            chance = fv[_NOW, iv[_TA, t]]
            b = iv[_TB, t]
            if b >= 0 and fv[_NOW, b] > chance:
                chance = fv[_NOW, b]
            total += fv[_WEIGHT, t] * chance
        total /= n
        if stop_view >= 0 and fv[_NOW, stop_view] >= total:  # stop on a tie
            total = fv[_NOW, stop_view]
        while at > hi and w < windows:  # past a window: one with no step in it holds the chance at its start
            if not started:
                top, last = _emit(xs, vs, meta, top, last, lo, cur)
            w, lo, hi, started = w + 1, lo1, hi1, False
        if w == windows:
            break
        if at >= lo:
            if not started and at > lo:
                top, last = _emit(xs, vs, meta, top, last, lo, cur)
            started = True
            top, last = _emit(xs, vs, meta, top, last, at, total)
        cur = total
    while w < windows:  # windows past the last step: the chance there is 1
        if not started:
            top, last = _emit(xs, vs, meta, top, last, lo, cur)
        w, lo, started = w + 1, lo1, False
    top, last = _emit(xs, vs, meta, top, last, (hi1 if windows == 2 else hi0) + 1, 1.0)
    if meta[_POOL_FULL]:
        return _UNIT, one_view, one_view, np.int64(0)
    meta[_TOP] = top
    meta[_DONE] += top - first + WIN_STATE_WORK - (kind != DRAW)  # its steps and itself (_claim counts 1)
    if kind != DRAW:
        if memo[h, _STAMP] == meta[_GEN]:  # the free slot found above was taken meanwhile: probe again
            h = _probe(memo, meta[_GEN], w0, w1, w2, _CHANCES)
        if _claim(memo, meta, h, w0, w1, w2, _CHANCES):
            memo[h, _VALUE] = (first << 24) | (top - first)
    return first, top - first, one_view, np.int64(0)


@njit(cache=True, nogil=True)
def _win(kind, pile, mover, other, n, memo, meta, xs, vs, scr, fscr):  # type: ignore[no-untyped-def]
    # `win` from Python: the recursion over borrowed arrays.
    return _chances(kind, pile, mover, other, n, _borrowed(memo), _borrowed(meta),  # type: ignore[call-arg]
                    _borrowed(xs), _borrowed(vs), _borrowed(scr), _borrowed(fscr))  # type: ignore[call-arg]


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


def _packed(pile: Counts, line: Counts, reach: Counts) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """A state as the kernels take it: the pile and both lines packed, and the pile's size."""
    return np.int64(pack(pile)), np.int64(pack(line)), np.int64(pack(reach)), np.int64(sum(pile))


def _beyond_reach(x: int, reach: int) -> int:
    """``x``, known to be beyond ``±reach``: one value for every such ``x`` of its sign."""
    return reach + 1 if x > 0 else -(reach + 1)


# -- Inspecting the search (the module's text): what bench/ reads of a solved memo --------------------------
#: A packed line's (or pile's) score points, and its cards: ``packed_points(x)``, ``packed_cards(x)``.
packed_points, packed_cards = _points, _cards
#: A standing (points, cards, lost turns, the mover's minus the other's; 1 if the mover has the lower seat)
#: as the one integer `win`'s step functions are of: ``encoded_standing(points, cards, lost, low)``; the
#: mover wins iff it is 1 or more, and the other seat's is ``K - x`` once the turn has passed.
encoded_standing = _standing
#: A view's chance at an encoded standing ``x``: ``chance_at(xs, vs, off, ln, sign, k, x)``.
chance_at = _chance_at
#: `win`'s view at a state, ``(offset, length, sign, shift)`` of its steps in the pool:
#: ``win_view(kind, pile, mover, other, n, memo, meta, xs, vs, scr, fscr)`` over the solver's arrays (a memo
#: hit, all the way down, once the solver has solved the state).
win_view = _chances
#: A state as the kernels take it: ``packed(pile, line, reach)`` gives the pile and both lines packed, and
#: the pile's size.
packed = _packed


@njit(cache=True, nogil=True)
def dead_cards(pile, line):  # type: ignore[no-untyped-def]
    # The cards of a packed line whose values are gone from the packed pile (the other's reach its loot).
    return line & ~_live(pile) & _ALL


@njit(cache=True, nogil=True)
def win_slot(kind, pile, mover, other, memo, meta):  # type: ignore[no-untyped-def]
    # The memo slot where `win` keeps a state (START or CHOICE, the other's dead cards left out), or the free
    # slot where it would.
    w0, w1, w2 = _lines_key(pile, mover, other, np.int64(kind == START), np.int64(1))
    return _probe(memo, meta[_GEN], w0, w1, w2, _CHANCES)


@njit(cache=True, nogil=True)
def holds_win_state(memo, meta, h):  # type: ignore[no-untyped-def]
    # Whether memo slot h holds a solved `win` state (of this memo's solve).
    return memo[h, _STAMP] == meta[_GEN] and memo[h, 3] == _CHANCES


@njit(cache=True, nogil=True)
def stored_steps(memo, h):  # type: ignore[no-untyped-def]
    # Where the steps of the `win` state in memo slot h are: their offset in the pool and their count.
    word = memo[h, _VALUE]
    return word >> 24, word & 0xFFFFFF


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
        # costs a fifth or more of the time), at most a fifth of it unused for the bench's hard endgames.
        self.most = MAX_WORK[int(mode)]
        rate = WORK_PER_SECOND[int(mode)]
        self.work = self.most if budget is None else int(min(budget.seconds * rate, self.most))
        # ... and for the work allowed: a short time limit never pays for a memo it cannot fill (a `win`
        # state is WIN_STATE_WORK and a step at least).
        states = self.work if mode == DUEL_MODE else self.work // (WIN_STATE_WORK + 1)
        self.log2 = min(max_log2, _START_LOG2[int(mode)][self.n], max(16, math.ceil(math.log2(max(states, 1) / 0.7))))
        self.steps_log2 = (min(_START_LOG2_STEPS[self.n], max(16, math.ceil(math.log2(self.work + 2))))
                           if mode == WIN_MODE else 0)
        self._new_pool()
        self.scr = np.zeros((2 * (MAX_PILE + 1), 8, _VIEWS), np.int64)  # `win`'s frames (see _chances)
        self.fscr = np.zeros((2 * (MAX_PILE + 1), 3, _VIEWS), np.float64)
        self._new_table()

    @property
    def states(self) -> int:
        """The states solved and kept in the memo."""
        return int(self.meta[_COUNT])

    @property
    def steps(self) -> int:
        """`win`'s steps kept in the pool (0 for `duel`)."""
        return int(self.meta[_TOP]) - int(_UNIT) - 1 if self.mode == WIN_MODE else 0

    def chance_functions(self) -> list[tuple[bool, npt.NDArray[np.int32], npt.NDArray[np.float64]]]:
        """`win`'s stored states as their step functions: whether the state is a turn start, then where each
        step is (a standing, see :func:`_standing`) and the chance to win from there on (for the bench's
        anatomy of the steps; empty for `duel`).

        >>> from solver.game.cards import counts
        >>> solver = EndgameSolver(WIN_MODE, counts([10]))
        >>> solver.value(START, counts([10]), counts([]), counts([4]))   # the last card, a 10, is mine: I win
        1.0
        >>> [(start, len(xs), vs.tolist()) for start, xs, vs in solver.chance_functions()]  # 1 from the window on
        [(True, 1, [1.0])]
        """
        if self.mode != WIN_MODE:
            return []
        rows = self.memo[(self.memo[:, _STAMP] == self.meta[_GEN]) & (self.memo[:, 3] == _CHANCES)]
        return [(bool((w0 >> 40) & 1), self.xs[word >> 24:(word >> 24) + (word & 0xFFFFFF)],
                 self.vs[word >> 24:(word >> 24) + (word & 0xFFFFFF)]) for w0, word in zip(rows[:, 0], rows[:, _VALUE])]

    def _new_pool(self) -> None:
        # `win`'s pool of steps: where (an int32 holds every standing, the deck's 445 points times 2**17
        # being under 2**31) and the chance; its first step is the unit's.
        self.xs = _plain(1 << self.steps_log2, np.int32)
        self.vs = _plain(1 << self.steps_log2, np.float64)
        self.xs[_UNIT], self.vs[_UNIT] = 0, 1.0

    def _new_table(self) -> None:
        size = 1 << self.log2
        self.memo = _zeros(size)
        self.vals = self.memo.view(np.float64)  # the value column, read as floats
        self.meta = np.array([1, 0, int(size * 0.7), 0, 0, self.work, 0, _UNIT + 1, 0, 0, 0], dtype=np.int64)

    def value(self, kind: np.int64, pile: Counts, line: Counts, reach: Counts) -> float:
        """The value at a state of the root mover's turn: ``kind`` is :data:`CHOICE`, :data:`DRAW` or
        :data:`STOP` (:data:`START` for a turn start, whose line is empty)."""
        while True:
            got = self._once(kind, pile, line, reach)
            if self.meta[_SLOW]:
                if self.budget is None or self.work >= self.most:
                    unit = ("positions" if self.mode == DUEL_MODE
                            else f"steps of its chances (a position counted as {WIN_STATE_WORK})")
                    raise TooLarge(f"{self.name} gave up on this {self.n}-card pile after {self.most:,} {unit} "
                                   f"(its work limit, under a minute); ask again nearer the end of the game")
                raise SlowModel(f"{self.name} needs more than {self.budget.seconds:g} s for this {self.n}-card pile, "
                                f"the time limit given; a longer limit may let it answer")
            if self.meta[_POOL_FULL]:
                self._grow_pool()
            elif self.meta[_FULL]:
                self._grow_memo()
            else:
                return got

    def _once(self, kind: np.int64, pile: Counts, line: Counts, reach: Counts) -> float:
        if self.mode == DUEL_MODE:
            return float(_duel(kind, *_packed(pile, line, reach), self.memo, self.vals, self.meta))
        return self._chances(kind, pile, line, reach)(self.standing)

    def _chances(self, kind: np.int64, pile: Counts, line: Counts,
                 reach: Counts) -> Callable[[tuple[int, int, int, bool]], float]:
        """`win`'s chance at a state as a function of the mover's standing, for the standings within reach of
        the root's (points within what has been banked or lost since, either way); one solve (or none, a
        full memo or pool: see :meth:`value`)."""
        sp = clamped(self.standing, pile, line, reach)[0]
        window = (total_value(pile) + total_value(line) + total_value(reach), sp)
        if window != (self.meta[_ROOT], self.meta[_LEAD]):  # another root: its windows are not these
            if self.meta[_TOP] > _UNIT + 1:
                self._new_table()
            self.meta[_ROOT], self.meta[_LEAD] = window
        view = _win(kind, *_packed(pile, line, reach), self.memo, self.meta, self.xs, self.vs, self.scr, self.fscr)
        xs, vs = self.xs, self.vs

        def chance(standing: tuple[int, int, int, bool]) -> float:
            p, c, lost, low = clamped(standing, pile, line, reach)
            return float(_chance_at(xs, vs, *view, _standing(p, c, lost, int(low))))  # type: ignore[call-arg]
        return chance

    def _grow_memo(self) -> None:
        if self.log2 >= self.max_log2:
            raise TooLarge(f"{self.name} gave up on this {self.n}-card pile: its memo of {1 << self.log2:,} "
                           f"positions ({(48 << self.log2) / 1e9:.1f} GB) is full")
        self.log2 = min(self.max_log2, self.log2 + 2)
        old_memo, old_meta = self.memo, self.meta
        self._new_table()
        _rehash(old_memo, old_meta[_GEN], self.memo, self.meta)
        for word in (_DONE, _TOP, _ROOT, _LEAD):  # work spent, steps kept, the same root
            self.meta[word] = old_meta[word]
        del old_memo  # then solve again from the root: what was stored before the memo filled is kept

    def _grow_pool(self) -> None:
        if self.steps_log2 >= _MAX_LOG2_STEPS:
            raise TooLarge(f"{self.name} gave up on this {self.n}-card pile: its {1 << self.steps_log2:,} steps "
                           f"({(12 << self.steps_log2) / 1e9:.1f} GB) are full")
        self.steps_log2 = min(_MAX_LOG2_STEPS, self.steps_log2 + 2)
        top = int(self.meta[_TOP])
        xs, vs = _plain(1 << self.steps_log2, np.int32), _plain(1 << self.steps_log2, np.float64)
        xs[:top], vs[:top] = self.xs[:top], self.vs[:top]  # the states stored keep their steps where they are
        self.xs, self.vs = xs, vs
        self.meta[_POOL_FULL] = 0  # then solve again from the root
