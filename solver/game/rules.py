"""The Hit! rules engine: a state machine for whole games and matches.

It follows ``docs/RULES.md`` ruling by ruling; comments name the ruling.
The rules of one turn that every model shares (the R5 bust test, whom an R7
steal takes from) come from :mod:`solver.game.core`; this module does not restate
them. A :class:`Game` is one round. It is either *played* (cards come from
its shuffled pile, see :meth:`Game.apply`) or *steered* (a caller chooses
each drawn value, as a chance node, see :meth:`Game.chance_outcomes`). A
:class:`Match` strings rounds together (R15).

Every action has three faces, as in PokerKit: ``can_steal()`` answers yes or
no, ``verify_steal()`` raises :class:`IllegalActionError` with the reason,
and ``steal()`` (or ``apply(Action.STEAL)``) takes it and returns the frozen
records it logged. Everything that happens is logged in :attr:`Game.log`.

>>> game = Game.resume([Player([5, 1]), Player([5, 5])], 0, pile=[9, 5, 5])  # top card last
>>> game.can_steal(), game.can_draw(5), game.can_draw(7)
(False, True, False)
>>> game.draw(5)
(Drew(player=0, value=5),)
>>> game.verify_stop()
Traceback (most recent call last):
...
solver.game.rules.IllegalActionError: 'stop' is not legal for seat 0 in phase 'steal'; legal: ['steal', 'decline']
>>> game.steal()
(Stole(player=0, value=5, taken=2, sources=((1, 2),)),)
>>> game.draw()  # another 5 with five cards down: R5
(Drew(player=0, value=5), Busted(player=0, value=5, lost=(5, 1, 5, 5, 5)))
>>> game.draw()  # seat 1 draws the last card: R9
(Drew(player=1, value=9), Collected(player=1, cards=(9,)), Ended(scores=(0, 9)))

A whole played game:

>>> game = Game(2, seed=7)
>>> game.phase is Phase.MUST_DRAW, game.legal_actions()
(True, [<Action.DRAW: 'draw'>])
>>> sum(p for _, p in game.chance_outcomes())
Fraction(1, 1)
>>> while not game.is_over:
...     _ = game.apply(Action.STEAL if game.can_steal() else
...                    Action.DRAW if game.bust_chance() == 0 else Action.STOP)
>>> sum(p.score for p in game.players) + sum(game.discard) == 445
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from solver.game.cards import DECK_COPIES, VALUES, counts, deck
from solver.game.core import busts, steal_sources

__all__ = [
    "Action",
    "Busted",
    "Collected",
    "Declined",
    "Drew",
    "Ended",
    "Event",
    "Game",
    "IllegalActionError",
    "Match",
    "MatchSoFar",
    "Phase",
    "Player",
    "Policy",
    "Stole",
    "Stopped",
    "TimedOut",
    "Totals",
    "Word",
]


class Word(str, Enum):
    """An enum whose members print as the word they stand for (``str(Action.STOP)`` is ``'stop'``)."""

    def __str__(self) -> str:
        return str(self.value)


class Action(Word):
    """A choice of the active player: the one vocabulary of choices, for the rules engine, the models'
    advice, the bots, the review and the pages.

    Draw or stop (R4); take the steal on offer or decline it (R7). The records
    write these values (``steal``, docs/RECORDS.md). The advice's JSON and the
    study tables say ``take`` for :attr:`STEAL` (docs/CLI.md): that one mapping
    is :func:`solver.models.advice.choice_word`, at their edge.

    >>> str(Action.STEAL), Action("stop") is Action.STOP
    ('steal', True)
    """

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


@dataclass(frozen=True)
class Totals:
    """One seat's loot points, loot cards and lost turns, added up over rounds (R15)."""

    points: int = 0
    cards: int = 0
    lost_turns: int = 0


@dataclass(frozen=True)
class MatchSoFar:
    """Where a round of the rounds variant stands (R15): its number (from 1), how many rounds the match
    has, and each seat's totals of the rounds before it, which R12 adds to this round's to decide.

    >>> MatchSoFar(3, 3, (Totals(61, 15, 1), Totals(58, 16, 0))).last_round
    True
    """

    round: int
    rounds: int
    earlier: tuple[Totals, ...]

    @property
    def last_round(self) -> bool:
        return self.round == self.rounds


