"""The terminal game (``liverpool play``): one person against bots, by typed commands.

:func:`run_game` is the whole game loop; it reads input through a function and
writes to a Rich console, so it can be scripted. The ``play`` command lives in
:mod:`liverpool.tui.cli`.
"""

from __future__ import annotations

from .app import InputFn, TerminalGame, run_game

__all__ = ["InputFn", "TerminalGame", "run_game"]
