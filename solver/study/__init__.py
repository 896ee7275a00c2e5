"""Study and tables: stop rules scored exactly against the optimum, and the decision tables.

:mod:`~solver.study.stop_rules` (each simple rule's exact score and agreement with `turn`),
:mod:`~solver.study.tables` (the decision tables in ``data/``, built on local processes or a Dask cluster)
and :mod:`~solver.study.endgame_table` (two-player endgames under `duel` and `win`).
"""
