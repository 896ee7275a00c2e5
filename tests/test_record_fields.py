"""Every field of a game record checked (solver.game.record): a bad one is a RecordError naming the line and the
reason, never another exception; a record that replays but cannot be played on is refused where it must be."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.game.record import MAX_NAME, RecordError, dumps, name_problem, replay
from solver.game.rules import Match
from solver.play.simulate import TurnPolicy
from solver.play.store import GameStore

ROOT = Path(__file__).parent.parent
ROUND = '{"event": "round", "round": 1, "first": 0}'


def head(**fields: object) -> str:
    base: dict[str, object] = {"record": "hit", "version": 1, "players": 2, "names": ["Ann", "Bob"], "rounds": 1,
                               "variant": False, "seed": None}
    base.update(fields)
    return json.dumps(base)


def played(players: int = 2, seed: int = 4, rounds: int = 1) -> list[str]:
    m = Match(players, seed=seed, rounds=rounds, variant=rounds > 1)
    m.play(TurnPolicy())
    return dumps(m).splitlines()


# -- numbers ---------------------------------------------------------------------------------------------
def test_a_number_of_over_4300_digits_is_refused_with_its_line():
    big = "9" * 5000
    with pytest.raises(RecordError, match=r"^line 1: a number with over 4,300 digits$"):
        replay(head()[:-1] + f', "x": {big}}}')
    with pytest.raises(RecordError, match=r"^line 3: a number with over 4,300 digits$"):
        replay("\n".join([head(), ROUND, f'{{"event": "draw", "seat": 0, "value": {big}}}']))


def test_review_of_a_record_with_a_huge_number_names_the_line_without_a_traceback():
    text = "\n".join([head(), ROUND, '{"event": "draw", "seat": 0, "value": ' + "7" * 5000 + "}"])
    done = subprocess.run([sys.executable, "-m", "solver", "review", "-"], input=text, capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "line 3: a number with over 4,300 digits" in done.stderr


def test_nan_and_infinity_are_not_json():
    with pytest.raises(RecordError, match=r"^line 1: not valid JSON: NaN"):
        replay(head()[:-1] + ', "x": NaN}')
    with pytest.raises(RecordError, match=r"^line 1: not valid JSON: -Infinity"):
        replay(head(seed=0).replace('"seed": 0', '"seed": -Infinity'))


# -- the header -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fields, message", [
    ({"rounds": 1, "variant": True}, r"rounds 1 with variant true: the rounds variant \(R15\) is 2 to 7 rounds"),
    ({"rounds": 3, "variant": False}, r"rounds 3 with variant false"),
    ({"rounds": "2"}, r'rounds "2": one round, or 2 to 7'),
    ({"rounds": 2.0, "variant": True}, r"rounds 2.0: one round, or 2 to 7"),
    ({"rounds": True}, r"rounds true: one round"),
    ({"rounds": 8, "variant": True}, r"rounds 8: one round"),
    ({"variant": "no"}, r'variant "no" is not true or false'),
    ({"version": True}, r"record version true"),
    ({"players": True}, r"players true: Hit! is for 2 to 5 players"),
    ({"players": 1, "names": ["A"]}, r"players 1: Hit! is for 2 to 5"),
    ({"players": 6}, r"players 6: Hit! is for 2 to 5"),
    ({"seed": "7"}, r'seed "7" is not a whole number or null'),
    ({"seed": 1.5}, r"seed 1.5 is not a whole number"),
    ({"names": ["Ann"]}, r"names must be a list of 2 names, one per seat"),
    ({"names": "Ann, Bob"}, r"names must be a list of 2 names"),
    ({"names": ["Ann", 7]}, r"names\[1\] 7 is not a text"),
    ({"names": ["Ann", None]}, r"names\[1\] null is not a text"),
    ({"names": [["Ann"], "Bob"]}, r'names\[0\] \["Ann"\] is not a text'),
    ({"names": ["Ann", "x" * 41]}, rf"names\[1\] \"x{{23}}…? is 41 characters long; {MAX_NAME} at most"),
    ({"names": ["Ann", "x" * 10**6]}, r"names\[1\] .* is 1000000 characters long"),
    ({"names": ["Ann", "Bob\nEve"]}, r"names\[1\] .* holds a control character, a newline or a tab"),
    ({"names": ["A\u0000n", "Bob"]}, r"names\[0\] .* holds a control character"),
    ({"names": ["Ann", "Bob\u202e"]}, r"names\[1\] .* holds a control character"),
    ({"names": ["Ann", ""]}, r"names\[1\] \"\" is empty"),
    ({"names": ["Ann", "   "]}, r"names\[1\] .* is empty"),
    ({"names": ["Ann", " Bob"]}, r"names\[1\] .* has spaces at its ends or two in a row"),
    ({"names": ["****", "Bob"]}, r'names\[0\] "\*\*\*\*" has no letter or digit'),
    ({"names": ["Ann", "_#`"]}, r"names\[1\] .* has no letter or digit"),
])
def test_a_bad_header_is_refused_with_the_line_and_the_reason(fields, message):
    with pytest.raises(RecordError, match=r"^line 1: " + message) as e:
        replay("\n".join([head(**fields), ROUND]))
    assert len(str(e.value)) < 300  # a huge value is never written out


def test_good_names_pass_and_markdown_inside_a_name_is_the_pages_to_escape():
    for name in ["Ann", "threshold:25", "Zoë", "李", "**Bob**", "x_y", "#1", "seat 3", "x" * MAX_NAME]:
        assert name_problem(name) is None, name
    assert replay("\n".join([head(names=["**Bob**", "#1"]), ROUND])).names == ["**Bob**", "#1"]
    assert replay(head(names=[])).names == ["seat 1", "seat 2"]  # no names: the seats' own
    assert replay(head(names=None, rounds=2, variant=True)).match.rounds == 2


def test_a_saved_game_with_a_name_from_before_the_check_is_shown_tidied_not_lost():
    text = "\n".join([head(names=["****", "Bob\tby the window " + "x" * 50]), ROUND])
    with pytest.raises(RecordError):
        replay(text)
    assert replay(text, tidy_names=True).names == ["seat 1", ("Bob by the window " + "x" * 50)[:MAX_NAME]]


# -- other lines -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("line, message", [
    ('{"event": ["draw"], "seat": 0, "value": 3}', r'line 3: unknown event \["draw"\]'),
    ('{"event": {"a": 1}}', r"line 3: unknown event"),
    ('{"event": "round", "round": true, "first": 0}', r"line 3: round 1 is not over"),
    ('{"event": "draw", "seat": 0, "value": "' + "x" * 10**6 + '"}', r'line 3: .draw. event: value "x{19}…'),
    ('{"event": "' + "y" * 10**6 + '"}', r'line 3: unknown event "y{39}…'),
    ('{"event": "draw", "seat": 0, "value": 3, "' + "k" * 10**5 + '": 1}', r"line 3: a 'draw' event has the"),
])
def test_a_bad_line_is_refused_with_its_number(line, message):
    with pytest.raises(RecordError, match="^" + message) as e:
        replay("\n".join([head(), ROUND, line]))
    assert len(str(e.value)) < 300


def test_round_and_game_end_lines_take_only_their_fields_in_their_types():
    with pytest.raises(RecordError, match=r"^line 2: expected round 1, the record says true"):
        replay("\n".join([head(), '{"event": "round", "round": true, "first": 0}']))
    with pytest.raises(RecordError, match=r"^line 2: a 'round' line has the fields round, first.*unknown \"x\""):
        replay("\n".join([head(), '{"event": "round", "round": 1, "first": 0, "x": 1}']))
    rows = played()
    end = json.loads(rows[-1])
    for key, value in [("scores", [float(s) for s in end["scores"]]), ("winner", float(end["winner"])),
                       ("ranking", [bool(r) for r in end["ranking"]])]:
        with pytest.raises(RecordError, match=rf"^line {len(rows)}: {key}: the rules give"):
            replay("\n".join(rows[:-1] + [json.dumps({**end, key: value})]))
    with pytest.raises(RecordError, match=rf"^line {len(rows)}: a 'game end' line has the fields.*unknown \"note\""):
        replay("\n".join(rows[:-1] + [json.dumps({**end, "note": "gg"})]))


def test_a_timer_before_the_first_card_may_have_a_blank_line_before_its_draw():
    text = "\n".join([head(), ROUND, '{"event": "timer", "seat": 0, "phase": "must draw"}', "",
                      '{"event": "draw", "seat": 0, "value": 4}'])
    assert replay(text).game.players[0].line == [4]


# -- records that replay but cannot be played on ------------------------------------------------------------
def test_records_that_cannot_be_played_on_are_refused_on_import(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    rows = played(2, 4)
    bust = next(k for k, r in enumerate(rows) if json.loads(r).get("event") == "bust")
    cases = [
        ([head()], r"^line 1: the record has only its header: no round starts \(a 'round' line must follow\)"),
        (rows[:-1], rf"^line {len(rows) - 1}: the last round is over but the record has no 'game end' line"),
        # a draw that busts, cut before the bust the rules give
        (rows[:bust], rf"^line {bust}: the record stops before what the rules give next: {{\"event\": \"bust\""),
    ]
    two = played(3, 5, rounds=2)
    second = next(k for k, r in enumerate(two) if json.loads(r).get("round") == 2)
    cases.append((two[:second], rf"^line {second}: round 1 is over but round 2 does not start"))
    for record, message in cases:
        replay("\n".join(record))  # a record may stop anywhere to be replayed or reviewed
        with pytest.raises(RecordError, match=message):
            store.import_record("\n".join(record), "cut")
    assert store.games() == []  # nothing saved
    assert store.game(store.import_record("\n".join(rows), "whole")).lines == len(rows)


# -- only RecordError ever escapes ---------------------------------------------------------------------------
BASES = [played(2, 4), played(3, 5, rounds=2), [head(), json.dumps({
    "event": "round", "round": 1, "first": 0,
    "start": {"players": [{"line": [3, 4], "loot": [10, 10]}, {"loot": [9]}], "active": 1, "discard": [1, 1]}}),
    '{"event": "draw", "seat": 1, "value": 3}', '{"event": "steal", "seat": 1, "value": 3, "taken": 1, '
                                                 '"from": [[0, 1]]}']]
KEYS = ["event", "seat", "value", "taken", "from", "lost", "line", "cards", "phase", "scores", "round", "first",
        "start", "record", "version", "players", "names", "rounds", "variant", "seed", "winner", "ranking",
        "loot_cards", "lost_turns", "players", "active", "discard", "offer", "match", "loot"]
ATOMS = (st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | st.floats(allow_nan=False)
         | st.text(max_size=6) | st.sampled_from(["draw", "round", "game end", "must draw", "choose", "steal",
                                                    "hit", "round end", "timer", "stop", "x" * 50]))
VALUES = st.recursive(ATOMS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=4), max_leaves=12)
RAW = st.sampled_from(["", "[", "{", "null", "[1]", '"x"', "1e999999", "9" * 5000, "{}", '{"event": 7}',
                       "\u0000", "[" * 5000, '{"a": NaN}', '{"event": "round"}', '{"event": "game end"}']) | st.text(
    max_size=20)


def _set(data: object, path: list[str], value: object) -> None:
    for key in path[:-1]:
        if not isinstance(data, dict) or not isinstance(data.get(key), (dict, list)):
            break
        data = data[key]
    if isinstance(data, dict):
        data[path[-1]] = value
    elif isinstance(data, list) and data:
        data[0] = value


MUTATION = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 400), st.lists(st.sampled_from(KEYS), min_size=1, max_size=3), VALUES),
    st.tuples(st.just("del"), st.integers(0, 400), st.sampled_from(KEYS)),
    st.tuples(st.just("raw"), st.integers(0, 400), RAW),
    st.tuples(st.just("drop"), st.integers(0, 400)),
    st.tuples(st.just("dup"), st.integers(0, 400)),
    st.tuples(st.just("swap"), st.integers(0, 400), st.integers(0, 400)),
    st.tuples(st.just("cut"), st.integers(0, 400)),
)


def mutate(rows: list[str], mutations: list[tuple]) -> list[str]:
    rows = list(rows)
    for m in mutations:
        if not rows:
            break
        kind, at = m[0], m[1] % len(rows)
        if kind == "set":
            try:
                data = json.loads(rows[at])
            except (ValueError, RecursionError):
                continue
            _set(data, m[2], m[3])
            rows[at] = json.dumps(data)
        elif kind == "del":
            try:
                data = json.loads(rows[at])
            except (ValueError, RecursionError):
                continue
            if isinstance(data, dict):
                data.pop(m[2], None)
                rows[at] = json.dumps(data)
        elif kind == "raw":
            rows[at] = m[2]
        elif kind == "drop":
            del rows[at]
        elif kind == "dup":
            rows.insert(at, rows[at])
        elif kind == "swap":
            b = m[2] % len(rows)
            rows[at], rows[b] = rows[b], rows[at]
        else:
            rows = rows[:at + 1]
    return rows


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(range(len(BASES))), mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_a_mangled_record_is_replayed_or_refused_with_a_line_never_another_error(base, mutations):
    rows = mutate(BASES[base], mutations)
    try:
        got = replay("\n".join(rows))
        got.check_resumable()
    except RecordError as e:
        assert str(e).startswith(("line ", "end of record")), e
        assert len(str(e)) < 600
