"""The Hit the Deck odds page (views/hitthedeck.py).

AppTest drives the page's logic: a table entered by taps (hand, top card,
discard, players and hand sizes), a new top card pushing the old one onto the
discard, Undo, the hand's chips, a Flip and a reshuffle, the copies the deck
has, impossible tables named (hand sizes, a table with no top card, a player
count the game does not have), a With a Hand or a demand on top, and the
verdict, the reason and the table of plays against
:func:`solver.hitthedeck.advice.advise` on the same knowledge, for both
objectives, on seeded random tables. The figures the page quotes are checked
against docs/HITTHEDECK.md and read from data/hitthedeck, and a small tournament on request against
:func:`solver.hitthedeck.tournament.tournament`. The table lives in the page's
link (solver/hitthedeck/link.py): a table entered by taps reopens identically
from its link, each kind of bad link parameter is named and the rest kept,
and a hostile link is refused quickly, with a message.

The browser test (Debian's Chromium through Playwright) enters a table by taps
on a 390×844 phone, reloading the page mid-entry and again once it is
complete (the table, where taps go and the verdict survive both), checks the
verdict is the advisor's and that nothing overflows sideways, and saves ``tests/artifacts/hitthedeck.png`` (the phone)
and ``hitthedeck-desktop.png`` (1280×900).
"""

from __future__ import annotations

import doctest
import os
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS, CHROMIUM, chromium, serve_advisor, settle
from streamlit.testing.v1 import AppTest

from solver.hitthedeck.advice import Objective, advise
from solver.hitthedeck.cards import COPIES, deck, parse_card, parse_cards
from solver.hitthedeck.knowledge import Knowledge, KnowledgeError
from solver.hitthedeck.tournament import tournament
from views import hitthedeck as view  # the page's helpers (importing it does not draw the page)
from solver.hitthedeck import link as hitthedeck_link

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "views" / "hitthedeck.py")


def page(table: Any = None, **state: Any) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    if table is not None:
        at.session_state["htd_table"] = table
        at.session_state["htd_undo"] = []
    for k, v in state.items():
        at.session_state[k] = v
    return at.run()


def opened(link: dict[str, str]) -> AppTest:
    """The page opened from a link: a new session with these query parameters."""
    at = AppTest.from_file(PAGE, default_timeout=60)
    for k, v in link.items():
        at.query_params[k] = v
    return at.run()


def params(at: AppTest) -> dict[str, str]:
    """The page's link as this run left it."""
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in
            ((k, at.query_params[k]) for k in at.query_params)}


def warnings(at: AppTest) -> list[str]:
    return [unescape(str(w.value)) for w in at.warning]


def key(card: str) -> str:
    return "htd_card_" + str(parse_card(card)).replace(" ", "_")


def tap(at: AppTest, *cards: str) -> AppTest:
    for card in cards:
        at = at.button(key=key(card)).click().run()
    return at


def into(at: AppTest, zone: str) -> AppTest:
    return at.button_group(key="htd_zone").set_value(zone).run()


def state(at: AppTest) -> Any:
    return at.session_state["htd_table"]


def texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in (at.markdown, at.caption, at.info, at.success, at.warning, at.error)
                     for e in kind)


def unescape(text: str) -> str:
    """Markdown source as it reads on screen (the page escapes markdown characters in messages)."""
    return re.sub(r"\\(.)", r"\1", text)


def verdict(at: AppTest) -> str:
    boxes = [str(e.value) for e in at.success]
    assert len(boxes) == 1, (boxes, texts(at))
    return boxes[0]


def expected_box(knowledge: Knowledge, objective: str = "follow") -> str:
    """The verdict box as the advisor's answer makes it: PLAY the card (or DRAW), then its reason."""
    a = advise(knowledge, objective)
    head = "DRAW" if a.play is None else f"PLAY the {a.play}"
    return f"### {head}\n{a.reason}"


def percent(x: Any) -> str:
    return f"{float(x):.0%}" if x in (0, 1) else f"{float(x):.1%}"


