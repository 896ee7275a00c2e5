"""How well the evaluator values the ends of turns `turn` would not choose: ``python -m bench.win_leaves``.

The `win` search asks the evaluator about every way its turn can end, also
about lines `turn` would never stop with. This measures its bias there. In
games between `turn` players, at random turn starts with more than 12 cards
left, the seat to play draws to a line of ``k`` cards (1 to 6; 0: as `turn`
would) and stops, or busts on the way; every other choice is `turn`'s. At the
next seat's turn start the evaluator's chance for that seat is compared with
how often it wins when the game is played out from there, by `turn` players,
on the pile shuffled afresh (``--rollouts`` times). Rows are grouped by ``k``
and by whether the line busted; a positive bias is a chance overvalued.
The sample and the rollouts are fixed by the seed, so two weight folders
(``HIT_WIN_WEIGHTS``) are compared on the same tables and the same rollouts.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

import numpy as np

from solver.game.rules import Action, Game, Phase, Player
from solver.models.evaluator import Table, evaluator
from solver.play.policies import Turn

#: The line sizes the exploring seat draws to (0: it plays as `turn`).
SIZES = (0, 1, 2, 3, 4, 5, 6)


def _phase(game: Game) -> Phase:
    """The game's phase read afresh (it moves with every action)."""
    return game.phase


def _table(game: Game) -> Table:
    return Table.of([p.loot for p in game.players], [p.line for p in game.players],
                    [p.lost_turns for p in game.players], game.active, game.pile_counts())


def _played_out(game: Game, seat: int, rollouts: int, rng: random.Random, turn: Turn) -> float:
    wins = 0
    for _ in range(rollouts):
        pile = list(game.pile)
        rng.shuffle(pile)
        g = Game.resume([Player(list(p.line), list(p.loot), p.lost_turns) for p in game.players], game.active,
                        pile, list(game.discard))
        while not g.is_over:
            g.apply(turn(g))
        wins += g.winner() == seat
    return wins / rollouts


def leaf_rows(players: int, samples: int, rollouts: int, seed: int = 7) -> list[tuple[int, bool, float, float]]:
    """``(k, busted, the evaluator's chance, the played-out share)`` for ``samples`` turn ends."""
    ev, turn = evaluator(), Turn()
    rng = random.Random(seed + players)
    rows: list[tuple[int, bool, float, float]] = []
    while len(rows) < samples:
        game = Game(players, seed=rng.randrange(2**31))
        while not game.is_over:
            if game.phase is Phase.MUST_DRAW and len(game.pile) > 12 and rng.random() < 0.08:
                seat, k, drawn = game.active, rng.choice(SIZES), 0
                while not game.is_over and game.active == seat:
                    if _phase(game) is Phase.CHOOSE and k and drawn >= k:
                        game.apply(Action.STOP)
                        break
                    action = turn(game)
                    if _phase(game) is Phase.CHOOSE and k:
                        action = Action.DRAW
                    if action is Action.DRAW or _phase(game) is Phase.MUST_DRAW:
                        drawn += 1
                    game.apply(action)
                if game.is_over:
                    break
                x = _table(game).features(ev.exposure(players))
                chance = float(ev.chances(x[None, :])[0][(seat - game.active) % players])
                rows.append((k, not game.players[seat].line, chance, _played_out(game, seat, rollouts, rng, turn)))
                break
            game.apply(turn(game))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.win_leaves", description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=5, choices=range(2, 6))
    ap.add_argument("--samples", type=int, default=150, help="turn ends (default 150)")
    ap.add_argument("--rollouts", type=int, default=200, help="games played out from each (default 200)")
    args = ap.parse_args(argv)
    groups: dict[tuple[int, bool], list[float]] = defaultdict(list)
    for k, busted, chance, share in leaf_rows(args.players, args.samples, args.rollouts):
        groups[(k, busted)].append(chance - share)
    print("| line drawn to | busted | turn ends | mean bias | its standard error |")
    print("| --- | --- | --- | --- | --- |")
    for (k, busted), d in sorted(groups.items()):
        a = np.array(d)
        se = a.std(ddof=1) / np.sqrt(len(a)) if len(a) > 1 else float("nan")
        print(f"| {k or 'as turn'} | {'yes' if busted else 'no'} | {len(a)} | {a.mean():+.3f} | {se:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
