"""The Live game page (views/live.py) and what it shares with Practice (views/game_view.py).

AppTest drives the page's logic: setting up the seats and the names a hurried
player types, recording taps, the advice for the seat on screen, taps the
rules refuse, two tabs on one game, a reload, the saved games (rename,
download, delete, import, a corrupt upload), a link to a deleted game, and
the round trip Advisor → Live game → Advisor. The browser test (Debian's
Chromium through Playwright) joins a game under way from the advisor and
records it by clicks from its first card to its last, comparing the advice
with the command line's at three points and the final scores with the
rules engine's replay; it reloads in the middle, has a phone tab take a
steal first, and saves ``tests/artifacts/live.png`` (desktop) and
``live-phone.png`` (390×844).

Every test points ``HIT_DATA_DIR`` at a temporary folder.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import chromium, serve_advisor
from game_pages import (APP, ARTIFACTS, CHROMIUM, LIVE, SHORT_ORDER, SHORT_SCRIPT, button, cli, in_view,
                        mirror, params, saved_lines, settle, short_table, step, texts, unescape)
from streamlit.testing.v1 import AppTest

from solver.game.rules import Action
from solver.play.live import LiveGame
from solver.models import MODELS
from solver.models.advice import Budget
from views.advice_view import BANK_SECONDS
from solver.utilities.numbers import FLOAT
from solver.game.position import Position
from solver.game.record import replay
from solver.play.simulate import position_of
from solver.play.store import GameStore
from views.game_view import clean_names, happenings, refusal, winner_sentence
from views.live import before_the_offer


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GameStore:
    """A temporary data folder for the pages (HIT_DATA_DIR), and its store."""
    monkeypatch.setenv("HIT_DATA_DIR", str(tmp_path))
    return GameStore(tmp_path / "games.sqlite")


def live_page(query: dict[str, str] | None = None, join: dict[str, Any] | None = None) -> AppTest:
    at = AppTest.from_file(LIVE, default_timeout=60)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    if join is not None:
        at.session_state["live_join"] = json.dumps(join)
    return at.run()


def start(at: AppTest, names: list[str]) -> AppTest:
    for seat, name in enumerate(names):
        at.text_input(key=f"live_name_{seat}").input(name)
    return at.button(key="live_start").click().run()


def tap(at: AppTest, what: str) -> AppTest:
    key = {"Decline": "live_decline", "Take": "live_take", "Stop": "live_stop", "Undo": "live_undo"}.get(
        what, f"live_card_{what}")
    return button(at, key).click().run()


def verdict(at: AppTest) -> str:
    return str(at.success[0].value)


def win_of(position: dict[str, Any] | Position) -> Any:
    """`win` as the page asks it: the float path within the page's time limit."""
    pos = position if isinstance(position, Position) else Position.from_dict(position)
    return MODELS["win"].advise(pos, FLOAT, Budget(BANK_SECONDS))


def win_box(position: dict[str, Any] | Position, name: str, whose: str = "Your") -> tuple[str, str]:
    """How the verdict box must begin (the chance to win, `win` as the page asks it), and its line of chances
    for stop and draw (``whose``: "Your", or "Bob's" when Bob is to play)."""
    w = win_of(position)
    assert w.stop is None or f"{w.stop:.3%}" != f"{w.draw:.3%}", "a tie: the points decide (not this helper)"
    kind = "exact" if w.approximation is None else "an estimate"
    steal = "" if w.steal is None else f"{'TAKE' if w.steal.action is Action.STEAL else 'DECLINE'} the steal, then "
    head = f"### {name}: {steal}{w.action.value.upper()}\n{whose} chance to win, **{kind}**:  \n"
    if w.steal is not None:
        head += f"Take: {w.steal.take:.1%}; decline: {w.steal.decline:.1%}."
    if w.stop is None:
        return head, f"Draw: {w.draw:.1%} (a turn starts with at least one card)."
    return head, f"Stop: {w.stop:.1%}; draw: {w.draw:.1%}."


def points_box(at: AppTest) -> str:
    """The points models' box (under the card buttons)."""
    return "\n".join(str(m.value) for m in at.markdown if "`turn` · points this turn" in str(m.value))


def bank_numbers(position: dict[str, Any] | Position, whose: str = "your") -> str:
    """`bank`'s line in the points box, as the page asks `bank`."""
    pos = position if isinstance(position, Position) else Position.from_dict(position)
    b = MODELS["bank"].advise(pos, FLOAT)
    numbers = [] if b.steal is None else [f"take {b.steal.take:.2f}, decline {b.steal.decline:.2f}"]
    numbers.append(f"draw {b.draw:.2f}" if b.stop is None else f"stop {b.stop:.2f}, draw {b.draw:.2f}")
    steal = "" if b.steal is None else f"{'TAKE' if b.steal.action is Action.STEAL else 'DECLINE'} the steal, then "
    return f"`bank` · points that reach {whose} loot: **{steal}{b.action.value.upper()}** ({'; '.join(numbers)})"


# ---------------------------------------------------------------------------------------------------------------
# Setting up


@pytest.mark.parametrize(("names", "message"), [
    (["", "Bob"], "Seat 1 has no name: type one."),
    (["   ", "Bob"], "Seat 1 has no name: type one."),
    (["Ann", "x" * 40], "The name of seat 2 is 40 characters long; 24 at most."),
    (["Ann", " ann "], "Seats 1 and 2 are both called “ann”: give each seat its own name."),
    (["Ann", "A\x00b"], "The name of seat 2 holds characters that cannot be shown."),
])
def test_names_are_checked_before_a_game_starts(data, names, message):
    at = start(live_page(), names)
    assert not at.exception
    assert [unescape(e.value) for e in at.error] == [message]
    assert data.games() == [] and "game" not in params(at)


