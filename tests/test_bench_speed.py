"""The benchmarks' command line, ``python -m bench.speed`` (``make bench``): outside the importable package, with
the options the old ``python -m solver bench`` had, each running its measurement. (What the measurements
compute is tested where they live: tests/test_endgame.py, test_foresight.py, test_pruned.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bench.speed as speed
from solver.cli import main as hit_main

ROOT = Path(__file__).resolve().parent.parent


def test_the_defaults_are_the_documented_runs():
    args = speed.parser().parse_args([])
    assert (args.positions, args.seed, args.cap, args.runs) == (300, 2026, 30.0, 1000)


@pytest.mark.parametrize("argv,call", [
    ([], ("run", {"count": 300, "seed": 2026})),
    (["--positions", "20", "--seed", "7"], ("run", {"count": 20, "seed": 7})),
    (["--endgames", "--cap", "60"], ("endgames", {"cap": 60.0})),
    (["--win-pruning"], ("win_pruning", {})),
    (["--win-anatomy"], ("win_anatomy", {})),
    (["--models"], ("run_models", {"seed": 2026, "cap": 30.0})),
    (["--bank-error", "--cap", "30", "--runs", "50"], ("bank_error", {"runs": 50, "cap": 30.0})),
    (["--tables", "--positions", "200"], ("tables_speedup", {"count": 200})),
    (["--games"], ("games_speed", {"seed": 2026})),
    (["--win"], ("win_speed", {"seed": 2026})),
    (["--win-maxn"], ("maxn_speed", {"seed": 2026})),
    (["--self-play", "--seed", "7"], ("self_play_speed", {"seed": 7})),
])
def test_each_option_runs_its_measurement(monkeypatch, argv, call):
    calls = []
    for name in ("run", "endgames", "win_pruning", "win_anatomy", "run_models", "bank_error", "tables_speedup",
                 "games_speed", "win_speed", "maxn_speed", "self_play_speed"):
        monkeypatch.setattr(speed, name, lambda _name=name, **kw: calls.append((_name, kw)))
    assert speed.main(argv) == 0
    assert calls == [call]


@pytest.mark.parametrize("argv", [["--positions", "0"], ["--cap", "-1"], ["--runs", "x"], ["--nothing"]])
def test_bad_options_are_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as e:
        speed.main(argv)
    assert e.value.code == 2 and "usage: python -m bench.speed" in capsys.readouterr().err


def test_python_dash_m_bench_speed_answers_help_and_the_package_has_no_bench():
    done = subprocess.run([sys.executable, "-m", "bench.speed", "--help"], capture_output=True, text=True, cwd=ROOT,
                          check=False, timeout=60)
    assert done.returncode == 0 and "--win-anatomy" in done.stdout and "--bank-error" in done.stdout
    with pytest.raises(SystemExit) as e:
        hit_main(["bench"])
    assert e.value.code == 2


def test_make_bench_runs_it():
    makefile = (ROOT / "Makefile").read_text()
    assert "\nbench: setup\n\t$(BIN)/python -m bench.speed\n" in makefile
