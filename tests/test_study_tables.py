"""Stop-rule study and decision tables: exact rule values, resumable builds, Dask = local."""

from __future__ import annotations

import math
import re
import socket
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pandas as pd
import pytest

from solver.game.cards import DECK_COPIES, DECK_TOTAL, counts
from solver.play.simple_rules import Features, StealOffer, steal_rule
from solver.study.stop_rules import DecisionGraph, score_rules, study_starts
from solver.study.tables import (OVER_LIMIT, SOLVED, bank_against_turn, build_positions, opening_table, positions_chunk,
                           sha256, thresholds_table, write_table)
from solver.game.core import TurnState
from solver.models.turn import TurnSolver


def _brute_force_rule_value(pile_cards, others, rule, steal):
    """Average haul over every order of the pile, the rule playing (no graph involved)."""
    total, orders = Fraction(0), set(permutations(pile_cards))
    for order in orders:
        pile = list(order)
        line: list[int] = []
        avail = list(others)
        drawn = 0
        haul = None
        while pile:
            v = pile.pop(0)
            drawn += 1
            if len(line) >= 3 and v in line:
                haul = 0
                break
            line.append(v)
            k = avail[v - 1]
            if k:
                offer = StealOffer(len(line), v * k)
                if len(line) >= 3 or steal(offer):
                    line += [v] * k
                    avail[v - 1] = 0
            if not pile:
                break
            c = counts(line)
            p = counts(pile)
            bust = sum(n for n, mine in zip(p, c) if mine) if len(line) >= 3 else 0
            gain = sum(n * (i + 1) * (1 + avail[i]) for i, n in enumerate(p) if n and not (len(line) >= 3 and c[i]))
            if not rule(Features(sum(line), len(line), drawn, len(pile), bust, gain)):
                break
        total += sum(line) if haul is None else 0
    return total / len(orders)


RULES = {
    "value 12": lambda f: f.line_value < 12,
    "bust 30%": lambda f: f.bust_chance < Fraction(3, 10),
    "three cards": lambda f: f.drawn < 3,
    "lookahead": lambda f: f.lookahead_draws,
}


@pytest.mark.parametrize("name", sorted(RULES))
@pytest.mark.parametrize("pile_cards, others", [((1, 2, 2, 3, 9, 10, 10), (0,) * 10),
                                                ((1, 1, 4, 5, 6, 8, 9), (1, 0, 0, 2, 0, 0, 0, 0, 3, 0))])
def test_rule_value_equals_brute_force(name, pile_cards, others):
    g = DecisionGraph.build(counts(pile_cards), others)
    steal = steal_rule(5)
    assert g.value(RULES[name], steal) == _brute_force_rule_value(pile_cards, others, RULES[name], steal)
    assert g.fast_value(_vector(g, RULES[name]), 5) == pytest.approx(float(g.value(RULES[name], steal)), rel=1e-12)


def _vector(g, rule):
    import numpy as np

    return np.array([bool(rule(f)) for f in g.features])


def test_three_card_rule_from_fresh_deck_matches_models_md():
    # docs/MODELS.md: "stopping after exactly three cards is worth 3 × 445/90".
    g = DecisionGraph.build(DECK_COPIES)
    assert g.value(lambda f: f.drawn < 3) == 3 * Fraction(DECK_TOTAL, 90)
    assert g.optimal_value == TurnSolver(TurnState.start(DECK_COPIES)).draw_value()


def test_one_card_lookahead_is_optimal_from_a_fresh_deck():
    g = DecisionGraph.build(DECK_COPIES)
    assert g.evaluate(lambda f: f.lookahead_draws) == (g.optimal_value, 1)


def test_no_simple_rule_beats_the_optimum():
    starts = study_starts(3, seed=5)
    scores = score_rules(starts)
    for s in scores:
        assert 0 <= s.agreement <= 1
        assert s.value <= s.optimal  # the optimum is optimal


def test_opening_table_is_every_line_with_exact_values():
    df = opening_table()
    graph = DecisionGraph.build(DECK_COPIES)
    assert len(df) == len(graph.features) == len(set(df["line"]))
    solver = TurnSolver(TurnState.start(DECK_COPIES))
    for row in df.sample(40, random_state=1).itertuples():
        line = counts(int(x) for x in row.line.split())
        pile = tuple(d - c for d, c in zip(DECK_COPIES, line))
        draw = solver.draw_value(TurnState.start(pile, line))
        assert Fraction(row.draw) == draw and Fraction(row.stop) == sum(int(x) for x in row.line.split())
        assert row.action == ("draw" if draw > Fraction(row.stop) else "stop")
        assert math.isclose(row.draw_float, float(draw))


