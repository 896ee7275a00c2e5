"""The review in game terms (issue 24): whose turn, which turn of the round, what was held, what was on offer,
how many cards were left, the choice and the best, the record's line after them. And the review in chances
(issue 26): under `win`, each decision's cost in percentage points of the chance to win, per player the chance
given away per decision and its band, the estimates marked.

The turn numbers and the offers are checked against what the record itself says (the stops and busts before
each decision, the `from` of each steal taken), not against the review's own counting; the costs in chances
against `WIN.advise` asked here at each decision's position, the bands against docs/STRENGTH.md's table.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import solver.models.evaluator as evaluator_module
import solver.play.review as review_module
from solver.game.cards import DECK_COPIES
from solver.game.position import Position
from solver.game.record import dumps, replay
from solver.models.advice import Budget
from solver.models.evaluator import WeightsError
from solver.models.win import ESTIMATE, WIN
from solver.play.review import BANDS, WORST_BAND, Decision, Review, ReviewError, band, cards_left, cards_of_value, \
    review
from solver.game.rules import Action, Busted, Match, Phase, Stopped
from solver.play.simulate import TurnPolicy, position_of
from solver.play.tournament import Pairing, play_deal
from solver.utilities.numbers import FLOAT

ROOT = Path(__file__).resolve().parent.parent


def decision(pile: int = 12, cards: tuple[int, ...] = (3, 5, 7), kind: str = "steal",
             choice: Action = Action.DECLINE, best: Action = Action.STEAL, **more: Any) -> Decision:
    return Decision(88, 1, 0, "Ann", pile, cards, kind, choice, best, Fraction(10), Fraction(12), **more)


def test_cards_in_words():
    assert cards_of_value(1, 9) == "the 9" and cards_of_value(2, 9) == "the two 9s"
    assert cards_of_value(5, 1) == "the five 1s"
    assert [cards_left(n) for n in (0, 1, 2)] == ["no cards left", "1 card left", "2 cards left"]


def test_the_report_says_one_card_not_one_cards():
    r = Review("turn", ["Ann", "Bob"], [decision(pile=1, kind="stop or draw", choice=Action.DRAW, best=Action.STOP)])
    report = r.report()
    assert "1 card left" in report and "1 cards" not in report, report


def test_a_steal_is_told_with_its_offer_and_whose_cards():
    two = decision(turn=14, offer=7, steal_from=((1, 2),))
    r = Review("turn", ["Ann", "Bob", "Cy"], [two])
    assert r.on_offer(two) == "the 7 on offer: the two 7s of Bob"
    assert r.describe(two) == ("Ann, turn 14 (record line 88): holding 3 5 7, the 7 on offer: the two 7s of Bob, "
                               "12 cards left: declined where taking was best, cost 2.00")
    both = decision(cards=(9,), turn=3, offer=9, steal_from=((1, 1), (2, 3)))
    assert r.on_offer(both) == "the 9 on offer: the 9 of Bob and the three 9s of Cy"
    assert "the 9s of" not in r.describe(both)
    # The report's costliest decisions are told this way, with the round in a match of rounds.
    report = Review("turn", ["Ann", "Bob", "Cy"], [two], rounds=3).report()
    assert ("  Ann, round 1, turn 14 (record line 88): holding 3 5 7, the 7 on offer: the two 7s of Bob, 12 cards "
            "left: declined where taking was best, cost 2.00") in report.splitlines()
    # A stop or draw has no offer; the best choice is said as such.
    calm = replace(decision(kind="stop or draw", choice=Action.STOP, best=Action.STOP, turn=2), value=Fraction(12))
    assert r.on_offer(calm) == "" and r.describe(calm).endswith("12 cards left: stopped, the best choice")


def test_seats_of_the_same_name_are_told_apart():
    r = Review("turn", ["turn", "turn"], [decision(offer=7, steal_from=((1, 1),), turn=1)])
    assert r.on_offer(r.decisions[0]) == "the 7 on offer: the 7 of seat 2 (turn)"


def test_turns_and_offers_are_those_of_the_record():
    match = Match.variant_match(3, rounds=2, seed=11)
    match.play(TurnPolicy())
    text = dumps(match, ["Ann", "Bob", "Cy"])
    rows = [json.loads(x) for x in text.splitlines()]
    r = review(text)
    assert r.rounds == 2 and r.joined == () and {d.round for d in r.decisions} == {1, 2}
    # Independently: a decision's turn is 1 + the turns ended (stopped or lost) before it in its round, and the
    # seats take their turns in order from the round's first seat.
    ended: dict[int, int] = {}

    def seen(game: Any, event: Any, line: int, round_: int) -> None:
        ended[line] = sum(1 for e in game.log if isinstance(e, (Stopped, Busted)))

    replay(text, on_choice=seen)
    firsts = [row["first"] for row in rows if row.get("event") == "round"]
    for d in r.decisions:
        assert d.turn == 1 + ended[d.line], d
        assert d.seat == (firsts[d.round - 1] + d.turn - 1) % 3, d
    assert max(d.turn for d in r.decisions if d.round == 1) > 10
    # A steal's offer is the card just drawn, and one taken took from whom the record's steal line says.
    steals = [d for d in r.decisions if d.kind == "steal"]
    assert steals and all(d.offer is not None and d.steal_from for d in steals)
    for d in steals:
        drawn = rows[d.line - 2]  # the row before the choice (rows[0] is line 1)
        assert drawn["event"] == "draw" and drawn["value"] == d.offer and d.cards[-1] == d.offer
        if d.choice is Action.STEAL:
            stole = rows[d.line - 1]
            assert stole["event"] == "steal" and d.steal_from == tuple(tuple(x) for x in stole["from"])
            assert r.on_offer(d).startswith(f"the {d.offer} on offer: ")
    assert all(d.offer is None and d.steal_from == () for d in r.decisions if d.kind != "steal")
    assert {"turn", "offer", "steal_from"} <= set(r.decisions[0].to_dict())


def test_a_joined_game_counts_its_turns_from_the_join():
    game, _ = play_deal(Pairing("turn", "bust", 3), 2, 0, 1)
    whole = Match(3)
    whole.games.append(game)
    rows = [json.loads(x) for x in dumps(whole).splitlines()]
    stop = next(i for i, r in enumerate(rows) if i > 40 and r.get("event") == "stop")
    cut = next(i for i, r in enumerate(rows) if i > stop and r.get("event") == "draw")
    table = position_of(replay(json.dumps(r) for r in rows[:cut]).game)
    joined = [rows[0], {"event": "round", "round": 1, "first": 0, "start": json.loads(table.to_json())}]
    r = review("\n".join(json.dumps(x) for x in joined + rows[cut:]))
    assert r.joined == (1,) and r.decisions[0].turn == 1 and r.decisions[0].seat == table.active
    assert "counted from the join" in r.report()


def test_a_failure_of_the_model_names_its_line(monkeypatch):
    game, _ = play_deal(Pairing("turn", "threshold:25", 2), 1, 0, 0)
    m = Match(2)
    m.games.append(game)
    text = dumps(m, ["turn", "threshold:25"])

    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("the table has no row for this position")

    choices: list[int] = []
    replay(text, on_choice=lambda g, e, line, rnd: choices.append(line) if g.phase is not Phase.MUST_DRAW else None)
    monkeypatch.setattr(review_module, "advise", broken)
    with pytest.raises(ReviewError) as got:
        review(text)
    assert got.value.line == choices[0]  # the first decision the model was asked about
    assert str(got.value).startswith(f"line {choices[0]} (round 1, turn 1, a stop or draw decision): the model "
                                     f"`turn` failed on it: ")
    assert "the table has no row for this position (ValueError)" in str(got.value)


def test_the_command_line_review_speaks_in_turns(tmp_path):
    game, _ = play_deal(Pairing("turn", "threshold:25", 2), 1, 0, 0)
    m = Match(2)
    m.games.append(game)
    path = tmp_path / "game.jsonl"
    path.write_text(dumps(m, ["turn", "threshold:25"]))
    done = subprocess.run([sys.executable, "-m", "solver", "review", str(path), "--model", "turn"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    costly = [x for x in done.stdout.splitlines() if x.startswith("  ")]
    assert costly and all(x.startswith("  threshold:25, turn ") and "(record line " in x for x in costly), costly
    assert " cards left: drew where stopping was best, cost " in done.stdout
    assert "1 cards" not in done.stdout


def test_the_command_line_says_when_the_review_itself_fails(monkeypatch, tmp_path, capsys):
    """A review that fails on a record the rules accept is one line naming the record's line, exit 1, never a
    traceback."""
    from solver.cli import main

    game, _ = play_deal(Pairing("turn", "threshold:25", 2), 1, 0, 0)
    m = Match(2)
    m.games.append(game)
    path = tmp_path / "game.jsonl"
    path.write_text(dumps(m, ["turn", "threshold:25"]))

    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("the table has no row for this position")

    monkeypatch.setattr(review_module, "advise", broken)
    assert main(["review", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("hit-solver: game.jsonl: the review failed at line "), err
    assert "please report it" in err[0]


# ---------------------------------------------------------------------------------------------------------------
# The review in chances (`win`)

#: The seconds of work per decision the Strength page gives a review (the exact two-player `win` takes at most 1).
SECONDS = 2.0


def two_player_record() -> str:
    """`turn` against `threshold:25`: most decisions estimated, the last ten cards exact."""
    game, _ = play_deal(Pairing("turn", "threshold:25", 2), 1, 0, 0)
    m = Match(2)
    m.games.append(game)
    return dumps(m, ["turn", "threshold:25"])


@pytest.fixture(scope="module")
def in_chances() -> tuple[str, Review]:
    text = two_player_record()
    return text, review(text, "win", SECONDS)


def positions_seen(text: str) -> dict[int, Position]:
    """The position at each of the record's choices with cards left (the line of the choice: its position)."""
    at: dict[int, Position] = {}

    def seen(game: Any, event: Any, line: int, round_: int) -> None:
        if game.phase is not Phase.MUST_DRAW and game.pile:
            at[line] = position_of(game)

    replay(text, on_choice=seen)
    return at