def rows(at: AppTest, column: str) -> list[dict[str, Any]] | None:
    """The rows of the table on the page that has ``column``, or None if there is none."""
    frames = [t.value for t in at.table if column in t.value.columns]
    assert len(frames) <= 1, frames
    return frames[0].to_dict("records") if frames else None


def plays_rows(at: AppTest) -> list[dict[str, Any]]:
    """The table of plays (an empty list if there is none: the advice is to draw)."""
    return rows(at, "next player follows") or []


# -- entry by taps -------------------------------------------------------------------------------------------------
def test_a_table_entered_by_taps_gets_the_advisors_verdict_and_odds():
    at = page()
    assert "Still to tap" in at.info[0].value and not at.success
    at = tap(at, "red 5", "blue cut", "hit 3", "yellow 2")
    at = into(at, "top")
    at = tap(at, "red 4", "blue 4", "red 2")  # each new top card pushes the last onto the discard
    at = at.button_group(key="htd_players").set_value(4).run()
    at = at.number_input(key="htd_size_0").set_value(5).run()
    at = at.number_input(key="htd_size_2").set_value(3).run()
    t = state(at)
    assert [str(c) for c in t.hand] == ["red 5", "blue cut", "hit 3", "yellow 2"]
    assert str(t.top) == "red 2" and [str(c) for c in t.discard] == ["red 4", "blue 4"]
    assert t.opponents == (5, 7, 3)
    knowledge = Knowledge.build(parse_cards(["red 5", "blue cut", "hit 3", "yellow 2"]), parse_card("red 2"),
                                parse_cards(["red 4", "blue 4"]), [5, 7, 3])
    assert verdict(at) == expected_box(knowledge)
    a = advise(knowledge)
    plays = plays_rows(at)
    assert [r["play"] for r in plays] == [str(p.card) for p in a.ranked]
    assert [r["next player follows"] for r in plays] == [percent(p.next_follows) for p in a.ranked]
    assert [r["points shed"] for r in plays] == [p.points for p in a.ranked]
    shown = texts(at)
    assert f"**{percent(a.odds.draw_playable)}**" in shown and f"**{a.odds.hand_points} points**" in shown
    opponents = rows(at, "expected points")
    assert [r["cards"] for r in opponents] == [5, 7, 3]
    assert [r["expected points"] for r in opponents] == [f"{float(p):.1f}" for p in a.odds.opponent_points]


def test_exact_fractions_show_the_backends_fractions():
    t = view.Table(tuple(parse_cards(["red 5", "hit 3", "blue 1"])), parse_card("red 2"), (), (1, 7))
    at = page(t, htd_exact=True)
    a = advise(t.knowledge())
    for row, p in zip(plays_rows(at), a.ranked, strict=True):
        want = percent(p.next_follows) + ("" if p.next_follows in (0, 1) else f" ({p.next_follows})")
        assert row["next player follows"] == want
    assert str(a.odds.draw_playable) in texts(at)


def test_one_button_for_each_of_the_decks_38_cards():
    buttons = [card for row in view.ROWS for card in row]
    assert sorted(buttons, key=lambda c: c.sort_key) == list(COPIES) and len(set(buttons)) == 38
    at = page()
    for card in COPIES:
        assert not at.button(key=view.key_of(card)).disabled


def test_undo_takes_back_one_tap_at_a_time():
    at = tap(page(), "green 1", "green 2")
    at = into(at, "top")
    at = tap(at, "blue 3", "blue 4")
    undo = lambda at: at.button(key="htd_undo_button").click().run()  # noqa: E731
    at = undo(at)
    assert str(state(at).top) == "blue 3" and state(at).discard == ()
    at = undo(at)
    assert state(at).top is None
    at = undo(at)
    assert [str(c) for c in state(at).hand] == ["green 1"]
    at = undo(at)
    assert state(at).hand == ()
    assert at.button(key="htd_undo_button").disabled


