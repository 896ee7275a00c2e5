"""Study page: when should you stop? Read from the decision tables in ``data/``.

A thin view: the tables are built by ``python -m solver tables build`` and
every number on this page comes from them or from :mod:`solver.study.stop_rules`.
"""

from __future__ import annotations

from pathlib import Path

import altair as alt
import pandas as pd
import streamlit as st

from solver.game.core import BUST_THRESHOLD
from solver.study.stop_rules import decision_boundary
from solver.study.tables import PILE_BANDS, TableError, bank_against_turn, cost_when_disagreeing, read_table

DATA = Path(__file__).resolve().parent.parent / "data"
BANDS = [(lo, hi, f"{label.replace('-', '–')} cards left") for lo, hi, label in PILE_BANDS]

st.set_page_config(page_title="Hit! study: when to stop", page_icon="🃏", layout="wide")
st.title("When should you stop?")
st.caption("From the tables in data/: exact answers of the `turn` model (this turn's haul), and the `bank` "
           "model's (the points that reach your loot once the opponents have had their turns).")


@st.cache_data(show_spinner=False)
def load(name: str, stamp: float) -> pd.DataFrame:
    """A decision table (read again when its file changes: ``stamp`` is its modification time)."""
    return read_table(DATA, name)


def table(name: str) -> pd.DataFrame:
    path = DATA / f"{name}.parquet"
    try:
        return load(name, path.stat().st_mtime if path.exists() else -1.0)
    except TableError as e:  # missing, damaged or another table: say which file, and how to rebuild it
        st.error(f"The study cannot be shown: {e}.")
        st.stop()
        raise  # not reached: st.stop() ends the run


rules, thresholds, positions = table("rules"), table("thresholds"), table("positions")

st.subheader("Theft changes the answer: `bank` against `turn`")
if "bank_status" not in positions.columns:
    st.warning("This positions table has no `bank` columns: rebuild it with `python -m solver tables build`.")
else:
    split = bank_against_turn(positions)
    solved, disagree = int(split["solved"].sum()), int(split["disagree"].sum())
    costs = positions.loc[positions["bank_status"] == "solved", "bank_turn_cost"]
    st.info(f"On **{disagree / max(solved, 1):.0%}** of the {solved:,} positions `bank` answered, it advises "
            f"differently from `turn` (the steal, or stop against draw). Following `turn` there costs "
            f"**{cost_when_disagreeing(split):.2f}** points that reach your loot on average "
            f"({costs.mean():.2f} per position over all of them).")
    heat = alt.Chart(split).mark_rect().encode(
        x=alt.X("pile:N", title="cards left in the pile", sort=[b for _, _, b in PILE_BANDS]),
        y=alt.Y("players:O", title="players"),
        color=alt.Color("share:Q", title="disagree", scale=alt.Scale(scheme="oranges"),
                        legend=alt.Legend(format="%")),
        tooltip=["players", "pile", "positions", "solved", "disagree", alt.Tooltip("share:Q", format=".1%"),
                 alt.Tooltip("cost_when_disagree:Q", format=".2f", title="cost when they disagree")])
    text = heat.mark_text(fontSize=12).encode(text=alt.Text("share:Q", format=".0%"),
                                              color=alt.value("black"))
    st.altair_chart((heat + text).properties(height=220), width="stretch")
    st.dataframe(split.rename(columns={"share": "share that disagree", "cost_when_disagree": "cost when they disagree",
                                       "cost_per_position": "cost per position", "solved": "bank answered"}),
                 hide_index=True, width="stretch", column_config={
                     "share that disagree": st.column_config.NumberColumn(format="percent"),
                     "cost when they disagree": st.column_config.NumberColumn(format="%.2f"),
                     "cost per position": st.column_config.NumberColumn(format="%.2f")})
    st.caption(f"Cost: the `bank` value of `bank`'s advice minus that of `turn`'s, in points that reach the loot. "
               f"`bank` had a fixed work limit per position and answered {solved:,} of {len(positions):,}; the "
               f"others are mostly early in a turn with three to five players, so these shares describe the "
               f"positions it answered. With three or more players `bank` uses its \"independent opponents\" "
               f"approximation.")

st.subheader("Simple rules against the optimum")
best = rules.iloc[0]
st.success(f"**Best simple rule:** {best['statement']}  \n"
           f"{best['value_float']:.2f} points per turn against {best['value_float'] + best['loss_float']:.2f} "
           f"for optimal play; it agrees with the optimal choice {best['agreement_float']:.1%} of the time.")
