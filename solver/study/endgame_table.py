"""The endgame table: two-player decision points with 10 cards or fewer left, `duel` and `win` values.

``python -m solver tables endgames`` writes ``endgames.csv``, ``endgames.parquet``
and ``README.md`` (the schema, how the sample was drawn, SHA-256 checksums) into
``data/endgames/``. The positions are decision points met in simulated
two-player games (threshold players with random thresholds, as the positions
table samples), kept once the pile is down to :data:`MAX_PILE` cards. Values
come from the compiled kernels (:mod:`solver.models.endgame`), floats; the tests
recompute rows with the exact paths.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from solver.models.advice import Advice, beats, choice_word
from solver.game.cards import VALUES
from solver.utilities.chunks import Output, atomic
from solver.models import advise
from solver.game.position import Position
from solver.play.simulate import sample_positions
from solver.study.tables import sha256, write_table

__all__ = ["MAX_PILE", "OUTPUT", "SCHEMA", "build_endgames", "endgame_row"]

#: Piles in the table: this many cards or fewer.
MAX_PILE = 10

#: What ``tables endgames`` writes into its folder (``--out``): the table and its README.
OUTPUT = Output("--out", frozenset({"endgames.csv", "endgames.parquet"}), "# Endgame table")

SCHEMA = [
    ("position_id", "seed-index"),
    ("pile_size, pile_1 … pile_10", "cards left, in all and per value"),
    ("active", "the seat to play (0 or 1; seat 0 wins a complete tie, R12)"),
    ("line, other_line", "the face-up cards of the seat to play and of the other seat"),
    ("offer", "value whose steal is on offer now, 0 if none"),
    ("loot, other_loot", "loot points of the seat to play and of the other (R11)"),
    ("loot_cards, other_loot_cards", "loot cards of each (R12's first tie-break)"),
    ("lost_turns, other_lost_turns", "lost turns of each (R12's second tie-break)"),
    ("position", "the whole position as the command line's JSON"),
    ("duel_stop, duel_draw", "`duel`: expected final score difference (the seat to play minus the other) of "
                             "everything still to be banked; stop empty when the player must draw"),
    ("duel_action", "`draw` or `stop` (stop on a tie)"),
    ("duel_steal_take, duel_steal_decline, duel_steal_action", "with a steal on offer, else empty"),
    ("win_stop, win_draw", "`win`: the chance that the seat to play wins the game"),
    ("win_action", "`draw` or `stop` (stop on a tie)"),
    ("win_steal_take, win_steal_decline, win_steal_action", "with a steal on offer, else empty"),
    ("win_chance", "the chance to win with the best choices"),
    ("differ", "true where playing for points (`duel`) gives away some chance to win: the two choose "
               "differently and `win`'s choice wins more often (false in a decided game)"),
]


def _model_cells(prefix: str, a: Advice) -> dict[str, Any]:
    steal = a.steal
    return {f"{prefix}_stop": None if a.stop is None else float(a.stop), f"{prefix}_draw": float(a.draw),
            f"{prefix}_action": choice_word(a.action),
            f"{prefix}_steal_take": None if steal is None else float(steal.take),
            f"{prefix}_steal_decline": None if steal is None else float(steal.decline),
            f"{prefix}_steal_action": None if steal is None else choice_word(steal.action)}


def endgame_row(pos: Position, position_id: str, exact: bool = False) -> dict[str, Any]:
    """One row of the table (``exact``: from the exact paths, as the tests recompute it)."""
    me, other = pos.players[pos.active], pos.players[1 - pos.active]
    duel, win = advise(pos, "duel", exact=exact), advise(pos, "win", exact=exact)
    pile = pos.pile()
    row: dict[str, Any] = {"position_id": position_id, "pile_size": sum(pile)}
    row.update({f"pile_{v}": pile[v - 1] for v in VALUES})
    row.update({"active": pos.active, "line": " ".join(map(str, me.line)),
                "other_line": " ".join(map(str, other.line)), "offer": pos.steal_on_offer() or 0,
                "loot": sum(me.loot), "other_loot": sum(other.loot), "loot_cards": len(me.loot),
                "other_loot_cards": len(other.loot), "lost_turns": me.lost_turns,
                "other_lost_turns": other.lost_turns, "position": pos.to_json()})
    row.update(_model_cells("duel", duel))
    row.update(_model_cells("win", win))
    row["win_chance"] = float(win.draw if win.stop is None else max(win.draw, win.stop))
    row["differ"] = differ(duel, win)
    return row


def differ(duel: Advice, win: Advice) -> bool:
    """Whether playing for points (`duel`) gives away some chance to win: a choice where the two models
    differ and `win`'s is strictly better for winning (a decided game, where every choice wins or every
    choice loses, does not count)."""
    steal = (win.steal is not None and duel.steal is not None and win.steal.action is not duel.steal.action
             and beats(max(win.steal.take, win.steal.decline), min(win.steal.take, win.steal.decline)))
    play = (win.stop is not None and duel.stop is not None and win.action is not duel.action
            and beats(max(win.stop, win.draw), min(win.stop, win.draw)))
    return bool(steal or play)


def endgame_positions(count: int, seed: int) -> list[Position]:
    """``count`` two-player decision points with :data:`MAX_PILE` cards or fewer left, from simulated games."""
    found: list[Position] = []
    batch = 0
    while len(found) < count:  # sample_positions keeps a third of all decision points: take the small piles
        # A batch reaches a game's last cards only past a game's worth of decision points (some 30): at least
        # 100 a batch, or a few positions asked for never come. (From 25 asked for on, the batches are as ever.)
        for pos in sample_positions(max(4 * count, 100), seed=seed + batch, players=(2,)):
            if pos.pile_size() <= MAX_PILE and len(found) < count:
                found.append(pos)
        batch += 1
    return found


def build_endgames(out: Path, count: int = 400, seed: int = 2026, log: Callable[[str], None] = print) -> pd.DataFrame:
    """Build the table into ``out`` (CSV, Parquet, README with schema and checksums).

    ``out`` must be new, empty or an endgame table's folder (:data:`OUTPUT`), else :class:`OutputFolderError`.
    """
    OUTPUT.check(out)
    t0 = time.perf_counter()
    rows = [endgame_row(pos, f"{seed}-{i}") for i, pos in enumerate(endgame_positions(count, seed))]
    df = pd.DataFrame(rows)
    paths = write_table(df, out, "endgames")
    atomic(out / "README.md", lambda p: p.write_text(_readme(df, paths, count, seed)))
    log(f"endgames: {len(df)} rows in {time.perf_counter() - t0:.1f} s")
    return df


def _readme(df: pd.DataFrame, paths: list[Path], count: int, seed: int) -> str:
    differ = int(df["differ"].sum())
    lines = [str(OUTPUT.heading), "",
             f"Two-player decision points with {MAX_PILE} cards or fewer left in the pile, met in simulated games",
             "(players stopping at random thresholds from 8 to 35 points, one decision point in three kept), with",
             "the values of two models (defined in `../../docs/MODELS.md`): `duel`, the expected final score",
             "difference with both playing for points to the last card, and `win`, the chance to win with both",
             "playing to win (R11, then R12's tie-breaks). Floats from the compiled kernels, which the tests",
             "check against the exact paths.", "",
             f"Playing to win and playing for points choose differently in {differ} of the {len(df)} positions.", "",
             "Built with:", "", "```sh", f"python -m solver tables endgames --positions {count} --seed {seed}", "```",
             "", "## Files and checksums (SHA-256)", "", "| file | rows | sha256 |", "| --- | --- | --- |"]
    lines += [f"| `{p.name}` | {len(df)} | `{sha256(p)}` |" for p in paths]
    lines += ["", "## Columns", "", "| column | meaning |", "| --- | --- |"]
    lines += [f"| `{c}` | {m} |" for c, m in SCHEMA]
    return "\n".join(lines) + "\n"

