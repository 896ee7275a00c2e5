"""Strength page: how the policies fare in tournaments, how far `win`'s estimate is off, and a review of a
recorded game.

A thin view. The tournament tables are built by ``python -m solver tournament``
(:mod:`solver.play.tournament`) into ``data/strength/`` (or the folder named by the
``HIT_STRENGTH_DIR`` environment variable); the same folder holds the `win`
evaluator's calibration and error tables (``win_calibration.csv``,
``win_error.csv``, made by ``python -m bench.win_error``); the review is
:mod:`solver.play.review` of a game record (:mod:`solver.game.record`), uploaded
or the sample game.

The helpers above :func:`page` are plain functions the tests import; the page
itself is drawn only when Streamlit runs this file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from solver.models.advice import choice_word
from solver.models.evaluator import WeightsError
from solver.game.record import RecordError, dumps, replay
from solver.play.review import BANDS, WORST_BAND, Decision, Review, ReviewError, decision_made, review, said
from solver.game.rules import Event, Game, Match
from solver.play.tournament import SEED, Pairing, made_by, play_deal, playable
from views.safe_text import counted, plain

ROOT = Path(__file__).resolve().parent.parent
BUILD = "python -m solver tournament turn rule threshold --players 2 3 4 5"
#: `bank`'s work per decision in a review, in seconds.
BANK_SECONDS = 2.0
#: The largest upload read: a whole seven-round match with five players is well under 200 kB.
MAX_BYTES = 1_000_000
SAMPLE = Pairing("turn", "threshold:25", 2)
SAMPLE_NAME = "sample-game.jsonl"
MODELS = {"turn": "turn: the most points this turn (exact, quick)",
          "bank": f"bank: counts theft by the other players (up to {BANK_SECONDS:g} s a decision)",
          "win": "win: the chance to win the game (an estimate; exact in a game's last cards)"}
#: The model a review starts with, here and at the end of a Live or Practice game: the chance to win, as every
#: page leads with it (a four-player game's review takes some 5 s).
REVIEW_DEFAULT = "win"
NEEDED = ["pairing", "tested", "baseline", "players", "deals", "games", "wins", "win_rate", "win_low", "win_high",
          "fair_share", "mean_score", "mean_margin"]

# ---------------------------------------------------------------------------------------------------------------
# Playing strength: the tournament tables


def strength_dir() -> Path:
    """Where the tournament tables are: ``HIT_STRENGTH_DIR``, or the repository's data/strength."""
    named = os.environ.get("HIT_STRENGTH_DIR", "").strip()
    return Path(named).expanduser() if named else ROOT / "data" / "strength"


def shown_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def load_summary(folder: Path) -> pd.DataFrame | None:
    """The tournament's summary table (Parquet, else CSV), or None if the folder has none."""
    for name, read in (("summary.parquet", pd.read_parquet), ("summary.csv", pd.read_csv)):
        path = folder / name
        if path.is_file():
            return _read(str(path), path.stat().st_mtime_ns, read)
    return None


@st.cache_data(show_spinner=False, max_entries=4)
def _read(path: str, mtime: int, _read_with: Any) -> pd.DataFrame:  # mtime: a rebuilt table is read again
    return _read_with(path)


def verdict(row: Any) -> str:
    """Plain words for a win rate's interval against an equal player's share.

    >>> verdict({"win_low": 0.55, "win_high": 0.7, "fair_share": 0.5})
    'stronger'
    >>> verdict({"win_low": 0.4, "win_high": 0.6, "fair_share": 0.5})
    'too close to call'
    """
    if row["win_low"] > row["fair_share"]:
        return "stronger"
    if row["win_high"] < row["fair_share"]:
        return "weaker"
    return "too close to call"


#: What the "Played by" column says of a pairing's games.
TODAY, EARLIER, UNRECORDED, UNKNOWN = "today's code", "earlier code", "not recorded", "cannot tell"


def today(p: Pairing) -> str:
    """What would play ``p`` in this copy (:func:`solver.play.tournament.made_by`); a ValueError if no
    tournament here can play it (an unknown policy, a table size, missing weights)."""
    playable(p)
    return made_by(p)


def played_by(summary: pd.DataFrame, now: Any = today) -> list[str]:
    """For each pairing of the summary: were its games played by the code, rules table and weights of this copy
    (``now(pairing)``: :func:`today`), by earlier ones, or is it not recorded? Where this copy cannot play the
    pairing (an unknown policy, missing weights) it cannot tell. Games of several marks were not all played by
    today's code: earlier code."""
    if "made_by" not in summary.columns:
        return [UNRECORDED] * len(summary)
    seen: dict[tuple[str, str, int], str] = {}
    out = []
    for r in summary.itertuples(index=False):
        mark = r.made_by
        if not isinstance(mark, str) or not mark:
            out.append(UNRECORDED)
            continue
        key = (str(r.tested), str(r.baseline), int(r.players))
        if key not in seen:
            try:
                seen[key] = now(Pairing(*key))
            except (WeightsError, ValueError, OSError):
                seen[key] = ""
        out.append(UNKNOWN if not seen[key] else TODAY if mark == seen[key] else EARLIER)
    return out


def pairing_name(r: Any) -> str:
    """A summary row's pairing as the table names it (from its policies and players, not its label)."""
    return f"{r.tested} vs {r.baseline} ({int(r.players)}p)"


