"""Practice: play one seat of Hit! against bots of your choice; the app deals.

Each card comes from :meth:`solver.play.live.LiveGame.dealt` (the same card after
a reload or an undo). The bots (:func:`solver.play.policies.make`: `turn`, `bank`,
the printable rule `rule`, thresholds, `random`, …) play their turns at once,
and what they did is told in a sentence a turn ("Bob drew 7, 3, stopped with
10."). Table options as on the online table: beginner mode (R13: the exact
bust chance, as a fraction and a percentage), the timer (R14: a visible
countdown; when it runs out the steal on offer is taken and the turn ends, a
card first drawn if there was none) and rounds (R15: running totals, the
tie-breaks of R12 at the end). A hint on request is the advice for your seat,
as the Live game page shows it (your chance to win for each choice, the points
beside it); the coach (on unless the setup turns it off) weighs each choice
once you have made it, in chances to win as the review does; at the end, a
review of every decision.

The helpers above :func:`page` are plain functions the tests import; the page
itself is drawn only when Streamlit runs this file.
"""

from __future__ import annotations

import functools
import math
import random
import sqlite3
import time
from fractions import Fraction
from collections.abc import Sequence
from typing import Any, NamedTuple

import streamlit as st

from solver.game.core import busts
from solver.play.live import GameMovedOn, LiveGame
from solver.play.policies import Bot, make, share_endgame
from solver.game.record import RecordError, read_line, replay
from solver.game.rules import Action, Drew, Event, Game, IllegalActionError, Phase, TimedOut
from solver.play.store import GameStore, NoSuchGame, StoreError
from solver.models.advice import Advice, StealChoice
from solver.play.answers import chance, weights_stamp
from solver.play.review import AS_BEST, MADE, decision_made, won_after
from solver.play.simulate import position_of
from views.advice_view import (Plan, answer, budget_seconds, cards_of_value, chances_and_cost, fill_in,
                               shown_apart, table_advice, tie)
from views.game_view import (a_card, act, bust_banner, clean_names, final_part, forget, game_or_setup,
                             holders, last_card, log_part, mine_to_undo, open_store, review_part, show_notes,
                             table_part, tail_of, tap_args)
from views.live import ROUNDS, rounds_label
from views.safe_text import counted, plain
from views.taps import guard, whole
from views.strength import describe

HERE = "practice"
#: The bots on offer (any name :func:`solver.play.policies.make` reads would do).
BOTS = ["rule", "turn", "win", "bank", "threshold", "threshold:20", "threshold:30", "bust", "cards", "random"]
#: The bots a new table starts with, seat by seat after yours.
DEFAULT_BOTS = ["turn", "rule", "threshold", "bust"]
#: Seconds per decision unless the setup says otherwise (0: no timer).
TIMER = 30
MAX_TIMER = 600


#: What each bot does, short enough for a phone's picker (the Strength page has the long descriptions).
SHORT = {"rule": "the best simple rule", "turn": "best for this turn, no theft", "win": "plays for the chance to win",
         "bank": "counts theft, slow",
         "threshold": "stops at a line value", "bust": "stops at a bust chance", "cards": "draws a fixed number",
         "random": "plays at random"}


def bot_label(policy: str) -> str:
    """A bot in the setup's list, short enough not to be cut off on a phone.

    >>> bot_label("threshold:20"), bot_label("turn")
    ('threshold:20 — stops at 20 or more', 'turn — best for this turn, no theft')
    """
    name, _, arg = policy.partition(":")
    if name == "threshold" and arg:
        return f"{policy} — stops at {arg} or more"
    return f"{policy} — {SHORT.get(name) or describe(policy)}"


def seat_names(you_name: str, you: int, bots: dict[int, str], players: int) -> list[str]:
    """Every seat's name: yours, and each bot's policy (numbered when two seats play the same one).

    >>> seat_names("Ann", 1, {0: "turn", 2: "turn"}, 3)
    ['turn', 'Ann', 'turn 2']
    """
    names: list[str] = []
    for seat in range(players):
        if seat == you:
            names.append(you_name)
            continue
        base = name = bots[seat]
        k = 2
        while name.casefold() in {n.casefold() for n in names} or name.casefold() == you_name.casefold():
            name = f"{base} {k}"
            k += 1
        names.append(name)
    return names