shown_rules = rules[["rule", "statement", "value_float", "loss_float", "agreement_float"]].rename(columns={
    "value_float": "points per turn", "loss_float": "loss vs optimal", "agreement_float": "agrees with optimal"})
# A table, not a data grid: the statements wrap instead of being clipped.
st.table(shown_rules.style.format({"points per turn": "{:.2f}", "loss vs optimal": "{:.2f}",
                                   "agrees with optimal": "{:.1%}"}), hide_index=True)
st.caption("Exact values (fractions) are in data/rules.csv. One-card lookahead: draw while the points the safe "
           "cards would add, times their chance, exceed your line value times the bust chance.")

st.subheader("Threshold chart: stop at this line value or more")
st.caption("Per pile size and cards held, with no steal in reach, over positions met in simulated games, in "
           "bands of ten cards: the line is the typical threshold, the shading its spread (from the lowest line "
           "value at which optimal play stopped to the highest at which it still drew).")
t = thresholds.copy()
t["cards held"] = t["cards_held"].clip(upper=6).map(lambda c: f"{c}" if c < 6 else "6+")
t = t[t["threshold"].notna() | ~t["single_threshold"]].copy()  # groups where it stops somewhere
single = t["single_threshold"]
t["low"] = t["threshold"].where(single, t["lowest_stop"])
t["high"] = t["threshold"].where(single, t["highest_draw"])
t["middle"] = (t["low"] + t["high"]) / 2
t["pile band"] = (t["pile_size"] - 1) // 10 * 10 + 5  # the middle of 1-10, 11-20, ...
trend = t.groupby(["pile band", "cards held"], as_index=False).agg(
    threshold=("middle", "median"), low=("low", "min"), high=("high", "max"), groups=("middle", "size"))
x = alt.X("pile band:Q", title="cards left in the pile", scale=alt.Scale(reverse=True))
held = alt.Color("cards held:N", scale=alt.Scale(scheme="category10"))  # four colours told apart
spread = alt.Chart(trend).mark_area(opacity=0.18).encode(x=x, y="low:Q", y2="high:Q", color=held)
line = alt.Chart(trend).mark_line(point=True).encode(
    x=x, y=alt.Y("threshold:Q", title="stop at line value ≥"), color=held,
    tooltip=["pile band", "cards held", "threshold", "low", "high", "groups"])
st.altair_chart((spread + line).properties(height=360), width="stretch")
st.caption(f"{int(single.sum())} pile sizes with a single threshold, {int((~single).sum())} without one "
           "(optimal play draws at some line values above ones where it stops: the spread shows the overlap). "
           "data/thresholds.csv has every group.")

st.subheader("Where optimal play stops and draws")
st.caption("Positions with three or more cards, no steal on offer: bust chance of the next card against line "
           "value. The line is the boundary that best separates draws from stops in each bust-chance bin.")
p = positions[(positions["line_cards"] >= BUST_THRESHOLD) & (positions["offer"] == 0)].copy()
p["action"] = p["turn_action"]
cols = [c for _ in range(2) for c in st.columns(2)]
for col, (lo, hi, label) in zip(cols, BANDS):
    band = p[(p["pile_size"] >= lo) & (p["pile_size"] <= hi)]
    with col:
        st.markdown(f"**{label}** ({len(band)} positions)")
        if band.empty:
            st.caption("none met")
            continue
        edge = pd.DataFrame(decision_boundary(list(zip(band["bust_probability_float"], band["line_value"],
                                                       band["action"] == "draw"))))
        edge["bust"] = (edge["bust_from"] + edge["bust_to"]) / 2
        dots = alt.Chart(band).mark_circle(size=14, opacity=0.5).encode(
            x=alt.X("bust_probability_float:Q", title="bust chance", axis=alt.Axis(format="%")),
            y=alt.Y("line_value:Q", title="line value"),
            color=alt.Color("action:N", scale=alt.Scale(domain=["draw", "stop"], range=["#1565c0", "#2e7d32"])))
        line = alt.Chart(edge).mark_line(color="black", point=True).encode(
            x="bust:Q", y="boundary:Q", tooltip=["bust_from", "bust_to", "boundary", "positions", "errors"])
        st.altair_chart((dots + line).properties(height=300), width="stretch")
