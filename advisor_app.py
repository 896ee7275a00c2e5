"""Hit! advisor: enter the position on your table, get advice that counts theft.

Run with ``make run`` (or ``streamlit run advisor_app.py``). A thin view:
the position being entered is a :class:`solver.entry.Draft`, and every
number comes from :mod:`solver` (the models' advice, `bank`'s theft risk).

The headline is `bank`'s: points that reach your loot, after the opponents
have had their chance to steal from your line. `bank` gets a time budget
(:data:`BANK_SECONDS`, changeable in the sidebar); past it the headline falls
back to `turn`'s exact advice and says that it ignores theft.
"""

from __future__ import annotations

import json
from fractions import Fraction

import altair as alt
import pandas as pd
import streamlit as st

from solver.advice import Advice, Budget, ModelError, NextCard, Play, StealAction, bust_probability
from solver.bank import TheftRisk, theft_risk
from solver.cards import DECK_COPIES, VALUES, counts
from solver.core import TurnPoint
from solver.entry import Draft, zone_label
from solver.models import MODELS
from solver.numbers import EXACT, FLOAT, numbers
from solver.position import Position, PositionError
from solver.turn import turn_report

#: Seconds `bank` (and `duel`) may take per position unless the sidebar says otherwise. `bank` turns
#: it into a work limit and refuses (SlowModel) past it, so the page never hangs.
BANK_SECONDS = 3.0

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                9: "nine", 10: "ten", 11: "eleven"}


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
    d: Draft = st.session_state.draft
    return d


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


def budget_seconds() -> float:
    """The slow models' time budget: the sidebar's setting (:data:`BANK_SECONDS` unless changed)."""
    return float(st.sidebar.number_input(
        "Time limit for `bank` and `duel` (seconds)", min_value=0.0, max_value=120.0, value=BANK_SECONDS, step=1.0,
        key="bank_seconds",
        help="`bank` counts what the opponents may steal from your line, but early in a turn it can be slow. "
             "Past this limit it gives up and the advice falls back to `turn` (theft ignored). "
             "A higher limit waits longer for it (and for `duel`, in endgames)."))


# -- solving (cached across reruns and sessions) --------------------------------
@st.cache_data(max_entries=2048, show_spinner=False)
def solve(position_json: str, model: str, seconds: float) -> tuple[Advice | None, str | None]:
    """A model's advice (or why there is none).

    Models with a float path of their own (`bank`) use it here; the others
    answer exactly. Each gets ``seconds``: past it, it says so."""
    pos = Position.from_json(position_json)
    m = MODELS[model]
    try:
        return m.advise(pos, numbers(exact=m.quick_exact), Budget(seconds)), None
    except ModelError as e:  # beyond a model's reach or the page's budget: it says why
        return None, str(e)


@st.cache_data(max_entries=2048, show_spinner=False)
def next_card_table(position_json: str) -> tuple[Advice, list[NextCard]]:
    """The `turn` advice and the next-card table, from one exact solve."""
    return turn_report(Position.from_json(position_json))


