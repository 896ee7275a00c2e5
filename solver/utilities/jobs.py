"""Answers worked out on worker threads, remembered, and dropped when nobody is waiting for them.

The pages ask a model for the position on screen and draw everything else
at once; the answer fills in when its worker has it. :class:`Jobs` is that
pool of workers with a memory of the last answers, shared by every page in
a server process. Each page that asks names itself (an *owner*, say a
browser session); when it moves on to another position it says which of its
questions it still wants (:meth:`Jobs.keep_only`), and a question nobody
wants any more is cancelled if no worker has started it. (A started one
runs to the end of its own time limit, which every slow model has, and its
answer is remembered.) So ten pages tapping away on two cores queue only
the work for the positions they show.

>>> jobs = Jobs(workers=1)
>>> job = jobs.ask("page 1", pow, 2, 10)
>>> job.result()
1024
>>> jobs.done(pow, 2, 10), jobs.done(pow, 3, 10)
(True, False)
>>> jobs.keep_only("page 1", [])  # a finished answer stays remembered
>>> jobs.done(pow, 2, 10)
True
>>> jobs.close()
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

__all__ = ["Jobs", "Key", "key_of", "worker_start"]

Key = tuple[Hashable, ...]


def key_of(fn: Callable[..., Any], *args: Hashable) -> Key:
    """The question ``fn(*args)`` as a key: the function's qualified name and its arguments."""
    return (f"{fn.__module__}.{fn.__qualname__}", *args)


def worker_start(nice: int = 0) -> None:
    """A pool worker ignores Ctrl-C (the process that started it stops it) and ends when that one does, even
    if it was killed (Linux); with ``nice`` it runs that much below its parent's priority."""
    import signal

    if nice:
        os.nice(nice)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before the call above took effect
            os._exit(0)
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown is all there is
        pass


class Jobs:
    """A pool of workers answering questions ``fn(*args)``; the last ``remember`` answers kept.

    Threads, or with ``processes`` worker processes (started afresh, not forked from a server's threads):
    then ``fn`` and its arguments and answer travel by pickle, ``fn`` by its module and name, and ``nice``
    lowers their priority (a page's own runs then come before the models' work)."""

    def __init__(self, workers: int = 2, remember: int = 1024, name: str = "hit-solve",
                 processes: bool = False, nice: int = 0) -> None:
        self._pool: Executor = (
            ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                initializer=worker_start, initargs=(nice,)) if processes
            else ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name))
        self._jobs: OrderedDict[Key, Future[Any]] = OrderedDict()
        self._wanted: dict[Key, set[Hashable]] = {}  # the owners still waiting for each unfinished question
        self._asked: dict[Hashable, set[Key]] = {}  # each owner's questions
        self._lock = threading.RLock()  # a future already done runs its callback at once, lock held
        self._remember = remember
        self.cancelled = 0  # how many questions were dropped before a worker started them

    def ask(self, owner: Hashable, fn: Callable[..., Any], *args: Hashable) -> Future[Any]:
        """The answer to ``fn(*args)`` as a future: remembered, already being worked out, or queued now;
        ``owner`` waits for it until :meth:`keep_only` says otherwise."""
        key = key_of(fn, *args)
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.cancelled():
                job = self._jobs[key] = self._pool.submit(fn, *args)
                job.add_done_callback(self._on_done(key))
                self._forget_oldest()
            self._jobs.move_to_end(key)
            if not job.done():
                self._wanted.setdefault(key, set()).add(owner)
                self._asked.setdefault(owner, set()).add(key)
        return job

    def done(self, fn: Callable[..., Any], *args: Hashable) -> bool:
        """Whether the answer to ``fn(*args)`` is in (without asking for it)."""
        with self._lock:
            job = self._jobs.get(key_of(fn, *args))
        return job is not None and job.done() and not job.cancelled()

    def keep_only(self, owner: Hashable, keys: Iterable[Key]) -> None:
        """``owner`` now waits only for ``keys``: its other questions are released, and each one nobody
        waits for any more is cancelled unless a worker has started it."""
        keep = set(keys)
        with self._lock:
            mine = self._asked.get(owner, set())
            for key in mine - keep:
                waiting = self._wanted.get(key)
                if waiting is None:
                    continue
                waiting.discard(owner)
                if not waiting:
                    del self._wanted[key]
                    job = self._jobs.get(key)
                    if job is not None and job.cancel():
                        del self._jobs[key]
                        self.cancelled += 1
            kept = mine & keep
            if kept:
                self._asked[owner] = kept
            else:
                self._asked.pop(owner, None)

    def queued(self) -> int:
        """How many questions wait for a worker or are being worked out."""
        with self._lock:
            return sum(1 for job in self._jobs.values() if not job.done())

    def close(self) -> None:
        """Stop taking questions; wait for the ones being worked out."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _on_done(self, key: Key) -> Callable[[Future[Any]], None]:
        return lambda _: self._finished(key)

    def _finished(self, key: Key) -> None:
        with self._lock:
            for owner in self._wanted.pop(key, ()):
                asked = self._asked.get(owner)
                if asked is not None:
                    asked.discard(key)
                    if not asked:
                        del self._asked[owner]

    def _forget_oldest(self) -> None:
        # (under the lock) the oldest finished answers go first; unfinished ones are never dropped here
        while len(self._jobs) > self._remember:
            for key, job in self._jobs.items():
                if job.done():
                    del self._jobs[key]
                    break
            else:
                return
