"""The advisor's wiring with Streamlit's AppTest: inputs to outputs, messages, links, JSON."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from game_pages import apart

from solver.models.advice import Budget, SlowModel, choice_word
from bench.speed import endgame
from solver.play.entry import Draft
from solver.models.bank import BankSolver, theft_risk
from solver.models.endgame import MAX_PILE as ENDGAME_PILE
from solver.models import MODELS, advise
from solver.utilities.numbers import FLOAT
from solver.game.position import Position, PositionError
from views.advice_view import BANK_SECONDS

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "advisor_app.py")
EXAMPLE = {"players": [{"line": [6, 1, 5], "loot": [3, 7, 7], "lost_turns": 0},
                       {"line": [5, 5], "loot": [], "lost_turns": 1}],
           "active": 0, "discard": [8, 8, 2], "offer": 5}


def app(query: dict[str, str] | None = None, exact: bool = True, draft: Draft | None = None) -> AppTest:
    """The advisor opened with a link (``query``), or with a draft in the session as a loaded file leaves it;
    ``exact``: the sidebar's "Exact fractions" toggle on (each model's numbers in one code line)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.session_state["exact_view"] = exact
    if draft is not None:
        at.session_state["draft"] = draft
    return at.run()


def summary(at: AppTest) -> str:
    """The `turn` panel's summary line: the first code line on the page (the panels follow the registry)."""
    return at.code[0].value


def draft_of(at: AppTest) -> Draft:
    """The position the page holds, read back from its link."""
    return Draft.from_query(_params(at))


def shown(at: AppTest) -> str:
    """Every text element on the page, for searching."""
    return "\n".join(e.value for kind in (at.markdown, at.caption, at.info, at.success, at.warning, at.error)
                     for e in kind)


def expected_summary(position: dict) -> str:
    a = advise(Position.from_dict(position))
    return code_line(a)


def code_line(a) -> str:  # type: ignore[no-untyped-def]
    """A panel's summary line, from the model's own answer (fractions exact, floats to four decimals)."""
    def n(x):  # type: ignore[no-untyped-def]
        return "-" if x is None else str(x) if isinstance(x, Fraction) else f"{x:.4f}"
    text = f"bust {a.bust_probability_after_steal} | stop {n(a.stop)} | draw {n(a.draw)} | action {a.action}"
    if a.steal:
        text += f" | steal {choice_word(a.steal.action)}: take {n(a.steal.take)}, decline {n(a.steal.decline)}"
    return text


def bank(position: dict):  # type: ignore[no-untyped-def]
    """`bank` on its float path, as the page asks it (a time budget only limits it, never changes a number)."""
    return MODELS["bank"].advise(Position.from_dict(position), FLOAT)


def unescape(text: str) -> str:
    """Markdown source as it reads on screen: the page escapes every markdown character of user text."""
    return re.sub(r"\\(.)", r"\1", text)


def win(position: dict | Position):  # type: ignore[no-untyped-def]
    """`win` as the page asks it: the float path within the page's time limit (exact in a game's last cards,
    an estimate elsewhere)."""
    pos = position if isinstance(position, Position) else Position.from_dict(position)
    return MODELS["win"].advise(pos, FLOAT, Budget(BANK_SECONDS))


def headline(at: AppTest) -> str:
    """The headline box: the chance to win, the first success box on the page."""
    return at.success[0].value


def win_numbers(w) -> list[str]:  # type: ignore[no-untyped-def]
    """The headline's lines of chances, as the page writes them (the choice costs aside)."""
    lines = []
    if w.steal is not None:
        lines.append(f"Take: {w.steal.take:.1%}; decline: {w.steal.decline:.1%}.")
    lines.append(f"Draw: {w.draw:.1%} (a turn starts with at least one card)." if w.stop is None
                 else f"Stop: {w.stop:.1%}; draw: {w.draw:.1%}.")
    return lines


def plan(a) -> str:  # type: ignore[no-untyped-def]
    """A model's choices as the page's headings say them: "TAKE the steal, then STOP"."""
    steal = "" if a.steal is None else f"{'TAKE' if str(a.steal.action) == 'steal' else 'DECLINE'} the steal, then "
    return steal + a.action.value.upper()


def after_the_steal(position: dict, a) -> str:  # type: ignore[no-untyped-def]
    """The next card's bust chance, as the page's metric shows it, for the line ``a``'s steal choice leaves."""
    from solver.models.advice import after_steal, bust_probability
    from solver.utilities.numbers import EXACT

    return f"{float(bust_probability(after_steal(Position.from_dict(position), a.steal), EXACT)):.1%}"


def points(at: AppTest) -> str:
    """The points models' box beside the headline (the advisor draws one copy for each screen width)."""
    return "\n".join(m.value for m in at.markdown if "`turn` · points this turn" in m.value)


def bank_line(b, whose: str = "your") -> str:  # type: ignore[no-untyped-def]
    """`bank`'s line in the points box."""
    numbers = []
    if b.steal is not None:
        numbers.append(f"take {b.steal.take:.2f}, decline {b.steal.decline:.2f}")
    numbers.append(f"draw {b.draw:.2f}" if b.stop is None else f"stop {b.stop:.2f}, draw {b.draw:.2f}")
    return f"`bank` · points that reach {whose} loot: **{plan(b)}** ({'; '.join(numbers)})"


def texts(elements) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(e.value for e in elements)


def theft_tables(at: AppTest) -> list:  # type: ignore[no-untyped-def]
    return [t.value for t in at.table if list(t.value.columns) == ["value", "cards", "stolen", "points lost"]]


def test_empty_page_is_a_fresh_deck():
    at = app()
    assert not at.exception
    assert summary(at) == expected_summary({"players": [{}, {}], "active": 0})
    assert at.metric[0].value == "0.0%"
    # A turn starts with a draw: the chance to win leads (an estimate, 88 cards left), `bank` beside it.
    fresh = {"players": [{}, {}], "active": 0}
    w, b = win(fresh), bank(fresh)
    assert w.approximation is not None and w.stop is None
    assert headline(at) == (f"### DRAW\nYour chance to win, **an estimate**:  \nDraw: {w.draw:.1%} (a turn starts "
                            f"with at least one card).")
    assert bank_line(b) in points(at)
    assert any(c.value.startswith("**Estimate:** this turn is worked out card by card") for c in at.caption)
    assert "Your line is empty: nothing to steal yet." in texts(at.caption)
    assert theft_tables(at) == []


def test_link_opens_the_position_and_shows_its_advice():
    at = app(Draft.from_dict(EXAMPLE).to_query())
    assert not at.exception and not at.error
    assert summary(at) == expected_summary(EXAMPLE)
    b, w = bank(EXAMPLE), win(EXAMPLE)  # `bank`: two players, exact by linearity, in floats
    assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, **an estimate**:  \n"), headline(at)
    assert all(line in headline(at) for line in win_numbers(w)), headline(at)
    assert bank_line(b) in points(at)
    assert "`turn` · points this turn: **TAKE the steal, then STOP** (take 22.00, decline 12.18" in points(at)
    assert "exact for two players" in texts(at.caption)
    assert at.metric[0].value == after_the_steal(EXAMPLE, w)  # for the line the headline's steal leaves


