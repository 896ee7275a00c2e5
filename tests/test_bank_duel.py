"""`bank` and `duel` against naive references over the rules engine, simulation and hand values."""

from __future__ import annotations

import json
import math
import random
import statistics
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from reference import bank_reference, duel_reference
from solver.advice import advise
from solver.bank import APPROXIMATION, BankSolver
from solver.cards import DECK_COPIES, cards_of, counts
from solver.duel import DuelTooLarge
from solver.position import PlayerView, Position
from solver.rules import Action
from solver.simulate import TurnPolicy, game_from_position, play_turn

ROOT = Path(__file__).resolve().parent.parent


def table(pile_cards, lines, active=0, offer=None):
    """A position whose pile is exactly ``pile_cards``; all other cards are in seat 0's loot."""
    used = counts(list(pile_cards) + [c for line in lines for c in line])
    loot = cards_of(tuple(d - u for d, u in zip(DECK_COPIES, used)))
    players = [PlayerView(tuple(line)) for line in lines]
    players[0] = PlayerView(tuple(lines[0]), tuple(loot))
    return Position.build(players, active, (), offer)


def game_of(pos):
    # Every order of the pile is equally likely; the reference only uses steered draws.
    return game_from_position(pos, seed=0)


SMALL_TWO = [
    ((1, 9), ([1, 2, 3], [])),
    ((2, 5, 9, 9), ([9, 4, 1], [2, 2])),
    ((3, 6, 6, 8, 10), ([6], [8, 10])),
    ((1, 2, 3, 4, 5), ([5, 7, 7], [3, 9])),
]


@pytest.mark.parametrize("pile_cards, lines", SMALL_TWO)
def test_bank_two_players_equals_reference(pile_cards, lines):
    pos = table(pile_cards, lines)
    value, draw = bank_reference(game_of(pos), TurnPolicy(exact=True))
    stopped = game_of(pos)
    stopped.apply(Action.STOP)
    a = advise(pos, "bank", exact=True)
    assert a.approximation is None
    assert a.stop == value(stopped)
    assert a.draw == draw(game_of(pos))


def test_bank_steal_on_offer_equals_reference():
    pos = table((2, 5, 9), ([4, 1, 8], [8, 8, 3]), offer=8)
    value, _ = bank_reference(game_of(pos), TurnPolicy(exact=True))
    take, decline = game_of(pos), game_of(pos)
    take.apply(Action.STEAL)
    decline.apply(Action.DECLINE)
    a = advise(pos, "bank", exact=True)
    assert (a.steal.take, a.steal.decline) == (value(take), value(decline))


@pytest.mark.parametrize("pile_cards, lines", SMALL_TWO[1:])
def test_bank_float_equals_exact(pile_cards, lines):
    pos = table(pile_cards, lines)
    exact, fast = advise(pos, "bank", exact=True), advise(pos, "bank", exact=False)
    assert fast.stop == pytest.approx(float(exact.stop), rel=1e-12)
    assert fast.draw == pytest.approx(float(exact.draw), rel=1e-12)


def test_bank_float_equals_exact_with_three_players():
    pos = table((2, 5, 9, 9, 1), ([9, 4, 1], [2, 2], [5]))
    exact, fast = advise(pos, "bank", exact=True), advise(pos, "bank", exact=False)
    assert exact.approximation == fast.approximation == APPROXIMATION
    assert fast.stop == pytest.approx(float(exact.stop), rel=1e-12)
    assert fast.draw == pytest.approx(float(exact.draw), rel=1e-12)


def _simulated_stop(pos, runs, seed):
    """Simulate the definition of a bank stop: the active player stops; every other player
    plays one `turn`-optimal turn in the rules engine; what is left of its line reaches its loot."""
    rng = random.Random(seed)
    seat = pos.active
    kept = []
    policies = {}
    for _ in range(runs):
        game = game_from_position(pos, rng.randrange(2**63))
        before = game.players[seat].score
        game.apply(Action.STOP)
        while not game.is_over and game.active != seat:
            policies.setdefault(game.active, TurnPolicy())
            play_turn(game, policies[game.active])
        kept.append(game.players[seat].score - before)
    return statistics.fmean(kept), statistics.stdev(kept) / math.sqrt(runs)


def test_bank_two_players_matches_simulation():
    pos = Position.from_dict({"players": [{"line": [9, 9, 7, 2], "loot": [1, 1, 3]}, {"line": [4]}],
                              "active": 0, "discard": [10, 10]})
    exact = advise(pos, "bank", exact=False).stop
    mean, se = _simulated_stop(pos, 3000, 1)
    assert abs(mean - exact) <= 3.2905 * se  # 99.9% interval


def test_bank_three_players_approximation_error_is_small():
    # The approximation's error against a simulation of the exact definition,
    # on one mid-game three-player position; the README reports it on more.
    pos = Position.from_dict({"players": [{"line": [9, 9, 7, 2]}, {"line": [4, 4]}, {"line": [9, 1, 3]}],
                              "active": 0, "discard": [10, 10, 5]})
    approx = advise(pos, "bank", exact=False).stop
    mean, se = _simulated_stop(pos, 1500, 2)
    assert abs(mean - approx) <= 3.2905 * se + 1.0  # 99.9% interval plus one point of approximation


