"""Strength page: how the policies fare in tournaments, and a review of a recorded game.

A thin view. The tournament tables are built by ``python -m solver tournament``
(:mod:`solver.play.tournament`) into ``data/strength/`` (or the folder named by the
``HIT_STRENGTH_DIR`` environment variable); the review is :mod:`solver.play.review`
of a game record (:mod:`solver.game.record`), uploaded or the sample game.

The helpers above :func:`page` are plain functions the tests import; the page
itself is drawn only when Streamlit runs this file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from solver.models import MODELS as registry
from solver.models.advice import choice_word
from solver.game.record import RecordError, dumps, replay
from solver.play.review import Decision, Review, ReviewError, review, said
from solver.game.rules import Declined, Drew, Event, Game, Match, Phase, Stole, Stopped
from solver.play.tournament import Pairing, play_deal
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
          "bank": f"bank: counts theft by the other players (up to {BANK_SECONDS:g} s a decision)"}
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


def strength_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary as people read it: percentages, the interval as text, a verdict."""
    s = summary.sort_values(["players"], kind="stable")
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
        out["Decided by bank"] = pd.to_numeric(s["bank_share"], errors="coerce") * 100
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
    x_scale = alt.Scale(domain=[0, min(1.0, max(float(df["win_high"].max()), fair) + 0.05)], nice=False)
    y = alt.Y("matchup:N", title=None, sort=order, axis=alt.Axis(labelLimit=160, labelFontSize=12))
    colour = alt.Color("verdict:N",  # no legend (it overflows a phone): the caption says what the colours mean
                       scale=alt.Scale(domain=list(VERDICT_COLOURS), range=list(VERDICT_COLOURS.values())),
                       legend=None)
    tooltip = [alt.Tooltip("pairing:N"), alt.Tooltip("games:Q"),
               alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
               alt.Tooltip("interval:N", title="95% interval"), alt.Tooltip("verdict:N", title="verdict")]
    base = alt.Chart(df).encode(y=y, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=4, opacity=0.55).encode(
        x=alt.X("win_low:Q", title="win rate of the tested seat", scale=x_scale, axis=alt.Axis(format="%")),
        x2="win_high:Q", color=colour)
    points = base.mark_point(filled=True, size=90, opacity=1).encode(x="win_rate:Q", color=colour)
    even = alt.Chart(pd.DataFrame({"fair": [fair], "label": [f"equal player {fair:.0%}"]}))
    line = even.mark_rule(color="#333", strokeDash=[4, 3]).encode(x="fair:Q", tooltip=[alt.Tooltip("label:N")])
    # fit-x: the chart is as wide as its container, and the height is the plot's own (34 px a row), not
    # shared with the title, axis and legend.
    chart: alt.LayerChart = (line + bars + points).properties(
        height=34 * len(order), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"), title=alt.Title(f"{players} players: an equal player wins {fair:.0%}",
                                                     anchor="start", fontSize=14))
    return chart


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
        if (game.phase is Phase.STEAL and isinstance(event, (Stole, Declined))) or \
                (game.phase is Phase.CHOOSE and isinstance(event, (Drew, Stopped))):
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


def review_columns() -> dict[str, Any]:
    """The review tables' columns on screen: the cost and the turn first and pinned (a phone scrolling the table
    sideways keeps them), short headers, narrow columns (in pixels: cost, turn, the choice, the best and most of
    the cards held fit a 390 px phone), the record's line last."""
    number, text = st.column_config.NumberColumn, st.column_config.TextColumn
    return {
        "Cost": number(format="%.2f", width=56, pinned=True,
                       help="points given away: the best choice's, minus the choice made's"),
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
        "Line": number(width=48, help="the record's line number of the choice"),
        "Note": text(width="large", help="why a decision was not scored"),
    }


