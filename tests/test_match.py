"""R15, the rounds variant, in positions and in `win`: in the last round of a match the chance to win counts
the earlier rounds' totals (points, then loot cards, then lost turns, then the lower seat, all added up).

The reference is the rules engine's own match: a :class:`~solver.game.rules.Match` whose first round is a finished
game holding the earlier loots, whose second is the round being played, ranked by :meth:`Match.winner`. The
totals the positions carry are added up here by hand from the same cards."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import _zero_sum_reference
from solver.models.advice import TooLarge
from solver.game.cards import DECK_COPIES, cards_of
from solver.play.entry import Draft
from solver.models import advise
from solver.game.position import PlayerView, Position, PositionError
from solver.game.rules import Action, Game, Match, MatchSoFar, Player, Totals
from solver.play.simulate import game_from_position, position_of


def table(pile: list[int], lines: tuple[list[int], list[int]], loots: tuple[list[int], list[int]],
          lost: tuple[int, int] = (0, 0), active: int = 0, match: MatchSoFar | None = None) -> Position:
    """A two-player position whose pile is exactly ``pile`` (every other card discarded)."""
    gone = cards_of(DECK_COPIES)
    for v in pile + lines[0] + lines[1] + loots[0] + loots[1]:
        gone.remove(v)
    players = tuple(PlayerView(tuple(line), tuple(loot), n) for line, loot, n in zip(lines, loots, lost))
    return Position.build(players, active, tuple(gone), match=match)


def by_hand(earlier: list[tuple[list[int], int]]) -> MatchSoFar:
    """Round 2 of 2, after a first round whose loots and lost turns were ``earlier`` (seat by seat)."""
    return MatchSoFar(2, 2, tuple(Totals(sum(loot), len(loot), lost) for loot, lost in earlier))


def match_chance(game: Game, earlier: list[tuple[list[int], int]], seat: int) -> Fraction:
    """The chance that ``seat`` wins the match from ``game`` (the last round, whoever is to play), by
    expectimax over the rules engine: the match's winner (R12 over the totals of both rounds, as
    :class:`Match` ranks them) values each finished round; each seat plays for its own win."""
    first = Game.resume([Player([], list(loot), lost) for loot, lost in earlier], 0, pile=[])
    assert first.is_over

    def won(g: Game) -> Fraction:
        m = Match(2, rounds=2, variant=True)
        m.games = [first, g]
        return Fraction(int(m.winner() == seat))

    if game.is_over:
        return won(game)
    if game.active == seat:
        return _zero_sum_reference(game, won)(game)
    return 1 - _zero_sum_reference(game, lambda g: 1 - won(g))(game)


def test_r15_the_earlier_rounds_decide_the_last_round():
    """R15: seat 0 must draw the last card, a 10. In this round alone it wins on points (25 + 10 against 30),
    and so `win` says without a match; with seat 1 ahead by 20 from round 1 it loses whatever happens; with
    seat 1 ahead by exactly 5, the match is level on points and decided on loot cards."""
    alone = table([10], ([], []), ([5, 10, 10], [10, 10, 10]))
    assert advise(alone, "win").draw == 1
    behind = by_hand([([10], 0), ([10, 10, 10], 0)])
    assert advise(table([10], ([], []), ([5, 10, 10], [10, 10, 10]), match=behind), "win").draw == 0
    # 35 + 10 = 45 and 30 + 15 = 45: level, then cards: seat 0 has 4 + 1, seat 1 has 3 + 3.
    level = by_hand([([10], 0), ([5, 5, 5], 0)])
    assert advise(table([10], ([], []), ([5, 10, 10], [10, 10, 10]), match=level), "win").draw == 0
    more_cards = by_hand([([1, 2, 2, 5, 5], 0), ([10, 5], 0)])  # level on points, seat 0 5 + 4 cards to 2 + 3
    assert advise(table([10], ([], []), ([5, 10, 10], [10, 10, 10]), match=more_cards), "win").draw == 1


def test_r15_lost_turns_and_the_seat_add_up_across_rounds():
    """Level on points and cards over both rounds: fewer lost turns in total wins, then the lower seat."""
    pos = table([10], ([], []), ([5, 5], [5, 5, 10]), lost=(1, 0))  # this round: seat 0 has one lost turn more
    assert advise(pos, "win").draw == 0
    fewer = by_hand([([], 0), ([], 2)])  # but seat 1 lost two turns in round 1: 1 against 2
    assert advise(table([10], ([], []), ([5, 5], [5, 5, 10]), lost=(1, 0), match=fewer), "win").draw == 1
    level = by_hand([([], 0), ([], 1)])  # 1 against 1: the lower seat, seat 0
    assert advise(table([10], ([], []), ([5, 5], [5, 5, 10]), lost=(1, 0), match=level), "win").draw == 1
    seat1 = table([10], ([], []), ([5, 5, 10], [5, 5]), lost=(0, 1), active=1, match=by_hand([([], 1), ([], 0)]))
    assert advise(seat1, "win").draw == 0  # seat 1 to play, all level: seat 0 wins


def _tiny_match(draw: st.DrawFn) -> tuple[Position, list[tuple[list[int], int]]]:
    """A random two-player last round with 1 to 4 cards in the pile, and a first round whose totals keep the
    match close (so that the earlier rounds can change the answer)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = cards_of(DECK_COPIES)
    rng.shuffle(deck)
    n = draw(st.integers(1, 4))
    pile, rest = deck[:n], deck[n:]
    lines: tuple[list[int], list[int]] = ([], [])
    for seat in (0, 1):
        for _ in range(draw(st.integers(0, 2))):
            lines[seat].append(rest.pop())
    loots: tuple[list[int], list[int]] = ([], [])
    for v in rest[: draw(st.integers(0, 16))]:
        loots[0 if sum(loots[0]) <= sum(loots[1]) else 1].append(v)
    lost = (draw(st.integers(0, 1)), draw(st.integers(0, 1)))
    old = cards_of(DECK_COPIES)  # round 1 had a deck of its own
    rng.shuffle(old)
    k = draw(st.integers(0, 30))
    earlier = [(old[:k // 2], draw(st.integers(0, 2))), (old[k // 2:k], draw(st.integers(0, 2)))]
    pos = table(pile, lines, loots, lost, active=draw(st.integers(0, 1)), match=by_hand(earlier))
    return pos, earlier


@settings(max_examples=40, deadline=None)
@given(st.composite(_tiny_match)())
def test_r15_win_equals_the_match_reference_on_tiny_tables(case):
    pos, earlier = case
    a = advise(pos, "win")
    best = a.draw if a.stop is None else max(a.draw, a.stop)
    assert best == match_chance(game_from_position(pos, seed=0), earlier, pos.active)
    if a.stop is not None:  # and stopping, against the same match after a stop
        stopped = game_from_position(pos, seed=0)
        stopped.apply(Action.STOP)
        assert a.stop == match_chance(stopped, earlier, pos.active)
    compiled = advise(pos, "win", exact=False)  # the compiled path carries the match too
    assert abs(float(compiled.draw) - float(a.draw)) < 1e-9


def test_r15_the_exact_win_refuses_before_the_last_round():
    from solver.models.win import ESTIMATE, WIN

    pos = table([10], ([], []), ([5], [5]), match=MatchSoFar(2, 3, (Totals(30, 8, 0), Totals(40, 9, 1))))
    with pytest.raises(TooLarge, match="last round of a match.*round 2 of 3"):
        WIN.exact(pos)
    assert advise(pos, "win").approximation == ESTIMATE  # the estimate knows the rounds to come
    assert advise(pos, "duel").draw == 10  # duel counts points still to bank: the match changes nothing


def test_a_match_game_tells_its_positions_the_totals_so_far():
    """R15 in the engine: each round of a variant match knows the totals of the rounds before it, and so do
    the positions taken from it (what the Live game, Practice and the bots hand the models)."""
    m = Match.variant_match(2, rounds=3, seed=11)
    policy = (lambda g: Action.STEAL if g.can_steal() else
              Action.DRAW if len(g.active_player.line) < 3 else Action.STOP)
    m.new_round().play(policy)
    m.new_round().play(policy)
    last = m.new_round()
    expected = tuple(Totals(sum(g.players[s].score for g in m.games[:2]),
                            sum(len(g.players[s].loot) for g in m.games[:2]),
                            sum(g.players[s].lost_turns for g in m.games[:2])) for s in range(2))
    assert last.match == MatchSoFar(3, 3, expected)
    assert position_of(last).match == MatchSoFar(3, 3, expected)
    assert m.games[0].match == MatchSoFar(1, 3, (Totals(), Totals()))
    assert Game(2, seed=1).match is None  # a one-round game has no match


def test_the_match_in_json_links_and_drafts():
    data = {"players": [{"loot": [5]}, {"loot": [7]}], "active": 1,
            "match": {"round": 3, "rounds": 3, "earlier": [{"points": 61, "cards": 15, "lost_turns": 1},
                                                            {"points": 58, "cards": 16}]}}
    pos = Position.from_dict(data)
    assert pos.match == MatchSoFar(3, 3, (Totals(61, 15, 1), Totals(58, 16, 0)))
    assert Position.from_json(pos.to_json()) == pos
    d = Draft.from_dict(data)
    assert d.position() == pos and Draft.from_query(d.to_query()).position() == pos
    d.set_players(3)  # a seat joins with no totals; the match stays
    assert d.match is not None and d.match.earlier[2] == Totals()
    assert d.undo() and d.position() == pos
    assert json.loads(pos.to_json())["match"]["earlier"][1] == {"points": 58, "cards": 16, "lost_turns": 0}


@pytest.mark.parametrize("match, message", [
    ({"round": 1, "rounds": 8, "earlier": [{}, {}]}, r"match\.rounds: the rounds variant has 2 to 7 rounds"),
    ({"round": 4, "rounds": 3, "earlier": [{}, {}]}, r"match\.round: 4 is not a round of 3"),
    ({"round": 2, "rounds": 3, "earlier": [{}]}, r"match\.earlier: 1 totals for 2 players"),
    ({"round": 2, "rounds": 3, "earlier": [{"points": -1}, {}]}, r"match\.earlier\[0\]\.points: -1 is negative"),
    ({"round": 2, "rounds": 3, "earlier": [{"points": 500, "cards": 90}, {}]}, r"more than 1 earlier round"),
    ({"round": 2, "rounds": 3, "earlier": [{}, {"points": 5, "cards": 6}]}, r"5 points cannot be 6 cards"),
    ({"round": 1, "rounds": 3, "earlier": [{"lost_turns": 1}, {}]}, r"round 1 has no earlier rounds"),
    ({"round": 2, "rounds": 3, "earlier": [{"score": 5}, {}]}, r"not a field of the match"),
    ({"round": 2, "rounds": 3, "earlier": 5}, r"match\.earlier: 5 is not a list of totals"),
    ({"round": "2", "rounds": 3, "earlier": [{}, {}]}, r"match\.round: '2' is not a whole number"),
])
def test_an_impossible_match_is_named(match, message):
    with pytest.raises(PositionError, match=message):
        Position.from_dict({"players": [{}, {}], "active": 0, "match": match})


def test_the_win_bot_plays_a_whole_match():
    """R15: before the last round `win` cannot answer, so the ``win`` bot plays `bank` there; in the last round
    it plays `win` with the match's totals. A whole two-round match of two ``win`` bots ends with a winner."""
    from solver.play.policies import make

    m = Match.variant_match(2, rounds=2, seed=5)
    bots = [make("win"), make("win")]
    for _ in range(2):
        game = m.new_round()
        while not game.is_over:
            game.apply(bots[game.active](game))
    assert m.winner() in (0, 1)


def test_r15_a_round_joined_under_way_keeps_its_match():
    """A table sent from the advisor with its match (round 2 of 2, seat 0 twenty behind), resumed in the rules
    engine, is still the last round of that match: win counts the earlier totals. A live game cannot follow it
    so (a record holds rounds from their first card, and its standings would leave out the totals its advice
    counted): it refuses the match, and the page follows the round as one game."""
    from solver.play.live import LiveGame
    from solver.play.store import GameStore

    behind = by_hand([([10, 10], 0), ([10, 10, 10, 10], 0)])
    pos = table([10], ([], []), ([5, 10, 10], [10, 10, 10]), match=behind)
    assert advise(pos, "win").draw == 0
    assert game_from_position(pos, seed=1).match == behind
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(Path(folder) / "games.sqlite")
        with pytest.raises(ValueError, match=r"later round of a match \(R15\) is followed as one game"):
            LiveGame.start(store, "joined", "live", ["Ann", "Bob"], 0, 1, start=pos)
        assert store.games() == []


@pytest.mark.parametrize("earlier, message", [
    ([{"points": 445, "cards": 90}, {"points": 445, "cards": 90}], r"890 points.*1 earlier round\(s\) deal 445"),
    ([{"points": 300, "cards": 80, "lost_turns": 3}, {}], r"92 cards banked or lost"),
])
def test_r15_the_earlier_rounds_add_up_across_seats(earlier, message):
    """A round deals 445 points in 90 cards, and each lost turn discards four cards or more (R5): the seats'
    earlier totals together cannot exceed what the earlier rounds dealt."""
    with pytest.raises(PositionError, match=message):
        Position.from_dict({"players": [{}, {}], "active": 0, "match": {"round": 2, "rounds": 2, "earlier": earlier}})
