"""Does `win`'s plan for a turn beat `turn`'s? ``python -m bench.win_plans``.

A tournament says how often `win` wins; this says where its edge comes
from, turn by turn. Games are played between one `win` seat and `turn`
seats. At every turn start of the `win` seat (with two players, only those
with more than 10 cards left: the last ten are the exact endgame's, and
this measures the estimate), the game is played out ``--rollouts`` times on
the pile shuffled afresh, twice on each shuffle (common random numbers):
once with that turn played by `win`'s search, once by `turn`, and
everything after it by `turn` players. (With three to five players every
turn start is kept, the last cards' too, where `win` itself now answers
exactly: the figure is the estimate's, as published in docs/STRENGTH.md.)
The difference in how often the
seat wins is the chance its plan for that one turn gained over `turn`'s,
measured in the rules engine, not by the evaluator. Where the two plans
draw the same cards on a shuffle the two games are the same, so only the
shuffles on which the results differ move the figure.

The evaluator is trained on `turn` games (round 0 of ``python -m solver
train``, the shipped one): a plan that is best against a perfect evaluator
of those games gains at every turn on average (the policy-improvement
argument), so what a plan gains here is what the learned evaluator's
errors leave of that. Rows are grouped by the seat's standing at the turn
start (its loot and line points minus the best other seat's): the number of
turn starts, the mean gain, its standard error (turn starts of one game
taken together, as a cluster) and the share of shuffles whose results
differ. The last line sums the gains over the seat's turns, a game's worth.
The games and shuffles are fixed by ``--seed``; the turn starts are those
of the games `win` plays, so they move with its weights.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

import numpy as np

from solver.game.rules import Action, Game, Phase, Player
from solver.models.chances import CompiledSearch, Seats
from solver.models.evaluator import evaluator
from solver.play.policies import Turn, WinBot
from solver.play.simulate import position_of

#: The standings the rows are grouped by (points ahead of the best other seat), as half-open ranges.
STANDINGS = ((-999, -30), (-30, -10), (-10, 10), (10, 30), (30, 999))
#: With two players, turn starts with this many cards or fewer are left out (the exact endgame's).
EXACT_CARDS = 10


@dataclass(frozen=True)
class TurnGain:
    """One turn start of the tested seat: its standing, the cards left, the share of shuffles it won
    playing the turn by `win` and by `turn`, and the share on which the two results differ."""

    game: int
    pile: int
    standing: int
    by_win: float
    by_turn: float
    differ: float

    @property
    def gain(self) -> float:
        return self.by_win - self.by_turn


def _play_out(game: Game, seat: int, pile: list[int], turn: Turn, search: CompiledSearch | None) -> bool:
    """Whether ``seat`` wins the game resumed at its turn start on ``pile``: its turn by ``search`` (or
    `turn` when None), every later decision by `turn`."""
    g = Game.resume([Player(list(p.line), list(p.loot), p.lost_turns) for p in game.players], game.active,
                    pile, list(game.discard))
    while not g.is_over:
        if search is not None and g.active == seat and g.phase is not Phase.MUST_DRAW:
            if not g.pile:  # R9: the last card's steal only adds to a line about to be banked
                g.apply(Action.STEAL)
            else:
                g.apply(WinBot.choose(search, g, position_of(g).turn_state()))
            continue
        if g.active != seat:
            search = None  # the seat's turn is over
        g.apply(turn(g))
    return g.winner() == seat


def measure(game: Game, search: CompiledSearch, rollouts: int, rng: random.Random, turn: Turn) -> tuple[float, float, float]:
    """At a turn start of ``game``: the share of ``rollouts`` shuffles (drawn from ``rng``) the seat to play
    wins with its turn by ``search`` and by `turn`, and the share on which the two results differ."""
    seat = game.active
    by_win = by_turn = differ = 0
    for _ in range(rollouts):
        pile = list(game.pile)
        rng.shuffle(pile)
        w = _play_out(game, seat, pile, turn, search)
        t = _play_out(game, seat, pile, turn, None)
        by_win, by_turn, differ = by_win + w, by_turn + t, differ + (w != t)
    return by_win / rollouts, by_turn / rollouts, differ / rollouts


def turn_gains(players: int, games: int, rollouts: int, seed: int = 11, first: int = 0) -> list[TurnGain]:
    """The tested seat's turn starts of games ``first`` to ``first + games - 1`` (the seat rotates with the
    game's number), each measured on ``rollouts`` shuffles."""
    ev, turn = evaluator(), Turn()
    rows: list[TurnGain] = []
    least = EXACT_CARDS if players == 2 else 0
    for number in range(first, first + games):
        rng = random.Random(f"win-plans/{seed}/{players}/{number}")
        seat = number % players
        game = Game(players, seed=rng.randrange(2**31))
        win = WinBot()
        win.new_game(number)
        while not game.is_over:
            if game.active == seat and game.phase is Phase.MUST_DRAW and len(game.pile) > least:
                position = position_of(game)
                search = CompiledSearch(Seats.of(position), ev, position.pile())
                by_win, by_turn, differ = measure(game, search, rollouts, rng, turn)
                totals = [p.score + sum(p.line) for p in game.players]
                standing = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
                rows.append(TurnGain(number, len(game.pile), standing, by_win, by_turn, differ))
            game.apply((win if game.active == seat else turn)(game))
    return rows


def clustered(rows: list[TurnGain]) -> tuple[float, float]:
    """The mean gain per turn start and its standard error, the turn starts of one game taken as a cluster
    (they share the game's cards and standing, so they are not independent)."""
    gains = np.array([r.gain for r in rows])
    mean = float(gains.mean())
    games = sorted({r.game for r in rows})
    if len(games) < 2:
        return mean, float("nan")
    resid = np.array([sum(r.gain - mean for r in rows if r.game == g) for g in games])
    return mean, float(np.sqrt((resid ** 2).sum() * len(games) / (len(games) - 1)) / len(rows))


def table(rows: list[TurnGain]) -> list[str]:
    """The Markdown table of the gains, by standing and over all the turn starts."""
    out = ["| standing | turn starts | mean gain | standard error | results differ |", "| --- | --- | --- | --- | --- |"]
    groups = [(f"{lo:+d} to {hi:+d}" if abs(lo) < 999 and abs(hi) < 999 else
               (f"below {hi:+d}" if lo < -900 else f"{lo:+d} or more"), [r for r in rows if lo <= r.standing < hi])
              for lo, hi in STANDINGS] + [("all", rows)]
    for name, group in groups:
        if not group:
            continue
        mean, se = clustered(group)
        out.append(f"| {name} | {len(group)} | {mean:+.4f} | {se:.4f} | {np.mean([r.differ for r in group]):.3f} |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.win_plans", description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=3, choices=range(2, 6))
    ap.add_argument("--games", type=int, default=40, help="games, the tested seat rotating (default 40)")
    ap.add_argument("--rollouts", type=int, default=200, help="shuffles per turn start (default 200)")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    rows = turn_gains(args.players, args.games, args.rollouts, args.seed)
    print("\n".join(table(rows)))
    by_game = np.array([sum(r.gain for r in rows if r.game == g) for g in range(args.games)])
    se = by_game.std(ddof=1) / np.sqrt(args.games) if args.games > 1 else float("nan")
    print(f"\n{args.players} players, {args.games} games, {args.rollouts} shuffles per turn start: "
          f"{by_game.mean():+.4f} a game (standard error {se:.4f}), summed over the tested seat's turns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
