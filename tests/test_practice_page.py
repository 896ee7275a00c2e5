"""The Practice page (views/practice.py): one seat against bots, the app dealing.

AppTest drives the page: the bots play at once and say what they did, beginner
mode's exact bust chance (R13), a hint that is the advice for your seat, the
timer running out (R14), undo, bad setups, and a two-round game (R15) played
to the end with the totals, the tie-breaks (R12) and the review. The browser
test (Debian's Chromium through Playwright) plays a three-player game against
two bots to its end with a short timer that runs out once, compares the final
scores with the rules engine's replay of the saved record, and saves
``tests/artifacts/practice.png`` (390×844) and ``practice-desktop.png``.

Every test points ``HIT_DATA_DIR`` at a temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import chromium, serve_advisor
from game_pages import (ARTIFACTS, CHROMIUM, PRACTICE, button, in_view, keys, params, saved_lines, settle,
                        texts, unescape)
from streamlit.testing.v1 import AppTest

from solver.play.live import LiveGame
from solver.models import MODELS
from solver.models.advice import Budget
from solver.utilities.numbers import FLOAT
from solver.game.record import replay
from solver.play.review import review
from solver.play.store import GameStore
from views.advice_view import BANK_SECONDS
from views.game_view import happenings, winner_sentence
from views.practice import BOTS, bot_label, seat_names


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GameStore:
    """A temporary data folder for the page (HIT_DATA_DIR), and its store."""
    monkeypatch.setenv("HIT_DATA_DIR", str(tmp_path))
    return GameStore(tmp_path / "games.sqlite")


def practice(players: int = 3, you: int = 0, bots: dict[int, str] | None = None, timer: int = 0,
             rounds: int = 1, deal: str = "7", first: Any = 0, name: str = "Ann") -> AppTest:
    """The page, set up and started (the timer off unless asked)."""
    at = AppTest.from_file(PRACTICE, default_timeout=120).run()
    at.segmented_control(key="practice_players").set_value(players).run()
    at.selectbox(key="practice_you").set_value(you).run()
    at.text_input(key="practice_name").input(name)
    for seat, policy in (bots or {}).items():
        at.selectbox(key=f"practice_bot_{seat}").set_value(policy)
    at.selectbox(key="practice_first").set_value(first)
    at.selectbox(key="practice_rounds").set_value(rounds)
    at.number_input(key="practice_timer").set_value(timer)
    at.text_input(key="practice_deal").input(deal)
    return at.button(key="practice_start").click().run()


def the_game(data: GameStore) -> LiveGame:
    return LiveGame(data, data.games()[0].id)


def decide(at: AppTest) -> str | None:
    """Your move as a quick player makes it: take a steal, stop after one card, else draw (None: game over)."""
    keys = {b.key for b in at.button if not b.disabled}
    for key in ("practice_take", "practice_stop", "practice_draw"):
        if key in keys:
            button(at, key).click().run()
            return key
    return None


def test_the_bots_play_at_once_and_say_what_they_did(data):
    at = practice(you=2, bots={0: "turn", 1: "threshold:20"})
    assert not at.exception and not at.error
    live = the_game(data)
    assert live.names == ["turn", "threshold:20", "Ann"] and live.game.active == 2
    assert live.saved.settings == {"you": 2, "bots": {"0": "turn", "1": "threshold:20"}, "timer": 0,
                                   "beginner": True, "coach": True}
    told = happenings(live.rows, live.names)
    assert told[0] == "Round 1: turn starts." and told[1].startswith("turn drew ")
    assert told[2].startswith("threshold\\:20 drew ") and told[2].endswith(".")
    assert "  \n".join(told) in texts(at)
    assert at.markdown[0].value.startswith("#### Your turn\nDraw your first card.")
    # Seat 1 started (R2 as chosen), the bots' first moves are in the record before yours.
    rows = [json.loads(r) for r in live.rows]
    assert rows[1] == {"event": "round", "round": 1, "first": 0} and rows[2]["seat"] == 0


def test_beginner_mode_shows_the_exact_bust_chance(data):
    at = practice(players=2, bots={1: "turn"})
    assert "Bust chance of the next card: **0/90** (0.0%)." in texts(at)  # your turn first, a fresh deck
    for _ in range(3):
        button(at, "practice_draw").click().run()
        live = the_game(data)
        if live.game.active != 0 or live.game.phase.value != "choose":
            break
        p, pile = live.game.bust_chance(), len(live.game.pile)
        assert f"Bust chance of the next card: **{p * pile}/{pile}** ({float(p):.1%})." in texts(at)


def test_beginner_mode_at_a_steal_gives_both_chances(data):
    from solver.game.position import Position
    from views.practice import bust_chances

    pos = Position.from_dict({"players": [{"line": [4]}, {"line": [5, 5]}], "active": 0})
    live = LiveGame.start(data, "b", "practice", ["Ann", "Bob"], first=0, start=pos, seed=1)
    live.act("draw", 5)  # two cards down: no bust yet; taking the two 5s makes four, holding 4 and 5
    pile = len(live.game.pile)
    bust = sum(1 for v in live.game.pile if v in (4, 5))
    assert bust_chances(live) == (f"Bust chance of the next card: **0/{pile}** (0.0%); if you take the steal, "
                                  f"**{bust}/{pile}** ({bust / pile:.1%}).")


def test_beginner_mode_off_hides_the_bust_chance(data):
    at = AppTest.from_file(PRACTICE, default_timeout=120).run()
    at.toggle(key="practice_beginner").set_value(False)
    at.number_input(key="practice_timer").set_value(0)
    at.selectbox(key="practice_first").set_value(0)
    at.button(key="practice_start").click().run()
    assert not at.exception and "Bust chance" not in texts(at)
    assert the_game(data).saved.settings["beginner"] is False


def test_a_hint_is_the_advice_for_your_seat(data):
    at = practice(players=2, bots={1: "turn"})
    button(at, "practice_draw").click().run()
    live = the_game(data)
    assert live.game.active == 0
    assert highlighted(at) == []  # no advice unasked, not even a highlighted Draw
    button(at, "practice_hint").click().run()
    assert not at.exception
    w = MODELS["win"].advise(live.position(), FLOAT, Budget(BANK_SECONDS))  # the chance to win leads
    b = MODELS["bank"].advise(live.position(), FLOAT)  # the points beside it
    box = at.success[0].value
    assert highlighted(at) == ["practice_stop" if str(w.action) == "stop" else "practice_draw"], box
    assert box.startswith(f"### You: {w.action.value.upper()}\nYour chance to win, **"), box
    assert f"Stop: {w.stop:.1%}; draw: {w.draw:.1%}." in box, box
    assert any(f"stop {b.stop:.2f}, draw {b.draw:.2f}" in m.value and "points that reach your loot" in m.value
               for m in at.markdown), [m.value for m in at.markdown]
    decide(at)
    assert not at.success or not at.success[0].value.startswith("### You: ")  # a hint is for one decision


def test_a_hint_at_a_turn_start_is_draw_at_once(data, monkeypatch):
    """Nothing to weigh before the first card: the hint says DRAW without asking `bank`."""
    import views.advice_view

    at = practice(players=2, bots={1: "turn"})
    assert the_game(data).game.phase.value == "must draw"
    monkeypatch.setattr(views.advice_view, "table_advice", lambda *a, **k: pytest.fail("`bank` was asked"))
    button(at, "practice_hint").click().run()
    assert not at.exception and at.success[0].value.startswith("### You: DRAW")
    assert highlighted(at) == ["practice_draw"]


def test_the_timer_running_out_plays_r14(data):
    at = practice(players=2, bots={1: "turn"}, timer=30)
    live = the_game(data)
    lines = len(live.rows)
    assert at.session_state["practice_deadline"]["at"] == [live.gid, lines]
    at.session_state["practice_deadline"] = {"at": [live.gid, lines], "end": time.time() - 1}
    at.run()
    assert not at.exception
    rows = [json.loads(r) for r in the_game(data).rows]
    timer = next(k for k, r in enumerate(rows) if r.get("event") == "timer")
    assert rows[timer] == {"event": "timer", "seat": 0, "phase": "must draw"}
    assert rows[timer + 1]["event"] == "draw" and any(r.get("event") == "stop" and r["seat"] == 0 or
                                                      r.get("event") == "bust" for r in rows[timer + 1:])
    assert at.info[0].value.startswith("Your time ran out (R14)")
    assert "Ann ran out of time, drew" in texts(at)


def test_a_tap_after_the_timer_ran_out_is_not_applied(data):
    at = practice(players=2, bots={1: "turn"}, timer=30)
    live = the_game(data)
    at.session_state["practice_deadline"] = {"at": [live.gid, len(live.rows)], "end": time.time() - 1}
    # Draw, tapped once the time had run out but before the page said so: R14 plays instead.
    button(at, "practice_draw").click().run()
    assert not at.exception
    rows = [json.loads(r) for r in the_game(data).rows]
    timer = next(k for k, r in enumerate(rows) if r.get("event") == "timer")
    assert sum(1 for r in rows if r.get("event") == "timer") == 1
    assert rows[timer - 1] == {"event": "round", "round": 1, "first": 0}  # nothing of Ann's before it
    assert at.info[0].value.startswith("Too late: your time ran out before that tap (R14)")


def test_undo_takes_back_your_move_and_the_bots_since(data):
    at = practice(players=3, bots={1: "turn", 2: "rule"})
    assert button(at, "practice_undo").disabled  # nothing of yours yet
    button(at, "practice_draw").click().run()
    first = the_game(data).rows
    decide(at)
    while the_game(data).game.active != 0 and not the_game(data).over:
        at.run()
    button(at, "practice_undo").click().run()
    assert not at.exception
    assert the_game(data).rows == first  # back to your decision after the first card
    button(at, "practice_undo").click().run()
    assert len(the_game(data).rows) == 2 and button(at, "practice_undo").disabled


def coach_says(at: AppTest) -> list[tuple[str, bool]]:
    """The coach's box, if any: its text, and whether it is the warning of a mistake."""
    return ([(w.value, True) for w in at.warning if w.value.startswith("Your last choice")]
            + [(i.value, False) for i in at.info if i.value.startswith("Your last choice")])


