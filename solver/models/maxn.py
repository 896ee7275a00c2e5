"""`win` exact with three to five players: the max-n search of a game's last cards.

``docs/MODELS.md`` ("the chance to win from any position"): every player at
every choice maximises its own chance to win the game (R11, then R12's
tie-breaks), stop rather than draw and decline rather than steal on a tie.
With two players that is the zero-sum `win` of :mod:`solver.models.win`;
with more, a state's value is the vector of every seat's chance (max-n),
and the player to move picks the choice best for its own entry.

A *state* is the pile, every seat's line (face-up cards), every seat's
loot points, loot cards and lost turns, and the seat to play; a turn
start (the seat's line just banked, R3) or a choice (after a card that did
not lose the turn and its steal, R7, R8). The search draws every value the
pile holds (R4), loses the turn on R5's test (R6), offers every steal
(all of a value from every other line, or none), passes the turn on a stop
or a lost turn, and ends the game with the last card (R9: its steal first;
then every line is banked).

Both copies merge states that cannot differ. Only differences between seats
decide the winner, so the memo's key keeps each seat's points, cards and
lost turns less the least of the seats still able to win. A waiting seat's
cards of values gone from the pile are sure to reach its loot (nobody can
draw their value to steal them), so they are banked at once. A seat whose
loot plus every point left in the pile and the lines is below another
seat's loot can no longer win: its standing is left out of the key (its
every choice ties at 0), and once only one seat can still win the state
is decided.

Two copies of the one recursion: :func:`chances` over exact
:class:`~fractions.Fraction` in Python, the reference, and
:class:`MaxnSolver`, compiled (numba) over float64, the speed path the
model and the bot use; the tests check both against a brute force over the
rules engine (``bench/win_error.maxn``) and each other.

>>> from fractions import Fraction
>>> table = Table(pile=(0,) * 9 + (1,), active=0, lines=((0,) * 10,) * 3, points=(10, 15, 20),
...               cards=(2, 3, 4), lost=(0, 0, 0))    # the last card is a 10; seat 0 draws it: 20 each
>>> [str(c) for c in chances(table)]                 # seat 2 wins the tie on loot cards (R12)
['0', '0', '1']
>>> MaxnSolver(3, 1).chances(table).tolist()
[0.0, 0.0, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from solver.models.advice import Budget, SlowModel, TooLarge
from solver.game.cards import Counts, counts
from solver.game.core import BUST_THRESHOLD, TurnState
from solver.game.position import Position
from solver.models.endgame import packed_cards, packed_points

__all__ = ["BEST", "DRAW", "ExactMaxn", "MAX_CARDS", "MAX_EXACT_CARDS", "MAX_LOG2_SLOTS", "MaxnSolver", "STOP", "Table", "WORK_PER_SECOND", "chances",
           "final_winner", "table_at"]


@dataclass(frozen=True)
class Table:
    """A state of the search in plain numbers: the pile and every seat's line as count vectors (or lists of
    cards), every seat's loot points, loot cards and lost turns, and the seat to play. The seat to play's line
    is the face-up cards of its turn so far (empty at its turn's start, once R3 banked the last one)."""

    pile: Counts
    active: int
    lines: tuple[Counts, ...]
    points: tuple[int, ...]
    cards: tuple[int, ...]
    lost: tuple[int, ...]

    def __post_init__(self) -> None:
        n = len(self.lines)
        if not 2 <= n <= 5 or not len(self.points) == len(self.cards) == len(self.lost) == n:
            raise ValueError("a table has 2 to 5 seats, each with a line, points, cards and lost turns")
        if any(len(x) != 10 or min(x) < 0 or max(x) > 11 for x in (self.pile, *self.lines)) or not 0 <= self.active < n:
            raise ValueError("a table's pile and lines are ten counts of 0 to 11 each, and its seat to play one of "
                             "its seats")

    @property
    def players(self) -> int:
        return len(self.lines)


def table_at(position: Position, point: TurnState) -> Table:
    """The table at ``point``, a state of the position's turn (a steal since the position empties a value from
    every other line), with the totals of a match's earlier rounds counted in (R15: its last round)."""
    a, n = position.active, len(position.players)
    earlier = position.match.earlier if position.match is not None else (None,) * n
    lines, pts, cards, lost = [], [], [], []
    for s, (p, e) in enumerate(zip(position.players, earlier)):
        line = counts(p.line)
        lines.append(point.line if s == a else tuple(c if r else 0 for c, r in zip(line, point.reach)))
        pts.append(sum(p.loot) + (e.points if e else 0))
        cards.append(len(p.loot) + (e.cards if e else 0))
        lost.append(p.lost_turns + (e.lost_turns if e else 0))
    return Table(point.pile, a, tuple(lines), tuple(pts), tuple(cards), tuple(lost))


def final_winner(points: list[int], cards: list[int], lost: list[int]) -> int:
    """R11, then R12: most points, most loot cards, fewest lost turns, lowest seat."""
    return min(range(len(points)), key=lambda s: (-points[s], -cards[s], lost[s], s))


#: The kinds of value a solver's ``chances`` is asked for: the best of stop and draw, the stop's, the draw's.
BEST, STOP, DRAW = 0, 1, 2


# -- the reference: exact fractions in Python -------------------------------------------------------------------

def chances(table: Table) -> tuple[Fraction, ...]:
    """Every seat's exact chance to win from ``table`` (a turn start or a choice: the value of the best of
    stop and draw there), every player playing to win."""
    return ExactMaxn(table.players).chances(table)


class ExactMaxn:
    """Exact chances of one game's last cards (a memo kept between calls); ``budget``: a time limit
    (:class:`~solver.models.advice.SlowModel` past it)."""

    def __init__(self, players: int, budget: Budget | None = None) -> None:
        self.n = players
        self.budget = budget
        self.memo: dict[tuple[Any, ...], tuple[Fraction, ...]] = {}

    def chances(self, table: Table, kind: int = 0) -> tuple[Fraction, ...]:
        """Every seat's chance at ``table``: ``kind`` BEST (the best of stop and draw; a turn start's draw),
        STOP or DRAW."""
        if table.players != self.n:
            raise ValueError(f"a table of {table.players} players for a solver of {self.n}")
        if sum(table.pile) > MAX_EXACT_CARDS:
            raise TooLarge(f"the exact win in fractions with {self.n} players solves piles of up to "
                           f"{MAX_EXACT_CARDS} cards (this one has {sum(table.pile)}); the float path (without "
                           f"--exact) answers up to {MAX_CARDS}")
        if not sum(table.pile):
            raise ValueError("the game is over: no card is left to draw")
        if kind == STOP and not sum(table.lines[table.active]):
            raise ValueError("a turn starts with at least one card (R4): there is no stop before it")
        st = (table.pile, table.active, table.lines, table.points, table.cards, table.lost)
        return self.passed(st) if kind == STOP else self.draw(st) if kind == DRAW else self.value(st)

    def settle(self, st: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[bool]]:
        """The state with every waiting seat's cards of values gone from the pile banked (nobody can draw their
        value to steal them, R7, and they reach the loot at the seat's turn start, R3, or the game's end, R9),
        and which seats can still win: a seat is out once another's loot (never at risk) is more than its own
        plus every point still in the pile and the lines."""
        pile, a, lines, pts, cards, lost = st
        lines, pts, cards = list(lines), list(pts), list(cards)
        for s in range(self.n):
            dead = [c if not pile[i] else 0 for i, c in enumerate(lines[s])]
            if s != a and any(dead):
                pts[s] += sum((i + 1) * c for i, c in enumerate(dead))
                cards[s] += sum(dead)
                lines[s] = tuple(c if pile[i] else 0 for i, c in enumerate(lines[s]))
        left = sum((i + 1) * c for ln in (pile, *lines) for i, c in enumerate(ln))
        top = max(pts)
        return (pile, a, tuple(lines), tuple(pts), tuple(cards), lost), [p + left >= top for p in pts]

    def key(self, st: tuple[Any, ...], running: list[bool]) -> tuple[Any, ...]:
        """What the value depends on: the seats still running by their standing less the least, the others by
        their lines alone (their standing cannot change who wins, and their every choice ties at 0)."""
        pile, a, lines, pts, cards, lost = st
        least = [min(x for x, r in zip(xs, running) if r) for xs in (pts, cards, lost)]
        return (pile, a, lines) + tuple((p - least[0], c - least[1], x - least[2]) if r else None
                                        for p, c, x, r in zip(pts, cards, lost, running))

    def end(self, st: tuple[Any, ...]) -> tuple[Fraction, ...]:
        _, _, lines, pts, cards, lost = st
        w = final_winner([p + sum((i + 1) * c for i, c in enumerate(ln)) for p, ln in zip(pts, lines)],
                         [c + sum(ln) for c, ln in zip(cards, lines)], list(lost))
        return tuple(Fraction(int(s == w)) for s in range(self.n))

    def passed(self, st: tuple[Any, ...]) -> tuple[Fraction, ...]:
        """The value once the turn is over (a stop or a lost turn): the game's end, or the next seat banks
        its line (R3) and starts."""
        pile, a, lines, pts, cards, lost = st
        if not sum(pile):
            return self.end(st)
        b = (a + 1) % self.n
        ln = lines[b]
        pts = _set(pts, b, pts[b] + sum((i + 1) * c for i, c in enumerate(ln)))
        cards = _set(cards, b, cards[b] + sum(ln))
        return self.value((pile, b, _set(lines, b, (0,) * 10), pts, cards, lost))

    def after_card(self, st: tuple[Any, ...]) -> tuple[Fraction, ...]:
        return self.end(st) if not sum(st[0]) else self.value(st)

    def value(self, st: tuple[Any, ...]) -> tuple[Fraction, ...]:
        st, running = self.settle(st)
        if sum(running) == 1:  # the game is decided
            return tuple(Fraction(int(r)) for r in running)
        key = self.key(st, running)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self.best(st)
            if self.budget is not None and len(self.memo) % 1024 == 0 and self.budget.spent():
                raise SlowModel(f"the exact win with {self.n} players ran out of time after {len(self.memo):,} "
                                "states; it answers sooner nearer the game's end")
        return got

    def best(self, st: tuple[Any, ...]) -> tuple[Fraction, ...]:
        a, line = st[1], st[2][st[1]]
        if not sum(line):  # a turn start: the player draws (R4)
            return self.draw(st)
        stop, draw = self.passed(st), self.draw(st)
        return draw if draw[a] > stop[a] else stop

    def draw(self, st: tuple[Any, ...]) -> tuple[Fraction, ...]:
        pile, a, lines, pts, cards, lost = st
        line, total = lines[a], sum(pile)
        out = [Fraction(0)] * self.n
        for i, c in enumerate(pile):
            if not c:
                continue
            rest = _set(pile, i, c - 1)
            if sum(line) >= BUST_THRESHOLD and line[i]:  # R5, R6: the line and the card are discarded
                v = self.passed((rest, a, _set(lines, a, (0,) * 10), pts, cards, _set(lost, a, lost[a] + 1)))
            else:
                kept = _set(line, i, line[i] + 1)
                v = self.after_card((rest, a, _set(lines, a, kept), pts, cards, lost))
                held = sum(ln[i] for s, ln in enumerate(lines) if s != a)
                if held:  # R7: all of the value from every other line, or none (decline on a tie)
                    taken = tuple(_set(kept, i, kept[i] + held) if s == a else _set(ln, i, 0)
                                  for s, ln in enumerate(lines))
                    took = self.after_card((rest, a, taken, pts, cards, lost))
                    if took[a] > v[a]:
                        v = took
            out = [o + Fraction(c, total) * x for o, x in zip(out, v)]
        return tuple(out)


def _set(t: tuple[Any, ...], i: int, x: Any) -> tuple[Any, ...]:
    return t[:i] + (x,) + t[i + 1:]


# -- the speed path: compiled, float64 --------------------------------------------------------------------------
#
# A state is a row of int64: the pile (4 bits a value), the seat to play, then per seat (five places each) the
# line (packed like the pile), the loot points, the loot cards and the lost turns. The memo is an open-addressing
# table of seven key words a slot (pile and seat to play; per seat the line and its cards and lost turns less the
# table's least; every seat's points less the least) and the chances of five seats.

_PILE, _ACTIVE, _LINE, _PTS, _CARDS, _LOST = 0, 1, 2, 7, 12, 17
_WIDTH = 22
_KEY = 7
_STORED, _ABORT, _ROOM, _WORK, _WORK_LIMIT = 0, 1, 2, 3, 4
_FULL, _SLOW = 1, 2
# The recursion calls itself with exactly the types it was entered with, or numba's on-disk cache crashes on
# reload (numba issue #6713): its flag is an np.bool_, its depth and seats np.int64.
_NO = np.bool_(False)

#: The memo's largest size (slots of 96 bytes): 2**24 is 1.6 GB.
MAX_LOG2_SLOTS = 24
#: The largest pile the compiled search takes (with three players 10 cards take seconds, 12 more than the memo
#: holds), and the exact one in fractions (8 cards took two minutes and a gigabyte with three players).
MAX_CARDS = 12
MAX_EXACT_CARDS = 7
#: States the compiled search solves a second on the 2-core development machine (docs/PERFORMANCE.md), which
#: turns a time budget into a work limit.
WORK_PER_SECOND = 1_000_000


@njit(cache=True, nogil=True, inline="always")
def _count(x, i):  # type: ignore[no-untyped-def]
    return (x >> (4 * i)) & 15  # value i + 1's count in a packed pile or line


@njit(cache=True, nogil=True, inline="always")
def _beats(x, y):  # type: ignore[no-untyped-def]
    # A chance better than another by more than the floats' rounding (solver.models.advice.beats): an exact tie
    # reached by sums in another order stays a tie, and is broken as the exact path breaks it.
    return x > y + 1e-9 * max(1.0, abs(y))


@njit(cache=True, nogil=True)
def _end(row, out, n):  # type: ignore[no-untyped-def]
    # R9: every line is banked; R11, R12 name the winner.
    best = 0
    bp, bc, bl = -1, -1, 0
    for s in range(n):
        p = row[_PTS + s] + packed_points(row[_LINE + s])
        c = row[_CARDS + s] + packed_cards(row[_LINE + s])
        lo = row[_LOST + s]
        if p > bp or (p == bp and (c > bc or (c == bc and lo < bl))):
            best, bp, bc, bl = s, p, c, lo
    for s in range(n):
        out[s] = 0.0
    out[best] = 1.0


@njit(cache=True, nogil=True)
def _pass(row, out, n):  # type: ignore[no-untyped-def]
    # The turn is over: True and the game's result in out if the pile is empty, else the next seat banks its
    # line (R3) in row and starts.
    if row[_PILE] == 0:
        _end(row, out, n)
        return True
    b = (row[_ACTIVE] + 1) % n
    ln = row[_LINE + b]
    row[_PTS + b] += packed_points(ln)
    row[_CARDS + b] += packed_cards(ln)
    row[_LINE + b] = 0
    row[_ACTIVE] = b
    return False


@njit(cache=True, nogil=True)
def _settle(row, n):  # type: ignore[no-untyped-def]
    # A waiting seat's cards of values gone from the pile are sure to reach its loot (nobody can draw their value
    # to steal them, R7, and it banks them at its turn's start, R3, or the game's end, R9): bank them now, which
    # merges states. Then the seat that alone can still win, or -1: a seat is out once another's loot (never at
    # risk) is more than its own plus every point still in the pile and the lines.
    pile = row[_PILE]
    live = np.int64(0)
    for i in range(10):
        if (pile >> (4 * i)) & 15:
            live |= np.int64(15) << (4 * i)
    a = row[_ACTIVE]
    left = packed_points(pile)
    for s in range(n):
        ln = row[_LINE + s]
        if s != a and ln & ~live:
            dead = ln & ~live
            row[_PTS + s] += packed_points(dead)
            row[_CARDS + s] += packed_cards(dead)
            row[_LINE + s] = ln & live
        left += packed_points(row[_LINE + s])
    top = row[_PTS]
    for s in range(1, n):
        top = max(top, row[_PTS + s])
    alone = -1
    for s in range(n):
        if row[_PTS + s] + left >= top:
            if alone >= 0:
                return -1
            alone = s
    return alone


@njit(cache=True, nogil=True)
def _key(row, n, k):  # type: ignore[no-untyped-def]
    # The memo's key: the seats still in the running (see _settle) by their standing less the least, the others
    # by their lines alone (their standing cannot change who wins, nor their choices: every one ties at 0).
    left = packed_points(row[_PILE])
    top = row[_PTS]
    for s in range(n):
        left += packed_points(row[_LINE + s])
        top = max(top, row[_PTS + s])
    mp, mc, ml = np.int64(1) << 40, np.int64(1) << 40, np.int64(1) << 40
    for s in range(n):
        if row[_PTS + s] + left >= top:
            mp = min(mp, row[_PTS + s])
            mc = min(mc, row[_CARDS + s])
            ml = min(ml, row[_LOST + s])
    k[0] = row[_PILE] | (row[_ACTIVE] << 40) | (n << 44)
    pw = np.int64(0)
    for s in range(5):
        if s >= n:
            k[1 + s] = 0
        elif row[_PTS + s] + left >= top:
            k[1 + s] = row[_LINE + s] | (min(row[_CARDS + s] - mc, 4094) << 40) | (min(row[_LOST + s] - ml, 1022) << 52)
            pw |= min(row[_PTS + s] - mp, 4094) << (12 * s)
        else:
            k[1 + s] = row[_LINE + s] | (np.int64(4095) << 40) | (np.int64(1023) << 52)
            pw |= np.int64(4095) << (12 * s)
    k[6] = pw


@njit(cache=True, nogil=True)
def _probe(keys, k):  # type: ignore[no-untyped-def]
    # The slot holding key k, or the empty slot where it would go.
    h = np.uint64(0x9E3779B97F4A7C15)
    for j in range(_KEY):
        h = (h ^ np.uint64(k[j])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    mask = keys.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while True:
        if keys[i, 0] == 0:
            return i
        same = True
        for j in range(_KEY):
            if keys[i, j] != k[j]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & mask


@njit(cache=True, nogil=True)
def _value(S, V, A, B, K, d, n, keys, vals, meta, draw_only):  # type: ignore[no-untyped-def]
    # Every seat's chance from the state S[d] into V[d] (draw_only: the draw's, not the best of stop and draw,
    # and not kept); False if the search stopped (the memo full, or the work limit reached).
    alone = _settle(S[d], n)
    if alone >= 0:  # the game is decided
        for s in range(n):
            V[d, s] = 0.0
        V[d, alone] = 1.0
        return True
    if not draw_only:
        _key(S[d], n, K[d])
        h = _probe(keys, K[d])
        if keys[h, 0] != 0:
            for s in range(n):
                V[d, s] = vals[h, s]
            return True
    meta[_WORK] += 1
    if meta[_WORK] > meta[_WORK_LIMIT]:
        meta[_ABORT] = _SLOW
        return False
    a = S[d, _ACTIVE]
    pile = S[d, _PILE]
    line = S[d, _LINE + a]
    choice = line != 0 and not draw_only
    if choice:  # stop: the turn passes
        S[d + 1] = S[d]
        if not _pass(S[d + 1], V[d + 1], n):
            if not _value(S, V, A, B, K, d + 1, n, keys, vals, meta, _NO):
                return False
        for s in range(n):
            V[d, s] = V[d + 1, s]
    for s in range(n):
        A[d, s] = 0.0
    total = packed_cards(pile)
    size = packed_cards(line)
    for i in range(10):
        c = _count(pile, i)
        if c == 0:
            continue
        p = c / total
        one = np.int64(1) << (4 * i)
        S[d + 1] = S[d]
        S[d + 1, _PILE] = pile - one
        if size >= BUST_THRESHOLD and _count(line, i) > 0:  # R5, R6: the line and the card are discarded
            S[d + 1, _LINE + a] = 0
            S[d + 1, _LOST + a] += 1
            if not _pass(S[d + 1], V[d + 1], n):
                if not _value(S, V, A, B, K, d + 1, n, keys, vals, meta, _NO):
                    return False
        else:
            S[d + 1, _LINE + a] = line + one
            held = 0
            for s in range(n):
                if s != a:
                    held += _count(S[d, _LINE + s], i)
            if S[d + 1, _PILE] == 0:  # R9: the last card (its steal first) ends the game
                _end(S[d + 1], V[d + 1], n)
            elif not _value(S, V, A, B, K, d + 1, n, keys, vals, meta, _NO):
                return False
            if held:  # R7: all of the value from every other line, or none (decline on a tie)
                for s in range(n):
                    B[d, s] = V[d + 1, s]
                S[d + 1] = S[d]
                S[d + 1, _PILE] = pile - one
                S[d + 1, _LINE + a] = line + one * (1 + held)
                for s in range(n):
                    if s != a:
                        S[d + 1, _LINE + s] = S[d, _LINE + s] & ~(np.int64(15) << (4 * i))
                if S[d + 1, _PILE] == 0:
                    _end(S[d + 1], V[d + 1], n)
                elif not _value(S, V, A, B, K, d + 1, n, keys, vals, meta, _NO):
                    return False
                if not _beats(V[d + 1, a], B[d, a]):
                    for s in range(n):
                        V[d + 1, s] = B[d, s]
        for s in range(n):
            A[d, s] += p * V[d + 1, s]
    if not choice or _beats(A[d, a], V[d, a]):
        for s in range(n):
            V[d, s] = A[d, s]
    if draw_only:
        return True
    h = _probe(keys, K[d])
    for j in range(_KEY):
        keys[h, j] = K[d, j]
    for s in range(n):
        vals[h, s] = V[d, s]
    meta[_STORED] += 1
    if meta[_STORED] > meta[_ROOM]:
        meta[_ABORT] = _FULL
        return False
    return True


@njit(cache=True, nogil=True)
def _rehash(keys, vals, new_keys, new_vals):  # type: ignore[no-untyped-def]
    # Every state of one memo into another (larger) one.
    for i in range(keys.shape[0]):
        if keys[i, 0] != 0:
            h = _probe(new_keys, keys[i])
            for j in range(_KEY):
                new_keys[h, j] = keys[i, j]
            for j in range(5):
                new_vals[h, j] = vals[i, j]


class MaxnSolver:
    """Compiled chances of one game's last cards, ``players`` seats and at most ``cards`` in the pile (the memo
    kept between calls, as the model asks for the steal, stop and draw of a turn, and the bot for every decision
    to the game's end).

    ``budget`` turns into a work limit for the solver's whole life (:class:`~solver.models.advice.SlowModel`
    past it); a memo that fills is grown twice as large, the states solved so far moved into it, and the
    question asked again, up to ``max_log2`` (:data:`MAX_LOG2_SLOTS`; :class:`~solver.models.advice.TooLarge`
    past it). Piles of more than :data:`MAX_CARDS` are refused at once."""

    def __init__(self, players: int, cards: int, budget: Budget | None = None, max_log2: int = MAX_LOG2_SLOTS,
                 max_work: int = 1 << 40, start_log2: int = 16) -> None:
        if cards > MAX_CARDS:
            raise TooLarge(f"the exact win with {players} players solves piles of up to {MAX_CARDS} cards; this "
                           f"one has {cards}: ask again nearer the game's end")
        self.n = players
        self.cards = cards
        self.max_log2 = max_log2
        self.work = max_work if budget is None else int(min(max_work, max(budget.seconds, 0.0) * WORK_PER_SECOND))
        self.depth = 2 * cards + 4  # a draw and a stop each go one deeper
        self.S = np.zeros((self.depth, _WIDTH), np.int64)
        self.V = np.zeros((self.depth, 5), np.float64)
        self.A = np.zeros((self.depth, 5), np.float64)
        self.B = np.zeros((self.depth, 5), np.float64)
        self.K = np.zeros((self.depth, _KEY), np.int64)
        self.meta = np.zeros(5, np.int64)
        self.meta[_WORK_LIMIT] = self.work
        self.log2 = min(start_log2, max_log2)
        self.keys = np.zeros((1 << self.log2, _KEY), np.int64)
        self.vals = np.zeros((1 << self.log2, 5), np.float64)
        self.meta[_ROOM] = int(0.7 * (1 << self.log2))

    def _grow(self) -> None:
        """The memo twice as large, with every state solved so far."""
        self.log2 += 1
        keys = np.zeros((1 << self.log2, _KEY), np.int64)
        vals = np.zeros((1 << self.log2, 5), np.float64)
        _rehash(self.keys, self.vals, keys, vals)
        self.keys, self.vals = keys, vals
        self.meta[_ROOM] = int(0.7 * (1 << self.log2))

    @property
    def states(self) -> int:
        """The states solved and kept in the memo."""
        return int(self.meta[_STORED])

    def chances(self, table: Table, kind: int = BEST) -> npt.NDArray[np.float64]:
        """Every seat's chance to win at ``table`` (``kind``: the best of stop and draw there, the stop's, or
        the draw's; a turn start's is its draw's, and it has no stop, R4)."""
        if table.players != self.n:
            raise ValueError(f"a table of {table.players} players for a solver of {self.n}")
        if sum(table.pile) > self.cards:
            raise ValueError(f"a pile of {sum(table.pile)} cards for a solver of piles of up to {self.cards}")
        if not sum(table.pile):
            raise ValueError("the game is over: no card is left to draw")
        if kind == STOP and not sum(table.lines[table.active]):
            raise ValueError("a turn starts with at least one card (R4): there is no stop before it")
        while True:
            row = self.S[0]
            row[:] = 0
            row[_PILE] = sum(c << (4 * i) for i, c in enumerate(table.pile))
            row[_ACTIVE] = table.active
            for s in range(self.n):
                row[_LINE + s] = sum(c << (4 * i) for i, c in enumerate(table.lines[s]))
                row[_PTS + s], row[_CARDS + s], row[_LOST + s] = table.points[s], table.cards[s], table.lost[s]
            self.meta[_ABORT] = 0
            if kind == STOP:
                self.S[1] = row
                if _pass(self.S[1], self.V[1], self.n):
                    ok = True
                else:
                    ok = _value(self.S, self.V, self.A, self.B, self.K, np.int64(1), np.int64(self.n), self.keys,
                                self.vals, self.meta, _NO)
                out = self.V[1]
            else:
                ok = _value(self.S, self.V, self.A, self.B, self.K, np.int64(0), np.int64(self.n), self.keys,
                            self.vals, self.meta, np.bool_(kind == DRAW))
                out = self.V[0]
            if ok:
                got: npt.NDArray[np.float64] = out[:self.n].copy()
                return got
            if self.meta[_ABORT] == _SLOW:
                raise SlowModel(f"the exact win with {self.n} players ran out of time after {self.states:,} states "
                                f"with {sum(table.pile)} cards left; it answers sooner nearer the game's end")
            if self.log2 + 1 > self.max_log2:
                raise TooLarge(f"the exact win with {self.n} players needs more than {1 << self.max_log2:,} "
                               f"states with {sum(table.pile)} cards left; ask again nearer the game's end")
            self._grow()
