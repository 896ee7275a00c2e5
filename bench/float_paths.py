"""The float paths against the exact ones on random small tables: ``python -m bench.float_paths``.

For each seed, table size (two and three players) and pile of 2 to 7 cards it
deals a table of its own (:func:`random_table`, the recipe the property tests
draw from, on a generator seeded by all three) and compares, at its position:

* `bank`: the compiled float path's best, stop and draw values at every
  state of the turn from the table's position (the `bank` player keeps one
  solver a turn and asks it about each decision of the turn), and its keep
  chances at the table's position, against the exact recursion's
  (``Fraction``), within 1e-9; and its choices at every state (stop or
  draw, take or decline, compared as the player compares them) against the
  exact ones, ties included (stop rather than draw, decline rather than
  steal: docs/MODELS.md);
* `turn`: the float policy's choices at every state of the turn against the
  exact policy's, ties included.

It prints how many tables differ and the largest difference in a `bank`
value; ``docs/MODELS.md`` quotes the figures. The tables are fixed by their
seeds; ``docs/MODELS.md`` says how long a run of the default 3,000 takes.

What it cannot see: with piles this small every value is a fraction over
at most 7!, so two values either tie exactly or differ by far more than the
tolerance; the opposite risk of the tolerance, a true difference under a
relative 1e-9 taken for a tie, could only come from large piles.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from solver.game.cards import DECK_COPIES, cards_of, counts
from solver.game.core import TurnState
from solver.game.position import PlayerView, Position
from solver.models.advice import beats
from solver.models.bank import BankSolver
from solver.models.turn import TurnSolver
from solver.utilities.numbers import FLOAT, Number

__all__ = ["Compared", "bank_choices", "compare", "random_table", "states", "table", "tables", "turn_choices"]


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


def states(root: TurnState) -> list[TurnState]:
    """Every state of the turn from ``root`` (each once, in a fixed order): the cards drawn, and the steals
    taken or declined on the way."""
    seen, todo = {root.key: root}, [root]
    while todo:
        for d in todo.pop().draws():
            for child in (d.kept, d.took):
                if child is not None and child.key not in seen:
                    seen[child.key] = child
                    todo.append(child)
    return list(seen.values())


def turn_choices(solver: TurnSolver, root: TurnState) -> list[bool | None]:
    """The policy's choices at every state of the turn from ``root``: stop or draw, then each steal on offer."""
    out: list[bool | None] = []
    for p in states(root):
        out.append(solver.should_draw(p) if p.pile_size else None)
        out.extend(solver.takes(d) for d in p.draws() if d.took is not None)
    return out


def bank_choices(solver: BankSolver, root: TurnState) -> tuple[list[Number], list[bool | None]]:
    """`bank`'s values and choices at every state of the turn from ``root``, as the `bank` player asks its
    solver (:class:`solver.play.policies.Bank`): each state's best value, and its stop and draw values
    where it may do either, with draw or stop; then each steal on offer, take or decline."""
    values: list[Number] = []
    choices: list[bool | None] = []
    for p in states(root):
        values.append(solver.best_value(p))
        if p.pile_size and p.line_size:
            stop, draw = solver.stop_value(p), solver.draw_value(p)
            values += [stop, draw]
            choices.append(beats(draw, stop))
        else:
            choices.append(None)  # an empty line must draw; an empty pile has ended the game
        for d in p.draws():
            if d.took is not None and d.kept is not None:
                choices.append(beats(solver.best_value(d.took), solver.best_value(d.kept)))
    return values, choices


def tables(seeds: Iterable[int], piles: Iterable[int] = range(2, 8)) -> Iterator[tuple[str, Position]]:
    """The sweep's tables: for each seed, two and three players and each pile size, a name and a table."""
    piles = list(piles)
    for seed in seeds:
        for players in (2, 3):
            for pile in piles:
                rng = random.Random(f"float-paths/{seed}/{players}/{pile}")
                yield f"seed {seed}, {players} players, {pile} cards", random_table(rng, players, pile)


class Compared(NamedTuple):
    """One table's comparison (:func:`compare`)."""

    worst: float  #: the largest difference between a float `bank` value (or keep chance) and the exact one
    bank_same: bool  #: whether the float `bank` chooses as the exact one at every state of the turn
    turn_same: bool  #: whether the float `turn` policy chooses as the exact one at every state of the turn


def compare(position: Position) -> Compared:
    """The float paths against the exact ones at every state of the turn at ``position``."""
    exact, fast = BankSolver(position), BankSolver(position, FLOAT)
    root = position.turn_state()
    (fast_values, fast_choices), (exact_values, exact_choices) = bank_choices(fast, root), bank_choices(exact, root)
    pairs = [*zip(fast_values, exact_values), *zip(fast.keep_chances(), exact.keep_chances())]
    worst = max(abs(float(a) - float(b)) for a, b in pairs)
    same = turn_choices(TurnSolver(root, FLOAT), root) == turn_choices(TurnSolver(root), root)
    return Compared(worst, fast_choices == exact_choices, same)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.float_paths", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3000, help="seeds 0 to SEEDS - 1 (default 3000)")
    args = parser.parse_args(argv)
    count = bank_off = bank_chooses = turn_off = 0
    worst = 0.0
    for name, pos in tables(range(args.seeds)):
        c = compare(pos)
        count += 1
        off = c.worst > 1e-9  # keep chances are at most 1, values at most some 100 points
        bank_off += off
        bank_chooses += not c.bank_same
        turn_off += not c.turn_same
        worst = max(worst, c.worst)
        if off or not c.bank_same or not c.turn_same:
            print(f"{name}: bank off by {c.worst:.4g}{'' if c.bank_same else ', bank chooses otherwise'}"
                  f"{'' if c.turn_same else ', turn chooses otherwise'}", flush=True)
    print(f"{count} tables: bank's float values off on {bank_off} (largest difference {worst:.3g}), its choices "
          f"otherwise on {bank_chooses}; turn's float policy chooses otherwise on {turn_off}")


if __name__ == "__main__":
    main()
