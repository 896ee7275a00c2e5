"""The chance to win for 2 to 5 players: the turn searched exactly, its ends valued by the evaluator.

``docs/MODELS.md``, "the chance to win from any position": every player, at
every choice, maximises its own chance to win (max-n), ties broken as
everywhere else (stop rather than draw, decline rather than steal). Within a
turn every choice is the active player's, so the search is an expectimax over
the core's chance tree (:meth:`solver.game.core.TurnState.draws`): every steal
choice, stop and draw. A turn ends in one of three ways, each a *leaf*:

* the player stops: the next seat's turn starts (it banks its line, R3);
* the player busts (R6): its line goes to the discard, a lost turn counted,
  and the next seat's turn starts;
* the pile runs out (R9): the game is decided, exactly (R11, R12; in a round
  before a match's last, R15, the next round's start is what is valued).

A turn start is valued by a :data:`Leaves` function of a batch of tables,
which answers every seat's chance to win: the learned evaluator
(:mod:`solver.models.evaluator`) in the model, any other function in the tests
(a stand-in whose values are known, checked against a brute-force search
over the rules engine). The search expands the turn's states once, asks the
leaf function once for all of its turn starts (one numpy batch), then solves
backwards; a state is pinned down by its :attr:`~solver.game.core.TurnState.key`
as in every model.

>>> from solver.game.position import Position
>>> pos = Position.from_dict({"players": [{"line": [6, 1, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5})
>>> flat = lambda batch: np.full((batch.size, 2), 0.5)         # a stand-in: every turn start is a coin toss
>>> s = TurnSearch(Seats.of(pos), flat, pos.pile())
>>> s.stop_value(s.root.stolen(5))                              # stop: the next turn start, worth 1/2
0.5
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.game.cards import DECK_COPIES, VALUES, Counts, counts
from solver.game.core import NO_CARDS, Draw, TurnState
from solver.game.position import Position
from solver.models.advice import beats
from solver.models.evaluator import Evaluator

__all__ = ["CompiledSearch", "Leaves", "Seats", "TableBatch", "TurnSearch", "evaluator_leaves", "final_winner"]

_VALUE = np.arange(1, 11, dtype=np.int64)


@dataclass(frozen=True)
class Seats:
    """The table around the active player's turn, fixed while the turn lasts: every seat's face-up line at
    the turn's start, loot points and cards and lost turns (earlier rounds' totals added, R15), the active
    seat, and the rounds still to come."""

    lines: tuple[Counts, ...]
    loot_points: tuple[int, ...]
    loot_cards: tuple[int, ...]
    lost: tuple[int, ...]
    active: int
    rounds_left: int = 0

    @classmethod
    def of(cls, position: Position) -> Seats:
        """The seats of a position (its active line as it stands, before any steal on offer)."""
        players = position.players
        pts = [sum(p.loot) for p in players]
        cards = [len(p.loot) for p in players]
        lost = [p.lost_turns for p in players]
        rounds_left = 0
        if position.match is not None:
            for s, t in enumerate(position.match.earlier):
                pts[s] += t.points
                cards[s] += t.cards
                lost[s] += t.lost_turns
            rounds_left = position.match.rounds - position.match.round
        return cls(tuple(counts(p.line) for p in players), tuple(pts), tuple(cards), tuple(lost),
                   position.active, rounds_left)

    @property
    def players(self) -> int:
        return len(self.lines)


@dataclass
class TableBatch:
    """A batch of tables at a turn's start (the arrays :func:`solver.models.evaluator.features` reads)."""

    pile: np.ndarray  # [B, 10]
    lines: np.ndarray  # [B, n, 10]
    loot_points: np.ndarray  # [B, n]
    loot_cards: np.ndarray  # [B, n]
    lost: np.ndarray  # [B, n]
    to_play: np.ndarray  # [B]
    rounds_left: np.ndarray  # [B]

    @property
    def size(self) -> int:
        return int(self.pile.shape[0])


#: Every seat's chance to win (``[B, n]``, by absolute seat) at each table of a batch.
Leaves = Callable[[TableBatch], np.ndarray]


