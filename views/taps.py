"""What a tap is on every page: one tap counts once.

A person turns over one card at a time, so two identical taps closer than
:data:`DOUBLE_TAP` seconds are one tap made twice (a double tap, or a tap
repeated while the page was redrawing), and the second is dropped. Each page
keeps its last tap in the session under its own name.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

import streamlit as st

__all__ = ["DOUBLE_TAP", "repeated"]

#: Two identical taps closer than this many seconds count once: nobody turns over two cards that fast.
DOUBLE_TAP = 0.3


def repeated(page: str, tap: Hashable) -> bool:
    """Whether ``tap`` on ``page`` repeats the page's last tap within :data:`DOUBLE_TAP` seconds (then it
    is dropped); either way it becomes the last tap (so a triple tap counts once too)."""
    now = time.monotonic()
    last = st.session_state.get(f"{page}_last_tap")
    st.session_state[f"{page}_last_tap"] = (tap, now)
    return isinstance(last, tuple) and len(last) == 2 and last[0] == tap and now - last[1] < DOUBLE_TAP