def documented_bands() -> list[tuple[str, float | None]]:
    """docs/STRENGTH.md's table of bands, "Review in chances": each name and its bound (None for the last)."""
    doc = (ROOT / "docs" / "STRENGTH.md").read_text(encoding="utf-8")
    section = doc.split("## Review in chances", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 3 and cells[0] not in ("band", "---"):
            bound = re.search(r"under ([0-9.]+)", cells[1])
            rows.append((cells[0], float(bound.group(1)) if bound else None))
    return rows


def test_a_win_review_costs_the_best_chance_minus_the_chosen(in_chances):
    """Each decision's cost is the chance to win of `win`'s best choice minus that of the choice made, asked of
    `WIN.advise` here at the decision's position; told in percentage points; estimates marked."""
    text, r = in_chances
    at = positions_seen(text)
    assert r.model == "win" and r.in_chances and len(r.decisions) == 109 and r.unsolved() == 0
    kinds: set[tuple[str, bool]] = set()
    for d in r.decisions:
        a = WIN.advise(at[d.line], FLOAT, Budget(SECONDS))
        if d.kind == "steal":
            assert a.steal is not None
            values = {Action.STEAL: a.steal.take, Action.DECLINE: a.steal.decline}
        else:
            values = {Action.DRAW: a.draw} if a.stop is None else {Action.DRAW: a.draw, Action.STOP: a.stop}
        best = max(values.values())
        assert d.value == pytest.approx(values[d.choice], abs=1e-12), d
        assert d.cost == pytest.approx(best - values[d.choice], abs=1e-12), d
        assert r.cost_shown(d) == pytest.approx(100 * (best - values[d.choice]), abs=1e-10)
        assert 0 <= float(d.value) <= 1 and d.best is not None and values[d.best] == best
        assert d.approximation == a.approximation and d.estimate == (a.approximation == ESTIMATE)
        row = r.json_row(d)
        assert row["cost_points"] == pytest.approx(100 * (best - values[d.choice]), abs=1e-10)
        assert row["estimate"] is d.estimate and row["model"] == "win"
        json.dumps(row)  # the command line's --json line
        kinds.add((d.kind, d.estimate))
    assert {("stop or draw", True), ("stop or draw", False)} <= kinds  # estimated, and exact near the end
    assert sum(1 for d in r.decisions if d.cost > 0) >= 10


def test_the_chance_given_away_per_decision_and_its_band(in_chances):
    _, r = in_chances
    bounds = documented_bands()
    report = r.report()
    for seat in range(2):
        mine = [float(d.cost) for d in r.decisions if d.seat == seat and d.value is not None]
        rate = 100 * sum(mine) / len(mine)
        named = next(name for name, below in bounds if below is None or rate < below)
        assert r.per_decision(seat) == pytest.approx(rate) and r.band(seat) == named
        assert (f"\nSeat {seat + 1} ({r.names[seat]}): {len(mine)} decisions, "
                f"{sum(1 for c in mine if c > 0)} not the best, {rate:.2f} points of chance given away per "
                f"decision: {named} ({sum(mine) * 100:.1f} in all)") in report, report
    assert "percentage points of the chance to win" in report
    assert "this project's own" in report.splitlines()[-1]


def test_the_bands_are_the_documented_ones():
    bounds = documented_bands()
    assert bounds == [*BANDS, (WORST_BAND, None)]
    assert [name for name, _ in bounds] == ["flawless", "sharp", "steady", "loose", "reckless"]
    names = [name for name, _ in bounds]
    for k, (name, below) in enumerate(BANDS):
        assert band(below - 1e-9) == name and band(below) == names[k + 1]
    assert band(0.0) == "flawless" and band(100.0) == "reckless"
    assert Review("turn", ["Ann", "Bob"]).per_decision(0) is None  # in points, no band
    assert Review("win", ["Ann", "Bob"]).band(0) is None  # no decision


def test_the_report_marks_the_estimates(in_chances):
    _, r = in_chances
    report = r.report()
    assert report.startswith(f"Review under `win`: 109 decisions (0 not solved, {r.estimates()} answered with an "
                             f"estimate).")
    assert r.estimates() == sum(1 for d in r.decisions if d.estimate) > 50
    listed = [d for seat in range(2) for d in r.costliest(seat)]
    assert {d.estimate for d in listed} == {True, False}  # this game's costliest: both kinds
    for d in listed:
        line = r.describe(d)
        assert line in report and line.endswith(" points of chance (estimate)") == d.estimate, line
        assert f"cost {100 * float(d.cost):.2f} points of chance" in line


def last_card(choice: dict[str, Any]) -> str:
    """A game joined with one card left, a 7: seat 1 draws it onto its 5 and may take seat 2's 7. Seat 2 is 10
    points up: declining ends it 12 against 17 (lost), taking 19 against 10 (won), R9 and R11."""
    rest = [v for v, n in zip(range(1, 11), DECK_COPIES) for _ in range(n)]
    for v in (7, 5, 7, 10):
        rest.remove(v)
    start = {"players": [{"line": [5]}, {"line": [7], "loot": [10]}], "active": 0, "discard": rest}
    rows = [{"record": "hit", "version": 1, "players": 2}, {"event": "round", "round": 1, "first": 0, "start": start},
            {"event": "draw", "seat": 0, "value": 7}, choice]
    return "\n".join(json.dumps(x) for x in rows)


def test_the_last_cards_steal_is_won_or_lost():
    declined = review(last_card({"event": "decline", "seat": 0, "value": 7}), "win").decisions[-1]
    assert (declined.pile_size, declined.kind, declined.choice, declined.best) == (0, "steal", Action.DECLINE,
                                                                                   Action.STEAL)
    assert (declined.value, declined.best_value, declined.cost) == (0, 1, 1) and not declined.estimate
    taken = review(last_card({"event": "steal", "seat": 0, "value": 7, "taken": 1, "from": [[1, 1]]}),
                   "win").decisions[-1]
    assert (taken.choice, taken.best, taken.value, taken.cost) == (Action.STEAL, Action.STEAL, 1, 0)
    # Under turn the same steal is worth its points (the line about to be banked): 19 against 12.
    assert review(last_card({"event": "decline", "seat": 0, "value": 7})).decisions[-1].cost == 7


def test_the_command_line_reviews_in_chances_by_default(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(two_player_record())
    done = subprocess.run([sys.executable, "-m", "solver", "review", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Review under `win`: 109 decisions (0 not solved, ")
    totals = [x for x in done.stdout.splitlines() if x.startswith("Seat ")]
    assert len(totals) == 2 and all(re.search(r" \d+\.\d\d points of chance given away per decision: "
                                              r"(flawless|sharp|steady|loose|reckless) \(", x) for x in totals), totals
    assert "(estimate)" in done.stdout
    rows = [json.loads(x) for x in subprocess.run(
        [sys.executable, "-m", "solver", "review", str(path), "--json"], capture_output=True, text=True, cwd=ROOT,
        timeout=300, check=True).stdout.splitlines()]
    assert len(rows) == 109 and {r["model"] for r in rows} == {"win"}
    assert all(r["cost_points"] == pytest.approx(100 * r["cost"]) and 0 <= r["value"] <= 1 for r in rows)
    assert {r["estimate"] for r in rows} == {True, False}
    assert all((r["approximation"] is not None) == r["estimate"] for r in rows)


def test_missing_weights_are_said_with_the_file_and_the_command(monkeypatch, tmp_path, capsys):
    """No evaluator, no estimate: the review stops with `win`'s own message (the file, the command that makes
    it), exit 2, not as a fault of the reviewer, and not as decisions quietly left unscored."""
    from solver.cli import main

    path = tmp_path / "game.jsonl"
    path.write_text(two_player_record())
    said = (f"the chance-to-win evaluator's file {tmp_path / 'evaluator.npz'} is missing; rebuild it with: "
            "python -m solver train")

    def missing(*_: Any, **__: Any) -> Any:
        raise WeightsError(said)

    monkeypatch.setattr(evaluator_module, "evaluator", missing)
    with pytest.raises(WeightsError, match="python -m solver train"):
        review(path.read_text(), "win")
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"hit-solver: game.jsonl: cannot review with `win`: {said}"], err
    assert main(["review", str(path), "--model", "turn"]) == 0  # turn needs no evaluator


def test_the_last_card_of_an_earlier_round_is_listed_not_scored():
    """In a match of rounds (R15) the end of round 1 is not the end: `win` does not value the rounds to come
    there, so that steal is listed with why, not scored (and the rest of the match is)."""
    match = Match.variant_match(2, rounds=2, seed=3)
    match.play(TurnPolicy())
    r = review(dumps(match, ["Ann", "Bob"]), "win", SECONDS)
    unsolved = [d for d in r.decisions if d.value is None]
    assert len(unsolved) == 1 and r.unsolved() == 1
    d = unsolved[0]
    assert (d.round, d.pile_size, d.kind, d.cost) == (1, 0, "steal", 0)
    assert d.note == ("the last card of round 1 of 2: `win` does not weigh the rounds to come (R15) at the end of "
                      "a round")
    assert {x.round for x in r.decisions if x.value is not None} == {1, 2}
    assert f", not solved ({d.note})" in r.describe(d)
    assert all(r.per_decision(seat) is not None for seat in range(2))


def test_a_float_tie_is_reviewed_by_the_models_own_tie_rule():
    # The table of bank's float-tie defect (2026-12-03), from the next seat's side: its 7 offers a steal
    # worth exactly what declining is (49/2), but 24.5 against 24.499999999999996 in floats, as the pages
    # review it. Declining is the model's own choice on a tie, so no decision was missed.
    from bench.float_paths import table
    from solver.models import advise
    from solver.play.simulate import game_from_position

    pos = table([1, 2, 2, 9], [[7], [2, 7, 9]], active=0, offer=7)
    exact = advise(pos, "turn", exact=True).steal
    assert exact is not None and exact.take == exact.decline
    decided = review_module._decide(game_from_position(pos, seed=0), "steal", Action.DECLINE, 1, 1, 1, "turn", 5.0)
    assert decided.best is Action.DECLINE and decided.value == decided.best_value