def test_tapping_cards_changes_the_advice_and_the_link():
    at = app(Draft.from_dict(EXAMPLE).to_query())
    at.selectbox(key="zone").set_value("line 1").run()
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
    for k in at.query_params:
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
        ({"players": "2", "line0": "3", "offer": "4"}, "offer: the active player (Seat 1) has no 4"),
        ({"players": "2", "loot0": "7,7,7,7,7,7,7,7"}, "too many 7s: the deck has 7, the table shows 8 (Seat 1 loot 8)"),
        ({"players": "2", "line0": "1,2,3,5,5", "line1": "5", "offer": "5"},  # a link to a draw that busted
         "offer: a 5 drawn onto 1 2 3 5 (three or more face-up cards, one a 5) loses the turn (R5)"),
    ],
)
def test_impossible_positions_say_what_is_wrong(query, message):
    at = app(query)
    assert not at.exception
    assert any(message in unescape(e.value) for e in at.error), [e.value for e in at.error]
    assert len(at.code) == 0  # no advice for an impossible table
    # The reason leads the page, where the advice would be (on a phone the table is a long way down).
    assert at.error[0].value.startswith("No advice: this table cannot happen in Hit!")
    assert message in unescape(at.error[0].value)


def test_a_table_with_every_card_on_it_says_the_game_is_over_not_that_it_is_impossible():
    """The last card tapped in: a real end of a game (or a round, R15), not a table to fix."""
    at = app({"players": "2", "loot0": ",".join(["1"] * 11 + ["2"] * 11 + ["3"] * 11 + ["4"] * 11 + ["5"] * 11
                                               + ["6"] * 7 + ["7"] * 7 + ["8"] * 7 + ["9"] * 7 + ["10"] * 6),
              "line1": "10"})
    assert not at.exception and not at.error
    assert unescape(at.info[0].value).startswith("No advice: the pile is empty: the game is over")
    assert "Undo" in at.info[0].value and "cannot happen" not in at.info[0].value


def test_bad_link_is_reported_not_raised():
    at = app({"players": "9", "line0": "4"})
    assert not at.exception
    assert "players=9" in re.sub(r"\\(.)", r"\1", at.warning[0].value)
    assert draft_of(at).lines[0] == [4]  # the rest of the link is kept


def test_loot_by_counts_and_players_change():
    at = app()
    at.text_input(key="loot_text_0").input("3x7").run()
    assert draft_of(at).loots[0] == [7, 7, 7]
    at.button_group(key="players_in").set_value(4).run()
    d = draft_of(at)
    assert d.num_players == 4 and d.loots[0] == [7, 7, 7]
    assert not at.warning  # a seat joined: nothing lost
    # Fewer players: the seats that leave take their cards with them, and the page says so (a mistaken tap
    # must not lose a seat's cards unseen); Undo brings them back. An empty seat leaves without a word.
    at.selectbox(key="loot_seat").set_value(2).run()
    at.text_input(key="loot_text_2").input("2x5").run()
    at.button_group(key="players_in").set_value(2).run()
    assert draft_of(at).num_players == 2
    assert [unescape(w.value) for w in at.warning] == [
        "Seat 3 left the table with all it had (cards, lost turns, earlier rounds' totals): Undo brings it back."]
    at.button(key="undo").click().run()
    assert draft_of(at).num_players == 4 and draft_of(at).loots[2] == [5, 5] and not at.warning
    at.button_group(key="players_in").set_value(3).run()
    assert draft_of(at).num_players == 3 and not at.warning


def test_a_seat_that_leaves_with_only_earlier_rounds_totals_is_named():
    at = app({"players": "3", "match": "2/3/61.15.1/40.9.0/30.8.0"})
    assert not at.exception and not at.error
    at.button_group(key="players_in").set_value(2).run()
    assert any(w.value.startswith("Seat 3 left the table with all it had") for w in at.warning)


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
    button = at.download_button(key="download")
    assert button.label == "Download position (JSON)"
    # and a click does not run the page again: the browser holds quick taps until the server has taken
    # the one before, counting taps as the server does, and a download's run would be one it did not send.
    assert button.proto.ignore_rerun
    assert Position.from_json(served["hit-position.json"].decode()) == Position.from_dict(EXAMPLE)


def test_draft_json_errors_are_position_errors():
    with pytest.raises(PositionError, match="not a JSON position"):
        Draft.from_json(b"\xff{")
    with pytest.raises(PositionError, match="too many 9s"):
        Draft.from_json(json.dumps({"players": [{"line": [9] * 8}, {}], "active": 0}))


def test_study_page_shows_the_tables():
    import pandas as pd

    from solver.study.tables import bank_against_turn

    at = AppTest.from_file(str(ROOT / "views" / "study.py"), default_timeout=120).run()
    assert not at.exception and not at.error
    best = pd.read_parquet(ROOT / "data" / "rules.parquet").iloc[0]
    assert best["statement"] in at.success[0].value
    # It opens with how often theft changes the advice, from the positions table's `bank` columns.
    positions = pd.read_parquet(ROOT / "data" / "positions.parquet")
    split = bank_against_turn(positions)
    share = split["disagree"].sum() / split["solved"].sum()
    assert f"On **{share:.0%}** of the {split['solved'].sum():,} positions `bank` answered" in at.info[0].value
    # What following `turn` costs where the two differ, from the table's own columns (not through the page's
    # helpers): the steal choice or stop/draw differs, on a position `bank` answered.
    solved = positions[positions["bank_status"] == "solved"]
    differ = solved[(solved["bank_action"] != solved["turn_action"])
                    | (solved["bank_steal_action"].fillna("") != solved["turn_steal_action"].fillna(""))]
    assert f"Following `turn` there costs **{differ['bank_turn_cost'].mean():.2f}** points" in at.info[0].value


