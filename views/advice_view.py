"""The advice pieces the Advisor, Live game and Practice pages share.

Solving on worker threads within a time budget (:func:`answer`, :func:`fill_in`,
:func:`solve`), `bank` leading and `turn` when `bank` is past its limit
(:func:`table_advice`), the verdict box in large type (:func:`verdict`), the
sentence saying why the models disagree (:func:`why`) and the bust chance
(:func:`bust_line`), so that every page shows advice the same way. What is
asked of the models, and of how many workers, is :mod:`solver.play.answers`.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from fractions import Fraction
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from solver.game.rules import Action
from solver.models.advice import Advice, NextCard, after_steal, bust_probability, choice_word
from solver.play.answers import asks_win, solve, theft, workers
from solver.models.bank import TheftRisk
from solver.utilities.jobs import Jobs, Key, key_of
from solver.models import MODELS
from solver.utilities.numbers import EXACT
from solver.game.position import Position
from solver.models.turn import turn_report
from views.safe_text import plain

#: Seconds `bank` (and `duel`) may take per position unless the sidebar says otherwise. `bank` turns
#: it into a work limit and refuses (SlowModel) past it, so no answer is ever waited for longer.
BANK_SECONDS = 3.0
#: A gap between two choices below this many points is called a near tie.
NEAR_TIE = 0.05

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                9: "nine", 10: "ten", 11: "eleven"}


class Voice:
    """How the sentences name the seat to play: "you" at your own seat, its name at another's (the Live
    game page advises every seat in turn).

    >>> bob = Voice("Bob")
    >>> bob.subject, bob.possessive, bob.verb("stop")
    ('Bob', "Bob's", 'stops')
    """

    def __init__(self, name: str | None = None) -> None:
        self.subject = name or "you"
        self.possessive = f"{name}'s" if name else "your"

    def verb(self, plain: str) -> str:
        return plain if self.subject == "you" else plain + "s"


YOU = Voice()


def seat_name(seat: int) -> str:
    """Seats are numbered from 1 on screen (0 in files and links)."""
    return f"Seat {seat + 1}"


def on_screen(message: str) -> str:
    """A position's error in the page's words: seats from 1, as the page numbers them.

    >>> on_screen("players[1].loot: too many 7s (seat 0 ...; seats are 0 to 1)")
    'Seat 2 loot: too many 7s (Seat 1 ...; seats are 1 to 2)'
    >>> on_screen("match.earlier[0].points: -1 is negative")
    'Seat 1 earlier rounds points: -1 is negative'
    """
    message = re.sub(r"players\[(\d+)\]\.(line|loot|lost_turns)",
                     lambda m: f"{seat_name(int(m[1]))} {m[2].replace('_', ' ')}", message)
    message = re.sub(r"match\.earlier\[(\d+)\]\.?", lambda m: f"{seat_name(int(m[1]))} earlier rounds ", message)
    message = message.replace("earlier rounds :", "earlier rounds:")
    message = re.sub(r"seats are (\d+) to (\d+)", lambda m: f"seats are {int(m[1]) + 1} to {int(m[2]) + 1}", message)
    return re.sub(r"\bseat (\d+)", lambda m: seat_name(int(m[1])), message)


def exact_view() -> bool:
    return bool(st.session_state.get("exact_view", False))


def fmt(x: Fraction | float) -> str:
    """A value as two decimals, whole numbers too (so "stop 14.00, draw 21.26" reads as one scale); its
    exact fraction as well when the sidebar asks and two decimals do not say it.

    >>> fmt(Fraction(14)), fmt(21.256)
    ('14.00', '21.26')
    """
    if isinstance(x, Fraction) and x.denominator != 1 and exact_view():
        return f"{float(x):.2f} ({x})"
    return f"{float(x):.2f}"


def cost(x: Fraction | float, chances: bool = False) -> str:
    """What the other choice costs, in words: a tie, a near tie, or the points (``chances``: the
    percentage points of a chance to win).

    >>> cost(Fraction(3, 2)), cost(0.02), cost(0.054, chances=True), cost(3e-13, chances=True)
    ('1.50 points', 'only 0.020 points: a near tie', '5.4 percentage points', 'under 0.1 percentage points: a near tie')
    """
    if x == 0:
        return "nothing: a tie"
    if chances:
        return f"{100 * float(x):.1f} percentage points" if x >= 0.001 else "under 0.1 percentage points: a near tie"
    if x < NEAR_TIE:
        return f"only {float(x):.3f} points: a near tie"
    return f"{fmt(x)} points"


#: What each model's numbers are, in its verdict box.
UNITS = {"turn": "points this turn", "bank": "points that reach your loot",
         "duel": "points, yours minus the other seat's, of all still to be banked", "win": "chance to win"}


def budget_seconds() -> float:
    """The slow models' time budget: the sidebar's setting (:data:`BANK_SECONDS` unless changed)."""
    return float(st.sidebar.number_input(
        "Time limit for `bank`, `duel` and `win` (seconds)", min_value=0.0, max_value=120.0, value=BANK_SECONDS,
        step=1.0, key="bank_seconds",
        help="`bank` counts what the opponents may steal from your line, but early in a turn it can be slow. "
             "Past this limit it gives up and the advice falls back to `turn` (theft ignored). "
             "A higher limit waits longer for it, and for `duel` and for your chance to win (`win`) in endgames."))


@st.cache_resource
def _jobs() -> Jobs:
    """The server's solving workers (:func:`solver.play.answers.workers`), shared by every page and session
    (``HIT_SOLVE_IN=threads``: threads, for tests that put a function of their own in a model's place)."""
    return workers(processes=os.environ.get("HIT_SOLVE_IN") != "threads")


def _owner() -> Hashable:
    """Who is waiting: this browser session (a test run without one is one owner)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else "script"


class _RunAnswers:
    """What one run of a page waits for (``pending``: each answer with the note drawn for it) and asked."""

    def __init__(self, run: object) -> None:
        self.run = run
        self.pending: list[tuple[Future[Any], Any, str]] = []
        self.asked: set[Key] = set()


def _this_run() -> tuple[list[tuple[Future[Any], Any, str]], set[Key]]:
    """The answers this run of the page is waiting for (with the note drawn for each), and every question
    it asked. A new run starts a new list (a run is told apart by the object Streamlit makes anew for it)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    run = ctx.parallel_coordinator if ctx is not None else None
    held = st.session_state.get("_answers_this_run")
    if not (isinstance(held, _RunAnswers) and held.run is run and run is not None):
        held = _RunAnswers(run)
        st.session_state["_answers_this_run"] = held
    return held.pending, held.asked


def answer(fn: Callable[..., Any], *args: Hashable, waiting: str) -> Any:
    """``fn(*args)``'s answer if a worker has it, else None: the question is queued (or already being
    worked out), ``waiting`` is drawn here as a note, and :func:`fill_in` at the end of the page waits
    for it. Nothing waits here, so the rest of the page is drawn at once."""
    pending, asked = _this_run()
    asked.add(key_of(fn, *args))
    job = _jobs().ask(_owner(), fn, *args)
    if job.done():
        return job.result()
    note = st.empty()
    note.caption(waiting)
    pending.append((job, note, waiting))
    return None


def answered(fn: Callable[..., Any], *args: Hashable) -> bool:
    """Whether :func:`answer` would have ``fn(*args)``'s answer at once."""
    return _jobs().done(fn, *args)


#: How often (seconds) a page whose answers are being worked out looks whether they are in.
POLL = 0.25


def fill_in(spent: Callable[[float], None] | None = None) -> None:
    """The end of a page's run: the questions it no longer shows are dropped (queued work for a position
    nobody is looking at is cancelled); then, if answers are still being worked out, the run ends at once
    (the whole page is on screen, nothing left over from the last one) and a small fragment looks every
    :data:`POLL` seconds whether they are in; once they are, the page is drawn again with them, every part
    in its place (the verdict above the buttons, the steal button it recommends highlighted). A tap
    meanwhile is a new run like any other. ``spent``: told the seconds waited, before the page is drawn
    again.

    AppTest cannot drive a fragment's timer: with ``HIT_FILL_IN=wait`` in the environment (the tests set
    it) the run itself waits for the answers instead, then draws the page again."""
    pending, asked = _this_run()
    _jobs().keep_only(_owner(), asked)
    if not pending:
        return
    jobs = [job for job, _, _ in pending]
    started = time.monotonic()
    if os.environ.get("HIT_FILL_IN") == "wait":
        while not all(job.done() for job in jobs):
            time.sleep(0.05)
        if spent is not None:
            spent(time.monotonic() - started)
        st.rerun()
    st.fragment(run_every=POLL)(_answers_in)(jobs, started, spent)


def _answers_in(jobs: list[Future[Any]], started: float, spent: Callable[[float], None] | None) -> None:
    """(A fragment, rerun every :data:`POLL` seconds while the page waits.) Once every answer is in, draw
    the whole page again."""
    if all(job.done() for job in jobs):
        if spent is not None:
            spent(time.monotonic() - started)
        st.rerun(scope="app")


@st.cache_data(max_entries=2048, show_spinner=False)
def next_card_table(position_json: str) -> tuple[Advice, list[NextCard]]:
    """The `turn` advice and the next-card table, from one exact solve (milliseconds)."""
    return turn_report(Position.from_json(position_json))


def opponents(pos: Position, the: bool = False, voice: Voice = YOU) -> tuple[str, str]:
    """The opponents ("two opponents", or "the two opponents" as a subject), and the verb "take(s)"."""
    n = len(pos.players) - 1
    if n == 1:
        return f"{voice.possessive} opponent", "takes"
    return ("the " if the else "") + f"{NUMBER_WORDS[n]} opponents", "take"


def cards_of_value(count: int, value: int) -> str:
    return f"the {value}" if count == 1 else f"the {NUMBER_WORDS.get(count, str(count))} {value}s"


def why(pos: Position, turn: Advice, bank: Advice, after: list[TheftRisk] | None,
        voice: Voice = YOU) -> str | None:
    """Why `bank` and `turn` disagree, in one sentence built from their numbers (None if they agree); about
    the seat to play as ``voice`` names it."""
    who, take = opponents(pos, voice=voice)
    they, _ = opponents(pos, the=True, voice=voice)
    your, you = voice.possessive, voice.subject
    offer = pos.steal_on_offer()
    if turn.steal is not None and bank.steal is not None and turn.steal.action is not bank.steal.action \
            and offer is not None:
        took = pos.turn_state().stolen(offer)
        cards = cards_of_value(pos.stealable(offer), offer)
        lost = None if after is None else sum(float(r.points_lost) for r in after)
        b = bank.steal
        if b.action is Action.DECLINE:  # `turn` takes: the cards would be worth it this turn
            if lost is None:
                return (f"Taking {cards} makes {your} line {took.line_value} points, but they stay face up for "
                        f"{who} to steal: declining keeps more for {your} loot ({b.decline:.2f} against "
                        f"{b.take:.2f}).")
            return (f"Taking {cards} makes {your} line {took.line_value} points, but if {you} {voice.verb('stop')} "
                    f"there {they} {take} {lost:.2f} of them on average: declining keeps more for {your} loot "
                    f"({b.decline:.2f} against {b.take:.2f}).")
        gain = float(turn.steal.cost)  # `turn` declines: fewer cards down makes drawing on safer this turn
        text = (f"Declining is worth {gain:.2f} more points to this turn (fewer cards down, so drawing on is "
                f"safer), but not once theft is counted: taking keeps {b.take:.2f} points for {your} loot against "
                f"{b.decline:.2f}")
        risk = next((r for r in after or [] if r.value == offer), None)
        if risk is not None:
            text += (f", and the {offer}s {you} {voice.verb('take')} are stolen with a {float(risk.chance):.1%} "
                     f"chance if {you} {voice.verb('stop')}")
        return text + "."
    if turn.stop is None or bank.stop is None or turn.action is bank.action:
        return None
    line = after_steal(pos, bank.steal).line_value
    if bank.action is Action.DRAW:  # `turn` stops: the line is worth its points this turn, not to the loot
        return (f"Stopping leaves {line} points face up in reach of {who}, who {take} {line - bank.stop:.2f} of "
                f"them on average: drawing on keeps more for {your} loot ({bank.draw:.2f} against "
                f"{bank.stop:.2f}).")
    gain = float(turn.draw - turn.stop)  # `turn` draws: one more card pays this turn, but not to the loot
    return (f"Drawing on adds {gain:.2f} points to this turn on average, but leaves a bigger line face up for "
            f"{who}: counting theft, stopping now keeps {bank.stop:.2f} points for {your} loot, drawing on "
            f"{bank.draw:.2f}.")


def verdict(a: Advice, unit: str, bust: str = "", who: str = "", chances: bool = False) -> None:
    """The recommendation in large type, in one box: the steal, then stop or draw, each with its
    values (in ``unit``; ``chances``: chances to win, as percentages) and what the other choice costs
    (one box, so recording the steal barely moves the page). ``who`` (markdown-safe, e.g. a name
    through :func:`~views.safe_text.plain`) heads the box."""
    lines = []
    number = (lambda x: f"{float(x):.1%}") if chances else fmt
    if a.steal is not None:
        take = a.steal.action is Action.STEAL
        plan = f"{'TAKE' if take else 'DECLINE'} the steal, then {a.action.value.upper()}"
        lines.append(f"Take: {number(a.steal.take)}; decline: {number(a.steal.decline)} {unit}. "
                     f"{'Declining' if take else 'Taking'} costs {cost(a.steal.cost, chances)}.")
    else:
        plan = a.action.value.upper()
    if a.stop is None:
        lines.append(f"A turn starts with at least one card. Expected: {number(a.draw)} {unit}.")
    else:
        other = "Drawing" if a.action is Action.STOP else "Stopping"
        lines.append(f"Stop: {number(a.stop)}; draw: {number(a.draw)} {unit}. {other} costs "
                     f"{cost(a.mistake_cost, chances)}.")
    st.success(f"### {who + ': ' if who else ''}{plan}\n" + "  \n".join(lines + ([bust] if bust else [])))


def bank_note(pos: Position) -> str:
    approx = MODELS["bank"].approximation(pos)
    note = "Points that reach your loot (`bank`): what is left of your line after each opponent's turn"
    if approx:
        return note + f"; with {len(pos.players)} players an **approximation**, “{approx}”."
    return note + "; exact for two players."


def bust_line(pos: Position, a: Advice, voice: Voice = YOU) -> str:
    """The next card's bust chance for the line the advice's steal choice leaves, in words (about the seat
    to play as ``voice`` names it: "once you take the steal", "once Bob takes the steal")."""
    bust = bust_probability(after_steal(pos, a.steal), EXACT)
    before = bust_probability(pos.turn_state(), EXACT)
    text = f"Bust chance of the next card: **{float(bust):.1%}**"
    if bust != before:
        text += f" once {voice.subject} {voice.verb('take')} the steal ({float(before):.1%} before it)"
    return text + "."


def reason(pos: Position, shown: Advice, turn: Advice, bank: Advice | None, voice: Voice = YOU) -> str:
    """The advice's reason in one sentence, from the numbers: why `bank` and `turn` disagree when they
    do (:func:`why`), else what the choice is worth against the other and the risk behind it; about the
    seat to play as ``voice`` names it."""
    if bank is not None:
        differs = why(pos, turn, bank, None, voice)
        if differs:
            return differs
    if shown.stop is None:
        return "A turn starts with at least one card: there is nothing to choose until it is turned over."
    bust = bust_probability(after_steal(pos, shown.steal), EXACT)
    risk = (f"no card left in the pile can bust {voice.subject}" if bust == 0
            else f"the next card busts {voice.subject} {float(bust):.1%} of the time")
    gap = shown.mistake_cost
    if gap < NEAR_TIE:
        text = f"A near tie: stopping and drawing on are worth almost the same, and {risk}"
    elif shown.action is Action.STOP:
        text = f"Stopping is worth {fmt(gap)} points more than drawing on: {risk}, and one more card risks more " \
               f"than it adds"
    else:
        text = f"Drawing on is worth {fmt(gap)} points more than stopping: {risk}, and one more card adds more " \
               f"than it risks"
    if bank is not None and shown is bank and turn.stop is not None:
        text += (" (`turn`, this turn's haul alone, agrees)" if turn.action is bank.action else "")
    return text + "."


def bank_answer(pos: Position, seconds: float) -> tuple[Advice | None, str | None] | None:
    """`bank`'s advice (or why there is none) within ``seconds``, or None while a worker works it out (a note
    says so; :func:`fill_in` draws the page again once it is in)."""
    got: tuple[Advice | None, str | None] | None = answer(
        solve, pos.to_json(), "bank", seconds, waiting=f"Counting theft (`bank`, time limit {seconds:g} s)…")
    return got


def working(who: str, pos: Position) -> None:
    """The verdict box while the advice is worked out: no verdict yet (never the last position's), the
    bust chance of the line as it stands (exact, and quick)."""
    now = bust_probability(pos.turn_state(), EXACT)
    exact = f" ({now})" if 0 < now < 1 else ""
    st.info(f"### {who + ': ' if who else ''}working out the advice…\nBust chance of the next card, the line as it "
            f"stands: **{float(now):.1%}**{exact}.")


def table_advice(pos: Position, seconds: float, who: str = "", below: Any = None,
                 voice: Voice = YOU) -> Advice | None:
    """The advice for the active seat of ``pos``, as the advisor leads with it: `bank`'s verdict in large
    type (points that reach the loot), or `turn`'s, marked in the box as ignoring theft, when `bank` is past
    its time limit; the bust chance; the reason in a sentence (in ``below``, a container, if given: the
    Live game page puts it under the card buttons so that they stay in reach on a phone). Returns the
    advice shown, or None while `bank` is still being worked out (the box says so, and :func:`fill_in`
    draws the page again once it is in).

    ``who`` (markdown-safe) names the seat in the box's heading; ``voice`` the seat in the sentences
    (``Voice("Bob")`` when an opponent is to play: "Bob's loot", "busts Bob")."""
    turn, _ = next_card_table(pos.to_json())
    box = st.container()  # the verdict, or the box saying it is being worked out, above the note on `bank`
    got = bank_answer(pos, seconds)
    if got is None:
        with box:
            working(who, pos)
        return None
    bank, _why_not = got
    if bank is None and turn.stop is None:  # a turn start: DRAW is forced
        st.success(f"### {who + ': ' if who else ''}DRAW\nA turn starts with at least one card. This turn alone "
                   f"is worth {fmt(turn.draw)} points on average.")
        (st if below is None else below).caption(f"`bank` was too slow to value this turn (over {seconds:g} s); "
                                                 f"the draw is forced anyway.")
        return turn
    shown, unit = (turn, "points this turn") if bank is None else (bank, f"points that reach {voice.possessive} loot")
    lines = [bust_line(pos, shown, voice)] if shown.stop is not None else []
    if bank is None:
        lines.append(f"**Theft ignored:** `bank` needs over {seconds:g} s here, so this is `turn`'s advice.")
    with box:
        verdict(shown, unit, "  \n".join(lines), who=who)
    (st if below is None else below).markdown(reason(pos, shown, turn, bank, voice))
    return shown


def _pct(x: Fraction | float) -> str:
    return f"{float(x):.1%}"


def _apart(good: Fraction | float, bad: Fraction | float) -> str:
    """Two chances, the better first, with the decimals it takes to tell them apart.

    >>> _apart(0.941, 0.887)
    '94.1% against 88.7%'
    >>> _apart(0.0000031, 0.0)
    '0.0003% against 0.0000%'
    >>> _apart(1e-12, 0.0)
    'a shade over 0.00000% against 0.00000%'
    """
    for places in range(1, 6):
        a, b = f"{float(good):.{places}%}", f"{float(bad):.{places}%}"
        if a != b:
            return f"{a} against {b}"
    return f"a shade over {b} against {b}"


def chance_to_win(pos: Position, seconds: float, shown: Advice | None, voice: Voice = YOU) -> Advice | None:
    """Two players near the end: the chance to win (`win`), the choice that maximises it, and, when that
    is not the choice of the advice on screen (``shown``, which counts points), why: the lead and the two
    chances ("you lead by 31: stopping wins 94.1% against 88.7%"). Returns `win`'s advice (None: not
    asked here, or past its limit)."""
    if not asks_win(pos):
        return None
    got: tuple[Advice | None, str | None] | None = answer(solve, pos.to_json(), "win", seconds,
                                                          waiting="Working out the chance to win…")
    if got is None:
        return None
    win, why_not = got
    if win is None:
        st.caption(f"Chance to win: not worked out here ({plain(why_not or '')}).")
        return None
    me, other = pos.players[pos.active], pos.players[1 - pos.active]
    lead = sum(me.loot) + sum(me.line) - sum(other.loot) - sum(other.line)
    if pos.match is not None:  # the last round of a match (R15): the earlier rounds count too
        lead += pos.match.earlier[pos.active].points - pos.match.earlier[1 - pos.active].points
    standing = (f"{voice.subject} {'lead' if voice.subject == 'you' else 'leads'} by {lead}" if lead > 0 else
                f"{voice.subject} {'trail' if voice.subject == 'you' else 'trails'} by {-lead}" if lead < 0
                else "the scores are level")
    best = win.draw if win.stop is None else max(win.draw, win.stop)
    parts = []
    if win.steal is not None:
        parts.append(f"taking the steal {_pct(win.steal.take)}, declining {_pct(win.steal.decline)}")
    if win.stop is not None:
        parts.append(f"stopping {_pct(win.stop)}, drawing on {_pct(win.draw)}")
    head = f"**{voice.possessive[0].upper() + voice.possessive[1:]} chance to win: {_pct(best)}**"
    counted = "counting the lines and the earlier rounds" if pos.match is not None else "counting the lines"
    st.markdown(head + (f" ({'; '.join(parts)})" if parts else "") + f"; {standing}, {counted}.")
    # Playing to win overrides the points only where it wins more often: on a tie (a game already decided
    # either way, say) `win`'s own tie rule must not pass for a reason.
    reasons = []
    if shown is not None and win.steal is not None and shown.steal is not None \
            and win.steal.action is not shown.steal.action and win.steal.take != win.steal.decline:
        good, bad = ((win.steal.take, win.steal.decline) if win.steal.action is Action.STEAL
                     else (win.steal.decline, win.steal.take))
        reasons.append(f"{'taking' if win.steal.action is Action.STEAL else 'declining'} the steal wins "
                       f"{_apart(good, bad)}")
    if shown is not None and win.stop is not None and shown.stop is not None and win.action is not shown.action \
            and win.stop != win.draw:
        good, bad = (win.stop, win.draw) if win.action is Action.STOP else (win.draw, win.stop)
        reasons.append(f"{'stopping' if win.action is Action.STOP else 'drawing on'} wins {_apart(good, bad)}")
    if not reasons and shown is not None and win.stop is not None and win.stop == win.draw \
            and shown.stop is not None and win.action is not shown.action:
        st.caption(f"Stopping and drawing on win equally often ({_pct(win.stop)}), so the points decide.")
    if reasons:
        plan = (f"{choice_word(win.steal.action).upper()} the steal, then " if win.steal is not None else "") + \
            win.action.value.upper()
        st.warning(f"**To win, {plan}**, not what the points say: {standing}: {'; '.join(reasons)}.")
    return win
