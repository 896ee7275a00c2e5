"""The ``win`` model: the chance to win the game, every player playing for it; exact in a game's last cards.

``docs/MODELS.md``: the value of a state is the probability that the player
to move wins the game, every player choosing every steal, draw and stop to
maximise its own chance. With two players (this module's exact search) that
is zero-sum: the opponent minimises ours; with three to five the exact
search is :mod:`solver.models.maxn`'s (max-n). The game
ends as R9 says; the winner is decided by R11, then R12: more loot cards,
then fewer lost turns, then the lower seat.

So unlike `duel` the loots are not sunk: a state is the pile, both lines and
the *standing* (:class:`Standing`: loot points, loot cards and lost turns,
the mover's minus the other's, and whether the mover has the lower seat).
The standing is clamped where it can no longer change the result (ahead by
more points than are left to move, the tie-breaks cannot matter), which
merges many points. Values at pile size ``n`` are kept multiplied by ``n!``
as in :mod:`solver.models.duel`, so every sum is integer arithmetic and the answer
one exact :class:`~fractions.Fraction`.

>>> from solver.game.position import Position
>>> from solver.game.cards import DECK_COPIES
>>> loots = [[10, 5], [10, 10, 5]]                      # seat 0 is 10 points behind
>>> gone = [v for v, n in zip(range(1, 11), DECK_COPIES) for _ in range(n)]
>>> for v in [9, 10] + loots[0] + loots[1]: gone.remove(v)
>>> pos = Position.from_dict({"players": [{"loot": loots[0]}, {"loot": loots[1]}], "active": 0,
...                           "discard": gone})        # the pile: a 9 and a 10
>>> WIN.advise(pos).draw       # draw both (no bust with two cards, R5): 15 + 19 against 25
Fraction(1, 1)
>>> gone.remove(5); gone.remove(5)
>>> pos = Position.from_dict({"players": [{"loot": loots[0]}, {"loot": loots[1] + [5, 5]}], "active": 0,
...                           "discard": gone})        # 20 behind: 34 against 35 at best
>>> WIN.advise(pos).draw
Fraction(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from solver.models.advice import Advice, Budget, ModelError, TooLarge, advice_at
from solver.game.cards import Counts, total_value
from solver.game.core import BUST_THRESHOLD, NO_CARDS, TurnState
from solver.models.duel import MAX_PILE, MAX_STATES, ExactEndgame
from solver.models.endgame import CHOICE, DRAW, STOP, WIN_MODE, EndgameSolver, clamped
from solver.models import maxn
from solver.models.maxn import ExactMaxn, MaxnSolver, table_at
from solver.utilities.numbers import EXACT, Context, Number
from solver.game.position import Position

__all__ = ["ESTIMATE", "EXACT_PILE", "EXACT_PILES", "MAX_PILE", "MAX_STATES", "WIN", "Standing", "WinModel", "WinSolver", "memo_key", "wins"]



class Standing(NamedTuple):
    """The loots as they decide the game (R11, R12), from the mover's side: its loot points, loot cards
    and lost turns minus the other's, and whether it has the lower seat (it wins a complete tie)."""

    points: int
    cards: int
    lost: int
    lower_seat: bool

    def handed_over(self, banked: Counts, lost: int = 0) -> Standing:
        """The standing from the other player's side once the turn passes to it: it banks ``banked``,
        its own line (R3), and the mover's lost turns went up by ``lost`` (R6)."""
        return Standing(total_value(banked) - self.points, sum(banked) - self.cards, -(self.lost + lost),
                        not self.lower_seat)


def wins(standing: Standing, mine: Counts, theirs: Counts) -> bool:
    """Whether the mover wins once both lines reach the loots (R9): R11, then R12.

    >>> wins(Standing(0, 0, 0, False), (1,) + (0,) * 9, (1,) + (0,) * 9)   # a complete tie: the lower seat
    False
    >>> wins(Standing(-1, 2, 0, False), (1,) + (0,) * 9, (0,) * 10)         # level on points, more cards
    True
    """
    points = standing.points + total_value(mine) - total_value(theirs)
    if points:
        return points > 0
    cards = standing.cards + sum(mine) - sum(theirs)
    if cards:
        return cards > 0
    if standing.lost:
        return standing.lost < 0
    return standing.lower_seat


