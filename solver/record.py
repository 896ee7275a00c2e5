"""Game records: a whole game or match as JSON Lines, written by the rules engine and replayed exactly.

The format (``docs/RECORDS.md`` describes it for other tools) is one JSON
object per line. The first line is the header::

    {"record": "hit", "version": 1, "players": 2, "names": ["turn", "threshold:25"],
     "rounds": 1, "variant": false, "seed": 7}

then, for each round, ``{"event": "round", "round": 1, "first": 0}`` (with
``"start": POSITION`` for a game joined under way: the table as it stood,
the active seat to decide) and every event of that round in order, as the
rules engine logged it::

    {"event": "draw", "seat": 0, "value": 7}
    {"event": "bust", "seat": 0, "value": 7, "lost": [7, 3]}
    {"event": "steal", "seat": 1, "value": 5, "taken": 2, "from": [[0, 2]]}
    {"event": "decline", "seat": 1, "value": 5}
    {"event": "stop", "seat": 1, "line": [5, 5, 5, 2]}
    {"event": "collect", "seat": 1, "cards": [5, 5, 5, 2]}
    {"event": "timer", "seat": 0, "phase": "choose"}
    {"event": "round end", "scores": [180, 210]}

and, once the match is over, ``{"event": "game end", "scores": […],
"loot_cards": […], "lost_turns": […], "ranking": […], "winner": 1}`` (match
totals under the rounds variant, R15; the ranking by R11 and R12).

Replaying (:func:`replay`) plays the record's choices (draws, steals,
declines, stops, timers) through a fresh rules engine and checks that every
other event (busts, collects, the ends) is exactly what the rules make of
them; a record that contradicts the rules is refused with the event number
and the reason. A record may stop anywhere (a game under way): it replays to
that point.

>>> from solver.rules import Match
>>> m = Match(2, seed=3)
>>> m.play(lambda g: g.legal_actions()[0])
>>> text = dumps(m, names=["first legal", "first legal"])
>>> replayed = replay(text)
>>> replayed.match.totals()[0].score == m.totals()[0].score, replayed.over
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import VALUES, cards_of, deck
from .position import Position, PositionError
from .rules import (Busted, Collected, Declined, Drew, Ended, Event, Game, IllegalActionError, Match, Phase, Player,
                    Stole, Stopped, TimedOut)

__all__ = ["CHOICES", "FORMAT", "VERSION", "RecordError", "Replay", "dumps", "event_from_json", "event_json",
           "game_end", "header", "lines", "replay"]

FORMAT = "hit"
VERSION = 1

# The engine's records and their names in the format; "player" is written "seat", "sources" "from".
_NAMES: dict[type, str] = {Drew: "draw", Busted: "bust", Stole: "steal", Declined: "decline", Stopped: "stop",
                           Collected: "collect", TimedOut: "timer", Ended: "round end"}
_TYPES = {name: cls for cls, name in _NAMES.items()}
_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": ("seat", "value"), "bust": ("seat", "value", "lost"), "steal": ("seat", "value", "taken", "from"),
    "decline": ("seat", "value"), "stop": ("seat", "line"), "collect": ("seat", "cards"),
    "timer": ("seat", "phase"), "round end": ("scores",),
}
#: The events that are a player's choice (or the timer's); the rest follow from the rules.
CHOICES = ("draw", "steal", "decline", "stop", "timer")


class RecordError(ValueError):
    """A record that cannot be read or contradicts the rules; the message names the line and the reason."""


def event_json(event: Event) -> dict[str, Any]:
    """One engine record as a line of the format.

    >>> event_json(Stole(player=1, value=5, taken=2, sources=((0, 2),)))
    {'event': 'steal', 'seat': 1, 'value': 5, 'taken': 2, 'from': [[0, 2]]}
    """
    out: dict[str, Any] = {"event": _NAMES[type(event)]}
    for key, value in vars(event).items():
        name = {"player": "seat", "sources": "from"}.get(key, key)
        if isinstance(value, Phase):
            value = value.value
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        out[name] = value
    return out


def event_from_json(data: dict[str, Any], where: str) -> Event:
    """The engine record a line describes; a :class:`RecordError` naming ``where`` if it describes none."""
    kind = data.get("event")
    if kind not in _TYPES:
        raise RecordError(f"{where}: unknown event {_shown(kind, 40)} (events: round, "
                          f"{', '.join(_TYPES)}, game end)")
    names = _FIELDS[kind]
    missing = [n for n in names if n not in data]
    extra = [k for k in data if k not in names and k != "event"]
    if missing or extra:
        raise RecordError(f"{where}: a {kind!r} event has the fields {', '.join(names)}"
                          + (f"; missing {', '.join(missing)}" if missing else "")
                          + (f"; unknown {', '.join(str(e)[:20] for e in extra[:3])}" if extra else ""))
    try:
        values = [_field(n, data[n]) for n in names]
        return _TYPES[kind](*values)  # type: ignore[no-any-return]
    except (TypeError, ValueError) as e:
        raise RecordError(f"{where}: {kind!r} event: {e}") from None


def _field(name: str, value: Any) -> Any:
    if name in ("seat", "value", "taken"):
        return _int(name, value)
    if name == "phase":
        try:
            return Phase(value)
        except ValueError:
            raise ValueError(f"phase {_shown(value, 20)} is not one of "
                             f"{', '.join(p.value for p in Phase)}") from None
    if name == "from":
        if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
            raise ValueError("'from' is not a list of [seat, cards] pairs")
        return tuple((_int("from seat", s), _int("from cards", k)) for s, k in value)
    if not isinstance(value, list):
        raise ValueError(f"{name} is not a list")
    return tuple(_int(name, v) for v in value)


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} {_shown(value, 20)} is not a whole number")
    return value


def header(players: int, names: Sequence[str] = (), rounds: int = 1, variant: bool = False,
           seed: int | None = None) -> dict[str, Any]:
    """The first line of a record."""
    return {"record": FORMAT, "version": VERSION, "players": players,
            "names": list(names) or [f"seat {i + 1}" for i in range(players)],
            "rounds": rounds, "variant": variant, "seed": seed}


def lines(match: Match, names: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Every line of ``match``'s record, as objects."""
    out = [header(match.num_players, names, match.rounds, match.variant, match.seed)]
    for k, game in enumerate(match.games):
        out.append({"event": "round", "round": k + 1, "first": game.first})
        out += [event_json(e) for e in game.log]
    if len(match.games) == match.rounds and match.games and match.games[-1].is_over:
        out.append(game_end(match))
    return out