#: `bank`'s work limit in the build tests: small, so both answered and over-limit rows come up quickly.
QUICK = 0.02
#: The shipped decision tables.
ROOT_DATA = Path(__file__).resolve().parent.parent / "data"


def _plan_value(solver, pos, steal, action):
    # The `bank` value of a plan: a steal choice (None: no offer), then stop or draw.
    at = pos.turn_state()
    if steal == "take":
        at = at.stolen(pos.steal_on_offer())
    return solver.stop_value(at) if action == "stop" else solver.draw_value(at)


def test_bank_columns_against_the_exact_bank_path():
    from solver.models.bank import BankSolver
    from solver.game.position import Position

    # Four players, then two: answers on both sides of the work limit, steals on offer, a disagreement.
    rows = [r for c, n in ((0, 40), (4, 20), (10, 20)) for r in positions_chunk(c, n, 5, QUICK)]
    solved = [r for r in rows if r["bank_status"] == SOLVED]
    assert solved and len(solved) < len(rows), "want rows on both sides of the work limit"
    assert {r["players"] for r in solved} == {2, 4}
    assert any(r["bank_steal_action"] for r in solved) and any(r["bank_turn_cost"] for r in solved)
    for r in rows:
        if r["bank_status"] == OVER_LIMIT:
            assert r["bank_stop"] is r["bank_draw"] is r["bank_turn_cost"] is None and r["bank_action"] == ""
    for r in solved:
        pos = Position.from_json(r["position"])
        exact = BankSolver(pos)  # the exact path: Fractions, in Python, independent of the compiled one
        steal = r["bank_steal_action"] or None
        for plan, value in (((steal, "stop"), r["bank_stop"]), ((steal, "draw"), r["bank_draw"])):
            if value is None:
                assert plan[1] == "stop" and not pos.line, r["position_id"]
                continue
            assert math.isclose(value, float(_plan_value(exact, pos, *plan)), rel_tol=1e-9, abs_tol=1e-9)
        if steal:
            took, kept = (float(exact.best_value(p)) for p in (pos.turn_state().stolen(pos.steal_on_offer()),
                                                                pos.turn_state()))
            assert math.isclose(r["bank_steal_take"], took, abs_tol=1e-9)
            assert math.isclose(r["bank_steal_decline"], kept, abs_tol=1e-9)
        best = _plan_value(exact, pos, steal, r["bank_action"])
        followed = _plan_value(exact, pos, r["turn_steal_action"] or None, r["turn_action"])
        assert best >= followed
        assert math.isclose(r["bank_turn_cost"], float(best - followed), abs_tol=1e-9), r["position_id"]


def test_bank_against_turn_counts_like_a_plain_loop():
    rows = pd.DataFrame(positions_chunk(1, 40, 5, QUICK))
    table = bank_against_turn(rows)
    assert table["positions"].sum() == len(rows)
    for g in table.itertuples(index=False):
        lo, hi = {"61-90": (61, 90), "31-60": (31, 60), "11-30": (11, 30), "1-10": (1, 10)}[g.pile]
        mine = [r for r in rows.itertuples(index=False) if r.players == g.players and lo <= r.pile_size <= hi]
        answered = [r for r in mine if r.bank_status == SOLVED]
        split = [r for r in answered if (r.bank_action, r.bank_steal_action) != (r.turn_action, r.turn_steal_action)]
        assert (g.positions, g.solved, g.disagree) == (len(mine), len(answered), len(split))
        if split:
            assert math.isclose(g.cost_when_disagree, sum(r.bank_turn_cost for r in split) / len(split))


def test_positions_chunks_are_deterministic():
    assert positions_chunk(3, 5, 7, QUICK) == positions_chunk(3, 5, 7, QUICK)
    assert positions_chunk(3, 5, 7, QUICK) != positions_chunk(4, 5, 7, QUICK)


