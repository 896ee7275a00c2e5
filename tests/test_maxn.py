"""The exact `win` with three to five players (max-n): its exact path against a brute force over the rules
engine (`bench.win_error.maxn`), and against the two-player exact `win`; the compiled path against the exact
one on random tables (steals on offer, lines of values gone from the pile, seats that can no longer win); the
model and the bot answering with it; its time limit and memory bound."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bench.win_error import _copy, maxn
from test_chances import small_game
from solver.game.cards import counts
from solver.game.position import Position
from solver.game.rules import Action, Game, MatchSoFar, Phase, Totals
from solver.models.advice import Budget, SlowModel, TooLarge
from solver.models.maxn import BEST, DRAW, MAX_CARDS, MAX_EXACT_CARDS, STOP, ExactMaxn, MaxnSolver, Table, chances, table_at
from solver.models.win import EXACT_PILES, WIN
from solver.play.simulate import position_of
from solver.utilities.numbers import EXACT, FLOAT


def brute_choices(game: Game) -> dict[Action, Fraction]:
    """Each action's chance for the seat to play, by the brute force over the rules engine."""
    memo: dict[tuple[object, ...], tuple[Fraction, ...]] = {}
    out = {}
    for act in game.legal_actions():
        g = _copy(game)
        if act is Action.DRAW:
            total = Fraction(0)
            for v, p in game.chance_outcomes():
                h = _copy(game)
                h.draw(v)
                total += p * maxn(h, memo)[game.active]
            out[act] = total
        else:
            g.apply(act)
            out[act] = maxn(g, memo)[game.active]
    return out


def model_choices(advice: object) -> dict[Action, object]:
    a = advice
    if a.steal is not None:  # type: ignore[attr-defined]
        return {Action.STEAL: a.steal.take, Action.DECLINE: a.steal.decline}  # type: ignore[attr-defined]
    return {Action.STOP: a.stop, Action.DRAW: a.draw}  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_model_is_the_brute_force_max_n_exactly(players: int) -> None:
    steals = 0
    for k in range(8):
        game = small_game(players, 3 + k % 3, seed=50 * players + k)
        steals += game.phase is Phase.STEAL
        pos = position_of(game)
        want = brute_choices(game)
        exact, fast = WIN.advise(pos, EXACT), WIN.advise(pos, FLOAT)
        assert exact.approximation is None and fast.approximation is None and WIN.approximation(pos) is None
        assert model_choices(exact) == want
        for act, v in model_choices(fast).items():
            assert v == pytest.approx(float(want[act]), abs=1e-12)
    assert steals, "no steal on offer among the positions: the test would not check one"


def test_two_players_max_n_is_the_exact_win() -> None:
    # The same recursion with two seats is the zero-sum `win` of solver.models.win, searched another way.
    for k in range(6):
        pos = position_of(small_game(2, 5 + k % 3, seed=700 + k))
        want = model_choices(WIN.exact(pos, EXACT))
        root = pos.turn_state()
        x = ExactMaxn(2)
        offer = pos.steal_on_offer()
        if offer is not None:
            got = {Action.STEAL: x.chances(table_at(pos, root.stolen(offer)))[pos.active],
                   Action.DECLINE: x.chances(table_at(pos, root))[pos.active]}
        else:
            got = {Action.STOP: x.chances(table_at(pos, root), STOP)[pos.active],
                   Action.DRAW: x.chances(table_at(pos, root), DRAW)[pos.active]}
        assert got == want


