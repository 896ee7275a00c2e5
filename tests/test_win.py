"""`win`: the exact chance to win against a naive expectimax over the rules engine, hand-worked
one-card piles for each of R12's tie-breaks, and simulation of both seats playing it; `duel` against
its own expectimax on the same random tiny tables."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import duel_reference, win_reference
from solver.models.advice import TooLarge
from solver.game.cards import DECK_COPIES, cards_of, counts
from solver.models import advise
from solver.game.position import PlayerView, Position
from solver.game.rules import Action
from solver.play.simulate import game_from_position
from solver.models.win import Standing, WinSolver, memo_key, wins


def table(pile: list[int], lines: tuple[list[int], list[int]], loots: tuple[list[int], list[int]],
          lost: tuple[int, int] = (0, 0), active: int = 0, offer: int | None = None) -> Position:
    """A two-player position whose pile is exactly ``pile``: every card not in a line or loot is discarded."""
    gone = cards_of(DECK_COPIES)
    for v in pile + lines[0] + lines[1] + loots[0] + loots[1]:
        gone.remove(v)
    players = tuple(PlayerView(tuple(line), tuple(loot), n) for line, loot, n in zip(lines, loots, lost))
    return Position.build(players, active, tuple(gone), offer)


def checked(pos: Position) -> None:
    """`win`'s values at the root equal the reference's: the best choice, and stop where it can."""
    a = advise(pos, "win")
    value = win_reference(game_from_position(pos, seed=0))
    game = game_from_position(pos, seed=0)
    if a.steal is not None:
        took, declined = game_from_position(pos, seed=0), game_from_position(pos, seed=0)
        took.apply(Action.STEAL)
        declined.apply(Action.DECLINE)
        assert (a.steal.take, a.steal.decline) == (value(took), value(declined))
        game = took if a.steal.take > a.steal.decline else declined
    if a.stop is not None:
        stopped = game_from_position(pos, seed=0)
        if a.steal is not None:
            stopped.apply(Action.STEAL if a.steal.take > a.steal.decline else Action.DECLINE)
        stopped.apply(Action.STOP)
        assert a.stop == value(stopped)
    assert (a.draw if a.stop is None else max(a.draw, a.stop)) == value(game)


# -- one card left (a 10), seat 0 must draw it: the totals tie on points, and R12 decides -------------------
@pytest.mark.parametrize("loots, lost, active, chance, because", [
    (([5, 5], [10, 10]), (0, 0), 0, 1, "more loot cards: 3 against 2"),
    (([5, 5], [5, 5, 5, 5]), (0, 0), 0, 0, "fewer loot cards: 3 against 4"),
    (([5, 5], [5, 5, 10]), (0, 1), 0, 1, "cards level, fewer lost turns"),
    (([5, 5], [5, 5, 10]), (1, 0), 0, 0, "cards level, more lost turns"),
    (([5, 5], [5, 5, 10]), (0, 0), 0, 1, "all level: the lower seat (seat 0) wins"),
    (([5, 5, 10], [5, 5]), (0, 0), 1, 0, "all level: seat 1 to play loses to seat 0"),
    (([5, 5], [5, 5, 9]), (3, 0), 0, 1, "ahead on points: lost turns do not matter"),
])
def test_the_last_card_and_each_tie_break(loots, lost, active, chance, because):
    pos = table([10], ([], []), loots, lost, active)
    a = advise(pos, "win")
    assert (a.stop, a.draw) == (None, chance), because
    checked(pos)


def test_two_cards_drawing_both_or_stopping():
    # Pile 9 and 10; seat 0 holds a 6 and is 12 behind. Drawing: no bust with two cards (R5), so it
    # draws on and banks 6 + 9 + 10 = 25 against 12: a win. Stopping after one hands the other card
    # to seat 1: 6 + x against 12 + y, at best 16 against 21: a loss.
    pos = table([9, 10], ([6], []), ([5, 5], [10, 10, 4]))
    a = advise(pos, "win")
    assert (a.stop, a.draw) == (0, 1)
    checked(pos)


def test_a_bust_on_the_last_card_counts_a_lost_turn():
    # Seat 0 holds 1 2 3, the last card is a 3; loots level (10 in two cards each), no lost turns.
    # Drawing busts (R5): the line is lost and a lost turn counted (R6) before the end (R9): level on
    # points and cards, and seat 0 has the more lost turns: a loss (without the lost turn, the lower
    # seat would win). Stopping loses too: seat 1 draws the 3 and steals seat 0's (R7), 16 against 13.
    pos = table([3], ([1, 2, 3], []), ([5, 5], [9, 1]))
    a = advise(pos, "win")
    assert (a.stop, a.draw) == (0, 0)
    checked(pos)


@pytest.mark.parametrize("active, chance", [(0, 1), (1, 0)])
def test_the_seat_tie_break_after_the_turn_passes(active, chance):
    # The seat to play holds a 4 with 16 in two loot cards; the other has 10 in two. Stopping hands the
    # last card (a 10) to the other: 20 in three cards each, no lost turns: the lower seat (seat 0) wins.
    loots = ([10, 6], [5, 5]) if active == 0 else ([5, 5], [10, 6])
    lines = ([4], []) if active == 0 else ([], [4])
    pos = table([10], lines, loots, active=active)
    a = advise(pos, "win")
    assert (a.stop, a.draw) == (chance, 1)
    checked(pos)


def test_a_steal_on_offer():
    pos = table([2, 8], ([6, 5], [5, 4]), ([7, 7], [9, 3, 4]), offer=5)
    a = advise(pos, "win")
    assert a.steal is not None
    checked(pos)


def _tiny_tables(draw: st.DrawFn) -> Position:
    """A random two-player table with 1 to 5 cards in the pile and loots that stay close."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = cards_of(DECK_COPIES)
    rng.shuffle(deck)
    n = draw(st.integers(1, 5))
    pile, rest = deck[:n], deck[n:]
    lines: tuple[list[int], list[int]] = ([], [])
    for seat in (0, 1):
        for _ in range(draw(st.integers(0, 3))):
            lines[seat].append(rest.pop())
        if len(set(lines[seat])) < len(lines[seat]) and len(lines[seat]) > 3:
            lines[seat].pop()
    loots: tuple[list[int], list[int]] = ([], [])
    for v in rest[: draw(st.integers(0, 30))]:  # loots within a card or two of each other
        loots[0 if sum(loots[0]) <= sum(loots[1]) else 1].append(v)
    lost = (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
    return table(pile, lines, loots, lost, active=draw(st.integers(0, 1)))


@settings(max_examples=40, deadline=None)
@given(st.composite(_tiny_tables)())
def test_win_equals_the_reference_on_tiny_tables(pos):
    checked(pos)


@settings(max_examples=30, deadline=None)
@given(st.composite(_tiny_tables)())
def test_duel_equals_the_reference_on_tiny_tables(pos):
    """`duel` (exact) on the same tiny tables, against an expectimax of the score difference."""
    a = advise(pos, "duel")
    value = duel_reference(game_from_position(pos, seed=0))
    game = game_from_position(pos, seed=0)
    if a.stop is not None:
        stopped = game_from_position(pos, seed=0)
        stopped.apply(Action.STOP)
        assert a.stop == value(stopped)
    assert (a.draw if a.stop is None else max(a.draw, a.stop)) == value(game)


def test_the_key_merges_only_what_cannot_change_the_result():
    pile = counts([10])
    line = counts([3])
    # 30 ahead with 13 points left to move: decided, whatever the cards and lost turns.
    assert memo_key(pile, line, counts([]), Standing(30, 5, 1, True)) == \
        memo_key(pile, line, counts([]), Standing(40, -5, 0, True))
    # 5 ahead is not decided: a different key from 6 ahead.
    assert memo_key(pile, line, counts([]), Standing(5, 0, 0, True)) != \
        memo_key(pile, line, counts([]), Standing(6, 0, 0, True))


def test_wins_follows_r11_then_r12():
    one = counts([1])
    assert wins(Standing(1, -9, 9, False), one, one)  # points first
    assert not wins(Standing(0, -1, -9, True), one, one)  # then cards
    assert wins(Standing(0, 0, -1, False), one, one)  # then fewer lost turns
    assert not wins(Standing(0, 0, 0, False), one, one)  # then the lower seat


def test_the_exact_win_refuses_what_it_cannot_do():
    from solver.models.win import ESTIMATE, WIN

    three = Position.build((PlayerView(), PlayerView(), PlayerView()), 0)
    with pytest.raises(TooLarge, match="with 3 players solves piles of up to"):  # a full deck: far too large
        WIN.exact(three)
    assert advise(three, "win").approximation == ESTIMATE  # the model answers, with the estimate
    with pytest.raises(TooLarge, match="piles of up to"):
        WinSolver(counts(cards_of(DECK_COPIES)))


@pytest.mark.parametrize("pos", [  # five-card piles whose result is in doubt (found by a random search)
    table([1, 2, 3, 4, 10], ([4, 2], [5, 10]), ([5, 2, 5, 4], [4, 3, 6, 1, 9]), lost=(1, 1), active=1),
    table([1, 1, 3, 5, 8], ([3], [5]), ([5, 2], [3, 4]), lost=(1, 0), active=1),
])
def test_both_seats_playing_win_win_as_often_as_it_says(pos):
    """Both seats play the ``win`` bot in the rules engine from ``pos``, the pile shuffled each game: the
    active seat's win rate is within the 99.9% interval of `win`'s exact chance."""
    from solver.play.policies import make

    a = advise(pos, "win")
    chance = a.draw if a.stop is None else max(a.draw, a.stop)
    runs, won = 400, 0
    for seed in range(runs):
        game = game_from_position(pos, seed=seed)
        bots = {0: make("win"), 1: make("win")}
        while not game.is_over:
            game.apply(bots[game.active](game))
        won += game.winner() == pos.active
    p = float(chance)
    assert 0 < p < 1  # a position whose result is in doubt, or the test says nothing
    assert abs(won / runs - p) <= 3.2905 * (p * (1 - p) / runs) ** 0.5, (won, runs, chance)
