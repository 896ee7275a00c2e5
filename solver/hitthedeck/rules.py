"""The Hit the Deck rules engine: one hand (:class:`Round`) and a game of hands to 100 (:class:`Game`).

It follows ``docs/HITTHEDECK.md`` ruling by ruling; comments name the
ruling. Piles are lists with their top card last. A :class:`Round` deals
seven cards each from a seeded shuffle (or from a given deck order), turns
up the first card (H3) and then takes one action at a time from its caller:

* :meth:`Round.play` a card (``called=False`` for a With a Hand card whose
  call was forgotten, H9), or :meth:`Round.draw` when no card fits (H5);
* :meth:`Round.slap` names who was last to slap a called With a Hand card
  (H9): the engine never decides that itself;
* :meth:`Round.false_slap`: a player slapped the pile with no With a Hand
  card to slap, at any moment between two actions (H9).

Each action has three faces, as in PokerKit: ``can_play()`` answers yes or
no, ``verify_play()`` raises :class:`IllegalPlayError` naming the card and
the state, and ``play()`` verifies, acts and returns the frozen records of
what happened (also appended to :attr:`Round.log`). Chance (shuffles, the
place of a cut, where a card is buried) comes from the round's seeded
:class:`random.Random`.

>>> from solver.hitthedeck.cards import parse_card as c, parse_cards as cs
>>> r = Round.resume([cs(["red 3", "blue 4"]), cs(["green 1", "green 2"])], draw_pile=cs(["yellow 5"]),
...                  discard=cs(["red 5"]), turn=0)
>>> r.legal_plays()
[Card.parse('red 3')]
>>> r.verify_play(c("blue 4"))
Traceback (most recent call last):
...
solver.hitthedeck.rules.IllegalPlayError: the blue 4 cannot be played on the red 5: it matches neither its colour nor its number (seat 0 to play)
>>> r.play(c("red 3"))
(Played(seat=0, card=Card.parse('red 3'), called=True),)
>>> r.draw()  # seat 1 has no red and no 3: draws the yellow 5, which does not fit either
(Drew(seat=1, card=Card.parse('yellow 5')), Passed(seat=1))
>>> r.play(c("blue 4"))
Traceback (most recent call last):
...
solver.hitthedeck.rules.IllegalPlayError: the blue 4 cannot be played on the red 3: it matches neither its colour nor its number (seat 0 to play)

A whole hand between two players who always play their first fitting card:

>>> r = Round(2, seed=3)
>>> while not r.is_over:
...     _ = r.apply(r.legal_actions()[0])
>>> r.card_count(), r.points[r.winner] if r.winner is not None else None
(110, 0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import COPIES, DECK_SIZE, Card, Kind, deck, format_cards
from .matching import Demand, demand_of, demand_text, fits

__all__ = [
    "FALSE_SLAP_CARDS",
    "HAND_SIZE",
    "SLAP_CARDS",
    "TARGET",
    "Action",
    "Buried",
    "CutDeck",
    "Draw",
    "Drew",
    "Ended",
    "Event",
    "FalseSlap",
    "Flipped",
    "Game",
    "IllegalPlayError",
    "Passed",
    "Penalty",
    "Phase",
    "Play",
    "Played",
    "Reshuffled",
    "Round",
    "Skipped",
    "Slap",
    "TurnedUp",
]

#: H2: cards dealt to each player.
HAND_SIZE = 7
#: H12: the game ends after the hand in which somebody's total reaches this.
TARGET = 100
#: H9: cards drawn by the last to slap and by a player who forgot the call; by a false slapper.
SLAP_CARDS = 4
FALSE_SLAP_CARDS = 2


class IllegalPlayError(ValueError):
    """An action the rules do not allow in the current state; the message names both."""


class Phase(Enum):
    """Where a hand stands."""

    PLAY = "play"  # the player to move plays a card, or draws if none fits (H5)
    DRAWN = "drawn"  # the card just drawn fits: it is played at once (H5)
    SLAP = "slap"  # a called With a Hand card: the caller of the engine says who was last (H9)
    OVER = "over"  # somebody went out, or the hand is blocked (H11)


# -- actions: what a caller asks the engine to do ------------------------------
@dataclass(frozen=True)
class Play:
    """Play ``card``; ``called`` is False when a With a Hand card's call is forgotten (H9)."""

    card: Card
    called: bool = True


