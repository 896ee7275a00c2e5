"""The float paths against the exact ones on random small tables: ``python -m bench.float_paths``.

For each seed, table size (two and three players) and pile of 2 to 7 cards it
deals a table of its own (:func:`random_table`, the recipe the property tests
draw from, on a generator seeded by all three) and compares, at its position:

* `bank`: the compiled float path's best, stop and draw values and keep
  chances against the exact recursion's (``Fraction``), within 1e-9;
* `turn`: the float policy's choices (stop or draw, take or decline) at
  every state of the turn against the exact policy's, ties included (stop
  rather than draw, decline rather than steal: docs/MODELS.md).

It prints how many tables differ and the largest difference in a `bank`
value; ``docs/MODELS.md`` quotes the figures. The tables are fixed by their
seeds; a run of the default 3,000 seeds takes about 8 minutes on one core.

What it cannot see: with piles this small every value is a fraction over
at most 7!, so two values either tie exactly or differ by far more than the
tolerance; the opposite risk of the tolerance, a true difference under a
relative 1e-9 taken for a tie, could only come from large piles. And it
checks `bank`'s values at the table's position, not `bank`'s own choices
deeper in the turn.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Iterator, Sequence

from solver.game.cards import DECK_COPIES, cards_of, counts
from solver.game.core import TurnState
from solver.game.position import PlayerView, Position
from solver.models.bank import BankSolver
from solver.models.turn import TurnSolver
from solver.utilities.numbers import FLOAT

__all__ = ["compare", "random_table", "table", "tables", "turn_choices"]


def table(pile_cards: Sequence[int], lines: Sequence[Sequence[int]], active: int = 0,
          offer: int | None = None) -> Position:
    """A position whose pile is exactly ``pile_cards``, with these lines; all other cards are in seat 0's loot."""
    used = counts(list(pile_cards) + [c for line in lines for c in line])
    loot = cards_of(tuple(d - u for d, u in zip(DECK_COPIES, used)))
    players = [PlayerView(tuple(line)) for line in lines]
    players[0] = PlayerView(tuple(lines[0]), tuple(loot))
    return Position.build(players, active, (), offer)


def random_table(rng: random.Random, players: int, pile_size: int, max_line: int = 3) -> Position:
    """A shuffled deck's top ``pile_size`` cards as the pile and up to ``max_line`` cards in each line (seat 0's
    holds one at least: it is to play)."""
    deck = cards_of(DECK_COPIES)
    rng.shuffle(deck)
    pile, rest = deck[:pile_size], deck[pile_size:]
    lines = [rest[4 * k: 4 * k + rng.randint(0, max_line)] for k in range(players)]
    lines[0] = lines[0] or [rest[-1]]  # the active line holds a card
    return table(pile, lines)


def turn_choices(solver: TurnSolver, root: TurnState) -> list[bool | None]:
    """The policy's choices at every state of the turn from ``root``: stop or draw, then each steal on offer."""
    seen, todo = {root.key: root}, [root]
    while todo:
        for d in todo.pop().draws():
            for child in (d.kept, d.took):
                if child is not None and child.key not in seen:
                    seen[child.key] = child
                    todo.append(child)
    out: list[bool | None] = []
    for p in seen.values():
        out.append(solver.should_draw(p) if p.pile_size else None)
        out.extend(solver.takes(d) for d in p.draws() if d.took is not None)
    return out


def tables(seeds: Iterable[int], piles: Iterable[int] = range(2, 8)) -> Iterator[tuple[str, Position]]:
    """The sweep's tables: for each seed, two and three players and each pile size, a name and a table."""
    piles = list(piles)
    for seed in seeds:
        for players in (2, 3):
            for pile in piles:
                rng = random.Random(f"float-paths/{seed}/{players}/{pile}")
                yield f"seed {seed}, {players} players, {pile} cards", random_table(rng, players, pile)


def compare(position: Position) -> tuple[float, bool]:
    """The largest difference between a float `bank` value (or keep chance) and the exact one, and whether the
    float `turn` policy chooses as the exact one at every state of the turn."""
    exact, fast = BankSolver(position), BankSolver(position, FLOAT)
    pairs = [(fast.best_value(), exact.best_value()), (fast.stop_value(), exact.stop_value()),
             (fast.draw_value(), exact.draw_value()), *zip(fast.keep_chances(), exact.keep_chances())]
    worst = max(abs(float(a) - float(b)) for a, b in pairs)
    root = position.turn_state()
    same = turn_choices(TurnSolver(root, FLOAT), root) == turn_choices(TurnSolver(root), root)
    return worst, same


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.float_paths", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3000, help="seeds 0 to SEEDS - 1 (default 3000)")
    args = parser.parse_args(argv)
    count = bank_off = turn_off = 0
    worst = 0.0
    for name, pos in tables(range(args.seeds)):
        diff, same = compare(pos)
        count += 1
        off = diff > 1e-9  # keep chances are at most 1, values at most some 100 points
        bank_off += off
        turn_off += not same
        worst = max(worst, diff)
        if off or not same:
            print(f"{name}: bank off by {diff:.4g}{'' if same else ', turn chooses otherwise'}", flush=True)
    print(f"{count} tables: bank's float path off on {bank_off} (largest difference {worst:.3g}); "
          f"turn's float policy chooses otherwise on {turn_off}")


if __name__ == "__main__":
    main()
