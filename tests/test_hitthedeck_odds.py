"""The exact odds and the advice (docs/HITTHEDECK.md H13, H14): against hand counts, brute-force
enumeration of every deal of small unseen sets, and simulation in the rules engine."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hitthedeck_helpers import c, cs, table
from solver.hitthedeck.advice import Objective, advise, chance_text, rank
from solver.hitthedeck.cards import COPIES, Kind, deck
from solver.hitthedeck.knowledge import Knowledge, KnowledgeError
from solver.hitthedeck.matching import fits
from solver.hitthedeck.odds import chance_holds, odds
from solver.hitthedeck.rules import Flipped, Phase, Reshuffled, Round, TurnedUp

#: Two-sided 99.9% normal quantile: the simulation tests fail by chance once in a thousand runs at most
#: (they are seeded, so a given run either always passes or always fails).
Z999 = 3.2905267314918945


def know(hand, top, discard=(), opponents=(7,)):
    return Knowledge.build(cs(*hand), c(top), cs(*discard), opponents)


def wilson(hits, n, z=Z999):
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# -- H13: what is unseen ----------------------------------------------------------------
def test_h13_the_unseen_cards_are_the_deck_minus_hand_top_and_known_discard():
    k = know(["red 5", "red 5", "hit hand"], "red 2", ["red 5", "blue 2"], (6, 4))
    unseen = k.unseen()
    assert k.unseen_count == 110 - 3 - 1 - 2 == sum(unseen.values())
    assert unseen[c("red 5")] == 1 and unseen[c("hit hand")] == 3 and unseen[c("red 2")] == 3
    assert unseen[c("blue 2")] == 3 and unseen[c("green 2")] == 4 and c("yellow 1") in unseen
    assert sum(unseen.values()) + 6 == sum(COPIES.values())


def test_h13_the_knowledge_of_a_seat_in_the_engine_forgets_flipped_and_reshuffled_cards():
    r = table([["red flip", "red 2"], ["blue 1", "blue 2"], ["blue 3"]], draw=["green 1", "green 2", "green 3"],
              discard=["blue 4", "red 5"])
    assert Knowledge.of_round(r, 0).discard == cs("blue 4")
    r.play(c("red flip"))
    k = Knowledge.of_round(r, 0)
    assert k.top == c("green 1") and k.discard == () and k.opponents == (1, 2)  # play now goes 0 -> 2 -> 1
    r = table([["blue 4"], ["green 1"]], draw=[], discard=["yellow 1", "green 5", "red 5"])
    r.draw()
    assert Reshuffled(2) in r.log and Knowledge.of_round(r, 1).discard == ()


def test_h13_the_advisor_infers_nothing_from_what_it_saw_players_do():
    # Seat 1 drew and passed on the red 3 (so it holds no red, no 3 and no Hit the Deck card), yet
    # the knowledge is the same as on a table where it never had to draw.
    r = table([["red 3", "blue 1"], ["green 1"], ["yellow 3", "yellow 1"]], draw=["green 2"],
              discard=["green 4", "red 5"])
    r.play(c("red 3"))
    r.draw()  # seat 1 draws the green 2, which does not fit the red 3 either
    r.play(c("yellow 3"))
    after = Knowledge.of_round(r, 0)
    fresh = Knowledge.build(cs("blue 1"), c("yellow 3"), cs("green 4", "red 5", "red 3"), (2, 1))
    assert after == fresh
    assert odds(after) == odds(fresh)


def test_h13_opponents_holding_every_unseen_card_leave_only_the_known_discard_to_draw():
    # every card but seven is in view; the opponent holds the seven: the next draw is the discard reshuffled
    rest = Counter(COPIES)
    hand = cs("red 1", "red 1")
    top = c("blue 5")
    unseen = cs("green 1", "green 2", "green 3", "green 4", "yellow 1", "yellow 2", "yellow 3")
    for x in hand + (top,) + unseen:
        rest[x] -= 1
    discard = tuple(rest.elements())
    k = Knowledge.build(hand, top, discard, (7,))
    o = odds(k)
    assert o.unseen == 7 and o.draw_playable == Fraction(sum(fits(x, top) for x in discard), len(discard))


# -- hand counts --------------------------------------------------------------------------
def test_followers_counted_by_hand_on_a_fresh_deal():
    k = know(["red 5", "red 1", "blue 1", "hit 3", "green cut", "hit hand", "yellow 2"], "red 2", opponents=(7, 7))
    o = odds(k)
    by = {str(p.card): p for p in o.plays}
    assert sorted(by) == ["hit 3", "hit hand", "red 1", "red 5", "yellow 2"]  # blue 1, green cut: no red, no 2
    u = 110 - 8
    assert o.unseen == u
    # on a red 5: red cards (23 less red 5, red 1, red 2), other 5s (12), Hit the Deck cards (18 less 2 held)
    assert by["red 5"].followers == 20 + 12 + 16
    # on a red 1: red (20), other 1s (12 less the blue 1 held), Hit the Deck (16)
    assert by["red 1"].followers == 20 + 11 + 16
    # on a yellow 2: yellow (22), other 2s (12 less the red 2 on top), Hit the Deck (16)
    assert by["yellow 2"].followers == 22 + 11 + 16
    assert by["hit 3"].followers == 16  # the number cards 3: four colours, four each
    assert by["hit hand"].followers == u  # anything goes
    for p in o.plays:
        no = Fraction(math.comb(u - p.followers, 7), math.comb(u, 7))
        assert p.follow == (1 - no, 1 - no) and p.next_follows == 1 - no
    # the next draw: red (20), other 2s (12 less the yellow 2), Hit the Deck (16)
    assert o.draw_playable == Fraction(20 + 11 + 16, u)
    unseen_points = 540 - (5 + 1 + 1 + 10 + 10 + 10 + 2) - 2
    assert o.opponent_points == (Fraction(7 * unseen_points, u),) * 2 and o.hand_points == 39


def test_chance_holds_is_the_hypergeometric_complement():
    assert chance_holds(7, 0, 100) == 0 and chance_holds(7, 100, 100) == 1
    assert chance_holds(1, 30, 100) == Fraction(3, 10)
    assert chance_holds(2, 1, 3) == Fraction(2, 3)
    with pytest.raises(ValueError):
        chance_holds(8, 1, 7)


# -- brute force: every deal of a small unseen set ---------------------------------------------
def deals(n, sizes):
    """Every way to deal cards 0..n-1 into hands of ``sizes`` (the rest left over), each equally likely."""
    def rec(left, i):
        if i == len(sizes):
            yield (), left
            return
        for hand in combinations(left, sizes[i]):
            rest = tuple(x for x in left if x not in hand)
            for hands, tail in rec(rest, i + 1):
                yield (hand, *hands), tail
    yield from rec(tuple(range(n)), 0)


def brute_force(k: Knowledge):
    """The odds by listing every deal of the unseen cards (as distinct physical cards) to the opponents."""
    unseen = list(k.unseen().elements())
    plays = k.legal_plays()
    follow = {p: [0] * len(k.opponents) for p in plays}
    draw = Fraction(0)
    points = [0] * len(k.opponents)
    total = 0
    for hands, rest in deals(len(unseen), k.opponents):
        total += 1
        for p in plays:
            for i, h in enumerate(hands):
                follow[p][i] += any(fits(unseen[x], p) for x in h)
        for i, h in enumerate(hands):
            points[i] += sum(unseen[x].points for x in h)
        if rest:  # the next card drawn: each card left over as likely as another
            draw += Fraction(sum(fits(unseen[x], k.top) for x in rest), len(rest))
    return ({p: tuple(Fraction(n, total) for n in f) for p, f in follow.items()}, draw / total,
            tuple(Fraction(x, total) for x in points), bool(rest))


def small_table(seed, unseen, hand_size, sizes):
    """A knowledge with ``unseen`` unseen cards: a shuffled deck split into unseen, hand, top and discard."""
    cards = deck()
    random.Random(seed).shuffle(cards)
    hidden, hand = cards[:unseen], cards[unseen:unseen + hand_size]
    top, discard = cards[unseen + hand_size], cards[unseen + hand_size + 1:]
    return Knowledge.build(hand, top, discard, sizes)


def check_against_brute_force(k: Knowledge) -> None:
    follow, draw, points, drawable = brute_force(k)
    o = odds(k)
    assert {p.card: p.follow for p in o.plays} == follow
    for p in o.plays:
        assert p.next_follows == (0 if p.card.kind in (Kind.CUT, Kind.FLIP) else p.follow[0])
    assert o.opponent_points == points
    if drawable:
        assert o.draw_playable == draw


@pytest.mark.parametrize("seed, unseen, hand_size, sizes", [
    (1, 6, 12, (2,)), (2, 8, 20, (3, 2)), (3, 7, 30, (1, 1, 1)), (4, 9, 15, (4, 3)), (5, 5, 40, (5,)),
    (6, 8, 25, (2, 2, 2, 1)),
])
def test_odds_equal_brute_force_enumeration(seed, unseen, hand_size, sizes):
    check_against_brute_force(small_table(seed, unseen, hand_size, sizes))


def test_brute_force_with_word_cards_on_top_and_in_hand():
    for top in ("hit 3", "hit red", "hit hand", "red cut", "blue flip"):
        hand = ["red 3", "blue 3", "red cut", "red flip", "hit 2", "hit hand", "yellow 5"]
        hand = [h for h in hand if h != top]
        rest = Counter(COPIES)
        for x in cs(*hand, top):
            rest[x] -= 1
        pool = sorted(rest.elements(), key=lambda x: x.sort_key)
        random.Random(top).shuffle(pool)
        hidden, discard = pool[:8], pool[8:]
        check_against_brute_force(Knowledge.build(cs(*hand), c(top), discard, (3, 2)))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), unseen=st.integers(3, 8), hand_size=st.integers(1, 30),
       sizes=st.lists(st.integers(1, 3), min_size=1, max_size=3))
def test_odds_equal_brute_force_on_random_small_tables(seed, unseen, hand_size, sizes):
    if sum(sizes) > unseen:
        sizes = sizes[:1]
    check_against_brute_force(small_table(seed, unseen, hand_size, tuple(sizes)))


# -- simulation in the engine ------------------------------------------------------------------
def simulate_follow(hand, top, card, sizes, runs, seed=0):
    """Deal the unseen cards at random to the opponents and the draw pile, play ``card`` in the engine,
    and count how often the next player then has a card to play (without drawing)."""
    rng = random.Random(seed)
    rest = Counter(COPIES)
    for x in cs(*hand, top):
        rest[x] -= 1
    pool = sorted(rest.elements(), key=lambda x: x.sort_key)
    hits = 0
    for _ in range(runs):
        rng.shuffle(pool)
        hands, at = [cs(*hand)], 0
        for k in sizes:
            hands.append(tuple(pool[at:at + k]))
            at += k
        r = Round.resume(hands, draw_pile=pool[at:], discard=[c(top)], turn=0, seed=rng.random())
        r.play(c(card))
        if r.phase is Phase.SLAP:
            r.slap(1)
        hits += bool(r.legal_plays()) and r.turn == 1
    return hits


@pytest.mark.parametrize("card", ["red 5", "hit 3", "hit green", "red cut"])
def test_follow_chances_agree_with_simulation_in_the_engine(card):
    hand, top, sizes = ["red 5", "hit 3", "hit green", "red cut", "yellow 1"], "red 2", (6, 5)
    exact = {p.card: p for p in odds(know(hand, top, opponents=sizes)).plays}[c(card)]
    runs = 3000
    hits = simulate_follow(hand, top, card, sizes, runs, seed=len(card))
    low, high = wilson(hits, runs)
    # a Cut skips seat 1, so seat 1 never plays next: the advisor's 0
    assert low <= exact.next_follows <= high, (card, hits / runs, float(exact.next_follows))


def test_draw_chance_agrees_with_simulation_in_the_engine():
    hand, top, sizes = ["blue 1", "green 3", "yellow 4"], "red 2", (7, 7)
    exact = odds(know(hand, top, opponents=sizes)).draw_playable
    rng = random.Random(7)
    rest = Counter(COPIES)
    for x in cs(*hand, top):
        rest[x] -= 1
    pool = sorted(rest.elements(), key=lambda x: x.sort_key)
    runs, hits = 3000, 0
    for _ in range(runs):
        rng.shuffle(pool)
        r = Round.resume([cs(*hand), pool[:7], pool[7:14]], draw_pile=pool[14:], discard=[c(top)], turn=0)
        r.draw()
        hits += r.phase is Phase.DRAWN
    low, high = wilson(hits, runs)
    assert low <= exact <= high


def test_the_odds_are_calibrated_on_real_deals_of_the_engine():
    """On freshly dealt hands (the engine's own shuffle and deal, first card a number card), the
    first player's exact chances, summed, predict how often the next player could follow and how
    often a draw could be played: the count must lie within 3.29 standard deviations (99.9%)."""
    predicted = variance = 0.0
    seen = 0
    for seed in range(2000):
        r = Round(3, seed=seed)
        first = [e for e in r.log if isinstance(e, TurnedUp)]
        if len(r.log) != 1 or first[0].card.kind is not Kind.NUMBER:
            continue  # a buried, cut or flipped first card: the opponents' hands are not uniform to the model
        k = Knowledge.of_round(r, r.turn)
        o = odds(k)
        plays = [p for p in o.plays if p.card.kind in (Kind.NUMBER, Kind.HIT_NUMBER, Kind.HIT_COLOUR)]
        if plays:
            p = min(plays, key=lambda p: p.next_follows)  # the least likely: the most informative test
            chance = float(p.next_follows)
            r.play(p.card)
            seen += bool(r.legal_plays())
        elif not o.plays:
            chance = float(o.draw_playable)
            r.draw()
            seen += r.phase is Phase.DRAWN
        else:
            continue
        predicted += chance
        variance += chance * (1 - chance)
    assert variance > 150, variance  # enough chances away from 0 and 1 for the test to bite
    assert abs(seen - predicted) <= Z999 * math.sqrt(variance), (seen, predicted, variance)


# -- H14: the recommended play and its reason ------------------------------------------------
def test_h14_a_cut_or_a_flip_cannot_be_followed_by_the_next_player():
    o = odds(know(["red cut", "red flip", "red 4"], "red 2", opponents=(7, 7)))
    by = {str(p.card): p for p in o.plays}
    for name in ("red cut", "red flip"):
        assert by[name].next_follows == 0 and by[name].follow[0] > Fraction(1, 2)
    assert by["red 4"].next_follows == by["red 4"].follow[0] > 0


def test_h14_least_likely_to_be_followed_first_then_most_points_then_deck_order():
    k = know(["red 5", "red 1", "hit 3", "hit 1", "yellow 2", "blue 2"], "red 2", opponents=(7,))
    a = advise(k)
    fol = {p.card: p.next_follows for p in a.ranked}
    assert [p.card for p in a.ranked] == sorted(fol, key=lambda x: (fol[x], -x.points, x.sort_key))
    # hand check: hit 3 and hit 1 each demand 16 cards (hit 1: 16 number 1s, less the red 1 held: 15)
    assert a.play == c("hit 1") and fol[c("hit 1")] < fol[c("hit 3")] < fol[c("red 5")]
    # two cards equally hard to follow: the one with more points goes first
    k = know(["yellow 5", "blue 2"], "blue 5", opponents=(4,))  # 22 + 11 + 18 and 21 + 12 + 18 followers
    first = advise(k).ranked
    assert first[0].next_follows == first[1].next_follows and [p.card for p in first] == [c("yellow 5"), c("blue 2")]


def test_h14_the_points_objective_puts_points_first():
    k = know(["red 5", "red 1", "hit hand", "blue 2"], "red 2", opponents=(7,))
    assert advise(k, Objective.POINTS).play == c("hit hand")
    assert advise(k).play == c("red 1") or advise(k).ranked[0].next_follows <= advise(k).ranked[1].next_follows
    ranked = rank(odds(k).plays, Objective.POINTS)
    assert [p.points for p in ranked] == sorted((p.points for p in ranked), reverse=True)
    # equal points: the follow chance decides (the hit 1 demands one of 15 number 1s, the hit 3 one of 16)
    a = advise(know(["hit 3", "hit 1", "red 1"], "red 2", opponents=(5,)), "points")
    assert a.play == c("hit 1") and a.reason.startswith("Play the hit 1: it sheds as many points as the hit 3 (10), "
                                                         "and the next player can meet its demand (a number card 1)")
    assert a.reason.endswith(f"against {chance_text(a.ranked[1].next_follows)} for the hit 3.")
    a = advise(know(["red flip", "red cut"], "red 2", opponents=(5, 5)), "points")
    assert a.play == c("red cut") and a.reason.endswith("cannot follow it, as with the red flip.")


def test_h14_with_nothing_to_play_the_advice_is_to_draw():
    a = advise(know(["blue 1", "hit red"], "hit 3", opponents=(5, 5)))
    assert a.play is None and a.action == "draw"
    assert a.reason.startswith("Draw: no card in your hand can be played on the hit 3 (it demands a number card 3)")
    assert chance_text(a.odds.draw_playable) in a.reason


def test_h14_the_reason_in_one_sentence_for_each_case():
    last = advise(know(["red 4"], "red 2", opponents=(3,)))
    assert last.reason == "Play the red 4, your last card: you go out and the hand ends."
    only = advise(know(["red 4", "blue 1"], "red 2", opponents=(3,)))
    assert only.reason.startswith("Play the red 4, your only playable card: the next player can follow it with ")
    cut = advise(know(["red cut", "red 4"], "red 2", opponents=(3, 3)))
    assert cut.reason.startswith("Play the red cut: the next player is skipped, so cannot follow it, against ")
    two = advise(know(["red cut", "red 4"], "red 2", opponents=(3,)))
    assert two.reason.startswith("Play the red cut: the next player is skipped and you play again, against ")
    flip = advise(know(["red flip", "red 4"], "red 2", opponents=(3,)))
    assert "play comes back to you, so the next player cannot follow it" in flip.reason
    tie = advise(know(["red cut", "red flip"], "red 2", opponents=(3,)))
    assert tie.reason.endswith("as with the red flip, which sheds as many points.")
    more = advise(know(["yellow 5", "blue 2"], "blue 5", opponents=(4,)))
    assert more.reason.endswith("as with the blue 2, and it sheds more points (5 against 2).")
    for a in (last, only, cut, two, flip, tie, more):
        assert a.reason.count(". ") == 0 and a.reason.endswith(".")


def test_the_answer_as_json_has_every_figure_exactly():
    a = advise(know(["red 5", "hit 3"], "red 2", ["blue 2"], (4, 6)))
    d = a.to_dict()
    assert d["action"] == "play" and d["play"] == str(a.play) and d["unseen"] == 106
    assert [p["card"] for p in d["plays"]] == [str(p.card) for p in a.ranked]
    for p, q in zip(d["plays"], a.ranked):
        assert Fraction(p["next_follows"]["exact"]) == q.next_follows
        assert [Fraction(f["exact"]) for f in p["follow"]] == list(q.follow)
    assert Fraction(d["draw_playable"]["exact"]) == a.odds.draw_playable
    assert [o["cards"] for o in d["opponents"]] == [4, 6]


@pytest.mark.parametrize("data, message", [
    ({"hand": ["red 6"], "top": "red 2", "opponents": [7]}, r"^hand\[0\]: 'red 6' is not a card: write a colour"),
    ({"hand": ["red 5"], "top": "pink", "opponents": [7]}, r"^top: 'pink' is not a card"),
    ({"hand": ["hit hand"] * 3, "top": "hit hand", "discard": ["hit hand"], "opponents": [7]},
     r"^too many hit hand cards: the deck has 4, the table shows 5 \(hand 3, top 1, discard 1\)$"),
    ({"hand": ["red 5"], "top": "red 2", "opponents": [60, 50]},
     r"^opponents: they hold 110 cards, but only 108 cards are unseen \(110 in the deck - 1 in your hand - 1 on top"),
    ({"hand": ["red 5"], "top": "red 2", "opponents": [7, 0]}, r"^opponents\[1\]: 0 cards: a player with no cards"),
    ({"hand": [], "top": "red 2", "opponents": [7]}, r"^hand: no cards"),
    ({"hand": ["red 5"], "top": "red 2", "opponents": []}, r"^opponents: Hit the Deck is for 2 to 6 players"),
    ({"hand": ["red 5"], "top": "red 2", "opponents": [1] * 6}, r"not 6$"),
    ({"hand": ["red 5"], "top": "red 2"}, r"^opponents: is missing"),
    ({"hand": ["red 5"], "top": "red 2", "opponents": [7], "demand": 3}, r"^demand: is not a field of a table"),
    ({"hand": "red 5", "top": "red 2", "opponents": [7]}, r"^hand: 'red 5' is not a list of card names"),
    ({"hand": [5], "top": "red 2", "opponents": [7]}, r"^hand\[0\]: 5 is not a card name"),
    ({"hand": ["red 5"], "top": "red 2", "opponents": ["7"]}, r"^opponents\[0\]: '7' is not a number of cards"),
    ({"hand": ["red 5"], "top": "red 2", "opponents": [True]}, r"^opponents\[0\]: True is not a number of cards"),
    ([1, 2], r"^table: \[1, 2\] is not an object"),
    ({"hand": ["red 1"] * 111, "top": "red 2", "opponents": [7]}, r"^hand: 111 entries, more than the deck's 110"),
])
def test_impossible_tables_get_one_clear_message(data, message):
    with pytest.raises(KnowledgeError, match=message):
        Knowledge.from_dict(data)


def test_knowledge_round_trips_through_json():
    k = know(["red 5", "hit 3", "blue cut"], "hit red", ["red 4"], (3, 9))
    assert Knowledge.from_dict(k.to_dict()) == k
