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

>>> from solver.game.rules import Match
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
from typing import Any, TypeGuard

from solver.game.cards import VALUES, cards_of, deck
from solver.game.position import Position, PositionError
from solver.game.rules import (Busted, Collected, Declined, Drew, Ended, Event, Game, IllegalActionError, Match, Phase, Player,
                    Stole, Stopped, TimedOut)

__all__ = ["CHOICES", "FORMAT", "MAX_NAME", "VERSION", "GameEnd", "Line", "RecordError", "Replay", "RoundStart",
           "dumps", "event_from_json", "event_json", "game_end", "header", "lines", "name_problem", "read_line",
           "replay", "seat_of"]

FORMAT = "hit"
VERSION = 1
#: The longest name a seat may have in a record.
MAX_NAME = 40

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
    if not isinstance(kind, str) or kind not in _TYPES:
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
    pending: list[Event] = field(default_factory=list)  # what the rules give next that the record has not yet
    last_line: int = 1  # the number of the record's last line read

    @property
    def game(self) -> Game | None:
        """The round being played (or the last one)."""
        return self.match.games[-1] if self.match.games else None

    def check_resumable(self) -> None:
        """A :class:`RecordError` unless the game can be played on from where the record stops (or is over):
        a round under way at a choice. A record may stop anywhere to be replayed or reviewed, but one that
        stops before any round, between what a choice made the rules give, or after a round's end without
        what follows cannot be played on."""
        where = f"line {self.last_line}"
        match = self.match
        if self.over:
            return
        if not match.games:
            raise RecordError(f"{where}: the record has only its header: no round starts (a 'round' line must "
                              f"follow)")
        if self.pending:
            raise RecordError(f"{where}: the record stops before what the rules give next: {_show(self.pending[0])}")
        if match.games[-1].is_over:
            if len(match.games) < match.rounds:
                raise RecordError(f"{where}: round {len(match.games)} is over but round {len(match.games) + 1} "
                                  f"does not start (a 'round' line must follow)")
            raise RecordError(f"{where}: the last round is over but the record has no 'game end' line")


def name_problem(name: object) -> str | None:
    """What is wrong with a seat's name, or None: a name is plain text of 1 to :data:`MAX_NAME` characters,
    with a letter or a digit, and no control characters, newlines or tabs.

    >>> name_problem("Ann"), name_problem("threshold:25")
    (None, None)
    >>> name_problem("****")
    'has no letter or digit'
    """
    if not isinstance(name, str):
        return "is not a text"
    if not name.strip():
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long; {MAX_NAME} at most"
    if not name.isprintable():
        return "holds a control character, a newline or a tab"
    if name != " ".join(name.split()):
        return "has spaces at its ends or two in a row"
    if not any(c.isalnum() for c in name):
        return "has no letter or digit"
    return None


def replay(text: str | Iterable[str], on_choice: Callable[[Game, Event, int, int], None] | None = None, *,
           tidy_names: bool = False) -> Replay:
    """Play a record through the rules engine; :class:`RecordError` at the first line the rules contradict.

    ``on_choice(game, event, line, round)``, if given, is called just before
    each choice (draw, steal, decline, stop, timer) is applied, with the game
    as the player saw it, the choice's line number and the round (from 1):
    the review walks a record this way. ``tidy_names``: a name the header
    may not hold (:func:`name_problem`) is shown tidied instead of refused
    (for a game saved before names were checked).
    """
    rows = text.splitlines() if isinstance(text, str) else list(text)
    if not rows or not rows[0].strip():
        raise RecordError("line 1: a record starts with its header, and this one is empty")
    head = _object(rows[0], 1)
    match, names, seed = _header(head, tidy_names)
    out = Replay(match, names, seed=seed)
    pending = out.pending
    for number, row in enumerate(rows[1:], start=2):
        if not row.strip():
            continue
        out.last_line = number
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
        pending[:] = logged[1:]
    if pending and out.over:
        raise RecordError(f"end of record: the rules still give {_show(pending[0])}")
    return out


@dataclass(frozen=True)
class RoundStart:
    """A record's ``round`` line: the round (from 1), its first seat and, for a round joined under way, the
    seat that was to decide in the position it was joined at (None for a round dealt from the start)."""

    round: int
    first: int
    joined_active: int | None = None


