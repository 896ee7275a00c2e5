"""Live and practice games (solver.play.live): the rules engine applies every tap, the store keeps every line."""

from __future__ import annotations

import json

import pytest

from solver.play.live import GameMovedOn, LiveGame
from solver.play.policies import make
from solver.game.position import Position
from solver.game.record import RecordError, lines, replay
from solver.game.rules import Drew, IllegalActionError, Match, Phase
from solver.play.store import GameStore, NoSuchGame
from solver.play.tournament import Pairing, play_deal


@pytest.fixture
def store(tmp_path):
    return GameStore(tmp_path / "games.sqlite")


def follow(live: LiveGame, game_cards: list[int], bots) -> None:
    """Play ``live`` to the end as the bots choose, revealing ``game_cards`` in order."""
    cards = iter(game_cards)
    while not live.over:
        action = bots[live.game.active](live.game)
        live.act(action, next(cards) if action.value == "draw" else None)


def test_a_game_followed_tap_by_tap_is_the_engines_game(store):
    game, _ = play_deal(Pairing("turn", "bust", 3), 4, 0, 2)
    cards = [e.value for e in game.log if isinstance(e, Drew)]
    live = LiveGame.start(store, "table", "live", ["A", "B", "C"], first=game.first)
    bots = [make("bust"), make("bust"), make("turn")]
    follow(live, cards, bots)
    m = Match(3)
    m.games.append(game)
    assert [json.loads(r) for r in live.rows][1:] == lines(m, ["A", "B", "C"])[1:]
    assert live.over and json.loads(live.rows[-1])["scores"] == [p.score for p in game.players]


def test_reload_resumes_and_undo_goes_back_any_number_of_steps(store):
    game, _ = play_deal(Pairing("turn", "turn", 2), 9, 0, 0)
    cards = [e.value for e in game.log if isinstance(e, Drew)]
    live = LiveGame.start(store, "t", "live", ["A", "B"], first=game.first)
    bots = [make("turn"), make("turn")]
    it = iter(cards)
    for _ in range(40):
        action = bots[live.game.active](live.game)
        live.act(action, next(it) if action.value == "draw" else None)
    again = LiveGame(store, live.gid)  # a reload, or a restarted server
    assert again.rows == live.rows and again.position() == live.position()
    snapshots = []
    while again.can_undo():
        snapshots.append(list(again.rows))
        again.undo()
    assert len(again.rows) == 2 and again.game.phase is Phase.MUST_DRAW  # back to the first card
    assert len(snapshots) == sum(1 for r in live.rows if json.loads(r).get("event") in
                                 ("draw", "steal", "decline", "stop"))
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        again.undo()


def test_two_tabs_the_second_is_told_and_sees_the_first(store):
    first = LiveGame.start(store, "t", "live", ["A", "B"], first=0)
    second = LiveGame(store, first.gid)
    first.act("draw", 5)
    with pytest.raises(GameMovedOn):
        second.act("draw", 9)
    assert second.rows == first.rows and second.game.players[0].line == [5]  # reloaded: the first tab's card
    second.act("draw", 9)
    first.reload()
    assert first.game.players[0].line == [5, 9]


def test_rounds_variant_rotates_the_first_seat_and_ends_with_totals(store):
    live = LiveGame.start(store, "r", "practice", ["A", "B", "C"], first=2, rounds=2, seed=5)
    bot = make("threshold:20")
    while not live.over:
        action = bot(live.game)
        live.act(action, live.dealt() if action.value == "draw" else None)
    rounds = [json.loads(r) for r in live.rows if json.loads(r).get("event") == "round"]
    assert [(r["round"], r["first"]) for r in rounds] == [(1, 2), (2, 0)]
    end = json.loads(live.rows[-1])
    totals = live.replayed.match.totals()
    assert end["scores"] == [p.score for p in totals] and end["winner"] == live.replayed.match.winner()
    assert sum(end["scores"]) + sum(sum(g.discard) for g in live.replayed.match.games) == 2 * 445


def test_practice_deals_the_same_cards_after_a_reload_or_a_redo(store):
    live = LiveGame.start(store, "p", "practice", ["me", "bot"], first=0, seed=11)
    card = live.dealt()
    assert LiveGame(store, live.gid).dealt() == card and live.game.pile_counts()[card - 1] > 0
    live.act("draw", card)
    live.undo()
    assert live.dealt() == card


def test_the_timer_applies_r14_and_undoes_as_one_step(store):
    live = LiveGame.start(store, "t", "live", ["A", "B"], first=0)
    live.timeout(4)  # before the first card: one is drawn for the player, then the turn ends
    assert live.game.active == 1 and live.game.players[0].line == [4]
    live.act("draw", 6)
    live.timeout()  # with a card down: the turn ends
    assert live.game.active == 0
    live.undo()
    assert live.game.active == 1 and live.game.phase is Phase.CHOOSE
    live.undo()
    live.undo()
    assert len(live.rows) == 2


