"""The terminal game (``liverpool play``): people against bots, by typed commands.

:class:`TerminalGame` (and :func:`run_game`) is the whole game loop; it reads
input through a function and writes to a Rich console, so it can be scripted
(the line mode). :mod:`liverpool.tui.full` runs the same loop full-screen with
Textual; :mod:`liverpool.tui.saves` keeps the saved games. The ``play``
command lives in :mod:`liverpool.tui.cli`.
"""

from __future__ import annotations

from .app import InputFn, TerminalGame, run_game

__all__ = ["InputFn", "TerminalGame", "run_game"]
