"""The Hit! rules engine: a state machine for whole games and matches.

It follows ``shared/RULINGS.md`` ruling by ruling; comments name the ruling.
A :class:`Game` is one round. It is either *played* (cards come from its
shuffled pile, see :meth:`Game.apply`) or *steered* (a caller chooses each
drawn value, as a chance node, see :meth:`Game.chance_outcomes`). A
:class:`Match` strings rounds together (R15).

>>> game = Game(2, seed=7)
>>> game.phase is Phase.MUST_DRAW
True
>>> game.legal_actions()
[<Action.DRAW: 'draw'>]
>>> sum(p for _, p in game.chance_outcomes())
Fraction(1, 1)
>>> while not game.is_over:
...     game.apply(Action.STEAL if game.phase is Phase.STEAL else
...                Action.DRAW if len(game.active_player.line) < 3 else Action.STOP)
>>> sum(p.score for p in game.players) + sum(game.discard) == 445
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from .cards import DECK_COPIES, VALUES, counts, deck

__all__ = [
    "Action",
    "Busted",
    "Drew",
    "Ended",
    "Game",
    "IllegalActionError",
    "Match",
    "Phase",
    "Player",
    "Policy",
    "Stole",
    "Stopped",
]


class Action(str, Enum):
    """What the active player can do."""

    DRAW = "draw"
    STOP = "stop"
    STEAL = "steal"
    DECLINE = "decline"


class Phase(Enum):
    """Where the game stands."""

    MUST_DRAW = "must draw"  # start of a turn: at least one card (R4)
    STEAL = "steal"  # a card just drawn offers a steal (R7, R8)
    CHOOSE = "choose"  # draw again or stop (R4)
    OVER = "over"


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current state."""


@dataclass
class Player:
    """One seat: its face-up line, its loot and its lost-turn count."""

    line: list[int] = field(default_factory=list)
    loot: list[int] = field(default_factory=list)
    lost_turns: int = 0

    @property
    def score(self) -> int:
        """R11: the sum of the values in the loot."""
        return sum(self.loot)


# Frozen records of what happened, for logs, replays and user interfaces.
@dataclass(frozen=True)
class Drew:
    player: int
    value: int


@dataclass(frozen=True)
class Busted:
    player: int
    value: int
    lost: tuple[int, ...]


@dataclass(frozen=True)
class Stole:
    player: int
    value: int
    taken: int


@dataclass(frozen=True)
class Stopped:
    player: int
    line: tuple[int, ...]


@dataclass(frozen=True)
class Ended:
    scores: tuple[int, ...]


Event = Drew | Busted | Stole | Stopped | Ended
Policy = Callable[["Game"], Action]


