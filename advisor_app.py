"""Hit! advisor: enter the position on your table, get your chance to win, and the points beside it.

Run with ``make run`` (or ``streamlit run advisor_app.py``). A thin view:
the position being entered is a :class:`solver.play.entry.Draft`, and every
number comes from :mod:`solver` (the models' advice, `bank`'s theft risk).

The headline is `win`'s: your chance to win for each choice open (the steal
on offer, stop or draw), exact in a game's last cards and an
estimate elsewhere (the page says which), for 2 to 5 players. Beside it, the
points models as what they are: `bank`, points that reach your loot after the
opponents have had their chance to steal from your line, and `turn`, points
this turn; one sentence says so when playing to win and playing for points
choose differently. The models get a time budget
(:data:`~views.advice_view.BANK_SECONDS`, changeable in the sidebar) and run
on worker processes (:func:`~views.advice_view.answer`): the whole page is
drawn first with what is quick (the table, the buttons, `turn`, the bust
chance), each slow answer marked as being worked out;
:func:`~views.advice_view.fill_in` then waits for them and draws the page
again with them, and a tap made meanwhile is taken at once. Past its budget
`bank` says so beside the headline. Those pieces (solving, the headline, the
verdict box, the sentences saying why) live in :mod:`views.advice_view`,
shared with the Live game and Practice pages.

Everything a person typed (a link, a file, a field) is shown as plain text
(:func:`plain`), never as markdown.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from solver.models.advice import Advice, NextCard, bust_probability, choice_word
from solver.play.answers import chance, solve, theft, weights_stamp
from solver.models.bank import TheftRisk
from solver.game.cards import DECK_COPIES, DECK_SIZE, VALUES, counts
from solver.play.entry import CARDS_PER_LOST_TURN, MAX_LOST_TURNS, ROUND_LOST_TURNS, Draft, discard_short
from solver.models import MODELS
from solver.utilities.numbers import EXACT
from solver.game.position import Position, PositionError
from solver.game.rules import Action, MatchSoFar, Totals
from views.advice_view import (UNITS, Plan, answer, budget_seconds, cards_of_value, cost, exact_view, fill_in, fmt,
                               line_after, next_card_table, on_screen, seat_name, table_advice, verdict, why)
from views import nav
from views.live import ROUNDS, rounds_label
from views.safe_text import counted, plain
from views.taps import guard, install, repeated

__all__ = ["advisor_page", "main"]  # the page; its pieces live in views.advice_view and solver.play.answers


# -- plain text --------------------------------------------------------------------------------------------
def zone_name(zone: str, active: int | None = None) -> str:
    """``"line 2"`` → ``"Seat 3 line"`` (▶ marks the active seat's line)."""
    if zone == "discard":
        return "Discard"
    kind, seat = zone.split()
    return f"{seat_name(int(seat))} {kind}" + (" ▶" if kind == "line" and active == int(seat) else "")


# -- state ---------------------------------------------------------------------------------------------------
def draft() -> Draft:
    """The session's draft: from the link on the first run, then kept across reruns."""
    if "draft" not in st.session_state:
        d, problems = Draft.read_query(st.query_params.to_dict())
        st.session_state.link_problems = problems
        st.session_state.draft = d
    got: Draft = st.session_state.draft
    return got


def edit(method: str, *args: object) -> None:
    """A widget callback: apply one edit to the draft, report a refused one. A tap repeating the last one
    within :data:`views.taps.DOUBLE_TAP` seconds counts once, except a card tapped into a loot or the discard
    (entering a loot of three 5s is three quick taps; a line's cards are turned over one at a time); an Undo
    with nothing to take back says so."""
    zone = str(args[0]) if method == "add" and args else ""
    if repeated("advisor", (method, args)) and not zone.startswith(("loot", "discard")):
        return
    try:
        done = getattr(draft(), method)(*args)
        st.session_state.edit_error = None
        if method == "undo" and done is False:
            st.session_state.edit_error = ("Nothing to undo: no change has been made to this table since it was "
                                           "opened (a reload or a link starts afresh, from the table it holds).")
    except ValueError as e:
        st.session_state.edit_error = str(e)


# -- entry ----------------------------------------------------------------------------------------------------
# Widgets show the draft: their state is set from it before they are drawn, and a change goes
# through a callback as one undoable edit. (A widget left to keep its own state would re-apply
# an old value after a file is loaded or an edit undone.)
def _players_changed() -> None:
    if st.session_state.players_in is not None:
        players = int(st.session_state.players_in)
        d = draft()
        earlier = d.match.earlier if d.match is not None else ()
        gone = [seat_name(s) for s in range(players, d.num_players)
                if d.lines[s] or d.loots[s] or d.lost_turns[s] or (s < len(earlier) and earlier[s] != Totals())]
        edit("set_players", players)
        if gone and d.num_players == players:  # a mistaken tap must not lose cards unseen
            one = len(gone) == 1
            st.session_state.edit_error = (f"{' and '.join(gone)} left the table with all {'it' if one else 'they'} "
                                           f"had (cards, lost turns, earlier rounds' totals): Undo brings "
                                           f"{'it' if one else 'them'} back.")


def _active_changed() -> None:
    seat = st.session_state.active_in
    if seat is not None:
        edit("set_active", int(seat))
        st.session_state.zone = f"line {int(seat)}"  # tap into the new active line


def _bust_recorded() -> None:
    edit("record_bust")
    st.session_state.zone = f"line {draft().active}"  # tap the next seat's cards into its line


def _offer_changed() -> None:
    value = st.session_state.offer_in
    edit("set_offer", None if value == "none" else int(value))


def _loot_typed(seat: int) -> None:
    text = st.session_state[f"loot_text_{seat}"]
    try:
        per_value = parse_loot(text)
    except ValueError as e:
        st.session_state.form_error = (seat, f"{seat_name(seat)} loot: {e}")
        return
    st.session_state.form_error = None
    if per_value != list(counts(draft().loots[seat])):
        edit("set_loot_counts", seat, per_value)


def _lost_typed(seat: int) -> None:
    text = str(st.session_state[f"lost_text_{seat}"]).strip() or "0"  # emptied: none, as an emptied loot is
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_LOST_TURNS))):
        st.session_state.form_error = (seat, f"{seat_name(seat)} lost turns: {text[:12]!r} is not a whole number "
                                             f"from 0 to {MAX_LOST_TURNS}; nothing was changed")
        return
    d = draft()
    others = sum(d.lost_turns) - d.lost_turns[seat]
    if int(text) > d.lost_turns[seat] and others + int(text) > ROUND_LOST_TURNS:  # (lowering is always taken)
        st.session_state.form_error = (seat, f"{seat_name(seat)} lost turns: {int(text)}, with the other seats' "
                                             f"{others}, is more than a round holds ({lost_turns_bound()}); "
                                             f"nothing was changed")
        return
    st.session_state.form_error = None
    if int(text) != d.lost_turns[seat]:
        edit("set_lost_turns", seat, int(text))


