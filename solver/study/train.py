"""Training the chance-to-win evaluator by self-play: ``python -m solver train``.

Round 0 plays games between `turn` players in the rules engine, and as many
again in which one turn of one seat explores: it draws to a line of a target
size drawn at random (1 to 8 cards) and takes or declines each steal at random,
while every other decision is `turn`'s; of those games only the turn starts
from the exploring turn's end on are kept. The search asks the evaluator
about every way a turn can end, also the ones `turn` never chooses (a long
line left face up for four opponents to steal from), and the exploring games
put them in the training positions with what they led to. Each later
round plays games between `win` players that use the previous round's
evaluator (at the table sizes in ``Settings.self_play``; the others keep round 0's network), and trains
on all the rounds' games together. At every turn start
of every game (the seat to play has banked its line, R3) the table is kept
with the game's winner (R11, R12); a quarter of the games are rounds of a
three-round match (R15), labelled with the match's winner. Games are played
in chunks on all cores or a Dask cluster, saved as they finish
(:mod:`solver.utilities.chunks`): an interrupted run resumes, and the same
seed gives the same games.

The networks of the table sizes in ``Settings.exposure`` (two, four and five players, as
shipped) also read how exposed each face-up line is to the next card
(:func:`solver.models.evaluator.features`).

The network (:mod:`solver.models.evaluator`) is scikit-learn's
``MLPClassifier``: one hidden layer of rectified units, a softmax over the
seats (in turn order from the seat to play), fitted to the log loss with
Adam on one thread, so that a seed gives the same weights bit for bit. Its
weights go to ``data/win/evaluator.npz`` (written byte-reproducibly) with a
manifest holding the checksum, the settings and the held-out log loss.
scikit-learn is the ``train`` extra: nothing else needs it.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import shlex
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.cards import counts
from solver.game.rules import Game, Match, Phase
from solver.models import kernel
from solver.models.evaluator import DATA, Evaluator, feature_count, load
from solver.utilities.chunks import Chunk, Output, read_chunks, run_chunks

__all__ = ["OUTPUT", "Settings", "fit", "game_rows", "train", "write_weights"]

#: What ``train`` writes into its folder: the weights, their manifest, and the played games' chunks.
OUTPUT = Output("--out", frozenset({"evaluator.npz", "evaluator.json"}), "# The chance-to-win evaluator",
                chunks=True)


#: The table sizes ``train`` fits a network for unless told fewer (``--players``).
ALL_PLAYERS = (2, 3, 4, 5)

#: The rounds of the matches among the training games (R15's default).
MATCH_ROUNDS = 3


@dataclass(frozen=True)
class Settings:
    """Everything that decides the weights (the manifest records it)."""

    seed: int = 2026
    games: int = 24000  # per table size, round 0 (`turn` games)
    explore_games: int = 24000  # per table size, round 0 (`turn` games with one exploring turn)
    self_play_games: int = 2000  # per table size, each later round (`win` games)
    rounds: int = 0  # self-play rounds after round 0 (the shipped evaluator has none: docs/MODELS.md says why)
    self_play: tuple[int, ...] = (2, 3, 4, 5)  # table sizes that play them (the others keep round 0's network)
    hidden: int = 32
    exposure: tuple[int, ...] = (2, 4, 5)  # table sizes whose network reads the lines' exposure too
    epochs: int = 12
    chunk: int = 100  # games per chunk (the unit of resuming)
    held_out: float = 0.1  # share of games kept out of the fit, for the log loss and the calibration

    def __post_init__(self) -> None:
        if not self.self_play or not set(self.self_play) <= {2, 3, 4, 5}:
            raise ValueError(f"the self-play rounds' table sizes must be some of 2 to 5, not {self.self_play}")

    def tag(self, rnd: int, explore: bool = False) -> str:
        """What names round ``rnd``'s chunks: the settings its games depend on (round 0's: the seed, the games
        and their chunks; a later round's: those of the weights it plays with too) and the code that plays
        them (:func:`~solver.play.tournament.code_mark`), so that a run with more rounds, or fewer, reuses the
        games already played, and a run after the rules or the bots changed plays them again (a resumed
        build once fitted games of older code: docs/MODELS.md, "Rebuilding the shipped file")."""
        from solver.play.tournament import code_mark

        keys = ["seed", "explore_games" if explore else "games", "chunk"] if rnd == 0 else sorted(asdict(self))
        if rnd:  # a size's later games depend on its own networks alone, not on which other sizes play on
            keys.remove("rounds")
            keys.remove("self_play")
        mine = {k: asdict(self)[k] for k in keys}
        mine["code"] = code_mark()
        if explore:
            mine["explore"] = True
        return hashlib.sha256(json.dumps({"round": rnd, **mine}, sort_keys=True).encode()).hexdigest()[:8]


def _row(game: Game, rounds_left: int, earlier: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
    """The table at a turn start as one flat row."""
    row: dict[str, Any] = {"to_play": game.active, "rounds_left": rounds_left}
    for i, c in enumerate(game.pile_counts()):
        row[f"pile{i}"] = c
    for s, p in enumerate(game.players):
        pts, cards, lost = earlier[s]
        row[f"points{s}"] = p.score + pts
        row[f"cards{s}"] = len(p.loot) + cards
        row[f"lost{s}"] = p.lost_turns + lost
        for i, c in enumerate(counts(p.line)):
            row[f"line{s}_{i}"] = c
    return row


def game_rows(players: int, first: int, count: int, seed: int, policy: str, weights: str | None) -> list[dict[str, Any]]:
    """Play games ``first`` to ``first + count - 1`` of a round and return a row per turn start.

    ``policy`` is ``turn``, ``explore`` (`turn` games with one exploring turn, kept from its end on) or
    ``win`` (with the evaluator in the folder ``weights``). A game's cards and seats come from ``seed`` and
    its number alone.
    """
    from solver.game.rules import Action
    from solver.play.policies import Bot, Turn, WinBot, share_endgame

    def bot() -> Bot:
        if policy in ("turn", "explore"):
            return Turn()
        b = WinBot()
        if weights is not None:
            b.weights = Path(weights)
        return b

    rows: list[dict[str, Any]] = []
    for g in range(first, first + count):
        rng = random.Random(f"hit-train/{seed}/{players}/{policy}/{g}")
        bots = [bot() for _ in range(players)]
        share_endgame(bots)  # the `win` seats share one exact endgame search (the same answers, less work)
        for s, b in enumerate(bots):
            b.new_game(rng.randrange(2**31) + s)
        rounds = MATCH_ROUNDS if g % 4 == MATCH_ROUNDS else 1  # a quarter of the games: a match (R15)
        match = Match(players, rounds=rounds, seed=rng.randrange(2**63))
        mine: list[dict[str, Any]] = []
        # An exploring game: the round, the pile size at whose first turn start the seat to play explores,
        # and the size of line it draws to.
        explore = policy == "explore"
        when = (rng.randrange(rounds), rng.randrange(4, 89), rng.randint(1, 8)) if explore else (-1, 0, 0)
        explorer = -1  # the exploring seat, while it explores
        keep = not explore
        for r in range(rounds):
            game = match.new_round()
            earlier = [(t.points, t.cards, t.lost_turns) for t in game.match.earlier] if game.match else \
                [(0, 0, 0)] * players
            if explorer >= 0:  # the exploring turn ended the round (R9)
                explorer, keep = -1, True
            while not game.is_over:
                if game.phase is Phase.MUST_DRAW:
                    if explorer >= 0 and game.active != explorer:
                        explorer, keep = -1, True  # the exploring turn is over
                    elif r == when[0] and not keep and explorer < 0 and len(game.pile) <= when[1]:
                        explorer = game.active
                    if keep:
                        mine.append(_row(game, rounds - 1 - r, earlier))
                if game.active == explorer and game.phase is Phase.CHOOSE:
                    action = Action.DRAW if len(game.players[explorer].line) < when[2] else Action.STOP
                elif game.active == explorer and game.phase is Phase.STEAL:
                    action = Action.STEAL if rng.random() < 0.5 else Action.DECLINE
                else:
                    action = bots[game.active](game)
                game.apply(action)
        winner = match.winner()
        for row in mine:
            row["winner"] = winner
            row["game"] = g
        rows += mine
    return rows


def tables(table: Any, players: int) -> tuple[np.ndarray, ...]:
    """A table of rows as the evaluator's arrays (:func:`solver.models.evaluator.features`' arguments): the
    pile ``[B, 10]``, the lines ``[B, n, 10]``, each seat's loot points, loot cards and lost turns ``[B, n]``,
    the seat to play and the rounds left ``[B]``."""
    n = players
    i64 = np.int64
    pile = table[[f"pile{i}" for i in range(10)]].to_numpy(i64)
    lines = np.stack([table[[f"line{s}_{i}" for i in range(10)]].to_numpy(i64) for s in range(n)], axis=1)
    pts = table[[f"points{s}" for s in range(n)]].to_numpy(i64)
    cards = table[[f"cards{s}" for s in range(n)]].to_numpy(i64)
    lost = table[[f"lost{s}" for s in range(n)]].to_numpy(i64)
    return pile, lines, pts, cards, lost, table["to_play"].to_numpy(i64), table["rounds_left"].to_numpy(i64)


def arrays(table: Any, players: int, exposure: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs (with ``exposure``, the lines' exposure too) and labels (the winner's place in
    turn order from the seat to play) of a table of rows."""
    pile, lines, pts, cards, lost, to_play, rounds_left = tables(table, players)
    x = kernel.features_batch(pile, lines, pts, cards, lost, to_play, rounds_left, players, exposure)
    y = (table["winner"].to_numpy(np.int64) - to_play) % players
    return x, y


