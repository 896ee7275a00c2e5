"""Two pairings compared on the deals both played: ``python -m bench.same_deals``.

Every pairing of ``python -m solver tournament`` with the same seed plays the
same deals (the same shuffled deck and first seat, each rotation of the
seats), so two pairings of one tested bot, against two baselines or by two
versions of it, can be compared deal by deal: the luck of the cards is the
same on both sides and drops out of the difference. This is how
docs/STRENGTH.md says, for example, that `win` does no worse against `bank`
than against `turn` with three players.

For each measure of the tested seat (games won, games finished last, its
score, the best other seat's score, the margin, turns lost), the mean over
the common deals of each pairing, their difference and its standard error
with the deals as clusters: the games of one deal are averaged first, and
the standard error is that of the mean of the per-deal differences (the
rotations of one deal share its cards, so they are not independent).
``--segments 40,150`` also gives the difference in games won over the deals
0–39, 40–149 and 150 on, in the order they were played. A pairing whose
deals lack a rotation or hold one twice is refused, naming the deal.

    python -m bench.same_deals "win vs bank" "win vs turn" --players 3

reads ``data/strength/games.parquet`` (``--games`` names another table of
the same format: docs/STRENGTH.md, "The data").
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

GAMES = Path(__file__).resolve().parent.parent / "data" / "strength" / "games.parquet"

#: The columns read, as ``python -m solver tournament`` writes them.
COLUMNS = ("pairing", "players", "seed", "deal", "tested_seat", "tested_won", "tested_rank", "tested_score",
           "margin", "tested_lost_turns", "scores")
#: The measures compared, each of the tested seat in one game ("best other": the best other seat's score).
MEASURES = ("won", "last", "score", "best other", "margin", "lost turns")
#: The measures that are shares of games, given in percent (their differences in percentage points).
PERCENT = {"won", "last"}


@dataclass(frozen=True)
class Difference:
    """One measure on the common deals: its mean in pairing ``a`` and ``b``, and ``a`` − ``b`` with its
    standard error (deals as clusters); shares in percentage points."""

    measure: str
    a: float
    b: float
    difference: float
    standard_error: float


class SameDealsError(ValueError):
    """Two pairings that cannot be compared, or a games table that cannot be read; the message says why."""


def read_games(path: Path) -> pd.DataFrame:
    """The games table at ``path``, refused with a message naming the file when it is not one."""
    if path.is_dir():
        raise SameDealsError(f"{path}: a folder, not a games table (give its games.parquet)")
    try:
        games = pd.read_parquet(path)
    except FileNotFoundError:
        raise SameDealsError(f"{path}: no such file") from None
    except Exception as e:  # pyarrow's errors for a file that is not Parquet vary by version
        raise SameDealsError(f"{path}: not a Parquet games table ({type(e).__name__}: {e})") from None
    missing = sorted(set(COLUMNS) - set(games.columns))
    if missing:
        raise SameDealsError(f"{path}: not a games table, it lacks the column(s) {', '.join(missing)}")
    wrong = [c for c in COLUMNS if c not in ("pairing", "scores") and not pd.api.types.is_integer_dtype(games[c])]
    wrong += [c for c in ("pairing", "scores") if not games[c].map(lambda v: isinstance(v, str)).all()]
    if wrong:
        raise SameDealsError(f"{path}: not a games table, the column(s) {', '.join(wrong)} do not hold "
                             "what a tournament writes (whole numbers; text for pairing and scores)")
    return games


def _pairing(games: pd.DataFrame, name: str, players: int) -> pd.DataFrame:
    """The games of one pairing at one table size, named as the table names it, with or without "(3p)"."""
    suffix = f" ({players}p)"
    label = name if name.endswith(suffix) else f"{name}{suffix}"
    if label.count("p)") > 1 or not label.endswith(suffix):
        raise SameDealsError(f"{name!r} is not a pairing with {players} players (--players {players})")
    rows = games[games.pairing == label]
    if rows.empty:
        known = sorted(p for p in games.pairing.unique() if p.endswith(suffix))
        raise SameDealsError(f"no games of {label!r}; the table has, with {players} players: "
                             f"{', '.join(known) or 'none'}")
    if not (rows.players == players).all():
        raise SameDealsError(f"{label!r} holds games that are not of {players} players")
    seats = rows.groupby("deal").tested_seat
    bad = seats.apply(lambda s: sorted(s) != list(range(players)))
    if bad.any():
        deal = int(bad[bad].index[0])
        raise SameDealsError(f"{label!r}, deal {deal}: the tested seat should sit once in each of the {players} "
                             f"seats (0 to {players - 1}), the table has {sorted(seats.get_group(deal))}")
    return rows


def per_game(rows: pd.DataFrame) -> pd.DataFrame:
    """Each game's measures for the tested seat, indexed by deal."""
    best_other = []
    for label, deal, text, seat in zip(rows.pairing, rows.deal, rows.scores, rows.tested_seat):
        try:
            scores = [int(v) for v in text.split()]
        except ValueError:
            raise SameDealsError(f"{label!r}, deal {deal}: scores {text!r} are not whole numbers") from None
        if len(scores) != rows.players.iloc[0] or not 0 <= seat < len(scores):
            raise SameDealsError(f"{label!r}, deal {deal}: scores {text!r} do not give one score a seat")
        best_other.append(max(v for i, v in enumerate(scores) if i != seat))
    return pd.DataFrame({
        "deal": rows.deal.to_numpy(),
        "won": rows.tested_won.to_numpy(dtype=float) * 100,
        "last": (rows.tested_rank == rows.players).to_numpy(dtype=float) * 100,
        "score": rows.tested_score.to_numpy(dtype=float),
        "best other": np.array(best_other, dtype=float),
        "margin": rows.margin.to_numpy(dtype=float),
        "lost turns": rows.tested_lost_turns.to_numpy(dtype=float),
    })