def too_many_lost_turns(d: Draft) -> bool:
    """More lost turns than one round leaves room for beside the cards in the lines and loots: each lost turn
    put four cards or more of the deck's 90 in the discard (R1, R5, R6)."""
    shown = sum(len(c) for c in d.lines) + sum(len(c) for c in d.loots)
    return CARDS_PER_LOST_TURN * sum(d.lost_turns) + shown > DECK_SIZE


def lost_turns_bound() -> str:
    """Why a round holds so few lost turns, in words (the typed field's refusal and the page's warning)."""
    return (f"{ROUND_LOST_TURNS} at most, all seats together: each puts four cards or more of the 90 in the "
            f"discard, R5 and R6; in the rounds variant, earlier rounds' go in their totals")


def _rounds_changed() -> None:
    """The rounds variant picked (R15): a one-round game has no match; a new match starts at its last round
    (where `win` can be exact, in the last cards) with no totals yet."""
    rounds = int(st.session_state.rounds_in or 1)
    d = draft()
    if rounds == 1:
        edit("set_match", None)
        return
    earlier = d.match.earlier if d.match is not None else (Totals(),) * d.num_players
    round_ = rounds if d.match is None else min(d.match.round, rounds)
    edit("set_match", MatchSoFar(round_, rounds, earlier))


def _round_changed() -> None:
    d = draft()
    if d.match is not None and st.session_state.round_in is not None:
        edit("set_match", MatchSoFar(int(st.session_state.round_in), d.match.rounds, d.match.earlier))


