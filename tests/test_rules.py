"""The rules engine, ruling by ruling (docs/RULES.md R1–R15)."""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from solver.game.cards import DECK_SIZE, DECK_TOTAL, VALUES
from solver.game.core import BUST_THRESHOLD, busts
from solver.game.rules import (
    Action,
    Busted,
    Collected,
    Declined,
    Drew,
    Ended,
    Game,
    IllegalActionError,
    Match,
    Phase,
    Player,
    Stole,
    Stopped,
    TimedOut,
)
from solver.play.simulate import threshold_policy


def steered(players, active, pile_top_first, discard=(), offer=None):
    """A game resumed mid-play whose pile, top card first, is ``pile_top_first``."""
    return Game.resume([Player(list(l), list(o), t) for l, o, t in players], active,
                       list(reversed(pile_top_first)), discard, offer)


def test_R1_deck_has_90_cards_of_value_445():
    game = Game(2, seed=1)
    c = Counter(game.pile)
    assert len(game.pile) == 90 and sum(game.pile) == DECK_TOTAL == 445
    assert all(c[v] == 11 for v in range(1, 6)) and all(c[v] == 7 for v in range(6, 11))


def test_R2_two_to_five_players_random_first():
    for n in (1, 6):
        with pytest.raises(ValueError, match="2 to 5 players"):
            Game(n, seed=0)
    firsts = Counter(Game(4, seed=s).active for s in range(400))
    assert set(firsts) == {0, 1, 2, 3}  # every seat starts sometimes
    assert min(firsts.values()) > 60  # and roughly evenly (expected 100 each)


def test_R3_line_goes_to_loot_at_turn_start():
    game = steered([([], [], 0), ([4, 5, 6], [1], 0)], 0, [7, 8])
    game.apply(Action.DRAW)
    game.apply(Action.STOP)
    assert game.active == 1
    assert game.players[1].line == [] and sorted(game.players[1].loot) == [1, 4, 5, 6]


def test_R4_at_least_one_card_then_choose():
    game = Game(3, seed=2)
    assert game.legal_actions() == [Action.DRAW]
    with pytest.raises(IllegalActionError, match="'stop' is not legal.*must draw"):
        game.apply(Action.STOP)
    game.apply(Action.DRAW)
    assert set(game.legal_actions()) in ({Action.DRAW, Action.STOP}, {Action.STEAL, Action.DECLINE})


def test_R5_bust_only_with_three_or_more_cards():
    # Two cards: a matching value joins.
    game = steered([([6, 1], [], 0), ([], [], 0)], 0, [6, 6, 2])
    game.apply(Action.DRAW)
    assert game.players[0].line == [6, 1, 6] and game.phase is Phase.CHOOSE
    # Three cards: a matching value busts.
    game.apply(Action.DRAW)
    assert isinstance(game.log[-1], Busted)


def test_R5_stolen_cards_count_toward_three():
    game = steered([([2], [], 0), ([7, 7], [], 0)], 0, [7, 2, 3])
    game.apply(Action.DRAW)  # a 7, two 7s on offer
    game.apply(Action.STEAL)
    assert game.players[0].line == [2, 7, 7, 7]
    game.apply(Action.DRAW)  # a 2: four cards now, bust
    assert isinstance(game.log[-1], Busted)


def test_R6_bust_discards_line_and_card_and_counts_lost_turn():
    game = steered([([3, 4, 5], [9], 0), ([3, 3], [], 0)], 0, [3, 1])
    game.apply(Action.DRAW)
    assert sorted(game.discard) == [3, 3, 4, 5]
    assert game.players[0].line == [] and game.players[0].loot == [9]  # loot safe
    assert game.players[0].lost_turns == 1
    # The busting 3 steals nothing: seat 1 still has its 3s, collected as its turn starts.
    assert game.active == 1 and game.players[1].loot == [3, 3]


