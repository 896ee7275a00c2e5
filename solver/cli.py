"""Command line: ``python -m solver advise FILE`` and ``python -m solver bench``.

``advise`` reads a ``.json`` position, a ``.jsonl`` file of positions (one
per line) or ``-`` (standard input: one JSON position, or JSON lines) and
prints one JSON answer per position, in input order. A bad position gets
``{"error": "..."}`` in its place; the others are still answered and the
exit status is 1. A file that cannot be read gives a message and status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from .advice import MODELS, advise
from .position import Position, PositionError

__all__ = ["main", "read_positions"]


def read_positions(text: str, name: str) -> Iterator[tuple[str, Position | PositionError]]:
    """Each position in ``text`` with a label saying where it came from.

    A whole-text JSON object is one position; otherwise every non-blank line
    is one (JSON lines).

    >>> [(w, type(p).__name__) for w, p in read_positions('{"players": [{}, {}], "active": 0}\\n[1]', "x.jsonl")]
    [('x.jsonl line 1', 'Position'), ('x.jsonl line 2', 'PositionError')]
    """
    lines = [(i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    single = not name.endswith(".jsonl") and len(lines) != 1
    if single:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            single = False  # not one JSON value: read it as JSON lines
    if single:
        yield name, _parse(data, name)
        return
    for i, ln in lines:
        where = f"{name} line {i}"
        try:
            yield where, _parse(json.loads(ln), where)
        except json.JSONDecodeError as e:
            yield where, PositionError(f"{where}: not valid JSON: {e.msg} at column {e.colno}")


def _parse(data: object, where: str) -> Position | PositionError:
    try:
        return Position.from_dict(data, f"{where}: ")
    except PositionError as e:
        return e


def _advise(args: argparse.Namespace) -> int:
    if args.file == "-":
        text, name = sys.stdin.read(), "stdin"
    else:
        path = Path(args.file)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            print(f"hit-solver: cannot read {args.file}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
            return 2
        name = path.name
    status = 0
    answered = 0
    for _, pos in read_positions(text, name):
        answered += 1
        if isinstance(pos, PositionError):
            out: dict[str, object] = {"error": str(pos)}
            status = 1
        else:
            out = advise(pos, args.model, exact=args.exact).to_dict()
        print(json.dumps(out), flush=False)
    if answered == 0:
        print(f"hit-solver: {name} holds no position", file=sys.stderr)
        return 1
    sys.stdout.flush()
    return status


def _bench(args: argparse.Namespace) -> int:
    from .bench import run

    run(count=args.positions, seed=args.seed)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hit-solver", description="Exact solver for Reiner Knizia's Hit!")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("advise", help="advise on positions (JSON or JSON lines)")
    a.add_argument("file", help="a .json position, a .jsonl file of positions, or - for standard input")
    a.add_argument("--model", choices=sorted(MODELS), default="turn", help="what value means (see MODELS.md)")
    a.add_argument("--exact", action="store_true", help="exact fractions as strings instead of floats")
    a.set_defaults(run=_advise)
    b = sub.add_parser("bench", help="time the solver on positions from simulated games")
    b.add_argument("--positions", type=int, default=300, help="how many positions (default 300)")
    b.add_argument("--seed", type=int, default=2026, help="seed of the simulated games")
    b.set_defaults(run=_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
