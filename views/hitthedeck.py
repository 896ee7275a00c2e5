"""Hit the Deck odds: enter a real table of Fundex's Hit the Deck by taps and read the exact odds.

Hit the Deck is a different game from Hit! (``docs/HITTHEDECK.md``). The
page is a thin view of :mod:`solver.hitthedeck`: the player taps its hand,
the top card of the discard pile, the other cards seen on the discard and
the opponents' hand sizes in order of play; the demand in force follows from
the top card (H8). Every number shown comes from
:func:`solver.hitthedeck.advice.advise` (and its :class:`~solver.hitthedeck.odds.Odds`);
the page only formats them. A table that cannot be is the backend's
:class:`~solver.hitthedeck.knowledge.KnowledgeError`, shown as a message.

The table being entered is a :class:`Table` in the session; each tap is one
edit (a callback), and every edit can be undone. The table also lives in the
page's link (:mod:`solver.hitthedeck.link`), written on every run, so that a
reload (a phone that locked its screen, a browser that reconnected) opens
the same table: the first run of a session reads it back, leniently (a bad
parameter is named and skipped, the rest kept). The helpers above
:func:`page` are plain functions the tests import; the page itself is drawn
only when Streamlit runs this file.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd
import streamlit as st

from solver.hitthedeck.advice import Advice, Objective, advise
from solver.hitthedeck.cards import (CARDS, COLOURS, COPIES, DECK_SIZE, HIT_HAND, Card, Colour, Kind, cut, flip,
                                     hit_colour, hit_number, number)
from solver.hitthedeck.knowledge import MAX_OPPONENTS, Knowledge, KnowledgeError
from solver.hitthedeck.matching import demand_of, demand_text
from solver.hitthedeck.tournament import TournamentResult, tournament
from solver.hitthedeck.link import DEAL, ZONES, Link, read_query, to_query
from views.safe_text import counted, plain
from views.taps import guard

HERE = "htd"
ZONE_NAMES = {"hand": "Your hand", "top": "Top card", "discard": "Discard"}
PLAYERS = list(range(2, MAX_OPPONENTS + 2))
#: The most undo steps kept.
HISTORY = 500
NUMBERS = (1, 2, 3, 4, 5)
#: How many games a "What is the advice worth?" run may play.
GAMES = [100, 300, 1000]
BASELINES = {"highest": "highest: plays the most points", "first": "first: the first card that fits",
             "random": "random: a random legal card"}
BOT_OF = {Objective.FOLLOW: "advisor", Objective.POINTS: "points"}
SEED = 2026

#: The tournaments behind docs/HITTHEDECK.md's "What the advice is worth" (1,200 games each, seed 2026).
SUMMARY = Path(__file__).resolve().parent.parent / "data" / "hitthedeck" / "summary.csv"


def measured(path: Path = SUMMARY) -> list[tuple[str, str, int, str, str, str]]:
    """The pairings against the baseline that plays its highest card, as the summary holds them: tested bot,
    baseline, players, win rate, its 95% Wilson interval, an equal player's share (as the docs print them)."""
    with path.open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["baseline"] == "highest"]
    return [(r["tested"], r["baseline"], int(r["players"]), f"{float(r['win_rate']):.1%}",
             f"{float(r['win_low']):.1%} to {float(r['win_high']):.1%}", f"{float(r['fair_share']):.1%}")
            for r in rows]


#: :func:`measured` of data/hitthedeck: tested bot, baseline, players, win rate, interval, an equal player's share.
MEASURED = measured()


