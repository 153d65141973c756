"""Reasons given as English text read back into their code and parameters.

The meld checks (:func:`liverpool.melds.meld_problem`) and the card notation
(:class:`liverpool.cards.CardError`) give codes; this is only for callers
that still hold the English text of one (:func:`liverpool.melds.meld_error`,
``str()`` of a :class:`~liverpool.cards.CardError`): the text is matched
against the English messages of those codes (:data:`liverpool.errors.REASONS`
and the ``card_*`` codes of :data:`liverpool.errors.MESSAGES`). A text that
matches none of them is shown as it is.
"""

from __future__ import annotations

import ast
import functools
import re

from ..errors import MESSAGES, REASONS

__all__ = ["read_reason"]

_ENGLISH_RANKS = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                  "nines", "tens", "jacks", "queens", "kings")


def _templates() -> dict[str, str]:
    out = dict(REASONS)
    out.update((code, text) for code, text in MESSAGES.items() if code.startswith("card_"))
    return out


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for code, template in _templates().items():
        pattern = ""
        for piece in re.split(r"(\{\w+\})", template):
            if piece.startswith("{") and piece.endswith("}"):
                pattern += f"(?P<{piece[1:-1]}>.+?)"
            else:
                pattern += re.escape(piece)
        out.append((re.compile(pattern + r"\Z"), code))
    return tuple(out)


def read_reason(text: str) -> tuple[str, dict[str, object]] | None:
    """The code and parameters of an English reason (None if it is none of them)."""
    for pattern, code in _patterns():
        m = pattern.match(text)
        if m is None:
            continue
        params: dict[str, object] = {}
        for name, value in m.groupdict().items():
            if name == "ranks" and value in _ENGLISH_RANKS:
                params[name] = _ENGLISH_RANKS.index(value) + 1
            elif name == "text":
                try:
                    params[name] = ast.literal_eval(value)
                except (ValueError, SyntaxError):
                    params[name] = value
            else:
                params[name] = value
        return code, params
    return None
