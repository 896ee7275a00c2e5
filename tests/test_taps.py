"""At a real table's pace: every tap counts once, games are never mixed up, and the table never waits.

AppTest drives the Live game, Practice and Advisor pages as a hurried player
would: a double tap, a tap on a tab whose game was deleted (and its id given
to no other game), a tap on a table another tab changed, a card that busts
the line (the banner and its Undo), the timer beating a tap, the Advisor's
Undo after a reload, a second session's review. The double-tap window
(``views.taps.DOUBLE_TAP``) is shut in every other test (conftest); here it
is opened wide, so that two taps of an AppTest, however far apart a run
leaves them, are closer than it.

The pool of solving threads (:mod:`solver.jobs`) is tested here too: a
question nobody waits for any more is dropped before a worker starts it.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from game_pages import APP, LIVE, PRACTICE, short_table
from streamlit.testing.v1 import AppTest

import views.taps
from solver.jobs import Jobs
from solver.live import LiveGame
from solver.store import GameStore


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GameStore:
    monkeypatch.setenv("HIT_DATA_DIR", str(tmp_path))
    return GameStore(tmp_path / "games.sqlite")


@pytest.fixture
def hurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every two identical taps of the test are closer than the window (a person's double tap)."""
    monkeypatch.setattr(views.taps, "DOUBLE_TAP", 3600.0)


def live_game(names: list[str], join: dict | None = None) -> AppTest:
    at = AppTest.from_file(LIVE, default_timeout=60)
    if join is not None:
        at.session_state["live_join"] = json.dumps(join)
    at.run()
    if join is None:
        at.segmented_control(key="live_players").set_value(len(names)).run()
    for seat, name in enumerate(names):
        at.text_input(key=f"live_name_{seat}").input(name)
    return at.button(key="live_start").click().run()


def two_player_practice(timer: int) -> AppTest:
    """Practice against one bot, you first, deal 7, ``timer`` seconds a decision (0: none)."""
    at = AppTest.from_file(PRACTICE, default_timeout=120).run()
    at.segmented_control(key="practice_players").set_value(2).run()
    at.number_input(key="practice_timer").set_value(timer)
    at.text_input(key="practice_deal").input("7")
    at.selectbox(key="practice_first").set_value(0)
    return at.button(key="practice_start").click().run()


def tap(at: AppTest, key: str) -> AppTest:
    return at.button(key=key).click().run()


def notes(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in [*at.error, *at.warning, *at.info])


# -- a tap counts once ------------------------------------------------------------------------------------------
def test_a_double_tap_on_a_card_records_one_card(data, hurried):
    """Tap 5 and 7, then 3 twice: one 3 (it once recorded two, busting the line on the second)."""
    at = live_game(["Ann", "Bob"])
    for key in ("live_card_5", "live_card_7", "live_card_3", "live_card_3"):
        tap(at, key)
    assert not at.exception
    live = LiveGame(data, 1)
    assert live.game.players[0].line == [5, 7, 3] and live.game.active == 0
    assert "The table changed" not in notes(at)  # the second tap is dropped, not refused with a message


def test_different_cards_in_quick_succession_all_count(data, hurried):
    at = live_game(["Ann", "Bob"])
    for key in ("live_card_5", "live_card_7", "live_card_3"):
        tap(at, key)
    assert LiveGame(data, 1).game.players[0].line == [5, 7, 3]


def test_the_same_card_twice_counts_twice_when_the_taps_are_far_apart(data, monkeypatch):
    monkeypatch.setattr(views.taps, "DOUBLE_TAP", 0.3)
    at = live_game(["Ann", "Bob"])
    tap(at, "live_card_8")
    time.sleep(0.35)
    tap(at, "live_card_8")
    assert LiveGame(data, 1).game.players[0].line == [8, 8]


def test_a_double_tap_on_draw_in_practice_draws_once(data, hurried):
    at = two_player_practice(timer=0)
    tap(at, "practice_draw")
    tap(at, "practice_draw")
    live = LiveGame(data, data.games()[0].id)
    draws = [json.loads(r) for r in live.rows if json.loads(r).get("event") == "draw"]
    assert len(draws) == 1, draws


def test_a_double_tap_in_the_advisor_adds_one_card_to_a_line_but_loots_take_quick_taps(hurried):
    at = AppTest.from_file(APP, default_timeout=60).run()
    tap(at, "card_9")
    tap(at, "card_9")
    d = at.session_state["draft"]
    assert d.lines[0] == [9]
    at.selectbox(key="zone").set_value("loot 1").run()
    for _ in range(3):
        tap(at, "card_5")
    assert at.session_state["draft"].loots[1] == [5, 5, 5]


# -- games are never mixed up -----------------------------------------------------------------------------------
def test_a_stale_tab_cannot_write_into_a_new_game_that_took_its_place(data):
    """Tab A shows game 2, the newest; tab B deletes it and starts a game whose first seat differs. Game ids
    are never reused, and A's tap is refused with a message (it was once saved in the new game, which could
    then no longer be opened)."""
    LiveGame.start(data, "first", "live", ["Ann", "Bob"], first=0)
    a = live_game(["Cy", "Di", "Ed"])
    assert a.query_params["game"] in (["2"], "2")
    data.delete(2)
    new = LiveGame.start(data, "B's game", "live", ["Fe", "Gu", "Ho"], first=1)
    assert new.gid == 3
    tap(a, "live_card_7")
    assert not a.exception
    assert "game #2" in notes(a).lower() or "no saved game 2" in notes(a).lower(), notes(a)
    assert LiveGame(data, 3).rows == new.rows  # the new game is untouched and opens
    assert LiveGame(data, 1).game.players[0].line == []


