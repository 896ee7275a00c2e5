"""The `win` estimate's error, measured: ``python -m bench.win_error``.

Three comparisons (``docs/MODELS.md``, "`win`: the chance to win, 2 to 5 players"):

* **exact win**: two-player endgames (6 to 10 cards left, decision points of
  games between `turn` players), the estimate against the exact `win`;
* **brute-force max-n**: three to five players with 3 to 5 cards left, the
  estimate against a brute-force max-n expectimax over the rules engine
  (:func:`maxn`, every player maximising its own chance to win to the last
  card, ties broken as everywhere else);
* **calibration**: turn starts of held-out games (seeds no training game
  used), the evaluator's chance for the seat to play against how often it won,
  by bins of the predicted chance.

It writes ``data/strength/win_error.csv`` and ``data/strength/win_calibration.csv``
and prints the tables ``docs/MODELS.md`` quotes. The samples are fixed by
their seeds; the tests recompute a part of them and hold it to these figures.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.position import Position
from solver.game.rules import Action, Game, Phase, Player
from solver.play.simulate import TurnPolicy, position_of
from solver.utilities.numbers import FLOAT
from solver.utilities.stats import wilson

__all__ = ["calibration", "endgame_positions", "maxn", "one_turn", "tiny_positions"]

OUT = Path(__file__).resolve().parents[1] / "data" / "strength"


def _key(game: Game) -> tuple[Any, ...]:
    return (game.pile_counts(), tuple(tuple(sorted(p.line)) for p in game.players),
            tuple((p.score, len(p.loot), p.lost_turns) for p in game.players), game.active, game.phase, game.offer)


def _copy(game: Game) -> Game:
    g = Game.resume([Player(list(p.line), list(p.loot), p.lost_turns) for p in game.players], game.active,
                    list(game.pile), game.discard, game.offer if game.phase is Phase.STEAL else None)
    g.match = game.match
    if game.phase is Phase.MUST_DRAW:
        g.phase = Phase.MUST_DRAW
    return g


def _winner_vector(game: Game) -> tuple[Fraction, ...]:
    w = game.ranking()[0]
    return tuple(Fraction(int(s == w)) for s in range(game.num_players))


def maxn(game: Game, memo: dict[tuple[Any, ...], tuple[Fraction, ...]] | None = None) -> tuple[Fraction, ...]:
    """Every seat's exact chance to win from ``game`` (a single round), each player maximising its own:
    brute force over the rules engine, stop rather than draw and decline rather than steal on a tie."""
    memo = {} if memo is None else memo
    if game.is_over:
        return _winner_vector(game)
    key = _key(game)
    got = memo.get(key)
    if got is not None:
        return got
    a = game.active
    if game.phase is Phase.STEAL:
        options = [Action.DECLINE, Action.STEAL]
    elif game.phase is Phase.MUST_DRAW:
        options = [Action.DRAW]
    else:
        options = [Action.STOP, Action.DRAW]
    best: tuple[Fraction, ...] | None = None
    for action in options:
        value = _after(game, action, lambda g: maxn(g, memo))
        if best is None or value[a] > best[a]:  # the first option wins ties
            best = value
    assert best is not None
    memo[key] = best
    return best


def _after(game: Game, action: Action, value: Callable[[Game], tuple[Fraction, ...]]) -> tuple[Fraction, ...]:
    """The value of ``action``: a draw averages over the pile's values (R4), the rest are certain."""
    if action is not Action.DRAW:
        g = _copy(game)
        g.apply(action)
        return value(g)
    total: list[Fraction] = [Fraction(0)] * game.num_players
    for v, p in game.chance_outcomes():
        g = _copy(game)
        g.draw(v)
        total = [t + p * x for t, x in zip(total, value(g))]
    return tuple(total)