def again(r: Any, out: str = "", which: str = "one") -> str:
    """The command that plays a summary row's pairing again on the same deals (into the folder ``out``, if not
    the default), as a sentence naming it ``which`` ("one" of several pairings, or "it") (none for names no
    policy has, deals from several seeds, or a folder that cannot be written plainly in a command).

    >>> from types import SimpleNamespace as Row
    >>> print(again(Row(tested="win", baseline="threshold:25", players=3, deals=1000, seed=2026)))
    ... # doctest: +NORMALIZE_WHITESPACE
    Play one again, from the project's folder, with
    `python -m solver tournament win threshold:25 --players 3 --deals 1000`.
    >>> print(again(Row(tested="win", baseline="turn", players=2, deals=10, seed=3), "results/strength"))
    ... # doctest: +NORMALIZE_WHITESPACE
    Play one again, from the project's folder, with
    `python -m solver tournament win turn --players 2 --deals 10 --seed 3 --out results/strength`.
    >>> again(Row(tested="win", baseline="turn", players=2, deals=10, seed=None))  # dealt from several seeds
    ''
    """
    names = (str(r.tested), str(r.baseline))
    seed = getattr(r, "seed", SEED)  # a summary from before it carried the seed: the tournaments' own
    if (not all(re.fullmatch(r"[a-z]+(:[a-z0-9.]+)?", n) for n in names) or not re.fullmatch(r"[\w./-]*", out)
            or pd.isna(seed)):
        return ""
    options = f"--players {int(r.players)} --deals {int(r.deals)}{'' if int(seed) == SEED else f' --seed {int(seed)}'}"
    command = f"python -m solver tournament {names[0]} {names[1]} {options}{' --out ' + out if out else ''}"
    return f"Play {which} again, from the project's folder, with `{command}`."


def strength_table(summary: pd.DataFrame, played: list[str] | None = None) -> pd.DataFrame:
    """The summary as people read it: percentages, the interval as text, a verdict, and (``played``, in the
    summary's order: :func:`played_by`) whether today's code played it."""
    order = summary["players"].reset_index(drop=True).sort_values(kind="stable").index
    s = summary.iloc[order]
    out = pd.DataFrame({
        "Pairing": s["tested"].astype(str) + " vs " + s["baseline"].astype(str),
        "Players": s["players"].astype(int),
        "Games": s["games"].astype(int),
        "Win rate": s["win_rate"] * 100,
        "95% interval": [f"{lo:.1%}–{hi:.1%}" for lo, hi in zip(s["win_low"], s["win_high"])],
        "Equal player": s["fair_share"] * 100,
        "Against an equal player": [verdict(r) for _, r in s.iterrows()],
        "Mean score": s["mean_score"],
        "Mean margin": s["mean_margin"],
    })
    if "bank_share" in s.columns and s["bank_share"].notna().any():
        share = pd.to_numeric(s["bank_share"], errors="coerce")
        # A number, so that the column sorts as one; NaN: the tested seat is not bank.
        out["Decided by bank"] = share.to_numpy() * 100
    if played is not None:
        out["Played by"] = [played[i] for i in order]
    return out.reset_index(drop=True)


def describe(policy: str) -> str:
    """What a policy's name means, in a player's words.

    >>> describe("threshold:25")
    'stops once the cards in front of it are worth 25 or more'
    """
    name, _, arg = policy.partition(":")
    if name == "turn":
        return "plays each turn for the most points that turn, exactly, ignoring theft"
    if name == "bank":
        return ("plays for the points that reach its loot once the others have had their turns to steal"
                + (f" ({arg} s of work a decision)" if arg else ""))
    if name == "hybrid":
        return "plays bank, then the exact two-player endgame once the pile is small"
    if name == "win":
        return ("plays for the chance to win the game: each turn searched exactly, its ends valued by a learned "
                "estimate of the chance to win (exact in a game's last cards)" if not arg else
                "plays for the chance to win the game by the learned estimate alone, a game's last cards too")
    if name == "rule":
        return "plays by the best simple rule of the Study page"
    if name == "threshold":
        return f"stops once the cards in front of it are worth {arg} or more" if arg else \
            "stops at the line value the Study page found best"
    if name == "bust":
        return f"stops once the next card busts it {arg}% of the time or more" if arg else \
            "stops at the bust chance the Study page found best"
    if name == "cards":
        return f"draws {arg} cards, then stops" if arg else "draws the number of cards the Study page found best"
    if name == "random":
        return "plays at random"
    return ""


VERDICT_COLOURS = {"stronger": "#2e7d32", "too close to call": "#546e7a", "weaker": "#c62828"}


