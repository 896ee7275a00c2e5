"""What the Live game and Practice pages share: the game in the link, every tap, the table, what happened,
the standings, the review and the saved games.

A game on screen is a :class:`solver.play.live.LiveGame` kept in the session
(``live_game`` or ``practice_game``) and named in the link (``?game=12``),
so a reload, a closed tab or a restarted server resumes it. Every tap is a
widget callback that carries the number of record lines the page showed: a
tap made on a table that has changed since (another tab, the timer, a page
not yet redrawn) is refused with a message, never applied to a table the
player did not see. Names people typed go through :func:`plain` wherever
markdown is drawn.

The helpers above :func:`act` are plain functions the tests and doctests call.
"""

from __future__ import annotations

import hashlib
import math
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from solver.game.cards import DECK_COPIES, VALUES
from solver.play.live import GameMovedOn, LiveGame
from solver.models import MODELS as REGISTRY
from solver.game.record import GameEnd, RecordError, RoundStart, read_line, replay, seat_of
from solver.models.win import EXACT_SECONDS
from solver.play.review import CHANCE_MODELS, Review, decision_made, review
from solver.game.rules import (Busted, Collected, Declined, Drew, Ended, Event, Game, IllegalActionError, Match, Phase,
                               Player, Stole, Stopped, TimedOut)
from solver.play.store import MAX_NAME as MAX_GAME_NAME
from solver.play.store import GameStore, NoSuchGame, SavedGame, StoreError, data_dir
from views import nav
from views.advice_view import cards_of_value, on_screen
from views.safe_text import counted, plain
import views.taps
from views.taps import repeated
from views.strength import BANK_SECONDS, MODELS, REVIEW_DEFAULT, problem, record_text, show_review

#: The longest name a seat may have (it shows in tables and headings on a phone).
MAX_NAME = 24
#: The page a saved game opens on, by its kind.
PAGE_OF = {"live": "live", "imported": "live", "practice": "practice"}
KIND_WORDS = {"live": "live", "imported": "imported", "practice": "practice"}
MOVED_ON = "This game moved on in another tab; showing its latest state."
#: A tap refused because another tab had moved the game on.
TAP_MOVED_ON = ("This game moved on in another tab, so that tap was not applied; showing its latest state: check it "
                "and tap again.")


# -- plain helpers ------------------------------------------------------------------------------------------
def clean_names(typed: Sequence[str]) -> tuple[list[str], list[str]]:
    """Names as typed, spaces tidied, and what is wrong with them (empty, too long, the same twice).

    >>> clean_names(["  Ann ", "Bob"])
    (['Ann', 'Bob'], [])
    >>> clean_names(["", "ann", "Ann", "x" * 30])[1]  # doctest: +NORMALIZE_WHITESPACE
    ['Seat 1 has no name: type one.', 'Seats 2 and 3 are both called “Ann”: give each seat its own name.',
     'The name of seat 4 is 30 characters long; 24 at most.']
    """
    names = [" ".join(str(n).split()) for n in typed]
    problems: list[str] = []
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if not name:
            problems.append(f"Seat {seat + 1} has no name: type one.")
        elif not name.isprintable():
            problems.append(f"The name of seat {seat + 1} holds characters that cannot be shown.")
        elif not any(c.isalnum() for c in name):
            problems.append(f"The name of seat {seat + 1} has no letter or digit: type a name a player can read.")
        elif name.casefold() in seen:
            problems.append(f"Seats {seen[name.casefold()] + 1} and {seat + 1} are both called “{name}”: give each "
                            f"seat its own name.")
        seen.setdefault(name.casefold(), seat)
    for seat, name in enumerate(names):
        if len(name) > MAX_NAME:
            problems.append(f"The name of seat {seat + 1} is {len(name)} characters long; {MAX_NAME} at most.")
    return names, problems


def who(names: Sequence[str], seat: int) -> str:
    """A seat by name and number, markdown-safe (just the number when that is its name).

    >>> who(["**x**", "Seat 2"], 0), who(["**x**", "Seat 2"], 1)
    ('\\\\*\\\\*x\\\\*\\\\* (seat 1)', 'Seat 2')
    """
    if names[seat] == f"Seat {seat + 1}":
        return f"Seat {seat + 1}"
    return f"{plain(names[seat], 40)} (seat {seat + 1})"


def a_card(value: int) -> str:
    """A card with its article.

    >>> a_card(7), a_card(8)
    ('a 7', 'an 8')
    """
    return f"an {value}" if value == 8 else f"a {value}"


