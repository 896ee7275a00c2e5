"""Self-play tournaments in duplicate format, with 95% Wilson intervals.

A *pairing* seats one player of the tested policy against ``players - 1``
players of the baseline. Each *deal* is one shuffled deck and one first seat;
it is played once per seat of the tested player (every rotation), all on the
same cards, so luck of the deal cancels out between the policies. A game is
won by R11 and R12 (score, then loot cards, then lost turns, then seat).

Chunks of deals run on a local process pool or a Dask cluster and are saved as
they finish (:mod:`solver.utilities.chunks`), so a tournament resumes. The results are
``games`` (one row per game) and ``summary`` (one row per pairing), each as
CSV and Parquet, with a README giving their schema.

>>> rows = deal_rows(Pairing("turn", "threshold:15", 2), seed=1, deal=0)
>>> [r["tested_seat"] for r in rows], rows[0]["first"] == rows[1]["first"]
([0, 1], True)
>>> [round(x, 4) for x in wilson(64, 100)]
[0.5424, 0.7273]
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from solver.game.cards import deck
from solver.utilities.chunks import Chunk, Output, OutputFolderError, atomic, run_chunks
from solver.play.policies import EVALUATOR_POLICIES, Bank, Bot, Endgame, make, share_endgame
from solver.game.record import dumps
from solver.game.rules import Game, Match
from solver.utilities.stats import wilson

__all__ = ["NOT_RECORDED", "OUTPUT", "PLAY_CODE", "RECORDS", "SEED", "Pairing", "code_mark", "deal_rows",
           "made_by", "play_deal", "playable", "run", "summarise", "wilson"]

#: What the games assume: bump when the rules, a policy or the format of a row changes.
TOURNAMENT_VERSION = "R1-R15; policies v1; rows v1"
SEED = 2026  # the tournaments' seed, unless told another
NOT_RECORDED = "(not recorded)"  # in a pairing's mark: some of its games carry none
_MADE_BY = hashlib.sha256(TOURNAMENT_VERSION.encode()).hexdigest()[:8]
#: The code that decides how a game is played (the rules, the models, the bots), from the repository's root.
PLAY_CODE = ("solver/game", "solver/models", "solver/play/policies.py", "solver/play/simple_rules.py",
             "solver/play/simulate.py", "solver/utilities/numbers.py")
ROOT = Path(__file__).resolve().parents[2]


def code_mark(root: Path = ROOT) -> str:
    """The start of a checksum of the code that plays a game (every ``.py`` file of :data:`PLAY_CODE` under
    ``root``): any change to it, a bot's play or a rule, changes the mark, so games played before it are
    never taken for a tournament's after it."""
    digest = hashlib.sha256()
    for entry in PLAY_CODE:
        path = root / entry
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:8]


def made_by(p: Pairing) -> str:
    """What plays a pairing's games here and now: the rules' and rows' version, the code that plays
    (:func:`code_mark`), the study's table the simple rules read (``data/rules.csv``) and, with `win`,
    its weights (the start of each checksum)."""
    from solver.play.policies import RULES_TABLE

    rules = hashlib.sha256(RULES_TABLE.read_bytes()).hexdigest()[:8] if RULES_TABLE.exists() else "none"
    return f"{_MADE_BY}-c{code_mark()}-r{rules}{_weights_tag(p)}"


#: The `win` estimate's measured error (``python -m bench.win_error``), which the Strength page reads beside the
#: tournaments: a tournament's folder may hold them, and leaves them alone.
WIN_ERROR_FILES = frozenset({"win_error.csv", "win_calibration.csv"})
#: What a tournament writes into its folder (``--out``): its tables, their README and its chunks.
OUTPUT = Output("--out", frozenset(f"{name}.{ext}" for name in ("games", "summary") for ext in ("csv", "parquet"))
                | WIN_ERROR_FILES, "# Tournament results", chunks=True)
#: What it writes into its records folder (``--records``): a record a game, named by pairing, deal and rotation.
RECORDS = Output("--records", pattern=r"[A-Za-z0-9.-]+-d\d{5,}-r\d\.jsonl")


@dataclass(frozen=True)
class Pairing:
    """One seat of ``tested`` against ``players - 1`` seats of ``baseline``."""

    tested: str
    baseline: str
    players: int

    @property
    def name(self) -> str:
        return f"{self.tested} vs {self.baseline} ({self.players}p)"


