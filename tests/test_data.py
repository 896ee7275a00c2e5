"""The shipped decision tables in ``data/`` against their README and the solver.

Checksums and row counts come from ``data/README.md`` ("Files and checksums");
answers are checked through the stable command line
(``python -m solver advise - --exact``, JSON lines in, one answer per line),
one call per sampled table, never through solver internals.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
README = DATA / "README.md"

SAMPLE_SEED = 2026
POSITIONS_SAMPLE = 25
OPENING_SAMPLE = 25
TABLE_SUFFIXES = (".csv", ".parquet", ".json")


# -- README: the "Files and checksums" table -----------------------------------------
_ROW = re.compile(r"^\|\s*`([^`|]+)`\s*\|\s*([^|]*?)\s*\|\s*`?([0-9A-Fa-f]{64})`?\s*\|\s*$")


def readme_files(readme: Path = README) -> dict[str, tuple[int | None, str]]:
    """``{file name: (rows or None, sha256)}`` from the README's checksum table."""
    text = readme.read_text(encoding="utf-8")
    section = re.search(r"^##\s+Files and checksums[^\n]*\n(.*?)(?=^##\s|\Z)", text, re.M | re.S)
    assert section, f"{README} has no 'Files and checksums' section"
    files: dict[str, tuple[int | None, str]] = {}
    for line in section.group(1).splitlines():
        m = _ROW.match(line.strip())
        if not m:
            continue
        name, rows, digest = m.groups()
        assert name not in files, f"{name} is listed twice in {README}"
        files[name] = (int(rows) if rows.isdigit() else None, digest.lower())
    assert files, f"no file rows parsed from the checksum table of {README}"
    return files


FILES = readme_files()


def sha256(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def test_readme_lists_every_table_file():
    on_disk = {p.name for p in DATA.iterdir() if p.is_file() and p.suffix in TABLE_SUFFIXES}
    assert on_disk == set(FILES), "data/ and the README's checksum table disagree"


@pytest.mark.parametrize("name", sorted(FILES))
def test_checksum(name):
    path = DATA / name
    assert path.is_file(), f"{name} is in {README.name} but not in data/"
    assert sha256(path) == FILES[name][1], f"{name}: SHA-256 differs from {README.name}"


@pytest.mark.parametrize("name", sorted(n for n in FILES if not n.endswith(".json")))
def test_row_count(name):
    rows, _ = FILES[name]
    assert rows is not None, f"{name}: no row count in {README.name}"
    path = DATA / name
    if name.endswith(".parquet"):
        actual = len(pd.read_parquet(path))
    elif name.endswith(".csv"):
        actual = len(pd.read_csv(path))
    else:
        pytest.fail(f"{name}: unexpected kind of table file")
    assert actual == rows, f"{name}: {actual} rows, {README.name} says {rows}"


def test_opening_json_rows_match_the_opening_table():
    doc = json.loads((DATA / "opening.json").read_text(encoding="utf-8"))
    assert isinstance(doc, dict) and isinstance(doc.get("rows"), list), "opening.json needs a 'rows' list"
    expected = FILES["opening.parquet"][0]
    assert len(doc["rows"]) == expected == len(pd.read_parquet(DATA / "opening.parquet"))
    # The same columns and values as the table itself.
    table = pd.read_parquet(DATA / "opening.parquet")
    from_json = pd.DataFrame(doc["rows"])
    assert list(from_json.columns) == list(table.columns)
    pd.testing.assert_frame_equal(from_json, table, check_dtype=False)


@pytest.mark.parametrize("name", sorted({n.rsplit(".", 1)[0] for n in FILES if n.endswith(".csv")}))
def test_csv_and_parquet_hold_the_same_table(name):
    table = pd.read_parquet(DATA / f"{name}.parquet")
    text_cols = [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])
                 and not pd.api.types.is_bool_dtype(table[c])]
    csv = pd.read_csv(DATA / f"{name}.csv", dtype={c: str for c in text_cols})
    for c in text_cols:  # an empty string is written as an empty CSV field
        csv[c] = csv[c].fillna("")
        table[c] = table[c].fillna("")
    assert list(csv.columns) == list(table.columns)
    pd.testing.assert_frame_equal(csv, table, check_dtype=False, check_exact=True)


