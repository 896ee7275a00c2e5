"""What may be played on what (rulings H4 and H8), written once for the engine and the odds.

Whether a demand is in force follows from the top card alone: a With a
Number or With a Colour card stays on top until a card meets its demand
(H8), so a top card of those kinds always carries its demand; on a With a
Hand card anything may be played (H9).

>>> from solver.hitthedeck.cards import parse_card as c
>>> fits(c("red 3"), c("red 5")), fits(c("blue 5"), c("red 5")), fits(c("blue 4"), c("red 5"))
(True, True, False)
>>> fits(c("hit blue"), c("red 5")), fits(c("red cut"), c("red 5")), fits(c("blue cut"), c("red cut"))
(True, True, False)
>>> fits(c("blue 3"), c("hit 3")), fits(c("hit 3"), c("hit 3")), fits(c("red cut"), c("hit red"))
(True, False, True)
>>> demand_of(c("hit 3")), demand_of(c("hit red")), demand_of(c("red 3"))
(3, <Colour.RED: 'red'>, None)
"""

from __future__ import annotations

from .cards import Card, Colour, Kind

__all__ = ["Demand", "demand_of", "demand_text", "fits"]

#: What a With a Number card (a number 1-5) or a With a Colour card (a colour) demands.
Demand = int | Colour


def demand_of(top: Card) -> Demand | None:
    """H8: the demand in force when ``top`` is on the discard pile, or None."""
    if top.kind is Kind.HIT_NUMBER:
        return top.number
    if top.kind is Kind.HIT_COLOUR:
        return top.colour
    return None


def demand_text(demand: Demand) -> str:
    """A demand in words: ``'a 3'`` or ``'a red card'`` (no Hit the Deck card meets either, H8).

    >>> demand_text(3), demand_text(Colour.BLUE)
    ('a number card 3', 'a blue card')
    """
    return f"a {demand.value} card" if isinstance(demand, Colour) else f"a number card {demand}"


def fits(card: Card, top: Card) -> bool:
    """Whether ``card`` may be played on ``top``.

    H4: by colour or by number; Cut and Flip cards have no number, so they
    match by colour only; a Hit the Deck card may go on any card. H8: on a
    With a Number card only a number card of its number, on a With a Colour
    card only a number, Cut or Flip card of its colour (no Hit the Deck
    card meets a demand). H9: on a With a Hand card, any card.
    """
    kind = top.kind
    if kind is Kind.HIT_HAND:
        return True
    if kind is Kind.HIT_NUMBER:
        return card.kind is Kind.NUMBER and card.number == top.number
    if kind is Kind.HIT_COLOUR:
        return not card.is_hit and card.colour == top.colour
    if card.is_hit:
        return True
    return card.colour == top.colour or (card.number is not None and card.number == top.number)
