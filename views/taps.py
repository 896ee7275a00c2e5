"""What a tap is on every page: one tap counts once.

A person turns over one card at a time, so two taps on the same spot closer
than :data:`DOUBLE_TAP` seconds are one tap made twice (a double tap), and
the second is dropped. The browser tells them apart, by its own clock
(:func:`guard`: the server sees a tap when it gets to it, which may be later
than it was made when the machine is busy, so two taps 80 ms apart can reach
it 400 ms apart), whatever button is under the finger by the second tap
(Take, drawn where Draw was). The server drops them too (:func:`repeated`),
for a browser that runs no script.

And a tap counts whole and in its place: its callback runs to its end before
a newer tap can stop its run (:func:`install`, :func:`whole`), and on the
pages that record a game as it happens, a tap made while the page is still
taking the last one waits in the browser until it has (:func:`guard`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st
from streamlit import config
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.state.safe_session_state import SafeSessionState

__all__ = ["DOUBLE_TAP", "guard", "install", "repeated", "whole"]

#: Two identical taps closer than this many seconds count once: nobody turns over two cards that fast.
DOUBLE_TAP = 0.3

#: The session's count of taps its runs have taken, shown to the browser (:func:`guard`): the presses of
#: buttons. (A download button that ran the page again would be counted too, but the browser does not
#: count it among the taps it sent, and would take a held tap's forerunner as taken too soon: every
#: download button here is ``on_click="ignore"``.)
TAKEN = "hit_taps_taken"


def repeated(page: str, tap: Hashable) -> bool:
    """Whether ``tap`` on ``page`` repeats the page's last tap within :data:`DOUBLE_TAP` seconds (then it
    is dropped); either way it becomes the last tap (so a triple tap counts once too)."""
    now = time.monotonic()
    last = st.session_state.get(f"{page}_last_tap")
    st.session_state[f"{page}_last_tap"] = (tap, now)
    return isinstance(last, tuple) and len(last) == 2 and last[0] == tap and now - last[1] < DOUBLE_TAP



@contextmanager
def whole() -> Iterator[None]:
    """Work a newer tap cannot cut short: a tap that arrives meanwhile waits for it to end (the timer
    playing R14 and saving it; every tap's callback runs inside one, see :func:`install`).

    Streamlit looks for a newer tap at every use of ``st.session_state`` and every element drawn, and
    there stops the run it is in by raising an exception. Inside this block its look finds nothing; the
    newer tap is taken at the first look after it. (So ``st.rerun()`` or ``st.switch_page()`` inside one
    does not stop the work either: the work goes on to the block's end.) Nested, the outer one counts."""
    ctx = get_script_run_ctx(suppress_warning=True)
    requests = getattr(ctx, "script_requests", None)
    if requests is None or "on_scriptrunner_yield" in vars(requests):  # not in a run, or in a whole block already
        yield
        return
    requests.on_scriptrunner_yield = lambda: None
    try:
        yield
    finally:
        del requests.on_scriptrunner_yield


def install() -> None:
    """Every run's callbacks (the taps it carries) run whole (:func:`whole`), before a newer tap can stop
    the run, and the taps are counted (:data:`TAKEN`).

    Without it, a quick second tap (Stop, then the next seat's card) could stop the run that carried the
    first before or while its callback ran: the first tap was lost without a word, and the second, made on
    the page before the first was applied, was taken as made on the table it showed (the card went to the
    seat that had stopped). With ``runner.fastReruns`` on, Streamlit's default, the second tap's run even
    started beside the first in another thread, and the two changed one game together (a saved game
    could be left that no longer replays). .streamlit/config.toml turns it off, and so does this, for a
    server started from another folder (which does not read that file). Called by the app at the start of
    every run; after the first, it does nothing."""
    if config.get_option("runner.fastReruns"):
        config.set_option("runner.fastReruns", False)
    if getattr(SafeSessionState.on_script_will_rerun, "hit_whole", False):
        return
    plain_rerun = SafeSessionState.on_script_will_rerun

    @functools.wraps(plain_rerun)
    def on_script_will_rerun(self: SafeSessionState, fresh: Any = None, *args: Any, **kwargs: Any) -> None:
        with whole():
            taps = sum(1 for w in getattr(fresh, "widgets", ()) if w.WhichOneof("value") == "trigger_value"
                       and w.trigger_value)
            if taps:  # (the plain session state: no look for a newer tap)
                state = self._state
                state[TAKEN] = (state[TAKEN] if TAKEN in state else 0) + taps
            plain_rerun(self, fresh, *args, **kwargs)

    on_script_will_rerun.hit_whole = True  # type: ignore[attr-defined]
    setattr(SafeSessionState, "on_script_will_rerun", on_script_will_rerun)


#: The browser's half (:func:`guard`). A click on a button, within ``window.hitTapWindow`` ms of the last one
#: and on the same spot (a finger's width), is dropped before Streamlit sees it. On a page that records taps
#: as they happen (``hold``), a tap on a keyed button made while the page is still taking the last one (the
#: page drawn after it has not yet counted it as taken, in ``window.hitTapsTaken``) is held, and made
#: again on the button with the same key once it has, so taps reach the server one at a time and in the
#: order they were made, each on the table its forerunner left (Stop, then the next seat's card at once).
#: So is a tap meanwhile on a keyed button greyed out until then (the card buttons just after Take), which
#: the browser would drop without a click; if it is greyed out still when its turn comes, it is not made,
#: and a note says so.
#: If that button is gone or greyed out by then, or the page has not taken the last tap within 8 s, the
#: held taps are not made and a note says so. And a page chosen in the sidebar on a narrow screen closes
#: it, for good once the new page is drawn. Installed once a browser tab.
_GUARD = """<span class="hit-tap-guard" %s hidden></span><script>
(() => {
  window.hitTapsTaken = %d;  // the taps the server had taken by this run (this script runs again when it changes)
  window.hitTapWindow = %d;
  if (window.hitTapCheck) window.hitTapCheck();
  if (window.hitTapGuard) return;
  window.hitTapGuard = true;
  let last = null;  // the last tap: when and where
  let waiting = 0;  // when the tap the page has not yet taken was made (0: none)
  let sent = window.hitTapsTaken;  // the taps this tab has sent (the server's count, once it has them all)
  let waitFor = 0;  // the count of taps taken that says the last one has been
  let replaying = false;
  const held = [];  // the buttons tapped meanwhile, in order: their keys and what they say
  const keyOf = (button) => {
    const box = button.closest("[data-testid=stElementContainer]");
    return box ? [...box.classList].find((c) => c.startsWith("st-key-")) || null : null;
  };
  const say = (text) => {
    document.querySelectorAll(".hit-tap-note").forEach((old) => old.remove());
    const box = document.createElement("div");
    box.setAttribute("role", "status");
    box.className = "hit-tap-note";
    box.textContent = text;
    // (centred by its margins: a box moved left by half its width wraps at half the screen's)
    box.style.cssText = "position:fixed;left:0;right:0;bottom:16px;margin:0 auto;width:fit-content;z-index:100000;"
      + "max-width:min(92vw,560px);padding:10px 14px;border-radius:8px;background:#31333f;color:#fff;"
      + "font:15px/1.4 sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.3)";
    box.addEventListener("click", () => box.remove());  // read: a tap puts it away
    document.body.appendChild(box);
    setTimeout(() => box.remove(), 8000);
  };
  const drop = (why) => {  // every held tap, unmade: each was to be made on the table the one before left
    const names = held.splice(0).map((tap) => tap.label).join(", ");
    if (names) say("Not made: " + names + " (tapped while the page was still taking the tap before): " + why
                   + ". Check the table and tap again.");
  };
  const next = () => {  // the page has taken the last tap: the next held one
    waiting = 0;
    while (held.length) {
      const tap = held[0];
      const button = document.querySelector("." + CSS.escape(tap.key) + " [data-testid=stButton] button");
      if (button && !button.disabled && document.querySelector(".hit-tap-guard[data-hold]")) {
        held.shift();
        replaying = true;
        try { button.click(); } finally { replaying = false; }
        return;
      }
      if (!tap.grey) {
        drop("by then the button was gone or could not be used");
        return;
      }
      held.shift();  // greyed out when tapped and still: a button that could not be used, as it looked
      say("Not made: " + tap.label + " (greyed out when tapped, and still greyed out).");
    }
  };
  // The last tap has been taken once the page drawn after it counts it and nothing is running.
  window.hitTapCheck = () => {
    const app = document.querySelector("[data-testid=stApp]");
    const idle = app && app.getAttribute("data-test-script-state") === "notRunning";
    if (!waiting) sent = Math.max(sent, window.hitTapsTaken);  // (taps counted that this tab did not send)
    else if (idle && (window.hitTapsTaken >= waitFor || !document.querySelector(".hit-tap-guard"))) next();
  };
  new MutationObserver(() => window.hitTapCheck()).observe(
    document.body, {subtree: true, attributes: true, attributeFilter: ["data-test-script-state"]});
  setInterval(() => {
    if (waiting && performance.now() - waiting > 8000) {
      waiting = 0;
      drop("the page had not taken that tap after 8 s");
    }
  }, 500);
  const near = (spot, e, ms) =>  // whether a tap is on the spot of ``spot`` (a finger's width) within ms of it
    !!spot && performance.now() - spot.t < ms && Math.abs(e.clientX - spot.x) < 24 && Math.abs(e.clientY - spot.y) < 24;
  const swallow = (e) => { e.stopImmediatePropagation(); e.preventDefault(); };  // the server never sees it
  const again = (e) => {  // whether a tap repeats the last one (a double tap); either way it is the last one
    const now = performance.now();
    if (near(last, e, window.hitTapWindow)) {
      last.t = now;  // a triple tap is one tap too
      return true;
    }
    last = {t: now, x: e.clientX, y: e.clientY};
    return false;
  };
  const hold = (button, key, grey) => {
    const text = button.querySelector("[data-testid=stMarkdownContainer]");
    held.push({key: key, label: JSON.stringify((text ? text.innerText : button.innerText).trim()), grey: grey});
  };
  let down = null;  // the button the last pointer went down on
  let greyUp = null;  // the last tap held by its pointer on a greyed-out button: when and where
  window.addEventListener("click", (e) => {
    const button = e.target instanceof Element ? e.target.closest("[data-testid=stButton] button") : null;
    if (!button) return;
    if (replaying) {
      waiting = performance.now();
      waitFor = ++sent;
      return;
    }
    if (near(greyUp, e, 1000)) {
      greyUp = null;  // the click a touch sends after its pointer, the button usable by then: the tap held
      swallow(e);
      return;
    }
    if (again(e)) {
      swallow(e);
      return;
    }
    const key = keyOf(button);
    if (!key || !document.querySelector(".hit-tap-guard[data-hold]")) return;  // sent as it is
    if (waiting) {
      swallow(e);
      hold(button, key, false);
      return;
    }
    waiting = performance.now();
    waitFor = ++sent;
  }, true);
  // A button greyed out until the page has taken the tap before (the card buttons, just after Take or
  // Decline) makes no click when tapped, only pointer events: while a tap is being taken, such a tap is held
  // too, by its pointer, and made once the page has taken the one before if the button can be used by then;
  // if it is still greyed out (greyed out for good: no card of that value left, say), it is not made and a
  // note says so, and the taps held after it go on. When no tap is being taken, a tap on a greyed-out
  // button does nothing.
  window.addEventListener("pointerdown", (e) => {
    down = e.target instanceof Element ? e.target.closest("[data-testid=stButton] button") : null;
  }, true);
  window.addEventListener("pointerup", (e) => {
    const button = e.target instanceof Element ? e.target.closest("[data-testid=stButton] button") : null;
    if (!button || button !== down || !button.disabled || !waiting || !e.isPrimary || e.button !== 0) return;
    const key = keyOf(button);
    if (!key || !document.querySelector(".hit-tap-guard[data-hold]") || again(e)) return;
    greyUp = {t: performance.now(), x: e.clientX, y: e.clientY};
    hold(button, key, true);
  }, true);
  // A page chosen in the sidebar on a narrow screen closes the sidebar, as Streamlit does for a phone's
  // browser only (by its user agent: a narrow desktop window, or a tablet asking for desktop pages, kept it
  // open over the page). Watched until the chosen page's run is over rather than closed once at a fixed
  // moment, so that no redraw of the sidebar on a busy machine can leave it open (none has been seen: the
  // failures under load were a page whose foot's script had not yet run). A touch or a key meanwhile (the
  // player opening it again) ends the watch.
  window.addEventListener("click", (e) => {
    const link = e.target instanceof Element ? e.target.closest("[data-testid=stSidebarNav] a") : null;
    if (!link || window.innerWidth > 768) return;
    const from = performance.now();
    const target = new URL(link.href, location.href).pathname;  // (the address changes as its run starts)
    let over = false;
    const quit = () => { over = true; };
    const end = () => {
      window.removeEventListener("pointerdown", quit, true);
      window.removeEventListener("keydown", quit, true);
    };
    window.addEventListener("pointerdown", quit, true);
    window.addEventListener("keydown", quit, true);
    const look = () => {
      if (over || performance.now() - from > 15000) return end();
      const bar = document.querySelector("[data-testid=stSidebar]");
      const holder = document.querySelector("[data-testid=stSidebarCollapseButton]");
      const close = holder && (holder.querySelector("button") || holder);
      const state = bar && bar.getAttribute("data-collapsed");  // (it slides in: judged by its state)
      const open = !!bar && (state ? state === "false" : bar.getBoundingClientRect().right > 0);
      if (open && close) close.click();
      const app = document.querySelector("[data-testid=stApp]");
      const idle = app && app.getAttribute("data-test-script-state") === "notRunning";
      if (!open && idle && location.pathname === target) return end();
      setTimeout(look, 150);
    };
    setTimeout(look, 300);
  }, true);
})();
</script>"""


def guard(on: bool = True, hold: bool = True) -> None:
    """Drop double taps in the browser, by its clock: a second click on the same spot within
    :data:`DOUBLE_TAP` seconds of the first never reaches the server, whatever button is there by then
    (``on=False``: quick taps on one spot are meant, as three 5s tapped into a loot); and, with ``hold``,
    send taps one at a time, each made on the table the one before left (:data:`_GUARD`: for a page that
    records what happens at a table; not for a decision, which is taken on the table on screen). Drawn at
    the end of a page (it takes no room)."""
    st.html(_GUARD % ("data-hold" if hold else "", st.session_state.get(TAKEN, 0),
                      round(DOUBLE_TAP * 1000) if on else 0), unsafe_allow_javascript=True)