def held_out(table: Any, share: float, seed: int) -> np.ndarray:
    """Which rows belong to held-out games (a fixed share of the games, by a hash of the seed and game)."""
    games = table["game"].to_numpy()
    cut = int(share * 1000)
    return np.array([int(hashlib.sha256(f"{seed}/{g}".encode()).hexdigest()[:6], 16) % 1000 < cut for g in games])


def fit(x: np.ndarray, y: np.ndarray, players: int, hidden: int, epochs: int, seed: int) -> dict[str, np.ndarray]:
    """Fit one table size's network; its arrays by the names :class:`~solver.models.evaluator.Evaluator` reads."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier
    from threadpoolctl import threadpool_limits
    import warnings

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = (x - mean) / scale
    net = MLPClassifier(hidden_layer_sizes=(hidden,), activation="relu", solver="adam", alpha=1e-4,
                        batch_size=512, learning_rate_init=1e-3, max_iter=epochs, shuffle=True,
                        random_state=seed, tol=0.0, n_iter_no_change=epochs + 1)
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(xs, y)
    if list(net.classes_) != list(range(players)):
        raise ValueError(f"the {players}-player games had winners in only some seats: {list(net.classes_)}")
    w1, w2 = net.coefs_
    b1, b2 = net.intercepts_
    p = f"{players}p/"
    return {p + "mean": mean, p + "scale": scale, p + "W1": w1, p + "b1": b1, p + "W2": w2, p + "b2": b2}


def write_weights(path: Path, weights: dict[str, np.ndarray]) -> None:
    """An ``.npz`` of the arrays whose bytes depend on the arrays alone (fixed names order and dates), so
    that its checksum is reproducible."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(weights):
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            arr = io.BytesIO()
            np.lib.format.write_array(arr, np.ascontiguousarray(weights[name], dtype=np.float64), allow_pickle=False)
            z.writestr(info, arr.getvalue())
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)