def common_deals(games: pd.DataFrame, a: str, b: str, players: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The per-deal means of each measure in pairings ``a`` and ``b``, over the deals both played (each deal's
    rotations averaged: a deal is one cluster)."""
    ra, rb = _pairing(games, a, players), _pairing(games, b, players)
    if set(ra.seed) != set(rb.seed) or ra.seed.nunique() != 1:
        raise SameDealsError(f"{a!r} and {b!r} were not played from one seed ({sorted(set(ra.seed) | set(rb.seed))}),"
                             " so their deals are not the same cards")
    ma, mb = per_game(ra).groupby("deal").mean(), per_game(rb).groupby("deal").mean()
    deals = ma.index.intersection(mb.index)
    if "first" in games.columns:  # the deal's first seat: with one seed and deal number, the same in both
        fa, fb = (r.groupby("deal")["first"].agg(set) for r in (ra, rb))
        differ = [int(d) for d in deals if fa[d] != fb[d]]
        if differ:
            raise SameDealsError(f"{a!r} and {b!r}: deal {differ[0]} has another first seat in each, so it is "
                                 "not the same deal")
    if len(deals) < 2:
        raise SameDealsError(f"{a!r} and {b!r} have {len(deals)} deal(s) in common; a standard error needs two")
    return ma.loc[deals], mb.loc[deals]


def compare(ma: pd.DataFrame, mb: pd.DataFrame, measures: tuple[str, ...] = MEASURES) -> list[Difference]:
    """Each measure's means and difference, its standard error with the deals as clusters."""
    out = []
    for m in measures:
        d = ma[m] - mb[m]
        out.append(Difference(m, float(ma[m].mean()), float(mb[m].mean()), float(d.mean()),
                              float(d.std(ddof=1) / math.sqrt(len(d)))))
    return out


def by_segment(ma: pd.DataFrame, mb: pd.DataFrame, cuts: list[int]) -> list[tuple[int, int, int, Difference]]:
    """The difference in games won over each run of deals between the cuts (a cut is the first deal of a run):
    (first deal, last deal, deals, difference). Every run must hold two deals or more."""
    deals = ma.index.to_numpy()
    if sorted(set(cuts)) != cuts or any(not deals.min() < c <= deals.max() for c in cuts):
        raise SameDealsError(f"--segments {','.join(map(str, cuts))}: the cuts must rise, each past the first deal "
                             f"in common ({deals.min()}) and at most the last ({deals.max()})")
    edges = [int(deals.min())] + cuts + [int(deals.max()) + 1]
    out = []
    for lo, hi in zip(edges, edges[1:]):
        keep = (deals >= lo) & (deals < hi)
        if keep.sum() < 2:
            raise SameDealsError(f"--segments: the deals {lo} to {hi - 1} hold {keep.sum()} deal(s) in common; "
                                 "a standard error needs two")
        run = deals[keep]
        out.append((int(run.min()), int(run.max()), int(keep.sum()), compare(ma[keep], mb[keep], ("won",))[0]))
    return out


def _signed(x: float, places: int = 1) -> str:
    """A difference as docs/STRENGTH.md prints it: a sign, and a real minus."""
    return f"{x:+.{places}f}".replace("-", "−")


def report(games: pd.DataFrame, a: str, b: str, players: int, cuts: list[int]) -> list[str]:
    """The comparison as printed lines: shares of games to two places and their differences to one, lost turns
    to two, the rest to one."""
    ma, mb = common_deals(games, a, b, players)
    lines = [f"{players} players, {len(ma)} deals in common: {a!r} against {b!r}",
             "measure | a | b | a − b | standard error (deals as clusters)"]
    for d in compare(ma, mb):
        unit, k, dk = ("%", 2, 1) if d.measure in PERCENT else ("", 2, 2) if d.measure == "lost turns" else ("", 1, 1)
        lines.append(f"{d.measure} | {d.a:.{k}f}{unit} | {d.b:.{k}f}{unit} | {_signed(d.difference, dk)} | "
                     f"{d.standard_error:.{dk}f}")
    if cuts:
        for first, last, n, d in by_segment(ma, mb, cuts):
            lines.append(f"won, deals {first}–{last} ({n}): {_signed(d.difference)} "
                         f"(standard error {d.standard_error:.1f})")
    return lines


def _cuts(text: str) -> list[int]:
    """``--segments``: deal numbers separated by commas."""
    try:
        return [int(c) for c in text.split(",") if c.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not deal numbers separated by commas") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.same_deals",
                                 description="Two pairings compared on the deals both played.")
    ap.add_argument("a", help='a pairing as the games table names it: "win vs bank" (or "win vs bank (3p)")')
    ap.add_argument("b", help='the pairing to compare it with: "win vs turn"')
    ap.add_argument("--players", type=int, required=True, choices=range(2, 6))
    ap.add_argument("--segments", type=_cuts, default=[], help="the first deals of runs to compare apart: 40,150")
    ap.add_argument("--games", type=Path, default=GAMES, help="the games table (default data/strength/games.parquet)")
    args = ap.parse_args(argv)
    try:
        print("\n".join(report(read_games(args.games), args.a, args.b, args.players, args.segments)))
    except SameDealsError as e:
        print(f"same_deals: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
