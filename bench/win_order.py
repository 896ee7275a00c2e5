"""Does the `win` estimate ever reward a lost turn? ``python -m bench.win_order``.

A lost turn can only cost its seat: it counts in R12's second tie-break
(equal points and equal loot cards, fewer lost turns wins), in nothing
else, so in games of `turn` players (who never look at lost turns) one more lost
turn for a seat lowers its chance to win or leaves it where it was, and
by little: only finishes tied in points and loot cards move. The
evaluator learned the chance from such games and was never told this, so
this
measures how far it keeps to it: at the turn starts of held-out games
(seeds no training game used, `turn` players, the same positions as the
calibration of ``python -m bench.win_error``) each seat in turn is given
one more lost turn, the pile and everything else left as they were, and
its estimated chance before and after is compared.

It prints, per table size, the seats so changed, how often their
estimated chance rose (which the chance in those games never does), the
mean change and its mean size, and the largest rise and fall, in
percentage points. The positions
are fixed by ``--seed``; the figures move with the shipped weights.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import numpy as np

SEED = 7_000_000  # bench.win_error's calibration games, never trained on


@dataclass(frozen=True)
class LostTurnEffect:
    """One table size: the (position, seat) pairs changed and what one more lost turn did to the estimate,
    in chances (0.005 is half a percentage point)."""

    players: int
    positions: int
    seats: int
    rose: int
    mean: float
    mean_size: float
    largest_rise: float
    largest_fall: float


def turn_starts(players: int, games: int, seed: int = SEED) -> Any:
    """The turn starts of ``games`` held-out `turn` games, as training reads them (a table, a row each)."""
    import pandas as pd

    from solver.study.train import game_rows

    return pd.DataFrame(game_rows(players, seed, games, seed, "turn", None))


def changes(table: Any, players: int) -> np.ndarray:
    """``[B, n]``: what one more lost turn for seat ``s`` (alone) does to seat ``s``'s estimated chance, at each
    turn start of ``table`` (:func:`turn_starts`)."""
    from solver.models.evaluator import evaluator
    from solver.study.train import tables

    ev = evaluator()
    pile, lines, points, cards, lost, to_play, rounds_left = tables(table, players)
    before = ev.by_seat(pile, lines, points, cards, lost, to_play, rounds_left)
    change = np.empty_like(before)
    for s in range(players):
        more = lost.copy()
        more[:, s] += 1
        change[:, s] = ev.by_seat(pile, lines, points, cards, more, to_play, rounds_left)[:, s] - before[:, s]
    return change


def lost_turn_effect(players: int, games: int, seed: int = SEED) -> LostTurnEffect:
    """What one more lost turn for each seat in turn does to that seat's estimated chance, over the turn starts
    of ``games`` held-out `turn` games."""
    table = turn_starts(players, games, seed)
    d = changes(table, players).ravel()
    return LostTurnEffect(players, len(table), d.size, int((d > 0).sum()), float(d.mean()),
                          float(np.abs(d).mean()), float(d.max()), float(d.min()))


def decided_by_lost_turns(players: int, games: int, seed: int = SEED) -> int:
    """The true effect's size, for scale: of ``games`` games of `turn` players (the deals of ``seed``), how
    many its winner would have lost with one more lost turn (R12). Divided by the seats, that is the mean
    chance one more lost turn takes from a seat at a deal's start in such games."""
    from solver.play.tournament import Pairing, play_deal

    lost = 0
    for g in range(games):
        game, _ = play_deal(Pairing("turn", "turn", players), seed, g, 0)
        winner = game.winner()
        game.players[winner].lost_turns += 1
        lost += game.ranking()[0] != winner
    return lost


def table(rows: list[LostTurnEffect]) -> list[str]:
    """The Markdown table docs/MODELS.md quotes."""
    out = ["| players | turn starts | seats given a lost turn | the estimate rose | mean change | mean size "
           "| largest rise | largest fall |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        out.append(f"| {r.players} | {r.positions:,} | {r.seats:,} | {r.rose / r.seats:.1%} | "
                   f"{100 * r.mean:+.2f} | {100 * r.mean_size:.2f} | {100 * r.largest_rise:+.2f} | "
                   f"{100 * r.largest_fall:+.2f} |"
                   .replace("-", "−"))
    return out


def _listed(items: list[int]) -> str:
    """``[0, 2, 0]`` as "0, 2 and 0"."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.win_order",
                                 description="Does the `win` estimate ever reward a lost turn?")
    ap.add_argument("--games", type=int, default=100, help="held-out games per table size (default 100)")
    ap.add_argument("--deals", type=int, default=1000, help="`turn` games per table size for the true effect's "
                    "size (default 1000)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5], choices=range(2, 6))
    args = ap.parse_args(argv)
    if args.games < 1 or args.deals < 1:
        ap.error(f"--games {args.games}, --deals {args.deals}: at least one game each")
    print("\n".join(table([lost_turn_effect(n, args.games, args.seed) for n in args.players])))
    lost = [decided_by_lost_turns(n, args.deals, args.seed) for n in args.players]
    print(f"\nOne more lost turn would have cost the winner the game in {_listed(lost)} of {args.deals:,} "
          f"`turn` games with {_listed(args.players)} players.")
    print("\n(changes in percentage points of the seat's chance to win, which in `turn` players' games a lost "
          "turn never raises)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