def _rows(r: Review, decisions: list[Decision], player: bool) -> dict[str, list[Any]]:
    rows: dict[str, list[Any]] = {"Cost": [float(d.cost) for d in decisions]}
    if r.rounds > 1:
        rows["Round"] = [d.round for d in decisions]
    rows["Turn"] = [d.turn for d in decisions]
    if player:
        rows["Player"] = [r.who(d.seat) for d in decisions]
    rows |= {
        "Played": [choice_word(d.choice) for d in decisions],
        "Best": ["?" if d.best is None else choice_word(d.best) for d in decisions],
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
    rows |= {
        "Points played": [None if d.value is None else float(d.value) for d in ds],
        "Points best": [None if d.best_value is None else float(d.best_value) for d in ds],
        "Line": [d.line for d in ds],
        "Note": [d.note for d in ds],
    }
    return pd.DataFrame(rows)


def seat_totals(r: Review, seat: int) -> tuple[int, int, float]:
    """A seat's decisions, those not the best, and the points given away."""
    mine = [d for d in r.decisions if d.seat == seat]
    return len(mine), sum(1 for d in mine if d.cost > 0), float(r.given_away(seat))


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
    pick = st.segmented_control("Players at the table", options, default="All", key="strength_players")
    shown = summary if pick in (None, "All") else summary[summary["players"] == int(str(pick))]
    for n in sorted(int(x) for x in shown["players"].unique()):
        st.altair_chart(strength_chart(shown, n), width="stretch")
    deals = sorted(int(n) for n in shown["deals"].unique())
    st.caption(f"Point: win rate; bar: its 95% interval; dashed line: an equal player's share. Green: the whole "
               f"interval is above it (stronger), red: below it (weaker), grey: too close to call yet. "
               f"{deals[0] if len(deals) == 1 else f'{deals[0]} to {deals[-1]}'} deals per pairing, each "
               f"played in every seat.")
    config = {
        "Win rate": st.column_config.NumberColumn(format="%.1f%%", help="games won by the tested seat"),
        "95% interval": st.column_config.TextColumn(help="95% Wilson interval of the win rate"),
        "Equal player": st.column_config.NumberColumn(format="%.0f%%", help="1 in the number of players"),
        "Against an equal player": st.column_config.TextColumn(
            help="stronger or weaker when the whole interval is above or below an equal player's share"),
        "Mean score": st.column_config.NumberColumn(format="%.1f", help="the tested seat's mean score"),
        "Mean margin": st.column_config.NumberColumn(
            format="%+.1f", help="its score minus the best other score, on average"),
        "Decided by bank": st.column_config.NumberColumn(
            format="%.0f%%", help="bank's own decisions; the rest went past its work limit and were played "
                                  "by turn"),
    }
    st.dataframe(strength_table(shown), hide_index=True, width="stretch", column_config=config)
    policies = list(dict.fromkeys([*shown["tested"].astype(str), *shown["baseline"].astype(str)]))
    lines = [f"**{plain(p)}** {plain(describe(p))}" for p in policies if describe(p)]
    if lines:
        st.caption("Who is who: " + "; ".join(lines) + ".")


def show_review(r: Review, source: str) -> None:
    n = len(r.decisions)
    unit = "points of that turn's haul" if r.model == "turn" else "points that reach the loot"
    st.markdown(f"**{plain(source)}**, judged by `{r.model}`: {counted(n, 'decision')}. *Points given away*: the "
                f"{unit} the best choice was expected to bring, minus those of the choice made, added up.")
    if n == 0:
        st.info("The record stops before any player had a choice to make: nothing to review.")
        return
    if r.unsolved():
        st.warning(f"{r.unsolved()} of the {n} decisions took `bank` more than {BANK_SECONDS:g} s and are not "
                   f"scored (they count as costing nothing; the Note column of the full table names them).")
    for seat, name in enumerate(r.names):
        decisions, wrong, given = seat_totals(r, seat)
        with st.container(border=True, key=f"review-seat-{seat + 1}"):
            st.markdown(f"**Seat {seat + 1}: {plain(name, 60)}**  \n{counted(decisions, 'decision')}, "
                        f"{wrong} not the best, **{given:.2f}** points given away")
            worst = r.costliest(seat)
            if worst:
                st.caption("The costliest decisions:")
                st.dataframe(costliest_table(r, worst), hide_index=True, width="stretch",
                             column_config=review_columns())
            elif decisions:
                st.caption("Every decision was the best one.")
    with st.expander(f"All {n} decisions"):
        st.dataframe(decisions_table(r), hide_index=True, width="stretch", column_config=review_columns())
        st.caption(f"Turn: {'the round and ' if r.rounds > 1 else ''}the turn of the "
                   f"{'round' if r.rounds > 1 else 'game'}, each seat's turn counted in order"
                   f"{' (from where the game was joined)' if r.joined else ''}. Line: the record's line number of "
                   f"the choice (its lines count seats from 0).")


def review_part() -> None:
    st.subheader("Review a game")
    st.markdown("Upload a game record (`.jsonl`, as `python -m solver tournament --records` writes them) and "
                "every decision of every player is checked: take or decline a steal, stop or draw. A decision "
                "costs the points the best choice would have brought on average, minus those of the choice made.")
    model = st.radio("Judge the decisions with", list(MODELS), format_func=MODELS.__getitem__, key="review_model")
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
    if not registry[str(model)].quick_exact:
        wait += f" (up to {BANK_SECONDS:g} s each: at most {max(1, round(count * BANK_SECONDS / 60))} min)"
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
    review_part()


if __name__ == "__main__":  # Streamlit runs the page as __main__; the tests import its helpers
    page()
