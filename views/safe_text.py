"""Text from a person or a file, made safe to show inside Streamlit markdown (every page uses it)."""

from __future__ import annotations

import re

__all__ = ["counted", "plain"]

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|:~<>$=&])")
# What the renderer would turn into a link by itself (GFM autolinks: www., scheme://, e-mail): a
# zero-width space breaks each one, escapes do not.
_AUTOLINK = re.compile(r"(?i)(?<=www)(?=\\?\.)|(?<=:)(?=//)|(?=@)")


def plain(text: object, limit: int = 300) -> str:
    """Text a person typed, made safe to show inside markdown: every markdown character escaped
    and every would-be autolink broken (no link, image, bold or colour can come from it), and
    anything past ``limit`` characters cut.

    >>> plain("**bold** :red[y]")
    '\\\\*\\\\*bold\\\\*\\\\* \\\\:red\\\\[y\\\\]'
    >>> any(link in plain("![x](http://a/b.png) www.a.b me@a.b") for link in ("://", "www.", "e@"))
    False
    >>> plain("9" * 5000, limit=8)
    '99999999…'
    """
    s = str(text)
    if len(s) > limit:
        s = s[:limit] + "…"
    return _AUTOLINK.sub("\u200b", _MARKDOWN.sub(r"\\\1", s))


def counted(n: int, noun: str) -> str:
    """A count and its noun, singular for one (nouns of this app only: an "s" makes the plural).

    >>> counted(1, "decision"), counted(109, "decision"), counted(0, "card")
    ('1 decision', '109 decisions', '0 cards')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"
