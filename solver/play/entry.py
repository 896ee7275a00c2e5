"""The advisor's entry form as plain Python: a :class:`Draft` of a table.

A draft is what a person has typed so far: it may not be a legal position
yet (that is checked by :meth:`Draft.position`, which raises
:class:`~solver.game.position.PositionError` naming the zone). It knows the
zones cards go into, adding, removing, clearing and undoing, loots as counts
per value, recording a steal (R7), and its two portable forms: the command
line's JSON and URL query parameters. The Streamlit app only draws it.

>>> d = Draft.empty(2)
>>> d.add("line 0", 6); d.add("line 0", 1); d.add("line 1", 5)
>>> d.undo(), d.zone("line 1")
(True, [])
>>> d.to_query()
{'players': '2', 'active': '0', 'line0': '6,1'}
>>> Draft.from_query(d.to_query()) == d
True
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.game.cards import DECK_COPIES, DECK_SIZE, VALUES, cards_of
from solver.game.core import busts, steal_sources
from solver.game.position import Position, PositionError, position_dict
from solver.game.rules import MatchSoFar, Totals

__all__ = ["CARDS_PER_LOST_TURN", "MAX_LOST_TURNS", "ROUND_LOST_TURNS", "Draft", "discard_short", "last_card_busts",
           "zone_label"]

_MAX_UNDO = 200
#: Lost turns an edit or a link accepts (a file may hold more: Position allows any count).
MAX_LOST_TURNS = 9999
#: The fewest cards a lost turn puts in the discard: the line (three cards or more, R5) and the card that
#: busted it (R6).
CARDS_PER_LOST_TURN = 4
#: The most lost turns one round can hold, all seats together: four cards or more each, of the deck's 90 (R1).
ROUND_LOST_TURNS = DECK_SIZE // CARDS_PER_LOST_TURN
#: Number text longer than this is refused before int() sees it (links are typed by anyone).
_MAX_DIGITS = 4
#: How much of a bad value a message shows.
_SHOWN = 20


def discard_short(lost_turns: int, discard: int) -> bool:
    """Whether a discard of ``discard`` cards is too short for ``lost_turns`` lost turns, which put
    :data:`CARDS_PER_LOST_TURN` cards or more there each: some of its cards were not entered, and they count as
    still in the pile (R10).

    >>> discard_short(2, 7), discard_short(2, 8), discard_short(0, 0)
    (True, False, False)
    """
    return discard < CARDS_PER_LOST_TURN * lost_turns


def zone_label(zone: str) -> str:
    """How a zone is named in a message: seats as the other messages name them, which a page numbering
    seats from 1 rewrites alike.

    >>> zone_label("line 2"), zone_label("loot 0"), zone_label("discard")
    ('seat 2 line', 'seat 0 loot', 'the discard')
    """
    if zone == "discard":
        return "the discard"
    kind, seat = zone.split()
    return f"seat {seat} {kind}"


def last_card_busts(line: list[int]) -> bool:
    """Whether a line's last card, had it just been drawn, lost the turn (R5: the cards before it three or
    more, one of its value). The cards may have come that way all the same (the first three, a steal).

    >>> last_card_busts([1, 2, 3, 5, 5]), last_card_busts([5, 5, 1, 2, 3]), last_card_busts([3, 5, 5])
    (True, False, False)
    """
    return bool(line) and busts(len(line) - 1, line[-1] in line[:-1])


@dataclass
class Draft:
    """A table being entered: lines, loots, lost turns, discard, active seat, offer, and in the rounds
    variant (R15) the match so far."""

    lines: list[list[int]]
    loots: list[list[int]]
    lost_turns: list[int]
    discard: list[int] = field(default_factory=list)
    active: int = 0
    offer: int | None = None
    match: MatchSoFar | None = None
    _history: list[dict[str, Any]] = field(default_factory=list, compare=False, repr=False)
    #: What the last edit should make a player check (not part of the table): see :meth:`add`.
    notice: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def empty(cls, players: int = 2) -> Draft:
        return cls([[] for _ in range(players)], [[] for _ in range(players)], [0] * players)

    # -- zones -----------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.lines)

    def zones(self) -> list[str]:
        """Every zone, in table order: each seat's line and loot, then the discard."""
        out = []
        for seat in range(self.num_players):
            out += [f"line {seat}", f"loot {seat}"]
        return out + ["discard"]

    def zone(self, name: str) -> list[int]:
        if name == "discard":
            return self.discard
        try:
            kind, seat_text = name.split()
            seat = int(seat_text)
            zones = {"line": self.lines, "loot": self.loots}[kind]
            return zones[seat]
        except (ValueError, KeyError, IndexError):
            raise ValueError(f"no zone {name!r} at a table of {self.num_players}") from None

    # -- edits (each one can be undone) -----------------------------------------
    # Messages name seats as Position's do ("seat 2", "seats are 0 to 3"): a
    # page numbering seats differently can rewrite both alike.
    def add(self, zone: str, value: int) -> None:
        """Put a card of ``value`` into ``zone``.

        A card joining the active line was just drawn: the steal on offer
        before it was decided, and this card is now the one on offer if
        another seat's line holds its value (R7), else nothing is.

        >>> d = Draft([[5], [5, 2]], [[], []], [0, 0], offer=5)
        >>> d.add("line 1", 3); d.offer
        5
        >>> d.add("line 0", 4); d.offer is None
        True
        >>> d.add("line 0", 2); d.offer
        2

        A card that would bust the active line (R5: three or more cards, one of its value) offers no steal
        (R6); it is taken all the same, as a line can hold such cards from its first three or from a
        steal, and :attr:`notice` says the turn is lost if it was just drawn (until the next edit).

        >>> d.add("line 0", 5); d.offer is None, d.lines[0]
        (True, [5, 4, 2, 5])
        >>> print(d.notice[:73])
        seat 0 line: if this 5 was just drawn onto 5 4 2, the turn is lost (R5: t
        """
        if value not in VALUES:
            raise ValueError(f"{value!r} is not a card value (1 to 10)")
        target = self.zone(zone)
        self._save()
        target.append(value)
        if target is self.lines[self.active]:
            lost = last_card_busts(target)
            self.offer = value if self.held_elsewhere(value) and not lost else None
            if lost:
                self.notice = (f"{zone_label(zone)}: if this {value} was just drawn onto "
                               f"{' '.join(map(str, target[:-1]))}, the turn is lost (R5: three or more face-up "
                               f"cards, one a {value}): Record the bust puts the line and the {value} in the discard, "
                               f"counts the lost turn and starts the next seat's turn. The advice is for a line that "
                               f"holds them from its first three cards or a steal.")

    def remove(self, zone: str, value: int) -> None:
        """Take the last card of ``value`` out of ``zone``."""
        target = self.zone(zone)
        if value not in target:
            raise ValueError(f"{zone_label(zone)} holds no {value}")
        self._save()
        del target[len(target) - 1 - target[::-1].index(value)]
        self._drop_stale_offer()

    def clear(self, zone: str) -> None:
        target = self.zone(zone)
        self._save()
        target.clear()
        self._drop_stale_offer()

    def set_loot_counts(self, seat: int, per_value: list[int]) -> None:
        """Replace a loot by counts per value (people stack their loot).

        >>> d = Draft.empty(2)
        >>> d.set_loot_counts(1, [0, 0, 2] + [0] * 7); d.loots[1]
        [3, 3]
        >>> d.set_loot_counts(1, [0] * 9 + [8])
        Traceback (most recent call last):
        ...
        ValueError: seat 1 loot: 8 cards of value 10, the deck has 7
        """
        self._check_seat(seat)
        if len(per_value) != 10:
            raise ValueError(f"seat {seat} loot: a loot by counts needs ten counts, not {len(per_value)}")
        for v, n, deck_n in zip(VALUES, per_value, DECK_COPIES):
            if not 0 <= n <= deck_n:
                raise ValueError(f"seat {seat} loot: {n} cards of value {v}, the deck has {deck_n}")
        self._save()
        self.loots[seat] = cards_of(tuple(per_value))

    def set_players(self, players: int) -> None:
        """Change the number of seats (2 to 5), keeping the first seats' cards (and the match's totals:
        a new seat starts at none, a seat that goes takes its totals with it)."""
        if not 2 <= players <= 5:
            raise ValueError(f"Hit! is for 2 to 5 players, not {players}")
        self._save()
        if self.match is not None:
            earlier = (self.match.earlier + (Totals(),) * players)[:players]
            self.match = MatchSoFar(self.match.round, self.match.rounds, earlier)
        for zones in (self.lines, self.loots):
            del zones[players:]
            zones.extend([] for _ in range(players - len(zones)))
        self.lost_turns = (self.lost_turns + [0] * players)[:players]
        self.active = min(self.active, players - 1)
        self._drop_stale_offer()

    def set_active(self, seat: int) -> None:
        """Whose turn it is. The card on offer was the other seat's draw: it goes (a steal for a card the
        new seat never drew was once advised when its line held that value).

        >>> d = Draft([[], [3, 5]], [[], []], [0, 0]); d.add("line 0", 5); d.offer
        5
        >>> d.set_active(1); d.offer is None
        True
        """
        self._check_seat(seat)
        self._save()
        if seat != self.active:
            self.offer = None
        self.active = seat
        self._drop_stale_offer()

    def set_offer(self, value: int | None) -> None:
        """The card just drawn whose steal is not yet decided (None: no steal on offer)."""
        if value is not None and value not in VALUES:
            raise ValueError(f"{value!r} is not a card value (1 to 10)")
        self._save()
        self.offer = value

    def set_match(self, match: MatchSoFar | None) -> None:
        """The rounds variant (R15): this round's number, the rounds, each seat's totals of the earlier
        rounds (None: a one-round game). Checked with the rest of the table by :meth:`position`.

        >>> d = Draft.empty(2); d.set_match(MatchSoFar(2, 3, (Totals(50, 12, 1),)))
        Traceback (most recent call last):
        ...
        ValueError: match: 1 totals for 2 players (one per seat)
        """
        if match is not None and len(match.earlier) != self.num_players:
            raise ValueError(f"match: {len(match.earlier)} totals for {self.num_players} players (one per seat)")
        self._save()
        self.match = match

    def set_lost_turns(self, seat: int, count: int) -> None:
        """A seat's lost turns (0 to 9999: what a link carries).

        >>> Draft.empty(2).set_lost_turns(0, 10_000)
        Traceback (most recent call last):
        ...
        ValueError: seat 0 lost turns: 10000 is out of range (0 to 9999)
        """
        self._check_seat(seat)
        if not 0 <= count <= MAX_LOST_TURNS:
            raise ValueError(f"seat {seat} lost turns: {count} is out of range (0 to {MAX_LOST_TURNS})")
        self._save()
        self.lost_turns[seat] = count

    def held_elsewhere(self, value: int) -> bool:
        """Whether another seat's line holds ``value``, so that drawing it offers a steal (R7).

        >>> Draft([[5], [3, 5]], [[], []], [0, 0]).held_elsewhere(5), Draft([[5], [3]], [[], []], [0, 0]).held_elsewhere(5)
        (True, False)
        """
        return self.stealable(value) > 0

    def stealable(self, value: int) -> int:
        """How many cards of ``value`` the other seats' lines hold: what a steal of it takes (R7).

        >>> Draft([[5], [3, 5], [5, 5]], [[], [], []], [0, 0, 0]).stealable(5)
        3
        """
        return sum(k for _, k in steal_sources(self.lines, self.active, value))

    def take_steal(self) -> None:
        """Take the steal on offer (R7): every card of that value in every other
        seat's line joins the active line, and the offer is decided.

        >>> d = Draft([[6, 5], [5, 1, 5], [2], [5]], [[], [], [], []], [0] * 4, offer=5)
        >>> d.take_steal(); d.lines, d.offer
        ([[6, 5, 5, 5, 5], [1], [2], []], None)
        """
        value = self.offer
        if value is None:
            raise ValueError("no steal is on offer: choose the card just drawn first")
        line = self.lines[self.active]
        if value not in line:
            raise ValueError(f"seat {self.active} (to play) has no {value} in its line: no steal of it is on offer")
        sources = steal_sources(self.lines, self.active, value)
        if not sources:
            raise ValueError(f"no other seat holds a {value} in its line: there is nothing to steal")
        self._save()
        for seat, taken in sources:
            self.lines[seat][:] = [c for c in self.lines[seat] if c != value]
            line += [value] * taken
        self.offer = None

    def decline_steal(self) -> None:
        """Leave the steal on offer: the offer is decided, no card moves.

        >>> d = Draft([[5], [5]], [[], []], [0, 0], offer=5)
        >>> d.decline_steal(); d.offer, d.lines
        (None, [[5], [5]])
        """
        if self.offer is None:
            raise ValueError("no steal is on offer")
        self._save()
        self.offer = None

    def record_bust(self) -> None:
        """The card just drawn busted the active line (R5): the line and that card go to the discard, the seat
        has one more lost turn (R6), and the next seat's turn begins, its face-up cards moved to its loot (R3).

        >>> d = Draft([[4, 7], [6, 2, 9]], [[1], []], [0, 0], active=1); d.add("line 1", 2)
        >>> d.record_bust(); d.lines, d.loots, d.lost_turns, d.discard, d.active
        ([[], []], [[1, 4, 7], []], [0, 1], [6, 2, 9, 2], 0)
        >>> d.record_bust()
        Traceback (most recent call last):
        ...
        ValueError: seat 0 line: its last card does not lose the turn (R5: three or more face-up cards, one of its value)
        """
        line = self.lines[self.active]
        if not last_card_busts(line):
            raise ValueError(f"{zone_label(f'line {self.active}')}: its last card does not lose the turn (R5: three "
                             f"or more face-up cards, one of its value)")
        self._save()
        self.discard += line
        line.clear()
        self.lost_turns[self.active] += 1
        self.active = (self.active + 1) % self.num_players
        self.loots[self.active] += self.lines[self.active]
        self.lines[self.active].clear()
        self.offer = None

    def undo(self) -> bool:
        """Go back one edit; False when there is nothing to undo."""
        if not self._history:
            return False
        state = self._history.pop()
        for key, value in state.items():
            setattr(self, key, value)
        self.notice = None
        return True

    def _save(self) -> None:  # every edit starts here: the last one's notice is done with
        self.notice = None
        self._history.append(copy.deepcopy(self._state()))
        del self._history[:-_MAX_UNDO]

    def _state(self) -> dict[str, Any]:
        return {"lines": self.lines, "loots": self.loots, "lost_turns": self.lost_turns,
                "discard": self.discard, "active": self.active, "offer": self.offer, "match": self.match}

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} at a table of {self.num_players} (seats are 0 to {self.num_players - 1})")

    def _drop_stale_offer(self) -> None:
        if self.offer is not None and self.offer not in self.lines[self.active]:
            self.offer = None

    # -- checked position and portable forms -------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON schema."""
        return position_dict(self.lines, self.loots, self.lost_turns, self.active, self.discard, self.offer,
                             self.match)

    def position(self) -> Position:
        """The checked position (raises PositionError naming what is wrong)."""
        return Position.from_dict(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Draft:
        """A draft from the command line's JSON (checked like any position).

        Anything wrong is a PositionError with a short message: the file may
        hold any value, and a message never echoes a long one in full.
        """
        try:
            pos = Position.from_dict(data)
        except PositionError as e:
            raise PositionError(_short(str(e))) from None
        except (TypeError, ValueError, RecursionError) as e:
            raise PositionError(_short(f"not a position: {e}")) from None
        for seat, p in enumerate(pos.players):  # what a link can carry (4 digits): a loaded file must fit it
            if p.lost_turns > MAX_LOST_TURNS:
                raise PositionError(f"players[{seat}].lost_turns: {_short(str(p.lost_turns))} is more than the "
                                    f"advisor takes (0 to {MAX_LOST_TURNS})")
        return cls([list(p.line) for p in pos.players], [list(p.loot) for p in pos.players],
                   [p.lost_turns for p in pos.players], list(pos.discard), pos.active, pos.offer, pos.match)

    def load(self, other: Draft) -> None:
        """Replace the whole table by ``other`` (a loaded file) as one undoable edit.

        >>> d = Draft.empty(2); d.add("line 0", 4)
        >>> d.load(Draft.empty(3)); d.num_players
        3
        >>> d.undo(), d.lines
        (True, [[4], []])
        """
        self._save()
        for key, value in copy.deepcopy(other._state()).items():
            setattr(self, key, value)

    @classmethod
    def from_json(cls, text: str | bytes) -> Draft:
        """A draft from a JSON file; anything wrong is a short PositionError.

        >>> Draft.from_json('[' * 100_000)
        Traceback (most recent call last):
        ...
        solver.game.position.PositionError: not a JSON position: nested too deeply
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PositionError(_short(f"not a JSON position: {e.msg} at line {e.lineno} column {e.colno}")) from None
        except UnicodeDecodeError as e:
            raise PositionError(_short(f"not a JSON position: {e}")) from None
        except RecursionError:
            raise PositionError("not a JSON position: nested too deeply") from None
        except ValueError:  # Python's limit on digits in an int (4300)
            raise PositionError("not a JSON position: a number has too many digits") from None
        return cls.from_dict(data)

    def to_query(self) -> dict[str, str]:
        """Short URL parameters: ``players``, ``active``, ``line0``, ``loot0``,
        ``lost0``, …, ``discard``, ``offer`` (cards comma-separated, empty ones left out), and ``match``
        (R15: round/rounds/points.cards.lost_turns/… a seat each)."""
        q = {"players": str(self.num_players), "active": str(self.active)}
        for seat in range(self.num_players):
            for key, cards in ((f"line{seat}", self.lines[seat]), (f"loot{seat}", self.loots[seat])):
                if cards:
                    q[key] = ",".join(map(str, cards))
            if self.lost_turns[seat]:
                q[f"lost{seat}"] = str(self.lost_turns[seat])
        if self.discard:
            q["discard"] = ",".join(map(str, self.discard))
        if self.offer is not None:
            q["offer"] = str(self.offer)
        if self.match is not None:
            q["match"] = "/".join([str(self.match.round), str(self.match.rounds)] + [
                f"{t.points}.{t.cards}.{t.lost_turns}" for t in self.match.earlier])
        return q

    @classmethod
    def from_query(cls, params: Mapping[str, str]) -> Draft:
        """Read :meth:`to_query`'s parameters back; a bad one raises
        PositionError with :meth:`read_query`'s first message."""
        draft, messages = cls.read_query(params)
        if messages:
            raise PositionError(messages[0])
        return draft

    @classmethod
    def read_query(cls, params: Mapping[str, str]) -> tuple[Draft, list[str]]:
        """Read :meth:`to_query`'s parameters leniently: a bad one is skipped (its
        default used) with one message naming it, every good one is kept.
        Numbers are ASCII digits only (four at most), a card list holds at most
        the deck's cards. Unknown and empty parameters are ignored. Too many
        copies of a value is no link error: :meth:`position` names that zone.

        >>> d, messages = Draft.read_query({"players": "3", "active": "5", "line0": "6,1"})
        >>> d.lines, d.active
        ([[6, 1], [], []], 0)
        >>> messages
        ['link parameter active=5: there are 3 seats, active=0 to 2 (Seat 1 to Seat 3 on the page)']
        >>> Draft.read_query({"line1": "6,x"})[1]
        ['link parameter line1=6,x (Seat 2 line): x is not a card value (1 to 10)']
        >>> Draft.read_query({"players": "2", "loot3": "9,9"})[1]
        ['link parameter loot3=9,9 (Seat 4 loot): there are 2 seats (Seat 1 to Seat 2), so this one was not read']

        A link counts seats from 0, as files do; each message says the seat as the page numbers it too.
        """
        messages: list[str] = []

        def refuse(key: str, why: str) -> None:
            seat = re.fullmatch(r"(line|loot|lost)(\d)", key)
            where = "" if seat is None else (f" (Seat {int(seat[2]) + 1} "
                                             f"{ {'lost': 'lost turns'}.get(seat[1], seat[1]) })")
            messages.append(f"link parameter {key}={_shown(params[key])}{where}: {why}")

        def number(key: str, default: int, low: int, high: int, bounds: str) -> int:
            text = params.get(key, "")
            if text == "":
                return default
            if not _digits(text):
                refuse(key, "not a whole number (digits 0-9 only)")
            elif len(text) > _MAX_DIGITS:
                refuse(key, f"too many digits; {bounds}")
            elif not low <= int(text) <= high:
                refuse(key, bounds)
            else:
                return int(text)
            return default

        def cards(key: str) -> list[int]:
            text = params.get(key, "")
            if text == "":
                return []
            # Counted before splitting: a link may carry any number of commas.
            if (n := text.count(",") + 1) > DECK_SIZE:
                refuse(key, f"{n} cards, more than the whole deck ({DECK_SIZE})")
                return []
            out = []
            for item in text.split(","):
                if item == "":
                    refuse(key, "an empty card between commas")
                    return []
                if not (_digits(item) and len(item) <= _MAX_DIGITS and int(item) in VALUES):
                    refuse(key, f"{_shown(item)} is not a card value (1 to 10)")
                    return []
                out.append(int(item))
            return out

        players = number("players", 2, 2, 5, "Hit! is for 2 to 5 players")
        active = number("active", 0, 0, players - 1, f"there are {players} seats, active=0 to {players - 1} "
                                                      f"(Seat 1 to Seat {players} on the page)")
        lines, loots, lost = [], [], []
        for seat in range(players):
            lines.append(cards(f"line{seat}"))
            loots.append(cards(f"loot{seat}"))
            lost.append(number(f"lost{seat}", 0, 0, MAX_LOST_TURNS, f"lost turns go from 0 to {MAX_LOST_TURNS}"))
        for seat in range(players, 10):  # a seat the table does not have: its cards would silently stay in the pile
            for zone in ("line", "loot", "lost"):
                value = params.get(f"{zone}{seat}", "")
                if value and not (zone == "lost" and value == "0"):  # lost3=0 loses nothing
                    refuse(f"{zone}{seat}", f"there are {players} seats (Seat 1 to Seat {players}), so this one "
                                            f"was not read")
        discard = cards("discard")
        offer = number("offer", 0, 1, 10, "not a card value (1 to 10)") or None
        match = None
        if params.get("match", ""):
            parts = params["match"].split("/", 7)
            totals = [t.split(".") for t in parts[2:]]
            numbers = parts[:2] + [n for t in totals for n in t]
            if len(parts) != 2 + players or any(len(t) != 3 for t in totals):
                refuse("match", f"not round/rounds then points.cards.lost_turns for each of the {players} seats")
            elif not all(_digits(n) and len(n) <= _MAX_DIGITS for n in numbers):
                refuse("match", "not whole numbers (digits 0-9 only, four at most)")
            else:
                match = MatchSoFar(int(parts[0]), int(parts[1]),
                                   tuple(Totals(int(p), int(c), int(lt)) for p, c, lt in totals))
        return cls(lines, loots, lost, discard, active, offer, match), messages


def _digits(text: str) -> bool:
    """Only ASCII 0-9 (str.isdigit alone takes '٣' and '５', int() also ' 3' and '+3')."""
    return text.isascii() and text.isdigit()


def _shown(text: str) -> str:
    """A value as a message shows it, cut after a few characters: bare, or
    quoted with hidden characters escaped when spaces or such would not show."""
    cut = text if len(text) <= _SHOWN else text[:_SHOWN] + "…"
    return cut if cut.isprintable() and not any(c.isspace() for c in cut) else repr(cut)


def _short(message: str) -> str:
    """A message with its long runs cut (a 4000-digit number, a huge list's repr),
    keeping its start and its end, where the reason is."""
    message = re.sub(r"\S{%d,}" % (2 * _SHOWN), lambda m: m[0][:_SHOWN] + "…", message)
    # 360 holds the longest real message (too many of a value, over eleven zones).
    return message if len(message) <= 360 else message[:260] + " … " + message[-100:]
