"""The app's pages by name, so that one page can send the player to another (``st.switch_page``).

``advisor_app.main()`` registers the pages it puts in ``st.navigation`` on
every run (in the session: a page run on its own, as the tests do, has none,
and a move to another page then says so instead of failing).
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.navigation.page import StreamlitPage

from views.safe_text import plain

_KEY = "nav_pages"
TITLES = {"advisor": "Advisor", "live": "Live game", "practice": "Practice", "hitthedeck": "Hit the Deck odds"}


def register(pages: Mapping[str, StreamlitPage]) -> None:
    """The pages of this run's navigation, by name."""
    st.session_state[_KEY] = dict(pages)


def go(name: str, query_params: Mapping[str, str] | None = None) -> None:
    """Switch to the page registered as ``name`` (with ``query_params`` in its link); a message if there is
    no such page in this run's navigation."""
    pages = st.session_state.get(_KEY) or {}
    page = pages.get(name)
    if page is not None:
        try:
            st.switch_page(page, query_params=dict(query_params or {}))
        except StreamlitAPIException:
            pass
    st.error(f"The {plain(TITLES.get(name, name))} page cannot be opened from here: open it from the sidebar.")