def settings_of(live: LiveGame) -> tuple[int, dict[int, str], int, bool]:
    """Your seat, the bots by seat, the timer's seconds (0: none) and beginner mode, from the saved game."""
    s = live.saved.settings
    seats = len(live.names)
    mine = s.get("you")
    you = mine if isinstance(mine, int) and 0 <= mine < seats else 0
    bots = {int(k): str(v) for k, v in (s.get("bots") or {}).items() if str(k).isdigit() and int(k) != you}
    for seat in range(seats):
        if seat != you:
            bots.setdefault(seat, "turn")
    timer = s.get("timer")
    seconds = int(timer) if isinstance(timer, (int, float)) and 0 <= timer <= MAX_TIMER else 0
    return you, bots, seconds, bool(s.get("beginner", True))


def bots_play(live: LiveGame, you: int, bots: dict[int, str]) -> str | None:
    """Every bot turn until it is your turn or the game is over, played at once; why they stopped, if a
    bot could not play."""
    players: dict[str, Bot] = st.session_state.setdefault("practice_bots", {})
    for old in [k for k in players if not k.startswith(f"{live.gid}/")]:
        del players[old]  # an earlier game's bots, and their searches' memory
    for _ in range(5000):
        if live.over:
            for k in players:
                if k.startswith(f"{live.gid}/"):
                    players[k].new_game(0)  # the game is over: its searches' memory goes (an endgame's: ~100 MB)
            return None
        if live.game.active == you:
            return None
        seat = live.game.active
        key = f"{live.gid}/{seat}"
        try:
            bot = players.get(key)
            if bot is None:
                bot = players[key] = make(bots[seat])
                bot.new_game((live.replayed.seed or 0) + seat)
                share_endgame(players[k] for k in players if k.startswith(f"{live.gid}/"))  # one search a game
            action = bot(live.game)
            live.act(action, live.dealt() if action is Action.DRAW else None)
        except GameMovedOn:
            continue  # another tab played on: this copy is reloaded, carry on from there
        except (ValueError, IllegalActionError, sqlite3.Error) as e:
            return f"The bot in seat {seat + 1} ({bots[seat]}) cannot play: {e}"
    return "The bots played 5000 moves without reaching your turn; something is wrong with this game."


def deadline(gid: int, lines: int, seconds: int) -> float:
    """When your time for this decision runs out (R14): set the first time the decision is shown, and saved
    with the game's settings, so that a reload (or another tab) keeps counting down from where it was."""
    at = [gid, lines]
    held = st.session_state.get("practice_deadline")
    if not (isinstance(held, dict) and held.get("at") == at):
        live = st.session_state.get(f"{HERE}_game")
        mine = isinstance(live, LiveGame) and live.gid == gid
        saved = live.saved.settings.get("deadline") if isinstance(live, LiveGame) and mine else None
        if isinstance(saved, dict) and saved.get("at") == at and isinstance(saved.get("end"), (int, float)):
            held = {"at": at, "end": float(saved["end"])}
        else:
            held = {"at": at, "end": time.time() + seconds}
            _save_deadline(held)
        st.session_state["practice_deadline"] = held
    return float(held["end"])


def _save_deadline(held: dict[str, Any]) -> None:
    """Keep the decision's deadline with the saved game (a reload or another tab counts down from it)."""
    live = st.session_state.get(f"{HERE}_game")
    if isinstance(live, LiveGame) and [live.gid, len(live.rows)] == held["at"]:
        live.saved.settings["deadline"] = held
        try:
            live.store.set_settings(live.gid, live.saved.settings)
        except sqlite3.Error:
            pass  # the timer still runs in this tab; only a reload would restart it


def pause_timer(gid: int, lines: int, spent: float) -> None:
    """Give back the ``spent`` seconds a hint took to work out: the timer (R14) is for deciding, and a
    hint is outside the game."""
    held = st.session_state.get("practice_deadline")
    if isinstance(held, dict) and held.get("at") == [gid, lines] and spent > 0:
        held = {"at": [gid, lines], "end": float(held["end"]) + spent}
        st.session_state["practice_deadline"] = held
        _save_deadline(held)