def test_a_game_joined_under_way(store):
    pos = Position.from_dict({"players": [{"line": [3, 4], "loot": [10, 10]}, {"loot": [9]}], "active": 1,
                              "discard": [1, 1]})
    live = LiveGame.start(store, "j", "live", ["A", "B"], first=0, start=pos)
    assert live.position() == pos
    live.act("draw", 3)
    assert live.game.phase is Phase.STEAL  # seat 1 may steal seat 0's 3
    live.act("steal")
    assert live.game.players[1].line == [3, 3] and live.game.players[0].line == [4]
    assert replay(store.export(live.gid)).game.players[1].line == [3, 3]


@pytest.mark.parametrize("kwargs, message", [
    ({"names": ["A"]}, "Hit! is for 2 to 5 players, not 1"),
    ({"names": ["A", "B"], "first": 2}, "seat 3 does not exist"),
    ({"names": ["A", "B"], "rounds": 9}, "not 9"),
])
def test_bad_setups_are_named(store, kwargs, message):
    with pytest.raises(ValueError, match=message):
        LiveGame.start(store, "x", "live", **{"first": 0, **kwargs})


def test_an_illegal_tap_changes_nothing(store):
    tens = Position.from_dict({"players": [{"loot": [10] * 7}, {}], "active": 0})
    live = LiveGame.start(store, "t", "live", ["A", "B"], first=0, start=tens)
    rows = list(live.rows)
    with pytest.raises(IllegalActionError, match="'stop' is not legal"):
        live.act("stop")
    with pytest.raises(IllegalActionError, match="no card of value 10 is left"):
        live.act("draw", 10)
    assert LiveGame(live.store, live.gid).rows == live.rows == rows


def test_a_tab_is_refused_when_another_undid_and_played_on_to_the_same_count(store):
    first = LiveGame.start(store, "t", "live", ["A", "B"], first=0)
    first.act("draw", 5)
    second = LiveGame(store, first.gid)  # both tabs show seat 0 holding a 5
    first.undo()
    first.act("draw", 7)  # as many lines as before, the last one another card
    assert len(first.rows) == len(second.rows) and first.rows[-1] != second.rows[-1]
    with pytest.raises(GameMovedOn):
        second.act("stop")
    assert second.game.players[0].line == [7]  # reloaded: the other tab's card, not a stop on a 5
    assert replay(store.export(first.gid)).game.players[0].line == [7]


def test_a_tab_is_refused_when_an_earlier_line_changed_even_if_the_last_is_the_same(store):
    first = LiveGame.start(store, "t", "live", ["A", "B"], first=0)
    first.act("draw", 3)
    first.act("draw", 5)
    second = LiveGame(store, first.gid)
    first.undo()
    first.undo()
    first.act("draw", 4)
    first.act("draw", 5)  # the same count and the same last line; the line before differs
    assert first.rows[-1] == second.rows[-1] and first.rows != second.rows
    with pytest.raises(GameMovedOn):
        second.act("stop")  # it would save a stop on 3 5, which the rules refuse on 4 5
    second.act("stop")
    assert replay(store.export(first.gid)).game.players[0].line == [4, 5]


def test_a_tap_for_a_deleted_game_is_told_so_and_lands_nowhere(store):
    old = LiveGame.start(store, "old", "live", ["A", "B"], first=0)
    store.delete(old.gid)
    new = LiveGame.start(store, "new", "live", ["C", "D"], first=0)
    with pytest.raises(NoSuchGame):
        old.act("draw", 5)
    assert old.game.players[0].line == [] and old.game.phase is Phase.MUST_DRAW  # the tap did not count
    with pytest.raises(NoSuchGame):
        old.timeout(4)
    assert LiveGame(store, new.gid).rows == new.rows


def test_a_saved_game_with_no_round_is_a_record_error_not_a_crash(store):
    gid = store.create("old", "live", {"record": "hit", "version": 1, "players": 2})  # as old code could leave
    with pytest.raises(RecordError, match=rf"^saved game {gid} \(old\): line 1: the record has only its header"):
        LiveGame(store, gid).game
    live = LiveGame.start(store, "new", "live", ["A", "B"], first=1)
    assert store.game(live.gid).lines == 2 and live.game.active == 1  # the header and its round, saved as one


@pytest.mark.parametrize("name, message", [("****", "has no letter or digit"), ("A\nB", "holds a control character"),
                                           ("x" * 41, "is 41 characters long")])
def test_a_name_the_record_would_refuse_is_refused_before_the_game_is_saved(store, name, message):
    with pytest.raises(ValueError, match=rf"the name of seat 2 {message}"):
        LiveGame.start(store, "x", "live", ["Ann", name], first=0)
    assert store.games() == []
