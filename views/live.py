"""Live game: follow a real game of Hit! card by card, with the advice for the seat to play always on screen.

Set up the seats (names, which seat is you, who starts, one round or the
rounds variant of R15) or join a game under way from the advisor's table,
then record the game as it happens: each card turned over is one tap, and
the rules engine (:class:`solver.play.live.LiveGame`) applies the collect, the
bust, the steal on offer (one tap: take or decline), the stop and the end of
the pile. Above the card buttons, the advice for the seat to play (and for
the steal on offer), as the advisor leads with it: its chance to win for each
choice open (`win`, exact or an estimate) with the bust chance; under the
buttons, the points models (`bank`, `turn`) and one sentence when playing to
win and playing for points differ (else the points' reason). Undo takes back
any number of steps; every tap is saved before it counts, and the game's id
is in the link (``?game=12``), so a reload resumes it.

The helpers above :func:`page` are plain functions the tests import; the page
itself is drawn only when Streamlit runs this file.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from solver.game.cards import VALUES
from solver.play.entry import Draft, discard_short
from solver.play.live import LiveGame
from solver.game.position import PlayerView, Position, PositionError
from solver.game.rules import Action, Phase
from solver.play.store import GameStore, StoreError
from views import nav
from views.advice_view import YOU, Voice, budget_seconds, cards_of_value, fill_in, on_screen, table_advice
from views.game_view import (a_card, act, bust_banner, clean_names, game_or_setup, final_part, forget, holders, last_card,
                             line_text, log_part, open_store, review_part, show_notes, table_part, tap_args, who)
from views.safe_text import counted, plain
from views.taps import guard

HERE = "live"
#: The rounds a game may have: one, or 2 to 7 in the rounds variant (R15).
ROUNDS = [1, 2, 3, 4, 5, 6, 7]
#: The key under which the advisor leaves a table to follow ("Follow this game live").
JOIN = "live_join"


def rounds_label(rounds: int) -> str:
    return "1 (a single game)" if rounds == 1 else f"{rounds} rounds (R15: the scores add up)"


def before_the_offer(pos: Position) -> Position:
    """The table just before the card on offer was drawn: a record joins a game at a decision with no steal
    on offer, then records that card's draw (which puts the steal on offer again). A stale offer (nobody
    holds that value) is dropped. (A card that could not have been drawn without a bust is no offer: the
    position refuses it, R5.)

    >>> pos = Position.from_dict({"players": [{"line": [6, 5]}, {"line": [5]}], "active": 0, "offer": 5})
    >>> before_the_offer(pos).players[0].line, before_the_offer(pos).offer
    ((6,), None)
    """
    offer = pos.steal_on_offer()
    if offer is None:
        return Position.build(pos.players, pos.active, pos.discard, match=pos.match)
    line = list(pos.line)
    del line[len(line) - 1 - line[::-1].index(offer)]
    seat = pos.players[pos.active]
    players = list(pos.players)
    players[pos.active] = PlayerView(tuple(line), seat.loot, seat.lost_turns)
    return Position.build(players, pos.active, pos.discard, match=pos.match)


def start_game(store: GameStore, name: str, names: list[str], first: int, rounds: int, you: int,
               start: Position | None = None) -> LiveGame:
    """A new live game; joined under way at ``start`` (its steal on offer, if any, still on offer)."""
    settings: dict[str, Any] = {"you": you}
    if start is None:
        return LiveGame.start(store, name, "live", names, first, rounds, settings=settings)
    offer = start.steal_on_offer()
    live = LiveGame.start(store, name, "live", names, first, rounds, start=before_the_offer(start),
                          settings=settings)
    if offer is not None:
        live.act("draw", offer)
    return live


def join_text(pos: Position) -> str:
    """The advisor's table in a sentence."""
    offer = pos.steal_on_offer()
    line = " ".join(map(str, pos.line))
    text = (f"{len(pos.players)} players, seat {pos.active + 1} to play"
            + (f" holding {line}" if line else ", a turn about to start")
            + (f", {cards_of_value(pos.stealable(offer), offer)} on offer" if offer is not None else "")
            + f", {counted(pos.pile_size(), 'card')} in the pile.")
    return text


