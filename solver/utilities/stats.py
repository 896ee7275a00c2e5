"""Statistics both games' tournaments use (and nothing of either game): the win rate's interval.

>>> [round(x, 4) for x in wilson(64, 100)]
[0.5424, 0.7273]
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson"]

#: The standard normal's two-sided 95% point.
Z95 = 1.959963984540054


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); no games, no knowledge: (0, 1)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))