@st.cache_data(max_entries=2048, show_spinner=False)
def theft(position_json: str, seconds: float) -> tuple[list[TheftRisk] | None, list[TheftRisk] | None, str | None]:
    """`bank`'s theft risk if the player stops with the line as it stands, and (with a steal on
    offer) once the steal is taken; ``None`` where `bank` ran out of time, with its reason."""
    pos = Position.from_json(position_json)
    now: list[TheftRisk] | None = None
    after: list[TheftRisk] | None = None
    why_not = None
    try:
        now = theft_risk(pos, FLOAT, Budget(seconds)) if pos.turn_point().line_size else []
    except ModelError as e:
        why_not = str(e)
    offer = pos.steal_on_offer()
    if offer is not None:
        took = pos.turn_point().stolen(offer)
        try:
            after = theft_risk(pos, FLOAT, Budget(seconds), point=took)
        except ModelError as e:
            why_not = why_not or str(e)
    return now, after, why_not


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
    # A grid, not columns: ten across on a desktop, two rows of five on a phone (columns would stack).
    with st.grid(10, min_column_width=60, gap="xsmall"):
        for v in VALUES:
            st.button(str(v), key=f"card_{v}", on_click=edit, args=("add", zone, v), width="stretch")
    held = d.zone(zone)
    with st.container(horizontal=True, gap="small"):
        st.button("Undo", key="undo", on_click=edit, args=("undo",))
        st.button("Clear", key="clear", on_click=edit, args=("clear", zone), help=f"Empty {zone_label(zone)}")
        st.button("−1", key="remove_last", disabled=not held, help="Take the last card out of this zone",
                  on_click=edit, args=("remove", zone, held[-1] if held else 1))
    if st.session_state.get("edit_error"):
        st.warning(st.session_state.edit_error)

    rows = []
    for seat in range(d.num_players):
        line, loot = d.lines[seat], d.loots[seat]
        rows.append({"seat": f"Seat {seat}" + (" ▶" if seat == d.active else ""),
                     "line": " ".join(map(str, line)) + (f" ({sum(line)})" if len(line) > 1 else "") or "—",
                     "loot": _by_value(loot) + (f" ({sum(loot)})" if len(loot) > 1 else ""),
                     "lost turns": d.lost_turns[seat]})
    st.table(pd.DataFrame(rows), hide_index=True)
    st.caption(f"▶ to play. Discard: {_by_value(d.discard)} ({len(d.discard)} cards)")

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


# -- words -------------------------------------------------------------------
def opponents(pos: Position, the: bool = False) -> tuple[str, str]:
    """The opponents ("two opponents", or "the two opponents" as a subject), and the verb "take(s)"."""
    n = len(pos.players) - 1
    if n == 1:
        return "your opponent", "takes"
    return ("the " if the else "") + f"{NUMBER_WORDS[n]} opponents", "take"


def cards_of_value(count: int, value: int) -> str:
    return f"the {value}" if count == 1 else f"the {NUMBER_WORDS.get(count, str(count))} {value}s"


def recap(pos: Position) -> str:
    """The position in one line, for the advice above the form."""
    line = pos.line
    parts = [f"**Seat {pos.active} to play**", f"{len(pos.players)} players",
             f"line {' '.join(map(str, line))} ({sum(line)} points)" if line else "no cards down yet"]
    offer = pos.steal_on_offer()
    if offer is not None:
        parts.append(f"just drew a {offer}: {cards_of_value(pos.stealable(offer), offer)} on offer")
    parts.append(f"{pos.pile_size()} cards in the pile")
    return " · ".join(parts)


def after_steal(pos: Position, a: Advice) -> TurnPoint:
    """Where the advice's steal choice leaves the line (where the player stops or draws)."""
    root = pos.turn_point()
    offer = pos.steal_on_offer()
    if a.steal is not None and a.steal.action is StealAction.TAKE and offer is not None:
        return root.stolen(offer)
    return root


