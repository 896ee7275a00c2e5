"""Decision review: every choice of a recorded game against a model's best, and what it cost.

Each steal decision (take or decline) and each stop-or-draw decision of every
player is solved under the model (`turn` exactly, in fractions; `bank` on its
compiled float path, with a time limit per decision) at the position the
player saw. A decision's *cost* is the model's expected points of the best
choice minus those of the choice made: 0 for a best choice. Forced moves (the
first card of a turn) and the timer's moves (R14) are not the player's
decisions and are not scored.

>>> from solver.record import dumps
>>> from solver.rules import Match
>>> from solver.simulate import TurnPolicy
>>> m = Match(2, seed=4)
>>> m.play(TurnPolicy())
>>> r = review(dumps(m, ["turn", "turn"]))
>>> sum(d.cost for d in r.decisions)  # turn reviewed against itself
Fraction(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from .advice import Budget, ModelError
from .models import advise
from .models import model as registered
from .numbers import Number
from .record import replay
from .rules import Declined, Drew, Event, Game, Phase, Stole, Stopped
from .simulate import position_of

__all__ = ["Decision", "Review", "review"]


@dataclass(frozen=True)
class Decision:
    """One decision of a recorded game."""

    line: int  # the record's line number of the choice
    round: int
    seat: int
    name: str
    pile_size: int
    cards: tuple[int, ...]  # the line as it stood (with the offered card, at a steal)
    kind: str  # "steal" or "stop or draw"
    choice: str  # take/decline, stop/draw
    best: str
    value: Number | None  # the model's expected points of the choice made (None: not solved)
    best_value: Number | None
    note: str = ""  # why it was not solved, if it was not

    @property
    def cost(self) -> Number:
        """Expected points given away (0 for a best choice, or when not solved)."""
        if self.value is None or self.best_value is None:
            return Fraction(0)
        return self.best_value - self.value

    def to_dict(self) -> dict[str, Any]:
        def num(x: Number | None) -> float | None:
            return None if x is None else float(x)

        return {"line": self.line, "round": self.round, "seat": self.seat, "name": self.name,
                "pile_size": self.pile_size, "cards": " ".join(map(str, self.cards)), "kind": self.kind,
                "choice": self.choice, "best": self.best, "value": num(self.value),
                "best_value": num(self.best_value), "cost": float(self.cost), "exact_cost": str(self.cost),
                "note": self.note}


@dataclass
class Review:
    """Every decision of a game, and per seat what was given away."""

    model: str
    names: list[str]
    decisions: list[Decision] = field(default_factory=list)

    def given_away(self, seat: int) -> Number:
        return sum((d.cost for d in self.decisions if d.seat == seat), Fraction(0))

    def costliest(self, seat: int, k: int = 3) -> list[Decision]:
        mine = [d for d in self.decisions if d.seat == seat and d.cost > 0]
        return sorted(mine, key=lambda d: d.cost, reverse=True)[:k]

    def unsolved(self) -> int:
        return sum(1 for d in self.decisions if d.value is None)

    def report(self) -> str:
        """A plain-text report: per seat the total given away and its three costliest decisions."""
        out = [f"Review under `{self.model}`: {len(self.decisions)} decisions "
               f"({self.unsolved()} not solved)."]
        for seat, name in enumerate(self.names):
            mine = [d for d in self.decisions if d.seat == seat]
            wrong = sum(1 for d in mine if d.cost > 0)
            out.append(f"\nSeat {seat + 1} ({name}): {len(mine)} decisions, {wrong} not the best, "
                       f"{float(self.given_away(seat)):.2f} points given away")
            for d in self.costliest(seat):
                out.append(f"  record line {d.line} (round {d.round}, {d.pile_size} cards left, holding "
                           f"{' '.join(map(str, d.cards)) or 'nothing'}): {d.choice} where {d.best} was best, "
                           f"cost {float(d.cost):.2f}")
        return "\n".join(out)


def review(record: str | Iterable[str], model: str = "turn", seconds: float = 5.0,
           progress: Callable[[int], None] | None = None) -> Review:
    """Review every decision of a record under ``model`` (any model of the registry: `turn`, `bank`, ...).

    A model whose exact answers are quick is solved exactly; the others (`bank`) on their float path with
    ``seconds`` of work per decision; a decision past it, or one the model cannot answer, is listed, not scored.
    ``progress``, if given, is called with the number of decisions reviewed so far after each one.
    """
    quick = registered(model).quick_exact  # an unknown name is refused with the list of models
    budget_seconds = None if quick else seconds
    decisions: list[Decision] = []

    def seen(game: Game, event: Event, line: int, round_: int) -> None:
        if game.phase is Phase.STEAL and isinstance(event, (Stole, Declined)):
            kind, choice = "steal", "take" if isinstance(event, Stole) else "decline"
        elif game.phase is Phase.CHOOSE and isinstance(event, (Drew, Stopped)):
            kind, choice = "stop or draw", "draw" if isinstance(event, Drew) else "stop"
        else:
            return  # a forced first card, or the timer's move (R14): not the player's decision
        decisions.append(_decide(game, kind, choice, line, round_, model, budget_seconds))
        if progress is not None:
            progress(len(decisions))

    replayed = replay(record, on_choice=seen)
    return Review(model, replayed.names, [replace(d, name=replayed.names[d.seat]) for d in decisions])


def _decide(game: Game, kind: str, choice: str, line: int, round_: int, model: str,
            seconds: float | None) -> Decision:
    cards = tuple(game.active_player.line)

    def decision(best: str, value: Number | None, best_value: Number | None, note: str = "") -> Decision:
        return Decision(line, round_, game.active, "", len(game.pile), cards, kind, choice, best, value, best_value,
                        note)

    values: dict[str, Number]
    if not game.pile:  # R9: the last card's steal; taking adds the stolen cards to a line about to be banked
        stolen = (game.offer or 0) * game.stealable(game.offer or 0)
        values = {"take": Fraction(sum(cards) + stolen), "decline": Fraction(sum(cards))}
    else:
        try:
            a = advise(position_of(game), model, exact=seconds is None,
                       budget=None if seconds is None else Budget(seconds))
        except ModelError as e:
            return decision("?", None, None, str(e)[:200])
        if kind == "steal":
            assert a.steal is not None
            values = {"take": a.steal.take, "decline": a.steal.decline}
        else:
            values = {"draw": a.draw} if a.stop is None else {"draw": a.draw, "stop": a.stop}
    # The model's own tie rule: stop and decline on a tie.
    best = max(values, key=lambda k: (values[k], k in ("stop", "decline")))
    return decision(best, values[choice], values[best])