def one_turn(game: Game, leaves: Callable[[Game], tuple[float, ...]]) -> dict[Action, float]:
    """The active player's chance to win of each choice open now, its turn searched by brute force over the
    rules engine and ``leaves(game)`` valuing the next seat's turn start (the game's end exactly)."""
    mover = game.active
    memo: dict[tuple[Any, ...], tuple[float, ...]] = {}

    def value(g: Game) -> tuple[float, ...]:
        if g.is_over:
            return tuple(float(x) for x in _winner_vector(g))
        if g.active != mover:
            return leaves(g)
        key = _key(g)
        if key in memo:
            return memo[key]
        a = g.active
        opts = [Action.DECLINE, Action.STEAL] if g.phase is Phase.STEAL else \
            [Action.DRAW] if g.phase is Phase.MUST_DRAW else [Action.STOP, Action.DRAW]
        best = None
        for act in opts:
            v = _after_f(g, act, value)
            if best is None or v[a] > best[a] + 1e-9 * max(1.0, abs(best[a])):
                best = v
        assert best is not None
        memo[key] = best
        return best

    return {act: _after_f(game, act, value)[mover] for act in game.legal_actions()}


def _after_f(game: Game, action: Action, value: Callable[[Game], tuple[float, ...]]) -> tuple[float, ...]:
    if action is not Action.DRAW:
        g = _copy(game)
        g.apply(action)
        return value(g)
    total = [0.0] * game.num_players
    for v, p in game.chance_outcomes():
        g = _copy(game)
        g.draw(v)
        total = [t + float(p) * x for t, x in zip(total, value(g))]
    return tuple(total)


def _decisions(players: int, seed: int, low: int, high: int) -> Iterator[Game]:
    """Decision points (stop/draw or a steal) with ``low`` to ``high`` cards left, from games of `turn`."""
    rng = random.Random(seed)
    while True:
        game = Game(players, seed=rng.randrange(2**63))
        policy = TurnPolicy(FLOAT)
        while not game.is_over:
            if low <= len(game.pile) <= high and game.phase is not Phase.MUST_DRAW and rng.random() < 0.5:
                yield _copy(game)
                break
            game.apply(policy(game))


def endgame_positions(count: int, seed: int = 2026) -> list[Position]:
    """Two-player decision points with 6 to 10 cards left (the exact `win` answers them)."""
    it = _decisions(2, seed, 6, 10)
    return [position_of(next(it)) for _ in range(count)]


def tiny_positions(players: int, count: int, seed: int = 2026) -> list[Game]:
    """Decision points of 3 to 5 players with 3 to 5 cards left (the brute force answers them)."""
    it = _decisions(players, seed + players, 3, 5)
    return [next(it) for _ in range(count)]


def _choices(pos: Position, advice: Any) -> dict[str, float]:
    out = {}
    if advice.steal is not None:
        out["take"], out["decline"] = float(advice.steal.take), float(advice.steal.decline)
    else:
        if advice.stop is not None:
            out["stop"] = float(advice.stop)
        out["draw"] = float(advice.draw)
    return out


def _exact_choices(game: Game) -> dict[str, float]:
    memo: dict[tuple[Any, ...], tuple[Fraction, ...]] = {}
    a = game.active
    names = {Action.STEAL: "take", Action.DECLINE: "decline", Action.STOP: "stop", Action.DRAW: "draw"}
    return {names[act]: float(_after(game, act, lambda g: maxn(g, memo))[a]) for act in game.legal_actions()}


def _best(choices: dict[str, float]) -> str:
    order = ["decline", "take"] if "take" in choices else ["stop", "draw"]
    best = None
    for name in order:
        if name in choices and (best is None or choices[name] > choices[best] + 1e-9):
            best = name
    assert best is not None
    return best


def _compare(pairs: list[tuple[dict[str, float], dict[str, float]]]) -> dict[str, Any]:
    """Errors of estimated choices against exact ones: every choice's absolute error; how often the estimate's
    best choice is worse in exact terms (an exact tie is no difference); the exact chance that costs."""
    errs, costs = [], []
    for est, exact in pairs:
        errs += [abs(est[k] - exact[k]) for k in exact]
        costs.append(exact[_best(exact)] - exact[_best(est)])
    return {"positions": len(pairs), "choices": len(errs), "mean_abs_error": float(np.mean(errs)),
            "worst_abs_error": float(np.max(errs)), "action_differs": float(np.mean([c > 1e-12 for c in costs])),
            "mean_cost": float(np.mean(costs))}