def _earlier_typed(seat: int) -> None:
    text = str(st.session_state[f"earlier_text_{seat}"])
    d = draft()
    try:
        totals = parse_totals(text)
    except ValueError as e:
        st.session_state.form_error = (f"match {seat}", f"{seat_name(seat)} earlier rounds: {e}")
        return
    st.session_state.form_error = None
    if d.match is not None and totals != d.match.earlier[seat]:
        earlier = list(d.match.earlier)
        earlier[seat] = totals
        edit("set_match", MatchSoFar(d.match.round, d.match.rounds, tuple(earlier)))


def parse_totals(text: str) -> Totals:
    """A seat's totals of the earlier rounds typed as points, loot cards and lost turns: ``"61 15 1"``.

    >>> parse_totals("61, 15, 1"), parse_totals(" 40 9 ")
    (Totals(points=61, cards=15, lost_turns=1), Totals(points=40, cards=9, lost_turns=0))
    >>> parse_totals("61 points")
    Traceback (most recent call last):
    ...
    ValueError: '61 points' is not points, cards and lost turns (for example 61 15 1); nothing was changed
    """
    parts = text.replace(",", " ").split()
    if len(parts) not in (2, 3) or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts):
        raise ValueError(f"{text[:20]!r} is not points, cards and lost turns (for example 61 15 1); "
                         f"nothing was changed")
    numbers = [int(p) for p in parts] + [0]
    return Totals(numbers[0], numbers[1], numbers[2])


def parse_loot(text: str) -> list[int]:
    """A loot typed as cards or counts: ``"5 5 7"``, ``"2x5, 7"`` or ``"2×5 1×7"``; ten counts per value.

    >>> parse_loot("2x5, 7 10")
    [0, 0, 0, 0, 2, 0, 1, 0, 0, 1]
    """
    per_value = [0] * 10
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        m = re.fullmatch(r"(?:([0-9]{1,2})\s*[x×*])?([0-9]{1,2})", token)
        if not m or not 1 <= int(m[2]) <= 10 or (m[1] is not None and int(m[1]) < 1):
            raise ValueError(f"{token[:12]!r} is not a card (1 to 10) or a count like 3x7; nothing was changed")
        per_value[int(m[2]) - 1] += int(m[1] or 1)
    for v, n, deck_n in zip(VALUES, per_value, DECK_COPIES):
        if n > deck_n:
            raise ValueError(f"{n} cards of {v}, but the deck has {deck_n}; nothing was changed")
    return per_value


def loot_text(loot: list[int]) -> str:
    return " ".join(f"{n}x{v}" if n > 1 else str(v) for v, n in zip(VALUES, counts(loot)) if n)


def on_table(d: Draft) -> tuple[int, ...]:
    """How many cards of each value the table shows (lines, loots and the discard)."""
    return counts([c for z in d.zones() for c in d.zone(z)])


def where(d: Draft, value: int) -> str:
    """The zones holding cards of ``value``, with how many: "Seat 1 loot 3, discard 4"."""
    return ", ".join(f"{zone_name(z)} {d.zone(z).count(value)}" for z in d.zones() if value in d.zone(z))


def taps(d: Draft) -> None:
    """Where the cards go and the ten card buttons: what a player taps all game."""
    zones = d.zones()
    if st.session_state.get("zone") not in zones:
        st.session_state.zone = f"line {d.active}"  # open on the active seat's line
    zone = st.selectbox("Tap cards into", zones, format_func=lambda z: zone_name(z, d.active), key="zone")
    # A grid, not columns: ten across on a desktop, two rows of five on a phone (columns would stack).
    shown = on_table(d)
    with st.grid(10, min_column_width=60, gap="xsmall"):
        for v in VALUES:
            gone = shown[v - 1] >= DECK_COPIES[v - 1]  # every card of this value is on the table already
            st.button(str(v), key=f"card_{v}", on_click=edit, args=("add", zone, v), width="stretch",
                      disabled=gone, help=f"All {DECK_COPIES[v - 1]} {v}s are on the table: {where(d, v)}"
                      if gone else None)
    held = d.zone(zone)
    with st.container(horizontal=True, gap="small"):
        st.button("Undo", key="undo", on_click=edit, args=("undo",))
        st.button("−1", key="remove_last", disabled=not held, help="Take the last card out of this zone",
                  on_click=edit, args=("remove", zone, held[-1] if held else 1))
        st.button("Clear", key="clear", on_click=edit, args=("clear", zone), help=f"Empty {zone_name(zone)}")
        if d.offer is not None and d.held_elsewhere(d.offer):
            st.button(f"Take {cards_of_value(d.stealable(d.offer), d.offer)}", key="take_steal", on_click=edit,
                      args=("take_steal",),
                      help="Record the steal: every other seat's line gives its cards of this value to yours (R7)")
            st.button("Decline", key="decline_steal", on_click=edit, args=("decline_steal",),
                      help="Record that the steal was declined")
    if st.session_state.get("edit_error"):
        st.warning(plain(on_screen(st.session_state.edit_error)))


