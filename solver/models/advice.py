"""What every model answers in: advice records, the model protocol, refusals.

A model (see :mod:`solver.models` for the registry) turns a checked
:class:`~solver.game.position.Position` into an :class:`Advice`: the bust chance,
the steal on offer (take against decline), and stop against draw. Every
model values states of a turn (:class:`~solver.game.core.TurnState`), so one
function, :func:`advice_at`, builds the record from a model's three
questions: the value of a state, of stopping there, of drawing there.

>>> from solver.utilities.numbers import EXACT
>>> a = Advice("turn", (1,) * 10, EXACT.ratio(3, 10), None, EXACT.of(6), EXACT.ratio(11, 2), exact=True)
>>> a.action, a.mistake_cost, a.to_dict()["action"]
(<Action.STOP: 'stop'>, Fraction(1, 2), 'stop')

The choices are :class:`~solver.game.rules.Action`, the rules engine's own;
the JSON says ``take`` for :attr:`~solver.game.rules.Action.STEAL`
(:func:`choice_word`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from solver.game.cards import Counts
from solver.game.core import TurnState
from solver.game.rules import Action, Word
from solver.utilities.numbers import Context, Number, difference
from solver.game.position import Position

__all__ = [
    "Advice",
    "Budget",
    "Model",
    "ModelError",
    "NextCard",
    "SlowModel",
    "StealChoice",
    "Then",
    "TooLarge",
    "advice_at",
    "after_steal",
    "bust_probability",
    "choice_word",
    "number_json",
]

#: The words the advice's JSON (docs/CLI.md), the study tables and the pages write for a choice: ``take`` for
#: the steal on offer taken, the action's own value otherwise. The records write ``steal`` (docs/RECORDS.md).
CHOICE_WORDS: dict[Action, str] = {Action.DRAW: "draw", Action.STOP: "stop", Action.STEAL: "take",
                                   Action.DECLINE: "decline"}


def choice_word(action: Action) -> str:
    """A choice as the advice's JSON and tables say it (:data:`CHOICE_WORDS`).

    >>> choice_word(Action.STEAL), choice_word(Action.DECLINE), choice_word(Action.STOP)
    ('take', 'decline', 'stop')
    """
    return CHOICE_WORDS[action]


class Then(Word):
    """The outcome of a next card, not a choice: it busts, or the best play after it is to stop or draw,
    or it was the pile's last card and the game is over. The choices are :class:`~solver.game.rules.Action`."""

    BUST = "bust"
    STOP = "stop"
    DRAW = "draw"
    GAME_OVER = "game over"


class ModelError(ValueError):
    """A model cannot answer this position; the message says why and what would."""


class TooLarge(ModelError):
    """The position is beyond what the model solves in bounded time and memory."""


class SlowModel(ModelError):
    """The caller's time budget ran out before the answer was found."""


@dataclass
class Budget:
    """A time budget for a slow model: ``seconds`` from its creation, on ``clock``.

    The clock is injectable, so a test can run out of time without waiting.

    >>> b = Budget(0)
    >>> b.spent()
    True
    """

    seconds: float
    clock: Callable[[], float] = time.monotonic
    started: float = field(default=-1.0)

    def __post_init__(self) -> None:
        if self.started < 0:
            self.started = self.clock()

    def spent(self) -> bool:
        return self.clock() - self.started >= self.seconds


def beats(a: Number, b: Number) -> bool:
    """Whether ``a`` is the better value. Fractions compare exactly; floats by more than their rounding
    (a relative 1e-9), so that an exact tie reached by two float sums in different orders stays a tie.

    >>> beats(0.22777777777777786, 0.22777777777777777), beats(Fraction(1, 3), Fraction(1, 3))
    (False, False)
    """
    if isinstance(a, float) or isinstance(b, float):
        return float(a) > float(b) + 1e-9 * max(1.0, abs(float(b)))
    return a > b


@dataclass(frozen=True)
class StealChoice:
    """Values of taking and of declining a steal on offer."""

    take: Number
    decline: Number

    @property
    def action(self) -> Action:
        """:attr:`~Action.STEAL` (take it), or :attr:`~Action.DECLINE` (also on an exact tie)."""
        return Action.STEAL if beats(self.take, self.decline) else Action.DECLINE

    @property
    def cost(self) -> Number:
        """Expected points the other choice gives away."""
        return difference(self.take, self.decline)