def holders(game: Game, names: Sequence[str], value: int) -> str:
    """Who holds face-up cards of ``value`` that the seat to play may steal (markdown-safe)."""
    return " and ".join(plain(names[s], 40) for s, p in enumerate(game.players) if s != game.active and value in p.line)


def line_text(cards: Sequence[int]) -> str:
    """A line of cards, with its points when it has more than one.

    >>> line_text([7]), line_text([7, 3]), line_text([])
    ('7', '7 3 (10)', '—')
    """
    return " ".join(map(str, cards)) + (f" ({sum(cards)})" if len(cards) > 1 else "") if cards else "—"


def happenings(rows: Sequence[str], names: Sequence[str]) -> list[str]:
    """What happened, oldest first: a sentence per turn (a turn still going ends in "…"), and the starts
    and ends of rounds; names made markdown-safe.

    >>> rows = ['{"record": "hit"}', '{"event": "round", "round": 1, "first": 1}',
    ...         '{"event": "draw", "seat": 1, "value": 7}', '{"event": "draw", "seat": 1, "value": 3}',
    ...         '{"event": "stop", "seat": 1, "line": [7, 3]}', '{"event": "draw", "seat": 0, "value": 3}',
    ...         '{"event": "steal", "seat": 0, "value": 3, "taken": 1, "from": [[1, 1]]}']
    >>> happenings(rows, ["Ann", "Bob"])
    ['Round 1: Bob starts.', 'Bob drew 7, 3, stopped with 10.', 'Ann drew 3, took the 3 from Bob …']
    """
    out: list[str] = []
    seat: int | None = None
    parts: list[str] = []
    draws: list[int] = []

    def name(s: Any) -> str:
        return plain(names[s], 40) if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"

    def drawn() -> None:
        if draws:
            parts.append("drew " + ", ".join(map(str, draws)))
            draws.clear()

    def flush(done: bool = True) -> None:
        nonlocal seat
        drawn()
        if seat is not None and parts:
            out.append(f"{name(seat)} {', '.join(parts)}{'.' if done else ' …'}")
        seat = None
        parts.clear()

    for number, row in enumerate(rows[1:], start=2):
        try:
            e = read_line(row, number)
        except RecordError:
            continue
        if isinstance(e, RoundStart):
            flush()
            if e.joined_active is not None:
                out.append(f"Round {e.round}: joined under way, {name(e.joined_active)} to play.")
            else:
                first = name(e.first)
                out.append(f"Round {e.round}: {first} {'start' if first.casefold() == 'you' else 'starts'}.")
            continue
        if isinstance(e, Ended):
            flush()
            out.append("Round over: " + ", ".join(f"{name(s)} {score}" for s, score in enumerate(e.scores)) + ".")
            continue
        if isinstance(e, GameEnd):
            flush()
            out.append(f"Game over: {name(e.winner)} wins.")
            continue
        if isinstance(e, Collected):
            continue  # the turn's start (R3) or the round's end (R9): the loots show it
        if e.player != seat:
            flush()
            seat = e.player
        if isinstance(e, Drew):
            draws.append(e.value)
            continue
        drawn()
        if isinstance(e, Stole):
            sources = " and ".join(name(s) for s, _ in e.sources)
            parts.append(f"took {cards_of_value(e.taken, e.value)} from {sources}")
        elif isinstance(e, Declined):
            parts.append(f"declined the steal on the {e.value}")  # (the record does not say how many were on offer)
        elif isinstance(e, TimedOut):
            parts.append("ran out of time")
        elif isinstance(e, Busted):
            parts.append(f"busted on the {e.value} (lost {' '.join(map(str, e.lost))} and the {e.value})")
            flush()
        elif isinstance(e, Stopped):
            parts.append(f"stopped with {sum(e.line)}")
            flush()
    flush(done=False)
    return out


def winner_sentence(totals: Sequence[Player], ranking: Sequence[int], names: Sequence[str]) -> str:
    """Who wins and, on a tie, which tie-break of R12 decided it (markdown-safe).

    >>> winner_sentence([Player(loot=[5, 5]), Player(loot=[10])], [0, 1], ["Ann", "Bob"])
    '**Ann** wins: Ann and Bob both have 10 points, and the tie goes to more loot cards (2 against 1, R12).'
    """
    first, second = ranking[0], ranking[1]
    a, b = totals[first], totals[second]
    w, r = plain(names[first], 40), plain(names[second], 40)
    if a.score != b.score:
        return f"**{w}** wins with {a.score} points ({r} next with {b.score})."
    tied = f"{w} and {r} both have {a.score} points"
    if len(a.loot) != len(b.loot):
        return f"**{w}** wins: {tied}, and the tie goes to more loot cards ({len(a.loot)} against {len(b.loot)}, R12)."
    if a.lost_turns != b.lost_turns:
        return (f"**{w}** wins: {tied} and {len(a.loot)} loot cards, and the tie goes to fewer lost turns "
                f"({a.lost_turns} against {b.lost_turns}, R12).")
    return (f"**{w}** wins: {tied}, {len(a.loot)} loot cards and {a.lost_turns} lost turns, and the tie goes to "
            f"the lower seat (seat {first + 1}, R12).")


