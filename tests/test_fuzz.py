"""Hostile and malformed input for ``python -m solver advise``: a corpus generated here, not stored.

Every kind of bad value in every field of a position, broken JSON of many
shapes and a few giant inputs, run through the command line as one JSON-lines
batch (each line a case) and as single ``.json`` files. The run must show no
traceback, answer every line (a good position is still answered after the bad
ones), keep every error line under 300 characters, and answer each case within
10 s of reading it (a watchdog on standard input, which is answered line by line).
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOOD = {"players": [{"line": [3, 5]}, {"line": [5]}], "active": 0}

BAD_VALUES: list[object] = [
    None, True, False, -1, 0, 11, 99, 10**30, -(10**30), 1.5, float("inf"), "7", "", "x" * 2000, [], {}, [[]],
    [None], [1.5], ["3"], [11], [0], [-1], [True], [3] * 200, {"line": [3]}, [[3]], "\u202e\u0000", [10**20],
    {"$ref": "#"},
]
FIELDS = ["players", "active", "discard", "offer", "line", "loot", "lost_turns", "extra", "seat", "other line"]


def position_with(field: str, value: object) -> object:
    pos = json.loads(json.dumps(GOOD))
    if field in ("line", "loot", "lost_turns"):
        pos["players"][0][field] = value
    elif field == "seat":  # a whole player
        pos["players"][1] = value
    elif field == "other line":
        pos["players"][1]["line"] = value
    else:
        pos[field] = value
    return pos


def corpus() -> list[str]:
    """One JSON text per case (a single line each)."""
    cases = []
    for field in FIELDS:
        for value in BAD_VALUES:
            try:
                cases.append(json.dumps(position_with(field, value)))
            except ValueError:  # inf: written by hand below
                cases.append(json.dumps(position_with(field, 0)).replace("0", "Infinity", 1))
    text = json.dumps(GOOD)
    cases += [
        text[:-1], text + ",", text.replace(":", ";", 1), text.replace('"', "'"), "{", "}", "[]", "null", "0",
        '"position"', "nan", "NaN", "{" * 5000 + "}" * 5000, "[" * 100_000, '{"players": [' + "{}," * 50_000 + "{}]}",
        '{"active": ' + "9" * 5000 + "}", '{"players": [{}, {}], "active": 0, "active": 1}',
        '{"players": [{"line": [' + "3," * 100_000 + "3]}, {}], \"active\": 0}", "\ufeff" + text, "\x00" * 100,
        '{"players": [{}, {}], "active": 0, "offer": "' + "\\u0000" * 500 + '"}', "x\u2028y", "\t" + text + " ",
        '{"players": [{}, {}, {}, {}, {}, {}], "active": 0}', '{"players": [{}], "active": 0}',
        '{"players": [{}, {}], "active": 2}', '{"players": [{}, {}], "active": 0, "discard": [7, 7, 7, 7, 7, 7, 7, 7]}',
        '{"players": [{"line": [3]}, {}], "active": 0, "offer": 4}', json.dumps({"players": [{}, {}], "active": 0,
                                                                                 "note": "x" * 10_000}),
    ]
    return [c.replace("\n", " ") for c in cases]


def test_the_corpus_has_over_315_kinds():
    assert len(corpus()) > 315


def test_no_traceback_no_silence_no_long_error(tmp_path):
    cases = corpus()
    batch = tmp_path / "fuzz.jsonl"
    batch.write_text("\n".join(cases + [json.dumps(GOOD)]) + "\n", encoding="utf-8", errors="surrogatepass")
    done = subprocess.run([sys.executable, "-m", "solver", "advise", str(batch)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=False)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    answers = done.stdout.splitlines()
    assert len(answers) == len(cases) + 1, (len(answers), len(cases) + 1)
    for case, line in zip(cases, answers):
        assert len(line) < 300 or "error" not in line, (case[:80], line[:400])
        json.loads(line)
    assert json.loads(answers[-1])["action"] in ("stop", "draw")  # the good position after them all
    assert done.returncode == 1


def test_each_kind_as_a_json_file(tmp_path):
    # The same cases, a sample of them, each as its own .json file: one error line each (or an answer).
    files = []
    for k, case in enumerate(corpus()[::7]):
        f = tmp_path / f"case{k}.json"
        f.write_text(case, encoding="utf-8", errors="surrogatepass")
        files.append(f)
    for f in files:
        done = subprocess.run([sys.executable, "-m", "solver", "advise", str(f)], capture_output=True, text=True,
                              cwd=ROOT, timeout=60, check=False)
        assert "Traceback" not in done.stderr, (f.read_text()[:80], done.stderr[-2000:])
        lines = done.stdout.splitlines()
        assert len(lines) <= 1 and all(len(x) < 300 for x in lines), lines
        assert done.returncode in (0, 1, 2)


def test_no_case_hangs_over_ten_seconds(tmp_path):
    # The cases go in one at a time on standard input; each answer must come within 10 s of its line.
    # A watchdog for hangs, not a speed test: every case is answered in milliseconds.
    with (tmp_path / "stderr").open("w") as err:
        child = subprocess.Popen([sys.executable, "-m", "solver", "advise", "-"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=err, cwd=ROOT)
        assert child.stdin is not None and child.stdout is not None
        hangs, answered = [], 0
        for case in corpus() + [json.dumps(GOOD)]:
            child.stdin.write(case.encode("utf-8", errors="surrogatepass") + b"\n")
            child.stdin.flush()
            if not select.select([child.stdout], [], [], 10)[0]:
                hangs.append(case[:80])
                break  # the child is stuck; the later cases cannot be timed
            json.loads(child.stdout.readline())
            answered += 1
        child.kill()
        child.wait()
    assert hangs == [] and answered == len(corpus()) + 1, hangs