def playable(p: Pairing) -> None:
    """Refuse, with a clear :class:`ValueError`, a pairing no tournament here can play: an unknown policy,
    a table size other than 2 to 5, `hybrid` with more than two players.

    >>> playable(Pairing("hybrid", "turn", 3))
    Traceback (most recent call last):
    ...
    ValueError: hybrid vs turn (3p): hybrid is a two-player policy
    """
    for name in (p.tested, p.baseline):
        make(name)
    if not 2 <= p.players <= 5:
        raise ValueError(f"{p.name}: a table has 2 to 5 players")
    if "hybrid" in (p.tested, p.baseline) and p.players != 2:
        raise ValueError(f"{p.name}: hybrid is a two-player policy")


def _deal(seed: int, players: int, deal: int) -> tuple[list[int], int]:
    """The deck (top card last) and first seat of a deal: the same for every pairing with these players."""
    rng = random.Random(f"hit-tournament/{seed}/{players}/{deal}")
    cards = deck()
    rng.shuffle(cards)
    return cards, rng.randrange(players)


def play_deal(pairing: Pairing, seed: int, deal: int, rotation: int,
              bots: Sequence[Bot] | None = None) -> tuple[Game, list[Bot]]:
    """Play one game of a deal: the tested policy in seat ``rotation``."""
    n = pairing.players
    cards, first = _deal(seed, n, deal)
    if bots is None:
        bots = [make(pairing.tested if s == rotation else pairing.baseline) for s in range(n)]
    share_endgame(bots)  # `win` seats of one game share its exact endgame search
    for s, bot in enumerate(bots):
        bot.new_game(random.Random(f"hit-tournament/{seed}/{deal}/{rotation}/{s}").randrange(2**31))
    game = Game(n, pile=cards, first=first)
    while not game.is_over:
        game.apply(bots[game.active](game))
    return game, list(bots)


def deal_rows(pairing: Pairing, seed: int, deal: int, records: Path | None = None) -> list[dict[str, Any]]:
    """Every rotation of one deal, a row per game (and its record under ``records``, if given)."""
    rows = []
    n = pairing.players
    for rotation in range(n):
        tested = make(pairing.tested)
        bots = [tested if s == rotation else make(pairing.baseline) for s in range(n)]
        game, _ = play_deal(pairing, seed, deal, rotation, bots)
        scores = [p.score for p in game.players]
        ranking = game.ranking()
        others = [scores[s] for s in range(n) if s != rotation]
        first = _deal(seed, n, deal)[1]
        row = {"pairing": pairing.name, "tested": pairing.tested, "baseline": pairing.baseline, "players": n,
               "seed": seed, "deal": deal, "tested_seat": rotation, "first": first,
               "tested_won": int(ranking[0] == rotation), "tested_rank": ranking.index(rotation) + 1,
               "tested_score": scores[rotation], "margin": scores[rotation] - max(others),
               "tested_lost_turns": game.players[rotation].lost_turns, "winner": ranking[0],
               "scores": " ".join(map(str, scores)),
               "model_decisions": _model_decisions(tested)[0], "by_turn": _model_decisions(tested)[1]}
        rows.append(row)
        if records is not None:
            match = Match(n)
            match.games.append(game)
            names = [pairing.tested if s == rotation else pairing.baseline for s in range(n)]
            path = record_path(records, pairing, deal, rotation)
            path.parent.mkdir(parents=True, exist_ok=True)
            text = dumps(match, names)
            atomic(path, lambda p: p.write_text(text, encoding="utf-8"))
    return rows


def record_path(records: Path, pairing: Pairing, deal: int, rotation: int) -> Path:
    """Where the record of a game goes in the records folder."""
    return records / f"{_slug(pairing.name)}-d{deal:05d}-r{rotation}.jsonl"


def _model_decisions(bot: Bot) -> tuple[int, int]:
    """For `bank` and `hybrid`: decisions `bank` was asked about, and those `turn` took past the work limit."""
    bank = bot.bank if isinstance(bot, Endgame) else bot
    return (bank.decisions, bank.by_turn) if isinstance(bank, Bank) else (0, 0)