@dataclass(frozen=True)
class GameEnd:
    """A record's ``game end`` line: the match's scores (R11, R15) and its winner (R12)."""

    scores: tuple[int, ...]
    winner: int


#: One line of a record after its header, as :func:`read_line` reads it.
Line = Event | RoundStart | GameEnd


def read_line(row: str, number: int = 0) -> Line:
    """One line of a record after its header, read on its own (whether the rules allow it is :func:`replay`'s
    question); a :class:`RecordError` naming line ``number`` if it describes nothing.

    >>> read_line('{"event": "steal", "seat": 0, "value": 3, "taken": 1, "from": [[1, 1]]}')
    Stole(player=0, value=3, taken=1, sources=((1, 1),))
    >>> read_line('{"event": "round", "round": 2, "first": 1}')
    RoundStart(round=2, first=1, joined_active=None)
    """
    data = _object(row, number)
    kind, where = data.get("event"), f"line {number}"
    if kind == "round":
        start = data.get("start")
        active = start.get("active") if isinstance(start, dict) else None
        if not (_is_int(data.get("round")) and _is_int(data.get("first"))
                and (start is None or _is_int(active))):
            raise RecordError(f"{where}: a 'round' line needs round, first and, if joined, a start with its active seat")
        return RoundStart(data["round"], data["first"], active)
    if kind == "game end":
        scores, winner = data.get("scores"), data.get("winner")
        if not (isinstance(scores, list) and all(_is_int(x) for x in scores) and _is_int(winner)):
            raise RecordError(f"{where}: a 'game end' line needs its scores and winner")
        return GameEnd(tuple(scores), winner)
    return event_from_json(data, where)