@whole()
def time_up(live: LiveGame, you: int, seconds: int) -> bool:
    """R14 if your time for this decision has run out: a card is drawn for you if you had none, the steal on
    offer is taken and your turn ends. True if it did."""
    if seconds <= 0 or live.over or live.game.active != you or hint_pending(live.gid, len(live.rows)):
        return False
    if time.time() < deadline(live.gid, len(live.rows), seconds):
        return False
    act(HERE, live.gid, len(live.rows), "timeout")
    if not st.session_state.get(f"{HERE}_error"):
        st.session_state[f"{HERE}_note"] = ("Your time ran out (R14): a card was drawn for you if you had none, the "
                                            "steal on offer was taken and your turn ended.")
    return True


TOO_LATE = ("Too late: your time ran out before that tap (R14), so a card was drawn for you if you had none, the "
            "steal on offer was taken and your turn ended.")


def timed_out_at(live: LiveGame, lines: int, you: int) -> bool:
    """Whether the timer played your decision on the table of ``lines`` record lines (R14): the saved record's
    next line is your timer (played by this tab's countdown, or by another tab)."""
    try:
        rows = live.store.lines(live.gid)
    except (NoSuchGame, sqlite3.Error):
        return False
    if not 0 < lines < len(rows):
        return False
    try:
        e = read_line(rows[lines], lines + 1)
    except RecordError:
        return False
    return isinstance(e, TimedOut) and e.player == you


def move(gid: int, expected: int, action: str, you: int, timer: int, tail: str | None = None) -> None:
    """A tap's callback: your move, unless your time for this decision had already run out (then R14 plays
    instead, or has played already, and the tap is not applied: "Too late")."""
    live = st.session_state.get(f"{HERE}_game")
    if isinstance(live, LiveGame) and live.gid == gid and timed_out_at(live, expected, you):
        st.session_state[f"{HERE}_error"] = None  # the timer played this decision while the tap was on its way
        st.session_state[f"{HERE}_note"] = TOO_LATE
        live.reload()  # (the table as the timer left it: no "moved on" note over this one)
        return
    late = (isinstance(live, LiveGame) and live.gid == gid and len(live.rows) == expected and timer > 0
            and not live.over and live.game.active == you and time.time() >= deadline(gid, expected, timer))
    if isinstance(live, LiveGame) and late:
        time_up(live, you, timer)
        if not st.session_state.get(f"{HERE}_error"):
            st.session_state[f"{HERE}_note"] = TOO_LATE
        return
    act(HERE, gid, expected, action, tail=tail)


#: A choice that gives away this much of the chance to win or more (a percentage point) is a mistake: the coach
#: says so in a warning; less is said plainly (the review's bands are for a player's mean, docs/STRENGTH.md).
MISTAKE = 0.01


def coaching(live: LiveGame) -> bool:
    """Whether the coach weighs each of your choices once made (the setup's switch; on unless turned off)."""
    return live.saved.settings.get("coach", True) is not False


class Choice(NamedTuple):
    """A choice of yours as the coach weighs it: the position it was made in (its JSON), what was chosen, the
    line held, at a steal the card on offer and how many it would take; ``settled``: at the last card's steal
    (R9) the game ends with it, won or not, weighed as the review weighs it (no model asked); ``timed_out``:
    the timer (R14) played a decision of yours after it; ``last_turn``: the turn has passed since (another
    seat has played)."""

    line: int  # the record's line number
    position: str
    choice: Action
    held: tuple[int, ...]
    offer: int = 0
    stolen: int = 0
    settled: Advice | None = None
    timed_out: bool = False
    whose: str = ""  # at a steal: who holds the cards on offer (markdown-safe)
    last_turn: bool = False  # made in a turn that has passed


def last_choice(rows: list[str], you: int, names: Sequence[str] = ()) -> Choice | None:
    """Your last choice in the record (``rows``), as the review finds and weighs it: a steal taken or declined,
    a draw or a stop once a card is in front of you (not a turn's first card, R4, nor the timer's move, R14).
    None before your first, and at the last card's steal of a round with rounds still to come (R9, R15: the
    review does not weigh the rounds to come). Read from the record, so an undo, another tab or a reload
    leaves it right; worked out once for each record (:func:`_last_choice`). ``names``: the seats' names, to
    say whose cards a steal would take.

    >>> rows = ['{"record": "hit", "version": 1, "players": 2, "names": ["Ann", "Bob"]}',
    ...         '{"event": "round", "round": 1, "first": 0}', '{"event": "draw", "seat": 0, "value": 7}',
    ...         '{"event": "draw", "seat": 0, "value": 3}', '{"event": "stop", "seat": 0, "line": [7, 3]}']
    >>> c = last_choice(rows, 0)
    >>> c.line, c.choice, c.held, last_choice(rows[:4], 0).choice, last_choice(rows[:3], 0), last_choice(rows, 1)
    (5, <Action.STOP: 'stop'>, (7, 3), <Action.DRAW: 'draw'>, None, None)
    """
    return _last_choice(tuple(rows), you, tuple(names))


