"""The game engine: one state machine for a whole game (see :mod:`.game`).

Each rule has its module: :mod:`.turns` (turn flow), :mod:`.buying` (the buy
window), :mod:`.calls` (the call window), :mod:`.scoring` (round ends, the score
sheet), :mod:`.legal` (legal actions and refusals); :mod:`.state` holds the
state and the game's chance.
"""

from .game import RECORD_FORMAT, STATE_FORMAT, Game
from .state import Chance, ChanceError, Results, Rng, outcome_from_json, outcome_to_json

__all__ = ["RECORD_FORMAT", "STATE_FORMAT", "Chance", "ChanceError", "Game", "Results", "Rng",
           "outcome_from_json", "outcome_to_json"]
