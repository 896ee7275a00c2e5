"""Benchmark: the `turn` solver on mid-game positions from simulated games, and the other models' timings.

``python -m bench.speed`` (or ``make bench``) samples a fixed set of decision points from
simulated games with 2 to 5 players, solves each one from scratch in float
and in exact mode, and prints median and worst times. It also times the
command line on a 300-position JSON-lines batch, start-up included. Its
options time the other models and the batch commands instead (``--help``;
docs/CLI.md). The docs/PERFORMANCE.md records its figures; tests never
assert on time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from collections.abc import Callable, Sequence

from solver.models.advice import Budget, SlowModel, TooLarge
from solver.models import advise
from solver.utilities.numbers import EXACT
from solver.game.position import Position
from solver.play.simulate import sample_positions
from solver.models.turn import turn_report

__all__ = ["bank_error", "endgame", "endgames", "games_speed", "main", "parser", "run", "run_models", "self_play_speed",
           "tables_speedup", "time_advice", "win_anatomy", "win_pruning", "win_speed"]


def time_advice(positions: list[Position], exact: bool) -> list[float]:
    """Seconds to advise each position from scratch (no shared memo)."""
    times = []
    for pos in positions:
        t0 = time.perf_counter()
        advise(pos, exact=exact)
        times.append(time.perf_counter() - t0)
    return times


def run(count: int = 300, seed: int = 2026) -> dict[str, float]:
    positions = sample_positions(count, seed=seed)
    sizes = sorted(p.pile_size() for p in positions)
    print(f"{len(positions)} positions from simulated 2-5 player games (seed {seed}); "
          f"pile sizes {sizes[0]}..{sizes[-1]}, median {statistics.median(sizes)}")
    figures: dict[str, float] = {}
    t0 = time.perf_counter()
    advise(positions[0], exact=False)  # loads the compiled float kernel once
    figures["float_first_call_ms"] = 1000 * (time.perf_counter() - t0)
    print(f"first float call (loads numba's cached kernel): {figures['float_first_call_ms']:.0f} ms")
    for label, exact in (("float", False), ("exact", True)):
        times = time_advice(positions, exact)
        figures[f"{label}_median_ms"] = 1000 * statistics.median(times)
        figures[f"{label}_worst_ms"] = 1000 * max(times)
        print(f"turn {label:5}: median {figures[f'{label}_median_ms']:.2f} ms, "
              f"worst {figures[f'{label}_worst_ms']:.1f} ms, total {sum(times):.2f} s")
    times = []
    for pos in positions:  # what the advisor computes per rerun (before its cache)
        t0 = time.perf_counter()
        turn_report(pos, EXACT)
        times.append(time.perf_counter() - t0)
    figures["advisor_median_ms"] = 1000 * statistics.median(times)
    figures["advisor_worst_ms"] = 1000 * max(times)
    print(f"advisor (exact advice + next-card table): median {figures['advisor_median_ms']:.2f} ms, "
          f"worst {figures['advisor_worst_ms']:.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "batch.jsonl"
        batch.write_text("".join(p.to_json() + "\n" for p in positions))
        for flag in ([], ["--exact"]):
            t0 = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "solver", "advise", str(batch), *flag],
                                  capture_output=True, text=True, check=False)
            wall = time.perf_counter() - t0
            label = "exact" if flag else "float"
            figures[f"cli_{label}_s"] = wall
            print(f"command line, {len(positions)} positions, {label}: {wall:.2f} s including start-up "
                  f"(exit {done.returncode})")
    return figures


def _timed(fn: Callable[[], object], cap: float) -> float | None:
    """Seconds ``fn`` takes, or None when it refused (over ``cap``, :class:`~solver.models.advice.SlowModel`, or
    past its memory bound, :class:`~solver.models.advice.TooLarge`)."""
    t0 = time.perf_counter()
    try:
        fn()
    except (SlowModel, TooLarge):
        return None
    took = time.perf_counter() - t0
    return None if took > cap else took


def _summary(label: str, times: list[float | None], cap: float, target: str = "") -> dict[str, float]:
    done = sorted(t for t in times if t is not None)
    over = len(times) - len(done)
    ranked = done + [float("inf")] * over
    median = statistics.median(ranked) if ranked else float("nan")
    med = f">{cap:g} s" if median == float("inf") else f"{1000 * median:.0f} ms"
    worst = f">{cap:g} s" if over else f"{1000 * max(done):.0f} ms"
    print(f"{label}: {len(times)} positions, median {med}, worst {worst}, {over} over {cap:g} s"
          + (f" (target: {target})" if target else ""), flush=True)
    return {"median": median, "worst": max(ranked) if ranked else float("nan"), "over": over}


def decision_points(count: int, seed: int, many: bool) -> list[Position]:
    """``count`` decision points from simulated games, the line holding a card or more: two players,
    or (``many``) three to five."""
    out = []
    for pos in sample_positions(40 * count, seed=seed):
        if pos.line and (len(pos.players) > 2) == many:
            out.append(pos)
            if len(out) == count:
                break
    return out


def _bank_call(pos: Position, exact: bool, cap: float) -> Callable[[], object]:
    return lambda: advise(pos, "bank", exact=exact, budget=Budget(cap))


def _model_call(pos: Position, name: str, cap: float, exact: bool = True) -> Callable[[], object]:
    return lambda: advise(pos, name, exact=exact, budget=Budget(cap))


def run_models(count: int = 50, seed: int = 2026, cap: float = 60.0) -> None:
    """Time `bank` (float and exact) and `duel` against the targets in docs/PERFORMANCE.md."""
    from solver.game.cards import DECK_COPIES, cards_of
    from solver.game.position import PlayerView

    fresh = Position.build((PlayerView(), PlayerView()), 0)
    advise(decision_points(1, seed, False)[0], "bank", exact=False)  # loads the compiled kernel once
    t = _timed(lambda: advise(fresh, "bank", exact=False, budget=Budget(cap)), cap)
    print(f"bank float, two players, fresh deck: {'>%g s' % cap if t is None else '%.2f s' % t} (target: under 2 s)")
    two, more = decision_points(count, seed, False), decision_points(count, seed, True)
    for label, group, target in ((f"bank float, two players, {count} decision points", two,
                                  "median under 50 ms, worst under 1 s"),
                                 (f"bank float, 3-5 players, {count} decision points", more,
                                  "median under 200 ms, worst under 2 s")):
        times = [_timed(_bank_call(p, False, cap), cap) for p in group]
        _summary(label, times, cap, target)
    times = [_timed(_bank_call(p, True, cap), cap) for p in two]
    _summary(f"bank exact, two players, the same {count} points", times, cap, "median under 5 s")
    endgames(("duel",), cap=cap)


def endgame(size: int, deal: int) -> Position:
    """The two-player endgames of docs/PERFORMANCE.md: a deck shuffled with seed ``deal``, ``size`` cards left in the
    pile, seat 0 to play holding two cards, seat 1 three, the rest in the loots (dealt alternately, so
    the game is still open for `win`)."""
    from solver.game.cards import DECK_COPIES, cards_of

    deck = cards_of(DECK_COPIES)
    random.Random(deal).shuffle(deck)
    rest = deck[size:]
    return Position.from_dict({"players": [{"line": rest[:2], "loot": rest[5::2]},
                                           {"line": rest[2:5], "loot": rest[6::2]}], "active": 0})


def endgames(models: tuple[str, ...] = ("duel", "win"), cap: float = 60.0, runs: int = 2) -> None:
    """Time the endgame models on :func:`endgame` piles (seeds 1 and 2): the compiled path on 8 to 18
    cards and the exact path on 8 to 12 (``cap`` seconds each at most; the compiled path's own bound,
    under a minute's work, refuses first)."""
    for name in models:  # load each model's compiled kernel once
        advise(endgame(6, 1), name, exact=False)
    for name in models:
        for exact, sizes in ((False, (8, 10, 12, 14, 16, 18)), (True, (8, 10, 12))):
            for size in sizes:
                times = [_timed(_model_call(endgame(size, deal), name, cap, exact), cap) for deal in range(1, runs + 1)]
                _summary(f"{name} {'exact' if exact else 'compiled'}, {size}-card pile ({runs} endgames)", times, cap)


def win_pruning(endgames_: tuple[tuple[int, int], ...] = ((8, 1), (8, 2), (10, 1), (10, 2))) -> None:
    """`win` searched by standing, with and without Star1 pruning (:mod:`bench.pruned`), against the
    compiled path's step functions, on :func:`endgame` piles (size, seed): the draws each search expands,
    and the compiled path's states and steps (their cost: docs/PERFORMANCE.md, "Where `win`'s time goes")."""
    from solver.models.endgame import CHOICE, WIN_MODE, EndgameSolver
    from bench.pruned import root_chances
    from solver.models.win import standing

    for size, deal in endgames_:
        pos = endgame(size, deal)
        root = pos.turn_state()
        compiled = EndgameSolver(WIN_MODE, pos.pile(), standing(pos))
        compiled.value(CHOICE, root.pile, root.line, root.reach)
        _, _, plain = root_chances(pos, prune=False)
        _, _, pruned = root_chances(pos, prune=True)
        print(f"{size}-card endgame, seed {deal}: by standing {plain:,} draws expanded, with Star1 {pruned:,} "
              f"({plain / pruned:.1f}x fewer); step functions {compiled.states:,} states holding "
              f"{compiled.steps:,} steps", flush=True)


def win_anatomy(endgames_: tuple[tuple[int, int], ...] = ((12, 1), (14, 1))) -> None:
    """What `win`'s compiled path stores on :func:`endgame` piles (size, seed), to tell where its work could
    shrink: states (turn starts and choices) and their steps, how many points leads a function's steps
    span, how large its jumps are (steps too small to matter could be merged, at a cost in exactness), and
    how many functions are the same as another's, or the same but for a shift of the standing (a key that
    merged those states would solve each once); then how many states and steps the root's chance needs with
    foresight of every choice (:mod:`bench.foresight`: the floor under any pruning of the functions), and
    with Star1's bounds instead of foresight."""
    import numpy as np

    from bench.foresight import foresight

    for size, deal in endgames_:
        pos = endgame(size, deal)
        asked = foresight(pos)
        solver = asked.solver
        functions = solver.chance_functions()
        starts = sum(start for start, _, _ in functions)
        same: dict[bytes, int] = {}
        shifted: dict[bytes, int] = {}
        levels = 0
        jumps = []
        for _, xs, vs in functions:
            x = xs.astype(np.int64)
            same[x.tobytes() + vs.tobytes()] = len(x)
            shifted[(x - x[0]).tobytes() + vs.tobytes()] = len(x)
            # Each step's points lead (a window's first step, at a cards lead of -255, may fall one lower:
            # see endgame.encoded_standing), so the count of leads is close, not exact.
            levels += len(np.unique((x + (1 << 16)) >> 17))
            jumps.append(np.diff(vs, prepend=0.0))
        jump = np.concatenate(jumps)
        small = ", ".join(f"{np.mean(jump < eps):.1%} below {eps:g}" for eps in (1e-9, 1e-6, 1e-3))
        print(f"{size}-card endgame, seed {deal}: {len(functions):,} states ({starts:,} turn starts), "
              f"{solver.steps:,} steps ({solver.steps / len(functions):.1f} a state, over "
              f"{levels / len(functions):.1f} points leads, {solver.steps / levels:.2f} steps a lead); jumps: "
              f"{small}; distinct functions {len(same):,} ({sum(same.values()):,} steps), up to a shift "
              f"{len(shifted):,} ({sum(shifted.values()):,} steps); with foresight of every choice "
              f"{asked.states:,} states ({asked.states / solver.states:.0%}) and {asked.steps:,} steps "
              f"({asked.steps / solver.steps:.0%})", flush=True)
        bounded = foresight(pos, bounded=True, solved=asked)  # the same solve, asked again
        print(f"  with Star1's bounds instead: {bounded.states:,} states ({bounded.states / solver.states:.0%}) and "
              f"{bounded.steps:,} steps ({bounded.steps / solver.steps:.0%})", flush=True)


def bank_error(count: int = 50, runs: int = 1000, seed: int = 7, cap: float = 3.0) -> None:
    """bank's "independent opponents" approximation against a simulation of its exact definition.

    On ``count`` three-to-five-player decision points: the active player
    stops, every opponent plays its `turn`-optimal turn in the rules engine,
    and what is left of the line reaches the loot (``runs`` times). Prints
    each error with the simulation's 99.9% interval, their distribution, and
    on how many points the recommended action could change if the simulated
    stop value (either end of its interval) replaced the approximate one.
    """
    import math

    from solver.game.rules import Action
    from solver.play.simulate import TurnPolicy, game_from_position, play_turn

    rng = random.Random(seed)
    errors, inside, changed, unsolved = [], 0, 0, 0
    for pos in decision_points(count, seed, True):
        a = advise(pos, "bank", exact=False)  # the stop value: the approximation at the root
        approx = float(a.stop or 0.0)
        kept = []
        policies: dict[int, TurnPolicy] = {}
        for _ in range(runs):
            game = game_from_position(pos, rng.randrange(2**63))
            if game.offer is not None:  # the steal on offer, as advised
                game.apply(a.steal.action if a.steal is not None else Action.DECLINE)
            before = game.players[pos.active].score
            game.apply(Action.STOP)
            while not game.is_over and game.active != pos.active:
                play_turn(game, policies.setdefault(game.active, TurnPolicy()))
            kept.append(game.players[pos.active].score - before)
        mean = statistics.fmean(kept)
        half = 3.2905 * statistics.stdev(kept) / math.sqrt(runs) if len(set(kept)) > 1 else 0.0
        errors.append(approx - mean)
        inside += abs(approx - mean) <= half
        try:
            d = float(advise(pos, "bank", exact=False, budget=Budget(cap)).draw)
            flips = {d > approx, d > mean - half, d > mean + half}
            changed += len(flips) > 1
        except SlowModel:
            unsolved += 1
        print(f"{len(pos.players)} players, line {list(pos.line)}, pile {pos.pile_size()}: bank stop {approx:.3f}, "
              f"simulated {mean:.3f} ± {half:.3f} (99.9%), error {approx - mean:+.3f}", flush=True)
    ranked = sorted(errors)
    print(f"\n{len(errors)} positions, {runs} simulated rounds each: error median {statistics.median(ranked):+.3f}, "
          f"mean {statistics.fmean(ranked):+.3f}, 10th-90th percentile {ranked[len(ranked) // 10]:+.3f} to "
          f"{ranked[(9 * len(ranked)) // 10]:+.3f}, extremes {ranked[0]:+.3f} and {ranked[-1]:+.3f}; "
          f"{inside} within the simulation's 99.9% interval")
    print(f"recommended action could change with the simulated stop value on {changed} of "
          f"{len(errors) - unsolved} positions ({unsolved} with a draw value over {cap:g} s not compared)")


def tables_speedup(count: int = 200, chunk: int = 25, seed: int = 2026) -> None:
    """Seconds to build the positions table (``count`` positions, `bank` columns included) with one
    and with two workers, on the local process pool and on a Dask ``LocalCluster``."""
    from distributed import LocalCluster

    from solver.study.tables import build_positions

    def timed(**where: object) -> float:
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            build_positions(Path(out), count, chunk, seed, log=lambda _: None, **where)  # type: ignore[arg-type]
            return time.perf_counter() - t0

    print(f"positions table, {count} positions in chunks of {chunk} (seed {seed}):")
    for label in ("local process pool", "Dask LocalCluster"):
        times = []
        for workers in (1, 2):
            if label.startswith("Dask"):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1,  # type: ignore[no-untyped-call]
                                       processes=True, dashboard_address=None)
                with cluster:
                    times.append(timed(dask=cluster.scheduler_address))
            else:
                times.append(timed(workers=workers))
        print(f"  {label}: 1 worker {times[0]:.1f} s, 2 workers {times[1]:.1f} s, "
              f"speed-up {times[0] / times[1]:.2f}x", flush=True)