def strength_chart(summary: pd.DataFrame, players: int) -> alt.LayerChart:
    """The pairings of one player count: win rate (point) and its 95% interval (bar) per pairing, coloured by
    the verdict, and a dashed line at an equal player's share."""
    df = summary[summary["players"] == players].copy()
    df["matchup"] = df["tested"].astype(str) + " vs " + df["baseline"].astype(str)
    df["interval"] = [f"{lo:.1%}–{hi:.1%}" for lo, hi in zip(df["win_low"], df["win_high"])]
    df["verdict"] = [verdict(r) for _, r in df.iterrows()]
    fair = 1 / players
    order = list(dict.fromkeys(df["matchup"]))
    # (a little past 100% at most: a dot at 99.4% was cut in half by the plot's edge)
    x_scale = alt.Scale(domain=[0, min(1.03, max(float(df["win_high"].max()), fair) + 0.05)], nice=False)
    y = alt.Y("matchup:N", title=None, sort=order, axis=alt.Axis(labelLimit=160, labelFontSize=12))
    colour = alt.Color("verdict:N",  # no legend (it overflows a phone): the caption says what the colours mean
                       scale=alt.Scale(domain=list(VERDICT_COLOURS), range=list(VERDICT_COLOURS.values())),
                       legend=None)
    tooltip = [alt.Tooltip("pairing:N"), alt.Tooltip("games:Q"),
               alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
               alt.Tooltip("interval:N", title="95% interval"), alt.Tooltip("verdict:N", title="verdict")]
    base = alt.Chart(df).encode(y=y, tooltip=tooltip)
    # The interval is a solid bar with a cap at each end, and the dot is small and ringed in white: an interval a
    # few pixels wide (a thousand deals' on a phone) shows either side of its dot, and one narrower than the dot
    # still shows its caps above and below it.
    bars = base.mark_rule(strokeWidth=3, opacity=1).encode(
        x=alt.X("win_low:Q", title="win rate of the tested seat", scale=x_scale, axis=alt.Axis(format="%")),
        x2="win_high:Q", color=colour)
    low_cap = base.mark_tick(thickness=2, size=14, opacity=1).encode(x="win_low:Q", color=colour)
    high_cap = base.mark_tick(thickness=2, size=14, opacity=1).encode(x="win_high:Q", color=colour)
    points = base.mark_point(filled=True, size=55, opacity=1, stroke="white", strokeWidth=1.5).encode(
        x="win_rate:Q", color=colour)
    even = alt.Chart(pd.DataFrame({"fair": [fair], "label": [f"equal player {fair:.0%}"]}))
    line = even.mark_rule(color="#333", strokeDash=[4, 3]).encode(x="fair:Q", tooltip=[alt.Tooltip("label:N")])
    # fit-x: the chart is as wide as its container, and the height is the plot's own (34 px a row), not
    # shared with the title, axis and legend.
    chart: alt.LayerChart = (line + bars + low_cap + high_cap + points).properties(
        height=34 * len(order), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"), title=alt.Title(f"{players} players: an equal player wins {fair:.0%}",
                                                     anchor="start", fontSize=14))
    return chart


# ---------------------------------------------------------------------------------------------------------------
# How far `win`'s estimate is off: its calibration and its error against exact values

#: The command that makes the two tables below.
WIN_ERROR_BUILD = "python -m bench.win_error"
CALIBRATION = "win_calibration.csv"
ERRORS = "win_error.csv"
CALIBRATION_COLUMNS = ["players", "bin_low", "bin_high", "positions", "games", "predicted", "observed", "low", "high"]
ERROR_COLUMNS = ["comparison", "players", "positions", "mean_abs_error", "worst_abs_error", "action_differs"]
#: Colours of the table sizes in the calibration chart (2 to 5 players).
PLAYER_COLOURS = {"2": "#1565c0", "3": "#2e7d32", "4": "#ef6c00", "5": "#6a1b9a"}


class TableProblem(ValueError):
    """What is wrong with a table this page reads, in words (the page names the file)."""


def _numbers(df: pd.DataFrame, column: str, *, whole: bool = False, low: float | None = None,
             high: float | None = None, blank: pd.Series | None = None) -> pd.Series:
    """A column as numbers, each checked: whole, within ``low``..``high``; blank only where ``blank`` is True.
    A :class:`TableProblem` names the first row (its line in the file) that is not."""
    raw = df[column]
    got = pd.to_numeric(raw, errors="coerce")
    allowed = blank if blank is not None else pd.Series(False, index=df.index)
    for i in df.index:
        x, line = got[i], int(i) + 2  # line 1 is the header
        if pd.isna(x):
            if bool(allowed[i]) and (pd.isna(raw[i]) or not str(raw[i]).strip()):
                continue
            shown = " ".join(str(raw[i]).split())[:40]
            raise TableProblem(f"line {line}, column {column}: {repr(shown) if shown else 'nothing'} is not a "
                               f"number")
        if whole and float(x) != int(x):
            raise TableProblem(f"line {line}, column {column}: {x:g} is not a whole number")
        if (low is not None and x < low) or (high is not None and x > high):
            bounds = f"{low:g} to {high:g}" if low is not None and high is not None else f"{low:g} or more"
            raise TableProblem(f"line {line}, column {column}: {x:g} is outside {bounds}")
    return got


def _table(path: Path, columns: list[str]) -> pd.DataFrame:
    """A CSV table with these columns and at least one row, or a :class:`TableProblem` saying what is wrong."""
    try:
        df = _read(str(path), path.stat().st_mtime_ns, pd.read_csv)
    except Exception as e:  # noqa: BLE001 - a damaged file: said in words
        raise TableProblem(f"it cannot be read as a CSV table: {said(e)}") from None
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise TableProblem(f"it has no column{'s' if len(missing) > 1 else ''} {', '.join(missing)} (the columns "
                           f"it needs: {', '.join(columns)})")
    if df.empty:
        raise TableProblem("it has a header and no rows")
    return df.reset_index(drop=True)


def load_calibration(folder: Path) -> pd.DataFrame | None:
    """``win_calibration.csv``: per table size and bin of predicted chance, the positions and games in it, the
    mean predicted chance of the seat to play, its observed win rate and that rate's 95% interval. None if the
    folder has none; a :class:`TableProblem` if it is not that table. Bins with no positions are left out."""
    path = folder / CALIBRATION
    if not path.is_file():
        return None
    df = _table(path, CALIBRATION_COLUMNS)
    out = pd.DataFrame({"players": _numbers(df, "players", whole=True, low=2, high=5).astype(int)})
    for c in ("positions", "games"):
        out[c] = _numbers(df, c, whole=True, low=0).astype(int)
    empty = out["positions"] == 0
    for c in ("bin_low", "bin_high"):
        out[c] = _numbers(df, c, low=0, high=1)
    for c in ("predicted", "observed", "low", "high"):
        out[c] = _numbers(df, c, low=0, high=1, blank=empty)
    bad = out.index[out["bin_low"] > out["bin_high"]]
    if len(bad):
        raise TableProblem(f"line {int(bad[0]) + 2}: bin_low is above bin_high")
    out = out[~empty].reset_index(drop=True)
    if out.empty:
        raise TableProblem("no bin has any positions")
    return out


