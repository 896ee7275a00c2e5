"""Playing: bots, simulated games, tournaments, reviews, and games followed at a real table.

:mod:`~solver.play.simulate` (games played by a policy in the rules engine),
:mod:`~solver.play.simple_rules` (the stop and steal rules a person can follow),
:mod:`~solver.play.policies` (the bots, by name), :mod:`~solver.play.tournament` (duplicate-format
tournaments), :mod:`~solver.play.review` (every decision of a record against a model),
:mod:`~solver.play.store` (saved games in SQLite), :mod:`~solver.play.live` (a game followed tap by tap),
:mod:`~solver.play.entry` (a table entered by hand or by link) and :mod:`~solver.play.answers` (the
models' answers as the pages ask for them, in the background).
"""