def test_duel_hand_computed_piles():
    # One card (a 10) left, my line 4: drawing banks 14 now; stopping hands the 10 to the opponent.
    one = table((10,), ([4], []))
    a = advise(one, "duel")
    assert (a.draw, a.stop) == (14, -6)
    # Two cards {1, 9}, my line 1 2 3 (worked by hand in the docs of this test): stop -6, draw 3/2.
    two = table((1, 9), ([1, 2, 3], []))
    a = advise(two, "duel")
    assert (a.stop, a.draw) == (-6, Fraction(3, 2))


@pytest.mark.parametrize("pile_cards, lines", SMALL_TWO + [((4, 4, 7), ([4, 2], [7, 7])),
                                                            ((1, 3, 3, 5, 10), ([], [10, 5, 1]))])
def test_duel_equals_reference(pile_cards, lines):
    pos = table(pile_cards, lines)
    a = advise(pos, "duel")
    value = duel_reference(game_of(pos))
    g = game_of(pos)
    if a.stop is not None:
        stopped = game_of(pos)
        stopped.apply(Action.STOP)
        assert a.stop == value(stopped)
    best = a.draw if a.stop is None else max(a.draw, a.stop)
    assert best == value(g)


def test_duel_refuses_what_it_cannot_do():
    fresh = Position.build((PlayerView(), PlayerView()), 0)
    with pytest.raises(DuelTooLarge, match="piles of up to 12 cards exactly; this pile has 90"):
        advise(fresh, "duel")
    three = table((1, 2), ([3], [4], [5]))
    with pytest.raises(DuelTooLarge, match="two-player model"):
        advise(three, "duel")


def test_cli_models_and_refusals():
    pos = table((2, 5, 9, 9), ([9, 4, 1], [2, 2]))
    three = table((1, 2, 5, 6), ([3, 6], [4], [5]))
    text = pos.to_json() + "\n" + three.to_json() + "\n"
    for model in ("bank", "duel"):
        done = subprocess.run([sys.executable, "-m", "solver", "advise", "-", "--model", model, "--exact"],
                              input=text, capture_output=True, text=True, cwd=ROOT, check=False)
        first, second = [json.loads(x) for x in done.stdout.splitlines()]
        assert first["model"] == model and first["action"] in ("stop", "draw") and "approximation" in first
        assert Fraction(first["draw"]) == advise(pos, model).draw
        if model == "duel":
            assert done.returncode == 1 and "two-player model" in second["error"]
        else:
            assert done.returncode == 0 and second["approximation"] == APPROXIMATION


def test_bank_solver_is_reusable():
    pos = table((2, 5, 9, 9), ([9, 4, 1], [2, 2]))
    b = BankSolver(pos)
    assert b.stop_value() <= sum(pos.line)


def _random_table(rng: random.Random, players: int, pile_size: int):
    deck = cards_of(DECK_COPIES)
    rng.shuffle(deck)
    pile, rest = deck[:pile_size], deck[pile_size:]
    lines = [rest[3 * k: 3 * k + rng.randint(0, 3)] for k in range(players)]
    return table(pile, lines)


@pytest.mark.parametrize("seed", range(6))
def test_random_small_tables_fast_and_reference_paths_agree(seed):
    rng = random.Random(seed)
    two = _random_table(rng, 2, rng.randint(2, 4))
    value = duel_reference(game_of(two))
    d = advise(two, "duel")
    assert (d.draw if d.stop is None else max(d.draw, d.stop)) == value(game_of(two))
    bank_value, bank_draw = bank_reference(game_of(two), TurnPolicy(exact=True))
    b = advise(two, "bank", exact=True)
    assert b.draw == bank_draw(game_of(two))
    assert advise(two, "bank", exact=False).draw == pytest.approx(float(b.draw), rel=1e-12)
    three = _random_table(rng, 3, rng.randint(2, 5))
    exact, fast = advise(three, "bank", exact=True), advise(three, "bank", exact=False)
    assert fast.draw == pytest.approx(float(exact.draw), rel=1e-12)


def test_cli_time_limit_for_bank():
    fresh = Position.build((PlayerView(), PlayerView(), PlayerView()), 0)
    done = subprocess.run([sys.executable, "-m", "solver", "advise", "-", "--model", "bank", "--time-limit", "0.5"],
                          input=fresh.to_json(), capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "bank needs more than 0.5 s" in json.loads(done.stdout)["error"]


def test_bank_budget_gives_a_clear_refusal():
    from solver.bank import BankTooSlow

    fresh = Position.build((PlayerView(), PlayerView()), 0)
    with pytest.raises(BankTooSlow, match=r"bank needs more than 0.01 s for this position \(90 cards in the pile, "
                                          r"2 players\); the command line has no time limit"):
        advise(fresh, "bank", exact=False, budget=0.01)


def test_duel_steal_on_offer_equals_reference():
    pos = table((2, 5, 9), ([4, 1, 8], [8, 8, 3]), offer=8)
    value = duel_reference(game_of(pos))
    take, decline = game_of(pos), game_of(pos)
    take.apply(Action.STEAL)
    decline.apply(Action.DECLINE)
    a = advise(pos, "duel")
    assert (a.steal.take, a.steal.decline) == (value(take), value(decline))