def load_errors(folder: Path) -> pd.DataFrame | None:
    """``win_error.csv``: per comparison (against the exact `win`, against a brute-force search...) and table
    size, the positions compared, the mean and worst absolute error of the chance and the share where the
    chosen action differs. None if the folder has none; a :class:`TableProblem` if it is not that table."""
    path = folder / ERRORS
    if not path.is_file():
        return None
    df = _table(path, ERROR_COLUMNS)
    names = df["comparison"]
    blank = names.isna() | (names.astype(str).str.strip() == "")
    if blank.any():
        raise TableProblem(f"line {int(blank.idxmax()) + 2}, column comparison: it is empty")
    out = pd.DataFrame({"comparison": names.astype(str).str.strip(),
                        "players": _numbers(df, "players", whole=True, low=2, high=5).astype(int),
                        "positions": _numbers(df, "positions", whole=True, low=0).astype(int)})
    for c in ("mean_abs_error", "worst_abs_error", "action_differs"):
        out[c] = _numbers(df, c, low=0, high=1)
    return out


def calibration_chart(calibration: pd.DataFrame) -> alt.LayerChart:
    """Predicted chance (x) against the observed win rate (y), a line per table size through its bins, each
    bin's 95% interval as a bar, and the diagonal where a calibrated estimate lies."""
    df = calibration.copy()
    df["table"] = df["players"].astype(str)
    df["bin"] = [f"{lo:.0%}–{hi:.0%}" for lo, hi in zip(df["bin_low"], df["bin_high"])]
    df["interval"] = [f"{lo:.1%}–{hi:.1%}" for lo, hi in zip(df["low"], df["high"])]
    sizes = sorted(set(df["table"]), key=int)
    colour = alt.Color("table:N", title="players", sort=sizes,
                       scale=alt.Scale(domain=sizes, range=[PLAYER_COLOURS.get(k, "#555") for k in sizes]),
                       legend=alt.Legend(orient="top", direction="horizontal", titleOrient="left", symbolOpacity=1))
    axis = alt.Scale(domain=[0, 1], nice=False)
    x = alt.X("predicted:Q", title="predicted chance of the seat to play", scale=axis, axis=alt.Axis(format="%"))
    y = alt.Y("observed:Q", title="observed win rate", scale=axis, axis=alt.Axis(format="%"))
    tooltip = [alt.Tooltip("table:N", title="players"), alt.Tooltip("bin:N", title="bin"),
               alt.Tooltip("positions:Q", format=","), alt.Tooltip("games:Q", format=","),
               alt.Tooltip("predicted:Q", format=".1%"), alt.Tooltip("observed:Q", format=".1%"),
               alt.Tooltip("interval:N", title="95% interval")]
    base = alt.Chart(df).encode(x=x, color=colour, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=3, opacity=0.7).encode(y="low:Q", y2="high:Q")
    lines = base.mark_line(point=alt.OverlayMarkDef(filled=True, size=45)).encode(y=y, detail="table:N")
    diagonal = alt.Chart(pd.DataFrame({"predicted": [0.0, 1.0], "observed": [0.0, 1.0]})).mark_line(
        color="#333", strokeDash=[4, 3], strokeWidth=1).encode(x="predicted:Q", y="observed:Q")
    chart: alt.LayerChart = (diagonal + bars + lines).properties(
        height=340, autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        title=alt.Title("Predicted chance against how often it won", anchor="start", fontSize=14))
    return chart


def calibration_table(calibration: pd.DataFrame) -> pd.DataFrame:
    """The calibration's bins as people read them (percentages, the interval as text)."""
    c = calibration.sort_values(["players", "bin_low"], kind="stable")
    return pd.DataFrame({
        "Players": c["players"],
        "Bin": [f"{lo:.0%}–{hi:.0%}" for lo, hi in zip(c["bin_low"], c["bin_high"])],
        "Positions": c["positions"],
        "Games": c["games"],
        "Predicted": c["predicted"] * 100,
        "Observed": c["observed"] * 100,
        "95% interval": [f"{lo:.1%}–{hi:.1%}" for lo, hi in zip(c["low"], c["high"])],
    }).reset_index(drop=True)


def error_table(errors: pd.DataFrame) -> pd.DataFrame:
    """The error against exact values in percentage points of the chance, the action's share in percent."""
    e = errors.sort_values(["comparison", "players"], kind="stable")
    return pd.DataFrame({
        "Against": e["comparison"],
        "Players": e["players"],
        "Positions": e["positions"],
        "Mean error": e["mean_abs_error"] * 100,
        "Worst error": e["worst_abs_error"] * 100,
        "Action differs": e["action_differs"] * 100,
    }).reset_index(drop=True)


# ---------------------------------------------------------------------------------------------------------------
# Review a game


def sample_record() -> str:
    """One two-player game, `turn` against `threshold:25`, as a record."""
    game, _ = play_deal(SAMPLE, seed=1, deal=0, rotation=0)
    match = Match(SAMPLE.players)
    match.games.append(game)
    return dumps(match, [SAMPLE.tested, SAMPLE.baseline])