# -- the table being entered ------------------------------------------------------------------------------------
class Table(NamedTuple):
    """What the player has tapped so far: a draft of a :class:`~solver.hitthedeck.knowledge.Knowledge`.

    ``hand`` and ``discard`` keep the order of the taps; ``top`` is None until tapped; ``opponents`` holds
    each opponent's hand size in order of play, the next player first. (A tuple, so that a table kept in the
    session from an earlier run of this script, which defines the class anew each run, still compares equal.)
    """

    hand: tuple[Card, ...] = ()
    top: Card | None = None
    discard: tuple[Card, ...] = ()
    opponents: tuple[int, ...] = (DEAL, DEAL)

    def zone(self, zone: str) -> tuple[Card, ...]:
        if zone == "top":
            return () if self.top is None else (self.top,)
        got: tuple[Card, ...] = getattr(self, zone)
        return got

    def shown(self, card: Card) -> int:
        """How many copies of ``card`` the table shows (hand, top and discard)."""
        return self.hand.count(card) + self.discard.count(card) + (self.top == card)

    def missing(self) -> list[str]:
        """What must still be tapped before there is a table to advise on."""
        out = []
        if not self.hand:
            out.append("your hand (tap your cards with **Your hand** chosen)")
        if self.top is None:
            out.append("the top card of the discard pile (choose **Top card**, then tap it)")
        return out

    def knowledge(self) -> Knowledge:
        """The backend's knowledge of this table; :class:`KnowledgeError` names what cannot be."""
        if self.top is None:
            raise KnowledgeError("top: no top card: tap the top card of the discard pile")
        return Knowledge.build(self.hand, self.top, self.discard, self.opponents)


def too_many(table: Table, card: Card) -> str | None:
    """Why one more ``card`` cannot be on the table, or None if it can (H1's copies).

    >>> too_many(Table(hand=(hit_number(3),) * 2), hit_number(3))
    'Not added: the deck has 2 hit 3 cards, and the table already shows 2 (your hand 2).'
    >>> too_many(Table(), HIT_HAND) is None
    True
    """
    shown = table.shown(card)
    if shown < COPIES[card]:
        return None
    where = ", ".join(f"{ZONE_NAMES[z].lower()} {table.zone(z).count(card)}" for z in ZONES if card in table.zone(z))
    return f"Not added: the deck has {COPIES[card]} {card} cards, and the table already shows {shown} ({where})."


def added(table: Table, zone: str, card: Card) -> Table:
    """The table after a tap of ``card`` into ``zone``; a new top card pushes the old one onto the discard.

    >>> t = added(added(Table(), "top", number(Colour.RED, 2)), "top", number(Colour.RED, 5))
    >>> str(t.top), [str(c) for c in t.discard]
    ('red 5', ['red 2'])
    """
    problem = too_many(table, card)
    if problem is not None:
        raise ValueError(problem)
    if zone == "hand":
        return table._replace(hand=table.hand + (card,))
    if zone == "discard":
        return table._replace(discard=table.discard + (card,))
    if zone == "top":
        pushed = table.discard + ((table.top,) if table.top is not None else ())
        return table._replace(top=card, discard=pushed)
    raise ValueError(f"no zone called {zone!r}")


def taken_out(table: Table, zone: str, card: Card | None = None) -> Table:
    """The table with one ``card`` (the last tapped if None) taken out of ``zone``."""
    cards = list(table.zone(zone))
    if not cards:
        raise ValueError(f"Nothing to take out: {ZONE_NAMES[zone].lower()} is empty.")
    if card is None:
        card = cards[-1]
    if card not in cards:
        raise ValueError(f"Nothing to take out: no {card} in {ZONE_NAMES[zone].lower()}.")
    del cards[len(cards) - 1 - cards[::-1].index(card)]  # the last copy tapped
    if zone == "top":
        return table._replace(top=None)
    if zone == "hand":
        return table._replace(hand=tuple(cards))
    return table._replace(discard=tuple(cards))


def cleared(table: Table, zone: str) -> Table:
    if zone == "top":
        return table._replace(top=None)
    if zone == "hand":
        return table._replace(hand=())
    return table._replace(discard=())


def played(table: Table, card: Card) -> Table:
    """You played ``card`` from your hand: it is the new top card, the old one goes onto the discard."""
    if card not in table.hand:
        raise ValueError(f"Not played: there is no {card} in your hand.")
    covered = (table.top,) if table.top is not None else ()
    return taken_out(table, "hand", card)._replace(top=card, discard=table.discard + covered)