def test_R7_steal_all_of_a_value_from_every_player_or_none():
    players = [([], [], 0), ([5, 5, 1], [], 0), ([5, 2], [], 0)]
    game = steered(players, 0, [5, 9])
    game.apply(Action.DRAW)
    assert game.phase is Phase.STEAL and game.offer == 5
    game.apply(Action.STEAL)
    assert game.players[0].line == [5, 5, 5, 5]
    assert game.players[1].line == [1] and game.players[2].line == [2]
    assert game.log[-1] == Stole(0, 5, 3, sources=((1, 2), (2, 1)))
    declined = steered(players, 0, [5, 9])
    declined.apply(Action.DRAW)
    declined.apply(Action.DECLINE)
    assert declined.players[0].line == [5] and declined.players[1].line == [5, 5, 1]


def test_R8_steal_decided_before_draw_or_stop():
    game = steered([([], [], 0), ([8], [], 0)], 0, [8, 9])
    game.apply(Action.DRAW)
    for action in (Action.DRAW, Action.STOP):
        with pytest.raises(IllegalActionError, match="phase 'steal'"):
            game.apply(action)


def test_R9_game_ends_on_last_card_after_its_steal():
    game = steered([([1, 2], [], 0), ([9], [4], 0)], 0, [9])
    game.apply(Action.DRAW)
    assert game.phase is Phase.STEAL  # the last card's steal still resolves
    game.apply(Action.STEAL)
    assert game.is_over
    assert sorted(game.players[0].loot) == [1, 2, 9, 9] and game.players[1].loot == [4]


def test_R9_last_card_bust_applies_R6_first():
    game = steered([([1, 2, 3], [], 0), ([9], [], 0)], 0, [2])
    game.apply(Action.DRAW)
    assert game.is_over and game.players[0].loot == [] and game.players[0].lost_turns == 1
    assert sorted(game.discard) == [1, 2, 2, 3] and game.players[1].loot == [9]


def test_R10_pile_composition_is_public_and_chance_is_exact():
    game = steered([([1], [2, 2], 0), ([3], [], 0)], 0, [4, 4, 5, 1])
    outcomes = game.chance_outcomes()
    assert outcomes == [(1, Fraction(1, 4)), (4, Fraction(1, 2)), (5, Fraction(1, 4))]
    assert sum(p for _, p in Game(5, seed=3).chance_outcomes()) == 1


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_R10_the_pile_is_the_deck_less_every_line_loot_and_discard(players, seed):
    # What the table shows (lines, loots, the discard) determines the pile's composition: at every decision
    # of a game, the position the solver reads has exactly the cards the engine's real pile holds.
    from solver.game.cards import counts
    from solver.play.policies import make
    from solver.play.simulate import position_of

    game, bot = Game(players, seed=seed), make("random")
    bot.new_game(seed)
    checked = 0
    while not game.is_over:
        if game.phase is not Phase.MUST_DRAW and game.pile:
            assert position_of(game).pile() == counts(game.pile)
            checked += 1
        game.apply(bot(game))
    assert checked > 20 and game.discard  # the discard had cards in it, so all three zones were counted


def test_R11_R12_scores_and_tie_breaks():
    # Equal scores: more loot cards wins, then fewer lost turns, then lower seat.
    a = steered([([], [10], 0), ([], [5, 5], 0)], 0, [])
    assert a.is_over and a.ranking() == [1, 0]
    b = steered([([], [5, 5], 2), ([], [5, 5], 1)], 0, [])
    assert b.ranking() == [1, 0]
    c = steered([([], [5, 5], 1), ([], [5, 5], 1), ([], [9, 1], 1)], 0, [])
    assert c.ranking() == [0, 1, 2] and c.winner() == 0
    d = steered([([], [1], 0), ([], [9], 5)], 0, [])
    assert d.winner() == 1  # R11: highest score first