# Frozen records of what happened, for logs, replays and user interfaces.
@dataclass(frozen=True)
class Drew:
    """``player`` drew a card of ``value`` (R4; logged before its bust test)."""

    player: int
    value: int


@dataclass(frozen=True)
class Busted:
    """R5, R6: the card of ``value`` lost the turn; ``lost`` is the line discarded with it."""

    player: int
    value: int
    lost: tuple[int, ...]


@dataclass(frozen=True)
class Stole:
    """R7: ``player`` took every face-up ``value`` of the others: ``taken`` cards in all,
    ``sources`` says from whom as (seat, cards) pairs, seats in order."""

    player: int
    value: int
    taken: int
    sources: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Declined:
    """R7: ``player`` refused the steal of ``value`` on offer."""

    player: int
    value: int


@dataclass(frozen=True)
class Stopped:
    """R4: ``player`` ended its turn with ``line`` face up."""

    player: int
    line: tuple[int, ...]


@dataclass(frozen=True)
class Collected:
    """``cards`` moved from ``player``'s line to its loot.

    At the start of its turn (R3), and for every player when the game ends
    (R9, just before :class:`Ended`). Logged only when cards moved: an empty
    line gives no record.
    """

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class TimedOut:
    """R14: ``player`` ran out of time in ``phase``; what the timer then does follows it."""

    player: int
    phase: Phase


@dataclass(frozen=True)
class Ended:
    """R9: the game is over; ``scores`` per seat (R11)."""

    scores: tuple[int, ...]


Event = Drew | Busted | Stole | Declined | Stopped | Collected | TimedOut | Ended
Policy = Callable[["Game"], Action]

