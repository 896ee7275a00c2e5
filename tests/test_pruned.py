"""The Star1 search of `win` (solver.pruned, a measurement): its root chances are the exact path's, and it
expands no more draws than the same search unpruned."""

from __future__ import annotations

import pytest

from solver.bench import endgame
from solver.models import advise
from solver.pruned import root_chances


@pytest.mark.parametrize("size", [4, 5, 6, 7])
@pytest.mark.parametrize("deal", [1, 2, 3, 4])
def test_star1_keeps_the_root_chances_exact(size: int, deal: int) -> None:
    pos = endgame(size, deal)
    exact = advise(pos, "win")  # the exact path: Fractions
    assert exact.stop is not None
    plain_stop, plain_draw, plain = root_chances(pos, prune=False)
    stop, draw, pruned = root_chances(pos, prune=True)
    for got in (plain_stop, stop):
        assert got == pytest.approx(float(exact.stop), abs=1e-12)
    for got in (plain_draw, draw):
        assert got == pytest.approx(float(exact.draw), abs=1e-12)
    assert pruned <= plain
