"""The rules of one turn, written once: every model runs over this module.

A :class:`TurnState` is where a turn stands between two draws: the pile,
the active player's face-up line, and the face-up cards every other player
holds (what a steal takes, R7). Its :meth:`~TurnState.draws` are the chance
children of drawing one card, one per value left in the pile: how many
cards of that value there are, whether it busts (R5, R6), the state it
leads to, and the state after taking the steal it offers (R7, R8). The
`turn`, `bank` and `duel` models, the study's decision graph, the next-card
table and the rules engine's bust test all read the rules from here; the
compiled kernels in :mod:`solver.models.kernel` are the one specialised copy,
checked against this module on random points.

>>> p = TurnState.start((1, 0, 0, 0, 2, 0, 0, 0, 0, 0), reach=counts([5, 5]))
>>> [(d.value, d.cards, d.busts, d.took is not None) for d in p.draws()]
[(1, 1, False, False), (5, 2, False, True)]
>>> five = p.draws()[1]
>>> five.kept.line_value, five.took.line_value, five.took.reach[4]
(5, 15, 0)
>>> five.took.busts_on(5), five.took.bust_cards
(True, 1)

Why a steal with three cards down is always worth taking in `turn`
------------------------------------------------------------------
After the draw the line holds three or more cards, the drawn value among
them. Taking the steal only adds more cards of that value: the line keeps
three or more cards and the set of values it holds is unchanged, so by R5
every future card busts it or not exactly as it would without the steal.
Any way of playing on therefore meets the same draws, the same busts and the
same stops either way, and at every stop (or at the end of the pile) the
line is worth the stolen points more. So in the `turn` model taking is never
worse: :attr:`Draw.free_steal` says when this holds, and `turn` (and the
`turn`-optimal policy that `bank` assumes for opponents) skips the decline
branch there. With fewer cards, declining can keep the line under the R5
threshold one draw longer, so both choices are solved. The argument is about
this turn's haul only: in `bank` and `duel` a bigger line changes what
opponents do, so those models solve both choices everywhere.

Why `turn` needs only a one-step look-ahead from three cards on
---------------------------------------------------------------
Below three cards the next card cannot bust (R5), so drawing once and then
stopping already beats stopping: `turn` always draws there. From three
cards on, let ``B`` be the pile cards that would bust the line, ``L`` its
points and ``G`` the points the safe cards would add, summed over the pile
(a steal is then free, so taken). Drawing once and stopping is worth
``((n - B) L + G) / n``, which beats stopping exactly when ``G > B L``.
After any safe card the line still holds three or more cards, ``L`` has
grown, ``B`` has not shrunk (the new value's remaining copies join it) and
``G`` has not grown (the new value's term leaves it; the rest stay). So
once ``G <= B L`` it stays so on every path: the stopping problem is
*monotone*, and for monotone problems with a finite horizon the one-step
look-ahead rule is optimal (Chow and Robbins 1961; Ferguson, *Optimal
Stopping and Applications*, ch. 5). :attr:`TurnState.lookahead_stops` is
that rule: `turn` (and the `turn`-optimal opponents of `bank`) stop there
without looking further, which is most of the turn's tree. The tests check
it against solvers that look at every state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from solver.game.cards import VALUES, Counts, counts, total_value

__all__ = [
    "BUST_THRESHOLD",
    "NO_CARDS",
    "Draw",
    "TurnState",
    "busts",
    "max_draws",
    "state_key",
    "steal_sources",
]

#: R5: the bust test applies once the line holds this many face-up cards.
BUST_THRESHOLD = 3

#: The empty count vector.
NO_CARDS: Counts = (0,) * 10


def busts(line_size: int, holds_value: bool) -> bool:
    """R5, the bust test, made before the new card joins the line.

    ``line_size`` is the number of face-up cards the player holds (drawn or
    stolen this turn), ``holds_value`` whether one of them has the new card's
    value. This is the only Python copy of the test.

    >>> busts(2, True), busts(3, True), busts(5, False)
    (False, True, False)
    """
    return holds_value and line_size >= BUST_THRESHOLD


def steal_sources(lines: Sequence[Sequence[int]], active: int, value: int) -> tuple[tuple[int, int], ...]:
    """R7: whom a steal of ``value`` takes from: (seat, cards) for every other seat holding it.

    A steal takes all of that value from every other player, or nothing.

    >>> steal_sources([[5, 1], [5, 5], [2], [5]], 0, 5)
    ((1, 2), (3, 1))
    """
    return tuple((seat, k) for seat, line in enumerate(lines)
                 if seat != active and (k := sum(1 for c in line if c == value)))


def max_draws(pile_size: int, line_size: int, line_values: int) -> int:
    """An upper bound on the cards a turn can still draw.

    Below the R5 threshold any card joins the line; from it on only a value
    not yet held does, so at most one card per value.

    >>> max_draws(90, 0, 0), max_draws(5, 0, 0), max_draws(40, 4, 3)
    (13, 5, 7)
    """
    return min(pile_size, max(0, BUST_THRESHOLD - line_size) + 10 - line_values)


# A state's key packs its pile and its reach as base-12 digits (a count is at
# most 11): one int, cheap to hash, and a draw moves it by a constant.
_PILE_DIGIT: tuple[int, ...] = tuple(int(12**i) for i in range(10))
_REACH_DIGIT: tuple[int, ...] = tuple(int(12 ** (10 + i)) for i in range(10))


def state_key(pile: Sequence[int], reach: Sequence[int]) -> int:
    """The key of a state with this pile and reach (see :attr:`TurnState.key`).

    >>> state_key((1,) + (0,) * 9, (0,) * 9 + (2,)) == 1 + 2 * 12**19
    True
    """
    return sum(int(c) * d for c, d in zip(pile, _PILE_DIGIT)) + sum(int(c) * d for c, d in zip(reach, _REACH_DIGIT))


class TurnState(NamedTuple):
    """A state of a turn between two draws (after any steal was decided).

    ``pile``, ``line`` and ``reach`` are count vectors (index ``v - 1`` for
    value ``v``): the pile, the active line, and the face-up cards of every
    other player together. The next fields are their sizes and the line's
    points, kept so a solver never recounts them, and ``key``: pile and reach
    packed into one int. Within one turn the pile only shrinks and a steal
    only empties a value of the reach, so the key pins a state of the turn
    down (the line follows from them): it is the memo key of every model.
    Build a state with :meth:`start` and move with :meth:`drawn`,
    :meth:`stolen` and :meth:`draws`; states are values, hashable and
    immutable.
    """

    pile: Counts
    line: Counts
    reach: Counts
    pile_size: int
    line_size: int
    line_value: int
    key: int

    @classmethod
    def start(cls, pile: Sequence[int], line: Sequence[int] = NO_CARDS, reach: Sequence[int] = NO_CARDS) -> TurnState:
        """A state from plain count vectors (any sequences of ten ints)."""
        pile, line, reach = tuple(pile), tuple(line), tuple(reach)
        if not len(pile) == len(line) == len(reach) == 10 or min(pile + line + reach) < 0 or max(pile + reach) > 11:
            raise ValueError("a turn state needs three count vectors of ten counts from 0 to 11")
        return cls(pile, line, reach, sum(pile), sum(line), total_value(line), state_key(pile, reach))

    # -- what a player sees -------------------------------------------------------
    def busts_on(self, value: int) -> bool:
        """R5: would a card of ``value`` lose the turn?"""
        return busts(self.line_size, self.line[value - 1] > 0)

    @property
    def bust_cards(self) -> int:
        """Pile cards that would lose the turn (R5; the R13 beginner figure's numerator)."""
        size = self.line_size
        return sum(c for c, held in zip(self.pile, self.line) if busts(size, held > 0))

    @property
    def lookahead_gain(self) -> int:
        """Points one more card adds, summed over the pile's safe cards (steals taken): ``G`` of the proof."""
        size = self.line_size
        return sum(c * v * (1 + k) for v, c, held, k in zip(VALUES, self.pile, self.line, self.reach)
                   if c and not busts(size, held > 0))

    @property
    def lookahead_stops(self) -> bool:
        """`turn` stops here, for sure: three or more cards down, and one more card gains no more than it risks.

        That is ``G <= B * line_value`` (``B`` the bust cards); see the
        module's proof that this one-step look-ahead is the optimal policy.

        >>> TurnState.start((1, 0, 0, 1, 0, 0, 0, 0, 0, 0), counts([1, 2, 3])).lookahead_stops  # G 4, B 1, line 6
        True
        >>> TurnState.start((1, 0, 0, 0, 0, 0, 0, 0, 0, 1), counts([1, 2, 3])).lookahead_stops  # G 10 > 1 * 6
        False
        """
        if not busts(self.line_size, True):
            return False  # below the threshold nothing busts: drawing always beats stopping
        risk = gain = 0  # one pass for B and G (a hot path: every opponent state asks)
        for v, c, held, k in zip(VALUES, self.pile, self.line, self.reach):
            if held:
                risk += c  # R5 applies to this line: a held value busts it
            elif c:
                gain += c * v * (1 + k)
        return gain <= risk * self.line_value

    @property
    def held_values(self) -> int:
        """How many different values the line holds."""
        return sum(1 for c in self.line if c)

    def stealable(self, value: int) -> int:
        """Face-up cards of ``value`` the other players hold (all taken by a steal, R7)."""
        return self.reach[value - 1]

    # -- moves ----------------------------------------------------------------------
    def drawn(self, value: int) -> TurnState:
        """The state after a card of ``value`` joins the line (no steal taken; the caller checked R5)."""
        i = value - 1
        pile, line = self.pile, self.line
        if not pile[i]:
            raise ValueError(f"no {value} is left in the pile")
        return TurnState(pile[:i] + (pile[i] - 1,) + pile[i + 1:], line[:i] + (line[i] + 1,) + line[i + 1:],
                         self.reach, self.pile_size - 1, self.line_size + 1, self.line_value + value,
                         self.key - _PILE_DIGIT[i])

    def stolen(self, value: int) -> TurnState:
        """R7: the state after taking every face-up ``value`` the others hold."""
        i = value - 1
        k, line, reach = self.reach[i], self.line, self.reach
        if not k:
            raise ValueError(f"no other player holds a {value}: there is no steal on offer")
        return TurnState(self.pile, line[:i] + (line[i] + k,) + line[i + 1:], reach[:i] + (0,) + reach[i + 1:],
                         self.pile_size, self.line_size + k, self.line_value + k * value,
                         self.key - k * _REACH_DIGIT[i])

    def draws(self) -> list[Draw]:
        """The chance children of drawing one card: one :class:`Draw` per value in the pile.

        Children are cheap: a :class:`Draw` says whether the card busts, what
        it offers to steal and the keys of the states it leads to, and builds
        those points only when asked, so a solver whose memo already holds a
        child never pays for it.
        """
        new = tuple.__new__  # the NamedTuple constructor without its Python-level wrapper: a hot loop
        line, reach, key = self.line, self.reach, self.key
        can_bust = busts(self.line_size, True)  # R5 applies to this line; then only held values bust
        free = self.line_size + 1 >= BUST_THRESHOLD
        out = []
        for i, c in enumerate(self.pile):
            if c:
                bust = can_bust and line[i] > 0
                k = 0 if bust else reach[i]  # R6: a busting card steals nothing
                kept_key = key - _PILE_DIGIT[i]
                out.append(new(Draw, (i + 1, c, self, bust, k, kept_key, kept_key - k * _REACH_DIGIT[i],
                                      free and k > 0)))
        return out


class Draw(NamedTuple):
    """One value the next card can have, from ``point``, and where it leads.

    ``cards``: how many cards of that value the pile holds. ``busts``: the
    card loses the turn (R5, R6). ``stealable``: the cards of that value in
    reach, which taking the steal adds (0 when none, or on a bust).
    ``kept`` is the state after the card joins the line with no steal taken
    (None on a bust), ``took`` the state after taking the steal (None when
    nothing is in reach); ``kept_key`` and ``took_key`` are their keys.
    ``free_steal``: the line holds three or more cards with this one, so
    taking cannot change any future bust test (see the module's proof).
    """

    value: int
    cards: int
    point: TurnState
    busts: bool
    stealable: int
    kept_key: int
    took_key: int
    free_steal: bool

    @property
    def pile(self) -> Counts:
        """The pile once this card has left it."""
        i, pile = self.value - 1, self.point.pile
        return pile[:i] + (pile[i] - 1,) + pile[i + 1:]

    @property
    def kept(self) -> TurnState | None:
        return None if self.busts else self.point.drawn(self.value)

    @property
    def took(self) -> TurnState | None:
        return self.point.drawn(self.value).stolen(self.value) if self.stealable else None
