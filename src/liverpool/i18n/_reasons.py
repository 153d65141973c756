"""English reasons written by code outside this package (the meld checks of
:mod:`liverpool.melds`, the card notation of :mod:`liverpool.cards`) read back
into their catalog message and parameters, so that they too can be shown in
Norwegian and Danish. A text that matches none of them is shown as it is."""

from __future__ import annotations

import functools
import re

from ._catalog import N_, translations
from ._words import Segments, as_card, fill, rank_plural

__all__ = ["REASONS", "reason_segments"]

#: The English reasons, as catalog messages with fields: ``card`` (a card),
#: ``ranks`` (the plural word of a rank, e.g. "nines"), anything else as it is.
REASONS: tuple[str, ...] = (
    # liverpool.melds.meld_error
    N_("a set needs at least 3 cards"),
    N_("a set must be of one rank, ace to king"),
    N_("a set must be of one suit under these rules"),
    N_("a set may mix suits under these rules: give it no suit"),
    N_("{card} does not belong in a set of {ranks}"),
    N_("a meld needs at least one natural card"),
    N_("a set must hold at least {n} natural cards"),
    N_("a meld may not hold more wild cards than natural cards"),
    N_("a run needs at least 4 cards"),
    N_("a run must be of one suit"),
    N_("a run may mix suits under these rules: give it no suit"),
    N_("a run may not turn the corner (K-A-2)"),
    N_("a run that turns the corner may hold each rank only once"),
    N_("two wild cards may not lie side by side in a run"),
    N_("{card} does not fit at that place in the run"),
    N_("a run must hold at least {n} natural cards"),
    N_("a run with an ace in it needs three cards on one side of the ace to be laid down"),
    # liverpool.cards
    N_("an empty string is not a card"),
    N_("{text} is not a card: the suit must be one of S H D C (or ♠ ♥ ♦ ♣), for example 9H, "
       "TD, AS, or * for a joker"),
    N_("{text} is not a card: the rank must be one of A 2 3 4 5 6 7 8 9 T J Q K (10 is "
       "accepted for T)"),
    N_("there is no card with rank {rank} and suit {suit}"),
)

_ENGLISH_RANKS = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                  "nines", "tens", "jacks", "queens", "kings")


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for template in REASONS:
        pattern = ""
        for piece in re.split(r"(\{\w+\})", template):
            if piece.startswith("{") and piece.endswith("}"):
                pattern += f"(?P<{piece[1:-1]}>.+?)"
            else:
                pattern += re.escape(piece)
        out.append((re.compile(pattern + r"\Z"), template))
    return tuple(out)


def reason_segments(text: str, lang: str) -> Segments:
    """``text`` (an English reason) in ``lang``, with its cards as cards."""
    t = translations(lang)
    for pattern, template in _patterns():
        m = pattern.match(text)
        if m is None:
            continue
        values: dict[str, object] = {}
        for name, value in m.groupdict().items():
            if name == "card":
                card = as_card(value)
                values[name] = card if card is not None else value
            elif name == "ranks" and value in _ENGLISH_RANKS:
                values[name] = rank_plural(_ENGLISH_RANKS.index(value) + 1, lang)
            else:
                values[name] = value
        return fill(t.gettext(template), values)
    return [text]
