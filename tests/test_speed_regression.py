"""Speed work must not change play: pinned games between bots.

The numbers below were computed from the engine and bots *before* the speed
work on the engine, the views, ``liverpool.simulate`` and the ``basic`` bot,
and pinned: the same seeds must still give the same games, action for action.
Each game is seeded as in ``liverpool.simulate`` (game ``i`` from
``game_seed(7, i)``, the bot of seat ``j`` from ``game_seed(game seed, 1000 + j)``)
and played through :class:`~liverpool.simulate.SeatViews` as ``play_game`` does.
The pins are the final totals, the number of actions and short SHA-256 digests
of ``game.record()`` and of every event (with private cards), as JSON with
sorted keys.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from liverpool import Game, load_rules
from liverpool.bots import make_bot
from liverpool.simulate import SeatViews, game_seed, play_game

BASIC4 = "basic,basic,basic,basic"
EASY_MIX = "easy,basic,easy,basic"

GAMES = [  # (preset, bots, game index, final totals, actions, record digest, events digest)
    ("liverpool", BASIC4, 0, (260, 445, 335, 350), 1113, "81d81e08a4479dd5", "b3fca7cc0217a7cc"),
    ("liverpool", BASIC4, 1, (285, 400, 425, 265), 1011, "be8ee1be842bca88", "d48c6adccad166a5"),
    ("liverpool", EASY_MIX, 0, (490, 280, 410, 105), 1147, "665a0c7e6b7c2230",
     "3564572c027a709e"),
    ("london", BASIC4, 0, (300, 375, 245, 345), 1052, "d64ffb1151fa64aa", "94ecef7b2f917457"),
    ("london", BASIC4, 1, (525, 200, 460, 330), 989, "d1c82733f8fb07f3", "9d83f258f1c78659"),
    ("london", EASY_MIX, 1, (680, 245, 575, 125), 1548, "26f4485874ca2934", "d74598089e200a00"),
    ("dansk", BASIC4, 0, (263, 320, 312, 345), 1746, "0d388745135ec2f3", "c05a96e50c1755be"),
    ("dansk", BASIC4, 1, (369, 281, 426, 402), 1416, "d3a33d9daa24c0c1", "f3dde6ec4b85dd98"),
    ("dansk", "basic,basic,basic", 1, (352, 110, 361), 1180, "2393426de95c3844",
     "ee71115fed80b845"),
    ("remi", BASIC4, 0, (346, 418, 333, 440), 923, "eb7b1362e33fa2cf", "130d9c95c95e8f57"),
    ("remi", BASIC4, 1, (406, 396, 288, 308), 1013, "16cd7e466f2f7e5b", "32abcd9ee01e33fc"),
    ("remi", EASY_MIX, 0, (444, 20, 512, 537), 1070, "f00e1e7483f240e6", "496b5ff1e83cab2f"),
]


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


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


@pytest.mark.parametrize("preset, bots, index, totals, actions, record, events", GAMES)
def test_pinned_games(preset: str, bots: str, index: int, totals: tuple[int, ...], actions: int,
                      record: str, events: str) -> None:
    kinds = bots.split(",")
    seed = game_seed(7, index)
    game = play(preset, kinds, seed, fast_views=True)
    assert game.results().totals == totals
    assert len(game.history) == actions
    assert digest(game.record()) == record
    assert digest([e.to_json(full=True) for e in game.events]) == events
    result = play_game(load_rules(preset), kinds, seed)
    assert result.error is None and result.totals == totals and result.actions == actions


def test_engine_views_give_the_same_game() -> None:
    """Bots given ``game.view(seat)`` (all events, not just the round's) play the same."""
    preset, bots, index, totals, actions, record, _events = GAMES[0]
    game = play(preset, bots.split(","), game_seed(7, index), fast_views=False)
    assert game.results().totals == totals
    assert len(game.history) == actions
    assert digest(game.record()) == record
