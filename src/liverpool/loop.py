"""The game loop: let the bots play until a person must decide.

One helper for every place that runs bots — the simulator, the terminal game,
the benchmarks and the tests. Bots see their seat's view only
(:class:`~liverpool.views.SeatViews` builds them incrementally).

>>> from liverpool import Game, load_rules
>>> from liverpool.bots import make_bot
>>> rules = load_rules("remi")
>>> game = Game(rules, players=3, seed=2)
>>> bots = [None, make_bot("basic", rules, seed=1), make_bot("random", rules, seed=2)]
>>> run_bots(game, bots) >= 0      # stops when seat 0 (a person) is to move
True
>>> game.to_move
0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .actions import Action
from .bots.base import Bot
from .engine import Game
from .events import Event
from .views import SeatViews

__all__ = ["run_bots"]


def run_bots(game: Game, bots: Sequence[Bot | None], views: SeatViews | None = None, *,
             limit: int | None = None,
             on_action: Callable[[int, Action, list[Event]], None] | None = None) -> int:
    """Apply the decisions of ``bots`` (one per seat; None: a person) while the
    seat to move has a bot and the game is not over, at most ``limit`` actions.
    ``on_action(seat, action, events)`` is called after each. Returns the number
    of actions applied."""
    if views is None:
        views = SeatViews(game)
    count = 0
    while limit is None or count < limit:
        seat = game.to_move
        if seat is None:
            break
        bot = bots[seat]
        if bot is None:
            break
        legal = game.legal_actions()
        action = bot.choose(views.view(seat, legal), legal)
        events = game.apply(action)
        count += 1
        if on_action is not None:
            on_action(seat, action, events)
    return count