def test_the_coach_weighs_each_choice_as_the_review_does(data):
    """Each choice you make is weighed once made, by `win`; the review of the finished game (another path: the
    record replayed, `win` asked in this process) finds the same cost for each, and the same chances."""
    from solver.play.review import MADE
    from views.practice import MISTAKE

    at = practice(players=2, bots={1: "turn"}, deal="11")
    said: list[tuple[str, bool]] = []
    for _ in range(300):
        live = the_game(data)
        if live.over:
            break
        phase = live.game.phase.value
        # A player who always takes a steal and draws to 25 points or a bust: some choices cost, some not.
        line = sum(live.game.active_player.line)
        key = ("practice_take" if phase == "steal" else "practice_draw" if phase == "must draw" or line < 25
               else "practice_stop")
        button(at, key).click().run()
        assert not at.exception
        box = coach_says(at)
        if phase == "must draw":  # the first card of a turn is no choice (R4): the last one stays said
            assert box == said[-1:], texts(at)
        else:
            assert len(box) == 1, texts(at)
            said.append(box[0])
            now = the_game(data)
            assert now.over or (", last turn" in box[0][0]) == (now.game.phase.value == "must draw"), box
    mine = [d for d in review(the_game(data).rows, "win", BANK_SECONDS).decisions if d.seat == 0]
    assert len(mine) == len(said) and len(mine) > 10
    assert any(costly for _, costly in said) and not all(costly for _, costly in said)
    other_kind = 0
    for d, (text, costly) in zip(mine, said):
        assert f"you {MADE[d.choice]}" in text, (d, text)
        if (d.approximation is None) != ("(exact)" in text):
            other_kind += 1  # exact within its time limit for one and not the other (a busy machine): not comparable
            continue
        assert f"{float(d.best_value):.1%}" in text and f"{float(d.value):.1%}" in text, (d, text)
        assert ("It cost" in text) == (d.cost >= 0.001), (d, text)
        shown = re.search(r"It cost \*\*([\d.]+) percentage points", text)
        assert costly == (shown is not None and float(shown[1]) >= 100 * MISTAKE), (d, text)
        assert shown is None or abs(float(shown[1]) - 100 * float(d.cost)) < 0.1 + 1e-9, (d, text)
    assert other_kind <= len(mine) // 10