def test_build_resumes_without_redoing_finished_chunks(tmp_path):
    logs: list[str] = []
    first = build_positions(tmp_path, 90, chunk_size=30, seed=3, workers=2, log=logs.append, bank_seconds=QUICK)
    chunk_files = sorted((tmp_path / ".build").glob("*.parquet"))
    assert len(chunk_files) == 3
    kept = {p: p.stat().st_mtime_ns for p in chunk_files[1:]}
    chunk_files[0].unlink()  # as if the build had been interrupted before it
    logs.clear()
    again = build_positions(tmp_path, 90, chunk_size=30, seed=3, workers=2, log=logs.append, bank_seconds=QUICK)
    assert logs[0] == "positions: resuming, 2 of 3 chunks already built"
    assert {p: p.stat().st_mtime_ns for p in chunk_files[1:]} == kept  # not rebuilt
    pd.testing.assert_frame_equal(first, again)
    assert not list(tmp_path.rglob("*.tmp"))  # nothing half-written left behind


def test_a_chunk_built_by_other_code_is_built_again(tmp_path, monkeypatch):
    # A chunk saved before a mend of a model must not stand in for one after it: the chunk's
    # name carries the code mark, as the tournaments' chunks do.
    from solver.study import tables

    mark = tables.code_mark()
    build_positions(tmp_path, 30, chunk_size=30, seed=3, workers=1, log=lambda _: None, bank_seconds=QUICK)
    (before,) = (tmp_path / ".build").glob("*.parquet")
    assert f"-m{mark}-" in before.name
    monkeypatch.setattr(tables, "code_mark", lambda: "0ther0de")
    logs: list[str] = []
    build_positions(tmp_path, 30, chunk_size=30, seed=3, workers=1, log=logs.append, bank_seconds=QUICK)
    after = set((tmp_path / ".build").glob("*.parquet")) - {before}
    assert not any("resuming" in line for line in logs)  # nothing taken from before
    assert [p.name for p in after] == [before.name.replace(f"-m{mark}-", "-m0ther0de-")]


def test_dask_build_equals_local_build_row_for_row(tmp_path):
    from distributed import LocalCluster

    local = build_positions(tmp_path / "local", 120, chunk_size=40, seed=11, workers=2, log=lambda _: None,
                            bank_seconds=QUICK)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = build_positions(tmp_path / "dask", 120, chunk_size=40, seed=11, dask=cluster.scheduler_address,
                                 log=lambda _: None, bank_seconds=QUICK)
    pd.testing.assert_frame_equal(local, remote)
    assert len(local) == 120


def test_tables_written_with_checksums_and_thresholds(tmp_path):
    positions = build_positions(tmp_path, 200, chunk_size=100, seed=1, workers=1, log=lambda _: None,
                                bank_seconds=QUICK)
    paths = write_table(positions, tmp_path, "positions")
    assert pd.read_parquet(paths[1]).equals(positions)
    assert pd.read_csv(paths[0]).shape == positions.shape
    assert len(sha256(paths[0])) == 64
    t = thresholds_table(positions)
    for row in t.itertuples():
        if row.single_threshold and row.highest_draw == row.highest_draw and row.lowest_stop == row.lowest_stop:
            assert row.highest_draw < row.lowest_stop == row.threshold
        if not row.single_threshold:
            assert row.highest_draw >= row.lowest_stop and pd.isna(row.threshold)


def test_cli_study_and_tables_build(tmp_path):
    from solver.cli import main

    assert main(["tables", "build", "--out", str(tmp_path), "--positions", "60", "--chunk", "30",
                 "--rule-starts", "2", "--workers", "1", "--bank-seconds", str(QUICK)]) == 0
    readme = (tmp_path / "README.md").read_text()
    for name in ("opening.csv", "opening.parquet", "opening.json", "positions.csv", "thresholds.parquet",
                 "rules.csv"):
        assert f"`{name}`" in readme
        assert sha256(tmp_path / name) in readme
    assert main(["study", "--starts", "2", "--data", str(tmp_path)]) == 0