class Game:
    """One round of Hit! for 2 to 5 players.

    ``pile`` (optional) fixes the pile: its *last* element is the top card.
    Without it the 90-card deck is shuffled with ``seed``. ``first`` is the
    starting seat; without it a random seat starts (R2).
    """

    def __init__(
        self,
        num_players: int,
        seed: int | None = None,
        *,
        first: int | None = None,
        pile: Sequence[int] | None = None,
        players: Sequence[Player] | None = None,
        discard: Sequence[int] = (),
    ) -> None:
        if not 2 <= num_players <= 5:  # R2
            raise ValueError(f"Hit! is for 2 to 5 players, not {num_players}")
        self.rng = random.Random(seed)
        if pile is None:
            pile = deck()
            self.rng.shuffle(pile)
        self.pile: list[int] = list(pile)
        self.players: list[Player] = (
            [Player() for _ in range(num_players)]
            if players is None
            else [Player(list(p.line), list(p.loot), p.lost_turns) for p in players]
        )
        if len(self.players) != num_players:
            raise ValueError(f"{len(self.players)} players given for a {num_players}-player game")
        self.discard: list[int] = list(discard)
        self.active: int = self.rng.randrange(num_players) if first is None else first
        if not 0 <= self.active < num_players:
            raise ValueError(f"first seat {first} is not a seat of {num_players} players")
        self.offer: int | None = None
        self.log: list[Event] = []
        self.phase = Phase.MUST_DRAW
        if not self.pile:
            self._end()
        else:
            self._collect()

    @classmethod
    def resume(
        cls,
        players: Sequence[Player],
        active: int,
        pile: Sequence[int],
        discard: Sequence[int] = (),
        offer: int | None = None,
        seed: int | None = None,
    ) -> Game:
        """A game picked up mid-turn: nothing is collected, the active player
        decides next (steal if ``offer`` stands, else draw or stop; must draw
        with an empty line)."""
        game = cls.__new__(cls)
        game.rng = random.Random(seed)
        game.pile = list(pile)
        game.players = [Player(list(p.line), list(p.loot), p.lost_turns) for p in players]
        game.discard = list(discard)
        game.active = active
        game.log = []
        game.offer = None
        if not game.pile and offer is None:
            game._end()
        elif offer is not None and game.stealable(offer):
            game.offer = offer
            game.phase = Phase.STEAL
        else:
            game.phase = Phase.CHOOSE if game.active_player.line else Phase.MUST_DRAW
            if not game.pile:
                game._end()
        return game

    # -- queries -----------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def active_player(self) -> Player:
        return self.players[self.active]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self) -> list[Action]:
        """The actions the active player may take now."""
        return {
            Phase.MUST_DRAW: [Action.DRAW],
            Phase.STEAL: [Action.STEAL, Action.DECLINE],
            Phase.CHOOSE: [Action.DRAW, Action.STOP],
            Phase.OVER: [],
        }[self.phase]

    def pile_counts(self) -> tuple[int, ...]:
        """R10: the pile's composition (its order stays secret)."""
        return counts(self.pile)

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """Each value the next card can have, with its exact probability.

        >>> Game(3, seed=1).chance_outcomes()[0]
        (1, Fraction(11, 90))
        """
        if self.phase not in (Phase.MUST_DRAW, Phase.CHOOSE):
            raise IllegalActionError(f"no card is drawn in phase {self.phase.value!r}")
        n = len(self.pile)
        return [(v, Fraction(c, n)) for v, c in zip(VALUES, self.pile_counts()) if c]

    def would_bust(self, value: int) -> bool:
        """R5: does a card of ``value`` lose the active player's turn?"""
        line = self.active_player.line
        return len(line) >= 3 and value in line

    def bust_chance(self) -> Fraction:
        """R13, beginner mode: the chance that the next card loses the turn."""
        line = self.active_player.line
        if len(line) < 3 or not self.pile or self.is_over:
            return Fraction(0)
        held = set(line)
        return Fraction(sum(1 for v in self.pile if v in held), len(self.pile))

    def stealable(self, value: int) -> int:
        """How many face-up cards of ``value`` the other players hold."""
        return sum(p.line.count(value) for i, p in enumerate(self.players) if i != self.active)

    def ranking(self) -> list[int]:
        """Seats from first to last place by R11 and R12."""
        return sorted(range(self.num_players), key=lambda i: _rank_key(self.players, i))

    def winner(self) -> int:
        """The seat that wins (R11, R12); the game must be over."""
        if not self.is_over:
            raise IllegalActionError("the game is not over: no winner yet")
        return self.ranking()[0]

    # -- actions -----------------------------------------------------------
    def apply(self, action: Action | str, value: int | None = None) -> None:
        """Take ``action`` for the active player.

        For :attr:`Action.DRAW`, ``value`` chooses the drawn value (a chance
        outcome); without it the top card of the shuffled pile is drawn.
        """
        action = Action(action)
        if value is not None and action is not Action.DRAW:
            raise IllegalActionError(f"a value ({value}) only goes with 'draw', not {action.value!r}")
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"{action.value!r} is not legal for seat {self.active} in phase "
                f"{self.phase.value!r}; legal: {[a.value for a in self.legal_actions()]}"
            )
        if action is Action.DRAW:
            self._draw(value)
        elif action is Action.STOP:
            self.log.append(Stopped(self.active, tuple(self.active_player.line)))
            self._next_turn()
        else:
            if action is Action.STEAL:
                self._steal()
            self.offer = None
            self.phase = Phase.CHOOSE
            if not self.pile:  # R9: the last card's steal resolved, now the end
                self._end()

    def timeout(self) -> None:
        """R14: the active player's time runs out."""
        if self.phase is Phase.MUST_DRAW:
            self._draw(None)
            if self.phase is Phase.STEAL:
                self.apply(Action.STEAL)
            if self.phase is Phase.CHOOSE:
                self.apply(Action.STOP)
        elif self.phase is Phase.STEAL:
            self.apply(Action.STEAL)
            if self.phase is Phase.CHOOSE:
                self.apply(Action.STOP)
        elif self.phase is Phase.CHOOSE:
            self.apply(Action.STOP)
        else:
            raise IllegalActionError("the game is over: nobody's time can run out")

    def play(self, policy: Policy) -> None:
        """Play to the end, asking ``policy`` for every decision."""
        while not self.is_over:
            self.apply(policy(self))

    # -- internals -----------------------------------------------------------
    def _collect(self) -> None:
        # R3: the line of the player whose turn starts goes to its loot.
        p = self.active_player
        p.loot.extend(p.line)
        p.line.clear()
        self.phase = Phase.MUST_DRAW

    def _draw(self, value: int | None) -> None:
        if value is None:
            card = self.pile.pop()
        else:
            if value not in self.pile:
                raise IllegalActionError(f"no card of value {value!r} is left in the pile")
            # Take the topmost card of that value; the rest keep their order.
            idx = len(self.pile) - 1 - self.pile[::-1].index(value)
            card = self.pile.pop(idx)
        self.log.append(Drew(self.active, card))
        p = self.active_player
        if self.would_bust(card):
            # R6: line and the card to the discard; it steals nothing.
            self.log.append(Busted(self.active, card, tuple(p.line)))
            self.discard.extend(p.line)
            self.discard.append(card)
            p.line.clear()
            p.lost_turns += 1
            if self.pile:
                self._next_turn()
            else:
                self._end()  # R9: R6 applies first
            return
        p.line.append(card)  # R7
        if self.stealable(card):
            self.offer = card
            self.phase = Phase.STEAL  # R8: decided before draw/stop; R9 too
        elif self.pile:
            self.phase = Phase.CHOOSE
        else:
            self._end()  # R9

    def _steal(self) -> None:
        value = self.offer
        assert value is not None
        taken = 0
        for i, other in enumerate(self.players):
            if i == self.active:
                continue
            k = other.line.count(value)
            if k:
                other.line[:] = [c for c in other.line if c != value]
                taken += k
        self.active_player.line.extend([value] * taken)
        self.log.append(Stole(self.active, value, taken))

    def _next_turn(self) -> None:
        self.offer = None
        self.active = (self.active + 1) % self.num_players
        self._collect()

    def _end(self) -> None:
        # R9: every player adds its face-up cards to its loot.
        for p in self.players:
            p.loot.extend(p.line)
            p.line.clear()
        self.offer = None
        self.phase = Phase.OVER
        self.log.append(Ended(tuple(p.score for p in self.players)))


