"""What the Live game and Practice page tests share: a short table to join, AppTest and browser helpers.

Every test that opens a page points ``HIT_DATA_DIR`` at a temporary folder
(never the user's real data folder).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import ARTIFACTS, CHROMIUM  # noqa: F401 - the page tests import them from here
from conftest import settle as settle_within
from streamlit.testing.v1 import AppTest

from solver.game.cards import DECK_COPIES, VALUES

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "advisor_app.py")
LIVE = str(ROOT / "views" / "live.py")
PRACTICE = str(ROOT / "views" / "practice.py")

#: The pile of :func:`short_table`: 14 cards.
SHORT_PILE = {1: 1, 2: 2, 3: 1, 4: 2, 5: 1, 6: 1, 7: 1, 8: 2, 9: 1, 10: 2}


def short_table() -> dict[str, Any]:
    """A two-player game well under way (the command line's position): 14 cards left in the pile, seat 1
    (0 in the file) about to start a turn, seat 2 showing 6 9 face up, most cards in the loots."""
    line1, discard = [6, 9], [3, 3, 7]
    rest: list[int] = []
    for v, copies in zip(VALUES, DECK_COPIES):
        rest += [v] * (copies - SHORT_PILE.get(v, 0) - line1.count(v) - discard.count(v))
    return {"players": [{"line": [], "loot": rest[0::2], "lost_turns": 2},
                        {"line": line1, "loot": rest[1::2], "lost_turns": 1}],
            "active": 0, "discard": discard}


#: The pile of :func:`short_table` in the order it is turned over, and a game on it tap by tap (a card's value,
#: or a button): a declined steal, steals taken, stops, a bust (R5) and the last card (R9).
SHORT_ORDER = [6, 2, 9, 4, 8, 10, 1, 5, 8, 10, 2, 3, 4, 7]
SHORT_SCRIPT = ["6", "Decline", "2", "9", "Take", "Stop",  # seat 1 declines the 6s, takes the 9
                "4", "8", "Stop",  # seat 2
                "10", "1", "5", "8", "Take", "10",  # seat 1 takes the 8, then a second 10 busts it
                "2", "3", "Stop",  # seat 2
                "4", "7"]  # seat 1 turns over the last card: the game ends


def button(at: AppTest, key: str) -> Any:
    """The button of key ``key`` (the error lists the keys there are)."""
    found = [b for b in at.button if b.key == key]
    if len(found) != 1:
        raise KeyError(f"{len(found)} buttons of key {key!r}: {[b.key for b in at.button]}")
    return found[0]


def keys(at: AppTest) -> list[str]:
    """Every button's key."""
    return [b.key for b in at.button]


def params(at: AppTest) -> dict[str, str]:
    """The page's link parameters."""
    out = {}
    for k in at.query_params:
        v = at.query_params[k]
        out[k] = v[0] if isinstance(v, list) else v
    return out


def texts(at: AppTest) -> str:
    """Every text element on the page, for searching."""
    return "\n".join(str(e.value) for kind in (at.markdown, at.caption, at.info, at.success, at.warning, at.error)
                     for e in kind)


def unescape(text: str) -> str:
    """Markdown source as it reads on screen (the pages escape every markdown character of a typed name)."""
    return re.sub(r"\\(.)", r"\1", text.replace("\u200b", ""))


def cli(position: dict[str, Any], *options: str) -> dict[str, Any]:
    """``python -m solver advise`` on ``position``: its JSON answer."""
    done = subprocess.run([sys.executable, "-m", "solver", "advise", "-", *options], input=json.dumps(position),
                          capture_output=True, text=True, cwd=ROOT, check=True)
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def apart(a: float, b: float) -> str:
    """What a box says the worse of two chances to win costs: the difference of the two as it shows them (to a
    tenth of a percent), in percentage points."""
    return f"{abs(float(f'{100 * float(a):.1f}') - float(f'{100 * float(b):.1f}')):.1f}"


def settle(page: Any) -> None:
    """Wait until Streamlit has finished the rerun a click started (these pages may take a minute)."""
    settle_within(page, 60000)


SAVED = re.compile(r"Saved after every tap: (\d+) record lines")


def saved_lines(page: Any) -> int | None:
    """The number of record lines the page says it has saved (None where it does not say)."""
    m = SAVED.search(page.locator("[data-testid=stMain]").inner_text())
    return int(m[1]) if m else None


def in_view(locator: Any, height: int) -> bool:
    """The element is wholly on the screen as it stands (no scrolling)."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def mirror() -> Any:
    """The rules engine's own copy of the :func:`short_table` game, to follow the page step by step."""
    from solver.game.rules import Game, Player

    t = short_table()
    seats = [Player(list(p["line"]), list(p["loot"]), p["lost_turns"]) for p in t["players"]]
    return Game.resume(seats, t["active"], list(reversed(SHORT_ORDER)), t["discard"])


def step(game: Any, tap: str) -> None:
    """Apply one tap of :data:`SHORT_SCRIPT` to the engine's copy."""
    if tap.isdigit():
        game.apply("draw", int(tap))
    else:
        game.apply({"Decline": "decline", "Take": "steal", "Stop": "stop"}[tap])


def last_card_table() -> dict[str, Any]:
    """Two players, one card (a 5) left in the pile; seat 1 holds a 3 and seat 2 shows a 5: the last card,
    turned over, offers a steal (R9)."""
    held = {3: 1, 5: 2}
    rest: list[int] = []
    for v, copies in zip(VALUES, DECK_COPIES):
        rest += [v] * (copies - held.get(v, 0))
    return {"players": [{"line": [3], "loot": rest[0::2]}, {"line": [5], "loot": rest[1::2]}], "active": 0}
