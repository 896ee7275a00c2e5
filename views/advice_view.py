"""The advice pieces the Advisor, Live game and Practice pages share.

Solving on worker threads within a time budget (:func:`answer`, :func:`fill_in`,
:func:`solve`); the headline every page leads with (:func:`table_advice`): the
chance to win of each choice open (`win`, exact or an estimate, in large type:
:func:`win_box`), the points models beside it as what they are
(:func:`points_part`: `bank`, points that reach the loot; `turn`, points this
turn) and one sentence when playing to win and playing for points choose
differently (:func:`to_win_sentence`); the verdict box of a model
(:func:`verdict`), the sentence saying why `bank` and `turn` disagree
(:func:`why`) and the bust chance (:func:`bust_line`), so that every page shows
advice the same way. What is asked of the models, and of how many workers, is
:mod:`solver.play.answers`.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from solver.game.rules import Action
from solver.game.core import TurnState
from solver.models.advice import Advice, NextCard, after_steal, beats, bust_probability
from solver.play.answers import chance, solve, weights_stamp, workers
from solver.models.bank import TheftRisk
from solver.utilities.jobs import Jobs, Key, key_of
from solver.models import MODELS
from solver.utilities.numbers import EXACT
from solver.game.position import Position
from solver.models.turn import turn_report
from views.safe_text import counted, plain

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
    both = chances_and_cost if chances else (lambda x, y, gap: (fmt(x), fmt(y), cost(gap)))
    if a.steal is not None:
        take = a.steal.action is Action.STEAL
        plan = f"{'TAKE' if take else 'DECLINE'} the steal, then {a.action.value.upper()}"
        took, declined, costs = both(a.steal.take, a.steal.decline, a.steal.cost)
        lines.append(f"Take: {took}; decline: {declined} {unit}. {'Declining' if take else 'Taking'} costs {costs}.")
    else:
        plan = a.action.value.upper()
    if a.stop is None:
        lines.append(f"A turn starts with at least one card. Expected: {number(a.draw)} {unit}.")
    else:
        other = "Drawing" if a.action is Action.STOP else "Stopping"
        stop, draw, costs = both(a.stop, a.draw, a.mistake_cost)
        lines.append(f"Stop: {stop}; draw: {draw} {unit}. {other} costs {costs}.")
    st.success(f"### {who + ': ' if who else ''}{plan}\n" + "  \n".join(lines + ([bust] if bust else [])))


def bank_note(pos: Position) -> str:
    approx = MODELS["bank"].approximation(pos)
    note = "Points that reach your loot (`bank`): what is left of your line after each opponent's turn"
    if approx:
        return note + f"; with {len(pos.players)} players an **approximation**, “{approx}”."
    return note + "; exact for two players."


def bust_line(pos: Position, steal: Action | None, voice: Voice = YOU) -> str:
    """The next card's bust chance for the line the advised steal choice (``steal``) leaves, in words (about
    the seat to play as ``voice`` names it: "once you take the steal", "once Bob takes the steal")."""
    bust = bust_probability(line_after(pos, steal), EXACT)
    before = bust_probability(pos.turn_state(), EXACT)
    text = f"Bust chance of the next card: **{float(bust):.1%}**"
    if bust != before:
        text += f" once {voice.subject} {voice.verb('take')} the steal ({float(before):.1%} before it)"
    return text + "."


def line_after(pos: Position, steal: Action | None) -> TurnState:
    """The active line once the steal on offer is taken (``steal`` is :attr:`~Action.STEAL`), else as it stands."""
    offer = pos.steal_on_offer()
    root = pos.turn_state()
    return root.stolen(offer) if steal is Action.STEAL and offer is not None else root


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



class Plan(NamedTuple):
    """What the headline recommends: the steal on offer (None: no steal on offer) and then stop or draw, and
    whose choice that is (``model``: `win`, or a points model where the chance to win is not available)."""

    steal: Action | None
    action: Action
    model: str

    @classmethod
    def of(cls, a: Advice) -> Plan:
        return cls(None if a.steal is None else a.steal.action, a.action, a.model)

    def words(self) -> str:
        """``"TAKE the steal, then STOP"``, ``"DRAW"``."""
        steal = "" if self.steal is None else f"{'TAKE' if self.steal is Action.STEAL else 'DECLINE'} the steal, then "
        return steal + self.action.value.upper()


@dataclass(frozen=True)
class Lead:
    """What :func:`table_advice` showed: the chance to win (`win`, or why there is none), `bank` (or why not;
    ``bank_done``: its answer is in, either way), `turn`, and the plan the headline recommends (None while it
    is worked out)."""

    turn: Advice
    win: Advice | None = None
    win_error: str | None = None
    bank: Advice | None = None
    bank_why_not: str | None = None
    bank_done: bool = False
    plan: Plan | None = None

    @property
    def points(self) -> Advice | None:
        """The points advice beside the chance to win: `bank`'s, or `turn`'s once `bank` is past its limit
        (None while `bank` is worked out)."""
        if self.bank is not None:
            return self.bank
        return self.turn if self.bank_done else None


#: What the word "estimate" next to the chance to win means, in a sentence (docs/MODELS.md has the rest).
ESTIMATE_NOTE = ("**Estimate:** this turn is worked out card by card; each way it can end is valued by a network "
                 "trained on games the solver played against itself (how far off it is: the [Strength](strength) "
                 "page). Exact in a game's "
                 "last cards (in a match, its last round's), as far as the time limit allows: 10 or fewer left with "
                 "two players, 8 with three, 7 with four or five.")
#: What "exact" next to it means.
EXACT_NOTE = ("**Exact:** every card left in the pile and every choice of every player searched, each playing to "
              "win, to the end of the game (R9, R11, R12).")


def tie(a: Fraction | float, b: Fraction | float) -> bool:
    """Whether two values are the same to the models' precision (:func:`solver.models.advice.beats`)."""
    return not beats(a, b) and not beats(b, a)


