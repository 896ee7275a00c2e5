"""Study and tables: stop rules scored exactly against the optimum, the decision tables, and the training of
the chance-to-win evaluator.

:mod:`~solver.study.stop_rules` (each simple rule's exact score and agreement with `turn`),
:mod:`~solver.study.tables` (the decision tables in ``data/``, built on local processes or a Dask cluster),
:mod:`~solver.study.endgame_table` (two-player endgames under `duel` and `win`)
and :mod:`~solver.study.train` (the evaluator `win` reads, trained by self-play: ``python -m solver train``).
"""