def flipped(table: Table) -> Table:
    """A Flip the Deck (H7): the discard pile went back into play face down (forgotten, H13), the new top card
    is to be tapped, and play turned round, so the opponents play in the reverse order."""
    return table._replace(top=None, discard=(), opponents=table.opponents[::-1])


def reshuffled(table: Table) -> Table:
    """H10: every discard but the top card was shuffled into a new draw pile (forgotten, H13)."""
    return table._replace(discard=())


def with_players(table: Table, players: int) -> Table:
    """The table with ``players`` players (you included): opponents added at seven cards, or dropped from the end."""
    n = players - 1
    return table._replace(opponents=table.opponents[:n] + (DEAL,) * max(0, n - len(table.opponents)))


def with_size(table: Table, seat: int, cards: int) -> Table:
    sizes = list(table.opponents)
    sizes[seat] = cards
    return table._replace(opponents=tuple(sizes))


# -- words ---------------------------------------------------------------------------------------------------
def seat_label(i: int) -> str:
    """An opponent by its place in the order of play after you.

    >>> [seat_label(i) for i in range(4)]
    ['Next player', '2nd after you', '3rd after you', '4th after you']
    """
    if i == 0:
        return "Next player"
    return f"{i + 1}{({1: 'nd', 2: 'rd'}).get(i, 'th')} after you"


def on_page(message: str) -> str:
    """The backend's message in the page's words: ``opponents[1]`` is the second player after you.

    >>> on_page("opponents[0]: 0 cards: a player with no cards has gone out, so the hand is over")
    'Next player: 0 cards: a player with no cards has gone out, so the hand is over'
    >>> on_page("opponents: they hold 120 cards, but only 105 cards are unseen (...)")
    'Hand sizes: your opponents hold 120 cards, but only 105 cards are unseen (...)'
    """
    message = re.sub(r"opponents\[(\d)\]", lambda m: seat_label(int(m[1])), message)
    message = message.replace("opponents: they hold", "Hand sizes: your opponents hold")
    return message[:1].upper() + message[1:]


def grouped(cards: Iterable[Card]) -> str:
    """Cards in the deck's order, repeats counted: ``'red 5 ×2, blue cut'``.

    >>> grouped([number(Colour.BLUE, 1), number(Colour.RED, 5), number(Colour.RED, 5)])
    'red 5 ×2, blue 1'
    """
    c = Counter(cards)
    return ", ".join(f"{card}" + (f" ×{c[card]}" if c[card] > 1 else "") for card in CARDS if c[card]) or "—"


def chance(x: Fraction, exact: bool) -> str:
    """A chance as the page shows it: the percentage, and the exact fraction when asked (and not 0 or 1).

    >>> chance(Fraction(25, 53), False), chance(Fraction(25, 53), True), chance(Fraction(1), True)
    ('47.2%', '47.2% (25/53)', '100%')
    """
    if x in (0, 1):
        return f"{float(x):.0%}"
    return f"{float(x):.1%}" + (f" ({x})" if exact else "")


def points_text(x: Fraction, exact: bool) -> str:
    """Expected points: one decimal, and the exact fraction when asked.

    >>> points_text(Fraction(261, 53), True), points_text(Fraction(7), True)
    ('4.9 (261/53)', '7.0')
    """
    return f"{float(x):.1f}" + (f" ({x})" if exact and x.denominator != 1 else "")


def headline(a: Advice) -> str:
    """The verdict box's first line: ``PLAY the red 5`` or ``DRAW``."""
    return "DRAW" if a.play is None else f"PLAY the {a.play}"


def plays_frame(a: Advice, exact: bool) -> pd.DataFrame:
    """Every legal play, best first (the advice's order), with the backend's chances."""
    rows = []
    for p in a.ranked:
        rows.append({"play": str(p.card), "next player follows": chance(p.next_follows, exact),
                     "points shed": p.points, "what it does": p.effect})
    return pd.DataFrame(rows)


