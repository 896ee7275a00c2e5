"""Command line: ``python -m solver advise FILE``, ``tables``, ``tournament``, ``review`` and ``study``.

``advise`` reads a ``.json`` position, a ``.jsonl`` file of positions (one
per line) or ``-`` (standard input: one JSON position, or JSON lines) and
prints one JSON answer per position, in input order. A bad position gets
``{"error": "..."}`` in its place; the others are still answered and the
exit status is 1. A file that cannot be read gives a message and status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TypeVar
from pathlib import Path

from solver.models.advice import Budget, SlowModel, TooLarge
from solver.models import MODELS, advise
from solver.models.evaluator import WeightsError
from solver.game.position import Position, PositionError

__all__ = ["main", "read_positions"]


#: The largest file (or standard input) ``advise`` reads, and the longest position line: a position
#: is a few hundred bytes, so these only stop runaway input (``/dev/zero``, a 10 MB line).
MAX_INPUT = 64 * 2**20
MAX_LINE = 2**20
#: Error lines quote at most this much of what they were given.
MAX_ERROR = 250


T = TypeVar("T")

def _short(text: str) -> str:
    return text if len(text) <= MAX_ERROR else text[:MAX_ERROR - 1] + "…"


def _decode(text: str, where: str) -> object:
    """One JSON value, or a PositionError saying (briefly) why not."""
    if len(text) > MAX_LINE:
        return PositionError(f"{where}: {len(text):,} characters, more than a position can be "
                             f"(the limit is {MAX_LINE:,})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        return PositionError(f"{where}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}")
    except RecursionError:
        return PositionError(f"{where}: not a position: nested too deeply")
    except ValueError:  # Python's limit on the digits of an int (4,300)
        return PositionError(f"{where}: not a position: a number has too many digits")


def read_positions(text: str, name: str) -> Iterator[tuple[str, Position | PositionError]]:
    """Each position in ``text`` with a label saying where it came from.

    A ``.json`` file is one position (one error if it is not); a ``.jsonl``
    file has one per non-blank line; other text (standard input) is one
    position if the whole text is one JSON value, else JSON lines. Whatever
    a line holds, it gives a position or a short error, and the next line is
    still read.

    >>> [(w, type(p).__name__) for w, p in read_positions('{"players": [{}, {}], "active": 0}\\n[1]', "x.jsonl")]
    [('x.jsonl line 1', 'Position'), ('x.jsonl line 2', 'PositionError')]
    """
    # Only a newline ends a line (str.splitlines would also split at U+2028, form feeds, ...).
    lines = [(i, ln) for i, ln in enumerate(text.split("\n"), 1) if ln.strip()]
    if name.endswith(".json"):
        single = True  # one document, however it is laid out: one answer (or one error, with its line)
        data = _decode(text, name)
    else:
        single = not name.endswith(".jsonl") and len(lines) != 1
        if single:
            data = _decode(text, name)
            if isinstance(data, PositionError):
                single = False  # not one JSON value: read it as JSON lines
    if single:
        yield name, data if isinstance(data, PositionError) else _parse(data, name)
        return
    for i, ln in lines:
        where = f"{name} line {i}"
        data = _decode(ln, where)
        yield where, data if isinstance(data, PositionError) else _parse(data, where)


def seconds(text: str) -> float:
    """An argument that is a positive, finite number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, not {text[:20]!r}")
    return value


