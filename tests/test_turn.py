"""The `turn` model against known values, a naive reference, brute force and simulation."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import distinct_orders, turn_draw, turn_state
from solver.game.cards import DECK_COPIES, DECK_TOTAL, cards_of, counts
from solver.game.core import TurnState
from solver.models import advise
from solver.utilities.numbers import EXACT, FLOAT
from solver.game.position import PlayerView, Position
from solver.game.rules import Game, Player
from solver.play.simulate import TurnPolicy, game_from_position, play_turn, sample_positions
from solver.models.turn import TurnSolver


def test_fresh_deck_value_matches_models_md():
    # docs/MODELS.md, `turn`: "from a fresh deck ... 9663700139/622614630 ≈ 15.5212".
    assert TurnSolver(TurnState.start(DECK_COPIES)).draw_value() == Fraction(9663700139, 622614630)


def _value_of_drawing_exactly(k: int, pile: tuple[int, ...], line=(0,) * 10) -> Fraction:
    """Exact value of the policy 'draw exactly k cards, never steal' (a DP over its own choices)."""
    if k == 0:
        return Fraction(sum((i + 1) * c for i, c in enumerate(line)))
    n = sum(pile)
    if n == 0:
        return Fraction(sum((i + 1) * c for i, c in enumerate(line)))
    total = Fraction(0)
    for i, c in enumerate(pile):
        if c and not (sum(line) >= 3 and line[i]):
            total += Fraction(c, n) * _value_of_drawing_exactly(
                k - 1, pile[:i] + (c - 1,) + pile[i + 1:], line[:i] + (line[i] + 1,) + line[i + 1:])
    return total


def test_three_card_policy_matches_models_md():
    # docs/MODELS.md: "stopping after exactly three cards is worth 3 × 445/90".
    assert _value_of_drawing_exactly(3, DECK_COPIES) == 3 * Fraction(DECK_TOTAL, 90)
    # ... and the optimum is worth more than that simple rule.
    assert TurnSolver(TurnState.start(DECK_COPIES)).draw_value() > 3 * Fraction(DECK_TOTAL, 90)


def test_hand_computed_tiny_piles():
    # Line 1,2,3; pile {1, 4}: drawing busts half the time, else adds 4 and
    # the last card (a 1 then) busts too, so stop after the 4: 1/2 * 10 = 5 < 6.
    s = TurnSolver(TurnState.start((1, 0, 0, 1, 0, 0, 0, 0, 0, 0), counts([1, 2, 3])))
    assert s.draw_value() == Fraction(5)
    assert s.stop_value() == 6 and not s.should_draw()
    # One card left, no bust possible: drawing ends the game with it (R9).
    s = TurnSolver(TurnState.start((0,) * 9 + (1,), counts([1, 2])))
    assert s.draw_value() == 13




@st.composite
def small_points(draw):
    """A small pile, a line and the opponents' face-up cards, within the deck (no filtering needed)."""
    pile = counts(draw(st.lists(st.integers(1, 10), min_size=1, max_size=7)))
    pile = tuple(min(c, 2) for c in pile)
    line = counts(draw(st.lists(st.integers(1, 10), max_size=5)))
    line = tuple(min(c, 2) for c in line)
    others = draw(st.lists(st.integers(0, 2), min_size=10, max_size=10).map(tuple))
    return pile, line, others


@settings(max_examples=150, deadline=None)
@given(small_points())
def test_fast_exact_path_equals_reference(point):
    pile, line, others = point
    s = TurnSolver(TurnState.start(pile, line, others))
    assert s.draw_value() == turn_draw(pile, line, others)
    assert s.best_value() == turn_state(pile, line, others)


@settings(max_examples=100, deadline=None)
@given(small_points())
def test_float_path_equals_exact_path(point):
    pile, line, others = point
    exact = TurnSolver(TurnState.start(pile, line, others)).draw_value()
    fast = TurnSolver(TurnState.start(pile, line, others), FLOAT).draw_value()
    assert fast == pytest.approx(float(exact), rel=1e-12, abs=1e-12)


def test_float_policy_declines_a_steal_that_ties_exactly():
    # The opponent's first card of a turn in bank's defect of 2026-12-03: a 7 offers
    # the active line's 7, and taking it and declining it are worth 49/2 each.
    root = TurnState.start(counts([1, 2, 2, 7, 9]), counts([]), counts([2, 7, 9]))
    seven = next(d for d in root.draws() if d.value == 7)
    exact = TurnSolver(root).steal_choice(seven)
    assert exact.take == exact.decline and not TurnSolver(root).takes(seven)
    assert not TurnSolver(root, FLOAT).takes(seven)


def test_float_and_exact_agree_on_simulated_positions():
    for pos in sample_positions(60, seed=11):
        a, b = advise(pos, exact=True), advise(pos, exact=False)
        assert b.draw == pytest.approx(float(a.draw), rel=1e-12)
        assert a.action == b.action or math.isclose(float(a.draw), float(a.stop or 0), rel_tol=1e-12)


def _position(line, others_line, pile_cards):
    """A two-player position whose pile is exactly ``pile_cards``: all else is in the loot."""
    used = counts(list(line) + list(others_line) + list(pile_cards))
    loot = cards_of(tuple(d - u for d, u in zip(DECK_COPIES, used)))
    players = (PlayerView(tuple(line), tuple(loot)), PlayerView(tuple(others_line)))
    return Position.build(players, 0)


