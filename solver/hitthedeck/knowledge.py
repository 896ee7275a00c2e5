"""What one player knows (ruling H13): the :class:`Knowledge` the odds and the advice start from.

A player knows its own hand, the top card of the discard pile (and so any
demand in force, H8), the cards it saw land on the discard pile that are
still there, and how many cards each opponent holds, in the order they play
after it. Every other card is *unseen*: in an opponent's hand, in the draw
pile, or face down in a pile it never saw. The deck minus what it knows is
the unseen cards' exact composition.

>>> k = Knowledge.from_dict({"hand": ["red 5", "blue cut", "hit 3"], "top": "red 2",
...                          "discard": ["red 4"], "opponents": [6, 7]})
>>> k.unseen_count, k.unseen()[k.top], [str(c) for c in k.legal_plays()]
(105, 3, ['red 5', 'hit 3'])
>>> Knowledge.from_dict({"hand": ["red 5"] * 4, "top": "red 5", "opponents": [7]})
Traceback (most recent call last):
...
solver.hitthedeck.knowledge.KnowledgeError: too many red 5 cards: the deck has 4, the table shows 5 (hand 4, top 1)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .cards import COPIES, DECK_SIZE, Card, CardError, format_cards, parse_card, parse_cards
from .matching import Demand, demand_of, fits

if TYPE_CHECKING:
    from .rules import Round

__all__ = ["MAX_OPPONENTS", "Knowledge", "KnowledgeError"]

#: Hit the Deck is for two to six players (H2).
MAX_OPPONENTS = 5


class KnowledgeError(ValueError):
    """A table that cannot be: the message says what is wrong and where."""


@dataclass(frozen=True)
class Knowledge:
    """One player's view of a hand. Build it with :meth:`build`, :meth:`from_dict` or :meth:`of_round`.

    ``opponents`` holds each opponent's number of cards in the order they
    play after this player, the next player first (so the direction of play
    is in the order). ``discard`` holds the known cards under the top card.
    """

    hand: tuple[Card, ...]
    top: Card
    discard: tuple[Card, ...] = ()
    opponents: tuple[int, ...] = (7,)
    _unseen: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def build(cls, hand: Sequence[Card], top: Card, discard: Sequence[Card] = (),
              opponents: Sequence[int] = (7,), where: str = "") -> Knowledge:
        """Check the facts of the table and build the knowledge; ``where`` prefixes error messages."""
        hand, discard, opponents = tuple(hand), tuple(discard), tuple(opponents)
        return cls(hand, top, discard, opponents, _check(hand, top, discard, opponents, where))

    def __post_init__(self) -> None:
        if not self._unseen:  # the constructor is a checked entry point too
            object.__setattr__(self, "_unseen", _check(tuple(self.hand), self.top, tuple(self.discard),
                                                       tuple(self.opponents), ""))

    @classmethod
    def of_round(cls, round: Round, seat: int) -> Knowledge:
        """What ``seat`` knows of a hand in the engine: the cards everybody saw land on the discard.

        It forgets what went back into the draw pile (a reshuffle, a Flip,
        a buried card) and does not infer from other players' draws (H13).
        """
        n = round.players
        return cls.build(round.hand(seat), round.top, round.seen_discard(),
                         [len(round.hand(round.next_seat(seat, k))) for k in range(1, n)])

    @classmethod
    def from_json(cls, text: str, where: str = "") -> Knowledge:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise KnowledgeError(f"{where}not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        return cls.from_dict(data, where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "") -> Knowledge:
        """Check a decoded JSON object (the schema is in ``docs/HITTHEDECK.md``) and build the knowledge."""
        if isinstance(data, dict):  # cheap first: a list of a million cards is refused unread
            for name in ("hand", "discard", "opponents"):
                value = data.get(name)
                if isinstance(value, list) and len(value) > DECK_SIZE:
                    raise KnowledgeError(f"{where}{name}: {len(value):,} entries, more than the deck's {DECK_SIZE} cards")
        try:
            raw = _Raw.model_validate(data)
        except ValidationError as e:
            err = e.errors()[0]
            raise KnowledgeError(f"{where}{_loc(err['loc'])}: {_friendly(err)}") from None
        hand = _cards(raw.hand, f"{where}hand")
        try:
            top = parse_card(raw.top)
        except CardError as e:
            raise KnowledgeError(f"{where}top: {e}") from None
        discard = _cards(raw.discard, f"{where}discard")
        return cls.build(hand, top, discard, raw.opponents, where)

    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON object (the inverse of :meth:`from_dict`)."""
        return {"hand": format_cards(self.hand), "top": str(self.top), "discard": format_cards(self.discard),
                "opponents": list(self.opponents)}

    # -- derived facts ---------------------------------------------------------------
    def unseen(self) -> Counter[Card]:
        """How many of each card this player has not seen: the deck minus hand, top and discard."""
        return Counter({c: n for c, n in zip(COPIES, self._unseen) if n})

    @property
    def unseen_count(self) -> int:
        return sum(self._unseen)

    @property
    def demand(self) -> Demand | None:
        """H8: the number or colour this player must play, if the top card demands one."""
        return demand_of(self.top)

    @property
    def players(self) -> int:
        return 1 + len(self.opponents)

    @property
    def hand_points(self) -> int:
        """H12: what this hand would score now."""
        return sum(c.points for c in self.hand)

    def legal_plays(self) -> list[Card]:
        """The different cards of the hand that may be played on the top card (H4, H8, H9)."""
        return [c for c in dict.fromkeys(self.hand) if fits(c, self.top)]


