"""The Hit the Deck rules engine, ruling by ruling (docs/HITTHEDECK.md H1-H12)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from hitthedeck_helpers import c, cs, stacked, table
from solver.hitthedeck.cards import CARDS, COPIES, Card, CardError, Colour, Kind, deck, parse_card
from solver.hitthedeck.matching import fits
from solver.hitthedeck.rules import (
    Buried,
    CutDeck,
    Drew,
    Ended,
    Flipped,
    Game,
    IllegalPlayError,
    Passed,
    Penalty,
    Phase,
    Played,
    Reshuffled,
    Round,
    Skipped,
    TurnedUp,
)


# -- H1: the deck and the notation ---------------------------------------------------
def test_h1_deck_has_110_cards_as_the_texts_count_them():
    d = deck()
    assert len(d) == 110
    for colour in Colour:
        mine = [x for x in d if x.colour is colour and x.kind in (Kind.NUMBER, Kind.CUT, Kind.FLIP)]
        assert len(mine) == 23  # four each of 1-5, two Cut the Deck, one Flip the Deck
        assert Counter(x.number for x in mine if x.kind is Kind.NUMBER) == {1: 4, 2: 4, 3: 4, 4: 4, 5: 4}
        assert sum(x.kind is Kind.CUT for x in mine) == 2 and sum(x.kind is Kind.FLIP for x in mine) == 1
    hits = Counter(x.kind for x in d if x.is_hit)
    assert hits == {Kind.HIT_NUMBER: 10, Kind.HIT_COLOUR: 4, Kind.HIT_HAND: 4}
    # The project's ruling on what the Hit the Deck cards carry: With a Number two each of 1-5 and no
    # colour, With a Colour one per colour and no number, With a Hand neither.
    assert Counter(x.number for x in d if x.kind is Kind.HIT_NUMBER) == {n: 2 for n in range(1, 6)}
    assert all(x.colour is None for x in d if x.kind is Kind.HIT_NUMBER)
    assert Counter(x.colour for x in d if x.kind is Kind.HIT_COLOUR) == {col: 1 for col in Colour}
    assert all(x.number is None and x.colour is None for x in d if x.kind is Kind.HIT_HAND)
    assert [col.value for col in Colour] == ["red", "yellow", "green", "blue"]


def test_h1_notation_round_trips_and_accepts_short_forms():
    assert len(CARDS) == 38
    for card in CARDS:
        assert parse_card(str(card)) == card
        assert parse_card(str(card).upper().replace(" ", "  ")) == card
    assert parse_card("r5") == parse_card("red 5") and parse_card("B Cut") == parse_card("blue cut")
    assert parse_card("hit g") == parse_card("hit green") and parse_card("hit3") == parse_card("hit 3")
    assert repr(parse_card("yellow flip")) == "Card.parse('yellow flip')"


@pytest.mark.parametrize("bad", ["red 6", "red 0", "purple 3", "hit 6", "hit cut", "red hand", "cut", "3",
                                 "red", "hit", "", "red 5 5", "hit red 3", "x" * 200])
def test_h1_notation_refuses_what_is_not_a_card(bad):
    with pytest.raises(CardError, match="is not a card: write a colour and 1-5"):
        parse_card(bad)


def test_h1_cards_that_cannot_exist_are_refused():
    for kind, colour, number in [(Kind.NUMBER, Colour.RED, 6), (Kind.NUMBER, None, 3), (Kind.HIT_HAND, Colour.RED, None),
                                 (Kind.HIT_NUMBER, Colour.RED, 3), (Kind.HIT_COLOUR, None, None), (Kind.FLIP, Colour.RED, 1)]:
        with pytest.raises(CardError, match=f"a {kind.value} card has"):
            Card(kind, colour, number)


# -- H2: players, the deal, who starts, the direction --------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_h2_seven_cards_each_dealt_from_the_dealers_left_who_plays_first_clockwise(players):
    dealer = players - 1
    order, full = stacked(players, dealer, then=cs("blue 2"))
    r = Round(players, dealer=dealer, deck_order=order)
    assert r.hand_sizes() == (7,) * players and r.top == c("blue 2")
    assert [list(r.hand(s)) for s in range(players)] == [full[s] for s in range(players)]
    assert r.turn == 0 and r.direction == 1 and r.next_seat(0) == 1 % players  # the dealer's left, clockwise
    # one card at a time: the first card off the deck goes to the dealer's left, the second to the next seat
    first_two = order[::-1][:2]
    assert r.hand(0)[0] == first_two[0] and r.hand(1)[0] == first_two[1]


def test_h2_two_to_six_players_only():
    for n in (1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            Round(n, seed=1)
        with pytest.raises(ValueError, match="2 to 6 players"):
            Game(n, seed=1)


def test_h2_the_deal_passes_to_the_left_and_each_hand_starts_clockwise():
    game = Game(4, seed=11, dealer=2)
    dealers = []
    while not game.is_over:
        r = game.round
        dealers.append(r.dealer)
        # every hand starts clockwise; only a first Flip (H3) turns it round
        assert r.direction == (-1 if any(isinstance(e, Flipped) for e in r.log) else 1)
        while not r.is_over:
            if r.phase is Phase.SLAP:
                r.slap((r.slapper + 1) % 4)
            else:
                r.apply(r.legal_actions()[0])
        if not game.is_over:
            game.next_round()
    assert len(dealers) >= 2
    assert dealers == [(2 + k) % 4 for k in range(len(dealers))]


# -- H3: the first card turned up ------------------------------------------------
def test_h3_a_first_hit_hand_is_buried_and_another_card_turned_up():
    order, _ = stacked(3, then=cs("hit hand", "green 4"))
    r = Round(3, seed=5, deck_order=order)
    assert r.top == c("green 4") and r.discard == (c("green 4"),)
    assert r.log[:3] == [TurnedUp(c("hit hand"), "first card"), Buried(c("hit hand"), "first card"),
                         TurnedUp(c("green 4"), "first card")]
    assert c("hit hand") in r.draw_pile and r.turn == 1 and r.card_count() == 110


def test_h3_a_first_cut_makes_the_first_player_cut_and_lose_her_turn():
    order, _ = stacked(3, dealer=0, then=cs("red cut"))
    r = Round(3, seed=5, dealer=0, deck_order=order)
    cut = [e for e in r.log if isinstance(e, CutDeck)]
    assert len(cut) == 1 and cut[0].seat == 1 and Skipped(1) in r.log
    assert r.discard == (c("red cut"), cut[0].card) and r.turn == 2
    assert r.hand_sizes() == (7, 7, 7)


def test_h3_a_first_flip_makes_the_first_player_swap_the_piles_then_play_the_other_way():
    order, _ = stacked(3, dealer=0, then=cs("red flip"))
    pile_before = order[: len(order) - 21 - 1]  # what is left after the deal and the first card, top last
    r = Round(3, seed=5, dealer=0, deck_order=order)
    assert r.direction == -1 and r.turn == 1 and r.next_seat(1) == 0
    assert r.draw_pile == (c("red flip"),)
    assert r.top == pile_before[0]  # the draw pile turned over: its bottom card is now on top
    if pile_before[0].kind is not Kind.FLIP:
        assert r.discard == tuple(pile_before[::-1])


def test_h3_a_first_with_a_number_demands_of_the_first_player():
    order, full = stacked(2, dealer=1, hands={0: cs("red 3", "blue 3", "red 4", "hit 3", "hit hand", "red cut", "green 1")},
                          then=cs("hit 3"))
    r = Round(2, dealer=1, deck_order=order)
    assert r.turn == 0 and r.demand == 3
    assert sorted(map(str, r.legal_plays())) == ["blue 3", "red 3"]


# -- H4: matching -----------------------------------------------------------------
@pytest.mark.parametrize("card, top, ok", [
    ("red 3", "red 5", True), ("blue 5", "red 5", True), ("blue 4", "red 5", False),
    ("red cut", "red 5", True), ("blue cut", "red cut", False), ("red flip", "red cut", True),
    ("blue flip", "red flip", False), ("red 2", "red flip", True), ("blue 2", "red flip", False),
    ("hit 3", "red 5", True), ("hit blue", "red 5", True), ("hit hand", "green cut", True),
    ("yellow 1", "hit hand", True), ("hit hand", "hit hand", True), ("blue cut", "hit hand", True),
])
def test_h4_matching_by_colour_or_number_cut_and_flip_by_colour_only(card, top, ok):
    assert fits(c(card), c(top)) is ok
    r = table([[card, "green 5"], ["blue 1"]], discard=[top])
    assert (c(card) in r.legal_plays()) is ok


def test_h4_hit_the_deck_cards_go_on_any_card_without_a_demand():
    for top in CARDS:
        if top.kind in (Kind.NUMBER, Kind.CUT, Kind.FLIP, Kind.HIT_HAND):
            assert all(fits(h, top) for h in CARDS if h.is_hit)


# -- H5: a turn --------------------------------------------------------------------
def test_h5_a_player_who_can_play_may_not_draw():
    r = table([["red 3", "blue 4"], ["green 1"]], draw=["yellow 1"], discard=["red 5"])
    assert not r.can_draw()
    with pytest.raises(IllegalPlayError, match=r"seat 0 cannot draw: the red 3 can be played on the red 5"):
        r.draw()


def test_h5_a_drawn_card_that_fits_is_played_at_once_and_only_it():
    r = table([["blue 4", "green 2"], ["green 1"]], draw=["yellow 1", "red 2"], discard=["red 5"])
    assert r.draw() == (Drew(0, c("red 2")),)
    assert r.phase is Phase.DRAWN and r.legal_plays() == [c("red 2")] and r.turn == 0
    with pytest.raises(IllegalPlayError, match="must play the red 2 it just drew, not the green 2"):
        r.play(c("green 2"))
    assert not r.can_draw()
    r.play(c("red 2"))
    assert r.turn == 1 and r.top == c("red 2")


def test_h5_a_drawn_card_that_does_not_fit_ends_the_turn():
    r = table([["blue 4"], ["green 1"]], draw=["yellow 1"], discard=["red 5"])
    assert r.draw() == (Drew(0, c("yellow 1")), Passed(0))
    assert r.turn == 1 and r.hand(0) == cs("blue 4", "yellow 1")


def test_h5_playing_a_card_not_held_names_the_card_and_the_hand():
    r = table([["blue 4"], ["green 1"]], discard=["red 4"])
    with pytest.raises(IllegalPlayError, match=r"^seat 0 holds no red 4 \(its hand: blue 4\)$"):
        r.play(c("red 4"))


# -- H6: Cut the Deck ---------------------------------------------------------------------
def test_h6_cut_the_next_player_turns_up_a_card_and_loses_her_turn():
    draw = ["yellow 1", "yellow 2", "yellow 3", "yellow 4", "yellow 5", "green 1"]
    r = table([["red cut", "red 2"], ["blue 1"], ["blue 2"]], draw=draw, discard=["red 5"])
    events = r.play(c("red cut"))
    cut = events[1]
    assert isinstance(cut, CutDeck) and cut.seat == 1 and events[2] == Skipped(1)
    assert r.discard == (c("red 5"), c("red cut"), cut.card) and r.turn == 2
    assert len(r.draw_pile) == 5 and cut.card in cs(*draw) and r.hand(1) == cs("blue 1")


def test_h6_the_cut_lifts_a_third_to_two_thirds_of_the_draw_pile():
    names = [f"{col} {n}" for col in ("red", "yellow", "green", "blue") for n in range(1, 6)] + \
        ["red cut", "yellow cut", "green cut", "blue cut", "red flip", "yellow flip", "green flip", "blue flip",
         "hit 1", "hit 2"]  # 30 different cards, top card last
    places = Counter()
    for seed in range(300):
        r = table([["blue cut", "blue 1"], ["green 1"], ["green 2"]], draw=names, discard=["blue 5"], seed=seed)
        r.play(c("blue cut"))
        places[names.index(str(r.top))] += 1
    # lifting k cards (10 <= k <= 20 of 30) turns up the k-th card from the top: places 10 to 20 from the bottom
    assert set(places) == set(range(10, 21))


def test_h6_two_players_the_cut_gives_the_player_another_turn():
    r = table([["red cut", "red 2"], ["blue 1"]], draw=["yellow 1", "yellow 2", "yellow 3"], discard=["red 5"])
    r.play(c("red cut"))
    assert r.turn == 0 and Skipped(1) in r.log


@pytest.mark.parametrize("turned, legal", [
    ("hit 3", ["yellow 3"]),  # a With a Number card turned up by a cut demands of the next player
    ("hit green", ["green 1", "green cut"]),
    ("blue flip", ["blue 4", "hit red"]),  # a Flip turned up by a cut does nothing: it is matched by its colour
    ("blue cut", ["blue 4", "hit red"]),  # nor does a Cut: nobody else is skipped
    ("hit hand", ["yellow 3", "green 1", "blue 4", "green cut", "hit red"]),  # nobody slaps; anything goes
])
def test_h6_a_word_card_turned_up_by_a_cut(turned, legal):
    r = table([["red cut", "red 2"], ["yellow 1"], ["yellow 3", "green 1", "blue 4", "green cut", "hit red"]],
              draw=[turned], discard=["red 5"])
    r.play(c("red cut"))
    assert r.top == c(turned) and r.turn == 2 and r.phase is Phase.PLAY and r.direction == 1
    assert sorted(map(str, r.legal_plays())) == sorted(legal)
    assert r.hand_sizes() == (1, 1, 5)


def test_h6_an_empty_draw_pile_is_remade_for_the_cut():
    r = table([["red cut", "red 2"], ["blue 1"], ["blue 2"]], draw=[], discard=["green 3", "red 5"])
    r.play(c("red cut"))
    assert Reshuffled(2) in r.log and r.top in cs("green 3", "red 5") and r.turn == 2
    r = table([["red cut", "red 2"], ["blue 1"], ["blue 2"]], draw=[], discard=["red 5"])
    r.play(c("red cut"))  # the card under the Cut is all the new draw pile holds: it is the one turned up
    assert CutDeck(1, c("red 5")) in r.log and r.discard == cs("red cut", "red 5") and r.turn == 2


# -- H7: Flip the Deck ----------------------------------------------------------------
def test_h7_flip_swaps_and_turns_over_the_piles_reverses_and_the_player_plays_again():
    r = table([["red flip", "red 2"], ["blue 1"], ["blue 2"]], draw=["green 1", "green 2", "green 3"],
              discard=["blue 3", "red 5"])
    events = r.play(c("red flip"))
    assert events[1] == Flipped(1, -1) and r.direction == -1 and r.turn == 0 and r.next_seat(0) == 2
    # the discard pile turned over is the draw pile: its bottom card (blue 3) is drawn first, the Flip last
    assert r.draw_pile == cs("red flip", "red 5", "blue 3")
    # the draw pile turned over is the discard pile: its bottom card (green 1) is on top
    assert r.discard == cs("green 3", "green 2", "green 1") and r.top == c("green 1")
    assert r.seen_discard() == ()  # nobody saw the cards under the new top


def test_h7_a_second_flip_revealed_at_once_is_buried():
    r = table([["red flip", "red 2"], ["blue 1"]], draw=["blue flip", "green 2", "green 1"],
              discard=["red 5"], seed=3)
    r.play(c("red flip"))
    assert Buried(c("blue flip"), "flip") in r.log and r.top == c("green 2")
    assert c("blue flip") in r.draw_pile and r.card_count() == 7


def test_h7_a_flip_on_an_empty_draw_pile_turns_up_the_new_draw_piles_top():
    r = table([["red flip", "red 2"], ["blue 1"]], draw=[], discard=["yellow 4", "red 5"])
    r.play(c("red flip"))
    assert r.top == c("yellow 4") and r.draw_pile == cs("red flip", "red 5") and r.turn == 0


def test_h7_a_with_a_number_revealed_by_a_flip_demands_of_the_player_who_flipped():
    r = table([["red flip", "red 2", "blue 4"], ["blue 1"]], draw=["hit 4", "green 1"], discard=["red 5"])
    r.play(c("red flip"))
    assert r.top == c("hit 4") and r.turn == 0 and r.legal_plays() == [c("blue 4")]


# -- H8: With a Number and With a Colour -----------------------------------------------------
def test_h8_a_demand_passes_on_until_it_is_met():
    r = table([["hit 3", "red 1"], ["blue 1", "green 2"], ["yellow 3", "yellow 1"]],
              draw=["green 5", "blue 4"], discard=["red 5"])
    r.play(c("hit 3"))
    assert r.turn == 1 and r.demand == 3 and r.legal_plays() == []
    assert r.draw() == (Drew(1, c("blue 4")), Passed(1))
    assert r.turn == 2 and r.demand == 3 and r.legal_plays() == [c("yellow 3")]
    r.play(c("yellow 3"))
    assert r.demand is None and r.turn == 0 and r.legal_plays() == []  # red 1 neither yellow nor 3


def test_h8_a_drawn_card_that_meets_the_demand_is_played():
    r = table([["hit red", "red 1"], ["blue 1", "green 2"]], draw=["red cut"], discard=["blue 5"])
    r.play(c("hit red"))
    r.draw()
    assert r.phase is Phase.DRAWN and r.legal_plays() == [c("red cut")]


def test_h8_no_hit_the_deck_card_meets_a_demand():
    for top in ("hit 3", "hit red"):
        r = table([["hit 3", "hit blue", "hit hand", "hit 4"], ["blue 1"]], discard=[top])
        assert r.legal_plays() == [] and r.can_draw()
        with pytest.raises(IllegalPlayError, match=rf"the hit 3 cannot be played on the {top}: a .* is demanded"):
            r.play(c("hit 3"))


def test_h8_with_a_colour_is_met_by_a_number_cut_or_flip_of_its_colour():
    r = table([["red 4", "red cut", "red flip", "blue 4", "hit blue", "hit 4"], ["blue 1"]], discard=["hit red"])
    assert sorted(map(str, r.legal_plays())) == ["red 4", "red cut", "red flip"]


# -- H9: With a Hand ----------------------------------------------------------------------
def test_h9_a_called_hit_hand_the_last_hand_on_the_pile_draws_four():
    r = table([["hit hand", "red 1"], ["blue 1"], ["green 2"]],
              draw=["yellow 1", "yellow 2", "yellow 3", "yellow 4", "yellow 5"], discard=["blue 5"])
    r.play(c("hit hand"))
    assert r.phase is Phase.SLAP and r.slapper == 0 and r.legal_plays() == []
    with pytest.raises(IllegalPlayError, match="seat 0's hit hand waits for the slap"):
        r.draw()
    r.slap(2)
    assert r.hand(2) == cs("green 2", "yellow 5", "yellow 4", "yellow 3", "yellow 2")
    assert r.turn == 1 and r.phase is Phase.PLAY and r.legal_plays() == [c("blue 1")]  # anything on a hit hand


def test_h9_a_forgotten_call_makes_the_player_draw_four():
    r = table([["hit hand", "red 1"], ["blue 1"], ["green 2"]], draw=["yellow 1"] * 4 + ["yellow 2"],
              discard=["blue 5"])
    events = r.play(c("hit hand"), called=False)
    assert events[-1] == Penalty(0, "forgot the call", cs("yellow 2", "yellow 1", "yellow 1", "yellow 1"))
    assert r.phase is Phase.PLAY and r.turn == 1 and r.hand_sizes() == (5, 1, 1)


def test_h9_a_false_slap_draws_two_and_the_turn_stays():
    r = table([["red 1"], ["blue 1"], ["green 2"]], draw=["yellow 1", "yellow 2", "yellow 3"], discard=["blue 5"])
    assert r.false_slap(2) == (Penalty(2, "false slap", cs("yellow 3", "yellow 2")),)
    assert r.turn == 0 and r.hand_sizes() == (1, 1, 3)
    assert not r.can_slap(1)  # no hit hand to slap: slap() is for a called one only


def test_h9_no_false_slap_while_a_called_hit_hand_is_slapped():
    r = table([["hit hand", "red 1"], ["blue 1"]], draw=["yellow 1"] * 4, discard=["blue 5"])
    r.play(c("hit hand"))
    assert not r.can_false_slap(1) and r.can_slap(0)  # the player of the card may be last too


# -- H10: the reshuffle ---------------------------------------------------------------------
def test_h10_an_empty_draw_pile_is_remade_from_the_discard_but_its_top():
    r = table([["blue 4"], ["green 1"]], draw=[], discard=["yellow 1", "green 5", "yellow 2", "red 5"])
    events = r.draw()
    assert events[0] == Reshuffled(3) and isinstance(events[1], Drew)
    assert r.discard == (c("red 5"),) and events[1].card in cs("yellow 1", "green 5", "yellow 2")
    assert r.card_count() == 6


def test_h10_with_nothing_to_draw_the_turn_ends_and_penalties_draw_what_there_is():
    r = table([["blue 4"], ["green 1"]], draw=[], discard=["red 5"])
    assert r.draw() == (Passed(0),) and r.turn == 1 and r.hand(0) == cs("blue 4")
    r = table([["red 1"], ["blue 1"]], draw=["yellow 1"], discard=["blue 5"])
    assert r.false_slap(1) == (Penalty(1, "false slap", cs("yellow 1")),)


# -- H11: the end of a hand ----------------------------------------------------------------
@pytest.mark.parametrize("last", ["hit hand", "red cut", "red flip", "hit 3"])
def test_h11_going_out_ends_the_hand_at_once_without_the_cards_instruction(last):
    r = table([[last], ["blue 1", "blue 5"], ["hit 2"]], draw=["yellow 1", "yellow 2"], discard=["red 5"])
    events = r.play(c(last))
    assert events == (Played(0, c(last), True), Ended(0, (0, 6, 10)))
    assert r.is_over and r.winner == 0 and r.draw_pile == cs("yellow 1", "yellow 2") and r.direction == 1


def test_h11_a_hand_where_nobody_can_play_or_draw_ends_blocked():
    r = table([["blue 4", "hit hand"], ["green 1"], ["yellow 3"]], draw=[], discard=["hit 5"])
    r.draw()
    r.draw()
    assert not r.is_over
    events = r.draw()
    assert events == (Passed(2), Ended(None, (14, 1, 3))) and r.winner is None


def test_h11_a_draw_in_between_starts_the_count_again():
    r = table([["blue 4"], ["green 1"]], draw=[], discard=["yellow 2", "hit 5"])
    r.draw()  # seat 0 draws the yellow 2 (the reshuffle), which does not meet the demand
    r.draw()  # seat 1: nothing left
    assert not r.is_over
    r.draw()  # seat 0: nothing
    assert r.is_over and r.winner is None


# -- H12: scoring and the game --------------------------------------------------------------
def test_h12_number_cards_score_their_number_every_other_card_ten():
    for card in CARDS:
        assert card.points == (card.number if card.kind is Kind.NUMBER else 10)
    r = table([["red 1"], ["blue 3", "hit 2", "green flip"], ["yellow 5", "hit hand"]], discard=["red 4"])
    r.play(c("red 1"))
    assert r.points == (0, 23, 15)


class _Over:
    def __init__(self, points, dealer=0):
        self.points, self.is_over, self.dealer = points, True, dealer


def test_h12_hands_until_somebody_reaches_100_the_lowest_total_wins_and_ties_share():
    game = Game(3, seed=1)
    game.rounds = [_Over((0, 40, 30)), _Over((50, 0, 30))]
    assert not game.is_over and game.totals == (50, 40, 60)
    game.rounds.append(_Over((0, 49, 45)))
    assert game.is_over and game.totals == (50, 89, 105) and game.winners() == (0,)
    with pytest.raises(IllegalPlayError, match=r"the game is over: totals \[50, 89, 105\]"):
        game.next_round()
    game.rounds = [_Over((40, 40, 100))]
    assert game.winners() == (0, 1)
    game.rounds = [_Over((40, 40, 99))]
    assert not game.is_over


def test_h12_a_played_game_stops_at_the_first_hand_that_reaches_100():
    from solver.hitthedeck.bots import make, play_game

    for seed in range(5):
        game = play_game([make("random", seed=s) for s in range(4)], seed=seed)
        running = [0] * 4
        for i, r in enumerate(game.rounds):
            running = [t + p for t, p in zip(running, r.points)]
            assert (max(running) >= 100) == (i == len(game.rounds) - 1)
        assert tuple(running) == game.totals
        assert set(game.winners()) == {s for s in range(4) if running[s] == min(running)}


# -- the three faces and the messages -------------------------------------------------------
def test_every_refusal_names_the_card_and_the_state():
    r = table([["blue 4"], ["green 1"]], draw=["yellow 1"], discard=["red 5"])
    assert not r.can_play(c("blue 4"))
    with pytest.raises(IllegalPlayError, match=re.escape(
            "the blue 4 cannot be played on the red 5: it matches neither its colour nor its number (seat 0 to play)")):
        r.verify_play(c("blue 4"))
    r = table([["red 4"], ["green 1"]], discard=["red 5"])
    r.play(c("red 4"))
    with pytest.raises(IllegalPlayError, match=r"cannot play the green 1: the hand is over"):
        r.play(c("green 1"))
    with pytest.raises(IllegalPlayError, match=r"cannot draw: the hand is over"):
        r.draw()


def test_resume_refuses_tables_that_cannot_be():
    with pytest.raises(ValueError, match=r"too many red 5: the deck has 4, 5 are given"):
        table([["red 5"] * 4, ["blue 1"]], discard=["red 5"])
    with pytest.raises(ValueError, match="discard pile needs a top card"):
        table([["red 5"], ["blue 1"]], discard=[])
    with pytest.raises(ValueError, match="has gone out"):
        table([["red 5"], []])


def test_a_given_deck_order_must_be_the_whole_deck():
    with pytest.raises(ValueError, match="not the 110-card deck"):
        Round(2, deck_order=deck()[:-1])
    wrong = deck()
    wrong[0] = wrong[-1]
    with pytest.raises(ValueError, match="not the 110-card deck"):
        Round(2, deck_order=wrong)


def test_the_same_seed_deals_the_same_hand():
    a, b = Round(4, seed="x"), Round(4, seed="x")
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)] and a.draw_pile == b.draw_pile
    assert [Round(4, seed=s).hand(0) for s in range(3)] != [Round(4, seed=0).hand(0)] * 3
    assert Counter(COPIES) == Round(3, seed=random.Random(2)).all_cards()