def dumps(match: Match, names: Sequence[str] = ()) -> str:
    """``match``'s record as JSON Lines text."""
    return "".join(json.dumps(line) + "\n" for line in lines(match, names))


def game_end(match: Match) -> dict[str, Any]:
    """The record's last line for a finished match: totals, ranking (R11, R12) and winner."""
    totals = match.totals()
    ranking = match.ranking()
    return {"event": "game end", "scores": [p.score for p in totals], "loot_cards": [len(p.loot) for p in totals],
            "lost_turns": [p.lost_turns for p in totals], "ranking": ranking, "winner": ranking[0]}


@dataclass
class Replay:
    """A record played through the rules engine: the match as it stands, and where each round started."""

    match: Match
    names: list[str]
    firsts: list[int] = field(default_factory=list)
    starts: list[Any] = field(default_factory=list)  # per round: the position it was joined at, or None
    over: bool = False  # its 'game end' line was read
    seed: int | None = None

    @property
    def game(self) -> Game | None:
        """The round being played (or the last one)."""
        return self.match.games[-1] if self.match.games else None


def replay(text: str | Iterable[str], on_choice: Callable[[Game, Event, int, int], None] | None = None) -> Replay:
    """Play a record through the rules engine; :class:`RecordError` at the first line the rules contradict.

    ``on_choice(game, event, line, round)``, if given, is called just before
    each choice (draw, steal, decline, stop, timer) is applied, with the game
    as the player saw it, the choice's line number and the round (from 1):
    the review walks a record this way.
    """
    rows = text.splitlines() if isinstance(text, str) else list(text)
    if not rows or not rows[0].strip():
        raise RecordError("line 1: a record starts with its header, and this one is empty")
    head = _object(rows[0], 1)
    got = _header(head)
    match, names = got
    out = Replay(match, names, seed=head.get("seed"))
    pending: list[Event] = []
    for number, row in enumerate(rows[1:], start=2):
        if not row.strip():
            continue
        where = f"line {number}"
        data = _object(row, number)
        kind = data.get("event")
        if out.over:
            raise RecordError(f"{where}: the game has ended; nothing may follow its 'game end' line")
        if kind == "round":
            _new_round(out, data, pending, where)
            continue
        if kind == "game end":
            _check_end(out, data, pending, where)
            out.over = True
            continue
        game = out.game
        if game is None:
            raise RecordError(f"{where}: an event before the first 'round' line")
        event = event_from_json(data, where)
        if pending:
            expected = pending.pop(0)
            if event != expected:
                raise RecordError(f"{where}: the rules give {_show(expected)} here, the record says {_show(event)}")
            continue
        if kind not in CHOICES:
            raise RecordError(f"{where}: {_show(event)} does not follow from the rules here "
                              f"(the next event must be a choice: {', '.join(CHOICES)})")
        if on_choice is not None:
            on_choice(game, event, number, len(out.match.games))
        logged = _apply(game, event, rows, number, where)
        if not logged or logged[0] != event:
            raise RecordError(f"{where}: the rules give {_show(logged[0]) if logged else 'nothing'} for this "
                              f"choice, the record says {_show(event)}")
        pending = list(logged[1:])
    if pending and out.over:
        raise RecordError(f"end of record: the rules still give {_show(pending[0])}")
    return out