def random_table(rng: random.Random, players: int, pile: int) -> Table:
    """A table of cards dealt at random: lines of 0 to 4 cards (values shared between lines, so steals are on
    offer, and values the pile no longer holds), loots close together or far apart (seats out of the running)."""
    deck = [v for v in range(1, 11) for _ in range(11 if v <= 5 else 7)]
    rng.shuffle(deck)
    take = lambda k: [deck.pop() for _ in range(k)]  # noqa: E731
    p = take(pile)
    lines = [counts(take(rng.randint(0, 4))) for _ in range(players)]
    a = rng.randrange(players)
    spread = rng.choice([3, 15, 60])
    return Table(counts(p), a, tuple(lines), tuple(rng.randint(100, 100 + spread) for _ in range(players)),
                 tuple(rng.randint(10, 14) for _ in range(players)), tuple(rng.randint(0, 2) for _ in range(players)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_compiled_search_equals_the_exact_one(players: int) -> None:
    rng = random.Random(players)
    for k in range(12):
        t = random_table(rng, players, 3 + k % 4)
        exact = ExactMaxn(players)
        fast = MaxnSolver(players, sum(t.pile))
        for kind in (BEST, STOP, DRAW):
            if kind == STOP and not sum(t.lines[t.active]):  # a turn start: no stop before its first card (R4)
                with pytest.raises(ValueError, match="R4"):
                    fast.chances(t, kind)
                with pytest.raises(ValueError, match="R4"):
                    exact.chances(t, kind)
                continue
            want = exact.chances(t, kind)
            got = fast.chances(t, kind)
            assert got.tolist() == pytest.approx([float(x) for x in want], abs=1e-12)
            assert abs(sum(got) - 1.0) < 1e-12 and sum(want) == 1


def decision_tables(pos: Position) -> list[tuple[Table, int]]:
    """The tables and kinds the model asks about at a decision: each steal choice's best, or stop and draw."""
    root, offer = pos.turn_state(), pos.steal_on_offer()
    if offer is not None:
        return [(table_at(pos, root.stolen(offer)), BEST), (table_at(pos, root), BEST)]
    return [(table_at(pos, root), STOP), (table_at(pos, root), DRAW)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_one_search_answers_every_later_decision_of_the_game(players: int) -> None:
    # One solver asked at a game's decisions one after another (its memo grown from a tiny start, the states
    # solved so far moved along) answers as a fresh one and as the exact search at each: steals, stops, draws.
    game = close_game(players, 6, seed=players)
    shared = MaxnSolver(players, 6, start_log2=4)
    rng = random.Random(players)
    asked = set()
    while not game.is_over:
        if game.phase is not Phase.MUST_DRAW and game.pile:
            pos = position_of(game)
            exact = ExactMaxn(players)
            for t, kind in decision_tables(pos):
                got = shared.chances(t, kind)
                assert got.tolist() == MaxnSolver(players, len(game.pile)).chances(t, kind).tolist()
                assert got.tolist() == pytest.approx([float(x) for x in exact.chances(t, kind)], abs=1e-12)
                asked.add((game.phase, kind))
        game.apply(rng.choice(game.legal_actions()))
    assert shared.log2 > 4 and (Phase.CHOOSE, DRAW) in asked


def test_the_last_round_of_a_match_counts_the_earlier_rounds() -> None:
    # R15: the totals of the rounds before decide with this round's loots; before the last round no exact answer.
    game = small_game(3, 4, seed=11)
    pos = position_of(game)
    earlier = (Totals(60, 14, 0), Totals(40, 12, 1), Totals(58, 15, 0))
    last = Position.build(pos.players, pos.active, pos.discard, pos.offer, match=MatchSoFar(3, 3, earlier))
    t = table_at(last, last.turn_state())
    assert t.points == tuple(sum(p.loot) + e.points for p, e in zip(pos.players, earlier))
    assert t.cards == tuple(len(p.loot) + e.cards for p, e in zip(pos.players, earlier))
    assert t.lost == tuple(p.lost_turns + e.lost_turns for p, e in zip(pos.players, earlier))
    assert WIN.exact_answers(last) and WIN.advise(last, EXACT).approximation is None
    root, offer = last.turn_state(), last.steal_on_offer()
    points = [root] if offer is None else [root, root.stolen(offer)]
    assert max(model_choices(WIN.advise(last, EXACT)).values()) == max(chances(table_at(last, p))[last.active]
                                                                         for p in points)
    before = Position.build(pos.players, pos.active, pos.discard, pos.offer, match=MatchSoFar(2, 3, earlier))
    assert not WIN.exact_answers(before)
    with pytest.raises(TooLarge, match="last round"):
        WIN.exact(before, FLOAT)


def close_game(players: int, pile: int, seed: int) -> Game:
    """A game played by `turn` until ``pile`` cards are left, at a decision, its loots within 10 points (so
    that the game's end is not decided yet)."""
    from solver.play.policies import make

    rng = random.Random(seed)
    while True:
        game, bot = Game(players, seed=rng.randrange(2**63)), make("turn")
        while not game.is_over and len(game.pile) > pile:
            game.apply(bot(game))
        scores = [p.score for p in game.players]
        if not game.is_over and game.phase is not Phase.MUST_DRAW and max(scores) - min(scores) <= 10:
            return game


def test_the_exact_win_refuses_past_its_time_and_memory() -> None:
    game = close_game(3, 8, seed=5)
    pos = position_of(game)
    t = table_at(pos, pos.turn_state())
    with pytest.raises(SlowModel, match="ran out of time"):
        MaxnSolver(3, 8, Budget(0.0)).chances(t)
    with pytest.raises(TooLarge, match=f"up to {MAX_EXACT_CARDS} cards"):
        ExactMaxn(3).chances(t)  # exact fractions: 8 cards took two minutes and a gigabyte
    seven = position_of(close_game(3, MAX_EXACT_CARDS, seed=5))
    with pytest.raises(SlowModel, match="ran out of time"):
        ExactMaxn(3, Budget(0.0)).chances(table_at(seven, seven.turn_state()))
    with pytest.raises(TooLarge, match="needs more than"):
        MaxnSolver(3, 8, max_log2=10).chances(t)
    with pytest.raises(TooLarge, match=f"up to {MAX_CARDS} cards"):
        MaxnSolver(3, MAX_CARDS + 1)
    far = position_of(close_game(3, 20, seed=5))
    with pytest.raises(TooLarge, match=f"up to {MAX_CARDS} cards"):
        WIN.exact(far, FLOAT)
    # The time limit is the solver's whole life's: each question spends from the same work.
    solver = MaxnSolver(3, 8, Budget(0.001))
    with pytest.raises(SlowModel):
        for _ in range(1000):
            solver.chances(t, DRAW)
    # With a time limit the model answers with the estimate, and says so.
    a = WIN.advise(pos, FLOAT, Budget(0.0))
    assert a.approximation is not None


def test_the_exact_answers_reach_as_documented() -> None:
    for players, cards in EXACT_PILES.items():
        pos = position_of(small_game(players, cards, seed=players))
        assert pos.pile_size() == cards and WIN.exact_answers(pos) and WIN.approximation(pos) is None
        far = position_of(small_game(players, cards + 1, seed=players))
        assert not WIN.exact_answers(far) and WIN.approximation(far) is not None


def test_the_win_bot_plays_the_exact_max_n_at_a_games_end() -> None:
    from solver.play.policies import make

    bot = make("win")
    game = Game(3, seed=21)
    turn = make("turn")
    while len(game.pile) > EXACT_PILES[3] + 2:
        game.apply(turn(game))
    bot.new_game(1)
    while not game.is_over:
        if game.phase is not Phase.MUST_DRAW and game.pile:
            advice = WIN.advise(position_of(game), FLOAT)
            want = advice.steal.action if game.phase is Phase.STEAL and advice.steal else advice.action
            got = bot(game)
            assert got is want
        else:
            got = bot(game)
        game.apply(got)
    assert bot.exact > 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [3, 5])
def test_the_win_seats_of_a_game_share_one_search_and_play_as_alone(players: int) -> None:
    # share_endgame (tournaments, training, Practice): every `win` seat asks one max-n search; each plays
    # exactly as with its own, and the one search holds fewer states than theirs together.
    from solver.play.policies import WinBot, make, share_endgame

    def play(shared: bool) -> tuple[list[Action], list[WinBot], int]:
        game = Game(players, seed=40 + players)
        turn = make("turn")
        while len(game.pile) > EXACT_PILES[players] + 3:
            game.apply(turn(game))
        bots = [WinBot() for _ in range(players)]
        if shared:
            share_endgame([turn, *bots])
        for s, b in enumerate(bots):
            b.new_game(s)
        moves, states = [], 0
        while not game.is_over:
            if len(game.pile) == 1:  # the last card: the solvers are dropped once it is drawn; count them now
                states = sum({id(b.endgame): b.endgame.solver.states for b in bots
                              if b.endgame.solver is not None}.values())
            moves.append(bots[game.active](game))
            game.apply(moves[-1])
        return moves, bots, states

    alone, alone_bots, alone_states = play(False)
    together, bots, states = play(True)
    assert together == alone
    assert len({id(b.endgame) for b in bots}) == 1 and len({id(b.endgame) for b in alone_bots}) == players
    assert sum(b.exact for b in bots) == sum(b.exact for b in alone_bots) > 0
    assert 0 < states < alone_states, (states, alone_states)
