"""The batch commands' output folders (issue 24): nothing of anyone else's is overwritten."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver import endgame_table, tables, tournament
from solver.cli import main
from solver.hitthedeck import tournament as htd_tournament
from solver.hitthedeck.cli import main as htd_main

ROOT = Path(__file__).resolve().parent.parent
#: `bank`'s work limit in the builds here: small, so they are quick.
QUICK = "0.02"

#: Each batch command, with options that make it small; ``--out FOLDER`` is added.
COMMANDS = {
    "tournament": (main, ["tournament", "turn", "random", "--deals", "1", "--chunk", "1", "--workers", "1"]),
    "tables build": (main, ["tables", "build", "--positions", "2", "--chunk", "1", "--rule-starts", "1",
                            "--workers", "1", "--bank-seconds", QUICK]),
    "tables endgames": (main, ["tables", "endgames", "--positions", "1"]),
    "hitthedeck tournament": (htd_main, ["tournament", "--games", "1", "--players", "2"]),
}


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(command: str, out: str, capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``command`` with ``--out out``; it must refuse with status 2 and one line, which is returned."""
    run_main, argv = COMMANDS[command]
    status = run_main([*argv, "--out", out])
    got = capsys.readouterr()
    assert status == 2, (command, out, got.err)
    assert got.err.count("\n") == 1 and "Traceback" not in got.err, got.err
    return got.err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_empty_out_is_refused_and_the_current_folder_is_untouched(command, tmp_path, monkeypatch, capsys):
    # The tester's case: `--out ""` wrote into the current folder and replaced its README.md.
    (tmp_path / "README.md").write_text("# My project\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    err = refused(command, "", capsys)
    assert "--out: the folder's name is empty" in err
    assert snapshot(tmp_path) == before and not (tmp_path / ".build").exists()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_out_that_is_a_file_or_holds_other_files_is_refused(command, tmp_path, capsys):
    a_file = tmp_path / "results.csv"
    a_file.write_text("a,b\n1,2\n", encoding="utf-8")
    assert f"--out {a_file} is a file, not a folder" in refused(command, str(a_file), capsys)
    assert a_file.read_text(encoding="utf-8") == "a,b\n1,2\n"
    # A folder of somebody else's: a README of its own, and a file no command writes.
    theirs = tmp_path / "project"
    theirs.mkdir()
    (theirs / "README.md").write_text("# My project\n", encoding="utf-8")
    (theirs / "notes.txt").write_text("mine", encoding="utf-8")
    before = snapshot(theirs)
    err = refused(command, str(theirs), capsys)
    assert "notes.txt" in err and "README.md (it begins '# My project'" in err
    assert "which this command does not write" in err
    assert snapshot(theirs) == before


@pytest.mark.parametrize("command, other", [("tournament", "tables build"), ("tables build", "tournament"),
                                            ("hitthedeck tournament", "tournament"),
                                            ("tables endgames", "tournament")])
def test_another_commands_folder_is_refused(command, other, tmp_path, capsys):
    # A folder holding just another command's files (its README and tables) is not this command's to replace.
    folder = tmp_path / "f"
    folder.mkdir()
    own = {"tournament": tournament.OUTPUT, "tables build": tables.OUTPUT}[other]
    (folder / "README.md").write_text(f"{own.heading}\n\nSomething.\n", encoding="utf-8")
    for name in sorted(own.files)[:2]:
        (folder / name).write_text("x", encoding="utf-8")
    before = snapshot(folder)
    assert f"README.md (it begins {own.heading!r}" in refused(command, str(folder), capsys)
    assert snapshot(folder) == before


def test_the_shipped_folders_are_their_commands_own():
    # data/ holds the decision tables and, in folders of their own, the other commands' tables: each is a
    # valid folder for the command that rebuilds it, and for no other.
    data = ROOT / "data"
    assert tables.OUTPUT.check(str(data)) == data
    assert tournament.OUTPUT.check(str(data / "strength")) == data / "strength"
    assert endgame_table.OUTPUT.check(str(data / "endgames")) == data / "endgames"
    assert htd_tournament.OUTPUT.check(str(data / "hitthedeck")) == data / "hitthedeck"
    for output, folder in ((tournament.OUTPUT, data), (tables.OUTPUT, data / "strength"),
                           (endgame_table.OUTPUT, data), (htd_tournament.OUTPUT, data / "strength")):
        with pytest.raises(ValueError, match="which this command does not write"):
            output.check(str(folder))


def test_a_folder_a_command_wrote_is_its_own_again(tmp_path, capsys):
    # Hit the Deck's tournament writes no chunks: its own README and CSVs (and a temporary a killed run left)
    # are what a rerun may replace.
    out = tmp_path / "htd"
    assert htd_main(["tournament", "--games", "1", "--players", "2", "--out", str(out), "--json"]) == 0
    (out / ".games.csv.tmp").write_text("half", encoding="utf-8")
    assert htd_main(["tournament", "--games", "2", "--players", "2", "--out", str(out), "--json"]) == 0
    assert len((out / "games.csv").read_text(encoding="utf-8").splitlines()) == 3
    assert (out / "README.md").read_text(encoding="utf-8").startswith("# Hit the Deck tournaments\n")
    capsys.readouterr()


def test_records_need_a_folder_of_records(tmp_path, capsys):
    out = tmp_path / "t"
    base = ["tournament", "turn", "random", "--deals", "1", "--chunk", "1", "--workers", "1", "--out", str(out)]
    assert main([*base, "--records", ""]) == 2
    assert "--records: the folder's name is empty" in capsys.readouterr().err
    theirs = tmp_path / "r"
    theirs.mkdir()
    (theirs / "diary.txt").write_text("mine", encoding="utf-8")
    assert main([*base, "--records", str(theirs)]) == 2
    assert "diary.txt, which this command does not write" in capsys.readouterr().err
    assert main([*base, "--records", str(out / "records")]) == 2
    assert "the records need a folder outside --out's" in capsys.readouterr().err
    assert not out.exists()
