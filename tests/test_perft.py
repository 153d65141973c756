"""Perft-style pinned counts of the engine's legal actions.

The numbers below were computed once from the engine (after the rules tests of
``test_engine_rules.py`` passed) and pinned, so that any change to the move
generation shows up. How they were computed:

* the *line* of a preset: ``Game(load_rules(preset), players=4, seed=1)``; at
  each of the first 120 decision points count ``len(game.legal_actions())``,
  then apply the first legal action (the last one, i.e. ``Pass``, in a buy or
  call window, so that the line is not all buying);
* *perft(d)* at step k of that line: the number of action sequences of length d
  from that position (a finished game counts as one leaf), each legal action
  applied to a copy made with ``Game.from_json(game.to_json())``.

Lay-downs count once: ``legal_actions()`` lists one suggested lay-down.

The dansk line and its perft rows at steps 17, 40 and 119 were re-pinned for
the rule that nobody buys their own discard (dansk offers the discard to the
others first, so every turn's buy window lost the discarder: 2, 2, 2, 2, 10
became 2, 2, 2, 10 from step 5 on). The engine of commit 7ef6d21 with only that
rule added gives exactly these counts, every line and every perft row; the
other presets' counts did not change.
"""

from __future__ import annotations

import pytest

from liverpool import Game, load_rules

LINES = {
    "liverpool": [
        2, 10, 2, 11, 2, 11, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11, 2, 11, 2, 10, 5, 2, 11, 2,
        11, 2, 11, 2, 5, 2, 10, 2, 11, 2, 10, 2, 7, 4, 2, 10, 2, 11, 2, 9, 2, 4, 2, 10, 2,
        10, 2, 9, 2, 4, 2, 10, 2, 10, 2, 10, 2, 4, 2, 11, 2, 10, 2, 10, 2, 4, 2, 11, 2, 11,
        2, 10, 2, 4, 2, 11, 2, 11, 2, 11, 2, 4, 2, 11, 2, 11, 2, 11, 2, 4, 2, 11, 2, 11, 2,
        11, 2, 4, 2, 11, 2, 11, 2, 11, 2, 4, 2, 11, 2, 10, 2, 11, 2, 4, 2, 11,
    ],
    "london": [
        1, 10, 2, 10, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11, 2, 11,
        2, 10, 2, 11, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11, 2, 11,
        2, 10, 2, 11, 2, 10, 2, 11, 2, 10, 2, 11, 2, 10, 2, 11, 2, 11, 2, 10, 2, 10, 2, 11,
        2, 11, 2, 10, 2, 10, 2, 11, 2, 11, 2, 10, 2, 10, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11,
        2, 11, 2, 10, 2, 11, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11, 2, 11, 2, 10, 2, 11, 2, 11,
    ],
    "dansk": [
        2, 2, 2, 2, 10, 2, 2, 2, 10, 2, 2, 2, 11, 2, 2, 2, 11, 2, 2, 2, 10, 2, 2, 2, 11,
        2, 2, 2, 11, 2, 2, 2, 11, 2, 2, 2, 10, 2, 2, 2, 11, 2, 2, 2, 11, 2, 2, 2, 11, 2,
        2, 2, 10, 2, 2, 2, 11, 2, 2, 2, 11, 2, 2, 2, 11, 2, 2, 2, 10, 2, 2, 2, 11, 2, 2,
        2, 11, 2, 2, 2, 11, 2, 2, 2, 10, 2, 2, 2, 11, 2, 2, 2, 11, 2, 2, 2, 11, 2, 2, 2,
        10, 2, 2, 2, 11, 2, 2, 2, 10, 2, 2, 2, 11, 2, 2, 2, 10, 2, 2, 2,
    ],
    "remi": [
        2, 11, 2, 10, 2, 10, 2, 11, 2, 11, 2, 10, 2, 10, 2, 11, 2, 11, 2, 11, 2, 10, 2, 11,
        2, 11, 2, 10, 2, 9, 2, 11, 2, 11, 2, 10, 2, 9, 2, 11, 2, 11, 2, 11, 5, 2, 10, 2,
        11, 2, 11, 2, 5, 2, 10, 2, 11, 2, 11, 2, 4, 2, 10, 2, 11, 2, 11, 2, 5, 2, 10, 2,
        11, 2, 11, 2, 5, 2, 11, 2, 10, 2, 11, 2, 5, 2, 11, 2, 10, 2, 11, 2, 5, 2, 10, 2,
        10, 2, 11, 2, 5, 2, 10, 2, 10, 2, 11, 2, 5, 2, 10, 2, 9, 2, 11, 2, 6, 4, 2, 10,
    ],
}

PERFT = [  # (preset, steps along the line, phase there, perft(1), perft(2), perft(3))
    ("liverpool", 0, "draw", 2, 12, 32),
    ("liverpool", 17, "play", 11, 22, 132),
    ("liverpool", 40, "draw", 2, 13, 35),
    ("liverpool", 119, "play", 11, 22, 132),
    ("london", 0, "draw", 1, 10, 20),
    ("london", 17, "play", 10, 20, 130),
    ("london", 40, "draw", 2, 12, 32),
    ("london", 119, "play", 11, 22, 143),
    ("dansk", 0, "buy", 2, 4, 8),
    ("dansk", 17, "buy", 2, 4, 8),
    ("dansk", 40, "play", 11, 22, 44),
    ("dansk", 119, "draw", 2, 22, 44),
    ("remi", 0, "draw", 2, 13, 35),
    ("remi", 17, "play", 11, 22, 141),
    ("remi", 40, "draw", 2, 13, 35),
    ("remi", 119, "play", 10, 20, 112),
]


def line_game(preset: str, steps: int) -> tuple[Game, list[int]]:
    game = Game(load_rules(preset), players=4, seed=1)
    counts = []
    for _ in range(steps):
        legal = game.legal_actions()
        counts.append(len(legal))
        game.apply(legal[-1] if game.phase in ("buy", "call") else legal[0])
    return game, counts


def perft(game: Game, depth: int) -> int:
    if depth == 0 or game.is_over:
        return 1
    data = game.to_json()
    total = 0
    for action in game.legal_actions():
        child = Game.from_json(data)
        child.apply(action)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize("preset", sorted(LINES))
def test_legal_action_counts_along_a_line(preset: str) -> None:
    _, counts = line_game(preset, len(LINES[preset]))
    assert counts == LINES[preset]


@pytest.mark.parametrize(("preset", "steps", "phase", "p1", "p2", "p3"), PERFT)
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
@pytest.mark.slow
def test_perft(preset: str, steps: int, phase: str, p1: int, p2: int, p3: int) -> None:
    game, _ = line_game(preset, steps)
    assert game.phase == phase
    assert [perft(game, d) for d in (1, 2, 3)] == [p1, p2, p3]
