"""Plain reference implementations, written from docs/MODELS.md and docs/RULES.md with no speed tricks.

They are deliberately naive: the whole state is the memo key, every steal
is tried both ways, every probability is a Fraction. The fast paths in
``solver/`` are checked against them.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import permutations

Counts = tuple[int, ...]


@lru_cache(maxsize=None)
def turn_draw(pile: Counts, line: Counts, others: Counts) -> Fraction:
    """`turn` value of drawing one card from this state."""
    n = sum(pile)
    total = Fraction(0)
    for i, c in enumerate(pile):
        if c == 0:
            continue
        if sum(line) >= 3 and line[i] > 0:
            continue  # bust: 0
        p = Fraction(c, n)
        child_pile = pile[:i] + (c - 1,) + pile[i + 1:]
        child_line = line[:i] + (line[i] + 1,) + line[i + 1:]
        best = turn_state(child_pile, child_line, others)
        if others[i]:
            took_line = child_line[:i] + (child_line[i] + others[i],) + child_line[i + 1:]
            took_others = others[:i] + (0,) + others[i + 1:]
            best = max(best, turn_state(child_pile, took_line, took_others))
        total += p * best
    return total


@lru_cache(maxsize=None)
def turn_state(pile: Counts, line: Counts, others: Counts) -> Fraction:
    """`turn` value of a state where the player may stop or draw."""
    stop = Fraction(sum((i + 1) * c for i, c in enumerate(line)))
    if sum(pile) == 0:
        return stop
    draw = turn_draw(pile, line, others)
    return draw if sum(line) == 0 else max(stop, draw)


def distinct_orders(cards: list[int]):
    """Every distinct order of a small multiset of cards (each equally likely)."""
    return set(permutations(cards))


def _copy(game):
    import copy

    return copy.deepcopy(game)


def bank_reference(game, opponent_policy):
    """`bank` value for the active seat: its cards that reach its loot at the
    start of its next turn or the end of the game, the others playing
    ``opponent_policy`` (the turn-optimal policy), the seat playing optimally."""
    from solver.game.rules import Action, Phase

    seat = game.active
    base = game.players[seat].score

    def value(g):
        if g.is_over:
            return Fraction(g.players[seat].score - base)
        if g.active == seat and g.phase is Phase.MUST_DRAW and g is not root[0]:
            return Fraction(g.players[seat].score - base)  # its next turn: the line was banked
        if g.active != seat:
            g2 = _copy(g)
            action = opponent_policy(g2)
            if action is Action.DRAW:
                return draw(g2)
            g2.apply(action)
            return value(g2)
        best = None
        for action in g.legal_actions():
            if action is Action.DRAW:
                v = draw(g)
            else:
                g2 = _copy(g)
                g2.apply(action)
                v = value(g2)
            best = v if best is None else max(best, v)
        return best

    def draw(g):
        total = Fraction(0)
        for v, p in g.chance_outcomes():
            g2 = _copy(g)
            g2.apply(Action.DRAW, v)
            total += p * value(g2)
        return total

    root = [game]
    return value, draw


def _zero_sum_reference(game, outcome):
    """Expectimax of a two-player game from its active seat: that seat maximises, the other minimises, and
    ``outcome(g)`` values a finished game for it."""
    from solver.game.rules import Action

    seat = game.active

    def value(g):
        if g.is_over:
            return outcome(g)
        options = []
        for action in g.legal_actions():
            if action is Action.DRAW:
                total = Fraction(0)
                for v, p in g.chance_outcomes():
                    g2 = _copy(g)
                    g2.apply(Action.DRAW, v)
                    total += p * value(g2)
                options.append(total)
            else:
                g2 = _copy(g)
                g2.apply(action)
                options.append(value(g2))
        return max(options) if g.active == seat else min(options)

    return value


def duel_reference(game):
    """`duel` value for the active seat of a two-player game: final score
    difference of what is still to be banked, both players optimal."""
    seat = game.active
    base = game.players[seat].score - game.players[1 - seat].score
    return _zero_sum_reference(
        game, lambda g: Fraction(g.players[seat].score - g.players[1 - seat].score - base))


def win_reference(game):
    """`win` value for the active seat of a two-player game: the chance it wins (the rules engine's own
    R11/R12 ranking at the end), it maximising that chance, the other seat minimising it."""
    seat = game.active
    return _zero_sum_reference(game, lambda g: Fraction(int(g.winner() == seat)))


def _points(c: Counts) -> int:
    return sum((i + 1) * n for i, n in enumerate(c))


@lru_cache(maxsize=None)
def duel_start(pile: Counts, other: Counts) -> Fraction:
    """`duel` value for the mover at its turn start (line just banked, so empty), full state."""
    return duel_draw(pile, (0,) * 10, other)


@lru_cache(maxsize=None)
def duel_choice(pile: Counts, mover: Counts, other: Counts) -> Fraction:
    """`duel` value of a state where the mover may stop or draw: the whole state is the memo key."""
    if sum(pile) == 0:
        return Fraction(_points(mover) - _points(other))  # R9: both lines are banked
    stop = -(_points(other) + duel_start(pile, mover))  # R3: the other banks its line, then plays
    return max(stop, duel_draw(pile, mover, other))


def duel_draw(pile: Counts, mover: Counts, other: Counts) -> Fraction:
    n = sum(pile)
    total = Fraction(0)
    for i, c in enumerate(pile):
        if c == 0:
            continue
        child = pile[:i] + (c - 1,) + pile[i + 1:]
        if sum(mover) >= 3 and mover[i] > 0:  # R5, R6: the line is lost; the other banks and plays
            rest = Fraction(0) if n == 1 else duel_start(child, (0,) * 10)
            total += Fraction(c, n) * -(_points(other) + rest)
            continue
        drawn = mover[:i] + (mover[i] + 1,) + mover[i + 1:]
        best = duel_choice(child, drawn, other)
        if other[i]:  # R7: take all of them, or none
            took = drawn[:i] + (drawn[i] + other[i],) + drawn[i + 1:]
            best = max(best, duel_choice(child, took, other[:i] + (0,) + other[i + 1:]))
        total += Fraction(c, n) * best
    return total


def opponent_steal_chances(pile: Counts, reach: Counts) -> list[Fraction]:
    """Chance that an opponent's `turn`-optimal turn (from its start: empty line, it must draw) steals
    each value: exact, every state of its turn expanded (no look-ahead shortcut), the whole state the key."""
    zero = (Fraction(0),) * 10

    @lru_cache(maxsize=None)
    def point(p: Counts, line: Counts, avail: Counts) -> tuple[Fraction, tuple[Fraction, ...]]:
        stop = Fraction(_points(line))
        if sum(p) == 0:
            return stop, zero
        value, chances = draw(p, line, avail)
        return (value, chances) if value > stop else (stop, zero)  # stop on a tie

    @lru_cache(maxsize=None)
    def draw(p: Counts, line: Counts, avail: Counts) -> tuple[Fraction, tuple[Fraction, ...]]:
        n = sum(p)
        value, chances = Fraction(0), [Fraction(0)] * 10
        for i, c in enumerate(p):
            if c == 0 or (sum(line) >= 3 and line[i] > 0):
                continue  # no card, or a bust: worth 0, steals nothing
            child = p[:i] + (c - 1,) + p[i + 1:]
            drawn = line[:i] + (line[i] + 1,) + line[i + 1:]
            v, ch, took = *point(child, drawn, avail), False
            if avail[i]:
                tv, tch = point(child, drawn[:i] + (drawn[i] + avail[i],) + drawn[i + 1:],
                                avail[:i] + (0,) + avail[i + 1:])
                if tv > v:  # decline on a tie
                    v, ch, took = tv, tch, True
            value += Fraction(c, n) * v
            for j in range(10):
                chances[j] += Fraction(c, n) * (ch[j] + (1 if took and j == i else 0))
        return value, tuple(chances)

    return list(draw(tuple(pile), (0,) * 10, tuple(reach))[1])
