"""Saved games in SQLite (solver.play.store): nothing lost, two writers never corrupt a game."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from solver.game.record import RecordError, dumps, replay
from solver.game.rules import Match
from solver.play.store import GameMovedOn, GameStore, NoSuchGame, data_dir
from solver.play.tournament import Pairing, play_deal


def a_record() -> str:
    game, _ = play_deal(Pairing("turn", "threshold:25", 2), 1, 0, 0)
    m = Match(2)
    m.games.append(game)
    return dumps(m, ["Ann", "Bob"])


def test_a_game_saved_line_by_line_survives_a_restart(tmp_path):
    path = tmp_path / "games.sqlite"
    rows = a_record().splitlines()
    store = GameStore(path)
    gid = store.create("Friday night", "live", json.loads(rows[0]))
    have = 1
    for row in rows[1:]:  # as a live game saves: one line at a time
        have = store.append(gid, have, [json.loads(row)])
    again = GameStore(path)  # a new server process
    assert again.lines(gid) == [json.dumps(json.loads(r)) for r in rows]
    assert replay(again.export(gid)).over
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _append_from_another_process(path: str, gid: int, expected: int, value: int, out: "multiprocessing.Queue[str]") -> None:
    try:
        GameStore(Path(path)).append(gid, expected, [{"event": "draw", "seat": 0, "value": value}])
        out.put("saved")
    except GameMovedOn:
        out.put("moved on")


def test_two_tabs_on_one_game_one_wins_the_other_is_told(tmp_path):
    store = GameStore(tmp_path / "g.sqlite")
    gid = store.create("g", "live", {"record": "hit", "version": 1, "players": 2})
    store.append(gid, 1, [{"event": "round", "round": 1, "first": 0}])
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_append_from_another_process, args=(str(store.path), gid, 2, v, out))
             for v in (3, 7)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    results = sorted(out.get(timeout=5) for _ in procs)
    assert results == ["moved on", "saved"]
    assert len(store.lines(gid)) == 3  # exactly one of the two draws, never both
    with pytest.raises(GameMovedOn, match=r"game \d+ has 3 lines, not 2: it moved on in another tab"):
        store.cut(gid, 2, 2)


def test_undo_rename_delete_list_and_import(tmp_path):
    store = GameStore(tmp_path / "g.sqlite")
    text = a_record()
    gid = store.import_record(text, "  an   imported\n game  ")
    n = len(text.splitlines())
    assert store.game(gid).name == "an imported game" and store.game(gid).lines == n
    store.cut(gid, n, 5)
    assert len(store.lines(gid)) == 5 and store.lines(gid)[:5] == store.export(gid).splitlines()
    store.cut(gid, 5, 0)  # the header always stays
    assert len(store.lines(gid)) == 1
    store.rename(gid, "x" * 500)
    assert store.game(gid).name == "x" * 80
    other = store.create("later", "practice", {"record": "hit", "version": 1, "players": 3}, {"you": 1})
    assert [g.id for g in store.games()] == [other, gid] and store.game(other).settings == {"you": 1}
    store.delete(gid)
    with pytest.raises(NoSuchGame, match=rf"there is no saved game {gid}"):
        store.lines(gid)
    with pytest.raises(NoSuchGame):
        store.append(gid, 1, [])
    broken = text.replace('"value": ', '"value": 1', 1)
    with pytest.raises(RecordError, match=r"^line 3: "):
        store.import_record(broken, "broken")
    assert [g.id for g in store.games()] == [other]  # a refused import saves nothing


def test_an_imports_message_names_the_files_own_line_and_stays_short(tmp_path):
    # Blank lines were dropped before the record was read, so a message counted only the others: line 3 of a
    # file with two blank lines before it was called line 1's neighbour. And a 3,000-character key was quoted
    # whole.
    store = GameStore(tmp_path / "g.sqlite")
    text = a_record()
    rows = text.splitlines()
    broken = "\n".join(rows[:2] + [rows[2].replace('"value": ', '"value": 1', 1)] + rows[3:])
    with pytest.raises(RecordError, match=r"^line 3: "):
        store.import_record(broken, "as is")
    with pytest.raises(RecordError, match=r"^line 5: "):  # two blank lines before it, inside the record
        store.import_record("\n".join(rows[:2] + ["", ""] + rows[2:]).replace('"value": ', '"value": 1', 1), "x")
    with pytest.raises(RecordError, match=r"^line 6: "):  # three before the header, counted too
        store.import_record("\n\n\n" + broken, "y")
    start = {"event": "round", "round": 1, "first": 0, "start": {"players": [{"k" * 3000: 1}, {}], "active": 0}}
    with pytest.raises(RecordError) as e:  # a round joined under way whose table has a bad key
        store.import_record("\n".join([rows[0], json.dumps(start)]), "long")
    assert str(e.value).startswith("line 2: ") and len(str(e.value)) <= 360, str(e.value)[:400]
    # A joined round's table with lost turns past what the pages can count (the Live page then crashed on every
    # opening of the game): refused at the import, naming the line and the seat.
    start = {"event": "round", "round": 1, "first": 0,
             "start": {"players": [{"lost_turns": 10 ** 30}, {}], "active": 0}}
    with pytest.raises(RecordError, match=r"^line 2: start: players\[0\]\.lost_turns: 1000000000000000000000000"
                                          r"000000 is more than the app takes \(0 to 9999\)$"):
        store.import_record("\n".join([rows[0], json.dumps(start)]), "lost")
    hidden = json.dumps(start).replace('"start"', '"\\u0073tart"')  # the same key, written with an escape
    with pytest.raises(RecordError, match=r"^line 2: start: players\[0\]\.lost_turns: "):
        store.import_record("\n".join([rows[0], hidden]), "escaped")
    # A table of a later round of a match: its advice would count totals its standings leave out.
    joined = {"event": "round", "round": 1, "first": 0,
              "start": {"players": [{"line": [3]}, {"line": [5, 5]}], "active": 0,
                        "match": {"round": 3, "rounds": 3, "earlier": [{"points": 40, "cards": 10, "lost_turns": 1},
                                                                      {"points": 30, "cards": 8, "lost_turns": 0}]}}}
    with pytest.raises(RecordError, match=r"^line 2: start: a table in a later round of a match \(R15\) cannot"):
        store.import_record("\n".join([rows[0], json.dumps(joined)]), "match")
    with pytest.raises(RecordError, match=r"^the file is empty: a record starts with its header line$"):
        store.import_record("\n\n\n", "blank")
    assert store.games() == []  # nothing refused was saved
    gid = store.import_record("\n\n" + text + "\n\n", "blank lines around")  # still taken, blank lines left out
    assert store.game(gid).lines == len(rows)


def test_the_data_folder_is_the_environments_or_the_users(monkeypatch, tmp_path):
    monkeypatch.setenv("HIT_DATA_DIR", str(tmp_path / "mine"))
    assert data_dir() == tmp_path / "mine"
    assert GameStore().path == tmp_path / "mine" / "games.sqlite" and (tmp_path / "mine").is_dir()
    monkeypatch.delenv("HIT_DATA_DIR")
    assert "hit-solver" in str(data_dir())
