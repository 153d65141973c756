"""Where a bot wins and loses its points, round by round.

Plays games of ``--bots`` (the bot in seat 1, the first name, against the
others; the games and the bots' seeds of ``liverpool simulate --seed S``) and
prints per round, for seat 1 against the mean of the other seats: how often
it went out first, its points, how often and at which of its own turns it
laid down, the cards it held just after laying down (before its discard),
the upcards it took and the cards it bought. A second table gives, for the
rounds with a normal lay-down, the chance of going out first once down, by
the cards held just after laying down: it tells a slow shedding apart from a
lay-down that leaves too many cards.

    python benchmarks/bench_rounds.py --seed 3 --first 0 --last 200 --jobs 2

``--options`` gives seat 1's bot options as JSON (``{"out_bonus": 1.2}``);
every bot plays with no time cap, so each game repeats exactly.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from liverpool import Game, SeatViews, load_rules
from liverpool.actions import Action
from liverpool.bots import make_bot
from liverpool.events import Bought, Drew, Event, LaidDown, RoundEnded, TookDiscard
from liverpool.loop import run_bots
from liverpool.melds import lay_down_mode
from liverpool.simulate import game_seed

Row = dict[str, Any]


def _new_row(players: int) -> Row:
    return {"turns": [0] * players, "down": [None] * players, "left": [None] * players,
            "takes": [0] * players, "buys": [0] * players}


def play(args: tuple[str, list[str], int, dict[str, Any]]) -> tuple[list[Row], bool]:
    """One game: a row per round, and whether seat 1 won."""
    rules_name, kinds, seed, options = args
    rules = load_rules(rules_name)
    players = len(kinds)
    game = Game(rules, players=players, seed=seed)
    bots = []
    for i, kind in enumerate(kinds):
        # the searching bots with no time cap: each game repeats exactly
        opts: dict[str, Any] = {"time_ms": math.inf} if kind in ("expert", "search",
                                                                 "hard") else {}
        if i == 0:
            opts.update(options)
        bots.append(make_bot(kind, rules, seed=game_seed(seed, 1000 + i), **opts))
    rows: list[Row] = []
    row = _new_row(players)

    def on_action(seat: int, action: Action, events: list[Event]) -> None:
        nonlocal row
        ended = False
        for e in events:
            if isinstance(e, (Drew, TookDiscard)):
                row["turns"][e.seat] += 1
                if isinstance(e, TookDiscard):
                    row["takes"][e.seat] += 1
            elif isinstance(e, Bought):
                row["buys"][e.seat] += 1
            elif isinstance(e, LaidDown):
                row["down"][e.seat] = row["turns"][e.seat]
            elif isinstance(e, RoundEnded):
                row["round"], row["winner"], row["scores"] = e.round, e.winner, list(e.scores)
                rows.append(row)
                row = _new_row(players)
                ended = True
        if not ended and any(isinstance(e, LaidDown) for e in events):
            row["left"][seat] = game.view(seat).hand_sizes[seat]

    run_bots(game, bots, SeatViews(game), on_action=on_action)
    return rows, 0 in game.results().winners


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="liverpool")
    parser.add_argument("--bots", default="expert,basic,basic,basic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=40)
    parser.add_argument("--options", default="{}", help="JSON: seat 1's bot options")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    kinds = [k.strip() for k in args.bots.split(",")]
    rules = load_rules(args.rules)
    tasks = [(args.rules, kinds, game_seed(args.seed, i), json.loads(args.options))
             for i in range(args.first, args.last)]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        games = list(pool.map(play, tasks, chunksize=2))
    others = range(1, len(kinds))
    print(f"{sum(w for _, w in games)} of {len(games)} games won by seat 1 ({kinds[0]})")
    print("round | out first | points | laid down | own turn | cards after | upcards | buys")
    by_left: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for rnd in range(1, rules.num_rounds + 1):
        rows = [r for g, _ in games for r in g if r["round"] == rnd]
        if not rows:
            continue

        def both(stat: Any, rows: list[Row] = rows) -> str:
            mine = [v for r in rows if (v := stat(r, 0)) is not None]
            theirs = [v for r in rows for o in others if (v := stat(r, o)) is not None]
            return f"{_mean(mine):.2f} / {_mean(theirs):.2f}"

        print(f"{rnd} | " + " | ".join((
            both(lambda r, s: float(r["winner"] == s)),
            both(lambda r, s: float(r["scores"][s])),
            both(lambda r, s: float(r["down"][s] is not None)),
            both(lambda r, s: r["down"][s]),
            both(lambda r, s: r["left"][s]),
            both(lambda r, s: float(r["takes"][s])),
            both(lambda r, s: float(r["buys"][s])))))
        if lay_down_mode(rules, rnd) == "normal":
            for r in rows:
                for s in range(len(kinds)):
                    if r["left"][s] is not None:
                        tally = by_left[min(r["left"][s], 9)]
                        k = 0 if s == 0 else 2
                        tally[k] += 1
                        tally[k + 1] += r["winner"] == s
    print("(each cell: seat 1 / the others' mean)")
    print("cards after laying down | seat 1: times, out first | the others: times, out first")
    for left in sorted(by_left):
        a, out_a, b, out_b = by_left[left]
        print(f"{left} | {a}, {out_a / a if a else float('nan'):.2f} | "
              f"{b}, {out_b / b if b else float('nan'):.2f}")


if __name__ == "__main__":
    main()