def setup(d: Draft, refused: bool) -> None:
    """Players, whose turn it is and the card just drawn (``refused``: the table is not one Hit! can show,
    which the page says once, below)."""
    st.session_state.players_in = d.num_players
    st.session_state.active_in = d.active
    top = st.columns([2, 3, 3])
    top[0].segmented_control("Players", [2, 3, 4, 5], key="players_in", on_change=_players_changed)
    top[1].segmented_control("Whose turn (seat)", list(range(d.num_players)), format_func=lambda s: str(s + 1),
                             key="active_in", on_change=_active_changed)
    # A wrong offer (from a link or a file) stays selectable, so its error shows.
    offer_choices: list[Any] = ["none"] + sorted(set(d.lines[d.active]) | ({d.offer} if d.offer else set()))
    st.session_state.offer_in = d.offer if d.offer in offer_choices else "none"
    top[2].selectbox("Card just drawn, steal not yet decided", offer_choices, key="offer_in",
                     on_change=_offer_changed,
                     help="The value you just drew, when other seats hold it face up and you have not yet "
                          "chosen to take it (a steal, R7) or decline it")
    if d.offer is not None and d.offer in d.lines[d.active] and not d.held_elsewhere(d.offer) and not refused:
        top[2].caption(f"No other seat has a {d.offer} face up: nothing to steal (R7), so no steal is on offer.")


def table_view(d: Draft) -> None:
    rows = []
    for seat in range(d.num_players):
        line, loot = d.lines[seat], d.loots[seat]
        rows.append({"seat": seat_name(seat) + (" ▶" if seat == d.active else ""),
                     "line": " ".join(map(str, line)) + (f" ({sum(line)})" if len(line) > 1 else "") or "—",
                     "loot": _by_value(loot) + (f" ({sum(loot)})" if len(loot) > 1 else ""),
                     "lost turns": str(d.lost_turns[seat])})
    st.table(pd.DataFrame(rows), hide_index=True)
    lost = sum(d.lost_turns)
    short = (f" The seats' {counted(lost, 'lost turn')} put {CARDS_PER_LOST_TURN * lost} cards or more there (R5, "
             f"R6): any not entered count as still in the pile (R10), and every chance is worked out from that pile."
             if discard_short(lost, len(d.discard)) else "")  # under the buttons: it never moves them as it comes and goes
    st.caption(f"▶ to play. Discard: {_by_value(d.discard)} ({counted(len(d.discard), 'card')}).{short} "
               "A seat's **line** is its face-up cards this turn; its **loot**, the cards it has banked; "
               "a **steal** takes every card of the value you just drew from the other lines.")
    with st.expander("Loots as counts, and lost turns"):
        seat = st.selectbox("Seat", range(d.num_players), format_func=seat_name, key="loot_seat")
        if seat is None or seat >= d.num_players:
            return
        st.session_state[f"loot_text_{seat}"] = loot_text(d.loots[seat])
        st.session_state[f"lost_text_{seat}"] = str(d.lost_turns[seat])
        left, right = st.columns([3, 1])
        left.text_input(f"{seat_name(seat)} loot", key=f"loot_text_{seat}", on_change=_loot_typed, args=(seat,),
                        help="Cards or counts: 5 5 7, or 2x5 7")
        right.text_input("Lost turns", key=f"lost_text_{seat}", on_change=_lost_typed, args=(seat,))
        problem = st.session_state.get("form_error")
        if problem and problem[0] == seat:
            st.error(plain(problem[1]))
    match_view(d)