@functools.lru_cache(maxsize=16)
def _last_choice(rows: tuple[str, ...], you: int, names: tuple[str, ...]) -> Choice | None:
    found: Choice | None = None

    def seen(game: Game, event: Event, line: int, round_: int) -> None:
        nonlocal found
        if game.active != you:
            if found is not None and not found.last_turn:
                found = found._replace(last_turn=True)  # the turn has passed since
            return
        if isinstance(event, TimedOut):
            found = found._replace(timed_out=True) if found is not None else None
            return
        choice = decision_made(game, event)
        if choice is None:
            return  # a turn's first card: no choice (R4)
        offer = (game.offer or 0) if choice in (Action.STEAL, Action.DECLINE) else 0
        held, stolen = tuple(game.active_player.line), game.stealable(offer) if offer else 0
        whose = holders(game, names, offer) if offer and names else ""
        if game.pile:
            found = Choice(line, position_of(game).to_json(), choice, held, offer, stolen, whose=whose)
        elif game.match is not None and not game.match.last_round:
            found = None  # the last card of a round with rounds to come: weighed by neither
        else:  # the last card's steal (R9): the game ends with it, won or not
            steal = StealChoice(won_after(game, Action.STEAL), won_after(game, Action.DECLINE))
            found = Choice(line, "", choice, held, offer, stolen, whose=whose,
                           settled=Advice("win", game.pile_counts(), Fraction(0), steal, None, Fraction(0)))

    replay(rows, on_choice=seen, tidy_names=True)
    return found


