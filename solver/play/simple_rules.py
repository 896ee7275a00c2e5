"""The simple rules a person can follow at the table: when to stop, and when to take a steal.

A rule sees what a player sees at a decision point (:class:`Features`: the line's value, the cards held and
drawn, the pile, the bust chance) and says whether to draw again; a steal rule sees the steal on offer
(:class:`StealOffer`). :data:`RULE_FAMILIES` are the families the study (:mod:`solver.study.stop_rules`)
scores exactly against the optimum; the bots (:mod:`solver.play.policies`) play them.

>>> from solver.play.simple_rules import Features
>>> f = Features(line_value=20, cards=3, drawn=3, pile=80, bust_cards=24, gain=150)
>>> f.bust_chance, f.lookahead_draws
(Fraction(3, 10), False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.game.core import BUST_THRESHOLD

__all__ = ["Features", "RULE_FAMILIES", "Rule", "RuleFamily", "STEAL_POINTS", "StealOffer", "StealRule",
           "always_take", "steal_rule", "steal_statement"]


@dataclass(frozen=True)
class Features:
    """What a player sees at a decision point (after a draw and its steal)."""

    line_value: int
    cards: int  # face-up cards held (R5 counts stolen ones)
    drawn: int  # cards drawn this turn
    pile: int
    bust_cards: int  # pile cards that would bust
    gain: int  # sum over safe cards of count * points it adds (with its steal)

    @property
    def bust_chance(self) -> Fraction:
        return Fraction(self.bust_cards, self.pile) if self.pile else Fraction(0)

    @property
    def lookahead_draws(self) -> bool:
        """One-card lookahead: the expected gain of one more card exceeds the expected loss."""
        return self.gain > self.bust_cards * self.line_value


@dataclass(frozen=True)
class StealOffer:
    """A steal on offer that a player may decline (fewer than three cards after the draw)."""

    cards: int  # face-up cards after the draw, before the steal
    points: int  # what the steal would add


Rule = Callable[[Features], bool]  # True: draw again
StealRule = Callable[[StealOffer], bool]  # True: take the steal


def always_take(offer: StealOffer) -> bool:
    return True




# -- the rule families -------------------------------------------------------------
@dataclass(frozen=True)
class RuleFamily:
    name: str
    statement: str  # with {…} placeholders for the parameters
    axes: tuple[list[Any], ...]  # the values each parameter may take
    rule: Callable[..., Rule]
    vector: Callable[..., Callable[[dict[str, np.ndarray]], np.ndarray]]


_T = list(range(8, 46))
_P = [Fraction(k, 100) for k in range(5, 71, 1)]
RULE_FAMILIES: list[RuleFamily] = [
    RuleFamily("line value", "Stop once your line is worth {0} or more.", (_T,),
               lambda t: lambda f: f.line_value < t, lambda t: lambda a: a["line_value"] < t),
    RuleFamily("bust chance", "Stop once the chance of busting on the next card is {0} or more.",
               (_P,), lambda p: lambda f: f.bust_chance < p,
               lambda p: lambda a: a["bust_chance"] < float(p) - 1e-12),
    RuleFamily("cards drawn", "Draw exactly {0} cards, then stop.", (list(range(1, 9)),),
               lambda k: lambda f: f.drawn < k, lambda k: lambda a: a["drawn"] < k),
    RuleFamily("one-card lookahead", "Draw while one more card gains more on average than it risks.", (),
               lambda: lambda f: f.lookahead_draws, lambda: lambda a: a["lookahead"]),
    RuleFamily("value or risk", "Stop once your line is worth {0} or more, or the bust chance is {1} or more.",
               (list(range(14, 61, 2)), _P[::2]),
               lambda t, p: lambda f: f.line_value < t and f.bust_chance < p,
               lambda t, p: lambda a: (a["line_value"] < t) & (a["bust_chance"] < float(p) - 1e-12)),
    RuleFamily("value by cards held", "Stop at a line worth {0}+ with 3 cards, {1}+ with 4, {2}+ with 5 or more.",
               (list(range(10, 61, 2)), list(range(10, 61, 2)), list(range(10, 61, 2))),
               lambda a, b, c: lambda f: f.cards < BUST_THRESHOLD or f.line_value < (a if f.cards == BUST_THRESHOLD else b if f.cards == BUST_THRESHOLD + 1 else c),
               lambda a, b, c: lambda x: (x["cards"] < BUST_THRESHOLD) | (x["line_value"] < np.where(
                   x["cards"] == BUST_THRESHOLD, a, np.where(x["cards"] == BUST_THRESHOLD + 1, b, c)))),
]


def steal_rule(points: int) -> StealRule:
    """Take a steal when three cards are down anyway or it is worth ``points`` or more."""
    return lambda offer: offer.cards >= BUST_THRESHOLD or offer.points >= points


def steal_statement(points: int) -> str:
    if points <= 0:
        return "Always take a steal."
    return (f"Take a steal if you hold three or more cards or it is worth {points}+ points; "
            "otherwise decline it.")


#: Steal thresholds searched (0 means always take).
STEAL_POINTS = list(range(0, 41))
