"""Hit! advisor: enter the position on your table, get exact advice.

Run with ``make run`` (or ``streamlit run advisor_app.py``). A thin view:
the position being entered is a :class:`solver.entry.Draft`, and every
number comes from :mod:`solver.advice`.
"""

from __future__ import annotations

import json
from fractions import Fraction

import altair as alt
import pandas as pd
import streamlit as st

from solver.advice import Advice, Budget, ModelError, NextCard, Play, StealAction
from solver.cards import DECK_COPIES, VALUES, counts
from solver.entry import Draft, zone_label
from solver.models import MODELS
from solver.numbers import numbers
from solver.position import Position, PositionError
from solver.turn import turn_report

st.set_page_config(page_title="Hit! advisor", page_icon="🃏", layout="wide")


# -- state -------------------------------------------------------------------
def draft() -> Draft:
    """The session's draft: from the link on the first run, then kept across reruns."""
    if "draft" not in st.session_state:
        st.session_state.link_error = None
        try:
            st.session_state.draft = Draft.from_query(st.query_params.to_dict())
        except PositionError as e:
            st.session_state.link_error = str(e)
            st.session_state.draft = Draft.empty(2)
    return st.session_state.draft


def edit(method: str, *args: object) -> None:
    """A button callback: apply one edit to the draft, report a refused one."""
    try:
        getattr(draft(), method)(*args)
        st.session_state.edit_error = None
    except ValueError as e:
        st.session_state.edit_error = str(e)


def fmt(x: Fraction | float) -> str:
    """An exact value and its decimal (``1512/79 ≈ 19.14``), or a float path's decimal."""
    if not isinstance(x, Fraction):
        return f"{x:.2f}"
    return str(x) if x.denominator == 1 else f"{x} ≈ {float(x):.2f}"


@st.cache_data(max_entries=2048, show_spinner=False)
def solve(position_json: str, model: str) -> tuple[Advice | None, str | None]:
    """A model's advice (or why there is none), cached across reruns and sessions.

    Models with a float path of their own (`bank`) use it here, with a time
    budget so the page stays quick; the others answer exactly."""
    pos = Position.from_json(position_json)
    m = MODELS[model]
    try:
        return m.advise(pos, numbers(exact=m.quick_exact), Budget(BUDGET_SECONDS)), None
    except ModelError as e:  # beyond a model's reach or the page's budget: it says why
        return None, str(e)


@st.cache_data(max_entries=2048, show_spinner=False)
def next_card_table(position_json: str) -> tuple[Advice, list[NextCard]]:
    """The `turn` advice and the next-card table, from one exact solve."""
    return turn_report(Position.from_json(position_json))


BUDGET_SECONDS = 1.5  # seconds a slow model may take per position, so the page stays quick


# -- entry -------------------------------------------------------------------
def entry(d: Draft) -> None:
    top = st.columns([2, 3, 2])
    players = top[0].segmented_control("Players", [2, 3, 4, 5], default=d.num_players, key="players_in")
    if players and players != d.num_players:
        edit("set_players", players)
    seat_names = [f"Seat {s}" for s in range(d.num_players)]
    active = top[1].segmented_control("Whose turn (active seat)", seat_names, default=seat_names[d.active],
                                      key=f"active_in_{d.num_players}")
    if active and seat_names.index(active) != d.active:
        edit("set_active", seat_names.index(active))
    # A wrong offer (from a link or a file) stays selectable, so its error shows.
    offer_choices = ["none"] + sorted(set(d.lines[d.active]) | ({d.offer} if d.offer else set()))
    offer = top[2].selectbox("Card just drawn, steal not yet decided", offer_choices,
                             index=offer_choices.index(d.offer) if d.offer in offer_choices else 0,
                             key=f"offer_in_{d.active}_{'-'.join(map(str, offer_choices))}")
    if (None if offer == "none" else offer) != d.offer:
        edit("set_offer", None if offer == "none" else offer)

    zones = d.zones()
    zone = st.radio("Tap cards into", zones, format_func=zone_label, horizontal=True, key="zone",
                    index=zones.index(st.session_state.get("zone", f"line {d.active}"))
                    if st.session_state.get("zone") in zones else 0)
    pad = st.columns(10)
    for i, v in enumerate(VALUES):
        pad[i].button(str(v), key=f"card_{v}", on_click=edit, args=("add", zone, v), width="stretch")
    fix = st.columns([1, 1, 1, 7])
    fix[0].button("Undo", key="undo", on_click=edit, args=("undo",), width="stretch")
    fix[1].button("Clear", key="clear", on_click=edit, args=("clear", zone), width="stretch",
                  help=f"Empty {zone_label(zone)}")
    held = d.zone(zone)
    fix[2].button("−1", key="remove_last", disabled=not held, width="stretch",
                  help="Take the last card out of this zone",
                  on_click=edit, args=("remove", zone, held[-1] if held else 1))
    if st.session_state.get("edit_error"):
        st.warning(st.session_state.edit_error)

    rows = []
    for seat in range(d.num_players):
        line, loot = d.lines[seat], d.loots[seat]
        rows.append({"seat": f"Seat {seat}" + (" ▶ to play" if seat == d.active else ""),
                     "line": " ".join(map(str, line)) or "—", "line cards": len(line), "line points": sum(line),
                     "loot": _by_value(loot), "loot points": sum(loot), "lost turns": d.lost_turns[seat]})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(f"Discard: {_by_value(d.discard)} ({len(d.discard)} cards)")

    with st.expander("Loot as counts per value, and lost turns"):
        seat = st.selectbox("Seat", range(d.num_players), format_func=lambda s: f"Seat {s}", key="loot_seat")
        have = counts(d.loots[seat])
        cols = st.columns(11)
        per_value = [cols[i].number_input(f"{v}s", 0, DECK_COPIES[i], have[i], key=f"loot_{seat}_{v}_{have[i]}")
                     for i, v in enumerate(VALUES)]
        lost = cols[10].number_input("Lost turns", 0, 99, d.lost_turns[seat], key=f"lost_{seat}_{d.lost_turns[seat]}")
        if list(per_value) != list(have):
            edit("set_loot_counts", seat, [int(n) for n in per_value])
        if lost != d.lost_turns[seat]:
            edit("set_lost_turns", seat, int(lost))