def test_a_name_with_markdown_or_a_link_is_shown_as_text(data):
    at = start(live_page(), ["**x**", "[y](http://evil.example)"])
    assert not at.exception and not at.error
    shown = texts(at) + "\n".join(str(t.value) for t in at.table)
    assert "**x**" not in shown and "](http" not in shown and "http://" not in shown
    assert "**\\*\\*x\\*\\* (seat 1, you)** to play" in texts(at)
    assert "[y](http://evil.example)" in unescape(at.table[0].value["name"].iloc[1])
    assert LiveGame(data, 1).names == ["**x**", "[y](http://evil.example)"]  # kept as typed


@pytest.mark.parametrize("players", [4, 5])
def test_the_seats_read_in_order_on_a_phone_and_a_desktop(data, players):
    """A phone stacks each st.columns row: a grid filled column by column read 1, 4, 2, 5, 3 there. Row by
    row, the seats come in order in the page's tree (the phone's order, and reading order on a desktop)."""
    at = live_page()
    at.segmented_control(key="live_players").set_value(players).run()
    seats = [t.label for t in at.text_input if t.key.startswith("live_name_")]
    assert seats == [f"Seat {s + 1}" for s in range(players)]
    for block in at.columns:  # no row holds more than two seats, so a name box is never squeezed
        assert len([t for t in block.text_input if t.key.startswith("live_name_")]) <= 1


def test_you_are_and_who_starts_list_the_names_typed(data):
    at = live_page()
    at.text_input(key="live_name_0").input("Ann")
    at.text_input(key="live_name_1").input("Bob").run()
    assert at.selectbox(key="live_you").options == ["Ann (seat 1)", "Bob (seat 2)"]
    assert at.selectbox(key="live_first").options == ["Ann (seat 1)", "Bob (seat 2)"]


def test_setup_errors_go_once_the_inputs_change(data):
    at = start(live_page(), ["", "Bob"])
    assert [unescape(e.value) for e in at.error] == ["Seat 1 has no name: type one."]
    at.text_input(key="live_name_0").input("Ann").run()
    assert not at.error and data.games() == []


def test_clean_names_tidies_spaces():
    assert clean_names(["  Ann   Lee ", "Bob"]) == (["Ann Lee", "Bob"], [])


# ---------------------------------------------------------------------------------------------------------------
# Recording, advice, refusals


#: How the reason under the verdict opens (views.advice_view.reason and why).
REASONS = ("A near tie", "Stopping is worth", "Drawing on is worth", "Stopping leaves", "Drawing on adds", "Taking ",
           "Declining is worth", "A turn starts")


def test_each_tap_is_recorded_and_the_advice_is_for_the_seat_on_screen(data):
    at = start(live_page(join=short_table()), ["Ann", "Bob"])
    assert not at.exception and params(at) == {"game": "1"}
    game = mirror()
    for k, what in enumerate(SHORT_SCRIPT[:9]):
        if k in (1, 4, 8):  # a steal on offer to decline, one to take, and a stop-or-draw of the other seat
            name = ["Ann", "Bob"][game.active]
            # Ann is you: the box says "Your chance to win" for her, "Bob's chance to win" for Bob, and the
            # points "your loot" and "Bob's loot"
            head, stop_draw = win_box(position_of(game), name, "Your" if game.active == 0 else "Bob's")
            assert verdict(at).startswith(head) and stop_draw in verdict(at), verdict(at)
            assert bank_numbers(position_of(game), "your" if game.active == 0 else "Bob's") in points_box(at)
            assert f"**{name} (seat {game.active + 1}{', you' if game.active == 0 else ''})**" in texts(at)
            if game.active == 1:  # the sentence under the buttons is about Bob too, not "you"
                said = [m.value for m in at.markdown if m.value.startswith(REASONS)]
                said += [i.value for i in at.info if i.value.startswith("Bob ")]  # playing to win differs
                assert len(said) == 1 and "Bob" in said[0], said
                assert not any(w in said[0] for w in ("your", "busts you", "bust you", "if you")), said
        at = tap(at, what)
        step(game, what)
        assert not at.exception and not at.warning
    live = LiveGame(data, 1)
    assert live.game.players[0].loot == game.players[0].loot and live.game.players[1].line == game.players[1].line
    # Ten cards or fewer left: the chance to win (`win`), exact, for the seat to play, in its name.
    pos = position_of(game)
    assert pos.pile_size() <= 10 and win_of(pos).approximation is None
    name = ["Ann", "Bob"][game.active]
    head, stop_draw = win_box(pos, name, "Your" if game.active == 0 else "Bob's")
    assert verdict(at).startswith(head) and "**exact**" in head and stop_draw in verdict(at), verdict(at)
    told = happenings(live.rows, live.names)
    assert told == ["Round 1: joined under way, Ann to play.",
                    "Ann drew 6, declined the steal on the 6, drew 2, 9, took the 9 from Bob, stopped with 26.",
                    "Bob drew 4, 8, stopped with 12."]
    assert "  \n".join(told) in texts(at)


def test_the_first_tap_of_a_turn_must_be_a_card_and_undo_at_the_start_is_refused(data):
    at = start(live_page(), ["Ann", "Bob"])
    assert button(at, "live_stop").disabled and button(at, "live_undo").disabled
    live = LiveGame(data, 1)
    assert refusal(live, "stop", None) == ("Ann has not turned over a card yet: a turn starts with at least one "
                                           "card (R4). Tap the card Ann turns over.")
    assert refusal(live, "undo", None) == "Nothing to undo: this is where the game started."
    assert refusal(live, "steal", None) == "No steal is on offer now."
    tap(at, "5")
    assert not button(at, "live_stop").disabled and not button(at, "live_undo").disabled
    tap(at, "Undo")
    assert LiveGame(data, 1).game.players[0].line == [] and button(at, "live_undo").disabled


