"""The questions the pages ask of the models, as plain functions of a position's JSON (so that a worker
process can answer them, and their answers can be remembered by their arguments).

>>> advice, why_not = solve(Position.from_dict({"players": [{"line": [7, 3]}, {}], "active": 0}).to_json(),
...                         "turn", 3.0)
>>> advice is not None and advice.exact, why_not
(True, None)
"""

from __future__ import annotations

from pathlib import Path

from solver.models.advice import Advice, Budget, ModelError
from solver.utilities.jobs import Jobs
from solver.models.bank import TheftRisk, theft_risk
from solver.models import MODELS
from solver.utilities.numbers import FLOAT, numbers
from solver.game.position import Position

__all__ = ["WIN_PLAYERS", "asks_win", "chance", "solve", "theft", "warm", "weights_stamp", "workers"]

#: The table sizes the pages ask `win` about: every one they show. (`win` is exact in a game's last cards and an
#: estimate elsewhere, answered in milliseconds: docs/MODELS.md.)
WIN_PLAYERS = range(2, 6)


def asks_win(pos: Position) -> bool:
    """Whether the pages ask `win` about ``pos``: every position of 2 to 5 players, early or late.

    >>> asks_win(Position.from_dict({"players": [{"line": [7, 3]}, {}], "active": 0}))  # 88 cards left
    True
    """
    return len(pos.players) in WIN_PLAYERS


def weights_stamp() -> str:
    """The evaluator's weights file `win` reads now (``HIT_WIN_WEIGHTS``'s folder, else the shipped one) and
    when it last changed ("missing" if it is not there): a question to :func:`chance` carries it, so that a
    rebuilt, replaced or removed file is asked about afresh instead of answered from the workers' memory."""
    from solver.models.evaluator import weights_folder

    npz = weights_folder() / "evaluator.npz"
    try:
        return f"{npz} {npz.stat().st_mtime_ns}"
    except OSError:
        return f"{npz} missing"


def solve(position_json: str, model: str, seconds: float) -> tuple[Advice | None, str | None]:
    """A model's advice (or why there is none): `bank` on its float path, the others exact."""
    pos = Position.from_json(position_json)
    m = MODELS[model]
    try:
        return m.advise(pos, numbers(exact=m.quick_exact), Budget(seconds)), None
    except ModelError as e:  # beyond a model's reach or the page's budget: it says why
        return None, str(e)


def chance(position_json: str, seconds: float, weights: str) -> tuple[Advice | None, str | None]:
    """`win`'s advice, the chance to win (or why there is none: a missing or damaged weights file is a
    :class:`~solver.models.evaluator.WeightsError`, its message naming the file and the rebuild command).
    ``weights`` is :func:`weights_stamp`: only part of the question, so that the answer is not remembered
    past a change of the file."""
    return solve(position_json, "win", seconds)


def theft(position_json: str, seconds: float) -> tuple[list[TheftRisk] | None, list[TheftRisk] | None, str | None]:
    """`bank`'s theft risk if the player stops with the line as it stands, and (with a steal on
    offer) once the steal is taken; ``None`` where `bank` ran out of time, with its reason."""
    pos = Position.from_json(position_json)
    now: list[TheftRisk] | None = None
    after: list[TheftRisk] | None = None
    why_not = None
    state = pos.turn_state()
    try:
        now = theft_risk(pos, FLOAT, Budget(seconds)) if state.line_size else []
    except ModelError as e:
        why_not = str(e)
    offer = pos.steal_on_offer()
    if offer is not None:
        took = state.stolen(offer)
        try:
            after = theft_risk(pos, FLOAT, Budget(seconds), point=took)
        except ModelError as e:
            why_not = why_not or str(e)
    return now, after, why_not


def workers(processes: bool = True) -> Jobs:
    """The pages' two solving workers and their memory of answers, both started and warmed now (a player's
    first answer would wait for it). Processes, at a lower priority than the server's own thread, so that
    it never waits for a model's share of the interpreter (``processes=False``: threads, for tests that put
    a function of their own in a model's place)."""
    jobs = Jobs(workers=2, processes=processes, nice=10)
    for k in range(2):
        jobs.ask(None, warm, k)
    return jobs


def warm(worker: int = 0) -> None:
    """A worker's first answer loads the models and their compiled kernels: done at a pool's start, once per
    ``worker`` (each its own question), so that a player's first question does not wait for it."""
    three = Position.from_dict({"players": [{"line": [7, 3]}, {}, {}], "active": 0}).to_json()
    solve(three, "bank", 1.0)
    solve(three, "win", 1.0)  # the estimate's compiled search and the evaluator
    for endgame in _ENDGAMES:  # few cards: the exact searches' compiled kernels (two players; three to five)
        solve(endgame, "win", 1.0)


def _endgame(players: int) -> str:
    """A position of ``players`` with six cards left in the pile, for :func:`warm`."""
    from solver.game.cards import DECK_COPIES, VALUES

    left = {1: 1, 4: 1, 6: 1, 8: 1, 9: 1, 10: 1}
    gone = [v for v, n in zip(VALUES, DECK_COPIES) for _ in range(n - left.get(v, 0))]
    loots = [{"loot": gone[s:60:players]} for s in range(players)]
    return Position.from_dict({"players": loots, "active": 0, "discard": gone[60:]}).to_json()


_ENDGAMES = (_endgame(2), _endgame(3))