def chunk_rows(pairing: Pairing, seed: int, first: int, count: int, records: str | None = None) -> list[dict[str, Any]]:
    """Deals ``first`` to ``first + count - 1`` of a pairing (the unit of work and of resuming)."""
    before = made_by(pairing)
    out: list[dict[str, Any]] = []
    for deal in range(first, first + count):
        out += deal_rows(pairing, seed, deal, None if records is None else Path(records))
    after = made_by(pairing)
    if after != before:
        raise OutputFolderError(f"{pairing.name}: the code that plays, the rules table or the weights changed while "
                                f"deals {first} to {first + count - 1} were played ({before}, then {after}): run "
                                "the tournament again (the chunks saved before are kept)")
    return [{**row, "made_by": before} for row in out]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")


def summarise(games: pd.DataFrame) -> pd.DataFrame:
    """One row per pairing: games, wins, win rate with its 95% Wilson interval, mean score, margin, lost turns,
    what played its games (``made_by``: their one mark; None where the games do not carry it) and their seed
    (None if they were dealt from several)."""
    rows = []
    for (tested, baseline, players), g in games.groupby(["tested", "baseline", "players"], sort=False):
        wins, n = int(g["tested_won"].sum()), len(g)
        lo, hi = wilson(wins, n)
        asked = int(g["model_decisions"].sum())
        rows.append({"pairing": Pairing(str(tested), str(baseline), int(players)).name, "tested": tested,
                     "baseline": baseline, "players": int(players), "deals": g["deal"].nunique(), "games": n,
                     "wins": wins, "win_rate": wins / n, "win_low": lo, "win_high": hi, "fair_share": 1 / players,
                     "mean_score": g["tested_score"].mean(), "mean_margin": g["margin"].mean(),
                     "mean_lost_turns": g["tested_lost_turns"].mean(),
                     "bank_share": (1 - g["by_turn"].sum() / asked) if asked else None,
                     "made_by": _one_mark(g),
                     "seed": int(g["seed"].iloc[0]) if "seed" in g.columns and g["seed"].nunique() == 1 else None})
    return pd.DataFrame(rows)


def _one_mark(games: pd.DataFrame) -> str | None:
    """The mark of what played a pairing's games: None if they do not carry one, the marks joined with " + "
    if they carry several (a folder written by hand: a tournament replaces a pairing's games whole), with
    ``NOT_RECORDED`` among them if some games carry one and others none."""
    if "made_by" not in games.columns:
        return None
    given = [str(m) for m in games["made_by"].dropna() if str(m)]
    marks = sorted(set(given)) + ([NOT_RECORDED] if given and len(given) < len(games) else [])
    return " + ".join(marks) if marks else None


def _weights_tag(p: Pairing) -> str:
    """What else a pairing's games depend on: for `win`, the evaluator's weights (the start of their
    checksum), so that games played with other weights are never taken for this pairing's."""
    if not {p.tested, p.baseline} & EVALUATOR_POLICIES:
        return ""
    from solver.models.evaluator import load, weights_checksum, weights_folder

    folder = weights_folder()
    load(folder)  # missing or damaged weights are refused here, naming the file
    return "-w" + weights_checksum(folder / "evaluator.npz")[:8]


def _published(out: Path) -> pd.DataFrame | None:
    """The games an earlier tournament wrote into ``out`` (None: none); one that cannot be read is refused
    before any game is played, naming the file."""
    import pyarrow

    path = out / "games.parquet"
    if not path.exists():
        return None
    try:
        games = pd.read_parquet(path)
    except (OSError, ValueError, pyarrow.ArrowException) as e:
        raise OutputFolderError(f"--out {out}: {path.name} cannot be read ({type(e).__name__}: {e}); it holds the "
                                "games of earlier tournaments in this folder: restore it, or move it away to "
                                "start the folder afresh") from None
    lacks = [c for c in GAMES_SCHEMA if c != "made_by" and c not in games.columns]
    if lacks:
        raise OutputFolderError(f"--out {out}: {path.name} is not a table of games (it lacks the column"
                                f"{'s' if len(lacks) > 1 else ''} {', '.join(lacks)}); restore it, or move it away")
    return games