def test_the_coach_follows_a_choice_made_in_another_tab(data):
    at = practice(players=2, bots={1: "turn"})
    button(at, "practice_draw").click().run()  # the first card: no choice
    again = AppTest.from_file(PRACTICE, default_timeout=120)  # the same game in another tab
    again.query_params["game"] = str(the_game(data).gid)
    button(again.run(), "practice_stop").click().run()  # a choice made there
    button(at, "practice_draw").click().run()  # made here on the table before it: refused
    assert "not applied" in texts(at) and the_game(data).game.active == 0
    [(text, _)] = coach_says(at)
    assert text.startswith("Your last choice, last turn: you stopped, holding ") and coach_says(at) == coach_says(again)


def test_the_coach_says_when_the_timer_played_since(data):
    at = practice(players=2, bots={1: "turn"}, timer=30)
    button(at, "practice_draw").click().run()  # the first card: no choice
    button(at, "practice_draw").click().run()  # a choice
    live = the_game(data)
    assert live.game.active == 0 and live.game.phase.value == "choose"  # (this deal: no bust yet)
    assert coach_says(at)[0][0].startswith("Your last choice: you drew, holding ")
    lines = len(live.rows)
    at.session_state["practice_deadline"] = {"at": [live.gid, lines], "end": time.time() - 1}
    at.run()  # the timer stops the turn (R14); the bot plays; your turn again
    assert not at.exception and at.info[0].value.startswith("Your time ran out (R14)")
    assert coach_says(at)[0][0].startswith("Your last choice, last turn, before the timer played: you drew, holding ")


