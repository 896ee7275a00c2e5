"""Exact solver for Reiner Knizia's card game Hit!.

The modules, from the bottom up: :mod:`~solver.cards` (the deck),
:mod:`~solver.core` (the rules of one turn, written once),
:mod:`~solver.rules` (the rules engine for whole games),
:mod:`~solver.position` (checked table states), :mod:`~solver.numbers` and
:mod:`~solver.advice` (what every model answers in), the models
:mod:`~solver.turn`, :mod:`~solver.bank` and :mod:`~solver.duel`,
:mod:`~solver.models` (their registry), then :mod:`~solver.simulate`,
:mod:`~solver.study` and :mod:`~solver.tables`. The rules and the models'
definitions are in the repository's ``docs/RULES.md`` and ``docs/MODELS.md``.

Names are imported on first use, so ``import solver.cards`` (or
``solver.rules``, ``solver.position``) loads neither numba nor the models.

>>> from solver import Position, advise
>>> pos = Position.from_dict({"players": [{"line": [6, 1, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5})
>>> a = advise(pos)
>>> str(a.steal.action), str(a.action)
('take', 'stop')
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "MODELS",
    "Action",
    "Advice",
    "Game",
    "IllegalActionError",
    "Match",
    "Phase",
    "Player",
    "PlayerView",
    "Position",
    "PositionError",
    "TurnPoint",
    "TurnSolver",
    "advise",
    "next_cards",
]

_WHERE = {
    "MODELS": "models", "advise": "models", "Advice": "advice",
    "Action": "rules", "Game": "rules", "IllegalActionError": "rules", "Match": "rules", "Phase": "rules",
    "Player": "rules", "PlayerView": "position", "Position": "position", "PositionError": "position",
    "TurnPoint": "core", "TurnSolver": "turn", "next_cards": "turn",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")