def final_winner(points: list[int], cards: list[int], lost: list[int]) -> int:
    """R11, then R12: the seat with the most points, then the most loot cards, then the fewest lost turns,
    then the lowest seat.

    >>> final_winner([40, 40, 12], [9, 11, 3], [0, 0, 0]), final_winner([40, 40], [9, 9], [1, 1])
    (1, 0)
    """
    return min(range(len(points)), key=lambda s: (-points[s], -cards[s], lost[s], s))


class TurnSearch:
    """The active player's chance to win at every state of its turn, from ``root`` (default: the turn as the
    seats have it, the active line at its start).

    Values are floats (the leaves are an estimate); :meth:`best_value`, :meth:`stop_value` and
    :meth:`draw_value` answer any state the turn can reach from the root.
    """

    def __init__(self, seats: Seats, leaves: Leaves, pile: Counts | None = None, root: TurnState | None = None) -> None:
        self.seats = seats
        self.leaves = leaves
        n = seats.players
        a = seats.active
        reach = [0] * 10
        for s, line in enumerate(seats.lines):
            if s != a:
                reach = [r + c for r, c in zip(reach, line)]
        if root is None:
            if pile is None:
                raise ValueError("a search needs the pile or its root state")
            root = TurnState.start(pile, seats.lines[a], reach)
        self.root = root
        self._reach0 = tuple(reach)
        self._next = (a + 1) % n
        self._stop: dict[int, int] = {}  # state key -> row of its stop leaf
        self._bust: dict[int, int] = {}  # key after the busting card -> row of its leaf
        self._rows: list[tuple[Counts, Counts, Counts, bool]] = []  # (pile, active line, reach, busted)
        self._end: dict[tuple[int, bool], float] = {}  # (key, busted) -> value of the game's end (R9)
        self._expanded: set[int] = set()
        self._memo: dict[int, float] = {}
        self._leaf: np.ndarray = np.zeros(0)
        self._expand(root)
        self._evaluate()

    # -- public queries ----------------------------------------------------------------
    def best_value(self, point: TurnState | None = None) -> float:
        """The chance to win at a state where the player may stop or draw: the better (stop on a tie)."""
        return self._best(self._checked(point))

    def stop_value(self, point: TurnState | None = None) -> float:
        point = self._checked(point)
        if not point.line_size:
            raise ValueError("the line is empty: the player must draw (R4)")
        return float(self._leaf[self._stop[point.key]])

    def draw_value(self, point: TurnState | None = None) -> float:
        return self._draw(self._checked(point))

    def takes(self, draw: Draw) -> bool:
        """Whether the player takes the steal a drawn card offers (decline on a tie)."""
        if draw.took is None or draw.kept is None:
            return False
        return beats(self._after(draw.took, False), self._after(draw.kept, False))

    def should_draw(self, point: TurnState | None = None) -> bool:
        point = self._checked(point)
        return not point.line_size or beats(self._draw(point), self.stop_value(point))

    @property
    def states(self) -> int:
        """The states of the turn the search expanded."""
        return len(self._expanded)

    @property
    def turn_starts(self) -> int:
        """The turn starts it valued (stops and busts)."""
        return len(self._rows)

    # -- expansion ---------------------------------------------------------------------
    def _checked(self, point: TurnState | None) -> TurnState:
        point = self.root if point is None else point
        if not point.pile_size:
            raise ValueError("the pile is empty: the game is over (R9)")
        if point.key not in self._expanded:
            drawn = [r - p for r, p in zip(self.root.pile, point.pile)]
            if min(drawn) < 0 or any(r and r != r0 for r, r0 in zip(point.reach, self._reach0)):
                raise ValueError("this state does not follow from the search's root")
            self._expand(point)  # a state the root's draws do not reach (the steal on offer, taken)
            self._evaluate()
        return point

    def _expand(self, root: TurnState) -> None:
        stack = [root]
        while stack:
            point = stack.pop()
            if point.key in self._expanded:
                continue
            self._expanded.add(point.key)
            if point.line_size:
                self._stop[point.key] = len(self._rows)
                self._rows.append((point.pile, point.line, point.reach, False))
            for d in point.draws():
                if d.busts:
                    if d.kept_key not in self._bust and point.pile_size > 1:
                        self._bust[d.kept_key] = len(self._rows)
                        self._rows.append((d.pile, NO_CARDS, point.reach, True))
                    continue
                for after in ((d.kept, d.took) if d.stealable else (d.kept,)):
                    assert after is not None
                    if after.pile_size:
                        stack.append(after)

    def _tables(self, rows: list[tuple[Counts, Counts, Counts, bool]]) -> TableBatch:
        """The turn starts (or game ends) these leaves lead to: the next seat to play with its line banked."""
        seats, n, a, nxt = self.seats, self.seats.players, self.seats.active, self._next
        b = len(rows)
        pile = np.array([r[0] for r in rows], dtype=np.int64).reshape(b, 10)
        mine = np.array([r[1] for r in rows], dtype=np.int64).reshape(b, 10)
        reach = np.array([r[2] for r in rows], dtype=np.int64).reshape(b, 10)
        busted = np.array([r[3] for r in rows], dtype=bool)
        kept = (reach > 0) | (np.array(self._reach0) == 0)[None, :]  # a value the turn stole is gone from all
        lines = np.broadcast_to(np.array(seats.lines, dtype=np.int64), (b, n, 10)).copy()
        lines = lines * kept[:, None, :]
        lines[:, a, :] = mine
        pts = np.broadcast_to(np.array(seats.loot_points, dtype=np.int64), (b, n)).copy()
        cards = np.broadcast_to(np.array(seats.loot_cards, dtype=np.int64), (b, n)).copy()
        lost = np.broadcast_to(np.array(seats.lost, dtype=np.int64), (b, n)).copy()
        lost[:, a] += busted
        return TableBatch(pile, lines, pts, cards, lost, np.full(b, nxt), np.full(b, seats.rounds_left))

    def _evaluate(self) -> None:
        done = len(self._leaf)
        if done == len(self._rows):
            return
        t = self._tables(self._rows[done:])
        nxt = self._next
        t.loot_points[:, nxt] += t.lines[:, nxt, :] @ _VALUE  # R3: the next seat banks its line
        t.loot_cards[:, nxt] += t.lines[:, nxt, :].sum(axis=1)
        t.lines[:, nxt, :] = 0
        chances = np.asarray(self.leaves(t), dtype=np.float64)[:, self.seats.active]
        self._leaf = np.concatenate([self._leaf, chances])

    def _game_end(self, point: TurnState, busted: bool) -> float:
        """R9: the value of the game's end once the pile is out (after ``point``'s line, or a bust)."""
        key = (point.key, busted)
        got = self._end.get(key)
        if got is not None:
            return got
        t = self._tables([(point.pile, NO_CARDS if busted else point.line, point.reach, busted)])
        a = self.seats.active
        if self.seats.rounds_left:
            got = self._next_round(t)
        else:
            pts = t.loot_points[0] + t.lines[0] @ _VALUE
            cards = t.loot_cards[0] + t.lines[0].sum(axis=1)
            got = float(final_winner(list(pts), list(cards), list(t.lost[0])) == a)
        self._end[key] = got
        return got

    def _next_round(self, t: TableBatch) -> float:
        """R15: a round before the match's last ends; the next starts with a fresh deck and every line banked.
        Its first seat is not in the position, so every seat is taken as equally likely."""
        n = self.seats.players
        pts = t.loot_points + np.einsum("bnv,v->bn", t.lines, _VALUE)
        cards = t.loot_cards + t.lines.sum(axis=2)
        starts = TableBatch(np.repeat(np.array([DECK_COPIES], dtype=np.int64), n, axis=0),
                            np.zeros((n, n, 10), dtype=np.int64), np.repeat(pts, n, axis=0),
                            np.repeat(cards, n, axis=0), np.repeat(t.lost, n, axis=0), np.arange(n),
                            np.full(n, self.seats.rounds_left - 1))
        return float(np.asarray(self.leaves(starts))[:, self.seats.active].mean())

    # -- solving -----------------------------------------------------------------------
    def _best(self, point: TurnState) -> float:
        got = self._memo.get(point.key)
        if got is None:
            draw = self._draw(point)
            if point.line_size:
                stop = float(self._leaf[self._stop[point.key]])
                got = draw if beats(draw, stop) else stop
            else:
                got = draw  # R4: an empty line must draw
            self._memo[point.key] = got
        return got

    def _after(self, point: TurnState, busted: bool) -> float:
        return self._best(point) if point.pile_size else self._game_end(point, busted)

    def _draw(self, point: TurnState) -> float:
        total = 0.0
        for d in point.draws():
            if d.busts:
                if point.pile_size > 1:
                    value = float(self._leaf[self._bust[d.kept_key]])
                else:  # R9 after R6: the bust drew the pile's last card
                    value = self._game_end(point._replace(pile=d.pile, pile_size=0, key=d.kept_key), True)
            else:
                kept = d.kept
                assert kept is not None
                value = self._after(kept, False)
                if d.stealable:
                    took = d.took
                    assert took is not None
                    other = self._after(took, False)
                    if beats(other, value):
                        value = other
            total += d.cards * value
        return total / point.pile_size


