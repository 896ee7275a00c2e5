"""The Hit the Deck deck (ruling H1) and the card notation.

A card is a small frozen value: its :class:`Kind`, its :class:`Colour` (or
``None``) and its number (or ``None``). There are 38 different cards and 110
in the deck; :data:`COPIES` says how many of each.

The notation is what a player types: a colour and a number, ``cut`` or
``flip`` (``"red 5"``, ``"blue cut"``, ``"green flip"``), or ``hit`` and a
number, a colour or ``hand`` for the three Hit the Deck cards (``"hit 3"``,
``"hit red"``, ``"hit hand"``). Case and spacing do not matter and a colour
may be its first letter (``"r5"``, ``"B cut"``, ``"hit y"``).

>>> card = parse_card("Red 5")
>>> card, str(card), card.points
(Card.parse('red 5'), 'red 5', 5)
>>> [str(parse_card(t)) for t in ("b cut", "G FLIP", "hit3", "hit y", "hit  hand")]
['blue cut', 'green flip', 'hit 3', 'hit yellow', 'hit hand']
>>> DECK_SIZE, len(CARDS), sum(c.points * n for c, n in COPIES.items())
(110, 38, 540)
>>> parse_card("red 6")
Traceback (most recent call last):
...
solver.hitthedeck.cards.CardError: 'red 6' is not a card: write a colour and 1-5, cut or flip ('red 5', 'blue cut', 'green flip'), or hit and 1-5, a colour or hand ('hit 3', 'hit red', 'hit hand')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "CARDS",
    "COLOURS",
    "COPIES",
    "DECK_SIZE",
    "HIT_HAND",
    "Card",
    "CardError",
    "Colour",
    "Kind",
    "cut",
    "deck",
    "flip",
    "format_cards",
    "hit_colour",
    "hit_number",
    "number",
    "parse_card",
    "parse_cards",
    "sort_cards",
]


class CardError(ValueError):
    """A card that does not exist, or a name that is not a card."""


class Colour(str, Enum):
    """H1: the four colours (the texts do not name them; the project does)."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"


class Kind(str, Enum):
    """What a card is. Cut, Flip and the three Hit the Deck cards are the *word* cards."""

    NUMBER = "number"
    CUT = "cut"  # Cut the Deck
    FLIP = "flip"  # Flip the Deck
    HIT_NUMBER = "hit number"  # Hit the Deck With a Number
    HIT_COLOUR = "hit colour"  # Hit the Deck With a Colour
    HIT_HAND = "hit hand"  # Hit the Deck With a Hand

    @property
    def is_hit(self) -> bool:
        """One of the three Hit the Deck cards."""
        return self in (Kind.HIT_NUMBER, Kind.HIT_COLOUR, Kind.HIT_HAND)


#: The colours in the order the notation and the sorting use.
COLOURS: tuple[Colour, ...] = tuple(Colour)
#: The numbers on number cards and on With a Number cards.
NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5)

_KIND_ORDER = {k: i for i, k in enumerate(Kind)}
_COLOUR_ORDER = {c: i for i, c in enumerate(COLOURS)}


