"""Game-neutral tools every layer above may use, Hit! and Hit the Deck alike.

:mod:`~solver.utilities.numbers` (exact fractions or floats, one interface for both),
:mod:`~solver.utilities.stats` (Wilson intervals), :mod:`~solver.utilities.outputs` (which folders a batch
command may write into), :mod:`~solver.utilities.chunks` (resumable work in chunks, on local processes or
a Dask cluster) and :mod:`~solver.utilities.jobs` (a pool answering questions in the background). Nothing
here knows a card.
"""