def memo_key(pile: Counts, mover: Counts | None, other: Counts, s: Standing) -> tuple[int, ...]:
    """What a state's value depends on (as :func:`solver.models.duel._key`, with the cards of dead values
    counted too, for R12), and the standing clamped where it can no longer matter."""
    key = list(pile)
    for line in (other, mover):
        if line is None:
            key.append(-1)
            continue
        dead = dead_cards = 0
        for i, c in enumerate(pile):
            if c:
                key.append(line[i])
            else:
                dead += (i + 1) * line[i]
                dead_cards += line[i]
        key += (dead, dead_cards)
    if mover is not None:
        key.append(min(sum(mover), BUST_THRESHOLD))
    points, cards, lost, low = clamped(s, pile, mover or NO_CARDS, other)
    key += (points, cards, lost, int(low))
    return tuple(key)


class WinSolver(ExactEndgame):
    """Exact `win` values (scaled chances) of states of a two-player game, over the core's turn states.

    Its pile limit, time budget and memory bound are `duel`'s (the same exact machinery); its points carry
    the standing too."""

    name = "win"

    # All values below are chances scaled by fact[pile size] of the state they belong to.
    def start(self, pile: Counts, other: Counts, s: Standing) -> int:
        """Scaled chance at the mover's turn start (its own line already banked into ``s``)."""
        key = memo_key(pile, None, other, s)
        got = self._memo.get(key)
        if got is None:
            got = self.draw(TurnState.start(pile, NO_CARDS, other), s)
            self._memo[key] = got
            self._check()
        return got

    def choice(self, point: TurnState, s: Standing) -> int:
        """Scaled chance at a state where the mover may stop or draw (stop on a tie)."""
        if point.pile_size == 0:
            return int(wins(s, point.line, point.reach))  # R9: both lines reach the loots
        key = memo_key(point.pile, point.line, point.reach, s)
        got = self._memo.get(key)
        if got is None:
            got = max(self.stop(point, s), self.draw(point, s))
            self._memo[key] = got
            self._check()
        return got

    def stop(self, point: TurnState, s: Standing) -> int:
        """Scaled chance after stopping: the other banks its line (R3) and plays; we win when it does not."""
        n = point.pile_size
        return self.fact[n] - self.start(point.pile, point.line, s.handed_over(point.reach))

    def draw(self, point: TurnState, s: Standing) -> int:
        """Scaled chance after drawing one card; the steal on offer is the mover's choice (both solved)."""
        n = point.pile_size
        total = 0
        for d in point.draws():
            if d.busts:  # R6: the line is lost and a lost turn counted; R9 if that was the last card
                if n == 1:
                    value = int(wins(s._replace(lost=s.lost + 1), NO_CARDS, point.reach))
                else:
                    value = self.fact[n - 1] - self.start(d.pile, NO_CARDS, s.handed_over(point.reach, lost=1))
                total += d.cards * value
                continue
            kept = point.drawn(d.value)
            value = self.choice(kept, s)
            if d.stealable:  # R7
                value = max(value, self.choice(kept.stolen(d.value), s))
            total += d.cards * value
        return total


def standing(position: Position) -> Standing:
    """The active player's standing in a two-player position (its loot, cards, lost turns minus the other's),
    with the totals of the match's earlier rounds added in its last round (R15).

    >>> from solver.game.rules import MatchSoFar, Totals
    >>> pos = Position.from_dict({"players": [{"loot": [9]}, {"loot": [3, 3]}], "active": 0})
    >>> standing(pos)
    Standing(points=3, cards=-1, lost=0, lower_seat=True)
    >>> standing(Position.build(pos.players, 0, match=MatchSoFar(2, 2, (Totals(40, 9, 1), Totals(50, 12, 0)))))
    Standing(points=-7, cards=-4, lost=1, lower_seat=True)
    """
    seat, rival = position.active, 1 - position.active
    me, other = position.players[seat], position.players[rival]
    s = Standing(sum(me.loot) - sum(other.loot), len(me.loot) - len(other.loot),
                 me.lost_turns - other.lost_turns, seat == 0)
    match = position.match
    if match is None:
        return s
    if not match.last_round:
        raise TooLarge(f"win answers in the last round of a match (R15); this is round {match.round} of "
                       f"{match.rounds}, and the rounds still to come decide the match too")
    mine, theirs = match.earlier[seat], match.earlier[rival]
    return Standing(s.points + mine.points - theirs.points, s.cards + mine.cards - theirs.cards,
                    s.lost + mine.lost_turns - theirs.lost_turns, s.lower_seat)


#: The exact `win` answers positions with this many cards left or fewer (within its time limit), by the number of
#: players: with two, the zero-sum search above (its compiled copy :mod:`solver.models.endgame`); with three to
#: five, the max-n search of :mod:`solver.models.maxn`. Beyond them `win` is the estimate of
#: :mod:`solver.models.chances`. (docs/PERFORMANCE.md: what each costs.)
EXACT_PILES = {2: 10, 3: 8, 4: 7, 5: 7}
#: Two players' limit (the first exact `win`'s name for it).
EXACT_PILE = EXACT_PILES[2]
#: The seconds the exact `win` may take, when the caller has a time limit, before the estimate answers instead.
EXACT_SECONDS = 1.0

