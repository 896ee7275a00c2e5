"""Positions: a table state as the solver sees it, read from and written to JSON.

Everything on a Hit! table is public (R10), so a position lists each
player's face-up line, loot and lost-turn count, the discard, the active
seat and, optionally, the value whose steal is on offer. The pile's
composition follows: the full deck minus every line, loot and discard.

>>> pos = Position.from_json('''{"players": [
...     {"line": [6, 1, 5], "loot": [3, 7, 7], "lost_turns": 0},
...     {"line": [5, 5], "loot": [], "lost_turns": 1}],
...   "active": 0, "discard": [8, 8, 2], "offer": 5}''')
>>> pos.pile()
(10, 10, 10, 11, 8, 6, 5, 5, 7, 7)
>>> pos.pile_size(), pos.stealable(5)
(79, 2)
>>> Position.from_json('{"players": [{"line": [11]}, {}], "active": 0}')
Traceback (most recent call last):
...
solver.game.position.PositionError: players[0].line[0]: 11 is not a card value (1 to 10)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from solver.game.cards import DECK_COPIES, DECK_SIZE, DECK_TOTAL, VALUES, Counts, add, counts, subtract
from solver.game.core import TurnState, busts
from solver.game.rules import MatchSoFar, Totals

__all__ = ["PlayerView", "Position", "PositionError", "position_dict"]


class PositionError(ValueError):
    """A position that cannot be on a Hit! table; the message says where."""


@dataclass(frozen=True)
class PlayerView:
    """One seat as everybody sees it."""

    line: tuple[int, ...] = ()
    loot: tuple[int, ...] = ()
    lost_turns: int = 0


@dataclass(frozen=True)
class Position:
    """A checked table state. Build it with :meth:`from_dict` or :meth:`from_json`."""

    players: tuple[PlayerView, ...]
    active: int
    discard: tuple[int, ...] = ()
    offer: int | None = None
    #: The rounds variant (R15): which round this is and the totals of the rounds before (None: one round).
    match: MatchSoFar | None = None
    _pile: Counts = field(default=(), compare=False, repr=False)

    # -- reading -----------------------------------------------------------
    @classmethod
    def from_json(cls, text: str, where: str = "") -> Position:
        """Parse and check a JSON position; ``where`` prefixes error messages."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PositionError(f"{where}not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        return cls.from_dict(data, where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "") -> Position:
        """Check a decoded JSON object and build the position."""
        seats = data.get("players") if isinstance(data, dict) else None
        if isinstance(seats, list):  # cheap first: a million seats is refused before each is read
            _check_seats(len(seats), where)
        try:
            raw = _RawPosition.model_validate(data)
        except ValidationError as e:
            err = e.errors()[0]
            loc = _format_loc(err["loc"])
            raise PositionError(f"{where}{loc}: {_friendly(err, err['loc'])}") from None
        players = tuple(PlayerView(tuple(p.line), tuple(p.loot), p.lost_turns) for p in raw.players)
        match = None if raw.match is None else MatchSoFar(raw.match.round, raw.match.rounds, tuple(
            Totals(t.points, t.cards, t.lost_turns) for t in raw.match.earlier))
        return cls.build(players, raw.active, tuple(raw.discard), raw.offer, where, match)

    @classmethod
    def build(
        cls,
        players: Sequence[PlayerView],
        active: int,
        discard: Sequence[int] = (),
        offer: int | None = None,
        where: str = "",
        match: MatchSoFar | None = None,
    ) -> Position:
        """Check the rules-level facts and build the position (the same checks as the constructor)."""
        players, discard = tuple(players), tuple(discard)
        _check_match(match, len(players), where)
        return cls(players, active, discard, offer, match, _check(players, active, discard, offer, where))

    def __post_init__(self) -> None:
        # The constructor is a checked entry point too: a position that cannot
        # be on a Hit! table is never built (build() has checked it already
        # when it passes the pile).
        if not self._pile:
            _check_match(self.match, len(self.players), "")
            object.__setattr__(self, "_pile", _check(tuple(self.players), self.active, tuple(self.discard),
                                                     self.offer, ""))

    # -- derived facts -------------------------------------------------------
    def pile(self) -> Counts:
        """Count vector of the pile (R10)."""
        return self._pile

    def pile_size(self) -> int:
        return sum(self._pile)

    @property
    def line(self) -> tuple[int, ...]:
        """The active player's line."""
        return self.players[self.active].line

    def others(self) -> Counts:
        """Count vector of every other player's face-up cards (what can be stolen)."""
        c: Counts = (0,) * 10
        for i, p in enumerate(self.players):
            if i != self.active:
                c = add(c, counts(p.line))
        return c

    def turn_state(self) -> TurnState:
        """The active player's state of the turn: pile, line and what the others hold in reach."""
        return TurnState.start(self._pile, counts(self.line), self.others())

    def stealable(self, value: int) -> int:
        return self.others()[value - 1]

    def steal_on_offer(self) -> int | None:
        """The offered value if other players really hold it, else None."""
        if self.offer is not None and self.stealable(self.offer):
            return self.offer
        return None

    # -- writing -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The command line's JSON schema.

        >>> Position.from_dict({"players": [{"line": [3]}, {}], "active": 1}).to_dict()["players"][0]
        {'line': [3], 'loot': [], 'lost_turns': 0}
        """
        return position_dict([p.line for p in self.players], [p.loot for p in self.players],
                             [p.lost_turns for p in self.players], self.active, self.discard, self.offer,
                             self.match)

    def to_json(self) -> str:
        return json.dumps(self.to_dict())



def _check_seats(seats: int, where: str) -> None:
    if not 2 <= seats <= 5:
        raise PositionError(f"{where}players: Hit! is for 2 to 5 players, this position has {seats}")


def _check_match(match: MatchSoFar | None, seats: int, where: str) -> None:
    """R15's facts: 2 to 7 rounds, this one among them, a total for every seat that earlier rounds can give."""
    if match is None:
        return

    def fail(msg: str) -> PositionError:
        return PositionError(f"{where}match.{msg}")

    if not 2 <= match.rounds <= 7:
        raise fail(f"rounds: the rounds variant has 2 to 7 rounds (R15), not {match.rounds}")
    if not 1 <= match.round <= match.rounds:
        raise fail(f"round: {match.round} is not a round of {match.rounds} (they are 1 to {match.rounds})")
    if len(match.earlier) != seats:
        raise fail(f"earlier: {len(match.earlier)} totals for {seats} players (one per seat, in seat order)")
    before = match.round - 1
    for i, t in enumerate(match.earlier):
        at = f"earlier[{i}]"
        for name, value in (("points", t.points), ("cards", t.cards), ("lost_turns", t.lost_turns)):
            if value < 0:
                raise fail(f"{at}.{name}: {value} is negative")
        if t.cards > DECK_SIZE * before or t.points > DECK_TOTAL * before:
            raise fail(f"{at}: {t.points} points in {t.cards} cards, more than {before} earlier round(s) can "
                       f"give ({DECK_TOTAL} points in {DECK_SIZE} cards a round)")
        if not t.cards <= t.points <= 10 * t.cards:
            raise fail(f"{at}: {t.points} points cannot be {t.cards} cards (each card is worth 1 to 10)")
        if before == 0 and t.lost_turns:
            raise fail(f"{at}.lost_turns: round 1 has no earlier rounds, so no lost turns before it")
    # Across the seats: a round deals 445 points in 90 cards, and a lost turn discards four cards or more (R5).
    points = sum(t.points for t in match.earlier)
    cards = sum(t.cards for t in match.earlier) + 4 * sum(t.lost_turns for t in match.earlier)
    if points > DECK_TOTAL * before or cards > DECK_SIZE * before:
        raise fail(f"earlier: {points} points, and {cards} cards banked or lost (four a lost turn at least), "
                   f"in all; {before} earlier round(s) deal {DECK_TOTAL * before} points in {DECK_SIZE * before} cards")


