"""How fast the Live game page settles a tap, with one page or many at once, in Chromium.

A tap has settled when the page shows what it recorded (the count of saved record lines under the table
has moved on, and the steal buttons are there exactly when a steal is on offer) and nothing on the page is
left over from before it (no element Streamlit marks stale). The advice may still be being worked out
then; the time until it is in is measured too. Both are measured in the page itself, from the click.

    .venv/bin/python -m bench.pace --pages 10 --cards 20
    .venv/bin/python -m bench.pace --advisor --pages 1 --cards 24

opens ``--pages`` browser tabs, each following its own four-player game on one server, all tapping at
once (each tab its next card as soon as its last one settled, after a pause of ``--think`` seconds, as at a
table), and prints the median and worst of each, as docs/PERFORMANCE.md quotes them; ``--advisor`` taps
cards into a fresh four-player table in the Advisor instead. ``tests/test_pace.py``
follows one game for 24 cards with the same measure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The wait after a click, in the page: ``settled()`` and ``advised()`` are polled every frame from the click;
#: the milliseconds until each holds (``advice`` null: not within 15 s of settling).
_WAIT = """
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

#: The Live game's measure: clicks the button labelled ``label`` ("Take" for any Take button); the tap has
#: settled once the count of saved record lines has moved on from ``before`` and the steal buttons are there
#: exactly when a steal is on offer after it (``steal``), nothing stale on the page.
TAP = """async ([label, before, steal]) => {
  const main = () => document.querySelector('[data-testid=stMain]');
  const saved = () => { const m = main().innerText.match(/Saved after every tap: (\\d+) record lines/);
                        return m ? Number(m[1]) : null; };
  const buttons = () => [...document.querySelectorAll('[data-testid=stButton] button')];
  const button = buttons().find(b => b.innerText.trim() === label || (label === 'Take' && /^Take the /.test(b.innerText)));
  if (!button) return {error: 'no button ' + label};
  const takes = () => buttons().some(b => /^Take the /.test(b.innerText));
  const settled = () => { const n = saved();
    return n !== null && n !== before && !main().querySelector('[data-stale=true]') && takes() === steal; };""" + _WAIT

#: The Advisor's measure: a card tapped into the line of the seat to play has settled once the line above the
#: advice shows it (``line``: the line's cards as the recap writes them) and nothing is left over from before.
ADVISOR_TAP = """async ([label, line]) => {
  const main = () => document.querySelector('[data-testid=stMain]');
  const button = [...document.querySelectorAll('[data-testid=stButton] button')].find(b => b.innerText.trim() === label);
  if (!button) return {error: 'no button ' + label};
  const settled = () => main().innerText.includes('line ' + line + ' (') && !main().querySelector('[data-stale=true]');""" \
    + _WAIT

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
ROOT = Path(__file__).resolve().parent.parent


def next_tap(game: Any, rng: random.Random, deck: list[int], steals: int) -> str:
    """The tap a table makes next: a steal on offer is taken every second time, a line of three or more is
    stopped half the time, else the next card of ``deck`` is turned over."""
    from solver.game.rules import Phase

    if game.phase is Phase.STEAL:
        return "Take" if steals % 2 == 0 else "Decline"
    if game.phase is Phase.CHOOSE and len(game.active_player.line) >= 3 and rng.random() < 0.5:
        return "Stop"
    return str(deck.pop())


def applied(game: Any, label: str) -> Any:
    """The rules engine's game once the tap ``label`` is applied to ``game`` (changed in place)."""
    if label.isdigit():
        game.apply("draw", int(label))
    else:
        game.apply({"Take": "steal", "Decline": "decline", "Stop": "stop"}[label])
    return game


def shuffled_deck(seed: int) -> list[int]:
    from solver.game.cards import DECK_COPIES, VALUES

    deck = [v for v, n in zip(VALUES, DECK_COPIES) for _ in range(n)]
    random.Random(seed).shuffle(deck)
    return deck


def summary(taps: list[dict[str, Any]]) -> dict[str, Any]:
    cards = [t["settle ms"] for t in taps if str(t["tap"]).isdigit()]
    every = [t["settle ms"] for t in taps]
    advice = [t["advice ms"] for t in taps if t["advice ms"] is not None]
    return {"taps": len(taps), "cards": len(cards),
            "card settle median ms": round(statistics.median(cards)), "card settle worst ms": round(max(cards)),
            "tap settle median ms": round(statistics.median(every)), "tap settle worst ms": round(max(every)),
            "advice in": len(advice),
            "advice median ms": round(statistics.median(advice)) if advice else None,
            "advice worst ms": round(max(advice)) if advice else None}