# R4 (at least one card, then draw or stop), R7 and R8 (a steal on offer is decided first), R9.
_LEGAL: dict[Phase, tuple[Action, ...]] = {
    Phase.MUST_DRAW: (Action.DRAW,),
    Phase.STEAL: (Action.STEAL, Action.DECLINE),
    Phase.CHOOSE: (Action.DRAW, Action.STOP),
    Phase.OVER: (),
}


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
        self.first = self.active  # R2: the seat that started (game records name it)
        self.offer: int | None = None
        self.log: list[Event] = []
        #: The match this round belongs to (R15), set by :meth:`Match.add_round`; None for a one-round game.
        self.match: MatchSoFar | None = None
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
        game.active = game.first = active
        game.log = []
        game.offer = None
        game.match = None
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
        return list(_LEGAL[self.phase])

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
        """R5 (the test of :func:`solver.game.core.busts`): does a card of ``value``
        lose the active player's turn?

        >>> game = Game.resume([Player([4, 4]), Player()], 0, pile=[7, 4])
        >>> game.would_bust(4)  # two cards: a third 4 joins them
        False
        >>> _ = game.draw(4)
        >>> game.would_bust(4), game.would_bust(7)
        (True, False)
        """
        line = self.active_player.line
        return busts(len(line), value in line)

    def bust_chance(self) -> Fraction:
        """R13, beginner mode: the chance that the next card loses the turn
        (0 once the game is over or the pile is empty)."""
        if self.is_over or not self.pile:
            return Fraction(0)
        line = self.active_player.line
        size, held = len(line), set(line)
        return Fraction(sum(1 for v in self.pile if busts(size, v in held)), len(self.pile))

    def stealable(self, value: int) -> int:
        """How many face-up cards of ``value`` the other players hold (R7)."""
        return sum(k for _, k in self._sources(value))

    def ranking(self) -> list[int]:
        """Seats from first to last place by R11 and R12."""
        return sorted(range(self.num_players), key=lambda i: _rank_key(self.players, i))

    def winner(self) -> int:
        """The seat that wins (R11, R12); the game must be over."""
        if not self.is_over:
            raise IllegalActionError("the game is not over: no winner yet")
        return self.ranking()[0]

    # -- can / verify: is an action legal now? -------------------------------
    def verify(self, action: Action | str, value: int | None = None) -> None:
        """Raise :class:`IllegalActionError`, with the reason, unless ``action``
        (with ``value`` for a chosen draw) is legal now.

        A string that names no action raises a plain :class:`ValueError`.

        >>> game = Game.resume([Player([2]), Player()], 0, pile=[1, 2])
        >>> game.verify(Action.DRAW, 9)
        Traceback (most recent call last):
        ...
        solver.game.rules.IllegalActionError: no card of value 9 is left in the pile; values left: [1, 2]
        """
        reason = self._refusal(Action(action), value)
        if reason is not None:
            raise IllegalActionError(reason)

    def can_apply(self, action: Action | str, value: int | None = None) -> bool:
        """Is ``action`` (with ``value`` for a chosen draw) legal now? See :meth:`verify`.

        >>> game = Game.resume([Player([2]), Player()], 0, pile=[1, 2])
        >>> game.can_apply("stop"), game.can_apply(Action.STEAL), game.can_apply(Action.DRAW, 3)
        (True, False, False)
        """
        return self._refusal(Action(action), value) is None

    def verify_draw(self, value: int | None = None) -> None:
        """Raise unless a draw (of ``value``, if chosen) is legal now (R4, R8)."""
        self.verify(Action.DRAW, value)

    def verify_stop(self) -> None:
        """Raise unless the turn may end now (R4: not before the first card; R8)."""
        self.verify(Action.STOP)

    def verify_steal(self) -> None:
        """Raise unless a steal is on offer (R7)."""
        self.verify(Action.STEAL)

    def verify_decline(self) -> None:
        """Raise unless a steal is on offer to refuse (R7)."""
        self.verify(Action.DECLINE)

    def can_draw(self, value: int | None = None) -> bool:
        """May the active player draw (a card of ``value``, if chosen) now?"""
        return self.can_apply(Action.DRAW, value)

    def can_stop(self) -> bool:
        """May the active player end its turn now?"""
        return self.can_apply(Action.STOP)

    def can_steal(self) -> bool:
        """Is a steal on offer now?"""
        return self.can_apply(Action.STEAL)

    def can_decline(self) -> bool:
        """Is a steal on offer to refuse now?"""
        return self.can_apply(Action.DECLINE)

    # -- actions -----------------------------------------------------------
    def apply(self, action: Action | str, value: int | None = None) -> tuple[Event, ...]:
        """Take ``action`` for the active player; return the records it logged, in order.

        For :attr:`Action.DRAW`, ``value`` chooses the drawn value (a chance
        outcome); without it the top card of the shuffled pile is drawn. The
        action is checked first (:meth:`verify`): an illegal one raises
        :class:`IllegalActionError` and changes nothing.
        """
        action = Action(action)
        self.verify(action, value)
        start = len(self.log)
        if action is Action.DRAW:
            self._draw(value)
        elif action is Action.STOP:
            self.log.append(Stopped(self.active, tuple(self.active_player.line)))
            self._next_turn()
        else:
            if action is Action.STEAL:
                self._steal()
            else:
                assert self.offer is not None
                self.log.append(Declined(self.active, self.offer))
            self.offer = None
            self.phase = Phase.CHOOSE  # R8: now draw again or stop
            if not self.pile:  # R9: the last card's steal resolved, now the end
                self._end()
        return tuple(self.log[start:])

    def draw(self, value: int | None = None) -> tuple[Event, ...]:
        """``apply(Action.DRAW, value)``: the top card, or a chosen ``value``."""
        return self.apply(Action.DRAW, value)

    def stop(self) -> tuple[Event, ...]:
        """``apply(Action.STOP)``."""
        return self.apply(Action.STOP)

    def steal(self) -> tuple[Event, ...]:
        """``apply(Action.STEAL)``."""
        return self.apply(Action.STEAL)

    def decline(self) -> tuple[Event, ...]:
        """``apply(Action.DECLINE)``."""
        return self.apply(Action.DECLINE)

    def timeout(self, value: int | None = None) -> tuple[Event, ...]:
        """R14: the active player's time runs out; return the records logged.

        :class:`TimedOut` comes first. Before the first draw of the turn one
        card is drawn for the player (``value`` chooses it, as in
        :meth:`apply`); the steal on offer is taken; the turn ends.

        >>> game = Game.resume([Player(), Player([2])], 0, pile=[5, 2])
        >>> [type(r).__name__ for r in game.timeout()]
        ['TimedOut', 'Drew', 'Stole', 'Stopped']
        """
        if self.is_over:
            raise IllegalActionError("the game is over: nobody's time can run out")
        if value is not None and self.phase is not Phase.MUST_DRAW:
            raise IllegalActionError(f"a value ({value}) only goes with a timeout before the first draw, "
                                     f"not in phase {self.phase.value!r}")
        if value is not None:
            self.verify(Action.DRAW, value)
        start = len(self.log)
        self.log.append(TimedOut(self.active, self.phase))
        if self.phase is Phase.MUST_DRAW:
            self.apply(Action.DRAW, value)  # R14: one card for it (R5-R7 apply)
        if self.phase is Phase.STEAL:
            self.apply(Action.STEAL)  # R14: the steal on offer is taken
        if self.phase is Phase.CHOOSE:
            self.apply(Action.STOP)  # R14: then the turn ends
        return tuple(self.log[start:])

    def play(self, policy: Policy) -> None:
        """Play to the end, asking ``policy`` for every decision."""
        while not self.is_over:
            self.apply(policy(self))

    # -- internals -----------------------------------------------------------
    def _refusal(self, action: Action, value: int | None) -> str | None:
        # Why ``action`` is illegal now, or None: the one check behind can_* and verify*.
        if value is not None and action is not Action.DRAW:
            return f"a value ({value}) only goes with 'draw', not {action.value!r}"
        legal = _LEGAL[self.phase]
        if action not in legal:
            return (f"{action.value!r} is not legal for seat {self.active} in phase "
                    f"{self.phase.value!r}; legal: {[a.value for a in legal]}")
        if value is not None and value not in self.pile:
            left = [v for v, c in zip(VALUES, self.pile_counts()) if c]
            return f"no card of value {value!r} is left in the pile; values left: {left}"
        return None

    def _sources(self, value: int) -> tuple[tuple[int, int], ...]:
        # R7: whom a steal of ``value`` takes from (the core's rule).
        return steal_sources([p.line for p in self.players], self.active, value)

    def _collect(self) -> None:
        # R3: the line of the player whose turn starts goes to its loot.
        p = self.active_player
        if p.line:
            self.log.append(Collected(self.active, tuple(p.line)))
            p.loot.extend(p.line)
            p.line.clear()
        self.phase = Phase.MUST_DRAW

    def _draw(self, value: int | None) -> None:
        if value is None:
            card = self.pile.pop()
        else:
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
        # R7: all of the offered value from every other player.
        value = self.offer
        assert value is not None
        sources = self._sources(value)
        for seat, _ in sources:
            other = self.players[seat]
            other.line[:] = [c for c in other.line if c != value]
        taken = sum(k for _, k in sources)
        self.active_player.line.extend([value] * taken)
        self.log.append(Stole(self.active, value, taken, sources))

    def _next_turn(self) -> None:
        self.offer = None
        self.active = (self.active + 1) % self.num_players
        self._collect()

    def _end(self) -> None:
        # R9: every player adds its face-up cards to its loot.
        for seat, p in enumerate(self.players):
            if p.line:
                self.log.append(Collected(seat, tuple(p.line)))
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
        return self.add_round(Game(self.num_players, seed=self.rng.randrange(2**63), first=first))

    def add_round(self, game: Game) -> Game:
        """Append ``game`` as the next round; in the rounds variant it learns the totals so far (R15),
        unless it already knows its match (a round joined under way from a position that names it)."""
        if self.games and not self.games[-1].is_over:
            raise IllegalActionError(f"round {len(self.games)} is not over; the next cannot start")
        if self.variant and game.match is None:
            earlier = tuple(Totals(p.score, len(p.loot), p.lost_turns) for p in self.totals())
            game.match = MatchSoFar(len(self.games) + 1, self.rounds, earlier)
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
