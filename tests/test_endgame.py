"""The compiled `duel` and `win` (solver.models.endgame) against their exact paths, and their refusals; `win`'s
chance functions (one per state, over the standings within reach of the root's) against the exact chance
from every standing."""

from __future__ import annotations

import random

import pytest

from solver.models.win import ESTIMATE
from hypothesis import example, given, settings
from hypothesis import strategies as st

from solver.models.advice import Budget, SlowModel, TooLarge
from bench.speed import endgame
from solver.game.cards import DECK_COPIES, cards_of, counts
from solver.models.endgame import CHOICE, DRAW, DUEL_MODE, MAX_PILE, STOP, WIN_MODE, EndgameSolver
from solver.models.win import Standing, WinSolver, standing
from solver.models import advise
from solver.game.position import Position, PositionError
from solver.game.rules import MatchSoFar, Totals
from test_win import table


def _endgames(draw: st.DrawFn, most: int = 7):
    """A random two-player endgame: 1 to 7 cards in the pile, lines of up to four cards, loots close
    enough for `win` to be in doubt, lost turns, either seat to play, and a steal on offer when the
    last card of the mover's line offers one."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = cards_of(DECK_COPIES)
    rng.shuffle(deck)
    n = draw(st.integers(1, most))
    pile, rest = deck[:n], deck[n:]
    lines = ([rest.pop() for _ in range(draw(st.integers(0, 4)))], [rest.pop() for _ in range(draw(st.integers(0, 4)))])
    loots: tuple[list[int], list[int]] = ([], [])
    for v in rest[: draw(st.integers(0, 40))]:
        loots[0 if sum(loots[0]) <= sum(loots[1]) else 1].append(v)
    active = draw(st.integers(0, 1))
    mine = lines[active]
    offer = mine[-1] if mine and mine[-1] in lines[1 - active] else None
    try:
        return table(pile, lines, loots, (draw(st.integers(0, 2)), draw(st.integers(0, 2))), active, offer)
    except PositionError:  # a line of four with a repeated value, say: a table Hit! never shows
        return table(pile, ([], []), loots)


@settings(max_examples=40, deadline=None)
@given(st.composite(_endgames)())
@pytest.mark.parametrize("model", ["duel", "win"])
def test_compiled_equals_exact(model, pos):
    exact, fast = advise(pos, model, exact=True), advise(pos, model, exact=False)
    assert fast.draw == pytest.approx(float(exact.draw), abs=1e-9)
    assert (fast.stop is None) == (exact.stop is None)
    if exact.stop is not None:
        assert fast.stop == pytest.approx(float(exact.stop), abs=1e-9)
    assert (fast.steal is None) == (exact.steal is None)
    if exact.steal is not None:
        assert fast.steal.take == pytest.approx(float(exact.steal.take), abs=1e-9)
        assert fast.steal.decline == pytest.approx(float(exact.steal.decline), abs=1e-9)
        assert fast.steal.action is exact.steal.action  # exact ties stay ties (solver.models.advice.beats)
    assert fast.action is exact.action


@pytest.mark.parametrize("model", ["duel", "win"])
def test_compiled_reaches_past_the_exact_paths_limit(model):
    pos = endgame(14, 2)  # docs/PERFORMANCE.md's 14-card endgame (seed 2)
    with pytest.raises(TooLarge, match="up to 12 cards"):
        exact_of(model)(pos)
    a = advise(pos, "duel", exact=False) if model == "duel" else None
    if a is not None:  # the answer is a whole turn's: the same from a memo rebuilt larger along the way
        small = EndgameSolver(DUEL_MODE, pos.pile(), max_log2=26)
        small.log2 = 12
        small._new_table()
        p = pos.turn_state()
        assert small.value(CHOICE, p.pile, p.line, p.reach) == pytest.approx(max(a.draw, a.stop), abs=1e-9)
        assert small.log2 > 12  # it did grow


def test_win_grows_its_memo_and_pool_and_answers_the_same():
    """A memo and a pool of steps far too small for a 10-card endgame: both are grown (the states stored
    are kept) and the solve run again, to the same chance. (A full pool once left every state unstored,
    a search of the whole game tree.)"""
    pos = endgame(10, 1)
    p = pos.turn_state()
    whole = EndgameSolver(WIN_MODE, pos.pile(), standing(pos))
    small = EndgameSolver(WIN_MODE, pos.pile(), standing(pos))
    small.log2, small.steps_log2 = 12, 10
    small._new_table()
    small._new_pool()
    for kind in (CHOICE, STOP, DRAW):
        assert small.value(kind, p.pile, p.line, p.reach) == pytest.approx(whole.value(kind, p.pile, p.line, p.reach),
                                                                           abs=1e-12)
    assert small.log2 > 12 and small.steps_log2 > 10


def test_refusals_say_why():
    pile = counts(cards_of(DECK_COPIES)[: MAX_PILE + 1])
    with pytest.raises(TooLarge, match=f"duel solves piles of up to {MAX_PILE} cards; this pile has {MAX_PILE + 1}"):
        EndgameSolver(DUEL_MODE, pile)
    pos = endgame(12, 1)
    p = pos.turn_state()
    with pytest.raises(TooLarge, match=r"win gave up on this 12-card pile: its memo of 4,096 positions"):
        EndgameSolver(WIN_MODE, pos.pile(), max_log2=12).value(CHOICE, p.pile, p.line, p.reach)
    with pytest.raises(SlowModel, match=r"duel needs more than 0\.001 s for this 12-card pile"):
        advise(pos, "duel", exact=False, budget=Budget(0.001))
    for model in ("duel", "win"):  # no time at all (the page's limit set to 0): a refusal, not a crash
        with pytest.raises(SlowModel, match=rf"{model} needs more than 0 s for this 12-card pile"):
            exact_of(model)(pos, exact=False, budget=Budget(0))
    # The `win` model itself answers beyond its exact search: with the estimate, and says so.
    assert advise(pos, "win", exact=False, budget=Budget(0)).approximation == ESTIMATE


def exact_of(model):  # type: ignore[no-untyped-def]
    """The exact endgame search of ``model`` (the `win` model answers with an estimate where it does not)."""
    from solver.models.win import WIN
    from solver.utilities.numbers import numbers

    if model == "duel":
        return lambda pos, exact=True, budget=None: advise(pos, "duel", exact=exact, budget=budget)
    return lambda pos, exact=True, budget=None: WIN.exact(pos, numbers(exact), budget)


@settings(max_examples=12, deadline=None)
@given(st.composite(_endgames)(most=4))
@example(table([9, 5], ([5, 1], []), ([], [])))  # a 9 then the last card, a 5: a bust that ends the game (R9)
@example(table([5, 5, 3], ([5, 2, 3], [5]), ([], []), active=0, offer=3))
def test_the_compiled_chance_to_win_is_exact_from_every_standing(pos):
    """The compiled `win` solves each state once, as the chance to win for every standing within reach of
    the root's (a step function over one or two windows). From every standing that can matter here (points
    from one side of what is left to the other, cards and lost turns either way, both seats), it is the
    exact chance: level, close, and decided before the first card."""
    p = pos.turn_state()
    exact = WinSolver(p.pile)
    left = sum(v * (a + b + c) for v, a, b, c in zip(range(1, 11), p.pile, p.line, p.reach))
    for points in range(-left - 1, left + 2):
        for cards in (-2, -1, 0, 1, 2):
            for lost in (-1, 0, 1):
                for low in (False, True):
                    standing = Standing(points, cards, lost, low)
                    chance = exact.value(exact.choice(p, standing), p)
                    got = EndgameSolver(WIN_MODE, p.pile, standing).value(CHOICE, p.pile, p.line, p.reach)
                    assert got == pytest.approx(float(chance), abs=1e-12), standing


def test_win_far_behind_on_cards_in_a_match_keeps_every_standing_in_reach():
    """The windows of standings hold every cards lead a solve can reach: here the earlier round leaves
    seat 0 90 cards behind, and seat 1's 44 dead cards, banked before the first draw, take it 130 behind
    once clamped (past the +-128 the windows once allowed, which read the draw as a sure loss). Seat 0
    wins whatever happens: 265 points in its line against seat 1's 110 and 100 earlier."""
    base = table([10, 10], ([5] * 11 + [6] * 7 + [7] * 7 + [8] * 7 + [9] * 7, [1] * 11 + [2] * 11 + [3] * 11 + [4] * 11),
                 ([], []))
    pos = Position.build(base.players, 0, base.discard, match=MatchSoFar(2, 2, (Totals(0, 0, 0), Totals(100, 90, 0))))
    exact, fast = advise(pos, "win", exact=True), advise(pos, "win", exact=False)
    assert (exact.draw, exact.stop) == (1, 1)
    assert (fast.draw, fast.stop) == (1.0, 1.0)


