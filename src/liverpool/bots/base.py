"""The bot interface: a bot sees only its seat's view and the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..actions import Action
from ..rules import Rules
from ..views import SeatView

__all__ = ["Bot"]


class Bot(Protocol):
    """A computer player.

    ``choose`` receives the seat's :class:`~liverpool.views.SeatView` (never the
    hidden state) and the legal actions, and returns one of them (or any legal
    lay-down). Bots are built with the ruleset and a seed and are deterministic.
    """

    name: str
    rules: Rules

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action: ...
