"""Advice for a position: bust chance, steal, stop or draw, under a model.

This is the layer the command line and the advisor app call. It turns a
:class:`~solver.position.Position` into an :class:`Advice`, a frozen record
whose :meth:`Advice.to_dict` is the command line's JSON.

>>> from solver.position import Position
>>> pos = Position.from_dict({"players": [{"line": [6, 1, 5], "loot": [3, 7, 7]},
...     {"line": [5, 5], "lost_turns": 1}], "active": 0, "discard": [8, 8, 2], "offer": 5})
>>> a = advise(pos)
>>> a.bust_probability, a.steal.action, a.stop, a.draw, a.action
(Fraction(24, 79), 'take', Fraction(22, 1), Fraction(1512, 79), 'stop')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cards import Counts, bump, counts, put
from .position import Position
from .turn import Number, StealChoice, TurnSolver

__all__ = ["MODELS", "Advice", "NextCard", "advise", "bust_probability", "next_cards", "number_json"]

#: Every model the solver has, with the one-line assumption a user should read.
MODELS: dict[str, str] = {
    "turn": "This turn's haul: the expected sum of your line when your turn ends "
    "(0 on a bust); what opponents may steal later is ignored.",
    "bank": "Points that reach your loot: your line after every opponent has played one turn "
    "(each playing for its own turn's haul) or the pile has run out.",
    "duel": "Two players, the rest of the game: expected final score difference, both playing "
    "optimally to the last card (small piles only).",
}


@dataclass(frozen=True)
class Advice:
    """What the active player should do, and what each choice is worth."""

    model: str
    pile: Counts
    bust_probability: Number
    steal: StealChoice | None
    stop: Number | None  # None: the line is empty, the player must draw (R4)
    draw: Number
    exact: bool = True
    approximation: str | None = None  # how the model was approximated, if it was

    @property
    def pile_size(self) -> int:
        return sum(self.pile)

    @property
    def action(self) -> str:
        """``"draw"`` or ``"stop"``; stop on an exact tie."""
        return "draw" if self.stop is None or self.draw > self.stop else "stop"

    @property
    def mistake_cost(self) -> Number:
        """Expected points lost by taking the other action (0 when forced)."""
        if self.stop is None:
            return Fraction(0) if self.exact else 0.0
        return abs(self.draw - self.stop)

    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON object (numbers as exact strings in exact mode)."""
        num = number_json
        return {
            "pile": list(self.pile),
            "pile_size": self.pile_size,
            "bust_probability": num(self.bust_probability),
            "model": self.model,
            "steal": None
            if self.steal is None
            else {"take": num(self.steal.take), "decline": num(self.steal.decline), "action": self.steal.action},
            "stop": None if self.stop is None else num(self.stop),
            "draw": num(self.draw),
            "action": self.action,
            **({} if self.model == "turn" else {"approximation": self.approximation}),
        }


def number_json(x: Number) -> str | float:
    """An exact value as ``"p/q"`` (or ``"n"``), a float as itself.

    >>> number_json(Fraction(962, 79)), number_json(Fraction(22)), number_json(0.5)
    ('962/79', '22', 0.5)
    """
    return str(x) if isinstance(x, Fraction) else float(x)


def bust_probability(pile: Counts, line: Counts, exact: bool = True) -> Number:
    """R5/R13: chance that the next card busts the line as it stands.

    >>> bust_probability((2, 2, 0, 0, 0, 0, 0, 0, 0, 4), counts([1, 1, 2]))
    Fraction(1, 2)
    """
    held = sum(c for c, mine in zip(pile, line) if mine) if sum(line) >= 3 else 0
    return Fraction(held, sum(pile)) if exact else held / sum(pile)


