"""The coach's speed (issue 19): a whole 7-round liverpool game reviewed for
one seat in <= 60 s on this machine.

Plays ``--games`` whole games of liverpool (``--players``, by default 4; seat
0 is the ``--kind`` bot, by default ``basic``, against ``--others`` bots, by
default ``basic``: ``--kind search --others search`` is the search bot against
itself; game *i* seeded from ``--seed`` and *i*), then reviews seat 0 of each
with the review's defaults (``--samples``), in this process or, with
``--jobs N``, its decisions shared out among N processes
(:func:`liverpool.review_processes.review_in_processes`, as the server makes
a review with two). Prints per game the decisions reviewed, the wall seconds
and the CPU seconds (of all the review's processes), the accuracy and the
verdicts, and then the median (p50) and the max of both times and the mean,
lowest and highest accuracy (``--kind random`` shows how far a careless
player's falls).

    python benchmarks/bench_review.py                       # 3 games, a few minutes
    python benchmarks/bench_review.py --games 5 --kind search --json
    python benchmarks/bench_review.py --games 2 --kind search --others search
    python benchmarks/bench_review.py --players 8 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from collections import Counter
from typing import Any

from liverpool import Game, load_rules
from liverpool.bots import make_bot
from liverpool.loop import run_bots
from liverpool.review import review_game
from liverpool.review_processes import review_in_processes
from liverpool.simulate import game_seed


def bot_game(seed: int, kind: str, others: str = "basic", players: int = 4) -> dict[str, Any]:
    """The record of a whole liverpool game: ``kind`` in seat 0, ``others`` in
    the other seats (searching bots without a time cap: the game repeats
    exactly)."""
    rules = load_rules("liverpool")
    game = Game(rules, players=players, seed=seed)
    bots = [make_bot(k, rules, seed=seed + s,
                     **({"time_ms": float("inf")} if k in ("search", "expert") else {}))
            for s, k in enumerate([kind] + [others] * (players - 1))]
    run_bots(game, bots)
    return game.record()


def cpu_seconds() -> float:
    """The CPU seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kind", default="basic", help="the bot of seat 0 (reviewed)")
    parser.add_argument("--others", default="basic", help="the bot of the three other seats")
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes to share each review's decisions out among")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for i in range(args.games):
        record = bot_game(game_seed(args.seed, i), args.kind, args.others, args.players)
        wall, cpu = time.perf_counter(), cpu_seconds()
        if args.jobs > 1:
            review = review_in_processes(record, 0, args.jobs, samples=args.samples)
        else:
            review = review_game(record, seat=0, samples=args.samples)
        wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
        calls = Counter(d.verdict for d in review.decisions)
        row = {"game": i, "actions": len(record["actions"]), "decisions": len(review.decisions),
               "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
               "accuracy": round(review.accuracy, 1), "verdicts": dict(calls)}
        rows.append(row)
        if not args.json:
            print(f"game {i}: {row['actions']} actions, {row['decisions']} decisions; "
                  f"{row['wall_s']} s wall, "
                  f"{row['cpu_s']} s CPU; accuracy {row['accuracy']} %, {dict(calls)}", flush=True)
    walls = [r["wall_s"] for r in rows]
    cpus = [r["cpu_s"] for r in rows]
    accuracies = [r["accuracy"] for r in rows]
    summary = {"games": rows, "kind": args.kind, "others": args.others, "samples": args.samples,
               "players": args.players, "jobs": args.jobs,
               "wall_p50": round(statistics.median(walls), 1), "wall_max": max(walls),
               "cpu_p50": round(statistics.median(cpus), 1), "cpu_max": max(cpus),
               "accuracy_mean": round(statistics.mean(accuracies), 1),
               "accuracy_min": min(accuracies), "accuracy_max": max(accuracies)}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"seconds per game: wall p50 {summary['wall_p50']}, max {summary['wall_max']}; "
              f"CPU p50 {summary['cpu_p50']}, max {summary['cpu_max']} (the target: wall <= 60); "
              f"accuracy mean {summary['accuracy_mean']} %, "
              f"{summary['accuracy_min']}-{summary['accuracy_max']} %")


if __name__ == "__main__":
    main()