ESTIMATE = ("an estimate: this turn searched exactly over its chance events, each of its ends valued by the "
            "learned evaluator of the chance to win (data/win/evaluator.npz; its error: docs/MODELS.md)")


class WinModel:
    """The `win` model behind the common protocol (see :class:`solver.models.advice.Model`): exact in a game's
    last cards (:data:`EXACT_PILES`) where the endgame search answers, the estimate of
    :mod:`solver.models.chances` elsewhere."""

    name = "win"
    assumption = ("The chance to win the game (R11, then R12's tie-breaks), every player playing to win: exact "
                  "in a game's last cards, elsewhere an estimate (this turn searched exactly, its "
                  "ends valued by a learned evaluator).")
    quick_exact = False  # floats: the compiled kernels

    def exact_answers(self, position: Position) -> bool:
        """Whether the exact `win` is tried here: at most :data:`EXACT_PILES` cards left for the number of
        players, and the game (or the match's last round, R15) ending with this pile."""
        match = position.match
        return (position.pile_size() <= EXACT_PILES[len(position.players)]
                and (match is None or match.last_round))

    def approximation(self, position: Position) -> str | None:
        return None if self.exact_answers(position) else ESTIMATE

    def advise(self, position: Position, numbers: Context = EXACT, budget: Budget | None = None) -> Advice:
        if self.exact_answers(position):
            if budget is None:  # no time limit: the exact answer, however long it takes
                return self.exact(position, numbers)
            try:
                return self.exact(position, numbers, Budget(min(EXACT_SECONDS, budget.seconds)))
            except ModelError:
                pass  # past the page's time limit: the estimate answers, and says it is one
        return self.estimate(position)

    def estimate(self, position: Position) -> Advice:
        """The estimate for any position of 2 to 5 players (floats; its ``approximation`` says so)."""
        from solver.models.chances import CompiledSearch, Seats
        from solver.models.evaluator import evaluator
        from solver.utilities.numbers import FLOAT

        search = CompiledSearch(Seats.of(position), evaluator(), position.pile())
        return advice_at(self.name, position, FLOAT, search.best_value, search.stop_value, search.draw_value,
                         ESTIMATE)

    def exact(self, position: Position, numbers: Context = EXACT, budget: Budget | None = None,
              solver: MaxnSolver | None = None) -> Advice:
        """The exact `win` (:class:`TooLarge` or :class:`SlowModel` where it does not answer). With three to
        five players ``solver`` may be a :class:`~solver.models.maxn.MaxnSolver` of the same game, whose memo
        answers the rest of it (the float path)."""
        if len(position.players) > 2:
            return self._maxn(position, numbers, budget, solver)
        st = standing(position)
        if not numbers.exact:  # the compiled speed path, to larger piles
            e = EndgameSolver(WIN_MODE, position.pile(), st, budget=budget)
            return advice_at(self.name, position, numbers, lambda p: e.value(CHOICE, p.pile, p.line, p.reach),
                             lambda p: e.value(STOP, p.pile, p.line, p.reach),
                             lambda p: e.value(DRAW, p.pile, p.line, p.reach))
        s = WinSolver(position.pile(), budget=budget)
        return advice_at(self.name, position, numbers,
                         lambda p: s.value(s.choice(p, st), p, numbers),
                         lambda p: s.value(s.stop(p, st), p, numbers),
                         lambda p: s.value(s.draw(p, st), p, numbers))

    def _maxn(self, position: Position, numbers: Context, budget: Budget | None,
              solver: MaxnSolver | None) -> Advice:
        """Three to five players: the max-n search, every seat playing for its own chance to win."""
        match = position.match
        if match is not None and not match.last_round:
            raise TooLarge(f"win answers in the last round of a match (R15); this is round {match.round} of "
                           f"{match.rounds}, and the rounds still to come decide the match too")
        n, a = len(position.players), position.active
        if numbers.exact:
            x: ExactMaxn | MaxnSolver = ExactMaxn(n, budget)
        else:
            x = solver if solver is not None else MaxnSolver(n, position.pile_size(), budget)

        def chance(kind: int) -> Callable[[TurnState], Number]:
            def value(p: TurnState) -> Number:  # a position always has a card to draw (R9 ends the game first)
                got = x.chances(table_at(position, p), kind)[a]
                return got if numbers.exact else float(got)
            return value

        return advice_at(self.name, position, numbers, chance(maxn.BEST), chance(maxn.STOP), chance(maxn.DRAW))


WIN = WinModel()
