"""The count of what `win`'s root needs with foresight of every choice, and with Star1's bounds (bench.foresight,
a measurement): the root's chance from the chosen branches alone is the solver's, and reads no state outside
the standings it was asked; what it counts is part of what the solver solved, foresight's of the bounds'."""

from __future__ import annotations

import pytest

from bench.speed import endgame
from bench.foresight import foresight, policy_chance


@pytest.mark.parametrize("size,deal", [(4, 1), (6, 1), (6, 3), (8, 1), (8, 2), (8, 4), (10, 1), (10, 3)])
def test_the_chosen_branches_alone_give_the_roots_chance(size, deal):
    asked = foresight(endgame(size, deal))
    assert policy_chance(asked) == pytest.approx(asked.chance, abs=1e-12)
    assert 0 < asked.states <= asked.solver.states and 0 < asked.steps <= asked.solver.steps
    bounded = foresight(endgame(size, deal), bounded=True, solved=asked)  # Star1's bounds rule out less, and never a choice
    assert policy_chance(bounded) == pytest.approx(bounded.chance, abs=1e-12)
    assert asked.states <= bounded.states <= bounded.solver.states and asked.steps <= bounded.steps


def test_a_state_asked_nothing_is_caught():
    asked = foresight(endgame(8, 1))
    asked.asked[:, 0], asked.asked[:, 1] = 1, 0  # as if nothing had been asked, the root included
    with pytest.raises(AssertionError, match="outside the standings asked of them"):
        policy_chance(asked)