def test_study_page_names_a_damaged_table_instead_of_failing(monkeypatch, tmp_path):
    # The page reads its tables through the checked reader; a damaged one is named with the command that
    # rebuilds it, and the page stops there (no traceback, no half-drawn charts).
    import streamlit as st

    import solver.study.tables as tables

    st.cache_data.clear()  # the page keeps the tables it read (by file and time): read them afresh
    (tmp_path / "thresholds.parquet").write_text("not a table")
    real = tables.read_table
    monkeypatch.setattr(tables, "read_table", lambda data, name: real(tmp_path if name == "thresholds" else data,
                                                                      name))
    at = AppTest.from_file(str(ROOT / "views" / "study.py"), default_timeout=120).run()
    assert not at.exception
    (message,) = [e.value for e in at.error]
    assert message.startswith("The study cannot be shown: ") and "thresholds.parquet cannot be read (" in message
    assert "rebuild the tables with `python -m solver tables build`" in message and not at.subheader
    st.cache_data.clear()


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
    turn, bank_, duel, win = (advise(pos, m, exact=MODELS[m].quick_exact) for m in ("turn", "bank", "duel", "win"))
    at = app(Draft.from_dict(DISAGREE).to_query())
    assert not at.exception
    # One summary line per model, in the registry's order: `turn`'s panel (beside the headline), then
    # `bank`, `duel` and `win` under "The models".
    assert list(MODELS) == ["turn", "bank", "duel", "win"]
    assert [c.value for c in at.code] == [code_line(a) for a in (turn, bank_, duel, win)]
    captions = " ".join(c.value for c in at.caption)
    assert captions.count("Numbers: decimals (the float speed path).") == 3  # bank, duel, win (compiled)
    assert turn.action != bank_.action  # this table was picked because they differ
    assert "The models disagree" in at.warning[0].value
    assert f"`turn` says {turn.action.value.upper()}" in at.warning[0].value
    assert f"`bank` says {bank_.action.value.upper()}" in at.warning[0].value
    assert f"`win` says {win.action.value.upper()}" in at.warning[0].value
    # The headline is `win`'s (the chance to win: exact, ten cards or fewer left), `bank` and `turn` beside it.
    assert pos.pile_size() <= 10 and win.approximation is None
    assert headline(at).startswith(f"### {win.action.value.upper()}\nYour chance to win, **exact**:  \n"
                                   f"Stop: {win.stop:.1%}; draw: {win.draw:.1%}.")
    assert bank_line(bank_) in points(at)


def test_duel_refusal_is_shown_not_raised():
    at = app(Draft.from_dict(EXAMPLE).to_query())  # 79 cards in the pile
    assert not at.exception
    assert any("No `duel` advice here" in c.value and f"up to {ENDGAME_PILE} cards" in c.value for c in at.caption)


def test_headline_bust_chance_is_after_the_recommended_steal():
    # Holding 3 5 with two 5s in reach: nothing busts now, but once the advised
    # steal is taken four cards are down and every 3 and 5 busts (9/43).
    position = {"players": [{"line": [3, 5]}, {"line": [5, 5]}], "active": 0, "offer": 5}
    assert str(bank(position).steal.action) == "steal"  # the headline's steal: `bank`'s
    at = app(Draft.from_dict(position).to_query())
    assert not at.exception
    assert at.metric[0].value == "20.9%"
    assert any("9/43" in m.value and "after taking the steal, as advised (0.0%, 0, before it)" in m.value
               for m in at.markdown)
    assert "Bust chance of the next card: **20.9%** once you take the steal (0.0% before it)." in at.success[0].value


# -- theft: `bank` leads ------------------------------------------------------------------------------------
# The browser test's table: three players, `turn` says take and STOP, `bank` says take and DRAW.
THREE = {"players": [{"line": [6, 1, 5], "loot": [3, 7, 7]}, {"line": [5, 5]}, {"line": [9, 9, 2]}],
         "active": 0, "discard": [8, 8, 2], "offer": 5}
# Two players: `turn` takes the 5 on offer, `bank` declines it (from `sample_positions(120, seed=7)`).
STEAL_DISAGREE = {"players": [{"line": [1, 5], "loot": [5, 7, 6, 9, 6, 6, 5, 9, 4], "lost_turns": 2},
                              {"line": [9, 5], "loot": [10, 3, 3], "lost_turns": 1}],
                  "active": 0, "discard": [3, 3, 2, 2, 2, 3, 2, 4, 6, 1, 5, 8, 3, 5, 5, 6, 2, 2, 2], "offer": 5}


def test_three_players_the_headline_is_the_chance_to_win_with_bank_beside_labelled_approximate():
    b, turn, w = bank(THREE), advise(Position.from_dict(THREE)), win(THREE)
    assert b.approximation == "independent opponents" and w.approximation is not None
    assert (str(turn.action), str(b.action)) == ("stop", "draw")  # so the page shows whose advice is whose
    at = app(Draft.from_dict(THREE).to_query())
    assert not at.exception and not at.error
    assert "**Seat 1 to play** · 3 players · line 6 1 5 (12 points)" in texts(at.markdown)
    # The headline: the chance to win of each choice open, said to be an estimate.
    assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, **an estimate**:  \n"
                                   f"Take: {w.steal.take:.1%}; decline: {w.steal.decline:.1%}. "), headline(at)
    assert f"Stop: {w.stop:.1%}; draw: {w.draw:.1%}. " in headline(at)
    assert not re.search(r"\d\.\d\d points", headline(at))  # chances, never points, in the headline
    # Beside it, the points models as what they are: `bank` labelled as an approximation, and `turn`.
    assert bank_line(b) in points(at)
    assert ("`turn` · points this turn: **TAKE the steal, then STOP** (take 22.00, decline 13.34 (507/38); stop "
            "22.00, draw 20.18 (767/38))") in points(at)  # (the exact fractions: the sidebar's toggle is on)
    label = next(c.value for c in at.caption if c.value.startswith("Points that reach your loot (`bank`)"))
    assert "**approximation**" in label and "“independent opponents”" in label
    # `turn` is the smaller panel, exact; `bank`'s own line under "The models" has its floats in full.
    assert "**This turn only** · `turn`, exact" in texts(at.markdown)
    assert turn.stop == 22 and turn.draw == Fraction(767, 38)  # whole numbers too get two decimals
    assert (f"**STOP**: stop 22.00, draw 20.18 (767/38); drawing costs 1.82 ({turn.stop - turn.draw}) points."
            in texts(at.markdown))
    assert [c.value for c in at.code] == [code_line(turn), code_line(b), code_line(w)]  # `duel` refuses three
    assert any("No `duel` advice here" in c.value for c in at.caption)


def test_theft_risk_table_is_banks_theft_risk():
    pos = Position.from_dict(THREE)
    risks = theft_risk(pos, FLOAT)
    at = app(Draft.from_dict(THREE).to_query())
    (table,) = theft_tables(at)
    assert table["value"].tolist() == [r.value for r in risks] == [1, 5, 6]
    assert table["cards"].tolist() == [r.cards for r in risks] == [1, 1, 1]
    assert table["stolen"].tolist() == [r.chance for r in risks]
    assert table["points lost"].tolist() == [r.points_lost for r in risks]
    total = sum(r.points_lost for r in risks)
    assert f"If you decline the steal and stop: **{total:.2f}** of your 12 points are expected to be stolen." \
        in texts(at.caption)
    # Taking the two 5s makes the line 22 points: what is expected to be stolen then is exactly what
    # `bank`'s stop value there leaves out.
    took = pos.turn_state().stolen(5)
    lost = 22 - BankSolver(pos, FLOAT).stop_value(took)
    assert f"If you take the two 5s and stop: **{lost:.2f}** of your 22 points are expected to be stolen." \
        in texts(at.caption)