@dataclass(frozen=True)
class Draw:
    """Draw one card: allowed only when no card in hand can be played (H5)."""


@dataclass(frozen=True)
class Slap:
    """H9: ``last`` was the last to put a hand on the called With a Hand card."""

    last: int


@dataclass(frozen=True)
class FalseSlap:
    """H9: ``seat`` slapped the pile when no With a Hand card was there to slap."""

    seat: int


Action = Play | Draw | Slap | FalseSlap


# -- events: frozen records of what happened, for logs and pages -----------------
@dataclass(frozen=True)
class TurnedUp:
    """``card`` was turned face up on the discard pile: the first card (H3) or after a Flip (H7)."""

    card: Card
    why: str


@dataclass(frozen=True)
class Buried:
    """``card`` went back into the draw pile at a random place (H3, H7)."""

    card: Card
    why: str


@dataclass(frozen=True)
class Played:
    """``seat`` played ``card`` (``called``: the call was made; it matters for a With a Hand card)."""

    seat: int
    card: Card
    called: bool


@dataclass(frozen=True)
class Drew:
    """``seat`` drew ``card`` because none of its cards could be played (H5)."""

    seat: int
    card: Card


@dataclass(frozen=True)
class Passed:
    """``seat``'s turn ended without a play (the card drawn did not fit, or nothing could be drawn)."""

    seat: int


@dataclass(frozen=True)
class CutDeck:
    """H6: ``seat`` cut the draw pile and turned up ``card`` (None: there was nothing to cut)."""

    seat: int
    card: Card | None


@dataclass(frozen=True)
class Skipped:
    """H3, H6: ``seat`` cut the deck and so lost its turn."""

    seat: int


@dataclass(frozen=True)
class Flipped:
    """H7: ``seat`` swapped the piles; play now goes in ``direction`` (+1 clockwise, -1 the other way)."""

    seat: int
    direction: int


@dataclass(frozen=True)
class Reshuffled:
    """H10: the discard pile but its top card, ``cards`` cards, became the new draw pile."""

    cards: int


@dataclass(frozen=True)
class Penalty:
    """H9: ``seat`` drew ``cards`` for ``reason`` ('last to slap', 'forgot the call', 'false slap')."""

    seat: int
    reason: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Ended:
    """H11, H12: the hand is over; ``winner`` went out (None: blocked); ``points`` per seat."""

    winner: int | None
    points: tuple[int, ...]


Event = TurnedUp | Buried | Played | Drew | Passed | CutDeck | Skipped | Flipped | Reshuffled | Penalty | Ended


def _check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"Hit the Deck is for 2 to 6 players, not {players!r}")