def standings(match: Match, names: Sequence[str]) -> pd.DataFrame:
    """Place, seat, name (markdown-safe), score, loot cards and lost turns, by R11 and R12; each round's
    scores too in the rounds variant (R15)."""
    totals = match.totals()
    rows = []
    for place, seat in enumerate(match.ranking(), start=1):
        row: dict[str, Any] = {"place": place, "seat": seat + 1, "name": plain(names[seat], 40)}
        if match.rounds > 1:
            for k, game in enumerate(match.games, start=1):
                row[f"round {k}"] = game.players[seat].score
        row |= {"score": totals[seat].score, "loot cards": len(totals[seat].loot),
                "lost turns": totals[seat].lost_turns}
        rows.append(row)
    return pd.DataFrame(rows)


def seats_table(game: Game, names: Sequence[str], you: int | None) -> pd.DataFrame:
    """The table as it stands: each seat's line, loot and lost turns (▶ the seat to play)."""
    rows = []
    for seat, p in enumerate(game.players):
        rows.append({"seat": f"{seat + 1}{' ▶' if seat == game.active and not game.is_over else ''}",
                     "name": plain(names[seat], 40) + (" (you)" if seat == you and names[seat].strip().lower()
                                                       != "you" else ""),  # (Practice names your seat You)
                     "line": line_text(p.line), "loot": f"{p.score} ({counted(len(p.loot), 'card')})",
                     "lost turns": str(p.lost_turns)})
    return pd.DataFrame(rows)


def pile_text(game: Game) -> str:
    pile = game.pile_counts()
    return f"Pile: {counted(sum(pile), 'card')} — " + ", ".join(f"{n}×{v}" for v, n in zip(VALUES, pile) if n)


def last_card(game: Game, who: str, whose: str | None = None) -> str:
    """The advice at the steal the pile's last card offers (R9), in the verdict box's markdown (``who``:
    markdown-safe; ``whose`` loot, ``who``'s unless told): there is nothing to weigh, the steal only adds to
    a line about to be banked, so take it. (No position, and so no model, has an empty pile.)"""
    offer = game.offer or 0
    gain = offer * game.stealable(offer)
    loot = f"{whose} loot" if whose else f"{who}'s loot"
    return (f"### {who}: TAKE the steal\nThat was the last card of the pile: once this steal is decided the game "
            f"ends and every line goes to its loot (R9), so taking {cards_of_value(game.stealable(offer), offer)} "
            f"adds {counted(gain, 'point')} to {loot} and costs nothing.")


def refusal(live: LiveGame, action: str, value: int | None) -> str | None:
    """Why the page will not take this tap now, in a player's words (markdown-safe); None if it may."""
    if action == "undo":
        return None if live.can_undo() else "Nothing to undo: this is where the game started."
    if live.over:
        return "The game is over: nothing more can be recorded (Undo takes back the last move)."
    game = live.game
    name = plain(live.names[game.active], 40)
    if game.phase is Phase.STEAL and action in ("draw", "deal", "stop"):
        return (f"First take or decline the {game.offer}s on offer: {name} decides the steal before drawing again "
                f"or stopping (R8).")
    if action in ("steal", "decline") and game.phase is not Phase.STEAL:
        return "No steal is on offer now."
    if action == "stop" and game.phase is Phase.MUST_DRAW:
        return (f"{name} has not turned over a card yet: a turn starts with at least one card (R4). "
                f"Tap the card {name} turns over.")
    if action == "draw" and value is not None and value not in game.pile:
        left = ", ".join(str(v) for v, n in zip(VALUES, game.pile_counts()) if n)
        return (f"No {value} is left in the pile: all {DECK_COPIES[value - 1]} are in the lines, loots or discard. "
                f"Values left: {left}.")
    return None


