"""Computer players.

Every bot follows the :class:`~liverpool.bots.base.Bot` protocol: it receives
only its seat's :class:`~liverpool.views.SeatView` and the legal actions and
returns an action. :func:`make_bot` builds one by name.

>>> from liverpool import load_rules
>>> make_bot("random", load_rules("liverpool"), seed=1).name
'random'
>>> make_bot("robot", load_rules("liverpool"))
Traceback (most recent call last):
...
ValueError: unknown bot 'robot'; the bots are random, basic, expert, search, easy, medium, hard
"""

from __future__ import annotations

from typing import Any

from ..rules import Rules
from .base import Bot
from .random_bot import RandomBot

__all__ = ["BOT_KINDS", "DIFFICULTIES", "Bot", "RandomBot", "make_bot"]

#: Every name :func:`make_bot` accepts: the bot kinds, then the difficulty levels.
BOT_KINDS: tuple[str, ...] = ("random", "basic", "expert", "search", "easy", "medium",
                                 "hard")

#: Difficulty levels for people: (bot kind, options). See docs/bots.md.
DIFFICULTIES: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("basic", {"mistakes": 0.35}),
    "medium": ("basic", {}),
    "hard": ("expert", {"time_ms": 300.0, "iterations": 64}),
}


def make_bot(kind: str, rules: Rules, seed: int = 0, **options: Any) -> Bot:
    """A bot of ``kind`` (one of :data:`BOT_KINDS`) for ``rules``, seeded by ``seed``.

    ``options`` go to the bot's constructor (e.g. ``time_ms`` or ``iterations``
    for ``expert`` and ``search``). Raises :class:`ValueError` for an unknown kind.
    """
    name = kind.strip().lower()
    if name in DIFFICULTIES:
        base, preset = DIFFICULTIES[name]
        bot = make_bot(base, rules, seed, **{**preset, **options})
        bot.name = name
        return bot
    if name == "random":
        return RandomBot(rules, seed, **options)
    if name == "basic":
        from .basic import BasicBot

        return BasicBot(rules, seed, **options)
    if name == "expert":
        from .expert import ExpertBot

        return ExpertBot(rules, seed, **options)
    if name == "search":
        from .search import SearchBot

        return SearchBot(rules, seed, **options)
    raise ValueError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")
