"""Tournaments between bots over simulated games, with 95% intervals.

One seat plays the *tested* bot, the others the *baseline*. Games come in
sets of one per seat: game ``g`` is dealt from ``(seed, g // players)`` and
seats the tested bot at ``g % players``, so within a set every seat plays
the same first hands (duplicate format; play soon differs, and with it the
cards drawn). A game is won by the lowest total once somebody reaches 100
(H12); a tie for the lowest shares the win (each of ``k`` tied players gets
``1/k``).

The win rate's interval is Wilson's 95% score interval (fractional wins
count as they are). Points per hand are averaged over all hands of all
games; their interval is the normal approximation (mean ± 1.96 standard
errors over the hands), and so is the interval of the *margin* per hand
(the tested seat's points minus the baseline seats' mean in the same hand,
negative when the tested bot does better).

:func:`tournament_game` plays one game and :func:`summarise` sums games up,
so :func:`tournament` is the two together; :func:`write_games` writes the
games of some pairings and their summary to a data folder (CSV, with a
README giving the columns, the command and the files' SHA-256).

>>> r = tournament(6, seed=1, players=3)
>>> r.games, r.tested, r.baseline, 0 <= r.win_low <= r.win_rate <= r.win_high <= 1
(6, 'advisor', 'highest', True)
>>> [round(x, 4) for x in wilson(64, 100)]
[0.5424, 0.7273]
"""

from __future__ import annotations

import csv
import hashlib
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.utilities.stats import Z95, wilson  # game-neutral statistics, shared with Hit!'s tournaments
from solver.utilities.outputs import Output, atomic  # how a batch command's folder is recognised and written, shared too
from .bots import BOTS, make, play_game
from .rules import TARGET

__all__ = ["GAME_COLUMNS", "OUTPUT", "SUMMARY_COLUMNS", "TABLE_HEAD", "Z95", "GameResult", "Pairing", "TournamentResult",
           "normal_interval", "summarise", "tournament", "tournament_game", "wilson", "write_games"]

#: The head of the Markdown table of results (``docs/HITTHEDECK.md`` has the same).
TABLE_HEAD = ("| tested | baseline | players | win rate | 95% Wilson interval | an equal player | points per hand "
              "| margin per hand (95% interval) |\n| --- | --- | --- | --- | --- | --- | --- | --- |")


#: What ``tournament --out`` writes into its folder: the games, their summary and the README.
OUTPUT = Output("--out", frozenset({"games.csv", "summary.csv"}), "# Hit the Deck tournaments")

#: The columns of ``games.csv`` (one row a game) and what each holds.
GAME_COLUMNS: dict[str, str] = {
    "pairing": "tested vs baseline (players)",
    "tested": "the tested bot",
    "baseline": "the bot in every other seat",
    "players": "seats at the table (2 to 6)",
    "seed": "the tournament's seed",
    "game": "the game's index g in its pairing (0-based)",
    "deal": "g // players: the game is dealt from (seed, deal)",
    "tested_seat": "g % players: the tested bot's seat (0-based)",
    "winners": "the seats with the lowest total (H12), space-separated; more than one is a tie",
    "win_share": "the tested bot's share of the win: 1/k if it is one of k winners, else 0",
    "totals": "every seat's total over the game (H12), space-separated, seat 0 first",
    "tested_total": "the tested seat's total",
    "hands": "hands played",
    "points_per_hand": "tested_total / hands, rounded to 4 places (the summary uses the exact sums)",
    "margin": "tested_total minus the other seats' mean total: the game's margin per hand summed over its hands",
    "hand_points": "every seat's points in every hand: hands in order separated by ';', seats by spaces",
}

#: The columns of ``summary.csv`` (one row a pairing) and what each holds.
SUMMARY_COLUMNS: dict[str, str] = {
    "pairing": "tested vs baseline (players)",
    "tested": "the tested bot",
    "baseline": "the bot in every other seat",
    "players": "seats",
    "seed": "the tournament's seed",
    "games": "games played",
    "hands": "hands played in all",
    "wins": "the sum of win_share",
    "win_rate": "wins / games",
    "win_low": "95% Wilson interval of the win rate, low end",
    "win_high": "95% Wilson interval, high end",
    "fair_share": "the win rate of an equal player (1 / players)",
    "tested_points": "the tested seat's mean points per hand, over every hand of every game",
    "tested_points_low": "95% normal interval (mean ± 1.96 standard errors over the hands), low end",
    "tested_points_high": "its high end",
    "baseline_points": "the baseline seats' mean points per hand",
    "margin": "the mean margin per hand: the tested seat's points minus the baseline seats' mean, hand by hand",
    "margin_low": "95% normal interval of the margin, low end",
    "margin_high": "its high end",
}