def test_a_card_no_longer_in_the_pile_cannot_be_tapped(data):
    at = start(live_page(join=short_table()), ["Ann", "Bob"])
    tap(at, "6")  # the only 6 left in the pile
    assert button(at, "live_card_6").disabled
    assert all(button(at, f"live_card_{v}").disabled for v in range(1, 11))  # the steal comes first (R8)
    tap(at, "Decline")
    assert button(at, "live_card_6").disabled and not button(at, "live_card_9").disabled
    live = LiveGame(data, 1)
    assert refusal(live, "draw", 6) == ("No 6 is left in the pile: all 7 are in the lines, loots or discard. "
                                        "Values left: 1, 2, 3, 4, 5, 7, 8, 9, 10.")
    live.act("draw", 9)
    assert refusal(live, "draw", 2).startswith("First take or decline the 9s on offer: Ann decides the steal")


def test_undo_goes_back_any_number_of_steps(data):
    at = start(live_page(join=short_table()), ["Ann", "Bob"])
    for what in SHORT_SCRIPT[:6]:
        tap(at, what)
    for _ in range(6):
        tap(at, "Undo")
    assert not at.exception and button(at, "live_undo").disabled
    assert LiveGame(data, 1).position() == Position.from_dict(short_table())


def test_a_second_tab_is_told_the_game_moved_on_and_its_tap_is_not_applied(data):
    first = start(live_page(join=short_table()), ["Ann", "Bob"])
    second = live_page({"game": "1"})
    tap(first, "6")
    tap(second, "2")  # drawn on the table as it was before the first tab's 6
    assert not second.exception
    assert second.info[0].value == ("This game moved on in another tab, so that tap was not applied; showing its "
                                    "latest state: check it and tap again.")
    live = LiveGame(data, 1)
    assert live.game.players[0].line == [6] and live.game.phase.value == "steal"
    assert button(second, "live_take").label == "Take the 6"  # the second tab shows the latest state
    tap(first, "Decline")
    second.run()  # any rerun shows what the other tab did
    assert "Take the 6" not in [b.label for b in second.button]
    assert second.info[0].value == "This game moved on in another tab; showing its latest state."


def test_a_reload_resumes_the_game(data):
    at = start(live_page(join=short_table()), ["Ann", "Bob"])
    for what in SHORT_SCRIPT[:8]:
        tap(at, what)
    again = live_page({"game": "1"})
    assert not again.exception
    assert verdict(again) == verdict(at) and again.markdown[0].value == at.markdown[0].value
    assert again.table[0].value.equals(at.table[0].value)


# ---------------------------------------------------------------------------------------------------------------
# Links and saved games


@pytest.mark.parametrize(("game", "message"), [
    ("7", "There is no saved game 7: it was deleted (perhaps in another tab)."),
    ("abc", "The link names game “abc”, which is not a game number"),
    ("-1", "The link names game “-1”, which is not a game number"),
    ("9" * 40, "The link names game “99999999999999999999…”, which is not a game number"),
])
def test_a_bad_or_deleted_game_in_the_link_is_a_message(data, game, message):
    at = live_page({"game": game})
    assert not at.exception
    assert unescape(at.error[0].value).startswith(message), at.error[0].value
    assert at.button(key="live_start")  # and a new game can be set up
    assert "game" not in params(at)


def test_a_game_deleted_in_another_tab(data):
    at = start(live_page(), ["Ann", "Bob"])
    data.delete(1)
    at.run()
    assert not at.exception
    assert at.error[0].value.startswith("There is no saved game 1")


def test_a_practice_game_opens_on_the_practice_page(data):
    LiveGame.start(data, "p", "practice", ["me", "turn"], first=0, seed=1, settings={"you": 0})
    at = live_page({"game": "1"})
    assert not at.exception
    assert at.warning[0].value == "Game 1 is a practice game: it opens on the Practice page."


def test_saved_games_rename_download_and_delete(data):
    at = start(live_page(), ["Ann", "Bob"])
    tap(at, "7")
    at.text_input(key="live_rename_1").input("Friday **night**")
    at.button(key="live_rename").click().run()
    assert data.games()[0].name == "Friday **night**"
    at.text_input(key="live_rename_1").input("  ")
    at.button(key="live_rename").click().run()
    assert unescape(at.error[0].value) == "A game needs a name: type one." and data.games()[0].name == "Friday **night**"
    assert "Game #1: Friday \\*\\*night\\*\\*" in [c.value for c in at.caption]
    at.button(key="live_delete").click().run()
    assert "for good?" in at.warning[0].value
    at.button(key="live_delete_yes").click().run()
    assert not at.exception and data.games() == []
    assert "game" not in params(at) and at.button(key="live_start")


def test_download_is_the_record(data, monkeypatch):
    # What the download button hands to Streamlit's media store (the bytes a click serves) is the game's record.
    from streamlit.runtime.media_file_manager import MediaFileManager

    served: dict[str, bytes] = {}
    real_add = MediaFileManager.add

    def spy(self, data, mimetype, coordinates, file_name=None, is_for_static_download=False):  # type: ignore[no-untyped-def]
        served[file_name] = data if isinstance(data, bytes) else str(data).encode()
        return real_add(self, data, mimetype, coordinates, file_name=file_name,
                        is_for_static_download=is_for_static_download)

    monkeypatch.setattr(MediaFileManager, "add", spy)
    at = start(live_page(join=short_table()), ["Ann", "Bob"])
    tap(at, "6")
    assert served["hit-game-1.jsonl"].decode() == data.export(1)
    assert replay(served["hit-game-1.jsonl"].decode()).game.players[0].line == [6]