def win_plan(win: Advice, points: Advice | None) -> Plan | None:
    """`win`'s choices; where it values both sides of a choice the same (a game already decided either way,
    say), the points decide (None while they are still worked out)."""
    steal = None if win.steal is None else win.steal.action
    if win.steal is not None and tie(win.steal.take, win.steal.decline):
        if points is None:
            return None
        steal = points.steal.action if points.steal is not None else steal
    action = win.action
    if win.stop is not None and tie(win.stop, win.draw):
        if points is None:
            return None
        action = points.action
    return Plan(steal, action, "win")


def win_box(pos: Position, win: Advice, plan: Plan, who: str = "", voice: Voice = YOU) -> None:
    """The headline: the plan in large type, the chance to win of each choice open (take and decline, stop
    and draw), whether that is exact or an estimate, what the other choice costs, and the bust chance."""
    whose = voice.possessive[0].upper() + voice.possessive[1:]
    kind = "exact" if win.approximation is None else "an estimate"
    lines = [f"{whose} chance to win, **{kind}**:"]
    if win.steal is not None:
        take, decline, costs = chances_and_cost(win.steal.take, win.steal.decline, win.steal.cost)
        if tie(win.steal.take, win.steal.decline):
            lines.append(f"Take: {take}; decline: {decline}. Both win equally often, so the points decide.")
        else:
            other = "Declining" if plan.steal is Action.STEAL else "Taking"
            lines.append(f"Take: {take}; decline: {decline}. {other} costs {costs}.")
    if win.stop is None:
        lines.append(f"Draw: {_pct(win.draw)} (a turn starts with at least one card).")
    else:
        stop, draw, costs = chances_and_cost(win.stop, win.draw, win.mistake_cost)
        if tie(win.stop, win.draw):
            lines.append(f"Stop: {stop}; draw: {draw}. Stopping and drawing on win equally often, so the points "
                         f"decide.")
        else:
            other = "Drawing" if plan.action is Action.STOP else "Stopping"
            lines.append(f"Stop: {stop}; draw: {draw}. {other} costs {costs}.")
        lines.append(bust_line(pos, plan.steal, voice))
    st.success(f"### {who + ': ' if who else ''}{plan.words()}\n" + "  \n".join(lines))


