"""data/hitthedeck: the tournament games behind docs/HITTHEDECK.md's table ("What the advice is worth").

The summary is its games summed up (recomputed here from the per-game rows, the
intervals from their definitions), every figure of the doc's table is the
summary's, a sample of games replayed with the engine and the bots gives their
rows again, and the README's checksums are the files'.
"""

from __future__ import annotations

import csv
import hashlib
import math
import random
import re
import statistics
from functools import cache
from pathlib import Path

import pytest

from solver.hitthedeck.bots import make, play_game
from solver.hitthedeck.cli import main
from solver.hitthedeck.tournament import Pairing, write_games

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "hitthedeck"
README = DATA / "README.md"
DOC = ROOT / "docs" / "HITTHEDECK.md"
#: The two-sided 95% normal quantile, from its definition (not the module's constant).
Z = statistics.NormalDist().inv_cdf(0.975)
#: Games replayed per pairing, besides its first and last.
SAMPLE = 8
HEAD = ["tested", "baseline", "players", "win rate", "95% Wilson interval", "an equal player", "points per hand",
        "margin per hand (95% interval)"]


@cache
def table(name: str) -> tuple[dict[str, str], ...]:
    with (DATA / name).open(encoding="utf-8", newline="") as f:
        return tuple(csv.DictReader(f))


def games() -> tuple[dict[str, str], ...]:
    return table("games.csv")


def summary() -> tuple[dict[str, str], ...]:
    return table("summary.csv")


def by_pairing() -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    for row in games():
        out.setdefault(row["pairing"], []).append(row)
    return out


def hands_of(row: dict[str, str]) -> list[list[int]]:
    return [[int(p) for p in hand.split(" ")] for hand in row["hand_points"].split(";")]


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(" ")]


def wilson_by_bisection(wins: float, n: int) -> tuple[float, float]:
    """The interval's definition: the p with |wins/n - p| <= Z sqrt(p(1-p)/n), its ends found numerically."""
    phat = wins / n

    def inside(p: float) -> bool:
        return abs(phat - p) <= Z * math.sqrt(p * (1 - p) / n)

    def edge(lo: float, hi: float) -> float:  # inside at lo, outside at hi
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if inside(mid) else (lo, mid)
        return (lo + hi) / 2

    return (edge(phat, 0.0) if wins else 0.0, edge(phat, 1.0) if wins < n else 1.0)