def games_speed(count: int = 100, seed: int = 2026) -> None:
    """Milliseconds per two-player game between `turn`-optimal players (the tournament's unit of work),
    and a tournament's speed-up from one worker to every core."""
    import os

    from solver.play.policies import make
    from solver.game.rules import Game
    from solver.play.tournament import Pairing, run

    bots = [make("turn"), make("turn")]
    Game(2, seed=-1).play(bots[0])  # compile and warm up first
    times = []
    for k in range(count):
        game = Game(2, seed=seed + k)
        t0 = time.perf_counter()
        while not game.is_over:
            game.apply(bots[game.active](game))
        times.append(time.perf_counter() - t0)
    ms = sorted(1000 * t for t in times)
    print(f"two-player game, turn against turn ({count} games): median {statistics.median(ms):.1f} ms, "
          f"mean {statistics.mean(ms):.1f} ms, slowest {ms[-1]:.1f} ms (target: under 50 ms)")
    cores = os.cpu_count() or 1
    pairings = [Pairing("turn", "threshold:25", n) for n in (2, 3, 4, 5)]
    spent = []
    for workers in (1, cores):
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            run(pairings, deals=60, out=Path(out), seed=seed, chunk=5, workers=workers, log=lambda _: None, bar=False)
            spent.append(time.perf_counter() - t0)
    print(f"tournament, turn against threshold:25 for 2-5 players, 60 deals each (840 games): 1 worker "
          f"{spent[0]:.1f} s, {cores} workers {spent[1]:.1f} s, speed-up {spent[0] / spent[1]:.2f}x")


