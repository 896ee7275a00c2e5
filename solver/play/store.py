"""Saved games: every game, live or practice, kept line by line in SQLite, so nothing is lost.

A game is its record (the JSON Lines of :mod:`solver.game.record`): the header,
then each line as it happens. The database is one file, ``games.sqlite``, in
the data folder: ``HIT_DATA_DIR`` if set, else the user's data folder
(:func:`data_dir`). It runs in WAL mode, so a reader never blocks the
writer, and every change is one transaction. A game's id is never given
twice, even after the newest game is deleted (a stale tab on a deleted game
is told so, never let into a new one).

Two tabs on the same game cannot corrupt it: a change says how many lines
it was made on (``expected``) and, better, which lines (``seen``); if the
game has moved on since, it is refused with :class:`GameMovedOn`, and the
tab reloads the game instead.

A file that cannot be used (damaged, emptied, read-only, on a full disk) is
a :class:`StoreError` whose message names the file and says what to do;
never a crash, never a silent fresh start. :meth:`GameStore.set_aside` moves
a damaged file out of the way (kept for recovery) so that a new one starts.

>>> import tempfile
>>> store = GameStore(Path(tempfile.mkdtemp()) / "games.sqlite")
>>> gid = store.create("Friday", "live", {"record": "hit", "version": 1, "players": 2})
>>> store.append(gid, 1, [{"event": "round", "round": 1, "first": 0}])
2
>>> store.append(gid, 1, [{"event": "round", "round": 1, "first": 1}])
Traceback (most recent call last):
...
solver.play.store.GameMovedOn: game 1 has 2 lines, not 1: it moved on in another tab or window
>>> [g.name for g in store.games()]
['Friday']
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["GameMovedOn", "GameStore", "NoSuchGame", "SavedGame", "StoreError", "data_dir"]

#: Names are for people; longer ones are cut.
MAX_NAME = 80
_GAMES = """
CREATE TABLE IF NOT EXISTS {name} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL DEFAULT '{{}}'
);
"""
_SCHEMA = _GAMES.format(name="games") + """
CREATE TABLE IF NOT EXISTS lines (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""
_LIST = ("SELECT g.id, g.name, g.kind, g.created, g.updated, COUNT(l.seq), g.settings{damaged} "
         "FROM games g LEFT JOIN lines l ON l.game = g.id {where} GROUP BY g.id "
         "ORDER BY g.updated DESC, g.id DESC")
# The first line of a game that is not a JSON object (SQLite's JSON functions; a file read without them
# finds a damaged line when the game is opened).
_DAMAGED = (", MIN(CASE WHEN NOT json_valid(l.body) THEN l.seq WHEN json_type(l.body) <> 'object' THEN l.seq "
            "END)")


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


class StoreError(RuntimeError, sqlite3.Error):
    """The file of saved games cannot be used as asked; the message names it and says what to do.

    ``path`` is the file; ``damaged`` is true when the file itself is bad (not a database, damaged, or
    emptied): :meth:`GameStore.set_aside` then moves it out of the way, kept for recovery, so that a new
    file starts. ``read_only`` is true when the file may be read but not changed. (A :class:`StoreError`
    is also a :class:`sqlite3.Error`, so code that catches those catches it too.)
    """

    def __init__(self, message: str, path: Path, *, damaged: bool = False, read_only: bool = False) -> None:
        super().__init__(message)
        self.path = path
        self.damaged = damaged
        self.read_only = read_only


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
    #: What is wrong with the saved game, if anything (its settings or a line damaged); None if nothing.
    problem: str | None = None


class GameStore:
    """The saved games in one SQLite file (created with its folder on first use).

    A file that cannot be written (or in a folder that cannot be) is opened to be read: the games list
    and open, and every change raises :class:`StoreError`. ``read_only=True`` opens it so in any case.
    """

    def __init__(self, path: Path | None = None, *, read_only: bool = False) -> None:
        self.path = path if path is not None else data_dir() / "games.sqlite"
        self.read_only = read_only
        self._immutable = False
        self._json = True  # SQLite has its JSON functions (to find damaged lines)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"The folder {self.path.parent} for the saved games cannot be made "
                             f"({e.strerror or e}): set HIT_DATA_DIR to a folder this app may write to.",
                             self.path) from None
        with self._errors():
            if self.path.is_dir():
                raise StoreError(f"{self.path} is a folder, not a file of saved games: move it away or set "
                                 f"HIT_DATA_DIR to another folder.", self.path)
            writable = os.access(self.path.parent, os.W_OK) and (not self.path.exists()
                                                                 or os.access(self.path, os.W_OK))
            if not self.path.exists():
                if not writable:
                    raise StoreError(f"{self.path} cannot be created: its folder is read-only. Set HIT_DATA_DIR "
                                     f"to a folder this app may write to.", self.path, read_only=True)
                self._create()
            elif self.path.stat().st_size == 0:
                raise StoreError(f"{self.path} is empty (0 bytes): the file of saved games was emptied or cut "
                                 f"short, so its games are not in it. Restore it from a backup, or set it "
                                 f"aside (it is kept, renamed {self.path.name}.damaged-…) to start a new one.",
                                 self.path, damaged=True)
            self.read_only = self.read_only or not writable
            if self.read_only:
                self._open_read_only()
            else:
                with self._connect() as db:
                    db.execute("PRAGMA journal_mode=WAL")
                    db.executescript(_SCHEMA)
                self._migrate()

    # -- the file --------------------------------------------------------------------------------
    def _create(self) -> None:
        # A new file is made whole beside its place, then linked there: nobody ever sees it half made (an
        # existing empty file is then one that was emptied, never one being created).
        tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}.new")
        try:
            db = sqlite3.connect(tmp, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)
            finally:
                db.close()
            try:
                os.link(tmp, self.path)
            except FileExistsError:
                pass  # another process made it first
            except OSError:  # a file system without hard links
                if not self.path.exists():
                    os.replace(tmp, self.path)
        finally:
            for extra in ("", "-wal", "-shm"):
                Path(f"{tmp}{extra}").unlink(missing_ok=True)

    def _open_read_only(self) -> None:
        try:
            with self._connect() as db:
                db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            # A folder that cannot hold the WAL's files: read the file as it is on disk.
            self._immutable = True
            with self._connect() as db:
                db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()

    def _migrate(self) -> None:
        """A file made before ids were kept unique (``id INTEGER PRIMARY KEY`` without AUTOINCREMENT): its
        games table is rebuilt with AUTOINCREMENT, every game and line kept, in one transaction."""
        def old(db: sqlite3.Connection) -> bool:
            row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'games'").fetchone()
            return row is not None and "AUTOINCREMENT" not in str(row[0]).upper()

        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            if not old(db):
                return
            db.execute("PRAGMA foreign_keys=OFF")  # the lines stay while their table is rebuilt
            db.execute("BEGIN IMMEDIATE")
            try:
                if old(db):  # not migrated by another process meanwhile
                    db.execute("DROP TABLE IF EXISTS games_new")
                    db.execute(_GAMES.format(name="games_new"))  # (executescript would commit first)
                    db.execute("INSERT INTO games_new (id, name, kind, created, updated, settings) "
                               "SELECT id, name, kind, created, updated, settings FROM games")
                    # The ids already given (the highest one may have been deleted: it is lost to the count).
                    db.execute("DROP TABLE games")
                    db.execute("ALTER TABLE games_new RENAME TO games")
                    if db.execute("PRAGMA foreign_key_check").fetchone() is not None:
                        raise sqlite3.IntegrityError("lines of no game after the rebuild")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        finally:
            db.close()

    @classmethod
    def set_aside(cls, path: Path) -> Path:
        """Move a damaged file of saved games (and its ``-wal``, ``-shm``) out of the way, renamed
        ``games.sqlite.damaged-YYYYmmdd-HHMMSS``, so that a new store may start; returns its new path.
        Nothing is deleted: the old file stays beside the new one for recovery."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.damaged-{stamp}")
        k = 1
        while any(Path(f"{target}{extra}").exists() for extra in ("", "-wal", "-shm")):
            k += 1
            target = path.with_name(f"{path.name}.damaged-{stamp}-{k}")
        try:
            for extra in ("-wal", "-shm", ""):  # the file last: until then it still names its WAL
                if Path(f"{path}{extra}").exists():
                    os.replace(f"{path}{extra}", f"{target}{extra}")
        except OSError as e:
            raise StoreError(f"{path} cannot be set aside ({e.strerror or e}): move it away by hand, or set "
                             f"HIT_DATA_DIR to another folder.", path) from None
        return target

    @contextmanager
    def _errors(self, doing: str = "") -> Iterator[None]:
        """Every sqlite3 or file error as a :class:`StoreError` that names the file and says what to do."""
        try:
            yield
        except StoreError:
            raise
        except (sqlite3.Error, OSError) as e:
            raise self._error(e, doing) from None

    def _error(self, e: sqlite3.Error | OSError, doing: str) -> StoreError:
        path = self.path
        text = str(e)
        code = getattr(e, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        if primary in (11, 26) or "not a database" in text or "malformed" in text:  # CORRUPT, NOTADB
            return StoreError(f"{path} is damaged ({text}): its saved games cannot be read or changed. Set it "
                              f"aside (it is kept, renamed {path.name}.damaged-…) to start a new file, and "
                              f"recover its games from the copy with SQLite's .recover if they matter; or set "
                              f"HIT_DATA_DIR to another folder.", path, damaged=True)
        if primary == 8 or "readonly" in text or "read-only" in text or isinstance(e, PermissionError):
            return self._read_only_error(doing)
        if (primary in (13, 10) or "full" in text or "I/O" in text) and doing:  # FULL, IOERR
            return StoreError(f"{path}: {text} while {doing}, so nothing was saved. Is the disk full? Free some "
                              f"space and try again, or set HIT_DATA_DIR to a folder on another disk.", path)
        if primary in (5, 6) or "locked" in text:  # BUSY, LOCKED
            return StoreError(f"{path} is busy ({text}): another program holds it. Try again in a moment.", path)
        return StoreError(f"{path} cannot be used ({text}{(' while ' + doing) if doing else ''}): check the file "
                          f"and its folder, or set HIT_DATA_DIR to another folder.", path)

    def _read_only_error(self, doing: str) -> StoreError:
        return StoreError(f"{self.path} is read-only: nothing can be saved in it ({doing or 'a change'} was "
                          f"refused). Its games can still be opened and downloaded; to play on, copy the file "
                          f"somewhere writable and set HIT_DATA_DIR to that folder.", self.path, read_only=True)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            flags = "immutable=1" if self._immutable else "mode=ro"
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?{flags}", timeout=10, isolation_level=None,
                                 uri=True)
        else:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys=ON")
            yield db
        finally:
            db.close()

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._errors(), self._connect() as db:
            yield db

    @contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        # BEGIN IMMEDIATE takes the write lock before reading, so check-then-write is one step.
        if self.read_only:
            raise self._read_only_error(doing)
        with self._errors(doing), self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    # -- games -----------------------------------------------------------------------------------
    def create(self, name: str, kind: str, header: dict[str, Any], settings: dict[str, Any] | None = None, *,
               rest: Sequence[dict[str, Any]] = ()) -> int:
        """A new game whose first line is ``header`` (then ``rest``, in the same step); returns its id, never
        one given before."""
        now = time.time()
        with self._write("saving the new game") as db:
            cur = db.execute("INSERT INTO games (name, kind, created, updated, settings) VALUES (?, ?, ?, ?, ?)",
                             (_name(name), kind, now, now, json.dumps(settings or {})))
            gid = int(cur.lastrowid or 0)
            db.executemany("INSERT INTO lines (game, seq, body) VALUES (?, ?, ?)",
                           [(gid, k, json.dumps(line)) for k, line in enumerate([header, *rest])])
        return gid

    def games(self) -> list[SavedGame]:
        """Every saved game, the latest changed first; a damaged one is listed with its ``problem``."""
        return self._list("", ())

    def game(self, gid: int) -> SavedGame:
        for g in self._list("WHERE g.id = ?", (gid,)):
            return g
        raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")

    def _list(self, where: str, args: tuple[Any, ...]) -> list[SavedGame]:
        rows: list[Sequence[Any]] = []
        with self._read() as db:
            if self._json:
                try:
                    rows = db.execute(_LIST.format(damaged=_DAMAGED, where=where), args).fetchall()
                except sqlite3.OperationalError as e:
                    if "no such function" not in str(e):
                        raise
                    self._json = False
            if not self._json:
                rows = [(*r, None) for r in db.execute(_LIST.format(damaged="", where=where), args).fetchall()]
        return [_saved(r) for r in rows]

    def lines(self, gid: int) -> list[str]:
        """The game's record, line by line (the header first)."""
        with self._read() as db:
            rows = db.execute("SELECT body FROM lines WHERE game = ? ORDER BY seq", (gid,)).fetchall()
        if not rows:
            raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")
        return [r[0] if isinstance(r[0], str) else repr(r[0]) for r in rows]

    def export(self, gid: int) -> str:
        """The game as a game-record file (JSON Lines)."""
        return "".join(line + "\n" for line in self.lines(gid))

    def rename(self, gid: int, name: str) -> None:
        with self._write("saving the new name") as db:
            if db.execute("UPDATE games SET name = ? WHERE id = ?", (_name(name), gid)).rowcount == 0:
                raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")

    def delete(self, gid: int) -> None:
        with self._write("deleting the game") as db:
            db.execute("DELETE FROM lines WHERE game = ?", (gid,))
            db.execute("DELETE FROM games WHERE id = ?", (gid,))

    def set_settings(self, gid: int, settings: dict[str, Any]) -> None:
        with self._write("saving the game's settings") as db:
            db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), gid))

    # -- lines -----------------------------------------------------------------------------------
    def append(self, gid: int, expected: int, new: Sequence[dict[str, Any]], *,
               seen: Sequence[str] | None = None) -> int:
        """Add ``new`` lines to a game that has ``expected`` lines (and, given ``seen``, exactly those lines:
        the caller's copy); returns how many it has now. :class:`GameMovedOn` if it has others."""
        with self._write("saving the move") as db:
            have = self._check(db, gid, expected, seen)
            db.executemany("INSERT INTO lines (game, seq, body) VALUES (?, ?, ?)",
                           [(gid, have + k, json.dumps(line)) for k, line in enumerate(new)])
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), gid))
            return have + len(new)

    def cut(self, gid: int, expected: int, keep: int, *, seen: Sequence[str] | None = None) -> None:
        """Undo: keep the first ``keep`` lines of a game that has ``expected`` (and, given ``seen``, exactly
        those lines); the header always stays."""
        with self._write("saving the undo") as db:
            self._check(db, gid, expected, seen)
            db.execute("DELETE FROM lines WHERE game = ? AND seq >= ?", (gid, max(1, keep)))
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), gid))

    def _check(self, db: sqlite3.Connection, gid: int, expected: int, seen: Sequence[str] | None) -> int:
        if db.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is None:
            raise NoSuchGame(f"there is no saved game {gid} (deleted, perhaps in another tab)")
        have = int(db.execute("SELECT COUNT(*) FROM lines WHERE game = ?", (gid,)).fetchone()[0])
        if have != expected:
            raise GameMovedOn(f"game {gid} has {have} lines, not {expected}: it moved on in another tab or window")
        if seen is not None:
            rows = [r[0] for r in db.execute("SELECT body FROM lines WHERE game = ? ORDER BY seq", (gid,))]
            differ = next((k for k, (a, b) in enumerate(zip(rows, seen)) if a != b), None)
            if differ is not None or len(seen) != have:
                at = differ + 1 if differ is not None else min(len(seen), have) + 1
                raise GameMovedOn(f"game {gid} changed in another tab or window (its line {at} is not the one "
                                  f"this copy has): reload it")
        return have

    def import_record(self, text: str, name: str) -> int:
        """Save a game-record file as a new game, once it replays and can be played on (a
        :class:`~solver.game.record.RecordError` if not)."""
        from solver.game.record import RecordError, replay
        from solver.play.entry import MAX_LOST_TURNS, _short

        lines = text.splitlines()
        lead = next((k for k, r in enumerate(lines) if r.strip()), len(lines))  # blank lines before the header
        if lead == len(lines):
            raise RecordError("the file is empty: a record starts with its header line")
        try:
            replay(lines[lead:]).check_resumable()  # blank lines within are kept: each keeps its line number
        except RecordError as e:  # the file's own line numbers, and no 3,000-character key quoted whole
            message = re.sub(r"^line (\d+)", lambda m: f"line {int(m[1]) + lead}", str(e)) if lead else str(e)
            raise RecordError(_short(message)) from None
        # Every line is an object (it replayed): read each once, with the file's own line number.
        objects = [(number, json.loads(row)) for number, row in enumerate(lines, start=1) if row.strip()]
        for number, obj in objects:  # a round joined under way: what the pages can follow
            start = obj.get("start")
            if not isinstance(start, dict):
                continue
            if start.get("match") is not None:  # a record holds rounds from their first card
                raise RecordError(f"line {number}: start: a table in a later round of a match (R15) cannot be "
                                  f"followed here: a record holds rounds from their first card, so its standings "
                                  f"would leave out the earlier rounds' totals that its advice counts")
            for seat, p in enumerate(start.get("players", [])):
                lost = p.get("lost_turns", 0) if isinstance(p, dict) else 0
                if isinstance(lost, int) and lost > MAX_LOST_TURNS:
                    raise RecordError(f"line {number}: start: players[{seat}].lost_turns: {_short(str(lost))} is "
                                      f"more than the app takes (0 to {MAX_LOST_TURNS})")
        # One step: an imported game is saved whole or not at all.
        return self.create(name, "imported", objects[0][1], rest=[obj for _, obj in objects[1:]])


def _saved(r: Sequence[Any]) -> SavedGame:
    """A row of the list as a :class:`SavedGame`; what is damaged in it goes in ``problem``."""
    gid = int(r[0])
    problems = []
    try:
        settings = json.loads(r[6])
        if not isinstance(settings, dict):
            raise ValueError("not an object")
    except (TypeError, ValueError, RecursionError):
        settings = {}
        problems.append("its settings (your seat, the bots, the timer) are damaged and were set back to none")
    if r[7] is not None:
        problems.append(f"its line {int(r[7]) + 1} is damaged (not a JSON object): the game cannot be opened; "
                        f"download it to see the line")

    def number(x: Any) -> float:
        return float(x) if isinstance(x, (int, float)) else 0.0

    return SavedGame(gid, str(r[1]), str(r[2]), number(r[3]), number(r[4]), int(r[5]), settings,
                     "; ".join(problems) or None)


def _name(name: str) -> str:
    name = " ".join(str(name).split())[:MAX_NAME]
    return name or "Unnamed game"