@pytest.mark.parametrize("size,deal", [(8, 1), (8, 2), (10, 1)])
def test_the_stored_chances_are_step_functions_rising_to_a_sure_win(size, deal):
    """What `python -m bench.speed --win-anatomy` reads: one function for each state in the memo, holding every step in the
    pool; each rises (a bigger lead never hurts: MODELS.md), within 0 and 1, to a sure win past the last
    window. Turn starts are marked as the memo's keys mark them."""
    pos = endgame(size, deal)
    p = pos.turn_state()
    solver = EndgameSolver(WIN_MODE, pos.pile(), standing(pos))
    solver.value(CHOICE, p.pile, p.line, p.reach)
    functions = solver.chance_functions()
    assert len(functions) == solver.states and sum(len(xs) for _, xs, _ in functions) == solver.steps
    for _, xs, vs in functions:
        assert (xs[1:] > xs[:-1]).all() and (vs[1:] >= vs[:-1]).all() and vs[0] > 0 and vs[-1] == 1.0
    starts = sum(start for start, _, _ in functions)
    assert 0 < starts < len(functions)
    assert EndgameSolver(DUEL_MODE, pos.pile()).chance_functions() == []


def test_the_anatomy_bench_reports_the_solvers_counts(capsys):
    from bench.speed import win_anatomy

    pos = endgame(8, 1)
    p = pos.turn_state()
    solver = EndgameSolver(WIN_MODE, pos.pile(), standing(pos))
    solver.value(CHOICE, p.pile, p.line, p.reach)
    win_anatomy(((8, 1),))
    out = capsys.readouterr().out
    assert out.startswith(f"8-card endgame, seed 1: {solver.states:,} states (")
    assert f"{solver.steps:,} steps (" in out and "up to a shift" in out
    from bench.foresight import foresight

    asked, bounded = foresight(pos), foresight(pos, bounded=True)
    assert f"with foresight of every choice {asked.states:,} states" in out
    assert f"with Star1's bounds instead: {bounded.states:,} states" in out