# -- the game on screen -------------------------------------------------------------------------------------
def open_store() -> GameStore | None:
    """The saved games (``HIT_DATA_DIR`` or the user's data folder); a message naming the file and what to do
    if it cannot be used (a damaged or emptied file: a button sets it aside, kept, so a new file can start;
    never a silent fresh start over a file that held games). A read-only file opens for reading, and says so."""
    try:
        store = GameStore()
    except StoreError as e:
        st.error(plain(e, 800))
        if e.damaged and st.button(f"Set {e.path.name} aside and start a new file", key="store_set_aside",
                                   icon=":material/move_item:",
                                   help="The damaged file is renamed, not deleted: it stays beside the new one"):
            try:
                kept = GameStore.set_aside(e.path)
            except OSError as moved:
                st.error(f"{plain(e.path)} could not be set aside ({plain(moved, 200)}).")
            else:
                st.session_state["store_note"] = (f"The damaged file was kept as {kept.name} in {kept.parent}; "
                                                  f"a new file of saved games starts now.")
                st.rerun()
        return None
    except (OSError, sqlite3.Error) as e:
        st.error(f"The saved games cannot be opened in {plain(data_dir())} ({plain(e, 200)}). Set HIT_DATA_DIR "
                 f"to a folder this app may write to.")
        return None
    note = st.session_state.pop("store_note", None)
    if note:
        st.info(plain(note, 400))
    if store.read_only:
        st.warning(f"{plain(store.path)} is read-only: its games can be opened, reviewed and downloaded, but no tap "
                   f"can be saved. To play on, copy it somewhere writable and set HIT_DATA_DIR to that folder.")
    return store


def _note(here: str, text: str | None, kind: str = "note") -> None:
    st.session_state[f"{here}_{kind}"] = text


def show_notes(here: str) -> None:
    """The message the last tap left: the game moved on elsewhere, or why a tap was refused."""
    if st.session_state.get(f"{here}_note"):
        st.info(st.session_state[f"{here}_note"])
    if st.session_state.get(f"{here}_error"):
        st.warning(st.session_state[f"{here}_error"])


def forget(here: str) -> None:
    """No game on this page any more (a new game, or the one shown was deleted)."""
    st.session_state.pop(f"{here}_game", None)
    if "game" in st.query_params:
        del st.query_params["game"]


def load_game(store: GameStore, here: str) -> LiveGame | None:
    """The game this page shows: the one the link names (``?game=12``), else the one this session had open
    here; reloaded when another tab moved it on. A bad or deleted game is a message, and the setup shows."""
    key = f"{here}_game"
    live = st.session_state.get(key)
    text = st.query_params.get("game")
    if text is None:
        if not isinstance(live, LiveGame):
            return None
        gid = live.gid
    else:
        if not (text.isascii() and text.isdigit() and len(text) <= 9):
            st.error(f"The link names game “{plain(text, 20)}”, which is not a game number: start a new game or "
                     f"open a saved one below.")
            forget(here)
            return None
        gid = int(text)
    try:
        if not isinstance(live, LiveGame) or live.gid != gid:
            live = LiveGame(store, gid)
            _note(here, None)
            _note(here, None, "error")
        elif store.lines(gid) != live.rows:
            live.reload()
            _note(here, MOVED_ON)
            _note(here, None, "error")
    except NoSuchGame:
        st.error(f"There is no saved game {gid}: it was deleted (perhaps in another tab). Start a new game or open "
                 f"a saved one below.")
        forget(here)
        return None
    except RecordError as e:
        st.error(f"{plain(e, 600)}. The other saved games are not affected; this one can still be downloaded "
                 f"below.")
        forget(here)
        return None
    except StoreError as e:
        st.error(plain(e, 800))
        forget(here)
        return None
    target = PAGE_OF.get(live.saved.kind, "live")
    if target != here:
        st.warning(f"Game {gid} is a {KIND_WORDS.get(live.saved.kind, 'saved')} game: it opens on the "
                   f"{nav.TITLES[target]} page.")
        if st.button(f"Open game {gid} on the {nav.TITLES[target]} page", key=f"{here}_elsewhere"):
            st.session_state.pop(f"{target}_game", None)
            nav.go(target, {"game": str(gid)})
        st.session_state.pop(key, None)
        return None
    try:
        live.saved = store.game(gid)  # a rename shows at once
    except NoSuchGame:
        pass
    st.session_state[key] = live
    st.query_params["game"] = str(gid)
    return live


def tail_of(live: LiveGame) -> str:
    """What a tap carries of the table it was made on besides its game and length: a digest of the game's
    last record line (an undo and a different card in another tab leave the same length, not the same line)."""
    return _digest(live.rows[-1])


def _digest(row: str) -> str:
    return hashlib.blake2b(row.encode(), digest_size=8).hexdigest()