def win_speed(count: int = 200, games: int = 20, seed: int = 2026) -> dict[str, float]:
    """`win` as the advisor asks it (floats, from scratch each time) over decision points of 2 to 5 players,
    and two-player games between two `win` players (targets: median under 0.2 s, worst under 1 s; a game
    under 2 s)."""
    from solver.game.rules import Game
    from solver.models.win import WIN
    from solver.play.policies import make
    from solver.utilities.numbers import FLOAT

    positions = sample_positions(count, seed=seed)
    WIN.advise(positions[0], FLOAT)  # loads the weights and numba's cached kernel once
    figures: dict[str, float] = {}
    times: dict[int, list[float]] = {}
    for pos in positions:
        t0 = time.perf_counter()
        WIN.advise(pos, FLOAT)
        times.setdefault(len(pos.players), []).append(time.perf_counter() - t0)
    every = [t for ts in times.values() for t in ts]
    for n, ts in sorted(times.items()):
        print(f"win, {n} players ({len(ts)} positions): median {1000 * statistics.median(ts):.1f} ms, "
              f"worst {1000 * max(ts):.0f} ms")
    figures["median_s"], figures["worst_s"] = statistics.median(every), max(every)
    print(f"win, every position ({len(every)}): median {1000 * figures['median_s']:.1f} ms, worst "
          f"{1000 * figures['worst_s']:.0f} ms (targets: under 200 ms and under 1,000 ms)")
    spent = []
    for k in range(games):
        bots = [make("win"), make("win")]
        game = Game(2, seed=seed + k)
        t0 = time.perf_counter()
        while not game.is_over:
            game.apply(bots[game.active](game))
        spent.append(time.perf_counter() - t0)
    figures["game_median_s"], figures["game_worst_s"] = statistics.median(spent), max(spent)
    print(f"two-player game, win against win ({games} games): median {figures['game_median_s']:.2f} s, slowest "
          f"{figures['game_worst_s']:.2f} s (target: under 2 s)")
    return figures