def _from_published(published: pd.DataFrame | None, jobs: Sequence[Chunk], marks: Sequence[str]) -> int:
    """Rebuild the chunks missing from ``.build`` out of the games already published in the folder: a
    chunk whose every game is there (each deal in every rotation, once), played on the same seed by the
    same code and weights (its ``made_by``), need not be played again. Returns how many were rebuilt."""
    missing = [(j, m) for j, m in zip(jobs, marks) if not j.path.exists()]
    if published is None or not missing or "made_by" not in published.columns:
        return 0  # written before games carried their mark: where they came from is not known
    columns = list(published.columns)
    taken = 0
    for job, mark in missing:
        pairing, seed, first, count = job.args[:4]
        rows = published[(published["pairing"] == pairing.name) & (published["seed"] == seed)
                         & (published["made_by"] == mark) & published["deal"].between(first, first + count - 1)]
        want = {(d, r) for d in range(first, first + count) for r in range(pairing.players)}
        have = list(zip(rows["deal"].astype(int), rows["tested_seat"].astype(int)))
        if len(have) != len(want) or set(have) != want:
            continue
        chunk = rows.sort_values(["deal", "tested_seat"])[columns].reset_index(drop=True)
        job.path.parent.mkdir(parents=True, exist_ok=True)
        _save(job.path, chunk)
        taken += 1
    return taken


def _chunk(path: Path, mark: str, out: Path) -> pd.DataFrame:
    """A chunk's games, played by what plays here (``mark``); a chunk played by other code or weights (a
    Dask worker's) is refused, naming it."""
    rows = pd.read_parquet(path)
    if "made_by" not in rows.columns:  # played before rows carried the mark: its name is the mark
        return rows.assign(made_by=mark)
    other = sorted(set(rows["made_by"]) - {mark})
    if other:
        raise OutputFolderError(f"--out {out}: {path.name} was played by {other[0]}, not by what plays here ({mark}): "
                                "the Dask workers run other code, rules table or weights; bring them up to date, "
                                "or delete the chunk to play it here")
    return rows


def _save(path: Path, rows: pd.DataFrame) -> None:
    atomic(path, lambda p: rows.to_parquet(p, index=False))