def log_loss(ev: Evaluator, x: np.ndarray, y: np.ndarray, players: int) -> float | None:
    """The mean log loss of the evaluator's chance for the winner (None for no positions)."""
    if not len(y):
        return None
    return float(position_losses(ev, x, y, players).mean())


def position_losses(ev: Evaluator, x: np.ndarray, y: np.ndarray, players: int) -> np.ndarray:
    """Each position's log loss: minus the log of the evaluator's chance for the seat that won."""
    p = ev.chances(x, players)
    return np.asarray(-np.log(np.clip(p[np.arange(len(y)), y], 1e-12, 1.0)), dtype=np.float64)


def gain(before: Evaluator, after: Evaluator, x: np.ndarray, y: np.ndarray, games: np.ndarray,
         players: int) -> tuple[float, float] | None:
    """What a round bought on the same held-out positions: the mean log loss of ``before`` minus that of
    ``after`` (positive: ``after`` predicts better), and its standard error with the games as clusters (a
    game's positions share its one outcome). None for fewer than two games."""
    ids, which = np.unique(games, return_inverse=True)
    if len(ids) < 2:
        return None
    d = position_losses(before, x, y, players) - position_losses(after, x, y, players)
    mean = float(d.mean())
    per_game = np.bincount(which, weights=d - mean)  # each game's sum of deviations from the mean
    se = float(np.sqrt((per_game ** 2).sum() * len(ids) / (len(ids) - 1)) / len(d))
    return mean, se