def _check(players: tuple[PlayerView, ...], active: int, discard: tuple[int, ...], offer: int | None,
           where: str) -> Counts:
    """Every rules-level check of a table; returns the pile (R10). ``where`` prefixes messages."""

    def fail(msg: str) -> PositionError:
        return PositionError(f"{where}{msg}")

    _check_seats(len(players), where)
    if isinstance(active, bool) or not isinstance(active, int) or not 0 <= active < len(players):
        raise fail(f"active: seat {active} does not exist (seats are 0 to {len(players) - 1})")
    zones: list[tuple[str, Sequence[int]]] = [("discard", discard)]
    for i, p in enumerate(players):
        zones += [(f"players[{i}].line", p.line), (f"players[{i}].loot", p.loot)]
        if p.lost_turns < 0:
            raise fail(f"players[{i}].lost_turns: {p.lost_turns} is negative")
    for name, cards in zones:
        for j, v in enumerate(cards):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10:
                raise fail(f"{name}[{j}]: {v!r} is not a card value (1 to 10)")
    seen: Counts = (0,) * 10
    for _, cards in zones:
        seen = add(seen, counts(cards))
    for v, n, deck_n in zip(VALUES, seen, DECK_COPIES):
        if n > deck_n:
            held = ", ".join(f"{name} {list(c).count(v)}" for name, c in zones if v in c)
            raise fail(f"too many {v}s: the deck has {deck_n}, the table shows {n} ({held})")
    pile = subtract(DECK_COPIES, seen)
    if sum(pile) == 0:
        raise fail(
            "the pile is empty: the game is over, there is nothing to decide "
            "(a steal on the last card is always worth taking, R9)"
        )
    if offer is not None:
        if isinstance(offer, bool) or not isinstance(offer, int) or not 1 <= offer <= 10:
            raise fail(f"offer: {offer!r} is not a card value (1 to 10)")
        if offer not in players[active].line:
            raise fail(
                f"offer: the active player (seat {active}) has no {offer} in its line, "
                f"so it cannot have just drawn one"
            )
        before = list(players[active].line)
        del before[len(before) - 1 - before[::-1].index(offer)]  # the card just drawn: the last of its value
        if busts(len(before), offer in before):  # R5: that draw lost the turn, R6: no steal
            raise fail(
                f"offer: a {offer} drawn onto {' '.join(map(str, before))} (three or more face-up cards, one a "
                f"{offer}) loses the turn (R5), so it steals nothing (R6)"
            )
    return pile


