"""`win` searched by standing with Star1 pruning: a measurement of an avenue for close endgames.

`win`'s compiled path (:mod:`solver.models.endgame`) solves each state once for every standing in reach, as a
step function. The other way is the exact path's: a value per state *and* standing. That search can be
pruned, as expectimax's Star1 does (Ballard 1983): each state is asked only whether its chance lies
inside a window (alpha, beta) that its parent needs, a draw stops as soon as the children seen so far,
with the unseen ones bounded by 0 and 1, put it outside, and the memo keeps bounds as well as values.
The root's stop and draw are still exact. A choice tries drawing first (stopping first prunes little).

This module is a measurement, not a model: ``python -m bench.speed --win-pruning`` counts the draws each
search expands (pruned and not) against the compiled path's states and steps. Floats, as the comparison
is of work, not of exactness; the tests check it against the exact path.

>>> from bench.speed import endgame
>>> stop, draw, pruned = root_chances(endgame(6, 1), prune=True)
>>> round(stop, 12), round(draw, 12), pruned < root_chances(endgame(6, 1), prune=False)[2]
(0.0, 0.6, True)
"""

from __future__ import annotations

from solver.game.cards import Counts
from solver.game.core import NO_CARDS, TurnState
from solver.game.position import Position
# The search keys its memo as `win` does (win.memo_key), so that it counts the same draws.
from solver.models.win import Standing, memo_key, standing, wins

__all__ = ["PrunedWin", "root_chances"]

_ALL = (-float("inf"), float("inf"))


class PrunedWin:
    """The chance to win at states of a two-player game, by standing, with (``prune``) or without Star1.

    Every method returns the chance ``v`` of its state for the window (``a``, ``b``) asked: exact if it
    lies inside, else a bound on the side it falls (``v <= a``: at most ``v``; ``v >= b``: at least)."""

    def __init__(self, prune: bool) -> None:
        self.prune = prune
        self.memo: dict[tuple[int, ...], tuple[float, float]] = {}  # what is known: at least, at most
        self.expanded = 0  # draws expanded: the work

    def _window(self, a: float, b: float) -> tuple[float, float]:
        return (a, b) if self.prune else _ALL

    def _known(self, key: tuple[int, ...], a: float, b: float) -> tuple[float | None, float, float]:
        # A value the memo settles for this window, or the window narrowed by its bounds.
        got = self.memo.get(key)
        if got is None:
            return None, a, b
        lo, hi = got
        if lo == hi or hi <= a:
            return hi, a, b
        if lo >= b:
            return lo, a, b
        return None, max(a, lo), min(b, hi)

    def _keep(self, key: tuple[int, ...], v: float, a: float, b: float) -> None:
        lo, hi = self.memo.get(key, (0.0, 1.0))
        if v <= a:
            hi = min(hi, v)
        elif v >= b:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.memo[key] = (lo, hi)

    def start(self, pile: Counts, other: Counts, s: Standing, a: float, b: float) -> float:
        """The mover's turn start (its line banked into ``s``; ``other`` the line in its reach)."""
        a, b = self._window(a, b)
        key = (0, *memo_key(pile, None, other, s))
        got, a, b = self._known(key, a, b)
        if got is not None:
            return got
        v = self.draw(TurnState.start(pile, NO_CARDS, other), s, a, b)
        self._keep(key, v, a, b)
        return v

    def choice(self, state: TurnState, s: Standing, a: float, b: float) -> float:
        """A state where the mover may stop or draw: the better (drawing tried first)."""
        if state.pile_size == 0:
            return float(wins(s, state.line, state.reach))  # R9
        a, b = self._window(a, b)
        key = (1, *memo_key(state.pile, state.line, state.reach, s))
        got, a, b = self._known(key, a, b)
        if got is not None:
            return got
        best = self.draw(state, s, a, b)
        if best < b:
            best = max(best, self.stop(state, s, max(a, best), b))
        self._keep(key, best, a, b)
        return best

    def stop(self, state: TurnState, s: Standing, a: float, b: float) -> float:
        """Stopping: the other banks its line and plays (R3); we win when it does not."""
        return 1.0 - self.start(state.pile, state.line, s.handed_over(state.reach), 1.0 - b, 1.0 - a)

    def draw(self, state: TurnState, s: Standing, a: float, b: float) -> float:
        """Drawing: each value's chance times its state's, cut off once the window is settled (Star1)."""
        self.expanded += 1
        n = state.pile_size
        done, unseen = 0.0, 1.0  # the weighted chances of the children seen, the weight of the rest
        for d in state.draws():
            p = d.cards / n
            unseen -= p
            # This child's window: where, the others unseen at 0 or at 1, the draw is still in (a, b).
            ca, cb = ((a - done - unseen) / p, (b - done) / p) if self.prune else _ALL
            if d.busts:  # R5, R6; R9 if that was the last card
                if n == 1:
                    v = float(wins(s._replace(lost=s.lost + 1), NO_CARDS, state.reach))
                else:
                    v = 1.0 - self.start(d.pile, NO_CARDS, s.handed_over(state.reach, lost=1), 1.0 - cb, 1.0 - ca)
            else:
                kept = state.drawn(d.value)
                v = self.choice(kept, s, ca, cb)
                if d.stealable and v < cb:  # R7: the steal on offer, the mover's choice
                    v = max(v, self.choice(kept.stolen(d.value), s, max(ca, v), cb))
            if v <= ca:
                return done + p * v + unseen  # at most this
            if v >= cb:
                return done + p * v  # at least this
            done += p * v
        return done


def root_chances(position: Position, prune: bool) -> tuple[float, float, int]:
    """The chance to win of stopping and of drawing at a two-player position (no steal on offer, a card
    in the line), both exact, and the draws the search expanded."""
    search = PrunedWin(prune)
    root, s = position.turn_state(), standing(position)
    return search.stop(root, s, *_ALL), search.draw(root, s, *_ALL), search.expanded