def maxn_speed(count: int = 20, seed: int = 2026) -> None:
    """The exact `win` of three to five players (the compiled max-n of solver/models/maxn.py) at the first
    decision with its limit of cards left (and one card more), in games of `turn`: the time and the states of
    a search from scratch, as the page and the bot start it."""
    from solver.game.rules import Game, Phase
    from solver.models.maxn import MaxnSolver, table_at
    from solver.models.win import EXACT_PILES
    from solver.play.policies import make
    from solver.play.simulate import position_of

    from solver.models.maxn import Table

    last = Table((0,) * 9 + (1,), 0, ((0,) * 10,) * 3, (0, 0, 0), (0, 0, 0), (0, 0, 0))
    MaxnSolver(3, 1).chances(last)  # numba's cached kernel, loaded once
    for players in (3, 4, 5):
        for cards in range(EXACT_PILES[players], EXACT_PILES[players] + 2):
            rng = random.Random(f"{seed}/{players}/{cards}")
            times: list[float] = []
            states: list[int] = []
            while len(times) < count:
                game, bot = Game(players, seed=rng.randrange(2**63)), make("turn")
                while not game.is_over and (len(game.pile) > cards or game.phase is Phase.MUST_DRAW):
                    game.apply(bot(game))
                if game.is_over or len(game.pile) != cards:
                    continue
                pos = position_of(game)
                solver = MaxnSolver(players, cards)
                t0 = time.perf_counter()
                solver.chances(table_at(pos, pos.turn_state()))
                times.append(time.perf_counter() - t0)
                states.append(solver.states)
            print(f"max-n, {players} players, {cards} cards left ({count} decisions): median "
                  f"{1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms; states median "
                  f"{statistics.median(states):,.0f}, most {max(states):,}"
                  + ("  <- the limit (EXACT_PILES)" if cards == EXACT_PILES[players] else ""))


