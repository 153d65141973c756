"""The ``random`` bot: a uniformly random legal action (also an engine fuzzer)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..rules import Rules
from ..views import SeatView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions, with its own seeded generator.

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=3, seed=1)
    >>> bot = RandomBot(rules, seed=2)
    >>> game.can_apply(bot.choose(game.view(0), game.legal_actions()))
    True
    """

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.name = "random"
        self.rules = rules
        self.rng = random.Random(seed)  # noqa: S311 - a bot's seeded choices, not secrets

    def reseed(self, seed: int) -> None:
        """Play on as if built with ``seed`` (the RL environments call it at each reset)."""
        self.rng.seed(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("there is no legal action to choose from")
        return legal[self.rng.randrange(len(legal))]