def test_R13_beginner_chance():
    game = steered([([1, 2], [], 0), ([], [], 0)], 0, [3, 1, 2, 7, 8])
    assert game.bust_chance() == 0  # two cards: nothing can bust
    game.apply(Action.DRAW)  # a 3: three cards now
    assert game.bust_chance() == Fraction(2, 4)


def test_R14_timer_takes_offer_and_ends_turn():
    game = steered([([4], [], 0), ([6, 6], [], 0)], 0, [6, 1])
    game.apply(Action.DRAW)
    game.timeout()
    assert game.players[0].line == [4, 6, 6, 6] and game.active == 1
    # Before the first draw: one card is drawn for the player, steal taken, turn ends.
    game2 = steered([([], [], 0), ([2], [], 0)], 0, [2, 5])
    game2.timeout()
    assert game2.players[0].line == [2, 2] and game2.active == 1 and game2.phase is Phase.MUST_DRAW


def test_R15_rounds_variant():
    for bad in (0, 8):
        with pytest.raises(ValueError, match="2 to 7 rounds"):
            Match(3, rounds=bad, variant=True)
    assert Match.variant_match(3).rounds == 3  # 3 by default
    m = Match.variant_match(3, rounds=4, seed=9)
    m.play(threshold_policy(15))
    firsts = [g.log[0].player for g in m.games]  # who drew the first card
    assert firsts == [(m.first + r) % 3 for r in range(4)]
    totals = m.totals()
    for seat in range(3):
        assert totals[seat].score == sum(g.players[seat].score for g in m.games)
        assert totals[seat].lost_turns == sum(g.players[seat].lost_turns for g in m.games)
    assert m.winner() == m.ranking()[0]
    assert Match(2).rounds == 1 and not Match(2).variant  # without the variant: one round


def test_whole_games_conserve_cards():
    rng = random.Random(4)
    for _ in range(30):
        n = rng.randint(2, 5)
        game = Game(n, seed=rng.randrange(10**9))
        game.play(threshold_policy(rng.randint(5, 40)))
        assert sum(p.score for p in game.players) + sum(game.discard) == 445
        assert sum(len(p.loot) for p in game.players) + len(game.discard) == 90
        assert all(not p.line for p in game.players)


def test_illegal_actions_name_action_and_reason():
    game = Game(2, seed=5)
    with pytest.raises(IllegalActionError, match="'steal' is not legal for seat"):
        game.apply(Action.STEAL)
    with pytest.raises(IllegalActionError, match="only goes with 'draw'"):
        game.apply(Action.STOP, 3)
    with pytest.raises(ValueError):
        game.apply("jump")
    game.apply(Action.DRAW, 10)
    assert game.log[0].value == 10
    done = steered([([], [], 0), ([], [], 0)], 0, [])
    with pytest.raises(IllegalActionError, match="over"):
        done.timeout()


# -- the engine over the core, and its log ------------------------------------------


def test_R5_engine_bust_test_is_the_core_one():
    # No patching: play a 7 onto lines of every size, holding a 7 or not.
    for size in range(6):
        for held in (False, True):
            if held and not size:
                continue
            line = ([7] if held else []) + [1, 2, 3, 4, 5][: size - held]
            game = steered([(line, [], 0), ([], [], 0)], 0, [7, 7, 9])
            assert game.would_bust(7) is busts(size, held) is (held and size >= BUST_THRESHOLD)
            assert game.bust_chance() == (Fraction(2, 3) if busts(size, held) else 0)
            records = game.draw(7)
            assert any(isinstance(r, Busted) for r in records) is busts(size, held)
            assert (game.players[0].line == []) is busts(size, held)


def test_R7_steal_from_two_opponents_records_both_sources():
    game = steered([([3], [], 0), ([4, 4, 1], [], 0), ([2], [], 0), ([4], [], 0)], 0, [4, 9])
    game.draw()
    (stole,) = game.steal()
    assert stole == Stole(0, 4, 3, sources=((1, 2), (3, 1)))
    assert sum(k for _, k in stole.sources) == stole.taken == 3 and game.stealable(4) == 0
    assert game.players[0].line == [3, 4, 4, 4, 4]


