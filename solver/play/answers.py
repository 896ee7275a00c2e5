"""The questions the pages ask of the models, as plain functions of a position's JSON (so that a worker
process can answer them, and their answers can be remembered by their arguments).

>>> advice, why_not = solve(Position.from_dict({"players": [{"line": [7, 3]}, {}], "active": 0}).to_json(),
...                         "turn", 3.0)
>>> advice is not None and advice.exact, why_not
(True, None)
"""

from __future__ import annotations

from solver.models.advice import Advice, Budget, ModelError
from solver.models.bank import TheftRisk, theft_risk
from solver.models import MODELS
from solver.utilities.numbers import FLOAT, numbers
from solver.game.position import Position

__all__ = ["solve", "theft", "warm"]


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
    try:
        now = theft_risk(pos, FLOAT, Budget(seconds)) if pos.turn_point().line_size else []
    except ModelError as e:
        why_not = str(e)
    offer = pos.steal_on_offer()
    if offer is not None:
        took = pos.turn_point().stolen(offer)
        try:
            after = theft_risk(pos, FLOAT, Budget(seconds), point=took)
        except ModelError as e:
            why_not = why_not or str(e)
    return now, after, why_not


def warm(worker: int = 0) -> None:
    """A worker's first answer loads the models and their compiled kernels: done at a pool's start, once per
    ``worker`` (each its own question), so that a player's first question does not wait for it."""
    solve(Position.from_dict({"players": [{"line": [7, 3]}, {}, {}], "active": 0}).to_json(), "bank", 1.0)
