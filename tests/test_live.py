"""Live and practice games (solver.live): the rules engine applies every tap, the store keeps every line."""

from __future__ import annotations

import json

import pytest

from solver.live import GameMovedOn, LiveGame
from solver.policies import make
from solver.position import Position
from solver.record import lines, replay
from solver.rules import Drew, IllegalActionError, Match, Phase
from solver.store import GameStore
from solver.tournament import Pairing, play_deal


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
