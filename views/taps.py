"""What a tap is on every page: one tap counts once.

A person turns over one card at a time, so two taps on the same spot closer
than :data:`DOUBLE_TAP` seconds are one tap made twice (a double tap), and
the second is dropped. The browser tells them apart, by its own clock
(:func:`guard`: the server sees a tap when it gets to it, which may be later
than it was made when the machine is busy, so two taps 80 ms apart can reach
it 400 ms apart), whatever button is under the finger by the second tap
(Take, drawn where Draw was). The server drops them too (:func:`repeated`),
for a browser that runs no script.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

import streamlit as st

__all__ = ["DOUBLE_TAP", "guard", "repeated"]

#: Two identical taps closer than this many seconds count once: nobody turns over two cards that fast.
DOUBLE_TAP = 0.3


def repeated(page: str, tap: Hashable) -> bool:
    """Whether ``tap`` on ``page`` repeats the page's last tap within :data:`DOUBLE_TAP` seconds (then it
    is dropped); either way it becomes the last tap (so a triple tap counts once too)."""
    now = time.monotonic()
    last = st.session_state.get(f"{page}_last_tap")
    st.session_state[f"{page}_last_tap"] = (tap, now)
    return isinstance(last, tuple) and len(last) == 2 and last[0] == tap and now - last[1] < DOUBLE_TAP



#: The browser's half (:func:`guard`): a click on a button, within ``window.hitTapWindow`` ms of the last one
#: and on the same spot (a finger's width), is dropped before Streamlit sees it; and a page chosen in the
#: sidebar on a narrow screen closes it. Installed once a browser tab.
_GUARD = """<script>
(() => {
  window.hitTapWindow = %d;
  if (window.hitTapGuard) return;
  window.hitTapGuard = true;
  let last = null;
  window.addEventListener("click", (e) => {
    const button = e.target instanceof Element ? e.target.closest("[data-testid=stButton] button") : null;
    if (!button) return;
    const now = performance.now();
    if (last && now - last.t < window.hitTapWindow
        && Math.abs(e.clientX - last.x) < 24 && Math.abs(e.clientY - last.y) < 24) {
      e.stopImmediatePropagation();
      e.preventDefault();
      last.t = now;  // a triple tap is one tap too
      return;
    }
    last = {t: now, x: e.clientX, y: e.clientY};
  }, true);
  // A page chosen in the sidebar on a narrow screen closes the sidebar, as Streamlit does for a phone's
  // browser only (by its user agent: a narrow desktop window, or a tablet asking for desktop pages, kept it
  // open over the page).
  window.addEventListener("click", (e) => {
    const link = e.target instanceof Element ? e.target.closest("[data-testid=stSidebarNav] a") : null;
    if (!link || window.innerWidth > 768) return;
    setTimeout(() => {
      const bar = document.querySelector("[data-testid=stSidebar]");
      const holder = document.querySelector("[data-testid=stSidebarCollapseButton]");
      const close = holder && (holder.querySelector("button") || holder);
      if (bar && close && bar.getBoundingClientRect().right > 0) close.click();
    }, 300);
  }, true);
})();
</script>"""


def guard(on: bool = True) -> None:
    """Drop double taps in the browser, by its clock: a second click on the same spot within
    :data:`DOUBLE_TAP` seconds of the first never reaches the server, whatever button is there by then
    (``on=False``: quick taps on one spot are meant, as three 5s tapped into a loot). Drawn at the end of a
    page (it takes no room)."""
    st.html(_GUARD % (round(DOUBLE_TAP * 1000) if on else 0), unsafe_allow_javascript=True)