@pytest.mark.parametrize("damage, said", [
    ("junk", "thresholds.parquet cannot be read ("),
    ("other table", "thresholds.parquet is not the thresholds table: it lacks pile_size, cards_held, threshold"),
    ("bank columns", "positions.parquet is not the positions table: it lacks bank_turn_cost"),
])
def test_study_names_a_table_it_cannot_read(tmp_path, capsys, damage, said):
    # `study --data DIR` once showed a pyarrow traceback for a damaged table: one line now names the file.
    from solver.cli import main
    from solver.study.tables import TableError, read_table

    data = ROOT_DATA
    (tmp_path / "positions.parquet").write_bytes((data / "positions.parquet").read_bytes())
    (tmp_path / "thresholds.parquet").write_bytes((data / "thresholds.parquet").read_bytes())
    if damage == "junk":
        (tmp_path / "thresholds.parquet").write_text("not a table")
    elif damage == "other table":
        pd.DataFrame({"players": [3]}).to_parquet(tmp_path / "thresholds.parquet")
    else:  # `bank_status` there, one of the `bank` columns the study reads with it gone
        pd.read_parquet(data / "positions.parquet").drop(columns=["bank_turn_cost"]).to_parquet(
            tmp_path / "positions.parquet")
    with pytest.raises(TableError, match=re.escape(said)):
        read_table(tmp_path, "positions" if damage == "bank columns" else "thresholds")
    assert main(["study", "--starts", "1", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hit-solver: ") and said in err and err.count("\n") == 1, err
    assert "rebuild the tables with `python -m solver tables build`" in err


def test_unwritable_output_is_reported(tmp_path, capsys):
    from solver.cli import main

    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["tables", "build", "--out", str(blocker / "sub"), "--positions", "10", "--rule-starts", "1"]) == 2
    assert "cannot build tables" in capsys.readouterr().err


def test_a_resumed_build_never_reuses_a_chunk_of_another_size(tmp_path):
    # 55 positions in chunks of 10 leave a last chunk of 5; asking for 60 must rebuild it, not reuse it.
    first = build_positions(tmp_path, 55, chunk_size=10, seed=4, workers=1, log=lambda _: None, bank_seconds=QUICK)
    assert len(first) == 55
    logs: list[str] = []
    again = build_positions(tmp_path, 60, chunk_size=10, seed=4, workers=1, log=logs.append, bank_seconds=QUICK)
    assert len(again) == 60 and logs[0] == "positions: resuming, 5 of 6 chunks already built"
    pd.testing.assert_frame_equal(again.iloc[:50], first.iloc[:50])


def test_an_unreachable_scheduler_is_named(tmp_path, capsys):
    from solver.cli import main

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["tables", "build", "--out", str(tmp_path), "--positions", "10", "--dask", f"tcp://127.0.0.1:{port}",
                 "--dask-timeout", "1"]) == 2
    err = capsys.readouterr().err
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 1 s" in err and "Traceback" not in err


def test_a_killed_build_leaves_no_workers_and_its_leftovers_are_cleaned(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    import psutil

    build = subprocess.Popen([sys.executable, "-m", "solver", "tables", "build", "--out", str(tmp_path),
                              "--positions", "40", "--chunk", "10", "--workers", "2"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parent = psutil.Process(build.pid)
    deadline = time.monotonic() + 60
    while len(parent.children()) < 2 and time.monotonic() < deadline:  # the pool's workers are up
        time.sleep(0.2)
    workers = parent.children(recursive=True)
    assert workers, "the build started no workers"
    os.kill(build.pid, signal.SIGKILL)
    build.wait()
    gone, alive = psutil.wait_procs(workers, timeout=20)  # a bound on waiting, not a timing test
    assert not alive, f"workers outlived the killed build: {alive}"
    # A half-written temporary left behind is removed by the next run.
    (tmp_path / ".positions.csv.tmp").write_text("players,act")
    build_positions(tmp_path, 5, chunk_size=5, seed=1, workers=1, log=lambda _: None, bank_seconds=QUICK)
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_few_endgame_positions_are_found_as_quickly_as_many():
    # `tables endgames --positions 2` never ended: each batch of 4 × 2 decision points stopped short of a
    # game's last cards. A hang is turned into a failure here.
    import signal

    from solver.study.endgame_table import MAX_PILE, endgame_positions

    def hung(*_: object) -> None:
        raise TimeoutError("endgame_positions did not return in 60 s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        for count in (1, 3):
            found = endgame_positions(count, 2026)
            assert len(found) == count
            assert all(p.pile_size() <= MAX_PILE and len(p.players) == 2 for p in found)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