def tap_args(here: str, live: LiveGame, action: str, value: int | None = None,
             you: int | None = None) -> tuple[Any, ...]:
    """The arguments of a tap's callback (:func:`act`): the page, the game, the record it was drawn from,
    the action."""
    return here, live.gid, len(live.rows), action, value, you, tail_of(live)


def act(here: str, gid: int, expected: int, action: str, value: int | None = None, you: int | None = None,
        tail: str | None = None) -> None:
    """A tap's callback: apply ``action`` to game ``gid`` as this page showed it, with ``expected`` record
    lines ending in a line whose digest is ``tail`` (:func:`tap_args`).

    ``"deal"`` draws the card the app deals (practice); ``"timeout"`` is R14; ``"undo"`` takes back the
    last choice (with ``you``: every choice back to and including your own last one). A tap repeating the
    last one within :data:`views.taps.DOUBLE_TAP` seconds counts once; a tap for another game, or for a table that
    has changed since it was drawn, is refused with a message; a card that busts the seat to play leaves
    a banner with Undo beside it."""
    if repeated(here, (gid, action, value)) or st.session_state.get(f"{here}_applied") == \
            (gid, expected, tail, action, value):
        return  # a double tap: the same tap, or the same tap again on the table it was made on
    live = st.session_state.get(f"{here}_game")
    _note(here, None)
    _note(here, None, "error")
    if not isinstance(live, LiveGame) or live.gid != gid:
        _note(here, f"That tap was made on game #{gid}, which is no longer the game on this page, so it was not "
                    f"applied: check the table and tap again.", "error")
        return
    if len(live.rows) != expected or (tail is not None and tail_of(live) != tail):
        _note(here, "The table changed before that tap was taken (another tab, the timer, or a tap on a page not yet "
                    "redrawn), so it was not applied: check the table and tap again.", "error")
        return
    problem = refusal(live, action, value) or too_quick(here, live, action)
    if problem:
        _note(here, problem, "error")
        return
    seat, phase = live.game.active, live.game.phase
    try:
        if action == "undo":
            undo(live, you)
            events: tuple[Event, ...] = ()
        elif action == "deal":
            events = live.act("draw", live.dealt())
        elif action == "timeout":
            events = live.timeout(live.dealt() if live.game.phase is Phase.MUST_DRAW else None)
        else:
            events = live.act(action, value)
    except GameMovedOn:
        _note(here, TAP_MOVED_ON)
        return
    except NoSuchGame:
        _note(here, f"Game #{gid} was deleted (perhaps in another tab), so that tap was not saved.", "error")
        forget_game(here, gid)
        return
    except IllegalActionError as e:
        _note(here, plain(on_screen(str(e))), "error")
        return
    except (sqlite3.Error, StoreError) as e:  # a full disk, a folder gone: the tap did not count, and the page says so
        _note(here, f"That tap could not be saved ({plain(e, 300)}), so it did not count.", "error")
        return
    st.session_state[f"{here}_applied"] = (gid, expected, tail, action, value)
    st.session_state[f"{here}_applied_at"] = (time.monotonic(), phase)
    bust = next((e for e in events if isinstance(e, Busted)), None)
    n = len(live.rows)
    st.session_state[f"{here}_bust"] = None if bust is None else (gid, n, _digest(live.rows[n - 1]),
                                                                    bust_sentence(live, bust, seat))


def too_quick(here: str, live: LiveGame, action: str) -> str | None:
    """Why a tap is refused that came within :data:`views.taps.DOUBLE_TAP` seconds of the last one, on buttons
    that had changed since (a steal came on offer, or went): the second tap of a double tap landing on the
    button drawn where the first one was (Take where Draw was, Stop where Take was). None if it may count.

    A card tap on the Live game (``draw``) always counts: Take and Decline come and go in the row under the
    card buttons, never in their place, and a finger's second tap on the spot of the first, whatever button
    is there by then, is dropped in the browser (:func:`views.taps.guard`). So the next card, tapped at once
    after Take, is recorded, not refused as a double tap."""
    held = st.session_state.get(f"{here}_applied_at")
    if not isinstance(held, tuple) or action in ("undo", "draw"):
        return None
    at, phase = held
    now = live.game.phase
    if time.monotonic() - at >= views.taps.DOUBLE_TAP or now is phase or Phase.STEAL not in (now, phase):
        return None
    return (f"That tap came {time.monotonic() - at:.1f} s after the last one, on buttons that had just changed, so it "
            f"was not taken (a double tap?). Check the table and tap again if you meant it.")


