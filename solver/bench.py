"""Benchmark: the `turn` solver on mid-game positions from simulated games.

``python -m solver bench`` samples a fixed set of decision points from
simulated games with 2 to 5 players, solves each one from scratch in float
and in exact mode, and prints median and worst times. It also times the
command line on a 300-position JSON-lines batch, start-up included. The
README records its figures; tests never assert on time.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .advice import advise, next_cards
from .simulate import sample_positions

__all__ = ["run", "time_advice"]


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
        advise(pos, exact=True)
        next_cards(pos, exact=True)
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
