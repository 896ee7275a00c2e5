"""What a tap faster than the page becomes: Stop, then the next seat's card a moment later, on the Live game.

    .venv/bin/python -m bench.quick_taps --gap 5 --games 3 --taps 8

follows ``--games`` three-seat games in Chromium (one tab, a server each); ``--taps`` times in each, the seat
to play turns over a card no other line shows, then taps Stop and, ``--gap`` ms later, the next seat's
card (one that offers no steal). It prints how each pair was recorded, as docs/PERFORMANCE.md quotes it:

- ``in order``: the stop, then the card for the next seat (what the player meant);
- ``refused, said so``: the stop, and the card refused with a message on the page (tap it again);
- ``refused, "another tab"``: the same, but the message blamed another tab, and there is none;
- ``refused silently``: the stop, and no card and no message;
- ``card to the seat that stopped``: the Stop was lost and the card went to the seat that had stopped;
- ``game no longer replays``: the saved game cannot be read back (the run stops there);
- ``other``: anything else (printed).
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.pace import ARGS, CHROMIUM, serve

_IDLE = "() => document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-script-state') === 'notRunning'"


def settle(page: Any) -> None:
    """Until the page's runs are over, and still a moment later."""
    for _ in range(2):
        page.wait_for_timeout(150)
        page.wait_for_function(_IDLE, timeout=60000)


def button(page: Any, name: str) -> Any:
    """The button on screen (while a table is redrawn, the last table's copy may linger a moment)."""
    return page.get_by_test_id("stButton").get_by_role("button", name=name, exact=True).filter(visible=True).last


def quiet(game: Any, seat: int, also: tuple[int, ...] = ()) -> int | None:
    """A card left in the pile that no other line shows (no steal on offer) and ``seat`` can hold."""
    seen = {v for s, p in enumerate(game.players) if s != seat for v in p.line} | set(also)
    return next((v for v in range(10, 0, -1) if v in game.pile and v not in seen), None)


def start_live(page: Any, url: str, store: Any) -> int:
    """A three-seat Live game recording on ``page``; its id."""
    page.goto(f"{url}/live")
    settle(page)
    page.get_by_test_id("stButtonGroup").first.get_by_text("3", exact=True).click()
    settle(page)
    page.get_by_role("button", name="Start recording").click()
    page.wait_for_function("() => /Saved after every tap/.test(document.body.innerText)", timeout=60000)
    settle(page)
    return int(store.games()[0].id)


def a_card_then_the_next(page: Any, store: Any, gid: int) -> tuple[Any, int, int] | None:
    """The seat to play turns over a card no other line shows; then the saved game as it stands, the next
    seat, and a card that seat can be dealt that offers no steal (None once the pile has no such cards)."""
    from solver.play.live import LiveGame

    game = LiveGame(store, gid).game
    first = quiet(game, game.active, tuple(game.active_player.line))
    if first is None:
        return None
    button(page, str(first)).click()
    settle(page)
    before = LiveGame(store, gid)
    nxt = (before.game.active + 1) % 3
    value = quiet(before.game, nxt, (first,))
    return None if value is None else (before, nxt, value)


def one_game(browser: Any, gap: int, taps: int, out: collections.Counter[str]) -> None:
    from solver.play.live import LiveGame
    from solver.play.store import GameStore

    folder = Path(tempfile.mkdtemp(prefix="hit-quick-"))
    try:
        with serve(folder) as url:
            store = GameStore(folder / "games.sqlite")
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            gid = start_live(page, url, store)
            for _ in range(taps):
                try:
                    pair = a_card_then_the_next(page, store, gid)
                except Exception as e:  # noqa: BLE001 - what a reader of the saved game meets
                    out["game no longer replays"] += 1
                    print(f"game no longer replays: {e}", file=sys.stderr)
                    return
                if pair is None:
                    return
                before, nxt, value = pair
                seat = before.game.active
                box = button(page, str(value)).bounding_box()
                button(page, "Stop").click()
                page.wait_for_timeout(gap)
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                settle(page)
                page.wait_for_timeout(500)
                settle(page)
                try:
                    after = LiveGame(store, gid)
                except Exception as e:  # noqa: BLE001
                    out["game no longer replays"] += 1
                    print(f"game no longer replays: {e}", file=sys.stderr)
                    return
                new = [(e["event"], e.get("seat")) for e in map(json.loads, after.rows[len(before.rows):])
                       if e["event"] in ("draw", "stop")]
                text = page.locator("body").inner_text()  # (the browser's own note is outside the page's main part)
                if new == [("stop", seat), ("draw", nxt)]:
                    out["in order"] += 1
                elif new == [("stop", seat)]:
                    out["refused, \"another tab\"" if "moved on in another tab" in text else
                        "refused, said so" if "not applied" in text or "Not made" in text else
                        "refused silently"] += 1
                elif new[:1] == [("draw", seat)]:
                    out["card to the seat that stopped"] += 1
                else:
                    out["other"] += 1
                    print(f"other: {new}", file=sys.stderr)
                page.wait_for_timeout(400)
            page.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.quick_taps", description=__doc__.split("\n\n")[0])
    p.add_argument("--gap", type=int, default=5, help="milliseconds from Stop to the card (default 5)")
    p.add_argument("--games", type=int, default=3, help="games, a server each (default 3)")
    p.add_argument("--taps", type=int, default=8, help="Stop-then-card pairs a game (default 8)")
    args = p.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out: collections.Counter[str] = collections.Counter()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(args.games):
            one_game(browser, args.gap, args.taps, out)
        browser.close()
    print(json.dumps({"gap ms": args.gap, "pairs": sum(out.values())} | dict(out.most_common()), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