def no_win_box(message: str, who: str = "") -> None:
    """The headline when `win` cannot answer (its weights file missing or damaged, say): its message, plainly,
    and no other model's numbers in its place."""
    head = f"{who}: chance to win not available" if who else "Chance to win not available"
    st.error(f"### {head}\n{plain(message, 1000)}  \nThe points models' advice on this page is in points: it is "
             f"not a chance to win.")


def points_line(label: str, unit: str, a: Advice) -> str:
    """A points model's advice in a line: ``"`bank` · points that reach your loot: **STOP** (stop 14.20,
    draw 13.10)"``."""
    numbers = []
    if a.steal is not None:
        numbers.append(f"take {fmt(a.steal.take)}, decline {fmt(a.steal.decline)}")
    numbers.append(f"draw {fmt(a.draw)}" if a.stop is None else f"stop {fmt(a.stop)}, draw {fmt(a.draw)}")
    return f"{label} · {unit}: **{Plan.of(a).words()}** ({'; '.join(numbers)})"


def points_part(pos: Position, turn: Advice, seconds: float, voice: Voice = YOU,
                key: str = "points") -> tuple[Advice | None, str | None] | None:
    """The points models beside the chance to win, each as what it is: `bank` (points that reach the loot,
    theft counted; or why it has no answer) and `turn` (points this turn), in a box keyed ``key``. Returns
    `bank`'s answer, None while it is worked out."""
    with st.container(border=True, key=key):
        st.markdown("**In points**")
        got = bank_answer(pos, seconds)
        unit = f"points that reach {voice.possessive} loot"
        lines = []
        if got is not None:
            bank, _ = got
            if bank is not None:
                lines.append(points_line("`bank`", unit, bank))
            else:
                lines.append(f"`bank` · {unit}: needs over {seconds:g} s here (theft not counted; a higher time "
                             f"limit in the sidebar waits longer)")
        lines.append(points_line("`turn`", "points this turn", turn))
        st.markdown("  \n".join(lines))
        if got is not None and got[0] is not None:
            st.caption(bank_note(pos))
    return got


#: A choice in the sentence saying why playing to win and playing for points differ.
CHOICE_WORDS = {Action.STEAL: "taking the steal", Action.DECLINE: "declining the steal", Action.STOP: "stopping",
                Action.DRAW: "drawing"}
#: The other choice, after "for": "drawing wins 18% against 12% for stopping".
FOR_OTHER = {Action.STEAL: "declining it", Action.DECLINE: "taking it", Action.STOP: "drawing",
             Action.DRAW: "stopping"}
#: The choice the points prefer, after "though".
PREFERRED = {Action.STEAL: "taking it", Action.DECLINE: "declining it", Action.STOP: "stopping", Action.DRAW: "drawing"}


def standing(pos: Position, voice: Voice = YOU) -> str:
    """Where the seat to play stands: its loot and line points against the best other seat's (the earlier
    rounds' points added in the rounds variant, R15).

    >>> standing(Position.from_dict({"players": [{"loot": [9], "line": [3]}, {"loot": [10, 10]}, {}], "active": 0}))
    'You trail the leader by 8'
    """
    def points(seat: int) -> int:
        p = pos.players[seat]
        earlier = pos.match.earlier[seat].points if pos.match is not None else 0
        return sum(p.loot) + sum(p.line) + earlier

    lead = points(pos.active) - max(points(s) for s in range(len(pos.players)) if s != pos.active)
    you = voice.subject == "you"
    who = "You" if you else voice.subject
    if lead > 0:
        return f"{who} {'lead' if you else 'leads'} by {lead}"
    if lead < 0:
        return f"{who} {'trail' if you else 'trails'} {'by' if len(pos.players) == 2 else 'the leader by'} {-lead}"
    return "The scores are level" if len(pos.players) == 2 else f"{who} {'are' if you else 'is'} level with the leader"