def coach_words(win: Advice, c: Choice) -> tuple[str, bool]:
    """What the coach says of choice ``c``, weighed by `win` before it was made: the chance to win of each
    choice open, and what this one cost in percentage points, as the review weighs it
    (:func:`solver.play.review.review`: the best choice's chance minus this one's, with the same tie rules);
    and whether that makes it a mistake worth a warning: a cost shown of :data:`MISTAKE` or more (the cost
    shown is the difference of the chances shown, as in the advice's box).

    >>> a = Advice("win", {}, 0.0, None, 0.3, 0.25, exact=False, approximation="estimate")
    >>> coach_words(a, Choice(9, "", Action.DRAW, (3, 9)))
    ('Your last choice: you drew, holding 3 9. It cost **5.0 percentage points** of your chance to win: stop 30.0%, draw 25.0% (an estimate).', True)
    >>> coach_words(Advice("win", {}, 0.0, None, 0.3, 0.2912, exact=False, approximation="estimate"),
    ...             Choice(9, "", Action.DRAW, (3,)))
    ('Your last choice: you drew, holding 3. It cost **0.9 percentage points** of your chance to win: stop 30.0%, draw 29.1% (an estimate).', False)
    >>> coach_words(Advice("win", {}, 0.0, None, 0.30049, 0.2905, exact=False, approximation="estimate"),
    ...             Choice(9, "", Action.DRAW, (3,)))[1]
    True
    >>> coach_words(a, Choice(9, "", Action.STOP, (3, 9), timed_out=True, last_turn=True))[0]
    'Your last choice, last turn, before the timer played: you stopped, holding 3 9. It was the best: stop 30.0%, draw 25.0% (an estimate).'
    >>> coach_words(Advice("win", {}, 0.0, None, 0.3, 0.3), Choice(9, "", Action.DRAW, (3,)))[0]
    'Your last choice: you drew, holding 3. As good as stopping (both win as often): stop 30.0%, draw 30.0% (exact).'
    >>> coach_words(Advice("win", {}, 0.0, None, 0.3, 0.2996), Choice(9, "", Action.DRAW, (3,)))[0]
    'Your last choice: you drew, holding 3. A near tie with the best (under 0.1 percentage points): stop 30.0%, draw 30.0% (exact).'
    >>> coach_words(Advice("win", {}, 0.0, None, 0.0, 0.0), Choice(9, "", Action.DRAW, (3,)))[0]
    'Your last choice: you drew, holding 3. No choice could have won this game from there: stop 0.0%, draw 0.0% (exact).'
    >>> coach_words(Advice("win", {}, 0.0, StealChoice(0.41, 0.4), 0.41, 0.3), Choice(9, "", Action.DECLINE, (3, 5),
    ...             offer=5, stolen=2, whose="Bob"))[0]
    'Your last choice: you declined the steal (the two 5s of Bob), holding 3 5. It cost **1.0 percentage points** of your chance to win: take 41.0%, decline 40.0% (exact).'
    """
    steal = c.choice in (Action.STEAL, Action.DECLINE)
    if steal:
        assert win.steal is not None
        values: dict[Action, Fraction | float] = {Action.STEAL: win.steal.take, Action.DECLINE: win.steal.decline}
        best = win.steal.action
        what = cards_of_value(c.stolen, c.offer) + (f" of {c.whose}" if c.whose else "")
        made = f"{'took' if c.choice is Action.STEAL else 'declined'} the steal ({what})"
        shown = ("take", "decline")
    else:
        assert win.stop is not None  # (a choice to stop or draw: the line holds a card)
        values = {Action.STOP: win.stop, Action.DRAW: win.draw}
        best = win.action
        made = MADE[c.choice]
        shown = ("stop", "draw")
    gap = values[best] - values[c.choice]
    first, second = (Action.STEAL, Action.DECLINE) if steal else (Action.STOP, Action.DRAW)
    high, low = max(values[first], values[second]), min(values[first], values[second])
    a, b, costs = chances_and_cost(values[first], values[second], high - low)
    kind = "exact" if win.approximation is None else "an estimate"
    chances = f"{shown[0]} {a}, {shown[1]} {b} ({kind})"
    when = "".join(f", {x}" for x, on in (("last turn", c.last_turn), ("before the timer played", c.timed_out)) if on)
    head = f"Your last choice{when}: you {made}, holding {' '.join(map(str, c.held)) or 'nothing'}."
    if gap <= 0:
        if high == 0:
            verdict = "No choice could have won this game from there"
        elif low == 1:
            verdict = "Either choice won this game from there"
        elif tie(high, low):
            other = next(x for x in values if x is not c.choice)
            verdict = f"As good as {AS_BEST[other]} (both win as often)"
        else:
            verdict = "It was the best"
        return f"{head} {verdict}: {chances}.", False
    if gap < 0.001:
        return f"{head} A near tie with the best (under 0.1 percentage points): {chances}.", False
    return (f"{head} It cost **{costs}** of your chance to win: {chances}.",
            shown_apart(values[first], values[second]) >= 100 * MISTAKE)


def coach_part(live: LiveGame, you: int, seconds: float) -> None:
    """The coach: your last choice, weighed by `win` (the chance to win of each choice you had, and what yours
    cost), until your next one."""
    if not coaching(live):
        return
    last = last_choice(live.rows, you, live.names)
    if last is None:
        return
    win = last.settled
    if win is None:
        got = answer(chance, last.position, seconds, weights_stamp(), waiting="Weighing your last choice…")
        if got is None:
            return
        win, why_not = got
        if win is None:
            st.caption(f"Your last choice could not be weighed: {plain(why_not or 'no answer', 300)}")
            return
    text, costly = coach_words(win, last)
    (st.warning if costly else st.info)(text, icon=":material/school:")


@st.fragment(run_every=1.0)
def countdown(gid: int, lines: int, you: int, seconds: int) -> None:
    """The timer, redrawn every second without a tap; at zero it plays R14 and reruns the page."""
    live = st.session_state.get(f"{HERE}_game")
    if not isinstance(live, LiveGame) or live.gid != gid or len(live.rows) != lines:
        return
    left = deadline(gid, lines, seconds) - time.time()
    if hint_pending(gid, lines):  # the hint's seconds are given back once it is in: the timer waits for it
        st.progress(max(0.0, min(1.0, left / seconds)),
                    text=f"Timer: **{max(0, math.ceil(left))} s** left, paused while the hint is worked out")
        return
    if left <= 0 and time_up(live, you, seconds):
        st.rerun()
    st.progress(max(0.0, min(1.0, left / seconds)),
                text=f"Timer: **{max(0, math.ceil(left))} s** left to decide (then R14 plays for you)")