def test_why_stopping_loses_to_theft():
    # `turn` stops on 22 points; `bank` draws: the opponents would take most of the 22.
    b, w = bank(THREE), win(THREE)
    at = app(Draft.from_dict(THREE).to_query())
    assert at.warning[0].value == (
        f"**The models disagree:** `turn` says STOP, `bank` says DRAW, `win` says {w.action.value.upper()}. "
        f"Stopping leaves 22 points face up in reach of two opponents, who take {22 - b.stop:.2f} of them on "
        f"average: drawing on keeps more for your loot ({b.draw:.2f} against {b.stop:.2f}).")


def test_why_drawing_loses_to_theft():
    # `turn` draws on 7 1 3 (11 points); `bank` stops: a bigger line would be stolen from more.
    b, turn = bank(DISAGREE), advise(Position.from_dict(DISAGREE))
    assert (str(turn.action), str(b.action), turn.stop) == ("draw", "stop", 11)
    at = app(Draft.from_dict(DISAGREE).to_query())
    sentence = (f"Drawing on adds {float(turn.draw - 11):.2f} points to this turn on average, but leaves a bigger "
                f"line face up for your opponent: counting theft, stopping now keeps {b.stop:.2f} points for your "
                f"loot, drawing on {b.draw:.2f}.")
    assert at.warning[0].value.endswith(sentence), at.warning[0].value


def test_why_taking_the_steal_loses_to_theft():
    pos = Position.from_dict(STEAL_DISAGREE)
    b, turn = bank(STEAL_DISAGREE), advise(pos)
    assert (str(turn.steal.action), str(b.steal.action)) == ("steal", "decline")
    took = pos.turn_state().stolen(5)  # 1 5 5: 11 points
    lost = 11 - BankSolver(pos, FLOAT).stop_value(took)
    at = app(Draft.from_dict(STEAL_DISAGREE).to_query())
    assert "`turn` says TAKE the steal, `bank` says DECLINE the steal" in at.warning[0].value
    assert at.warning[0].value.endswith(
        f"Taking the 5 makes your line 11 points, but if you stop there your opponent takes {lost:.2f} of them "
        f"on average: declining keeps more for your loot ({b.steal.decline:.2f} against {b.steal.take:.2f}).")
    assert "`bank` · points that reach your loot: **DECLINE the steal, then " in points(at)
    # The bust chance is for the line the headline's choice (`win`'s) leaves: declined, two cards, nothing
    # busts; taken, three.
    w = win(STEAL_DISAGREE)
    assert headline(at).startswith(f"### {plan(w)}\n")
    assert turn.bust_probability_after_steal > 0
    assert at.metric[0].value == after_the_steal(STEAL_DISAGREE, w)
    assert (at.metric[0].value == "0.0%") is (str(w.steal.action) == "decline")


def test_slow_bank_is_said_beside_the_chance_to_win():
    at = app(Draft.from_dict(EXAMPLE).to_query())
    assert bank_line(bank(EXAMPLE)) in points(at)  # `bank` answers this one within 3 s
    at.number_input(key="bank_seconds").set_value(0.0).run()  # the sidebar's time limit: now `bank` cannot
    assert not at.exception
    # The headline is still the chance to win (the estimate needs no time limit); beside it, `bank` says
    # why it has no answer, and `turn` says what it is: this turn's points.
    w = win(EXAMPLE)
    assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, **an estimate**:  \n"), headline(at)
    assert all(line in headline(at) for line in win_numbers(w)), headline(at)
    assert ("`bank` · points that reach your loot: needs over 0 s here (theft not counted; a higher time limit "
            "in the sidebar waits longer)") in points(at)
    assert ("`turn` · points this turn: **TAKE the steal, then STOP** (take 22.00, decline 12.18 (962/79); stop "
            "22.00, draw 19.14 (1512/79))") in points(at)
    turn = advise(Position.from_dict(EXAMPLE))
    assert [c.value for c in at.code] == [code_line(turn), code_line(w)]  # `bank` and `duel` both refuse
    assert any(c.value.startswith("No `bank` advice here: bank needs more than 0 s") for c in at.caption)
    assert theft_tables(at) == [] and "`bank` was too slow to work it out" in texts(at.caption)


def test_slow_bank_at_a_turn_start_still_says_draw():
    at = app({"players": "3"})
    at.number_input(key="bank_seconds").set_value(0.0).run()
    assert not at.exception
    w = win({"players": [{}, {}, {}], "active": 0})
    assert headline(at) == (f"### DRAW\nYour chance to win, **an estimate**:  \nDraw: {w.draw:.1%} (a turn starts "
                            f"with at least one card).")
    assert not at.warning  # nothing is lost by ignoring theft here: the draw is forced
    assert "`bank` · points that reach your loot: needs over 0 s here" in points(at)
    assert "Your line is empty: nothing to steal yet." in texts(at.caption)


# Three players: `turn` declines the 2 on offer, `bank` takes it (from `sample_positions(3000, seed=11, players=(2, 3))`).
DECLINE_DISAGREE = {"players": [{"line": [], "loot": [8, 8, 8, 8, 1, 6, 6, 6, 6], "lost_turns": 5},
                                {"line": [5, 2], "loot": [10, 4, 4, 4, 7, 5, 5, 3, 3, 3, 10, 10, 10], "lost_turns": 2},
                                {"line": [2, 9, 9], "loot": [1, 9, 9, 9, 9, 8, 8, 1, 7, 5, 3, 3, 3, 1, 2, 2],
                                 "lost_turns": 0}],
                    "active": 1, "discard": [7, 1, 5, 5, 5, 5, 2, 7, 7, 3, 3, 2, 2, 7, 5, 1, 2, 10, 2, 6, 10, 4, 4, 9,
                                             4, 2, 2, 3, 3, 7, 4, 4, 4], "offer": 2}


def test_why_declining_loses_to_theft():
    pos = Position.from_dict(DECLINE_DISAGREE)
    b, turn = bank(DECLINE_DISAGREE), advise(pos)
    assert (str(turn.steal.action), str(b.steal.action)) == ("decline", "steal")
    chance = 1 - BankSolver(pos, FLOAT).keep_chances(pos.turn_state().stolen(2))[1]  # the 2s, once taken
    at = app(Draft.from_dict(DECLINE_DISAGREE).to_query())
    assert "`turn` says DECLINE the steal, `bank` says TAKE the steal" in at.warning[0].value
    assert at.warning[0].value.endswith(
        f"Declining is worth {float(turn.steal.cost):.2f} more points to this turn (fewer cards down, so drawing on "
        f"is safer), but not once theft is counted: taking keeps {b.steal.take:.2f} points for your loot against "
        f"{b.steal.decline:.2f}, and the 2s you take are stolen with a {chance:.1%} chance if you stop.")