def match_view(d: Draft) -> None:
    """The rounds variant (R15): which round this is and each seat's totals of the rounds before, which
    `win` adds to this round's in the last round."""
    m = d.match
    if m is not None:
        totals = "; ".join(f"{seat_name(s)} {t.points} points, {counted(t.cards, 'card')}, "
                           f"{counted(t.lost_turns, 'lost turn')}" for s, t in enumerate(m.earlier))
        counts_them = (" The chance to win (of the match) counts them." if m.last_round else
                       " The chance to win (of the match) counts them and the rounds still to come: an estimate "
                       "until the last round's last cards.")
        st.caption(f"Rounds variant: round {m.round} of {m.rounds}. Earlier rounds: {totals}.{counts_them}")
    with st.expander("Rounds variant (R15): earlier rounds", key="rounds_box"):
        st.session_state.rounds_in = 1 if m is None else m.rounds
        cols = st.columns(2)
        cols[0].selectbox("Rounds", ROUNDS, format_func=rounds_label, key="rounds_in", on_change=_rounds_changed)
        if m is None:
            st.caption("A single game: nothing from earlier rounds counts.")
            return
        st.session_state.round_in = m.round
        cols[1].selectbox("This round", list(range(1, m.rounds + 1)), key="round_in", on_change=_round_changed)
        for seat in range(d.num_players):
            t = m.earlier[seat]
            st.session_state[f"earlier_text_{seat}"] = f"{t.points} {t.cards} {t.lost_turns}"
            st.text_input(f"{seat_name(seat)}: points, loot cards, lost turns of the earlier rounds",
                          key=f"earlier_text_{seat}", on_change=_earlier_typed, args=(seat,),
                          help="Whole numbers: points, loot cards and lost turns, for example 61 15 1 (no lost "
                               "turns: 61 15)")
            problem = st.session_state.get("form_error")
            if problem and problem[0] == f"match {seat}":
                st.error(plain(problem[1]))


def _by_value(cards: list[int]) -> str:
    c = counts(cards)
    return ", ".join(f"{n}×{v}" for v, n in zip(VALUES, c) if n) or "—"


# -- words -------------------------------------------------------------------------------------------------
def recap(pos: Position) -> str:
    """The position in one line, above the advice."""
    line = pos.line
    parts = [f"**{seat_name(pos.active)} to play**", f"{len(pos.players)} players",
             f"line {' '.join(map(str, line))} ({sum(line)} points)" if line else "no cards down yet"]
    offer = pos.steal_on_offer()
    if offer is not None:
        parts.append(f"just drew a {offer}: {cards_of_value(pos.stealable(offer), offer)} on offer")
    parts.append(f"{counted(pos.pile_size(), 'card')} in the pile")
    if pos.match is not None:
        parts.append(f"round {pos.match.round} of {pos.match.rounds}")
    return " · ".join(parts)


# -- output ---------------------------------------------------------------------------------------------------
def bust_metric(pos: Position, plan: Plan | None) -> None:
    """The next card's bust chance, exactly, for the line as the headline's steal choice leaves it (as it
    stands while the headline is worked out)."""
    before = bust_probability(pos.turn_state(), EXACT)
    bust = before if plan is None else bust_probability(line_after(pos, plan.steal), EXACT)
    left, right = st.columns([1, 2], vertical_alignment="center")
    left.metric("Bust chance", f"{float(bust):.1%}", help="Of the next card. R13: pile cards of a value you hold, "
                "once you have three or more face-up cards (after the recommended steal, if one is on offer)")
    text = f"of the next card, exactly **{bust}**"
    if bust != before:
        text += f" after taking the steal, as advised ({float(before):.1%}, {before}, before it)"
    right.markdown(text + f"; {counted(pos.pile_size(), 'card')} in the pile")


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
        st.caption(f"{label}: **{total:.2f}** of your {pos.turn_state().line_value} points are expected to be stolen.")
        theft_table(now)
    if offer is not None and after is not None:
        total = sum(float(r.points_lost) for r in after)
        st.caption(f"If you take {cards_of_value(pos.stealable(offer), offer)} and stop: **{total:.2f}** of your "
                   f"{pos.turn_state().stolen(offer).line_value} points are expected to be stolen.")