def test_the_coach_stays_after_a_reload_and_goes_with_an_undo_or_when_turned_off(data):
    at = practice(players=2, bots={1: "turn"})
    button(at, "practice_draw").click().run()  # the first card: no choice to weigh
    assert coach_says(at) == [] and the_game(data).game.phase.value == "choose"
    button(at, "practice_stop").click().run()  # the bot plays its turn; the stop is weighed
    assert not at.exception and len(coach_says(at)) == 1
    assert coach_says(at)[0][0].startswith("Your last choice, last turn: you stopped, holding ")
    again = AppTest.from_file(PRACTICE, default_timeout=120)  # a reload: a new session, the word stays
    again.query_params["game"] = str(the_game(data).gid)
    assert coach_says(again.run()) == coach_says(at)
    button(at, "practice_undo").click().run()  # the stop and the bot's turn taken back
    assert not at.exception and coach_says(at) == [] and the_game(data).game.phase.value == "choose"
    off = AppTest.from_file(PRACTICE, default_timeout=120).run()
    off.toggle(key="practice_coach_on").set_value(False)
    off.number_input(key="practice_timer").set_value(0)
    off.selectbox(key="practice_first").set_value(0)
    off.button(key="practice_start").click().run()
    for _ in range(6):
        decide(off)
        assert not off.exception and coach_says(off) == []
    assert sorted(g.settings["coach"] for g in data.games()) == [False, True]


@pytest.mark.parametrize(("name", "deal", "message"), [
    ("", "", "Seat 1 has no name: type one."),
    ("A" * 30, "", "The name of seat 1 is 30 characters long; 24 at most."),
    ("Ann", "12abc", "The deal number “12abc” is not a whole number of at most 9 digits."),
    ("Ann", "1" * 12, "The deal number “111111111111” is not a whole number of at most 9 digits."),
])
def test_a_bad_setup_is_named(data, name, deal, message):
    at = practice(name=name, deal=deal)
    assert not at.exception
    assert [unescape(e.value) for e in at.error] == [message]
    assert data.games() == []