def opponents_frame(a: Advice, exact: bool) -> pd.DataFrame:
    o = a.odds
    best = a.ranked[0] if a.ranked else None
    rows = []
    for i, (cards, pts) in enumerate(zip(o.knowledge.opponents, o.opponent_points)):
        row = {"opponent": seat_label(i), "cards": cards, "expected points": points_text(pts, exact)}
        if best is not None:
            row[f"holds a card for the {best.card}"] = chance(best.follow[i], exact)
        rows.append(row)
    return pd.DataFrame(rows)


# -- state ------------------------------------------------------------------------------------------------------
def table() -> Table:
    """The session's table: from the link on the first run of a session, then kept across reruns."""
    if f"{HERE}_table" not in st.session_state:
        from_link(st.query_params.to_dict())
    got: Table = st.session_state[f"{HERE}_table"]
    return got


def from_link(params: dict[str, str]) -> None:
    """Start the session from the link's parameters: the table, the ranking, where taps go, and whether the card
    on top is yours; each parameter not read is kept as a message for the page to show."""
    link, problems = read_query(params)
    t = Table(link.hand, link.top, link.discard, link.opponents)
    st.session_state[f"{HERE}_table"] = t
    st.session_state[f"{HERE}_undo"] = []
    st.session_state[f"{HERE}_objective"] = link.objective.value
    st.session_state[f"{HERE}_zone"] = link.zone
    st.session_state[f"{HERE}_played"] = t if link.played else None
    st.session_state[f"{HERE}_link_problems"] = problems


def yours_on_top(t: Table) -> bool:
    """The table your last "I played it" left is still there (the hand sizes may have changed): the others play."""
    mine = st.session_state.get(f"{HERE}_played")
    return mine is not None and (mine.hand, mine.top, mine.discard) == (t.hand, t.top, t.discard)


def link_of(t: Table) -> Link:
    """What the page's link keeps of this run: the table, the ranking, where taps go, whose card is on top."""
    zone = st.session_state.get(f"{HERE}_zone")
    return Link(t.hand, t.top, t.discard, t.opponents, objective(), zone if zone in ZONES else "hand",
                yours_on_top(t))


def edit(change: Any, *args: Any) -> None:
    """A widget callback: one edit of the table (undoable), or a message saying why it was refused."""
    before = table()
    try:
        after = change(before, *args)
    except ValueError as e:
        st.session_state[f"{HERE}_note"] = str(e)
        return
    st.session_state[f"{HERE}_note"] = None
    if after != before:
        st.session_state[f"{HERE}_link_problems"] = []  # the link's table is being worked on: its warnings go
        undo: list[Table] = st.session_state[f"{HERE}_undo"]
        undo.append(before)
        del undo[:-HISTORY]
        st.session_state[f"{HERE}_table"] = after


def undo() -> None:
    steps: list[Table] = st.session_state.get(f"{HERE}_undo") or []
    if not steps:
        st.session_state[f"{HERE}_note"] = "Nothing to undo."
        return
    st.session_state[f"{HERE}_table"] = steps.pop()
    st.session_state[f"{HERE}_note"] = None


def play_it(card: Card) -> None:
    """The "I played it" button: the card goes onto the pile, and the page remembers the table it left (it is
    the others' turn until something changes)."""
    edit(played, card)
    if not st.session_state.get(f"{HERE}_note"):
        st.session_state[f"{HERE}_played"] = table()


def new_hand(t: Table) -> Table:
    """A fresh deal at the same table: nothing tapped, every opponent at seven cards."""
    return Table(opponents=(DEAL,) * len(t.opponents))


def _players_changed() -> None:
    players = st.session_state.get(f"{HERE}_players")
    if players is not None:
        edit(with_players, int(players))


def _size_changed(seat: int) -> None:
    value = st.session_state.get(f"{HERE}_size_{seat}")
    if value is not None and seat < len(table().opponents):
        edit(with_size, seat, int(value))


