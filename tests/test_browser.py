"""The advisor in a real browser: Debian's Chromium driven by Playwright.

Starts ``streamlit run advisor_app.py`` on 127.0.0.1 at a free port, enters
a position by clicking as a person would, and checks that the numbers on
the page are the command line's answer for the same position: `bank`'s
(points that reach your loot) in the headline, `turn`'s in its panel, and
`bank`'s theft risk in its table. Saves screenshots to
``tests/artifacts/``: ``advisor.png`` (desktop), ``advisor-phone.png`` (the
first screen of a 390×844 phone) and ``advisor-phone-full.png`` (the whole
page at phone width).

In CI (``CI`` set) a missing browser fails the test instead of skipping it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "tests" / "artifacts"

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def app_url():
    port = free_port()
    streamlit = shutil.which("streamlit", path=str(Path(sys.executable).parent)) or "streamlit"
    proc = subprocess.Popen(
        [streamlit, "run", "advisor_app.py", "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read() if proc.stdout else ""
                pytest.fail(f"streamlit did not come up on {url}:\n{out}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def settle(page) -> None:
    """Wait until Streamlit has finished the rerun a click started."""
    page.wait_for_timeout(150)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || !document.querySelector('[data-testid=\"stStatusWidget\"]').innerText.includes('Running')",
        timeout=30000)
    page.wait_for_timeout(150)


def tap(page, zone: str, cards: list[int]) -> None:
    """Tap cards into a zone, each time waiting until the link shows the card (the rerun is done)."""
    page.get_by_test_id("stRadio").get_by_text(zone, exact=True).click()
    page.wait_for_timeout(500)
    settle(page)
    param = "discard" if zone == "Discard" else zone.split()[2] + zone.split()[1]  # "Seat 0 line" -> line0
    for k, v in enumerate(cards):
        page.get_by_test_id("stButton").get_by_role("button", name=str(v), exact=True).click()
        want = ",".join(map(str, cards[: k + 1]))
        page.wait_for_function(  # the app writes the link last, so this waits for the whole rerun
            "([key, want]) => new URLSearchParams(window.location.search).get(key) === want",
            arg=[param, want], timeout=30000)
        settle(page)


def cli_answer(position: dict, *options: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "solver", "advise", "-", *options], input=json.dumps(position),
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def table_rows(table) -> list[list[str]]:
    return [[cell.inner_text().strip() for cell in row.locator("td").all()] for row in table.locator("tbody tr").all()]


def test_enter_a_position_by_clicking_and_match_the_command_line(app_url, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1900})
    page.goto(app_url)
    page.get_by_text("Tap cards into").wait_for(timeout=60000)
    settle(page)

    page.get_by_test_id("stButtonGroup").first.get_by_text("3", exact=True).click()  # three players
    settle(page)
    tap(page, "Seat 0 line", [6, 1, 5])
    tap(page, "Seat 0 loot", [3, 7, 7])
    tap(page, "Seat 1 line", [5, 5])
    tap(page, "Seat 2 line", [9, 9, 2])
    tap(page, "Discard", [8, 8, 2])
    for _ in range(3):  # a selection made while the page reruns can be dropped: check it took
        page.get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name="5", exact=True).click()
        settle(page)
        page.wait_for_timeout(1500)
        settle(page)
        if "steal" in page.get_by_test_id("stCode").first.inner_text():
            break

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

    # The headline is `bank`'s: points that reach your loot, labelled approximate (three players).
    bank = cli_answer(position, "--model", "bank")  # floats: `bank`'s speed path, as the page uses
    assert bank["approximation"] == "independent opponents"
    assert (want["action"], bank["action"]) == ("stop", "draw")  # the two models disagree here
    headline = page.locator(".st-key-headline")
    expect(headline.get_by_role("heading")).to_have_text("Points that reach your loot")
    expect(headline.get_by_test_id("stCaptionContainer").first).to_contain_text("approximation")
    expect(headline.get_by_test_id("stAlertContentInfo")).to_have_text(
        f"TAKE the steal. Take: {bank['steal']['take']:.2f}; decline: {bank['steal']['decline']:.2f} points that "
        f"reach your loot. Declining costs {bank['steal']['take'] - bank['steal']['decline']:.2f} points.")
    expect(headline.get_by_test_id("stAlertContentSuccess")).to_have_text(
        f"DRAW. Stop: {bank['stop']:.2f}; draw: {bank['draw']:.2f} points that reach your loot. "
        f"Stopping costs {bank['draw'] - bank['stop']:.2f} points.")
    expect(headline.get_by_test_id("stAlertContentWarning")).to_contain_text(
        f"Stopping leaves 22 points face up in reach of two opponents, who take {22 - bank['stop']:.2f} of them "
        f"on average: drawing on keeps more for your loot ({bank['draw']:.2f} against {bank['stop']:.2f}).")
    # `bank`'s own summary line, under "The models", is the command line's floats.
    expect(page.get_by_test_id("stCode").nth(1)).to_have_text(
        f"bust {bank['bust_probability_after_steal']} | stop {bank['stop']} | draw {bank['draw']} | action draw | "
        f"steal take: take {bank['steal']['take']}, decline {bank['steal']['decline']}")

    # The theft risk of the line as it stands (6 1 5): the solver's, per value.
    from solver.bank import theft_risk
    from solver.numbers import FLOAT
    from solver.position import Position

    risks = theft_risk(Position.from_dict(position), FLOAT)
    theft = page.locator(".st-key-theft")
    assert table_rows(theft.get_by_test_id("stTable")) == [
        [str(r.value), str(r.cards), f"{r.chance:.1%}", f"{r.points_lost:.2f}"] for r in risks]
    expect(theft).to_contain_text(f"If you decline the steal and stop: {sum(r.points_lost for r in risks):.2f} "
                                  f"of your 12 points are expected to be stolen.")

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "advisor.png"), full_page=True)
    bust_pct = f"{float(eval(want['bust_probability'])):.1%}"  # "24/79" -> "30.4%"
    assert page.get_by_test_id("stMetricValue").first.inner_text().strip() == bust_pct
    page.wait_for_timeout(1000)  # let Vega draw
    charts = page.get_by_test_id("stVegaLiteChart").all()
    assert len(charts) == 2 and all(c.bounding_box()["height"] > 100 for c in charts)  # both drawn
    # The position is in the URL: reopening the link shows the same advice.
    link = page.url
    again = browser.new_page()
    again.goto(link)
    expect(again.get_by_test_id("stCode").first).to_have_text(expected, timeout=60000)
    expect(again.locator(".st-key-headline").get_by_test_id("stAlertContentSuccess")).to_contain_text(
        f"DRAW. Stop: {bank['stop']:.2f}; draw: {bank['draw']:.2f}")

    # On a phone the headline is on the first screen, and nothing needs scrolling sideways.
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(link)
    phone.get_by_test_id("stCode").first.wait_for(timeout=60000)
    settle(phone)
    success = phone.locator(".st-key-headline").get_by_test_id("stAlertContentSuccess")
    expect(success).to_contain_text("DRAW. Stop:")
    phone.wait_for_timeout(1000)
    box = success.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, box
    widths = phone.evaluate("() => [document.documentElement.scrollWidth,"
                            " document.querySelector('[data-testid=stMain]').scrollWidth]")
    assert max(widths) <= 390, widths
    phone.screenshot(path=str(ARTIFACTS / "advisor-phone.png"))
    # The whole page at phone width (Streamlit scrolls inside the page, so grow the window to fit it).
    height = phone.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    phone.set_viewport_size({"width": 390, "height": height})
    phone.wait_for_timeout(1500)
    phone.screenshot(path=str(ARTIFACTS / "advisor-phone-full.png"), full_page=True)
    page.close()
    again.close()
    phone.close()