def _object(row: str, number: int) -> dict[str, Any]:
    try:
        data = json.loads(row)
    except json.JSONDecodeError as e:
        raise RecordError(f"line {number}: not valid JSON: {e.msg} at column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"line {number}: not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError(f"line {number}: each line of a record is a JSON object, not {type(data).__name__}")
    return data


def _header(head: dict[str, Any]) -> tuple[Match, list[str]]:
    if head.get("record") != FORMAT:
        raise RecordError(f"line 1: not a Hit! game record (its header must have \"record\": \"{FORMAT}\")")
    if head.get("version") != VERSION:
        raise RecordError(f"line 1: record version {_shown(head.get('version'), 20)}; this solver reads "
                          f"version {VERSION}")
    players, rounds, variant = head.get("players"), head.get("rounds", 1), bool(head.get("variant", False))
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
        raise RecordError(f"line 1: players {_shown(players, 20)}: Hit! is for 2 to 5 players")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not (rounds == 1 or 2 <= rounds <= 7):
        raise RecordError(f"line 1: rounds {_shown(rounds, 20)}: one round, or 2 to 7 in the rounds variant (R15)")
    names = head.get("names") or [f"seat {i + 1}" for i in range(players)]
    if not isinstance(names, list) or len(names) != players:
        raise RecordError(f"line 1: names must be a list of {players} names, one per seat")
    return Match(players, rounds=rounds, variant=variant or rounds > 1), [str(n)[:60] for n in names]


def _new_round(out: Replay, data: dict[str, Any], pending: list[Event], where: str) -> None:
    match = out.match
    if match.games and not match.games[-1].is_over:
        raise RecordError(f"{where}: round {len(match.games)} is not over; a new round cannot start")
    if len(match.games) >= match.rounds:
        raise RecordError(f"{where}: the header says {match.rounds} round(s); this would be one more")
    if data.get("round") != len(match.games) + 1:
        raise RecordError(f"{where}: expected round {len(match.games) + 1}, the record says "
                          f"{_shown(data.get('round'), 20)}")
    first = data.get("first")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < match.num_players:
        raise RecordError(f"{where}: first {_shown(first, 20)} is not a seat (0 to {match.num_players - 1})")
    if out.firsts and match.variant and first != (out.firsts[0] + len(out.firsts)) % match.num_players:
        raise RecordError(f"{where}: R15 passes the first turn one seat on each round: seat "
                          f"{(out.firsts[0] + len(out.firsts)) % match.num_players}, not {first}")
    out.firsts.append(first)
    start = data.get("start")
    if start is None:
        # The deck in order: every draw chooses its value, so the order never matters (R10).
        match.add_round(Game(match.num_players, first=first, pile=deck()))
    else:
        match.add_round(_joined(start, match.num_players, first, where))
    out.starts.append(start)
    pending.clear()


def _joined(start: Any, players: int, first: int, where: str) -> Game:
    """A round joined under way: the table as the ``start`` position shows it, the active seat to decide."""
    try:
        pos = Position.from_dict(start, f"{where}: start: ")
    except PositionError as e:
        raise RecordError(str(e)) from None
    if len(pos.players) != players:
        raise RecordError(f"{where}: start: {len(pos.players)} seats, the header says {players}")
    if pos.offer is not None:
        raise RecordError(f"{where}: start: a game is joined at a decision with no steal on offer")
    seats = [Player(list(p.line), list(p.loot), p.lost_turns) for p in pos.players]
    game = Game.resume(seats, pos.active, cards_of(pos.pile()), pos.discard)
    game.first = first
    game.match = pos.match  # a round of a match joined under way keeps the match it is in (R15)
    return game


def _apply(game: Game, event: Event, rows: Sequence[str], number: int, where: str) -> tuple[Event, ...]:
    if game.is_over:
        raise RecordError(f"{where}: the round is over; the next line must be 'round' or 'game end'")
    if getattr(event, "player", game.active) != game.active:
        raise RecordError(f"{where}: it is seat {game.active}'s turn, not seat {getattr(event, 'player')}'s")
    try:
        if isinstance(event, Drew):
            if event.value not in VALUES:
                raise RecordError(f"{where}: {event.value} is not a card value")
            return game.draw(event.value)
        if isinstance(event, Stole):
            return game.steal()
        if isinstance(event, Declined):
            return game.decline()
        if isinstance(event, Stopped):
            return game.stop()
        assert isinstance(event, TimedOut)
        if event.phase is not game.phase:
            raise RecordError(f"{where}: the timer ran out in phase {game.phase.value!r}, "
                              f"not {event.phase.value!r}")
        value = None
        if game.phase is Phase.MUST_DRAW:  # R14 draws one card for the player: the next line says which
            nxt = _object(rows[number], number + 1) if number < len(rows) else {}
            value = nxt.get("value") if nxt.get("event") == "draw" else None
            if not isinstance(value, int) or value not in VALUES:
                raise RecordError(f"{where}: a timer before the first card must be followed by that card's draw")
        return game.timeout(value)
    except IllegalActionError as e:
        raise RecordError(f"{where}: {e}") from None


def _check_end(out: Replay, data: dict[str, Any], pending: list[Event], where: str) -> None:
    match = out.match
    if len(match.games) < match.rounds or not match.games[-1].is_over or pending:
        raise RecordError(f"{where}: 'game end' before the last round is over")
    expected = game_end(match)
    for key in ("scores", "loot_cards", "lost_turns", "ranking", "winner"):
        if data.get(key) != expected[key]:
            raise RecordError(f"{where}: {key}: the rules give {expected[key]}, the record says "
                              f"{_shown(data.get(key), 60)}")


def _shown(value: Any, limit: int = 20) -> str:
    """A value of the record as JSON, cut short: error messages quote at most ``limit`` characters of it."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _show(event: Event) -> str:
    return json.dumps(event_json(event))