def _by_value(cards: list[int]) -> str:
    c = counts(cards)
    return ", ".join(f"{n}×{v}" for v, n in zip(VALUES, c) if n) or "—"


# -- output ------------------------------------------------------------------
def pile_chart(pos: Position) -> None:
    pile = pos.pile()
    data = pd.DataFrame({"value": [str(v) for v in VALUES] * 2,
                         "cards": list(pile) + [d - p for d, p in zip(DECK_COPIES, pile)],
                         "where": ["in the pile"] * 10 + ["out of the pile"] * 10})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("value:N", sort=[str(v) for v in VALUES], title="card value", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("cards:Q", title="cards"),
        color=alt.Color("where:N", scale=alt.Scale(range=["#2e7d32", "#cfd8dc"]), legend=alt.Legend(orient="top", title=None)),
        order=alt.Order("where:N", sort="ascending"),
        tooltip=["value", "where", "cards"])
    st.altair_chart(chart.properties(height=260), width="stretch")
    st.caption(f"Pile: {pos.pile_size()} cards — " + ", ".join(f"{n}×{v}" for v, n in zip(VALUES, pile)))


def advice_panel(model: str, a: Advice | None, why_not: str | None) -> None:
    st.markdown(f"**`{model}`** — {MODELS[model].assumption}")
    if a is None:
        st.caption(f"No `{model}` advice here: {why_not}")
        return
    notes = ["exact" if a.exact else "float (the speed path)"]
    if a.approximation:
        notes.append(f"approximation: {a.approximation} (see docs/MODELS.md)")
    st.caption("Numbers: " + "; ".join(notes) + ".")
    if a.steal is not None:
        take = a.steal.action is StealAction.TAKE
        st.info(f"**{'TAKE' if take else 'DECLINE'} the steal.** Take: {fmt(a.steal.take)}; "
                f"decline: {fmt(a.steal.decline)}. The other choice costs {fmt(a.steal.cost)} points.")
    if a.stop is None:
        st.success(f"**DRAW** (a turn starts with at least one card). Expected value: {fmt(a.draw)}.")
    else:
        other = "Drawing" if a.action is Play.STOP else "Stopping"
        st.success(f"**{a.action.value.upper()}.** Stop: {fmt(a.stop)}; draw: {fmt(a.draw)}. "
                   f"{other} costs {fmt(a.mistake_cost)} points.")
    st.code(f"bust {a.bust_probability_after_steal} | stop {'-' if a.stop is None else a.stop} | draw {a.draw} | "
            f"action {a.action}"
            + (f" | steal {a.steal.action}: take {a.steal.take}, decline {a.steal.decline}" if a.steal else ""),
            language=None)