async def _follow(browser: Any, url: str, store: Any, seat: int, cards: int, think: float,
                  out: list[dict[str, Any]]) -> None:
    from solver.play.live import LiveGame

    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(f"{url}/live")
    await page.get_by_test_id("stButtonGroup").first.get_by_text("4", exact=True).click(timeout=120000)
    await page.wait_for_timeout(1500)
    await page.get_by_role("button", name="Start recording").click()
    await page.wait_for_function("() => /Saved after every tap/.test(document.body.innerText)", timeout=120000)
    gid = int(await page.evaluate("() => new URLSearchParams(location.search).get('game')"))
    rng, deck, steals, turned = random.Random(seat), shuffled_deck(seat), 0, 0
    while turned < cards:
        live = LiveGame(store, gid)
        label = next_tap(live.game, rng, deck, steals)
        steals += label in ("Take", "Decline")
        turned += label.isdigit()
        offered = applied(LiveGame(store, gid).game, label).phase.value == "steal"
        got = await page.evaluate(TAP, [label, len(live.rows), offered])
        if "error" in got or got["settle"] is None:
            shot = Path(tempfile.gettempdir()) / f"hit-pace-page{seat}.png"
            await page.screenshot(path=str(shot), full_page=True)
            text = await page.evaluate("() => document.querySelector('[data-testid=stMain]').innerText")
            raise RuntimeError(f"page {seat}: tap {label} did not settle: {got}; record lines "
                               f"{len(live.rows)} before, {len(LiveGame(store, gid).rows)} now; the page "
                               f"({shot}):\n{text}")
        out.append({"page": seat, "tap": label, "settle ms": got["settle"], "advice ms": got["advice"]})
        await page.wait_for_timeout(think * 1000)
        for _ in range(100):  # the page's own rerun for the advice, if one is under way
            if await page.evaluate("() => document.querySelector('[data-testid=stApp]')"
                                   ".getAttribute('data-test-script-state') === 'notRunning'"):
                break
            await page.wait_for_timeout(50)


async def _advisor(browser: Any, url: str, seat: int, cards: int, think: float, out: list[dict[str, Any]]) -> None:
    """A fresh four-player table in the Advisor, cards tapped into the line of the seat to play: a line of three
    or four cards of different values (no bust, no steal: the other lines are empty), then Clear, again."""
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(f"{url}/?players=4")
    await page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stButton] button')]"
                                 ".some(b => b.innerText.trim() === '10')", timeout=120000)
    await page.wait_for_timeout(2000)
    rng, turned = random.Random(seat), 0
    line: list[int] = []
    while turned < cards:
        if len(line) == 4:
            await page.get_by_role("button", name="Clear", exact=True).click()
            await page.wait_for_function("() => /no cards down yet/.test(document.body.innerText)", timeout=60000)
            line = []
            await page.wait_for_timeout(think * 1000)
        value = rng.choice([v for v in range(1, 11) if v not in line])
        line.append(value)
        got = await page.evaluate(ADVISOR_TAP, [str(value), " ".join(map(str, line))])
        if "error" in got or got["settle"] is None:
            raise RuntimeError(f"page {seat}: tap {value} did not settle: {got}")
        out.append({"page": seat, "tap": str(value), "settle ms": got["settle"], "advice ms": got["advice"]})
        turned += 1
        await page.wait_for_timeout(think * 1000)


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """``streamlit run advisor_app.py`` on a free port, its games in ``folder``; yields its URL (its log is
    kept as hit-pace-server.log in the system's temporary directory)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    streamlit = shutil.which("streamlit", path=str(Path(sys.executable).parent)) or "streamlit"
    env = {k: v for k, v in os.environ.items() if k not in ("HIT_FILL_IN", "HIT_SOLVE_IN")} | {"HIT_DATA_DIR": str(folder)}
    server = subprocess.Popen([streamlit, "run", "advisor_app.py", "--server.port", str(port),
                               "--server.address", "127.0.0.1", "--server.headless", "true",
                               "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
                              cwd=ROOT, env=env, stdout=open(folder / "server.log", "w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.3)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.copy(folder / "server.log", Path(tempfile.gettempdir()) / "hit-pace-server.log")


async def measure(pages: int, cards: int, think: float, advisor: bool = False,
                  browser_nice: int = 0) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    from solver.play.store import GameStore

    folder = Path(tempfile.mkdtemp(prefix="hit-pace-"))
    try:
        with serve(folder) as url:
            store = GameStore(folder / "games.sqlite")
            taps: list[dict[str, Any]] = []
            if browser_nice:  # the tabs stand in for phones elsewhere: the server's work comes first
                os.nice(browser_nice)
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                if advisor:
                    await asyncio.gather(*(_advisor(browser, url, k, cards, think, taps) for k in range(pages)))
                else:
                    await asyncio.gather(*(_follow(browser, url, store, k, cards, think, taps)
                                           for k in range(pages)))
                await browser.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"page": "Advisor" if advisor else "Live game", "pages": pages, "cards a page": cards,
            "think s": think} | summary(taps)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.pace", description=__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=10, help="browser tabs following a game each (default 10)")
    p.add_argument("--cards", type=int, default=20, help="cards each tab turns over (default 20)")
    p.add_argument("--think", type=float, default=1.0, help="seconds between a tab's taps (default 1)")
    p.add_argument("--advisor", action="store_true",
                   help="tap cards into a fresh four-player table in the Advisor instead of following a Live game")
    p.add_argument("--browser-nice", type=int, default=0, metavar="N",
                   help="run the browser N steps below the server's priority, as if the tabs were phones "
                        "elsewhere (default 0: the same priority)")
    args = p.parse_args(argv)
    print(json.dumps(asyncio.run(measure(args.pages, args.cards, args.think, args.advisor, args.browser_nice)),
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
