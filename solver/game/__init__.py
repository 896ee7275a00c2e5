"""The game: the deck, the rules of one turn written once, whole games, positions and records.

From the bottom up: :mod:`~solver.game.cards` (the deck and piles), :mod:`~solver.game.core` (one turn's
chance tree and R5, the rules every model runs over), :mod:`~solver.game.rules` (the rules engine for whole
games, R1-R15), :mod:`~solver.game.position` (a checked table state, what every model is asked about) and
:mod:`~solver.game.record` (a game's record, line by line). Imports neither numba nor any model.
"""
