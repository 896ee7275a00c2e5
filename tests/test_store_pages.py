"""The Live game and Practice pages over a games file that cannot be used as it should: a damaged file, an
emptied one, a damaged game among good ones, a read-only file, a record with only its header. Each is a
message naming the file and what to do, never a crash and never a silent fresh start; the other games stay
usable where they can be read. Real files and real SQLite, driven by AppTest."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from game_pages import LIVE, PRACTICE, button, unescape
from streamlit.testing.v1 import AppTest
from test_store_damage import a_store, read_only

from solver.play.live import LiveGame
from solver.play.store import GameStore


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HIT_DATA_DIR", str(tmp_path))
    return tmp_path


def page(script: str, game: int | None = None) -> AppTest:
    at = AppTest.from_file(script, default_timeout=60)
    if game is not None:
        at.query_params["game"] = str(game)
    return at.run()


def said(at: AppTest) -> str:
    return unescape("\n".join(str(e.value) for e in [*at.error, *at.warning, *at.info]))


@pytest.mark.parametrize("script", [LIVE, PRACTICE])
def test_a_damaged_file_is_a_message_and_can_be_set_aside_keeping_it(folder, script):
    path = folder / "games.sqlite"
    a_store(path)
    with open(path, "r+b") as f:  # its last page overwritten
        f.seek(-4096, 2)
        f.write(b"\xde\xad" * 2048)
    f.close()
    with open(path, "r+b") as f:
        f.seek(0)
        f.write(b"not a database at all, sorry")
    at = page(script)
    assert not at.exception
    assert str(path) in said(at) and "damaged" in said(at), said(at)
    at.button(key="store_set_aside").click().run()
    assert not at.exception
    kept = [p for p in folder.iterdir() if p.name.startswith("games.sqlite.damaged-")]
    assert kept and kept[0].read_bytes().startswith(b"not a database")  # kept, never deleted
    assert "kept as" in said(at) and GameStore(path).games() == []


def test_an_emptied_file_is_not_taken_for_a_new_one(folder):
    path = folder / "games.sqlite"
    a_store(path)
    path.write_bytes(b"")
    at = page(LIVE)
    assert not at.exception
    assert "empty" in said(at) and str(path) in said(at), said(at)
    assert not [b for b in at.button if b.key == "live_start"]  # no new game over a file that held games


def test_a_damaged_game_spoils_only_itself(folder):
    path = folder / "games.sqlite"
    store, (one, two, three) = a_store(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE lines SET body = 'not json' WHERE game = ? AND seq = 1", (two,))
    db.close()
    at = page(LIVE, two)
    assert not at.exception
    assert f"saved game {two}" in said(at) and "line 2" in said(at), said(at)
    good = page(LIVE, one)
    assert not good.exception and not good.error
    button(good, "live_card_9").click().run()
    assert LiveGame(store, one).game.players[0].line == [1, 9]


def test_a_read_only_file_opens_its_games_and_says_no_tap_can_be_saved(folder):
    path = folder / "games.sqlite"
    store, (gid, *_) = a_store(path)
    with read_only(path):
        at = page(LIVE, gid)
        assert not at.exception and "read-only" in said(at)
        button(at, "live_card_9").click().run()
        assert not at.exception and "could not be saved" in said(at), said(at)
        assert LiveGame(GameStore(path), gid).game.players[0].line == [1]
        new = page(LIVE)
        new.button(key="live_start").click().run()  # "Start recording" once crashed here
        assert not new.exception and "cannot start" in said(new) and "read-only" in said(new), said(new)


def test_a_record_of_only_its_header_is_refused_on_import(folder):
    """(AppTest has no file uploader: the page's import is the store's, whose message the page shows.) A game
    saved with only its header, as an import once left, opens as a message, never an AssertionError."""
    from solver.game.record import RecordError

    header = {"record": "hit", "version": 1, "players": 2, "names": ["Ann", "Bob"], "rounds": 1, "variant": False}
    store = GameStore(folder / "games.sqlite")
    with pytest.raises(RecordError, match="only its header"):
        store.import_record(json.dumps(header) + "\n", "header only")
    assert store.games() == []
    with sqlite3.connect(store.path) as db:  # as the old import saved it
        db.execute("INSERT INTO games (name, kind, created, updated) VALUES ('old', 'imported', 0, 0)")
        db.execute("INSERT INTO lines (game, seq, body) VALUES (1, 0, ?)", (json.dumps(header),))
    db.close()
    for _ in range(2):  # and again, as the sidebar link reopened it
        at = page(LIVE, 1)
        assert not at.exception and "saved game 1" in said(at), said(at)
