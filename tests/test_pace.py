"""At a real table's pace: a four-player game followed on the Live game page for 24 cards in Chromium, each
tap's time to settle measured in the page itself.

A tap has settled when the page shows what it recorded (the count of saved record lines under the table
has moved on, the steal buttons are there exactly when a steal is on offer) and nothing on the page is
left over from before it (no element Streamlit marks stale). The advice may still be working then; the
time until it is in is measured too. The test checks that every tap counted once, and that the page's
game is the rules engine's replay of the same taps; the times go to ``tests/artifacts/pace.json`` and,
by hand, to docs/PERFORMANCE.md (no test asserts a speed). Run it alone with::

    .venv/bin/python -m pytest tests/test_pace.py -m browser -s

The measure and the table's taps are :mod:`bench.pace`'s (which also times ten tabs at once): the cards a
deck shuffled with a fixed seed, the seat to play stopping once its line holds three cards or more (at
random, seeded), and every second steal on offer taken.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import chromium, serve_advisor
from game_pages import ARTIFACTS, CHROMIUM, settle

from bench.pace import TAP, applied, next_tap, shuffled_deck, summary
from solver.play.live import LiveGame
from solver.play.store import GameStore

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")]

def test_a_four_player_game_followed_for_24_cards(tmp_path):
    rng, deck = random.Random(24), shuffled_deck(24)
    store = GameStore(tmp_path / "games.sqlite")
    timings: list[dict[str, object]] = []
    with serve_advisor({"HIT_DATA_DIR": str(tmp_path)}) as url, chromium("pace") as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}/live")
        settle(page)
        page.get_by_test_id("stButtonGroup").first.get_by_text("4", exact=True).click()  # four players
        settle(page)
        page.get_by_role("button", name="Start recording").click()
        page.wait_for_function("() => /Saved after every tap/.test(document.body.innerText)", timeout=60000)
        settle(page)
        gid = store.games()[0].id
        cards = steals = 0
        while cards < 24:
            live = LiveGame(store, gid)
            before = len(live.rows)
            label = next_tap(live.game, rng, deck, steals)
            steals += label in ("Take", "Decline")
            cards += label.isdigit()
            mirror = applied(LiveGame(store, gid).game, label)  # the rules engine's game after the tap
            got = page.evaluate(TAP, [label, before, mirror.phase.value == "steal"])
            assert "error" not in got, got
            assert got["settle"] is not None, (label, before)
            timings.append({"tap": label, "lines before": before, "settle ms": got["settle"],
                            "advice ms": got["advice"]})
            settle(page)
            now = LiveGame(store, gid)
            assert now.rows[:before] == live.rows and len(now.rows) > before  # this tap, once, on this game
            assert now.game.players == mirror.players and now.game.active == mirror.active
        page.screenshot(path=str(ARTIFACTS / "pace.png"), full_page=True)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "pace.json").write_text(json.dumps({"summary": summary(timings), "taps": timings}, indent=1))
    print("\n" + json.dumps(summary(timings), indent=1))