def normal_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation interval (mean ± z standard errors)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, -math.inf, math.inf)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


@dataclass(frozen=True)
class TournamentResult:
    """What a tournament measured; :meth:`summary` says it in a few lines."""

    tested: str
    baseline: str
    players: int
    games: int
    seed: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    hands: int
    tested_points: float
    tested_points_low: float
    tested_points_high: float
    baseline_points: float
    margin: float
    margin_low: float
    margin_high: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def row(self) -> dict[str, Any]:
        """The result as a row of ``summary.csv`` (:data:`SUMMARY_COLUMNS`)."""
        d = self.to_dict()
        d.update(pairing=Pairing(self.tested, self.baseline, self.players).name, fair_share=1 / self.players)
        return {c: d[c] for c in SUMMARY_COLUMNS}

    def table_row(self) -> str:
        """The result as a row of the Markdown table in ``docs/HITTHEDECK.md`` and the data folder's README."""
        return (f"| {self.tested} | {self.baseline} | {self.players} | {self.win_rate:.1%} | "
                f"{self.win_low:.1%} to {self.win_high:.1%} | {1 / self.players:.1%} | {self.tested_points:.2f} | "
                f"{self.margin:+.2f} ({self.margin_low:+.2f} to {self.margin_high:+.2f}) |")

    def summary(self) -> str:
        fair = 1 / self.players
        return (f"{self.tested} against {self.players - 1} x {self.baseline}, {self.games} games "
                f"({self.hands} hands), seed {self.seed}:\n"
                f"  win rate {self.win_rate:.1%} (95% Wilson interval {self.win_low:.1%} to {self.win_high:.1%}; "
                f"an equal player wins {fair:.1%})\n"
                f"  points per hand {self.tested_points:.2f} (95% normal interval {self.tested_points_low:.2f} to "
                f"{self.tested_points_high:.2f}) against {self.baseline_points:.2f} per {self.baseline} seat\n"
                f"  margin per hand {self.margin:+.2f} (95% normal interval {self.margin_low:+.2f} to "
                f"{self.margin_high:+.2f}; negative: {self.tested} scores fewer points)")