# -- entry ------------------------------------------------------------------------------------------------------
def label(card: Card) -> str:
    """A card button's label: its number or word (the row's colour is the button's, :func:`style`).

    >>> label(number(Colour.RED, 5)), label(cut(Colour.BLUE)), label(hit_colour(Colour.GREEN)), label(HIT_HAND)
    ('5', 'Cut', 'Hit G', 'Hit hand')
    """
    if card.kind is Kind.NUMBER or card.kind is Kind.HIT_NUMBER:
        return ("Hit " if card.is_hit else "") + str(card.number)
    if card.kind in (Kind.CUT, Kind.FLIP):
        return str(card.kind.value).title()
    if card.kind is Kind.HIT_COLOUR and card.colour is not None:
        return f"Hit {card.colour.value[0].upper()}"
    return "Hit hand"


#: Each colour's buttons in that colour, text that reads on it; a hover darkens, never recolours the text.
PAINT = {Colour.RED: ("#d32f2f", "#ffffff"), Colour.YELLOW: ("#fbc02d", "#212121"),
         Colour.GREEN: ("#388e3c", "#ffffff"), Colour.BLUE: ("#1976d2", "#ffffff")}


def style() -> str:
    """The card buttons' look: painted by colour, narrow padding so that seven fit across a phone."""
    rules = [f".st-key-{HERE}_cards button {{padding: 0 2px; min-width: 0; font-weight: 600;}}",
             f".st-key-{HERE}_cards button p {{font-size: 1rem;}}"]
    disabled = [f".st-key-{HERE}_cards button:disabled {{opacity: 0.3; cursor: not-allowed;}}"]
    for colour, (paint, ink) in PAINT.items():
        for where in (f".st-key-{HERE}_row_{colour.value}", f".st-key-{key_of(hit_colour(colour))}"):
            rules.append(f"{where} button, {where} button:hover, {where} button:focus:not(:active) "
                         f"{{background-color: {paint}; color: {ink}; border-color: {paint};}}")
            rules.append(f"{where} button:hover {{filter: brightness(0.9);}}")
            rules.append(f"{where} button:active {{background-color: {paint}; color: {ink}; filter: brightness(0.8);}}")
            rules.append(f"{where} button:disabled {{background-color: {paint}; color: {ink}; border-color: {paint};}}")
    return "<style>\n" + "\n".join(rules + disabled) + "\n</style>"


def key_of(card: Card) -> str:
    """A card button's key: ``htd_card_red_5``, ``htd_card_hit_hand``."""
    return f"{HERE}_card_" + str(card).replace(" ", "_")


#: The card buttons, row by row: each colour's 1-5, Cut and Flip; then the Hit the Deck cards.
ROWS: list[list[Card]] = ([[number(c, n) for n in NUMBERS] + [cut(c), flip(c)] for c in COLOURS]
                          + [[hit_number(n) for n in NUMBERS], [hit_colour(c) for c in COLOURS] + [HIT_HAND]])


def row_name(row: list[Card]) -> str:
    """A row of card buttons by its colour, or ``hit_number`` and ``hit_colour`` for the Hit the Deck cards."""
    first = row[0]
    return first.colour.value if first.kind is Kind.NUMBER and first.colour else first.kind.name.lower()


def entry(t: Table) -> None:
    """Where a tap goes, the 38 card buttons, and Undo, take out, clear."""
    zone_key = f"{HERE}_zone"
    if st.session_state.get(zone_key) not in ZONES:
        st.session_state[zone_key] = "hand"
    zone = str(st.segmented_control(
        "Tap cards into", list(ZONES), key=zone_key, required=True, width="stretch",
        format_func=lambda z: ZONE_NAMES[z] + (f" ({len(t.zone(z))})" if z != "top" else "")))
    st.html(style())
    with st.container(key=f"{HERE}_cards"):
        for row in ROWS:
            with st.grid(len(row), wrap=False, min_column_width=30, gap="xsmall", key=f"{HERE}_row_{row_name(row)}"):
                for card in row:
                    st.button(label(card), key=key_of(card), on_click=edit, args=(added, zone, card),
                              width="stretch", disabled=t.shown(card) >= COPIES[card])  # every copy on the table
    held = t.zone(zone)
    with st.container(horizontal=True, gap="small"):
        st.button("Undo", key=f"{HERE}_undo_button", icon=":material/undo:", on_click=undo,
                  disabled=not st.session_state.get(f"{HERE}_undo"))
        st.button("−1", key=f"{HERE}_take_out", disabled=not held, on_click=edit, args=(taken_out, zone),
                  help=f"Take the last card tapped out of {ZONE_NAMES[zone].lower()}")
        st.button(f"Clear {ZONE_NAMES[zone].lower()}", key=f"{HERE}_clear", disabled=not held, on_click=edit,
                  args=(cleared, zone))
        st.button("New hand", key=f"{HERE}_new", icon=":material/restart_alt:", on_click=edit, args=(new_hand,),
                  help="Start a new deal: nothing tapped, every opponent at seven cards (Undo brings it back)")
    note = st.session_state.get(f"{HERE}_note")
    if note:
        st.warning(plain(note))
    st.caption("**Top card**: the card just played (the one it covers goes onto the discard). **Discard**: other "
               "cards you saw land on the discard pile that are still there.")