def test_R7_decline_is_logged():
    game = steered([([3], [], 0), ([8, 8], [], 0)], 0, [8, 9])
    game.draw()
    assert game.decline() == (Declined(0, 8),)
    assert game.log == [Drew(0, 8), Declined(0, 8)]
    assert game.phase is Phase.CHOOSE and game.players[1].line == [8, 8]


def test_R3_R9_collections_are_logged_with_their_cards():
    game = steered([([], [2], 0), ([4, 5, 6], [1], 0), ([], [], 0)], 0, [8, 3, 7])
    assert game.draw() == (Drew(0, 8),)
    assert game.stop() == (Stopped(0, (8,)), Collected(1, (4, 5, 6)))  # R3
    game.draw()
    assert game.stop() == (Stopped(1, (3,)),)  # seat 2's line is empty: no record
    # R9: the last card, then every line with cards goes to its loot, then the end.
    assert game.draw() == (Drew(2, 7), Collected(0, (8,)), Collected(1, (3,)), Collected(2, (7,)),
                           Ended((10, 19, 7)))
    # A game dealt with a line to collect logs it first.
    dealt = Game(2, first=1, pile=[5, 6], players=[Player(), Player([9, 9])])
    assert dealt.log == [Collected(1, (9, 9))] and dealt.players[1].loot == [9, 9]


def test_R14_timeout_is_logged():
    game = steered([([4], [], 0), ([6, 6], [], 0)], 0, [6, 1])
    game.draw()
    assert game.timeout() == (TimedOut(0, Phase.STEAL), Stole(0, 6, 2, ((1, 2),)), Stopped(0, (4, 6, 6, 6)))
    before = steered([([], [], 0), ([2], [], 0)], 0, [5, 2, 1])
    assert before.timeout(2) == (TimedOut(0, Phase.MUST_DRAW), Drew(0, 2), Stole(0, 2, 1, ((1, 1),)),
                                 Stopped(0, (2, 2)))
    choose = steered([([1, 2, 3], [], 0), ([7], [], 0)], 0, [5])
    with pytest.raises(IllegalActionError, match="before the first draw"):
        choose.timeout(5)  # a chosen value only for the card the timer draws
    assert choose.timeout() == (TimedOut(0, Phase.CHOOSE), Stopped(0, (1, 2, 3)), Collected(1, (7,)))
    with pytest.raises(IllegalActionError, match="no card of value 9"):
        before.timeout(9)
    assert before.log[-1] == Stopped(0, (2, 2))  # a refused timeout logs nothing


def test_verify_gives_the_reason():
    game = steered([([], [], 0), ([], [], 0)], 0, [1, 2, 2])
    with pytest.raises(IllegalActionError,
                       match=re.escape("'steal' is not legal for seat 0 in phase 'must draw'; legal: ['draw']")):
        game.verify_steal()
    with pytest.raises(IllegalActionError, match="'stop' is not legal for seat 0 in phase 'must draw'"):
        game.verify_stop()
    with pytest.raises(IllegalActionError, match="'decline' is not legal for seat 0"):
        game.verify(Action.DECLINE)
    with pytest.raises(IllegalActionError, match=r"no card of value 7 is left in the pile; values left: \[1, 2\]"):
        game.verify_draw(7)
    with pytest.raises(IllegalActionError, match="only goes with 'draw'"):
        game.verify("stop", 2)
    with pytest.raises(ValueError, match="jump"):
        game.can_apply("jump")  # not an action at all: not a yes/no question
    assert game.can_draw() and game.can_draw(2) and not game.can_draw(7) and not game.can_stop()
    # An illegal action changes nothing.
    with pytest.raises(IllegalActionError):
        game.apply(Action.DRAW, 7)
    assert game.log == [] and game.pile == [2, 2, 1] and game.phase is Phase.MUST_DRAW
    done = steered([([], [], 0), ([], [], 0)], 0, [])
    assert not any(done.can_apply(a) for a in Action)
    with pytest.raises(IllegalActionError, match="in phase 'over'; legal: \\[\\]"):
        done.verify_draw()