@pytest.mark.parametrize("table", [THREE, DISAGREE, STEAL_DISAGREE, DECLINE_DISAGREE])
def test_why_speaks_of_the_seat_to_play(table):
    """On the Live game page the seat to play may be an opponent: the sentence names them, never "you"."""
    from solver.play.answers import theft
    from views.advice_view import Voice, why

    pos = Position.from_dict(table)
    _, after, _ = theft(pos.to_json(), 30.0)
    ours = why(pos, advise(pos), bank(table), after)
    theirs = why(pos, advise(pos), bank(table), after, Voice("Bob"))
    assert ours is not None and theirs is not None
    assert not re.search(r"\byou(r)?\b", theirs) and "Bob" in theirs, theirs
    # the same sentence otherwise: "you stop" -> "Bob stops", "your" -> "Bob's"
    spoken = re.sub(r"\byou (stop|take)\b", r"Bob \1s", ours).replace("your", "Bob's").replace("you", "Bob")
    assert theirs == spoken


# -- what a hurried player does: each defect found by trying the page --------------------------------------
FOUR = {"players": [{"line": [3], "loot": [2, 2]}, {"line": [7, 7], "loot": [1]}, {"line": [9, 4, 6]},
                    {"line": [], "loot": [10, 10], "lost_turns": 2}],
        "active": 2, "discard": [5, 5, 8] * 3 + [1] * 6 + [6] * 4}


def test_a_loaded_file_is_exactly_the_files_position():
    # The page had 2 players; the file has 4, seat 2 to play: nothing of it may be dropped.
    want = Position.from_dict(FOUR)
    at = app(draft=Draft.from_dict(FOUR))
    assert not at.exception and not at.error
    assert draft_of(at).to_dict() == Draft.from_dict(FOUR).to_dict()
    assert f"{want.pile_size()} cards in the pile" in texts(at.markdown)
    assert at.selectbox(key="zone").value == "line 2"  # taps go into the active seat's line


def test_undo_takes_back_seat_and_player_changes():
    at = app()
    at.button(key="card_4").click().run()
    at.button_group(key="active_in").set_value(1).run()
    at.button(key="card_8").click().run()  # into seat 1's line: the active line follows the active seat
    assert draft_of(at).lines == [[4], [8]] and draft_of(at).active == 1
    for _ in range(3):
        at.button(key="undo").click().run()
    assert draft_of(at).to_dict() == Draft.empty(2).to_dict()
    at.button_group(key="players_in").set_value(3).run()
    at.selectbox(key="zone").set_value("line 2").run()
    at.button(key="card_9").click().run()
    at.button(key="card_9").click().run()
    at.button_group(key="players_in").set_value(2).run()
    assert draft_of(at).num_players == 2
    at.button(key="undo").click().run()
    assert draft_of(at).num_players == 3 and draft_of(at).lines[2] == [9, 9]


def test_duel_keeps_to_the_time_limit():
    # 18 cards in the pile: duel would work for a minute and give up; with a 1 s limit it says so in time.
    deck = [v for v, n in zip(range(1, 11), (11, 11, 11, 11, 11, 7, 7, 7, 7, 7)) for _ in range(n)]
    import random
    random.Random(1).shuffle(deck)
    rest = deck[18:]
    pos = {"players": [{"line": rest[:2], "loot": rest[5:]}, {"line": rest[2:5]}], "active": 0}
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["draft"] = Draft.from_dict(pos)
    at.session_state["bank_seconds"] = 1.0
    at.run()
    assert not at.exception
    assert "No `duel` advice here: duel needs more than 1 s for this 18-card pile" in unescape(texts(at.caption))
    assert at.dataframe, "the next-card table is drawn"


@pytest.mark.parametrize("query, field", [
    ({"active": "5"}, "active=5"), ({"active": "-1"}, "active=-1"), ({"lost0": "-1"}, "lost0=-1"),
    ({"lost0": "10000"}, "lost0=10000"), ({"line0": "9" * 30}, "line0="), ({"players": "٣"}, "players="),
    ({"players": "５"}, "players="), ({"loot0": "11"}, "loot0=11"), ({"loot0": ",".join(["1"] * 50_000)}, "loot0="),
    ({"lost1": "1" + "0" * 21}, "lost1="), ({"players": "2", "active": "7"}, "active=7"),
    ({"players": "3", "line3": "7,7"}, "line3=7,7"), ({"loot4": "9,9"}, "loot4=9,9"),  # seats the table lacks
])
def test_bad_link_fields_get_a_message_and_the_rest_is_kept(query, field):
    at = app({**query, "discard": "2,2"})
    assert not at.exception
    messages = [w.value for w in at.warning if w.value.startswith("Not read from the link")]
    assert len(messages) == 1 and field in re.sub(r"\\(.)", r"\1", messages[0]), messages
    assert len(messages[0]) < 200  # a huge value is not echoed in full
    assert draft_of(at).discard == [2, 2]  # the rest of the link is kept


def test_an_eighth_card_of_a_value_is_a_message_not_a_traceback():
    at = app()
    at.selectbox(key="zone").set_value("loot 0").run()
    for _ in range(7):
        assert not at.button(key="card_7").disabled
        at.button(key="card_7").click().run()
    # The deck's seven 7s are all on the table: its button is greyed out, the others are not.
    assert at.button(key="card_7").disabled and not at.button(key="card_6").disabled
    assert not at.exception and not at.error
    at = app({"players": "2", "loot0": "7,7,7,7,7,7,7,7"})  # an eighth from a link: said, not raised
    assert not at.exception
    assert any("too many 7s" in e.value and "Seat 1 loot 8" in unescape(e.value) for e in at.error)
    at = app(draft=Draft.from_dict({"players": [{"lost_turns": 100}, {}], "active": 0}))  # a file's 100 lost turns
    assert not at.exception and not at.error
    # advice, and a warning above it that no round holds so many, so the estimate may be far off
    assert any("The seats' 100 lost turns cannot all come from one round" in unescape(w.value) and "far off" in
               w.value for w in at.warning)


def test_link_text_is_shown_as_text_not_markdown():
    for text in ("![x](http://127.0.0.1:8622/pixel.png)", "[text](http://example.com)", "**bold** `code` :red[x]"):
        at = app({"players": text})
        assert not at.exception
        (message,) = [w.value for w in at.warning if w.value.startswith("Not read from the link: ")]
        body = message.removeprefix("Not read from the link: ")
        assert not re.search(r"(?<!\\)[`*!\[\]():]", body), body  # each markdown character is escaped
        assert re.sub(r"\\(.)", r"\1", body).count(text[:5]) == 1  # and the text itself is there to read


def test_error_details_never_reach_a_player():
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none" and config["client"]["toolbarMode"] == "viewer"


def test_a_new_card_in_the_line_clears_the_steal_on_offer():
    at = app(Draft.from_dict({"players": [{"line": [9]}, {"line": [9]}], "active": 0, "offer": 9}).to_query())
    assert " the steal, then " in at.success[0].value
    at.button(key="card_7").click().run()
    assert "steal" not in at.success[0].value and draft_of(at).offer is None


