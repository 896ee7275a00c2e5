"""At a real table's pace: every tap counts once, games are never mixed up, and the table never waits.

AppTest drives the Live game, Practice and Advisor pages as a hurried player
would: a double tap, a tap on a tab whose game was deleted (and its id given
to no other game), a tap on a table another tab changed, a card that busts
the line (the banner and its Undo), the timer beating a tap, the Advisor's
Undo after a reload, a second session's review. The double-tap window
(``views.taps.DOUBLE_TAP``) is shut in every other test (conftest); here it
is opened wide, so that two taps of an AppTest, however far apart a run
leaves them, are closer than it.

The pool of solving threads (:mod:`solver.utilities.jobs`) is tested here too: a
question nobody waits for any more is dropped before a worker starts it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
from conftest import chromium, opened, serve_advisor
from game_pages import APP, ARTIFACTS, CHROMIUM, LIVE, PRACTICE, button, settle
from streamlit.testing.v1 import AppTest

import views.taps
from bench.quick_taps import a_card_then_the_next, start_live
from solver.utilities.jobs import Jobs
from solver.play.live import LiveGame
from solver.play.store import GameStore


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
    return button(at, key).click().run()


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


def test_an_advisor_bust_is_recorded_in_one_tap():
    """R6 then R3, checked against the rules engine: the same cards drawn by a game give the same table."""
    from solver.game.rules import Game, Phase, Player

    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="zone").set_value("line 1").run()
    tap(at, "card_9")  # seat 2's line, face up from its last turn
    at.selectbox(key="zone").set_value("line 0").run()
    for key in ("card_1", "card_2", "card_3", "card_2"):
        tap(at, key)
    tap(at, "record_bust")
    assert not at.exception and not at.error
    d = at.session_state["draft"]
    game = Game.resume([Player([], [], 0), Player([9], [], 0)], 0, pile=[5, 2, 3, 2, 1])  # top card last
    for _ in range(4):
        game.draw()
    assert game.phase is Phase.MUST_DRAW and game.active == 1
    assert (d.lines, d.loots, d.lost_turns, sorted(d.discard), d.active) == (
        [p.line for p in game.players], [p.loot for p in game.players], [p.lost_turns for p in game.players],
        sorted(game.discard), game.active)
    assert at.session_state["zone"] == "line 1"  # the next seat's cards go into its line
    tap(at, "undo")
    assert at.session_state["draft"].lines == [[1, 2, 3, 2], [9]]


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


def test_worker_processes_run_below_the_server():
    """The models' processes yield the cores to the pages' own runs (``nice``): asked for its niceness, a
    worker answers the server's plus the step asked for (the kernel caps it at 19)."""
    jobs = Jobs(workers=1, processes=True, nice=5)
    try:
        assert jobs.ask("tab", os.nice, 0).result(timeout=60) == min(19, os.nice(0) + 5)
    finally:
        jobs.close()


def test_the_server_does_not_collect_its_whole_heap_after_every_run():
    """Streamlit's ``runner.postScriptGC`` (a full collection after every run, every tap and every look for
    answers) was most of the server's time with ten pages open (docs/PERFORMANCE.md): the app's config
    switches it off."""
    import tomllib

    config = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_one_run_of_a_page_at_a_time_whatever_folder_the_server_starts_in():
    """``runner.fastReruns`` (on by default) starts a quick second tap's run beside the first, in another
    thread, and the two change one game together: the app's config turns it off, and so does the app
    itself (a server started from another folder does not read that file)."""
    import tomllib

    from streamlit import config

    toml = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml").read_text())
    assert toml["runner"]["fastReruns"] is False
    was = config.get_option("runner.fastReruns")
    try:
        config.set_option("runner.fastReruns", True)
        views.taps.install()
        assert config.get_option("runner.fastReruns") is False
    finally:
        config.set_option("runner.fastReruns", was)


def test_a_tap_that_arrives_during_a_callback_waits_for_it(monkeypatch):
    """Streamlit stops a run where it first looks for a newer tap (any use of ``st.session_state``), in a
    callback too: a quick second tap cut the first tap's callback short. Installed (:func:`views.taps.install`,
    as the app does), every callback runs to its end first; the newer tap is taken after it."""
    from streamlit.runtime.state.safe_session_state import SafeSessionState

    def page() -> None:
        import streamlit as st
        from streamlit.runtime.scriptrunner import RerunData, get_script_run_ctx

        def on_tap() -> None:
            st.session_state.begun = st.session_state.get("begun", 0) + 1
            get_script_run_ctx().script_requests.request_rerun(RerunData())  # a newer tap reaches the server
            st.session_state.ended = st.session_state.get("ended", 0) + 1  # (Streamlit looks here)

        st.button("Tap", key="tap", on_click=on_tap)

    method = SafeSessionState.on_script_will_rerun  # (the app, run by an earlier test, may have installed it)
    monkeypatch.setattr(SafeSessionState, "on_script_will_rerun", getattr(method, "__wrapped__", method))
    for installed in (False, True):
        if installed:
            views.taps.install()
        at = AppTest.from_function(page).run()
        at.button(key="tap").click().run()
        assert not at.exception
        assert at.session_state["begun"] == 1
        assert ("ended" in at.session_state) is installed  # cut short unless installed
        assert at.session_state[views.taps.TAKEN] == 1 if installed else views.taps.TAKEN not in at.session_state


def test_a_second_tap_on_buttons_that_just_changed_is_not_taken(data, hurried):
    """A double tap on a card that puts a steal on offer: the second tap lands on Take, drawn where the card's
    row was (in practice, where Draw was). It is refused with a message, not taken as a steal."""
    at = live_game(["Ann", "Bob"], join={"players": [{"line": [3]}, {"line": [7]}], "active": 0})
    tap(at, "live_card_7")  # Bob's 7 on offer
    tap(at, "live_take")
    assert not at.exception
    assert "not taken (a double tap?)" in notes(at), notes(at)
    live = LiveGame(data, 1)
    assert live.game.phase.value == "steal" and live.game.players[1].line == [7]
    views.taps.DOUBLE_TAP = 0.0  # (monkeypatched back after the test) a second later: it counts
    tap(at, "live_take")
    assert LiveGame(data, 1).game.players[0].line == [3, 7, 7]


def test_the_next_card_tapped_at_once_after_take_is_recorded(data, hurried):
    """Take, then the next card at once: the card buttons never stand where Take was (and a finger's second
    tap on one spot is the browser's to drop), so the card is not refused as a double tap."""
    at = live_game(["Ann", "Bob"], join={"players": [{"line": [3]}, {"line": [7]}], "active": 0})
    tap(at, "live_card_7")  # Bob's 7 on offer
    views.taps.DOUBLE_TAP = 0.0
    tap(at, "live_take")
    views.taps.DOUBLE_TAP = 60.0  # (monkeypatched back after the test) the card comes "at once" after it
    tap(at, "live_card_5")
    assert not at.exception
    assert "double tap" not in notes(at), notes(at)
    assert LiveGame(data, 1).game.players[0].line == [3, 7, 7, 5]


# -- in a real browser, where a tap may reach a busy server late ---------------------------------------------
def shown(page, name: str):  # type: ignore[no-untyped-def]
    """The button on screen (while a table is redrawn, the last table's copy may linger a moment)."""
    return page.get_by_test_id("stButton").get_by_role("button", name=name, exact=True).filter(visible=True).last


def taken(page) -> None:  # type: ignore[no-untyped-def]
    """Until the page has taken every tap, a held one too (made once the one before it was taken)."""
    settle(page)
    page.wait_for_timeout(500)
    settle(page)


def spot(locator) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Where a finger taps ``locator``."""
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def pairs(page, store: GameStore, gid: int, n: int):  # type: ignore[no-untyped-def]
    """``n`` times: the seat to play turns over a card no other line shows; then the game as saved, the next
    seat, and a card that seat can be dealt that offers no steal (:func:`bench.quick_taps.a_card_then_the_next`)."""
    for _ in range(n):
        pair = a_card_then_the_next(page, store, gid)
        assert pair is not None
        yield pair


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_double_taps_in_chromium_count_once_even_on_a_busy_page(tmp_path):
    """The tester's steps: Stop, then about 200 ms later (the page working out the next seat's advice) a card
    tapped twice 80 ms apart. It once counted two or three times in 3 of 14 tries; in practice a double tap on
    Draw took the steal the first draw offered (3 of 4). Six tries of each: one draw, never a steal. (On a
    loaded machine the card's tap once reached the server before the page had been redrawn after Stop, and
    was refused: now it waits in the browser until the Stop has been taken.)"""
    store = GameStore(tmp_path / "games.sqlite")
    with serve_advisor({"HIT_DATA_DIR": str(tmp_path)}) as url, chromium("double taps") as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        gid = start_live(page, url, store)
        for before, nxt, value in pairs(page, store, gid, 6):
            x, y = spot(shown(page, str(value)))  # where a finger taps it, twice
            shown(page, "Stop").click()
            page.wait_for_timeout(200)
            page.mouse.click(x, y)
            page.wait_for_timeout(80)
            page.mouse.click(x, y)
            taken(page)
            after = LiveGame(store, gid)
            new = [json.loads(r) for r in after.rows[len(before.rows):]]
            assert [e["event"] for e in new if e["event"] in ("draw", "stop")] == ["stop", "draw"], new
            assert after.game.active == nxt and after.game.active_player.line == [value]
        page.goto(f"{url}/practice")
        opened(page, 60000)  # (its double-tap guard in place before the taps below)
        page.get_by_role("spinbutton").first.fill("0")  # no timer
        page.get_by_role("button", name="Start").click()
        settle(page)
        gid = store.games()[0].id
        for _ in range(6):
            before = LiveGame(store, gid)
            if before.over:
                break
            draw = shown(page, "Draw")
            if draw.count() == 0 or draw.is_disabled():
                shown(page, "Decline").click()
                settle(page)
                page.wait_for_timeout(600)  # past the server's double-tap window (0.3 s): a new tap, not a double tap
                continue
            x, y = spot(draw)
            page.mouse.click(x, y)
            page.wait_for_timeout(80)
            page.mouse.click(x, y)  # the same spot: whatever button is drawn there now
            settle(page)
            after = LiveGame(store, gid)
            mine = [json.loads(r) for r in after.rows[len(before.rows):]]
            mine = mine[:next((k for k, e in enumerate(mine) if e.get("seat") not in (None, 0)), len(mine))]
            assert [e["event"] for e in mine if e["event"] in ("draw", "steal", "decline", "stop")][:1] == ["draw"]
            assert not [e for e in mine if e["event"] in ("steal", "decline")], mine  # not the second tap's


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_quick_taps_in_chromium_are_taken_one_at_a_time_in_order(tmp_path):
    """Stop, then the next seat's card 5 ms later (faster than any finger), eight times. Before, this lost
    the Stop without a word (the card went to the seat that had stopped), said the game "moved on in another
    tab" (two runs of the page at once), or left a saved game that no longer replayed. Now the card waits in
    the browser until the page has taken the Stop, and is made on the table the Stop left: every time the
    stop and then the next seat's card, the game replays, and no message claims another tab. Then a held tap
    whose button cannot be used by then (Stop, after a card that put a steal on offer) is not made, and a
    note says so. And a card tapped at once after Decline, on its button greyed out until then, is made too."""
    store = GameStore(tmp_path / "games.sqlite")
    with serve_advisor({"HIT_DATA_DIR": str(tmp_path)}) as url, chromium("quick taps") as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        gid = start_live(page, url, store)
        for before, nxt, value in pairs(page, store, gid, 8):
            seat = before.game.active
            x, y = spot(shown(page, str(value)))
            shown(page, "Stop").click()
            page.wait_for_timeout(5)
            page.mouse.click(x, y)  # (long before the page can have taken the Stop)
            taken(page)
            after = LiveGame(store, gid)  # (a saved game that cannot be replayed raises here)
            new = [(e["event"], e.get("seat")) for e in map(json.loads, after.rows[len(before.rows):])
                   if e["event"] in ("draw", "stop")]
            assert "moved on in another tab" not in page.get_by_test_id("stMain").inner_text()
            assert new == [("stop", seat), ("draw", nxt)], new
            assert after.game.active == nxt and after.game.active_player.line == [value]
        # a held tap whose button is gone by then: the seat to play draws the stopped seat's card (a steal on
        # offer, so Stop cannot be used), Stop tapped 5 ms after it
        game = LiveGame(store, gid).game
        last = (game.active - 1) % 3
        offer = next(v for v in game.players[last].line if v in game.pile)
        before = LiveGame(store, gid)
        x, y = spot(shown(page, "Stop"))
        shown(page, str(offer)).click()
        page.wait_for_timeout(5)
        page.mouse.click(x, y)
        settle(page)
        page.wait_for_timeout(500)
        note = page.locator(".hit-tap-note")
        assert note.count() == 1 and note.inner_text().startswith('Not made: "Stop" (tapped while the page was still')
        after = LiveGame(store, gid)
        assert [json.loads(r)["event"] for r in after.rows[len(before.rows):]] == ["draw"]
        assert after.game.phase.value == "steal"
        # Decline, then the next card 5 ms later, on its button greyed out while the steal is on offer (a tap
        # there makes no click): it once went without a word; now it waits for the Decline, then is made
        page.locator(".hit-tap-note").evaluate_all("(notes) => notes.forEach((n) => n.remove())")
        card = next(v for v in range(10, 0, -1) if v in after.game.pile and v != offer
                    and all(v not in p.line for k, p in enumerate(after.game.players) if k != after.game.active))
        assert shown(page, str(card)).is_disabled()
        x, y = spot(shown(page, str(card)))
        shown(page, "Decline").click()
        page.wait_for_timeout(5)
        page.mouse.click(x, y)
        taken(page)
        done = LiveGame(store, gid)
        assert [(e["event"], e.get("value")) for e in map(json.loads, done.rows[len(after.rows):])] == [
            ("decline", offer), ("draw", card)], page.get_by_test_id("stMain").inner_text()
        assert page.locator(".hit-tap-note").count() == 0


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_a_bust_banner_has_undo_beside_it_and_a_narrow_sidebar_closes_after_a_page_is_chosen(tmp_path):
    """At 1280 the banner's Undo stands beside it, not under it; on a narrow screen whose browser Streamlit does
    not take for a phone (by its user agent), choosing a page in the sidebar closes the sidebar all the same,
    and it stays closed once the new page is drawn (on a busy machine it was drawn again, open, after the
    first close); opened again by the player, it stays open. Screenshots: tests/artifacts/bust-banner.png, sidebar-after-nav.png."""
    with serve_advisor({"HIT_DATA_DIR": str(tmp_path)}) as url, chromium("banner and sidebar") as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}/live")
        settle(page)
        page.get_by_role("button", name="Start recording").click()
        settle(page)
        for value in ("1", "2", "3", "2"):  # the second 2 onto 1 2 3 busts (R5)
            page.get_by_test_id("stButton").get_by_role("button", name=value, exact=True).filter(visible=True) \
                .last.click()
            page.wait_for_timeout(400)
            settle(page)
        banner = page.locator(".st-key-live_bust_banner")
        alert = banner.get_by_test_id("stAlert").bounding_box()
        undo = banner.get_by_role("button", name="Undo").bounding_box()
        assert alert is not None and undo is not None
        assert undo["x"] >= alert["x"] + alert["width"] - 1 and undo["y"] < alert["y"] + alert["height"], (alert, undo)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "bust-banner.png"))
        phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        phone.goto(url)
        opened(phone, 60000)  # (the script that closes the sidebar runs only after the page first reads idle)
        phone.get_by_test_id("stExpandSidebarButton").click()
        phone.wait_for_timeout(600)
        sidebar = phone.get_by_test_id("stSidebar")
        out = sidebar.bounding_box()
        assert out is not None and out["x"] + out["width"] > 0
        phone.get_by_test_id("stSidebarNav").get_by_text("Practice").click()
        phone.wait_for_timeout(1200)
        settle(phone)
        assert "/practice" in phone.url
        closed = sidebar.bounding_box()
        assert closed is None or closed["x"] + closed["width"] <= 0, closed
        phone.screenshot(path=str(ARTIFACTS / "sidebar-after-nav.png"))
        phone.get_by_test_id("stExpandSidebarButton").click()  # opened again by the player: it stays open
        phone.wait_for_timeout(1500)
        again = sidebar.bounding_box()
        assert again is not None and again["x"] + again["width"] > 0, again
