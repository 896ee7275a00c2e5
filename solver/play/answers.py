"""The questions the pages ask of the models, as plain functions of a position's JSON (so that a worker
process can answer them, and their answers can be remembered by their arguments).

>>> advice, why_not = solve(Position.from_dict({"players": [{"line": [7, 3]}, {}], "active": 0}).to_json(),
...                         "turn", 3.0)
>>> advice is not None and advice.exact, why_not
(True, None)
"""

from __future__ import annotations

from solver.models.advice import Advice, Budget, ModelError
from solver.utilities.jobs import Jobs
from solver.models.bank import TheftRisk, theft_risk
from solver.models import MODELS
from solver.utilities.numbers import FLOAT, numbers
from solver.game.position import Position

__all__ = ["WIN_PILE", "asks_win", "solve", "theft", "warm", "workers"]

#: The largest pile the pages ask `win` about (two players): within a page's time limit it answers most
#: endgames up to this pile and few past it, so asking there would mostly cost a worker its time for nothing
#: (the bench's figures: docs/PERFORMANCE.md, "`win` on the pages").
WIN_PILE = 14


def asks_win(pos: Position) -> bool:
    """Whether the pages ask `win` about ``pos``: two players, :data:`WIN_PILE` cards or fewer left.

    >>> asks_win(Position.from_dict({"players": [{"line": [7, 3]}, {}], "active": 0}))  # 88 cards left
    False
    """
    return len(pos.players) == 2 and pos.pile_size() <= WIN_PILE


def solve(position_json: str, model: str, seconds: float) -> tuple[Advice | None, str | None]:
    """A model's advice (or why there is none): `bank` on its float path, the others exact."""
    pos = Position.from_json(position_json)
    m = MODELS[model]
    try:
        return m.advise(pos, numbers(exact=m.quick_exact), Budget(seconds)), None
    except ModelError as e:  # beyond a model's reach or the page's budget: it says why
        return None, str(e)


def theft(position_json: str, seconds: float) -> tuple[list[TheftRisk] | None, list[TheftRisk] | None, str | None]:
    """`bank`'s theft risk if the player stops with the line as it stands, and (with a steal on
    offer) once the steal is taken; ``None`` where `bank` ran out of time, with its reason."""
    pos = Position.from_json(position_json)
    now: list[TheftRisk] | None = None
    after: list[TheftRisk] | None = None
    why_not = None
    state = pos.turn_state()
    try:
        now = theft_risk(pos, FLOAT, Budget(seconds)) if state.line_size else []
    except ModelError as e:
        why_not = str(e)
    offer = pos.steal_on_offer()
    if offer is not None:
        took = state.stolen(offer)
        try:
            after = theft_risk(pos, FLOAT, Budget(seconds), point=took)
        except ModelError as e:
            why_not = why_not or str(e)
    return now, after, why_not


def workers(processes: bool = True) -> Jobs:
    """The pages' two solving workers and their memory of answers, both started and warmed now (a player's
    first answer would wait for it). Processes, at a lower priority than the server's own thread, so that
    it never waits for a model's share of the interpreter (``processes=False``: threads, for tests that put
    a function of their own in a model's place)."""
    jobs = Jobs(workers=2, processes=processes, nice=10)
    for k in range(2):
        jobs.ask(None, warm, k)
    return jobs


def warm(worker: int = 0) -> None:
    """A worker's first answer loads the models and their compiled kernels: done at a pool's start, once per
    ``worker`` (each its own question), so that a player's first question does not wait for it."""
    solve(Position.from_dict({"players": [{"line": [7, 3]}, {}, {}], "active": 0}).to_json(), "bank", 1.0)
