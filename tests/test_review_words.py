"""The review in game terms (issue 24): whose turn, which turn of the round, what was held, what was on offer,
how many cards were left, the choice and the best, the record's line after them.

The turn numbers and the offers are checked against what the record itself says (the stops and busts before
each decision, the `from` of each steal taken), not against the review's own counting.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import solver.play.review as review_module
from solver.game.record import dumps, replay
from solver.play.review import Decision, Review, ReviewError, cards_left, cards_of_value, review
from solver.game.rules import Action, Busted, Match, Phase, Stopped
from solver.play.simulate import TurnPolicy, position_of
from solver.play.tournament import Pairing, play_deal

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
    done = subprocess.run([sys.executable, "-m", "solver", "review", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=False)
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