def _rank_key(players: Sequence[Player], seat: int) -> tuple[int, int, int, int]:
    # R12: score, then most loot cards, then fewest lost turns, then lowest seat.
    p = players[seat]
    return (-p.score, -len(p.loot), p.lost_turns, seat)


@dataclass
class Match:
    """A whole match: one round, or the rounds variant of R15.

    >>> m = Match(3, rounds=2, seed=5)
    >>> m.play(lambda g: Action.STEAL if g.phase is Phase.STEAL else
    ...        Action.DRAW if len(g.active_player.line) < 2 else Action.STOP)
    >>> len(m.games), sum(m.totals()[i].score for i in range(3)) <= 2 * 445
    (2, True)
    """

    num_players: int
    rounds: int = 1
    seed: int | None = None
    variant: bool = False
    games: list[Game] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 2 <= self.num_players <= 5:
            raise ValueError(f"Hit! is for 2 to 5 players, not {self.num_players}")
        if self.rounds != 1 or self.variant:
            self.variant = True
            if not 2 <= self.rounds <= 7:  # R15
                raise ValueError(f"the rounds variant has 2 to 7 rounds, not {self.rounds}")
        self.rng = random.Random(self.seed)
        self.first = self.rng.randrange(self.num_players)  # R2

    @classmethod
    def variant_match(cls, num_players: int, rounds: int = 3, seed: int | None = None) -> Match:
        """R15: the rulebook's rounds variant (3 rounds unless told)."""
        return cls(num_players, rounds=rounds, seed=seed, variant=True)

    def new_round(self) -> Game:
        """Deal the next round: fresh shuffle, first seat one further (R15)."""
        if len(self.games) >= self.rounds:
            raise IllegalActionError(f"all {self.rounds} rounds have been played")
        first = (self.first + len(self.games)) % self.num_players
        game = Game(self.num_players, seed=self.rng.randrange(2**63), first=first)
        self.games.append(game)
        return game

    def play(self, policy: Policy) -> None:
        while len(self.games) < self.rounds:
            self.new_round().play(policy)

    def totals(self) -> list[Player]:
        """Per seat: all rounds' loot and lost turns added up (R15)."""
        out = [Player() for _ in range(self.num_players)]
        for g in self.games:
            for t, p in zip(out, g.players):
                t.loot.extend(p.loot)
                t.lost_turns += p.lost_turns
        return out

    def ranking(self) -> list[int]:
        totals = self.totals()
        return sorted(range(self.num_players), key=lambda i: _rank_key(totals, i))

    def winner(self) -> int:
        if len(self.games) < self.rounds or not self.games[-1].is_over:
            raise IllegalActionError("the match is not over: no winner yet")
        return self.ranking()[0]


# The deck really is R1's: keep the engine honest if the constant changes.
assert sum(DECK_COPIES) == 90