@dataclass(frozen=True)
class Pairing:
    """One tested bot against ``players - 1`` baseline bots.

    >>> p = Pairing.parse("points:highest:2")
    >>> p, p.name
    (Pairing(tested='points', baseline='highest', players=2), 'points vs highest (2p)')
    """

    tested: str
    baseline: str
    players: int

    def __post_init__(self) -> None:
        for name in (self.tested, self.baseline):
            if name not in BOTS:
                raise ValueError(f"no bot called {name[:30]!r}; the bots are {', '.join(BOTS)}")
        if not 2 <= self.players <= 6:
            raise ValueError(f"Hit the Deck is for 2 to 6 players, not {self.players}")

    @property
    def name(self) -> str:
        return f"{self.tested} vs {self.baseline} ({self.players}p)"

    @property
    def spec(self) -> str:
        """``TESTED:BASELINE:PLAYERS``, what :meth:`parse` reads."""
        return f"{self.tested}:{self.baseline}:{self.players}"

    @classmethod
    def parse(cls, text: str) -> Pairing:
        """A pairing written ``TESTED:BASELINE:PLAYERS``; :class:`ValueError` says what is wrong."""
        parts = text.split(":")
        if len(parts) != 3 or not (parts[2].isascii() and parts[2].isdigit() and len(parts[2]) == 1):
            raise ValueError(f"a pairing is TESTED:BASELINE:PLAYERS (like advisor:highest:3), not {text[:40]!r}")
        return cls(parts[0], parts[1], int(parts[2]))


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament: where the tested bot sat, the winners and every seat's points in every hand.

    >>> g = tournament_game(Pairing("advisor", "random", 2), 2026, 3)
    >>> g.deal, g.tested_seat, g.totals == tuple(map(sum, zip(*g.hand_points))), max(g.totals) >= 100
    (1, 1, True, True)
    """

    pairing: Pairing
    seed: int
    game: int
    winners: tuple[int, ...]
    hand_points: tuple[tuple[int, ...], ...]

    @property
    def deal(self) -> int:
        return self.game // self.pairing.players

    @property
    def tested_seat(self) -> int:
        return self.game % self.pairing.players

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(h[s] for h in self.hand_points) for s in range(self.pairing.players))

    @property
    def win_share(self) -> float:
        return 1 / len(self.winners) if self.tested_seat in self.winners else 0.0

    def margins(self) -> list[float]:
        """Per hand, the tested seat's points minus the other seats' mean."""
        seat = self.tested_seat
        return [h[seat] - statistics.fmean([p for s, p in enumerate(h) if s != seat]) for h in self.hand_points]

    def row(self) -> dict[str, Any]:
        """The game as a row of ``games.csv`` (:data:`GAME_COLUMNS`)."""
        p, seat, totals = self.pairing, self.tested_seat, self.totals
        hands = len(self.hand_points)
        others = Fraction(sum(totals) - totals[seat], p.players - 1)
        return {"pairing": p.name, "tested": p.tested, "baseline": p.baseline, "players": p.players,
                "seed": self.seed, "game": self.game, "deal": self.deal, "tested_seat": seat,
                "winners": " ".join(map(str, self.winners)), "win_share": self.win_share,
                "totals": " ".join(map(str, totals)), "tested_total": totals[seat], "hands": hands,
                "points_per_hand": round(totals[seat] / hands, 4), "margin": float(totals[seat] - others),
                "hand_points": ";".join(" ".join(map(str, h)) for h in self.hand_points)}


def tournament_game(pairing: Pairing, seed: int, game: int, target: int = TARGET) -> GameResult:
    """Game ``game`` of ``pairing``'s tournament with ``seed`` (the same game every time).

    >>> a = tournament_game(Pairing("advisor", "highest", 3), 2026, 4)
    >>> a == tournament_game(Pairing("advisor", "highest", 3), 2026, 4), a.tested_seat
    (True, 1)
    """
    deal, seat = divmod(game, pairing.players)
    bots = [make(pairing.tested if s == seat else pairing.baseline, seed=f"{seed}/{game}/{s}")
            for s in range(pairing.players)]
    played = play_game(bots, seed=f"{seed}/{deal}", target=target)
    return GameResult(pairing, seed, game, played.winners(), tuple(r.points for r in played.rounds))


def summarise(results: Sequence[GameResult]) -> TournamentResult:
    """The games of one pairing and seed summed up: the win rate, points and margin with their intervals.

    >>> p = Pairing("first", "random", 2)
    >>> summarise([tournament_game(p, 5, g) for g in range(4)]) == tournament(4, 5, tested="first",
    ...                                                                      baseline="random", players=2)
    True
    """
    if not results:
        raise ValueError("no games to sum up")
    pairing, seed = results[0].pairing, results[0].seed
    if any(r.pairing != pairing or r.seed != seed for r in results):
        raise ValueError("the games to sum up are of more than one pairing or seed")
    wins = 0.0
    tested_points: list[float] = []
    baseline_points: list[float] = []
    margins: list[float] = []
    for r in results:
        wins += r.win_share
        seat = r.tested_seat
        for h in r.hand_points:
            tested_points.append(h[seat])
            baseline_points.extend(p for s, p in enumerate(h) if s != seat)
        margins.extend(r.margins())
    games = len(results)
    low, high = wilson(wins, games)
    tp = normal_interval(tested_points)
    m = normal_interval(margins)
    return TournamentResult(pairing.tested, pairing.baseline, pairing.players, games, seed, wins, wins / games,
                            low, high, len(tested_points), tp[0], tp[1], tp[2], statistics.fmean(baseline_points),
                            m[0], m[1], m[2])


def tournament(games: int, seed: int = 2026, *, tested: str = "advisor", baseline: str = "highest",
               players: int = 3, target: int = TARGET,
               progress: Callable[[int, int], None] | None = None) -> TournamentResult:
    """Play ``games`` games of one ``tested`` bot against ``players - 1`` ``baseline`` bots.

    ``progress(done, games)`` is called after each game (for a page's progress bar).
    """
    pairing = Pairing(tested, baseline, players)
    if games < 1:
        raise ValueError(f"games: {games} is not a number of games (1 or more)")
    results = []
    for g in range(games):
        results.append(tournament_game(pairing, seed, g, target))
        if progress is not None:
            progress(g + 1, games)
    return summarise(results)


def _write_csv(path: Path, columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_games(pairings: Sequence[Pairing], games: int, seed: int, out: str | Path, *, command: str = "",
                log: Callable[[str], None] | None = None) -> list[TournamentResult]:
    """Play ``games`` games of each pairing and write them to the folder ``out``, replacing what it held.

    ``out`` must be new, empty or a folder this wrote (:data:`OUTPUT`), else
    :class:`solver.utilities.outputs.OutputFolderError`: nothing else there is ever overwritten.

    Writes ``games.csv`` (one row a game, :data:`GAME_COLUMNS`), ``summary.csv`` (one row a pairing,
    :func:`summarise`'s figures, :data:`SUMMARY_COLUMNS`) and ``README.md`` (the results, the columns,
    ``command`` as the one that rebuilds the folder, and the files' SHA-256). ``log`` gets each
    pairing's summary when it is done. Returns the summaries.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [r] = write_games([Pairing("first", "random", 2)], 2, 7, folder)
    ...     lines = (Path(folder) / "games.csv").read_text().splitlines()
    >>> r.games, len(lines), lines[1].startswith("first vs random (2p),first,random,2,7,0,0,0,")
    (2, 3, True)
    """
    if games < 1:
        raise ValueError(f"games: {games} is not a number of games (1 or more)")
    if not pairings or len(set(pairings)) != len(pairings):
        raise ValueError("write_games needs one or more pairings, each once")
    folder = OUTPUT.check(out)
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    results: list[TournamentResult] = []
    for pairing in pairings:
        played = [tournament_game(pairing, seed, g) for g in range(games)]
        rows.extend(g.row() for g in played)
        results.append(summarise(played))
        if log is not None:
            log(results[-1].summary())
    atomic(folder / "games.csv", lambda p: _write_csv(p, list(GAME_COLUMNS), rows))
    atomic(folder / "summary.csv", lambda p: _write_csv(p, list(SUMMARY_COLUMNS), [r.row() for r in results]))
    files = [(name, count, _sha256(folder / name)) for name, count in (("games.csv", len(rows)),
                                                                       ("summary.csv", len(results)))]
    readme = _readme(results, command, files)
    atomic(folder / "README.md", lambda p: p.write_text(readme, encoding="utf-8"))
    return results


def _readme(results: Sequence[TournamentResult], command: str, files: Sequence[tuple[str, int, str]]) -> str:
    games = results[0].games
    lines = [str(OUTPUT.heading), "",
             f"Bots of Hit the Deck against each other: {len(results)} pairing{'s' * (len(results) > 1)} of "
             f"{games:,} games each, seed {results[0].seed}. One seat plays the "
             "tested bot and the others the baseline; game `g` is dealt from `(seed, g // players)` with the "
             "tested bot in seat `g % players` (`solver/hitthedeck/tournament.py`). "
             "The games are seeded: the same command writes the same files.", ""]
    if command:
        lines += ["Rebuilt with:", "", "```sh", command, "```", ""]
    lines += [TABLE_HEAD, *(r.table_row() for r in results), "",
              "## games.csv", "", "One row a game.", "", "| column | meaning |", "| --- | --- |",
              *(f"| `{c}` | {m} |" for c, m in GAME_COLUMNS.items()), "",
              "## summary.csv", "", "One row a pairing: its games summed up.", "", "| column | meaning |",
              "| --- | --- |", *(f"| `{c}` | {m} |" for c, m in SUMMARY_COLUMNS.items()), "",
              "## Files and checksums (SHA-256)", "", "| file | rows | sha256 |", "| --- | --- | --- |",
              *(f"| `{name}` | {rows} | `{digest}` |" for name, rows, digest in files), ""]
    return "\n".join(lines)
