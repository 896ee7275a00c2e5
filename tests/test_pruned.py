"""The Star1 search of `win` (bench.pruned, a measurement): its root chances are the exact path's (and
the compiled path's, on more endgames), and it expands fewer draws than the same search unpruned."""

from __future__ import annotations

import pytest

from bench.speed import endgame
from solver.models import advise
from bench.pruned import root_chances


def _check(size: int, deal: int, exact: bool) -> None:
    pos = endgame(size, deal)
    reference = advise(pos, "win", exact=exact)  # exact: Fractions; else the compiled path's floats
    assert reference.stop is not None
    plain_stop, plain_draw, plain = root_chances(pos, prune=False)
    stop, draw, pruned = root_chances(pos, prune=True)
    for got in (plain_stop, stop):
        assert got == pytest.approx(float(reference.stop), abs=1e-12 if exact else 1e-9)
    for got in (plain_draw, draw):
        assert got == pytest.approx(float(reference.draw), abs=1e-12 if exact else 1e-9)
    assert pruned < plain  # 1.6 to 7 times fewer on these


@pytest.mark.parametrize("size", [4, 5, 6, 7])
@pytest.mark.parametrize("deal", [1, 2, 3, 4])
def test_star1_keeps_the_root_chances_exact(size: int, deal: int) -> None:
    _check(size, deal, exact=True)


@pytest.mark.parametrize("size", [5, 6, 7])
@pytest.mark.parametrize("deal", range(5, 17))
def test_star1_agrees_with_the_compiled_path(size: int, deal: int) -> None:
    _check(size, deal, exact=False)
