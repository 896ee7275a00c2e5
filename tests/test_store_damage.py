"""Saved games (solver.play.store) when things go wrong: ids never reused, a file that cannot be used is a message
(StoreError: the file named, what to do), never a crash and never a silent fresh start. Every case is a real
file and real SQLite."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from solver.play.live import LiveGame
from solver.game.record import RecordError
from solver.play.store import GameStore, NoSuchGame, StoreError

HEADER = {"record": "hit", "version": 1, "players": 2, "names": ["Ann", "Bob"], "rounds": 1, "variant": False,
          "seed": None}
ROUND = {"event": "round", "round": 1, "first": 0}
# The schema of the store before ids were kept unique: ``id INTEGER PRIMARY KEY``, no AUTOINCREMENT.
OLD_SCHEMA = """
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


def a_store(path: Path, games: int = 3) -> tuple[GameStore, list[int]]:
    store = GameStore(path)
    ids = []
    for k in range(games):
        live = LiveGame.start(store, f"game {k + 1}", "live", ["Ann", "Bob"], first=0)
        live.act("draw", k % 10 + 1)
        ids.append(live.gid)
    return store, ids


# -- ids -------------------------------------------------------------------------------------------------
def test_the_id_of_a_deleted_game_is_never_given_again(tmp_path):
    store, ids = a_store(tmp_path / "games.sqlite", 2)
    stale = LiveGame(store, ids[-1])  # a tab still showing the newest game
    store.delete(ids[-1])
    new = LiveGame.start(store, "new", "live", ["Cy", "Di"], first=0)
    assert new.gid > ids[-1]
    with pytest.raises(NoSuchGame, match=rf"no saved game {ids[-1]}"):
        stale.act("draw", 9)  # the stale tab is told: its tap never lands in the new game
    assert LiveGame(store, new.gid).rows == new.rows and len(new.rows) == 2
    again = GameStore(store.path)  # a restart keeps the count
    again.delete(new.gid)
    assert again.create("later", "live", HEADER) == new.gid + 1


def test_a_file_made_before_ids_were_unique_is_migrated_in_place_losing_nothing(tmp_path):
    path = tmp_path / "games.sqlite"
    with sqlite3.connect(path) as db:  # as today's code made it
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(OLD_SCHEMA)
        for gid in (1, 2, 3):
            db.execute("INSERT INTO games VALUES (?, ?, 'live', 1.0, ?, ?)", (gid, f"old {gid}", float(gid),
                                                                               json.dumps({"you": gid % 2})))
            rows = [HEADER, ROUND] + [{"event": "draw", "seat": 0, "value": gid}] * (gid > 1)
            db.executemany("INSERT INTO lines VALUES (?, ?, ?)", [(gid, k, json.dumps(r)) for k, r in enumerate(rows)])
    db.close()
    store = GameStore(path)
    assert [(g.id, g.name, g.lines, g.settings) for g in store.games()] == [
        (3, "old 3", 3, {"you": 1}), (2, "old 2", 3, {"you": 0}), (1, "old 1", 2, {"you": 1})]
    assert json.loads(store.lines(3)[2]) == {"event": "draw", "seat": 0, "value": 3}
    with sqlite3.connect(path) as db:
        sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()[0]
        assert "AUTOINCREMENT" in sql.upper() and db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    store.delete(3)
    assert store.create("new", "live", HEADER) == 4  # not 3 again
    store.delete(1)  # the lines still go with their game (the foreign key survived the rebuild)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM lines WHERE game = 1").fetchone()[0] == 0
    db.close()
    assert GameStore(path).game(2).lines == 3  # opening again migrates nothing twice


