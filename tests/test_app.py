"""The advisor's wiring with Streamlit's AppTest: inputs to outputs, messages, links, JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from solver.entry import Draft
from solver.models import MODELS, advise
from solver.position import Position, PositionError

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "advisor_app.py")
EXAMPLE = {"players": [{"line": [6, 1, 5], "loot": [3, 7, 7], "lost_turns": 0},
                       {"line": [5, 5], "loot": [], "lost_turns": 1}],
           "active": 0, "discard": [8, 8, 2], "offer": 5}


def app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at.run()


def summary(at: AppTest) -> str:
    return at.code[0].value


def expected_summary(position: dict) -> str:
    a = advise(Position.from_dict(position))
    text = f"bust {a.bust_probability_after_steal} | stop {'-' if a.stop is None else a.stop} | draw {a.draw} | action {a.action}"
    if a.steal:
        text += f" | steal {a.steal.action}: take {a.steal.take}, decline {a.steal.decline}"
    return text


def test_empty_page_is_a_fresh_deck():
    at = app()
    assert not at.exception
    assert summary(at) == expected_summary({"players": [{}, {}], "active": 0})
    assert at.metric[0].value == "0.0%"


def test_link_opens_the_position_and_shows_its_advice():
    at = app(Draft.from_dict(EXAMPLE).to_query())
    assert not at.exception and not at.error
    assert summary(at) == expected_summary(EXAMPLE)
    assert "TAKE the steal" in at.info[0].value
    assert at.success[0].value.startswith("**STOP.**")
    assert at.metric[0].value == "30.4%"


def test_tapping_cards_changes_the_advice_and_the_link():
    at = app(Draft.from_dict(EXAMPLE).to_query())
    at.radio(key="zone").set_value("line 1").run()
    at.button(key="card_9").click().run()
    want = json.loads(json.dumps(EXAMPLE))
    want["players"][1]["line"].append(9)
    assert summary(at) == expected_summary(want)
    assert at.query_params["line1"] == ["5,5,9"] or at.query_params["line1"] == "5,5,9"
    at.button(key="undo").click().run()
    assert summary(at) == expected_summary(EXAMPLE)
    at.button(key="clear").click().run()
    want["players"][1]["line"] = []
    # With seat 1's 5s gone there is no steal on offer any more.
    assert summary(at) == expected_summary(want)


def _params(at: AppTest) -> dict[str, str]:
    out = {}
    for k in ("players", "active", "line0", "loot0", "line1", "loot1", "lost1", "discard", "offer"):
        if k in at.query_params:
            v = at.query_params[k]
            out[k] = v[0] if isinstance(v, list) else v
    return out


def test_query_parameter_round_trip():
    at = app(Draft.from_dict(EXAMPLE).to_query())
    assert Draft.from_query(_params(at)).to_dict() == Draft.from_dict(EXAMPLE).to_dict()


@pytest.mark.parametrize(
    "query, message",
    [
        ({"players": "2", "discard": "7,7,7,7,7,7,7,7"}, "too many 7s: the deck has 7, the table shows 8"),
        ({"players": "2", "line0": "3", "offer": "4"}, "offer: the active player (seat 0) has no 4"),
        ({"players": "2", "loot0": ",".join(["1"] * 11 + ["2"] * 11 + ["3"] * 11 + ["4"] * 11 + ["5"] * 11
                                           + ["6"] * 7 + ["7"] * 7 + ["8"] * 7 + ["9"] * 7 + ["10"] * 7)},
         "the pile is empty"),
        ({"players": "2", "line0": "12"}, "players[0].line[0]: 12 is not a card value"),
    ],
)
def test_impossible_positions_say_what_is_wrong(query, message):
    at = app(query)
    assert not at.exception
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    assert len(at.code) == 0  # no advice for an impossible table


def test_bad_link_is_reported_not_raised():
    at = app({"players": "9"})
    assert not at.exception
    assert "players=9" in at.error[0].value


def test_loot_by_counts_and_players_change():
    at = app()
    at.number_input(key="loot_0_7_0").set_value(3).run()
    assert Draft.from_query(_params(at)).loots[0] == [7, 7, 7]
    at.button_group[0].set_value(4).run()
    d = Draft.from_query(_params(at))
    assert d.num_players == 4 and d.loots[0] == [7, 7, 7]


def test_download_is_the_command_line_schema(monkeypatch):
    # What the download button hands to Streamlit's media store (the bytes a
    # click serves) is the position on the page, in the command line's schema.
    from streamlit.runtime.media_file_manager import MediaFileManager

    served: dict[str, bytes] = {}
    real_add = MediaFileManager.add

    def spy(self, data, mimetype, coordinates, file_name=None, is_for_static_download=False):  # type: ignore[no-untyped-def]
        served[file_name] = data
        return real_add(self, data, mimetype, coordinates, file_name=file_name,
                        is_for_static_download=is_for_static_download)

    monkeypatch.setattr(MediaFileManager, "add", spy)
    at = app(Draft.from_dict(EXAMPLE).to_query())
    assert not at.exception
    assert at.download_button(key="download").label == "Download position (JSON)"
    assert Position.from_json(served["hit-position.json"].decode()) == Position.from_dict(EXAMPLE)


def test_draft_json_errors_are_position_errors():
    with pytest.raises(PositionError, match="not a JSON position"):
        Draft.from_json(b"\xff{")
    with pytest.raises(PositionError, match="too many 9s"):
        Draft.from_json(json.dumps({"players": [{"line": [9] * 8}, {}], "active": 0}))


def test_study_page_shows_the_tables():
    import pandas as pd

    at = AppTest.from_file(str(ROOT / "pages" / "study.py"), default_timeout=120).run()
    assert not at.exception and not at.error
    best = pd.read_parquet(ROOT / "data" / "rules.parquet").iloc[0]
    assert best["statement"] in at.success[0].value


def test_readme_prints_the_best_rule_of_the_tables():
    import pandas as pd

    best = pd.read_parquet(ROOT / "data" / "rules.parquet").iloc[0]
    assert best["statement"] in (ROOT / "README.md").read_text()


DISAGREE = {"players": [{"line": [7, 1, 3], "loot": [5, 7, 6, 9, 6, 6, 5, 9, 4, 1, 5, 5, 3, 4, 7, 3, 3, 4, 9, 10, 8,
                                                     4, 8, 8, 5, 5, 7, 7, 4, 4, 5, 8, 8, 4, 3, 7], "lost_turns": 4},
                        {"line": [9, 5], "loot": [10, 3, 3, 9, 10, 10, 7, 1, 2, 2, 2, 9, 10, 10, 6], "lost_turns": 1}],
            "active": 0, "discard": [3, 3, 2, 2, 2, 3, 2, 4, 6, 1, 5, 8, 3, 5, 5, 6, 2, 2, 2, 9, 10, 1, 8, 1, 1, 1, 1,
                                     4, 1]}


def test_models_side_by_side_and_disagreement_highlighted():
    pos = Position.from_dict(DISAGREE)
    turn, bank, duel = (advise(pos, m, exact=MODELS[m].quick_exact) for m in ("turn", "bank", "duel"))
    at = app(Draft.from_dict(DISAGREE).to_query())
    assert not at.exception
    assert [c.value for c in at.code] == [
        f"bust {a.bust_probability} | stop {a.stop} | draw {a.draw} | action {a.action}" for a in (turn, bank, duel)]
    captions = " ".join(c.value for c in at.caption)
    assert "Numbers: exact." in captions and "Numbers: float (the speed path)." in captions
    assert turn.action != bank.action  # this table was picked because they differ
    assert "The models disagree" in at.warning[0].value
    assert f"`turn` says {turn.action.value.upper()}" in at.warning[0].value
    assert f"`bank` says {bank.action.value.upper()}" in at.warning[0].value


def test_duel_refusal_is_shown_not_raised():
    at = app(Draft.from_dict(EXAMPLE).to_query())  # 79 cards in the pile
    assert not at.exception
    assert any("No `duel` advice here" in c.value and "up to 12 cards" in c.value for c in at.caption)


def test_headline_bust_chance_is_after_the_recommended_steal():
    # Holding 3 5 with two 5s in reach: nothing busts now, but once the advised
    # steal is taken four cards are down and every 3 and 5 busts (9/43).
    position = {"players": [{"line": [3, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5}
    at = app(Draft.from_dict(position).to_query())
    assert not at.exception
    assert at.metric[0].value == "20.9%"
    assert "9/43" in at.markdown[0].value and "0.0% (0) before it" in at.markdown[0].value