def hand_part(t: Table) -> None:
    """Your hand as buttons (a tap takes one out), the top card and the discard, in words."""
    points = sum(c.points for c in t.hand)
    st.markdown(f"**Your hand** ({counted(len(t.hand), 'card')}, {counted(points, 'point')}) — tap one to "
                f"take it out:" if t.hand else "**Your hand**: no cards yet.")
    if t.hand:
        c = Counter(t.hand)
        with st.container(horizontal=True, gap="xsmall", key=f"{HERE}_hand"):
            for card in CARDS:
                if c[card]:
                    st.button(f"{card}" + (f" ×{c[card]}" if c[card] > 1 else "") + " ✕",
                              key=f"{HERE}_out_" + str(card).replace(" ", "_"), on_click=edit,
                              args=(taken_out, "hand", card), help=f"Take a {card} out of your hand")
    top = "—" if t.top is None else str(t.top)
    d = None if t.top is None else demand_of(t.top)
    extra = ""
    if d is not None:
        extra = f" (demand in force: {demand_text(d)}, H8)"
    elif t.top is not None and t.top.kind is Kind.HIT_HAND:
        extra = " (any card may be played on it, H9)"
    st.markdown(f"**Top card**: {top}{extra}  \n**Discard** ({counted(len(t.discard), 'card')}): "
                f"{grouped(t.discard)}")


def opponents_part(t: Table) -> None:
    """How many play, each opponent's hand size in order of play, and the piles turned over."""
    players = len(t.opponents) + 1
    st.session_state[f"{HERE}_players"] = players if players in PLAYERS else None  # a table that cannot be: none
    st.segmented_control("Players (you included)", PLAYERS, key=f"{HERE}_players", required=True,
                         on_change=_players_changed, width="stretch")
    st.caption("Cards in each opponent's hand, in the order they play after you (the next player first).")
    # Two a row on a phone: narrower, a number box loses its − and + buttons.
    with st.grid(max(1, min(len(t.opponents), MAX_OPPONENTS)), min_column_width=150, gap="xsmall"):
        for i, cards in enumerate(t.opponents):
            st.session_state[f"{HERE}_size_{i}"] = cards
            st.number_input(seat_label(i), min_value=0, max_value=DECK_SIZE, step=1, key=f"{HERE}_size_{i}",
                            on_change=_size_changed, args=(i,))
    with st.container(horizontal=True, gap="small"):
        st.button("Flip: piles swapped", key=f"{HERE}_flip", icon=":material/swap_vert:", on_click=edit,
                  args=(flipped,), help="A Flip the Deck (H7): the discard went back into play face down, so it "
                                        "is forgotten; play turned round, so the opponents' order is reversed; "
                                        "tap the new top card")
        st.button("Reshuffle", key=f"{HERE}_reshuffle", icon=":material/shuffle:", on_click=edit,
                  args=(reshuffled,), disabled=not t.discard,
                  help="The draw pile ran out (H10): the discard under the top card became the new draw pile, so "
                       "it is forgotten")


# -- the advice ----------------------------------------------------------------------------------------------------
def objective() -> Objective:
    """The ranking chosen (H14); the backend's default, ``follow``, until another is."""
    value = st.session_state.get(f"{HERE}_objective")
    return Objective(value) if value in [o.value for o in Objective] else Objective.FOLLOW