# -- the page ------------------------------------------------------------------------------------------------
def clear_errors() -> None:
    """An input changed: the setup's errors were about the inputs as they were."""
    st.session_state["live_setup_errors"] = []


def setup(store: GameStore) -> None:
    """Seats, names, who is you, who starts, rounds; or the advisor's table to join."""
    start: Position | None = None
    joined = st.session_state.get(JOIN)
    if isinstance(joined, str):
        try:
            start = Position.from_json(joined)
        except PositionError as e:  # (the advisor joins only tables it advises on: an older session's, say)
            st.session_state.pop(JOIN, None)
            st.error(f"The advisor's table cannot be followed: {plain(on_screen(str(e)))}")
    if start is not None:
        st.subheader("Follow the advisor's table")
        st.markdown(f"Joining a game under way: {join_text(start)} Name the seats and start recording; every card "
                    f"from here on is one tap.")
        if st.button("A new game from the first card instead", key="live_join_cancel"):
            st.session_state.pop(JOIN, None)
            st.rerun()
        players = len(start.players)
    else:
        st.subheader("New game")
        st.caption("Record a game at a real table card by card, with the advice for the seat to play always on "
                   "screen. To join a game already under way, enter the table in the Advisor and tap "
                   "“Follow this game live” there.")
        players = int(st.segmented_control("Players", [2, 3, 4, 5], default=2, key="live_players",
                                         on_change=clear_errors) or 2)
    # Row by row, two seats a row: a phone stacks each row's columns, so the seats read 1, 2, 3, … top to
    # bottom there and in reading order on a desktop (a grid filled column by column read 1, 4, 2, …).
    typed: list[str] = []
    for row in range(0, players, 2):
        cells = st.columns(2)
        for k, s in enumerate(range(row, min(row + 2, players))):
            typed.append(cells[k].text_input(f"Seat {s + 1}", value=f"Seat {s + 1}", key=f"live_name_{s}",
                                             help="A name, or leave the seat's number", on_change=clear_errors))
    seats = list(range(players))

    def seat_name(s: int) -> str:
        return f"{' '.join(typed[s].split())[:40] or f'Seat {s + 1}'} (seat {s + 1})"

    left, middle, right = st.columns(3)
    you = left.selectbox("You are", seats, format_func=seat_name, key="live_you")
    if start is None:
        first = middle.selectbox("Who starts", seats, format_func=seat_name, key="live_first")
    else:
        first = middle.selectbox("Who started this round", seats, index=start.active,
                                 format_func=seat_name, key="live_first_joined",
                                 help="The first seat of the next round is one further (R15)")
    if start is not None and start.match is not None:
        # A record holds whole rounds from its first: it cannot take over a match's earlier totals, so its
        # standings would leave them out while the advice counted them. Such a table is followed as one game.
        m = start.match
        rounds = 1
        right.selectbox("Rounds", [1], format_func=rounds_label, key="live_rounds_joined", disabled=True)
        st.warning(f"This table is round {m.round} of {m.rounds} of a match (R15). A live game records rounds "
                   f"from their first card, so it cannot carry the earlier rounds' totals: it follows this round "
                   f"as one game, and its chance to win and its standings are this round's alone. For the "
                   f"chance to win the match, the Advisor counts the earlier totals.")
        start = Position.build(start.players, start.active, start.discard, start.offer)
    else:
        rounds = right.selectbox("Rounds", ROUNDS, format_func=rounds_label, key="live_rounds")
    title = st.text_input("Name of the game (optional)", key="live_title", placeholder="e.g. Friday at Ann's")
    if st.button("Start recording", key="live_start", type="primary", icon=":material/play_arrow:"):
        names, problems = clean_names(typed)
        if problems:
            st.session_state["live_setup_errors"] = problems
        else:
            st.session_state["live_setup_errors"] = []
            name = " ".join(title.split()) or ", ".join(names)
            lost = 0 if start is None else sum(p.lost_turns for p in start.players)
            try:
                if int(rounds or 1) > 1 and start is not None and discard_short(lost, len(start.discard)):
                    raise ValueError(f"the table shows {lost} lost turns and {len(start.discard)} cards in the "
                                     f"discard, where each lost turn puts four or more (R5, R6); the rounds after "
                                     f"it could not be counted. Enter the discard in the Advisor, or follow one "
                                     f"round")
                live = start_game(store, name, names, int(first or 0), int(rounds or 1), int(you or 0), start)
            except (ValueError, PositionError, StoreError) as e:
                st.session_state["live_setup_errors"] = [f"This game cannot start: {e}"]
            else:
                st.session_state.pop(JOIN, None)
                st.session_state[f"{HERE}_game"] = live
                st.query_params["game"] = str(live.gid)
                st.rerun()
    for problem in st.session_state.get("live_setup_errors") or []:
        st.error(plain(problem))


