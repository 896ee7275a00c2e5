"""The Hit the Deck odds page's table as URL query parameters, so that a reload (a phone that locked its screen,
a browser that reconnected) or a shared link opens the same table.

Plain Python, no Streamlit (the page, ``views/hitthedeck.py``, draws the table): :func:`to_query` writes a
:class:`Link` (the table, the ranking, where taps go, and whether the card on top is the one you just
played); :func:`read_query` reads it back leniently. The
parameters, each left out when empty or at its default (``opp`` and ``obj`` are always written)::

    hand=r5+bcut+hit3   your hand, in the order tapped
    top=r2              the top card of the discard pile
    discard=r4+b4       the other cards seen on the discard pile
    opp=5+6             each opponent's hand size, in order of play (the next player first)
    obj=points          the ranking: follow (hardest to follow) or points (most points)
    into=top            where taps go: hand (left out), top or discard
    played=r2           you just played the top card (it is the others' turn)

A card is written in :mod:`solver.hitthedeck.cards`'s notation, shortest form, no spaces: a colour's first
letter and ``1``-``5``, ``cut`` or ``flip`` (``r5``, ``bcut``, ``gflip``); ``hit`` and ``1``-``5``, a colour's
letter or ``hand`` (``hit3``, ``hity``, ``hithand``). A list is written with spaces between its items, which a
URL shows as ``+`` (a comma would show as ``%2C``: Streamlit encodes the link with :func:`urllib.parse.urlencode`,
which leaves only letters, digits, ``_.-~`` and the space's ``+`` as they are). Reading takes commas as well as
spaces between items (``hand=r5,bcut``), and a card in any form
:func:`~solver.hitthedeck.cards.parse_card` takes without a space (``red5``, ``Hit3``, ``hitred``).

>>> link = Link(hand=tuple(parse_cards(["red 5", "blue cut", "hit 3"])), top=parse_card("red 2"),
...             discard=tuple(parse_cards(["red 4", "blue 4"])), opponents=(5, 6), objective=Objective.POINTS)
>>> to_query(link)
{'hand': 'r5 bcut hit3', 'top': 'r2', 'discard': 'r4 b4', 'opp': '5 6', 'obj': 'points'}
>>> from urllib.parse import urlencode
>>> urlencode(to_query(link))
'hand=r5+bcut+hit3&top=r2&discard=r4+b4&opp=5+6&obj=points'
>>> read_query(to_query(link)) == (link, [])
True

Reading is lenient: a bad parameter is skipped (its default used) with one message naming it, and every good
one is kept. A link is typed by anyone, so the work is bounded whatever it holds: a parameter's items are
counted and its length measured before it is split, numbers are ASCII digits only (three at most), and a
message shows at most twenty characters of a value.

>>> got, problems = read_query({"hand": "r5,x9", "top": "r2", "opp": "5,٦", "obj": "best"})
>>> got == Link(top=parse_card("red 2"))
True
>>> print(*problems, sep="\\n")
hand: 'x9' is not a card (a link writes r5, bcut, gflip, hit3, hity, hithand)
opp: '٦' is not a hand size (a whole number 0 to 110, digits 0-9)
obj: 'best' is not a ranking (follow or points)
>>> read_query({"discard": "r5," * 50000, "hand": "x" * 100_000})[1]
['hand: too long (100,000 characters)', "discard: 50,001 cards, more than the deck's 110"]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from .advice import Objective
from .cards import DECK_SIZE, Card, CardError, Colour, parse_card
from .cards import CARDS, parse_cards  # noqa: F401 - the doctests use them
from .knowledge import MAX_OPPONENTS
from .rules import HAND_SIZE

__all__ = ["DEAL", "ZONES", "Link", "read_query", "to_query", "token"]

#: Seven cards each at the deal (H2); a new opponent starts there.
DEAL = HAND_SIZE
#: Where a tap puts a card.
ZONES = ("hand", "top", "discard")
#: The longest card name :func:`parse_card` reads (``"hit  yellow"`` and such, spaces included).
_CARD_TEXT = 20
#: A list of cards longer than this is refused before it is split: the whole deck, each card at its longest.
_LIST_TEXT = DECK_SIZE * (_CARD_TEXT + 1)
#: Hand sizes go from 0 to the deck's 110 cards: three digits.
_SIZE_DIGITS = 3
#: How much of a bad value a message shows.
_SHOWN = 20
_FORMS = "a link writes r5, bcut, gflip, hit3, hity, hithand"
#: Between a list's items: a space (``+`` in a URL) as written, or a comma.
_SEPARATOR = re.compile("[ ,]")
_COLOURS = {c.value for c in Colour}


class Link(NamedTuple):
    """What the link keeps: the page's table (``hand`` … ``opponents``, as its ``Table``), the ranking, where taps
    go, and ``played``: the card on top is the one you just played (the others play next)."""

    hand: tuple[Card, ...] = ()
    top: Card | None = None
    discard: tuple[Card, ...] = ()
    opponents: tuple[int, ...] = (DEAL, DEAL)
    objective: Objective = Objective.FOLLOW
    zone: str = "hand"
    played: bool = False


def token(card: Card) -> str:
    """A card's shortest name, as a link writes it; :func:`parse_card` reads it back as the same card.

    >>> [token(c) for c in parse_cards(["red 5", "blue cut", "green flip", "hit 3", "hit yellow", "hit hand"])]
    ['r5', 'bcut', 'gflip', 'hit3', 'hity', 'hithand']
    >>> all(parse_card(token(c)) == c for c in CARDS) and len({token(c) for c in CARDS}) == len(CARDS) == 38
    True
    """
    # The card's own name (solver.hitthedeck.cards spells it once) with each colour cut to its letter.
    return "".join(word[0] if word in _COLOURS else word for word in str(card).split())


def to_query(link: Link) -> dict[str, str]:
    """The link's parameters (see the module): short, in a fixed order, empty zones and defaults left out.

    >>> to_query(Link())
    {'opp': '7 7', 'obj': 'follow'}
    >>> to_query(Link(hand=(parse_card("r1"),), top=parse_card("hit hand"), zone="discard", played=True))
    {'hand': 'r1', 'top': 'hithand', 'opp': '7 7', 'obj': 'follow', 'into': 'discard', 'played': 'hithand'}
    """
    q: dict[str, str] = {}
    if link.hand:
        q["hand"] = " ".join(map(token, link.hand))
    if link.top is not None:
        q["top"] = token(link.top)
    if link.discard:
        q["discard"] = " ".join(map(token, link.discard))
    q["opp"] = " ".join(map(str, link.opponents))
    q["obj"] = Objective(link.objective).value
    if link.zone != "hand":
        q["into"] = link.zone
    if link.played and link.top is not None:
        q["played"] = token(link.top)
    return q


def read_query(params: Mapping[str, str]) -> tuple[Link, list[str]]:
    """Read :func:`to_query`'s parameters leniently: the link, and one message for each parameter not read
    (``"hand: 'x9' is not a card …"``). Unknown and empty parameters are ignored. A card the table shows more
    often than the deck has it is no link error: the page names that table as one that cannot be.

    >>> read_query({"hand": "Red5,HitHand", "opp": "3 4,5", "into": "top", "played": "r5"})[1]
    ["played: 'r5' is not the top card (there is none)"]
    >>> read_query({"opp": "7," * 9 + "7"})[1]
    ['opp: 10 hand sizes: Hit the Deck is for 2 to 6 players, so 1 to 5 opponents']
    >>> print(*read_query({"top": "r5,r4", "hand": "r5,,r4"})[1], sep="\\n")
    hand: an empty card between separators ('r5,,r4')
    top: 'r5,r4' is not one card (a link writes r5, bcut, gflip, hit3, hity, hithand)
    """
    messages: list[str] = []

    def given(key: str) -> str:
        value = params.get(key, "")
        return value if isinstance(value, str) else ""

    def card(key: str, item: str) -> Card | None:
        """One card, or None with the message; at most :data:`_CARD_TEXT` characters reach the parser."""
        if len(item) <= _CARD_TEXT and item.isascii():
            try:
                return parse_card(item)
            except CardError:
                pass
        messages.append(f"{key}: {_shown(item)} is not a card ({_FORMS})")
        return None

    def cards(key: str) -> tuple[Card, ...]:
        text = given(key)
        if text == "":
            return ()
        # Counted and measured before splitting: a link may carry any length and any number of commas.
        if (n := _items(text)) > DECK_SIZE:
            messages.append(f"{key}: {n:,} cards, more than the deck's {DECK_SIZE}")
            return ()
        if len(text) > _LIST_TEXT:
            messages.append(f"{key}: too long ({len(text):,} characters)")
            return ()
        out = []
        for item in _SEPARATOR.split(text):
            if item == "":
                messages.append(f"{key}: an empty card between separators ({_shown(text)})")
                return ()
            got = card(key, item)
            if got is None:
                return ()
            out.append(got)
        return tuple(out)

    def one(key: str) -> Card | None:
        text = given(key)
        if text == "":
            return None
        if _items(text) > 1:
            messages.append(f"{key}: {_shown(text)} is not one card ({_FORMS})")
            return None
        return card(key, text)

    hand = cards("hand")
    top = one("top")
    discard = cards("discard")
    opponents: tuple[int, ...] = Link().opponents
    if (text := given("opp")) != "":
        if (n := _items(text)) > MAX_OPPONENTS:
            messages.append(f"opp: {n:,} hand sizes: Hit the Deck is for 2 to 6 players, so 1 to {MAX_OPPONENTS} "
                            f"opponents")
        else:
            sizes = _SEPARATOR.split(text)
            bad = [s for s in sizes if not (_digits(s) and len(s) <= _SIZE_DIGITS and int(s) <= DECK_SIZE)]
            if bad:
                messages.append(f"opp: {_shown(bad[0])} is not a hand size (a whole number 0 to {DECK_SIZE}, digits "
                                f"0-9)")
            else:
                opponents = tuple(int(s) for s in sizes)

    objective = Objective.FOLLOW
    if (text := given("obj")) != "":
        if text in [o.value for o in Objective]:
            objective = Objective(text)
        else:
            messages.append(f"obj: {_shown(text)} is not a ranking (follow or points)")

    zone = "hand"
    if (text := given("into")) != "":
        if text in ZONES:
            zone = text
        else:
            messages.append(f"into: {_shown(text)} is not where taps go (hand, top or discard)")

    played = False
    if (you := one("played")) is not None:
        if you == top:
            played = True
        else:
            there = "there is none" if top is None else f"it is the {top}"
            messages.append(f"played: {_shown(given('played'))} is not the top card ({there})")
    return Link(hand, top, discard, opponents, objective, zone, played), messages


def _items(text: str) -> int:
    """How many items a list would split into (counted without splitting it).

    >>> _items("r5"), _items("r5 b4,g1"), _items("," * 10_000)
    (1, 3, 10001)
    """
    return text.count(",") + text.count(" ") + 1


def _digits(text: str) -> bool:
    """Only ASCII 0-9 (str.isdigit alone takes '٣' and '５', int() also ' 3' and '+3')."""
    return text.isascii() and text.isdigit()


def _shown(text: str) -> str:
    """A value as a message shows it: quoted, hidden characters escaped, cut after :data:`_SHOWN` characters as
    shown (an escaped character counts its escape).

    >>> _shown("x" * 100_000), _shown("r5\\n"), _shown("\\u202e" * 5000)
    ("'xxxxxxxxxxxxxxxxxxxx…'", "'r5\\\\n'", "'\\\\u202e\\\\u202e\\\\u202e…'")
    """
    k = min(len(text), _SHOWN)
    while len(repr(text[:k])) - 2 > _SHOWN:
        k -= 1
    return repr(text[:k] + ("…" if k < len(text) else ""))