def verdict(t: Table, box: Any) -> Advice | None:
    """The advice in the box at the top, or what is missing, or what cannot be; the advice if there is one."""
    missing = t.missing()
    if not t.hand and t.top is not None:
        box.info("### No cards in your hand\nIf you just played your last card, you went out and the hand is over "
                 "(H11): **New hand** starts the next deal. If not, tap your cards with **Your hand** chosen.")
        return None
    if missing:
        box.info("### Enter your table\nStill to tap: " + "; ".join(missing) + ".")
        return None
    try:
        a = advise(t.knowledge(), objective())
    except KnowledgeError as e:
        box.error(f"### Not a table that can be\n{plain(on_page(str(e)))}. Fix it with Undo, −1 or the hand "
                  f"sizes: no advice until it can be.")
        return None
    except Exception as e:  # noqa: BLE001 - never a traceback: say so, and give no advice
        box.error(f"### No advice\nThe odds could not be worked out for this table ({plain(type(e).__name__)}).")
        return None
    if yours_on_top(t):  # the others play next
        box.info(f"### You played the {t.top}\nTap each card played after it as the new **Top card**, and change "
                 f"the hand sizes as the others play and draw. If your turn comes round with the {t.top} still "
                 f"on top: **{headline(a)}**. {a.reason}")
        return a
    with box:
        st.success(f"### {headline(a)}\n{a.reason}")
        if a.play is not None:
            st.button(f"I played the {a.play}", key=f"{HERE}_played_button", icon=":material/check:",
                      on_click=play_it, args=(a.play,), help="It goes from your hand onto the discard pile as the "
                                                             "top card")
    return a


def odds_part(a: Advice) -> None:
    exact = bool(st.session_state.get(f"{HERE}_exact"))
    o = a.odds
    st.markdown(f"Your next draw can be played: **{chance(o.draw_playable, exact)}**  \n"
                f"Your hand scores now: **{counted(o.hand_points, 'point')}**  \n"
                f"Cards you have not seen: **{o.unseen}**")
    if a.ranked:
        st.table(plays_frame(a, exact), hide_index=True)
        st.caption("Every card you may play, best first. *Next player follows*: the chance the next player holds "
                   "a card that can go on it (or meets its demand); a Cut or a Flip cannot be followed (H14).")
    else:
        st.caption(f"No card in your hand can be played on the {o.knowledge.top}: you draw (H5).")
    st.table(opponents_frame(a, exact), hide_index=True)
    st.caption("*Expected points*: what the opponent's hand would score now (H12). *Holds a card*: the chance "
               "it holds a card that could go on the recommended play. Each opponent's hand is taken as a random "
               "set of the cards you have not seen (H13): the advisor draws no inference from what they played "
               "or drew.")


def ranking_part() -> None:
    st.session_state[f"{HERE}_objective"] = objective().value  # set before the widget: never unselected
    st.segmented_control("Rank the plays by", [o.value for o in Objective], key=f"{HERE}_objective",
                         required=True, width="stretch",
                         format_func=lambda v: "Hardest to follow" if v == Objective.FOLLOW.value else "Most points")


def measured_part() -> None:
    """What each ranking is worth, as docs/HITTHEDECK.md measured it (read from its data, not recomputed)."""
    with st.expander("Which ranking is better?"):
        st.markdown(
            "**Hardest to follow** (the advisor's default, H14): the card the next player is least likely to "
            "follow, then the most points. **Most points**: the most points first, then the hardest to follow.  \n"
            "Measured in docs/HITTHEDECK.md (1,200 simulated games each, against bots that always play their "
            "highest card): the default advice **does not beat** simply playing the most points (with three "
            "players it wins measurably less than an equal player's share); putting the points first does beat it.")
        st.table(pd.DataFrame([{"ranking": "Hardest to follow" if tested == "advisor" else "Most points",
                                "players": players, "win rate": rate, "95% interval": interval,
                                "an equal player": fair}
                               for tested, _, players, rate, interval, fair in MEASURED]), hide_index=True)


