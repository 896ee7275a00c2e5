"""Resumable batch work on a local process pool or a Dask cluster (the tables and the tournaments).

Work is cut into chunks; each chunk is a call whose rows are saved as one
Parquet file the moment it finishes, under a path that names everything
that made it. A chunk whose file exists is not run again, so an interrupted
run resumes where it stopped; files are written to a temporary name and
renamed, and temporaries a killed run left behind are removed. Pool
workers end with the process that started them.

>>> import tempfile
>>> out = Path(tempfile.mkdtemp())
>>> jobs = [Chunk(out / f"c{i}.parquet", _squares, (i,)) for i in range(3)]
>>> run_chunks(jobs, "demo", workers=1, log=lambda m: None, bar=False)
>>> [len(read_chunks(jobs[:k + 1])) for k in range(3)]
[1, 2, 3]

A batch command writes into a folder of its own: :class:`Output` says what
it writes there, and :meth:`Output.check` refuses a folder that holds
anything else (so no file of somebody else's is overwritten). Interrupted
(Ctrl-C), a run stops its workers at once, keeps the chunks already saved
and raises :class:`Interrupted`, which says so.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported where it is used: Hit the Deck's command line needs none of it
    import threading

    import pandas as pd

from solver.utilities.jobs import worker_start
from solver.utilities.outputs import BUILD, HEADINGS, Output, OutputFolderError, atomic

__all__ = ["BUILD", "HEADINGS", "Chunk", "DaskUnreachable", "Interrupted", "Output", "OutputFolderError", "atomic",
           "pool_size", "read_chunks", "run_chunks"]

Rows = list[dict[str, Any]]

class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (SIGINT); its message says what was kept."""


class DaskUnreachable(RuntimeError):
    """The Dask scheduler named on the command line did not answer."""


@dataclass(frozen=True)
class Chunk:
    """One unit of work: ``work(*args)`` gives rows saved at ``path`` (and writes the files ``also``, if any).

    A chunk is done when ``path`` and every file of ``also`` exist; one missing is made again.
    """

    path: Path
    work: Callable[..., Rows]
    args: tuple[Any, ...]
    also: tuple[Path, ...] = field(default=(), compare=False)

    def done(self) -> bool:
        return self.path.exists() and all(p.exists() for p in self.also)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def pool_size(workers: int | None, chunks: int) -> int:
    """Processes for a local pool: those asked for (None: one a core), never more than the chunks to
    build or the cores there are (more would only wait for each other), and at least one.

    >>> pool_size(32, 1)
    1
    """
    return max(1, min(workers or _cores(), chunks, _cores()))


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: nothing queued is started, and the workers still at work are ended.

    The pool's manager thread is waited for too (it closes its wake-up pipe as it ends): left running, it
    could close that pipe while the interpreter's exit wrote to it, and Python 3.11 then printed a traceback
    ("Bad file descriptor") under the message of an interrupted run (CPython bpo-39098, bpo-39995)."""
    workers = list((pool._processes or {}).values())  # taken before shutdown forgets them
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)  # (the same)
    pool.shutdown(wait=False, cancel_futures=True)
    for w in workers:
        w.terminate()
    for w in workers:
        w.join(10)
    if manager is not None:
        manager.join(10)


def run_chunks(chunks: Sequence[Chunk], label: str, workers: int | None = None, dask: str | None = None,
               dask_timeout: float = 10.0, log: Callable[[str], None] = print, bar: bool = True) -> None:
    """Run every chunk not yet done; a progress bar on standard error (``bar``) or a log line per chunk.

    Ctrl-C (or any error) stops the run at once: the chunks saved so far are kept, the others are
    dropped, and :class:`Interrupted` says how many were kept, so the same call resumes.
    """
    folders = {c.path.parent for c in chunks}
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        for stale in [*folder.glob(".*.tmp"), *folder.parent.glob(".*.tmp")]:
            stale.unlink()  # half-written by a run that was killed: never read, so never kept
    todo = [c for c in chunks if not c.done()]
    if len(todo) < len(chunks):
        log(f"{label}: resuming, {len(chunks) - len(todo)} of {len(chunks)} chunks already built")
    if not todo:
        return
    import pandas as pd
    from tqdm import tqdm

    built = len(chunks) - len(todo)
    progress = tqdm(total=len(chunks), initial=built, desc=label, unit="chunk", disable=not bar, file=sys.stderr)

    def save(chunk: Chunk, rows: Rows) -> None:
        nonlocal built
        atomic(chunk.path, lambda p: pd.DataFrame(rows).to_parquet(p, index=False))
        built += 1
        progress.update()
        if not bar:  # the bar says it already
            log(f"{label}: chunk {built}/{len(chunks)} done ({100 * built / len(chunks):.0f}%)")

    try:
        with progress:
            if dask:
                _on_dask(todo, dask, dask_timeout, save)
            else:
                pool = ProcessPoolExecutor(max_workers=pool_size(workers, len(todo)), initializer=worker_start)
                try:
                    futures = {pool.submit(c.work, *c.args): c for c in todo}
                    for fut in as_completed(futures):
                        # Dropped once saved: a future keeps its rows, and a run's rows can outgrow memory.
                        save(futures.pop(fut), fut.result())
                except BaseException:
                    _stop(pool)
                    raise
                pool.shutdown()
    except KeyboardInterrupt:
        # Counted on disk, not by `built`: Ctrl-C can land between a chunk's file being renamed into place
        # and the count going up, and the message must say what a resume will find.
        kept = sum(1 for c in chunks if c.done())
        where = todo[0].path.parent
        raise Interrupted(f"{label}: interrupted; {kept} of {len(chunks)} chunks are saved in {where}, and "
                          "the same command resumes from them") from None


def _on_dask(todo: Sequence[Chunk], dask: str, timeout: float, save: Callable[[Chunk, Rows], None]) -> None:
    from distributed import Client, as_completed as dask_completed

    try:
        client = Client(dask, timeout=timeout)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as e:
        raise DaskUnreachable(f"cannot reach the Dask scheduler at {dask} within {timeout:g} s "
                              f"({type(e).__name__}); is it running, and is the address right?") from None
    with client:
        jobs: dict[Any, Chunk] = {client.submit(c.work, *c.args, pure=False): c for c in todo}
        try:
            for job in dask_completed(jobs):  # type: ignore[no-untyped-call]
                save(jobs.pop(job), job.result())  # (and so released on the cluster: see the local pool)
        except BaseException:
            client.cancel(list(jobs))  # type: ignore[no-untyped-call]
            raise


def read_chunks(chunks: Sequence[Chunk]) -> pd.DataFrame:
    """Every chunk's rows, in the chunks' order."""
    import pandas as pd

    return pd.concat([pd.read_parquet(c.path) for c in chunks], ignore_index=True)


def _squares(i: int) -> Rows:  # the doctest's work (a pool needs a module-level function)
    return [{"i": i, "square": i * i}]