def train(out: Path = DATA, settings: Settings = Settings(), players: Sequence[int] = ALL_PLAYERS,
          workers: int | None = None, dask: str | None = None, dask_timeout: float = 10.0,
          log: Callable[[str], None] = print, bar: bool = True) -> dict[str, Any]:
    """Play the self-play rounds, fit a network per table size, and write the weights and manifest to ``out``."""
    import pandas as pd

    folder = OUTPUT.check(out)
    build = folder / ".build"
    history: list[dict[str, Any]] = []
    weights_dir: Path | None = None
    weights: dict[str, np.ndarray] = {}
    for rnd in range(settings.rounds + 1):
        previous = Evaluator(weights) if weights else None  # the round before's networks
        policy = "turn" if rnd == 0 else "win"
        sizes = [n for n in players if rnd == 0 or n in settings.self_play]
        jobs_by_n = {n: _round_chunks(build, settings, rnd, n, weights_dir) for n in sizes}
        run_chunks([j for n in sizes for j in jobs_by_n[n]], f"train round {rnd} ({policy} games)", workers,
                   dask, dask_timeout, log, bar)
        refit = tuple(f"{n}p/" for n in sizes)  # the names of these sizes' arrays, as the Evaluator reads them
        weights = {k: v for k, v in weights.items() if not k.startswith(refit)}  # the other sizes keep theirs
        losses: dict[str, Any] = {}
        for n in sizes:
            parts = [read_chunks(list(jobs_by_n[n])).assign(round=rnd)]
            for earlier in range(rnd):
                parts.append(read_chunks(_round_chunks(build, settings, earlier, n, None))
                             .assign(round=earlier))
            table = pd.concat(parts, ignore_index=True)
            x, y = arrays(table, n, n in settings.exposure)
            test = held_out(table, settings.held_out, settings.seed)
            weights.update(fit(x[~test], y[~test], n, settings.hidden, settings.epochs, settings.seed + n))
            ev = Evaluator(weights)
            rounds_of = table["round"].to_numpy()
            losses[f"{n}p"] = {"positions": int((~test).sum()), "uniform_log_loss": round(float(np.log(n)), 5)}
            games = table["game"].to_numpy()
            for r in range(rnd + 1):  # the held-out games of every round so far, by the network of this round
                mask = test & (rounds_of == r)
                xt, yt = x[mask], y[mask]
                loss = log_loss(ev, xt, yt, n)
                held: dict[str, Any] = {"positions": int(len(yt)),
                                        "log_loss": None if loss is None else round(loss, 5)}
                bought = gain(previous, ev, xt, yt, games[mask], n) if previous is not None else None
                if previous is not None and bought is not None:  # the same positions by the round before's network
                    held["previous_log_loss"] = round(float(position_losses(previous, xt, yt, n).mean()), 5)
                    held["gain"], held["gain_se"] = round(bought[0], 5), round(bought[1], 5)
                losses[f"{n}p"][f"held_out_r{r}"] = held
            log(f"train round {rnd}: {n} players, {int((~test).sum())} positions, held-out log loss "
                + ", ".join(f"round {r}'s games {_said(losses[f'{n}p'][f'held_out_r{r}'])}"
                            for r in range(rnd + 1)) + f" (a coin: {np.log(n):.4f})")
        weights_dir = build / f"weights-{settings.tag(rnd)}-r{rnd}"
        weights_dir.mkdir(parents=True, exist_ok=True)
        write_weights(weights_dir / "evaluator.npz", weights)
        _manifest(weights_dir, settings, players, history + [{"round": rnd, "policy": policy, **losses}])
        history.append({"round": rnd, "policy": policy, **losses})
    write_weights(folder / "evaluator.npz", weights)
    meta = _manifest(folder, settings, players, history)
    (folder / "README.md").write_text(_readme(meta, None if folder.resolve() == DATA.resolve() else folder),
                                      encoding="utf-8")
    load(folder)  # the files just written read back through the checksum
    return meta


#: Where the exploring games' numbers start (the game number seeds its cards and names it in the split).
EXPLORE_FIRST = 500_000


