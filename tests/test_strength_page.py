"""The Strength page (views/strength.py): tournament tables, the `win` evaluator's error and game review.

AppTest drives the page with a tiny tournament built in a temporary folder
(``HIT_STRENGTH_DIR``), with no folder at all, with small calibration and
error tables of `win` written there (and missing, and damaged), with the
sample game and with uploads; the page's helper that turns uploaded bytes
into a review or a message is tested on every kind of bad file. One browser
test (Debian's Chromium through Playwright, like tests/test_browser.py)
opens the page at 1280×900 and 390×844 and saves
``tests/artifacts/strength-desktop.png`` and ``strength-phone.png``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd
import pytest
from conftest import ARTIFACTS, CHROMIUM, chromium, serve_advisor, settle
from streamlit.testing.v1 import AppTest
from test_review_words import documented_bands

import solver.models.evaluator as evaluator_module
from solver.game.record import dumps
from solver.models.evaluator import WeightsError
from solver.play.review import Review, review
from solver.game.rules import Match
from solver.models.advice import choice_word
from solver.play.tournament import SEED, Pairing, play_deal, run, summarise

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "views" / "strength.py")


def load_page_module() -> ModuleType:
    """The page's helpers (importing it does not draw the page)."""
    spec = importlib.util.spec_from_file_location("strength_view", PAGE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


view = load_page_module()


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    out = tmp_path_factory.mktemp("strength")
    _, summary = run([Pairing("turn", "threshold:25", 2)], deals=4, out=out, chunk=2, workers=1,
                     log=lambda _: None)
    return out, summary


def sample() -> str:
    game, _ = play_deal(Pairing("turn", "threshold:25", 2), seed=1, deal=0, rotation=0)
    match = Match(2)
    match.games.append(game)
    return dumps(match, ["turn", "threshold:25"])


def page(monkeypatch: pytest.MonkeyPatch, folder: Path) -> AppTest:
    monkeypatch.setenv("HIT_STRENGTH_DIR", str(folder))
    return AppTest.from_file(PAGE, default_timeout=120).run()


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in [*at.markdown, *at.caption])


def judged_by(at: AppTest, model: str) -> AppTest:
    """The review's model picked (the page starts with `win`)."""
    return at.radio(key="review_model").set_value(model).run()


