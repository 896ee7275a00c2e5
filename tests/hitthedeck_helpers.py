"""Helpers for the Hit the Deck tests: stacked decks and resumed tables."""

from __future__ import annotations

from collections import Counter

from solver.hitthedeck.cards import COPIES, parse_card, parse_cards, sort_cards
from solver.hitthedeck.rules import HAND_SIZE, Round


def c(text):
    return parse_card(text)


def cs(*texts):
    return tuple(parse_cards(texts))


def stacked(players, dealer=0, hands=None, then=()):
    """A full deck order (top card last) that deals ``hands`` (seat -> cards, the rest filled in
    from a fixed filler) one card at a time from the dealer's left, then turns up ``then`` in order."""
    hands = {s: list(h) for s, h in (hands or {}).items()}
    pool = Counter(COPIES)
    for card in [x for h in hands.values() for x in h] + list(then):
        assert pool[card] > 0, f"more {card} than the deck has"
        pool[card] -= 1
    filler = sort_cards(pool.elements())
    full = {}
    for s in range(players):
        h = hands.get(s, [])
        full[s] = h + [filler.pop() for _ in range(HAND_SIZE - len(h))]
    pops = [full[(dealer + 1 + j) % players][k] for k in range(HAND_SIZE) for j in range(players)]
    pops += list(then)
    return filler + pops[::-1], full


def table(hands, draw=(), discard=("red 1",), turn=0, direction=1, seed=0):
    """A hand resumed mid-play from card names; piles top card last."""
    return Round.resume([cs(*h) for h in hands], draw_pile=cs(*draw), discard=cs(*discard), turn=turn,
                        direction=direction, seed=seed)
