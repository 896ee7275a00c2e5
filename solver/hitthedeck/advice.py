"""The recommended play and its reason in one sentence (ruling H14).

By default (:attr:`Objective.FOLLOW`) the advisor plays the card the next
player is least likely to follow (a Cut or a Flip cannot be followed: she is
skipped, or play comes back to you); among ties, the card that sheds the
most points; among cards equal on both, the first in the deck's order.
:attr:`Objective.POINTS` puts the points first and the follow chance second
(the tournaments in ``docs/HITTHEDECK.md`` compare the two). With no card to
play, it draws.

>>> from solver.hitthedeck.knowledge import Knowledge
>>> a = advise(Knowledge.from_dict({"hand": ["red 5", "hit 3", "blue 1"], "top": "red 2", "opponents": [1, 7]}))
>>> str(a.play)
'hit 3'
>>> a.reason
'Play the hit 3: the next player can meet its demand (a number card 3) with 15.1% (8/53), against 47.2% (25/53) for your best other card, the red 5.'
>>> advise(Knowledge.from_dict({"hand": ["blue 1"], "top": "red 2", "opponents": [3]})).reason  # 22 red, 12 other 2s, 18 hits of 108
'Draw: no card in your hand can be played on the red 2; the card you draw can be played with 48.1% (13/27).'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from .cards import Card, Kind
from .knowledge import Knowledge
from .matching import demand_of, demand_text
from .odds import Odds, PlayOdds, odds

__all__ = ["Advice", "Objective", "advise", "chance_json", "chance_text", "rank"]


class Objective(str, Enum):
    """What the advisor ranks the plays by first (H14)."""

    FOLLOW = "follow"  # least likely to be followed, then most points
    POINTS = "points"  # most points, then least likely to be followed


@dataclass(frozen=True)
class Advice:
    """The advisor's answer: ``play`` (None: draw), ``reason``, and every figure in ``odds``.

    ``ranked`` holds the plays best first (H14's order for ``objective``).
    """

    odds: Odds
    play: Card | None
    reason: str
    ranked: tuple[PlayOdds, ...]
    objective: Objective = Objective.FOLLOW

    @property
    def action(self) -> str:
        return "draw" if self.play is None else "play"

    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON answer (its schema is in ``docs/HITTHEDECK.md``)."""
        o = self.odds
        k = o.knowledge
        d = k.demand
        return {
            "action": self.action,
            "play": None if self.play is None else str(self.play),
            "reason": self.reason,
            "objective": self.objective.value,
            "demand": None if d is None else (d if isinstance(d, int) else d.value),
            "unseen": o.unseen,
            "hand_points": o.hand_points,
            "draw_playable": chance_json(o.draw_playable),
            "opponents": [{"cards": n, "expected_points": chance_json(p)} for n, p in zip(k.opponents,
                                                                                         o.opponent_points)],
            "plays": [{"card": str(p.card), "points": p.points, "followers": p.followers,
                       "next_follows": chance_json(p.next_follows), "follow": [chance_json(f) for f in p.follow],
                       "effect": p.effect} for p in self.ranked],
        }


def chance_json(x: Fraction) -> dict[str, Any]:
    """An exact number for JSON: ``{"exact": "p/q", "float": ...}``.

    >>> chance_json(Fraction(1, 8))
    {'exact': '1/8', 'float': 0.125}
    """
    return {"exact": str(x), "float": float(x)}


def chance_text(x: Fraction) -> str:
    """A chance in words: the percentage, and the exact fraction when it is neither 0 nor 1.

    >>> chance_text(Fraction(1, 3)), chance_text(Fraction(0)), chance_text(Fraction(1))
    ('33.3% (1/3)', '0%', '100%')
    """
    if x in (0, 1):
        return f"{float(x):.0%}"
    return f"{float(x):.1%} ({x})"


def rank(plays: tuple[PlayOdds, ...], objective: Objective = Objective.FOLLOW) -> tuple[PlayOdds, ...]:
    """H14's order: least likely to be followed, then most points shed (the other way round for
    :attr:`Objective.POINTS`), then the deck's order."""
    if objective is Objective.POINTS:
        return tuple(sorted(plays, key=lambda p: (-p.points, p.next_follows, p.card.sort_key)))
    return tuple(sorted(plays, key=lambda p: (p.next_follows, -p.points, p.card.sort_key)))


def _consequence(p: PlayOdds, players: int) -> str:
    card = p.card
    if card.kind is Kind.CUT:
        return ("the next player is skipped and you play again" if players == 2
                else "the next player is skipped, so cannot follow it")
    if card.kind is Kind.FLIP:
        return "play comes back to you, so the next player cannot follow it"
    if card.kind is Kind.HIT_HAND:
        return "the last hand on the pile draws four, and the next player may play any card on it"
    d = demand_of(card)
    if d is not None:
        return f"the next player can meet its demand ({demand_text(d)}) with {chance_text(p.next_follows)}"
    return f"the next player can follow it with {chance_text(p.next_follows)}"


def advise(knowledge: Knowledge, objective: Objective | str = Objective.FOLLOW) -> Advice:
    """The recommended play for ``knowledge`` and the reason for it (H14).

    >>> k = Knowledge.from_dict({"hand": ["red 5", "red 1", "blue 1"], "top": "red 2", "opponents": [7]})
    >>> advise(k, "points").reason  # 50 of 106 unseen follow it: 1 - C(56, 7) / C(106, 7)
    'Play the red 5: it sheds 5 points, more than any other card you can play (the red 1 sheds 1), and the next player can follow it with 99.0% (10304/10403).'
    """
    objective = Objective(objective)
    o = odds(knowledge)
    ranked = rank(o.plays, objective)
    if not ranked:
        d = knowledge.demand
        why = f" (it demands {demand_text(d)})" if d is not None else ""
        reason = (f"Draw: no card in your hand can be played on the {knowledge.top}{why}; "
                  f"the card you draw can be played with {chance_text(o.draw_playable)}.")
        return Advice(o, None, reason, ranked, objective)
    best = ranked[0]
    said = _consequence(best, knowledge.players)
    if len(knowledge.hand) == 1:
        reason = f"Play the {best.card}, your last card: you go out and the hand ends."
    elif len(ranked) == 1:
        reason = f"Play the {best.card}, your only playable card: {said}."
    elif objective is Objective.POINTS:
        other = ranked[1]
        if other.points != best.points:
            reason = (f"Play the {best.card}: it sheds {best.points} points, more than any other card you can play "
                      f"(the {other.card} sheds {other.points}), and {said}.")
        elif other.next_follows != best.next_follows:
            reason = (f"Play the {best.card}: it sheds as many points as the {other.card} ({best.points}), and "
                      f"{said}, against {chance_text(other.next_follows)} for the {other.card}.")
        else:
            reason = f"Play the {best.card}: it sheds as many points as the {other.card} ({best.points}), and {said}, as with the {other.card}."
    else:
        other = ranked[1]
        if other.next_follows != best.next_follows:
            reason = (f"Play the {best.card}: {said}, against {chance_text(other.next_follows)} for your best "
                      f"other card, the {other.card}.")
        elif other.points != best.points:
            reason = (f"Play the {best.card}: {said}, as with the {other.card}, and it sheds more points "
                      f"({best.points} against {other.points}).")
        else:
            reason = f"Play the {best.card}: {said}, as with the {other.card}, which sheds as many points."
    return Advice(o, best.card, reason, ranked, objective)