# -- damaged files -----------------------------------------------------------------------------------------
def test_a_file_that_is_not_a_database_is_a_message_and_can_be_set_aside(tmp_path):
    path = tmp_path / "games.sqlite"
    junk = b"these are my notes, not saved games\n" * 200
    path.write_bytes(junk)
    with pytest.raises(StoreError, match=r"games\.sqlite is damaged \(file is not a database\).*(?i:set it aside)") as e:
        GameStore(path)
    assert e.value.damaged and e.value.path == path and str(path) in str(e.value)
    (tmp_path / "games.sqlite-wal").write_bytes(b"its WAL")
    kept = GameStore.set_aside(path)
    assert kept.name.startswith("games.sqlite.damaged-") and kept.read_bytes() == junk  # kept for recovery
    assert Path(f"{kept}-wal").read_bytes() == b"its WAL" and not path.exists()
    assert GameStore(path).games() == []  # a new file starts beside it
    assert GameStore.set_aside(path) != kept  # twice in a second: a second name, nothing overwritten


def test_a_damaged_page_is_a_message_on_every_read_and_write_never_another_error(tmp_path):
    path = tmp_path / "games.sqlite"
    store, ids = a_store(path, 12)
    for gid in ids:  # enough lines for several pages
        store.append(gid, 3, [{"event": "stop", "seat": 0, "line": [1] * 200}])
    del store
    assert not Path(f"{path}-wal").exists()  # every change is in the file itself
    with open(path, "r+b") as f:
        f.seek(-4096, os.SEEK_END)
        f.write(bytes(range(256)) * 16)  # its last page overwritten with junk
    errors = []
    store = GameStore(path)
    for step in [store.games, lambda: store.create("x", "live", HEADER),
                 *[lambda gid=gid: store.lines(gid) for gid in ids],
                 lambda: store.append(ids[-1], 4, [ROUND]), lambda: store.rename(ids[-1], "y"),
                 lambda: store.delete(ids[-1])]:
        try:
            step()
        except StoreError as e:
            errors.append(e)
    assert errors and all(e.damaged and "is damaged" in str(e) and str(path) in str(e) for e in errors)


def test_an_emptied_file_is_refused_not_taken_for_a_new_one(tmp_path):
    path = tmp_path / "games.sqlite"
    a_store(path, 2)
    path.write_bytes(b"")  # truncated to 0 bytes
    with pytest.raises(StoreError, match=r"games\.sqlite is empty \(0 bytes\).*(?i:set it aside)") as e:
        GameStore(path)
    assert e.value.damaged
    kept = GameStore.set_aside(path)
    assert kept.exists() and kept.stat().st_size == 0
    assert GameStore(path).create("new", "live", HEADER) == 1  # a new file, started on purpose


def test_a_damaged_row_spoils_only_its_own_game(tmp_path):
    store, (one, two, three) = a_store(tmp_path / "games.sqlite")
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE games SET settings = '{\"you\": 1' WHERE id = ?", (two,))
        db.execute("UPDATE lines SET body = '[1, 2]' WHERE game = ? AND seq = 2", (three,))
    db.close()
    games = {g.id: g for g in store.games()}
    assert set(games) == {one, two, three} and games[one].problem is None
    assert games[two].settings == {} and "settings" in (games[two].problem or "")
    assert "line 3" in (games[three].problem or "") and store.game(three).problem == games[three].problem
    with pytest.raises(RecordError, match=rf"^saved game {three} \(game 3\): line 3: each line of a record is a JSON "
                                          rf"object"):
        LiveGame(store, three)
    assert LiveGame(store, two).saved.settings == {}  # its record is whole: it opens, without its settings
    live = LiveGame(store, one)
    live.act("stop")
    assert LiveGame(store, one).game.active == 1
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE lines SET body = 'not json' WHERE game = ? AND seq = 1", (one,))
    db.close()
    with pytest.raises(RecordError, match=rf"^saved game {one} \(game 1\): line 2: not valid JSON"):
        LiveGame(store, one)
    assert "line 2" in (store.game(one).problem or "")


# -- read-only files and folders -------------------------------------------------------------------------
@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make ``path`` (a file or a folder) truly read-only for this process. A user: chmod. Root, whom chmod
    does not stop (tests run as root here): the immutable attribute (chattr +i), which stops root too, as a
    read-only disk or a file of another owner stops the app."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    mode = path.stat().st_mode
    if not root:
        path.chmod(mode & ~0o222)
    elif shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)],
                                                          capture_output=True).returncode != 0:
        pytest.skip("as root, only the immutable attribute makes a file read-only, and chattr cannot set it here")
    try:
        assert not os.access(path, os.W_OK)
        yield
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(mode)


