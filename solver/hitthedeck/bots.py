"""Players for the engine: a random bot, two simple bots and the advisor's bot, and the loop that plays them.

A :class:`Bot` is asked only when it has a choice: its seat is to play and
at least one card fits (a player who cannot play draws, and a drawn card
that fits is played at once, H5). What the table decides (who is last to
slap, a forgotten call, a false slap, H9) is decided by :func:`play_round`
at random from its own seeded generator.

=============  ==================================================================
``random``     a random legal card
``first``      the first card in its hand (the order it got them) that fits
``highest``    the legal card worth the most points (H12), the first of those
``advisor``    the advisor's recommended play (H14: least likely to be followed, then points)
``points``     the advisor's play for the points objective (H14: points, then least likely followed)
=============  ==================================================================

>>> game = play_game([make("advisor"), make("highest"), make("random", seed=1)], seed=5)
>>> game.is_over, len(game.winners()) >= 1, max(game.totals) >= 100
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .advice import Objective, advise
from .cards import Card, Kind
from .knowledge import Knowledge
from .rules import TARGET, Game, Phase, Round

__all__ = ["BOTS", "AdvisorBot", "Bot", "FirstBot", "HighestBot", "RandomBot", "last_to_slap", "make",
           "play_game", "play_round"]

#: A hand that has not ended after this many actions is stopped with an error, never left to spin.
MAX_ACTIONS = 100_000


class Bot:
    """Chooses a card when the seat to play has a choice (:meth:`choose` gets the round)."""

    name = "bot"

    def choose(self, round: Round) -> Card:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class RandomBot(Bot):
    """A uniformly random legal card (from its own seeded generator)."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, round: Round) -> Card:
        return self.rng.choice(round.legal_plays())


class FirstBot(Bot):
    """The first fitting card in the order the hand was dealt and drawn."""

    name = "first"

    def choose(self, round: Round) -> Card:
        return round.legal_plays()[0]


class HighestBot(Bot):
    """The fitting card worth the most points; among equals, the first in hand order."""

    name = "highest"

    def choose(self, round: Round) -> Card:
        plays = round.legal_plays()
        return max(plays, key=lambda c: (c.points, -plays.index(c)))


class AdvisorBot(Bot):
    """The advisor's recommendation from what its seat knows (H13, H14), for ``objective``."""

    def __init__(self, objective: Objective | str = Objective.FOLLOW) -> None:
        self.objective = Objective(objective)
        self.name = "advisor" if self.objective is Objective.FOLLOW else self.objective.value

    def choose(self, round: Round) -> Card:
        play = advise(Knowledge.of_round(round, round.turn), self.objective).play
        assert play is not None  # asked only when a card fits
        return play


#: The bots by name; each takes an optional seed (only ``random`` uses it).
BOTS: dict[str, Callable[[int | str | None], Bot]] = {
    "advisor": lambda seed: AdvisorBot(),
    "first": lambda seed: FirstBot(),
    "highest": lambda seed: HighestBot(),
    "points": lambda seed: AdvisorBot(Objective.POINTS),
    "random": RandomBot,
}


def make(name: str, seed: int | str | None = None) -> Bot:
    """The bot called ``name`` (one of :data:`BOTS`)."""
    if name not in BOTS:
        raise ValueError(f"no bot called {name[:30]!r}; the bots are {', '.join(BOTS)}")
    return BOTS[name](seed)


def last_to_slap(round: Round, rng: random.Random) -> int:
    """H9 for simulations: a uniformly random player other than the one who played the With a Hand card."""
    others = [s for s in range(round.players) if s != round.slapper]
    return rng.choice(others)


def play_round(round: Round, bots: Sequence[Bot], rng: random.Random, *, forget: float = 0.0,
               false_slaps: float = 0.0, check: Callable[[Round], None] | None = None) -> Round:
    """Play ``round`` to its end, seat ``s`` choosing with ``bots[s]``.

    ``forget``: the chance a With a Hand card's call is forgotten;
    ``false_slaps``: the chance, before each action, that a random player
    slaps falsely (both 0 by default). ``check`` is called after every
    action (tests check that no card is lost).
    """
    if len(bots) != round.players:
        raise ValueError(f"{len(bots)} bots for {round.players} players")
    for _ in range(MAX_ACTIONS):
        if round.is_over:
            return round
        if false_slaps and round.phase is not Phase.SLAP and rng.random() < false_slaps:
            round.false_slap(rng.randrange(round.players))
        elif round.phase is Phase.SLAP:
            round.slap(last_to_slap(round, rng))
        elif round.phase is Phase.DRAWN and round.drawn is not None:
            _play(round, round.drawn, rng, forget)
        elif round.legal_plays():
            _play(round, bots[round.turn].choose(round), rng, forget)
        else:
            round.draw()
        if check is not None:
            check(round)
    raise RuntimeError(f"the hand did not end within {MAX_ACTIONS:,} actions")


def _play(round: Round, card: Card, rng: random.Random, forget: float) -> None:
    called = not (forget and card.kind is Kind.HIT_HAND and rng.random() < forget)
    round.play(card, called)


def play_game(bots: Sequence[Bot], seed: int | str | None = None, *, dealer: int | None = None,
              target: int = TARGET, forget: float = 0.0, false_slaps: float = 0.0,
              check: Callable[[Round], None] | None = None) -> Game:
    """A whole game (hands until somebody reaches ``target``), seat ``s`` played by ``bots[s]``.

    The same ``seed`` deals the same hands (:class:`~solver.hitthedeck.rules.Game`); the table's
    chances (slaps) come from a generator seeded from it too.
    """
    game = Game(len(bots), seed, dealer=dealer, target=target)
    rng = random.Random(f"hitthedeck table/{seed}") if seed is not None else random.Random()
    while True:
        play_round(game.round, bots, rng, forget=forget, false_slaps=false_slaps, check=check)
        if game.is_over:
            return game
        game.next_round()