def bust_chances(live: LiveGame) -> str:
    """Beginner mode (R13): the chance the next card loses your turn, exactly and as a percentage; at a steal,
    also once the steal is taken (the stolen cards count toward R5's threshold)."""
    game = live.game
    if not game.pile:
        return "No card is left in the pile: this steal is the last decision of the game (R9)."
    p = game.bust_chance()
    pile = len(game.pile)
    text = f"Bust chance of the next card: **{p * pile}/{pile}** ({float(p):.1%})"
    if game.phase is Phase.STEAL and game.offer is not None and game.pile:
        line = game.active_player.line
        size = len(line) + game.stealable(game.offer)
        held = set(line)
        after = sum(1 for v in game.pile if busts(size, v in held))
        if after != p * len(game.pile):
            text += (f"; if you take the steal, **{after}/{len(game.pile)}** "
                     f"({after / len(game.pile):.1%})")
    return text + "."


def prompt(live: LiveGame, you: int) -> str:
    """What you have and what to decide, as a heading and a line (markdown)."""
    game = live.game
    line = game.players[you].line
    if game.phase is Phase.MUST_DRAW:
        return "#### Your turn\nDraw your first card."
    drawn = next((e.value for e in reversed(game.log) if isinstance(e, Drew) and e.player == you), None)
    head = f"#### You drew {a_card(drawn)}" if drawn is not None else "#### Your turn"
    cards = f"Your line: {' '.join(map(str, line))} ({counted(sum(line), 'point')})."
    if game.phase is Phase.STEAL and game.offer is not None:
        return (f"{head}\n{cards} {cards_of_value(game.stealable(game.offer), game.offer).capitalize()} of "
                f"{holders(game, live.names, game.offer)} on offer: take or decline.")
    return f"{head}\n{cards} Draw again or stop."


#: The buttons stay where they are from decision to decision on a phone, where the lines above them wrap: what
#: you hold and what to decide, and the bust chance (two lines at a steal, "if you take the steal, ..."), keep
#: the room of their usual longest (measured at 390 px: the heading and two lines, and two lines). They moved by
#: up to 51 pixels after a Take or a Decline.
_STEADY = """<style>
@media (max-width: 639.98px) {
  .st-key-practice_prompt { min-height: 110px; }
  .st-key-practice_bust { min-height: 52px; }
}
</style>"""


def decision(live: LiveGame, you: int, timer: int, beginner: bool, seconds: float) -> None:
    """Your decision: what you hold, the timer, the bust chance (beginner mode), the buttons, a hint."""
    game = live.game
    gid, n, tail = live.gid, len(live.rows), tail_of(live)
    st.html(_STEADY)
    with st.container(border=True, key="practice_you"):
        st.container(key="practice_prompt").markdown(prompt(live, you))
        if timer:
            countdown(gid, n, you, timer)
        if beginner:
            st.container(key="practice_bust").markdown(bust_chances(live))
    row = st.container(horizontal=True, gap="small")  # the buttons: drawn once the hint (if asked) is in
    advised = None
    if st.session_state.get("practice_hint_at") == [gid, n]:
        pos = live.position() if game.pile else None  # no position has an empty pile
        with st.container(key="verdict"):
            if game.phase is Phase.MUST_DRAW:  # nothing to weigh: no need to wait for `bank`
                st.success("### You: DRAW\nA turn starts with at least one card: turn one over.")
                advised = "practice_draw"
            elif pos is not None:
                plan = table_advice(pos, seconds, who="You").plan
                advised = None if plan is None else advised_button(plan, game.phase)
                st.session_state["practice_hint_pending"] = [gid, n] if plan is None else None
            else:  # the last card's steal (R9): nothing to weigh, taking only adds
                st.success(last_card(game, "You", "your"))
                advised = "practice_take"

    def kind(key: str) -> Any:  # only the hint highlights a button: a highlight unasked would be a hint
        return "primary" if key == advised else "secondary"


    with row:
        if game.phase is Phase.STEAL:
            offer = game.offer or 0
            st.button(f"Take {cards_of_value(game.stealable(offer), offer)}", key="practice_take",
                      type=kind("practice_take"), on_click=move, args=(gid, n, "steal", you, timer, tail))
            st.button("Decline", key="practice_decline", type=kind("practice_decline"), on_click=move,
                      args=(gid, n, "decline", you, timer, tail))
        else:
            st.button("Draw", key="practice_draw", type=kind("practice_draw"), on_click=move,
                      args=(gid, n, "deal", you, timer, tail))
            st.button("Stop", key="practice_stop", type=kind("practice_stop"), disabled=game.phase is not Phase.CHOOSE,
                      on_click=move, args=(gid, n, "stop", you, timer, tail))
        st.button("Hint", key="practice_hint", icon=":material/lightbulb:", on_click=ask_hint, args=(gid, n),
                  help="Your chance to win for each choice (`win`), the points beside it; the best "
                       "choice's button is highlighted")
        st.button("Undo", key="practice_undo", disabled=not mine_to_undo(live, you), on_click=act,
                  args=(HERE, gid, n, "undo", None, you, tail), help="Take back your last move (and the bots' since)")