def error_rows(endgames: int, tiny: int, seed: int = 2026) -> list[dict[str, Any]]:
    """The estimate against exact values: a row per comparison and table size."""
    from solver.models.win import WIN

    pairs = [(_choices(pos, WIN.estimate(pos)), _choices(pos, WIN.exact(pos, FLOAT)))
             for pos in endgame_positions(endgames, seed)]
    rows = [{"comparison": "exact win", "players": 2, **_compare(pairs)}]
    for n in (3, 4, 5):
        pairs = [(_choices(position_of(g), WIN.estimate(position_of(g))), _exact_choices(g))
                 for g in tiny_positions(n, tiny, seed)]
        rows.append({"comparison": "brute-force max-n", "players": n, **_compare(pairs)})
    return rows


def calibration(games: int, seed: int = 7_000_000, bins: int = 10, players: tuple[int, ...] = (2, 3, 4, 5)
                ) -> list[dict[str, Any]]:
    """The evaluator's chance for the seat to play at held-out turn starts against how often it won."""
    import pandas as pd

    from solver.models.evaluator import evaluator
    from solver.study.train import arrays, game_rows

    ev = evaluator()
    rows = []
    for n in players:
        table = pd.DataFrame(game_rows(n, seed, games, seed, "turn", None))
        x, y = arrays(table, n, ev.exposure(n))
        p = ev.chances(x, n)[:, 0]
        won = y == 0
        edges = np.linspace(0.0, 1.0, bins + 1)
        which = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
        for b in range(bins):
            sel = which == b
            k = int(sel.sum())
            if not k:
                continue
            w = int(won[sel].sum())
            lo, hi = wilson(w, k)
            rows.append({"players": n, "bin_low": float(edges[b]), "bin_high": float(edges[b + 1]), "positions": k,
                         "games": int(table["game"][sel].nunique()), "predicted": float(p[sel].mean()),
                         "observed": w / k, "low": lo, "high": hi, "games_played": games})
    return rows


def calibration_error(rows: list[dict[str, Any]], players: int) -> float:
    """The mean gap between predicted and observed, weighted by positions (the expected calibration error)."""
    mine = [r for r in rows if r["players"] == players]
    total = sum(r["positions"] for r in mine)
    return float(sum(r["positions"] * abs(r["predicted"] - r["observed"]) for r in mine) / total)


def main(argv: list[str] | None = None) -> int:
    import pandas as pd

    ap = argparse.ArgumentParser(prog="python -m bench.win_error", description=__doc__.split("\n\n")[0])
    ap.add_argument("--endgames", type=int, default=100, help="two-player endgames (default 100)")
    ap.add_argument("--tiny", type=int, default=20, help="tiny positions per table size, 3 to 5 players (default 20)")
    ap.add_argument("--games", type=int, default=250, help="held-out games per table size (default 250)")
    ap.add_argument("--out", default=str(OUT), help="folder for win_error.csv and win_calibration.csv")
    args = ap.parse_args(argv)
    for option in ("endgames", "tiny", "games"):
        if getattr(args, option) < 1:
            ap.error(f"--{option} {getattr(args, option)}: at least 1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    err = pd.DataFrame(error_rows(args.endgames, args.tiny))
    cal = pd.DataFrame(calibration(args.games))
    err.to_csv(out / "win_error.csv", index=False)
    cal.to_csv(out / "win_calibration.csv", index=False)
    print("| against | players | positions | mean abs. error | worst | best choice worse | chance it costs |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in err.itertuples(index=False):
        print(f"| {r.comparison} | {r.players} | {r.positions} | {r.mean_abs_error:.3f} | {r.worst_abs_error:.3f} | "
              f"{r.action_differs:.1%} | {r.mean_cost:.4f} |")
    print()
    print("| players | positions | games | calibration error (weighted mean gap) |")
    print("| --- | --- | --- | --- |")
    for n in (2, 3, 4, 5):
        c = cal[cal["players"] == n]
        print(f"| {n} | {int(c['positions'].sum())} | {args.games} | {calibration_error(cal.to_dict('records'), n):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

