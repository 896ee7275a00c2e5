"""Game records, policies, tournaments and review (issue 12), against independent computations."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.models.advice import Budget, SlowModel
from solver.models import advise
from solver.play.policies import Bank, WinBot, make
from solver.game.record import RecordError, dumps, lines, replay
from solver.play.review import review
from solver.game.rules import Action, Drew, Game, Match, Phase
from solver.play.simulate import TurnPolicy, position_of
from solver.play.tournament import Pairing, deal_rows, made_by, play_deal, run, summarise, wilson
from solver.utilities.chunks import OutputFolderError

ROOT = Path(__file__).resolve().parent.parent


def played(players: int, seed: int, rounds: int = 1, timer_every: int = 0) -> Match:
    """A match of random bots (the timer runs out every ``timer_every``-th decision, if set)."""
    match = Match(players, rounds=rounds, seed=seed)
    bot = make("random")
    bot.new_game(seed)
    k = 0
    while len(match.games) < rounds:
        game = match.new_round()
        while not game.is_over:
            k += 1
            if timer_every and k % timer_every == 0:
                game.timeout()
            else:
                game.apply(bot(game))
    return match


# -- records ------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), rounds=st.sampled_from([1, 2, 3]),
       timer=st.sampled_from([0, 7]))
def test_a_record_replays_to_the_same_match(players, seed, rounds, timer):
    match = played(players, seed, rounds, timer)
    text = dumps(match)
    again = replay(text)
    assert again.over
    assert lines(again.match) [1:] == lines(match)[1:]  # every event, the rounds and the end, line for line
    assert [p.score for p in again.match.totals()] == [p.score for p in match.totals()]
    assert again.match.ranking() == match.ranking()
    end = json.loads(text.splitlines()[-1])
    assert end["winner"] == match.winner() and end["scores"] == [p.score for p in match.totals()]


def _record(players=2, seed=5):
    return dumps(played(players, seed)).splitlines()


def _line_of(rows, kind, start=1):
    return next(i for i, r in enumerate(rows) if i >= start and json.loads(r).get("event") == kind)


def test_a_record_that_contradicts_the_rules_is_refused_at_its_line():
    rows = _record()
    # A bust the rules do not give: drop a bust line, so the next draw is by the wrong seat or a bust goes missing.
    k = _line_of(rows, "bust")
    broken = rows[:k] + rows[k + 1:]
    with pytest.raises(RecordError, match=rf"^line {k + 1}: "):
        replay("\n".join(broken))
    # A card that is not in the deck.
    first = json.loads(rows[2])
    with pytest.raises(RecordError, match=r"^line 3: 12 is not a card value"):
        replay("\n".join(rows[:2] + [json.dumps({**first, "value": 12})] + rows[3:]))
    # Nothing may follow the game's end.
    with pytest.raises(RecordError, match=rf"^line {len(rows) + 1}: the game has ended"):
        replay("\n".join(rows + [rows[-2]]))
    # A wrong final score.
    end = json.loads(rows[-1])
    end["scores"][0] += 1
    with pytest.raises(RecordError, match=rf"^line {len(rows)}: scores: the rules give"):
        replay("\n".join(rows[:-1] + [json.dumps(end)]))


@pytest.mark.parametrize("text, message", [
    ("", r"line 1: a record starts with its header"),
    ("[1, 2]", r"line 1: each line of a record is a JSON object"),
    ('{"record": "chess", "version": 1}', r"line 1: not a Hit! game record"),
    ('{"record": "hit", "version": 1, "players": 6}', r"line 1: players 6: Hit! is for 2 to 5 players"),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "draw", "seat": 0, "value": 3}',
     r"line 2: an event before the first 'round' line"),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 1, "first": 0}\n{"event": "steal", '
     '"seat": 0, "value": 3, "taken": 1, "from": [[1, 1]]}', r"line 3: 'steal' is not legal for seat 0"),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 1, "first": 0}\n{"event": "draw", '
     '"seat": 1, "value": 3}', r"line 3: it is seat 0's turn, not seat 1's"),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 1, "first": 0}\n{"event": "fly"}',
     r'line 3: unknown event "fly"'),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 1, "first": 0}\n{"event": "draw"}',
     r"line 3: a 'draw' event has the fields seat, value; missing seat, value"),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 1, "first": 0}\n{"event": "draw", '
     '"seat": 0, "value": "7"}', r'line 3: .draw. event: value "7" is not a whole number'),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 1, "first": 0}\n{"event": "draw", '
     '"seat": 0, "value": 3}\n{"event": "collect", "seat": 0, "cards": [3]}',
     r"line 4: .*does not follow from the rules here"),
    ('{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 2, "first": 0}',
     r"line 2: expected round 1"),
    ('{"record": "hit", "version": 1, "players": 2}\n' + "[" * 100_000, r"line 2: not valid JSON"),
])
def test_bad_records_get_one_clear_message(text, message):
    with pytest.raises(RecordError, match=message):
        replay(text)


def test_a_game_under_way_replays_to_where_it_stopped():
    rows = _record(3, 9)
    k = _line_of(rows, "stop")
    part = replay("\n".join(rows[:k + 1]))
    assert not part.over and not part.game.is_over
    whole = Match(3, seed=9)
    game = whole.new_round()
    assert part.game.first == game.first


def test_a_game_joined_under_way_replays_from_its_start():
    # Stop a played game at a turn's start, write the rest from that table on, and replay: the same end.
    game, _ = play_deal(Pairing("turn", "bust", 3), 2, 0, 1)
    whole = Match(3)
    whole.games.append(game)
    rows = lines(whole)
    stop = next(i for i, r in enumerate(rows) if i > 40 and r.get("event") == "stop")
    cut = next(i for i, r in enumerate(rows) if i > stop and r.get("event") == "draw")  # after the next collect
    part = replay(json.dumps(r) for r in rows[:cut])  # the table at that moment
    table = position_of(part.game)
    joined = [rows[0], {"event": "round", "round": 1, "first": 0, "start": json.loads(table.to_json())}]
    again = replay(json.dumps(r) for r in joined + rows[cut:])
    assert again.over and [p.score for p in again.match.totals()] == [p.score for p in game.players]
    bad = dict(joined[1], start={"players": [{}, {}], "active": 0})
    with pytest.raises(RecordError, match=r"line 2: start: 2 seats, the header says 3"):
        replay(json.dumps(r) for r in [rows[0], bad])
    worse = dict(joined[1], start={"players": [{"line": [11]}, {}, {}], "active": 0})
    with pytest.raises(RecordError, match=r"line 2: start: players\[0\]\.line\[0\]: 11 is not a card value"):
        replay(json.dumps(r) for r in [rows[0], worse])


# -- policies -------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["turn", "rule", "threshold", "threshold:25", "bust", "bust:30", "cards", "cards:3",
                                  "random"])
@pytest.mark.parametrize("players", [2, 5])
def test_every_policy_plays_legal_games_to_the_end(spec, players):
    for seed in range(2):
        game, _ = play_deal(Pairing(spec, "turn", players), seed, 0, 1)
        assert game.is_over and sum(p.score for p in game.players) + sum(game.discard) == 445


@pytest.mark.parametrize("spec, message", [
    ("thresold", r"unknown policy 'thresold'; the policies are: turn, bank\[:SECONDS\]"),
    ("threshold:x", r"policy 'threshold:x': the parameter must be a whole number from 1 to 445"),
    ("bust:0", r"from 1 to 99"), ("cards:-1", r"from 1 to 90"), ("bank:0", r"from 0.001 to 600"),
    ("turn:3", r"unknown policy 'turn:3'"), ("win:", r"unknown policy 'win:'"), ("win:exact", r"unknown policy"),
])
def test_bad_policy_names_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make(spec)


def test_the_threshold_policy_stops_at_its_threshold():
    # Independent of the study's code: from the records alone, every stop of threshold:20 is at a line worth 20
    # or more, and every draw after its turn's first card is from a line worth less.
    stops = draws = 0
    line: list[int] = []
    seat = None
    for r in map(json.loads, deal_records(Pairing("threshold:20", "turn", 2), deals=3)):
        if r.get("seat") != seat:  # a new turn (a line is collected or lost before the seat's next turn)
            seat, line = r.get("seat"), []
        if r["event"] == "collect":
            line = []
        elif r.get("name") != "threshold:20":
            continue
        elif r["event"] == "stop":
            assert sum(line) >= 20
            stops += 1
        elif r["event"] == "draw":
            if line:
                assert sum(line) < 20
                draws += 1
            line.append(r["value"])
        elif r["event"] == "steal":
            line += [r["value"]] * r["taken"]
    assert stops > 10 and draws > 10


def deal_records(pairing: Pairing, deals: int) -> list[str]:
    """Every event line of some deals, each tagged with the name of the policy that played it."""
    out = []
    for d in range(deals):
        for rotation in range(pairing.players):
            game, _ = play_deal(pairing, 3, d, rotation)
            names = [pairing.tested if s == rotation else pairing.baseline for s in range(pairing.players)]
            m = Match(pairing.players)
            m.games.append(game)
            for row in lines(m, names)[2:]:
                if "seat" in row:
                    row["name"] = names[row["seat"]]
                out.append(json.dumps(row))
    return out


def test_bank_policy_decides_as_the_bank_model_at_each_decision():
    # The policy reuses one solver per turn; the model solves each position afresh: same choices.
    pos_checked = 0
    bot = Bank(seconds=5)
    bot.new_game(0)
    turn = TurnPolicy()
    game = Game(2, seed=11, first=0)
    while not game.is_over and pos_checked < 12:
        if game.active == 0 and game.phase is not Phase.MUST_DRAW and game.pile:
            before = bot.by_turn
            action = bot(game)
            if bot.by_turn == before:  # bank answered within its limit
                try:
                    a = advise(position_of(game), "bank", exact=False, budget=Budget(5))
                except SlowModel:
                    a = None
                if a is not None:
                    if game.phase is Phase.STEAL:
                        expected = a.steal.action
                    else:
                        expected = a.action
                    assert action == expected
                    pos_checked += 1
            game.apply(action)
        else:
            game.apply(turn(game) if game.active else Action.DRAW)
    assert pos_checked >= 5


@pytest.mark.parametrize("name, model", [("hybrid", "duel"), ("win", "win")])
def test_endgame_bots_play_their_model_near_the_end(name, model):
    # With 8 cards or fewer left, hybrid's choices are duel's and win's are win's.
    bot = make(name)
    game, _ = play_deal(Pairing("turn", "turn", 2), 4, 0, 0)  # a finished game, only to get its cards
    cards = [e.value for e in game.log if isinstance(e, Drew)][::-1]  # top card last
    fresh = Game(2, pile=cards, first=game.first)
    turn = TurnPolicy()
    checked = 0
    while not fresh.is_over:
        if fresh.active == 1 and fresh.phase is not Phase.MUST_DRAW and 0 < len(fresh.pile) <= 8:
            a = advise(position_of(fresh), model, exact=True)
            choice = bot(fresh)
            if fresh.phase is Phase.STEAL:
                assert choice is a.steal.action
            else:
                assert choice is a.action
            checked += 1
            fresh.apply(choice)
        else:
            fresh.apply(turn(fresh))
    assert checked >= 1
    three = Game(3, seed=1)
    if name == "hybrid":
        with pytest.raises(ValueError, match="two-player"):
            bot(three)
    else:  # win plays for the chance to win at any table size
        assert bot(three) in three.legal_actions()


def test_win_estimate_plays_the_search_even_in_two_players_last_cards(tmp_path):
    # win:estimate is win without the exact endgame: in the last 10 cards its choices are the search's, not
    # the exact model's; its tournament games are named by the weights like win's.
    from solver.models.chances import CompiledSearch, Seats
    from solver.models.evaluator import evaluator, weights_checksum, weights_folder

    bot = make("win:estimate")
    assert bot.name == "win:estimate"
    game, _ = play_deal(Pairing("turn", "turn", 2), 4, 0, 0)
    cards = [e.value for e in game.log if isinstance(e, Drew)][::-1]
    fresh = Game(2, pile=cards, first=game.first)
    turn = TurnPolicy()
    checked = 0
    while not fresh.is_over:
        if fresh.active == 1 and fresh.phase is not Phase.MUST_DRAW and 0 < len(fresh.pile) <= 10:
            position = position_of(fresh)
            search = CompiledSearch(Seats.of(position), evaluator(), position.pile())
            assert bot(fresh) is WinBot.choose(search, fresh, position.turn_state())
            checked += 1
            fresh.apply(bot(fresh))
        else:
            fresh.apply(turn(fresh))
    assert checked >= 1 and bot.exact == 0 and bot.decisions >= checked
    run([Pairing("win:estimate", "turn", 2)], deals=1, out=tmp_path, seed=5, chunk=1, workers=1,
        log=lambda _: None, bar=False)
    built = [p.name for p in (tmp_path / ".build").glob("*.parquet")]
    assert len(built) == 1 and built[0].endswith(f"-w{weights_checksum(weights_folder() / 'evaluator.npz')[:8]}.parquet")


# -- tournaments ------------------------------------------------------------------------------
def _wilson_by_bisection(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    # The interval's definition: the p with |wins/n - p| <= z sqrt(p(1-p)/n), found numerically.
    phat = wins / n

    def inside(p: float) -> bool:
        return abs(phat - p) <= z * math.sqrt(p * (1 - p) / n)

    def edge(lo: float, hi: float) -> float:  # inside at one end, outside at the other
        want = inside(lo)
        for _ in range(200):
            mid = (lo + hi) / 2
            if inside(mid) == want:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    return (edge(phat, 0.0) if wins else 0.0, edge(phat, 1.0) if wins < n else 1.0)


@pytest.mark.parametrize("wins, n", [(0, 10), (3, 10), (64, 100), (258, 400), (400, 400), (1, 3)])
def test_wilson_interval_matches_its_definition(wins, n):
    assert wilson(wins, n) == pytest.approx(_wilson_by_bisection(wins, n), abs=1e-9)


def test_duplicate_format_every_rotation_plays_the_same_cards():
    pairing = Pairing("threshold:15", "turn", 3)
    firsts, first_cards = set(), set()
    for rotation in range(3):
        game, _ = play_deal(pairing, 7, 2, rotation)
        firsts.add(game.first)
        first_cards.add(next(e.value for e in game.log if isinstance(e, Drew)))
    assert len(firsts) == 1 and len(first_cards) == 1
    rows = deal_rows(pairing, 7, 2)
    assert [r["tested_seat"] for r in rows] == [0, 1, 2]
    for r in rows:
        scores = list(map(int, r["scores"].split()))
        others = [s for i, s in enumerate(scores) if i != r["tested_seat"]]
        assert r["tested_score"] == scores[r["tested_seat"]] and r["margin"] == r["tested_score"] - max(others)


def test_tournament_resumes_and_sums_up(tmp_path):
    pairings = [Pairing("turn", "threshold:25", 2), Pairing("rule", "turn", 3)]
    logs: list[str] = []
    games, summary = run(pairings, deals=4, out=tmp_path, seed=3, chunk=2, workers=1, log=logs.append)
    assert len(games) == 4 * 2 + 4 * 3 and list(summary["games"]) == [8, 12]
    assert list(summary["made_by"]) == [made_by(p) for p in pairings]
    built = sorted((tmp_path / ".build").glob("*.parquet"))
    built[0].unlink()
    (tmp_path / "games.parquet").unlink()  # (else the chunk is taken from the published games, tested below)
    logs.clear()
    again, _ = run(pairings, deals=4, out=tmp_path, seed=3, chunk=2, workers=1, log=logs.append)
    assert logs[0] == "tournament: resuming, 3 of 4 chunks already built"
    pd.testing.assert_frame_equal(games, again)
    # The summary against a plain count.
    for row in summary.itertuples():
        g = games[games.pairing == row.pairing]
        assert row.wins == g.tested_won.sum() and row.win_rate == g.tested_won.mean()
        assert (row.win_low, row.win_high) == wilson(int(g.tested_won.sum()), len(g))
    # A later tournament in the folder keeps the other pairings.
    run([Pairing("turn", "random", 2)], deals=2, out=tmp_path, seed=3, chunk=2, workers=1, log=logs.append)
    kept = pd.read_parquet(tmp_path / "summary.parquet")
    assert set(kept.pairing) == {p.name for p in pairings} | {"turn vs random (2p)"}
    assert "| turn vs random (2p) | 2 | 4 |" in (tmp_path / "README.md").read_text()
    # ... and a pairing played again keeps its place: the tables' order does not hang on which ran last.
    run([pairings[0]], deals=2, out=tmp_path, seed=3, chunk=2, workers=1, log=logs.append)
    again = pd.read_parquet(tmp_path / "summary.parquet")
    assert list(again.pairing) == list(kept.pairing) and list(again.deals) == [2, 4, 2]
    published = pd.read_parquet(tmp_path / "games.parquet")
    assert list(dict.fromkeys(published.pairing)) == list(kept.pairing)


def test_a_tournament_takes_a_deals_published_games_instead_of_playing_them_again(tmp_path, monkeypatch):
    import solver.play.tournament as tournament

    # Played once, the games are published with their mark; without the chunks (another machine, a fresh
    # clone), a longer tournament in the same folder takes the deals whose every game is published with the
    # same mark, whatever the chunk size, and plays the rest: the same games as a tournament from scratch.
    pairing = [Pairing("turn", "threshold:25", 2)]
    quiet = {"workers": 1, "log": lambda _: None, "bar": False}
    fresh, _ = run(pairing, deals=6, out=tmp_path / "fresh", seed=3, chunk=3, **quiet)
    out = tmp_path / "out"
    first, _ = run(pairing, deals=4, out=out, seed=3, chunk=2, **quiet)
    assert first["made_by"].nunique() == 1 and first["made_by"].notna().all()
    pd.testing.assert_frame_equal(first, fresh[fresh.deal < 4].reset_index(drop=True))
    mark = first["made_by"][0]

    def publish(games: pd.DataFrame) -> None:
        for built in (out / ".build").glob("*.parquet"):
            built.unlink()
        games.to_parquet(out / "games.parquet", index=False)

    # A published game marked as played (a score nobody could play) shows which games were taken.
    marked = first.copy()
    marked.loc[(marked.deal == 1) & (marked.tested_seat == 0), "tested_score"] = 999
    publish(marked)
    logs: list[str] = []
    again, _ = run(pairing, deals=6, out=out, seed=3, chunk=3, workers=1, log=logs.append, bar=False)
    assert any(line.startswith("tournament: 1 of 2 chunks taken from the games already in") for line in logs)
    assert again.loc[(again.deal == 1) & (again.tested_seat == 0), "tested_score"].tolist() == [999]
    expected = fresh.copy()
    expected.loc[(expected.deal == 1) & (expected.tested_seat == 0), "tested_score"] = 999
    pd.testing.assert_frame_equal(again, expected)
    # A deal missing a rotation, a game with another mark, games published before they carried a mark: none
    # of them is taken, and the chunk is played again.
    for broken in (marked.drop(index=marked.index[(marked.deal == 2) & (marked.tested_seat == 1)]),
                   marked.assign(made_by=[mark] * 5 + ["a0000000-w00000000"] + [mark] * 2),
                   marked.assign(seed=[3] * 5 + [4] + [3] * 2),  # a game of another tournament's deals
                   pd.concat([marked, marked.iloc[[0]]], ignore_index=True),  # a game twice
                   marked.drop(columns="made_by")):
        publish(broken)
        logs.clear()
        played, _ = run(pairing, deals=6, out=out, seed=3, chunk=3, workers=1, log=logs.append, bar=False)
        assert not any("taken from" in line for line in logs)
        pd.testing.assert_frame_equal(played, fresh)
    # Nor after a change to the code that plays: neither its published games nor its chunks.
    publish(marked)
    monkeypatch.setattr(tournament, "code_mark", lambda: "c0ffee00")
    logs.clear()
    played, _ = run(pairing, deals=6, out=out, seed=3, chunk=3, workers=1, log=logs.append, bar=False)
    assert not any("taken from" in line or "resuming" in line for line in logs)
    assert set(played["made_by"]) == {mark.replace(mark.split("-")[1], "cc0ffee00")}


def test_the_code_mark_changes_with_the_code_that_plays_and_only_with_it(tmp_path):
    import shutil

    from solver.play.tournament import code_mark

    shutil.copytree(ROOT / "solver", tmp_path / "solver", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    copy = tmp_path / "solver"
    assert code_mark(tmp_path) == code_mark() and len(code_mark()) == 8
    for name in ("study/train.py", "cli.py", "play/tournament.py", "play/review.py", "utilities/chunks.py"):
        (copy / name).write_text("# not the code that plays\n", encoding="utf-8")
    assert code_mark(tmp_path) == code_mark()
    for name in ("play/policies.py", "play/simple_rules.py", "play/simulate.py", "models/kernel.py", "game/rules.py",
                 "utilities/numbers.py"):
        path = copy / name
        before = path.read_bytes()
        path.write_bytes(before + b"\n")  # one more line at the end
        assert code_mark(tmp_path) != code_mark(), name
        path.write_bytes(before)
    (copy / "models" / "new.py").write_text("X = 1\n", encoding="utf-8")
    assert code_mark(tmp_path) != code_mark()


def test_the_mark_names_the_rules_table_and_a_chunk_played_by_other_code_is_refused(tmp_path, monkeypatch):
    # `rule` reads the study's table: other contents, another mark, and the published games are not taken.
    import solver.play.policies as policies
    from solver.play.tournament import made_by

    pairing = [Pairing("turn", "rule", 2)]
    out = tmp_path / "out"
    games, _ = run(pairing, deals=2, out=out, seed=3, chunk=2, workers=1, log=lambda _: None, bar=False)
    assert set(games["made_by"]) == {made_by(pairing[0])}
    table = tmp_path / "rules.csv"
    table.write_bytes(policies.RULES_TABLE.read_bytes() + b"\n")
    monkeypatch.setattr(policies, "RULES_TABLE", table)
    assert made_by(pairing[0]) not in set(games["made_by"])
    for built in (out / ".build").glob("*.parquet"):
        built.unlink()
    logs: list[str] = []
    run(pairing, deals=2, out=out, seed=3, chunk=2, workers=1, log=logs.append, bar=False)
    assert not any("taken from" in line for line in logs)
    # A chunk whose games say other code played them (a Dask worker not brought up to date) is refused.
    [built] = (out / ".build").glob("*.parquet")
    pd.read_parquet(built).assign(made_by="a0000000-c00000000-r00000000").to_parquet(built, index=False)
    with pytest.raises(OutputFolderError, match=f"{built.name} was played by a0000000-c00000000-r00000000"):
        run(pairing, deals=2, out=out, seed=3, chunk=2, workers=1, log=lambda _: None, bar=False)


@pytest.mark.parametrize("damage", [b"not parquet at all", "columns"])
def test_a_damaged_games_table_in_the_folder_is_refused_before_any_game(tmp_path, damage):
    from solver.cli import main as hit_main

    out = tmp_path / "out"
    run([Pairing("turn", "random", 2)], deals=1, out=out, seed=3, chunk=1, workers=1, log=lambda _: None, bar=False)
    if damage == "columns":
        pd.DataFrame({"x": [1]}).to_parquet(out / "games.parquet")
    else:
        (out / "games.parquet").write_bytes(damage)
    for built in (out / ".build").glob("*.parquet"):
        built.unlink()
    with pytest.raises(OutputFolderError, match="games.parquet"):
        run([Pairing("turn", "rule", 2)], deals=1, out=out, seed=3, chunk=1, workers=1, log=lambda _: None,
            bar=False)
    assert not list((out / ".build").glob("*.parquet"))  # refused before any game was played
    done = subprocess.run([sys.executable, "-m", "solver", "tournament", "turn", "rule", "--deals", "1",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120)
    assert done.returncode == 2 and "games.parquet" in done.stderr and "Traceback" not in done.stderr


def test_a_tournament_on_dask_equals_the_local_one(tmp_path):
    from distributed import LocalCluster

    pairings = [Pairing("turn", "random", 2), Pairing("bust", "turn", 3)]
    local, _ = run(pairings, deals=3, out=tmp_path / "local", seed=8, chunk=1, workers=2, log=lambda _: None)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote, _ = run(pairings, deals=3, out=tmp_path / "dask", seed=8, chunk=1, dask=cluster.scheduler_address,
                        log=lambda _: None)
    pd.testing.assert_frame_equal(local, remote)
    assert len(local) == 3 * 2 + 3 * 3


def test_summary_of_a_known_table():
    games = pd.DataFrame({"tested": ["a"] * 4, "baseline": ["b"] * 4, "players": [2] * 4, "deal": [0, 0, 1, 1],
                          "tested_won": [1, 1, 0, 1], "tested_score": [10, 20, 30, 40], "margin": [1, 2, -3, 4],
                          "tested_lost_turns": [0, 1, 2, 3], "model_decisions": [0] * 4, "by_turn": [0] * 4})
    s = summarise(games).iloc[0]
    assert (s.games, s.deals, s.wins, s.win_rate, s.mean_score, s.mean_margin) == (4, 2, 3, 0.75, 25, 1)
    assert s.made_by is None  # games that carry no mark
    # What played the games: their one mark; blank marks are no mark; several are all named.
    assert summarise(games.assign(made_by=["m1"] * 4)).iloc[0].made_by == "m1"
    assert summarise(games.assign(made_by=[None, "", None, None])).iloc[0].made_by is None
    assert summarise(games.assign(made_by=["m2", "m1", "m1", "m1"])).iloc[0].made_by == "m1 + m2"
    assert summarise(games.assign(made_by=["m2", "m1", "m1", None])).iloc[0].made_by == "m1 + m2 + (not recorded)"
    assert summarise(games.assign(made_by=["m1", "", "m1", "m1"])).iloc[0].made_by == "m1 + (not recorded)"
    # The seed the deals were dealt from; none if they come from several.
    assert s.seed is None
    assert summarise(games.assign(seed=[5] * 4)).iloc[0].seed == 5
    assert summarise(games.assign(seed=[5, 5, 6, 6])).iloc[0].seed is None


# -- review ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players, deal", [(2, 0), (2, 1), (3, 0), (4, 0)])
def test_a_turn_game_reviewed_against_turn_costs_exactly_zero(players, deal):
    game, _ = play_deal(Pairing("turn", "turn", players), 5, deal, 0)
    m = Match(players)
    m.games.append(game)
    r = review(dumps(m))
    assert r.decisions and all(d.cost == 0 for d in r.decisions)
    assert sum((d.cost for d in r.decisions), Fraction(0)) == 0 and r.unsolved() == 0


def test_review_costs_are_the_models_mistake_costs():
    # A threshold player's mistakes, each checked against the model's advice at that position, solved here.
    game, _ = play_deal(Pairing("threshold:25", "turn", 2), 5, 0, 0)
    m = Match(2)
    m.games.append(game)
    text = dumps(m, ["threshold:25", "turn"])
    r = review(text)
    costly = [d for d in r.decisions if d.cost > 0]
    assert costly and all(d.seat == 0 and d.name == "threshold:25" for d in costly)
    assert r.given_away(0) == sum(d.cost for d in costly) and r.given_away(1) == 0
    seen: list[tuple[int, object]] = []
    replay(text, on_choice=lambda g, e, line, rnd: seen.append((line, position_of(g)))
           if g.phase is not Phase.MUST_DRAW else None)
    at = dict(seen)
    for d in costly[:5]:
        a = advise(at[d.line], "turn")
        if d.kind == "steal":
            assert d.cost == a.steal.cost
        else:
            assert d.cost == a.mistake_cost
    assert r.costliest(0)[0].cost == max(d.cost for d in costly)


# -- command line -------------------------------------------------------------------------------
def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True, text=True, cwd=ROOT,
                          input=stdin, timeout=300, check=False)


def test_cli_tournament_and_review(tmp_path):
    done = cli("tournament", "turn", "threshold:25", "--deals", "3", "--chunk", "3", "--workers", "1", "--out",
               str(tmp_path / "t"), "--records", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr
    assert "turn vs threshold:25 (2p)" in done.stdout and "95% interval" in done.stdout
    assert (tmp_path / "t" / "summary.csv").exists() and (tmp_path / "t" / "games.parquet").exists()
    records = sorted((tmp_path / "r").glob("*.jsonl"))
    assert len(records) == 6
    rev = cli("review", str(records[0]), "--model", "turn")
    assert rev.returncode == 0 and "Seat 1 (turn)" in rev.stdout and "0.00 points given away" in rev.stdout
    as_json = cli("review", str(records[1]), "--json")  # by `win`, the default: costs in chances too
    rows = [json.loads(x) for x in as_json.stdout.splitlines()]
    assert rows and {"line", "seat", "choice", "best", "cost", "exact_cost", "cost_points", "estimate",
                     "model"} <= set(rows[0])
    assert {r["model"] for r in rows} == {"win"} and all(r["cost_points"] == pytest.approx(100 * r["cost"])
                                                         for r in rows)


@pytest.mark.parametrize("args, message", [
    (("tournament", "turn", "thresold:25"), "unknown policy 'thresold:25'"),
    (("tournament", "turn", "rule", "--players", "6"), "Hit! is for 2 to 5 players, not '6'"),
    (("tournament", "hybrid", "bank", "--players", "3"), "hybrid is a two-player policy"),
    (("tournament", "turn", "rule", "--deals", "0"), "must be a whole number of 1 or more"),
    (("review", "no-such-file.jsonl"), "cannot read no-such-file.jsonl"),
    (("review", "-", "--model", "duel"), "invalid choice: 'duel'"),
])
def test_cli_bad_arguments_are_named(args, message):
    done = cli(*args, stdin="")
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_cli_review_of_a_broken_record_names_the_line():
    rows = _record()
    rows[3] = rows[3].replace('"draw"', '"stop"', 1) if '"draw"' in rows[3] else '{"event": "stop", "seat": 0}'
    done = cli("review", "-", stdin="\n".join(rows))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("hit-solver: stdin: line 4: ")


def test_the_documented_format_is_the_one_read_and_written():
    # docs/RECORDS.md's event table names every event with the fields the reader requires, and its header example
    # is a header the reader accepts.
    from solver.game.record import _FIELDS

    doc = (ROOT / "docs" / "RECORDS.md").read_text()
    documented = {}
    for row in doc.splitlines():
        cells = [c.strip(" `") for c in row.split("|")[1:-1]]
        if len(cells) == 4 and cells[0] in _FIELDS:
            documented[cells[0]] = tuple(f.strip(" `") for f in cells[1].split(","))
    assert documented == _FIELDS
    header = doc.split("```json")[1].split("```")[0]
    assert replay(header.replace("\n", " ")).match.num_players == 2


def test_a_win_tournament_with_other_weights_plays_its_games_again(tmp_path, monkeypatch):
    # Chunks are reused by name on a rerun: games played by `win` with other weights must not be.
    import numpy as np

    from solver.models.evaluator import DATA, weights_checksum
    from solver.study.train import write_weights

    other = tmp_path / "weights"
    other.mkdir()
    with np.load(DATA / "evaluator.npz") as data:
        weights = {k[:-4] if k.endswith(".npy") else k: data[k] for k in data.files}
    weights["2p/b2"] = weights["2p/b2"] + 3.0  # a network that favours the second seat in turn order
    write_weights(other / "evaluator.npz", weights)
    meta = json.loads((DATA / "evaluator.json").read_text())
    meta["sha256"] = weights_checksum(other / "evaluator.npz")
    (other / "evaluator.json").write_text(json.dumps(meta))
    out = tmp_path / "out"
    pairing = [Pairing("win", "rule", 2)]
    run(pairing, deals=1, out=out, seed=5, chunk=1, workers=1, log=lambda _: None, bar=False)
    monkeypatch.setenv("HIT_WIN_WEIGHTS", str(other))
    logs: list[str] = []
    run(pairing, deals=1, out=out, seed=5, chunk=1, workers=1, log=logs.append, bar=False)
    assert not any("resuming" in line for line in logs)
    built = sorted(p.name for p in (out / ".build").glob("*.parquet"))
    assert len(built) == 2 and {b.rsplit("-w", 1)[1][:8] for b in built} == {
        weights_checksum(DATA / "evaluator.npz")[:8], meta["sha256"][:8]}
    # ... and the bot plays with the weights the folder names.
    bot, game = make("win"), Game(2, seed=5, first=0)
    while bot.search is None:
        game.apply(bot(game))
    assert np.array_equal(bot.search._net[3], weights["2p/b2"])


# -- two pairings on the same deals (bench/same_deals.py) ---------------------------------------
def _games(pairing: str, won: list[int], deals: list[int], seed: int = 9) -> pd.DataFrame:
    """Three-player games of ``pairing``, deal by deal as listed, the tested seat in seats 0, 1, 2 in turn: 10
    points a win and 0 else, each loss a last place; the seat after it scores 7, the one after that 5 + 2 × deal."""
    n = len(won)
    seats = [i % 3 for i in range(n)]
    scores = []
    for w, d, seat in zip(won, deals, seats):
        row = [0, 0, 0]
        row[seat], row[(seat + 1) % 3], row[(seat + 2) % 3] = 10 * w, 7, 5 + 2 * d
        scores.append(" ".join(map(str, row)))
    return pd.DataFrame({"pairing": [f"{pairing} (3p)"] * n, "players": [3] * n, "seed": [seed] * n,
                         "deal": deals, "tested_seat": seats, "tested_won": won,
                         "tested_rank": [1 if w else 3 for w in won], "tested_score": [10 * w for w in won],
                         "margin": [5 if w else -5 for w in won], "tested_lost_turns": [1 - w for w in won],
                         "scores": scores})


def test_same_deals_compares_deal_by_deal_with_deals_as_clusters():
    import statistics

    from bench.same_deals import by_segment, common_deals, compare

    # Deal 3 is only in "a vs x": it is left out. Each deal's rotations are averaged before the difference.
    a = _games("a vs x", [1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
    b = _games("a vs y", [1, 0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 1, 1, 2, 2, 2])
    ma, mb = common_deals(pd.concat([a, b]), "a vs x", "a vs y", 3)
    won = {d.measure: d for d in compare(ma, mb)}
    per_deal = [100 * (2 - 1) / 3, 100 * (1 - 0) / 3, 100 * (2 - 1) / 3]  # deals 0, 1, 2: a's wins less b's, a share
    w = won["won"]
    assert (w.a, w.b) == (pytest.approx(100 * 5 / 9), pytest.approx(100 * 2 / 9))
    assert w.difference == pytest.approx(statistics.mean(per_deal))
    assert w.standard_error == pytest.approx(statistics.stdev(per_deal) / math.sqrt(3))
    assert won["last"].difference == pytest.approx(-w.difference)  # every loss here is a last place
    assert won["best other"].a == pytest.approx(statistics.mean([7, 7, 9]))  # max(7, 5 + 2 × deal) for deals 0-2
    assert won["lost turns"].difference == pytest.approx(-w.difference / 100)
    # Runs of deals, cut where each run starts: deals 0-1 and 2 would leave a run of one deal, refused.
    ((first, last, n, run),) = by_segment(ma.loc[[1, 2]], mb.loc[[1, 2]], [])
    assert (first, last, n) == (1, 2, 2)
    assert run.difference == pytest.approx(statistics.mean(per_deal[1:]))


@pytest.mark.parametrize("cuts, message", [
    ([2], "the deals 2 to 2 hold 1 deal(s) in common"),
    ([0], "the cuts must rise, each past the first deal in common (0) and at most the last (2)"),
    ([3], "the cuts must rise"),
    ([2, 1], "the cuts must rise"),
    ([1, 1], "the cuts must rise"),
])
def test_same_deals_refuses_runs_it_cannot_measure(cuts, message):
    from bench.same_deals import SameDealsError, by_segment, common_deals

    a = _games("a vs x", [1, 1, 0] * 3, [0, 0, 0, 1, 1, 1, 2, 2, 2])
    b = _games("a vs y", [1, 0, 0] * 3, [0, 0, 0, 1, 1, 1, 2, 2, 2])
    with pytest.raises(SameDealsError, match=re.escape(message)):
        by_segment(*common_deals(pd.concat([a, b]), "a vs x", "a vs y", 3), cuts)


@pytest.mark.parametrize("games, argv, message", [
    ("missing", ["a vs x", "a vs y"], "games.parquet: no such file"),
    ("folder", ["a vs x", "a vs y"], ": a folder, not a games table"),
    ("text", ["a vs x", "a vs y"], "games.parquet: not a Parquet games table"),
    ("ok", ["a vs x", "a vs z"], "no games of 'a vs z (3p)'; the table has, with 3 players: a vs x (3p), a vs y (3p)"),
    ("ok", ["a vs x (4p)", "a vs y"], "'a vs x (4p)' is not a pairing with 3 players (--players 3)"),
    ("seeds", ["a vs x", "a vs y"], "were not played from one seed"),
    ("rotation", ["a vs x", "a vs y"], "'a vs y (3p)', deal 1: the tested seat should sit once in each of the 3 "
                                        "seats (0 to 2), the table has [0, 1]"),
    ("scores", ["a vs x", "a vs y"], "'a vs y (3p)', deal 0: scores '10 7 x' are not whole numbers"),
    ("no deal", ["a vs x", "a vs y"], "have 1 deal(s) in common; a standard error needs two"),
    ("first", ["a vs x", "a vs y"], "'a vs x' and 'a vs y': deal 1 has another first seat in each"),
])
def test_same_deals_names_what_cannot_be_compared(tmp_path, capsys, games, argv, message):
    from bench.same_deals import main

    path = tmp_path / "games.parquet"
    x = _games("a vs x", [1, 1, 0] * 2, [0, 0, 0, 1, 1, 1])
    y = _games("a vs y", [1, 0, 0] * 2, [0, 0, 0, 1, 1, 1], seed=10 if games == "seeds" else 9)
    if games == "text":
        path.write_text("deal,won\n1,2\n")
    elif games == "folder":
        path = tmp_path
    elif games != "missing":
        if games == "rotation":
            y = y.iloc[:5]
        elif games == "scores":
            y.loc[0, "scores"] = "10 7 x"
        elif games == "no deal":
            y = _games("a vs y", [1, 0, 0] * 2, [1, 1, 1, 2, 2, 2])
        elif games == "first":  # the same deal numbers, dealt with another first seat: not the same cards
            x, y = x.assign(first=[0, 0, 0, 1, 1, 1]), y.assign(first=[0, 0, 0, 2, 2, 2])
        pd.concat([x, y]).to_parquet(path)
    assert main([*argv, "--players", "3", "--games", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