def _rng(seed: int | str | random.Random | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


class Round:
    """One hand of Hit the Deck for 2 to 6 players (seats 0 to n-1, numbered clockwise, H2).

    ``deck`` (all 110 cards, top card last) fixes the order of the cards;
    otherwise a fresh deck is shuffled with ``seed``. The player to the
    left of ``dealer`` plays first (H2), after the first card is turned up
    (H3).
    """

    def __init__(self, players: int, seed: int | str | random.Random | None = None, *, dealer: int = 0,
                 deck_order: Sequence[Card] | None = None) -> None:
        _check_players(players)
        if not 0 <= dealer < players:
            raise ValueError(f"dealer: seat {dealer} does not exist (seats are 0 to {players - 1})")
        self._rng = _rng(seed)
        if deck_order is None:
            cards = deck()
            self._rng.shuffle(cards)
        else:
            cards = list(deck_order)
            if Counter(cards) != Counter(COPIES) or len(cards) != DECK_SIZE:
                raise ValueError(f"deck_order: not the {DECK_SIZE}-card deck ({len(cards)} cards given)")
        self.players = players
        self.dealer = dealer
        self.direction = 1  # H2: clockwise, to the left
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._draw = cards
        self._discard: list[Card] = []
        self._seen: list[bool] = []  # per discard card: was it face up for all to see?
        self.log: list[Event] = []
        self.phase = Phase.PLAY
        self.winner: int | None = None
        self.points: tuple[int, ...] = ()
        self._drawn: Card | None = None
        self._slapper = -1
        self._idle = 0  # turns in a row with no play and nothing to draw (H11)
        first = (dealer + 1) % players
        for _ in range(HAND_SIZE):  # H2: one card at a time, clockwise from the dealer's left
            for k in range(players):
                self._hands[(first + k) % players].append(self._draw.pop())
        self.turn = first
        self._first_card()

    @classmethod
    def resume(cls, hands: Sequence[Sequence[Card]], draw_pile: Sequence[Card], discard: Sequence[Card],
               turn: int, *, direction: int = 1, dealer: int | None = None,
               seed: int | str | random.Random | None = None) -> Round:
        """A hand already under way: the cards as given (piles top card last), ``turn`` to play.

        The cards need not be all 110 (small tables for tests and examples),
        but no card may appear more often than in the deck, the discard pile
        may not be empty and every hand holds at least one card.
        """
        _check_players(len(hands))
        n = len(hands)
        if not 0 <= turn < n:
            raise ValueError(f"turn: seat {turn} does not exist (seats are 0 to {n - 1})")
        if direction not in (1, -1):
            raise ValueError(f"direction: {direction!r} is neither 1 (clockwise) nor -1")
        if not discard:
            raise ValueError("discard: the discard pile needs a top card")
        if not all(hands):
            raise ValueError("hands: a player with no cards has gone out; the hand would be over")
        held = Counter([c for h in hands for c in h] + list(draw_pile) + list(discard))
        for card, k in held.items():
            if k > COPIES[card]:
                raise ValueError(f"too many {card}: the deck has {COPIES[card]}, {k} are given")
        self = cls.__new__(cls)
        self._rng = _rng(seed)
        self.players = n
        self.dealer = (turn - direction) % n if dealer is None else dealer
        self.direction = direction
        self._hands = [list(h) for h in hands]
        self._draw = list(draw_pile)
        self._discard = list(discard)
        self._seen = [True] * len(discard)
        self.log = []
        self.phase = Phase.PLAY
        self.winner = None
        self.points = ()
        self._drawn = None
        self._slapper = -1
        self._idle = 0
        self.turn = turn
        return self

    # -- reading the table -------------------------------------------------------
    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self._discard[-1]

    @property
    def demand(self) -> Demand | None:
        """H8: the number or colour the next card must have, if a demand is in force."""
        return demand_of(self.top)

    @property
    def drawn(self) -> Card | None:
        """In :attr:`Phase.DRAWN`, the card just drawn that must now be played."""
        return self._drawn

    @property
    def slapper(self) -> int | None:
        """In :attr:`Phase.SLAP`, the seat that played the called With a Hand card."""
        return self._slapper if self.phase is Phase.SLAP else None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, in the order it got them."""
        return tuple(self._hands[seat])

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._hands)

    @property
    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, top card last (secret to the players)."""
        return tuple(self._draw)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, top card last."""
        return tuple(self._discard)

    def seen_discard(self) -> tuple[Card, ...]:
        """The cards under the top that everybody saw land there (played, cut or turned up).

        After a Flip the new discard pile is the old draw pile, face up
        but never seen (H7): only its top card is known. A reshuffle
        leaves only the top (H10).
        """
        return tuple(c for c, seen in zip(self._discard[:-1], self._seen[:-1]) if seen)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns after ``seat`` in the current direction."""
        return (seat + self.direction * steps) % self.players

    def card_count(self) -> int:
        """Cards in the hands and both piles: always the number the hand started with."""
        return len(self._draw) + len(self._discard) + sum(len(h) for h in self._hands)

    def all_cards(self) -> Counter[Card]:
        """Every card on the table, wherever it is (the deck, for a dealt hand)."""
        return Counter(self._draw + self._discard + [c for h in self._hands for c in h])

    def _where(self) -> str:
        if self.phase is Phase.OVER:
            return "the hand is over"
        if self.phase is Phase.SLAP:
            return f"seat {self._slapper}'s hit hand waits for the slap"
        return f"seat {self.turn} to play"

    # -- the three faces of each action -----------------------------------------
    def legal_plays(self) -> list[Card]:
        """The different cards the player to move may play now (each once, in hand order)."""
        if self.phase is Phase.DRAWN and self._drawn is not None:
            return [self._drawn]
        if self.phase is not Phase.PLAY:
            return []
        top = self.top
        return [c for c in dict.fromkeys(self._hands[self.turn]) if fits(c, top)]

    def legal_actions(self) -> list[Action]:
        """What the player to move (or, at a slap, the caller) may do; false slaps are always open."""
        if self.phase is Phase.SLAP:
            return [Slap(s) for s in range(self.players)]
        if self.phase is Phase.OVER:
            return []
        plays = self.legal_plays()
        return [Play(c) for c in plays] if plays else [Draw()]

    def verify_play(self, card: Card) -> None:
        """Raise :class:`IllegalPlayError` if the player to move may not play ``card`` now."""
        if self.phase in (Phase.OVER, Phase.SLAP):
            raise IllegalPlayError(f"cannot play the {card}: {self._where()}")
        seat = self.turn
        if card not in self._hands[seat]:
            raise IllegalPlayError(f"seat {seat} holds no {card} (its hand: "
                                   f"{', '.join(format_cards(self._hands[seat]))})")
        if self.phase is Phase.DRAWN and card != self._drawn:
            raise IllegalPlayError(f"seat {seat} must play the {self._drawn} it just drew, not the {card} (H5)")
        if not fits(card, self.top):
            d = self.demand
            why = f"{demand_text(d)} is demanded" if d is not None else "it matches neither its colour nor its number"
            raise IllegalPlayError(f"the {card} cannot be played on the {self.top}: {why} ({self._where()})")

    def can_play(self, card: Card) -> bool:
        try:
            self.verify_play(card)
        except IllegalPlayError:
            return False
        return True

    def play(self, card: Card, called: bool = True) -> tuple[Event, ...]:
        """The player to move plays ``card``; returns what happened."""
        self.verify_play(card)
        start = len(self.log)
        seat = self.turn
        self._hands[seat].remove(card)
        self._put(card)
        self._emit(Played(seat, card, called))
        self._drawn = None
        self._idle = 0
        self.phase = Phase.PLAY
        if not self._hands[seat]:  # H11: out at once; the card's instruction is not carried out
            self._end(seat)
        elif card.kind is Kind.CUT:  # H6
            cutter = self.next_seat(seat)
            self._cut(cutter)
            self._emit(Skipped(cutter))
            self.turn = self.next_seat(cutter)
        elif card.kind is Kind.FLIP:  # H7: the next player swaps the piles; the player plays again
            self._flip(self.next_seat(seat))
        elif card.kind is Kind.HIT_HAND:  # H9
            if called:
                self.phase, self._slapper = Phase.SLAP, seat
            else:
                self._penalty(seat, "forgot the call", SLAP_CARDS)
                self.turn = self.next_seat(seat)
        else:  # a number card; a demand (H8) is read from the top card
            self.turn = self.next_seat(seat)
        return tuple(self.log[start:])

    def verify_draw(self) -> None:
        """Raise :class:`IllegalPlayError` unless the player to move must draw (H5)."""
        if self.phase is not Phase.PLAY:
            raise IllegalPlayError(f"cannot draw: {self._where()}"
                                   + (f", who must play the {self._drawn} just drawn (H5)"
                                      if self.phase is Phase.DRAWN else ""))
        plays = self.legal_plays()
        if plays:
            raise IllegalPlayError(f"seat {self.turn} cannot draw: the {', '.join(format_cards(plays))} can be "
                                   f"played on the {self.top}, and a player who can play must (H5)")

    def can_draw(self) -> bool:
        try:
            self.verify_draw()
        except IllegalPlayError:
            return False
        return True

    def draw(self) -> tuple[Event, ...]:
        """H5: the player to move, who cannot play, draws one card; a card that fits must then be played."""
        self.verify_draw()
        start = len(self.log)
        seat = self.turn
        card = self._pop()
        if card is None:  # H10: nothing to draw, even after a reshuffle
            self._emit(Passed(seat))
            self._idle += 1
            if self._idle >= self.players:  # H11: a whole round of players stuck
                self._end(None)
            else:
                self.turn = self.next_seat(seat)
            return tuple(self.log[start:])
        self._hands[seat].append(card)
        self._emit(Drew(seat, card))
        if fits(card, self.top):
            self.phase, self._drawn = Phase.DRAWN, card
        else:
            self._emit(Passed(seat))
            self.turn = self.next_seat(seat)
        return tuple(self.log[start:])

    def verify_slap(self, last: int) -> None:
        if self.phase is not Phase.SLAP:
            raise IllegalPlayError(f"no hit hand to slap: {self._where()}")
        if not 0 <= last < self.players:
            raise IllegalPlayError(f"slap: seat {last} does not exist (seats are 0 to {self.players - 1})")

    def can_slap(self, last: int) -> bool:
        try:
            self.verify_slap(last)
        except IllegalPlayError:
            return False
        return True

    def slap(self, last: int) -> tuple[Event, ...]:
        """H9: ``last`` was the last hand on the called With a Hand card and draws four."""
        self.verify_slap(last)
        start = len(self.log)
        self._penalty(last, "last to slap", SLAP_CARDS)
        self.phase = Phase.PLAY
        self.turn = self.next_seat(self._slapper)
        return tuple(self.log[start:])

    def verify_false_slap(self, seat: int) -> None:
        if self.phase not in (Phase.PLAY, Phase.DRAWN):
            raise IllegalPlayError(f"seat {seat} cannot slap falsely: {self._where()}")
        if not 0 <= seat < self.players:
            raise IllegalPlayError(f"false slap: seat {seat} does not exist (seats are 0 to {self.players - 1})")

    def can_false_slap(self, seat: int) -> bool:
        try:
            self.verify_false_slap(seat)
        except IllegalPlayError:
            return False
        return True

    def false_slap(self, seat: int) -> tuple[Event, ...]:
        """H9: ``seat`` slapped the pile with no With a Hand card played and draws two; the turn stays."""
        self.verify_false_slap(seat)
        start = len(self.log)
        self._penalty(seat, "false slap", FALSE_SLAP_CARDS)
        return tuple(self.log[start:])

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Take an :data:`Action` record (the three faces above, for callers that keep actions)."""
        if isinstance(action, Play):
            return self.play(action.card, action.called)
        if isinstance(action, Draw):
            return self.draw()
        if isinstance(action, Slap):
            return self.slap(action.last)
        return self.false_slap(action.seat)

    # -- the mechanics ---------------------------------------------------------------
    def _emit(self, event: Event) -> None:
        self.log.append(event)

    def _put(self, card: Card, seen: bool = True) -> None:
        self._discard.append(card)
        self._seen.append(seen)

    def _bury(self, card: Card, why: str) -> None:
        self._draw.insert(self._rng.randint(0, len(self._draw)), card)
        self._emit(Buried(card, why))

    def _reshuffle(self) -> None:
        """H10: all of the discard pile but its top card, shuffled, becomes the draw pile."""
        if len(self._discard) <= 1:
            return
        top, top_seen = self._discard.pop(), self._seen.pop()
        rest = self._discard
        self._rng.shuffle(rest)
        self._draw = rest + self._draw
        self._discard, self._seen = [top], [top_seen]
        self._emit(Reshuffled(len(rest)))

    def _pop(self) -> Card | None:
        """The top card of the draw pile (after a reshuffle if it is empty), or None if there is none."""
        if not self._draw:
            self._reshuffle()
        if not self._draw:
            return None
        self._idle = 0
        return self._draw.pop()

    def _penalty(self, seat: int, reason: str, k: int) -> None:
        got: list[Card] = []
        for _ in range(k):  # H10: as many as there are
            card = self._pop()
            if card is None:
                break
            got.append(card)
        self._hands[seat].extend(got)
        self._emit(Penalty(seat, reason, tuple(got)))

    def _first_card(self) -> None:
        """H3: the first card turned up, and what it makes the first player do."""
        card = self._draw.pop()
        self._put(card)
        self._emit(TurnedUp(card, "first card"))
        while card.kind is Kind.HIT_HAND and any(c.kind is not Kind.HIT_HAND for c in self._draw):
            self._discard.pop()
            self._seen.pop()
            self._bury(card, "first card")
            card = self._draw.pop()
            self._put(card)
            self._emit(TurnedUp(card, "first card"))
        if card.kind is Kind.CUT:  # the first player cuts and loses her turn
            self._cut(self.turn)
            self._emit(Skipped(self.turn))
            self.turn = self.next_seat(self.turn)
        elif card.kind is Kind.FLIP:  # the first player swaps the piles and then plays, the other way round
            self._flip(self.turn)

    def _cut(self, seat: int) -> None:
        """H6: lift between a third and two thirds of the draw pile; the card at the cut goes on the discard."""
        if not self._draw:
            self._reshuffle()
        if not self._draw:
            self._emit(CutDeck(seat, None))
            return
        size = len(self._draw)
        low = max(1, size // 3)
        lifted = self._rng.randint(low, max(low, size - size // 3))
        card = self._draw.pop(size - lifted)  # the bottom card of the lifted part
        self._put(card)
        self._emit(CutDeck(seat, card))

    def _flip(self, seat: int) -> None:
        """H7: both piles turned over and swapped, the direction reversed, a Flip turned up buried."""
        old_draw = self._draw
        self._draw = self._discard[::-1]
        self._discard = old_draw[::-1]
        self._seen = [False] * len(self._discard)
        self.direction = -self.direction
        self._emit(Flipped(seat, self.direction))
        while True:
            if self._discard:
                self._seen[-1] = True
            else:  # the draw pile was empty: turn up the top of the new draw pile
                self._put(self._draw.pop())
            card = self._discard[-1]
            self._emit(TurnedUp(card, "flip"))
            others = any(c.kind is not Kind.FLIP for c in self._discard[:-1]) or \
                any(c.kind is not Kind.FLIP for c in self._draw)
            if card.kind is not Kind.FLIP or not others:
                return
            self._discard.pop()
            self._seen.pop()
            self._bury(card, "flip")

    def _end(self, winner: int | None) -> None:
        """H11, H12: the hand is over; everybody but the one who went out scores its cards."""
        self.phase = Phase.OVER
        self.winner = winner
        self.points = tuple(0 if s == winner else sum(c.points for c in h) for s, h in enumerate(self._hands))
        self._emit(Ended(winner, self.points))


class Game:
    """Hands of Hit the Deck until somebody's total reaches 100; the lowest total wins (H12).

    With a ``seed``, hand ``k`` is shuffled from ``(seed, k)`` alone, so two
    games with the same seed deal the same first hands however they are
    played (duplicate tournaments rely on it). The first dealer is
    ``dealer``, or drawn from the seed; the deal passes to the left (H2).

    >>> g = Game(3, seed=1)
    >>> while not g.is_over:
    ...     if g.round.is_over:
    ...         _ = g.next_round()
    ...     else:
    ...         _ = g.round.apply(g.round.legal_actions()[0])
    >>> max(g.totals) >= 100, min(g.totals) == g.totals[g.winners()[0]]
    (True, True)
    """

    def __init__(self, players: int, seed: int | str | None = None, *, dealer: int | None = None,
                 target: int = TARGET) -> None:
        _check_players(players)
        self.players = players
        self.seed = seed
        self.target = target
        self._rng = random.Random(f"hitthedeck game/{seed}") if seed is not None else random.Random()
        first = self._rng.randrange(players) if dealer is None else dealer
        self.rounds: list[Round] = [self._deal(0, first)]

    def _deal(self, hand: int, dealer: int) -> Round:
        """Hand number ``hand`` (from 0), shuffled from the game's seed and that number alone."""
        seed: int | str = f"hitthedeck/{self.seed}/hand {hand}" if self.seed is not None else self._rng.getrandbits(64)
        return Round(self.players, seed, dealer=dealer)

    @property
    def round(self) -> Round:
        """The hand being played (or the last one, once the game is over)."""
        return self.rounds[-1]

    @property
    def totals(self) -> tuple[int, ...]:
        """H12: each seat's points over the hands that are over."""
        return tuple(sum(r.points[s] for r in self.rounds if r.is_over) for s in range(self.players))

    @property
    def is_over(self) -> bool:
        return self.round.is_over and max(self.totals) >= self.target

    def next_round(self) -> Round:
        """Deal the next hand, the deal passing to the left (H2); only once the hand is over."""
        if not self.round.is_over:
            raise IllegalPlayError(f"hand {len(self.rounds)} is not over: {self.round._where()}")
        if self.is_over:
            raise IllegalPlayError(f"the game is over: totals {list(self.totals)} (somebody reached {self.target})")
        self.rounds.append(self._deal(len(self.rounds), (self.round.dealer + 1) % self.players))
        return self.round

    def winners(self) -> tuple[int, ...]:
        """H12: the seats with the lowest total (several share the win on a tie), once the game is over."""
        if not self.is_over:
            raise IllegalPlayError("the game is not over yet")
        best = min(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)
