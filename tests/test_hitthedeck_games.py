"""Whole hands and games of Hit the Deck: every card accounted for, bots, tournaments."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.hitthedeck.advice import advise
from solver.hitthedeck.bots import BOTS, AdvisorBot, HighestBot, FirstBot, make, play_game, play_round
from solver.hitthedeck.cards import COPIES, DECK_SIZE
from solver.hitthedeck.knowledge import Knowledge
from solver.hitthedeck.rules import Ended, Phase, Played, Round
from solver.hitthedeck.tournament import Z95, normal_interval, tournament, wilson

DECK = Counter(COPIES)


def conserved(r: Round) -> None:
    assert r.card_count() == DECK_SIZE
    assert all(r.hand(s) for s in range(r.players)) or r.is_over
    assert r.discard  # there is always a top card


def fully_conserved(r: Round) -> None:
    conserved(r)
    assert r.all_cards() == DECK


def test_two_thousand_random_hands_end_with_every_card_accounted_for():
    rng = random.Random(15)
    ends = Counter()
    for k in range(2000):
        players = 2 + k % 5
        r = Round(players, seed=k, dealer=k % players)
        bots = [make("random", seed=f"{k}/{s}") for s in range(players)]
        # forgotten calls and false slaps too, so every path of the engine is walked
        play_round(r, bots, rng, forget=0.2, false_slaps=0.02, check=fully_conserved if k % 20 == 0 else conserved)
        assert r.is_over and isinstance(r.log[-1], Ended)
        fully_conserved(r)
        if r.winner is not None:
            assert r.hand(r.winner) == () and r.points[r.winner] == 0
            assert isinstance(r.log[-2], Played) and r.log[-2].seat == r.winner
        assert r.points == tuple(sum(x.points for x in r.hand(s)) for s in range(players))
        ends[r.winner is None] += 1
    assert ends[False] > 1900  # nearly every hand ends with somebody out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), players=st.integers(2, 6), forget=st.sampled_from([0.0, 0.5]),
       false_slaps=st.sampled_from([0.0, 0.05]), bot=st.sampled_from(sorted(BOTS)))
def test_whole_games_to_100_conserve_cards_and_score_by_the_rules(seed, players, forget, false_slaps, bot):
    bots = [make(bot if s == 0 else "random", seed=f"{seed}/{s}") for s in range(players)]
    game = play_game(bots, seed=seed, forget=forget, false_slaps=false_slaps, check=conserved)
    assert game.is_over and max(game.totals) >= 100
    assert all(r.is_over and r.all_cards() == DECK for r in game.rounds)
    before = [sum(r.points[s] for r in game.rounds[:-1]) for s in range(players)]
    assert max(before, default=0) < 100  # it stopped at the first hand that reached 100
    assert game.winners() == tuple(s for s in range(players) if game.totals[s] == min(game.totals))


def test_bots_choose_legal_cards_and_the_advisor_bot_plays_the_advice():
    rng = random.Random(3)
    for k in range(40):
        r = Round(3, seed=100 + k)
        bots = [AdvisorBot(), HighestBot(), FirstBot()]
        while not r.is_over:
            if r.phase is Phase.SLAP:
                r.slap(rng.randrange(3))
            elif r.phase is Phase.DRAWN:
                r.play(r.drawn)
            elif r.legal_plays():
                bot = bots[r.turn]
                card = bot.choose(r)
                plays = r.legal_plays()
                assert card in plays
                if isinstance(bot, HighestBot):
                    assert card.points == max(p.points for p in plays)
                elif isinstance(bot, FirstBot):
                    assert card == next(x for x in r.hand(r.turn) if x in plays)
                else:
                    assert card == advise(Knowledge.of_round(r, r.turn)).play
                r.play(card)
            else:
                r.draw()


def test_make_names_the_bots():
    assert sorted(BOTS) == ["advisor", "first", "highest", "points", "random"]
    assert [make(n).name for n in sorted(BOTS)] == sorted(BOTS)
    try:
        make("genius")
    except ValueError as e:
        assert "no bot called 'genius'; the bots are advisor, first, highest, points, random" == str(e)
    else:
        raise AssertionError("make accepted an unknown bot")


def test_the_same_seed_plays_the_same_game():
    a = play_game([make("advisor"), make("random", seed=1)], seed=9)
    b = play_game([make("advisor"), make("random", seed=1)], seed=9)
    assert a.totals == b.totals and [r.log for r in a.rounds] == [r.log for r in b.rounds]


def test_wilson_bounds_solve_the_score_equation():
    # The Wilson interval is the set of p with |x/n - p| <= z sqrt(p (1 - p) / n): both bounds are roots.
    for wins, n in [(64, 100), (3, 40), (17.5, 30), (0, 12)]:
        low, high = wilson(wins, n)
        for p in (low, high):
            if 1e-9 < p < 1 - 1e-9:  # (0 and 1 are bounds, not roots)
                assert math.isclose(abs(wins / n - p), Z95 * math.sqrt(p * (1 - p) / n), rel_tol=1e-9)
        assert low - 1e-12 <= wins / n <= high + 1e-12
    assert wilson(0, 0) == (0.0, 1.0)


def test_normal_interval_is_mean_plus_minus_z_standard_errors():
    mean, low, high = normal_interval([1.0, 2.0, 3.0, 4.0])
    se = math.sqrt(sum((x - 2.5) ** 2 for x in [1, 2, 3, 4]) / 3) / 2
    assert mean == 2.5 and math.isclose(high - mean, Z95 * se) and math.isclose(mean - low, Z95 * se)


def test_tournament_rotates_the_tested_seat_over_the_same_deals_and_shares_ties():
    r = tournament(9, seed=4, tested="random", baseline="random", players=3)
    assert r.games == 9 and 0 <= r.wins <= 9 and r.hands > 9
    assert (r.win_low, r.win_high) == wilson(r.wins, 9)
    # games 0, 1 and 2 are one deal with the tested bot in seats 0, 1 and 2: the same first hand
    from solver.hitthedeck.rules import Game
    firsts = [Game(3, seed=f"4/{g // 3}").round.hand(0) for g in range(3)]
    assert firsts[0] == firsts[1] == firsts[2] != Game(3, seed="4/1").round.hand(0)
    again = tournament(9, seed=4, tested="random", baseline="random", players=3)
    assert again == r


def test_tournament_summary_names_its_intervals():
    r = tournament(3, seed=1, players=3)
    text = r.summary()
    assert "95% Wilson interval" in text and "95% normal interval" in text and "an equal player wins 33.3%" in text
    assert r.to_dict()["tested"] == "advisor" and r.to_dict()["baseline"] == "highest"
