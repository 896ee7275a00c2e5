"""The advisor's entry form (solver/play/entry.py): edits, undo, links and JSON."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.play.entry import Draft
from solver.game.position import PositionError

cards = st.lists(st.integers(1, 10), max_size=6)


@st.composite
def drafts(draw):
    n = draw(st.integers(2, 5))
    d = Draft([draw(cards) for _ in range(n)], [draw(cards) for _ in range(n)],
              [draw(st.integers(0, 4)) for _ in range(n)], draw(cards), draw(st.integers(0, n - 1)))
    line = d.lines[d.active]
    d.offer = draw(st.sampled_from(line)) if line and draw(st.booleans()) else None
    return d


@settings(max_examples=200)
@given(drafts())
def test_link_round_trip(d):
    assert Draft.from_query(d.to_query()) == d


@settings(max_examples=100)
@given(drafts(), st.lists(st.tuples(st.integers(0, 10), st.integers(1, 10)), max_size=8))
def test_undo_restores_every_earlier_state(d, taps):
    before = Draft.from_query(d.to_query())
    zones = d.zones()
    for z, v in taps:
        d.add(zones[z % len(zones)], v)
    for _ in taps:
        assert d.undo()
    assert d == before and not d.undo()


def test_edits():
    d = Draft.empty(3)
    for v in (6, 1, 5):
        d.add("line 0", v)
    d.add("line 1", 5)
    d.set_offer(5)
    d.remove("line 0", 5)
    assert d.lines[0] == [6, 1] and d.offer is None  # the offer went with its card
    d.set_loot_counts(2, [0, 0, 3, 0, 0, 0, 0, 0, 0, 1])
    assert d.loots[2] == [3, 3, 3, 10]
    d.set_players(2)
    assert d.num_players == 2 and d.zones() == ["line 0", "loot 0", "line 1", "loot 1", "discard"]
    d.clear("line 0")
    assert d.lines[0] == []
    with pytest.raises(ValueError, match="no zone 'line 4'"):
        d.add("line 4", 3)
    with pytest.raises(ValueError, match="11 is not a card value"):
        d.add("discard", 11)
    with pytest.raises(ValueError, match="seat 1 line holds no 9"):
        d.remove("line 1", 9)
    with pytest.raises(ValueError, match="2 to 5 players"):
        d.set_players(6)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"players": "x"}, "link parameter players=x: not a whole number (digits 0-9 only)"),
        ({"players": "7"}, "link parameter players=7: Hit! is for 2 to 5 players"),
        ({"line0": "1,two"}, "link parameter line0=1,two (Seat 1 line): two is not a card value"),
    ],
)
def test_bad_links_name_the_parameter(params, message):
    with pytest.raises(PositionError, match=re.escape(message)):
        Draft.from_query(params)


# -- a link read leniently: each bad parameter skipped with one message ------------
LONG = "1" * 5000


@pytest.mark.parametrize(
    "key, text, message",
    [
        ("players", "٣", "link parameter players=٣: not a whole number (digits 0-9 only)"),
        ("players", "５", "link parameter players=５: not a whole number (digits 0-9 only)"),
        ("players", "+3", "link parameter players=+3: not a whole number (digits 0-9 only)"),
        ("players", " 3", "link parameter players=' 3': not a whole number (digits 0-9 only)"),
        ("players", "1", "link parameter players=1: Hit! is for 2 to 5 players"),
        ("players", LONG,
         "link parameter players=11111111111111111111…: too many digits; Hit! is for 2 to 5 players"),
        ("active", "-1", "link parameter active=-1: not a whole number (digits 0-9 only)"),
        ("active", "5", "link parameter active=5: there are 2 seats, active=0 to 1 (Seat 1 to Seat 2 on the page)"),
        ("active", "2", "link parameter active=2: there are 2 seats, active=0 to 1 (Seat 1 to Seat 2 on the page)"),
        ("offer", "0", "link parameter offer=0: not a card value (1 to 10)"),
        ("offer", "11", "link parameter offer=11: not a card value (1 to 10)"),
        ("lost1", "10000", "link parameter lost1=10000 (Seat 2 lost turns): too many digits; lost turns go from 0 to 9999"),
        ("lost0", "1.5", "link parameter lost0=1.5 (Seat 1 lost turns): not a whole number (digits 0-9 only)"),
        ("line1", "3,11", "link parameter line1=3,11 (Seat 2 line): 11 is not a card value (1 to 10)"),
        ("line0", "3,,4", "link parameter line0=3,,4 (Seat 1 line): an empty card between commas"),
        ("loot0", "3, 4", "link parameter loot0='3, 4' (Seat 1 loot): ' 4' is not a card value (1 to 10)"),
        ("line0", "\u200b7", "link parameter line0='\\u200b7' (Seat 1 line): '\\u200b7' is not a card value (1 to 10)"),
        ("discard", "1,٣", "link parameter discard=1,٣: ٣ is not a card value (1 to 10)"),
        ("loot1", ",".join(["7"] * 50_000),
         "link parameter loot1=7,7,7,7,7,7,7,7,7,7,… (Seat 2 loot): 50000 cards, more than the whole deck (90)"),
        ("line0", "1," + LONG,
         "link parameter line0=1,111111111111111111… (Seat 1 line): 11111111111111111111… is not a card value (1 to 10)"),
    ],
)
def test_a_bad_parameter_is_skipped_with_one_short_message(key, text, message):
    good = {"players": "2", "active": "1", "line0": "6,1", "loot0": "3,3", "lost0": "2",
            "line1": "5,4", "loot1": "9", "lost1": "1", "discard": "8,2", "offer": "5"}
    d, messages = Draft.read_query({**good, key: text})
    assert messages == [message]
    assert len(message) < 120 and "\n" not in message
    expected, no_messages = Draft.read_query({k: v for k, v in good.items() if k != key})
    assert not no_messages and d == expected  # the default, every other parameter kept
    with pytest.raises(PositionError) as raised:
        Draft.from_query({**good, key: text})
    assert str(raised.value) == message


def test_every_bad_parameter_gets_its_message_and_every_good_one_is_kept():
    d, messages = Draft.read_query({"players": "3", "active": "5", "line0": "6,1", "loot1": "x", "lost2": "10000",
                                    "line2": "4", "discard": "2,2", "offer": "11", "seat9": "whatever"})
    assert d == Draft([[6, 1], [], [4]], [[], [], []], [0, 0, 0], [2, 2])
    assert messages == ["link parameter active=5: there are 3 seats, active=0 to 2 (Seat 1 to Seat 3 on the page)",
                        "link parameter loot1=x (Seat 2 loot): x is not a card value (1 to 10)",
                        "link parameter lost2=10000 (Seat 3 lost turns): too many digits; lost turns go from 0 to 9999",
                        "link parameter offer=11: not a card value (1 to 10)"]


def test_a_bad_players_count_falls_back_to_two_seats():
    d, messages = Draft.read_query({"players": "9", "active": "2", "line1": "5", "line2": "4"})
    assert d == Draft([[], [5]], [[], []], [0, 0])
    assert messages == ["link parameter players=9: Hit! is for 2 to 5 players",
                        "link parameter active=2: there are 2 seats, active=0 to 1 (Seat 1 to Seat 2 on the page)",
                        # the third seat's line is not silently dropped: its 4 would count as still in the pile
                        "link parameter line2=4 (Seat 3 line): there are 2 seats (Seat 1 to Seat 2), so this one "
                        "was not read"]
    assert Draft.read_query({"players": "2", "lost3": "0", "line4": ""})[1] == []  # nothing there to lose


def test_messages_are_plain_and_short():
    d, messages = Draft.read_query({"players": "\x1b[31m\n<b>2</b>" + "x" * 1000})
    assert d == Draft.empty(2) and len(messages) == 1
    assert "\n" not in messages[0] and "\x1b" not in messages[0] and len(messages[0]) < 100
    assert messages[0].endswith("…': not a whole number (digits 0-9 only)")


def test_no_long_number_text_reaches_int(monkeypatch):
    import solver.play.entry

    seen = []

    class Spy(int):
        def __new__(cls, x=0, *args):
            seen.append(len(x) if isinstance(x, str) else 0)
            return int(x, *args)

    monkeypatch.setattr(solver.play.entry, "int", Spy, raising=False)
    params = {k: "7" * 5000 for k in ("players", "active", "offer", "lost0", "lost1", "line0", "loot1", "discard")}
    d, messages = Draft.read_query(params)
    assert d == Draft.empty(2) and len(messages) == len(params)
    assert max(seen, default=0) <= 4


def test_too_many_copies_is_the_positions_error_not_the_links():
    d, messages = Draft.read_query({"loot0": ",".join(["7"] * 8), "line1": "7"})
    assert not messages and d.loots[0] == [7] * 8
    with pytest.raises(PositionError, match="too many 7s"):
        d.position()


def test_empty_parameters_are_absent_ones():
    assert Draft.read_query({"players": "", "active": "", "line0": "", "offer": ""}) == (Draft.empty(2), [])


@settings(max_examples=100)
@given(drafts())
def test_a_drafts_own_link_reads_back_without_messages(d):
    assert Draft.read_query(d.to_query()) == (d, [])


# -- a JSON file never raises anything but a short PositionError --------------------
@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000, "not a JSON position: nested too deeply"),
        ('{"players": [{"line": [' + "7" * 5000 + "]}, {}], \"active\": 0}", "not a JSON position: a number"),
        (b"\xff{", "not a JSON position"),
        ('{"players": [{"line": "' + "x" * 5000 + '"}, {}], "active": 0}', r"players\[0\]\.line: 'xxxx"),
        ('{"players": [{"line": [' + "7" * 4000 + ']}, {}], "active": 0}', r"players\[0\]\.line\[0\]: 7777"),
        ('{"players": [{"lost_turns": [' + "1," * 5000 + '1]}, {}], "active": 0}', r"players\[0\]\.lost_turns"),
        ('{"players": [{}, {}], "active": ' + "9" * 4000 + "}", "active: seat 9999"),
        ("[" * 500 + "]" * 500, "position"),
        ("7", "position"),
    ],
)
def test_bad_json_is_a_short_position_error(text, message):
    with pytest.raises(PositionError, match=message) as raised:
        Draft.from_json(text)
    assert len(str(raised.value)) < 400


@settings(max_examples=200)
@given(st.binary(max_size=64) | st.text(max_size=64)
       | st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                      lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
                          st.sampled_from(["players", "active", "line", "loot", "lost_turns", "discard", "offer"]),
                          kids, max_size=4),
                      max_leaves=20).map(json.dumps))
def test_from_json_raises_only_position_errors(text):
    try:
        Draft.from_json(text)
    except PositionError as e:
        assert len(str(e)) < 400


def test_a_file_may_hold_what_a_link_can_carry():
    with pytest.raises(PositionError, match=r"players\[0\]\.lost_turns: 10000 is more than the advisor takes"):
        Draft.from_json('{"players": [{"lost_turns": 10000}, {}], "active": 0}')
    d = Draft.from_json('{"players": [{"lost_turns": 9999}, {}], "active": 0}')
    assert Draft.read_query(d.to_query()) == (d, [])  # and its link reads back


def test_a_file_may_hold_more_than_99_lost_turns():
    d = Draft.from_json('{"players": [{"lost_turns": 150}, {"line": [3]}], "active": 1}')
    assert d.lost_turns == [150, 0] and d.position().players[0].lost_turns == 150
    d.set_lost_turns(1, 4)
    d.set_players(3)
    assert d.lost_turns == [150, 4, 0] and d.undo() and d.undo() and d.lost_turns == [150, 0]
    assert Draft.from_json(json.dumps(d.to_dict())) == d


# -- the steal on offer ----------------------------------------------------------------
def test_a_new_card_in_the_active_line_decides_the_earlier_steal():
    d = Draft([[6, 5], [5]], [[], []], [0, 0], active=0, offer=5)
    for zone in ("line 1", "loot 0", "loot 1", "discard"):
        d.add(zone, 2)
        assert d.offer == 5
    d.add("line 0", 3)
    assert d.offer is None
    assert d.undo() and d.offer == 5 and d.lines[0] == [6, 5]
    d.add("line 0", 5)  # another 5, still held by seat 1: it is the card on offer now
    assert d.offer == 5 and d.lines[0] == [6, 5, 5]
    d.add("line 1", 3)
    d.add("line 0", 3)  # seat 1 holds a 3 now: the new 3 can steal it
    assert d.offer == 3
    d.undo(), d.undo(), d.undo()
    d.set_active(1)
    d.set_offer(5)
    d.add("line 0", 4)  # no longer the active line
    assert d.offer == 5


def test_take_steal_moves_every_card_of_the_value_from_every_other_line():
    d = Draft([[5, 1, 5], [6, 5], [2], [5, 5, 9]], [[5], [], [], []], [0, 0, 0, 0], active=1, offer=5)
    before = Draft.from_dict(d.to_dict())
    d.take_steal()
    assert d.lines == [[1], [6, 5, 5, 5, 5, 5], [2], [9]] and d.loots[0] == [5] and d.offer is None
    assert d.undo() and d == before and not d.undo()


def test_take_steal_needs_an_offer_someone_else_holds():
    d = Draft([[5, 1], [6]], [[], [5]], [0, 0])
    with pytest.raises(ValueError, match="no steal is on offer"):
        d.take_steal()
    d.set_offer(5)
    with pytest.raises(ValueError, match="no other seat holds a 5"):
        d.take_steal()  # a 5 in a loot cannot be stolen
    d.set_offer(1)
    d.add("line 1", 5)
    with pytest.raises(ValueError, match="no other seat holds a 1"):
        d.take_steal()
    assert d.undo() and d.undo() and d.undo() and not d.undo()  # refused edits left no step
    d = Draft([[1], [5]], [[], []], [0, 0], offer=5)  # as a link may say
    with pytest.raises(ValueError, match="seat 0 \\(to play\\) has no 5 in its line"):
        d.take_steal()
    assert d.lines == [[1], [5]] and d.offer == 5


def test_decline_steal_clears_the_offer():
    d = Draft([[5, 1], [5]], [[], []], [0, 0], offer=5)
    d.decline_steal()
    assert d.offer is None and d.lines == [[5, 1], [5]]
    assert d.undo() and d.offer == 5
    with pytest.raises(ValueError, match="no steal is on offer"):
        Draft.empty().decline_steal()


# -- every edit is one step back ------------------------------------------------------
def test_undoing_every_edit_gives_back_the_empty_draft():
    d = Draft.empty(2)
    edits = [("add", "line 0", 5), ("set_players", 4), ("add", "line 3", 5), ("add", "line 2", 5),
             ("add", "loot 3", 9), ("set_active", 2), ("set_offer", 5), ("take_steal",), ("add", "line 2", 7),
             ("set_offer", 7), ("decline_steal",), ("set_lost_turns", 3, 2), ("set_loot_counts", 1, [1] * 10),
             ("remove", "line 2", 7), ("clear", "loot 1"), ("add", "discard", 10), ("set_active", 3),
             ("set_players", 2)]  # drops seats 2 and 3 with their cards
    for method, *args in edits:
        getattr(d, method)(*args)
    assert d.num_players == 2 and d.active == 1 and d.lines == [[], []] and d.discard == [10]
    for _ in edits:
        assert d.undo()
    assert d == Draft.empty(2) and not d.undo()


def test_out_of_range_edits_are_refused_and_leave_no_step():
    d = Draft.empty(3)
    with pytest.raises(ValueError, match=re.escape("seat 2 lost turns: 10000 is out of range (0 to 9999)")):
        d.set_lost_turns(2, 10000)
    with pytest.raises(ValueError, match="seat 1 lost turns: -1 is out of range"):
        d.set_lost_turns(1, -1)
    with pytest.raises(ValueError, match="no seat 3"):
        d.set_lost_turns(3, 1)
    with pytest.raises(ValueError, match="seat 1 loot: 12 cards of value 3, the deck has 11"):
        d.set_loot_counts(1, [0, 0, 12, 0, 0, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="seat 0 loot: 8 cards of value 6, the deck has 7"):
        d.set_loot_counts(0, [0, 0, 0, 0, 0, 8, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="seat 0 loot: -1 cards of value 1"):
        d.set_loot_counts(0, [-1] + [0] * 9)
    with pytest.raises(ValueError, match="ten counts"):
        d.set_loot_counts(0, [0] * 9)
    with pytest.raises(ValueError, match="no seat 5"):
        d.set_loot_counts(5, [0] * 10)
    with pytest.raises(ValueError, match=re.escape("no seat 3 at a table of 3 (seats are 0 to 2)")):
        d.set_active(3)
    with pytest.raises(ValueError, match="11 is not a card value"):
        d.set_offer(11)
    assert not d.undo()
    d.set_lost_turns(2, 99)
    d.set_loot_counts(1, [11] * 5 + [7] * 5)
    assert d.lost_turns == [0, 0, 99] and len(d.loots[1]) == 90