# -- the command line ----------------------------------------------------------------
def advise_cli(positions: list[str]) -> list[dict]:
    """One call of ``python -m solver advise - --exact`` for all ``positions`` (JSON texts)."""
    done = subprocess.run([sys.executable, "-m", "solver", "advise", "-", "--exact"],
                          input="".join(p.strip() + "\n" for p in positions), capture_output=True,
                          text=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 0, f"advise exited {done.returncode}:\n{done.stderr[-3000:]}\n{done.stdout[-2000:]}"
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(positions), f"{len(positions)} positions in, {len(answers)} answers out"
    for a in answers:
        assert "error" not in a, a["error"]
    return answers


def exact(text: str) -> Fraction:
    assert isinstance(text, str), f"exact values are strings, got {text!r}"
    return Fraction(text)


def stratified(df: pd.DataFrame, key: pd.Series, n: int) -> pd.DataFrame:
    """A fixed sample of about ``n`` rows, spread over the values of ``key``."""
    groups = [g for _, g in df.groupby(key, sort=True)]
    per = max(1, n // len(groups))
    return pd.concat([g.sample(min(per, len(g)), random_state=SAMPLE_SEED) for g in groups])


# -- positions -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def positions() -> pd.DataFrame:
    return pd.read_parquet(DATA / "positions.parquet")


@pytest.fixture(scope="module")
def positions_checked(positions):
    # Half with a steal on offer, half without, so both kinds are checked.
    sample = stratified(positions, positions["turn_steal_action"] != "", POSITIONS_SAMPLE)
    return sample, advise_cli(list(sample["position"]))


def test_positions_sample_matches_the_cli(positions_checked):
    sample, answers = positions_checked
    assert (sample["turn_steal_action"] != "").any() and (sample["turn_steal_action"] == "").any()
    for row, a in zip(sample.itertuples(index=False), answers):
        who = f"position {row.position_id}"
        assert a["model"] == "turn", who
        assert a["pile_size"] == row.pile_size, who
        assert a["pile"] == [getattr(row, f"pile_{v}") for v in range(1, 11)], who
        assert exact(a["bust_probability"]) == exact(row.bust_probability), who
        if row.turn_stop == "":
            assert a["stop"] is None, who
        else:
            assert a["stop"] is not None and exact(a["stop"]) == exact(row.turn_stop), who
        assert exact(a["draw"]) == exact(row.turn_draw), who
        assert a["action"] == row.turn_action, who
        if row.turn_steal_action == "":
            assert row.turn_steal_take == row.turn_steal_decline == "", who
            assert a["steal"] is None, who
        else:
            assert a["steal"] is not None, who
            assert exact(a["steal"]["take"]) == exact(row.turn_steal_take), who
            assert exact(a["steal"]["decline"]) == exact(row.turn_steal_decline), who
            assert a["steal"]["action"] == row.turn_steal_action, who


def test_positions_floats_are_the_exact_values(positions):
    for col in ("bust_probability", "turn_stop", "turn_draw"):
        for text, f in zip(positions[col], positions[f"{col}_float"]):
            if text == "":
                assert math.isnan(f), f"{col}: empty exact value but float {f}"
            else:
                assert f == float(Fraction(text)), f"{col}_float {f} is not float({text})"


def test_positions_actions_follow_the_values(positions):
    for row in positions.itertuples(index=False):
        draws = row.turn_stop == "" or exact(row.turn_draw) > exact(row.turn_stop)
        assert row.turn_action == ("draw" if draws else "stop"), row.position_id
        if row.turn_steal_action:
            takes = exact(row.turn_steal_take) > exact(row.turn_steal_decline)
            assert row.turn_steal_action in ("take", "decline"), row.position_id
            if exact(row.turn_steal_take) != exact(row.turn_steal_decline):
                assert row.turn_steal_action == ("take" if takes else "decline"), row.position_id


def test_positions_bank_columns_are_consistent(positions):
    solved = positions["bank_status"] == "solved"
    assert set(positions["bank_status"]) <= {"solved", "over work limit"}
    assert solved.any(), "no row of the positions table has bank's answer"
    over = positions[~solved]
    for col in ("bank_stop", "bank_draw", "bank_steal_take", "bank_steal_decline", "bank_turn_cost"):
        assert over[col].isna().all(), f"{col} filled in on a row past the work limit"
    assert (over["bank_action"] == "").all() and (over["bank_steal_action"] == "").all()
    for row in positions[solved].itertuples(index=False):
        who = row.position_id
        draws = math.isnan(row.bank_stop) or row.bank_draw > row.bank_stop
        assert row.bank_action == ("draw" if draws else "stop"), who
        assert math.isnan(row.bank_stop) == (row.turn_stop == ""), who
        if row.turn_steal_action == "":
            assert row.bank_steal_action == "", who
        elif row.bank_steal_take != row.bank_steal_decline:
            assert row.bank_steal_action == ("take" if row.bank_steal_take > row.bank_steal_decline else "decline")
        same = (row.bank_action, row.bank_steal_action) == (row.turn_action, row.turn_steal_action)
        assert row.bank_turn_cost >= 0 and (row.bank_turn_cost == 0 or not same), who
        # bank counts theft: it never values a plan above turn's value of the same plan's line
        if not math.isnan(row.bank_stop):
            assert row.bank_stop <= row.line_value + 1e-9 or row.bank_steal_action == "take", who


def test_positions_bank_sample_matches_the_cli(positions):
    solved = positions[positions["bank_status"] == "solved"]
    sample = stratified(solved, solved["players"], 12)
    done = subprocess.run([sys.executable, "-m", "solver", "advise", "-", "--model", "bank"],
                          input="".join(p.strip() + "\n" for p in sample["position"]), capture_output=True,
                          text=True, cwd=ROOT, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(sample)
    for row, a in zip(sample.itertuples(index=False), answers):
        who = f"position {row.position_id}"
        assert a["model"] == "bank", who
        assert (a["approximation"] is not None) == (row.players > 2), who
        assert a["action"] == row.bank_action, who
        assert math.isclose(a["draw"], row.bank_draw, rel_tol=1e-9), who
        if a["stop"] is None:
            assert math.isnan(row.bank_stop), who
        else:
            assert math.isclose(a["stop"], row.bank_stop, rel_tol=1e-9), who
        if a["steal"] is not None:
            assert a["steal"]["action"] == row.bank_steal_action, who
            assert math.isclose(a["steal"]["take"], row.bank_steal_take, rel_tol=1e-9), who


# -- opening -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def opening() -> pd.DataFrame:
    return pd.read_parquet(DATA / "opening.parquet")


def opening_position(line: str) -> str:
    cards = [int(x) for x in line.split()]
    return json.dumps({"players": [{"line": cards}, {}], "active": 0})


def test_opening_sample_matches_the_cli(opening):
    # Spread over both actions: stopping is far more common in the table.
    sample = stratified(opening, opening["action"], OPENING_SAMPLE)
    assert set(sample["action"]) == {"draw", "stop"}
    answers = advise_cli([opening_position(line) for line in sample["line"]])
    for row, a in zip(sample.itertuples(index=False), answers):
        who = f"opening line {row.line!r}"
        cards = [int(x) for x in row.line.split()]
        assert len(cards) == row.cards and sum(cards) == row.line_value, who
        assert a["model"] == "turn", who
        assert a["pile_size"] == row.pile_size, who
        assert a["steal"] is None, who  # nothing else on the table to steal
        assert exact(a["bust_probability"]) == exact(row.bust_probability), who
        assert a["stop"] is not None and exact(a["stop"]) == exact(row.stop), who
        assert exact(a["draw"]) == exact(row.draw), who
        assert a["action"] == row.action, who


def test_opening_floats_are_the_exact_values(opening):
    for row in opening.itertuples(index=False):
        stop, draw, bust = exact(row.stop), exact(row.draw), exact(row.bust_probability)
        assert row.bust_probability_float == float(bust), row.line
        assert row.draw_float == float(draw), row.line
        assert row.gain_of_best == float(abs(draw - stop)), row.line
        assert row.action == ("draw" if draw > stop else "stop"), row.line


# -- thresholds ----------------------------------------------------------------------
def test_thresholds_are_consistent():
    t = pd.read_parquet(DATA / "thresholds.parquet")
    assert len(t), "thresholds table is empty"
    both = t[t["single_threshold"].astype(bool) & t["highest_draw"].notna() & t["lowest_stop"].notna()]
    assert len(both), "no single-threshold group with both a draw and a stop to check"
    for row in both.itertuples(index=False):
        who = f"pile {row.pile_size}, {row.cards_held} cards"
        assert row.highest_draw < row.lowest_stop, who
        assert row.lowest_stop == row.threshold, who
    # No single threshold fits: the threshold is empty (README).
    assert t.loc[~t["single_threshold"].astype(bool), "threshold"].isna().all()
    assert (t["positions"] > 0).all()


# -- rules ---------------------------------------------------------------------------
def test_rules_losses_and_agreement():
    r = pd.read_parquet(DATA / "rules.parquet")
    assert len(r), "rules table is empty"
    for row in r.itertuples(index=False):
        value, optimal, loss, agreement = map(exact, (row.value, row.optimal, row.loss, row.agreement))
        assert loss == optimal - value, row.rule
        assert loss >= 0, f"{row.rule} beats the optimum"
        assert 0 <= agreement <= 1, row.rule
        assert row.value_float == float(value), row.rule
        assert row.loss_float == float(loss), row.rule
        assert row.agreement_float == float(agreement), row.rule
        params = json.loads(row.parameters)
        assert isinstance(params, list), row.rule


# -- data/strength: the tournaments the README quotes ------------------------------------------
STRENGTH = DATA / "strength"


def test_strength_summary_is_the_games_summed_up():
    from solver.play.tournament import summarise

    games = pd.read_parquet(STRENGTH / "games.parquet")
    summary = pd.read_parquet(STRENGTH / "summary.parquet")
    pd.testing.assert_frame_equal(summarise(games), summary)
    pd.testing.assert_frame_equal(pd.read_csv(STRENGTH / "summary.csv"), summary, check_dtype=False)
    # Duplicate format: every deal of a pairing is played in every rotation.
    for (pairing, deal), g in games.groupby(["pairing", "deal"]):
        assert sorted(g.tested_seat) == list(range(int(g.players.iloc[0]))), (pairing, deal)
        assert g["first"].nunique() == 1


def test_strength_readme_is_the_summary():
    from solver.play.tournament import _readme

    summary = pd.read_parquet(STRENGTH / "summary.parquet")
    assert (STRENGTH / "README.md").read_text(encoding="utf-8") == _readme(summary)


def strength_cell(summary: pd.DataFrame, tested: str, baseline: str, players: int) -> str:
    """A win rate and its interval as the README writes it."""
    r = summary[(summary.tested == tested) & (summary.baseline == baseline) & (summary.players == players)].iloc[0]
    return f"{r.win_rate:.1%} ({r.win_low:.1%}–{r.win_high:.1%})"


def check_strength_tables(text: str) -> int:
    """Check every strength table of a document against data/strength; how many cells it checked. Each cell
    "| … | 61.0% (57.9%–64.0%) |" names its pairing in its row label (`baseline`, or `tested` vs `baseline`)
    and its player count in its column."""
    import pandas as pd

    summary = pd.read_parquet(STRENGTH / "summary.parquet")
    checked = 0
    for table in re.findall(r"^(\| `(\w[\w:]*)` against \|.*?)(?=^\s*$)", text, re.M | re.S):
        block, tested = table
        head, _, *rows = block.strip().splitlines()
        counts = [int(m) for m in re.findall(r"(\d) players", head)]
        for row in rows:
            cells = [c.strip() for c in row.strip("|").split("|")]
            baseline = re.search(r"`([^`]+)`\)?$", cells[0]).group(1)
            for players, cell in zip(counts, cells[1:]):
                if cell != "–":
                    assert cell == strength_cell(summary, tested, baseline, players), (tested, baseline, players)
                    checked += 1
    return checked


def test_every_strength_figure_in_the_readme_is_the_tables():
    assert check_strength_tables((ROOT / "README.md").read_text(encoding="utf-8")) >= 20


def _points(x: float, sign: bool = True) -> str:
    """A figure as the docs print it: one decimal, a real minus sign, a plus sign on differences."""
    return f"{x:+.1f}".replace("-", "−") if sign else f"{x:.1f}"


def test_the_same_deal_comparisons_in_strength_md_are_the_games():
    """Every figure of STRENGTH.md's same-deal table of `win` against `bank` and `turn`, of its runs of deals by
    session and of the prose on them, is what ``python -m bench.same_deals`` computes from the shipped games."""
    from bench.same_deals import by_segment, common_deals, compare, read_games

    text = (ROOT / "docs" / "STRENGTH.md").read_text(encoding="utf-8")
    flat, readme = " ".join(text.split()), " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    games = read_games(STRENGTH / "games.parquet")
    head = "| players | deals | won against `bank` | won against `turn` | won, difference |"
    rows = list(itertools.takewhile(lambda line: line.startswith("|"), text[text.index(head):].splitlines()[2:]))
    assert [int(r.split("|")[1]) for r in rows] == [3, 4, 5]
    won_by = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        players = int(cells[0])
        ma, mb = common_deals(games, "win vs bank", "win vs turn", players)
        d = {x.measure: x for x in compare(ma, mb)}
        won_by[players] = d["won"]
        # One figure straight from the games, not through the bench: the share won against `bank`.
        vs_bank = games[games.pairing == f"win vs bank ({players}p)"]
        assert d["won"].a == pytest.approx(100 * vs_bank[vs_bank.deal.isin(ma.index)].tested_won.mean())
        want = [str(players), str(len(ma)),
                f"{d['won'].a:.1f}%", f"{d['won'].b:.1f}%",
                f"{_points(d['won'].difference)} ({d['won'].standard_error:.1f})",
                f"{d['last'].a:.1f}%", f"{d['last'].b:.1f}%",
                f"{_points(d['last'].difference)} ({d['last'].standard_error:.1f})",
                f"{_points(d['score'].difference)} ({d['score'].standard_error:.1f})",
                f"{_points(d['best other'].difference)} ({d['best other'].standard_error:.1f})"]
        assert cells == want, players
    runs = re.findall(r"^- (\w+) players, `--segments ([\d,]+)`: (.*)$", text, re.M)
    assert [r[0] for r in runs] == ["three", "four", "five"]
    for players, (_, cuts, quoted) in zip((3, 4, 5), runs):
        ma, mb = common_deals(games, "win vs bank", "win vs turn", players)
        got = by_segment(ma, mb, [int(c) for c in cuts.split(",")])
        assert quoted.rstrip(";.") == ", ".join(
            f"{_points(x.difference)} ({x.standard_error:.1f})" for *_, x in got), players
    # The prose: how many standard errors with four and five players, three's figure where it is quoted again.
    for players in (4, 5):
        w = won_by[players]
        assert f"({abs(w.difference) / w.standard_error:.1f} standard errors" in flat, players
    w3 = won_by[3]
    deals3 = len(common_deals(games, "win vs bank", "win vs turn", 3)[0])
    assert f"({_points(w3.difference)} points, standard error {w3.standard_error:.1f}, {deals3:,} deals)" in flat
    assert f"same deals ({_points(w3.difference)} points, standard error {w3.standard_error:.1f})" in readme
    w4, w5 = won_by[4], won_by[5]
    assert f"With four it won {abs(w4.difference):.1f} points less" in readme
    assert f"({abs(w4.difference) / w4.standard_error:.1f} standard errors" in readme
    assert f"{abs(w5.difference):.1f} points less than on the same deals" in readme
    assert f"({abs(w5.difference) / w5.standard_error:.1f} standard errors)" in readme
    # The two-player figure of the exact endgame's part, quoted with its command.
    ma, mb = common_deals(games, "win vs turn", "win:estimate vs turn", 2)
    won = compare(ma, mb, ("won",))[0]
    assert (f"the two won {won.a:.2f}% and {won.b:.2f}% of the same {2 * len(ma):,} games; standard error of the "
            f"difference {won.standard_error:.1f} points") in flat


# -- data/endgames: two-player endgames with `duel` and `win` ----------------------------------------
ENDGAMES = DATA / "endgames"


@pytest.fixture(scope="module")
def endgames() -> pd.DataFrame:
    return pd.read_parquet(ENDGAMES / "endgames.parquet")


def test_endgame_files_match_their_readme(endgames):
    files = readme_files(ENDGAMES / "README.md")
    assert set(files) == {"endgames.csv", "endgames.parquet"}
    for name, (rows, digest) in files.items():
        assert sha256(ENDGAMES / name) == digest, name
        assert rows == len(endgames), name
    csv = pd.read_csv(ENDGAMES / "endgames.csv")
    for empty_is_text in ("line", "other_line"):  # an empty line is "" in the table, an empty cell in CSV
        csv[empty_is_text] = csv[empty_is_text].fillna("").astype(str)
    pd.testing.assert_frame_equal(csv, endgames, check_dtype=False)


def test_endgame_readme_documents_every_column_and_the_count_of_differences(endgames):
    from solver.study.endgame_table import SCHEMA

    documented = {c.strip() for names, _ in SCHEMA for c in names.replace("…", ",").split(",")}
    documented |= {f"pile_{v}" for v in range(1, 11)}
    assert set(endgames.columns) <= documented | {"pile_"}, set(endgames.columns) - documented
    text = (ENDGAMES / "README.md").read_text(encoding="utf-8")
    assert f"choose differently in {int(endgames['differ'].sum())} of the {len(endgames)} positions" in text
    assert (endgames.pile_size <= 10).all() and set(endgames.pile_size) == set(range(1, 11))


def test_endgame_rows_are_the_models_answers(endgames):
    """A sample of rows recomputed: from the exact paths where the pile is small enough to be quick."""
    from solver.study.endgame_table import endgame_row
    from solver.game.position import Position

    small = endgames[endgames.pile_size <= 6].sample(20, random_state=SAMPLE_SEED)
    for row in small.to_dict(orient="records"):
        again = endgame_row(Position.from_json(row["position"]), row["position_id"], exact=True)
        for key, value in again.items():
            if isinstance(value, float):
                assert row[key] == pytest.approx(value, abs=1e-9), (row["position_id"], key)
            elif value is None:
                assert row[key] is None or (isinstance(row[key], float) and math.isnan(row[key])), key
            else:
                assert row[key] == value, (row["position_id"], key)
