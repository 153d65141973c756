"""The last round alone: how often the ``expert`` goes out first.

Each game is a one-round game of a preset's last round (its contract and
deal, nothing before it: everyone starts from 0 points, so winning is going
out first), the ``expert`` in seat ``i % 4`` of game ``i`` (it turns round
the table) against three ``basic`` bots, no time cap. Every variant plays
the same games (seed ``--seed``, games ``--first`` to ``--last`` - 1, the
bots seeded as ``liverpool simulate`` seeds them). Prints per variant the
share of games it went out first (a shared first place counts as a share),
its points and those of a ``basic`` seat, its CPU time a game, and the
difference from the first variant game by game with its 95% interval
(docs/bots-measured.md, "The last round by plans").

    python benchmarks/bench_race.py --first 0 --last 400 --jobs 2 \\
        --variants '{"race": {}, "plans": {"final_plans": true}}'
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from liverpool import load_rules
from liverpool.simulate import game_seed, play_game


def play(args: tuple[str, int, int, dict[str, dict[str, Any]]]) -> dict[str, tuple[float, ...]]:
    preset, seed, i, variants = args
    base = load_rules(preset)
    rules = dataclasses.replace(base, contracts=base.contracts[-1:], deal=base.deal[-1:])
    seat = i % 4
    kinds = ["basic"] * 4
    kinds[seat] = "expert"
    out: dict[str, tuple[float, ...]] = {}
    for name, options in variants.items():
        opts: list[dict[str, Any]] = [{}, {}, {}, {}]
        opts[seat] = {"time_ms": math.inf, **options}
        cpu = time.process_time()
        result = play_game(rules, kinds, game_seed(seed, i), opts)
        cpu = time.process_time() - cpu
        if result.error is not None:
            raise RuntimeError(f"game {i}: {result.error}")
        won = result.winners
        others = [t for s, t in enumerate(result.totals) if s != seat]
        out[name] = ((1.0 / len(won)) if seat in won else 0.0, float(result.totals[seat]),
                     sum(others) / len(others), cpu)
    return out


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / max(1, n - 1)
    return m, 1.96 * math.sqrt(var / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="liverpool")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variants", default='{"race": {}, "plans": {"final_plans": true}}',
                        help="JSON: name -> ExpertBot options; the first is the reference")
    args = parser.parse_args()
    variants: dict[str, dict[str, Any]] = json.loads(args.variants)
    games = [(args.rules, args.seed, i, variants) for i in range(args.first, args.last)]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(play, games, chunksize=10))
    else:
        results = [play(g) for g in games]
    n = len(results)
    ref = next(iter(variants))
    for name in variants:
        rows = [r[name] for r in results]
        line = (f"{name}: out first {100 * sum(r[0] for r in rows) / n:.1f}% of {n}, "
                f"points {sum(r[1] for r in rows) / n:.1f} vs {sum(r[2] for r in rows) / n:.1f} "
                f"for basic, CPU {sum(r[3] for r in rows) / n:.2f} s")
        if name != ref:
            won, e = _mean_ci([r[name][0] - r[ref][0] for r in results])
            pts, ep = _mean_ci([r[name][1] - r[ref][1] for r in results])
            line += f"; out first {100 * won:+.1f} ± {100 * e:.1f} pp, points {pts:+.1f} ± {ep:.1f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
