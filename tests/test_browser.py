"""The advisor in a real browser: Debian's Chromium driven by Playwright.

Starts ``streamlit run advisor_app.py`` on 127.0.0.1 at a free port and
enters positions by tapping as a person would. On a 1280×900 screen: the
numbers on the page are the command line's answer for the same position
(`win`'s chance to win in the verdict; `bank`'s points that reach your loot
and `turn`'s beside it; `turn`'s in its panel; `bank`'s theft risk in its
table) and the verdict is on the first screen. On a 390×844 phone: after the
last tap of a four-player position the verdict and the card buttons are on
screen without scrolling, the points models under the buttons, and nothing is
clipped sideways. On the Strength page a double tap on a table size keeps
that size chosen. Saves screenshots to ``tests/artifacts/``: ``advisor.png``
(desktop, first screen), ``advisor-phone.png`` (the phone as the player sees
it) and ``advisor-phone-full.png`` (the whole page at phone width).

In CI (``CI`` set) a missing browser fails the test instead of skipping it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ARTIFACTS, CHROMIUM, chromium, serve_advisor, settle
from game_pages import apart

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def app_url():
    with serve_advisor() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium("test_browser") as b:
        yield b


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the select box labelled ``label`` (tapping again if the first tap only
    focused the box, as a person would)."""
    box = page.get_by_test_id("stSelectbox").filter(has_text=label)
    wanted = page.get_by_role("option", name=option, exact=True)
    for _ in range(3):
        box.click()
        try:
            wanted.wait_for(timeout=3000)
            break
        except Exception:  # noqa: BLE001 - Playwright's timeout: the list did not open
            page.keyboard.press("Escape")
    wanted.click()
    settle(page)


def tap(page, zone: str, cards: list[int]) -> None:
    """Tap cards into a zone, each time waiting until the link shows the card (the rerun is done)."""
    choose(page, "Tap cards into", zone)
    page.wait_for_timeout(300)
    settle(page)
    words = zone.replace(" ▶", "").split()  # "Seat 1 line" -> line0
    param = "discard" if zone == "Discard" else f"{words[2]}{int(words[1]) - 1}"
    for k, v in enumerate(cards):
        page.get_by_test_id("stButton").get_by_role("button", name=str(v), exact=True).click()
        want = ",".join(map(str, cards[: k + 1]))
        page.wait_for_function(  # the app writes the link once the position is read
            "([key, want]) => new URLSearchParams(window.location.search).get(key) === want",
            arg=[param, want], timeout=30000)
        settle(page)