def run(pairings: Sequence[Pairing], deals: int, out: Path, seed: int = SEED, chunk: int = 10,
        workers: int | None = None, dask: str | None = None, dask_timeout: float = 10.0,
        records: Path | None = None, log: Callable[[str], None] = print,
        bar: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play every pairing over ``deals`` deals; write ``games`` and ``summary`` (CSV, Parquet) and a README to ``out``.

    ``out`` must be new, empty or a tournament's folder, and ``records`` (every game's record, if given)
    new, empty or a records folder: :data:`OUTPUT`, :data:`RECORDS`; else :class:`OutputFolderError`.
    """
    for p in pairings:
        playable(p)  # a bad name is refused before any game is played
    folder = OUTPUT.check(out)
    if records is not None:
        records = RECORDS.check(records)
        inside = folder.resolve()
        if records.resolve() == inside or inside in records.resolve().parents:
            raise OutputFolderError(f"--records {records}: the records need a folder outside --out's")
    jobs = []
    marks: list[str] = []  # each job's `made_by`
    for p in pairings:
        mark = made_by(p)
        for first in range(0, deals, chunk):
            count = min(chunk, deals - first)
            path = (out / ".build" / f"games-{_slug(p.name)}-s{seed}-c{chunk}-d{first:05d}-n{count}-{mark}"
                    ".parquet")
            # With records, a chunk is done once its games' records are there too: a chunk built without
            # them (or whose records were deleted) is played again, the same games, for its records.
            also = () if records is None else tuple(record_path(records, p, d, r) for r in range(p.players)
                                                    for d in range(first, first + count))
            jobs.append(Chunk(path, chunk_rows, (p, seed, first, count, None if records is None else str(records)),
                              also))
            marks.append(mark)
    taken = _from_published(_published(out), jobs, marks)
    if taken:
        log(f"tournament: {taken} of {len(jobs)} chunks taken from the games already in {out / 'games.parquet'} "
            "(the same deals, seed, code and weights): not played again")
    again = sum(1 for j in jobs if j.path.exists() and not j.done())
    if again:
        log(f"tournament: {again} of {len(jobs)} chunks already built have no records in {records}: playing them "
            "again for their records")
    run_chunks(jobs, "tournament", workers, dask, dask_timeout, log, bar)
    games = pd.concat([_chunk(j.path, m, out) for j, m in zip(jobs, marks)], ignore_index=True)
    published = _published(out)  # read again: another tournament into this folder may have ended meanwhile
    if published is not None:  # keep the other pairings of earlier tournaments in this folder; replace these
        kept = published[~published["pairing"].isin([p.name for p in pairings])]
        games = pd.concat([kept, games], ignore_index=True) if len(kept) else games
        # A pairing played again keeps its place in the tables (and the page's charts); new ones go last.
        place = {name: i for i, name in enumerate(dict.fromkeys([*published["pairing"], *games["pairing"]]))}
        games = games.sort_values("pairing", key=lambda s: s.map(place), kind="stable", ignore_index=True)
    summary = summarise(games)
    for name, df in (("games", games), ("summary", summary)):
        atomic(out / f"{name}.csv", lambda path: df.to_csv(path, index=False))
        atomic(out / f"{name}.parquet", lambda path: df.to_parquet(path, index=False))
    readme = _readme(summary)
    atomic(out / "README.md", lambda path: path.write_text(readme, encoding="utf-8"))
    return games, summary


GAMES_SCHEMA = {
    "pairing": "tested vs baseline (players)", "tested": "the tested policy's name",
    "baseline": "the policy in every other seat", "players": "seats at the table (2 to 5)",
    "seed": "the tournament's seed", "deal": "the deal: one shuffled deck and first seat, played in every rotation",
    "tested_seat": "the tested policy's seat (0-based; the rotation)", "first": "the seat that started (R2)",
    "tested_won": "1 if the tested policy won (R11, R12)", "tested_rank": "its place, 1 = first",
    "tested_score": "its score (R11)", "margin": "its score minus the best other score",
    "tested_lost_turns": "its lost turns (R6)", "winner": "the winning seat", "scores": "every seat's score",
    "model_decisions": "bank/hybrid: decisions `bank` was asked about (else 0)",
    "by_turn": "of those, decided by `turn` because `bank` was past its work limit",
    "made_by": "what played the game: the rules' and rows' version, checksums of the code that plays (the "
               "rules, the models, the bots), of the study's table the simple rules read and, with `win`, of "
               "its weights (the start of each); a later tournament in this folder takes a chunk's games "
               "(every rotation of each of its deals) with the same mark instead of playing them again "
               "(blank: played before games carried it)",
}
SUMMARY_SCHEMA = {
    "pairing": "tested vs baseline (players)", "tested": "the tested policy", "baseline": "the baseline policy",
    "players": "seats", "deals": "deals played", "games": "games (deals x rotations)",
    "wins": "games the tested policy won", "win_rate": "wins / games",
    "win_low": "95% Wilson interval, low end", "win_high": "95% Wilson interval, high end",
    "fair_share": "the win rate of an equal player (1 / players)", "mean_score": "the tested policy's mean score",
    "mean_margin": "its mean score minus the best other score", "mean_lost_turns": "its mean lost turns",
    "bank_share": "bank/hybrid: share of those decisions `bank` made (the rest went past its work limit)",
    "made_by": "what played the pairing's games (the `made_by` of games, several joined with ` + `, "
               f"`{NOT_RECORDED}` among them if some games carry none; blank: not recorded); the Strength page "
               "compares it with what would play them today",
    "seed": "the seed its deals were dealt from (blank: several)",
}


def _readme(summary: pd.DataFrame) -> str:
    lines = [str(OUTPUT.heading), "", "Made by `python -m solver tournament` (one seat of the tested policy "
             "against the baseline in every other seat, every rotation of each deal on the same cards); rules and "
             f"policies: {TOURNAMENT_VERSION}. A later tournament in this folder replaces the rows of its own "
             "pairings, each in its place, and keeps the others.", "",
             "| pairing | deals | games | win rate | 95% interval |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {r.pairing} | {r.deals} | {r.games} | {r.win_rate:.1%} | {r.win_low:.1%}–{r.win_high:.1%} |"
              for r in summary.itertuples(index=False)]
    lines += [""]
    for name, schema in (("games", GAMES_SCHEMA), ("summary", SUMMARY_SCHEMA)):
        lines += [f"## {name} (.csv, .parquet)", "", "| column | meaning |", "| --- | --- |"]
        lines += [f"| `{k}` | {v} |" for k, v in schema.items()] + [""]
    return "\n".join(lines)


def pairings_for(tested: str, baselines: Sequence[str], players: Sequence[int]) -> list[Pairing]:
    """Every (baseline, players) pairing of ``tested``."""
    return [Pairing(tested, b, n) for n in players for b in baselines]

