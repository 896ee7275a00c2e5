"""A game followed card by card at a real table, or played in practice against bots; saved as it goes.

A :class:`LiveGame` is a saved game (:mod:`solver.play.store`) and the rules
engine's state replayed from its record (:mod:`solver.game.record`). Each action
(a card revealed, a steal taken or declined, a stop, the timer) is applied
by the rules engine, and the lines it logs are saved in one step before the
action counts: a reload, a closed tab or a restarted server resumes exactly
where the game was. Undo removes the last choice and what followed from it.

In practice mode the cards come from the app: each draw's value is chosen
from the pile's composition with a generator seeded by the game's seed and
the line number, so the same game deals the same cards after a reload or an
undo and redo.

>>> import tempfile
>>> from pathlib import Path
>>> store = GameStore(Path(tempfile.mkdtemp()) / "g.sqlite")
>>> live = LiveGame.start(store, "Test", "live", ["Ann", "Bob"], first=0)
>>> _ = live.act("draw", 7); _ = live.act("stop")
>>> live.game.active, LiveGame(store, live.gid).game.players[0].line
(1, [7])
>>> live.undo(); live.game.phase.value
'choose'
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from solver.game.cards import cards_of
from solver.game.position import Position
from solver.game.record import RecordError, event_json, game_end, header, name_problem, replay
from solver.game.rules import Action, Event, Game, IllegalActionError, Phase
from solver.play.simulate import position_of
from solver.play.store import GameMovedOn, GameStore, NoSuchGame, SavedGame, StoreError

__all__ = ["GameMovedOn", "LiveGame", "NoSuchGame", "RecordError", "StoreError"]


class LiveGame:
    """One saved game, live or practice, with the rules engine's state."""

    def __init__(self, store: GameStore, gid: int) -> None:
        self.store = store
        self.gid = gid
        self.reload()

    @classmethod
    def start(cls, store: GameStore, name: str, kind: str, names: Sequence[str], first: int, rounds: int = 1,
              start: Position | None = None, seed: int | None = None,
              settings: dict[str, Any] | None = None) -> LiveGame:
        """A new game: seats ``names`` (2 to 5), ``first`` starts (R2), ``rounds`` (1, or 2-7: R15),
        optionally joined under way at ``start``."""
        n = len(names)
        if not 2 <= n <= 5:
            raise ValueError(f"Hit! is for 2 to 5 players, not {n}")
        if not 0 <= first < n:
            raise ValueError(f"seat {first + 1} does not exist (seats are 1 to {n})")
        if not (rounds == 1 or 2 <= rounds <= 7):
            raise ValueError(f"one round, or 2 to 7 in the rounds variant (R15), not {rounds}")
        if start is not None and len(start.players) != n:
            raise ValueError(f"the position has {len(start.players)} seats, the game {n}")
        if start is not None and start.match is not None:  # its standings would leave out what its advice counts
            raise ValueError("a table in a later round of a match (R15) is followed as one game: a record holds "
                             "rounds from their first card")
        for seat, x in enumerate(names):
            problem = name_problem(x)
            if problem is not None:  # the record would refuse it: the game could never be opened
                raise ValueError(f"the name of seat {seat + 1} {problem} (a name is plain text of 1 to 40 "
                                 f"characters, with a letter or a digit)")
        head = header(n, list(names), rounds, rounds > 1, seed)
        opening: dict[str, Any] = {"event": "round", "round": 1, "first": first}
        if start is not None:
            opening["start"] = json.loads(start.to_json())
        gid = store.create(name, kind, head, settings, rest=[opening])  # one step: never a game with no round
        return cls(store, gid)

    def reload(self) -> None:
        """Read the game again from the store (after another tab moved it on).

        A saved game that cannot be replayed, or not played on from where it stops, is a
        :class:`~solver.game.record.RecordError` naming the game and the line; :class:`NoSuchGame` if it was
        deleted."""
        self._load(self.store.lines(self.gid), self.store.game(self.gid))

    def _load(self, rows: list[str], saved: SavedGame) -> None:
        choices: list[int] = []  # the line number of each choice (a timer and what it drew and ended: one choice)
        try:
            replayed = replay(rows, on_choice=lambda game, event, line, round_: choices.append(line),
                              tidy_names=True)
            replayed.check_resumable()
        except RecordError as e:
            raise RecordError(f"saved game {self.gid} ({saved.name}): {e}") from None
        self.rows, self.replayed, self.choices, self.saved = rows, replayed, choices, saved

    # -- state -------------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        game = self.replayed.game
        assert game is not None
        return game

    @property
    def names(self) -> list[str]:
        return self.replayed.names

    @property
    def over(self) -> bool:
        """The whole game (every round) is over."""
        return self.replayed.over

    @property
    def round(self) -> int:
        return len(self.replayed.match.games)

    def position(self) -> Position | None:
        """The table as the active seat sees it, at a decision; None once the round is over, and at the
        steal the pile's last card offers (R9: no model advises there; taking only adds to the line)."""
        if self.game.is_over or not self.game.pile:
            return None
        return position_of(self.game)

    def can_undo(self) -> bool:
        return self._last_choice() is not None

    # -- actions -----------------------------------------------------------------------------------
    def act(self, action: Action | str, value: int | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for the active seat (``value``: the card revealed, for a draw) and save it.

        An illegal action raises :class:`~solver.game.rules.IllegalActionError` and
        changes nothing; :class:`GameMovedOn` if another tab moved the game on
        (this copy is reloaded first).
        """
        if self.over:
            raise IllegalActionError("the game is over")
        events = self.game.apply(action, value)
        self._save(events)
        return events

    def timeout(self, value: int | None = None) -> tuple[Event, ...]:
        """R14: the active seat's time ran out (``value``: the card then drawn for it, if it had none yet)."""
        events = self.game.timeout(value)
        self._save(events)
        return events

    def dealt(self) -> int:
        """Practice mode: the value of the next card, dealt from the pile (the same after a reload or a redo)."""
        if not self.game.pile:
            raise IllegalActionError("the pile is empty: no card is left to deal")
        seed = self.replayed.seed or 0
        return random.Random(f"hit-practice/{seed}/{len(self.rows)}").choice(cards_of(self.game.pile_counts()))

    def undo(self) -> None:
        """Remove the last choice and everything that followed from it."""
        last = self._last_choice()
        if last is None:
            raise IllegalActionError("nothing to undo")
        try:
            self.store.cut(self.gid, len(self.rows), last, seen=self.rows)
        finally:
            self._reload_after()

    def _last_choice(self) -> int | None:
        # The index in rows of the last choice's line (line numbers count from 1).
        return self.choices[-1] - 1 if self.choices else None

    def _save(self, events: tuple[Event, ...]) -> None:
        new = [event_json(e) for e in events]
        match = self.replayed.match
        if self.game.is_over:
            if len(match.games) < match.rounds:  # R15: the next round, first seat one further
                first = (self.replayed.firsts[0] + len(match.games)) % match.num_players
                new.append({"event": "round", "round": len(match.games) + 1, "first": first})
            else:
                new.append(game_end(match))
        try:
            self.store.append(self.gid, len(self.rows), new, seen=self.rows)
        finally:
            self._reload_after()  # the saved game is the truth: what this tab did, or what another tab did first

    def _reload_after(self) -> None:
        # After a change, saved or refused: the game as saved now; if it cannot be read (deleted, the file
        # gone), as this copy last read it, so that a tap that did not count does not show.
        try:
            self.reload()
        except (NoSuchGame, StoreError):
            self._load(self.rows, self.saved)
            raise

    def decision(self) -> str | None:
        """What the active seat must decide now: "draw" (first card), "steal", "stop or draw"; None if over."""
        phase = self.game.phase
        return {Phase.MUST_DRAW: "draw", Phase.STEAL: "steal", Phase.CHOOSE: "stop or draw"}.get(phase)
