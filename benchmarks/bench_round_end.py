"""Measure the rates of a ruleset's normal rounds on games of four ``basic``
bots: how soon a round ends, beside the general rates of the ``expert``'s
round-end model (``liverpool.bots.round_end``).

Per own turn of a player (its state at the start of the turn, the turn
counted per player from the round's start):

- not down: the chance it lays down in this turn, per round and turn; turns
  with fewer than 100 observations are pooled into one last entry;
- down with k cards (six or more: 6): the chance it goes out, and otherwise
  the chance it sheds 1, 2 or 3 or more cards net (pooled over the hands
  large enough for that).

docs/bots-measured.md ("The round-end model's rates per preset") has the
presets' figures of ``--games 200`` (game seeds 5000 + i, the bots seeded as
below), e.g.

    python benchmarks/bench_round_end.py --rules london --games 200
"""

from __future__ import annotations

import argparse
import collections
import time

from liverpool import Game, load_rules
from liverpool.actions import Discard
from liverpool.bots import make_bot
from liverpool.melds import lay_down_mode


def measure(preset: str, games: int) -> dict[str, object]:
    rules = load_rules(preset)
    lay: dict[tuple[int, int], list[int]] = collections.defaultdict(lambda: [0, 0])
    down: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for g in range(games):
        game = Game(rules, players=4, seed=5000 + g)
        bots = [make_bot("basic", rules, seed=g * 4 + s) for s in range(4)]
        # the turn being followed: seat, state, round, turn or k, size (the
        # all-at-once rounds are not followed)
        start: tuple[int, str, int, int, int] | None = None
        while not game.is_over:
            actor = game.to_move
            assert actor is not None
            v = game.view(actor)
            if (game.phase == "draw" and start is None
                    and lay_down_mode(rules, v.round) == "normal"):
                if not v.laid_down[actor]:
                    start = (actor, "not down", v.round, v.turn_number // 4, 0)
                else:
                    size = v.hand_sizes[actor]
                    start = (actor, "down", v.round, min(6, size), size)
            before = game.round
            action = bots[actor].choose(v, game.legal_actions())
            game.apply(action)
            ended = game.round != before or game.is_over
            if start is not None and actor == start[0] and (ended or isinstance(action, Discard)):
                seat, state, rnd, key, size = start
                out = ended and game.state.round_scores[before - 1][seat] == 0
                if state == "not down":
                    row = lay[(rnd, key)]
                    row[0] += 1
                    row[1] += out or (not ended and game.view(seat).laid_down[seat])
                elif state == "down":
                    shed = 0 if out else min(3, max(0, size - game.view(seat).hand_sizes[seat]))
                    down[key]["out" if out else str(shed)] += 1
                start = None
            elif ended:
                start = None
    lay_down = []
    for r in sorted({r for r, _ in lay}):
        row = {t: v for (rr, t), v in lay.items() if rr == r}
        rates, t = [], 0
        while t in row and row[t][0] >= 100:
            rates.append(round(row[t][1] / row[t][0], 3))
            t += 1
        rest = [v for u, v in row.items() if u >= t]
        if sum(v[0] for v in rest) >= 30:
            rates.append(round(sum(v[1] for v in rest) / sum(v[0] for v in rest), 3))
        lay_down.append(tuple(rates))
    out = [0.0] + [round(down[k]["out"] / max(1, sum(down[k].values())), 3) for k in range(1, 7)]
    shed = []
    for j in (1, 2, 3):
        stayed = sum(sum(down[k].values()) - down[k]["out"] for k in range(j + 1, 7))
        shed.append(round(sum(down[k][str(j)] for k in range(j + 1, 7)) / max(1, stayed), 3))
    return {"lay_down": tuple(lay_down), "out": tuple(out), "shed": tuple(shed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="liverpool,london,dansk,remi",
                        help="presets, comma-separated")
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    for preset in args.rules.split(","):
        began = time.perf_counter()
        rates = measure(preset, args.games)
        print(f"{preset} ({args.games} games, {time.perf_counter() - began:.0f} s): {rates}")


if __name__ == "__main__":
    main()
