"""When should you stop? Simple rules scored exactly against the optimal `turn` policy.

Every turn start is unrolled once into its *decision graph*: each state the
player can reach after a draw (steals always taken, as a simple rule would),
with the features a person can see at the table (line value, cards held,
cards drawn, bust chance) and the optimal action there. A rule is a yes/no
"draw again?" over those features. Its exact value is a DP over its own
choices on the graph (integer arithmetic, as in :mod:`solver.models.turn`), and so
is how often it agrees with the optimal action (per decision it meets, each
weighted by the chance of meeting it). Parameter searches run the same DP
vectorised over float64 first, then the winners are evaluated exactly.

>>> from solver.game.cards import DECK_COPIES
>>> g = DecisionGraph.build(DECK_COPIES)
>>> g.value(lambda f: f.drawn < 3)    # "draw exactly three cards"
Fraction(89, 6)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.game.cards import DECK_COPIES, Counts
from solver.game.core import BUST_THRESHOLD, NO_CARDS, Draw, TurnState, max_draws
from solver.game.position import Position
from solver.game.rules import Game, Phase
from solver.play.simple_rules import (RULE_FAMILIES, STEAL_POINTS, Features, Rule, RuleFamily, StealOffer, StealRule,
                                      always_take, steal_rule, steal_statement)
from solver.play.simulate import TurnPolicy, position_of
from solver.utilities.numbers import exact
from solver.models.turn import TurnSolver

__all__ = [
    "DecisionGraph",
    "RuleScore",
    "decision_boundary",
    "score_rules",
    "study_starts",
    "thresholds",
]



#: An edge of the decision graph: (count, take child, decline child, the steal offered, optimal: take?).
Edge = tuple[int, int, int, StealOffer | None, bool]


class DecisionGraph:
    """Every decision point of one turn from a start, with features and the optimal action.

    An edge is a drawn value: ``(count, take, decline, offer)``; ``take`` is the
    node reached (after the steal, if any; -1 for a bust), ``decline`` the node
    reached by declining (-2 when there is no choice: with three cards down a
    steal is always worth taking, see :mod:`solver.models.turn`), ``offer`` what the
    steal is, with the optimal choice.
    """

    def __init__(self) -> None:
        self.features: list[Features] = []
        self.piles: list[Counts] = []
        self.optimal_draw: list[bool] = []
        self.edges: list[list[Edge]] = []
        self.root_edges: list[Edge] = []
        self.root_pile = 0
        self.optimal_value: Fraction = Fraction(0)

    @classmethod
    def build(cls, pile: Counts, others: Counts = NO_CARDS) -> DecisionGraph:
        """Unroll the turn that starts (empty line, must draw) with this pile and these steals in reach."""
        g = cls()
        root = TurnState.start(pile, NO_CARDS, others)
        solver = TurnSolver(root)
        g.optimal_value = exact(solver.draw_value())
        g.root_pile = root.pile_size
        index: dict[int, int] = {}

        def visit(p: TurnState) -> int:
            key = p.key
            if key in index:
                return index[key]
            draws = p.draws()
            gain = sum(d.cards * ((d.took or d.kept).line_value - p.line_value) for d in draws if d.kept)
            node = len(g.features)
            index[key] = node
            g.features.append(Features(p.line_value, p.line_size, root.pile_size - p.pile_size, p.pile_size,
                                       p.bust_cards, gain))
            g.piles.append(p.pile)
            g.optimal_draw.append(p.pile_size > 0 and solver.should_draw(p))
            g.edges.append([])
            g.edges[node] = expand(draws) if p.pile_size else []
            return node

        def expand(draws: list[Draw]) -> list[Edge]:
            out: list[Edge] = []
            for d in draws:
                if d.kept is None:
                    out.append((d.cards, -1, -2, None, True))  # R5: bust
                elif d.took is None:
                    out.append((d.cards, visit(d.kept), -2, None, True))
                elif d.free_steal:  # always taken (solver.game.core's proof)
                    out.append((d.cards, visit(d.took), -2, None, True))
                else:
                    offer = StealOffer(d.kept.line_size, d.took.line_value - d.kept.line_value)
                    out.append((d.cards, visit(d.took), visit(d.kept), offer, solver.takes(d)))
            return out

        g.root_edges = expand(root.draws())
        g._arrays()
        return g

    # -- exact evaluation --------------------------------------------------------
    def evaluate(self, rule: Rule, steal: StealRule = always_take) -> tuple[Fraction, Fraction]:
        """Exact (value, agreement): the rule's expected haul, and the chance-weighted
        share of the decisions it meets (stop/draw and steals) where it does what
        the optimal policy does."""
        n0 = self.root_pile
        floor = n0 - max_draws(n0, 0, 0)
        scale = [1] * (n0 + 1)
        for m in range(floor + 1, n0 + 1):
            scale[m] = scale[m - 1] * m
        value = [0] * len(self.features)
        agree = [0] * len(self.features)
        meet = [0] * len(self.features)

        def draw_sums(edges: list[Edge], n: int) -> tuple[int, int, int]:
            v = a = m = 0
            for c, take, decline, offer, best in edges:
                child, same, met = take, 0, 0
                if decline != -2:
                    assert offer is not None
                    took = bool(steal(offer))
                    child = take if took else decline
                    met = scale[n - 1]
                    same = met if took == best else 0
                if child >= 0:
                    v += c * value[child]
                    a += c * (agree[child] + same)
                    m += c * (meet[child] + met)
            return v, a, m

        for node in self._order:  # children before parents
            f = self.features[node]
            if f.pile == 0:
                value[node] = f.line_value  # R9: the pile ran out
                continue
            draw = bool(rule(f))
            same = scale[f.pile] if draw == self.optimal_draw[node] else 0
            if draw:
                v, a, m = draw_sums(self.edges[node], f.pile)
                value[node], agree[node], meet[node] = v, same + a, scale[f.pile] + m
            else:
                value[node], agree[node], meet[node] = f.line_value * scale[f.pile], same, scale[f.pile]
        v, a, m = draw_sums(self.root_edges, n0)
        return Fraction(v, scale[n0]), (Fraction(a, m) if m else Fraction(1))

    def value(self, rule: Rule, steal: StealRule = always_take) -> Fraction:
        return self.evaluate(rule, steal)[0]

    # -- fast float evaluation for parameter searches -----------------------------
    def _arrays(self) -> None:
        order = sorted(range(len(self.features)), key=lambda i: self.features[i].pile)
        self._order = order
        f = self.features
        self.arr: dict[str, np.ndarray] = {
            "line_value": np.array([x.line_value for x in f], dtype=np.float64),
            "cards": np.array([x.cards for x in f], dtype=np.int64),
            "drawn": np.array([x.drawn for x in f], dtype=np.int64),
            "pile": np.array([x.pile for x in f], dtype=np.int64),
            "bust_chance": np.array([float(x.bust_chance) for x in f]),
            "lookahead": np.array([x.lookahead_draws for x in f], dtype=bool),
        }
        # Levels by pile size: children always sit one level below their parent.
        self._levels = []
        piles = self.arr["pile"]
        for n in sorted({x.pile for x in f if x.pile > 0}):
            nodes = np.flatnonzero(piles == n)
            edges = [(j, e) for j, node in enumerate(nodes) for e in self.edges[node]]
            self._levels.append((n, nodes, _edge_arrays(edges)))
        self._root = _edge_arrays([(0, e) for e in self.root_edges])

    def fast_value(self, draw: np.ndarray, steal_points: float = 0.0) -> float:
        """Float value of a policy: a draw-or-not array over the nodes, and
        'take a steal if three cards are down or it is worth ``steal_points``'."""
        v = self.arr["line_value"].copy()
        for n, nodes, (parent, take, decline, count, cards, points) in self._levels:
            child = np.where((decline < 0) | (cards >= BUST_THRESHOLD) | (points >= steal_points), take, decline)
            vals = np.where(child >= 0, v[np.maximum(child, 0)], 0.0)
            sums = np.bincount(parent, weights=count * vals, minlength=len(nodes)) / n
            v[nodes] = np.where(draw[nodes], sums, v[nodes])
        parent, take, decline, count, cards, points = self._root
        child = np.where((decline < 0) | (cards >= BUST_THRESHOLD) | (points >= steal_points), take, decline)
        vals = np.where(child >= 0, v[np.maximum(child, 0)], 0.0)
        return float((count * vals).sum() / self.root_pile)


def _edge_arrays(edges: list[tuple[int, Edge]]) -> tuple[np.ndarray, ...]:
    """Edges as arrays: local parent, take child, decline child, count, cards and points of the steal."""
    parent = np.array([j for j, _ in edges], dtype=np.int64)
    take = np.array([e[1] for _, e in edges], dtype=np.int64)
    decline = np.array([e[2] for _, e in edges], dtype=np.int64)
    count = np.array([e[0] for _, e in edges], dtype=np.float64)
    cards = np.array([e[3].cards if e[3] else BUST_THRESHOLD for _, e in edges], dtype=np.int64)
    points = np.array([e[3].points if e[3] else 0 for _, e in edges], dtype=np.float64)
    return parent, take, decline, count, cards, points


@dataclass(frozen=True)
class RuleScore:
    """A simple rule's exact score over the study's turn starts."""

    family: str
    params: tuple[Any, ...]  # the family's, then the steal threshold
    statement: str
    value: Fraction  # mean expected points per turn
    optimal: Fraction  # the optimal policy's, same starts
    agreement: Fraction  # mean share of decisions met where it matches the optimum

    @property
    def loss(self) -> Fraction:
        return self.optimal - self.value


def study_starts(count: int, seed: int = 2026) -> list[tuple[Counts, Counts]]:
    """Turn starts: the fresh deck, then ``count - 1`` starts met in simulated 2–5 player games
    (players following the optimal `turn` policy); each as (pile, steals in reach)."""
    starts: list[tuple[Counts, Counts]] = [(DECK_COPIES, (0,) * 10)]
    rng = random.Random(seed)
    policy = TurnPolicy()
    while len(starts) < count:
        game = Game(rng.randint(2, 5), seed=rng.randrange(2**63))
        keep = rng.randrange(3, 25)
        turns = 0
        while not game.is_over:
            if game.phase is Phase.MUST_DRAW:
                turns += 1
                if turns == keep:
                    pos = position_of(game)
                    starts.append((pos.pile(), pos.others()))
                    break
            game.apply(policy(game))
    return starts


def _coordinate_search(axes: Sequence[list[Any]], score: Callable[[tuple[Any, ...]], float]) -> tuple[Any, ...]:
    """Best parameters by coordinate ascent from the middle of each axis
    (exhaustive for one parameter; a local optimum for more)."""
    best = tuple(axis[len(axis) // 2] for axis in axes)
    best_score = score(best)
    for _ in range(4):
        improved = False
        for k, axis in enumerate(axes):
            for x in axis:
                trial = best[:k] + (x,) + best[k + 1:]
                got = score(trial)
                if got > best_score + 1e-12:
                    best, best_score, improved = trial, got, True
        if not improved:
            break
    return best


def score_rules(starts: Sequence[tuple[Counts, Counts]], families: Sequence[RuleFamily] = tuple(RULE_FAMILIES)
                ) -> list[RuleScore]:
    """Each family's best parameters and steal threshold (searched in float,
    then scored exactly), best first."""
    graphs = [DecisionGraph.build(p, o) for p, o in starts]
    optimal = sum((g.optimal_value for g in graphs), Fraction(0)) / len(graphs)
    out = []
    for fam in families:
        def total(params: tuple[Any, ...], points: float = 0.0) -> float:
            return sum(g.fast_value(fam.vector(*params)(g.arr), points) for g in graphs)

        best = _coordinate_search(fam.axes, total)
        points = max(STEAL_POINTS, key=lambda x: (total(best, x), -x))
        results = [g.evaluate(fam.rule(*best), steal_rule(points)) for g in graphs]
        value = sum((v for v, _ in results), Fraction(0)) / len(graphs)
        agreement = sum((a for _, a in results), Fraction(0)) / len(graphs)
        shown = tuple(f"{float(p):.0%}" if isinstance(p, Fraction) else p for p in best)
        statement = f"{fam.statement.format(*shown)} {steal_statement(points)}"
        out.append(RuleScore(fam.name, (*best, points), statement, value, optimal, agreement))
    return sorted(out, key=lambda s: -s.value)


def thresholds(positions: Sequence[tuple[Position, bool]]) -> list[dict[str, Any]]:
    """Threshold chart rows from solved positions with no steal in reach.

    ``positions`` pairs a decision point with whether the optimal policy draws
    there. Per (pile size, cards held) the threshold is the lowest line value
    where it stops, if it draws below that and stops at and above; otherwise
    the row says no single threshold describes it.

    >>> from solver.game.position import PlayerView
    >>> def at(line):
    ...     return Position.build((PlayerView(tuple(line)), PlayerView()), 0)
    >>> [r["threshold"] for r in thresholds([(at([1, 2, 3]), True), (at([9, 9, 8]), False)])]
    [26]
    >>> thresholds([(at([1, 2, 3]), False), (at([9, 9, 8]), True)])[0]["single_threshold"]
    False
    """
    groups: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
    for pos, draws in positions:
        key = (pos.pile_size(), len(pos.line))
        stops_draws = groups.setdefault(key, ([], []))
        stops_draws[1 if draws else 0].append(sum(pos.line))
    rows = []
    for (pile, cards), (stops, drawn) in sorted(groups.items(), reverse=True):
        lo_stop = min(stops) if stops else None
        hi_draw = max(drawn) if drawn else None
        single = lo_stop is None or hi_draw is None or hi_draw < lo_stop
        rows.append({"pile_size": pile, "cards_held": cards, "positions": len(stops) + len(drawn),
                     "threshold": lo_stop if single else None, "single_threshold": single,
                     "highest_draw": hi_draw, "lowest_stop": lo_stop})
    return rows


def decision_boundary(rows: Sequence[tuple[float, int, bool]], bins: int = 10) -> list[dict[str, float]]:
    """Where the optimal policy switches from draw to stop, per bust-chance bin.

    ``rows`` are (bust chance, line value, draws?) of positions with three or
    more cards. Per bin, the boundary is the line value that best separates
    draws (below) from stops (at or above), counting the positions it gets
    wrong; ``errors`` says how many, so a fuzzy boundary is not hidden.

    >>> decision_boundary([(0.2, 10, True), (0.2, 30, False), (0.25, 20, True)], bins=2)
    [{'bust_from': 0.0, 'bust_to': 0.5, 'boundary': 30.0, 'positions': 3, 'errors': 0}]
    """
    by_bin: dict[int, list[tuple[int, bool]]] = {}
    for chance, value, draws in rows:
        by_bin.setdefault(min(int(chance * bins), bins - 1), []).append((value, draws))
    out = []
    for b in sorted(by_bin):
        pts = sorted(by_bin[b])
        values = sorted({v for v, _ in pts} | {max(v for v, _ in pts) + 1})
        best_t, best_err = values[0], len(pts) + 1
        for t in values:
            err = sum(1 for v, d in pts if (v < t) != d)
            if err < best_err:
                best_t, best_err = t, err
        out.append({"bust_from": b / bins, "bust_to": (b + 1) / bins, "boundary": float(best_t),
                    "positions": len(pts), "errors": best_err})
    return out