def to_win_sentence(pos: Position, win: Advice, plan: Plan, turn: Advice, bank: Advice | None,
                    voice: Voice = YOU) -> str | None:
    """One sentence when playing to win and playing for points choose differently (None when they agree):
    the standing, the cards left, each choice where they differ with its two chances to win, and which points
    the other choice scores ("You trail by 31 with 24 cards left: drawing wins 18.3% against 12.0% for
    stopping, though stopping scores more points this turn.")."""
    points = [("turn", turn)] + ([("bank", bank)] if bank is not None else [])
    parts: list[tuple[str, Action, frozenset[str]]] = []  # (clause, the points' choice, which points models)
    if win.steal is not None and plan.steal is not None and not tie(win.steal.take, win.steal.decline):
        against = frozenset(m for m, a in points if a.steal is not None and a.steal.action is not plan.steal)
        if against:
            good, bad = ((win.steal.take, win.steal.decline) if plan.steal is Action.STEAL
                         else (win.steal.decline, win.steal.take))
            other = Action.DECLINE if plan.steal is Action.STEAL else Action.STEAL
            parts.append((f"{CHOICE_WORDS[plan.steal]} wins {_apart(good, bad)} for {FOR_OTHER[plan.steal]}",
                          other, against))
    if win.stop is not None and not tie(win.stop, win.draw):
        against = frozenset(m for m, a in points if a.stop is not None and a.action is not plan.action)
        if against:
            good, bad = (win.stop, win.draw) if plan.action is Action.STOP else (win.draw, win.stop)
            other = Action.DRAW if plan.action is Action.STOP else Action.STOP
            then = "then " if parts else ""
            parts.append((f"{then}{CHOICE_WORDS[plan.action]} wins {_apart(good, bad)} for {FOR_OTHER[plan.action]}",
                          other, against))
    if not parts:
        return None

    def scores(choices: list[Action], models: frozenset[str]) -> str:
        what = PREFERRED[choices[0]] if len(choices) == 1 else " and ".join(CHOICE_WORDS[c] for c in choices)
        s = "" if len(choices) > 1 else "s"
        said = {frozenset({"turn"}): f"{what} score{s} more points this turn",
                frozenset({"bank"}): f"{what} keep{s} more points for {voice.possessive} loot"}
        return said.get(models, f"{what} score{s} more points, this turn and for {voice.possessive} loot")

    head = f"{standing(pos, voice)} with {counted(pos.pile_size(), 'card')} left: "
    if len({models for _, _, models in parts}) == 1:
        clauses = ", and ".join(clause for clause, _, _ in parts)
        return head + f"{clauses}, though {scores([c for _, c, _ in parts], parts[0][2])}."
    return head + "; and ".join(f"{clause}, though {scores([c], models)}" for clause, c, models in parts) + "."


#: The advisor shows the points models twice, one copy for each screen (only one is ever displayed): beside
#: the headline on a wide screen, under the card buttons on a phone or a tablet (where Streamlit stacks
#: columns, or the column beside is too narrow: its wrapped lines made the headline twice as tall, and the
#: buttons under it jumped as it grew), so the buttons stay in reach under the headline.
_ONE_COPY = """<style>
@media (max-width: 1279.98px) {
  [data-testid="stHorizontalBlock"]:has(.st-key-points_side) > [data-testid="stColumn"]:has(.st-key-points_side) {
    display: none; }
  [data-testid="stHorizontalBlock"]:has(.st-key-points_side) > [data-testid="stColumn"]:first-child {
    flex: 1 1 100%; width: 100%; max-width: 100%; }
}
@media (min-width: 1280px) { .st-key-points_under { display: none; } }
</style>"""


