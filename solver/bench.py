"""Benchmark: the `turn` solver on mid-game positions from simulated games.

``python -m solver bench`` samples a fixed set of decision points from
simulated games with 2 to 5 players, solves each one from scratch in float
and in exact mode, and prints median and worst times. It also times the
command line on a 300-position JSON-lines batch, start-up included. The
README records its figures; tests never assert on time.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .models import advise
from .numbers import EXACT
from .simulate import sample_positions
from .turn import turn_report

__all__ = ["bank_error", "run", "run_models", "time_advice"]


def time_advice(positions: list, exact: bool) -> list[float]:  # type: ignore[type-arg]
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


def _timed(fn, cap: float):  # type: ignore[no-untyped-def]
    """Seconds ``fn`` takes, or None past ``cap`` seconds (it is then interrupted)."""
    import signal

    def alarm(*_: object) -> None:
        raise TimeoutError

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    t0 = time.perf_counter()
    try:
        fn()
        return time.perf_counter() - t0
    except TimeoutError:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _summary(label: str, times: list, cap: float) -> None:  # type: ignore[type-arg]
    done = sorted(t for t in times if t is not None)
    over = len(times) - len(done)
    ranked = done + [float("inf")] * over
    median = statistics.median(ranked) if ranked else float("nan")
    med = f">{cap:.0f} s" if median == float("inf") else f"{median:.2f} s"
    worst = f">{cap:.0f} s" if over else f"{max(done):.2f} s"
    print(f"{label}: {len(times)} positions, median {med}, worst {worst}, {over} over {cap:.0f} s")


def run_models(count: int = 12, seed: int = 2026, cap: float = 60.0) -> None:
    """Time `bank` (float) and `duel`, and measure bank's approximation against simulation."""
    from .cards import DECK_COPIES, cards_of
    from .position import PlayerView, Position

    fresh = Position.build((PlayerView(), PlayerView()), 0)
    t = _timed(lambda: advise(fresh, "bank", exact=False), cap)
    print(f"bank, two players, fresh deck: {'>%.0f s' % cap if t is None else '%.2f s' % t}")
    pool = sample_positions(20 * count, seed=seed)
    two = [p for p in pool if len(p.players) == 2][:count]
    more = [p for p in pool if len(p.players) > 2][:count]
    for label, group in (("bank, two players, mid-game", two), ("bank, 3-5 players, mid-game", more)):
        times = []
        for p in group:
            times.append(_timed(lambda p=p: advise(p, "bank", exact=False), cap))
            print(f"  {len(p.players)} players, line {list(p.line)}, pile {p.pile_size()}: "
                  f"{'>%.0f' % cap if times[-1] is None else '%.3f' % times[-1]} s", flush=True)
        _summary(label, times, cap)
    for size in (8, 10, 12, 14):
        times = []
        for deal in (1, 2):  # the README's endgames: seeds 1 and 2
            deck = cards_of(DECK_COPIES)
            random.Random(deal).shuffle(deck)
            rest = deck[size:]
            pos = Position.from_dict({"players": [{"line": rest[:2], "loot": rest[5:]}, {"line": rest[2:5]}],
                                      "active": 0})
            times.append(_timed(lambda pos=pos: advise(pos, "duel"), cap))
        _summary(f"duel, {size}-card pile (2 endgames)", times, cap)


def bank_error(runs: int = 2000, seed: int = 7) -> None:
    """bank's 'independent opponents' approximation against a simulation of the definition."""
    import math

    from .position import Position
    from .rules import Action
    from .simulate import TurnPolicy, game_from_position, play_turn

    tables = [
        {"players": [{"line": [9, 9, 7, 2]}, {"line": [4, 4]}, {"line": [9, 1, 3]}], "active": 0,
         "discard": [10, 10, 5]},
        {"players": [{"line": [8, 8, 6]}, {"line": [1]}, {"line": [6, 2]}, {"line": [3, 3, 3]}], "active": 0,
         "discard": [10, 9, 9, 1, 1]},
        {"players": [{"line": [5, 4, 10]}, {"line": [10, 2]}, {"line": [7]}, {"line": [4, 4, 1]},
                     {"line": [5, 6]}], "active": 0, "discard": [3, 3, 8, 8, 8, 2]},
        {"players": [{"line": [2, 2, 7, 9, 1]}, {"line": [7, 7]}, {"line": [10, 3, 8]}], "active": 0,
         "discard": [6, 6, 6, 6, 5, 5]},
    ]
    rng = random.Random(seed)
    for data in tables:
        pos = Position.from_dict(data)
        approx = float(advise(pos, "bank", exact=False).stop or 0)
        kept = []
        policies: dict[int, TurnPolicy] = {}
        for _ in range(runs):
            game = game_from_position(pos, rng.randrange(2**63))
            before = game.players[0].score
            game.apply(Action.STOP)
            while not game.is_over and game.active != 0:
                play_turn(game, policies.setdefault(game.active, TurnPolicy()))
            kept.append(game.players[0].score - before)
        mean = statistics.fmean(kept)
        half = 3.2905 * statistics.stdev(kept) / math.sqrt(runs)
        print(f"{len(pos.players)} players, line {list(pos.line)}: bank stop {approx:.3f}, simulated "
              f"{mean:.3f} ± {half:.3f} (99.9%), error {approx - mean:+.3f}")