def test_minus_one_and_the_hands_chips_take_cards_out():
    at = tap(page(), "red 1", "red 1", "blue 2", "hit hand")
    assert at.button(key="htd_out_red_1").label == "red 1 ×2 ✕"
    at = at.button(key="htd_out_red_1").click().run()
    assert Counter(str(c) for c in state(at).hand) == Counter(["red 1", "blue 2", "hit hand"])
    at = at.button(key="htd_take_out").click().run()  # the last card tapped
    assert [str(c) for c in state(at).hand] == ["red 1", "blue 2"]
    at = at.button(key="htd_clear").click().run()
    assert state(at).hand == ()
    assert at.button(key="htd_take_out").disabled and at.button(key="htd_clear").disabled  # nothing to take out


def test_a_card_tapped_more_often_than_the_deck_has_it_is_refused_and_named():
    at = page()
    taps = 0
    while taps < 9 and not at.button(key=key("red 5")).disabled:  # a hurried player taps the red 5 nine times
        at = tap(at, "red 5")
        taps += 1
    assert taps == COPIES[parse_card("red 5")] == 4  # the button goes grey once every copy is on the table
    assert [str(c) for c in state(at).hand] == ["red 5"] * 4
    at = into(at, "top")
    assert at.button(key=key("red 5")).disabled and not at.button(key=key("red 4")).disabled
    # A tap that reached the page before the button went grey is refused, and the message names the count.
    with pytest.raises(ValueError, match=re.escape("the deck has 4 red 5 cards, and the table already shows 4 "
                                                   "(your hand 4)")):
        view.added(state(at), "top", parse_card("red 5"))
    at = tap(at, "red 4", "hit 3", "blue 3", "hit 3")  # the deck's two hit 3s: on the discard, and on top
    assert at.button(key=key("hit 3")).disabled
    assert str(state(at).top) == "hit 3" and [str(c) for c in state(at).discard] == ["red 4", "hit 3", "blue 3"]


def test_the_piles_turned_over_and_a_card_played_from_the_hand():
    t = view.Table(tuple(parse_cards(["red 5", "red 1"])), parse_card("red 2"), tuple(parse_cards(["red 4"])),
                   (3, 6, 9))
    at = page(t)
    at = at.button(key="htd_played_button").click().run()  # the advice's card goes onto the pile
    played = advise(t.knowledge()).play
    assert state(at).top == played and played not in state(at).hand
    assert [str(c) for c in state(at).discard] == ["red 4", "red 2"]
    # The others play next: no verdict box, but the advice should play come back with that card on top.
    assert not at.success and at.info[0].value.startswith(f"### You played the {played}\n")
    assert expected_box(state(at).knowledge()).split("\n")[1] in at.info[0].value
    at = at.number_input(key="htd_size_0").set_value(4).run()  # the next player drew: still your card on top
    assert not at.success and at.info[0].value.startswith(f"### You played the {played}\n")
    at = at.button(key="htd_reshuffle").click().run()
    assert state(at).discard == () and state(at).top == played
    at = at.button(key="htd_flip").click().run()
    assert state(at).top is None and state(at).opponents == (9, 6, 4)  # play turned round
    assert "top card" in at.info[0].value
    at = into(at, "top")
    at = tap(at, "blue 1")
    assert verdict(at) == expected_box(state(at).knowledge())


def test_players_add_and_drop_opponents_at_the_deal():
    at = page()
    at = at.button_group(key="htd_players").set_value(6).run()
    assert state(at).opponents == (7,) * 5 and len(at.number_input) == 5
    at = at.number_input(key="htd_size_4").set_value(2).run()
    at = at.button_group(key="htd_players").set_value(2).run()
    assert state(at).opponents == (7,) and len(at.number_input) == 1
    at = at.button(key="htd_new").click().run()
    assert state(at) == view.Table(opponents=(7,))


# -- tables that cannot be -----------------------------------------------------------------------------------------
def test_hand_sizes_the_unseen_cards_cannot_fill_are_named_and_no_advice_is_given():
    at = tap(page(), "red 5", "red 4")
    at = into(at, "top")
    at = tap(at, "red 2")
    at = at.number_input(key="htd_size_0").set_value(60).run()
    at = at.number_input(key="htd_size_1").set_value(60).run()
    with pytest.raises(KnowledgeError) as e:
        Knowledge.build(parse_cards(["red 5", "red 4"]), parse_card("red 2"), [], [60, 60])
    error = unescape(at.error[0].value)
    assert "Not a table that can be" in error and view.on_page(str(e.value)) in error
    assert "your opponents hold 120 cards, but only 107 cards are unseen" in error
    assert not at.success and not plays_rows(at) and rows(at, "expected points") is None  # no advice, no odds


def test_an_opponent_with_no_cards_is_named():
    t = view.Table(tuple(parse_cards(["red 5"])), parse_card("red 2"), (), (7, 0))
    error = unescape(page(t).error[0].value)
    assert "2nd after you: 0 cards: a player with no cards has gone out, so the hand is over" in error


@pytest.mark.parametrize("opponents", [(), (7,) * 6])
def test_a_player_count_the_game_does_not_have_is_named(opponents):
    t = view.Table(tuple(parse_cards(["red 5"])), parse_card("red 2"), (), opponents)
    at = page(t)
    assert not at.exception
    error = unescape(at.error[0].value)
    assert "Hit the Deck is for 2 to 6 players, so 1 to 5 opponents" in error and not at.success


def test_a_table_with_no_top_card_or_no_hand_asks_for_it():
    at = tap(page(), "red 5")
    assert "the top card of the discard pile" in at.info[0].value and not at.success and not at.error
    at = at.button(key="htd_clear").click().run()
    at = into(at, "top")
    at = tap(at, "red 2")
    assert "No cards in your hand" in at.info[0].value and not at.success and not at.error


def test_too_many_copies_in_a_table_from_the_session_are_named_not_advised():
    t = view.Table(tuple(parse_cards(["blue flip", "red 1"])), parse_card("red 2"), tuple(parse_cards(["blue flip"])))
    error = unescape(page(t).error[0].value)
    assert "Too many blue flip cards: the deck has 1, the table shows 2 (hand 1, discard 1)" in error


# -- the verdict is the advisor's ----------------------------------------------------------------------------------
def random_tables(n: int, seed: int) -> list[Any]:
    """Tables as a game leaves them: a hand, a top card, some of the discard and hand sizes, dealt from a shuffled
    deck (With a Hand, demands and hands that must draw among them)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = deck()
        rng.shuffle(cards)
        hand = tuple(cards[: rng.randint(1, 9)])
        top = cards[20]
        discard = tuple(cards[21: 21 + rng.randint(0, 12)])
        opponents = tuple(rng.randint(1, 12) for _ in range(rng.randint(1, 5)))
        out.append(view.Table(hand, top, discard, opponents))
    return out


@pytest.mark.parametrize("objective", ["follow", "points"])
def test_the_verdict_is_advise_on_the_same_knowledge(objective):
    at = page()
    if objective == "points":
        at = at.button_group(key="htd_objective").set_value("points").run()
    kinds = Counter()
    for t in random_tables(12, seed=15 if objective == "follow" else 16):
        at.session_state["htd_table"] = t
        at = at.run()
        k = Knowledge.build(t.hand, t.top, t.discard, t.opponents)
        assert verdict(at) == expected_box(k, objective), t
        a = advise(k, objective)
        assert [r["play"] for r in plays_rows(at)] == [str(p.card) for p in a.ranked]
        kinds[a.action] += 1
    assert kinds["play"] and kinds["draw"]  # both verdicts met


def test_the_objective_changes_the_verdict_as_the_advisor_does():
    # A low number that is hard to follow against a With a Hand worth 10: the two rankings disagree.
    t = view.Table(tuple(parse_cards(["red 1", "hit hand"])), parse_card("red 3"), (), (7,))
    k = t.knowledge()
    assert advise(k, "follow").play != advise(k, "points").play  # the test can tell the two apart
    at = page(t)
    assert verdict(at) == expected_box(k, "follow")
    at = at.button_group(key="htd_objective").set_value("points").run()
    assert verdict(at) == expected_box(k, "points")


def test_a_with_a_hand_on_top_lets_any_card_be_played():
    t = view.Table(tuple(parse_cards(["blue 1", "hit 3", "green cut"])), parse_card("hit hand"), (), (4, 4))
    at = page(t)
    assert "any card may be played on it" in texts(at)
    assert verdict(at) == expected_box(t.knowledge())
    assert len(plays_rows(at)) == 3


def test_a_demand_on_top_is_shown_and_advised():
    t = view.Table(tuple(parse_cards(["blue 1", "green 3", "hit 3"])), parse_card("hit 3"), (), (5,))
    at = page(t)
    assert "demand in force: a number card 3" in texts(at)
    assert verdict(at) == expected_box(t.knowledge())
    assert [r["play"] for r in plays_rows(at)] == ["green 3"]


# -- what the page quotes and measures -----------------------------------------------------------------------------
def test_the_quoted_tournament_figures_are_the_docs():
    doc = (ROOT / "docs" / "HITTHEDECK.md").read_text()
    assert [(t, p) for t, _, p, *_ in view.MEASURED] == [("advisor", 3), ("points", 3), ("advisor", 2), ("points", 2)]
    for tested, baseline, players, rate, interval, fair in view.MEASURED:
        row = f"| {tested} | {baseline} | {players} | {rate} | {interval} | {fair} |"
        assert row in doc, row
    at = page()
    shown = texts(at)
    assert "does not beat" in shown


def test_what_the_advice_is_worth_is_the_tournaments_answer():
    at = page()
    at = at.button_group(key="htd_players").set_value(2).run()
    at = at.button(key="htd_worth").click().run()
    r = tournament(view.GAMES[0], view.SEED, tested="advisor", baseline="highest", players=2)
    shown = texts(at)
    assert f"**Win rate {r.win_rate:.1%}** (95% interval {r.win_low:.1%} to {r.win_high:.1%})" in shown
    assert f"over {r.games:,} games against 1 × highest" in shown


# -- the table in the link -----------------------------------------------------------------------------------------
def test_a_table_entered_by_taps_reopens_identically_from_its_link():
    at = tap(page(), "red 5", "blue cut", "hit 3", "yellow 2")
    at = into(at, "top")
    at = tap(at, "red 4", "blue 4", "red 2")
    at = at.button_group(key="htd_players").set_value(4).run()
    at = at.number_input(key="htd_size_0").set_value(5).run()
    at = at.number_input(key="htd_size_2").set_value(3).run()
    at = at.button_group(key="htd_objective").set_value("points").run()
    at = into(at, "discard")
    at = tap(at, "green 1")  # mid-entry: taps going onto the discard
    link = params(at)
    assert link == {"hand": "r5 bcut hit3 y2", "top": "r2", "discard": "r4 b4 g1", "opp": "5 7 3", "obj": "points",
                    "into": "discard"}  # in the address bar: hand=r5+bcut+hit3+y2&top=r2&...
    again = opened(link)  # a reload: a new session, the same link
    assert not again.exception and not again.warning
    assert state(again) == state(at)
    assert again.button_group(key="htd_zone").value == "discard" and again.button_group(key="htd_objective").value \
        == "points" and again.button_group(key="htd_players").value == 4
    assert [again.number_input(key=f"htd_size_{i}").value for i in range(3)] == [5, 7, 3]
    assert verdict(again) == verdict(at) == expected_box(state(at).knowledge(), "points")
    assert plays_rows(again) == plays_rows(at) and rows(again, "expected points") == rows(at, "expected points")
    assert params(again) == link
    again = tap(again, "green 2")  # and the taps go on where they were going
    assert [str(c) for c in state(again).discard] == ["red 4", "blue 4", "green 1", "green 2"]


def test_the_link_is_the_table_on_every_run():
    at = page()
    assert params(at) == {"opp": "7 7", "obj": "follow"}
    at = tap(at, "hit hand", "green flip")
    assert params(at)["hand"] == "hithand gflip"
    at = at.button(key="htd_undo_button").click().run()
    assert params(at)["hand"] == "hithand"
    at = at.button(key="htd_clear").click().run()
    assert "hand" not in params(at)


def test_a_card_you_played_is_still_yours_after_a_reload():
    t = view.Table(tuple(parse_cards(["red 5", "red 1"])), parse_card("red 2"), tuple(parse_cards(["red 4"])),
                   (3, 6, 9))
    at = page(t).button(key="htd_played_button").click().run()
    played = state(at).top
    link = params(at)
    assert link["played"] == hitthedeck_link.token(played) == link["top"]
    again = opened(link)
    assert not again.success and again.info[0].value.startswith(f"### You played the {played}\n")
    again = again.number_input(key="htd_size_0").set_value(4).run()  # the next player drew: still your card
    assert not again.success and "played" in params(again)
    again = into(again, "top")
    again = tap(again, "red 3")  # the next player's card: your turn again
    assert "played" not in params(again) and verdict(again) == expected_box(state(again).knowledge())


GOOD = {"hand": "r5 bcut hit3", "top": "r2", "discard": "r4 b4", "opp": "5 6", "obj": "points", "into": "top"}


def test_a_link_typed_with_commas_and_long_names_reads_the_same():
    typed = opened({"hand": "Red5,bcut,HIT3", "top": "red2", "discard": "r4,blue4", "opp": "5,6", "obj": "points",
                    "into": "top"})
    assert not typed.warning and state(typed) == state(opened(GOOD)) and params(typed) == GOOD


@pytest.mark.parametrize("param, value, message", [
    ("hand", "r5,x9", "hand: 'x9' is not a card (a link writes r5, bcut, gflip, hit3, hity, hithand)"),
    ("hand", "r5,,b4", "hand: an empty card between separators ('r5,,b4')"),
    ("hand", "r5 red6", "hand: 'red6' is not a card"),
    ("hand", "r5 hit hand", "hand: 'hit' is not a card"),
    ("top", "r2,r3", "top: 'r2,r3' is not one card"),
    ("top", "r2 r3", "top: 'r2 r3' is not one card"),
    ("top", "purple", "top: 'purple' is not a card"),
    ("discard", "r٥", "discard: 'r٥' is not a card"),
    ("opp", "5,x", "opp: 'x' is not a hand size (a whole number 0 to 110, digits 0-9)"),
    ("opp", "5,+6", "opp: '+6' is not a hand size"),
    ("opp", "5,٦", "opp: '٦' is not a hand size"),
    ("opp", "5,111", "opp: '111' is not a hand size"),
    ("opp", "1,2,3,4,5,6", "opp: 6 hand sizes: Hit the Deck is for 2 to 6 players, so 1 to 5 opponents"),
    ("obj", "best", "obj: 'best' is not a ranking (follow or points)"),
    ("into", "pocket", "into: 'pocket' is not where taps go (hand, top or discard)"),
    ("played", "r4", "played: 'r4' is not the top card (it is the red 2)"),
])
def test_each_bad_link_parameter_is_named_and_the_rest_kept(param, value, message):
    good = opened(GOOD)
    at = opened({**GOOD, param: value})
    assert not at.exception
    assert len(at.warning) == 1 and warnings(at)[0].startswith(f"Not read from the link: {message}"), warnings(at)
    default = hitthedeck_link.Link()
    field = {"hand": "hand", "top": "top", "discard": "discard", "opp": "opponents"}.get(param)
    want = state(good)._replace(**{field: getattr(default, field)}) if field else state(good)
    assert state(at) == want  # the bad parameter at its default, every other one as the link has it
    want_link = {k: v for k, v in params(good).items() if k != param}
    if param in ("opp", "obj"):
        want_link[param] = params(opened({}))[param]  # written at its default
    assert params(at) == want_link  # the link is written back without the bad value
    for other in ("obj", "into"):
        if other != param:
            assert at.button_group(key={"obj": "htd_objective", "into": "htd_zone"}[other]).value == \
                {"obj": "points", "into": "top"}[other]


def test_the_links_warnings_go_once_the_table_is_worked_on():
    at = opened({"hand": "r5,x9", "top": "r2", "obj": "most"})
    assert [w.split(":")[1].strip() for w in warnings(at)] == ["hand", "obj"]
    at = at.run()  # a rerun that changes nothing: still there
    assert len(at.warning) == 2
    at = tap(at, "red 5")
    assert not at.warning and [str(c) for c in state(at).hand] == ["red 5"]


def test_too_many_copies_in_a_link_is_the_tables_problem_not_the_links():
    at = opened({"hand": "r5,r5,r5", "top": "r5", "discard": "r5", "opp": "7"})
    assert not at.warning and not at.exception
    assert "Too many red 5 cards: the deck has 4, the table shows 5" in unescape(at.error[0].value)
    assert at.button(key=key("red 5")).disabled


#: A link as long as Streamlit passes on (it drops a query string of more than 524,288 characters, encoded).
HOSTILE = {"hand": "x" * 100_000, "top": "r" * 100_000, "discard": "," * 10_000, "opp": "٥,٦",
           "obj": "p" * 100_000, "into": "\u202e" * 5000, "played": "r5," * 10_000}


def test_a_hostile_link_is_refused_with_a_message():
    """Bounded work (no timing here: speed is not a test's business): a long value is refused on its length
    and a long list on its count of commas, before anything is split or parsed."""
    link, problems = hitthedeck_link.read_query(HOSTILE)
    assert link == hitthedeck_link.Link() and [p.split(":")[0] for p in problems] == list(HOSTILE)
    assert all(len(p) < 140 for p in problems), problems  # a value is never echoed past twenty characters
    at = opened(HOSTILE)
    assert not at.exception
    shown = warnings(at)
    assert shown == [f"Not read from the link: {p}" for p in problems]
    assert shown[0] == "Not read from the link: hand: too long (100,000 characters)"
    assert shown[2] == "Not read from the link: discard: 10,001 cards, more than the deck's 110"
    assert shown[3].startswith("Not read from the link: opp: '٥' is not a hand size")
    assert state(at) == view.Table() and params(at) == {"opp": "7 7", "obj": "follow"}  # the link is clean again
    assert "Still to tap" in at.info[0].value


def test_a_link_longer_than_streamlit_reads_opens_an_empty_table():
    at = opened({"hand": "r5," * 200_000})  # Streamlit drops the whole query string: nothing reaches the page
    assert not at.exception and state(at) == view.Table() and "Still to tap" in at.info[0].value


def test_the_link_modules_doctests():
    result = doctest.testmod(hitthedeck_link)
    assert result.attempted >= 8 and not result.failed


# -- in a real browser ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def app_url():
    with serve_advisor() as url:
        yield url


def press(page: Any, card: str) -> None:
    """Tap a card button and wait for the rerun (the page's own count of the zone's cards changes)."""
    page.locator(f".st-key-{key(card)} button:visible").click()
    settle(page)


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                    reason=f"{CHROMIUM} is not installed (make test installs it)")
def test_a_table_tapped_on_a_phone(app_url):
    from playwright.sync_api import expect

    hand, top, sizes = ["red 5", "blue cut", "hit 3", "yellow 2", "green 2"], "red 2", [5, 8, 3]
    k = Knowledge.build(parse_cards(hand), parse_card(top), [], sizes)
    a = advise(k)
    head = "DRAW" if a.play is None else f"PLAY the {a.play}"
    with chromium("test_a_table_tapped_on_a_phone") as browser:
        phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        phone.goto(app_url + "/hitthedeck")
        zone = phone.locator(".st-key-htd_zone")
        expect(zone).to_be_visible(timeout=60000)
        settle(phone)
        for card in hand:
            press(phone, card)
        expect(zone).to_contain_text(f"Your hand ({len(hand)})")
        zone.get_by_text("Top card").click()
        settle(phone)
        # Mid-entry the screen locks and the browser reconnects: the page opens again from its link.
        link = phone.url
        assert "hand=r5+bcut+hit3+y2+g2&" in link and "into=top" in link, link
        phone.reload()
        expect(zone).to_be_visible(timeout=60000)
        settle(phone)
        expect(zone).to_contain_text(f"Your hand ({len(hand)})")
        expect(zone.locator("[aria-checked=true]")).to_have_text("Top card")
        assert phone.url == link
        press(phone, top)  # the taps go on into the top card
        phone.locator(".st-key-htd_players").get_by_text(str(len(sizes) + 1), exact=True).click()
        settle(phone)
        for i, n in enumerate(sizes):  # from the deal's seven, by taps on the number boxes' − and +
            size = phone.locator(f".st-key-htd_size_{i}")
            step = size.get_by_test_id("stNumberInputStepUp" if n > 7 else "stNumberInputStepDown")
            for _ in range(abs(n - 7)):
                step.click()
                settle(phone)
            expect(size.locator("input")).to_have_value(str(n))
        box = phone.locator(".st-key-htd_verdict").get_by_test_id("stAlertContentSuccess")
        expect(box).to_contain_text(head, timeout=30000)
        expect(box).to_contain_text(a.reason)
        # The table complete, a reload again: the same table, the same verdict.
        link, shown = phone.url, box.inner_text()
        assert "top=r2&" in link and "opp=5+8+3&" in link, link
        phone.reload()
        expect(zone).to_be_visible(timeout=60000)
        settle(phone)
        expect(box).to_contain_text(head, timeout=30000)
        assert box.inner_text() == shown and phone.url == link
        for i, n in enumerate(sizes):
            expect(phone.locator(f".st-key-htd_size_{i} input")).to_have_value(str(n))
        expect(phone.locator(".st-key-htd_players").locator("[aria-checked=true]")) \
            .to_have_text(str(len(sizes) + 1))
        widths = phone.evaluate("() => [document.documentElement.scrollWidth,"
                                " document.querySelector('[data-testid=stMain]').scrollWidth]")
        assert max(widths) <= 390, widths  # nothing overflows sideways
        ARTIFACTS.mkdir(exist_ok=True)
        phone.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
        phone.mouse.move(1, 1)  # no button left looking pressed
        phone.wait_for_timeout(300)
        phone.screenshot(path=str(ARTIFACTS / "hitthedeck.png"))
        phone.close()

        desk = browser.new_page(viewport={"width": 1280, "height": 900})
        desk.goto(app_url + "/hitthedeck")
        expect(desk.locator(".st-key-htd_zone")).to_be_visible(timeout=60000)
        settle(desk)
        for card in hand:
            press(desk, card)
        desk.locator(".st-key-htd_zone").get_by_text("Top card").click()
        settle(desk)
        press(desk, top)
        desk.mouse.move(0, 0)  # no tooltip over the page
        for i, n in enumerate([7, 7]):
            assert desk.locator(f".st-key-htd_size_{i} input").input_value() == str(n)
        k2 = Knowledge.build(parse_cards(hand), parse_card(top), [], [7, 7])
        box = desk.locator(".st-key-htd_verdict").get_by_test_id("stAlertContentSuccess")
        expect(box).to_contain_text(advise(k2).reason, timeout=30000)
        widths = desk.evaluate("() => [document.documentElement.scrollWidth,"
                               " document.querySelector('[data-testid=stMain]').scrollWidth]")
        assert max(widths) <= 1280, widths
        # The whole page (Streamlit scrolls inside the page, so grow the window to fit it).
        height = desk.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
        desk.set_viewport_size({"width": 1280, "height": height})
        desk.wait_for_timeout(1000)
        desk.screenshot(path=str(ARTIFACTS / "hitthedeck-desktop.png"), full_page=True)
        desk.close()
