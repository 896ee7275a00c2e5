"""The batch commands' output folders and their runs (issue 24): nothing of anyone else's is overwritten, a
rerun keeps its promises (records), Ctrl-C stops at once and keeps what was built, pools fit the work, and
progress counts."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

from solver.play import tournament
from solver.study import endgame_table, tables
from solver.utilities.chunks import Chunk, read_chunks, run_chunks
from solver.cli import main
from solver.hitthedeck import tournament as htd_tournament
from solver.hitthedeck.cli import main as htd_main
from solver.study.tables import build_positions
from solver.play.tournament import Pairing, run

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


# -- 2. --records on a rerun -------------------------------------------------------------------------
def test_records_asked_for_on_a_rerun_are_written_for_chunks_already_built(tmp_path):
    pairings = [Pairing("turn", "threshold:25", 2)]
    out, records = tmp_path / "t", tmp_path / "r"
    first, _ = run(pairings, deals=3, out=out, seed=3, chunk=1, workers=1, log=lambda _: None, bar=False)
    logs: list[str] = []
    again, _ = run(pairings, deals=3, out=out, seed=3, chunk=1, workers=1, records=records, log=logs.append,
                   bar=False)
    written = sorted(p.name for p in records.glob("*.jsonl"))
    assert written == [f"turn-vs-threshold-25-2p-d{d:05d}-r{r}.jsonl" for d in range(3) for r in range(2)]
    assert logs[0].startswith("tournament: 3 of 3 chunks already built have no records in ")
    pd.testing.assert_frame_equal(first, again)  # the same games, played again for their records
    # A record deleted since: its chunk is played again, the others resume.
    (records / written[2]).unlink()
    logs.clear()
    run(pairings, deals=3, out=out, seed=3, chunk=1, workers=1, records=records, log=logs.append, bar=False)
    assert "tournament: resuming, 2 of 3 chunks already built" in logs
    assert sorted(p.name for p in records.glob("*.jsonl")) == written


# -- 3. Ctrl-C ---------------------------------------------------------------------------------------
def _ctrl_c_as_at_a_terminal() -> None:
    """The command as a player starts it at a terminal: Ctrl-C on. (A suite run in the background, as
    ``make test &`` or under nohup, ignores SIGINT, and a child inherits that: Ctrl-C would never arrive.)"""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_tournament_at_once_keeping_its_chunks(tmp_path):
    # Far more work than the bound below allows (about a minute on two cores): Ctrl-C must not wait for it.
    out = tmp_path / "t"
    proc = subprocess.Popen([sys.executable, "-m", "solver", "tournament", "turn", "turn", "--deals", "6000",
                             "--chunk", "20", "--workers", "2", "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        build = out / ".build"
        deadline = time.monotonic() + 120
        while not list(build.glob("*.parquet")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert list(build.glob("*.parquet")), "no chunk was saved"
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert workers
        os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: to the whole process group
        status = proc.wait(timeout=20)  # a bound on hanging, not a speed test
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    _, err = proc.communicate()
    assert status == 130, err
    said = [line for line in re.split(r"[\r\n]", err) if line.startswith("hit-solver:")]
    saved = sorted(build.glob("*.parquet"))
    assert len(said) == 1 and said[0] == (f"hit-solver: tournament: interrupted; {len(saved)} of 300 chunks are "
                                          f"saved in {build}, and the same command resumes from them"), err
    assert "Traceback" not in err
    _, alive = psutil.wait_procs(workers, timeout=20)
    assert not alive, f"workers outlived the interrupted run: {alive}"
    # A rerun resumes from the saved chunks (asked for as many deals as they reach, so it has little to do).
    firsts = sorted(int(re.search(r"-d(\d{5})-n20-", p.name).group(1)) for p in saved)  # type: ignore[union-attr]
    logs: list[str] = []
    games, _ = run([Pairing("turn", "turn", 2)], deals=firsts[-1] + 20, out=out, seed=2026, chunk=20, workers=1,
                   log=logs.append, bar=False)
    assert logs[0] == f"tournament: resuming, {len(saved)} of {firsts[-1] // 20 + 1} chunks already built"
    assert len(games) == 2 * (firsts[-1] + 20) and not list(out.rglob("*.tmp"))


def _row(i: int) -> list[dict[str, int]]:
    return [{"i": i}]


def test_ctrl_c_just_after_a_chunk_is_saved_is_counted_with_it(tmp_path, monkeypatch):
    # CI's case: Ctrl-C landed after a chunk's file was renamed into place but before the run counted it,
    # and the message said one chunk fewer than a resume would find.
    from solver.utilities import chunks as module

    real = module.atomic

    def saved_then_ctrl_c(path, write):
        real(path, write)
        if path.name == "c1.parquet":
            raise KeyboardInterrupt

    monkeypatch.setattr(module, "atomic", saved_then_ctrl_c)
    jobs = [Chunk(tmp_path / f"c{i}.parquet", _row, (i,)) for i in range(4)]
    with pytest.raises(module.Interrupted) as stopped:
        run_chunks(jobs, "demo", workers=1, log=lambda _: None, bar=False)
    saved = sorted(p.name for p in tmp_path.glob("*.parquet"))
    assert "c1.parquet" in saved
    assert str(stopped.value) == (f"demo: interrupted; {len(saved)} of 4 chunks are saved in {tmp_path}, and the "
                                  "same command resumes from them")


def _padded(i: int) -> list[dict[str, object]]:
    return [{"chunk": i, "pad": [i]} for _ in range(50)]  # (a list inside: the garbage collector tracks it)


def test_a_chunks_rows_are_let_go_once_saved(tmp_path, monkeypatch):
    # A training run (48,000 games a table size in 1,920 chunks) grew to 23.7 GB and stalled the machine:
    # every chunk's rows stayed in memory with its future until the run ended.
    import gc

    from solver.utilities import chunks as module

    real, alive, saved = module.atomic, [], set()

    def counting(path, write):
        gc.collect()
        alive.append(sum(1 for o in gc.get_objects() if isinstance(o, dict) and "pad" in o
                         and type(o.get("chunk")) is int and o["chunk"] in saved))
        real(path, write)
        saved.add(int(path.stem[1:]))

    monkeypatch.setattr(module, "atomic", counting)
    jobs = [Chunk(tmp_path / f"c{i}.parquet", _padded, (i,)) for i in range(6)]
    run_chunks(jobs, "demo", workers=1, log=lambda _: None, bar=False)
    assert len(read_chunks(jobs)) == 300
    assert alive == [0] * 6, alive  # no row of a chunk saved before


# -- 4. the pool's size ----------------------------------------------------------------------------
def _siblings() -> list[dict[str, int]]:
    """A chunk's work: how many workers its pool has (the processes its parent forked as it)."""
    me = psutil.Process()
    return [{"workers": sum(1 for p in psutil.Process(os.getppid()).children() if p.cmdline() == me.cmdline())}]


