"""A hint's time at a table (docs/protocol.md, "Hints"): the server's budget
is at most ``--samples`` samples and ``--time-ms`` a hint.

Plays ``--games`` whole 4-player liverpool games of ``basic`` bots (game *i*
seeded from ``--seed`` and *i*) and asks :func:`liverpool.review.hint` at
every decision of seat 0 with more than one legal action, as the server does
(the samples seeded from the view; the sentence made in English). Prints the
hints asked, their wall time (p50, p90, p99, max) and the samples taken.

    python benchmarks/bench_hints.py                 # 2 games, about a minute
    python benchmarks/bench_hints.py --games 4 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from liverpool import Game, i18n, load_rules
from liverpool.bots import make_bot
from liverpool.review import hint
from liverpool.server.hints import view_seed
from liverpool.simulate import game_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--time-ms", type=float, default=700.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = load_rules("liverpool")
    seconds: list[float] = []
    samples: list[int] = []
    for g in range(args.games):
        game = Game(rules, players=4, seed=game_seed(args.seed, g))
        bots = [make_bot("basic", rules, seed=s) for s in range(4)]
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions()
            if len(game.legal_actions(0)) > 1:
                view = game.view(0)
                start = time.perf_counter()
                found = hint(rules, view, game.legal_actions(0), samples=args.samples,
                             seed=view_seed(view), time_ms=args.time_ms)
                i18n.hint_text(found, "en")
                seconds.append(time.perf_counter() - start)
                samples.append(found.samples)
            game.apply(bots[seat].choose(game.view(seat), legal), seat)
    seconds.sort()

    def at(q: float) -> float:
        return seconds[min(len(seconds) - 1, int(q * len(seconds)))]

    out = {"hints": len(seconds), "p50_ms": round(1000 * at(0.5), 1),
           "p90_ms": round(1000 * at(0.9), 1), "p99_ms": round(1000 * at(0.99), 1),
           "max_ms": round(1000 * seconds[-1], 1),
           "samples_mean": round(statistics.mean(samples), 2)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['hints']} hints: p50 {out['p50_ms']} ms, p90 {out['p90_ms']} ms, "
              f"p99 {out['p99_ms']} ms, max {out['max_ms']} ms; "
              f"{out['samples_mean']} samples a hint on average")


if __name__ == "__main__":
    main()