@pytest.mark.parametrize(("data_bytes", "message"), [
    (b"\x89PNG\r\n\x1a\n\x00", "junk.jsonl cannot be imported: the file is not text (UTF-8)"),
    (b"", "junk.jsonl cannot be imported: the file is empty"),
    (b'{"record": "hit", "version": 1, "players": 2}\n{oops', "junk.jsonl cannot be imported: line 2: not valid JSON"),
    (b'{"record": "hit", "version": 1, "players": 2}\n{"event": "round", "round": 1, "first": 0}\n'
     b'{"event": "stop", "seat": 0, "line": []}', "junk.jsonl cannot be imported: line 3: 'stop' is not legal"),
])
def test_a_corrupt_upload_is_named(data, data_bytes, message):
    at = live_page()
    at.file_uploader(key="live_import").upload("junk.jsonl", data_bytes, "application/jsonl").run()
    assert not at.exception
    assert unescape(at.error[0].value).startswith(message), at.error[0].value
    assert data.games() == []


def test_an_imported_record_opens_and_goes_on(data):
    source = LiveGame.start(data, "x", "live", ["Ann", "Bob"], first=1)
    source.act("draw", 4)
    at = live_page()
    at.file_uploader(key="live_import").upload("friday.jsonl", data.export(1).encode(), "application/jsonl").run()
    assert not at.exception and not at.error
    assert params(at) == {"game": "2"} and data.game(2).kind == "imported" and data.game(2).name == "friday"
    assert "**Bob (seat 2)** to play" in at.markdown[0].value
    tap(at, "Stop")
    assert LiveGame(data, 2).game.active == 0


def test_rounds_show_running_totals_and_the_end_the_tie_breaks(data):
    from solver.play.policies import make

    live = LiveGame.start(data, "r", "live", ["Ann", "Bob"], first=0, rounds=2, seed=3)
    bot = make("threshold:20")
    while live.round == 1:
        action = bot(live.game)
        live.act(action, live.dealt() if action.value == "draw" else None)
    at = live_page({"game": "1"})
    assert not at.exception
    assert "round 2 of 2" in at.markdown[0].value and "Round 2 of 2" in texts(at)
    totals = at.table[1].value
    assert list(totals.columns) == ["place", "seat", "name", "round 1", "round 2", "score", "loot cards",
                                    "lost turns"]
    first_round = live.replayed.match.games[0]
    assert sorted(totals["round 1"]) == sorted(p.score for p in first_round.players)
    while not live.over:
        action = bot(live.game)
        live.act(action, live.dealt() if action.value == "draw" else None)
    at.run()
    match = replay(data.export(1)).match
    assert at.success[0].value == "### Game over\n" + winner_sentence(match.totals(), match.ranking(), ["Ann", "Bob"])
    table = at.table[0].value
    assert table["score"].tolist() == [match.totals()[s].score for s in match.ranking()]
    assert "judged by `win`" in texts(at)  # the review, in chances to win first


def test_winner_sentence_names_the_tie_break():
    from solver.game.rules import Player

    a, b = Player(loot=[5, 5]), Player(loot=[5, 5], lost_turns=2)
    assert winner_sentence([a, b], [0, 1], ["A", "B"]).endswith("the tie goes to fewer lost turns (0 against 2, R12).")
    c = Player(loot=[5, 5])
    assert winner_sentence([a, c], [0, 1], ["A", "B"]).endswith("the tie goes to the lower seat (seat 1, R12).")
    assert winner_sentence([Player(loot=[9]), Player(loot=[3])], [0, 1], ["A", "B"]) == \
        "**A** wins with 9 points (B next with 3)."


# ---------------------------------------------------------------------------------------------------------------
# Advisor ↔ Live game


def test_follow_the_advisors_table_live_and_back(data):
    table = {"players": [{"line": [6, 5], "loot": [9, 9]}, {"line": [5, 5]}], "active": 0, "offer": 5}
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in {"players": "2", "line0": "6,5", "loot0": "9,9", "line1": "5,5", "offer": "5"}.items():
        at.query_params[k] = v
    at.run()
    at.button(key="follow_live").click().run()
    assert not at.exception
    assert "Joining a game under way: 2 players, seat 1 to play holding 6 5, the two 5s on offer" in texts(at)
    start(at, ["Ann", "Bob"])
    assert not at.exception and params(at) == {"game": "1"}
    live = LiveGame(data, 1)
    assert live.position() == Position.from_dict(table)  # the advisor's table, steal on offer and all
    head, stop_draw = win_box(table, "Ann")
    assert verdict(at).startswith(head) and stop_draw in verdict(at)
    assert bank_numbers(table) in points_box(at)
    tap(at, "Take")
    at.button(key="live_to_advisor").click().run()
    assert not at.exception
    assert params(at) == {"players": "2", "active": "0", "line0": "6,5,5,5", "loot0": "9,9"}
    at.button(key="undo").click().run()  # the advisor's Undo brings back its own table
    assert params(at)["line1"] == "5,5"
    at.button(key="follow_live").click().run()  # a second table to follow: its setup, not the game open before
    assert not at.exception and "Joining a game under way" in texts(at)
    assert len(data.games()) == 1