def in_view(locator, height: int) -> bool:
    """The element is wholly on the screen as it stands (no scrolling)."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def cli_answer(position: dict, *options: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "solver", "advise", "-", *options], input=json.dumps(position),
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def table_rows(table) -> list[list[str]]:
    return [[cell.inner_text().strip() for cell in row.locator("td").all()] for row in table.locator("tbody tr").all()]


def test_enter_a_position_by_clicking_and_match_the_command_line(app_url, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(app_url)
    page.get_by_text("Tap cards into").wait_for(timeout=60000)
    settle(page)
    page.get_by_test_id("stSidebar").get_by_text("Exact fractions").click()  # the one-line summaries
    settle(page)

    page.get_by_test_id("stButtonGroup").first.get_by_text("3", exact=True).click()  # three players
    settle(page)
    tap(page, "Seat 1 line ▶", [6, 1, 5])
    tap(page, "Seat 1 loot", [3, 7, 7])
    tap(page, "Seat 2 line", [5, 5])
    tap(page, "Seat 3 line", [9, 9, 2])
    tap(page, "Discard", [8, 8, 2])
    choose(page, "Card just drawn", "5")
    page.wait_for_function("() => new URLSearchParams(window.location.search).get('offer') === '5'", timeout=30000)
    settle(page)

    position = {"players": [{"line": [6, 1, 5], "loot": [3, 7, 7]}, {"line": [5, 5]}, {"line": [9, 9, 2]}],
                "active": 0, "discard": [8, 8, 2], "offer": 5}
    want = cli_answer(position, "--exact")
    expected = (f"bust {want['bust_probability_after_steal']} | stop {want['stop']} | draw {want['draw']} | "
                f"action {want['action']} | steal {want['steal']['action']}: take {want['steal']['take']}, "
                f"decline {want['steal']['decline']}")
    from playwright.sync_api import expect

    # The page reruns after the last tap; wait (up to 30 s) for its answer, then compare exactly.
    # The first code line is `turn`'s panel ("this turn only"), exact.
    expect(page.get_by_test_id("stCode").first).to_have_text(expected, timeout=30000)
    settle(page)

    # The headline is `win`'s: the chance to win of each choice, an estimate (three players).
    win = cli_answer(position, "--model", "win")
    assert win["approximation"] and not win["exact"]
    verdict = page.locator(".st-key-verdict")
    success = verdict.get_by_test_id("stAlertContentSuccess")
    take = win["steal"]["action"] == "take"
    stop = win["action"] == "stop"
    bust = "31.6%"  # the line 6 1 5 or, the steal taken, 6 1 5 5 5: the same values down, the same risk
    expect(success).to_have_text(
        f"{'TAKE' if take else 'DECLINE'} the steal, then {win['action'].upper()} "
        f"Your chance to win, an estimate: "
        f"Take: {win['steal']['take']:.1%}; decline: {win['steal']['decline']:.1%}. "
        f"{'Declining' if take else 'Taking'} costs "
        f"{apart(win['steal']['take'], win['steal']['decline'])} percentage points. "
        f"Stop: {win['stop']:.1%}; draw: {win['draw']:.1%}. {'Drawing' if stop else 'Stopping'} costs "
        f"{apart(win['stop'], win['draw'])} percentage points. "
        f"Bust chance of the next card: {bust}.")
    # Beside it on a wide screen, the points models as what they are: `bank` (points that reach your loot,
    # labelled approximate with three players) and `turn` (points this turn); the copy for a phone, under
    # the card buttons, is hidden.
    bank = cli_answer(position, "--model", "bank")  # floats: `bank`'s speed path, as the page uses
    assert bank["approximation"] == "independent opponents"
    assert (want["action"], bank["action"]) == ("stop", "draw")  # the two models disagree here
    side = page.locator(".st-key-points_side")
    expect(side).to_be_visible()
    expect(page.locator(".st-key-points_under")).to_be_hidden()
    expect(side).to_contain_text(f"bank · points that reach your loot: TAKE the steal, then DRAW (take "
                                 f"{bank['steal']['take']:.2f}, decline {bank['steal']['decline']:.2f}; stop "
                                 f"{bank['stop']:.2f}, draw {bank['draw']:.2f})")
    expect(side).to_contain_text("turn · points this turn: TAKE the steal, then STOP")
    expect(side.get_by_test_id("stCaptionContainer").first).to_contain_text("approximation")
    side_box, head_box = side.bounding_box(), success.bounding_box()
    assert side_box["x"] > head_box["x"] + head_box["width"] and side_box["y"] < head_box["y"] + head_box["height"]
    expect(page.get_by_test_id("stAlertContentWarning").filter(has_text="disagree")).to_contain_text(
        f"Stopping leaves 22 points face up in reach of two opponents, who take {22 - bank['stop']:.2f} of them "
        f"on average: drawing on keeps more for your loot ({bank['draw']:.2f} against {bank['stop']:.2f}).")
    # `bank`'s own summary line, under "The models", is the command line's floats to four decimals.
    expect(page.get_by_test_id("stCode").nth(1)).to_have_text(
        f"bust {bank['bust_probability_after_steal']} | stop {bank['stop']:.4f} | draw {bank['draw']:.4f} | "
        f"action draw | steal take: take {bank['steal']['take']:.4f}, decline {bank['steal']['decline']:.4f}")

    # The theft risk of the line as it stands (6 1 5): the solver's, per value.
    from solver.models.bank import theft_risk
    from solver.utilities.numbers import FLOAT
    from solver.game.position import Position

    risks = theft_risk(Position.from_dict(position), FLOAT)
    theft = page.locator(".st-key-theft")
    assert table_rows(theft.get_by_test_id("stTable")) == [
        [str(r.value), str(r.cards), f"{r.chance:.1%}", f"{r.points_lost:.2f}"] for r in risks]
    expect(theft).to_contain_text(f"If you decline the steal and stop: {sum(r.points_lost for r in risks):.2f} "
                                  f"of your 12 points are expected to be stolen.")
    bust_pct = f"{float(eval(want['bust_probability'])):.1%}"  # "24/79" -> "30.4%"
    assert page.get_by_test_id("stMetricValue").first.inner_text().strip() == bust_pct

    # On a 1280x900 screen the verdict is on the first screen.
    page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
    page.wait_for_timeout(300)
    assert in_view(success, 900)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "advisor.png"))
    page.wait_for_timeout(1000)  # let Vega draw
    charts = page.get_by_test_id("stVegaLiteChart").all()
    assert len(charts) == 2 and all(c.bounding_box()["height"] > 100 for c in charts)  # both drawn
    # The position is in the URL: reopening the link shows the same advice.
    link = page.url
    again = browser.new_page()
    again.goto(link)
    expect(again.locator(".st-key-verdict").get_by_test_id("stAlertContentSuccess")).to_contain_text(
        f"Stop: {win['stop']:.1%}; draw: {win['draw']:.1%}", timeout=60000)
    # Loading a file replaces the table as one step: Undo brings the tapped one back.
    five = {"players": [{"line": [4]}, {}, {"line": [2, 2]}, {}, {"loot": [10]}], "active": 0}
    upload = page.get_by_test_id("stFileUploaderDropzoneInput")
    upload.set_input_files(files=[{"name": "five.json", "mimeType": "application/json",
                                   "buffer": json.dumps(five).encode()}])
    page.wait_for_function("() => new URLSearchParams(window.location.search).get('players') === '5'",
                           timeout=30000)
    settle(page)
    page.get_by_test_id("stButton").get_by_role("button", name="Undo", exact=True).click()
    page.wait_for_function("() => new URLSearchParams(window.location.search).get('players') === '3'",
                           timeout=30000)
    assert "offer=5" in page.url
    # A link's text is never a link on the page (nor bold, nor an image).
    page.goto(app_url + "/?line0=www.evil.example/x,1&lost0=http://a.b/c&players=**x**")
    expect(page.get_by_text("Not read from the link").first).to_be_visible(timeout=60000)
    settle(page)
    assert page.locator("[data-testid=stMain] a[href*='evil'], [data-testid=stMain] a[href*='a.b']").count() == 0
    assert page.locator("[data-testid=stMain] strong", has_text="x").count() == 0
    page.close()
    again.close()


def test_a_phone_at_the_table(app_url, browser):
    """Four players entered on a 390x844 phone: after the last tap the verdict is on screen, unscrolled."""
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(app_url)
    phone.get_by_text("Tap cards into").wait_for(timeout=60000)
    settle(phone)
    phone.get_by_test_id("stButtonGroup").first.get_by_text("4", exact=True).click()  # four players
    settle(phone)
    tap(phone, "Seat 2 line", [7, 7])
    tap(phone, "Seat 3 line", [9, 4])
    tap(phone, "Seat 4 loot", [10, 10])
    tap(phone, "Seat 1 line ▶", [3, 8, 7])
    from playwright.sync_api import expect

    verdict = phone.locator(".st-key-verdict").get_by_test_id("stAlertContentSuccess")
    expect(verdict).to_contain_text("Stop:", timeout=30000)
    settle(phone)
    phone.wait_for_timeout(500)
    assert in_view(verdict, 844), verdict.bounding_box()  # no scrolling after the last tap
    assert in_view(phone.get_by_test_id("stButton").get_by_role("button", name="5", exact=True), 844)
    # The points models come under the card buttons on a phone (the copy beside the headline is hidden).
    expect(phone.locator(".st-key-points_under")).to_be_visible()
    expect(phone.locator(".st-key-points_side")).to_be_hidden()
    under, five = (phone.locator(".st-key-points_under").bounding_box(),
                   phone.get_by_test_id("stButton").get_by_role("button", name="5", exact=True).bounding_box())
    assert under["y"] > five["y"]
    # The 7 just tapped can steal seat 2's two 7s: it is on offer by itself, the verdict says whether to
    # take it, and recording the steal is one tap.
    expect(verdict).to_contain_text(" the steal, then ", timeout=30000)
    assert "offer=7" in phone.url
    take = phone.get_by_test_id("stButton").get_by_role("button", name="Take the two 7s")
    take.click()
    phone.wait_for_function("() => new URLSearchParams(window.location.search).get('line0') === '3,8,7,7,7'",
                            timeout=30000)
    settle(phone)
    expect(verdict).not_to_contain_text("the steal", timeout=30000)
    phone.wait_for_timeout(500)
    assert in_view(verdict, 844), verdict.bounding_box()  # still in sight after recording the steal
    widths = phone.evaluate("() => [document.documentElement.scrollWidth,"
                            " document.querySelector('[data-testid=stMain]').scrollWidth]")
    assert max(widths) <= 390, widths  # nothing clipped sideways
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "advisor-phone.png"))
    # The whole page at phone width (Streamlit scrolls inside the page, so grow the window to fit it).
    height = phone.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    phone.set_viewport_size({"width": 390, "height": height})
    phone.wait_for_timeout(1500)
    phone.screenshot(path=str(ARTIFACTS / "advisor-phone-full.png"), full_page=True)
    # The card buttons stand still from tap to tap, while the advice is worked out and once it is in: a tap
    # made as the advice came in once landed a row lower, on Clear.
    phone.set_viewport_size({"width": 390, "height": 844})
    choose(phone, "Tap cards into", "Seat 3 loot")
    settle(phone)
    tops = {card_top(phone)}
    for v in (1, 2, 6, 10):
        phone.get_by_test_id("stButton").get_by_role("button", name=str(v), exact=True).click()
        for _ in range(40):  # the page's redraw and the advice coming in, every 50 ms for 2 s
            tops.add(card_top(phone))
            phone.wait_for_timeout(50)
        settle(phone)
        tops.add(card_top(phone))
    phone.wait_for_function("() => new URLSearchParams(window.location.search).get('loot2') === '1,2,6,10'",
                            timeout=30000)  # every tap was taken
    # A card that puts a steal on offer (seat 3's 9): the longest usual advice, in the room kept for it.
    choose(phone, "Tap cards into", "Seat 1 line ▶")
    settle(phone)
    phone.get_by_test_id("stButton").get_by_role("button", name="9", exact=True).click()
    for _ in range(40):
        tops.add(card_top(phone))
        phone.wait_for_timeout(50)
    phone.wait_for_function("() => new URLSearchParams(window.location.search).get('offer') === '9'", timeout=30000)
    expect(verdict).to_contain_text(" the steal, then ", timeout=30000)
    settle(phone)
    tops.add(card_top(phone))
    assert len(tops) == 1, sorted(tops)
    phone.close()


def card_top(page) -> int:
    """Where the 1 button stands in the page (scrolled or not), in pixels."""
    return round(page.evaluate(
        "() => { const b = [...document.querySelectorAll('.st-key-card_1 button')].pop();"
        " const m = document.querySelector('[data-testid=stMain]');"
        " return b.getBoundingClientRect().top + (m ? m.scrollTop : 0) + window.scrollY; }"))


def test_a_double_tap_on_the_strength_pages_table_size_keeps_it(app_url, browser):
    """A hurried second tap on a table size on the Strength page (the shipped tournaments: 2 to 5 players)
    leaves that size chosen: its tournament chart alone is shown, not every size's again."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"{app_url}/strength")
    page.get_by_text("Players at the table").wait_for(timeout=60000)
    settle(page)
    charts = page.get_by_test_id("stVegaLiteChart")
    expect(charts.first).to_be_visible(timeout=30000)
    every = charts.count()  # a chart per table size, then the calibration chart
    sizes = page.get_by_test_id("stButtonGroup").first
    sizes.get_by_text("3", exact=True).click()
    sizes.get_by_text("3", exact=True).click()  # the second tap, before or after the rerun
    settle(page)
    page.wait_for_timeout(500)
    settle(page)
    assert charts.count() == every - 3  # the three-player chart and the calibration chart
    page.close()
