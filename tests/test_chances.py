"""The chance to win, 2 to 5 players: the turn's search, the evaluator and the `win` model (docs/MODELS.md).

The search is checked against a brute-force search over the rules engine (bench.win_error.one_turn), with a
stand-in evaluator whose values are known (a network of random weights, its numpy reference at the leaves);
the compiled search against the plain one; the compiled network against numpy; the features against a plain
Python reading of the table.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import shlex
import shutil
from pathlib import Path

import numpy as np
import pytest

from bench.win_error import maxn, one_turn
from solver.game.cards import DECK_COPIES, VALUES, counts
from solver.game.position import Position
from solver.game.rules import Action, Game, Phase, Player
from solver.models import kernel
from solver.models.chances import CompiledSearch, Seats, TurnSearch, evaluator_leaves
from solver.models.evaluator import DATA, REBUILD, Evaluator, WeightsError, feature_count, features, load
from solver.models.win import ESTIMATE, WIN
from solver.play.simulate import position_of
from solver.utilities.numbers import FLOAT


def stand_in(seed: int = 1, hidden: int = 12, exposure: bool = False) -> Evaluator:
    """A network of random weights: its values are whatever its numpy reference says they are (with
    ``exposure``, one that reads the lines' exposure too)."""
    rng = np.random.default_rng(seed)
    w: dict[str, np.ndarray] = {}
    for n in range(2, 6):
        f, o = feature_count(n, exposure), 1 if n == 2 else n
        w[f"{n}p/mean"] = rng.normal(0, 0.1, f)
        w[f"{n}p/scale"] = rng.uniform(0.5, 2.0, f)
        w[f"{n}p/W1"] = rng.normal(0, 0.7, (f, hidden))
        w[f"{n}p/b1"] = rng.normal(0, 0.3, hidden)
        w[f"{n}p/W2"] = rng.normal(0, 0.7, (hidden, o))
        w[f"{n}p/b2"] = rng.normal(0, 0.3, o)
    return Evaluator(w)


def engine_leaves(ev: Evaluator):  # type: ignore[no-untyped-def]
    """The stand-in at a turn start, read straight off the rules engine's game."""

    def value(g: Game) -> tuple[float, ...]:
        n = g.num_players
        pile = np.array([g.pile_counts()])
        lines = np.array([[counts(p.line) for p in g.players]])
        pts = np.array([[p.score for p in g.players]])
        cards = np.array([[len(p.loot) for p in g.players]])
        lost = np.array([[p.lost_turns for p in g.players]])
        return tuple(float(v) for v in ev.by_seat(pile, lines, pts, cards, lost, np.array([g.active]),
                                                   np.array([0]))[0][:n])

    return value


def small_game(players: int, pile: int, seed: int) -> Game:
    """A game dealt at random and played by a random policy until ``pile`` cards are left, at a decision."""
    rng = random.Random(seed)
    while True:
        game = Game(players, seed=rng.randrange(2**63))
        while not game.is_over and len(game.pile) > pile:
            game.apply(rng.choice(game.legal_actions()) if game.phase is not Phase.CHOOSE or rng.random() < 0.6
                       else Action.STOP)
        if not game.is_over and game.phase is not Phase.MUST_DRAW:
            return game


def choices_of(search: TurnSearch | CompiledSearch, pos: Position) -> dict[Action, float]:
    root = pos.turn_state()
    offer = pos.steal_on_offer()
    if offer is not None:
        return {Action.STEAL: search.best_value(root.stolen(offer)), Action.DECLINE: search.best_value(root)}
    return {Action.STOP: search.stop_value(root), Action.DRAW: search.draw_value(root)}


@pytest.mark.parametrize("exposure", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_search_equals_brute_force_over_the_rules_engine(players: int, exposure: bool) -> None:
    ev = stand_in(players, exposure=exposure)
    assert ev.exposure(players) is exposure
    steals = 0
    for k in range(6):
        game = small_game(players, 6 + k % 3, seed=100 * players + k)
        pos = position_of(game)
        steals += game.phase is Phase.STEAL
        brute = one_turn(game, engine_leaves(ev))
        plain = choices_of(TurnSearch(Seats.of(pos), evaluator_leaves(ev), pos.pile()), pos)
        fast = choices_of(CompiledSearch(Seats.of(pos), ev, pos.pile()), pos)
        assert set(brute) == set(plain) == set(fast)
        for act in brute:
            assert plain[act] == pytest.approx(brute[act], abs=1e-12)
            assert fast[act] == pytest.approx(brute[act], abs=1e-12)
            assert 0.0 <= fast[act] <= 1.0


def with_pile(players: list[dict[str, list[int]]], active: int, pile: list[int], offer: int | None = None) -> Position:
    """A position whose pile is exactly ``pile``: every other card of the deck is in the discard."""
    gone = [v for v, c in zip(VALUES, DECK_COPIES) for _ in range(c)]
    for v in pile + [c for p in players for zone in p.values() for c in zone]:
        gone.remove(v)
    return Position.from_dict({"players": players, "active": active, "offer": offer, "discard": gone})


@pytest.mark.parametrize("exposure", [False, True])
def test_steals_are_searched_as_choices(exposure: bool) -> None:
    # A steal on offer now, and more offered deeper in the turn (the 2s, 9s): the brute force takes each choice.
    pos = with_pile([{"line": [6, 1, 5]}, {"line": [5, 5, 2]}, {"line": [2, 9]}], 0, [1, 2, 3, 4, 9, 9, 10], offer=5)
    ev = stand_in(9, exposure=exposure)
    game = Game.resume([Player(list(p.line), list(p.loot), p.lost_turns) for p in pos.players], 0,
                       [v for v, c in zip(VALUES, pos.pile()) for _ in range(c)], pos.discard, 5)
    brute = one_turn(game, engine_leaves(ev))
    fast = choices_of(CompiledSearch(Seats.of(pos), ev, pos.pile()), pos)
    plain = choices_of(TurnSearch(Seats.of(pos), evaluator_leaves(ev), pos.pile()), pos)
    assert set(brute) == {Action.STEAL, Action.DECLINE}
    for act in brute:
        assert fast[act] == pytest.approx(brute[act], abs=1e-12)
        assert plain[act] == pytest.approx(brute[act], abs=1e-12)


@pytest.mark.parametrize("exposure", [False, True])
def test_compiled_and_plain_search_agree_on_large_piles(exposure: bool) -> None:
    ev = stand_in(3, hidden=24, exposure=exposure)
    from solver.play.simulate import sample_positions

    for pos in sample_positions(12, seed=11):
        plain = TurnSearch(Seats.of(pos), evaluator_leaves(ev), pos.pile())
        fast = CompiledSearch(Seats.of(pos), ev, pos.pile())
        for act, v in choices_of(plain, pos).items():
            assert choices_of(fast, pos)[act] == pytest.approx(v, abs=1e-12)


def test_the_compiled_network_equals_the_numpy_reference() -> None:
    ev = stand_in(5, hidden=20)
    rng = np.random.default_rng(0)
    for n in range(2, 6):
        x = rng.normal(0, 1, (50, feature_count(n)))
        ref = ev.chances(x, n)
        w1, b1, w2, b2 = ev.network(n)
        out = np.zeros(n)
        for row, want in zip(x, ref):
            kernel.chances_into(row, w1, b1, w2, b2, out)
            np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(ref.sum(axis=1), 1.0)


def test_features_read_the_table_as_a_player_would() -> None:
    # Three seats, seat 2 to play: seats come in turn order from it (2, 0, 1).
    pile = [c - k for c, k in zip(DECK_COPIES, counts([10, 10, 9, 2, 5, 7, 7, 3]))]
    lines = [counts([7, 7]), counts([3]), counts([])]
    x = features(np.array([pile]), np.array([lines]), np.array([[19, 2, 5]]), np.array([[2, 1, 1]]),
                 np.array([[0, 2, 1]]), np.array([2]), np.array([1]), 3)[0]
    assert len(x) == feature_count(3)
    totals = {0: 19 + 14, 1: 2 + 3, 2: 5}
    for place, seat in enumerate([2, 0, 1]):
        f = x[16 * place:16 * place + 16]
        loot = {0: (19, 2, 0), 1: (2, 1, 2), 2: (5, 1, 1)}[seat]
        line = lines[seat]
        best_other = max(t for s, t in totals.items() if s != seat)
        assert f[0] == pytest.approx(loot[0] / 100) and f[1] == pytest.approx(loot[1] / 30)
        assert f[2] == pytest.approx(loot[2] / 5)
        assert f[3] == pytest.approx(sum(v * c for v, c in zip(VALUES, line)) / 50)
        assert f[4] == pytest.approx(sum(line) / 10)
        assert f[5] == pytest.approx((totals[seat] - best_other) / 50)
        assert list(f[6:]) == pytest.approx([c / 3 for c in line])
    shared = x[48:]
    assert list(shared[:10]) == pytest.approx([c / 9 for c in pile])
    assert shared[10] == pytest.approx(sum(pile) / 90) and shared[11] == pytest.approx(
        sum(v * c for v, c in zip(VALUES, pile)) / 445)
    assert shared[12] == pytest.approx(2 / 4) and shared[13] == pytest.approx(1 / 6)
    # With the lines' exposure (a network trained with it): the same inputs, then two per seat, in turn order.
    wide = features(np.array([pile]), np.array([lines]), np.array([[19, 2, 5]]), np.array([[2, 1, 1]]),
                    np.array([[0, 2, 1]]), np.array([2]), np.array([1]), 3, exposure=True)[0]
    assert len(wide) == feature_count(3, True) == feature_count(3) + 6
    assert list(wide[:len(x)]) == list(x)
    left = sum(pile)
    for place, seat in enumerate([2, 0, 1]):
        held = [v for v, c in zip(VALUES, lines[seat]) if c]
        # the points the next card steals from the line, on average (in tens), and the chance it steals any
        steals = sum(lines[seat][v - 1] * v * pile[v - 1] for v in held) / left
        assert wide[len(x) + 2 * place] == pytest.approx(steals / 10)
        assert wide[len(x) + 2 * place + 1] == pytest.approx(sum(pile[v - 1] for v in held) / left)
    assert list(wide[len(x):len(x) + 2]) == [0.0, 0.0]  # seat 2, to play, has no line: nothing to steal


def test_brute_force_max_n_is_the_exact_win_for_two_players() -> None:
    # The brute force that measures the estimate's error agrees with the project's exact `win`.
    for k in range(5):
        game = small_game(2, 5, seed=900 + k)
        pos = position_of(game)
        exact = WIN.exact(pos)
        a = game.active
        want = maxn(game)[a]
        got = exact.steal.take if exact.steal and exact.steal.action is Action.STEAL else \
            exact.steal.decline if exact.steal else (exact.draw if exact.stop is None else max(exact.stop, exact.draw))
        assert got == want


def test_where_the_exact_win_answers_the_model_is_exactly_it() -> None:
    for k in range(6):
        pos = position_of(small_game(2, 6 + k % 4, seed=300 + k))
        assert WIN.exact_answers(pos)
        got, want = WIN.advise(pos, FLOAT), WIN.exact(pos, FLOAT)
        assert got.approximation is None and got.to_dict() == want.to_dict()


def test_elsewhere_the_model_says_it_is_an_estimate() -> None:
    pos = Position.from_dict({"players": [{"line": [6, 1]}, {"line": [5]}, {}], "active": 0})
    a = WIN.advise(pos, FLOAT)
    assert a.approximation == ESTIMATE and a.to_dict()["exact"] is False and WIN.approximation(pos) == ESTIMATE
    assert 0.0 <= float(a.stop) <= 1.0 and 0.0 <= float(a.draw) <= 1.0  # type: ignore[arg-type]


def test_the_shipped_weights_match_their_checksum() -> None:
    meta = json.loads((DATA / "evaluator.json").read_text())
    assert hashlib.sha256((DATA / "evaluator.npz").read_bytes()).hexdigest() == meta["sha256"]
    ev = load(DATA)
    assert sorted(ev.nets) == meta["players"] == [2, 3, 4, 5]
    # The command the error messages name (python -m solver train, its defaults) is the one that made this
    # file (today's code fits another of the same quality: docs/MODELS.md, "Rebuilding the shipped file").
    from dataclasses import asdict

    from solver.study.train import Settings

    assert meta["settings"] == json.loads(json.dumps(asdict(Settings())))
    # and the shipped README names that command, without --out (data/win is its default) or --players.
    from solver.study.train import _readme

    assert (DATA / "README.md").read_text(encoding="utf-8") == _readme(meta)
    assert "`python -m solver train --seed " in _readme(meta)


def test_missing_or_damaged_weights_are_refused_by_name(tmp_path: Path) -> None:
    empty = tmp_path / "none"
    empty.mkdir()
    with pytest.raises(WeightsError) as e:
        load(empty)
    assert "evaluator.npz" in str(e.value) and REBUILD in str(e.value)
    damaged = tmp_path / "damaged"
    shutil.copytree(DATA, damaged, ignore=shutil.ignore_patterns(".build", "README.md"))
    data = bytearray((damaged / "evaluator.npz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (damaged / "evaluator.npz").write_bytes(bytes(data))
    with pytest.raises(WeightsError) as e:
        load(damaged)
    assert str(damaged / "evaluator.npz") in str(e.value) and "checksum" in str(e.value) and REBUILD in str(e.value)
    (damaged / "evaluator.json").write_text("{not json")
    with pytest.raises(WeightsError) as e:
        load(damaged)
    assert "evaluator.json" in str(e.value) and REBUILD in str(e.value)


def test_before_a_matchs_last_round_the_next_round_is_valued() -> None:
    # R15: a round ends with more to come; the compiled search values the next round's start as the plain one.
    from solver.game.rules import MatchSoFar, Totals

    ev = stand_in(4)
    for players in (2, 3, 5):
        game = small_game(players, 4, seed=40 + players)
        pos = position_of(game)
        earlier = tuple(Totals(30 + 7 * s, 8 + s, s % 2) for s in range(players))
        pos = Position.build(pos.players, pos.active, pos.discard, pos.offer, match=MatchSoFar(2, 3, earlier))
        plain = choices_of(TurnSearch(Seats.of(pos), evaluator_leaves(ev), pos.pile()), pos)
        fast = choices_of(CompiledSearch(Seats.of(pos), ev, pos.pile()), pos)
        for act, v in plain.items():
            assert fast[act] == pytest.approx(v, abs=1e-12)
        last = Position.build(pos.players, pos.active, pos.discard, pos.offer, match=MatchSoFar(3, 3, earlier))
        assert choices_of(CompiledSearch(Seats.of(last), ev, last.pile()), last) != fast


def test_a_small_training_run_is_reproducible_bit_for_bit(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from solver.study.train import Settings, train

    settings = Settings(games=24, explore_games=12, self_play_games=2, rounds=1, self_play=(2, 3), epochs=2,
                        chunk=12, hidden=8, exposure=(3,))
    sums = [train(tmp_path / f"run{k}", settings, players=(2, 3), workers=1, log=lambda _: None, bar=False)["sha256"]
            for k in range(2)]
    assert sums[0] == sums[1]
    assert (tmp_path / "run0" / "evaluator.npz").read_bytes() == (tmp_path / "run1" / "evaluator.npz").read_bytes()
    assert hashlib.sha256((tmp_path / "run0" / "evaluator.npz").read_bytes()).hexdigest() == sums[0]
    meta = json.loads((tmp_path / "run0" / "evaluator.json").read_text())
    assert meta["features"]["2p"] == feature_count(2) and meta["features"]["3p"] == feature_count(3, True)
    assert not load(tmp_path / "run0").exposure(2) and load(tmp_path / "run0").exposure(3)
    # The folder's README names the command that made it: parsed as the command line parses it, it asks for
    # these very settings and table sizes.
    from solver.cli import parser

    said = re.search(r"`python -m solver (train [^`]*)`", (tmp_path / "run0" / "README.md").read_text())
    assert said is not None
    args = parser().parse_args(shlex.split(said.group(1)))
    asked = {k: getattr(args, k) for k in ("seed", "games", "explore_games", "self_play_games", "rounds",
                                            "self_play", "hidden", "epochs", "exposure", "chunk")}
    assert settings.held_out == Settings.held_out  # the one setting the command line does not offer
    assert asked == {k: v for k, v in json.loads(json.dumps(settings.__dict__)).items() if k != "held_out"}
    assert args.players == meta["players"] == [2, 3] and Path(args.out).resolve() == (tmp_path / "run0").resolve()
    for n in ("2p", "3p"):
        r0 = meta["rounds"][1][n]["held_out_r0"]  # round 0's held-out games, by round 1's network and round 0's
        assert r0["previous_log_loss"] == meta["rounds"][0][n]["held_out_r0"]["log_loss"]
        assert r0["gain"] == pytest.approx(r0["previous_log_loss"] - r0["log_loss"], abs=2e-5)
    other = train(tmp_path / "seed", Settings(**{**settings.__dict__, "seed": 7}), players=(2, 3), workers=1,
                  log=lambda _: None, bar=False)["sha256"]
    assert other != sums[0]


def test_a_size_out_of_the_self_play_rounds_keeps_round_0s_network(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from solver.study.train import Settings, train

    base = Settings(games=24, explore_games=12, self_play_games=3, rounds=0, self_play=(2, 3), epochs=2, chunk=12,
                    hidden=8, exposure=())
    train(tmp_path / "r0", base, players=(2, 3), workers=1, log=lambda _: None, bar=False)
    meta = train(tmp_path / "r1", Settings(**{**base.__dict__, "rounds": 1, "self_play": (3,)}), players=(2, 3),
                 workers=1, log=lambda _: None, bar=False)
    with np.load(tmp_path / "r0" / "evaluator.npz") as a, np.load(tmp_path / "r1" / "evaluator.npz") as b:
        assert sorted(a.files) == sorted(b.files)
        assert all(np.array_equal(a[k], b[k]) for k in a.files if k.startswith("2p/"))  # bit for bit
        assert not all(np.array_equal(a[k], b[k]) for k in a.files if k.startswith("3p/"))  # refitted
    assert "3p" in meta["rounds"][1] and "2p" not in meta["rounds"][1]  # only the size that played round 1
    assert {p.name.split("-")[3] for p in (tmp_path / "r1" / ".build").glob("games-*-r1-*.parquet")} == {"3p"}
    readme = (tmp_path / "r1" / "README.md").read_text()
    assert "--rounds 1 --self-play 3 --hidden" in readme  # the rebuild command names it


def test_games_played_by_other_code_are_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A resumed build once fitted games of code older than the rules' and bots' (docs/MODELS.md, "Rebuilding
    # the shipped file"): its chunks' names did not say what played them.
    pytest.importorskip("sklearn")
    from solver.play import tournament
    from solver.study.train import Settings, train

    settings = Settings(games=24, explore_games=12, rounds=0, epochs=2, chunk=12, hidden=8, exposure=())
    train(tmp_path, settings, players=(2,), workers=1, log=lambda _: None, bar=False)
    logs: list[str] = []
    train(tmp_path, settings, players=(2,), workers=1, log=logs.append, bar=False)
    assert any("resuming, 3 of 3 chunks already built" in m for m in logs), logs  # the same code: none again
    monkeypatch.setattr(tournament, "code_mark", lambda root=tournament.ROOT: "other00")
    logs.clear()
    train(tmp_path, settings, players=(2,), workers=1, log=logs.append, bar=False)
    assert not any("resuming" in m for m in logs), logs
    assert len(list((tmp_path / ".build").glob("games-*.parquet"))) == 6  # three by each code


def test_what_a_round_bought_is_the_paired_loss_difference_with_games_as_clusters() -> None:
    """``train``'s figure for a round: the old network's mean log loss minus the new one's on the same
    positions, and its standard error from per-game sums, checked against a plain loop."""
    from solver.study.train import gain

    class Fixed:
        """A stand-in evaluator: the same chances for every position."""

        def __init__(self, p: list[float]) -> None:
            self.p = np.array(p)

        def chances(self, x: np.ndarray, players: int) -> np.ndarray:
            return np.tile(self.p, (len(x), 1))

    x = np.zeros((7, 1))
    y = np.array([0, 1, 0, 0, 1, 0, 1])
    games = np.array([5, 5, 9, 9, 9, 2, 2])
    before, after = Fixed([0.5, 0.5]), Fixed([0.6, 0.4])
    d = [math.log(0.6 / 0.5) if w == 0 else math.log(0.4 / 0.5) for w in y]  # -log(before) - -log(after)
    mean = sum(d) / len(d)
    sums = {g: sum(v - mean for v, h in zip(d, games) if h == g) for g in set(games.tolist())}
    se = math.sqrt(sum(v * v for v in sums.values()) * 3 / 2) / len(d)
    got = gain(before, after, x, y, games, 2)  # type: ignore[arg-type]
    assert got is not None
    assert got[0] == pytest.approx(mean, abs=1e-12) and got[1] == pytest.approx(se, abs=1e-12)
    assert gain(before, before, x, y, games, 2) == (0.0, 0.0)  # type: ignore[arg-type]
    one = gain(before, after, x[:2], y[:2], games[:2], 2)  # type: ignore[arg-type]
    assert one is None  # one game: no spread to measure


STRENGTH = Path(__file__).resolve().parents[1] / "data" / "strength"


@pytest.mark.slow
def test_the_estimates_error_is_recomputed_within_the_published_figures() -> None:
    # The first positions of the published samples (bench.win_error's, fixed by their seeds), recomputed.
    import pandas as pd

    from bench.win_error import error_rows

    published = pd.read_csv(STRENGTH / "win_error.csv")
    for row in error_rows(12, 3):
        pub = published[(published["comparison"] == row["comparison"]) & (published["players"] == row["players"])]
        assert len(pub) == 1
        pub = pub.iloc[0]
        assert row["worst_abs_error"] <= pub["worst_abs_error"] + 1e-12  # a part of the sample: never worse
        assert row["mean_abs_error"] <= pub["worst_abs_error"] + 1e-12


@pytest.mark.slow
def test_the_calibration_is_recomputed_as_published() -> None:
    import pandas as pd

    from bench.win_error import calibration

    published = pd.read_csv(STRENGTH / "win_calibration.csv")
    games = int(published["games_played"].iloc[0])
    got = pd.DataFrame(calibration(games))
    pd.testing.assert_frame_equal(got, published, check_dtype=False, rtol=1e-9)


def test_the_win_bot_plays_the_models_choices() -> None:
    # The decisions of a three-player game, from 20 cards left: the bot's choice is the model's best.
    from solver.play.policies import make

    bot = make("win")
    game = Game(3, seed=12)
    turn = make("turn")
    while len(game.pile) > 20:
        game.apply(turn(game))
    bot.new_game(1)
    checked = 0
    while not game.is_over:
        if game.phase is Phase.MUST_DRAW or not game.pile:
            game.apply(bot(game))
            continue
        advice = WIN.advise(position_of(game), FLOAT)
        want = advice.steal.action if game.phase is Phase.STEAL and advice.steal else advice.action
        got = bot(game)
        assert got is want, (len(game.pile), game.phase)
        checked += 1
        game.apply(got)
    assert checked > 5


def test_the_command_line_names_a_missing_weights_file(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    position = tmp_path / "p.json"
    position.write_text('{"players": [{"line": [3]}, {}, {}], "active": 0}')
    done = subprocess.run([sys.executable, "-m", "solver", "advise", str(position), "--model", "win"],
                          capture_output=True, text=True, env={**os.environ, "HIT_WIN_WEIGHTS": str(tmp_path)},
                          check=False)
    assert done.returncode == 2 and not done.stdout
    assert str(tmp_path / "evaluator.npz") in done.stderr and REBUILD in done.stderr
    assert "Traceback" not in done.stderr


def test_the_leaf_bias_bench_plays_out_turn_ends_it_names() -> None:
    # bench.win_leaves: each row is a turn end of the size drawn to (or a bust), with a chance and a share.
    from bench.win_leaves import SIZES, leaf_rows

    rows = leaf_rows(3, 4, 3)
    assert len(rows) == 4
    for k, busted, chance, share in rows:
        assert k in SIZES and isinstance(busted, bool)
        assert 0.0 <= chance <= 1.0 and share * 3 in (0, 1, 2, 3)
    assert rows == leaf_rows(3, 4, 3)  # fixed by its seed


def test_the_plans_bench_plays_the_turn_as_the_win_bot_would_then_turn() -> None:
    # bench.win_plans: one search rooted at the turn start plays the seat's turn as a WinBot does (which searches
    # from its own first decision), and every later decision is `turn`'s; with `turn` for the turn, plain `turn`.
    from bench.win_plans import TurnGain, _play_out, clustered, measure, table, turn_gains
    from solver.models.evaluator import evaluator
    from solver.play.policies import Turn, WinBot

    turn = Turn()
    game = Game(3, seed=5)
    while game.active != 1 or game.phase is not Phase.MUST_DRAW or len(game.pile) > 80:
        game.apply(turn(game))
    position = position_of(game)
    search = CompiledSearch(Seats.of(position), evaluator(), position.pile())
    rng = random.Random(3)
    for _ in range(4):
        pile = list(game.pile)
        rng.shuffle(pile)
        bots = [turn, WinBot(), turn]
        g = Game.resume([Player(list(p.line), list(p.loot), p.lost_turns) for p in game.players], 1, pile,
                        list(game.discard))
        seen_other = False
        while not g.is_over:
            seen_other = seen_other or g.active != 1
            g.apply((turn if seen_other else bots[g.active])(g))
        assert _play_out(game, 1, pile, turn, search) == (g.winner() == 1)
        g = Game.resume([Player(list(p.line), list(p.loot), p.lost_turns) for p in game.players], 1, pile,
                        list(game.discard))
        while not g.is_over:
            g.apply(turn(g))
        assert _play_out(game, 1, pile, turn, None) == (g.winner() == 1)
    # measure: the shares are those of the two play-outs on the same shuffles, drawn from the rng in turn.
    by_win, by_turn, differ = measure(game, search, 4, random.Random(9), turn)
    again, piles = random.Random(9), []
    for _ in range(4):
        piles.append(list(game.pile))
        again.shuffle(piles[-1])
    w = [_play_out(game, 1, p, turn, search) for p in piles]
    t = [_play_out(game, 1, p, turn, None) for p in piles]
    assert (by_win, by_turn, differ) == (sum(w) / 4, sum(t) / 4, sum(a != b for a, b in zip(w, t)) / 4)
    rows = turn_gains(3, 1, 2)
    assert rows and all(isinstance(r, TurnGain) and r.game == 0 for r in rows)
    assert min(r.pile for r in rows) <= 10  # with three players the last cards are the estimate's too
    assert all(r.by_win * 2 in (0, 1, 2) and r.by_turn * 2 in (0, 1, 2) for r in rows)
    assert rows == turn_gains(3, 1, 2)  # fixed by its seed
    assert all(r.pile > 10 for r in turn_gains(2, 1, 1))  # two players' last ten are the exact endgame's
    assert table(rows)[-1].startswith(f"| all | {len(rows)} |")
    # The standard error takes a game's turn starts together: one game's rows alone give none.
    assert math.isnan(clustered(rows)[1]) and clustered(rows)[0] == pytest.approx(np.mean([r.gain for r in rows]))


def test_the_train_command_names_the_sizes_that_read_the_lines_exposure_or_play_on() -> None:
    from solver.cli import parser
    from solver.study.train import Settings

    assert parser().parse_args(["train"]).exposure == list(Settings.exposure) == [2, 4, 5]  # as shipped
    assert parser().parse_args(["train", "--exposure"]).exposure == []  # none
    assert parser().parse_args(["train", "--exposure", "3", "5"]).exposure == [3, 5]
    with pytest.raises(SystemExit):
        parser().parse_args(["train", "--exposure", "6"])  # no such table size
    assert parser().parse_args(["train"]).self_play == list(Settings.self_play) == [2, 3, 4, 5]
    assert parser().parse_args(["train", "--self-play", "3"]).self_play == [3]
    with pytest.raises(SystemExit):
        parser().parse_args(["train", "--self-play"])  # at least one size
    with pytest.raises(ValueError, match="some of 2 to 5"):
        Settings(self_play=())


def test_train_refuses_self_play_rounds_at_no_table_size_it_plays(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn")
    from solver.cli import main

    assert main(["train", "--players", "2", "--rounds", "1", "--self-play", "3", "--out", "unused"]) == 2
    assert "none of them is among --players" in capsys.readouterr().err


def test_a_lost_turns_effect_on_the_estimate_is_the_evaluators_own_answer() -> None:
    # bench.win_order's batch of changes, against the evaluator asked one table at a time through Table.
    from bench.win_order import changes, turn_starts
    from solver.models.evaluator import Table, evaluator

    ev = evaluator()
    for n in (2, 4):
        table = turn_starts(n, 1).head(6)
        got = changes(table, n)
        for i, row in enumerate(table.itertuples(index=False)):
            r = row._asdict()
            lines = tuple(tuple(r[f"line{s}_{v}"] for v in range(10)) for s in range(n))
            lost = [r[f"lost{s}"] for s in range(n)]

            def chance(lost_turns: list[int], seat: int) -> float:
                t = Table(tuple(r[f"pile{v}"] for v in range(10)), lines, tuple(r[f"points{s}"] for s in range(n)),
                          tuple(r[f"cards{s}"] for s in range(n)), tuple(lost_turns), r["to_play"], r["rounds_left"])
                p = ev.chances(t.features(ev.exposure(n))[None, :], n)[0]
                return float(p[(seat - r["to_play"]) % n])  # in turn order from the seat to play

            for s in range(n):
                more = [k + (j == s) for j, k in enumerate(lost)]
                assert got[i, s] == pytest.approx(chance(more, s) - chance(lost, s), abs=1e-12)


@pytest.mark.slow
def test_the_lost_turn_figures_in_models_md_are_recomputed() -> None:
    from bench.win_order import _listed, decided_by_lost_turns, lost_turn_effect, table

    text = (Path(__file__).resolve().parent.parent / "docs" / "MODELS.md").read_text(encoding="utf-8")
    assert "\n".join(table([lost_turn_effect(n, 100) for n in (2, 3, 4, 5)])) in text
    lost = _listed([decided_by_lost_turns(n, 1000) for n in (2, 3, 4, 5)])
    assert f"in {lost} of 1,000 `turn` games with 2, 3, 4 and 5 players" in " ".join(text.split())