def test_the_advisor_opened_from_a_live_game_leads_back_to_it(data):
    """"Open in the advisor" then "Follow this game live" starts a new game: the advisor says so, and offers
    the way back to the game it came from (names, rounds and seat kept)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in {"players": "2", "line0": "6,5", "loot0": "9,9", "line1": "5,5", "offer": "5"}.items():
        at.query_params[k] = v
    at.run()
    assert not [b for b in at.button if b.key == "back_to_live"]  # not opened from a live game
    at.button(key="follow_live").click().run()
    start(at, ["Ann", "Bob"])
    tap(at, "Take")
    at.button(key="live_to_advisor").click().run()
    assert not at.exception
    assert at.button(key="back_to_live").label == "Back to game #1"
    assert at.button(key="follow_live").label == "Follow this game live (a new game)"
    assert any("starts a new game from this table" in c.value and "game #1 stays saved" in c.value
               for c in at.caption)
    at.button(key="back_to_live").click().run()
    assert not at.exception and params(at) == {"game": "1"}
    assert "**Ann (seat 1, you)** to play" in texts(at) and len(data.games()) == 1


def test_a_steal_that_could_not_be_on_offer_is_refused_when_joining():
    with pytest.raises(ValueError, match="loses the turn"):
        before_the_offer(Position.from_dict({"players": [{"line": [2, 2, 3, 2]}, {"line": [2]}], "active": 0,
                                             "offer": 2}))
    stale = Position.from_dict({"players": [{"line": [2, 4]}, {"line": [3]}], "active": 0, "offer": 4})
    assert before_the_offer(stale).offer is None and before_the_offer(stale).line == (2, 4)


# ---------------------------------------------------------------------------------------------------------------
# In a real browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("live-data")
    with serve_advisor({"HIT_DATA_DIR": str(folder)}) as url:
        yield url, GameStore(folder / "games.sqlite")


def _click(page: Any, tap_: str) -> None:
    name = {"Take": re.compile(r"^Take the (\w+ )?\d+s?$")}.get(tap_, tap_)
    page.get_by_test_id("stButton").get_by_role("button", name=name, exact=True).click()


def _wait_saved(page: Any, before: int | None) -> None:
    page.wait_for_function(
        "([before]) => { const m = document.querySelector('[data-testid=stMain]').innerText"
        ".match(/Saved after every tap: (\\d+) record lines/); "
        "return (m && Number(m[1]) !== before) || document.body.innerText.includes('Game over'); }",
        arg=[before], timeout=60000)
    settle(page)


def _page_verdict(page: Any) -> str:
    from playwright.sync_api import expect

    box = page.locator(".st-key-verdict").get_by_test_id("stAlertContentSuccess")
    expect(box).to_be_visible(timeout=60000)
    settle(page)
    expect(box).to_have_count(1)  # one verdict once the run is done (no second run to highlight a button)
    return str(box.inner_text())


def _compare_with_cli(page: Any, game: Any, name: str) -> None:
    """The verdict on the page is the command line's advice on the same position: `win`'s chance to win (the
    page leads with it), and beside it `bank`'s points (or, where the page says `bank` went past its time
    limit, that)."""
    text = _page_verdict(page)
    position = json.loads(position_of(game).to_json())
    w = cli(position, "--model", "win")
    whose = "Your" if name == "Ann" else f"{name}'s"  # Ann is you
    plan = w["action"].upper()
    if w["steal"] is not None:
        plan = f"{w['steal']['action'].upper()} the steal, then {plan}"
        assert f"Take: {w['steal']['take']:.1%}; decline: {w['steal']['decline']:.1%}." in text, text
    kind = "an estimate" if w["approximation"] else "exact"
    assert text.startswith(f"{name}: {plan}") and f"{whose} chance to win, {kind}:" in text, text
    if w["stop"] is None:
        assert f"Draw: {w['draw']:.1%}" in text, text
    else:
        assert f"Stop: {w['stop']:.1%}; draw: {w['draw']:.1%}." in text, text
    points = page.locator(".st-key-points").inner_text()
    if "needs over" not in points:
        b = cli(position, "--model", "bank")
        unit = f"points that reach {'your' if name == 'Ann' else whose} loot"
        numbers = f"stop {b['stop']:.2f}, draw {b['draw']:.2f}" if b["stop"] is not None else f"draw {b['draw']:.2f}"
        assert unit in points and numbers in points, points


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                    reason=f"{CHROMIUM} is not installed (make test installs it)")
def test_a_game_recorded_by_clicks_from_its_first_card_to_its_last(served):
    from playwright.sync_api import expect

    url, store = served
    table = short_table()
    query = {"players": "2", "active": "0", "loot0": ",".join(map(str, table["players"][0]["loot"])),
             "lost0": "2", "loot1": ",".join(map(str, table["players"][1]["loot"])), "lost1": "1",
             "line1": "6,9", "discard": "3,3,7"}
    with chromium("test_a_game_recorded_by_clicks_from_its_first_card_to_its_last") as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        # Join the game under way from the advisor's table.
        page.goto(url + "/?" + "&".join(f"{k}={v}" for k, v in query.items()))
        # The table's advice in first, as a player reads it before following the game: a page switch in the
        # instant the page looks for its answers can meet a Streamlit race (an auto-rerun of the poller sent
        # before the switch reaches the browser) that leaves the new page blank; see docs/PERFORMANCE.md.
        expect(page.locator(".st-key-verdict").get_by_test_id("stAlertContentSuccess")).to_be_visible(timeout=60000)
        settle(page)
        page.get_by_role("button", name="Follow this game live").click()
        expect(page.get_by_text("Joining a game under way: 2 players, seat 1 to play, a turn about to start, "
                                "14 cards in the pile.")).to_be_visible(timeout=60000)
        settle(page)
        for seat, name in enumerate(["Ann", "Bob"]):
            box = page.get_by_label(f"Seat {seat + 1}", exact=True)
            box.fill(name)
            box.press("Enter")
            settle(page)
        page.get_by_role("button", name="Start recording").click()
        page.wait_for_url(re.compile(r"/live\?game=\d+$"), timeout=60000)
        gid = int(page.url.rsplit("=", 1)[1])
        _wait_saved(page, None)
        game = mirror()
        compared = 0
        for k, what in enumerate(SHORT_SCRIPT):
            name = ["Ann", "Bob"][game.active]
            expect(page.get_by_text(re.compile(rf"^{name} \(seat {game.active + 1}[,)]")).first).to_be_visible()
            if k in (1, 7, 13):  # a steal to decline, Bob's stop-or-draw, a steal to take
                _compare_with_cli(page, game, name)
                compared += 1
            if k == 7:  # a reload in the middle resumes the game where it was
                before = (saved_lines(page), _page_verdict(page))
                page.reload()
                _wait_saved(page, None)
                assert (saved_lines(page), _page_verdict(page)) == before
            if k == 10:  # a mistaken card, taken back
                assert page.get_by_role("button", name="6", exact=True).is_disabled()  # none left
                n = saved_lines(page)
                _click(page, "7")
                _wait_saved(page, n)
                n = saved_lines(page)
                _click(page, "Undo")
                _wait_saved(page, n)
            if k == 13:  # a phone in another tab: the verdict and the cards in view; it takes the steal first
                phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
                phone.goto(page.url)
                verdict_box = phone.locator(".st-key-verdict").get_by_test_id("stAlertContentSuccess")
                expect(verdict_box).to_contain_text("the steal", timeout=60000)
                settle(phone)
                phone.wait_for_timeout(500)
                assert in_view(verdict_box, 844), verdict_box.bounding_box()
                for label in ("1", "10", "Take the 8", "Decline"):  # Bob's one 8
                    assert in_view(phone.get_by_role("button", name=label, exact=True), 844), label
                widths = phone.evaluate("() => [document.documentElement.scrollWidth,"
                                        " document.querySelector('[data-testid=stMain]').scrollWidth]")
                assert max(widths) <= 390, widths
                ARTIFACTS.mkdir(exist_ok=True)
                phone.screenshot(path=str(ARTIFACTS / "live-phone.png"))
                page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
                page.wait_for_timeout(300)
                page.screenshot(path=str(ARTIFACTS / "live.png"))
                n = saved_lines(phone)
                _click(phone, "Take")
                _wait_saved(phone, n)
                phone.close()
                _click(page, "Take")  # too late: the phone took it
                expect(page.get_by_text("This game moved on in another tab, so that tap was not applied")
                       ).to_be_visible(timeout=60000)
                settle(page)
                step(game, what)
                continue
            n = saved_lines(page)
            _click(page, what)
            step(game, what)
            _wait_saved(page, n)
        assert compared == 3
        expect(page.get_by_test_id("stAlertContentSuccess").get_by_text("Game over")).to_be_visible(timeout=60000)
        settle(page)
        # The final scores on the page are the rules engine's replay of the saved record, and the mirror's.
        match = replay(store.export(gid)).match
        totals = match.totals()
        assert [p.score for p in totals] == [p.score for p in game.players]
        shown = [[c.inner_text().strip() for c in row.locator("td").all()]
                 for row in page.get_by_test_id("stTable").first.locator("tbody tr").all()]
        assert shown == [[str(place), str(seat + 1), ["Ann", "Bob"][seat], str(totals[seat].score),
                          str(len(totals[seat].loot)), str(totals[seat].lost_turns)]
                         for place, seat in enumerate(match.ranking(), start=1)], shown
        steals = [json.loads(r) for r in store.lines(gid) if '"steal"' in r]
        assert [e["value"] for e in steals] == [9, 8]  # the phone's steal counted once
        assert [e.value for e in replay(store.export(gid)).game.log if type(e).__name__ == "Drew"] == \
            SHORT_ORDER
        page.close()


def _card_top(page: Any) -> int:
    """Where the card button 1 stands in the page (not on the screen: the page may have scrolled)."""
    return int(page.evaluate("""() => {
        const main = document.querySelector('[data-testid=stMain]');
        const button = [...document.querySelectorAll('.st-key-live_card_1 button')].pop();
        return Math.round(button.getBoundingClientRect().top + main.scrollTop + window.scrollY); }"""))


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                    reason=f"{CHROMIUM} is not installed (make test installs it)")
def test_four_players_on_a_phone_the_steal_is_one_tap_away(served):
    """The longest verdict (a steal on offer, four players' chances to win) and its buttons fit a
    390x844 screen; names typed with markdown or a link stay text. The card buttons stand where they stood
    from tap to tap, while the advice is worked out and once it is in (they moved by up to 150 pixels:
    the tap a hurried finger made on a card landed on the card beside it, or on nothing), and when a tap
    is refused."""
    from playwright.sync_api import expect

    url, store = served
    with chromium("test_four_players_on_a_phone_the_steal_is_one_tap_away") as browser:
        phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        phone.goto(url + "/live")
        expect(phone.get_by_role("button", name="Start recording")).to_be_visible(timeout=60000)
        settle(phone)
        phone.get_by_test_id("stButtonGroup").first.get_by_text("4", exact=True).click()
        settle(phone)
        for seat, name in enumerate(["Ann", "**Bob**", "[x](http://evil.example)", "Dee"]):
            box = phone.get_by_label(f"Seat {seat + 1}", exact=True)
            box.fill(name)
            box.press("Enter")
            settle(phone)
        phone.get_by_role("button", name="Start recording").click()
        phone.wait_for_url(re.compile(r"/live\?game=\d+$"), timeout=60000)
        _wait_saved(phone, None)
        tops = [_card_top(phone)]  # the card buttons stay put: the advice keeps its room, worked out or not
        for what in ["5", "7", "Stop", "7"]:
            n = saved_lines(phone)
            _click(phone, what)
            phone.wait_for_timeout(100)
            tops.append(_card_top(phone))
            _wait_saved(phone, n)
            tops.append(_card_top(phone))
        verdict_box = phone.locator(".st-key-verdict").get_by_test_id("stAlertContentSuccess")
        expect(verdict_box).to_contain_text("**Bob**: ", timeout=60000)
        settle(phone)
        expect(verdict_box).to_have_count(1)
        expect(verdict_box).to_contain_text(" the steal, then ")
        settle(phone)
        tops.append(_card_top(phone))
        assert len(set(tops)) == 1, tops
        phone.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
        phone.wait_for_timeout(500)
        for element in (verdict_box, *(phone.get_by_role("button", name=label, exact=True)
                                      for label in ("10", re.compile(r"^Take the (\w+ )?7s?$"), "Decline", "Undo"))):
            assert in_view(element, 844), element
        assert phone.locator("[data-testid=stMain] a[href*='evil']").count() == 0
        assert phone.locator("[data-testid=stMain] strong", has_text="Bob").first.inner_text() == \
            "**Bob** (seat 2)"
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "live-phone-four.png"))
        # A tap on a table another tab has moved on is refused, and says so under the buttons: they stay put.
        other = browser.new_page()
        other.goto(phone.url)
        expect(other.get_by_role("button", name="Decline", exact=True)).to_be_visible(timeout=60000)
        settle(other)
        n = saved_lines(other)
        _click(other, "Decline")
        _wait_saved(other, n)
        other.close()
        _click(phone, "Decline")
        note = phone.get_by_text("moved on in another tab")
        expect(note).to_be_visible(timeout=60000)
        settle(phone)
        assert _card_top(phone) == tops[0] and in_view(note, 844)
        phone.close()


def _primary(at: AppTest) -> list[str]:
    return [b.key for b in at.button
            if b.key in ("live_take", "live_decline") and b.proto.type == "primary"]


#: A steal `bank` declines (taking the 5 leaves 11 points face up for the opponent): tests/test_app.py's.
#: The highlighted button is the headline's choice, the chance to win's.
DECLINED = {"players": [{"line": [1, 5], "loot": [5, 7, 6, 9, 6, 6, 5, 9, 4], "lost_turns": 2},
                        {"line": [9, 5], "loot": [10, 3, 3], "lost_turns": 1}],
            "active": 0, "discard": [3, 3, 2, 2, 2, 3, 2, 4, 6, 1, 5, 8, 3, 5, 5, 6, 2, 2, 2], "offer": 5}


def test_the_highlighted_steal_button_is_the_one_the_advice_recommends(data):
    """A hurried thumb goes to the red button: it is Decline when the advice declines, Take when it takes."""
    at = start(live_page(join=DECLINED), ["Ann", "Bob"])
    assert MODELS["bank"].advise(Position.from_dict(DECLINED), FLOAT).steal.action is Action.DECLINE
    choice = win_of(DECLINED).steal.action  # the headline's: the chance to win
    assert verdict(at).startswith(f"### Ann: {'TAKE' if choice is Action.STEAL else 'DECLINE'} the steal")
    assert _primary(at) == ["live_take" if choice is Action.STEAL else "live_decline"]
    at = start(live_page(join=short_table()), ["Ann", "Bob"])
    game = mirror()
    for what in SHORT_SCRIPT[:5]:
        at = tap(at, what)
        step(game, what)
        if what in ("6", "9"):  # a steal on offer
            take = win_of(position_of(game)).steal.action is Action.STEAL
            assert verdict(at).startswith(f"### Ann: {'TAKE' if take else 'DECLINE'} the steal")
            assert _primary(at) == ["live_take" if take else "live_decline"]


def test_the_status_line_says_you_once_and_counts_cards_in_the_singular(data):
    from game_pages import last_card_table

    at = start(live_page(join=last_card_table()), ["Ann", "Bob"])
    assert "**Ann (seat 1, you)** to play" in texts(at) and " 1 card in the pile" in texts(at), texts(at)


def test_the_saved_games_picker_starts_on_the_game_open(data):
    """Delete, Rename and Download apply to the picked game: it is the one on screen, not the newest."""
    LiveGame.start(data, "first", "live", ["Ann", "Bob"], first=0, settings={"you": 0})
    LiveGame.start(data, "second", "live", ["Cy", "Di"], first=0, settings={"you": 0})
    at = live_page({"game": "1"})
    assert not at.exception
    assert at.selectbox(key="live_saved_pick_1").value == 1
    assert at.text_input(key="live_rename_1")


def test_the_last_cards_steal_is_advised_without_a_model(data):
    """R9: the last card of the pile offers a steal. No position has an empty pile, so no model is asked:
    the page says to take it (it only adds to a line about to be banked), and the game then ends."""
    from game_pages import last_card_table

    at = start(live_page(join=last_card_table()), ["Ann", "Bob"])
    tap(at, "5")
    assert not at.exception
    assert verdict(at) == ("### Ann: TAKE the steal\nThat was the last card of the pile: once this steal is "
                           "decided the game ends and every line goes to its loot (R9), so taking the 5 adds 5 "
                           "points to Ann's loot and costs nothing.")
    assert not [b for b in at.button if b.key == "live_to_advisor"]  # the advisor takes no empty pile
    tap(at, "Take")
    assert not at.exception and at.success[0].value.startswith("### Game over")
    assert LiveGame(data, 1).over


def test_a_tap_that_cannot_be_saved_does_not_count(data, monkeypatch):
    import sqlite3

    at = start(live_page(), ["Ann", "Bob"])
    real = GameStore.append

    def broken(self, gid, expected, new, **checks):  # type: ignore[no-untyped-def]
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(GameStore, "append", broken)
    tap(at, "7")
    assert not at.exception
    assert unescape(at.warning[0].value) == "That tap could not be saved (disk I/O error), so it did not count."
    monkeypatch.setattr(GameStore, "append", real)
    assert LiveGame(data, 1).game.players[0].line == []
    tap(at, "7")
    assert LiveGame(data, 1).game.players[0].line == [7] and not at.warning


def test_a_table_whose_steal_could_not_be_on_offer_is_named_not_followed(data):
    """The advisor refuses such a table (a 5 onto three cards holding a 5 loses the turn, R5), so it offers
    no "follow"; one left from an older session is named, and a new game is set up instead."""
    table = {"players": [{"line": [5, 1, 2, 5]}, {"line": [5]}], "active": 0, "offer": 5}  # seat 0 drew it
    at = live_page(join=table)
    assert not at.exception
    assert unescape(at.error[0].value).startswith("The advisor's table cannot be followed: offer: a 5 drawn onto 5 1 "
                                                  "2 (three or more face-up cards, one a 5) loses the turn (R5)")
    table["offer"], table["players"][0]["line"] = 4, [1, 2]  # a 4 seat 0 does not hold: seats from 1, as here
    assert "the active player (Seat 1) has no 4" in unescape(live_page(join=table).error[0].value)
    assert at.subheader[0].value == "New game"
    start(at, ["Ann", "Bob"])
    assert not at.exception and len(data.games()) == 1  # from the first card


def test_a_review_says_its_worst_case_time_first_and_shows_its_progress(data):
    """`bank` may take minutes on a long game: the page says how long at most before it starts, and a bar
    follows the decisions (solver.play.review.review's progress callback)."""
    from solver.play.review import review
    from views.game_view import decisions_in, review_time

    at = start(live_page(join=short_table()), ["Ann", "Bob"])
    for what in SHORT_SCRIPT:
        tap(at, what)
    text = data.export(1)
    seen: list[int] = []
    result = review(text, "turn", progress=seen.append)
    assert decisions_in(text) == len(result.decisions) == len(seen) > 5 and seen == list(range(1, len(seen) + 1))
    n = len(seen)
    assert review_time(n, "bank").startswith("up to ") and review_time(n, "turn") == ""
    assert review_time(n, "win").startswith("a few seconds as a rule") and "at most 1 s" in review_time(n, "win")
    at.radio(key="live_review_model").set_value("bank").run()
    assert not at.exception
    assert any(c.value.startswith(f"A review with `bank` takes up to ") and f"({n} decisions" in c.value
               for c in at.caption), [c.value for c in at.caption]


@pytest.mark.parametrize("round_", [2, 3])
def test_a_match_joined_under_way_is_followed_as_one_game_and_says_so(data, round_):
    # R15: a record holds rounds from their first card, so it cannot carry a match's earlier totals. Joined
    # with them, the advice counted them while the standings left them out (a seat given 0% was then named
    # the winner). Such a table is now followed as one game, and the page says so before it starts.
    join = {"players": [{"line": [3]}, {"line": [5, 5]}], "active": 0,
            "match": {"round": round_, "rounds": 3, "earlier": [{"points": 40, "cards": 10, "lost_turns": 1},
                                                                 {"points": 30, "cards": 8, "lost_turns": 0}]}}
    at = live_page(join=join)
    said = [w.value for w in at.warning if f"round {round_} of 3 of a match" in w.value]
    assert said and "follows this round as one game" in said[0], said
    at = start(at, ["Ann", "Bob"])
    assert not at.exception
    live = LiveGame(data, 1)
    assert live.replayed.match.rounds == 1 and live.position().match is None
    assert live.position() == Position.from_dict({**join, "match": None})


def test_a_joined_table_the_rules_cannot_reach_gets_a_message_not_a_crash(data):
    # short_table() shows 3 lost turns and 3 cards in the discard (a lost turn discards four or more). Its next
    # round's totals then hold more cards than a round deals, and the page crashed there, and on every reopening
    # of the game, with Undo never drawn. It now says why there is no advice, and Undo takes the step back.
    # The page's setup now refuses more rounds from such a table; a game saved before that, or imported,
    # still holds one.
    LiveGame.start(data, "old", "live", ["Ann", "Bob"], 0, rounds=2, start=Position.from_dict(short_table()))
    at = live_page({"game": "1"})
    for what in SHORT_SCRIPT:
        at = tap(at, what)
    assert not at.exception
    assert any("No advice: this table cannot be worked out" in e.value for e in at.error), [e.value for e in at.error]
    assert not button(at, "live_undo").disabled
    again = live_page({"game": "1"})  # reopened: the same message, no crash
    assert not again.exception and any("cannot be worked out" in e.value for e in again.error)


def test_more_rounds_from_a_table_with_a_short_discard_are_refused_before_recording(data):
    # short_table() shows 3 lost turns and 3 discarded cards: the rounds after it could never be counted (its
    # totals would hold more cards than the rounds deal), so a match from it is refused, saying why; one round
    # is taken.
    at = live_page(join=short_table())
    at.selectbox(key="live_rounds").set_value(2).run()
    at = start(at, ["Ann", "Bob"])
    assert not at.exception and data.games() == []
    assert any("3 lost turns and 3 cards in the discard" in e.value for e in at.error), [e.value for e in at.error]
    at.selectbox(key="live_rounds").set_value(1).run()
    at = at.button(key="live_start").click().run()
    assert not at.exception and len(data.games()) == 1


def test_live_game_refuses_a_start_in_a_later_round_of_a_match(data):
    join = Position.from_dict({"players": [{"line": [3]}, {"line": [5, 5]}], "active": 0,
                               "match": {"round": 2, "rounds": 3, "earlier": [{"points": 40, "cards": 10,
                                                                               "lost_turns": 1}, {}]}})
    with pytest.raises(ValueError, match=r"later round of a match \(R15\) is followed as one game"):
        LiveGame.start(data, "x", "live", ["Ann", "Bob"], 0, start=join)
    assert data.games() == []
