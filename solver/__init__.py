"""Exact solver for Reiner Knizia's card game Hit!.

The packages, from the bottom up (each imports only those before it):
:mod:`solver.utilities` (game-neutral tools), :mod:`solver.game` (the deck, the rules of one turn written
once, whole games, positions, records), :mod:`solver.models` (what a choice is worth: `turn`, `bank`,
`duel`, `win`, their registry and their numba kernels), :mod:`solver.play` (bots, simulation, tournaments,
review, saved and live games), :mod:`solver.study` (the stop-rule study and the decision tables), and
:mod:`solver.cli` on top. :mod:`solver.hitthedeck` is another game, with a command of its own. The rules
and the models' definitions are in the repository's ``docs/RULES.md`` and ``docs/MODELS.md``.

Names are imported on first use, so ``import solver.game.cards`` (or
``solver.game.rules``, ``solver.game.position``) loads neither numba nor the models.

>>> from solver import Position, advise
>>> pos = Position.from_dict({"players": [{"line": [6, 1, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5})
>>> a = advise(pos)
>>> str(a.steal.action), str(a.action)
('steal', 'stop')
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
    "TurnState",
    "TurnSolver",
    "advise",
    "next_cards",
]

_WHERE = {
    "MODELS": "models", "advise": "models", "Advice": "models.advice",
    "Action": "game.rules", "Game": "game.rules", "IllegalActionError": "game.rules", "Match": "game.rules",
    "Phase": "game.rules", "Player": "game.rules", "PlayerView": "game.position", "Position": "game.position",
    "PositionError": "game.position", "TurnState": "game.core", "TurnSolver": "models.turn",
    "next_cards": "models.turn",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")