def why(pos: Position, turn: Advice, bank: Advice, after: list[TheftRisk] | None) -> str | None:
    """Why `bank` and `turn` disagree, in one sentence built from their numbers (None if they agree)."""
    who, take = opponents(pos)
    they, _ = opponents(pos, the=True)
    offer = pos.steal_on_offer()
    if turn.steal is not None and bank.steal is not None and turn.steal.action is not bank.steal.action \
            and offer is not None:
        took = pos.turn_point().stolen(offer)
        cards = cards_of_value(pos.stealable(offer), offer)
        lost = None if after is None else sum(float(r.points_lost) for r in after)
        b = bank.steal
        if b.action is StealAction.DECLINE:  # `turn` takes: the cards would be worth it this turn
            if lost is None:
                return (f"Taking {cards} makes your line {took.line_value} points, but they stay face up for "
                        f"{who} to steal: declining keeps more for your loot ({b.decline:.2f} against {b.take:.2f}).")
            return (f"Taking {cards} makes your line {took.line_value} points, but if you stop there {they} "
                    f"{take} {lost:.2f} of them on average: declining keeps more for your loot "
                    f"({b.decline:.2f} against {b.take:.2f}).")
        gain = float(turn.steal.cost)  # `turn` declines: fewer cards down makes drawing on safer this turn
        text = (f"Declining is worth {gain:.2f} more points to this turn (fewer cards down, so drawing on is "
                f"safer), but not once theft is counted: taking keeps {b.take:.2f} points for your loot against "
                f"{b.decline:.2f}")
        risk = next((r for r in after or [] if r.value == offer), None)
        if risk is not None:
            text += f", and the {offer}s you take are stolen with a {float(risk.chance):.1%} chance if you stop"
        return text + "."
    if turn.stop is None or bank.stop is None or turn.action is bank.action:
        return None
    line = after_steal(pos, bank).line_value
    if bank.action is Play.DRAW:  # `turn` stops: the line is worth its points this turn, not to the loot
        return (f"Stopping leaves {line} points face up in reach of {who}, who {take} {line - bank.stop:.2f} of "
                f"them on average: drawing on keeps more for your loot ({bank.draw:.2f} against {bank.stop:.2f}).")
    gain = float(turn.draw - turn.stop)  # `turn` draws: one more card pays this turn, but not to the loot
    return (f"Drawing on adds {gain:.2f} points to this turn on average, but leaves a bigger line face up for "
            f"{who}: counting theft, stopping now keeps {bank.stop:.2f} points for your loot, drawing on "
            f"{bank.draw:.2f}.")


# -- output ------------------------------------------------------------------
def verdict(a: Advice, unit: str) -> None:
    """The recommendation in large type: the steal, then stop or draw, with what the other choice costs."""
    if a.steal is not None:
        take = a.steal.action is StealAction.TAKE
        st.info(f"**{'TAKE' if take else 'DECLINE'} the steal.** Take: {fmt(a.steal.take)}; "
                f"decline: {fmt(a.steal.decline)} {unit}. "
                f"{'Declining' if take else 'Taking'} costs {fmt(a.steal.cost)} points.")
    if a.stop is None:
        st.success(f"**DRAW** (a turn starts with at least one card). Expected: {fmt(a.draw)} {unit}.")
    else:
        other = "Drawing" if a.action is Play.STOP else "Stopping"
        st.success(f"**{a.action.value.upper()}.** Stop: {fmt(a.stop)}; draw: {fmt(a.draw)} {unit}. "
                   f"{other} costs {fmt(a.mistake_cost)} points.")


def bank_note(pos: Position) -> str:
    approx = MODELS["bank"].approximation(pos)
    note = "`bank`: your line after each opponent has had a turn to steal from it. Decimals (floats)"
    if approx:
        return note + f"; with {len(pos.players)} players an **approximation**, “{approx}” (docs/MODELS.md)."
    return note + "; exact for two players."


def headline(pos: Position, turn: Advice, seconds: float) -> tuple[Advice | None, str | None, Advice]:
    """The big recommendation: `bank`'s, or `turn`'s with a warning when `bank` ran out of time.

    Returns `bank`'s answer (or why there is none) and the advice the headline gave."""
    if pos.turn_point().line_size == 0:  # a turn start: DRAW is forced, so say it before `bank` answers
        st.markdown("#### Points that reach your loot")
        st.caption(bank_note(pos))
        box = st.empty()
        box.success("**DRAW** (a turn starts with at least one card).")
        with st.spinner(f"Counting theft (`bank`, time limit {seconds:g} s)…"):
            bank, why_not = solve(pos.to_json(), "bank", seconds)
        if bank is not None:
            box.success(f"**DRAW** (a turn starts with at least one card). "
                        f"Expected: {fmt(bank.draw)} points that reach your loot.")
        else:
            st.caption(f"`bank` was too slow to value this turn (over {seconds:g} s), so no figure counting theft "
                       f"is shown; the draw is forced anyway. This turn alone is worth {fmt(turn.draw)} points.")
        return bank, why_not, bank or turn
    with st.spinner(f"Counting theft (`bank`, time limit {seconds:g} s)…"):
        bank, why_not = solve(pos.to_json(), "bank", seconds)
    if bank is not None:
        st.markdown("#### Points that reach your loot")
        st.caption(bank_note(pos))
        verdict(bank, "points that reach your loot")
        return bank, why_not, bank
    st.markdown("#### This turn's points (theft ignored)")
    st.warning(f"**`bank` was too slow for this position** (it needs more than the {seconds:g} s it is given), "
               f"so this advice is `turn`'s and **ignores theft**: it counts your line as your turn ends, "
               f"not what the opponents may steal from it before your next turn. "
               f"A higher time limit in the sidebar waits longer for `bank`.")
    verdict(turn, "points this turn")
    return None, why_not, turn