def mean_and_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and mean ± Z standard errors, the variance summed here (n - 1 in the denominator)."""
    n = len(values)
    mean = math.fsum(values) / n
    half = Z * math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


# -- (a) every game row holds together, and the summary is the games summed up --------------------
def test_every_game_row_holds_together():
    assert games(), "games.csv is empty"
    for row in games():
        where = (row["pairing"], row["game"])
        players, game, seat = int(row["players"]), int(row["game"]), int(row["tested_seat"])
        assert row["pairing"] == f"{row['tested']} vs {row['baseline']} ({players}p)", where
        assert (int(row["deal"]), seat) == divmod(game, players), where
        hands = hands_of(row)
        assert int(row["hands"]) == len(hands) and all(len(h) == players for h in hands), where
        totals = [sum(h[s] for h in hands) for s in range(players)]
        assert ints(row["totals"]) == totals and int(row["tested_total"]) == totals[seat], where
        assert max(totals) >= 100 and max(sum(h[s] for h in hands[:-1]) for s in range(players)) < 100, where  # H12
        winners = [s for s, t in enumerate(totals) if t == min(totals)]
        assert ints(row["winners"]) == winners, where
        assert float(row["win_share"]) == (1 / len(winners) if seat in winners else 0.0), where
        others = (sum(totals) - totals[seat]) / (players - 1)
        assert close(float(row["margin"]), totals[seat] - others), where
        assert float(row["points_per_hand"]) == round(totals[seat] / len(hands), 4), where


def test_each_pairing_is_its_games_zero_to_n_with_one_seed():
    for pairing, rows in by_pairing().items():
        assert [int(r["game"]) for r in rows] == list(range(len(rows))), pairing
        assert len({r["seed"] for r in rows}) == 1 and len({(r["tested"], r["baseline"], r["players"])
                                                             for r in rows}) == 1, pairing


def test_the_summary_is_the_games_summed_up():
    groups = by_pairing()
    assert [s["pairing"] for s in summary()] == list(groups), "summary.csv and games.csv list other pairings"
    for s in summary():
        rows = groups[s["pairing"]]
        first = rows[0]
        for column in ("tested", "baseline", "players", "seed"):
            assert s[column] == first[column], (s["pairing"], column)
        players, n = int(s["players"]), len(rows)
        tested: list[float] = []
        baseline: list[float] = []
        margins: list[float] = []
        for r in rows:
            seat = int(r["tested_seat"])
            for h in hands_of(r):
                theirs = [p for k, p in enumerate(h) if k != seat]
                tested.append(h[seat])
                baseline.extend(theirs)
                margins.append(h[seat] - sum(theirs) / len(theirs))
        wins = math.fsum(float(r["win_share"]) for r in rows)
        assert int(s["games"]) == n and int(s["hands"]) == len(tested) == sum(int(r["hands"]) for r in rows)
        assert close(float(s["wins"]), wins) and close(float(s["win_rate"]), wins / n)
        low, high = wilson_by_bisection(wins, n)
        assert float(s["win_low"]) == pytest.approx(low, abs=1e-9) and float(s["win_high"]) == pytest.approx(
            high, abs=1e-9), s["pairing"]
        assert float(s["fair_share"]) == 1 / players
        for name, values in (("tested_points", tested), ("margin", margins)):
            mean, lo, hi = mean_and_interval(values)
            got = [float(s[name]), float(s[f"{name}_low"]), float(s[f"{name}_high"])]
            assert got == pytest.approx([mean, lo, hi], rel=1e-9, abs=1e-9), (s["pairing"], name)
        assert close(float(s["tested_points"]), sum(int(r["tested_total"]) for r in rows) / len(tested))
        assert close(float(s["margin"]), math.fsum(float(r["margin"]) for r in rows) / len(tested))
        assert close(float(s["baseline_points"]), math.fsum(baseline) / len(baseline))


# -- (b) every figure of the doc's table is the summary's ------------------------------------------
def section(text: str, title: str) -> str:
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found, f"no section {title!r}"
    return found.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The cells of the one Markdown table of ``text``, its head checked and its rule left out."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert lines, "no table"
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    assert cells[0] == HEAD and set("".join(cells[1])) <= set("- "), cells[:2]
    return cells[2:]


def as_written(s: dict[str, str]) -> list[str]:
    """A summary row the way the doc's table writes it."""
    f = {k: float(v) for k, v in s.items() if k not in ("pairing", "tested", "baseline")}
    return [s["tested"], s["baseline"], s["players"], f"{f['win_rate']:.1%}",
            f"{f['win_low']:.1%} to {f['win_high']:.1%}", f"{1 / int(s['players']):.1%}",
            f"{f['tested_points']:.2f}",
            f"{f['margin']:+.2f} ({f['margin_low']:+.2f} to {f['margin_high']:+.2f})"]


def doc_section() -> str:
    return section(DOC.read_text(encoding="utf-8"), "What the advice is worth")


def test_every_figure_in_the_docs_table_is_the_summarys():
    rows = table_rows(doc_section())
    assert rows == [as_written(s) for s in summary()]
    assert len(rows) == 6


def test_the_data_readme_table_is_the_summarys_too():
    assert table_rows(README.read_text(encoding="utf-8").split("\n## ")[0]) == [as_written(s) for s in summary()]


def readme_command() -> str:
    found = re.search(r"```sh\n(python -m solver\.hitthedeck tournament [^\n]*)\n```", README.read_text())
    assert found, "the README gives no command"
    return found.group(1)


def test_the_doc_names_the_folder_and_the_command_that_rebuilds_it():
    command = readme_command()
    text = doc_section()
    assert "data/hitthedeck/" in text and command in text
    games_, seed = re.search(r"--games (\d+) --seed (\d+)", command).groups()
    pairings = re.findall(r"--pairing (\w+):(\w+):(\d)", command)
    assert command.endswith(" --out data/hitthedeck")
    assert pairings == [(s["tested"], s["baseline"], s["players"]) for s in summary()]
    assert {(s["games"], s["seed"]) for s in summary()} == {(games_, seed)}
    assert f"--games {games_} --seed {seed}" in text and f"{int(games_):,} games each" in text


# -- (c) replayed games give their rows again -------------------------------------------------------
def sample(n: int) -> list[int]:
    return sorted({0, n - 1, *random.Random(2026).sample(range(n), SAMPLE)})


