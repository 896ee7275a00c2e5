"""Decision review: every choice of a recorded game against a model's best, and what it cost.

Each steal decision (take or decline) and each stop-or-draw decision of every
player is solved under the model (`turn` exactly, in fractions; `bank` on its
compiled float path, with a time limit per decision; `win` on its float path,
exact in a game's last cards, an estimate elsewhere) at the position the
player saw. A decision's *cost* is the model's value of the best choice minus
that of the choice made: 0 for a best choice. Under `turn` and `bank` the
values are expected points; under `win` they are the chance to win, and the
cost is told in percentage points of it, per player as the mean *chance
given away per decision* with its band (:data:`BANDS`, docs/STRENGTH.md,
"Review in chances"). Forced moves (the first card of a turn) and the
timer's moves (R14) are not the player's decisions and are not scored.

>>> from solver.game.record import dumps
>>> from solver.game.rules import Match
>>> from solver.play.simulate import TurnPolicy
>>> m = Match(2, seed=4)
>>> m.play(TurnPolicy())
>>> r = review(dumps(m, ["turn", "turn"]))
>>> sum(d.cost for d in r.decisions)  # turn reviewed against itself
Fraction(0, 1)

Each decision is told in a player's words: whose turn, which turn of the
round, what was held, what was on offer, how many cards were left, the choice
made and the best (the record's line number stays as a secondary reference):

>>> d = Decision(88, 1, 0, "Ann", 12, (3, 5, 7), "steal", Action.DECLINE, Action.STEAL, Fraction(10), Fraction(12),
...              turn=14, offer=7, steal_from=((1, 2),))
>>> print(Review("turn", ["Ann", "Bob"], [d]).describe(d))
Ann, turn 14 (record line 88): holding 3 5 7, the 7 on offer: the two 7s of Bob, 12 cards left: declined where taking was best, cost 2.00
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from solver.models.advice import Budget, ModelError, StealChoice, choice_word
from solver.models import advise
from solver.models import model as registered
from solver.models.evaluator import WeightsError
from solver.game.core import steal_sources
from solver.utilities.numbers import Number
from solver.game.record import RecordError, replay
from solver.game.rules import Action, Declined, Drew, Event, Game, Phase, Stole, Stopped
from solver.play.simulate import position_of

__all__ = ["BANDS", "CHANCE_MODELS", "WORST_BAND", "Decision", "Review", "ReviewError", "band", "cards_left",
           "cards_of_value", "decision_made", "review", "said", "won_after"]

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
                10: "ten", 11: "eleven", 12: "twelve"}
#: A choice as made ("Ann declined") and as the best one ("where taking was best").
MADE = {Action.STEAL: "took the steal", Action.DECLINE: "declined", Action.DRAW: "drew", Action.STOP: "stopped"}
AS_BEST = {Action.STEAL: "taking", Action.DECLINE: "declining", Action.DRAW: "drawing", Action.STOP: "stopping"}
#: The models whose values are the chance to win, in [0, 1]: their costs are told in percentage points.
CHANCE_MODELS = frozenset({"win"})
#: The project's own bands of the chance given away per decision, in percentage points of the chance to win
#: (a player's mean cost over its decisions reviewed under `win`): each name holds below its bound
#: (docs/STRENGTH.md, "Review in chances", says why these).
BANDS: tuple[tuple[str, float], ...] = (("flawless", 0.1), ("sharp", 0.25), ("steady", 0.5), ("loose", 1.0))
#: The band at or past the last bound.
WORST_BAND = "reckless"


def band(points: float) -> str:
    """The band of a chance given away per decision, in percentage points (:data:`BANDS`).

    >>> band(0.0), band(0.1), band(0.24), band(0.49), band(0.99), band(1.0)
    ('flawless', 'sharp', 'sharp', 'steady', 'loose', 'reckless')
    """
    for name, below in BANDS:
        if points < below:
            return name
    return WORST_BAND


def cards_of_value(count: int, value: int) -> str:
    """Cards of one value in words: the 9 for one card, the two 9s for two.

    >>> cards_of_value(1, 9), cards_of_value(2, 9), cards_of_value(13, 6)
    ('the 9', 'the two 9s', 'the 13 6s')
    """
    return f"the {value}" if count == 1 else f"the {NUMBER_WORDS.get(count, str(count))} {value}s"


def cards_left(pile: int) -> str:
    """The pile's size in words.

    >>> cards_left(1), cards_left(12), cards_left(0)
    ('1 card left', '12 cards left', 'no cards left')
    """
    return "no cards left" if pile == 0 else f"{pile} card{'' if pile == 1 else 's'} left"


def _listed(items: list[str]) -> str:
    """Items in a sentence.

    >>> _listed(["a"]), _listed(["a", "b"]), _listed(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def said(e: BaseException) -> str:
    """What an exception says, in words, with its kind after (never only its class name).

    >>> said(ValueError("7 is not a seat")), said(KeyError())
    ('7 is not a seat (ValueError)', 'an error with no message (KeyError)')
    """
    text = " ".join(str(e).split())[:300]
    return f"{text} ({type(e).__name__})" if text else f"an error with no message ({type(e).__name__})"


class ReviewError(Exception):
    """The review itself failed on a record the rules accept: where (``line``, the record's line number, or
    None before the first choice) and what went wrong, in the message. Not the record's fault, unlike a
    :class:`~solver.game.record.RecordError`."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line


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
    choice: Action  # STEAL (taken) or DECLINE, STOP or DRAW
    best: Action | None  # None: not solved
    value: Number | None  # the model's value of the choice made: expected points, or under `win` the chance
    # to win (None: not solved)
    best_value: Number | None
    note: str = ""  # why it was not solved, if it was not
    turn: int = 0  # the turn of its round, from 1, each seat's turn in order (from the join, in a joined round)
    offer: int | None = None  # at a steal: the value of the card on offer
    steal_from: tuple[tuple[int, int], ...] = ()  # at a steal: (seat, cards of that value) it would take
    approximation: str | None = None  # the model's approximation here, if it made one (`win`: its estimate)

    @property
    def cost(self) -> Number:
        """What the choice gave away: the best choice's value minus its own (expected points, or under `win`
        the chance to win); 0 for a best choice, or when not solved."""
        if self.value is None or self.best_value is None:
            return Fraction(0)
        return self.best_value - self.value

    @property
    def estimate(self) -> bool:
        """Whether the model answered with an estimate here (an approximation of its own values), not exactly."""
        return self.approximation is not None

    def to_dict(self) -> dict[str, Any]:
        def num(x: Number | None) -> float | None:
            return None if x is None else float(x)

        return {"line": self.line, "round": self.round, "seat": self.seat, "name": self.name,
                "pile_size": self.pile_size, "cards": " ".join(map(str, self.cards)), "kind": self.kind,
                "choice": choice_word(self.choice), "best": "?" if self.best is None else choice_word(self.best), "value": num(self.value),
                "best_value": num(self.best_value), "cost": float(self.cost), "exact_cost": str(self.cost),
                "note": self.note, "turn": self.turn, "offer": self.offer,
                "steal_from": [list(x) for x in self.steal_from], "estimate": self.estimate,
                "approximation": self.approximation}


@dataclass
class Review:
    """Every decision of a game, and per seat what was given away."""

    model: str
    names: list[str]
    decisions: list[Decision] = field(default_factory=list)
    rounds: int = 1  # the record's rounds (R15): a decision's turn is named with its round when more than 1
    joined: tuple[int, ...] = ()  # the rounds joined under way: their turns are counted from the join

    def who(self, seat: int) -> str:
        """A seat as the review names it: its name, or its number too when the name is blank or not unique.

        >>> r = Review("turn", ["Ann", "turn", "turn", ""])
        >>> [r.who(s) for s in range(4)]
        ['Ann', 'seat 2 (turn)', 'seat 3 (turn)', 'seat 4']
        """
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        if not name.strip():
            return f"seat {seat + 1}"
        return name if self.names.count(name) == 1 else f"seat {seat + 1} ({name})"

    def when(self, d: Decision) -> str:
        """Which turn: 'turn 14', or 'round 2, turn 14' in a match of rounds."""
        return f"round {d.round}, turn {d.turn}" if self.rounds > 1 else f"turn {d.turn}"

    def held(self, d: Decision) -> str:
        """The line as it stood ('holding 3 5 7'; at a steal, with the card on offer)."""
        return "holding " + (" ".join(map(str, d.cards)) or "nothing")

    def on_offer(self, d: Decision) -> str:
        """At a steal, what it would take: 'the 7 on offer: the two 7s of Bob' ('' at a stop or draw)."""
        if d.offer is None:
            return ""
        whose = [f"{cards_of_value(k, d.offer)} of {self.who(seat)}" for seat, k in d.steal_from]
        return f"the {d.offer} on offer" + (f": {_listed(whose)}" if whose else "")

    @property
    def in_chances(self) -> bool:
        """Whether the model's values are the chance to win (`win`): costs in percentage points."""
        return self.model in CHANCE_MODELS

    def cost_shown(self, d: Decision) -> float:
        """A decision's cost as the review tells it: points, or percentage points of the chance to win."""
        return float(d.cost) * (100 if self.in_chances else 1)

    def describe(self, d: Decision) -> str:
        """One decision in a player's words, its record line after its turn (under `win`, its cost in points of
        the chance to win, and 'estimate' where the model answered with one)."""
        facts = ", ".join(x for x in (self.held(d), self.on_offer(d), cards_left(d.pile_size)) if x)
        if d.value is None:
            verdict = f"{MADE[d.choice]}, not solved ({d.note})" if d.note else \
                f"{MADE[d.choice]}, not solved"
        elif d.cost > 0:
            verdict = (f"{MADE[d.choice]} where {'another choice' if d.best is None else AS_BEST[d.best]} was best, "
                       f"cost {self.cost_shown(d):.2f}" + (" points of chance" if self.in_chances else ""))
        else:
            verdict = f"{MADE[d.choice]}, the best choice"
        if d.value is not None and d.estimate:
            verdict += " (estimate)"
        return f"{self.who(d.seat)}, {self.when(d)} (record line {d.line}): {facts}: {verdict}"

    def given_away(self, seat: int) -> Number:
        """A seat's costs added up (in the model's own unit: points, or a chance in [0, 1] under `win`)."""
        return sum((d.cost for d in self.decisions if d.seat == seat), Fraction(0))

    def scored(self, seat: int) -> list[Decision]:
        """A seat's decisions the model answered (those not solved are left out)."""
        return [d for d in self.decisions if d.seat == seat and d.value is not None]

    def per_decision(self, seat: int) -> float | None:
        """Under `win`: the seat's *chance given away per decision*, the mean cost over its scored decisions in
        percentage points of the chance to win (None when it has none, or under another model)."""
        mine = self.scored(seat)
        if not self.in_chances or not mine:
            return None
        return 100 * sum(float(d.cost) for d in mine) / len(mine)

    def band(self, seat: int) -> str | None:
        """Under `win`: the band of the seat's chance given away per decision (:func:`band`)."""
        rate = self.per_decision(seat)
        return None if rate is None else band(rate)

    def estimates(self) -> int:
        """The decisions the model answered with an estimate."""
        return sum(1 for d in self.decisions if d.value is not None and d.estimate)

    def json_row(self, d: Decision) -> dict[str, Any]:
        """A decision as the command line's ``--json`` writes it: :meth:`Decision.to_dict`, the model, and under
        `win` the cost in percentage points of the chance to win (``cost_points``; None otherwise)."""
        return {**d.to_dict(), "model": self.model,
                "cost_points": self.cost_shown(d) if self.in_chances else None}

    def costliest(self, seat: int, k: int = 3) -> list[Decision]:
        mine = [d for d in self.decisions if d.seat == seat and d.cost > 0]
        return sorted(mine, key=lambda d: d.cost, reverse=True)[:k]

    def unsolved(self) -> int:
        return sum(1 for d in self.decisions if d.value is None)

    def given_words(self, seat: int, strong: Callable[[str], str] = lambda text: text) -> str:
        """What ``seat`` gave away, in words (the report's and the Strength page's; ``strong`` marks the
        figures and the band, e.g. in bold): points, or under `win` the chance per decision, its band and
        the total."""
        rate = self.per_decision(seat)
        if not self.in_chances:
            return f"{strong(f'{float(self.given_away(seat)):.2f}')} points given away"
        if rate is None:
            return "no decision scored"
        return (f"{strong(f'{rate:.2f}')} points of chance given away per decision: {strong(band(rate))} "
                f"({100 * float(self.given_away(seat)):.1f} in all)")

    def report(self) -> str:
        """A plain-text report: per seat what was given away (under `win`, per decision, with its band) and its
        three costliest decisions."""
        out = [f"Review under `{self.model}`: {len(self.decisions)} decisions "
               f"({self.unsolved()} not solved" + (f", {self.estimates()} answered with an estimate)."
                                                   if self.estimates() else ").")]
        if self.in_chances:
            out.append("Costs are in percentage points of the chance to win: the best choice's chance minus the "
                       "choice made's.")
        for seat, name in enumerate(self.names):
            mine = [d for d in self.decisions if d.seat == seat]
            wrong = sum(1 for d in mine if d.cost > 0)
            out.append(f"\nSeat {seat + 1} ({name}): {len(mine)} decisions, {wrong} not the best, "
                       f"{self.given_words(seat)}")
            for d in self.costliest(seat):
                out.append(f"  {self.describe(d)}")
        if self.in_chances:
            out.append("\nBands of the chance given away per decision (this project's own): "
                       + ", ".join(f"{name} under {below:g}" for name, below in BANDS)
                       + f", {WORST_BAND} {BANDS[-1][1]:g} or more.")
        if self.joined:
            out.append(f"\n(Joined under way: the turns of round{'s' if len(self.joined) > 1 else ''} "
                       f"{_listed([str(k) for k in self.joined])} are counted from the join.)")
        return "\n".join(out)