def bust_metric(pos: Position, a: Advice) -> None:
    """The next card's bust chance, exactly, for the line as the headline's steal choice leaves it."""
    before = bust_probability(pos.turn_point(), EXACT)
    bust = bust_probability(after_steal(pos, a), EXACT)
    left, right = st.columns([1, 2], vertical_alignment="center")
    left.metric("Bust chance, next card", f"{float(bust):.1%}", help="R13: pile cards of a value you hold, "
                "once you have three or more face-up cards (after the recommended steal, if one is on offer)")
    where = f"{pos.pile_size()} cards in the pile"
    if bust != before:
        where += f"; once you take the steal, as advised — {float(before):.1%} ({before}) before it"
    right.markdown(f"exact: **{bust}** ({where})")


def theft_table(rows: list[TheftRisk]) -> None:
    df = pd.DataFrame({"value": [r.value for r in rows], "cards": [r.cards for r in rows],
                       "stolen": [float(r.chance) for r in rows], "points lost": [float(r.points_lost) for r in rows]})
    st.table(df.style.format({"stolen": "{:.1%}", "points lost": "{:.2f}"}), hide_index=True)


def theft_view(pos: Position, now: list[TheftRisk] | None, after: list[TheftRisk] | None,
               why_not: str | None) -> None:
    """What the opponents' turns are expected to steal if you stop: per value of the line, and in all."""
    turns = "your opponent's turn steals" if len(pos.players) == 2 else "the opponents' turns steal"
    st.markdown(f"**Theft risk** — if you stop, the chance that {turns} each value of your line, "
                "and the points that costs on average")
    if not pos.line:
        st.caption("Your line is empty: nothing to steal yet.")
        return
    offer = pos.steal_on_offer()
    label = "If you decline the steal and stop" if offer else "If you stop now"
    if now is None:
        st.caption(f"{label}: `bank` was too slow to work it out ({why_not}).")
    else:
        total = sum(float(r.points_lost) for r in now)
        st.caption(f"{label}: **{total:.2f}** of your {pos.turn_point().line_value} points are expected to be stolen.")
        theft_table(now)
    if offer is not None and after is not None:
        total = sum(float(r.points_lost) for r in after)
        st.caption(f"If you take {cards_of_value(pos.stealable(offer), offer)} and stop: **{total:.2f}** of your "
                   f"{pos.turn_point().stolen(offer).line_value} points are expected to be stolen.")


def turn_panel(a: Advice) -> None:
    """`turn`, smaller: this turn's haul only, exact."""
    with st.container(border=True):
        st.markdown("**This turn only** · `turn`, exact")
        st.caption(MODELS["turn"].assumption)
        lines = []
        if a.steal is not None:
            take = a.steal.action is StealAction.TAKE
            lines.append(f"**{'TAKE' if take else 'DECLINE'}** the steal: take {fmt(a.steal.take)}, "
                         f"decline {fmt(a.steal.decline)}.")
        if a.stop is None:
            lines.append(f"**DRAW** (forced): {fmt(a.draw)}.")
        else:
            lines.append(f"**{a.action.value.upper()}**: stop {fmt(a.stop)}, draw {fmt(a.draw)}; "
                         f"{'drawing' if a.action is Play.STOP else 'stopping'} costs {fmt(a.mistake_cost)}.")
        st.markdown("  \n".join(lines))
        summary_line(a)