def win_tables(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Small calibration and error tables of `win`, as python -m bench.win_error writes them, in ``folder``."""
    calibration = pd.DataFrame({
        "players": [2, 2, 2, 2, 3, 3, 3],
        "bin_low": [0.0, 0.25, 0.5, 0.75, 0.0, 0.25, 0.5],
        "bin_high": [0.25, 0.5, 0.75, 1.0, 0.25, 0.5, 1.0],
        "positions": [400, 900, 880, 410, 1200, 700, 300],
        "games": [60, 95, 94, 61, 80, 70, 40],
        "predicted": [0.12, 0.38, 0.62, 0.88, 0.14, 0.36, 0.61],
        "observed": [0.10, 0.41, 0.60, 0.90, 0.17, 0.33, 0.55],
        "low": [0.076, 0.378, 0.567, 0.868, 0.150, 0.296, 0.494],
        "high": [0.132, 0.443, 0.632, 0.925, 0.192, 0.366, 0.609],
    })
    errors = pd.DataFrame({
        "comparison": ["exact win", "exact win", "brute-force max-n"],
        "players": [2, 2, 3],
        "positions": [5000, 1200, 300],
        "mean_abs_error": [0.021, 0.034, 0.05],
        "worst_abs_error": [0.18, 0.25, 0.31],
        "action_differs": [0.034, 0.05, 0.08],
    })
    calibration.to_csv(folder / "win_calibration.csv", index=False)
    errors.to_csv(folder / "win_error.csv", index=False)
    return calibration, errors


def unescaped(text: str) -> str:
    return text.replace("\\", "")


def test_page_shows_the_tournament(monkeypatch, tournament):
    folder, summary = tournament
    at = page(monkeypatch, folder)
    assert not at.exception and not at.error and not at.warning
    row = summary.iloc[0]
    table = at.dataframe[0].value
    assert table["Pairing"].tolist() == ["turn vs threshold:25"]
    assert table["Players"].tolist() == [2] and table["Games"].tolist() == [8]
    assert table["Win rate"].iloc[0] == pytest.approx(100 * row["win_rate"])
    assert table["95% interval"].iloc[0] == f"{row['win_low']:.1%}–{row['win_high']:.1%}"
    assert table["Equal player"].iloc[0] == pytest.approx(50)
    assert "Decided by bank" not in table.columns  # no bank in this tournament
    config = config_of(at.dataframe[0])  # a phone scrolling the table sideways keeps each row's pairing
    assert list(table.columns)[0] == "Pairing" and config["Pairing"]["pinned"]
    assert sum(config[c]["width"] for c in ("Pairing", "Players", "Games", "Win rate")) <= 358  # a phone's width
    assert len(at.get("vega_lite_chart")) == 1
    assert "4 deals per pairing" in texts(at)
    assert "**threshold\\:25** stops once the cards in front of it are worth 25 or more" in texts(at)


def test_player_count_filter_and_bank_share(monkeypatch, tmp_path, tournament):
    _, summary = tournament
    three = summary.assign(players=3, fair_share=1 / 3, pairing="turn vs threshold:25 (3p)")
    bank = summary.assign(tested="bank", pairing="bank vs threshold:25 (2p)", bank_share=0.9)
    pd.concat([summary, three, bank], ignore_index=True).to_parquet(tmp_path / "summary.parquet")
    at = page(monkeypatch, tmp_path)
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table["Players"].tolist() == [2, 2, 3]
    share = table["Decided by bank"].tolist()[:2]
    assert pd.isna(share[0]) and share[1] == pytest.approx(90)  # a number (it sorts as one); NaN: not bank
    at.segmented_control(key="strength_players").set_value("3").run()
    assert at.dataframe[0].value["Players"].tolist() == [3]
    assert at.dataframe[0].value["Equal player"].iloc[0] == pytest.approx(100 / 3)


def test_the_page_says_which_pairings_todays_code_played(monkeypatch, tmp_path, tournament):
    folder, summary = tournament
    games = pd.read_parquet(folder / "games.parquet")
    assert summary["made_by"].tolist() == [games["made_by"].iloc[0]]  # the mark the games carry
    earlier = summary.assign(players=3, fair_share=1 / 3, pairing="turn vs threshold:25 (3p)",
                             made_by="a20af4f1-c00000000-r00000000", seed=7)
    unrecorded = summary.assign(tested="rule", pairing="rule vs threshold:25 (2p)", made_by=None)
    pd.concat([earlier, summary, unrecorded], ignore_index=True).to_parquet(tmp_path / "summary.parquet")
    at = page(monkeypatch, tmp_path)
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table["Pairing"].tolist() == ["turn vs threshold:25", "rule vs threshold:25", "turn vs threshold:25"]
    assert table["Played by"].tolist() == ["today's code", "not recorded", "earlier code"]
    said = unescaped(texts(at))
    assert "Played by earlier code: turn vs threshold:25 (3p). Its figures are what that code scored" in said
    # The same deals (their seed) into the same folder, from where the command runs.
    assert ("Play it again, from the project's folder, with `python -m solver tournament turn threshold:25 "
            f"--players 3 --deals 4 --seed 7 --out {tmp_path}`") in said
    assert ("Not recorded: what played 1 pairing is not known, as it was played before games recorded it: "
            "rule vs threshold:25 (2p).") in said
    # Today's code alone: no such sentence.
    summary.to_parquet(tmp_path / "summary.parquet")
    at = page(monkeypatch, tmp_path)
    assert at.dataframe[0].value["Played by"].tolist() == ["today's code"]
    assert "Played by earlier code" not in texts(at)
    # A summary written before it carried the mark.
    summary.drop(columns="made_by").to_csv(tmp_path / "summary.csv", index=False)
    (tmp_path / "summary.parquet").unlink()
    at = page(monkeypatch, tmp_path)
    assert not at.exception and not at.error
    assert at.dataframe[0].value["Played by"].tolist() == ["not recorded"]


def test_the_command_that_plays_a_pairing_again_is_one_the_command_line_reads():
    import shlex
    from types import SimpleNamespace

    from solver.cli import parser

    for seed, out in ((7, "results/strength"), (SEED, "")):
        row = SimpleNamespace(tested="win", baseline="threshold:25", players=3, deals=1000, seed=seed)
        command = shlex.split(view.again(row, out).split("`")[1])
        assert command[:3] == ["python", "-m", "solver"]
        args = parser().parse_args(command[3:])
        assert (args.command, args.tested, args.baselines, args.players, args.deals, args.seed, args.out) == (
            "tournament", "win", ["threshold:25"], [3], 1000, seed, out or "data/strength")


def test_a_pairing_this_copy_cannot_play_cannot_be_told(tournament):
    _, summary = tournament
    assert summary["seed"].tolist() == [SEED]

    def missing(_: Pairing) -> str:
        raise WeightsError("the chance-to-win evaluator's file data/win/evaluator.npz is missing")

    assert view.played_by(summary, missing) == ["cannot tell"]
    # What no tournament here can play: an unknown policy, a table size, hybrid with more than two players.
    for odd in (summary.assign(tested="nosuch"), summary.assign(players=7), summary.assign(baseline="hybrid",
                                                                                           players=3)):
        assert view.played_by(odd) == ["cannot tell"], odd
    assert view.played_by(summary) == ["today's code"]
    assert view.played_by(summary, lambda _: summary["made_by"].iloc[0]) == ["today's code"]
    assert view.played_by(summary, lambda _: "a20af4f1-c12345678-r00000000") == ["earlier code"]
    # Some of its games played by today's code and the others by what nobody recorded: not today's code alone.
    folder, _ = tournament
    games = pd.read_parquet(folder / "games.parquet")
    part = summarise(games.assign(made_by=[None] * 2 + list(games["made_by"].iloc[2:])))
    assert view.played_by(part) == ["earlier code"]


def test_missing_folder_says_how_to_build_it(monkeypatch, tmp_path):
    at = page(monkeypatch, tmp_path / "nothing here")
    assert not at.exception and not at.error
    assert "No tournament results yet" in at.warning[0].value
    assert "`python -m solver tournament turn rule threshold --players 2 3 4 5`" in at.warning[0].value
    assert not at.dataframe
    assert at.button[0].label == "Review a sample game"  # the review works without the tables


def test_damaged_table_is_a_message(monkeypatch, tmp_path):
    (tmp_path / "summary.parquet").write_bytes(b"not parquet")
    at = page(monkeypatch, tmp_path)
    assert not at.exception
    assert "cannot be read" in at.error[0].value


def test_sample_game_review_shows_each_players_totals(monkeypatch, tmp_path):
    at = judged_by(page(monkeypatch, tmp_path), "turn")
    at.button[0].click().run()
    assert not at.exception and not at.error
    want = review(sample(), "turn")
    shown = texts(at)
    assert "judged by `turn`: 109 decisions" in shown
    for seat, name in enumerate(want.names):
        mine = [d for d in want.decisions if d.seat == seat]
        wrong = sum(1 for d in mine if d.cost > 0)
        assert (f"**Seat {seat + 1}: {view.plain(name)}**  \n{len(mine)} decisions, {wrong} not the best, "
                f"**{float(want.given_away(seat)):.2f}** points given away") in shown
    # Seat 2 (threshold:25) gave points away: its three costliest decisions, costliest first.
    assert len(at.dataframe) == 2  # no tournament tables here; seat 1 made no costly decision
    worst = at.dataframe[0].value
    assert worst["Line"].tolist() == [d.line for d in want.costliest(1)]
    assert worst["Cost"].tolist() == pytest.approx([float(d.cost) for d in want.costliest(1)])
    full = at.dataframe[-1].value
    assert len(full) == len(want.decisions) and set(full["Player"]) == set(want.names)
    assert full["Player"].tolist() == [want.names[d.seat] for d in want.decisions]
    assert at.download_button[0].label == "Download the sample record"


def test_review_tables_speak_in_game_terms(monkeypatch, tmp_path):
    """Each decision by its turn, the choice and the best, what was held and on offer, the cards left; the
    record's line last, as a reference (they were once only 'Record line 88')."""
    at = judged_by(page(monkeypatch, tmp_path), "turn")
    at.button[0].click().run()
    assert not at.exception and not at.error
    want = review(sample(), "turn")
    worst, full = at.dataframe[0].value, at.dataframe[-1].value
    assert list(worst.columns) == ["Cost", "Turn", "Played", "Best", "Held", "Cards left", "Line"]
    costly = want.costliest(1)
    assert worst["Turn"].tolist() == [d.turn for d in costly] and worst["Turn"].iloc[0] == 21
    assert worst["Played"].tolist() == [choice_word(d.choice) for d in costly]
    assert worst["Best"].tolist() == [choice_word(d.best) for d in costly if d.best is not None]
    assert worst["Held"].tolist() == [" ".join(map(str, d.cards)) for d in costly]
    assert worst["Cards left"].tolist() == [d.pile_size for d in costly]
    assert list(full.columns) == ["Cost", "Turn", "Player", "Played", "Best", "Held", "Offer", "Cards left",
                                  "Points played", "Points best", "Line", "Note"]
    steals = full[full["Played"].isin(["take", "decline"])]
    assert len(steals) and all(o.startswith("the ") and " on offer: the " in o for o in steals["Offer"])
    assert (full.loc[~full.index.isin(steals.index), "Offer"] == "").all()
    # The first steal of the sample: turn declines threshold:25's single 3 on its turn 2.
    assert steals.iloc[0][["Turn", "Player", "Played", "Offer"]].tolist() == [
        2, "turn", "decline", "the 3 on offer: the 3 of threshold:25"]
    assert not any("the 3s of" in o for o in full["Offer"])  # one card is 'the 3', never 'the 3s'
    assert "Line: the record's line number of the choice" in texts(at)


def test_a_match_of_rounds_names_the_round_of_each_turn():
    from solver.play.simulate import TurnPolicy

    match = Match.variant_match(2, rounds=2, seed=3)
    match.play(TurnPolicy())
    r = review(dumps(match, ["Ann", "Bob"]))
    full = view.decisions_table(r)
    assert list(full.columns[:3]) == ["Cost", "Round", "Turn"]
    assert full["Round"].tolist() == [d.round for d in r.decisions] and set(full["Round"]) == {1, 2}
    assert full["Turn"].tolist() == [d.turn for d in r.decisions]
    assert full.loc[full["Round"] == 2, "Turn"].iloc[0] == 1  # each round counts its turns from 1
    assert list(view.costliest_table(r, r.decisions[:2]).columns[:3]) == ["Cost", "Round", "Turn"]


def config_of(table: Any) -> dict[str, Any]:
    columns: dict[str, Any] = json.loads(table.proto.columns)
    return columns


def test_review_tables_fit_a_phone(monkeypatch, tmp_path):
    """On a 390 px phone the cost was cut off at the right of the table: now the cost and the turn come first
    and stay pinned while the table scrolls sideways, and the columns are narrow. So under `win`, with its Answer
    column, and under `turn`."""
    at = page(monkeypatch, tmp_path)
    at.button[0].click().run()
    tables = [at.dataframe[0], at.dataframe[-1]]
    assert "Answer" in tables[0].value.columns and "Answer" in tables[1].value.columns
    judged_by(at, "turn")
    for table in [*tables, at.dataframe[0], at.dataframe[-1]]:
        config = config_of(table)
        shown = list(table.value.columns)
        assert shown[:2] == ["Cost", "Turn"], shown
        assert config["Cost"]["pinned"] and config["Turn"]["pinned"]
        assert config["Cost"]["type_config"]["format"] == "%.2f"
        widths = {c: config[c]["width"] for c in shown}
        assert all(isinstance(w, int) and w <= 96 for c, w in widths.items() if c not in ("Offer", "Note")), widths
        # What a phone shows before scrolling (about 325 px): the cost, the turn, the choice and the best.
        assert sum(widths[c] for c in ("Cost", "Turn", "Played", "Best")) <= 240, widths


def test_a_fault_of_the_reviewer_is_said_in_words(monkeypatch):
    """Not a record's fault: the page says where the reviewer stopped and what went wrong, never only a class
    name (it once said 'the reviewer failed on it (ValueError)')."""
    import solver.play.review

    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("no table for 3 players")

    monkeypatch.setattr(solver.play.review, "advise", broken)
    got = view.review_bytes(sample().encode())
    assert isinstance(got, str) and got.startswith("This game record cannot be reviewed: the reviewer failed at "
                                                   "line 4 (round 1, turn 1, a stop or draw decision)"), got
    assert "no table for 3 players (ValueError)" in got and "fault of the reviewer" in got
    monkeypatch.undo()

    def unreadable(*_: Any, **__: Any) -> Any:
        raise ValueError()

    monkeypatch.setattr(view, "replay", unreadable)
    got = view.review_bytes(sample().encode())
    assert isinstance(got, str) and "its first lines: the replay of the record failed: an error with no message " \
        "(ValueError)" in got, got
    assert not got.endswith("(ValueError).")
    assert view.problem(KeyError("seat"), "reading the file") == (
        "This game record cannot be reviewed: the page failed while reading the file: 'seat' (KeyError). The "
        "record may well be fine: this is a fault of the reviewer, please report it with the file.")


def test_the_page_says_a_fault_of_the_reviewer_in_words(monkeypatch, tmp_path):
    import solver.play.review

    def broken(*_: Any, **__: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(solver.play.review, "advise", broken)
    at = page(monkeypatch, tmp_path)
    record = "\n".join(sample().splitlines()[:61])  # a record no other test reviews (the review is cached)
    at.file_uploader(key="review_upload").upload("odd.jsonl", record.encode(), "application/jsonl").run()
    assert not at.exception
    message = at.error[0].value.replace("\\", "")  # the page escapes Markdown
    assert "the reviewer failed at line 4 (round 1, turn 1, a stop or draw decision)" in message, message
    assert "division by zero (ZeroDivisionError)" in message


def test_a_review_seen_again_in_a_new_session(monkeypatch, tmp_path):
    """The review is cached across sessions; a cache hit in a new session replays nothing drawn inside the
    cached function (the Live page once failed there with CacheReplayClosureError)."""
    first = page(monkeypatch, tmp_path)
    first.button[0].click().run()
    again = page(monkeypatch, tmp_path)
    again.button[0].click().run()
    for at in (first, again):
        assert not at.exception and not at.error, [e.value for e in at.error]
    assert again.dataframe[-1].value.equals(first.dataframe[-1].value)
    assert [m.value for m in again.markdown] == [m.value for m in first.markdown]


def test_upload_review_and_bad_upload(monkeypatch, tmp_path):
    at = page(monkeypatch, tmp_path)
    at.file_uploader(key="review_upload").upload("game.jsonl", sample().encode(), "application/jsonl").run()
    assert not at.exception and not at.error
    assert "**game\\.jsonl**, judged by `win`: 109 decisions" in texts(at)
    lines = sample().splitlines()
    lines[2] = json.dumps({"event": "draw", "seat": 0, "value": 9})  # seat 1 (0-based) starts this game
    at.file_uploader(key="review_upload").upload("bad.jsonl", "\n".join(lines).encode(), "application/jsonl").run()
    assert not at.exception
    assert at.error[0].value.startswith("This game record cannot be reviewed\\: line 3\\: it is seat 1")
    assert "judged by" not in texts(at)


@pytest.mark.parametrize(("data", "message"), [
    (b"", "the file is empty"),
    (b"  \n\n", "the file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "the file is not text (UTF-8): byte 1 cannot be read"),
    (b"{\"record\": \"hit\", \"version\": 1, \"players\": 2}\n{oops", "line 2: not valid JSON"),
    (b"[1, 2]", "line 1: each line of a record is a JSON object"),
    (b"{\"record\": \"chess\"}", "line 1: not a Hit! game record"),
    (b"{\"record\": \"hit\", \"version\": 1, \"players\": 9}", "Hit! is for 2 to 5 players"),
    (b"x" * 50_000_000, "the file is 50.0 MB; a game record is a few kilobytes"),
])
def test_bad_files_are_named(data: bytes, message: str):
    got = view.review_bytes(data)
    assert isinstance(got, str) and got.startswith("This game record cannot be reviewed: ")
    assert message in got, got


def test_a_record_that_contradicts_the_rules_names_its_line():
    lines = sample().splitlines()
    bust = next(k for k, line in enumerate(lines) if '"bust"' in line)
    data: dict[str, Any] = json.loads(lines[bust])
    data["lost"] = [1, 2, 3]
    lines[bust] = json.dumps(data)
    got = view.review_bytes("\n".join(lines).encode())
    assert isinstance(got, str) and f"line {bust + 1}: the rules give" in got, got
    # A good record, and a game stopped half way, are reviewed.
    assert isinstance(view.review_bytes(sample().encode()), Review)
    half = view.review_bytes("\n".join(sample().splitlines()[:40]).encode())
    assert isinstance(half, Review) and 0 < len(half.decisions) < 109


def test_bank_review_has_a_time_limit(monkeypatch):
    seen: list[float] = []

    def fake(text: str, model: str = "turn", seconds: float = 5.0) -> Review:
        seen.append(seconds)
        return Review(model, ["turn", "threshold:25"])

    monkeypatch.setattr(view, "review", fake)
    assert isinstance(view.review_bytes(sample().encode(), "bank"), Review)
    assert seen == [2.0] == [view.BANK_SECONDS]


# ---------------------------------------------------------------------------------------------------------------
# The review in chances, and the `win` evaluator's error


def seat_line(r: Review, seat: int) -> str:
    """A seat's totals under `win` as the page should say them, worked out here from the decisions' costs and
    docs/STRENGTH.md's bands."""
    mine = [d for d in r.decisions if d.seat == seat]
    scored = [100 * float(d.cost) for d in mine if d.value is not None]
    rate = sum(scored) / len(scored)
    named = next(name for name, below in documented_bands() if below is None or rate < below)
    return (f"{len(mine)} decisions, {sum(1 for d in mine if d.cost > 0)} not the best, **{rate:.2f}** points of "
            f"chance given away per decision: **{named}** ({sum(scored):.1f} in all)")


def test_a_win_review_shows_the_chance_given_away_per_decision(monkeypatch, tmp_path):
    at = page(monkeypatch, tmp_path)
    assert at.radio(key="review_model").value == "win"  # the page's review starts with `win`
    at.button[0].click().run()
    assert not at.exception and not at.error
    want = review(sample(), "win", view.BANK_SECONDS)
    shown = texts(at)
    assert "judged by `win`: 109 decisions. *Chance given away*" in shown
    for seat, name in enumerate(want.names):
        assert f"**Seat {seat + 1}: {view.plain(name)}**  \n{seat_line(want, seat)}" in shown, shown
    worst = at.dataframe[0].value  # seat 1's costliest
    costly = want.costliest(0)
    offer = ["Offer"] if any(d.kind == "steal" for d in costly) else []
    assert list(worst.columns) == ["Cost", "Turn", "Played", "Best", "Answer", "Held", *offer, "Cards left", "Line"]
    assert worst["Cost"].tolist() == pytest.approx([100 * float(d.cost) for d in costly])
    assert worst["Answer"].tolist() == ["estimate" if d.estimate else "exact" for d in costly]
    full = at.dataframe[-1].value
    assert list(full.columns) == ["Cost", "Turn", "Player", "Played", "Best", "Answer", "Held", "Offer",
                                  "Cards left", "Chance played", "Chance best", "Line", "Note"]
    assert full["Chance played"].tolist() == pytest.approx([100 * float(d.value) for d in want.decisions])
    assert full["Cost"].tolist() == pytest.approx([100 * float(d.cost) for d in want.decisions])
    assert set(full["Answer"]) == {"estimate", "exact"}
    assert (full["Answer"] == "estimate").sum() == want.estimates()
    caption = unescaped(texts(at))
    assert ("Bands, this project's own: flawless under 0.1 points a decision, sharp under 0.25, steady under 0.5, "
            "loose under 1, reckless at 1 or more.") in caption
    assert f"{want.estimates()} of the 109 decisions were answered with an estimate" in caption
    config = config_of(at.dataframe[0])
    assert "percentage points of the chance to win" in config["Cost"]["help"]


def test_the_win_evaluators_error_from_its_tables(monkeypatch, tmp_path):
    calibration, errors = win_tables(tmp_path)
    at = page(monkeypatch, tmp_path)
    assert not at.exception and not at.error
    assert not [m.value for m in at.info if "win_" in m.value]  # both tables read
    assert "How far `win`'s estimate is off" in [h.value for h in at.subheader]
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1  # no tournament here: the calibration chart alone
    spec = json.loads(charts[0].proto.spec)
    assert spec["title"]["text"] == "Predicted chance against how often it won"
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["line", "rule", "line"]  # the diagonal, the intervals, a line per table size
    assert spec["layer"][1]["encoding"]["color"]["scale"]["domain"] == ["2", "3"]
    # The legend takes the faded intervals' opacity unless told: its colours must match the lines'.
    assert spec["layer"][1]["encoding"]["color"]["legend"]["symbolOpacity"] == 1
    chart = view.calibration_chart(view.load_calibration(tmp_path))
    points = chart.layer[2].data
    assert points["predicted"].tolist() == calibration["predicted"].tolist()
    assert points["observed"].tolist() == calibration["observed"].tolist()
    assert chart.layer[0].data.to_dict("list") == {"predicted": [0.0, 1.0], "observed": [0.0, 1.0]}
    tables = {tuple(d.value.columns): d.value for d in at.dataframe}
    table = tables[("Against", "Players", "Positions", "Mean error", "Worst error", "Action differs")]
    order = errors.sort_values(["comparison", "players"], kind="stable")
    assert table["Against"].tolist() == order["comparison"].tolist()
    assert table["Players"].tolist() == order["players"].tolist()
    assert table["Positions"].tolist() == order["positions"].tolist()
    assert table["Mean error"].tolist() == pytest.approx((100 * order["mean_abs_error"]).tolist())
    assert table["Worst error"].tolist() == pytest.approx((100 * order["worst_abs_error"]).tolist())
    assert table["Action differs"].tolist() == pytest.approx((100 * order["action_differs"]).tolist())
    bins = tables[("Players", "Bin", "Positions", "Games", "Predicted", "Observed", "95% interval")]
    assert bins["Positions"].tolist() == calibration["positions"].tolist()
    assert bins["Games"].tolist() == calibration["games"].tolist()
    assert bins["Bin"].tolist()[:2] == ["0%–25%", "25%–50%"]
    assert bins["95% interval"].iloc[0] == "7.6%–13.2%"
    told = unescaped(texts(at))
    assert "2 players 2,590 positions from at least 95 games; 3 players 2,200 positions from at least 80 games" in told


def test_missing_win_tables_say_which_and_how_to_make_them(monkeypatch, tmp_path):
    at = page(monkeypatch, tmp_path)
    assert not at.exception and not at.error
    said = [unescaped(m.value) for m in at.info]
    for name in ("win_calibration.csv", "win_error.csv"):
        assert f"{tmp_path / name} is missing: make it with `python -m bench.win_error`." in said, said
    _, errors = win_tables(tmp_path)
    (tmp_path / "win_calibration.csv").unlink()
    at = page(monkeypatch, tmp_path)
    said = [unescaped(m.value) for m in at.info]
    assert said == [f"{tmp_path / 'win_calibration.csv'} is missing: make it with `python -m bench.win_error`."]
    assert not at.get("vega_lite_chart") and len(at.dataframe) == 1  # the error table alone


@pytest.mark.parametrize(("name", "content", "message"), [
    ("win_calibration.csv", b"players,bin_low\n2,0\n",
     "it has no columns bin_high, positions, games, predicted, observed, low, high (the columns it needs: players, "
     "bin_low, bin_high, positions, games, predicted, observed, low, high)"),
    ("win_calibration.csv", b"players,bin_low,bin_high,positions,games,predicted,observed,low,high\n",
     "it has a header and no rows"),
    ("win_calibration.csv", b"players,bin_low,bin_high,positions,games,predicted,observed,low,high\n"
                            b"2,0,0.5,10,3,0.2,lots,0.1,0.3\n", "line 2, column observed: 'lots' is not a number"),
    ("win_calibration.csv", b"players,bin_low,bin_high,positions,games,predicted,observed,low,high\n"
                            b"2,0,0.5,10,3,0.2,0.2,0.1,0.3\n2,0.5,1,10,3,1.5,0.2,0.1,0.3\n",
     "line 3, column predicted: 1.5 is outside 0 to 1"),
    ("win_calibration.csv", b"players,bin_low,bin_high,positions,games,predicted,observed,low,high\n"
                            b"7,0,0.5,10,3,0.2,0.2,0.1,0.3\n", "line 2, column players: 7 is outside 2 to 5"),
    ("win_calibration.csv", b"players,bin_low,bin_high,positions,games,predicted,observed,low,high\n"
                            b"2,0,0.5,10.5,3,0.2,0.2,0.1,0.3\n",
     "line 2, column positions: 10.5 is not a whole number"),
    ("win_error.csv", b"", "it cannot be read as a CSV table: No columns to parse from file (EmptyDataError)"),
    ("win_error.csv", b"comparison,players,positions,mean_abs_error,worst_abs_error,action_differs\n"
                      b"exact win,2,100,0.02,0.2,2\n", "line 2, column action_differs: 2 is outside 0 to 1"),
    ("win_error.csv", b"comparison,players,positions,mean_abs_error,worst_abs_error,action_differs\n"
                      b"exact win,2,100,0.02,0.2,0.1\n ,2,100,0.02,0.2,0.1\n",
     "line 3, column comparison: it is empty"),
    ("win_error.csv", b"\x89PNG\r\n\x1a\n\x00\x00\xff", "win_error.csv cannot be read: it "),
])
def test_damaged_win_tables_are_named(monkeypatch, tmp_path, name: str, content: bytes, message: str):
    win_tables(tmp_path)
    (tmp_path / name).write_bytes(content)
    at = page(monkeypatch, tmp_path)
    assert not at.exception
    assert len(at.error) == 1, [e.value for e in at.error]
    error = unescaped(at.error[0].value)
    assert error.startswith(f"{tmp_path / name} cannot be read: ") and message in error, error
    assert error.endswith("Make it again with `python -m bench.win_error`.")
    # The other table is still shown.
    assert len(at.get("vega_lite_chart")) == (0 if name == "win_calibration.csv" else 1)


def test_a_win_row_in_the_summary_shows_like_the_others(monkeypatch, tmp_path, tournament):
    _, summary = tournament
    win = summary.assign(tested="win", baseline="turn", pairing="win vs turn (2p)", win_rate=0.55, win_low=0.52,
                         win_high=0.58)
    pd.concat([summary, win], ignore_index=True).to_csv(tmp_path / "summary.csv", index=False)
    at = page(monkeypatch, tmp_path)
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table["Pairing"].tolist() == ["turn vs threshold:25", "win vs turn"]
    assert table["Win rate"].tolist()[1] == pytest.approx(55) and table["95% interval"].tolist()[1] == "52.0%–58.0%"
    assert table["Against an equal player"].tolist()[1] == "stronger"
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["title"]["text"] == "2 players: an equal player wins 50%"
    assert ("**win** plays for the chance to win the game\\: each turn searched exactly, its ends valued by a "
            "learned estimate of the chance to win") in texts(at)


def test_missing_weights_are_said_on_the_page(monkeypatch):
    said = ("the chance-to-win evaluator's file data/win/evaluator.npz is missing; rebuild it with: "
            "python -m solver train")

    def missing(*_: Any, **__: Any) -> Any:
        raise WeightsError(said)

    monkeypatch.setattr(evaluator_module, "evaluator", missing)
    got = view.review_bytes(sample().encode(), "win")
    assert got == f"This game record cannot be reviewed with `win`: {said}", got
    assert isinstance(view.review_bytes(sample().encode(), "turn"), Review)


# ---------------------------------------------------------------------------------------------------------------
# In a real browser


@pytest.fixture(scope="module")
def app_url(tournament, tmp_path_factory):
    built, _ = tournament
    folder = tmp_path_factory.mktemp("strength-browser")  # the tournament and `win`'s tables
    for name in ("summary.parquet", "summary.csv"):
        shutil.copy(built / name, folder / name)
    win_tables(folder)
    with serve_advisor({"HIT_STRENGTH_DIR": str(folder)}) as url:
        yield url


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                    reason=f"{CHROMIUM} is not installed (make test installs it)")
def test_strength_page_in_a_browser(app_url):
    from playwright.sync_api import expect

    want = review(sample(), "win", view.BANK_SECONDS)
    with chromium("test_strength_page_in_a_browser") as browser:
        for name, viewport, phone in (("desktop", {"width": 1280, "height": 900}, False),
                                      ("phone", {"width": 390, "height": 844}, True)):
            page = browser.new_page(viewport=viewport, is_mobile=phone, has_touch=phone)
            page.goto(app_url + "/strength")
            expect(page.get_by_role("heading", name="Playing strength")).to_be_visible(timeout=60000)
            settle(page)
            chart = page.get_by_test_id("stVegaLiteChart").first
            table = page.get_by_test_id("stDataFrame").first
            expect(chart).to_be_visible(timeout=30000)
            expect(table).to_be_visible()
            page.wait_for_timeout(1000)  # let Vega draw
            box = chart.bounding_box()
            assert box is not None and box["height"] > 100 and box["width"] > viewport["width"] * 0.6, box
            calibration = page.get_by_test_id("stVegaLiteChart").nth(1)  # `win`'s calibration
            expect(calibration).to_be_visible()
            calibration.scroll_into_view_if_needed()
            page.wait_for_timeout(1000)
            box = calibration.bounding_box()
            assert box is not None and box["height"] > 300 and box["width"] > viewport["width"] * 0.6, box

            page.get_by_role("button", name="Review a sample game").click()
            settle(page)
            for seat, seat_name in enumerate(want.names):
                totals = page.locator(f".st-key-review-seat-{seat + 1}")
                mine = [d for d in want.decisions if d.seat == seat]
                expect(totals).to_contain_text(f"Seat {seat + 1}: {seat_name}", timeout=30000)
                line = seat_line(want, seat).replace("**", "")
                expect(totals).to_contain_text(line)
            # The costliest decisions open with the cost and the turn (on a phone the cost was once cut off at
            # the right), and the table fits the screen's width.
            worst = page.locator(".st-key-review-seat-2").get_by_test_id("stDataFrame")
            heads = worst.locator("[role=columnheader]")
            expect(heads.first).to_have_text("Cost")
            assert [heads.nth(k).inner_text() for k in range(4)] == ["Cost", "Turn", "Played", "Best"]
            frame = worst.bounding_box()
            assert frame is not None and frame["x"] >= 0 and frame["x"] + frame["width"] <= viewport["width"], frame
            widths = page.evaluate("() => [document.documentElement.scrollWidth,"
                                   " document.querySelector('[data-testid=stMain]').scrollWidth]")
            assert max(widths) <= viewport["width"], widths  # nothing clipped sideways
            ARTIFACTS.mkdir(exist_ok=True)
            # The whole page (Streamlit scrolls inside the page, so grow the window to fit it).
            height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
            page.set_viewport_size({"width": viewport["width"], "height": height})
            page.wait_for_timeout(1500)
            page.screenshot(path=str(ARTIFACTS / f"strength-{name}.png"), full_page=True)
            page.set_viewport_size(viewport)

            broken = sample().splitlines()[:5] + ["{\"event\": \"draw\", \"seat\": 1, \"value\": 11"]
            upload = page.get_by_test_id("stFileUploaderDropzoneInput")
            upload.set_input_files(files=[{"name": "broken.jsonl", "mimeType": "application/jsonl",
                                           "buffer": "\n".join(broken).encode()}])
            error = page.get_by_test_id("stAlertContentError")
            expect(error).to_contain_text("This game record cannot be reviewed: line 6: not valid JSON",
                                          timeout=30000)
            expect(page.locator(".st-key-review-seat-1")).to_have_count(0)
            page.close()


def test_each_chart_leaves_room_past_its_highest_interval():
    """The shipped tables' charts: a pairing's dot and interval cap at the high end are drawn whole (the
    two-player chart once ended at 100%, cutting the dot of `turn` against `random`, 99.4%, in half)."""
    summary = pd.read_parquet(ROOT / "data" / "strength" / "summary.parquet")
    for players in sorted(set(summary["players"])):
        spec = view.strength_chart(summary, int(players)).to_dict()
        domain = next(layer["encoding"]["x"]["scale"]["domain"] for layer in spec["layer"]
                      if "scale" in layer.get("encoding", {}).get("x", {}))
        highest = float(summary[summary["players"] == players]["win_high"].max())
        assert domain[1] >= min(highest + 0.02, 1.03), (players, domain, highest)
