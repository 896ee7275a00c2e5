"""The learned evaluator: every seat's chance to win at the start of a turn, 2 to 5 players (an estimate).

``docs/MODELS.md``, "the chance to win from any position": where the game is
too large to solve, the `win` model searches the active player's turn exactly
and values each end of the turn with this evaluator, a small network trained
by self-play (``python -m solver train``, :mod:`solver.study.train`). It sees
what a Hit! player would name (:func:`features`): the pile by value and the
cards left, each seat's loot points, loot cards, lost turns and face-up line,
who is to play, and the rounds still to come in the rounds variant (R15,
earlier rounds' totals counted into the loots). Seats are listed from the one
to play on, so one network per table size serves every seat.

The network is one hidden layer of rectified units and a softmax over the
seats (a logistic unit for two players), read from ``data/win/evaluator.npz``;
``data/win/evaluator.json`` holds its checksum and how it was trained. A
missing or damaged file is refused with :class:`WeightsError`, which names
the file and the command that rebuilds it: no other model stands in.
Inference is numpy (:meth:`Evaluator.chances`, the reference) or numba
(:func:`solver.models.kernel.chances_into`, in the search's kernel), the same numbers.

>>> from solver.game.cards import DECK_COPIES, counts
>>> pile = [c - k for c, k in zip(DECK_COPIES, counts([10, 10, 9, 2, 5]))]
>>> table = Table.of([[10, 10, 9], [2]], [[], [5]], [0, 1], to_play=0, pile=pile)
>>> ev = evaluator()
>>> p = ev.chances(table.features(ev.exposure(2))[None, :])[0]
>>> len(p), round(float(p.sum()), 9), bool(p[0] > p[1])   # the seat to play leads by 27 points
(2, 1.0, True)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.cards import Counts, counts
from solver.models import kernel
from solver.models.advice import ModelError

__all__ = [
    "DATA",
    "REBUILD",
    "Evaluator",
    "Table",
    "WeightsError",
    "evaluator",
    "feature_count",
    "features",
    "weights_checksum",
    "weights_folder",
]

#: Where the shipped weights and their manifest live (the repository's data/win/).
DATA = Path(__file__).resolve().parents[2] / "data" / "win"
#: The command that rebuilds them.
REBUILD = "python -m solver train"

_SEAT_FEATURES = kernel.SEAT_FEATURES
_SHARED_FEATURES = kernel.SHARED_FEATURES
_EXPOSURE_FEATURES = kernel.EXPOSURE_FEATURES


def feature_count(players: int, exposure: bool = False) -> int:
    """How many inputs the network for ``players`` seats reads (with ``exposure``: the lines' exposure too)."""
    return (_SEAT_FEATURES + (_EXPOSURE_FEATURES if exposure else 0)) * players + _SHARED_FEATURES


class WeightsError(ModelError):
    """The evaluator's weights are missing or damaged: the message names the file and the rebuild command."""


@dataclass(frozen=True)
class Table:
    """What the evaluator sees at a turn's start: the whole table, every seat by its absolute number.

    ``lines`` are the face-up lines (the seat to play has banked its own,
    R3), ``loot_points``/``loot_cards``/``lost`` each seat's loot and lost
    turns with earlier rounds' totals added (R15), ``rounds_left`` the rounds
    still to come after this one.
    """

    pile: Counts
    lines: tuple[Counts, ...]
    loot_points: tuple[int, ...]
    loot_cards: tuple[int, ...]
    lost: tuple[int, ...]
    to_play: int
    rounds_left: int = 0

    @classmethod
    def of(cls, loots: Sequence[Sequence[int]], lines: Sequence[Sequence[int]], lost: Sequence[int], to_play: int,
           pile: Sequence[int], rounds_left: int = 0) -> Table:
        """A table from cards as a player lists them (loots and lines as card values)."""
        return cls(tuple(pile), tuple(counts(line) for line in lines), tuple(sum(x) for x in loots),
                   tuple(len(x) for x in loots), tuple(lost), to_play, rounds_left)

    def features(self, exposure: bool = False) -> np.ndarray:
        """The network's inputs for this table (:func:`features` of a batch of one)."""
        n = len(self.lines)
        x: np.ndarray = features(np.array([self.pile]), np.array([self.lines]), np.array([self.loot_points]),
                        np.array([self.loot_cards]), np.array([self.lost]), np.array([self.to_play]),
                        np.array([self.rounds_left]), n, exposure)[0]
        return x


def features(pile: np.ndarray, lines: np.ndarray, loot_points: np.ndarray, loot_cards: np.ndarray,
             lost: np.ndarray, to_play: np.ndarray, rounds_left: np.ndarray, players: int,
             exposure: bool = False) -> np.ndarray:
    """The inputs of a batch of tables: ``pile`` ``[B, 10]``, ``lines`` ``[B, n, 10]``, the per-seat arrays
    ``[B, n]``, ``to_play`` and ``rounds_left`` ``[B]``. Seats are rotated so that the seat to play comes first.

    Per seat, in turn order from the seat to play (16 each): its loot points, loot cards, lost turns, line
    points and line cards, its standing (loot and line points minus the best other seat's), and its line by
    value; then the pile by value, the cards left, the pile's points, the seat to play's number and the rounds
    still to come (14). With ``exposure`` (a network trained with it), two more per seat in the same order:
    how exposed its face-up line is to the next card, the points that card steals from it on average (over
    the pile, in tens) and the chance it can steal from it at all. Each is scaled to about [0, 1]. Computed
    by the compiled
    :func:`solver.models.kernel.features_into`, the one copy the search uses too.
    """
    i64 = np.int64
    x: np.ndarray = kernel.features_batch(np.asarray(pile, i64).reshape(-1, 10), np.asarray(lines, i64),
                                 np.asarray(loot_points, i64), np.asarray(loot_cards, i64), np.asarray(lost, i64),
                                 np.asarray(to_play, i64), np.asarray(rounds_left, i64), players, exposure)
    return x


class Evaluator:
    """One network per table size: ``chances(x)`` is every rotated seat's chance to win, rows summing to 1.

    ``weights`` maps ``"{n}p/W1"``, ``"{n}p/b1"``, ``"{n}p/W2"``, ``"{n}p/b2"`` (and the input scaling
    ``"{n}p/mean"``, ``"{n}p/scale"``) to arrays.
    """

    def __init__(self, weights: dict[str, np.ndarray], source: str = "weights") -> None:
        self.source = source
        self.nets: dict[int, tuple[np.ndarray, ...]] = {}
        for n in range(2, 6):
            keys = [f"{n}p/{k}" for k in ("mean", "scale", "W1", "b1", "W2", "b2")]
            if not all(k in weights for k in keys):
                continue
            mean, scale, w1, b1, w2, b2 = (np.ascontiguousarray(weights[k], dtype=np.float64) for k in keys)
            widths = ((feature_count(n),), (feature_count(n, True),))  # without or with the lines' exposure
            if (mean.shape not in widths or scale.shape != mean.shape or w1.shape[0] != mean.shape[0]
                    or b1.shape != (w1.shape[1],) or w2.shape[0] != w1.shape[1]
                    or w2.shape[1] != (1 if n == 2 else n) or b2.shape != (w2.shape[1],)):
                raise WeightsError(f"{source}: the {n}-player network's arrays do not fit together; "
                                   f"rebuild the weights with: {REBUILD}")
            # Fold the input scaling into the first layer: x' = (x - mean) / scale.
            w1s = w1 / scale[:, None]
            b1s = b1 - (mean / scale) @ w1
            self.nets[n] = (np.ascontiguousarray(w1s), b1s, w2, b2)

    def inputs(self, players: int) -> int:
        """How many inputs the network for ``players`` seats reads."""
        return int(self.network(players)[0].shape[0])

    def exposure(self, players: int) -> bool:
        """Whether the network for ``players`` seats reads the lines' exposure (:func:`features`)."""
        return self.inputs(players) == feature_count(players, True)

    def network(self, players: int) -> tuple[np.ndarray, ...]:
        try:
            return self.nets[players]
        except KeyError:
            raise WeightsError(f"{self.source} has no network for {players} players; rebuild the weights "
                               f"with: {REBUILD}") from None

    def chances(self, x: np.ndarray, players: int | None = None) -> np.ndarray:
        """The plain numpy reference: ``[B, n]`` chances for a ``[B, features]`` batch."""
        n = players if players is not None else _players_of(x.shape[1])
        w1, b1, w2, b2 = self.network(n)
        h = np.maximum(x @ w1 + b1, 0.0)
        z = h @ w2 + b2
        if n == 2:
            p1 = 1.0 / (1.0 + np.exp(-z[:, 0]))
            return np.stack([1.0 - p1, p1], axis=1)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


    def by_seat(self, pile: np.ndarray, lines: np.ndarray, loot_points: np.ndarray, loot_cards: np.ndarray,
                lost: np.ndarray, to_play: np.ndarray, rounds_left: np.ndarray) -> np.ndarray:
        """Every seat's chance to win (``[B, n]``, by absolute seat) at a batch of tables (:func:`features`)."""
        n = lines.shape[1]
        p = self.chances(features(pile, lines, loot_points, loot_cards, lost, to_play, rounds_left, n,
                                  self.exposure(n)), n)
        out = np.empty_like(p)
        rows = np.arange(p.shape[0])[:, None]
        out[rows, (np.asarray(to_play)[:, None] + np.arange(n)[None, :]) % n] = p
        return out


def _players_of(width: int) -> int:
    for per in (_SEAT_FEATURES, _SEAT_FEATURES + _EXPOSURE_FEATURES):
        n, rest = divmod(width - _SHARED_FEATURES, per)
        if not rest and 2 <= n <= 5:
            return n
    raise ValueError(f"{width} inputs are no table size's features")


def weights_checksum(path: Path) -> str:
    """The SHA-256 of a weights file, as the manifest records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(folder: Path = DATA) -> Evaluator:
    """The evaluator in ``folder`` (``evaluator.npz`` checked against ``evaluator.json``); refused with a
    :class:`WeightsError` naming the file and :data:`REBUILD` when either is missing or damaged."""
    npz, manifest = folder / "evaluator.npz", folder / "evaluator.json"
    for path in (npz, manifest):
        if not path.is_file():
            raise WeightsError(f"the chance-to-win evaluator's file {path} is missing; rebuild it with: {REBUILD}")
    try:
        meta: Any = json.loads(manifest.read_text(encoding="utf-8"))
        expected = meta["sha256"]
    except (ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"{manifest} is damaged ({exc}); rebuild it with: {REBUILD}") from None
    if weights_checksum(npz) != expected:
        raise WeightsError(f"the chance-to-win evaluator's file {npz} does not match the checksum in {manifest} "
                           f"(damaged or changed by hand); rebuild it with: {REBUILD}")
    try:
        with np.load(npz, allow_pickle=False) as data:
            weights = {k: data[k] for k in data.files}
    except (OSError, ValueError) as exc:
        raise WeightsError(f"{npz} cannot be read ({exc}); rebuild it with: {REBUILD}") from None
    return Evaluator(weights, str(npz))


@lru_cache(maxsize=4)
def _cached(folder: str, stamp: float) -> Evaluator:
    return load(Path(folder))


def weights_folder() -> Path:
    """The folder of the weights `win` reads: the one ``HIT_WIN_WEIGHTS`` names, else the shipped one."""
    return Path(os.environ.get("HIT_WIN_WEIGHTS") or DATA)


def evaluator(folder: Path | None = None) -> Evaluator:
    """The shipped evaluator (or the one in the folder ``HIT_WIN_WEIGHTS`` names), loaded once (again if the
    file changes)."""
    if folder is None:
        folder = weights_folder()
    npz = folder / "evaluator.npz"
    try:
        stamp = npz.stat().st_mtime
    except OSError:
        stamp = -1.0
    return _cached(str(folder), stamp)