@pytest.mark.parametrize(
    "line, others_line, pile_cards",
    [
        ((), (), (1, 2, 2, 3, 9, 10)),
        ((4, 4), (4,), (1, 4, 5, 6, 7, 7)),
        ((7,), (7, 7, 2), (7, 2, 3, 3, 8, 1, 5)),
        ((1, 2, 3), (5, 6), (1, 2, 5, 6, 10, 10)),
    ],
)
def test_solver_value_equals_brute_force_over_every_order(line, others_line, pile_cards):
    # Enumerate every order of the pile, play the solver's own policy through
    # the rules engine, and average the haul: the same number, exactly.
    pos = _position(line, others_line, pile_cards)
    expected = advise(pos, exact=True)
    policy = TurnPolicy(EXACT)
    hauls = []
    for order in distinct_orders(list(pile_cards)):
        players = [Player(list(p.line), list(p.loot), p.lost_turns) for p in pos.players]
        game = Game.resume(players, 0, list(reversed(order)), pos.discard)
        hauls.append(play_turn(game, policy))
    mean = Fraction(sum(hauls), len(hauls))
    best = expected.draw if expected.stop is None else max(expected.draw, expected.stop)
    assert mean == best


def test_simulation_mean_within_999_interval():
    # Play the solver's policy from the example position many times
    # in the rules engine; the exact value must lie in the 99.9% interval.
    pos = Position.from_dict({"players": [{"line": [6, 1, 5], "loot": [3, 7, 7]},
                                          {"line": [5, 5], "lost_turns": 1}],
                              "active": 0, "discard": [8, 8, 2], "offer": 5})
    a = advise(pos, exact=True)
    exact_value = max(a.stop, a.draw) if a.steal is None else max(a.steal.take, a.steal.decline)
    rng = random.Random(2026)
    policy = TurnPolicy(root=pos)
    hauls = [play_turn(game_from_position(pos, rng.randrange(2**63)), policy) for _ in range(20000)]
    mean, sd = statistics.fmean(hauls), statistics.stdev(hauls)
    half_width = 3.2905 * sd / math.sqrt(len(hauls))  # two-sided 99.9% normal interval
    assert abs(mean - float(exact_value)) <= half_width


def test_simulation_of_a_fresh_turn_within_999_interval():
    pos = Position.build((PlayerView(), PlayerView(), PlayerView()), 1)
    exact_value = advise(pos, exact=True).draw
    rng = random.Random(7)
    policy = TurnPolicy(root=pos)
    hauls = [play_turn(game_from_position(pos, rng.randrange(2**63)), policy) for _ in range(20000)]
    mean, sd = statistics.fmean(hauls), statistics.stdev(hauls)
    assert abs(mean - float(exact_value)) <= 3.2905 * sd / math.sqrt(len(hauls))


def test_a_point_the_solver_cannot_reach_is_refused():
    # Six 1s and six 2s in one turn from a fresh deck: after three cards every
    # repeat busts (R5), so no such point exists; it must not get a number.
    s = TurnSolver(TurnState.start(DECK_COPIES))
    line = counts([1] * 6 + [2] * 6)
    bad = TurnState.start(tuple(d - c for d, c in zip(DECK_COPIES, line)), line)
    for ask in (s.draw_value, s.best_value, s.should_draw):
        with pytest.raises(ValueError, match="cannot be reached in the turn this solver was built for"):
            ask(bad)
    with pytest.raises(ValueError, match="not a state of this turn"):
        s.draw_value(TurnState.start(DECK_COPIES, counts([4])))  # a 4 in the line but none drawn
    # A reachable later state is answered, and as a fresh solver answers it.
    later = TurnState.start(DECK_COPIES).drawn(6).drawn(1)
    assert s.draw_value(later) == TurnSolver(later).draw_value()


def test_bust_chance_after_the_recommended_steal():
    # The example: holding 3 and 5 with two 5s in reach. Before the
    # steal nothing can bust (two cards); after taking it the line holds four
    # cards, so every 3 and 5 in the pile busts.
    pos = Position.from_dict({"players": [{"line": [3, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5})
    a = advise(pos)
    assert str(a.steal.action) == "steal"
    assert a.bust_probability == 0
    pile = pos.pile()
    assert a.bust_probability_after_steal == Fraction(pile[2] + pile[4], sum(pile)) == Fraction(9, 43)
    out = a.to_dict()
    assert out["bust_probability"] == "0" and out["bust_probability_after_steal"] == "9/43"
    # Declined or no steal: the two figures are the same.
    calm = advise(Position.from_dict({"players": [{"line": [3, 5, 7]}, {"line": [9]}], "active": 0}))
    assert calm.bust_probability_after_steal == calm.bust_probability


@settings(max_examples=60, deadline=None)
@given(small_points())
def test_core_draws_follow_the_rulings(point):
    # The core's chance children against the rulings read directly: counts
    # sum to the pile, R5 decides the busts, R7 takes every card in reach.
    pile, line, others = point
    p = TurnState.start(pile, line, others)
    draws = p.draws()
    assert sum(d.cards for d in draws) == sum(pile)
    for d in draws:
        i = d.value - 1
        assert d.busts == (sum(line) >= 3 and line[i] > 0)
        if d.busts:
            continue
        assert d.kept.line[i] == line[i] + 1 and d.kept.pile[i] == pile[i] - 1
        assert (d.took is None) == (others[i] == 0)
        if d.took is not None:
            assert d.took.line[i] == line[i] + 1 + others[i] and d.took.reach[i] == 0
            assert d.took.line_value == d.kept.line_value + (i + 1) * others[i]
            assert d.free_steal == (sum(line) + 1 >= 3)
