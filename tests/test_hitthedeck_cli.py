"""The Hit the Deck command line: answers, and one clear line for every bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from solver.hitthedeck.advice import advise
from solver.hitthedeck.cli import MAX_INPUT, main
from solver.hitthedeck.knowledge import Knowledge

ROOT = Path(__file__).resolve().parent.parent
GOOD = {"hand": ["red 5", "blue cut", "hit 3", "y2"], "top": "red 2", "discard": ["red 4", "blue 4"],
        "opponents": [5, 6]}


def run(argv, capsys, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(path)


def test_advise_answers_with_the_advisors_figures(tmp_path, capsys):
    status, out, err = run(["advise", write(tmp_path, "t.json", json.dumps(GOOD))], capsys)
    assert status == 0 and err == ""
    answer = json.loads(out)
    expected = advise(Knowledge.from_dict(GOOD))
    assert answer["play"] == str(expected.play) and answer["reason"] == expected.reason
    assert answer["unseen"] == 110 - 4 - 1 - 2 and answer["opponents"][1]["cards"] == 6
    assert Fraction(answer["plays"][0]["next_follows"]["exact"]) == expected.ranked[0].next_follows
    status, out, _ = run(["advise", write(tmp_path, "t.json", json.dumps(GOOD)), "--objective", "points"], capsys)
    assert json.loads(out)["objective"] == "points"


def test_advise_reads_standard_input(capsys, monkeypatch):
    status, out, _ = run(["advise", "-"], capsys, stdin=json.dumps(GOOD).encode(), monkeypatch=monkeypatch)
    assert status == 0 and json.loads(out)["action"] == "play"


@pytest.mark.parametrize("content, message", [
    ({**GOOD, "hand": ["red 5", "red 9"]}, r"t\.json: hand\[1\]: 'red 9' is not a card: write a colour and 1-5"),
    ({**GOOD, "top": "hit 7"}, r"t\.json: top: 'hit 7' is not a card"),
    ({**GOOD, "hand": ["blue flip"], "discard": ["blue flip"]},
     r"t\.json: too many blue flip cards: the deck has 1, the table shows 2 \(hand 1, discard 1\)"),
    ({**GOOD, "opponents": [60, 45]}, r"t\.json: opponents: they hold 105 cards, but only 103 cards are unseen"),
    ({**GOOD, "opponents": [1, 1, 1, 1, 1, 1]}, r"t\.json: opponents: Hit the Deck is for 2 to 6 players"),
    ({**GOOD, "opponents": [5, -1]}, r"t\.json: opponents\[1\]: -1 cards: a player with no cards has gone out"),
    ({**GOOD, "colour": "red"}, r"t\.json: colour: is not a field of a table \(the fields are hand, top, discard"),
    ({"hand": ["red 5"], "opponents": [3]}, r"t\.json: top: is missing"),
    ("{\"hand\": [\"red 5\"", r"t\.json: not valid JSON: Expecting ',' delimiter at line 1 column 18"),
    ("", r"t\.json holds no table \(it is empty\); write an object like"),
    ("   \n", r"t\.json holds no table"),
    ("[" * 100_000, r"t\.json: not a table: nested too deeply"),
    ('{"hand": ["red 5"], "top": "red 2", "opponents": [' + "9" * 5000 + "]}", r"a number has too many digits"),
    ('"red 5"', r"t\.json: table: 'red 5' is not an object"),
])
def test_a_bad_table_gets_one_line_naming_what_and_where_and_status_1(tmp_path, capsys, content, message):
    text = content if isinstance(content, str) else json.dumps(content)
    status, out, err = run(["advise", write(tmp_path, "t.json", text)], capsys)
    assert status == 1 and out == ""
    assert err.startswith("hitthedeck: ") and err.count("\n") == 1 and len(err) < 320
    assert __import__("re").search(message, err), err


def test_a_file_that_cannot_be_read_gets_status_2(tmp_path, capsys):
    cases = [
        ([str(tmp_path)], "is a folder, not a file"),
        ([str(tmp_path / "missing.json")], "cannot read"),
        ([write(tmp_path, "latin.json", b'{"hand": ["r\xe9d 5"]}')], "not UTF-8 text (byte 12)"),
        ([write(tmp_path, "big.json", b" " * (MAX_INPUT + 1))], "is larger than 1 MB, the limit for a table"),
        ([""], "no file name given"),
    ]
    for argv, message in cases:
        status, out, err = run(["advise", *argv], capsys)
        assert status == 2 and out == "" and message in err and err.count("\n") == 1, (argv, err)


def test_standard_input_is_limited_too(capsys, monkeypatch):
    status, _, err = run(["advise", "-"], capsys, stdin=b"[" * (MAX_INPUT + 10), monkeypatch=monkeypatch)
    assert status == 2 and "stdin is larger than 1 MB" in err


def test_usage_errors_return_2_without_raising(capsys):
    for argv in (["advise"], ["nonsense"], ["tournament", "--games", "0"], ["tournament", "--players", "7"],
                 ["tournament", "--tested", "genius"], []):
        status, _, err = run(argv, capsys)
        assert status == 2 and "usage:" in err, argv
    status, out, _ = run(["--help"], capsys)
    assert status == 0 and "advise" in out and "tournament" in out
    assert out.startswith("usage: python -m solver.hitthedeck ")


def test_tournament_command_prints_the_win_rate_and_its_interval(capsys):
    status, out, _ = run(["tournament", "--games", "3", "--seed", "5", "--players", "3"], capsys)
    assert status == 0 and "95% Wilson interval" in out and "advisor against 2 x highest, 3 games" in out
    status, out, _ = run(["tournament", "--games", "2", "--seed", "5", "--players", "2", "--baseline", "random",
                          "--json"], capsys)
    d = json.loads(out)
    assert d["games"] == 2 and d["baseline"] == "random" and 0 <= d["win_low"] <= d["win_rate"] <= d["win_high"] <= 1


def test_python_dash_m_solver_hitthedeck_works(tmp_path):
    path = write(tmp_path, "t.json", json.dumps(GOOD))
    done = subprocess.run([sys.executable, "-m", "solver.hitthedeck", "advise", path], capture_output=True,
                          text=True, cwd=ROOT, check=False, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout)["play"] == str(advise(Knowledge.from_dict(GOOD)).play)
    done = subprocess.run([sys.executable, "-m", "solver.hitthedeck", "advise", "-"], input="{]", capture_output=True,
                          text=True, cwd=ROOT, check=False, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("hitthedeck: stdin: not valid JSON")
    assert "Traceback" not in done.stderr


def test_the_command_is_python_dash_m_solver_dot_hitthedeck_advise(tmp_path, capsys):
    """``python -m solver.hitthedeck advise FILE``: Hit the Deck's own command line; Hit!'s (``python -m solver``)
    does not know the other game, and its help points to this one."""
    path = write(tmp_path, "t.json", json.dumps(GOOD))
    command = ["-m", "solver.hitthedeck"]
    done = subprocess.run([sys.executable, *command, "advise", path], capture_output=True, text=True, cwd=ROOT,
                          check=False, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout) == advise(Knowledge.from_dict(GOOD)).to_dict()
    done = subprocess.run([sys.executable, *command, "advise", str(tmp_path)], capture_output=True, text=True,
                          cwd=ROOT, check=False, timeout=60)
    assert done.returncode == 2 and "is a folder" in done.stderr and "Traceback" not in done.stderr
    from solver.cli import main as hit_main

    with pytest.raises(SystemExit) as e:
        hit_main(["hitthedeck", "advise", path])
    assert e.value.code == 2 and "invalid choice: 'hitthedeck'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        hit_main(["--help"])
    assert "python -m solver.hitthedeck" in capsys.readouterr().out.replace("\n", " ")