def disagreements(results: dict[str, tuple[Advice | None, str | None]]) -> str | None:
    """Where the models that answered advise differently (that is where advice matters)."""
    answered = {m: r[0] for m, r in results.items() if r[0] is not None}
    parts = []
    actions = {m: a.action for m, a in answered.items() if a.stop is not None}
    if len(set(actions.values())) > 1:
        parts.append(", ".join(f"`{m}` says {act.value.upper()}" for m, act in actions.items()))
    steals = {m: a.steal.action for m, a in answered.items() if a.steal is not None}
    if len(set(steals.values())) > 1:
        parts.append(", ".join(f"`{m}` says {act.value.upper()} the steal" for m, act in steals.items()))
    return "; ".join(parts) or None


def next_card_view(cards: list[NextCard]) -> None:
    rows = [{"next card": c.value, "chance": f"{c.probability} ({float(c.probability):.1%})",
             "busts": "BUST" if c.busts else "",
             "steal": "" if c.steal is None else c.steal.action.value, "then": c.then.value,
             "value after": fmt(c.value_after) if not c.busts else "0"} for c in cards]
    df = pd.DataFrame(rows)
    st.dataframe(df, hide_index=True, width="stretch")
    plot = pd.DataFrame({"card": [str(c.value) for c in cards], "chance": [float(c.probability) for c in cards],
                         "outcome": [c.then.value for c in cards]})  # a field named "then" breaks Vega
    chart = alt.Chart(plot).mark_bar().encode(
        x=alt.X("card:N", sort=[str(v) for v in VALUES], title="next card", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("chance:Q", title="chance", axis=alt.Axis(format="%")),
        color=alt.Color("outcome:N", title="then", scale=alt.Scale(domain=["bust", "stop", "draw", "game over"],
                                                                range=["#c62828", "#2e7d32", "#1565c0", "#6d4c41"])),
        tooltip=["card", alt.Tooltip("chance:Q", format=".1%"), "outcome"])
    st.altair_chart(chart.properties(height=220), width="stretch")


def save_load(d: Draft) -> None:
    left, right = st.columns(2)
    left.download_button("Download position (JSON)", json.dumps(d.to_dict(), indent=1), "hit-position.json",
                         "application/json", key="download")
    upload = right.file_uploader("Load a position (JSON, the command line's schema)", type=["json"], key="upload")
    if upload is not None and st.session_state.get("loaded") != upload.file_id:
        st.session_state.loaded = upload.file_id
        try:
            st.session_state.draft = Draft.from_json(upload.getvalue())
            st.session_state.load_error = None
            st.rerun()
        except PositionError as e:
            st.session_state.load_error = f"{upload.name}: {e}"
    if st.session_state.get("load_error"):
        right.error(st.session_state.load_error)


# -- page --------------------------------------------------------------------
def main() -> None:
    st.title("Hit! advisor")
    st.caption("Enter what is on the table; the pile is the deck minus every line, loot and the discard. "
               "Every figure is an expectation over the shuffled pile: fractions are exact; "
               "`bank` is computed in floats and, with three or more players, approximated (each panel says).")
    d = draft()
    if st.session_state.get("link_error"):
        st.error(f"The link's position could not be read: {st.session_state.link_error}")
    entry(d)
    try:
        pos = d.position()
    except PositionError as e:
        st.error(f"Not a position that can be on a Hit! table: {e}")
        save_load(d)
        st.query_params.from_dict(d.to_query())  # the position lives in the URL
        return

    st.subheader("Advice")
    turn, cards = next_card_table(pos.to_json())
    bust, before = turn.bust_probability_after_steal, turn.bust_probability
    c1, c2 = st.columns([1, 3])
    c1.metric("Bust chance, next card", f"{float(bust):.1%}", help="R13: pile cards of a value you hold, "
              "once you have three or more face-up cards (after the recommended steal, if one is on offer)")
    where = f"{pos.pile_size()} cards in the pile"
    if bust != before:
        where += f"; once you take the steal, as advised — {float(before):.1%} ({before}) before it"
    c2.markdown(f"exact: **{bust}** ({where})")
    results = {}
    for col, name in zip(st.columns(len(MODELS)), MODELS):
        with col:
            with st.spinner(f"solving `{name}`…"):
                results[name] = solve(pos.to_json(), name)
            advice_panel(name, *results[name])
    clash = disagreements(results)
    if clash:
        st.warning(f"**The models disagree:** {clash}. Read their assumptions: this is where the choice matters.")
    st.subheader("The next card")
    next_card_view(cards)
    st.subheader("The pile")
    pile_chart(pos)
    save_load(d)
    st.query_params.from_dict(d.to_query())  # the position lives in the URL (set last: the page is done)


main()