def advise(position: Position, model: str = "turn", exact: bool = True, solver: TurnSolver | None = None,
           budget: float | None = None) -> Advice:
    """Solve ``position`` under ``model``.

    ``solver`` lets a caller reuse a :class:`TurnSolver` rooted at this
    position's turn (its memo then serves every later point of the turn).
    ``budget`` caps the seconds `bank` may take (it raises
    :class:`~solver.bank.BankTooSlow` past it). `duel` raises
    :class:`~solver.duel.DuelTooLarge` beyond its reach.
    """
    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}; the models are: {', '.join(MODELS)}")
    if model == "bank":
        return _advise_bank(position, exact, budget)
    if model == "duel":
        from .duel import advise_duel

        return advise_duel(position, exact)
    pile, line, others = position.pile(), counts(position.line), position.others()
    if solver is None:
        solver = _solver(pile, line, others, exact)
    steal = None
    offer = position.steal_on_offer()
    if offer is not None:
        steal = solver.steal_choice(offer, pile, line, others)
        if steal.action == "take":
            i = offer - 1
            line = bump(line, i, others[i])
            others = put(others, i, 0)
    stop = solver.stop_value(line) if sum(line) else None
    draw = solver.draw_value(pile, line, others)
    return Advice(model, pile, bust_probability(pile, counts(position.line), exact), steal, stop, draw, exact)


def _advise_bank(position: Position, exact: bool, budget: float | None = None) -> Advice:
    from .bank import BankSolver

    b = BankSolver(position, exact, budget)
    pile, line, stolen = position.pile(), counts(position.line), 0
    steal = None
    offer = position.steal_on_offer()
    if offer is not None:
        steal = b.steal_choice(offer)
        if steal.action == "take":
            i = offer - 1
            line = bump(line, i, position.others()[i])
            stolen = 1 << i
    stop = b.stop_value(pile, line, stolen) if sum(line) else None
    draw = b.draw_value(pile, line, stolen)
    bust = bust_probability(pile, counts(position.line), exact)
    return Advice("bank", pile, bust, steal, stop, draw, exact, b.approximation)


def _solver(pile: Counts, line: Counts, others: Counts, exact: bool) -> TurnSolver:
    return TurnSolver(pile, line, others, exact=exact)


@dataclass(frozen=True)
class NextCard:
    """One value the next card can have, and what the solver does after it."""

    value: int
    probability: Number
    busts: bool
    steal: StealChoice | None  # the steal it offers, if any
    then: str  # "bust", "stop", "draw" or "game over" (the pile runs out)
    value_after: Number  # the turn's value once this card is drawn


def next_cards(position: Position, exact: bool = True, solver: TurnSolver | None = None) -> list[NextCard]:
    """For each value of the next card: its chance and the best play after it.

    The line is taken as it stands after the better steal choice (if one is
    on offer now), the point where the player would draw. ``solver`` (a
    :class:`TurnSolver` rooted at this position) is reused if given.
    """
    pile, line, others = position.pile(), counts(position.line), position.others()
    if solver is None:
        solver = _solver(pile, line, others, exact)
    offer = position.steal_on_offer()
    if offer is not None and solver.steal_choice(offer, pile, line, others).action == "take":
        i = offer - 1
        line = bump(line, i, others[i])
        others = put(others, i, 0)
    n = sum(pile)
    zero: Number = Fraction(0) if exact else 0.0
    out = []
    for i, c in enumerate(pile):
        if not c:
            continue
        v = i + 1
        p: Number = Fraction(c, n) if exact else c / n
        if sum(line) >= 3 and line[i]:
            out.append(NextCard(v, p, True, None, "bust", zero))
            continue
        child_pile = put(pile, i, c - 1)
        child_line = bump(line, i, 1)
        steal = solver.steal_choice(v, child_pile, child_line, others) if others[i] else None
        after_line, after_others = child_line, others
        if steal is not None and steal.action == "take":
            after_line = bump(child_line, i, others[i])
            after_others = put(others, i, 0)
        if n == 1:
            then = "game over"
        else:
            then = "draw" if solver.should_draw(child_pile, after_line, after_others) else "stop"
        value_after = solver.best_value(child_pile, after_line, after_others)
        out.append(NextCard(v, p, False, steal, then, value_after))
    return out