def _round_chunks(build: Path, settings: Settings, rnd: int, n: int, weights: Path | None) -> list[Chunk]:
    """A round's games for one table size, in chunks (round 0: the `turn` games, then the exploring ones;
    `win` games in chunks a tenth the size: they are slower)."""
    if rnd == 0:
        parts = [(settings.tag(0), "", settings.games, "turn", 0),
                 (settings.tag(0, explore=True), "x", settings.explore_games, "explore", EXPLORE_FIRST)]
        chunk = settings.chunk
    else:
        parts = [(settings.tag(rnd), "", settings.self_play_games, "win", rnd * 1_000_000)]
        chunk = max(1, settings.chunk // 10)
    return [Chunk(build / f"games-{tag}-r{rnd}{x}-{n}p-g{g:06d}.parquet", game_rows,
                  (n, first + g, min(chunk, games - g), settings.seed, policy,
                   None if weights is None else str(weights)))
            for tag, x, games, policy, first in parts for g in range(0, games, chunk)]


def _said(held: dict[str, Any]) -> str:
    """A held-out log loss as ``train`` prints it, with what the round bought over the round before."""
    if "gain" not in held:
        return str(held["log_loss"])
    return (f"{held['log_loss']} (the round before's network: {held['previous_log_loss']}, "
            f"bought {held['gain']:+.5f} ± {held['gain_se']:.5f})")


def _readme(meta: dict[str, Any], folder: Path | None = None) -> str:
    """The folder's README: how it was made, the command that made it (with ``--out`` unless the folder is
    the shipped one, data/win, the command's default), and each round's held-out log loss."""
    s = meta["settings"]
    out = "" if folder is None else f" --out {shlex.quote(str(folder))}"
    held = ("" if s.get("held_out", Settings.held_out) == Settings.held_out else
            f" This run kept {s['held_out']} of the games out of the fit, not the command's "
            f"{Settings.held_out}: only the Python API's `Settings(held_out=...)` sets that.")
    lines = [str(OUTPUT.heading), "", "Made by `python -m solver train` (see `docs/MODELS.md`, \"`win`: the chance to "
             "win, 2 to 5 players\"): `evaluator.npz` holds one network per table size, `evaluator.json` its SHA-256, "
             "the settings and what each round of training bought (round 0: `turn` and exploring games; each later "
             "round: self-play). Its command and settings: "
             f"`python -m solver train{out}{_players_option(meta)} --seed {s['seed']} --games {s['games']} "
             f"--explore-games {s['explore_games']} --self-play-games "
             f"{s['self_play_games']} --rounds {s['rounds']} --self-play"
             + "".join(f" {n}" for n in s.get("self_play", Settings.self_play))
             + f" --hidden {s['hidden']} --epochs {s['epochs']} --exposure"
             + "".join(f" {n}" for n in s.get("exposure", ()))
             + ("" if s.get("chunk", Settings.chunk) == Settings.chunk else f" --chunk {s['chunk']}") + "`. "
             "The same command on the same code gives the same file bit for bit; run on code whose `turn` "
             "chooses differently, it plays other games, and fits another file (`docs/MODELS.md`, "
             "\"Rebuilding the shipped file\")." + held,
             "",
             "| round | games by | players | positions fitted | held-out log loss (by round of the games) | a coin's |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in meta["rounds"]:
        for n in ("2p", "3p", "4p", "5p"):
            if n in r:
                x = r[n]
                held = ", ".join(f"r{k[10:]}: {_said(v)} ({v['positions']})" for k, v in x.items()
                                 if k.startswith("held_out_r"))
                lines.append(f"| {r['round']} | {r['policy']} | {n[0]} | {x['positions']} | {held} | "
                             f"{x['uniform_log_loss']} |")
    return "\n".join(lines) + "\n"


def _players_option(meta: dict[str, Any]) -> str:
    """``--players`` as the rebuild command needs it: only when the run left out some table sizes (a manifest
    written before it was recorded is of all four)."""
    players = meta.get("players", list(ALL_PLAYERS))
    return "" if list(players) == list(ALL_PLAYERS) else " --players" + "".join(f" {n}" for n in players)


def _manifest(folder: Path, settings: Settings, players: Sequence[int],
              history: list[dict[str, Any]]) -> dict[str, Any]:
    npz = folder / "evaluator.npz"
    meta = {"sha256": hashlib.sha256(npz.read_bytes()).hexdigest(), "file": npz.name,
            "made_by": "python -m solver train", "settings": asdict(settings), "players": sorted(set(players)),
            "features": {f"{n}p": feature_count(n, n in settings.exposure) for n in range(2, 6)},
            "rounds": history}
    (folder / "evaluator.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta

