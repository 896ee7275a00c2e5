"""At a real table's pace: a four-player game followed on the Live game page for 40 cards in Chromium, each
tap's time to settle measured in the page itself.

A tap has settled when the page shows what it recorded (the count of saved record lines under the table
has moved on, the steal buttons are there exactly when a steal is on offer) and nothing on the page is
left over from before it (no element Streamlit marks stale). The advice may still be working then; the
time until it is in is measured too. The test checks that every tap counted once, and that the page's
game is the rules engine's replay of the same taps; the times go to ``tests/artifacts/pace.json`` and,
by hand, to docs/PERFORMANCE.md (no test asserts a speed). Run it alone with::

    .venv/bin/python -m pytest tests/test_pace.py -m browser -s

The cards are a deck shuffled with a fixed seed; the seat to play stops once its line holds three cards
or more (at random, seeded), and takes every second steal on offer.
"""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

import pytest
from conftest import chromium, serve_advisor
from game_pages import ARTIFACTS, CHROMIUM, settle

from solver.cards import DECK_COPIES, VALUES
from solver.live import LiveGame
from solver.rules import Phase
from solver.store import GameStore

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")]

#: Clicks a button and waits, in the page, until the tap has settled; returns the milliseconds it took and
#: the milliseconds until the advice was in (null if it was not in by the time the tap settled and the
#: wait for it ran out).
_TAP = """async ([label, before, steal]) => {
  const main = () => document.querySelector('[data-testid=stMain]');
  const saved = () => { const m = main().innerText.match(/Saved after every tap: (\\d+) record lines/);
                        return m ? Number(m[1]) : null; };
  const button = [...document.querySelectorAll('[data-testid=stButton] button')]
                   .find(b => b.innerText.trim() === label || (label === 'Take' && /^Take the /.test(b.innerText)));
  if (!button) return {error: 'no button ' + label};
  const takes = () => [...document.querySelectorAll('[data-testid=stButton] button')]
                        .some(b => /^Take the /.test(b.innerText));
  const settled = () => { const n = saved();
    return n !== null && n !== before && !main().querySelector('[data-stale=true]') && takes() === steal; };
  const advised = () => { const box = document.querySelector('.st-key-verdict');
    return box && box.querySelector('[data-testid=stAlertContentSuccess]') && !box.querySelector('[data-stale=true]'); };
  const t0 = performance.now();
  button.click();
  let settle = null, advice = null;
  while (performance.now() - t0 < 60000) {
    await new Promise(r => requestAnimationFrame(r));
    if (settle === null && settled()) settle = performance.now() - t0;
    if (settle !== null && advised()) { advice = performance.now() - t0; break; }
    if (settle !== null && performance.now() - t0 > settle + 15000) break;
  }
  return {settle, advice};
}"""


def test_a_four_player_game_followed_for_40_cards(tmp_path):
    rng = random.Random(24)
    deck = [v for v, n in zip(VALUES, DECK_COPIES) for _ in range(n)]
    rng.shuffle(deck)
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
        while cards < 40:
            live = LiveGame(store, gid)
            game = live.game
            before = len(live.rows)
            if game.phase is Phase.STEAL:
                label = "Take" if steals % 2 == 0 else "Decline"
                steals += 1
            elif game.phase is Phase.CHOOSE and len(game.active_player.line) >= 3 and rng.random() < 0.5:
                label = "Stop"
            else:
                label = str(deck.pop())
                cards += 1
            # After the tap, a steal is on offer exactly when the engine says so (the page's Take is there).
            after = LiveGame(store, gid)
            mirror = after.game
            if label.isdigit():
                mirror.apply("draw", int(label))
            else:
                mirror.apply({"Take": "steal", "Decline": "decline", "Stop": "stop"}[label])
            offered = mirror.phase is Phase.STEAL
            got = page.evaluate(_TAP, [label, before, offered])
            assert "error" not in got, got
            assert got["settle"] is not None, (label, before)
            timings.append({"tap": label, "lines before": before, "settle ms": got["settle"],
                            "advice ms": got["advice"]})
            settle(page)
            now = LiveGame(store, gid)
            assert now.rows[:before] == live.rows and len(now.rows) > before  # this tap, once, on this game
            assert now.game.players == mirror.players and now.game.active == mirror.active
        page.screenshot(path=str(ARTIFACTS / "pace.png"), full_page=True)
    settles = [float(t["settle ms"]) for t in timings]  # type: ignore[arg-type]
    card_settles = [float(t["settle ms"]) for t in timings if str(t["tap"]).isdigit()]  # type: ignore[arg-type]
    advice = [float(t["advice ms"]) for t in timings if t["advice ms"] is not None]  # type: ignore[arg-type]
    summary = {"taps": len(timings), "cards": len(card_settles),
               "card settle median ms": statistics.median(card_settles), "card settle worst ms": max(card_settles),
               "tap settle median ms": statistics.median(settles), "tap settle worst ms": max(settles),
               "advice median ms": statistics.median(advice) if advice else None,
               "advice worst ms": max(advice) if advice else None, "advice in": len(advice)}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "pace.json").write_text(json.dumps({"summary": summary, "taps": timings}, indent=1))
    print("\n" + json.dumps(summary, indent=1))