def bust_sentence(live: LiveGame, bust: Busted, seat: int) -> str:
    """The banner a busting card leaves (markdown-safe).

    >>> from solver.game.rules import Busted as B
    >>> class L: names = ["Ann", "Bob"]
    >>> bust_sentence(L(), B(1, 5, (3, 5, 7)), 1)  # type: ignore[arg-type]
    'Bob busted on the 5: the turn is lost, and 3 5 7 and the 5 go to the discard (R5, R6).'
    """
    return (f"{plain(live.names[seat], 40)} busted on the {bust.value}: the turn is lost, and "
            f"{' '.join(map(str, bust.lost)) or 'the line'} and the {bust.value} go to the discard (R5, R6).")


def bust_banner(live: LiveGame, here: str, you: int | None = None) -> None:
    """The bust the last tap caused, with Undo beside it (a mistyped card is one tap from being taken back),
    while that tap is still in the record (the bots' turns after it, in practice, leave it there)."""
    held = st.session_state.get(f"{here}_bust")
    if not (isinstance(held, tuple) and held[0] == live.gid and len(live.rows) >= held[1]
            and _digest(live.rows[held[1] - 1]) == held[2]):
        return
    with st.container(key=f"{here}_bust_banner"):  # columns: the button beside the banner on a laptop
        banner, undo_cell = st.columns([6, 1], vertical_alignment="center")
        again = (" Wrong card? Undo takes it back." if you is None else  # practice: the app dealt it
                 " Undo takes your draw back (drawing again deals the same card).")
        banner.error(held[3] + again, icon=":material/warning:")
        undo_cell.button("Undo", key=f"{here}_bust_undo", icon=":material/undo:", type="primary", width="stretch",
                         on_click=act, args=tap_args(here, live, "undo", None, you))


def forget_game(here: str, gid: int) -> None:
    """Game ``gid`` is gone: this page no longer shows it (the message says why)."""
    live = st.session_state.get(f"{here}_game")
    if isinstance(live, LiveGame) and live.gid == gid:
        st.session_state.pop(f"{here}_game", None)


def undo(live: LiveGame, you: int | None = None) -> None:
    """Take back the last choice; with ``you``, every choice back to and including your own last one."""
    while live.can_undo():
        last = seat_of(read_line(live.rows[live.choices[-1] - 1], live.choices[-1]))
        live.undo()
        if you is None or last == you:
            return


def mine_to_undo(live: LiveGame, you: int) -> bool:
    """Whether seat ``you`` has a choice to take back."""
    return any(seat_of(read_line(live.rows[line - 1], line)) == you for line in live.choices)


# -- parts of the page ---------------------------------------------------------------------------------------
def table_part(live: LiveGame, you: int | None) -> None:
    """The seats, the discard and the pile; each round's scores in the rounds variant."""
    game = live.game
    st.table(seats_table(game, live.names, you), hide_index=True)
    st.caption(f"{pile_text(game)}. Discard: {counted(len(game.discard), 'card')}. Saved after every tap: "
               f"{len(live.rows)} record lines.")
    match = live.replayed.match
    if match.rounds > 1:
        st.markdown(f"**Round {live.round} of {match.rounds}** (R15: the scores add up; the first seat moves one "
                    f"on each round)")
        st.table(standings(match, live.names), hide_index=True)


def log_part(live: LiveGame, last: int = 8) -> None:
    """What happened lately, newest last."""
    told = happenings(live.rows, live.names)
    if told:
        st.markdown("  \n".join(told[-last:]))


def final_part(live: LiveGame) -> None:
    """The game is over: the winner (R11, R12), the standings, and a review of every decision."""
    match = live.replayed.match
    st.success(f"### Game over\n{winner_sentence(match.totals(), match.ranking(), live.names)}")
    st.table(standings(match, live.names), hide_index=True)
    st.caption("Places by R11 and R12: the highest score; on a tie the most loot cards, then the fewest lost turns, "
               "then the lower seat" + (" (all rounds added up, R15)." if match.rounds > 1 else "."))


@st.cache_resource(max_entries=16, show_spinner=False)
def _review_slot(text: str, model: str) -> dict[str, Review]:
    """Where the review of a record by a model is kept, for every session: nothing is drawn in here, so a
    later session has nothing to replay (a progress bar drawn inside a cached function could not be)."""
    return {}


def reviewed(text: str, model: str, progress: Callable[[int], None] | None = None) -> Review:
    """The review of a game record by ``model``: worked out once (``progress`` told of each decision), then
    remembered for every session. (The review is shared: nothing may change it.)"""
    slot = _review_slot(text, model)
    if "review" not in slot:
        slot["review"] = review(text, model, BANK_SECONDS, progress)
    return slot["review"]