def summary_line(a: Advice) -> None:
    st.code(f"bust {a.bust_probability_after_steal} | stop {'-' if a.stop is None else a.stop} | draw {a.draw} | "
            f"action {a.action}"
            + (f" | steal {a.steal.action}: take {a.steal.take}, decline {a.steal.decline}" if a.steal else ""),
            language=None, wrap_lines=True)


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


def advice_panel(model: str, a: Advice | None, why_not: str | None, boxes: bool = True) -> None:
    st.markdown(f"**`{model}`** — {MODELS[model].assumption}")
    if a is None:
        st.caption(f"No `{model}` advice here: {why_not}")
        return
    notes = ["exact" if a.exact else "float (the speed path)"]
    if a.approximation:
        notes.append(f"approximation: {a.approximation} (see docs/MODELS.md)")
    st.caption("Numbers: " + "; ".join(notes) + ".")
    if boxes:
        verdict(a, "")
    summary_line(a)


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
    rows = [{"card": c.value, "chance": f"{c.probability} ({float(c.probability):.1%})",
             "steal": "" if c.steal is None else c.steal.action.value, "then": c.then.value.upper() if c.busts
             else c.then.value,
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
    st.set_page_config(page_title="Hit! advisor", page_icon="🃏", layout="wide")
    seconds = budget_seconds()
    st.title("Hit! advisor")
    st.caption("Enter what is on the table below; the pile is the deck minus every line, loot and the discard. "
               "Every figure is an expectation over the shuffled pile.")
    d = draft()
    if st.session_state.get("link_error"):
        st.error(f"The link's position could not be read: {st.session_state.link_error}")
    advice = st.container()  # filled once the form below has applied this run's taps: the headline stays on top
    st.subheader("The table")
    entry(d)
    try:
        pos = d.position()
    except PositionError as e:
        st.error(f"Not a position that can be on a Hit! table: {e}")
        advice.info("No advice: the table below is not one that can happen in Hit! (the message under it says why).")
        save_load(d)
        st.query_params.from_dict(d.to_query())  # the position lives in the URL
        return

    turn, cards = next_card_table(pos.to_json())
    with advice:
        st.markdown(recap(pos))
        main_col, side_col = st.columns([3, 2], gap="medium")
        with side_col:  # drawn first: it is quick, and `bank` may take a moment
            turn_panel(turn)
        with main_col, st.container(key="headline"):
            bank, bank_why_not, shown = headline(pos, turn, seconds)
            results: dict[str, tuple[Advice | None, str | None]] = {"turn": (turn, None),
                                                                      "bank": (bank, bank_why_not)}
            with st.spinner("solving `duel`…"):
                results["duel"] = solve(pos.to_json(), "duel", seconds)
            now, after, theft_why_not = theft(pos.to_json(), seconds)
            clash = disagreements(results)
            if clash:
                reason = why(pos, turn, bank, after) if bank is not None else None
                st.warning(f"**The models disagree:** {clash}." + (f" {reason}" if reason else
                           " Read their assumptions: this is where the choice matters."))
            bust_metric(pos, shown)
        with side_col, st.container(key="theft"):
            theft_view(pos, now, after, theft_why_not)

    st.subheader("The models")
    left, right = st.columns(2, gap="medium")
    with left:
        advice_panel("bank", *results["bank"], boxes=False)
    with right:
        advice_panel("duel", *results["duel"])
    st.subheader("The next card")
    st.caption("What `turn` (this turn only, exact) would do after each value the next card can have.")
    next_card_view(cards)
    st.subheader("The pile")
    pile_chart(pos)
    save_load(d)
    st.query_params.from_dict(d.to_query())  # the position lives in the URL (set last: the page is done)


if __name__ == "__main__":  # Streamlit runs the page as __main__; the tests may import its helpers
    main()