def position_dict(lines: Sequence[Sequence[int]], loots: Sequence[Sequence[int]], lost_turns: Sequence[int],
                  active: int, discard: Sequence[int], offer: int | None,
                  match: MatchSoFar | None = None) -> dict[str, Any]:
    """The command line's JSON object for a table (checked or not: the advisor's drafts use it too)."""
    d: dict[str, Any] = {
        "players": [{"line": list(l), "loot": list(o), "lost_turns": t} for l, o, t in zip(lines, loots, lost_turns)],
        "active": active,
        "discard": list(discard),
    }
    if offer is not None:
        d["offer"] = offer
    if match is not None:
        d["match"] = {"round": match.round, "rounds": match.rounds, "earlier": [
            {"points": t.points, "cards": t.cards, "lost_turns": t.lost_turns} for t in match.earlier]}
    return d


# -- the JSON shape, checked by pydantic ------------------------------------
class _RawPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    line: list[int] = []
    loot: list[int] = []
    lost_turns: int = 0


class _RawTotals(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    points: int = 0
    cards: int = 0
    lost_turns: int = 0


class _RawMatch(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    round: int
    rounds: int
    earlier: list[_RawTotals]


class _RawPosition(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    players: list[_RawPlayer]
    active: int
    discard: list[int] = []
    offer: int | None = None
    match: _RawMatch | None = None


def _format_loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "position"


_PLAYER = '{"line": [3, 5], "loot": [9], "lost_turns": 0}'
_TOTALS = '{"points": 61, "cards": 15, "lost_turns": 1}'


def _shown(value: Any) -> str:
    """A value as a message quotes it: its repr, cut to 32 characters."""
    text = repr(value)
    return text if len(text) <= 32 else text[:31] + "…"


def _friendly(err: Any, loc: tuple[int | str, ...] = ()) -> str:
    kind = err["type"]
    if kind == "missing":
        return "is missing"
    if kind == "extra_forbidden":
        if loc[:1] == ("match",):
            return ("is not a field of the match (fields: round, rounds, earlier; per seat: points, cards, "
                    "lost_turns)")
        return ("is not a field of a position (fields: players, active, discard, offer, match; per player: line, "
                "loot, lost_turns)")
    shown = _shown(err.get("input"))
    if kind == "int_type":
        return f"{shown} is not a whole number"
    if kind == "list_type":
        if loc == ("players",):
            return f"{shown} is not a list of players (each an object like {_PLAYER})"
        if loc == ("match", "earlier"):
            return f"{shown} is not a list of totals (one per seat, each an object like {_TOTALS})"
        return f"{shown} is not a list of cards"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        if len(loc) == 2 and loc[0] == "players":
            return f"{shown} is not a player (an object like {_PLAYER})"
        return f"{shown} is not an object"
    return str(err["msg"])