def status(live: LiveGame, you: int | None) -> str:
    """Whose turn it is and what is to be decided, in one line (markdown-safe)."""
    game = live.game
    seat = game.active
    line = game.active_player.line
    if game.phase is Phase.MUST_DRAW:
        what = "a turn starts: tap the card turned over"
    elif game.phase is Phase.STEAL:
        offer = game.offer or 0
        what = (f"drew {a_card(offer)}: {cards_of_value(game.stealable(offer), offer)} of "
                f"{holders(game, live.names, offer)} on offer, take or decline")
    else:
        what = f"holds {line_text(line)}: tap the next card, or Stop"
    rounds = live.replayed.match.rounds
    where = f" · round {live.round} of {rounds}" if rounds > 1 else ""
    name = who(live.names, seat)
    if seat == you:
        name = f"{name[:-1]}, you)" if name.endswith(")") else f"{name} (you)"
    left = len(game.pile)
    return f"**{name}** to play · {what} · {counted(left, 'card')} in the pile{where}"


def card_buttons(live: LiveGame) -> None:
    """The ten card buttons: a card turned over by the seat to play (none while a steal is on offer, R8)."""
    game = live.game
    pile = game.pile_counts()
    steal = game.phase is Phase.STEAL
    # A grid, not columns: ten across on a desktop, two rows of five on a phone (columns would stack).
    with st.grid(10, min_column_width=60, gap="xsmall"):
        for v in VALUES:
            st.button(str(v), key=f"live_card_{v}", on_click=act, args=tap_args(HERE, live, "draw", v), width="stretch",
                      disabled=steal or not pile[v - 1])


def action_buttons(live: LiveGame, take: bool | None = None) -> None:
    """The steal (take or decline), Stop and Undo. At a steal, the button the advice recommends (``take``)
    is the highlighted one."""
    game = live.game
    if game.phase is Phase.STEAL:
        offer = game.offer or 0
        st.button(f"Take {cards_of_value(game.stealable(offer), offer)}", key="live_take",
                  type="primary" if take is True else "secondary", on_click=act, args=tap_args(HERE, live, "steal"),
                  help="Every other seat's line gives its cards of this value to the seat to play (R7)")
        st.button("Decline", key="live_decline", type="primary" if take is False else "secondary",
                  on_click=act, args=tap_args(HERE, live, "decline"))
    st.button("Stop", key="live_stop", disabled=game.phase is not Phase.CHOOSE, on_click=act,
              args=tap_args(HERE, live, "stop"), help="The seat to play ends its turn; its line stays face up")
    st.button("Undo", key="live_undo", disabled=not live.can_undo(), on_click=act, args=tap_args(HERE, live, "undo"),
              help="Take back the last card, steal or stop")


def to_advisor(pos: Position, gid: int | None = None) -> None:
    """Load the table into the advisor (one step its Undo takes back) and go there; the advisor offers the
    way back to game ``gid``."""
    st.session_state["live_from"] = gid
    d = Draft.from_dict(pos.to_dict())
    existing = st.session_state.get("draft")
    if isinstance(existing, Draft):
        existing.load(d)
    else:
        st.session_state["draft"] = d
    st.session_state["link_problems"] = []
    st.session_state.pop("zone", None)  # the advisor opens on the seat to play's line
    nav.go("advisor")


#: The card buttons stay where they are from tap to tap: the line saying whose turn it is and the advice
#: above them (a few lines while it is worked out, more with a steal on offer) keep the room of the longest
#: usual pair (measured with four seats: at most 67 and 295 pixels high, 390 wide; 67 and 214, 820 wide;
#: 42 and 190, 1280 wide), so that a finger tapping card after card at the table's pace finds each button
#: where the last tap left it. The room to spare goes above them: the advice stays on the buttons.
_STEADY = """<style>
.st-key-live_above_cards { min-height: 270px; justify-content: flex-end; }
@media (max-width: 1023.98px) { .st-key-live_above_cards { min-height: 330px; } }
@media (max-width: 639.98px) { .st-key-live_above_cards { min-height: 410px; } }
</style>"""


