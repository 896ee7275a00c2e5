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
0–39, 40–149 and 150 on, in the order they were played.

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
    try:
        games = pd.read_parquet(path)
    except FileNotFoundError:
        raise SameDealsError(f"{path}: no such file") from None
    except Exception as e:  # pyarrow's errors for a file that is not Parquet vary by version
        raise SameDealsError(f"{path}: not a Parquet games table ({type(e).__name__}: {e})") from None
    need = {"pairing", "players", "seed", "deal", "tested_seat", "tested_won", "tested_rank", "tested_score",
            "margin", "tested_lost_turns", "scores"}
    missing = sorted(need - set(games.columns))
    if missing:
        raise SameDealsError(f"{path}: not a games table, it lacks the column(s) {', '.join(missing)}")
    return games


def _pairing(games: pd.DataFrame, name: str, players: int) -> pd.DataFrame:
    label = name if name.endswith("p)") else f"{name} ({players}p)"
    rows = games[games.pairing == label]
    if rows.empty:
        known = sorted(p for p in games.pairing.unique() if p.endswith(f"({players}p)"))
        raise SameDealsError(f"no games of {label!r}; the table has, with {players} players: {', '.join(known)}")
    return rows


def per_game(rows: pd.DataFrame) -> pd.DataFrame:
    """Each game's measures for the tested seat, indexed by deal."""
    scores = rows.scores.str.split().map(lambda s: [int(v) for v in s])
    best_other = [max(v for i, v in enumerate(s) if i != seat) for s, seat in zip(scores, rows.tested_seat)]
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
    """The per-deal means of each measure in pairings ``a`` and ``b``, over the deals both played."""
    ra, rb = _pairing(games, a, players), _pairing(games, b, players)
    if set(ra.seed) != set(rb.seed) or ra.seed.nunique() != 1:
        raise SameDealsError(f"{a!r} and {b!r} were not played from one seed ({sorted(set(ra.seed) | set(rb.seed))}),"
                             " so their deals are not the same cards")
    ma, mb = per_game(ra).groupby("deal").mean(), per_game(rb).groupby("deal").mean()
    deals = ma.index.intersection(mb.index)
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


def by_segment(ma: pd.DataFrame, mb: pd.DataFrame, cuts: list[int]) -> list[tuple[int, int, Difference]]:
    """The difference in games won over each run of deals between the cuts: (first deal, deals, difference)."""
    deals = ma.index.to_numpy()
    edges = [int(deals.min())] + cuts + [int(deals.max()) + 1]
    out = []
    for lo, hi in zip(edges, edges[1:]):
        keep = (deals >= lo) & (deals < hi)
        if keep.sum() >= 2:
            out.append((lo, int(keep.sum()), compare(ma[keep], mb[keep], ("won",))[0]))
    return out


def report(games: pd.DataFrame, a: str, b: str, players: int, cuts: list[int]) -> list[str]:
    """The comparison as printed lines."""
    ma, mb = common_deals(games, a, b, players)
    lines = [f"{players} players, {len(ma)} deals in common: {a!r} against {b!r}",
             "measure | a | b | a − b | standard error (deals as clusters)"]
    for d in compare(ma, mb):
        unit, k = ("%", 2) if d.measure in PERCENT else ("", 2 if d.measure == "lost turns" else 1)
        lines.append(f"{d.measure} | {d.a:.{k}f}{unit} | {d.b:.{k}f}{unit} | {d.difference:+.{k}f} | "
                     f"{d.standard_error:.{k}f}")
    for lo, n, d in by_segment(ma, mb, cuts) if cuts else []:
        lines.append(f"won, deals {lo}–{lo + n - 1} ({n}): {d.difference:+.1f} (standard error {d.standard_error:.1f})")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.same_deals", description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help='a pairing as the games table names it, without its players: "win vs bank"')
    ap.add_argument("b", help='the pairing to compare it with: "win vs turn"')
    ap.add_argument("--players", type=int, required=True, choices=range(2, 6))
    ap.add_argument("--segments", default="", help="deal numbers at which to cut the games won: 40,150")
    ap.add_argument("--games", type=Path, default=GAMES, help="the games table (default data/strength/games.parquet)")
    args = ap.parse_args(argv)
    try:
        cuts = [int(c) for c in args.segments.split(",") if c.strip()]
    except ValueError:
        ap.error(f"--segments: {args.segments!r} is not deal numbers separated by commas")
    try:
        print("\n".join(report(read_games(args.games), args.a, args.b, args.players, sorted(cuts))))
    except SameDealsError as e:
        print(f"same_deals: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