def decisions_in(text: str) -> int:
    """How many decisions a review of this record weighs (as :func:`solver.play.review.review` counts them: a steal
    taken or declined, a draw or a stop once a card is in front of the player)."""
    count = 0

    def seen(game: Game, event: Event, line: int, round_: int) -> None:
        nonlocal count
        if decision_made(game, event) is not None:
            count += 1

    replay(text, on_choice=seen)
    return count


def review_time(decisions: int, model: str) -> str:
    """How long a review takes, said before it starts: `bank` may take its time limit on every decision;
    `win` answers with its estimate at once and searches exactly only a decision in a game's last cards, for
    at most :data:`~solver.models.win.EXACT_SECONDS` (measured on games `turn` played, one core: 0.9 s for two
    players and 108 decisions, 7.1 s for five and 133).

    >>> review_time(125, "bank"), review_time(1, "bank"), review_time(40, "turn")
    ('up to 4 min 10 s (125 decisions, at most 2 s each)', 'up to 2 s (1 decision, at most 2 s each)', '')
    >>> review_time(125, "win")
    'a few seconds as a rule: the estimate answers at once, and only a decision in the last cards is searched exactly, for at most 1 s'
    """
    if REGISTRY[model].quick_exact:
        return ""
    if model in CHANCE_MODELS:
        return (f"a few seconds as a rule: the estimate answers at once, and only a decision in the last cards is "
                f"searched exactly, for at most {min(EXACT_SECONDS, BANK_SECONDS):g} s")
    worst = math.ceil(decisions * BANK_SECONDS)
    span = f"{worst // 60} min {worst % 60} s" if worst >= 60 else f"{worst} s"
    return f"up to {span} ({counted(decisions, 'decision')}, at most {BANK_SECONDS:g} s each)"


def review_part(live: LiveGame, here: str) -> None:
    """Every decision of the game against the model's best, drawn as the Strength page draws a review."""
    st.subheader("Review of the game")
    model = st.radio("Judge the decisions with", list(MODELS), index=list(MODELS).index(REVIEW_DEFAULT),
                     format_func=MODELS.__getitem__, horizontal=True, key=f"{here}_review_model")
    text = live.store.export(live.gid)
    total = decisions_in(text)
    worst = review_time(total, str(model))
    if worst:
        st.caption(f"A review with `{model}` takes {worst}.")
    bar = st.empty()

    def done(k: int) -> None:
        bar.progress(min(1.0, k / max(total, 1)), text=f"Reviewed {k} of {total} decisions with `{model}`…")

    try:
        with st.spinner(f"Reviewing every decision with `{model}`…"):
            result = reviewed(text, str(model), done)
        bar.empty()
    except Exception as e:  # noqa: BLE001 - a review that fails is a message, never a traceback
        bar.empty()
        st.error(plain(problem(e, "judging its decisions"), 600))
        return
    show_review(result, live.saved.name)


def _when(seconds: float) -> str:
    return time.strftime("%d %b %H:%M", time.localtime(seconds))


def label(g: SavedGame) -> str:
    damaged = " · damaged" if g.problem else ""
    return f"#{g.id} · {g.name} · {KIND_WORDS.get(g.kind, g.kind)} · {_when(g.updated)}{damaged}"


def open_game(gid: int, kind: str, here: str) -> None:
    """Show saved game ``gid`` on its page (this one, or the one its kind opens on)."""
    target = PAGE_OF.get(kind, "live")
    st.session_state.pop(f"{target}_game", None)
    if target == here:
        st.query_params["game"] = str(gid)
        st.rerun()
    nav.go(target, {"game": str(gid)})


def saved_games(store: GameStore, here: str, current: int | None = None) -> None:
    """Every saved game: open (resume), download its record, rename, delete; import a record. The game open
    on the page (``current``) is the one picked until another is chosen, so that Delete, Rename and
    Download apply to the game on screen."""
    st.caption(f"Every game, live or practice, is saved move by move in {plain(store.path)} (the folder "
               f"HIT_DATA_DIR names, else your data folder): a reload, a closed tab or a restart loses nothing.")
    try:
        games = store.games()
    except StoreError as e:
        st.error(plain(e, 800))
        return
    by_id = {g.id: g for g in games}
    if not games:
        st.caption("No saved games yet.")
    else:
        ids = list(by_id)
        pick = st.selectbox("Saved game", ids, format_func=lambda gid: label(by_id[gid]),
                            index=ids.index(current) if current in by_id else 0,
                            key=f"{here}_saved_pick" if current is None else f"{here}_saved_pick_{current}")
        g = by_id.get(pick) if pick is not None else None
        if g is not None:
            _one_game(store, g, here)
    _import(store, here)


