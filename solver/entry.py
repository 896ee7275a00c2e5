"""The advisor's entry form as plain Python: a :class:`Draft` of a table.

A draft is what a person has typed so far: it may not be a legal position
yet (that is checked by :meth:`Draft.position`, which raises
:class:`~solver.position.PositionError` naming the zone). It knows the
zones cards go into, adding, removing, clearing and undoing, loots as counts
per value, and its two portable forms: the command line's JSON and URL
query parameters. The Streamlit app only draws it.

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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import VALUES, cards_of
from .position import Position, PositionError, position_dict

__all__ = ["Draft", "zone_label"]

_MAX_UNDO = 200


def zone_label(zone: str) -> str:
    """How a zone is named on screen.

    >>> zone_label("line 2"), zone_label("loot 0"), zone_label("discard")
    ('Seat 2 line', 'Seat 0 loot', 'Discard')
    """
    if zone == "discard":
        return "Discard"
    kind, seat = zone.split()
    return f"Seat {seat} {kind}"


@dataclass
class Draft:
    """A table being entered: lines, loots, lost turns, discard, active seat, offer."""

    lines: list[list[int]]
    loots: list[list[int]]
    lost_turns: list[int]
    discard: list[int] = field(default_factory=list)
    active: int = 0
    offer: int | None = None
    _history: list[dict[str, Any]] = field(default_factory=list, compare=False, repr=False)

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
    def add(self, zone: str, value: int) -> None:
        """Put a card of ``value`` into ``zone``."""
        if value not in VALUES:
            raise ValueError(f"{value!r} is not a card value (1 to 10)")
        target = self.zone(zone)
        self._save()
        target.append(value)

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
        """Replace a loot by counts per value (people stack their loot)."""
        if len(per_value) != 10 or any(n < 0 for n in per_value):
            raise ValueError("a loot by counts needs ten counts of zero or more")
        self._save()
        self.loots[seat] = cards_of(tuple(per_value))

    def set_players(self, players: int) -> None:
        """Change the number of seats (2 to 5), keeping the first seats' cards."""
        if not 2 <= players <= 5:
            raise ValueError(f"Hit! is for 2 to 5 players, not {players}")
        self._save()
        for zones in (self.lines, self.loots):
            del zones[players:]
            zones.extend([] for _ in range(players - len(zones)))
        self.lost_turns = (self.lost_turns + [0] * players)[:players]
        self.active = min(self.active, players - 1)
        self._drop_stale_offer()

    def set_active(self, seat: int) -> None:
        self._save()
        self.active = seat
        self._drop_stale_offer()

    def set_offer(self, value: int | None) -> None:
        self._save()
        self.offer = value

    def set_lost_turns(self, seat: int, count: int) -> None:
        self._save()
        self.lost_turns[seat] = count

    def undo(self) -> bool:
        """Go back one edit; False when there is nothing to undo."""
        if not self._history:
            return False
        state = self._history.pop()
        for key, value in state.items():
            setattr(self, key, value)
        return True

    def _save(self) -> None:
        self._history.append(copy.deepcopy(self._state()))
        del self._history[:-_MAX_UNDO]

    def _state(self) -> dict[str, Any]:
        return {"lines": self.lines, "loots": self.loots, "lost_turns": self.lost_turns,
                "discard": self.discard, "active": self.active, "offer": self.offer}

    def _drop_stale_offer(self) -> None:
        if self.offer is not None and self.offer not in self.lines[self.active]:
            self.offer = None

    # -- checked position and portable forms -------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON schema."""
        return position_dict(self.lines, self.loots, self.lost_turns, self.active, self.discard, self.offer)

    def position(self) -> Position:
        """The checked position (raises PositionError naming what is wrong)."""
        return Position.from_dict(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Draft:
        """A draft from the command line's JSON (checked like any position)."""
        pos = Position.from_dict(data)
        return cls([list(p.line) for p in pos.players], [list(p.loot) for p in pos.players],
                   [p.lost_turns for p in pos.players], list(pos.discard), pos.active, pos.offer)

    @classmethod
    def from_json(cls, text: str | bytes) -> Draft:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise PositionError(f"not a JSON position: {e}") from None
        return cls.from_dict(data)

    def to_query(self) -> dict[str, str]:
        """Short URL parameters: ``players``, ``active``, ``line0``, ``loot0``,
        ``lost0``, …, ``discard``, ``offer`` (cards comma-separated, empty ones left out)."""
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
        return q

    @classmethod
    def from_query(cls, params: Mapping[str, str]) -> Draft:
        """Read :meth:`to_query`'s parameters back; a bad one raises
        PositionError naming the parameter. Unknown parameters are ignored."""

        def number(key: str, default: int) -> int:
            text = params.get(key)
            if text is None or text == "":
                return default
            try:
                return int(text)
            except ValueError:
                raise PositionError(f"link parameter {key}={text!r} is not a whole number") from None

        def cards(key: str) -> list[int]:
            text = params.get(key, "")
            try:
                return [int(x) for x in text.split(",") if x.strip()]
            except ValueError:
                raise PositionError(f"link parameter {key}={text!r} is not a comma-separated list of cards") from None

        players = number("players", 2)
        if not 2 <= players <= 5:
            raise PositionError(f"link parameter players={players}: Hit! is for 2 to 5 players")
        draft = cls([cards(f"line{s}") for s in range(players)], [cards(f"loot{s}") for s in range(players)],
                    [number(f"lost{s}", 0) for s in range(players)], cards("discard"), number("active", 0),
                    number("offer", 0) or None)
        return draft