def decision_made(game: Game, event: Event) -> Action | None:
    """The player's decision ``event`` makes on ``game`` (as :func:`replay` hands them to ``on_choice``): a steal
    taken or declined, a draw or a stop once a card is in front of the player; None for a turn's forced first
    card (R4) and the timer's move (R14), which decide nothing."""
    if game.phase is Phase.STEAL and isinstance(event, (Stole, Declined)):
        return Action.STEAL if isinstance(event, Stole) else Action.DECLINE
    if game.phase is Phase.CHOOSE and isinstance(event, (Drew, Stopped)):
        return Action.DRAW if isinstance(event, Drew) else Action.STOP
    return None


def review(record: str | Iterable[str], model: str = "turn", seconds: float = 5.0,
           progress: Callable[[int], None] | None = None) -> Review:
    """Review every decision of a record under ``model`` (any model of the registry: `turn`, `bank`, `win`, ...).

    A model whose exact answers are quick is solved exactly; the others (`bank`, `win`) on their float path with
    ``seconds`` of work per decision; a decision past it, or one the model cannot answer, is listed, not scored.
    ``progress``, if given, is called with the number of decisions reviewed so far after each one.

    A record the rules refuse is a :class:`~solver.game.record.RecordError` (its line and the reason); a failure of
    the review itself on a record they accept is a :class:`ReviewError` saying where and what went wrong. Missing
    or damaged weights of `win`'s evaluator are its :class:`~solver.models.evaluator.WeightsError`, as it is (it
    names the file and the command that rebuilds it).
    """
    quick = registered(model).quick_exact  # an unknown name is refused with the list of models
    budget_seconds = None if quick else seconds
    decisions: list[Decision] = []
    last = 0  # the line of the last choice replayed
    at_round, turn = 0, 0

    def seen(game: Game, event: Event, line: int, round_: int) -> None:
        nonlocal last, at_round, turn
        last = line
        # Turns as a player counts them: from 1 each round, one a seat's turn; a turn starts with its first
        # card (or the timer's, R14), in phase MUST_DRAW. A round joined under way starts at its turn 1.
        if round_ != at_round:
            at_round, turn = round_, 1
        elif game.phase is Phase.MUST_DRAW:
            turn += 1
        choice = decision_made(game, event)
        if choice is None:
            return  # a forced first card, or the timer's move (R14): not the player's decision
        kind = "steal" if game.phase is Phase.STEAL else "stop or draw"
        try:
            decisions.append(_decide(game, kind, choice, line, round_, turn, model, budget_seconds))
        except WeightsError:
            raise  # no decision can be judged: said as it is, with the file and the command
        except Exception as e:  # noqa: BLE001 - said with its place, for the page and the command line
            raise ReviewError(line, f"line {line} (round {round_}, turn {turn}, a {kind} decision): the model "
                                    f"`{model}` failed on it: {said(e)}") from e
        if progress is not None:
            progress(len(decisions))

    try:
        replayed = replay(record, on_choice=seen)
    except (RecordError, ReviewError, WeightsError):
        raise
    except Exception as e:  # noqa: BLE001 - the reader's own failure, not a refusal of the record
        where = f"line {last} or just after it" if last else "its first lines"
        raise ReviewError(last or None, f"{where}: the replay of the record failed: {said(e)}") from e
    joined = tuple(k for k, start in enumerate(replayed.starts, start=1) if start is not None)
    return Review(model, replayed.names, [replace(d, name=replayed.names[d.seat]) for d in decisions],
                  rounds=replayed.match.rounds, joined=joined)