def test_a_tap_on_a_table_another_tab_undid_and_redrew_is_refused(data):
    """Same number of record lines, a different last card: the tap carries the line it followed."""
    a = live_game(["Ann", "Bob"])
    tap(a, "live_card_4")  # A shows Ann holding 4
    b = LiveGame(data, 1)
    b.undo()
    b.act("draw", 6)  # another tab: undo the 4, record a 6 (as many lines as before)
    tap(a, "live_card_2")
    assert not a.exception
    assert LiveGame(data, 1).game.players[0].line == [6]
    assert "moved on" in notes(a) or "changed" in notes(a), notes(a)


# -- a bust is one tap from Undo ----------------------------------------------------------------------------------
def test_a_busting_card_leaves_a_banner_with_undo_beside_it(data):
    at = live_game(["Ann", "Bob"])
    for key in ("live_card_1", "live_card_2", "live_card_3", "live_card_2"):
        tap(at, key)  # the second 2 onto 1 2 3: the turn is lost (R5)
    assert not at.exception
    banner = [e.value for e in at.error if "busted on the 2" in str(e.value)]
    assert banner and "Undo" in banner[0], notes(at)
    assert LiveGame(data, 1).game.active == 1
    tap(at, "live_bust_undo")
    live = LiveGame(data, 1)
    assert live.game.active == 0 and live.game.players[0].line == [1, 2, 3]
    assert not [e for e in at.error if "busted" in str(e.value)]


def test_an_advisor_tap_that_would_bust_the_line_has_undo_beside_its_warning():
    at = AppTest.from_file(APP, default_timeout=60).run()
    for key in ("card_1", "card_2", "card_3", "card_2"):
        tap(at, key)
    assert any("busts" in str(w.value) or "lost" in str(w.value) for w in at.warning), notes(at)
    tap(at, "bust_undo")
    assert at.session_state["draft"].lines[0] == [1, 2, 3]


# -- the smaller defects --------------------------------------------------------------------------------------
def test_the_advisor_undo_after_a_reload_says_there_is_nothing_to_undo():
    first = AppTest.from_file(APP, default_timeout=60).run()
    tap(first, "card_6")
    link = {k: first.query_params[k] for k in first.query_params}
    reloaded = AppTest.from_file(APP, default_timeout=60)
    for k, v in link.items():
        reloaded.query_params[k] = v[0] if isinstance(v, list) else v
    reloaded.run()
    assert reloaded.session_state["draft"].lines[0] == [6]
    tap(reloaded, "undo")
    assert "Nothing to undo" in notes(reloaded), notes(reloaded)
    assert reloaded.session_state["draft"].lines[0] == [6]


def test_a_tap_the_timer_beat_says_too_late(data):
    """The countdown (or another tab) played R14 while the tap was on its way: "Too late", as the README
    says, not "The table changed"."""
    at = two_player_practice(timer=30)
    tap(at, "practice_draw")
    gid = data.games()[0].id
    other = LiveGame(data, gid)
    other.timeout()  # the timer plays the decision on screen (here from another copy of the game)
    tap(at, "practice_stop")
    assert not at.exception
    assert "Too late" in notes(at), notes(at)


def test_the_bust_chance_says_once_bob_takes_the_steal_on_bobs_turn(data):
    """The Live page advises every seat: the bust line names the seat to play, not "you"."""
    at = live_game(["Ann", "Bob"], join={"players": [{"line": [7]}, {"line": [2]}], "active": 1})
    tap(at, "live_card_7")  # Bob draws a 7 onto his 2: Ann's 7 on offer, and taking it makes three cards (R5)
    text = "\n".join(str(s.value) for s in at.success)
    assert "TAKE the steal" in text and "once Bob takes the steal (0.0% before it)" in text, text


def test_the_review_works_on_a_second_viewing_in_a_new_session(data):
    """The end-of-game review once failed in every session after the first (a progress bar drawn inside a
    cached function cannot be replayed)."""
    live = LiveGame.start(data, "short", "live", ["Ann", "Bob"], first=0)
    while not live.over:
        if live.game.phase.value == "steal":
            live.act("decline")
        elif live.game.phase.value == "choose" and len(live.game.active_player.line) >= 1:
            live.act("stop")
        else:
            live.act("draw", live.dealt())
    for _ in range(2):
        at = AppTest.from_file(LIVE, default_timeout=120)
        at.query_params["game"] = str(live.gid)
        at.run()
        assert not at.exception
        assert not [e for e in at.error if "review" in str(e.value).lower()], notes(at)
        assert any("Review of the game" in str(h.value) for h in at.subheader)


# -- the pool of solving threads --------------------------------------------------------------------------------
def test_a_question_nobody_waits_for_is_dropped_before_it_starts():
    jobs = Jobs(workers=1)
    gate = threading.Event()
    try:
        busy = jobs.ask("tab 1", gate.wait, 30)  # the one worker, held
        queued = jobs.ask("tab 1", pow, 3, 4)
        shared = jobs.ask("tab 2", pow, 3, 4)
        assert shared is queued
        jobs.keep_only("tab 1", [])  # tab 1 moved on; tab 2 still waits for 3**4
        assert not queued.cancelled()
        alone = jobs.ask("tab 1", pow, 5, 2)
        jobs.keep_only("tab 2", [])
        jobs.keep_only("tab 1", [])  # nobody waits for 3**4 or 5**2 any more: neither ever runs
        assert queued.cancelled() and alone.cancelled() and jobs.cancelled == 2
        assert not busy.cancelled()  # started: it runs to its end
        gate.set()
        assert busy.result(timeout=10) is True
        assert jobs.ask("tab 3", pow, 3, 4).result(timeout=10) == 81  # asked again: worked out afresh
    finally:
        gate.set()
        jobs.close()