def play(live: LiveGame, seconds: float) -> None:
    you_setting = live.saved.settings.get("you")
    you = you_setting if isinstance(you_setting, int) and 0 <= you_setting < len(live.names) else None
    if live.over:
        show_notes(HERE)
        st.caption(f"Game #{live.gid}: {plain(live.saved.name, 80)}")
        final_part(live)
        with st.container(horizontal=True, gap="small"):
            st.button("Undo", key="live_undo", on_click=act, args=tap_args(HERE, live, "undo"),
                      help="Take back the last card, steal or stop")
            if st.button("New game", key="live_new"):
                forget(HERE)
                st.rerun()
        log_part(live)
        review_part(live, HERE)
        return
    # A position always has a pile: at the last card's steal (R9) there is none, and nothing to weigh.
    unreadable: str | None = None
    try:
        pos = live.position() if live.game.pile else None
    except PositionError as e:  # a joined table the rules cannot have led to (its next round shows it): the
        pos, unreadable = None, str(e)  # page still draws, with Undo, and says why there is no advice
    st.html(_STEADY)
    with st.container(key="live_above_cards"):
        show_notes(HERE)  # why a tap was refused: in the room kept above the buttons (over it, it moved them),
        # where the eye is (under them, on a phone, it was off the screen)
        st.markdown(status(live, you))
        top = st.container(key="verdict")  # the advice, filled once the quick parts are drawn
    card_buttons(live)
    # The steal, Stop and Undo, drawn with the card that offers the steal; the steal button the advice
    # recommends is highlighted once the advice is in (the page is drawn again then).
    actions = st.container(horizontal=True, gap="small")
    if live.game.phase is Phase.STEAL:
        st.caption("The card buttons wait until the steal on offer is taken or declined (R8).")
    bust_banner(live, HERE)  # under the buttons: above them, it pushed them down as a hurried finger came
    why = st.container(key="reason")  # under the buttons: they stay in reach on a phone
    st.subheader("The table")
    table_part(live, you)
    log_part(live)
    st.caption(f"Game #{live.gid}: {plain(live.saved.name, 80)}")
    with st.container(horizontal=True, gap="small"):
        if pos is not None and st.button(
                "Open in the advisor", key="live_to_advisor", icon=":material/style:",
                help="The table as it stands, in the advisor: every model, the theft risk, the next card"):
            to_advisor(pos, live.gid)
        if st.button("New game", key="live_new", help="This game stays saved; open it again below"):
            forget(HERE)
            st.rerun()
    with top:
        name = plain(live.names[live.game.active], 40)
        take: bool | None = None
        if unreadable is not None:
            st.error(f"No advice: this table cannot be worked out ({plain(on_screen(unreadable), 300)}). The "
                     f"game was joined at a table the rules cannot lead to (more lost turns than its discard "
                     f"holds), so its later rounds cannot be counted; the cards can still be recorded.")
        elif pos is None:
            st.success(last_card(live.game, name))
            take = True  # the last card's steal (R9): taking only adds
        else:
            voice = YOU if you is None or live.game.active == you else Voice(name)
            plan = table_advice(pos, seconds, who=name, below=why, voice=voice).plan
            take = None if plan is None or plan.steal is None else plan.steal is Action.STEAL
    with actions:
        action_buttons(live, take)


def page() -> None:
    st.set_page_config(page_title="Hit! live game", page_icon="🃏", layout="wide")
    seconds = budget_seconds()
    st.title("Live game")
    store = open_store()
    if store is None:
        return
    if isinstance(st.session_state.get(JOIN), str) and "game" not in st.query_params:
        st.session_state.pop(f"{HERE}_game", None)  # the advisor sent a table to follow: set it up (the game
        # this page had open stays saved)
    game_or_setup(store, HERE, seconds, play, setup)
    guard()
    fill_in()  # the advice still being worked out, once every tap's result is on screen


if __name__ == "__main__":  # Streamlit runs the page as __main__; the tests import its helpers
    page()
