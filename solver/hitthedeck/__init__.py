"""Fundex's Hit the Deck: a rules engine, exact odds and an advisor (``docs/HITTHEDECK.md``).

A different game from Hit!, in its own package; nothing here touches the
Hit! modules. From the bottom up: :mod:`~solver.hitthedeck.cards` (the
110-card deck and the card notation), :mod:`~solver.hitthedeck.matching`
(what may be played on what), :mod:`~solver.hitthedeck.rules` (the engine:
a hand and a game to 100), :mod:`~solver.hitthedeck.knowledge` (what one
player knows), :mod:`~solver.hitthedeck.odds` (exact chances),
:mod:`~solver.hitthedeck.advice` (the recommended play and its reason),
:mod:`~solver.hitthedeck.link` (a table as a link's query parameters, for
the page), :mod:`~solver.hitthedeck.bots`,
:mod:`~solver.hitthedeck.tournament` and :mod:`~solver.hitthedeck.cli` (the
command line, ``python -m solver.hitthedeck``).

Names are imported on first use, so ``import solver.hitthedeck.rules`` loads
neither pydantic nor the advisor. The functions named like their modules,
``odds`` and ``tournament``, are imported from those modules
(``from solver.hitthedeck.odds import odds``): a package attribute of that
name is the module once it is loaded.

>>> from solver.hitthedeck import Knowledge, advise
>>> a = advise(Knowledge.from_dict({"hand": ["red 5", "blue 2"], "top": "red 2", "opponents": [7]}))
>>> str(a.play), a.action  # 51 unseen cards follow either; the red 5 sheds more points
('red 5', 'play')
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "Advice",
    "Card",
    "CardError",
    "Colour",
    "Game",
    "IllegalPlayError",
    "Kind",
    "Knowledge",
    "KnowledgeError",
    "Objective",
    "Odds",
    "Phase",
    "PlayOdds",
    "Round",
    "TournamentResult",
    "advise",
    "deck",
    "fits",
    "format_cards",
    "make",
    "parse_card",
    "parse_cards",
    "play_game",
]

_WHERE = {
    "Card": "cards", "CardError": "cards", "Colour": "cards", "Kind": "cards", "deck": "cards",
    "format_cards": "cards", "parse_card": "cards", "parse_cards": "cards",
    "fits": "matching",
    "Game": "rules", "IllegalPlayError": "rules", "Phase": "rules", "Round": "rules",
    "Knowledge": "knowledge", "KnowledgeError": "knowledge",
    "Odds": "odds", "PlayOdds": "odds",
    "Advice": "advice", "Objective": "advice", "advise": "advice",
    "make": "bots", "play_game": "bots",
    "TournamentResult": "tournament",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'solver.hitthedeck' has no attribute {name!r}")
