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

import math
import types
import typing
from collections.abc import Mapping
from typing import Any

from ..errors import is_whole
from ..rules import Rules
from .base import Bot
from .random_bot import RandomBot

__all__ = ["BOT_KINDS", "DIFFICULTIES", "Bot", "RandomBot", "check_bot_options", "make_bot"]

#: Every name :func:`make_bot` accepts: the bot kinds, then the difficulty levels.
BOT_KINDS: tuple[str, ...] = ("random", "basic", "expert", "search", "easy", "medium",
                                 "hard")

#: Difficulty levels for people: (bot kind, options). See docs/bots.md.
DIFFICULTIES: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("basic", {"mistakes": 0.35}),
    "medium": ("basic", {}),
    "hard": ("search", {"value": "learned", "fallback": "base", "iterations": 16,
                        "time_ms": 300.0}),
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
    made: Bot = _bot_class(name)(rules, seed, **options)
    return made


def _bot_class(kind: str) -> type:
    name = kind.strip().lower()
    name = DIFFICULTIES[name][0] if name in DIFFICULTIES else name
    if name == "random":
        return RandomBot
    if name == "basic":
        from .basic import BasicBot

        return BasicBot
    if name == "expert":
        from .expert import ExpertBot

        return ExpertBot
    if name == "search":
        from .search import SearchBot

        return SearchBot
    raise ValueError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")


_TYPE_WORDS = {bool: "true|false", int: "a whole number", float: "a number",
               str: "a text", type(None): "null"}


def _fits(value: object, kind: object) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return is_whole(value)
    if kind is float:  # a whole number is a number; NaN is not
        return (isinstance(value, int | float) and not isinstance(value, bool)
                and not (isinstance(value, float) and math.isnan(value)))
    if kind is type(None):
        return value is None
    return isinstance(kind, type) and isinstance(value, kind)


def check_bot_options(kind: str, options: Mapping[str, object]) -> dict[str, Any]:
    """The ``options`` for a bot of ``kind``, checked against its constructor's
    keyword options: every name must be one of them and every value of its type
    (``true``/``false`` for a flag, a whole number for a count, any number but
    NaN for a weight or a time; no value is converted). Raises
    :class:`ValueError` saying which option is wrong; returns the options as a
    new dict. Meant for options that come from outside the program (JSON on
    the command line).

    >>> from math import inf
    >>> check_bot_options("hard", {"time_ms": inf, "fallback": "playout"})
    {'time_ms': inf, 'fallback': 'playout'}
    >>> check_bot_options("expert", {"iterations": 2.5})
    Traceback (most recent call last):
    ...
    ValueError: expert's option 'iterations' must be a whole number, not 2.5
    >>> check_bot_options("basic", {"depth": 3})
    Traceback (most recent call last):
    ...
    ValueError: basic has no option 'depth'; its options are buy_eagerness, mistakes, points_weight
    """
    cls = _bot_class(kind)
    hints = typing.get_type_hints(vars(cls)["__init__"])
    names = sorted(n for n in hints if n not in ("rules", "seed", "return"))
    label = kind.strip().lower()
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in names:
            if not names:
                raise ValueError(f"{label} has no options, not even {name!r}")
            raise ValueError(f"{label} has no option {name!r}; its options are "
                             f"{', '.join(names)}")
        hint = hints[name]
        kinds = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        if not any(_fits(value, k) for k in kinds):
            said = [w for k in kinds for w in _TYPE_WORDS.get(k, str(k)).split("|")]
            words = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]
            raise ValueError(f"{label}'s option {name!r} must be {words}, not {value!r}")
        out[name] = value
    return out