def table_advice(pos: Position, seconds: float, who: str = "", below: Any = None, voice: Voice = YOU,
                 beside: bool = False, reasons: bool = True) -> Lead:
    """The advice for the active seat of ``pos``, as every page leads with it: the chance to win of each
    choice open in large type (`win`: exact or an estimate, and it says which), the points models as what
    they are (`bank`, points that reach the loot; `turn`, points this turn), and one sentence when playing to
    win and playing for points choose differently (else, with ``reasons``, the points' reason). All but the
    headline go in ``below`` (a container) if given: the Live game page and the advisor put them under the
    card buttons, so that the buttons stay in reach on a phone. ``beside``: the points also in a column
    beside the headline, shown instead on a wide screen (the advisor). `win` unable to answer (its weights
    file missing, say) is said in its place, plainly, never filled with another model's numbers.

    ``who`` (markdown-safe) names the seat in the box's heading; ``voice`` the seat in the sentences
    (``Voice("Bob")`` when an opponent is to play: "Bob's chance to win", "Bob trails by 12")."""
    turn, _ = next_card_table(pos.to_json())
    side = None
    if beside:
        left, right = st.columns([3, 2], gap="medium")
        head, side = left.container(), right.container()
    else:
        head = st.container()
    rest = below if below is not None else st.container()
    sentence_slot, points_slot, reason_slot, note_slot = (rest.container(), rest.container(), rest.container(),
                                                          rest.container())
    box = head.container()  # the verdict, or the box saying it is being worked out
    with note_slot:  # (its waiting note below, with the rest: over the card buttons, it moved them a line)
        win_got: tuple[Advice | None, str | None] | None = answer(
            chance, pos.to_json(), seconds, weights_stamp(), waiting="Working out the chance to win…")
    if side is not None:
        with side:
            points_part(pos, turn, seconds, voice, key="points_side")
        st.html(_ONE_COPY)
    with points_slot:
        bank_got = points_part(pos, turn, seconds, voice, key="points_under" if side is not None else "points")
    bank, bank_why_not = bank_got if bank_got is not None else (None, None)
    lead = Lead(turn, bank=bank, bank_why_not=bank_why_not, bank_done=bank_got is not None)
    points = lead.points
    if win_got is None:
        with box:
            working(who, pos)
        return lead
    win, win_error = win_got
    if win is None:
        with box:
            no_win_box(win_error or "no answer", who)
        return replace(lead, win_error=win_error, plan=None if points is None else Plan.of(points))
    plan = win_plan(win, points)
    lead = replace(lead, win=win, plan=plan)
    with box:
        if plan is None:  # both choices win equally often, and the points that decide are still worked out
            working(who, pos)
            return lead
        win_box(pos, win, plan, who, voice)
    with note_slot:
        st.caption(EXACT_NOTE if win.approximation is None else ESTIMATE_NOTE)
    if points is None:
        return lead
    sentence = to_win_sentence(pos, win, plan, turn, bank, voice)
    if sentence:
        sentence_slot.info(sentence, icon=":material/emoji_events:")
    elif reasons:
        reason_slot.markdown(reason(pos, points, turn, bank, voice))
    return lead


def _pct(x: Fraction | float) -> str:
    return f"{float(x):.1%}"


def chances_and_cost(a: Fraction | float, b: Fraction | float, gap: Fraction | float) -> tuple[str, str, str]:
    """Two chances to win as a box shows them (to a tenth of a percent), and what the worse of them costs
    (``gap``, their difference) as the difference of the two shown, so that the box adds up: 21.2% and
    20.9% once came with a cost of 0.2 (21.16% and 20.94%). The cost shown is within 0.1 of ``gap``; under
    0.1 it is called a near tie (though the two may show 0.1 apart).

    >>> chances_and_cost(0.2116, 0.2094, 0.0022)
    ('21.2%', '20.9%', '0.3 percentage points')
    >>> chances_and_cost(0.21249, 0.21151, 0.00098)
    ('21.2%', '21.2%', 'under 0.1 percentage points: a near tie')
    """
    shown = _pct(a), _pct(b)
    if gap < 0.001:  # a tie, or a near tie: said as everywhere
        return (*shown, cost(gap, chances=True))
    return (*shown, f"{shown_apart(a, b):.1f} percentage points")


def shown_apart(a: Fraction | float, b: Fraction | float) -> float:
    """How far apart two chances to win show, in percentage points (at least 0.1: chances 0.1 apart or more
    show 0.1 apart or more): the cost :func:`chances_and_cost` shows when they are not a near tie.

    >>> shown_apart(0.2116, 0.2094), shown_apart(0.30049, 0.2905), shown_apart(0.2125, 0.2115)
    (0.3, 1.0, 0.1)
    """
    return max(round(abs(float(_pct(a)[:-1]) - float(_pct(b)[:-1])), 1), 0.1)


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