def test_a_card_that_would_bust_the_line_is_no_steal_and_says_the_turn_may_be_lost():
    """Tapped onto 1 2 3 5, a 5 loses the turn if it was just drawn (R5) and steals nothing (R6): the page
    once put seat 2's 5 on offer and advised taking it. Now the card joins without a steal (a line may hold
    two 5s from its first three cards, or a steal), and a warning above the advice says what to record."""
    at = app({"players": "2", "line0": "1,2,3,5", "line1": "5"})
    at.button(key="card_5").click().run()
    assert not at.exception
    d = draft_of(at)
    assert d.lines[0] == [1, 2, 3, 5, 5] and d.offer is None
    assert unescape(at.warning[0].value).startswith("Seat 1 line: if this 5 was just drawn onto 1 2 3 5, the turn "
                                                    "is lost (R5")  # seats from 1, as the page numbers them
    assert not any("steal" in x.value for x in at.success)
    at.button(key="undo").click().run()  # the next edit: the warning goes
    assert draft_of(at).lines[0] == [1, 2, 3, 5] and not any("the turn is lost" in w.value for w in at.warning)


def test_a_new_seat_to_play_has_drawn_nothing():
    """The card on offer was the last seat's draw: a steal for a card the new seat never drew was once
    advised when its line held that value."""
    at = app({"players": "2", "line0": "5", "line1": "3,5", "offer": "5"})
    assert draft_of(at).offer == 5
    at.segmented_control(key="active_in").set_value(1).run()
    assert not at.exception and draft_of(at).active == 1 and draft_of(at).offer is None
    assert not any("steal" in x.value for x in at.success)


def test_taking_a_steal_is_one_tap():
    at = app(Draft.from_dict(EXAMPLE).to_query())
    # the button names the cards it takes, as the Live game's does (it once said "the 5s" of one 5 too)
    assert at.button(key="take_steal").label == "Take the two 5s"
    assert app({"players": "2", "line0": "5", "line1": "3,5", "offer": "5"}).button(
        key="take_steal").label == "Take the 5"
    at.button(key="take_steal").click().run()
    d = draft_of(at)
    assert d.lines == [[6, 1, 5, 5, 5], []] and d.offer is None
    at.button(key="undo").click().run()
    assert draft_of(at).to_dict() == Draft.from_dict(EXAMPLE).to_dict()


def test_the_tap_zone_opens_on_the_active_line():
    at = app({"players": "3", "active": "2"})
    assert at.selectbox(key="zone").value == "line 2"


def test_out_of_range_form_values_are_refused_next_to_the_field():
    at = app()
    at.text_input(key="loot_text_0").input("99x7").run()
    assert any("Seat 1 loot" in e.value and "the deck has 7" in unescape(e.value) for e in at.error)
    assert draft_of(at).loots[0] == []
    at.text_input(key="lost_text_0").input("10000").run()
    assert any("Seat 1 lost turns" in e.value for e in at.error)
    at.text_input(key="lost_text_0").input("-1").run()
    assert any("Seat 1 lost turns" in e.value for e in at.error)
    assert draft_of(at).lost_turns[0] == 0
    # A round holds 22 lost turns at most, all seats together (each discards four of the 90 cards, R1, R5,
    # R6): the estimate once rose to 100% as one seat's count grew past anything a game can reach.
    at.selectbox(key="loot_seat").set_value(1).run()
    at.text_input(key="lost_text_1").input("20").run()
    assert draft_of(at).lost_turns == [0, 20] and not at.error
    at.selectbox(key="loot_seat").set_value(0).run()
    at.text_input(key="lost_text_0").input("3").run()
    assert any("Seat 1 lost turns: 3, with the other seats' 20, is more than a round holds (22 at most"
               in unescape(e.value) for e in at.error)
    assert draft_of(at).lost_turns == [0, 20]
    at.text_input(key="lost_text_0").input("2").run()
    assert draft_of(at).lost_turns == [2, 20] and not at.error and not at.warning
    # Over the bound already (a file's): lowering a count is always taken.
    at = app(draft=Draft.from_dict({"players": [{"lost_turns": 100}, {"lost_turns": 3}], "active": 0}))
    at.selectbox(key="loot_seat").set_value(1).run()
    at.text_input(key="lost_text_1").input("0").run()
    assert draft_of(at).lost_turns == [100, 0] and not at.error
    # The cards shown count too: 20 lost turns leave 10 cards of the 90 for the lines and loots.
    at = app({"players": "2", "lost0": "20", "loot1": "1,2,3,4,5,6,7,8,9,10"})
    assert not any("cannot all come from one round" in w.value for w in at.warning)
    at = app({"players": "2", "lost0": "20", "loot1": "1,2,3,4,5,6,7,8,9,10,1"})
    assert any("20 lost turns cannot all come from one round" in unescape(w.value) for w in at.warning)


def test_an_offer_nobody_can_steal_says_so():
    at = app({"players": "2", "active": "0", "line0": "1,2,3,5", "line1": "7", "offer": "5"})
    assert not at.exception
    assert "No other seat has a 5 face up: nothing to steal (R7), so no steal is on offer." in texts(at.caption)
    assert not any("steal" in x.value for x in at.success)
    at = app({"players": "2", "active": "0", "line0": "1,2,3,5", "line1": "5", "offer": "5"})
    assert "nothing to steal" not in texts(at.caption)


def test_an_emptied_field_is_none_of_it():
    """Emptied, a loot is no loot and lost turns are none (the lost turns' field once called it an error)."""
    at = app({"players": "2", "loot0": "5,7", "lost0": "2"})
    assert draft_of(at).lost_turns[0] == 2 and draft_of(at).loots[0] == [5, 7]
    at.text_input(key="lost_text_0").input("").run()
    at.text_input(key="loot_text_0").input("").run()
    assert not at.exception and not at.error
    assert draft_of(at).lost_turns[0] == 0 and draft_of(at).loots[0] == []


def test_numbers_a_player_can_read():
    from views.advice_view import cost

    assert cost(0.004) == "only 0.004 points: a near tie" and cost(Fraction(0)) == "nothing: a tie"
    assert cost(1.5) == "1.50 points"
    at = app(Draft.from_dict(THREE).to_query(), exact=False)
    long = re.compile(r"\d\.\d{4,}")
    assert not [t for t in shown(at).splitlines() if long.search(t)]  # no float written out in full
    assert not at.code  # the one-line summaries wait for the "Exact fractions" toggle


# Two players near the end: `bank` (points) draws on, `win` stops (found by a random search of endgames).
TO_WIN = {"players": [{"line": [10, 6], "loot": [2, 2, 5, 4, 2, 7, 7, 8, 10, 1, 9, 2]},
                      {"loot": [5, 1, 2, 8, 6, 2, 6, 6, 3, 10]}], "active": 0}


def to_win_endgame(match: dict | None = None) -> dict:
    """:data:`TO_WIN` with six cards left in the pile (1, 2, 6, 9, 9, 9), the rest in the discard."""
    pos = Position.from_dict({**TO_WIN, "discard": []})
    gone = [v for v, n in zip(range(1, 11), pos.pile()) for _ in range(n)]
    for v in (1, 2, 6, 9, 9, 9):
        gone.remove(v)
    return {**TO_WIN, "discard": gone}