# The values are kept in VALUES order (index i for value i + 1), as everywhere.
assert tuple(int(v) for v in _VALUE) == tuple(VALUES)


def evaluator_leaves(evaluator: Evaluator) -> Leaves:
    """The learned evaluator as the search's leaf values (the numpy reference path)."""
    return lambda t: evaluator.by_seat(t.pile, t.lines, t.loot_points, t.loot_cards, t.lost, t.to_play,
                                       t.rounds_left)


class CompiledSearch:
    """The same search as :class:`TurnSearch` with the learned evaluator at its leaves, compiled
    (:func:`solver.models.kernel._win`): the model's speed path, checked against :class:`TurnSearch`.

    The evaluator's first layer is linear in the cards, so the search keeps it along its path and adds
    only the standings (:func:`solver.models.kernel._turn_start`) and, for a network that reads it, the
    lines' exposure (:func:`solver.models.kernel._exposure_into`: at a stop with the mover's line, from
    ``_turn_start``; at a bust without it, less the busting card, from ``_win``) at a leaf. The memo is
    shared by every question about the turn.
    """

    def __init__(self, seats: Seats, evaluator: Evaluator, pile: Counts | None = None,
                 root: TurnState | None = None) -> None:
        from solver.models import kernel

        self._k = kernel
        n, a = seats.players, seats.active
        self.seats = seats
        w1, b1, w2, b2 = evaluator.network(n)
        self._net = (w1, b1, w2, b2)
        reach = np.zeros(10, np.int64)
        for s, line in enumerate(seats.lines):
            if s != a:
                reach += np.array(line, np.int64)
        if root is None:
            if pile is None:
                raise ValueError("a search needs the pile or its root state")
            root = TurnState.start(pile, seats.lines[a], tuple(int(r) for r in reach))
        self.root = root
        self._reach0 = reach
        self._lines0 = np.array(seats.lines, np.int64)
        self._nxt = (a + 1) % n
        nxt = self._nxt
        # The first layer's affine part at the leaves: a base table (the root's pile, an empty active line,
        # nothing stolen, no bust; the next seat's line banked), and what one card changes (exact differences:
        # every input but the standings is affine in the cards).
        std = np.array([k * kernel.SEAT_FEATURES + 5 for k in range(n)])
        width = evaluator.inputs(n)
        base_exp = kernel.SEAT_FEATURES * n + kernel.SHARED_FEATURES  # the exposure inputs, if the network reads them
        exp = np.array([base_exp + kernel.EXPOSURE_FEATURES * k for k in range(n)] if width > base_exp else [-1])
        leaf = np.concatenate([std, np.arange(base_exp, width)])  # the inputs added at the leaves

        def x_of(pile_: np.ndarray, mine: np.ndarray, gone: np.ndarray, busted: int) -> np.ndarray:
            lines = self._lines0 * (1 - gone)[None, :]
            lines[a] = mine
            pts = np.array(seats.loot_points, np.int64)
            cards = np.array(seats.loot_cards, np.int64)
            lost = np.array(seats.lost, np.int64)
            lost[a] += busted
            pts[nxt] += int(lines[nxt] @ np.arange(1, 11))
            cards[nxt] += int(lines[nxt].sum())
            lines[nxt] = 0
            x = np.zeros(width)
            kernel.features_into(x, pile_, lines, pts, cards, lost, nxt, seats.rounds_left, n)
            x[leaf] = 0.0
            return x

        pile0 = np.array(root.pile, np.int64)
        zero = np.zeros(10, np.int64)
        base = x_of(pile0, zero, zero, 0)
        unit = np.eye(10, dtype=np.int64)
        self._h0 = base @ w1 + b1
        self._dp = np.array([(x_of(pile0 - unit[i], zero, zero, 0) - base) @ w1 for i in range(10)])
        self._dl = np.array([(x_of(pile0, unit[i], zero, 0) - base) @ w1 for i in range(10)])
        self._ds = np.array([(x_of(pile0, zero, unit[i], 0) - base) @ w1 for i in range(10)])
        self._db = (x_of(pile0, zero, zero, 1) - base) @ w1
        self._std = np.ascontiguousarray(std, dtype=np.int64)
        self._exp = np.ascontiguousarray(exp, dtype=np.int64)
        depth = root.pile_size + 2
        hidden = w1.shape[1]
        self._hp = np.zeros((depth, hidden))
        self._hl = np.zeros((depth, hidden))
        self._hs = np.zeros((depth, hidden))
        self._scratch = (np.zeros(hidden), np.zeros(w2.shape[1]), np.zeros(n),
                         np.zeros(width))
        self._deck = np.array(DECK_COPIES, np.int64)
        self._loots = (np.array(seats.loot_points, np.int64), np.array(seats.loot_cards, np.int64),
                       np.array(seats.lost, np.int64))
        self._table = kernel.new_table(17)

    def best_value(self, point: TurnState | None = None) -> float:
        return self._ask(point, 0)

    def draw_value(self, point: TurnState | None = None) -> float:
        return self._ask(point, 1)

    def stop_value(self, point: TurnState | None = None) -> float:
        point = self.root if point is None else point
        if not point.line_size:
            raise ValueError("the line is empty: the player must draw (R4)")
        return self._ask(point, 2)

    def takes(self, draw: Draw) -> bool:
        if draw.took is None or draw.kept is None:
            return False
        return beats(self._after(draw.took), self._after(draw.kept))

    def should_draw(self, point: TurnState | None = None) -> bool:
        point = self.root if point is None else point
        return not point.line_size or beats(self.draw_value(point), self.stop_value(point))

    def _after(self, point: TurnState) -> float:
        if point.pile_size:
            return self.best_value(point)
        raise ValueError("the pile is empty: the game is over (R9)")

    def _ask(self, point: TurnState | None, want: int) -> float:
        k = self._k
        point = self.root if point is None else point
        if not point.pile_size:
            raise ValueError("the pile is empty: the game is over (R9)")
        root = self.root
        drawn = np.array(root.pile, np.int64) - np.array(point.pile, np.int64)
        reach = np.array(point.reach, np.int64)
        gone = ((self._reach0 > 0) & (reach == 0)).astype(np.int64)
        if (drawn < 0).any() or ((reach != 0) & (reach != self._reach0)).any():
            raise ValueError("this state does not follow from the search's root")
        seats, a, n = self.seats, self.seats.active, self.seats.players
        line = np.array(point.line, np.int64)
        stolen = int(sum(1 << i for i in range(10) if gone[i]))
        hp = self._h0 + drawn @ self._dp + gone @ self._ds
        hl = line @ self._dl
        self._hp[0] = hp
        self._hl[0] = hl
        lines = self._lines0 * (1 - gone)[None, :]
        tot = np.array(seats.loot_points, np.float64) + lines @ np.arange(1, 11)
        tot[a] = seats.loot_points[a] + point.line_value
        ocards = lines.sum(axis=1)
        w1, b1, w2, b2 = self._net
        hbuf, z, out, x = self._scratch
        while True:
            tk, ts, tv, _rows, meta = self._table
            value = float(k._win(np.array(point.pile, np.int64), line.copy(), np.int64(point.line_size),
                            np.int64(point.line_value), np.int64(stolen), np.int64(0), np.int64(want),
                            self._reach0, self._lines0, tot, ocards, np.int64(a), np.int64(self._nxt), np.int64(n),
                            *self._loots, np.int64(seats.rounds_left), self._deck, self._hp,
                            self._hl, self._hs, self._dp, self._dl, self._ds, self._db, w1, b1, w2, b2, self._std, hbuf, z,
                            out, x, tk, ts, tv, meta, self._exp))
            if not meta[k.FULL]:
                return value
            # The memo filled up (a turn of many states): values are right but unremembered, so the
            # search slows down exponentially; again with a table four times the size.
            self._table = k.new_table(int(tk.shape[0]).bit_length() + 1)
