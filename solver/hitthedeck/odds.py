"""Exact odds from one player's knowledge (rulings H13 and H14), as :class:`~fractions.Fraction`.

The information model (H13): every way the unseen cards could lie is
equally likely, so each opponent's hand is a uniform random subset, of its
size, of the unseen cards, and the next card drawn is a uniform random
unseen card. The advisor does not infer anything from what it saw players
do (that an opponent drew, so held no card that fitted; which cards went
back into the draw pile; the order of a flipped pile). The chances are
exact under that model.

An opponent with ``k`` cards holds at least one of ``f`` favourable cards
among ``u`` unseen with the hypergeometric chance ``1 - C(u - f, k) / C(u, k)``.

>>> from solver.hitthedeck.knowledge import Knowledge
>>> k = Knowledge.from_dict({"hand": ["red 5", "hit 3", "blue 1"], "top": "red 2", "opponents": [1, 7]})
>>> o = odds(k)  # 106 unseen; on the red 5: 21 red, 12 other 5s, 17 Hit the Deck cards
>>> [(str(p.card), p.followers, p.follow[0]) for p in o.plays]
[('red 5', 50, Fraction(25, 53)), ('hit 3', 16, Fraction(8, 53))]
>>> o.draw_playable, o.hand_points, o.opponent_points[0]
(Fraction(25, 53), 16, Fraction(261, 53))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from .cards import Card, Kind
from .knowledge import Knowledge
from .matching import demand_of, demand_text, fits

__all__ = ["Odds", "PlayOdds", "chance_holds", "effect", "followers", "odds", "play_odds"]


@dataclass(frozen=True)
class PlayOdds:
    """What happens after one card the player could play.

    ``followers``: unseen cards that could be played on it (or meet its
    demand). ``follow[i]``: the chance that opponent ``i`` (in order of
    play) holds at least one of them, as if it were to play on this card.
    ``next_follows``: the chance that the next player follows this card
    from her hand: ``follow[0]``, but 0 for a Cut (she is skipped) and a
    Flip (play comes back to you) (H14).
    """

    card: Card
    points: int
    followers: int
    follow: tuple[Fraction, ...]
    next_follows: Fraction
    effect: str


@dataclass(frozen=True)
class Odds:
    """Everything the advisor computes for one player's knowledge.

    ``plays``: one :class:`PlayOdds` per different card it may play, in
    hand order. ``draw_playable``: the chance that the next card it draws can
    be played on the top card (``draw_followers`` of the ``unseen`` cards
    can; when the opponents hold every unseen card, the draw pile can only
    be the known discard reshuffled, H10, and the chance is taken from it).
    ``opponent_points[i]``: the expected points in opponent ``i``'s hand.
    """

    knowledge: Knowledge
    unseen: int
    hand_points: int
    draw_followers: int
    draw_playable: Fraction
    opponent_points: tuple[Fraction, ...]
    plays: tuple[PlayOdds, ...]


def chance_holds(hand_size: int, favourable: int, unseen: int) -> Fraction:
    """The chance a uniform ``hand_size``-card subset of ``unseen`` cards holds one of ``favourable``.

    >>> chance_holds(1, 3, 4), chance_holds(2, 1, 4), chance_holds(3, 2, 4), chance_holds(2, 0, 4)
    (Fraction(3, 4), Fraction(1, 2), Fraction(1, 1), Fraction(0, 1))
    """
    if not 0 <= favourable <= unseen or not 0 <= hand_size <= unseen:
        raise ValueError(f"no hand of {hand_size} from {unseen} unseen cards with {favourable} favourable")
    return 1 - Fraction(comb(unseen - favourable, hand_size), comb(unseen, hand_size))


def followers(card: Card, unseen: Mapping[Card, int]) -> int:
    """How many unseen cards could be played on ``card`` if it were the top card (H4, H8, H9)."""
    return sum(n for c, n in unseen.items() if fits(c, card))


def effect(card: Card, players: int) -> str:
    """What playing ``card`` does, in words (H6 to H9).

    >>> from solver.hitthedeck.cards import parse_card as c
    >>> effect(c("blue cut"), 2), effect(c("hit red"), 3)
    ('the next player is skipped and you play again', 'the next player must play a red card')
    """
    if card.kind is Kind.CUT:
        return "the next player is skipped and you play again" if players == 2 else "the next player is skipped"
    if card.kind is Kind.FLIP:
        return "the piles are swapped, play turns round and you play again"
    d = demand_of(card)
    if d is not None:
        return f"the next player must play {demand_text(d)}"
    if card.kind is Kind.HIT_HAND:
        return "the last hand on the pile draws four; the next player may play any card"
    return "the next player must match its colour or number"


def play_odds(knowledge: Knowledge, card: Card) -> PlayOdds:
    """The odds after ``knowledge``'s player plays ``card`` (which must be one of its legal plays)."""
    if card not in knowledge.legal_plays():
        raise ValueError(f"the {card} is not a card this player can play on the {knowledge.top}")
    unseen = knowledge.unseen()
    u = knowledge.unseen_count
    f = followers(card, unseen)
    follow = tuple(chance_holds(k, f, u) for k in knowledge.opponents)
    blocked = card.kind in (Kind.CUT, Kind.FLIP)  # H14: skipped, or play comes back to you
    return PlayOdds(card, card.points, f, follow, Fraction(0) if blocked else follow[0],
                    effect(card, knowledge.players))


def odds(knowledge: Knowledge) -> Odds:
    """Every chance the advisor reports for ``knowledge`` (H13, H14)."""
    unseen = knowledge.unseen()
    u = knowledge.unseen_count
    unseen_points = sum(c.points * n for c, n in unseen.items())
    draw = followers(knowledge.top, unseen)
    if u > sum(knowledge.opponents):  # the next card drawn is a uniform unseen card
        draw_playable = Fraction(draw, u)
    elif knowledge.discard:  # the opponents hold every unseen card: the draw pile is the known discard, reshuffled
        draw_playable = Fraction(sum(fits(c, knowledge.top) for c in knowledge.discard), len(knowledge.discard))
    else:  # nothing at all to draw (H10)
        draw_playable = Fraction(0)
    return Odds(
        knowledge=knowledge,
        unseen=u,
        hand_points=knowledge.hand_points,
        draw_followers=draw,
        draw_playable=draw_playable,
        opponent_points=tuple(Fraction(k * unseen_points, u) for k in knowledge.opponents),
        plays=tuple(play_odds(knowledge, c) for c in knowledge.legal_plays()),
    )
