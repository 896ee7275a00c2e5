"""What a choice is worth: the models, their numba kernels, and their registry, which the command line,
the advisor and the tables ask.

:mod:`~solver.models.advice` (what every model answers in), :mod:`~solver.models.turn` (this turn's haul),
:mod:`~solver.models.bank` (points that survive the opponents' steals), :mod:`~solver.models.duel` and
:mod:`~solver.models.win` (the rest of a two-player game in points, and the chance to win for 2 to 5
players), the exact endgame search they share (:mod:`~solver.models.endgame`), the chance to win's exact
search of three to five players' last cards (:mod:`~solver.models.maxn`), the chance to win's turn
search (:mod:`~solver.models.chances`) over its learned evaluator (:mod:`~solver.models.evaluator`), and
:mod:`~solver.models.kernel` (the float path's compiled copy of the core's turn, numba's one specialised
copy).

Every model follows :class:`solver.models.advice.Model` (a name, the one-line
assumption a user should read, whether exact answers are quick, the
approximation it makes for a position, and ``advise``). Adding a model is
adding it to :data:`MODELS`; nothing else names the models one by one.

>>> list(MODELS)
['turn', 'bank', 'duel', 'win']
>>> from solver.game.position import Position
>>> pos = Position.from_dict({"players": [{"line": [6, 1, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5})
>>> a = advise(pos)
>>> str(a.steal.action), str(a.action), a.stop
('steal', 'stop', Fraction(22, 1))
"""

from __future__ import annotations

from solver.models.advice import Advice, Budget, Model
from solver.models.bank import BANK
from solver.models.duel import DUEL
from solver.utilities.numbers import numbers
from solver.game.position import Position
from solver.models.turn import TURN
from solver.models.win import WIN

__all__ = ["MODELS", "advise", "model"]

#: Every model the solver has, by name, in the order the advisor shows them.
MODELS: dict[str, Model] = {m.name: m for m in (TURN, BANK, DUEL, WIN)}


def model(name: str) -> Model:
    """The model called ``name``; an unknown name is refused with the list of models."""
    try:
        return MODELS[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; the models are: {', '.join(MODELS)}") from None


def advise(position: Position, name: str = "turn", exact: bool = True, budget: Budget | None = None) -> Advice:
    """Solve ``position`` under the model called ``name``.

    ``exact`` picks fractions or the float path; ``budget`` caps the time a
    slow model may take (:class:`~solver.models.advice.SlowModel` past it). A model
    that cannot answer raises a :class:`~solver.models.advice.ModelError` saying why.
    """
    return model(name).advise(position, numbers(exact), budget)