def _check(hand: tuple[Card, ...], top: Card, discard: tuple[Card, ...], opponents: tuple[int, ...],
           where: str) -> tuple[int, ...]:
    """Every rules-level check; returns the unseen count of each card, in deck order."""

    def fail(msg: str) -> KnowledgeError:
        return KnowledgeError(f"{where}{msg}")

    if not 1 <= len(opponents) <= MAX_OPPONENTS:
        raise fail(f"opponents: Hit the Deck is for 2 to 6 players, so 1 to {MAX_OPPONENTS} opponents, "
                   f"not {len(opponents)}")
    for i, k in enumerate(opponents):
        if isinstance(k, bool) or not isinstance(k, int):
            raise fail(f"opponents[{i}]: {k!r} is not a number of cards")
        if k < 1:
            raise fail(f"opponents[{i}]: {k} cards: a player with no cards has gone out, so the hand is over")
    if not hand:
        raise fail("hand: no cards: a player with no cards has gone out, so the hand is over")
    for name, cards in (("hand", hand), ("discard", discard), ("top", (top,))):
        for j, c in enumerate(cards):
            if not isinstance(c, Card):
                raise fail(f"{name}[{j}]: {c!r} is not a card")
    zones = (("hand", hand), ("top", (top,)), ("discard", discard))
    seen = Counter(hand) + Counter(discard) + Counter([top])
    for card, n in seen.items():
        if n > COPIES[card]:
            held = ", ".join(f"{name} {list(cs).count(card)}" for name, cs in zones if card in cs)
            raise fail(f"too many {card} cards: the deck has {COPIES[card]}, the table shows {n} ({held})")
    unseen = tuple(COPIES[c] - seen[c] for c in COPIES)
    total = sum(unseen)
    if sum(opponents) > total:
        raise fail(f"opponents: they hold {sum(opponents)} cards, but only {total} cards are unseen "
                   f"({DECK_SIZE} in the deck - {len(hand)} in your hand - 1 on top - {len(discard)} in the discard)")
    return unseen


def _cards(names: list[str], where: str) -> list[Card]:
    try:
        return parse_cards(names)
    except CardError as e:  # parse_cards names the card by its place: "[2]: ..."
        raise KnowledgeError(f"{where}{e}") from None


# -- the JSON shape, checked by pydantic ----------------------------------------------
class _Raw(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    hand: list[str]
    top: str
    discard: list[str] = []
    opponents: list[int]


_FIELDS = "hand, top, discard, opponents"


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "table"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 32 else text[:31] + "…"


def _friendly(err: Any) -> str:
    kind = err["type"]
    loc = err["loc"]
    if kind == "missing":
        return f"is missing (a table has the fields {_FIELDS})"
    if kind == "extra_forbidden":
        return f"is not a field of a table (the fields are {_FIELDS})"
    shown = _shown(err.get("input"))
    if kind == "string_type":
        return f"{shown} is not a card name (a text such as 'red 5')"
    if kind == "int_type":
        return f"{shown} is not a number of cards"
    if kind == "list_type":
        what = "numbers of cards" if loc and loc[0] == "opponents" else "card names"
        return f"{shown} is not a list of {what}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"{shown} is not an object with the fields {_FIELDS}"
    return str(err["msg"])