def worth_part(t: Table) -> None:
    """On request, a small tournament of the chosen ranking's bot against simple bots, with its 95% interval."""
    with st.expander("What is the advice worth?"):
        obj = objective()
        players = len(t.opponents) + 1
        st.caption(f"Plays simulated games of {players} players: one seat follows the advice (ranked by "
                   f"{'the hardest to follow' if obj is Objective.FOLLOW else 'the most points'}), the others "
                   f"are simple bots; the first to 100 points ends a game and the lowest total wins (H12).")
        games = int(st.segmented_control("Games", GAMES, default=GAMES[0], required=True, key=f"{HERE}_games",
                                         format_func=lambda n: f"{n:,}") or GAMES[0])
        baseline = str(st.selectbox("Against", list(BASELINES), format_func=BASELINES.__getitem__,
                                    key=f"{HERE}_baseline") or "highest")
        ask = (BOT_OF[obj], baseline, players, games)
        if st.button(f"Play {games:,} games", key=f"{HERE}_worth", icon=":material/casino:"):
            bar = st.progress(0.0, text="Playing…")

            def progress(done: int, total: int) -> None:
                if done % 10 == 0 or done == total:
                    bar.progress(done / total, text=f"Played {done:,} of {total:,} games")

            try:
                result = tournament(games, SEED, tested=ask[0], baseline=baseline, players=players,
                                    progress=progress)
            except Exception as e:  # noqa: BLE001 - never a traceback
                st.error(f"The games could not be played ({plain(type(e).__name__)}: {plain(e)}).")
                return
            bar.empty()
            st.session_state[f"{HERE}_worth_result"] = (ask, result)
        held = st.session_state.get(f"{HERE}_worth_result")
        if held is not None and held[0] == ask:
            worth_view(held[1])


def worth_view(r: TournamentResult) -> None:
    fair = 1 / r.players
    better = ("better than" if r.win_low > fair else "worse than" if r.win_high < fair
              else "not measurably different from")
    st.markdown(f"**Win rate {r.win_rate:.1%}** (95% interval {r.win_low:.1%} to {r.win_high:.1%}) over "
                f"{r.games:,} games against {r.players - 1} × {r.baseline}: {better} an equal player's "
                f"{fair:.1%}.  \nPoints per hand {r.tested_points:.2f} against {r.baseline_points:.2f} per "
                f"{r.baseline} seat (margin {r.margin:+.2f}, 95% interval {r.margin_low:+.2f} to "
                f"{r.margin_high:+.2f}; negative: fewer points, better).")
    st.caption(f"Seed {r.seed}: the same games every time. docs/HITTHEDECK.md has 1,200-game runs.")


# -- page ------------------------------------------------------------------------------------------------------
def page() -> None:
    st.set_page_config(page_title="Hit the Deck odds", page_icon="🃏", layout="wide")
    st.title("Hit the Deck odds")
    st.caption("Fundex's Hit the Deck (not Hit!): tap your table, read the exact odds. Rules: docs/HITTHEDECK.md.")
    t = table()
    st.query_params.from_dict(to_query(link_of(t)))  # the table lives in the link: a reload opens it again
    for problem in st.session_state.get(f"{HERE}_link_problems") or []:
        st.warning(f"Not read from the link: {plain(problem)}")
    box = st.container(key=f"{HERE}_verdict")
    left, right = st.columns(2, gap="large")  # side by side on a desktop; a phone stacks them
    with left:
        entry(t)
        hand_part(t)
        opponents_part(t)
    with right:
        st.subheader("The odds")
        ranking_part()
        a = verdict(t, box)
        st.toggle("Exact fractions", key=f"{HERE}_exact")
        if a is not None:
            odds_part(a)
        else:
            st.caption("The odds appear once the table is complete.")
        measured_part()
        worth_part(t)
    guard(on=False)  # taps one at a time, in order (two of one card tapped quickly are two cards)


if __name__ == "__main__":  # Streamlit runs the page as __main__; the tests import its helpers
    page()
