"""Decision tables: built on a local process pool or a Dask cluster, resumably.

``python -m solver tables build`` writes, into ``data/`` by default:

- ``opening``: every line the active player can hold in one turn from a fresh
  deck with nothing face up elsewhere, with exact stop and draw values;
- ``positions``: decision points met in simulated 2–5 player games with their
  exact `turn` answers and `bank`'s (float; within a fixed work limit per
  position, rows past it marked), the large table, any size, in chunks;
- ``thresholds``: per pile size and cards held, the line value from which
  stopping is optimal (no steal in reach), from ``positions``;
- ``rules``: simple stop rules scored exactly against the optimum;

each as CSV and Parquet (``opening`` also as JSON), plus ``README.md`` with
the schema and SHA-256 checksums. Chunks of ``positions`` are saved under
``<out>/.build/`` as they finish, so an interrupted build resumes where it
stopped; a table is written to a temporary file and renamed into place, so
nothing half-written ever stands where a table should be.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd

from solver.utilities.chunks import Chunk, DaskUnreachable, Output, atomic, read_chunks, run_chunks
from solver.game.cards import DECK_COPIES, VALUES, cards_of, counts
from solver.game.position import Position
from solver.game.rules import Action
from solver.play.simulate import sample_positions
from solver.play.tournament import code_mark
from solver.study.stop_rules import DecisionGraph, score_rules, study_starts, thresholds
from solver.game.core import BUST_THRESHOLD, TurnState
from solver.utilities.numbers import FLOAT, Number, exact
from solver.models import advise
from solver.models.advice import Advice, Budget, SlowModel, after_steal, beats, choice_word
from solver.models.bank import BANK, STATES_PER_SECOND, BankSolver
from solver.models.turn import TurnSolver

__all__ = ["OUTPUT", "PILE_BANDS", "RULES_VERSION", "STUDY_COLUMNS", "TableError", "bank_against_turn", "build",
           "cost_when_disagreeing", "opening_table", "positions_chunk", "read_table", "rules_table",
           "thresholds_table"]

#: What the tables assume: bump when the rules or a model's definition change.
RULES_VERSION = "RULINGS.md R1-R15; MODELS.md turn, bank"

#: `bank`'s work limit per position in the positions table, in the advisor's
#: seconds (turned into a count of opponent states, so the table does not
#: depend on the machine's speed).
BANK_SECONDS = 1.0

#: What ``tables build`` writes into its folder (``--out``): the tables, their README and its chunks.
OUTPUT = Output("--out", frozenset({"opening.json", *(f"{name}.{ext}" for ext in ("csv", "parquet")
                                                     for name in ("opening", "positions", "thresholds", "rules"))}),
                "# Decision tables", chunks=True)

#: The columns the study (``python -m solver study`` and the Study page) reads from each table; the `bank`
#: columns of ``positions`` are read only where ``bank_status`` is there.
STUDY_COLUMNS = {
    "thresholds": ("pile_size", "cards_held", "threshold", "single_threshold", "highest_draw", "lowest_stop"),
    "positions": ("players", "pile_size", "line_cards", "line_value", "offer", "bust_probability_float",
                  "turn_action", "turn_steal_action"),
    "rules": ("rule", "statement", "value_float", "loss_float", "agreement_float"),
}
_BANK_COLUMNS = ("bank_action", "bank_steal_action", "bank_turn_cost")


class TableError(ValueError):
    """A decision table that cannot be read; the message names the file and the command that rebuilds it."""


def read_table(data: Path, name: str) -> pd.DataFrame:
    """``data/<name>.parquet`` with the columns the study reads (:data:`STUDY_COLUMNS`), or a
    :class:`TableError` naming the file and what is wrong with it."""
    path = data / f"{name}.parquet"
    rebuild = "rebuild the tables with `python -m solver tables build`"
    try:
        table = pd.read_parquet(path)
    except FileNotFoundError:
        raise TableError(f"{path} is missing; {rebuild}") from None
    except ImportError:  # pyarrow not installed: no rebuild would help
        raise
    except Exception as e:  # pyarrow's errors for a damaged file vary by version: name the file, not a trace
        raise TableError(f"{path} cannot be read ({type(e).__name__}: {str(e)[:160]}); {rebuild}") from None
    need = STUDY_COLUMNS[name] + (_BANK_COLUMNS if name == "positions" and "bank_status" in table.columns else ())
    missing = [c for c in need if c not in table.columns]
    if missing:
        raise TableError(f"{path} is not the {name} table: it lacks {', '.join(missing)}; {rebuild}")
    return table


#: ``bank_status`` of a row: answered, or past the work limit (its `bank` cells empty).
SOLVED, OVER_LIMIT = "solved", "over work limit"


def _exact(x: Number) -> str:
    return str(exact(x))


# -- the tables ---------------------------------------------------------------------
def opening_table() -> pd.DataFrame:
    """Every line reachable in one turn from a fresh deck, nothing to steal."""
    graph = DecisionGraph.build(DECK_COPIES)
    solver = TurnSolver(TurnState.start(DECK_COPIES))
    rows = []
    for f, pile in zip(graph.features, graph.piles):
        line = tuple(d - p for d, p in zip(DECK_COPIES, pile))
        stop = Fraction(f.line_value)
        draw = exact(solver.draw_value(TurnState.start(pile, line)))
        rows.append({"line": " ".join(map(str, cards_of(line))), "cards": f.cards, "line_value": f.line_value,
                     "pile_size": f.pile, "bust_probability": _exact(f.bust_chance),
                     "stop": _exact(stop), "draw": _exact(draw), "action": "draw" if draw > stop else "stop",
                     "bust_probability_float": float(f.bust_chance), "draw_float": float(draw),
                     "gain_of_best": float(abs(draw - stop))})
    df = pd.DataFrame(rows).sort_values(["cards", "line_value", "line"], kind="stable").reset_index(drop=True)
    return df


def _bank_columns(pos: Position, turn: Advice, seconds: float) -> dict[str, Any]:
    """`bank`'s answer (float) for the row, and what following `turn`'s advice costs in `bank` points.

    The cost is the `bank` value of `bank`'s plan (steal choice, then stop or
    draw) minus that of `turn`'s plan; 0 where they agree.
    """
    solver = BankSolver(pos, FLOAT, Budget(seconds))
    try:
        b = BANK.advise(pos, FLOAT, solver=solver)
        at = after_steal(pos, turn.steal)  # where `turn`'s plan stops or draws
        followed = float(solver.stop_value(at) if turn.action is Action.STOP else solver.draw_value(at))
    except SlowModel:
        return {**{c: None for c in _BANK_VALUES}, "bank_steal_action": "", "bank_action": "",
                "bank_status": OVER_LIMIT}
    best = float(b.stop if b.action is Action.STOP else b.draw)  # type: ignore[arg-type]
    return {"bank_stop": None if b.stop is None else float(b.stop), "bank_draw": float(b.draw),
            "bank_action": choice_word(b.action),
            "bank_steal_take": None if b.steal is None else float(b.steal.take),
            "bank_steal_decline": None if b.steal is None else float(b.steal.decline),
            "bank_steal_action": "" if b.steal is None else choice_word(b.steal.action),
            "bank_turn_cost": best - followed if beats(best, followed) else 0.0,  # a float tie costs nothing
            "bank_status": SOLVED}


_BANK_VALUES = ("bank_stop", "bank_draw", "bank_steal_take", "bank_steal_decline", "bank_turn_cost")


def positions_chunk(chunk: int, size: int, seed: int, bank_seconds: float = BANK_SECONDS) -> list[dict[str, Any]]:
    """Solve one chunk of sampled positions (deterministic in ``chunk``, ``seed`` and ``bank_seconds``)."""
    rows = []
    for k, pos in enumerate(sample_positions(size, seed=seed * 1_000_003 + chunk)):
        a = advise(pos, exact=True)
        others = pos.others()
        row: dict[str, Any] = {"position_id": f"{seed}-{chunk}-{k}", "players": len(pos.players),
                               "active": pos.active, "pile_size": pos.pile_size()}
        row.update({f"pile_{v}": n for v, n in zip(VALUES, pos.pile())})
        row.update({"line": " ".join(map(str, pos.line)), "line_cards": len(pos.line),
                    "line_value": sum(pos.line)})
        row.update({f"reach_{v}": n for v, n in zip(VALUES, others)})
        row["offer"] = pos.steal_on_offer() or 0
        row["position"] = pos.to_json()
        row.update({"bust_probability": _exact(a.bust_probability),
                    "turn_stop": "" if a.stop is None else _exact(a.stop), "turn_draw": _exact(a.draw),
                    "turn_action": choice_word(a.action),
                    "turn_steal_take": "" if a.steal is None else _exact(a.steal.take),
                    "turn_steal_decline": "" if a.steal is None else _exact(a.steal.decline),
                    "turn_steal_action": "" if a.steal is None else choice_word(a.steal.action),
                    "bust_probability_float": float(a.bust_probability),
                    "turn_stop_float": None if a.stop is None else float(a.stop),
                    "turn_draw_float": float(a.draw)})
        row.update(_bank_columns(pos, a, bank_seconds))
        rows.append(row)
    return rows


def thresholds_table(positions: pd.DataFrame) -> pd.DataFrame:
    """Threshold chart from the positions table: no steal in reach, three or more cards."""
    picked = []
    for row in positions.itertuples(index=False):
        if row.line_cards < BUST_THRESHOLD or row.offer or row.turn_stop == "":
            continue
        line = counts(int(x) for x in row.line.split())
        reach = [getattr(row, f"reach_{v}") for v in VALUES]
        pile = [getattr(row, f"pile_{v}") for v in VALUES]
        if any(reach[i] and pile[i] and not line[i] for i in range(10)):
            continue  # a steal is in reach
        pos = Position.from_json(row.position)
        picked.append((pos, row.turn_action == "draw"))
    return pd.DataFrame(thresholds(picked))


#: Pile-size bands of the Study page and of :func:`bank_against_turn`.
PILE_BANDS = ((61, 90, "61-90"), (31, 60, "31-60"), (11, 30, "11-30"), (1, 10, "1-10"))


def bank_against_turn(positions: pd.DataFrame) -> pd.DataFrame:
    """How often `bank` and `turn` advise differently, by number of players and pile-size band.

    A row disagrees when the plans differ: the steal choice, or stop against
    draw. Per group: positions, those `bank` answered within its work limit,
    how many of those disagree (and the share), and what following `turn`
    costs in `bank` points, on average over the disagreements and over all
    answered positions.

    >>> rows = pd.DataFrame({"players": [2, 2], "pile_size": [80, 80], "turn_action": ["stop", "draw"],
    ...     "bank_action": ["draw", "draw"], "turn_steal_action": ["", ""], "bank_steal_action": ["", ""],
    ...     "bank_turn_cost": [1.5, 0.0], "bank_status": ["solved", "solved"]})
    >>> bank_against_turn(rows)[["players", "pile", "solved", "disagree", "cost_when_disagree"]].to_dict("records")
    [{'players': 2, 'pile': '61-90', 'solved': 2, 'disagree': 1, 'cost_when_disagree': 1.5}]
    """
    out = []
    df = positions.copy()
    band = pd.Series("", index=df.index)
    for lo, hi, label in PILE_BANDS:
        band[(df["pile_size"] >= lo) & (df["pile_size"] <= hi)] = label
    df["pile"] = band
    df["solved"] = df["bank_status"] == SOLVED
    df["disagree"] = df["solved"] & ((df["bank_action"] != df["turn_action"])
                                     | (df["bank_steal_action"] != df["turn_steal_action"]))
    order = {label: k for k, (_, _, label) in enumerate(PILE_BANDS)}
    for (players, pile), g in sorted(df.groupby(["players", "pile"]), key=lambda kv: (kv[0][0], order[kv[0][1]])):
        solved = g[g["solved"]]
        split = g[g["disagree"]]
        out.append({"players": int(players), "pile": pile, "positions": len(g), "solved": len(solved),
                    "disagree": len(split), "share": len(split) / len(solved) if len(solved) else float("nan"),
                    "cost_when_disagree": float(split["bank_turn_cost"].mean()) if len(split) else float("nan"),
                    "cost_per_position": float(solved["bank_turn_cost"].mean()) if len(solved) else float("nan")})
    return pd.DataFrame(out)


def cost_when_disagreeing(split: pd.DataFrame) -> float:
    """What following `turn` costs in `bank` points, on average over every position where the two disagree
    (:func:`bank_against_turn`'s groups taken together).

    >>> cost_when_disagreeing(pd.DataFrame({"disagree": [3, 1, 0], "cost_when_disagree": [2.0, 6.0, None]}))
    3.0
    """
    return float((split["cost_when_disagree"].fillna(0) * split["disagree"]).sum() / max(int(split["disagree"].sum()), 1))


def rules_table(starts: int = 20, seed: int = 2026) -> pd.DataFrame:
    scores = score_rules(study_starts(starts, seed))
    return pd.DataFrame([{"rule": s.family, "statement": s.statement, "parameters": json.dumps(
        [str(p) for p in s.params]), "value": _exact(s.value), "optimal": _exact(s.optimal), "loss": _exact(s.loss),
        "agreement": _exact(s.agreement), "value_float": float(s.value), "loss_float": float(s.loss),
        "agreement_float": float(s.agreement)} for s in scores])


# -- writing ------------------------------------------------------------------------
def write_table(df: pd.DataFrame, out: Path, name: str, json_too: bool = False) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{name}.csv", out / f"{name}.parquet"]
    atomic(paths[0], lambda p: df.to_csv(p, index=False))
    atomic(paths[1], lambda p: df.to_parquet(p, index=False))
    if json_too:
        paths.append(out / f"{name}.json")
        atomic(paths[2], lambda p: p.write_text(json.dumps(
            {"rules": RULES_VERSION, "rows": df.to_dict(orient="records")}, indent=0)))
    return paths


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# -- the build ----------------------------------------------------------------------
#: What a saved chunk was made by: a chunk is reused only by a build that would make the same one.
_MADE_BY = hashlib.sha256(RULES_VERSION.encode()).hexdigest()[:8]


def _chunk_path(out: Path, seed: int, size: int, chunk: int, bank_seconds: float, rows: int, code: str) -> Path:
    # Everything that decides a chunk's rows is in its name: seed, chunk size, its own row count
    # (the last chunk of a smaller build is shorter), bank's work limit, the rules and models, and a
    # checksum of the code that computes them (``code``: :func:`_code`): a chunk saved before a mend
    # of a model or of a row is never taken for one after it.
    return out / ".build" / f"positions-s{seed}-n{size}-r{rows}-b{bank_seconds:g}-{_MADE_BY}-{code}-c{chunk:05d}" \
                            ".parquet"


def _code() -> str:
    """The code a row depends on: the tournaments' code mark (the rules and models) and this module's checksum."""
    return f"m{code_mark()}-t{hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]}"


def build_positions(out: Path, count: int, chunk_size: int = 250, seed: int = 2026, workers: int | None = None,
                    dask: str | None = None, log: Callable[[str], None] = print,
                    bank_seconds: float = BANK_SECONDS, dask_timeout: float = 10.0) -> pd.DataFrame:
    """The positions table, chunk by chunk, on a process pool or a Dask cluster."""
    chunks = (count + chunk_size - 1) // chunk_size
    sizes = [min(chunk_size, count - i * chunk_size) for i in range(chunks)]
    code = _code()  # once a build: it reads every file of the code
    jobs = [Chunk(_chunk_path(out, seed, chunk_size, i, bank_seconds, sizes[i], code), positions_chunk,
                  (i, sizes[i], seed, bank_seconds)) for i in range(chunks)]
    run_chunks(jobs, "positions", workers, dask, dask_timeout, log, bar=False)
    return read_chunks(jobs)


def build(out: Path, positions: int = 2000, chunk_size: int = 250, seed: int = 2026, workers: int | None = None,
          dask: str | None = None, rule_starts: int = 20, log: Callable[[str], None] = print,
          bank_seconds: float = BANK_SECONDS, dask_timeout: float = 10.0) -> dict[str, float]:
    """Build every table into ``out`` and write its README; returns seconds per table.

    ``out`` must be new, empty or a folder of tables (:data:`OUTPUT`), else :class:`OutputFolderError`.
    """
    OUTPUT.check(out)
    timing: dict[str, float] = {}
    written: list[Path] = []
    t0 = time.perf_counter()
    pos = build_positions(out, positions, chunk_size, seed, workers, dask, log, bank_seconds, dask_timeout)
    written += write_table(pos, out, "positions")
    timing["positions"] = time.perf_counter() - t0
    log(f"positions: {len(pos)} rows in {timing['positions']:.1f} s")
    for name, make, json_too in (("opening", opening_table, True),
                                 ("thresholds", lambda: thresholds_table(pos), False),
                                 ("rules", lambda: rules_table(rule_starts, seed), False)):
        t0 = time.perf_counter()
        df = make()
        written += write_table(df, out, name, json_too)
        timing[name] = time.perf_counter() - t0
        log(f"{name}: {len(df)} rows in {timing[name]:.1f} s")
    readme = out / "README.md"
    atomic(readme, lambda p: p.write_text(_readme(written, positions, chunk_size, seed, rule_starts, bank_seconds)))
    return timing


_SCHEMA = {
    "opening": [
        ("line", "the cards in front of the active player, lowest first (space-separated values)"),
        ("cards", "how many face-up cards that is"), ("line_value", "their sum (points)"),
        ("pile_size", "cards left in the pile"),
        ("bust_probability", "exact chance the next card busts, \"p/q\""),
        ("stop", "exact `turn` value of stopping (points)"), ("draw", "exact `turn` value of drawing (points)"),
        ("action", "`draw` or `stop` (stop on a tie)"),
        ("bust_probability_float, draw_float", "the same as floats"),
        ("gain_of_best", "points the better action is worth over the other (float)")],
    "positions": [
        ("position_id", "seed-chunk-index"), ("players", "2 to 5"), ("active", "the seat to play"),
        ("pile_size, pile_1 … pile_10", "cards left, in all and per value"),
        ("line, line_cards, line_value", "the active line (cards, count, points)"),
        ("reach_1 … reach_10", "face-up cards of each value other players hold (what a steal takes)"),
        ("offer", "value whose steal is on offer now, 0 if none"),
        ("position", "the whole position as the command line's JSON"),
        ("bust_probability", "exact, \"p/q\""),
        ("turn_stop, turn_draw", "exact `turn` values (stop empty when the player must draw)"),
        ("turn_action", "`draw` or `stop`"),
        ("turn_steal_take, turn_steal_decline, turn_steal_action", "with a steal on offer, else empty"),
        ("*_float", "the same numbers as floats"),
        ("bank_stop, bank_draw", "`bank` values (float; stop empty when the player must draw)"),
        ("bank_action", "`draw` or `stop`, after `bank`'s steal choice"),
        ("bank_steal_take, bank_steal_decline, bank_steal_action", "with a steal on offer, else empty"),
        ("bank_turn_cost", "`bank` points lost by following `turn`'s advice (its steal choice, then "
                              "its stop or draw) instead of `bank`'s; 0 where they agree"),
        ("bank_status", "`solved`, or `over work limit` (then every other `bank_*` cell is empty)")],
    "thresholds": [
        ("pile_size, cards_held", "the group: positions from `positions` with no steal in reach"),
        ("positions", "how many positions the group has"),
        ("threshold", "line value from which the optimal policy stops; empty when no single threshold fits, "
                      "or when it draws at every value met"),
        ("single_threshold", "true when draws all lie below stops"),
        ("highest_draw, lowest_stop", "highest line value still drawn, lowest already stopped at")],
    "rules": [
        ("rule, statement", "a simple rule family and its best member, in words"),
        ("parameters", "its parameters (JSON list)"),
        ("value, optimal, loss", "exact mean points per turn of the rule and of the optimum, and the gap"),
        ("agreement", "exact chance-weighted share of decisions met where it acts as the optimum does"),
        ("*_float", "the same numbers as floats")],
}


def _readme(paths: Sequence[Path], positions: int, chunk: int, seed: int, starts: int, bank_seconds: float) -> str:
    lines = [str(OUTPUT.heading), "",
             f"Rules and model: {RULES_VERSION} (the rules: `../docs/RULES.md`; the models: `../docs/MODELS.md`).",
             "Values are the `turn` model's (the expected sum of the active line when the turn ends, with",
             "optimal play; exact, fractions written `p/q`) except the `positions` table's `bank_*` columns:",
             "the `bank` model's (the expected points of the line that reach the loot, opponents' steals",
             "counted; with three or more players under its \"independent opponents\" approximation), as",
             "floats from its compiled path. `bank` gets a fixed work limit per position",
             f"({int(bank_seconds * STATES_PER_SECOND):,} opponent points, what the advisor allows in "
             f"{bank_seconds:g} s), so the table",
             "is the same on every machine; a row past it has `bank_status` \"over work limit\" and empty",
             "`bank_*` cells.", "",
             "Built with:", "", "```sh",
             f"python -m solver tables build --positions {positions} --chunk {chunk} --seed {seed} "
             f"--rule-starts {starts} --bank-seconds {bank_seconds:g}", "```", "",
             "Add `--dask tcp://HOST:8786` to build on a Dask cluster (workers need this package installed).",
             "", "## Files and checksums (SHA-256)", "", "| file | rows | sha256 |", "| --- | --- | --- |"]
    for p in paths:
        rows = len(pd.read_parquet(p.with_suffix(".parquet"))) if p.suffix != ".json" else "—"
        lines.append(f"| `{p.name}` | {rows} | `{sha256(p)}` |")
    for name, cols in _SCHEMA.items():
        lines += ["", f"## `{name}`", "", "| column | meaning |", "| --- | --- |"]
        lines += [f"| `{c}` | {m} |" for c, m in cols]
    lines += ["", "`opening.json` holds `{\"rules\": …, \"rows\": [...]}` with the same columns as the CSV.", ""]
    return "\n".join(lines)