def count(text: str) -> int:
    """An argument that is a whole number of 1 or more (argparse type)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and int(text) >= 1):
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not {text[:20]!r}")
    return int(text)


def scheduler(text: str) -> str:
    """A Dask scheduler's address, PROTOCOL://HOST:PORT (argparse type)."""
    if not re.fullmatch(r"(tcp|tls|ws|wss|ucx)://[A-Za-z0-9.\-\[\]:]+:[0-9]{1,5}", text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a scheduler address like tcp://HOST:8786")
    return text


def _parse(data: object, where: str) -> Position | PositionError:
    try:
        return Position.from_dict(data, f"{where}: ")
    except PositionError as e:
        return PositionError(_short(str(e)))
    except RecursionError:
        return PositionError(f"{where}: not a position: nested too deeply")
    except (TypeError, ValueError) as e:
        return PositionError(_short(f"{where}: not a position: {e}"))


def _too_large(name: str) -> str:
    return f"{name} is larger than {MAX_INPUT // 2**20} MB, the limit for positions to advise on"


def _read(file: str) -> tuple[str, str] | str:
    """The text of a file and its name, or why it cannot be read (standard input: :func:`_stdin_positions`)."""
    if not file:
        return "no file name given (a .json or .jsonl file, or - for standard input)"
    path = Path(file)
    if path.is_dir():
        return f"{file} is a folder, not a file"
    try:
        with path.open("rb") as f:
            data = f.read(MAX_INPUT + 1)
    except OSError as e:
        return f"cannot read {file}: {e.strerror or e}"
    name = path.name
    if len(data) > MAX_INPUT:
        return _too_large(name)
    try:
        return data.decode("utf-8-sig"), name  # a byte-order mark is accepted
    except UnicodeDecodeError as e:
        return f"cannot read {name}: not UTF-8 text (byte {e.start})"


def _stdin_positions(stream: IO[bytes]) -> Iterator[tuple[str, Position | PositionError]]:
    """Positions from standard input, answered as they arrive when it is JSON lines.

    If the first non-blank line is a whole JSON value, every line is a
    position, read and answered one at a time (a pipe gets each answer as its
    line comes in); otherwise the whole input is one document. Reading stops
    at :data:`MAX_INPUT` bytes (a :class:`TooMuchInput` ends the stream).
    """
    seen = 0
    number = 0
    first = b""
    while not first.strip():
        first = stream.readline(MAX_LINE + 1)
        number += 1
        seen += len(first)
        if not first:
            return
        if seen > MAX_INPUT:  # blank lines count too: an endless stream of them is refused, not waited on
            raise TooMuchInput(_too_large("stdin"))
    data = _decode(first.decode("utf-8-sig", errors="replace").rstrip("\r\n"), f"stdin line {number}")
    if isinstance(data, PositionError) and "not valid JSON" in str(data):  # a document over many lines
        rest = stream.read(MAX_INPUT + 1 - seen)
        if seen + len(rest) > MAX_INPUT:
            raise TooMuchInput(_too_large("stdin"))
        yield from read_positions((first + rest).decode("utf-8-sig", errors="replace"), "stdin")
        return
    line = first
    while line:
        where = f"stdin line {number}"
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of the over-long line
                line = stream.readline(MAX_LINE)
                seen += len(line)
            yield where, PositionError(f"{where}: more than {MAX_LINE:,} characters, more than a position can be")
        elif line.strip():
            got = _decode(line.decode("utf-8-sig", errors="replace").rstrip("\r\n"), where)
            yield where, got if isinstance(got, PositionError) else _parse(got, where)
        if seen > MAX_INPUT:
            raise TooMuchInput(_too_large("stdin"))
        line = stream.readline(MAX_LINE + 1)
        seen += len(line)
        number += 1


class TooMuchInput(Exception):
    """Standard input went past :data:`MAX_INPUT`."""


def _advise(args: argparse.Namespace) -> int:
    positions: Iterator[tuple[str, Position | PositionError]]
    if args.file == "-":
        positions, name, streamed = _stdin_positions(sys.stdin.buffer), "stdin", True
    else:
        got = _read(args.file)
        if isinstance(got, str):
            print(f"hit-solver: {got}", file=sys.stderr)
            return 2
        text, name = got
        positions, streamed = read_positions(text, name), False
    status = 0
    answered = 0
    try:
        for where, pos in positions:
            answered += 1
            status = max(status, _answer(args, where, pos, flush=streamed))
    except TooMuchInput as e:
        print(f"hit-solver: {e}", file=sys.stderr)
        return 2
    except WeightsError as e:  # win's evaluator cannot be read: no position can be answered by it
        print(f"hit-solver: {e}", file=sys.stderr)
        return 2
    if answered == 0:
        print(f"hit-solver: {name} holds no position", file=sys.stderr)
        return 1
    sys.stdout.flush()
    return status


def _answer(args: argparse.Namespace, where: str, pos: Position | PositionError, flush: bool) -> int:
    """Print one answer line; 1 when it is an error line."""
    status = 0
    if isinstance(pos, PositionError):
        out: dict[str, object] = {"error": str(pos)}
        status = 1
    else:
        budget = None if args.time_limit is None else Budget(args.time_limit)
        try:
            out = advise(pos, args.model, exact=args.exact, budget=budget).to_dict()
        except (SlowModel, TooLarge) as e:  # a model that cannot answer this position says why
            out = {"error": _short(f"{where}: {e}")}
            status = 1
    print(json.dumps(out), flush=flush)
    return status


def _study(args: argparse.Namespace) -> int:
    from solver.study.stop_rules import score_rules, study_starts

    starts = study_starts(args.starts, args.seed)
    print(f"Simple stop rules over {len(starts)} turn starts (the fresh deck and starts met in simulated "
          f"2-5 player games, seed {args.seed}).")
    print("Exact mean points per turn, loss against the optimal `turn` policy, and agreement with its "
          "choices (stop/draw and steals, chance-weighted over the decisions it meets):\n")
    scores = score_rules(starts)
    print(f"{'rule':22} {'points':>8} {'loss':>7} {'agrees':>7}  statement")
    for s in scores:
        print(f"{s.family:22} {float(s.value):8.3f} {float(s.loss):7.3f} {float(s.agreement):7.1%}  {s.statement}")
    print(f"\noptimal: {float(scores[0].optimal):.3f} points per turn (exactly {scores[0].optimal})")
    print(f"best simple rule: {scores[0].statement}")
    return _print_tables(Path(args.data))


def _print_tables(data: Path) -> int:
    """The threshold chart and the stop/draw boundary, as text, from built tables; 2 after a one-line message
    when a table there cannot be read."""
    if not (data / "thresholds.parquet").exists() or not (data / "positions.parquet").exists():
        print(f"\n(no tables in {data}: build them with `python -m solver tables build` for the threshold chart)")
        return 0
    from solver.game.core import BUST_THRESHOLD
    from solver.study.stop_rules import decision_boundary
    from solver.study.tables import PILE_BANDS, TableError, bank_against_turn, cost_when_disagreeing, read_table

    try:
        t, pos = read_table(data, "thresholds"), read_table(data, "positions")
    except TableError as e:
        print(f"hit-solver: {e}", file=sys.stderr)
        return 2

    bands = [(lo, hi) for lo, hi, _ in PILE_BANDS]
    print(f"\nThreshold chart ({data / 'thresholds.csv'}, {len(t)} groups): line value from which stopping "
          "is optimal, no steal in reach; per pile band, the thresholds met (median), and groups where no "
          "single threshold fits:")
    print(f"{'cards left':>11} {'cards held':>11} {'thresholds':>14} {'median':>7} {'no single':>10}")
    for lo, hi in bands:
        for held in (3, 4, 5):
            g = t[(t.pile_size >= lo) & (t.pile_size <= hi) & ((t.cards_held == held) if held < 5 else (t.cards_held >= 5))]
            fit = g[g.single_threshold & g.threshold.notna()]
            if g.empty:
                continue
            span = f"{int(fit.threshold.min())}-{int(fit.threshold.max())}" if len(fit) else "-"
            med = f"{fit.threshold.median():.0f}" if len(fit) else "-"
            label = f"{held}" if held < 5 else "5+"
            print(f"{lo:>5}-{hi:<5} {label:>11} {span:>14} {med:>7} {len(g) - len(fit):>6}/{len(g)}")
    print("\nStop/draw boundary (three or more cards, no steal on offer): line value from which optimal play "
          "stops, by bust chance:")
    p = pos[(pos.line_cards >= BUST_THRESHOLD) & (pos.offer == 0)]
    for lo, hi in bands:
        band = p[(p.pile_size >= lo) & (p.pile_size <= hi)]
        edge = decision_boundary(list(zip(band.bust_probability_float, band.line_value, band.turn_action == "draw")))
        cells = ", ".join(f"{e['bust_from']:.0%}-{e['bust_to']:.0%}: {e['boundary']:.0f}" for e in edge)
        print(f"  {lo}-{hi} cards left: {cells}")
    if "bank_status" in pos.columns:
        split = bank_against_turn(pos)
        solved = pos[pos.bank_status == "solved"]
        cost = solved.bank_turn_cost
        print(f"\nbank against turn ({len(solved):,} of {len(pos):,} positions answered by bank within its work "
              f"limit): they advise differently on {split.disagree.sum() / len(solved):.1%}; following turn there "
              f"costs {cost_when_disagreeing(split):.2f} points that reach the loot ({cost.mean():.3f} per "
              "position).")
        print(f"{'players':>8} {'cards left':>11} {'answered':>12} {'differ':>7} {'cost there':>11}")
        for row in split.itertuples(index=False):
            print(f"{row.players:>8} {row.pile:>11} {row.solved:>5}/{row.positions:<6} {row.share:>7.1%} "
                  f"{row.cost_when_disagree:>11.2f}")
    return 0


def _tables(args: argparse.Namespace) -> int:
    from solver.study.tables import OUTPUT, build

    built = _batch(lambda: build(OUTPUT.check(args.out), positions=args.positions, chunk_size=args.chunk, seed=args.seed,
                                 workers=args.workers, dask=args.dask, rule_starts=args.rule_starts,
                                 bank_seconds=args.bank_seconds, dask_timeout=args.dask_timeout),
                   f"cannot build tables in {args.out}")
    return 2 if built is None else 0


def _endgames(args: argparse.Namespace) -> int:
    from solver.study.endgame_table import OUTPUT, build_endgames

    built = _batch(lambda: build_endgames(OUTPUT.check(args.out), args.positions, args.seed),
                   f"cannot build the endgame table in {args.out}")
    return 2 if built is None else 0


def _batch(work: Callable[[], T], cannot: str) -> T | None:
    """A batch command's work, or None after a one-line message for a cluster out of reach, an output
    folder it may not write into (:class:`solver.utilities.chunks.OutputFolderError`) or a disk error."""
    from solver.utilities.chunks import DaskUnreachable, OutputFolderError

    try:
        return work()
    except (DaskUnreachable, OutputFolderError) as e:
        print(f"hit-solver: {e}", file=sys.stderr)
    except OSError as e:
        print(f"hit-solver: {cannot}: {e}", file=sys.stderr)
    return None


def policy(text: str) -> str:
    """argparse type: a policy name that :func:`solver.play.policies.make` reads."""
    from solver.play.policies import make

    try:
        make(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text.strip()


def _tournament(args: argparse.Namespace) -> int:
    from solver.play.policies import EVALUATOR_POLICIES
    from solver.play.tournament import OUTPUT, RECORDS, pairings_for, run

    pairings = pairings_for(args.tested, args.baselines, args.players)
    if EVALUATOR_POLICIES & {args.tested, *args.baselines}:
        from solver.models.evaluator import evaluator

        try:
            evaluator()  # the win policy's evaluator, read (and checked) before any game is played
        except WeightsError as e:
            print(f"hit-solver: {e}", file=sys.stderr)
            return 2
    if "hybrid" in [args.tested, *args.baselines] and args.players != [2]:
        print("hit-solver: hybrid is a two-player policy: use --players 2", file=sys.stderr)
        return 2
    played = _batch(lambda: run(pairings, args.deals, OUTPUT.check(args.out), seed=args.seed, chunk=args.chunk,
                                workers=args.workers, dask=args.dask, dask_timeout=args.dask_timeout,
                                records=None if args.records is None else RECORDS.check(args.records)),
                    f"cannot write the tournament to {args.out}")
    if played is None:
        return 2
    _, summary = played
    print(f"\n{'pairing':<40} {'games':>6} {'win rate':>9} {'95% interval':>15} {'score':>7} {'margin':>7}")
    for r in summary.itertuples(index=False):
        print(f"{r.pairing:<40} {r.games:>6} {r.win_rate:>9.1%} {r.win_low:>7.1%}-{r.win_high:<7.1%} "
              f"{r.mean_score:>7.1f} {r.mean_margin:>+7.1f}")
    print(f"\n(an equal player wins 1 in the number of players; tables in {args.out})")
    return 0


def _train(args: argparse.Namespace) -> int:
    try:
        from solver.study.train import OUTPUT, Settings, train
    except ImportError as e:  # scikit-learn is the train extra
        print(f"hit-solver: training needs the train extra ({e.name} is not installed): "
              "pip install -e '.[train]'", file=sys.stderr)
        return 2
    try:
        import sklearn  # noqa: F401
    except ImportError:
        print("hit-solver: training needs the train extra (scikit-learn is not installed): "
              "pip install -e '.[train]'", file=sys.stderr)
        return 2
    if args.rounds and not set(args.players) & set(args.self_play):
        print(f"hit-solver: --rounds {args.rounds} plays at the --self-play sizes, and none of them is among "
              "--players", file=sys.stderr)
        return 2
    settings = Settings(seed=args.seed, games=args.games, explore_games=args.explore_games,
                        self_play_games=args.self_play_games, rounds=args.rounds,
                        self_play=tuple(sorted(set(args.self_play))),
                        hidden=args.hidden, epochs=args.epochs, chunk=args.chunk,
                        exposure=tuple(sorted(set(args.exposure))))
    meta = _batch(lambda: train(OUTPUT.check(args.out), settings, args.players, workers=args.workers,
                                dask=args.dask, dask_timeout=args.dask_timeout),
                  f"cannot write the evaluator to {args.out}")
    if meta is None:
        return 2
    print(f"hit-solver: the evaluator is in {args.out} (sha256 {meta['sha256'][:16]}...)")
    return 0


def _review(args: argparse.Namespace) -> int:
    from solver.game.record import RecordError
    from solver.models.evaluator import WeightsError
    from solver.play.review import ReviewError, review

    if args.file == "-":
        data = sys.stdin.buffer.read(MAX_INPUT + 1)
        got: tuple[str, str] | str = _too_large("stdin") if len(data) > MAX_INPUT else (
            data.decode("utf-8-sig", errors="replace"), "stdin")
    else:
        got = _read(args.file)
    if isinstance(got, str):
        print(f"hit-solver: {got}", file=sys.stderr)
        return 2
    text, name = got
    try:
        result = review(text, args.model, args.time_limit)
    except RecordError as e:
        print(f"hit-solver: {name}: {_short(str(e))}", file=sys.stderr)
        return 1
    except ReviewError as e:  # the record is fine; the review failed on it (a fault of this program)
        print(f"hit-solver: {name}: the review failed at {_short(str(e))}; please report it with the file",
              file=sys.stderr)
        return 1
    except WeightsError as e:  # `win` cannot answer without its evaluator: the file and the command that makes it
        print(f"hit-solver: {name}: cannot review with `{args.model}`: {_short(str(e))}", file=sys.stderr)
        return 2
    if args.json:
        for d in result.decisions:
            print(json.dumps(result.json_row(d)))
    else:
        print(result.report())
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hit-solver", description="Exact solver for Reiner Knizia's Hit!",
                                epilog="Fundex's Hit the Deck, a different game, has a command of its own: "
                                       "python -m solver.hitthedeck (docs/HITTHEDECK.md). The benchmarks are "
                                       "outside the package: python -m bench.speed, or make bench "
                                       "(docs/PERFORMANCE.md).")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("advise", help="advise on positions (JSON or JSON lines)")
    a.add_argument("file", help="a .json position, a .jsonl file of positions, or - for standard input")
    a.add_argument("--model", choices=list(MODELS), default="turn",
                   help="what a value means (default turn); each model's definition is in docs/MODELS.md")
    a.add_argument("--exact", action="store_true", help="exact fractions as strings instead of floats")
    a.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS",
                   help="give up on a slow answer after this long (an error line says so); default: no limit")
    a.set_defaults(run=_advise)
    s = sub.add_parser("study", help="score simple stop rules exactly against the optimum")
    s.add_argument("--starts", type=count, default=20, help="turn starts to score over (default 20)")
    s.add_argument("--seed", type=int, default=2026)
    s.add_argument("--data", default="data", help="folder of built tables (for the threshold chart)")
    s.set_defaults(run=_study)
    t = sub.add_parser("tables", help="decision tables").add_subparsers(dest="tables_command", required=True)
    tb = t.add_parser("build", help="build every table (resumable; local process pool or Dask)")
    tb.add_argument("--out", default="data", help="output folder (default data/): new, empty or one this command "
                    "wrote (other files there are refused, never overwritten)")
    tb.add_argument("--positions", type=count, default=10000, help="rows of the positions table")
    tb.add_argument("--chunk", type=count, default=250, help="positions per chunk (the unit of resuming)")
    tb.add_argument("--seed", type=int, default=2026)
    _pool_options(tb)
    tb.add_argument("--rule-starts", type=count, default=20, help="turn starts for the rules table")
    tb.add_argument("--bank-seconds", type=seconds, default=1.0, metavar="SECONDS",
                    help="bank's work limit per position, in the advisor's seconds (default 1; a fixed count "
                         "of opponent states, the same on every machine)")
    tb.set_defaults(run=_tables)
    te = t.add_parser("endgames", help="the endgame table: two-player piles of up to 10 cards, duel and win values")
    te.add_argument("--out", default="data/endgames", help="output folder (default data/endgames/): new, empty or "
                    "one this command wrote")
    te.add_argument("--positions", type=count, default=400, help="rows (default 400)")
    te.add_argument("--seed", type=int, default=2026)
    te.set_defaults(run=_endgames)
    from solver.play.policies import BOTS

    g = sub.add_parser("tournament", help="self-play tournaments in duplicate format, with 95%% intervals",
                       description="One seat of TESTED against the others all playing BASELINE, every seating "
                                   "rotated on the same shuffled decks. Policies: " + ", ".join(BOTS) + ".")
    g.add_argument("tested", type=policy, help="the policy tested, e.g. turn, bank, threshold:25")
    g.add_argument("baselines", type=policy, nargs="+", metavar="baseline", help="one or more baselines")
    g.add_argument("--players", type=_players, nargs="+", default=[2], help="2 to 5 (several allowed; default 2)")
    g.add_argument("--deals", type=count, default=100, help="deals per pairing, each played in every rotation")
    g.add_argument("--seed", type=int, default=2026)
    g.add_argument("--chunk", type=count, default=10, help="deals per chunk (the unit of resuming)")
    g.add_argument("--out", default="data/strength", help="output folder (default data/strength): new, empty or "
                   "one this command wrote")
    g.add_argument("--records", default=None, metavar="FOLDER",
                   help="also save every game's record here (a folder of records; on a rerun, chunks built "
                        "without their records are played again for them)")
    _pool_options(g)
    g.set_defaults(run=_tournament)
    from solver.study.train import ALL_PLAYERS, Settings  # the shipped evaluator's defaults (no scikit-learn needed)

    tr = sub.add_parser("train", help="train the chance-to-win evaluator by self-play (resumable; the train extra)",
                        description="Plays games in the rules engine (round 0 between turn players, and as many "
                                    "with one exploring turn each; each later round between win players of the "
                                    "round before), fits one network per table "
                                    "size, and writes data/win/evaluator.npz and its manifest. The same settings "
                                    "on the same code give the same file, bit for bit.")
    tr.add_argument("--out", default="data/win", help="output folder (default data/win): new, empty or one this "
                    "command wrote")
    tr.add_argument("--players", type=_players, nargs="+", default=list(ALL_PLAYERS),
                    help="table sizes (default 2 to 5)")
    tr.add_argument("--games", type=count, default=Settings.games,
                    help=f"round 0's turn games per table size (default {Settings.games})")
    tr.add_argument("--explore-games", type=count, default=Settings.explore_games,
                    help="round 0's turn games with one exploring turn, per table size (default "
                         f"{Settings.explore_games})")
    tr.add_argument("--self-play-games", type=count, default=Settings.self_play_games,
                    help=f"each later round's games per table size (default {Settings.self_play_games})")
    tr.add_argument("--rounds", type=int, choices=range(0, 6), default=Settings.rounds, metavar="ROUNDS",
                    help=f"self-play rounds after round 0 (0 to 5, default {Settings.rounds}: as shipped)")
    tr.add_argument("--self-play", type=_players, nargs="+", default=list(Settings.self_play), metavar="PLAYERS",
                    help="table sizes that play the self-play rounds; the others keep round 0's network "
                         f"(default {' '.join(map(str, Settings.self_play))})")
    tr.add_argument("--hidden", type=count, default=32, help="hidden units (default 32)")
    tr.add_argument("--exposure", type=_players, nargs="*", default=list(Settings.exposure), metavar="PLAYERS",
                    help="table sizes whose network also reads how exposed each line is to the next card "
                         f"(default {' '.join(map(str, Settings.exposure))}; none: --exposure alone)")
    tr.add_argument("--epochs", type=count, default=12, help="passes over the positions (default 12)")
    tr.add_argument("--chunk", type=count, default=100, help="games per chunk (the unit of resuming)")
    tr.add_argument("--seed", type=int, default=2026)
    _pool_options(tr)
    tr.set_defaults(run=_train)
    r = sub.add_parser("review", help="every decision of a recorded game against a model's best, and its cost")
    r.add_argument("file", help="a game record (.jsonl), or - for standard input")
    r.add_argument("--model", choices=["win", "turn", "bank"], default="win",
                   help="win (default: the chance to win, costs in percentage points; exact in a game's last "
                        "cards, else an estimate), turn (this turn's points, exact) or bank (points that reach the "
                        "loot, float)")
    r.add_argument("--time-limit", type=seconds, default=5.0, metavar="SECONDS",
                   help="bank: seconds of work per decision, past which the decision is listed, not scored; win: "
                        "at most this (and 1 s) for its exact search, past which it estimates")
    r.add_argument("--json", action="store_true", help="one JSON line per decision instead of the report")
    r.set_defaults(run=_review)
    return p