def _every_write_is_refused(store: GameStore, gid: int) -> None:
    rows = store.lines(gid)
    for write in [lambda: store.create("x", "live", HEADER), lambda: store.append(gid, len(rows), [ROUND]),
                  lambda: store.cut(gid, len(rows), 2), lambda: store.rename(gid, "y"), lambda: store.delete(gid),
                  lambda: store.set_settings(gid, {"you": 1}), lambda: store.import_record(store.export(gid), "z")]:
        with pytest.raises(StoreError, match=r"games\.sqlite is read-only: .*copy the file somewhere writable and "
                                             r"set HIT_DATA_DIR") as e:
            write()
        assert e.value.read_only and str(store.path) in str(e.value)
    assert store.lines(gid) == rows


def test_a_read_only_file_is_read_and_every_write_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    _, (gid, *_) = a_store(path)
    with read_only(path):
        store = GameStore(path)
        assert len(store.games()) == 3
        live = LiveGame(store, gid)
        assert live.game.players[0].line == [1]
        with pytest.raises(StoreError, match="is read-only"):
            live.act("stop")
        assert live.game.players[0].line == [1] and live.rows == store.lines(gid)  # the tap did not count
        _every_write_is_refused(store, gid)
        assert store.read_only  # found so on opening: SQLite was not asked to write


def test_a_file_made_read_only_while_open_is_refused_by_sqlite_and_said_so(tmp_path):
    path = tmp_path / "games.sqlite"
    store, (gid, *_) = a_store(path)
    with read_only(path):  # SQLite itself refuses: "attempt to write a readonly database"
        _every_write_is_refused(store, gid)
        assert len(store.games()) == 3


def test_a_read_only_folder_is_read_and_a_new_file_in_it_refused(tmp_path):
    folder = tmp_path / "data"
    _, (gid, *_) = a_store(folder / "games.sqlite")
    with read_only(folder):  # not even the WAL's files can be made beside it
        store = GameStore(folder / "games.sqlite")
        assert [g.lines for g in store.games()] == [3, 3, 3]
        assert LiveGame(store, gid).game.players[0].line == [1]
        _every_write_is_refused(store, gid)
        with pytest.raises(StoreError, match=r"other\.sqlite cannot be created: its folder is read-only.*"
                                             r"HIT_DATA_DIR"):
            GameStore(folder / "other.sqlite")
    assert not (folder / "other.sqlite").exists()


def test_a_folder_that_cannot_be_made_is_a_message(tmp_path):
    (tmp_path / "data").write_text("a file where the folder should be")
    with pytest.raises(StoreError, match=r"The folder .*data for the saved games cannot be made .*HIT_DATA_DIR"):
        GameStore(tmp_path / "data" / "games.sqlite")


def test_a_full_disk_is_a_message_naming_the_file_and_the_game_is_unchanged(tmp_path):
    # The limit on a file's size (RLIMIT_FSIZE) is the kernel's, and SQLite meets it as it meets a full disk; in
    # a process of its own, so that nothing else here is limited.
    script = textwrap.dedent("""
        import resource, signal, sys
        from pathlib import Path
        from solver.play.store import GameStore, StoreError
        store = GameStore(Path(sys.argv[1]))
        gid = store.create("g", "live", {"record": "hit", "version": 1, "players": 2})
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        try:
            store.append(gid, 1, [{"event": "round", "pad": "y" * 200_000}])
        except StoreError as e:
            print(e)
    """)
    path = tmp_path / "games.sqlite"
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True,
                          cwd=Path(__file__).parent.parent, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.startswith(f"{path}: ") and "while saving the move, so nothing was saved" in done.stdout
    assert "HIT_DATA_DIR" in done.stdout
    assert len(GameStore(path).lines(1)) == 1  # the move is not half saved
