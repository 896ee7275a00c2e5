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
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["Chunk", "DaskUnreachable", "atomic", "read_chunks", "run_chunks"]

Rows = list[dict[str, Any]]


class DaskUnreachable(RuntimeError):
    """The Dask scheduler named on the command line did not answer."""


@dataclass(frozen=True)
class Chunk:
    """One unit of work: ``work(*args)`` gives rows saved at ``path``."""

    path: Path
    work: Callable[..., Rows]
    args: tuple[Any, ...]


def atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` through a hidden temporary file renamed into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    os.replace(tmp, path)


def _die_with_parent() -> None:
    """A pool worker ends when the run that started it does, even if that one was killed (Linux)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before the call above took effect
            os._exit(0)
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown is all there is
        pass


def run_chunks(chunks: Sequence[Chunk], label: str, workers: int | None = None, dask: str | None = None,
               dask_timeout: float = 10.0, log: Callable[[str], None] = print, bar: bool = True) -> None:
    """Run every chunk whose file is missing; a progress bar on standard error (``bar``) and a log line per chunk."""
    folders = {c.path.parent for c in chunks}
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        for stale in [*folder.glob(".*.tmp"), *folder.parent.glob(".*.tmp")]:
            stale.unlink()  # half-written by a run that was killed: never read, so never kept
    todo = [c for c in chunks if not c.path.exists()]
    if len(todo) < len(chunks):
        log(f"{label}: resuming, {len(chunks) - len(todo)} of {len(chunks)} chunks already built")
    if not todo:
        return
    from tqdm import tqdm

    progress = tqdm(total=len(chunks), initial=len(chunks) - len(todo), desc=label, unit="chunk",
                    disable=not bar, file=sys.stderr)

    def save(chunk: Chunk, rows: Rows) -> None:
        atomic(chunk.path, lambda p: pd.DataFrame(rows).to_parquet(p, index=False))
        progress.update()
        if not bar:  # the bar says it already
            done = int(progress.n)
            log(f"{label}: chunk {done}/{len(chunks)} done ({100 * done / len(chunks):.0f}%)")

    with progress:
        if dask:
            from distributed import Client, as_completed as dask_completed

            try:
                client = Client(dask, timeout=dask_timeout)  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError) as e:
                raise DaskUnreachable(f"cannot reach the Dask scheduler at {dask} within {dask_timeout:g} s "
                                      f"({type(e).__name__}); is it running, and is the address right?") from None
            with client:
                jobs = {client.submit(c.work, *c.args, pure=False): c for c in todo}
                for job in dask_completed(jobs):  # type: ignore[no-untyped-call]
                    save(jobs[job], job.result())
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent) as pool:
                futures = {pool.submit(c.work, *c.args): c for c in todo}
                for fut in as_completed(futures):
                    save(futures[fut], fut.result())


def read_chunks(chunks: Sequence[Chunk]) -> pd.DataFrame:
    """Every chunk's rows, in the chunks' order."""
    return pd.concat([pd.read_parquet(c.path) for c in chunks], ignore_index=True)


def _squares(i: int) -> Rows:  # the doctest's work (a pool needs a module-level function)
    return [{"i": i, "square": i * i}]