def self_play_speed(count: int = 12, seed: int = 2026) -> None:
    """Seconds of one core per self-play game, 2 to 5 players: the games a round of ``python -m solver train``
    after round 0 plays (every seat `win` with the shipped evaluator, its `win` seats sharing one exact endgame
    search, every fourth game a three-round match), what a round's size costs. ``count`` is a multiple of 4, so
    that a quarter of the games timed are matches, as in a round."""
    from solver.study.train import Settings, game_rows

    per_game: dict[int, float] = {}
    for players in (2, 3, 4, 5):
        game_rows(players, count, 1, seed, "win", None)  # an untimed game first: the kernels of this table size
        cpu, wall = time.process_time(), time.perf_counter()
        rows = game_rows(players, 0, count, seed, "win", None)
        per_game[players] = (time.process_time() - cpu) / count
        print(f"self-play, {players} players ({count} games, {len(rows)} turn starts): "
              f"{per_game[players]:.2f} s of one core a game ({(time.perf_counter() - wall) / count:.2f} s wall)")
    games = Settings().self_play_games
    print(f"a round of {games} games per table size: {games * sum(per_game.values()) / 60:.0f} core-minutes")


def parser() -> argparse.ArgumentParser:
    """The options of ``python -m bench.speed``: one measurement each (the default: `turn` on positions)."""
    from solver.cli import count, seconds

    b = argparse.ArgumentParser(prog="python -m bench.speed",
                                description="Time the solver on positions from simulated games (docs/PERFORMANCE.md)")
    b.add_argument("--positions", type=count, default=300, help="how many positions (default 300)")
    b.add_argument("--seed", type=int, default=2026, help="seed of the simulated games")
    b.add_argument("--models", action="store_true", help="time bank (float and exact) and duel against their targets")
    b.add_argument("--endgames", action="store_true",
                   help="time duel and win on two-player endgames of 8 to 18 cards (seeds 1 and 2)")
    b.add_argument("--win-pruning", action="store_true",
                   help="count the work of win searched by standing, with and without Star1 pruning, against "
                        "its step functions (endgames of 8 and 10 cards; minutes)")
    b.add_argument("--win-anatomy", action="store_true",
                   help="what win's step functions hold on the 12- and 14-card close endgames: states, steps, "
                        "jump sizes, functions alike up to a shift, what pruning them could save (minutes)")
    b.add_argument("--cap", type=seconds, default=30.0,
                   help="with --models, --endgames or --bank-error: seconds a position may take (default 30)")
    b.add_argument("--bank-error", action="store_true",
                   help="measure bank's 3-5 player approximation against simulation (50 positions)")
    b.add_argument("--runs", type=count, default=1000, help="with --bank-error: simulated rounds per position")
    b.add_argument("--tables", action="store_true",
                   help="time the positions table's build with 1 and 2 workers (local pool and Dask; "
                        "--positions sets its size, 200 is a few minutes)")
    b.add_argument("--win", action="store_true",
                   help="time win (the chance to win, 2 to 5 players) on decision points, and win-against-win games")
    b.add_argument("--win-maxn", action="store_true",
                   help="time the exact win of 3-5 players (max-n) at its card limits and one card past them")
    b.add_argument("--self-play", action="store_true",
                   help="time self-play games between win players, 2 to 5 players (the games of a training round)")
    b.add_argument("--games", action="store_true",
                   help="time two-player games between turn-optimal players, and a tournament on 1 and all cores")
    return b


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement ``argv`` asks for (without the program name); 0 when done."""
    args = parser().parse_args(argv)
    if args.endgames:
        endgames(cap=args.cap)
    elif args.win_pruning:
        win_pruning()
    elif args.win_anatomy:
        win_anatomy()
    elif args.models:
        run_models(seed=args.seed, cap=args.cap)
    elif args.bank_error:
        bank_error(runs=args.runs, cap=args.cap)
    elif args.tables:
        tables_speedup(count=args.positions)
    elif args.games:
        games_speed(seed=args.seed)
    elif args.win:
        win_speed(seed=args.seed)
    elif args.win_maxn:
        maxn_speed(seed=args.seed)
    elif args.self_play:
        self_play_speed(seed=args.seed)
    else:
        run(count=args.positions, seed=args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