def test_your_name_never_clashes_with_a_bot():
    assert seat_names("turn", 0, {1: "turn", 2: "rule"}, 3) == ["turn", "turn 2", "rule"]


def test_a_two_round_game_to_the_end_totals_tie_breaks_and_review(data):
    at = practice(players=3, bots={1: "turn", 2: "rule"}, rounds=2, first="random")
    for _ in range(400):
        if decide(at) is None:
            break
        assert not at.exception
    live = the_game(data)
    assert live.over and live.round == 2
    match = replay(data.export(live.gid)).match
    rounds = [json.loads(r) for r in live.rows if json.loads(r).get("event") == "round"]
    assert rounds[1]["first"] == (rounds[0]["first"] + 1) % 3  # R15: the first seat moves on
    assert at.success[0].value == "### Game over\n" + winner_sentence(match.totals(), match.ranking(), live.names)
    table = at.table[0].value
    assert table["seat"].tolist() == [s + 1 for s in match.ranking()]
    assert table["score"].tolist() == [match.totals()[s].score for s in match.ranking()]
    assert [table["round 1"].tolist(), table["round 2"].tolist()] == \
        [[g.players[s].score for s in match.ranking()] for g in match.games]
    assert "judged by `win`" in texts(at)  # the review opens in chances to win; in points a tap away
    at.radio(key="practice_review_model").set_value("turn").run()
    want = review(data.export(live.gid), "turn")
    for seat, name in enumerate(live.names):
        mine = [d for d in want.decisions if d.seat == seat]
        assert (f"**Seat {seat + 1}: {name}**  \n{len(mine)} decisions, {sum(1 for d in mine if d.cost > 0)} "
                f"not the best, **{float(want.given_away(seat)):.2f}** points given away") in texts(at)
    assert params(at) == {"game": str(live.gid)}
    again = AppTest.from_file(PRACTICE, default_timeout=120)
    again.query_params["game"] = str(live.gid)
    again.run()
    assert not again.exception and again.success[0].value == at.success[0].value  # a reload shows the end


def test_win_bots_share_one_endgame_search_and_play_the_win_models_choices(data):
    """Two `win` bots play a game to its end with you; they share one exact endgame
    search (let go when the game is over), and `review` by the same model finds none of their decisions giving
    anything away and marks their last cards as exact."""
    at = practice(players=3, bots={1: "win", 2: "win"})
    for _ in range(400):
        if decide(at) is None:
            break
        assert not at.exception and not at.error
    live = the_game(data)
    assert live.over and live.names == ["Ann", "win", "win 2"]
    bots = at.session_state["practice_bots"]
    assert len({id(bots[f"{live.gid}/{s}"].endgame) for s in (1, 2)}) == 1
    assert bots[f"{live.gid}/1"].endgame.solver is None  # the game is over: the search's memory is let go
    judged = review(data.export(live.gid), "win")
    theirs = [d for d in judged.decisions if d.seat in (1, 2)]
    assert theirs and all(d.best_value is not None and d.cost <= 1e-9 for d in theirs)
    assert any(d.approximation is None for d in theirs) and any(d.approximation for d in theirs)


# ---------------------------------------------------------------------------------------------------------------
# In a real browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("practice-data")
    with serve_advisor({"HIT_DATA_DIR": str(folder)}) as url:
        yield url, GameStore(folder / "games.sqlite")


def hint_top(page: Any) -> int:
    """Where the Hint button stands in the page (not on the screen: the page may have scrolled)."""
    return int(page.evaluate("""() => {
        const main = document.querySelector('[data-testid=stMain]');
        const button = [...document.querySelectorAll('.st-key-practice_hint button')]
            .filter(b => b.getBoundingClientRect().height > 0).pop();  // (Streamlit keeps a hidden copy)
        return Math.round(button.getBoundingClientRect().top + main.scrollTop + window.scrollY); }"""))


DECISION = ("() => document.body.innerText.includes('Game over') || [...document.querySelectorAll("
            "'[data-testid=stButton] button')].some(b => !b.disabled && /^(Draw|Take the (\\w+ )?\\d+s?)$/.test("
            "b.innerText.trim()))")


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                    reason=f"{CHROMIUM} is not installed (make test installs it)")
def test_a_practice_game_against_two_bots_to_the_end_with_the_timer(served):
    from playwright.sync_api import expect

    url, store = served
    with chromium("test_a_practice_game_against_two_bots_to_the_end_with_the_timer") as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page.goto(url + "/practice")
        expect(page.get_by_role("button", name="Start")).to_be_visible(timeout=60000)
        settle(page)
        for label, value in (("Your name", "Ann"), ("Seconds per decision (0: no timer)", "8"),
                             ("Deal number (optional)", "11")):
            box = page.get_by_label(label, exact=True)
            box.fill(value)
            box.press("Enter")
            settle(page)
        page.get_by_role("button", name="Start").click()
        page.wait_for_url(re.compile(r"/practice\?game=\d+$"), timeout=60000)
        gid = int(page.url.rsplit("=", 1)[1])
        waited = False
        shot = False
        tops: list[int] = []  # where the buttons stand at each decision: the same place throughout
        for _ in range(600):  # the game ends the loop; a tap the timer made stale costs a turn of it
            try:
                page.wait_for_function(DECISION, timeout=60000)
            except Exception:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "practice-stuck.png"), full_page=True)
                raise
            if page.get_by_test_id("stAlertContentSuccess").get_by_text("Game over").count():
                break
            settle(page)
            n = saved_lines(page)
            tops.append(hint_top(page))
            if not waited:  # the first decision: let the time run out (R14 plays it)
                expect(page.get_by_text(re.compile(r"^Timer: \d s left to decide"))).to_be_visible()
                expect(page.get_by_text("Your time ran out (R14)", exact=False)).to_be_visible(timeout=30000)
                waited = True
                continue
            buttons = page.get_by_test_id("stButton")
            take = buttons.get_by_role("button", name=re.compile(r"^Take the (\w+ )?\d+s?$"))
            stop = buttons.get_by_role("button", name="Stop", exact=True)
            if not shot and stop.count() and stop.is_enabled():  # a hint, and the phone's screenshot
                buttons.get_by_role("button", name="Hint", exact=True).click()
                verdict = page.locator(".st-key-verdict").get_by_test_id("stAlertContentSuccess")
                expect(verdict).to_be_visible(timeout=60000)
                settle(page)
                page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
                page.wait_for_timeout(300)
                if saved_lines(page) == n:  # the timer did not run out meanwhile
                    assert in_view(verdict.get_by_role("heading"), 844)
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / "practice.png"))
                    shot = True
                continue
            try:
                if take.count():
                    take.click(timeout=3000)
                elif stop.count() and stop.is_enabled():
                    stop.click(timeout=3000)
                else:
                    buttons.get_by_role("button", name="Draw", exact=True).click(timeout=3000)
            except Exception:  # noqa: BLE001 - the timer redrew the page under the click: look again
                continue
            page.wait_for_function(
                "([n]) => { const m = document.querySelector('[data-testid=stMain]').innerText"
                ".match(/Saved after every tap: (\\d+) record lines/); "
                "return !m || Number(m[1]) !== n || document.body.innerText.includes('changed before'); }",
                arg=[n], timeout=60000)
            settle(page)  # the tap's run done: the next look is at the page it drew (a stale note stays up)
        expect(page.get_by_test_id("stAlertContentSuccess").get_by_text("Game over")).to_be_visible()
        settle(page)
        assert shot
        assert len(tops) > 20 and len(set(tops)) == 1, tops  # (a bust, a steal, the timer's note: they moved)
        rows = [json.loads(r) for r in store.lines(gid)]
        timers = [r for r in rows if r.get("event") == "timer"]
        assert timers and all(t["seat"] == 0 for t in timers)  # R14 played at least once, for Ann only
        match = replay(store.export(gid)).match
        assert rows[-1] == {"event": "game end", "scores": [t.score for t in match.totals()],
                            "loot_cards": [len(t.loot) for t in match.totals()],
                            "lost_turns": [t.lost_turns for t in match.totals()],
                            "ranking": match.ranking(), "winner": match.ranking()[0]}
        shown = [[c.inner_text().strip() for c in row.locator("td").all()]
                 for row in page.get_by_test_id("stTable").first.locator("tbody tr").all()]
        names = replay(store.export(gid)).names
        assert shown == [[str(place), str(seat + 1), names[seat], str(match.totals()[seat].score),
                          str(len(match.totals()[seat].loot)), str(match.totals()[seat].lost_turns)]
                         for place, seat in enumerate(match.ranking(), start=1)], shown
        expect(page.locator(".st-key-review-seat-1")).to_contain_text("Seat 1: Ann", timeout=60000)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.wait_for_timeout(1000)
        page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / "practice-desktop.png"))
        page.close()


def test_the_last_cards_steal_in_practice(data):
    """R9 in practice: the hint and beginner mode at the steal the last card offers (no model is asked), and
    the coach, who weighs the draw before it but not the steal."""
    from game_pages import last_card_table
    from solver.game.position import Position

    LiveGame.start(data, "last", "practice", ["Ann", "turn"], first=0, start=Position.from_dict(last_card_table()),
                   seed=1, settings={"you": 0, "bots": {"1": "turn"}, "timer": 0, "beginner": True})
    at = AppTest.from_file(PRACTICE, default_timeout=120)
    at.query_params["game"] = "1"
    at.run()
    button(at, "practice_draw").click().run()  # the only card left: a 5, and seat 2 shows a 5
    assert not at.exception
    assert "No card is left in the pile: this steal is the last decision of the game (R9)." in texts(at)
    button(at, "practice_hint").click().run()
    assert not at.exception
    assert at.success[0].value.startswith("### You: TAKE the steal\nThat was the last card of the pile")
    assert at.success[0].value.endswith("adds 5 points to your loot and costs nothing.")
    assert [text[:37] for text, _ in coach_says(at)] == ["Your last choice: you drew, holding 3"]
    button(at, "practice_take").click().run()
    assert not at.exception and at.success[0].value.startswith("### Game over")
    last = review(the_game(data).rows, "win").decisions[-1]  # the review weighs it: won or not (R11, R12)
    assert last.kind == "steal" and last.value is not None
    [(text, costly)] = coach_says(at)
    assert text.startswith("Your last choice: you took the steal (the 5 of turn), holding 3 5. ") and not costly
    assert text.endswith(f": take {float(last.value):.1%}, decline {float(last.best_value):.1%} (exact).")


def test_the_coach_does_not_weigh_the_last_card_of_a_round_with_rounds_to_come(data):
    """As the review: `win` does not weigh the rounds to come (R15) at the end of a round."""
    from game_pages import last_card_table
    from solver.game.position import Position

    LiveGame.start(data, "last", "practice", ["Ann", "turn"], first=0, rounds=2,
                   start=Position.from_dict(last_card_table()), seed=1,
                   settings={"you": 0, "bots": {"1": "turn"}, "timer": 0, "beginner": True})
    at = AppTest.from_file(PRACTICE, default_timeout=120)
    at.query_params["game"] = "1"
    at.run()
    button(at, "practice_draw").click().run()
    assert len(coach_says(at)) == 1
    button(at, "practice_take").click().run()  # the round ends; the next starts
    assert not at.exception and coach_says(at) == []
    steal = [d for d in review(the_game(data).rows, "win").decisions if d.round == 1 and d.kind == "steal"]
    assert [d.value for d in steal] == [None] and "does not weigh the rounds to come" in steal[0].note


def test_the_bot_pickers_read_in_seat_order_with_short_labels(data):
    """A phone stacks each st.columns row: filled column by column, the pickers read seats 2, 4, 3, 5."""
    at = AppTest.from_file(PRACTICE, default_timeout=120).run()
    at.segmented_control(key="practice_players").set_value(5).run()
    pickers = [s for s in at.selectbox if s.key.startswith("practice_bot_")]
    assert [p.label for p in pickers] == [f"Seat {s}: bot" for s in (2, 3, 4, 5)]
    assert max(len(bot_label(b)) for b in BOTS) <= 40  # not cut off in a phone's picker


def test_setup_errors_go_once_the_inputs_change(data):
    at = practice(name="")
    assert [unescape(e.value) for e in at.error] == ["Seat 1 has no name: type one."]
    at.text_input(key="practice_name").input("Ann").run()
    assert not at.error and data.games() == []


def test_a_reload_keeps_the_decisions_deadline(data):
    """R14: a reload must not restart the timer (29 s again); the deadline is saved with the game."""
    at = practice(players=2, bots={1: "turn"}, timer=30)
    live = the_game(data)
    end = at.session_state["practice_deadline"]["end"]
    assert the_game(data).saved.settings["deadline"] == {"at": [live.gid, len(live.rows)], "end": end}
    time.sleep(1.1)
    again = AppTest.from_file(PRACTICE, default_timeout=120)
    again.query_params["game"] = str(live.gid)
    again.run()
    assert not again.exception
    assert again.session_state["practice_deadline"]["end"] == end


def highlighted(at: AppTest) -> list[str]:
    return [b.key for b in at.button if b.key.startswith("practice_") and b.proto.type == "primary"]


def test_the_steal_buttons_are_not_a_hint(data):
    """The advice is shown on request only: neither steal button is highlighted (a red Take would hint)."""
    at = practice(players=2, bots={1: "turn"})
    for _ in range(200):
        if "practice_take" in keys(at) or decide(at) is None:
            break
    assert "practice_take" in keys(at), "no steal was offered"
    assert highlighted(at) == []
    button(at, "practice_hint").click().run()  # asked: the headline's choice (the chance to win) is highlighted
    w = MODELS["win"].advise(the_game(data).position(), FLOAT, Budget(BANK_SECONDS))
    assert w.steal is not None and "### You: " in at.success[0].value
    assert highlighted(at) == ["practice_take" if str(w.steal.action) == "steal" else "practice_decline"]


def test_a_hint_does_not_eat_the_timer(data, monkeypatch):
    """R14's seconds are for deciding: the time a hint takes to work out is given back."""
    import views.advice_view

    quick = views.advice_view.solve

    def slow_solve(*args: Any) -> Any:  # a `bank` that needs 1.5 s more, on the worker thread
        time.sleep(1.5)
        return quick(*args)

    at = practice(players=2, bots={1: "turn"}, timer=30)
    button(at, "practice_draw").click().run()  # a card down: a real choice, worked out by `bank`
    live = the_game(data)
    assert live.game.active == 0 and live.game.players[0].line
    end = at.session_state["practice_deadline"]["end"]
    monkeypatch.setattr(views.advice_view, "solve", slow_solve)
    button(at, "practice_hint").click().run()
    assert not at.exception
    assert at.success[0].value.startswith("### You: ")
    later = at.session_state["practice_deadline"]
    assert later["at"] == [live.gid, len(live.rows)] and later["end"] >= end + 1.5
    assert the_game(data).saved.settings["deadline"] == later  # a reload keeps the time given back


def test_the_seats_table_and_your_line_read_as_a_player_says_them():
    """Your seat, named You in practice, is not "You (you)"; a line worth one point is "1 point"."""
    from solver.game.rules import Game
    from views.game_view import seats_table

    game = Game(2, pile=[6, 5, 4, 3, 2, 1], first=0)  # (the pile's last card is drawn first)
    assert seats_table(game, ["You", "turn"], 0)["name"].tolist() == ["You", "turn"]
    assert seats_table(game, ["Ann", "Bob"], 1)["name"].tolist() == ["Ann", "Bob (you)"]
    game.apply(game.legal_actions()[0])  # the first card: a 1
    assert game.players[0].line == [1]

    class Live:  # what the prompt reads of a game on the page
        names = ["You", "turn"]

    Live.game = game  # type: ignore[attr-defined]
    from views.practice import prompt

    assert "Your line: 1 (1 point)." in prompt(Live, 0)  # type: ignore[arg-type]
