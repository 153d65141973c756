"""Options of the ``expert`` from a round on, compared game by game.

Each game (seed ``--seed``, games ``--first`` to ``--last`` - 1: the games of
``liverpool simulate --seed S``, with its bots' seeds) is played with the
``expert`` in seat 1 against three ``basic`` bots up to the start of round
``--from-round`` (default: the last round), the expert playing with its
defaults; each variant then plays the rest of the game ``--repeats`` times
from a copy of that position (the expert seeded anew for each repeat). The
rounds before are the same for every variant, so only the later play differs.

Prints per variant the share of games won (a game's win counts as the mean
over its repeats), the average points, the last round's points, how often
the expert went out first in it and its CPU time, and the difference from
the first variant game by game with its 95% interval (docs/bots-measured.md, "The
last round").

    python benchmarks/bench_final_round.py --first 0 --last 200 --repeats 2 \\
        --variants '{"basic": {"final_race": false}, "race": {}}' --jobs 2
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from liverpool import Game, SeatViews, load_rules
from liverpool.bots import make_bot
from liverpool.events import RoundEnded
from liverpool.loop import run_bots
from liverpool.simulate import game_seed

_KINDS = ("expert", "basic", "basic", "basic")


def play(args: tuple[str, int, dict[str, dict[str, Any]], int, int]) -> dict[str, Any]:
    rules_name, seed, variants, repeats, from_round = args
    rules = load_rules(rules_name)
    game = Game(rules, players=4, seed=seed)
    opts: list[dict[str, Any]] = [{"time_ms": math.inf}, {}, {}, {}]
    bots = [make_bot(k, rules, seed=game_seed(seed, 1000 + i), **opts[i])
            for i, k in enumerate(_KINDS)]
    views = SeatViews(game)
    start = rules.num_rounds if from_round <= 0 else min(from_round, rules.num_rounds)
    while game.round < start and not game.is_over:
        run_bots(game, bots, views, limit=1)
    out: dict[str, Any] = {}
    for name, options in variants.items():
        plays = []
        for rep in range(repeats):
            g = game.copy()
            seats = [copy.deepcopy(b) for b in bots]
            seats[0] = make_bot("expert", rules, seed=game_seed(seed, 5000 + rep),
                                **{"time_ms": math.inf, **options})
            cpu = time.process_time()
            run_bots(g, seats, SeatViews(g))
            cpu = time.process_time() - cpu
            last = [e for e in g.events if isinstance(e, RoundEnded)][-1]
            res = g.results()
            plays.append((0 in res.winners, res.totals[0], last.scores[0], last.winner == 0, cpu))
        out[name] = plays
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="liverpool")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--variants", default='{"basic": {"final_race": false}, "race": {}}',
                        help="JSON object: variant name -> ExpertBot options")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--from-round", type=int, default=0,
                        help="the round the variants start from (default 0: the last round)")
    args = parser.parse_args()
    variants = json.loads(args.variants)
    tasks = [(args.rules, game_seed(args.seed, i), variants, args.repeats, args.from_round)
             for i in range(args.first, args.last)]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        games = list(pool.map(play, tasks, chunksize=2))
    n = len(games)
    names = list(variants)

    def mean(values: list[float]) -> float:
        return sum(values) / len(values)

    per = {name: [[mean([float(p[k]) for p in g[name]]) for g in games] for k in range(5)]
           for name in names}
    ref = per[names[0]]
    for name in names:
        wins, points, last, out, cpu = per[name]
        line = (f"{name}: wins {100 * mean(wins):.1f}%, points {mean(points):.1f}, "
                f"last round {mean(last):.1f} points, out first {100 * mean(out):.1f}%, "
                f"CPU {mean(cpu):.2f} s")
        if name != names[0] and n > 1:
            for label, a, b, scale in (("wins", wins, ref[0], 100.0), ("points", points, ref[1], 1.0),
                                       ("out first", out, ref[3], 100.0)):
                d = [x - y for x, y in zip(a, b, strict=True)]
                m = mean(d)
                sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
                line += f"; {label} {scale * m:+.1f} ± {scale * 1.96 * sd / math.sqrt(n):.1f}"
        print(line)


if __name__ == "__main__":
    main()