def record_text(data: bytes) -> str:
    """The text of an uploaded record; a :class:`RecordError` saying what is wrong with the file if none."""
    if len(data) > MAX_BYTES:
        raise RecordError(f"the file is {len(data) / 1e6:.1f} MB; a game record is a few kilobytes (this page "
                          f"reads records up to {MAX_BYTES / 1e6:g} MB). Is it the right file?")
    if not data.strip():
        raise RecordError("the file is empty; a game record starts with its header line")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(f"the file is not text (UTF-8): byte {e.start + 1} cannot be read. A game record is "
                          f"JSON Lines text, one event per line") from None
    return text


def count_decisions(text: str) -> int:
    """Replay a record (a :class:`RecordError` if the rules refuse it) and count the decisions a review scores.

    Any other failure of the replay is a :class:`ReviewError` that says where it stopped and what went wrong.
    """
    found = 0
    last = 0

    def seen(game: Game, event: Event, line: int, round_: int) -> None:
        nonlocal found, last
        last = line
        if decision_made(game, event) is not None:
            found += 1

    try:
        replay(text, on_choice=seen)
    except RecordError:
        raise
    except Exception as e:  # noqa: BLE001 - the reader's own failure: said with its place
        where = f"line {last} or just after it" if last else "its first lines"
        raise ReviewError(last or None, f"{where}: the replay of the record failed: {said(e)}") from e
    return found


def problem(e: BaseException, doing: str = "reviewing it") -> str:
    """What is wrong with a record, for the page: the reason in words, and where, never only a class name.

    A :class:`RecordError` (a record the rules refuse) is its own message, with its line; a
    :class:`ReviewError` (the review failed on a record the rules accept) says its line and what failed; any
    other exception says what the page was ``doing`` and what went wrong.

    >>> problem(RecordError("line 3: not valid JSON: Expecting value at column 1"))
    'This game record cannot be reviewed: line 3: not valid JSON: Expecting value at column 1'
    >>> problem(ValueError("7 is not a seat"), "reading the file")
    'This game record cannot be reviewed: the page failed while reading the file: 7 is not a seat (ValueError). The record may well be fine: this is a fault of the reviewer, please report it with the file.'
    """
    if isinstance(e, RecordError):
        return f"This game record cannot be reviewed: {e}"
    if isinstance(e, WeightsError):  # no fault of the record nor of the reviewer: the evaluator is not there
        return f"This game record cannot be reviewed with `win`: {e}"
    fault = "The record may well be fine: this is a fault of the reviewer, please report it with the file."
    if isinstance(e, ReviewError):
        return f"This game record cannot be reviewed: the reviewer failed at {e}. {fault}"
    return f"This game record cannot be reviewed: the page failed while {doing}: {said(e)}. {fault}"


def review_bytes(data: bytes, model: str = "turn", seconds: float = BANK_SECONDS) -> Review | str:
    """An uploaded record's review, or the message saying what is wrong with it."""
    doing = "reading the file"
    try:
        text = record_text(data)
        doing = "replaying the record"
        count_decisions(text)
        doing = "judging its decisions"
        return review(text, model, seconds)
    except Exception as e:  # noqa: BLE001 - a file from anyone: a message, never a traceback
        return problem(e, doing)


@st.cache_data(show_spinner=False, max_entries=8)
def _reviewed(text: str, model: str) -> Review:
    # Pure: nothing is drawn in here and no callback reaches back into the page. Streamlit replays the elements
    # a cached function draws on a cache hit, and one drawn on a block made outside the function (a progress
    # bar's placeholder) cannot be replayed in another session: CacheReplayClosureError.
    return review(text, model, BANK_SECONDS)


def review_columns(chances: bool = False) -> dict[str, Any]:
    """The review tables' columns on screen: the cost and the turn first and pinned (a phone scrolling the table
    sideways keeps them), short headers, narrow columns (in pixels: cost, turn, the choice, the best and most of
    the cards held fit a 390 px phone), the record's line last. ``chances``: a review by `win`, its cost in
    percentage points of the chance to win and its values in percent."""
    number, text = st.column_config.NumberColumn, st.column_config.TextColumn
    return {
        "Cost": number(format="%.2f", width=56, pinned=True,
                       help="percentage points of the chance to win given away: the best choice's chance, minus "
                            "the choice made's" if chances else
                            "points given away: the best choice's, minus the choice made's"),
        "Round": number(width=56, pinned=True, help="the round of the match (R15)"),
        "Turn": number(width=48, pinned=True, help="the turn of the round, counting each seat's turn in order"),
        "Player": text(width=96),
        "Played": text(width=64, help="the choice made"),
        "Best": text(width=56, help="the model's best choice"),
        "Held": text(width=96, help="the cards in front of the player (at a steal, with the card on offer)"),
        "Offer": text(width="large", help="at a steal: the card on offer, and the cards it would take"),
        "Cards left": number(width=80, help="cards left in the pile"),
        "Points played": number(format="%.2f", width=96, help="the model's expected points of the choice made"),
        "Points best": number(format="%.2f", width=88, help="the model's expected points of the best choice"),
        "Chance played": number(format="%.1f%%", width=96, help="the chance to win after the choice made"),
        "Chance best": number(format="%.1f%%", width=88, help="the chance to win after the best choice"),
        "Answer": text(width=72, help="exact, or an estimate: the turn searched exactly, its ends valued by the "
                                      "learned evaluator"),
        "Line": number(width=48, help="the record's line number of the choice"),
        "Note": text(width="large", help="why a decision was not scored"),
    }


def answer_word(d: Decision) -> str:
    """How the model answered a decision: 'exact', 'estimate', or '' when it did not."""
    return "" if d.value is None else "estimate" if d.estimate else "exact"