def seat_of(line: Line) -> int | None:
    """The seat a line is about, or None (a round's start or end, the game's end).

    >>> seat_of(read_line('{"event": "stop", "seat": 1, "line": [7, 3]}')), seat_of(RoundStart(1, 0))
    (1, None)
    """
    return line.player if isinstance(line, (Drew, Busted, Stole, Declined, Stopped, Collected, TimedOut)) else None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _object(row: str, number: int) -> dict[str, Any]:
    try:
        data = json.loads(row, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise RecordError(f"line {number}: not valid JSON: {e.msg} at column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"line {number}: not valid JSON: nested too deeply") from None
    except ValueError as e:  # Python's limit on the digits of an int, or NaN and Infinity (not JSON)
        if "digits" in str(e):
            raise RecordError(f"line {number}: a number with over 4,300 digits") from None
        raise RecordError(f"line {number}: not valid JSON: {str(e)[:60]}") from None
    if not isinstance(data, dict):
        raise RecordError(f"line {number}: each line of a record is a JSON object, not {type(data).__name__}")
    return data


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _header(head: dict[str, Any], tidy_names: bool = False) -> tuple[Match, list[str], int | None]:
    if head.get("record") != FORMAT:
        raise RecordError(f"line 1: not a Hit! game record (its header must have \"record\": \"{FORMAT}\")")
    if not _is_int(head.get("version")) or head.get("version") != VERSION:
        raise RecordError(f"line 1: record version {_shown(head.get('version'), 20)}; this solver reads "
                          f"version {VERSION}")
    players, rounds = head.get("players"), head.get("rounds", 1)
    if not _is_int(players) or not 2 <= players <= 5:
        raise RecordError(f"line 1: players {_shown(players, 20)}: Hit! is for 2 to 5 players")
    if not _is_int(rounds) or not (rounds == 1 or 2 <= rounds <= 7):
        raise RecordError(f"line 1: rounds {_shown(rounds, 20)}: one round, or 2 to 7 in the rounds variant (R15)")
    variant = head.get("variant", rounds > 1)
    if not isinstance(variant, bool):
        raise RecordError(f"line 1: variant {_shown(variant, 20)} is not true or false")
    if variant != (rounds > 1):
        raise RecordError(f"line 1: rounds {rounds} with variant {json.dumps(variant)}: the rounds variant (R15) "
                          f"is 2 to 7 rounds (variant true), a single game one round (variant false)")
    seed = head.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError(f"line 1: seed {_shown(seed, 20)} is not a whole number or null")
    names = head.get("names")
    if names is None or names == []:
        names = [f"seat {i + 1}" for i in range(players)]
    if not isinstance(names, list) or len(names) != players:
        raise RecordError(f"line 1: names must be a list of {players} names, one per seat")
    shown = []
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None and not tidy_names:
            raise RecordError(f"line 1: names[{seat}] {_shown(name, 24)} {problem} (a name is plain text of 1 to "
                              f"{MAX_NAME} characters, with a letter or a digit)")
        shown.append(name if problem is None else _tidy(name, seat))
    return Match(players, rounds=rounds, variant=variant), shown, seed


def _tidy(name: Any, seat: int) -> str:
    """A name a record may not hold, as it shows (for a game saved before names were checked)."""
    text = " ".join("".join(c if c.isprintable() else " " for c in str(name)).split())[:MAX_NAME].strip()
    return text if any(c.isalnum() for c in text) else f"seat {seat + 1}"


def _new_round(out: Replay, data: dict[str, Any], pending: list[Event], where: str) -> None:
    match = out.match
    extra = [k for k in data if k not in ("event", "round", "first", "start")]
    if extra:
        raise RecordError(f"{where}: a 'round' line has the fields round, first and, for a game joined under way, "
                          f"start; unknown {', '.join(_shown(e, 20) for e in extra[:3])}")
    if match.games and not match.games[-1].is_over:
        raise RecordError(f"{where}: round {len(match.games)} is not over; a new round cannot start")
    if len(match.games) >= match.rounds:
        raise RecordError(f"{where}: the header says {match.rounds} round(s); this would be one more")
    if not _is_int(data.get("round")) or data.get("round") != len(match.games) + 1:
        raise RecordError(f"{where}: expected round {len(match.games) + 1}, the record says "
                          f"{_shown(data.get('round'), 20)}")
    first = data.get("first")
    if not _is_int(first) or not 0 <= first < match.num_players:
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
    except RecursionError:
        raise RecordError(f"{where}: start: nested too deeply") from None
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
                raise RecordError(f"{where}: {_shown(event.value, 20)} is not a card value")
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
            after = next(((k, r) for k, r in enumerate(rows[number:], start=number + 1) if r.strip()), None)
            nxt = _object(after[1], after[0]) if after is not None else {}
            value = nxt.get("value") if nxt.get("event") == "draw" else None
            if not _is_int(value) or value not in VALUES:
                raise RecordError(f"{where}: a timer before the first card must be followed by that card's draw")
        return game.timeout(value)
    except IllegalActionError as e:
        raise RecordError(f"{where}: {e}") from None


def _check_end(out: Replay, data: dict[str, Any], pending: list[Event], where: str) -> None:
    match = out.match
    if len(match.games) < match.rounds or not match.games[-1].is_over or pending:
        raise RecordError(f"{where}: 'game end' before the last round is over")
    expected = game_end(match)
    extra = [k for k in data if k not in expected]
    if extra:
        raise RecordError(f"{where}: a 'game end' line has the fields {', '.join(k for k in expected if k != 'event')}"
                          f"; unknown {', '.join(_shown(e, 20) for e in extra[:3])}")
    for key in ("scores", "loot_cards", "lost_turns", "ranking", "winner"):
        if key not in data or not _same(data[key], expected[key]):
            raise RecordError(f"{where}: {key}: the rules give {expected[key]}, the record says "
                              f"{_shown(data.get(key), 60)}")


def _shown(value: Any, limit: int = 20) -> str:
    """A value of the record as JSON, cut short: error messages quote at most ``limit`` characters of it."""
    if isinstance(value, (list, dict)) and len(value) > limit:
        value = list(value)[:limit]  # a million items is not written out to be cut
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "…"


def _same(value: Any, expected: Any) -> bool:
    """``value`` is ``expected`` as JSON writes it: the same types (``true`` is not ``1``), the same items."""
    if type(value) is not type(expected):
        return False
    if isinstance(expected, list):
        return len(value) == len(expected) and all(_same(v, e) for v, e in zip(value, expected))
    return bool(value == expected)


def _show(event: Event) -> str:
    return json.dumps(event_json(event))