def test_the_chance_to_win_leads_and_one_sentence_says_when_the_points_differ():
    table = to_win_endgame()
    pos = Position.from_dict(table)
    assert pos.pile_size() == 6
    b, w, t = bank(table), win(table), advise(pos)
    assert (str(b.action), str(w.action)) == ("draw", "stop") and w.approximation is None  # exact: 6 cards
    at = app(Draft.from_dict(table).to_query())
    assert not at.exception
    # The headline is the chance to win of each choice, exact, and what the other choice costs.
    assert headline(at) == (f"### STOP\nYour chance to win, **exact**:  \nStop: {w.stop:.1%}; draw: {w.draw:.1%}. "
                            f"Drawing costs {apart(w.stop, w.draw)} percentage points.  \n"
                            f"Bust chance of the next card: **{float(w.bust_probability):.1%}**.")
    assert any(c.value.startswith("**Exact:** every card left in the pile") for c in at.caption)
    assert bank_line(b) in points(at)
    # One sentence: the lead, the cards left, both chances, and which points the other choice scores.
    lead = 59 + 16 - 49
    where = ("scores more points, this turn and for your loot" if str(t.action) == "draw"
             else "keeps more points for your loot")
    assert f"{w.stop:.1%}" != f"{w.draw:.1%}"
    assert [x.value for x in at.info] == [f"You lead by {lead} with 6 cards left: stopping wins {w.stop:.1%} against "
                                          f"{w.draw:.1%} for drawing, though drawing {where}."]
    # Under "The models", each box in its own unit: `duel` in points ahead, `win` in chances (boxes once
    # read "Stop: 0.94; draw: 0.89 . Drawing costs 0.05 points" for both).
    d = advise(pos, "duel", exact=False)
    boxes = [x.value for x in at.success]
    assert (f"Stop: {d.stop:.2f}; draw: {d.draw:.2f} points, yours minus the other seat's, of all still to be banked. "
            f"{'Drawing' if str(d.action) == 'stop' else 'Stopping'} costs {d.mistake_cost:.2f} points.") in "".join(boxes)
    assert (f"Stop: {w.stop:.1%}; draw: {w.draw:.1%} chance to win. Drawing costs "
            f"{apart(w.stop, w.draw)} percentage points.") in "".join(boxes)


def sampled(players: int, count: int = 400, seed: int = 5) -> list[Position]:
    """Decision points of simulated games of ``players`` players (no steal on offer, a card down)."""
    from solver.play.simulate import sample_positions

    return [p for p in sample_positions(count, seed=seed, players=(players,))
            if p.steal_on_offer() is None and p.line]


@pytest.mark.parametrize("players", [3, 5])
def test_the_headline_is_the_chance_to_win_with_three_and_five_players(players):
    pos = sampled(players)[0]
    w = win(pos)
    assert w.approximation is not None  # more than two players: an estimate
    at = app(Draft.from_dict(pos.to_dict()).to_query())
    assert not at.exception and not at.error
    assert f"{players} players" in texts(at.markdown)
    assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, **an estimate**:  \n"
                                   f"Stop: {w.stop:.1%}; draw: {w.draw:.1%}. "), headline(at)
    assert any(c.value.startswith("**Estimate:**") for c in at.caption)
    assert "`turn` · points this turn: **" in points(at)
    try:  # `bank` within the page's limit (a count of work: the same on any machine), or why not
        b = MODELS["bank"].advise(pos, FLOAT, Budget(BANK_SECONDS))
    except SlowModel:
        assert "`bank` · points that reach your loot: needs over 3 s here" in points(at)
    else:
        assert bank_line(b) in points(at)


def test_the_sentence_when_playing_to_win_and_playing_for_points_choose_differently():
    """A position where `win` and `turn` choose differently, found by asking both (the estimate's weights
    may be rebuilt: no answer is written into the test): the page says so in one sentence, from the numbers."""
    for pos in sampled(2, count=600, seed=9):
        w, t = win(pos), advise(pos)
        if (pos.pile_size() > 10 and w.action is not t.action and f"{w.stop:.1%}" != f"{w.draw:.1%}"):
            break
    else:
        pytest.fail("no position where `win` and `turn` choose differently")
    b = bank(pos.to_dict())
    at = app(Draft.from_dict(pos.to_dict()).to_query())
    assert not at.exception
    assert headline(at).startswith(f"### {w.action.value.upper()}\nYour chance to win, **an estimate**:")
    me, other = pos.players[pos.active], pos.players[1 - pos.active]
    lead = sum(me.loot) + sum(me.line) - sum(other.loot) - sum(other.line)
    standing = f"You lead by {lead}" if lead > 0 else f"You trail by {-lead}" if lead < 0 else "The scores are level"
    good, bad = (w.stop, w.draw) if str(w.action) == "stop" else (w.draw, w.stop)
    choice, other_choice = ("stopping", "drawing") if str(w.action) == "stop" else ("drawing", "stopping")
    where = ("scores more points this turn" if b.action is w.action
             else "scores more points, this turn and for your loot")
    assert [x.value for x in at.info] == [
        f"{standing} with {pos.pile_size()} cards left: {choice} wins {good:.1%} against {bad:.1%} for "
        f"{other_choice}, though {other_choice} {where}."]
    # No other sentence argues for the points: the one sentence is the reason.
    assert not any(m.value.startswith(("Stopping is worth", "Drawing on is worth", "A near tie"))
                   for m in at.markdown)


def test_a_missing_weights_file_is_said_plainly_and_no_other_model_stands_in(tmp_path, monkeypatch):
    """The evaluator's weights gone (an empty folder in their place): the headline is `win`'s message, naming
    the file and the command that rebuilds it, with no chance and no other model's advice under it."""
    from solver.models.evaluator import WeightsError

    monkeypatch.setenv("HIT_WIN_WEIGHTS", str(tmp_path))
    with pytest.raises(WeightsError) as refused:
        MODELS["win"].advise(Position.from_dict(EXAMPLE), FLOAT)
    message = str(refused.value)
    assert str(tmp_path / "evaluator.npz") in message and "python -m solver train" in message
    at = app(Draft.from_dict(EXAMPLE).to_query())
    assert not at.exception
    (box,) = [e.value for e in at.error]
    assert box.startswith("### Chance to win not available\n")
    assert message in unescape(box)
    assert not re.search(r"\d%|\d\.\d\d|TAKE|DECLINE|STOP|DRAW", box)  # no number, no choice under the heading
    assert not at.success  # no verdict box at all: `bank`'s is not put in its place (`duel` refuses 79 cards)
    assert not at.info  # and no sentence about playing to win
    assert bank_line(bank(EXAMPLE)) in points(at)  # the points models still say what they are
    assert any(c.value.startswith("No `win` advice here") for c in at.caption)


def test_one_card_is_one_card():
    at = app(Draft.from_dict(endgame(1, 1).to_dict()).to_query())
    assert not at.exception
    shown = texts(at.markdown) + texts(at.caption)
    assert "1 card in the pile" in shown and "Pile: 1 card — " in shown and "1 cards" not in shown