def _rows(r: Review, decisions: list[Decision], player: bool) -> dict[str, list[Any]]:
    rows: dict[str, list[Any]] = {"Cost": [r.cost_shown(d) for d in decisions]}
    if r.rounds > 1:
        rows["Round"] = [d.round for d in decisions]
    rows["Turn"] = [d.turn for d in decisions]
    if player:
        rows["Player"] = [r.who(d.seat) for d in decisions]
    rows |= {
        "Played": [choice_word(d.choice) for d in decisions],
        "Best": ["?" if d.best is None else choice_word(d.best) for d in decisions],
    }
    if r.in_chances:  # next to the cost it qualifies (within a phone's first screen)
        rows["Answer"] = [answer_word(d) for d in decisions]
    rows |= {
        "Held": [" ".join(map(str, d.cards)) or "nothing" for d in decisions],
        "Offer": [r.on_offer(d) for d in decisions],
        "Cards left": [d.pile_size for d in decisions],
    }
    return rows


def costliest_table(r: Review, decisions: list[Decision]) -> pd.DataFrame:
    """A seat's costliest decisions, in game terms: cost, turn, the choice and the best, what was held and on
    offer, the cards left, and the record's line last."""
    rows = _rows(r, decisions, player=False)
    if not any(rows["Offer"]):
        del rows["Offer"]
    rows["Line"] = [d.line for d in decisions]
    return pd.DataFrame(rows)


def decisions_table(r: Review) -> pd.DataFrame:
    """Every decision of the review, in the order played, in game terms (the record's line near the end)."""
    ds = r.decisions
    rows = _rows(r, ds, player=True)
    scale, unit = (100, "Chance") if r.in_chances else (1, "Points")
    rows |= {
        f"{unit} played": [None if d.value is None else scale * float(d.value) for d in ds],
        f"{unit} best": [None if d.best_value is None else scale * float(d.best_value) for d in ds],
        "Line": [d.line for d in ds],
        "Note": [d.note for d in ds],
    }
    return pd.DataFrame(rows)


def seat_totals(r: Review, seat: int) -> tuple[int, int, float]:
    """A seat's decisions, those not the best, and what was given away (points; under `win`, percentage points
    of the chance to win)."""
    mine = [d for d in r.decisions if d.seat == seat]
    return len(mine), sum(1 for d in mine if d.cost > 0), float(r.given_away(seat)) * (100 if r.in_chances else 1)


def bands_sentence() -> str:
    """The bands of the chance given away per decision, in a sentence.

    >>> bands_sentence()
    'flawless under 0.1 points a decision, sharp under 0.25, steady under 0.5, loose under 1, reckless at 1 or more'
    """
    parts = [f"{name} under {below:g}" + (" points a decision" if k == 0 else "")
             for k, (name, below) in enumerate(BANDS)]
    return ", ".join(parts) + f", {WORST_BAND} at {BANDS[-1][1]:g} or more"


# ---------------------------------------------------------------------------------------------------------------
# The page


def strength_part() -> None:
    st.subheader("Who wins: tournaments")
    st.markdown(
        "One seat plays the tested way, every other seat the baseline. Each deal (a shuffled deck and a first "
        "player) is played once with the tested player in each seat, on the same cards, so the luck of the deal "
        "cancels out. The win rate is the share of games the tested seat won, with its 95% interval (the true "
        "rate lies in it 19 times in 20). A player no better than the others wins 1 game in the number of "
        "players: 1 in 2 with two, 1 in 3 with three (the dashed line).")
    folder = strength_dir()
    try:
        summary = load_summary(folder)
    except Exception as e:  # noqa: BLE001 - a damaged file: say so, no traceback
        st.error(f"The tournament tables in {plain(shown_path(folder))} cannot be read: {plain(said(e))}. "
                 f"Rebuild them with `{BUILD}`.")
        return
    if summary is None:
        st.warning(f"No tournament results yet: {plain(shown_path(folder))} has no summary table. Build it with "
                   f"`{BUILD}` (it takes a while; the chart and table appear here once it is done).")
        return
    missing = [c for c in NEEDED if c not in summary.columns]
    if missing or summary.empty:
        st.error(f"The summary table in {plain(shown_path(folder))} is not one this page reads"
                 f"{' (missing ' + ', '.join(missing) + ')' if missing else ' (it is empty)'}: rebuild it with "
                 f"`{BUILD}`.")
        return
    counts = sorted(int(n) for n in summary["players"].unique())
    options = ["All", *map(str, counts)]
    pick = st.segmented_control("Players at the table", options, default="All", required=True,
                                key="strength_players")  # a second tap on a size keeps it
    shown = summary if pick in (None, "All") else summary[summary["players"] == int(str(pick))]
    for n in sorted(int(x) for x in shown["players"].unique()):
        st.altair_chart(strength_chart(shown, n), width="stretch")
    deals = sorted(int(n) for n in shown["deals"].unique())
    st.caption(f"Point: win rate; bar: its 95% interval; dashed line: an equal player's share. Green: the whole "
               f"interval is above it (stronger), red: below it (weaker), grey: too close to call yet. "
               f"{deals[0] if len(deals) == 1 else f'{deals[0]} to {deals[-1]}'} deals per pairing, each "
               f"played in every seat.")
    config = {  # the pairing pinned, the numbers narrow: a phone scrolling the table sideways keeps its row's name
        "Pairing": st.column_config.TextColumn(width=160, pinned=True, help="the tested seat vs the others"),
        "Players": st.column_config.NumberColumn(width=56),
        "Games": st.column_config.NumberColumn(width=64, help="games played by the tested seat: each deal in "
                                                               "every seat"),
        "Win rate": st.column_config.NumberColumn(format="%.1f%%", width=72, help="games won by the tested seat"),
        "95% interval": st.column_config.TextColumn(help="95% Wilson interval of the win rate"),
        "Equal player": st.column_config.NumberColumn(format="%.0f%%", help="1 in the number of players"),
        "Against an equal player": st.column_config.TextColumn(
            help="stronger or weaker when the whole interval is above or below an equal player's share"),
        "Mean score": st.column_config.NumberColumn(format="%.1f", help="the tested seat's mean score"),
        "Mean margin": st.column_config.NumberColumn(
            format="%+.1f", help="its score minus the best other score, on average"),
        "Decided by bank": st.column_config.NumberColumn(
            format="%.0f%%", help="the tested seat's decisions made by bank itself; the rest went past its work "
                                  "limit and were played by turn (–: the tested seat does not play bank)"),
    }
    config["Played by"] = st.column_config.TextColumn(
        help="today's code: every game was played by the code, rules table and weights of this copy; earlier "
             "code: some or all by an earlier version of one of them, so today's code may score otherwise; not "
             "recorded: played before games recorded what played them; cannot tell: this copy cannot play the "
             "pairing")
    played = played_by(shown)
    # "–" where the tested seat is not bank; the cells stay numbers, so the column sorts as numbers
    st.dataframe(strength_table(shown, played), hide_index=True, width="stretch", column_config=config,
                 placeholder="–")
    rows = list(shown.itertuples(index=False))
    earlier = [r for r, p in zip(rows, played) if p == EARLIER]
    unrecorded = [r for r, p in zip(rows, played) if p == UNRECORDED]
    if earlier:
        out = "" if folder.resolve() == (ROOT / "data" / "strength").resolve() else shown_path(folder)
        one = len(earlier) == 1
        st.caption(f"Played by earlier code: {', '.join(plain(pairing_name(r)) for r in earlier)}. "
                   f"{'Its' if one else 'Their'} figures are what that code scored; today's code may score "
                   f"otherwise. {again(earlier[0], out, 'it' if one else 'one')}")
    if unrecorded:
        st.caption(f"Not recorded: what played {counted(len(unrecorded), 'pairing')} is not known, as "
                   f"{'it was' if len(unrecorded) == 1 else 'they were'} played before games recorded it: "
                   f"{', '.join(plain(pairing_name(r)) for r in unrecorded[:6])}"
                   f"{', …' if len(unrecorded) > 6 else ''}.")
    policies = list(dict.fromkeys([*shown["tested"].astype(str), *shown["baseline"].astype(str)]))
    lines = [f"**{plain(p)}** {plain(describe(p))}" for p in policies if describe(p)]
    if lines:
        st.caption("Who is who: " + "; ".join(lines) + ".")


