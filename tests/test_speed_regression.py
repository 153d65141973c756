"""Speed work must not change play: pinned games between bots.

The games below were first pinned from the engine and bots *before* the speed
work on the engine, the views, ``liverpool.simulate`` and the ``basic`` bot: the
same seeds must still give the same games, action for action.
Each game is seeded as in ``liverpool.simulate`` (game ``i`` from
``game_seed(7, i)``, the bot of seat ``j`` from ``game_seed(game seed, 1000 + j)``)
and played through :class:`~liverpool.simulate.SeatViews` as ``play_game`` does.

The pins are the final totals, the number of actions and a short SHA-256 digest
of the actions (``[a.to_json() for a in game.history]`` as JSON with sorted
keys). Actions hold no prose, so rewording an event, a message or a record field
changes no pin; a game that plays differently does. A deliberate change of the
rules or of the bots changes the games: then re-pin with

    python tests/test_speed_regression.py --repin

which prints the ``GAMES`` table with pins computed by the current engine, to
paste over the one below (check first that only the games you expected changed).
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import pytest

from liverpool import Game, load_rules
from liverpool.bots import make_bot
from liverpool.views import SeatViews
from liverpool.simulate import game_seed, play_game

BASIC4 = "basic,basic,basic,basic"
EASY_MIX = "easy,basic,easy,basic"

GAMES = [  # (preset, bots, game index, final totals, actions, actions digest)
    ("liverpool", BASIC4, 0, (260, 445, 335, 350), 1113, "401cf8a66a525937"),
    ("liverpool", BASIC4, 1, (285, 400, 425, 265), 1011, "df66a281143d91d5"),
    ("liverpool", EASY_MIX, 0, (490, 280, 410, 105), 1147, "775e300a3d935596"),
    ("london", BASIC4, 0, (300, 375, 245, 345), 1052, "16ccb5f6fe6ba628"),
    ("london", BASIC4, 1, (525, 200, 460, 330), 989, "8966f95d88930763"),
    ("london", EASY_MIX, 1, (680, 245, 575, 125), 1548, "d39b47705007654f"),
    ("dansk", BASIC4, 0, (263, 320, 312, 345), 1746, "3dbfacf19f92a064"),
    ("dansk", BASIC4, 1, (369, 281, 426, 402), 1416, "1e79d4f16c07558a"),
    ("dansk", "basic,basic,basic", 1, (352, 110, 361), 1180, "8eae7fd8c2ad89c8"),
    ("remi", BASIC4, 0, (346, 418, 333, 440), 923, "40abd098925b4976"),
    ("remi", BASIC4, 1, (406, 396, 288, 308), 1013, "01d086183ebfbbf4"),
    ("remi", EASY_MIX, 0, (444, 20, 512, 537), 1070, "c790f74647d3b9b7"),
]


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def actions_digest(game: Game) -> str:
    """The digest of the game's actions, in order."""
    return digest([a.to_json() for a in game.history])


def play(preset: str, kinds: list[str], seed: int, fast_views: bool) -> Game:
    rules = load_rules(preset)
    game = Game(rules, players=len(kinds), seed=seed)
    bots = [make_bot(k, rules, seed=game_seed(seed, 1000 + j)) for j, k in enumerate(kinds)]
    views = SeatViews(game)
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        view = views.view(seat, legal) if fast_views else game.view(seat)
        game.apply(bots[seat].choose(view, legal))
    return game


@pytest.mark.parametrize("preset, bots, index, totals, actions, pinned", GAMES)
def test_pinned_games(preset: str, bots: str, index: int, totals: tuple[int, ...], actions: int,
                      pinned: str) -> None:
    kinds = bots.split(",")
    seed = game_seed(7, index)
    game = play(preset, kinds, seed, fast_views=True)
    assert game.results().totals == totals
    assert len(game.history) == actions
    assert actions_digest(game) == pinned
    result = play_game(load_rules(preset), kinds, seed)
    assert result.error is None and result.totals == totals and result.actions == actions


def test_engine_views_give_the_same_game() -> None:
    """Bots given ``game.view(seat)`` (all events, not just the round's) play the same."""
    preset, bots, index, totals, actions, pinned = GAMES[0]
    game = play(preset, bots.split(","), game_seed(7, index), fast_views=False)
    assert game.results().totals == totals
    assert len(game.history) == actions
    assert actions_digest(game) == pinned


def _repin() -> None:
    """Print the ``GAMES`` table with the pins of the current engine and bots."""
    names = {BASIC4: "BASIC4", EASY_MIX: "EASY_MIX"}
    print("GAMES = [  # (preset, bots, game index, final totals, actions, actions digest)")
    for preset, bots, index, *_old in GAMES:
        game = play(preset, bots.split(","), game_seed(7, index), fast_views=True)
        totals = game.results().totals
        row = (f"    ({preset!r}, {names.get(bots, repr(bots))}, {index}, {totals!r}, "
               f"{len(game.history)}, {actions_digest(game)!r}),")
        print(row.replace("'", '"'))
    print("]")


if __name__ == "__main__":
    if sys.argv[1:] != ["--repin"]:
        sys.exit("usage: python tests/test_speed_regression.py --repin")
    _repin()
