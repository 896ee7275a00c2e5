"""Players for the rules engine, behind one small interface, named on the command line.

A :class:`Bot` is called with the :class:`~solver.game.rules.Game` at each decision
of its seat and returns the action; :meth:`Bot.new_game` is called before each
game (with the game's seed, for the bots that use chance). :func:`make` reads
a name with its parameters:

==================  =====================================================================
``turn``            the `turn`-optimal policy (this turn's haul; stop and decline on ties)
``bank[:SECONDS]``  the `bank` policy (points that survive the opponents' next turns; exact
                    model for two players, approximate for three to five), compiled float
                    path with a work limit per solve (``SECONDS`` × 2.5 million points, 1 by
                    default); a decision past the limit is played by `turn`
``rule``            the printable rule of the study: the best simple rule and its steal rule
``threshold[:T]``   stop once the line is worth ``T`` (the study's best ``T`` if omitted)
``bust[:P]``        stop once the bust chance is ``P`` percent or more (the study's best)
``cards[:K]``       draw ``K`` cards, then stop (the study's best ``K``)
``random``          a random legal action
``hybrid``          two players: `bank` until the pile is small enough for `duel`, then `duel`
``win``             the `win` model (the chance to win, 2 to 5 players): each turn searched exactly,
                    its ends valued by the learned evaluator; exact in a game's last cards
``win:estimate``    the same search with the estimate everywhere, a game's last cards too (to
                    measure what the exact endgame adds)
==================  =====================================================================

The simple rules steal as the study found best for their family (data/rules.csv).

>>> from solver.game.rules import Game
>>> game = Game(2, seed=1)
>>> bots = [make("turn"), make("threshold:20")]
>>> for b in bots:
...     b.new_game(1)
>>> while not game.is_over:
...     _ = game.apply(bots[game.active](game))
>>> bots[1].name
'threshold:20'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.models.advice import Budget, Model, ModelError, SlowModel, beats
from solver.models.chances import CompiledSearch, Seats
from solver.models.evaluator import evaluator
from solver.models.bank import BankSolver
from solver.game.cards import VALUES, bump, counts
from solver.game.core import TurnState
from solver.models.duel import DUEL, MAX_PILE
from solver.utilities.numbers import FLOAT
from solver.game.position import PlayerView, Position
from solver.game.rules import Action, Busted, Collected, Game, Phase, Stopped
from solver.play.simulate import TurnPolicy, position_of
from solver.play.simple_rules import RULE_FAMILIES, Features, StealOffer, steal_rule
from solver.models.maxn import MaxnSolver
from solver.models.win import EXACT_PILES, WIN

__all__ = ["BOTS", "Bot", "EVALUATOR_POLICIES", "SharedEndgame", "make", "share_endgame"]

#: Where the study's rule table is (the repository's data/).
RULES_TABLE = Path(__file__).resolve().parents[2] / "data" / "rules.csv"


class Bot:
    """A player: ``bot(game)`` is its action at a decision of its seat."""

    name = "bot"

    def new_game(self, seed: int) -> None:
        """Called before each game (a bot that uses chance reseeds here, so games replay)."""

    def __call__(self, game: Game) -> Action:
        raise NotImplementedError


class Turn(Bot):
    """The `turn`-optimal policy."""

    name = "turn"

    def __init__(self) -> None:
        self.policy = TurnPolicy(FLOAT)

    def __call__(self, game: Game) -> Action:
        return self.policy(game)


class Bank(Bot):
    """The `bank` policy: one solver per turn, rooted at the turn's first decision.

    A solve past the work limit hands that decision to `turn`, and the next
    decision of the turn is tried again from a new root (deeper in a turn,
    fewer points are left to solve)."""

    def __init__(self, seconds: float = 1.0) -> None:
        self.name = "bank" if seconds == 1.0 else f"bank:{seconds:g}"
        self.seconds = seconds
        self.turn = TurnPolicy(FLOAT)
        self.solver: BankSolver | None = None
        self.decisions = 0  # decisions `bank` was asked about (not the forced first card, not R9's last steal)
        self.by_turn = 0  # of those, decided by `turn` because `bank` was past its work limit

    def new_game(self, seed: int) -> None:
        self.solver = None

    def __call__(self, game: Game) -> Action:
        if game.phase is Phase.MUST_DRAW:
            self.solver = None  # a new turn: a new root at its first decision
            return Action.DRAW
        if not game.pile:  # R9: the last card's steal only adds to a line about to be banked
            return Action.STEAL
        self.decisions += 1
        try:
            return self._bank(game)
        except (SlowModel, ModelError):
            self.by_turn += 1
            self.solver = None
            return self.turn(game)

    def _bank(self, game: Game) -> Action:
        line = counts(game.active_player.line)
        reach = tuple(game.stealable(v) for v in VALUES)
        pile = game.pile_counts()
        if game.phase is Phase.STEAL:
            v = game.offer
            assert v is not None
            before = TurnState.start(bump(pile, v - 1, 1), bump(line, v - 1, -1), reach)
            solver = self._solver(game, before)
            kept = before.drawn(v)
            take, decline = solver.best_value(kept.stolen(v)), solver.best_value(kept)
            return Action.STEAL if beats(take, decline) else Action.DECLINE
        point = TurnState.start(pile, line, reach)
        solver = self._solver(game, point)
        return Action.DRAW if beats(solver.draw_value(point), solver.stop_value(point)) else Action.STOP

    def _solver(self, game: Game, point: TurnState) -> BankSolver:
        if self.solver is not None:
            try:
                self.solver._checked(point)
                return self.solver
            except ValueError:
                pass
        position = position_of(game)
        if game.phase is Phase.STEAL:  # root the turn before the offered card joined the line
            seat = position.players[game.active]
            line = list(seat.line)
            line.remove(game.offer)  # type: ignore[arg-type]
            players = list(position.players)
            players[game.active] = PlayerView(tuple(line), seat.loot, seat.lost_turns)
            position = Position.build(players, game.active, position.discard, match=position.match)
        self.solver = BankSolver(position, FLOAT, Budget(self.seconds))
        self.solver._checked(point)
        return self.solver


class Endgame(Bot):
    """Two players: `bank` until the pile is down to ``pile`` cards, then an endgame model (`duel` for
    ``hybrid``, `win` for ``win``) for every choice."""

    def __init__(self, name: str, model: Model, pile: int) -> None:
        self.name, self.model, self.pile = name, model, pile
        self.bank = Bank()

    def new_game(self, seed: int) -> None:
        self.bank.new_game(seed)

    def __call__(self, game: Game) -> Action:
        if game.num_players != 2:
            raise ValueError(f"{self.name} is a two-player policy ({self.model.name} plays the last cards)")
        if len(game.pile) > self.pile or game.phase is Phase.MUST_DRAW or not game.pile:
            return self.bank(game)
        if self.model.name == "win" and game.match is not None and not game.match.last_round:
            return self.bank(game)  # R15: before the last round, the rounds to come decide the match too
        advice = self.model.advise(position_of(game), FLOAT)
        if game.phase is Phase.STEAL:
            assert advice.steal is not None
            return advice.steal.action
        return advice.action


class SharedEndgame:
    """The exact search of a game's last cards (three to five players) that its `win` seats share: a max-n
    state's values are every seat's, so one memo answers them all, at a fifth of the work and memory of five."""

    def __init__(self) -> None:
        self.solver: MaxnSolver | None = None


def share_endgame(bots: Iterable[Bot]) -> None:
    """Give the `win` seats among one game's ``bots`` the same exact endgame search: the first one's, so that
    a seat joining a game part-way (a page reloaded) takes on what the others have searched."""
    shared: SharedEndgame | None = None
    for bot in bots:
        if isinstance(bot, WinBot):
            shared = shared or bot.endgame
            bot.endgame = shared


class WinBot(Bot):
    """The `win` policy: one search per turn, rooted at the turn's first decision (its memo answers the rest of
    the turn); a game's last cards by the exact `win` (:meth:`solver.models.win.WinModel.advise`; with three to
    five players one max-n search a game, its memo answering every later decision) unless ``exact`` is False
    (``win:estimate``: the estimate everywhere)."""

    def __init__(self, exact: bool = True) -> None:
        self.name = "win" if exact else "win:estimate"
        self.use_exact = exact
        self.search: CompiledSearch | None = None
        # The evaluator's folder: None for the one the model reads (HIT_WIN_WEIGHTS's, else the shipped);
        # self-play training plays earlier rounds' weights.
        self.weights: Path | None = None
        # Three to five players' exact search, once a game's end is near (its own, or one the game's other
        # `win` seats share: share_endgame).
        self.endgame = SharedEndgame()
        self.decisions = 0  # decisions the estimate made
        self.exact = 0  # decisions the exact `win` made

    def new_game(self, seed: int) -> None:
        self.search = None
        self.endgame.solver = None

    def __call__(self, game: Game) -> Action:
        if game.phase is Phase.MUST_DRAW:
            self.search = None
            return Action.DRAW
        if not game.pile:  # R9: the last card's steal only adds to a line about to be banked
            self.endgame.solver = None  # the game is over: the endgame's memo is no longer needed
            return Action.STEAL
        position = position_of(game)
        if self.use_exact and WIN.exact_answers(position):
            if len(game.players) > 2:  # one max-n search answers every decision to the game's end
                if self.endgame.solver is None:
                    self.endgame.solver = MaxnSolver(len(game.players), EXACT_PILES[len(game.players)])
                advice = WIN.exact(position, FLOAT, solver=self.endgame.solver)
            else:
                advice = WIN.advise(position, FLOAT)
            if advice.approximation is None:
                self.exact += 1
                return advice.steal.action if game.phase is Phase.STEAL and advice.steal else advice.action
        self.decisions += 1
        point = position.turn_state()
        search = self.search
        if search is not None:
            try:
                return self.choose(search, game, point)
            except ValueError:
                pass  # not a state of the searched turn: search again from here
        search = self.search = CompiledSearch(Seats.of(position), evaluator(self.weights), position.pile())
        return self.choose(search, game, point)

    @staticmethod
    def choose(search: CompiledSearch, game: Game, point: TurnState) -> Action:
        """The action at ``point`` (the game's state of its active turn) by ``search`` (decline, stop on ties)."""
        if game.phase is Phase.STEAL:
            v = game.offer
            assert v is not None
            take, decline = search.best_value(point.stolen(v)), search.best_value(point)
            return Action.STEAL if beats(take, decline) else Action.DECLINE
        return Action.DRAW if search.should_draw(point) else Action.STOP


class RandomBot(Bot):
    """A random legal action (reseeded per game, so a tournament replays)."""

    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def new_game(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


class SimpleRule(Bot):
    """A rule of the study: stop/draw from what a player sees, steals by a points threshold."""

    def __init__(self, name: str, rule: Callable[[Features], bool], steal_points: int) -> None:
        self.name = name
        self.rule = rule
        self.steal = steal_rule(steal_points)

    def __call__(self, game: Game) -> Action:
        line = game.active_player.line
        if game.phase is Phase.MUST_DRAW:
            return Action.DRAW
        if game.phase is Phase.STEAL:
            offer = StealOffer(len(line), (game.offer or 0) * game.stealable(game.offer or 0))
            return Action.STEAL if not game.pile or self.steal(offer) else Action.DECLINE
        point = TurnState.start(game.pile_counts(), counts(line), tuple(game.stealable(v) for v in VALUES))
        draws = point.draws()
        gain = sum(d.cards * ((d.took or d.kept).line_value - point.line_value) for d in draws if d.kept)
        seen = Features(point.line_value, point.line_size, _drawn(game), point.pile_size, point.bust_cards, gain)
        return Action.DRAW if self.rule(seen) else Action.STOP


def _drawn(game: Game) -> int:
    """Cards the active player has drawn this turn (from the log back to its turn's start)."""
    drawn = 0
    for event in reversed(game.log):
        player = getattr(event, "player", None)
        if player != game.active or isinstance(event, (Stopped, Busted)):
            break
        if isinstance(event, Collected):
            continue
        drawn += type(event).__name__ == "Drew"
    return drawn


# -- names ---------------------------------------------------------------------------------
_FAMILY = {"threshold": "line value", "bust": "bust chance", "cards": "cards drawn"}


def study_rows() -> dict[str, tuple[Any, ...]]:
    """The study's best parameters per rule family (the last one is the steal threshold), and ``"rule"``: the best
    family's, from the rules table in data/."""
    import csv

    try:
        with RULES_TABLE.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise ValueError(f"the study's rules table cannot be read ({e.strerror}): build it with "
                         f"python -m solver tables build") from None
    import json

    out: dict[str, tuple[Any, ...]] = {}
    for row in rows:
        params = tuple(_number(p) for p in json.loads(row["parameters"]))
        out[row["rule"]] = params
        out.setdefault("rule", (row["rule"], *params))  # the table is best first
    return out


def _number(text: str) -> int | Fraction:
    x = Fraction(text)
    return int(x) if x.denominator == 1 else x


def _family_bot(spec: str, family: str, param: Any | None) -> Bot:
    rows = study_rows()
    fam = next(f for f in RULE_FAMILIES if f.name == family)
    best = rows[family]
    params = best[:-1] if param is None else (param,)
    return SimpleRule(spec, fam.rule(*params), int(best[-1]))


def make(spec: str) -> Bot:
    """The bot a name (with its parameters) stands for; a clear :class:`ValueError` for any other name.

    >>> make("threshold:25").name, make("bust:26").name
    ('threshold:25', 'bust:26')
    >>> make("thresold:25")
    Traceback (most recent call last):
    ...
    ValueError: unknown policy 'thresold:25'; the policies are: turn, bank[:SECONDS], rule, threshold[:T], bust[:P], cards[:K], random, hybrid, win, win:estimate
    """
    name, colon, arg = spec.strip().partition(":")
    if colon and not arg:  # "win:" is no name: it would play as "win" under another name
        raise ValueError(f"unknown policy {spec[:40]!r}; the policies are: {', '.join(BOTS)}")
    if name == "turn" and not arg:
        return Turn()
    if name == "bank":
        seconds = _param(spec, arg, float, 0.001, 600.0) if arg else 1.0
        return Bank(seconds)
    if name == "random" and not arg:
        return RandomBot()
    if name == "hybrid" and not arg:
        return Endgame("hybrid", DUEL, MAX_PILE)
    if name == "win" and arg in ("", "estimate"):
        return WinBot(exact=not arg)
    if name == "rule" and not arg:
        family, *params = study_rows()["rule"]
        fam = next(f for f in RULE_FAMILIES if f.name == family)
        return SimpleRule("rule", fam.rule(*params[:-1]), int(params[-1]))
    if name in _FAMILY:
        param: Any = None
        if arg:
            if name == "bust":
                param = Fraction(_param(spec, arg, int, 1, 99), 100)
            else:
                param = _param(spec, arg, int, 1, 445 if name == "threshold" else 90)
        return _family_bot(spec.strip(), _FAMILY[name], param)
    raise ValueError(f"unknown policy {spec[:40]!r}; the policies are: {', '.join(BOTS)}")


def _param(spec: str, arg: str, kind: Callable[[str], Any], low: float, high: float) -> Any:
    try:
        x = kind(arg)
    except ValueError:
        x = None
    if x is None or not low <= x <= high:
        raise ValueError(f"policy {spec[:40]!r}: the parameter must be a {'whole ' if kind is int else ''}number "
                         f"from {low:g} to {high:g}, not {arg[:20]!r}")
    return x


#: The policies that play with the learned evaluator (their games depend on its weights).
EVALUATOR_POLICIES = frozenset({"win", "win:estimate"})

#: Every policy name, as :func:`make` reads it.
BOTS = ("turn", "bank[:SECONDS]", "rule", "threshold[:T]", "bust[:P]", "cards[:K]", "random", "hybrid", "win",
        "win:estimate")