@dataclass(frozen=True)
class Advice:
    """What the active player should do, and what each choice is worth.

    ``bust_probability`` is for the line as it stands; ``bust_after_steal``
    for the line as the recommended steal leaves it (the state where the
    player stops or draws): the same number when no steal is on offer or it
    is declined.
    """

    model: str
    pile: Counts
    bust_probability: Number
    steal: StealChoice | None
    stop: Number | None  # None: the line is empty, the player must draw (R4)
    draw: Number
    exact: bool = True
    approximation: str | None = None  # how the model was approximated here, if it was
    bust_after_steal: Number | None = None  # None: the same as bust_probability

    @property
    def pile_size(self) -> int:
        return sum(self.pile)

    @property
    def bust_probability_after_steal(self) -> Number:
        return self.bust_probability if self.bust_after_steal is None else self.bust_after_steal

    @property
    def action(self) -> Action:
        """:attr:`~Action.DRAW` or :attr:`~Action.STOP`; stop on an exact tie."""
        return Action.DRAW if self.stop is None or beats(self.draw, self.stop) else Action.STOP

    @property
    def mistake_cost(self) -> Number:
        """Expected points lost by taking the other action (0 when forced)."""
        return difference(self.draw, self.draw if self.stop is None else self.stop)

    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON object (numbers as exact strings in exact mode; choices as
        :func:`choice_word` says them, ``take`` for the steal taken)."""
        num = number_json
        return {
            "pile": list(self.pile),
            "pile_size": self.pile_size,
            "bust_probability": num(self.bust_probability),
            "bust_probability_after_steal": num(self.bust_probability_after_steal),
            "model": self.model,
            "steal": None
            if self.steal is None
            else {"take": num(self.steal.take), "decline": num(self.steal.decline), "action": choice_word(self.steal.action)},
            "stop": None if self.stop is None else num(self.stop),
            "draw": num(self.draw),
            "action": choice_word(self.action),
            "approximation": self.approximation,
            "exact": self.exact and self.approximation is None,
        }


@dataclass(frozen=True)
class NextCard:
    """One value the next card can have, and what the best play is after it."""

    value: int
    probability: Number
    busts: bool
    steal: StealChoice | None  # the steal it offers, if any
    then: Then
    value_after: Number  # the turn's value once this card is drawn (0 on a bust)


class Model(Protocol):
    """What every model offers: its name, what it assumes, and advice for a position.

    ``approximation(position)`` names the approximation the model makes for
    that position (None when it solves its definition exactly there).
    ``quick_exact`` says whether exact answers come quickly enough for a
    tap; the advisor asks the others in floats (their speed path).
    """

    name: str
    assumption: str
    quick_exact: bool

    def approximation(self, position: Position) -> str | None: ...

    def advise(self, position: Position, numbers: Context, budget: Budget | None = None) -> Advice: ...


def number_json(x: Number) -> str | float:
    """An exact value as ``"p/q"`` (or ``"n"``), a float as itself.

    >>> number_json(Fraction(962, 79)), number_json(Fraction(22)), number_json(0.5)
    ('962/79', '22', 0.5)
    """
    return str(x) if isinstance(x, Fraction) else float(x)


def bust_probability(point: TurnState, numbers: Context) -> Number:
    """R5/R13: the chance that the next card busts the line of ``point``.

    >>> from solver.game.cards import counts
    >>> from solver.utilities.numbers import EXACT
    >>> bust_probability(TurnState.start((2, 2, 0, 0, 0, 0, 0, 0, 0, 4), counts([1, 1, 2])), EXACT)
    Fraction(1, 2)
    """
    value: Number = numbers.ratio(point.bust_cards, point.pile_size)
    return value


def after_steal(position: Position, steal: StealChoice | None) -> TurnState:
    """Where a steal choice leaves the active line: the steal on offer taken, or the line as it stands.

    >>> pos = Position.from_dict({"players": [{"line": [3, 5]}, {"line": [5]}], "active": 0, "offer": 5})
    >>> after_steal(pos, StealChoice(2, 1)).line_size, after_steal(pos, None).line_size
    (3, 2)
    """
    root = position.turn_state()
    offer = position.steal_on_offer()
    if steal is not None and steal.action is Action.STEAL and offer is not None:
        return root.stolen(offer)
    return root


def advice_at(model: str, position: Position, numbers: Context, best: Callable[[TurnState], Number],
              stop: Callable[[TurnState], Number], draw: Callable[[TurnState], Number],
              approximation: str | None = None) -> Advice:
    """The advice record from a model's values of states of this turn.

    ``best(point)`` is the value of a state where the player may stop or
    draw (after a steal was decided), ``stop`` and ``draw`` the values of
    each choice there. The steal on offer is settled first (decline on a
    tie); stop and draw are then valued where it leaves the line.
    """
    root = position.turn_state()
    steal = None
    offer = position.steal_on_offer()
    if offer is not None:
        steal = StealChoice(best(root.stolen(offer)), best(root))
    at = after_steal(position, steal)
    before = bust_probability(root, numbers)
    after = bust_probability(at, numbers)
    return Advice(model, root.pile, before, steal, stop(at) if at.line_size else None, draw(at), numbers.exact,
                  approximation, None if at is root else after)