def test_a_pool_never_has_more_workers_than_chunks_or_cores(tmp_path):
    # The tester's case: --workers 32 on one chunk forked 32 processes.
    job = Chunk(tmp_path / "c.parquet", _siblings, ())
    run_chunks([job], "demo", workers=32, log=lambda _: None, bar=False)
    assert read_chunks([job])["workers"].tolist() == [1]
    # The rule that decides it.
    from solver.utilities.chunks import pool_size

    cores = len(os.sched_getaffinity(0))
    assert pool_size(32, 1) == pool_size(None, 1) == 1
    assert pool_size(32, 1000) == min(32, cores) and pool_size(None, 1000) == cores and pool_size(1, 1000) == 1
    assert pool_size(2, 3) == min(2, cores)


# -- 5. progress -----------------------------------------------------------------------------------
def test_build_progress_counts_its_chunks(tmp_path, capsys):
    build_positions(tmp_path, 30, chunk_size=10, seed=3, workers=1, bank_seconds=float(QUICK))  # logs with print
    assert capsys.readouterr().out.splitlines() == ["positions: chunk 1/3 done (33%)",
                                                    "positions: chunk 2/3 done (67%)",
                                                    "positions: chunk 3/3 done (100%)"]
    sorted((tmp_path / ".build").glob("*.parquet"))[1].unlink()
    build_positions(tmp_path, 30, chunk_size=10, seed=3, workers=1, bank_seconds=float(QUICK))
    assert capsys.readouterr().out.splitlines() == ["positions: resuming, 2 of 3 chunks already built",
                                                    "positions: chunk 3/3 done (100%)"]


def test_ctrl_c_in_the_endgame_table_says_nothing_was_kept(tmp_path, monkeypatch, capsys):
    # The endgame table is built in memory and written whole: Ctrl-C leaves nothing to resume from, and the
    # message must not promise chunks (it once did).
    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(endgame_table, "build_endgames", interrupted)
    assert main(["tables", "endgames", "--positions", "2", "--out", str(tmp_path / "eg")]) == 130
    err = capsys.readouterr().err
    assert err == ("hit-solver: interrupted; the endgame table is built in one piece, so nothing was written and "
                   "the same command starts again\n")
    assert not (tmp_path / "eg").exists() or not any((tmp_path / "eg").iterdir())