def test_when_both_choices_win_equally_often_the_points_decide():
    """73 behind with 40 points left in the pile: no choice can win (R11), so both chances are 0 and `win`'s
    tie rule (stop) is no reason to overrule the points, which decide the headline's choice."""
    pos = endgame(10, 2)
    me, other = pos.players[pos.active], pos.players[1 - pos.active]
    behind = sum(other.loot) + sum(other.line) - sum(me.loot) - sum(me.line)
    assert behind == 73 > sum(v * n for v, n in zip(range(1, 11), pos.pile()))
    w, b = win(pos), bank(pos.to_dict())
    assert w.stop == w.draw == 0 and w.approximation is None
    at = app(Draft.from_dict(pos.to_dict()).to_query())
    assert not at.exception
    assert headline(at).startswith(f"### {b.action.value.upper()}\nYour chance to win, **exact**:  \nStop: 0.0%; "
                                   f"draw: 0.0%. Stopping and drawing on win equally often, so the points decide.")
    assert not at.info  # no sentence about playing to win


def test_exact_with_few_cards_and_an_estimate_with_more_and_no_time_limit_needed():
    """Two players: exact with ten cards or fewer left, an estimate past them (the page says which), and
    the estimate answers even with the sidebar's limit at 0, where the slow models each say they need more."""
    exact, more = endgame(8, 1), endgame(14, 5)
    assert win(exact).approximation is None and win(more).approximation is not None
    at = app(Draft.from_dict(exact.to_dict()).to_query())
    assert not at.exception and "Your chance to win, **exact**:" in headline(at)
    at = app(Draft.from_dict(more.to_dict()).to_query())
    assert not at.exception and "Your chance to win, **an estimate**:" in headline(at)
    at = at.sidebar.number_input(key="bank_seconds").set_value(0.0).run()
    assert not at.exception
    w = win(more)
    assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, **an estimate**:")
    captions = [c.value for c in at.caption]
    assert any(c.startswith("No `duel` advice here: duel needs more than 0 s") for c in captions), captions


def test_three_players_last_cards_are_exact_and_shown_as_such():
    """Three players with 8 cards left: the exact max-n, its chances in the headline and its note; one card
    more, the estimate."""
    from solver.models.win import EXACT_PILES

    for cards, exact in ((EXACT_PILES[3], True), (EXACT_PILES[3] + 1, False)):
        pos = three_player_endgame(cards)
        w = win(pos)
        assert (w.approximation is None) is exact
        at = app(Draft.from_dict(pos.to_dict()).to_query())
        assert not at.exception
        assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, "
                                       f"{'**exact**' if exact else '**an estimate**'}:  \n"), headline(at)
        assert all(line in headline(at) for line in win_numbers(w)), headline(at)
        assert any(c.value.startswith("**Exact:**" if exact else "**Estimate:**") for c in at.caption)


def three_player_endgame(cards: int) -> Position:
    """Three players close together with ``cards`` left, seat 0 to play holding a 7 and a 3, seat 2 a 3."""
    from solver.game.cards import DECK_COPIES, VALUES

    deck = [v for v, n in zip(VALUES, DECK_COPIES) for _ in range(n)]
    import random

    random.Random(cards).shuffle(deck)
    pile, rest = deck[:cards], deck[cards:]
    for v in (7, 3, 3):
        rest.remove(v)
    loots = [rest[s:48:3] for s in range(3)]
    return Position.from_dict({"players": [{"line": [7, 3], "loot": loots[0]}, {"loot": loots[1]},
                                           {"line": [3], "loot": loots[2]}], "active": 0, "discard": rest[48:]})


def test_r15_the_last_round_of_a_match_counts_the_earlier_rounds():
    """The rounds variant on the page: the totals of the earlier rounds are typed per seat, the chance to win
    is `win`'s with them (the same position as the command line's JSON with its "match"), before the last
    round an estimate of winning the match, and a bad entry is named next to the field."""
    from solver.game.rules import MatchSoFar, Totals

    table = to_win_endgame()
    at = app(Draft.from_dict(table).to_query())
    at.selectbox(key="rounds_in").set_value(3).run()
    assert draft_of(at).match == MatchSoFar(3, 3, (Totals(), Totals()))
    at.text_input(key="earlier_text_1").input("30 6 0").run()  # seat 2 won the earlier rounds by 30
    at.text_input(key="earlier_text_0").input("61 points").run()
    assert any("Seat 1 earlier rounds" in e.value and "is not points, cards and lost turns" in e.value
               for e in at.error)
    held = draft_of(at)
    assert held.match == MatchSoFar(3, 3, (Totals(), Totals(30, 6, 0)))
    w = win(held.position())
    assert w.stop != win(table).stop and w.approximation is None  # the last round: exact, the totals counted
    assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, **exact**:  \n"
                                   f"Stop: {w.stop:.1%}; draw: {w.draw:.1%}.")
    rounds = [c.value for c in at.caption if c.value.startswith("Rounds variant: round 3 of 3.")]
    assert rounds and rounds[0].endswith(" The chance to win (of the match) counts them."), rounds
    sentence = [x.value for x in at.info]
    lead = 59 + 16 - 49 - 30
    assert not sentence or sentence[0].startswith(f"You trail by {-lead} with 6 cards left: "), sentence
    at.selectbox(key="round_in").set_value(2).run()  # round 2 of 3: the chance to win the match, an estimate
    assert not at.exception
    w = win(draft_of(at).position())
    assert w.approximation is not None
    assert headline(at).startswith(f"### {plan(w)}\nYour chance to win, **an estimate**:  \n"
                                   f"Stop: {w.stop:.1%}; draw: {w.draw:.1%}.")
    rounds = [c.value for c in at.caption if c.value.startswith("Rounds variant: round 2 of 3.")]
    assert rounds and "counts them and the rounds still to come: an estimate" in rounds[0], rounds
    at.selectbox(key="rounds_in").set_value(1).run()
    assert draft_of(at).match is None


def test_a_discard_too_short_for_the_lost_turns_is_pointed_out_under_the_buttons():
    # Each lost turn discards four cards or more (R5, R6); a table whose discard holds fewer has cards the page
    # counts as still in the pile (R10). Said in the table's caption, under the buttons, which it never moves.
    said = "lost turns put 8 cards or more there (R5, R6): any not entered count as still in the pile (R10)"
    at = app({"players": "2", "lost0": "1", "lost1": "1", "discard": "1,2,3"})
    assert not at.exception and any(said in unescape(c.value) for c in at.caption)
    for discard in ("1,2,3,4,5,6,7,8", "1,2,3,4,5,6,7,8,9"):
        at = app({"players": "2", "lost0": "1", "lost1": "1", "discard": discard})
        assert not any("cards or more there" in c.value for c in at.caption)
    assert not any("cards or more there" in c.value for c in app().caption)  # no lost turns, no discard