def win_error_part() -> None:
    st.subheader("How far `win`'s estimate is off")
    st.markdown(
        "Away from a game's last cards, `win` estimates the chance to win: it searches the turn exactly and "
        "values each of its ends with a learned evaluator. Calibrated, a seat given a 30% chance wins 3 games in "
        "10: its line lies on the dashed diagonal. Where it can be checked, the estimate is also set against "
        "exact values.")
    folder = strength_dir()
    for name, load, show in ((CALIBRATION, load_calibration, _show_calibration), (ERRORS, load_errors, _show_errors)):
        path = folder / name
        try:
            table = load(folder)
        except Exception as e:  # noqa: BLE001 - a damaged file: say what is wrong with it, no traceback
            what = str(e) if isinstance(e, TableProblem) else said(e)
            st.error(f"{plain(shown_path(path))} cannot be read: {plain(what, 400)}. Make it again with "
                     f"`{WIN_ERROR_BUILD}`.")
            continue
        if table is None:
            st.info(f"{plain(shown_path(path))} is missing: make it with `{WIN_ERROR_BUILD}`.")
            continue
        show(table)


def _show_calibration(calibration: pd.DataFrame) -> None:
    st.altair_chart(calibration_chart(calibration), width="stretch")
    sizes = calibration.groupby("players").agg(positions=("positions", "sum"), games=("games", "max"))
    told = "; ".join(f"{n} players {int(r.positions):,} positions from at least {int(r.games):,} games"
                     for n, r in sizes.iterrows())
    st.caption(f"Point: a bin of predicted chance (the mean predicted chance of the seat to play, against how "
               f"often that seat won); bar: the win rate's 95% interval; dashed: a calibrated estimate. {told}.")
    with st.expander("The calibration's bins"):
        st.dataframe(calibration_table(calibration), hide_index=True, width="stretch", column_config={
            "Predicted": st.column_config.NumberColumn(format="%.1f%%", help="mean predicted chance in the bin"),
            "Observed": st.column_config.NumberColumn(format="%.1f%%", help="how often the seat to play won"),
            "95% interval": st.column_config.TextColumn(help="95% Wilson interval of the observed rate"),
        })


def _show_errors(errors: pd.DataFrame) -> None:
    number = st.column_config.NumberColumn
    st.dataframe(error_table(errors), hide_index=True, width="stretch", column_config={  # pinned: a phone scrolls
        "Against": st.column_config.TextColumn(width=120, pinned=True, help="what the estimate is set against"),
        "Players": number(width=64),
        "Positions": number(width=80, help="positions compared"),
        "Mean error": number(format="%.2f", width=88,
                             help="mean absolute error of the chance to win, in percentage points"),
        "Worst error": number(format="%.1f", width=88, help="the largest absolute error, in percentage points"),
        "Action differs": number(format="%.1f%%", width=104,
                                 help="positions where the estimate's best choice is not the exact one's"),
    })
    st.caption("Errors in percentage points of the chance to win; action differs: the share of positions where "
               "the estimate would choose otherwise.")


