"""Tournaments between bots over simulated games, with 95% intervals.

One seat plays the *tested* bot, the others the *baseline*. Games come in
sets of one per seat: game ``g`` is dealt from ``(seed, g // players)`` and
seats the tested bot at ``g % players``, so within a set every seat plays
the same first hands (duplicate format; play soon differs, and with it the
cards drawn). A game is won by the lowest total once somebody reaches 100
(H12); a tie for the lowest shares the win (each of ``k`` tied players gets
``1/k``).

The win rate's interval is Wilson's 95% score interval (fractional wins
count as they are). Points per hand are averaged over all hands of all
games; their interval is the normal approximation (mean ± 1.96 standard
errors over the hands), and so is the interval of the *margin* per hand
(the tested seat's points minus the baseline seats' mean in the same hand,
negative when the tested bot does better).

>>> r = tournament(6, seed=1, players=3)
>>> r.games, r.tested, r.baseline, 0 <= r.win_low <= r.win_rate <= r.win_high <= 1
(6, 'advisor', 'highest', True)
>>> [round(x, 4) for x in wilson(64, 100)]
[0.5424, 0.7273]
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from .bots import BOTS, make, play_game
from .rules import TARGET

__all__ = ["Z95", "TournamentResult", "normal_interval", "tournament", "wilson"]

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation interval (mean ± z standard errors)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, -math.inf, math.inf)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


@dataclass(frozen=True)
class TournamentResult:
    """What a tournament measured; :meth:`summary` says it in a few lines."""

    tested: str
    baseline: str
    players: int
    games: int
    seed: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    hands: int
    tested_points: float
    tested_points_low: float
    tested_points_high: float
    baseline_points: float
    margin: float
    margin_low: float
    margin_high: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        fair = 1 / self.players
        return (f"{self.tested} against {self.players - 1} x {self.baseline}, {self.games} games "
                f"({self.hands} hands), seed {self.seed}:\n"
                f"  win rate {self.win_rate:.1%} (95% Wilson interval {self.win_low:.1%} to {self.win_high:.1%}; "
                f"an equal player wins {fair:.1%})\n"
                f"  points per hand {self.tested_points:.2f} (95% normal interval {self.tested_points_low:.2f} to "
                f"{self.tested_points_high:.2f}) against {self.baseline_points:.2f} per {self.baseline} seat\n"
                f"  margin per hand {self.margin:+.2f} (95% normal interval {self.margin_low:+.2f} to "
                f"{self.margin_high:+.2f}; negative: {self.tested} scores fewer points)")


def tournament(games: int, seed: int = 2026, *, tested: str = "advisor", baseline: str = "highest",
               players: int = 3, target: int = TARGET,
               progress: Callable[[int, int], None] | None = None) -> TournamentResult:
    """Play ``games`` games of one ``tested`` bot against ``players - 1`` ``baseline`` bots.

    ``progress(done, games)`` is called after each game (for a page's progress bar).
    """
    for name in (tested, baseline):
        if name not in BOTS:
            raise ValueError(f"no bot called {name[:30]!r}; the bots are {', '.join(BOTS)}")
    if not 2 <= players <= 6:
        raise ValueError(f"Hit the Deck is for 2 to 6 players, not {players}")
    if games < 1:
        raise ValueError(f"games: {games} is not a number of games (1 or more)")
    wins = 0.0
    tested_points: list[float] = []
    baseline_points: list[float] = []
    margins: list[float] = []
    for g in range(games):
        deal, seat = divmod(g, players)
        bots = [make(tested if s == seat else baseline, seed=f"{seed}/{g}/{s}") for s in range(players)]
        game = play_game(bots, seed=f"{seed}/{deal}", target=target)
        winners = game.winners()
        if seat in winners:
            wins += 1 / len(winners)
        for r in game.rounds:
            mine = r.points[seat]
            theirs = [p for s, p in enumerate(r.points) if s != seat]
            tested_points.append(mine)
            baseline_points.extend(theirs)
            margins.append(mine - statistics.fmean(theirs))
        if progress is not None:
            progress(g + 1, games)
    low, high = wilson(wins, games)
    tp = normal_interval(tested_points)
    m = normal_interval(margins)
    return TournamentResult(tested, baseline, players, games, seed, wins, wins / games, low, high,
                            len(tested_points), tp[0], tp[1], tp[2], statistics.fmean(baseline_points),
                            m[0], m[1], m[2])
