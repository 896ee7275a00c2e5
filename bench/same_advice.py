"""Whether ``advise`` still says exactly what it said: every model, the 300 benchmark positions.

    .venv/bin/python -m bench.same_advice record     # writes bench/same_advice.json
    .venv/bin/python -m bench.same_advice check      # compares today's answers with it

The positions are the benchmark's (``sample_positions(300, seed=2026)``: decision points of simulated games
with 2 to 5 players). ``record`` runs the command line's ``advise`` (``python -m solver advise``, floats, and
``--exact``) on them with every model and keeps a digest of each answer line; ``check`` runs the same
commands and names every line whose bytes differ. A model past its work limit on a position says so in an
error line; the record keeps which lines those were, and ``check`` leaves those positions out (their answer
was never seen) and reports apart any answer the record has that is now past the limit (a change of speed,
or a busy machine, not of what is said).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = Path(__file__).with_suffix(".json")
COUNT, SEED = 300, 2026
#: The work limit for each answer, in seconds; a position past it is compared only as "past the limit".
LIMIT = 5.0
MODES = ("float", "exact")


def positions_file(folder: Path) -> Path:
    from solver.play.simulate import sample_positions

    path = folder / "positions.jsonl"
    path.write_text("".join(json.dumps(p.to_dict()) + "\n" for p in sample_positions(COUNT, seed=SEED)))
    return path


def models() -> list[str]:
    from solver.models import MODELS

    return list(MODELS)


def answers(path: Path, model: str, mode: str, limit: float | None) -> list[str]:
    """The answer lines of ``advise`` on every position of ``path``, one process per call."""
    args = [sys.executable, "-m", "solver", "advise", str(path), "--model", model]
    args += ["--exact"] if mode == "exact" else []
    args += [] if limit is None else ["--time-limit", str(limit)]
    run = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"advise --model {model} ({mode}) failed with {run.returncode}:\n{run.stderr}")
    return run.stdout.splitlines()


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def past_limit(line: str) -> bool:
    return line.startswith('{"error"') and "limit" in line


def record() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        path = positions_file(Path(tmp))
        out: dict[str, object] = {"positions": COUNT, "seed": SEED, "limit s": LIMIT,
                                  "positions sha256": digest(path.read_text()), "answers": {}}
        table: dict[str, object] = {}
        for model in models():
            for mode in MODES:
                lines = answers(path, model, mode, LIMIT)
                slow = [k for k, line in enumerate(lines) if past_limit(line)]
                table[f"{model} {mode}"] = {"lines": [digest(line) for line in lines], "past the limit": slow}
                print(f"{model} {mode}: {len(lines)} lines, {len(slow)} past the limit", flush=True)
        out["answers"] = table
    RECORD.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {RECORD.relative_to(ROOT)}")
    return 0


def check() -> int:
    kept = json.loads(RECORD.read_text())
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = positions_file(Path(tmp))
        if digest(path.read_text()) != kept["positions sha256"]:
            print("the benchmark positions themselves differ from the record's")
            return 1
        every = path.read_text().splitlines(keepends=True)
        for name, before in kept["answers"].items():
            model, mode = name.split()
            slow = set(before["past the limit"])
            asked = [k for k in range(len(every)) if k not in slow]  # what the record answered within the limit
            # The same file name and line numbers as the record's (error lines name them); a position the record
            # saw past the limit is replaced by an empty object, refused at once, and not compared.
            subset = Path(tmp) / f"{model}-{mode}" / path.name
            subset.parent.mkdir()
            subset.write_text("".join("{}\n" if k in slow else line for k, line in enumerate(every)))
            lines = answers(subset, model, mode, LIMIT)
            if len(lines) != len(every):
                print(f"{name}: {len(lines)} lines for {len(every)} positions")
                differ += 1
                continue
            lines = [lines[k] for k in asked]
            changed = [k for k, line in zip(asked, lines) if digest(line) != before["lines"][k] and not past_limit(line)]
            slowed = [k for k, line in zip(asked, lines) if past_limit(line)]
            compared = len(asked) - len(slowed)
            print(f"{name}: {compared - len(changed)} of {compared} answers byte-identical"
                  f" ({len(slow)} past the limit when recorded, not compared)"
                  + (f"; lines differing: {changed}" if changed else "")
                  + (f"; past the limit now, answered before: {slowed}" if slowed else ""), flush=True)
            differ += bool(changed)
    print("same advice" if not differ else f"{differ} model(s) answer differently")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.same_advice", description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("record", "check"))
    args = p.parse_args(argv)
    return record() if args.what == "record" else check()


if __name__ == "__main__":
    raise SystemExit(main())