def show_review(r: Review, source: str) -> None:
    n = len(r.decisions)
    if r.in_chances:
        st.markdown(f"**{plain(source)}**, judged by `{r.model}`: {counted(n, 'decision')}. *Chance given away*: "
                    f"the chance to win after the best choice, minus that after the choice made, in percentage "
                    f"points; per player, its mean over the player's decisions and the band it falls in.")
    else:
        unit = "points of that turn's haul" if r.model == "turn" else "points that reach the loot"
        st.markdown(f"**{plain(source)}**, judged by `{r.model}`: {counted(n, 'decision')}. *Points given away*: "
                    f"the {unit} the best choice was expected to bring, minus those of the choice made, added up.")
    if n == 0:
        st.info("The record stops before any player had a choice to make: nothing to review.")
        return
    if r.unsolved():
        if r.model == "bank":
            st.warning(f"{r.unsolved()} of the {n} decisions took `bank` more than {BANK_SECONDS:g} s and are not "
                       f"scored (they count as costing nothing; the Note column of the full table names them).")
        else:
            st.warning(f"{r.unsolved()} of the {n} decisions could not be answered by `{r.model}` and are not "
                       f"scored (the Note column of the full table says why).")
    for seat, name in enumerate(r.names):
        decisions, wrong, _ = seat_totals(r, seat)
        with st.container(border=True, key=f"review-seat-{seat + 1}"):
            told = r.given_words(seat, lambda text: f"**{text}**")
            st.markdown(f"**Seat {seat + 1}: {plain(name, 60)}**  \n{counted(decisions, 'decision')}, "
                        f"{wrong} not the best, {told}")
            worst = r.costliest(seat)
            if worst:
                st.caption("The costliest decisions:")
                st.dataframe(costliest_table(r, worst), hide_index=True, width="stretch",
                             column_config=review_columns(r.in_chances))
            elif decisions:
                st.caption("Every decision was the best one.")
    if r.in_chances:
        estimates = r.estimates()
        st.caption(f"Bands, this project's own: {bands_sentence()}. "
                   + (f"{estimates} of the {n} decisions were answered with an estimate (the Answer column): "
                      f"the turn searched exactly, its ends valued by the learned evaluator (the Strength page "
                      f"shows its error)."
                      if estimates else "Every decision was answered exactly."))
    with st.expander(f"All {n} decisions"):
        st.dataframe(decisions_table(r), hide_index=True, width="stretch", column_config=review_columns(r.in_chances))
        st.caption(f"Turn: {'the round and ' if r.rounds > 1 else ''}the turn of the "
                   f"{'round' if r.rounds > 1 else 'game'}, each seat's turn counted in order"
                   f"{' (from where the game was joined)' if r.joined else ''}. Line: the record's line number of "
                   f"the choice (its lines count seats from 0).")


def review_part() -> None:
    st.subheader("Review a game")
    st.markdown("Upload a game record (`.jsonl`, as `python -m solver tournament --records` writes them) and "
                "every decision of every player is checked: take or decline a steal, stop or draw. A decision "
                "costs what the best choice would have brought, minus what the choice made brings: the chance to "
                "win under `win`, points on average under `turn` and `bank`.")
    model = st.radio("Judge the decisions with", list(MODELS), index=list(MODELS).index(REVIEW_DEFAULT),
                     format_func=MODELS.__getitem__, key="review_model")
    st.file_uploader("Game record (.jsonl)", key="review_upload",
                     on_change=lambda: st.session_state.update(review_source="upload"))
    sample = sample_text()
    left, right = st.columns(2)
    if left.button("Review a sample game", icon=":material/play_arrow:", width="stretch"):
        st.session_state["review_source"] = "sample"
    right.download_button("Download the sample record", sample, file_name=SAMPLE_NAME, mime="application/jsonl",
                          icon=":material/download:", on_click="ignore", width="stretch")
    source = st.session_state.get("review_source")
    upload = st.session_state.get("review_upload")
    if source == "sample":
        text, title = sample, f"Sample game: {SAMPLE.tested} (seat 1) against {SAMPLE.baseline} (seat 2)"
    elif source == "upload" and upload is not None:
        title = f"{upload.name}"
        try:
            text = record_text(upload.getvalue())
        except RecordError as e:
            st.error(plain(problem(e, "reading the file"), 600))
            return
    else:
        return
    try:
        count = count_decisions(text)
    except Exception as e:  # noqa: BLE001 - a file from anyone: a message, never a traceback
        st.error(plain(problem(e, "replaying the record"), 600))
        if "seat" in str(e):
            st.caption("The record's lines count seats from 0 (the first seat is seat 0).")
        return
    wait = f"Reviewing {count} decisions with `{model}`"
    slow = {"bank": BANK_SECONDS}.get(str(model))  # the models that can take seconds a decision
    if slow is not None:
        wait += f" (up to {slow:g} s each: at most {max(1, round(count * slow / 60))} min)"
    try:
        with st.spinner(wait + "…"):
            result = _reviewed(text, str(model))
    except Exception as e:  # noqa: BLE001
        st.error(plain(problem(e, "judging its decisions"), 600))
        return
    show_review(result, title)


@st.cache_data(show_spinner=False)
def sample_text() -> str:
    return sample_record()


def page() -> None:
    st.set_page_config(page_title="Hit! strength", page_icon="🃏", layout="wide")
    st.title("Playing strength")
    st.caption("How the ways of playing fare against each other over many games, and how good each decision of "
               "one game was.")
    strength_part()
    win_error_part()
    review_part()


if __name__ == "__main__":  # Streamlit runs the page as __main__; the tests import its helpers
    page()