def turn_panel(a: Advice) -> None:
    """`turn`, smaller: this turn's haul only, exact."""
    with st.container(border=True):
        st.markdown("**This turn only** · `turn`, exact")
        st.caption(MODELS["turn"].assumption)
        lines = []
        if a.steal is not None:
            take = a.steal.action is Action.STEAL
            lines.append(f"**{'TAKE' if take else 'DECLINE'}** the steal: take {fmt(a.steal.take)}, "
                         f"decline {fmt(a.steal.decline)}.")
        if a.stop is None:
            lines.append(f"**DRAW** (forced): {fmt(a.draw)}.")
        else:
            lines.append(f"**{a.action.value.upper()}**: stop {fmt(a.stop)}, draw {fmt(a.draw)}; "
                         f"{'drawing' if a.action is Action.STOP else 'stopping'} costs {cost(a.mistake_cost)}.")
        st.markdown("  \n".join(lines))
        summary_line(a)


def _number(x: Fraction | float | None) -> str:
    if x is None:
        return "-"
    return str(x) if isinstance(x, Fraction) else f"{x:.4f}"


def summary_line(a: Advice) -> None:
    """A model's numbers in one line: exact fractions (or four decimals), shown with the sidebar's toggle."""
    if not exact_view():
        return
    st.code(f"bust {a.bust_probability_after_steal} | stop {_number(a.stop)} | draw {_number(a.draw)} | "
            f"action {a.action}"
            + (f" | steal {choice_word(a.steal.action)}: take {_number(a.steal.take)}, decline {_number(a.steal.decline)}"
               if a.steal else ""), language=None, wrap_lines=True)


def pile_chart(pos: Position) -> None:
    pile = pos.pile()
    data = pd.DataFrame({"value": [str(v) for v in VALUES] * 2,
                         "cards": list(pile) + [d - p for d, p in zip(DECK_COPIES, pile)],
                         "where": ["in the pile"] * 10 + ["out of the pile"] * 10})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("value:N", sort=[str(v) for v in VALUES], title="card value", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("cards:Q", title="cards"),
        color=alt.Color("where:N", scale=alt.Scale(range=["#2e7d32", "#cfd8dc"]),
                        legend=alt.Legend(orient="top", title=None)),
        order=alt.Order("where:N", sort="ascending"),
        tooltip=["value", "where", "cards"])
    st.altair_chart(chart.properties(height=260), width="stretch")
    st.caption(f"Pile: {counted(pos.pile_size(), 'card')} — " + ", ".join(f"{n}×{v}" for v, n in zip(VALUES, pile)))


def advice_panel(model: str, a: Advice | None, why_not: str | None, boxes: bool = True) -> None:
    st.markdown(f"**`{model}`** — {MODELS[model].assumption}")
    if a is None:
        st.caption(f"No `{model}` advice here: {plain(why_not)}")
        return
    notes = ["exact" if a.exact else "decimals (the float speed path)"]
    if a.approximation:
        notes.append(f"approximation: {a.approximation} (see docs/MODELS.md)")
    st.caption("Numbers: " + "; ".join(notes) + ".")
    if boxes:
        verdict(a, UNITS[model], chances=model == "win")
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
        parts.append(", ".join(f"`{m}` says {choice_word(act).upper()} the steal" for m, act in steals.items()))
    return "; ".join(parts) or None


def next_card_view(cards: list[NextCard]) -> None:
    rows = [{"card": c.value, "chance": f"{float(c.probability):.1%}" + (f" ({c.probability})" if exact_view() else ""),
             "steal": "" if c.steal is None else choice_word(c.steal.action), "then": c.then.value.upper() if c.busts
             else c.then.value,
             "value after": fmt(c.value_after) if not c.busts else "0"} for c in cards]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
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
                         "application/json", key="download",
                         on_click="ignore")  # (no run: views/taps.py counts the taps that run the page)
    upload = right.file_uploader("Load a position (JSON, the command line's schema)", type=["json"], key="upload")
    if upload is not None and st.session_state.get("loaded") != upload.file_id:
        st.session_state.loaded = upload.file_id
        try:
            if upload.size > 1_000_000:
                raise PositionError(f"the file has {upload.size:,} bytes; a position is a few hundred")
            draft().load(Draft.from_json(upload.getvalue()))  # one edit: Undo brings back the table before it
            st.session_state.load_error = None
            st.session_state.pop("zone", None)  # open on the loaded position's active line
            st.rerun()
        except PositionError as e:
            st.session_state.load_error = f"{upload.name}: {on_screen(str(e))}"
    if st.session_state.get("load_error"):
        right.error(plain(st.session_state.load_error))