def replayed(row: dict[str, str]) -> dict[str, str]:
    """The row of the game, played again from the doc's seating rule with the engine and the bots."""
    tested, baseline, players, seed, g = (row["tested"], row["baseline"], int(row["players"]), int(row["seed"]),
                                          int(row["game"]))
    seat = g % players
    bots = [make(tested if s == seat else baseline, seed=f"{seed}/{g}/{s}") for s in range(players)]
    game = play_game(bots, seed=f"{seed}/{g // players}")
    hands = [r.points for r in game.rounds]
    totals = game.totals
    winners = [s for s, t in enumerate(totals) if t == min(totals)]
    mine, others = totals[seat], (sum(totals) - totals[seat]) / (players - 1)
    values: dict[str, object] = {
        "pairing": row["pairing"], "tested": tested, "baseline": baseline, "players": players, "seed": seed,
        "game": g, "deal": g // players, "tested_seat": seat, "winners": " ".join(map(str, winners)),
        "win_share": 1 / len(winners) if seat in winners else 0.0, "totals": " ".join(map(str, totals)),
        "tested_total": mine, "hands": len(hands), "points_per_hand": round(mine / len(hands), 4),
        "margin": mine - others, "hand_points": ";".join(" ".join(map(str, h)) for h in hands)}
    return {k: str(v) for k, v in values.items()}


@pytest.mark.parametrize("pairing", [s["pairing"] for s in summary()])
def test_sampled_games_replay_to_their_rows(pairing):
    rows = by_pairing()[pairing]
    for g in sample(len(rows)):
        assert replayed(rows[g]) == rows[g], (pairing, g)


def test_the_writer_writes_these_rows(tmp_path):
    # What write_games writes now, for the first games of two pairings, is what the folder holds.
    pairings = [Pairing("points", "highest", 2), Pairing("advisor", "random", 3)]
    seed = int(summary()[0]["seed"])
    write_games(pairings, 3, seed, tmp_path, command="python -m solver.hitthedeck tournament ...")
    with (tmp_path / "games.csv").open(encoding="utf-8", newline="") as f:
        fresh = list(csv.DictReader(f))
    assert fresh == [by_pairing()[p.name][g] for p in pairings for g in range(3)]
    assert (tmp_path / "games.csv").read_text().splitlines()[0] == (DATA / "games.csv").read_text().split("\n")[0]


def test_the_command_writes_the_folder_and_names_itself(tmp_path, capsys):
    out = tmp_path / "t"
    status = main(["tournament", "--games", "2", "--seed", summary()[0]["seed"], "--pairing", "advisor:random:3",
                   "--pairing", "first:highest:2", "--out", str(out), "--json"])
    printed = [line for line in capsys.readouterr().out.splitlines() if line]
    assert status == 0 and len(printed) == 2 and '"tested": "advisor"' in printed[0]
    text = (out / "README.md").read_text()
    # An absolute folder is not written into the README (it would name this machine's path).
    assert (f"--games 2 --seed {summary()[0]['seed']} --pairing advisor:random:3 --pairing first:highest:2 "
            "--out FOLDER") in text and str(tmp_path) not in text
    with (out / "games.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[:2] == by_pairing()["advisor vs random (3p)"][:2] and len(rows) == 4


@pytest.mark.parametrize("argv, message", [
    (["--pairing", "advisor:nobody:3"], "no bot called 'nobody'"),
    (["--pairing", "advisor:highest:7"], "2 to 6 players, not 7"),
    (["--pairing", "advisor:highest"], "a pairing is TESTED:BASELINE:PLAYERS"),
    (["--pairing", "advisor:highest:3", "--players", "2"], "--pairing replaces --tested, --baseline and --players"),
    (["--pairing", "advisor:highest:3", "--pairing", "advisor:highest:3"], "a pairing is given twice"),
])
def test_bad_pairings_are_usage_errors(argv, message, capsys):
    assert main(["tournament", "--games", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "usage:" in err and "Traceback" not in err


# -- (d) the README's checksums are the files' ------------------------------------------------------
def readme_files() -> dict[str, tuple[int, str]]:
    text = section(README.read_text(encoding="utf-8"), "Files and checksums (SHA-256)")
    rows = re.findall(r"^\| `([\w.]+)` \| (\d+) \| `([0-9a-f]{64})` \|$", text, re.M)
    return {name: (int(count), digest) for name, count, digest in rows}


def test_the_readme_checksums_and_row_counts_are_the_files():
    files = readme_files()
    assert set(files) == {p.name for p in DATA.iterdir() if p.name != "README.md"} == {"games.csv", "summary.csv"}
    for name, (count, digest) in files.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, f"{name}: SHA-256 differs"
        assert count == len(table(name)), name


def test_the_readme_documents_every_column():
    text = README.read_text(encoding="utf-8")
    for name in ("games.csv", "summary.csv"):
        documented = re.findall(r"^\| `(\w+)` \|", section(text, name), re.M)
        assert documented == list(table(name)[0]), name
