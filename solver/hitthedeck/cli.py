"""Command line for Hit the Deck, ``python -m solver.hitthedeck``: ``advise FILE`` and ``tournament``.

``advise`` reads one table as JSON (the schema is in ``docs/HITTHEDECK.md``)
from a file, or from standard input when FILE is ``-``, and prints one JSON
answer on standard output. Errors are one line on standard error: status 2
when the file cannot be read (missing, a folder, not UTF-8, larger than
:data:`MAX_INPUT`), status 1 when it holds no table or a table that cannot
be (bad JSON, an unknown card, more copies of a card than the deck has,
more cards in the opponents' hands than are unseen, ...).

``tournament`` plays simulated games between bots and prints the win rate
with its 95% Wilson interval and the points per hand with their normal
intervals (:mod:`solver.hitthedeck.tournament`). With ``--out FOLDER`` it
also writes the games and their summary there (CSV and a README); each
``--pairing TESTED:BASELINE:PLAYERS`` adds a pairing in place of
``--tested``, ``--baseline`` and ``--players``.

>>> main(["advise", "no such file.json"])
2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .advice import Objective, advise
from .bots import BOTS
from .knowledge import Knowledge, KnowledgeError

__all__ = ["MAX_INPUT", "advise_text", "main", "parser"]

#: The most ``advise`` reads: a table is a few hundred bytes, so this only stops runaway input.
MAX_INPUT = 2**20
#: Error lines quote at most this much.
MAX_ERROR = 300
_PREFIX = "hitthedeck: "


class _Unreadable(Exception):
    """The input cannot be read at all (exit status 2)."""


def _short(text: str) -> str:
    return text if len(text) <= MAX_ERROR else text[:MAX_ERROR - 1] + "…"


def _read(file: str) -> tuple[str, str]:
    """The text of FILE (or standard input for ``-``) and the name to quote; :class:`_Unreadable` if none."""
    if file == "-":
        data, name = sys.stdin.buffer.read(MAX_INPUT + 1), "stdin"
    else:
        if not file:
            raise _Unreadable("no file name given (a .json file, or - for standard input)")
        path = Path(file)
        name = file
        if path.is_dir():
            raise _Unreadable(f"{file} is a folder, not a file")
        try:
            with path.open("rb") as f:
                data = f.read(MAX_INPUT + 1)
        except OSError as e:
            raise _Unreadable(f"cannot read {file}: {e.strerror or e}") from None
    if len(data) > MAX_INPUT:
        raise _Unreadable(f"{name} is larger than {MAX_INPUT // 2**20} MB, the limit for a table")
    try:
        return data.decode("utf-8-sig"), name  # a byte-order mark is accepted
    except UnicodeDecodeError as e:
        raise _Unreadable(f"cannot read {name}: not UTF-8 text (byte {e.start})") from None


def advise_text(text: str, name: str = "table", objective: Objective | str = Objective.FOLLOW) -> dict[str, object]:
    """The JSON answer for one table given as JSON text; :class:`KnowledgeError` names what is wrong.

    >>> advise_text('{"hand": ["red 5"], "top": "red 2", "opponents": [3]}')["play"]
    'red 5'
    >>> advise_text('{"hand": ["red 5"], "top": "red 2", "opponents": [3], "deck": 1}', "t.json")
    Traceback (most recent call last):
    ...
    solver.hitthedeck.knowledge.KnowledgeError: t.json: deck: is not a field of a table (the fields are hand, top, discard, opponents)
    """
    if not text.strip():
        raise KnowledgeError(f"{name} holds no table (it is empty); write an object like "
                             '{"hand": ["red 5"], "top": "red 2", "opponents": [7]}')
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise KnowledgeError(f"{name}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise KnowledgeError(f"{name}: not a table: nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an int
        raise KnowledgeError(f"{name}: not a table: a number has too many digits") from None
    try:
        knowledge = Knowledge.from_dict(data, f"{name}: ")
    except RecursionError:
        raise KnowledgeError(f"{name}: not a table: nested too deeply") from None
    return advise(knowledge, objective).to_dict()


def _advise(args: argparse.Namespace) -> int:
    try:
        text, name = _read(args.file)
    except _Unreadable as e:
        print(_PREFIX + _short(str(e)), file=sys.stderr)
        return 2
    try:
        answer = advise_text(text, name, args.objective)
    except KnowledgeError as e:
        print(_PREFIX + _short(str(e)), file=sys.stderr)
        return 1
    print(json.dumps(answer))
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from solver.utilities.outputs import OutputFolderError
    from .tournament import OUTPUT, Pairing, tournament, write_games

    pairings: list[Pairing] = args.pairing or [Pairing(args.tested or "advisor", args.baseline or "highest",
                                                       args.players or 3)]
    if args.out is None:
        for p in pairings:
            result = tournament(args.games, args.seed, tested=p.tested, baseline=p.baseline, players=p.players)
            print(json.dumps(result.to_dict()) if args.json else result.summary(), flush=True)
        return 0
    try:
        out = OUTPUT.check(args.out)
    except OutputFolderError as e:
        print(_PREFIX + _short(str(e)), file=sys.stderr)
        return 2
    shown = "FOLDER" if out.is_absolute() else out.as_posix()  # the README names no path of this machine
    command = " ".join(["python -m solver.hitthedeck tournament", f"--games {args.games}", f"--seed {args.seed}",
                        *(f"--pairing {p.spec}" for p in pairings), f"--out {shown}"])
    try:
        results = write_games(pairings, args.games, args.seed, out, command=command,
                              log=None if args.json else lambda text: print(text, flush=True))
    except OutputFolderError as e:  # the folder changed since it was checked
        print(_PREFIX + _short(str(e)), file=sys.stderr)
        return 2
    except OSError as e:
        print(_PREFIX + _short(f"cannot write to {args.out}: {e.strerror or e}"), file=sys.stderr)
        return 2
    for r in results if args.json else ():
        print(json.dumps(r.to_dict()))
    if not args.json:
        print(f"wrote games.csv ({args.games * len(pairings)} games), summary.csv and README.md to {args.out}")
    return 0


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 7 and int(text) >= 1):
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not {text[:20]!r}")
    return int(text)


def _players(text: str) -> int:
    if text.strip() not in ("2", "3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"Hit the Deck is for 2 to 6 players, not {text[:20]!r}")
    return int(text)


def _seed(text: str) -> int:
    if not (text.isascii() and text.lstrip("-").isdigit() and len(text) <= 19):
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text[:20]!r}")
    return int(text)


def _pairing(text: str) -> object:
    from .tournament import Pairing

    try:
        return Pairing.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m solver.hitthedeck",
                                description="Exact odds and advice for Fundex's Hit the Deck")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("advise", help="advise on one table (JSON; schema in docs/HITTHEDECK.md)")
    a.add_argument("file", help="a .json file, or - for standard input")
    a.add_argument("--objective", choices=[o.value for o in Objective], default=Objective.FOLLOW.value,
                   help="follow: least likely to be followed first (default); points: most points first")
    a.set_defaults(run=_advise)
    t = sub.add_parser("tournament", help="one bot against the others over simulated games, with 95%% intervals")
    t.add_argument("--games", type=_count, default=300, help="games to play (default 300)")
    t.add_argument("--seed", type=_seed, default=2026, help="seed of the deals and the table (default 2026)")
    t.add_argument("--players", type=_players, help="2 to 6 (default 3)")
    t.add_argument("--tested", choices=list(BOTS), help="the bot in one seat (default advisor)")
    t.add_argument("--baseline", choices=list(BOTS), help="the bot in every other seat (default highest)")
    t.add_argument("--pairing", type=_pairing, action="append", metavar="TESTED:BASELINE:PLAYERS",
                   help="a pairing to play, like advisor:highest:3 (repeat for more; "
                        "instead of --tested, --baseline and --players)")
    t.add_argument("--out", metavar="FOLDER",
                   help="also write every game and the summary to FOLDER (games.csv, summary.csv, README.md): "
                        "a new or empty folder, or one this command wrote")
    t.add_argument("--json", action="store_true", help="the result as one JSON object (one a pairing)")
    t.set_defaults(run=_tournament)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line, ``python -m solver.hitthedeck``, on ``argv`` (without the program name) and return
    the exit status."""
    p = parser()
    try:
        args = p.parse_args(argv)
        if args.command == "tournament":
            if args.pairing and {args.tested, args.baseline, args.players} != {None}:
                p.error("--pairing replaces --tested, --baseline and --players: give one or the other")
            if args.pairing and len(set(args.pairing)) != len(args.pairing):
                p.error("--pairing: a pairing is given twice")
    except SystemExit as e:  # argparse has printed its usage message
        return e.code if isinstance(e.code, int) else 2
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
