"""Exact solver for Reiner Knizia's card game Hit!.

The modules, from the bottom up: :mod:`~solver.cards` (the deck),
:mod:`~solver.rules` (the rules engine), :mod:`~solver.position` (checked
table states), the models :mod:`~solver.turn`, :mod:`~solver.bank` and
:mod:`~solver.duel`, :mod:`~solver.advice` (what the command line and the
advisor call), then :mod:`~solver.simulate`, :mod:`~solver.study` and
:mod:`~solver.tables`.

>>> from solver import Position, advise
>>> pos = Position.from_dict({"players": [{"line": [6, 1, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5})
>>> a = advise(pos)
>>> a.steal.action, a.action
('take', 'stop')
"""

from .advice import MODELS, Advice, advise, next_cards
from .position import PlayerView, Position, PositionError
from .rules import Action, Game, IllegalActionError, Match, Phase, Player
from .turn import TurnSolver

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
    "TurnSolver",
    "advise",
    "next_cards",
]