# -- page ------------------------------------------------------------------------------------------------------
#: The card buttons stay where they are from tap to tap: the advice above them (a few lines while it is worked
#: out, more once it is in, more again with a steal on offer) keeps the room of the longest usual advice,
#: a steal on offer's (measured with two to five seats: at most 364 pixels high, 360 wide; 338, 390 wide;
#: 257 from 640 to 1,279 wide; 374, 1,280 wide), so that a finger tapping card after card finds each button
#: where the last tap left it (a tap made as the advice came in once landed on Clear, a row lower). The room
#: to spare goes above the advice.
_STEADY = """<style>
.st-key-verdict { min-height: 374px; justify-content: flex-end; }
@media (max-width: 1279.98px) { .st-key-verdict { min-height: 257px; } }
@media (max-width: 639.98px) { .st-key-verdict { min-height: 364px; } }
</style>"""


def tap_guard() -> None:
    """Double taps dropped in the browser (views.taps.guard), except while cards go into a loot or the discard:
    three 5s tapped into a loot are three quick taps on one spot."""
    guard(not str(st.session_state.get("zone", "")).startswith(("loot", "discard")))


def advisor_page() -> None:
    seconds = budget_seconds()
    st.sidebar.toggle("Exact fractions", key="exact_view",
                      help="Show every `turn` value as its exact fraction, and each model's numbers in one line")
    st.title("Hit! advisor")
    d = draft()
    for problem in st.session_state.get("link_problems") or []:
        st.warning(f"Not read from the link: {plain(problem)}")
    st.html(_STEADY)
    top = st.container(key="verdict")  # the advice, filled once the quick parts below are drawn
    pos: Position | None = None
    try:  # (this rerun's edits are made: their callbacks ran before it)
        pos = d.position()
    except PositionError as e:
        problem = e
    taps(d)
    under = st.container(key="under")  # what goes with the advice, under the buttons (kept in reach on a phone)
    setup(d, refused=pos is None)
    st.subheader("The table")
    table_view(d)
    if pos is None:
        said = plain(on_screen(str(problem)))
        if on_table(d) == DECK_COPIES:  # every card is on the table: the game (or the round) is over
            top.info(f"No advice: {said}. Every card is on the table; **Undo** takes the last one back.")
        else:
            st.error(f"Not a position that can be on a Hit! table: {said}")
            top.error(f"No advice: this table cannot happen in Hit!: {said}. Fix it with **Undo**, **−1** or "
                      f"**Clear**, or in the table below.")
        save_load(d)
        st.query_params.from_dict(d.to_query())  # the position lives in the URL
        tap_guard()
        return
    st.query_params.from_dict(d.to_query())  # the position lives in the URL
    came_from = st.session_state.get("live_from")  # the live game "Open in the advisor" came from, if any
    with st.container(horizontal=True, gap="small"):
        if isinstance(came_from, int) and st.button(
                f"Back to game #{came_from}", key="back_to_live", icon=":material/arrow_back:", type="primary",
                help="The live game this table came from, where it was (its names, rounds and seat kept)"):
            st.session_state.pop("live_join", None)
            nav.go("live", {"game": str(came_from)})
        if st.button("Follow this game live (a new game)", key="follow_live", icon=":material/play_circle:",
                     help="Starts a NEW game from this table on the Live game page, recorded card by card; "
                          "any game already saved there stays saved, as it was"):
            st.session_state["live_join"] = pos.to_json()  # the Live game page's setup joins it
            nav.go("live")
    if isinstance(came_from, int):
        st.caption(f"“Follow this game live” starts a new game from this table (new names, rounds and seat); "
                   f"game #{came_from} stays saved as it was: “Back to game #{came_from}” returns to it.")

    # The quick parts first (exact `turn`, the bust chance, the next-card table, the pile) ...
    turn, cards = next_card_table(pos.to_json())
    with top:
        st.markdown(recap(pos))
        if too_many_lost_turns(d):  # from a link or a file: the estimate never saw such a table
            st.warning(f"The seats' {sum(d.lost_turns)} lost turns cannot all come from one round with these "
                       f"cards in the lines and loots ({lost_turns_bound()}). Away from a game's last cards the "
                       f"chance to win is estimated from games that never had so many, so it may be far off.",
                       icon=":material/warning:")
        if d.notice:  # the card just tapped would have lost the turn: said above the advice, Undo beside it
            banner, cells = st.columns([5, 2], vertical_alignment="center")  # the buttons beside the banner
            banner.warning(plain(on_screen(d.notice)), icon=":material/warning:")
            cells.button("Undo", key="bust_undo", icon=":material/undo:", type="primary", width="stretch",
                         on_click=edit, args=("undo",), help="Take the card just tapped back")
            cells.button("Record the bust", key="record_bust", icon=":material/delete_sweep:", width="stretch",
                         on_click=_bust_recorded,
                         help="The line and the card to the discard, one more lost turn (R6), and the next "
                              "seat's turn (its face-up cards to its loot, R3)")
        head = st.container()
    details = st.columns([3, 2], gap="medium")
    with details[0]:
        why_box = st.container()
        bust_box = st.container()
    with details[1]:
        turn_panel(turn)
        theft_box = st.container(key="theft")
    st.subheader("The models")
    models = st.columns(3, gap="medium")
    st.subheader("The next card")
    st.caption("What `turn` (this turn only, exact) would do after each value the next card can have.")
    next_card_view(cards)
    st.subheader("The pile")
    pile_chart(pos)
    save_load(d)

    # ... then the models that may take seconds, each on a worker thread (a tap reruns at once).
    with head:  # the chance to win of each choice, the points models beside it
        lead = table_advice(pos, seconds, below=under, beside=True, reasons=False)
    bank, bank_why_not = lead.bank, lead.bank_why_not
    with bust_box:
        bust_metric(pos, lead.plan)
    after: list[TheftRisk] | None = None
    with theft_box:
        risk = answer(theft, pos.to_json(), seconds, waiting="Working out the theft risk…")
        if risk is not None:
            now, after, theft_why_not = risk
            theft_view(pos, now, after, theft_why_not)
    with models[1]:
        duel = answer(solve, pos.to_json(), "duel", seconds, waiting="Solving `duel`…")
        if duel is not None:
            advice_panel("duel", *duel)
    with models[0]:
        if lead.bank_done:
            advice_panel("bank", bank, bank_why_not, boxes=False)
        else:
            st.markdown(f"**`bank`** — {MODELS['bank'].assumption}")
    with models[2]:  # the headline's question: answered once, for both
        win = answer(chance, pos.to_json(), seconds, weights_stamp(), waiting="Solving `win`…")
        if win is not None:
            advice_panel("win", *win)
    results: dict[str, tuple[Advice | None, str | None]] = {"turn": (turn, None)}
    for model, got in (("bank", (bank, bank_why_not) if lead.bank_done else None), ("duel", duel), ("win", win)):
        if got is not None:
            results[model] = got
    clash = disagreements(results) if lead.bank_done and duel is not None and win is not None else None
    if clash:
        reason = why(pos, turn, bank, after) if bank is not None else None
        with why_box:
            st.warning(f"**The models disagree:** {clash}." + (f" {reason}" if reason else
                       " Read their assumptions: this is where the choice matters."))
    tap_guard()
    fill_in()  # the answers still being worked out, once the whole page is on screen


def main() -> None:
    # The pages are declared here, not found in a pages/ folder: a link straight to /study then opens
    # with the same sidebar ("Advisor", "Live game", "Practice", "Study", "Strength", "Hit the Deck odds") as the
    # advisor itself.
    install()  # every tap's callback runs whole, before a newer tap can stop its run
    st.set_page_config(page_title="Hit! advisor", page_icon="🃏", layout="wide")
    pages = {"advisor": st.Page(advisor_page, title="Advisor", icon=":material/style:", default=True),
             "live": st.Page("views/live.py", title="Live game", icon=":material/play_circle:", url_path="live"),
             "practice": st.Page("views/practice.py", title="Practice", icon=":material/sports_esports:",
                                 url_path="practice"),
             "study": st.Page("views/study.py", title="Study", icon=":material/query_stats:"),
             "strength": st.Page("views/strength.py", title="Strength", icon=":material/trophy:"),
             "hitthedeck": st.Page("views/hitthedeck.py", title="Hit the Deck odds", icon=":material/casino:",
                                   url_path="hitthedeck")}
    nav.register(pages)  # so that a page can send the player to another
    st.navigation(list(pages.values())).run()


if __name__ == "__main__":  # Streamlit runs the page as __main__; the tests may import its helpers
    main()
