"""Saved games: every game, live or practice, kept line by line in SQLite, so nothing is lost.

A game is its record (the JSON Lines of :mod:`solver.record`): the header,
then each line as it happens. The database is one file, ``games.sqlite``, in
the data folder: ``HIT_DATA_DIR`` if set, else the user's data folder
(:func:`data_dir`). It runs in WAL mode, so a reader never blocks the
writer, and every change is one transaction.

Two tabs on the same game cannot corrupt it: a change says how many lines
it was made on (``expected``); if the game has moved on since, it is refused
with :class:`GameMovedOn`, and the tab reloads the game instead.

>>> import tempfile
>>> store = GameStore(Path(tempfile.mkdtemp()) / "games.sqlite")
>>> gid = store.create("Friday", "live", {"record": "hit", "version": 1, "players": 2})
>>> store.append(gid, 1, [{"event": "round", "round": 1, "first": 0}])
2
>>> store.append(gid, 1, [{"event": "round", "round": 1, "first": 1}])
Traceback (most recent call last):
...
solver.store.GameMovedOn: game 1 has 2 lines, not 1: it moved on in another tab or window
>>> [g.name for g in store.games()]
['Friday']
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["GameMovedOn", "GameStore", "NoSuchGame", "SavedGame", "data_dir"]

#: Names are for people; longer ones are cut.
MAX_NAME = 80
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS lines (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


def data_dir() -> Path:
    """Where saved games live: ``HIT_DATA_DIR``, else the user's data folder (per platform)."""
    named = os.environ.get("HIT_DATA_DIR", "").strip()
    if named:
        return Path(named).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("hit-solver", appauthor=False))


class GameMovedOn(RuntimeError):
    """The game changed since this copy was read (another tab or window): reload it."""


class NoSuchGame(KeyError):
    """No saved game has that id (deleted, perhaps in another tab)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class SavedGame:
    """One saved game, as the list of games shows it."""

    id: int
    name: str
    kind: str  # "live", "practice" or "imported"
    created: float
    updated: float
    lines: int
    settings: dict[str, Any]


class GameStore:
    """The saved games in one SQLite file (created with its folder on first use)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else data_dir() / "games.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys=ON")
            yield db
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        # BEGIN IMMEDIATE takes the write lock before reading, so check-then-write is one step.
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    # -- games -----------------------------------------------------------------------------------
    def create(self, name: str, kind: str, header: dict[str, Any], settings: dict[str, Any] | None = None) -> int:
        """A new game whose first line is ``header``; returns its id."""
        now = time.time()
        with self._write() as db:
            cur = db.execute("INSERT INTO games (name, kind, created, updated, settings) VALUES (?, ?, ?, ?, ?)",
                             (_name(name), kind, now, now, json.dumps(settings or {})))
            gid = int(cur.lastrowid or 0)
            db.execute("INSERT INTO lines (game, seq, body) VALUES (?, 0, ?)", (gid, json.dumps(header)))
        return gid

    def games(self) -> list[SavedGame]:
        """Every saved game, the latest changed first."""
        with self._connect() as db:
            rows = db.execute("SELECT g.id, g.name, g.kind, g.created, g.updated, COUNT(l.seq), g.settings "
                              "FROM games g LEFT JOIN lines l ON l.game = g.id GROUP BY g.id "
                              "ORDER BY g.updated DESC, g.id DESC").fetchall()
        return [SavedGame(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6])) for r in rows]

    def game(self, gid: int) -> SavedGame:
        for g in self.games():
            if g.id == gid:
                return g
        raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")

    def lines(self, gid: int) -> list[str]:
        """The game's record, line by line (the header first)."""
        with self._connect() as db:
            rows = db.execute("SELECT body FROM lines WHERE game = ? ORDER BY seq", (gid,)).fetchall()
        if not rows:
            raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")
        return [r[0] for r in rows]

    def export(self, gid: int) -> str:
        """The game as a game-record file (JSON Lines)."""
        return "".join(line + "\n" for line in self.lines(gid))

    def rename(self, gid: int, name: str) -> None:
        with self._write() as db:
            if db.execute("UPDATE games SET name = ? WHERE id = ?", (_name(name), gid)).rowcount == 0:
                raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")

    def delete(self, gid: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM lines WHERE game = ?", (gid,))
            db.execute("DELETE FROM games WHERE id = ?", (gid,))

    def set_settings(self, gid: int, settings: dict[str, Any]) -> None:
        with self._write() as db:
            db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), gid))

    # -- lines -----------------------------------------------------------------------------------
    def append(self, gid: int, expected: int, new: Sequence[dict[str, Any]]) -> int:
        """Add ``new`` lines to a game that has ``expected`` lines; returns how many it has now."""
        with self._write() as db:
            have = self._count(db, gid)
            if have != expected:
                raise GameMovedOn(f"game {gid} has {have} lines, not {expected}: it moved on in another tab or window")
            db.executemany("INSERT INTO lines (game, seq, body) VALUES (?, ?, ?)",
                           [(gid, have + k, json.dumps(line)) for k, line in enumerate(new)])
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), gid))
            return have + len(new)

    def cut(self, gid: int, expected: int, keep: int) -> None:
        """Undo: keep the first ``keep`` lines of a game that has ``expected`` (the header always stays)."""
        with self._write() as db:
            have = self._count(db, gid)
            if have != expected:
                raise GameMovedOn(f"game {gid} has {have} lines, not {expected}: it moved on in another tab or window")
            db.execute("DELETE FROM lines WHERE game = ? AND seq >= ?", (gid, max(1, keep)))
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), gid))

    def _count(self, db: sqlite3.Connection, gid: int) -> int:
        if db.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is None:
            raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")
        return int(db.execute("SELECT COUNT(*) FROM lines WHERE game = ?", (gid,)).fetchone()[0])

    def import_record(self, text: str, name: str) -> int:
        """Save a game-record file as a new game, once it replays (a :class:`~solver.record.RecordError` if not)."""
        from .record import replay

        rows = [r for r in text.splitlines() if r.strip()]
        replay(rows)
        header = json.loads(rows[0])
        gid = self.create(name, "imported", header)
        self.append(gid, 1, [json.loads(r) for r in rows[1:]])
        return gid


def _name(name: str) -> str:
    name = " ".join(str(name).split())[:MAX_NAME]
    return name or "Unnamed game"