def _decide(game: Game, kind: str, choice: Action, line: int, round_: int, turn: int, model: str,
            seconds: float | None) -> Decision:
    cards = tuple(game.active_player.line)
    offer = game.offer if kind == "steal" else None
    sources = () if offer is None else steal_sources([p.line for p in game.players], game.active, offer)

    def decision(best: Action | None, value: Number | None, best_value: Number | None, note: str = "",
                 approximation: str | None = None) -> Decision:
        return Decision(line, round_, game.active, "", len(game.pile), cards, kind, choice, best, value, best_value,
                        note, turn, offer, sources, approximation)

    steal: StealChoice
    approximation = None
    if not game.pile and model in CHANCE_MODELS:  # R9: the game ends with this choice: won or not
        if game.match is not None and not game.match.last_round:
            return decision(None, None, None, f"the last card of round {game.match.round} of "
                                              f"{game.match.rounds}: `{model}` does not weigh the rounds to come "
                                              f"(R15) at the end of a round")
        steal = StealChoice(won_after(game, Action.STEAL), won_after(game, Action.DECLINE))
    elif not game.pile:  # R9: the last card's steal; taking adds the stolen cards to a line about to be banked
        stolen = (game.offer or 0) * game.stealable(game.offer or 0)
        steal = StealChoice(Fraction(sum(cards) + stolen), Fraction(sum(cards)))
    else:
        try:
            a = advise(position_of(game), model, exact=seconds is None,
                       budget=None if seconds is None else Budget(seconds))
        except WeightsError:
            raise
        except ModelError as e:
            return decision(None, None, None, str(e)[:200])
        approximation = a.approximation
        if kind != "steal":  # the advice's own choice and tie rule: stop unless drawing beats it
            values = {Action.DRAW: a.draw} if a.stop is None else {Action.DRAW: a.draw, Action.STOP: a.stop}
            return decision(a.action, values[choice], values[a.action], approximation=approximation)
        assert a.steal is not None
        steal = a.steal
    # The steal choice's own tie rule: decline unless taking beats it (advice.beats: a float tie too).
    values = {Action.STEAL: steal.take, Action.DECLINE: steal.decline}
    return decision(steal.action, values[choice], values[steal.action], approximation=approximation)


def won_after(game: Game, action: Action) -> Fraction:
    """R9 at the last card's steal: 1 if the player to choose wins once ``action`` ends the game, else 0, by the
    rules' own ranking (R11, R12; in a match's last round with the rounds before added, R15)."""
    after = copy.deepcopy(game)
    after.apply(action)
    earlier = game.match.earlier if game.match is not None else ()

    def key(seat: int) -> tuple[int, int, int, int]:
        p = after.players[seat]
        before = earlier[seat] if earlier else None
        points, cards, lost = p.score, len(p.loot), p.lost_turns
        if before is not None:
            points, cards, lost = points + before.points, cards + before.cards, lost + before.lost_turns
        return (-points, -cards, lost, seat)  # R12: score, most cards, fewest lost turns, lowest seat

    return Fraction(int(min(range(after.num_players), key=key) == game.active))