def _one_game(store: GameStore, g: SavedGame, here: str) -> None:
    if g.problem:
        st.warning(f"Game #{g.id} is damaged: {plain(g.problem, 300)}")
    with st.container(horizontal=True, gap="small"):
        if st.button("Open", key=f"{here}_open", icon=":material/play_arrow:"):
            open_game(g.id, g.kind, here)
        try:
            record = store.export(g.id)
        except NoSuchGame:
            record = ""
        st.download_button("Download (.jsonl)", record, file_name=f"hit-game-{g.id}.jsonl",
                           mime="application/jsonl", key=f"{here}_download", icon=":material/download:",
                           on_click="ignore")
        if st.button("Delete", key=f"{here}_delete", icon=":material/delete:"):
            st.session_state[f"{here}_confirm"] = g.id
    if st.session_state.get(f"{here}_confirm") == g.id:
        st.warning(f"Delete game #{g.id} “{plain(g.name, 80)}” for good? Its record goes with it (download it first "
                   f"to keep a copy).")
        with st.container(horizontal=True, gap="small"):
            if st.button("Yes, delete it", key=f"{here}_delete_yes", type="primary"):
                try:
                    store.delete(g.id)
                except StoreError as e:
                    st.session_state.pop(f"{here}_confirm", None)
                    st.session_state[f"{here}_rename_error"] = str(e)
                    st.rerun()
                st.session_state.pop(f"{here}_confirm", None)
                for page in ("live", "practice"):
                    shown = st.session_state.get(f"{page}_game")
                    if isinstance(shown, LiveGame) and shown.gid == g.id:
                        st.session_state.pop(f"{page}_game", None)
                if st.query_params.get("game") == str(g.id):
                    del st.query_params["game"]
                st.rerun()
            if st.button("Keep it", key=f"{here}_delete_no"):
                st.session_state.pop(f"{here}_confirm", None)
                st.rerun()
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom"):
        typed = st.text_input("Rename it", value=g.name, key=f"{here}_rename_{g.id}")
        if st.button("Rename", key=f"{here}_rename"):
            name = " ".join(typed.split())
            if not name:
                st.session_state[f"{here}_rename_error"] = "A game needs a name: type one."
            elif len(name) > MAX_GAME_NAME:
                st.session_state[f"{here}_rename_error"] = (f"That name is {len(name)} characters long; "
                                                            f"{MAX_GAME_NAME} at most.")
            else:
                try:
                    store.rename(g.id, name)
                    st.session_state[f"{here}_rename_error"] = None
                except NoSuchGame:
                    st.session_state[f"{here}_rename_error"] = f"Game {g.id} was deleted (perhaps in another tab)."
                except StoreError as e:
                    st.session_state[f"{here}_rename_error"] = str(e)
                st.rerun()
    if st.session_state.get(f"{here}_rename_error"):
        st.error(plain(st.session_state[f"{here}_rename_error"]))


def _import(store: GameStore, here: str) -> None:
    upload = st.file_uploader("Import a game record (.jsonl, as Download saves it)", key=f"{here}_import")
    if upload is not None and st.session_state.get(f"{here}_imported") != upload.file_id:
        st.session_state[f"{here}_imported"] = upload.file_id
        try:
            text = record_text(upload.getvalue())
            gid = store.import_record(text, Path(upload.name).stem or "Imported game")
        except (RecordError, StoreError) as e:
            st.session_state[f"{here}_import_error"] = f"{upload.name} cannot be imported: {e}"
        except Exception as e:  # noqa: BLE001 - a file from anyone: a message, never a traceback
            st.session_state[f"{here}_import_error"] = (f"{upload.name} cannot be imported: it is not a game record "
                                                        f"this app reads ({type(e).__name__}).")
        else:
            st.session_state[f"{here}_import_error"] = None
            open_game(gid, "imported", here)
    if st.session_state.get(f"{here}_import_error"):
        st.error(plain(st.session_state[f"{here}_import_error"], 600))
        st.caption("A record's own lines count seats from 0 (the first seat is seat 0).")


def game_or_setup(store: GameStore, here: str, seconds: float, play: Callable[[LiveGame, float], None],
                  setup: Callable[[GameStore], None]) -> None:
    """The body both game pages share: the open game (played, with the saved games under it), or the
    setup of a new one and the saved games to resume."""
    live = load_game(store, here)
    if live is None:
        setup(store)
        st.subheader("Saved games")
        saved_games(store, here)
        return
    play(live, seconds)
    with st.expander("Saved games: resume, download, rename, delete, import"):
        saved_games(store, here, live.gid)
