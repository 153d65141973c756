"""The server's event loop beside its heavy work: the coach's review of a
game, hints, and a ``hard`` bot's moves, each done in a thread of the loop's
process (as the server did before) and as the server does it now (in worker
processes: :mod:`liverpool.server.processes`).

An event loop handles a stand-in message (a table's view encoded as JSON,
then a 1 ms sleep) again and again while the work runs in a thread beside
it; that thread does the work itself, or only waits for a worker process
(the review: for one, and for the two the server shares its decisions out
among, which run at a lower priority).
Printed per work and way: the loop's messages per second, the p50 and p99
of one message's milliseconds, and the work's wall seconds; first the loop
alone, for comparison. The work: the review of seat 0 of a whole 4-player
liverpool game of ``basic`` bots (``--seed``); ``--hints`` hints at seat 0's
decisions in such a game; and a whole game of a ``hard`` bot against three
``basic`` (its moves only: the others' are made on the thread, as fast as a
table's ``basic`` bots).

    python benchmarks/bench_processes.py                    # about 3 minutes
    python benchmarks/bench_processes.py --only bot --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from liverpool import Game, load_rules
from liverpool.actions import action_from_json
from liverpool.bots import make_bot
from liverpool.loop import run_bots
from liverpool.record import replay
from liverpool.review import review_game
from liverpool.server.hints import view_seed
from liverpool.server.processes import WorkerPool, bot_choice, hint_in_process, review_in_process
from liverpool.simulate import game_seed

WORKS = ("review", "hints", "bot")


def loop_while(work: Callable[[], Any] | None, seconds: float = 5.0) -> dict[str, float]:
    """An event loop's messages while ``work`` runs in a thread of this
    process (None: for ``seconds``): messages a second, the p50 and p99 of
    one message's milliseconds, and the work's wall seconds."""
    message = Game(load_rules("liverpool"), players=4, seed=1).view(0).to_json()

    async def run() -> dict[str, float]:
        loop = asyncio.get_running_loop()
        began = time.perf_counter()
        future = loop.run_in_executor(None, work) if work is not None else None
        times = []
        while (future is not None and not future.done()) or (
                future is None and time.perf_counter() - began < seconds):
            start = time.perf_counter()
            json.dumps(message)
            await asyncio.sleep(0.001)
            times.append((time.perf_counter() - start) * 1000)
        wall = time.perf_counter() - began
        if future is not None:
            await future
        times.sort()
        return {"messages_per_s": round(len(times) / wall),
                "p50_ms": round(times[len(times) // 2], 2),
                "p99_ms": round(times[int(len(times) * 0.99)], 2), "wall_s": round(wall, 1)}
    return asyncio.run(run())


def basic_game(seed: int) -> Game:
    """A whole 4-player liverpool game of ``basic`` bots."""
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=seed)
    run_bots(game, [make_bot("basic", rules, seed=seed + s) for s in range(4)])
    return game


def hint_positions(record: dict[str, Any], count: int) -> list[tuple[Any, ...]]:
    """The arguments of the first ``count`` hints at seat 0's decisions of a game."""
    game = replay(dict(record, actions=[]))
    out = []
    for a in record["actions"]:
        legal = game.legal_actions(0)
        if len(legal) > 1 and len(out) < count:
            view = game.view(0)
            out.append((game.rules, view, list(legal), 12, view_seed(view), 700.0, "en", False))
        game.apply(action_from_json(a), seat=a["seat"])
    return out


def bot_game(seed: int, choose: Callable[[Any, Any, Any], tuple[Any, Any]]) -> None:
    """A game of a ``hard`` bot (seat 0) against three ``basic``; seat 0's
    moves made by ``choose(bot, view, legal)`` -> (action, the bot after)."""
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=seed)
    bots = [make_bot("hard" if s == 0 else "basic", rules, seed=seed + s) for s in range(4)]
    while not game.is_over:
        seat = next(s for s in range(4) if game.legal_actions(s))
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if seat == 0:
            action, bots[0] = choose(bots[0], view, legal)
        else:
            action = bots[seat].choose(view, legal)
        game.apply(action, seat=seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hints", type=int, default=40)
    parser.add_argument("--only", choices=WORKS, action="append",
                        help="this work only (again for more)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    seed = game_seed(args.seed, 0)
    record = basic_game(seed).record()
    pool = WorkerPool(1)
    pool.submit(int).result()  # (its worker started: the hints and moves below wait for none)

    def in_thread(work: str) -> Callable[[], Any]:
        if work == "review":
            return lambda: review_game(record, seat=0)
        if work == "hints":
            return lambda: [hint_in_process(*a) for a in hint_positions(record, args.hints)]
        return lambda: bot_game(seed, lambda bot, view, legal: (bot.choose(view, legal), bot))

    def in_process(work: str, processes: int = 1) -> Callable[[], Any]:
        if work == "review":
            return lambda: review_in_process(record, 0, 12, lambda done, total: None,
                                             threading.Event(), processes)
        if work == "hints":
            return lambda: [pool.submit(hint_in_process, *a).result()
                            for a in hint_positions(record, args.hints)]
        return lambda: bot_game(seed, lambda bot, view, legal: pool.submit(
            bot_choice, bot, view, legal).result())

    rows = [{"work": "none", "way": "", **loop_while(None)}]
    for work in args.only or WORKS:
        rows.append({"work": work, "way": "thread", **loop_while(in_thread(work))})
        rows.append({"work": work, "way": "process", **loop_while(in_process(work))})
        if work == "review":  # (as the server makes one: its decisions shared by two)
            rows.append({"work": work, "way": "2 processes", **loop_while(in_process(work, 2))})
    pool.close()
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            print(f"{row['work']:>6} {row['way']:>11}: the loop's messages "
                  f"{row['messages_per_s']}/s, p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms; "
                  f"{row['wall_s']} s wall", flush=True)


if __name__ == "__main__":
    main()