def hint_pending(gid: int, lines: int) -> bool:
    """Whether the hint for this decision is still being worked out (the timer, R14, waits for it)."""
    return bool(st.session_state.get("practice_hint_pending") == [gid, lines])


def ask_hint(gid: int, lines: int) -> None:
    st.session_state["practice_hint_at"] = [gid, lines]


def advised_button(plan: Plan, phase: Phase) -> str:
    """The key of the button the hint's headline recommends at this decision."""
    if phase is Phase.STEAL and plan.steal is not None:
        return "practice_take" if plan.steal is Action.STEAL else "practice_decline"
    return "practice_stop" if phase is Phase.CHOOSE and plan.action is Action.STOP else "practice_draw"


def clear_errors() -> None:
    """An input changed: the setup's errors were about the inputs as they were."""
    st.session_state["practice_setup_errors"] = []


def setup(store: GameStore) -> None:
    """Players, your name and seat, the bots, who starts, rounds, the timer, beginner mode, the coach, the
    deal."""
    st.subheader("New practice game")
    st.caption("You play one seat, bots play the others, and the app deals. Every move is saved as it is made.")
    players = int(st.segmented_control("Players", [2, 3, 4, 5], default=3, key="practice_players") or 3)
    left, right = st.columns(2)
    you_name = left.text_input("Your name", value="You", key="practice_name", on_change=clear_errors)
    you = int(right.selectbox("Your seat", list(range(players)), format_func=lambda s: f"Seat {s + 1}",
                              key="practice_you") or 0)
    bots: dict[int, str] = {}
    others = [s for s in range(players) if s != you]
    # Row by row, two a row: a phone stacks each row's columns, so the seats read in order there too.
    for row in range(0, len(others), 2):
        cells = st.columns(2)
        for k, seat in enumerate(others[row:row + 2]):
            default = DEFAULT_BOTS[(row + k) % len(DEFAULT_BOTS)]
            bots[seat] = str(cells[k].selectbox(
                f"Seat {seat + 1}: bot", BOTS, index=BOTS.index(default), format_func=bot_label,
                key=f"practice_bot_{seat}", on_change=clear_errors) or default)
    a, b, c = st.columns(3)
    first = a.selectbox("Who starts", ["random", *range(players)],
                        format_func=lambda s: "chosen at random (R2)" if s == "random" else f"Seat {int(s) + 1}",
                        key="practice_first")
    rounds = int(b.selectbox("Rounds", ROUNDS, format_func=rounds_label, key="practice_rounds") or 1)
    timer = c.number_input("Seconds per decision (0: no timer)", min_value=0, max_value=MAX_TIMER, value=TIMER,
                           step=5, key="practice_timer",
                           help="R14: when the time runs out, a card is drawn for you if you had none, the steal "
                                "on offer is taken and your turn ends")
    beginner = st.toggle("Beginner mode: show the exact bust chance (R13)", value=True, key="practice_beginner")
    coach = st.toggle("Coach: after each of your choices, say what it cost in chance to win", value=True,
                      key="practice_coach_on",
                      help="Your chance to win with each choice you had (`win`), and what the one you made cost; "
                           "a hint before a choice says which is best")
    deal = st.text_input("Deal number (optional)", key="practice_deal", placeholder="random", on_change=clear_errors,
                         help="The same number deals the same cards to the same choices")
    if st.button("Start", key="practice_start", type="primary", icon=":material/play_arrow:"):
        names, problems = clean_names(seat_names(you_name, you, bots, players))
        deal = deal.strip()
        if deal and not (deal.isascii() and deal.isdigit() and len(deal) <= 9):
            problems.append(f"The deal number “{deal[:20]}” is not a whole number of at most 9 digits.")
        if problems:
            st.session_state["practice_setup_errors"] = problems
        else:
            st.session_state["practice_setup_errors"] = []
            seed = int(deal) if deal else random.randrange(10**9)
            start = random.randrange(players) if first == "random" else int(first or 0)
            settings: dict[str, Any] = {"you": you, "bots": {str(s): p for s, p in bots.items()},
                                        "timer": int(timer or 0), "beginner": bool(beginner),
                                        "coach": bool(coach)}
            title = f"Practice: {names[you]} against {', '.join(names[s] for s in others)}"
            try:
                live = LiveGame.start(store, title, "practice", names, start, rounds, seed=seed, settings=settings)
            except (ValueError, StoreError) as e:
                st.session_state["practice_setup_errors"] = [f"This game cannot start: {e}"]
            else:
                st.session_state[f"{HERE}_game"] = live
                st.query_params["game"] = str(live.gid)
                st.rerun()
    for problem in st.session_state.get("practice_setup_errors") or []:
        st.error(plain(problem))