def _refusal(verify, *args) -> str | None:
    """The reason ``verify(*args)`` gives for refusing, or None if it passes."""
    try:
        verify(*args)
    except IllegalActionError as e:
        return str(e)
    return None


def _check_faces(game: Game, rng: random.Random) -> None:
    """Each action's can_/verify_ faces and the generic ones agree with legal_actions()."""
    legal = game.legal_actions()
    for a in Action:
        can = a in legal
        assert game.can_apply(a) is can and getattr(game, f"can_{a.value}")() is can
        why = None if can else (f"{a.value!r} is not legal for seat {game.active} in phase "
                                f"{game.phase.value!r}; legal: {[x.value for x in legal]}")
        assert _refusal(game.verify, a) == _refusal(getattr(game, f"verify_{a.value}")) == why
        if a is not Action.DRAW:
            assert not game.can_apply(a, 1)
    pile = set(game.pile)
    assert [game.can_draw(v) for v in VALUES] == [Action.DRAW in legal and v in pile for v in VALUES]
    v = rng.choice(VALUES)  # every face of a chosen draw, for one value
    can = Action.DRAW in legal and v in pile
    assert game.can_apply(Action.DRAW, v) is can and (_refusal(game.verify_draw, v) is None) is can
    if Action.DRAW in legal and not can:
        assert f"no card of value {v} is left in the pile" in (_refusal(game.verify, Action.DRAW, v) or "")


def test_faces_agree_with_legal_actions_and_apply_returns_its_records_on_random_play():
    master = random.Random(20240611)
    for _ in range(300):
        seed = master.randrange(2**32)
        rng = random.Random(seed)
        game = Game(rng.randint(2, 5), seed=seed)
        while True:
            _check_faces(game, rng)
            if game.is_over:
                break
            start, last = len(game.log), game.log[-1] if game.log else None
            if rng.random() < 0.03:
                records = game.timeout()
                assert isinstance(records[0], TimedOut)
            else:
                action = rng.choice(game.legal_actions())
                value = rng.choice(game.pile) if action is Action.DRAW and rng.random() < 0.5 else None
                records = game.apply(action, value)
                if value is not None:
                    assert records[0] == Drew(records[0].player, value)
            assert records and records == tuple(game.log[start:]), seed
            assert (game.log[start - 1] if start else None) is last, seed  # the log only grows
            held = [(len(p.line) + len(p.loot), sum(p.line) + p.score) for p in game.players]
            assert len(game.pile) + len(game.discard) + sum(n for n, _ in held) == DECK_SIZE, seed
            assert sum(game.pile) + sum(game.discard) + sum(t for _, t in held) == DECK_TOTAL, seed
            assert game.phase is not Phase.STEAL or game.stealable(game.offer or 0) > 0
        # Replaying the log accounts for every card that left the pile.
        loot: list[list[int]] = [[] for _ in game.players]
        discard: list[int] = []
        for r in game.log:
            if isinstance(r, Collected):
                loot[r.player] += r.cards
            elif isinstance(r, Busted):
                discard += [*r.lost, r.value]
            elif isinstance(r, Stole):
                assert r.taken == sum(k for _, k in r.sources) > 0 and all(s != r.player for s, _ in r.sources)
        assert [sorted(x) for x in loot] == [sorted(p.loot) for p in game.players], seed
        assert sorted(discard) == sorted(game.discard), seed
        assert isinstance(game.log[-1], Ended) and sum(isinstance(r, Ended) for r in game.log) == 1
