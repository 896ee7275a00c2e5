"""Simulation: play positions and whole games in the rules engine.

Bridges :mod:`solver.game.rules` and :mod:`solver.game.position` (both ways), gives
the solver's optimal `turn` policy as a rules-engine policy, and samples
positions met in simulated games (for benchmarks, tests and tables).

>>> pos = sample_positions(3, seed=1)[0]
>>> 2 <= len(pos.players) <= 5 and pos.pile_size() > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from typing import Any

from solver.game.cards import VALUES, bump, cards_of, counts
from solver.game.core import BUST_THRESHOLD, TurnState
from solver.utilities.numbers import FLOAT, Context
from solver.game.position import PlayerView, Position
from solver.game.rules import Action, Busted, Game, Phase, Player, Policy, Stopped
from solver.models.turn import TurnSolver

__all__ = [
    "TurnPolicy",
    "game_from_position",
    "play_turn",
    "position_of",
    "sample_positions",
    "threshold_policy",
]


def position_of(game: Game) -> Position:
    """The public position of a game at a decision point (R10)."""
    players = tuple(PlayerView(tuple(p.line), tuple(p.loot), p.lost_turns) for p in game.players)
    offer = game.offer if game.phase is Phase.STEAL else None
    return Position.build(players, game.active, tuple(game.discard), offer, match=game.match)


def game_from_position(position: Position, seed: int | None = None) -> Game:
    """A game resumed at ``position`` with the pile shuffled (its order is secret)."""
    rng = random.Random(seed)
    pile = cards_of(position.pile())
    rng.shuffle(pile)
    players = [Player(list(p.line), list(p.loot), p.lost_turns) for p in position.players]
    game = Game.resume(players, position.active, pile, position.discard, position.offer, seed=rng.randrange(2**63))
    game.match = position.match  # R15: the match it is a round of, if any
    return game


class TurnPolicy:
    """The `turn`-optimal policy (stop on a tie, decline on a tie).

    One :class:`TurnSolver` serves a whole turn (or every play of a turn from
    ``root``); a new one is rooted when a decision is not a state of that turn.
    """

    def __init__(self, numbers: Context = FLOAT, root: Position | None = None) -> None:
        self.numbers = numbers
        self._solver: TurnSolver | None = None
        if root is not None:  # solve the whole turn from here once, for many plays
            self._solver = TurnSolver(root.turn_state(), numbers)

    def __call__(self, game: Game) -> Action:
        if game.phase is Phase.MUST_DRAW:
            return Action.DRAW
        if not game.pile:  # R9: the last card's steal only adds to a line about to be banked
            return Action.STEAL
        line = counts(game.active_player.line)
        reach = tuple(game.stealable(v) for v in VALUES)
        if game.phase is Phase.STEAL:
            assert game.offer is not None
            # The state before the card joined, and its draw of the offered value.
            v = game.offer
            before = TurnState.start(bump(game.pile_counts(), v - 1, 1), bump(line, v - 1, -1), reach)
            draw = next(d for d in before.draws() if d.value == v)
            return Action.STEAL if self._solver_for(before).takes(draw) else Action.DECLINE
        point = TurnState.start(game.pile_counts(), line, reach)
        return Action.DRAW if self._solver_for(point).should_draw(point) else Action.STOP

    def _solver_for(self, point: TurnState) -> TurnSolver:
        if self._solver is not None:
            try:
                self._solver._checked(point)
                return self._solver
            except ValueError:
                pass
        self._solver = TurnSolver(point, self.numbers)
        return self._solver


def threshold_policy(stop_at: int, steal_below: int = BUST_THRESHOLD) -> Policy:
    """A simple player: draw until the line is worth ``stop_at``; steal
    unless it would lift a line of fewer than ``steal_below`` cards to three or more."""

    def policy(game: Game) -> Action:
        line = game.active_player.line
        if game.phase is Phase.STEAL:
            grows_to = len(line) + game.stealable(game.offer or 0)
            safe = len(line) >= steal_below or grows_to < BUST_THRESHOLD
            return Action.STEAL if safe or sum(line) < stop_at // 2 else Action.DECLINE
        if game.phase is Phase.MUST_DRAW:
            return Action.DRAW
        return Action.DRAW if sum(line) < stop_at else Action.STOP

    return policy


def play_turn(game: Game, policy: Policy) -> int:
    """Play the active player's turn to its end; return its haul (the
    `turn` model's quantity: line at a stop or at the end of the pile, 0 on a bust)."""
    seat = game.active
    loot_before = game.players[seat].score
    seen = len(game.log)
    while not game.is_over:
        game.apply(policy(game))
        for event in game.log[seen:]:
            if isinstance(event, Stopped):
                return sum(event.line)
            if isinstance(event, Busted):
                return 0
        seen = len(game.log)
    return game.players[seat].score - loot_before  # R9: the line went to the loot


def sample_positions(count: int, seed: int = 0, players: tuple[int, ...] = (2, 3, 4, 5)) -> list[Position]:
    """Decision points met in simulated games of 2 to 5 players.

    Players follow threshold policies with random thresholds, so lines,
    loots, discards and steals of every kind come up.
    """
    rng = random.Random(seed)
    out: list[Position] = []
    for pos in _positions(rng, players):
        out.append(pos)
        if len(out) == count:
            break
    return out


def _positions(rng: random.Random, players: tuple[int, ...]) -> Iterator[Position]:
    while True:
        n = rng.choice(players)
        game = Game(n, seed=rng.randrange(2**63))
        policies = [threshold_policy(rng.randint(8, 35)) for _ in range(n)]
        while not game.is_over:
            # Keep one decision point in three, so that one game gives a spread.
            if game.phase is not Phase.MUST_DRAW and game.pile and rng.random() < 0.33:
                yield position_of(game)
            game.apply(policies[game.active](game))