def play(live: LiveGame, seconds: float) -> None:
    you, bots, timer, beginner = settings_of(live)
    st.caption(f"Game #{live.gid}: {plain(live.saved.name, 80)}")
    with st.spinner("The bots are playing…"):
        problem = bots_play(live, you, bots)
        if problem is None and time_up(live, you, timer):
            problem = bots_play(live, you, bots)
    if problem:
        st.error(plain(problem))
    if live.over:
        show_notes(HERE)
        bust_banner(live, HERE, you)
        final_part(live)
        with st.container(horizontal=True, gap="small"):
            if st.button("New game", key="practice_new", type="primary"):
                forget(HERE)
                st.rerun()
            st.button("Undo", key="practice_undo", disabled=not mine_to_undo(live, you), on_click=act,
                      args=tap_args(HERE, live, "undo", None, you),
                      help="Take back your last move (and the bots' since)")
        coach_part(live, you, seconds)
        log_part(live)
        review_part(live, HERE)
        return
    if problem is None:
        decision(live, you, timer, beginner, seconds)
    show_notes(HERE)  # why a tap was refused, or that the timer played: under the buttons, as the bust
    bust_banner(live, HERE, you)  # under the buttons: above them, it moved them down by 200 px on a phone
    coach_part(live, you, seconds)  # under the buttons: drawn a moment later, above them it would move them
    log_part(live, last=4)
    st.subheader("The table")
    table_part(live, you)
    with st.expander("Everything that happened"):
        log_part(live, last=10_000)
    if st.button("New game", key="practice_new", help="This game stays saved; open it again below"):
        forget(HERE)
        st.rerun()


def page() -> None:
    st.set_page_config(page_title="Hit! practice", page_icon="🃏", layout="wide")
    seconds = budget_seconds()
    st.title("Practice")
    store = open_store()
    if store is None:
        return
    game_or_setup(store, HERE, seconds, play, setup)
    guard(hold=False)  # a decision is taken on the table on screen: a tap made before it is redrawn is refused
    fill_in(hint_waited)  # a hint still being worked out, once the table is on screen


def hint_waited(seconds: float) -> None:
    """A hint took ``seconds`` to work out: the timer (R14) gives them back."""
    live = st.session_state.get(f"{HERE}_game")
    at = st.session_state.get("practice_hint_at")
    if isinstance(live, LiveGame) and at == [live.gid, len(live.rows)]:
        _, _, timer, _ = settings_of(live)
        if timer:
            pause_timer(live.gid, len(live.rows), seconds)


if __name__ == "__main__":  # Streamlit runs the page as __main__; the tests import its helpers
    page()