@dataclass(frozen=True)
class Card:
    """One card. Build it with :func:`parse_card` or the helpers :func:`number`, :func:`cut`, ...

    A number card has a colour and a number; a Cut or Flip card a colour; a
    With a Number card a number; a With a Colour card a colour; a With a Hand
    card neither (H1). Anything else raises :class:`CardError`.

    >>> Card(Kind.CUT, Colour.RED, 3)
    Traceback (most recent call last):
    ...
    solver.hitthedeck.cards.CardError: a cut card has a colour and no number, not colour red and number 3
    """

    kind: Kind
    colour: Colour | None = None
    number: int | None = None

    def __post_init__(self) -> None:
        wants_colour = self.kind in (Kind.NUMBER, Kind.CUT, Kind.FLIP, Kind.HIT_COLOUR)
        wants_number = self.kind in (Kind.NUMBER, Kind.HIT_NUMBER)
        ok = ((self.colour is not None) == wants_colour and (self.number is not None) == wants_number
              and (self.colour is None or isinstance(self.colour, Colour))
              and (self.number is None or (type(self.number) is int and self.number in NUMBERS)))
        if not ok:
            has = " and ".join(["a colour" if wants_colour else "no colour", "a number 1-5" if wants_number
                                else "no number"])
            given = f"colour {_plain(self.colour)} and number {self.number}"
            raise CardError(f"a {self.kind.value} card has {has}, not {given}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card a name stands for (see the module's notation); :class:`CardError` if none."""
        return parse_card(text)

    @property
    def points(self) -> int:
        """H12: a number card scores its number, every other card 10."""
        return self.number if self.kind is Kind.NUMBER and self.number is not None else 10

    @property
    def is_hit(self) -> bool:
        """One of the three Hit the Deck cards (wild when no demand is in force, H4)."""
        return self.kind.is_hit

    @property
    def is_word(self) -> bool:
        """Any card but a number card."""
        return self.kind is not Kind.NUMBER

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Number cards by colour and number, then Cut and Flip by colour, then the Hit the Deck cards."""
        return (_KIND_ORDER[self.kind], _COLOUR_ORDER[self.colour] if self.colour else -1, self.number or 0)

    def __str__(self) -> str:
        if self.kind is Kind.NUMBER:
            return f"{_plain(self.colour)} {self.number}"
        if self.kind in (Kind.CUT, Kind.FLIP):
            return f"{_plain(self.colour)} {self.kind.value}"
        if self.kind is Kind.HIT_NUMBER:
            return f"hit {self.number}"
        if self.kind is Kind.HIT_COLOUR:
            return f"hit {_plain(self.colour)}"
        return "hit hand"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def _plain(colour: Colour | None) -> str:
    return colour.value if isinstance(colour, Colour) else str(colour)


def number(colour: Colour, n: int) -> Card:
    """A number card, e.g. ``number(Colour.RED, 5)``."""
    return Card(Kind.NUMBER, colour, n)


def cut(colour: Colour) -> Card:
    """A Cut the Deck card."""
    return Card(Kind.CUT, colour)


def flip(colour: Colour) -> Card:
    """A Flip the Deck card."""
    return Card(Kind.FLIP, colour)


def hit_number(n: int) -> Card:
    """A Hit the Deck With a Number card demanding ``n``."""
    return Card(Kind.HIT_NUMBER, None, n)


def hit_colour(colour: Colour) -> Card:
    """A Hit the Deck With a Colour card demanding ``colour``."""
    return Card(Kind.HIT_COLOUR, colour)


#: The Hit the Deck With a Hand card.
HIT_HAND = Card(Kind.HIT_HAND)

# H1: per colour four each of 1-5, two Cut, one Flip; ten With a Number (two each of 1-5),
# four With a Colour (one per colour), four With a Hand.
_COPIES: dict[Card, int] = {}
for _c in COLOURS:
    for _n in NUMBERS:
        _COPIES[number(_c, _n)] = 4
for _c in COLOURS:
    _COPIES[cut(_c)] = 2
for _c in COLOURS:
    _COPIES[flip(_c)] = 1
for _n in NUMBERS:
    _COPIES[hit_number(_n)] = 2
for _c in COLOURS:
    _COPIES[hit_colour(_c)] = 1
_COPIES[HIT_HAND] = 4

#: How many copies of each card the deck holds (H1).
COPIES: dict[Card, int] = dict(sorted(_COPIES.items(), key=lambda kv: kv[0].sort_key))
#: The 38 different cards, in sort order.
CARDS: tuple[Card, ...] = tuple(COPIES)
DECK_SIZE: int = sum(COPIES.values())

_COLOUR_NAMES = {c.value: c for c in COLOURS} | {c.value[0]: c for c in COLOURS}
_NOTATION = re.compile(r"(hit)?\s*(red|yellow|green|blue|[rygb])?\s*([1-5]|cut|flip|hand)?")
_HELP = ("write a colour and 1-5, cut or flip ('red 5', 'blue cut', 'green flip'), "
         "or hit and 1-5, a colour or hand ('hit 3', 'hit red', 'hit hand')")


def parse_card(text: str) -> Card:
    """The card ``text`` names, in the notation of this module.

    >>> parse_card("hit 4").kind, parse_card("hit blue").colour
    (<Kind.HIT_NUMBER: 'hit number'>, <Colour.BLUE: 'blue'>)
    """
    if not isinstance(text, str):
        raise CardError(f"{_shown(text)} is not a card name (a text such as 'red 5')")
    key = " ".join(text.lower().split())
    m = _NOTATION.fullmatch(key) if len(key) <= 20 else None
    if m is not None:
        hit, colour, what = m.groups()
        c = _COLOUR_NAMES[colour] if colour else None
        if hit and c is not None and what is None:
            return hit_colour(c)
        if hit and c is None and what is not None and what not in ("cut", "flip"):
            return HIT_HAND if what == "hand" else hit_number(int(what))
        if not hit and c is not None and what is not None and what != "hand":
            return cut(c) if what == "cut" else flip(c) if what == "flip" else number(c, int(what))
    raise CardError(f"{_shown(text)} is not a card: {_HELP}")


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Several card names; the error names the first bad one by its place.

    >>> parse_cards(["red 5", "hit hand"])
    [Card.parse('red 5'), Card.parse('hit hand')]
    >>> parse_cards(["red 5", "red 9"])
    Traceback (most recent call last):
    ...
    solver.hitthedeck.cards.CardError: [1]: 'red 9' is not a card: write a colour and 1-5, cut or flip ('red 5', 'blue cut', 'green flip'), or hit and 1-5, a colour or hand ('hit 3', 'hit red', 'hit hand')
    """
    out = []
    for i, t in enumerate(texts):
        try:
            out.append(parse_card(t))
        except CardError as e:
            raise CardError(f"[{i}]: {e}") from None
    return out


def format_cards(cards: Iterable[Card]) -> list[str]:
    """The names of ``cards``, in their order (the inverse of :func:`parse_cards`)."""
    return [str(c) for c in cards]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """``cards`` in the deck's order (number cards by colour, then word cards)."""
    return sorted(cards, key=lambda c: c.sort_key)


def deck() -> list[Card]:
    """The 110 cards of a fresh deck, in sort order (shuffle before use).

    >>> d = deck()
    >>> len(d), Counter(d) == Counter(COPIES)
    (110, True)
    """
    return [c for c, n in COPIES.items() for _ in range(n)]


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 32 else text[:31] + "…"