def _pool_options(p: argparse.ArgumentParser) -> None:
    """The options of a batch command that plays or builds in chunks: where the chunks run."""
    p.add_argument("--workers", type=count, default=None, help="local processes (default: all cores)")
    p.add_argument("--dask", type=scheduler, default=None, metavar="ADDRESS",
                   help="a Dask scheduler, e.g. tcp://HOST:8786")
    p.add_argument("--dask-timeout", type=seconds, default=10.0, metavar="SECONDS",
                   help="how long to try reaching the Dask scheduler (default 10)")


def _players(text: str) -> int:
    """argparse type: a number of players, 2 to 5."""
    if text.strip() not in ("2", "3", "4", "5"):
        raise argparse.ArgumentTypeError(f"Hit! is for 2 to 5 players, not {text[:20]!r}")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt as e:  # Ctrl-C: a batch command says in one line what it kept
        from solver.utilities.chunks import Interrupted

        if isinstance(e, Interrupted):
            print(f"hit-solver: {e}", file=sys.stderr)
        elif getattr(args, "run", None) is _endgames:  # built whole, in memory: nothing is kept
            print("hit-solver: interrupted; the endgame table is built in one piece, so nothing was written and the "
                  "same command starts again", file=sys.stderr)
        elif args.command in ("tables", "tournament", "train"):
            print("hit-solver: interrupted; the chunks already built are kept, and the same command resumes from "
                  "them", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
