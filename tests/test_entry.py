"""The advisor's entry form (solver/entry.py): edits, undo, links and JSON."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.entry import Draft
from solver.position import PositionError

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
    with pytest.raises(ValueError, match="Seat 1 line holds no 9"):
        d.remove("line 1", 9)
    with pytest.raises(ValueError, match="2 to 5 players"):
        d.set_players(6)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"players": "x"}, "players='x' is not a whole number"),
        ({"players": "7"}, "players=7: Hit! is for 2 to 5 players"),
        ({"line0": "1,two"}, "line0='1,two' is not a comma-separated list"),
    ],
)
def test_bad_links_name_the_parameter(params, message):
    with pytest.raises(PositionError, match=message):
        Draft.from_query(params)
