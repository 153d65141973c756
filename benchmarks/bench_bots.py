"""Strength and speed of the bots (issue 3). Five figures:

1. speed: a full 4-player game of the ``liverpool`` preset with four ``basic``
   bots, median wall time per game (target <= 50 ms on CPython; each game is
   run ``--speed-repeat`` times, default 3, and its fastest run counts), plus
   the share of that time spent in the engine (legal actions and apply).
2. basic vs random: ``basic`` in seat 1 against two ``random`` bots, 3 players,
   every preset: win rate with its 95% Wilson interval (target >= 99%).
3. expert vs basic: ``expert`` in seat 1 against three ``basic`` bots, 4
   players, per preset (liverpool, remi, dansk, london), with the per-decision time
   cap (``--expert-ms``, default 90 ms, one core per game): win rate with its
   95% interval (target >= 40% on liverpool; chance is 25%), plus the decision
   times seen in one extra game (median, 99th percentile, max).
4. search vs basic: ``search`` in seat 1 against three ``basic`` bots on
   liverpool, beside ``expert`` on the same seeds (not in the default run:
   ``--only search``; ``--search-games``, ``--search-ms``,
   ``--search-iterations``, ``--search-value``), plus the search's decision
   times in one game.
5. robustness: many games of four ``basic`` bots per preset: engine errors
   (target none) and the share of rounds that ended without a winner.
6. expert vs experts (not in the default run: ``--only experts``): today's
   ``expert`` in seat 2 against three experts of the issue's figures (issue
   19: ``final_race=False``, the last round played as ``basic`` plays it, and
   ``leftover_fits=False``, its playouts before that option, and
   ``points_weight=0``, ``basic``'s discard order before that option), on
   liverpool (``--experts-games``; target >= 35%). It is the run of
   ``liverpool simulate --bots expert --seat-options`` with ``{"final_race":
   false, "leftover_fits": false, "points_weight": 0}`` for seats 1, 3 and 4
   and ``{}`` for seat 2, with the same seed, games and time cap.

A shared win counts for every seat that shares it.

    python benchmarks/bench_bots.py                     # small default run, a few minutes
    python benchmarks/bench_bots.py --only speed,basic  # some parts only
    # the full counts of the issue (hours on 2 cores):
    python benchmarks/bench_bots.py --speed-games 50 --basic-games 1000 \\
        --expert-games 200 --expert-games-other 100 --robust-games 10000 --jobs 2
    python benchmarks/bench_bots.py --only experts --experts-games 400 --expert-ms inf
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence

from liverpool import Action, Game, SeatView, SeatViews, load_rules
from liverpool.actions import Buy, Call, Discard, Draw, LayDown, LayOff, SwapJoker
from liverpool.bots import make_bot
from liverpool.bots.expert import ExpertBot
from liverpool.bots.search import SearchBot
from liverpool.loop import run_bots
from liverpool.rules import Rules
from liverpool.simulate import game_seed, run_games

PRESETS = ("liverpool", "london", "dansk", "remi")


def _speed_game(rules: Rules, seed: int, split: bool) -> tuple[float, float]:
    """One game of four ``basic`` bots: (wall seconds, seconds in the engine).
    The engine's share is only timed with ``split`` (timing every decision
    costs time of its own, so the game's time is taken from a run without it)."""
    game = Game(rules, players=4, seed=seed)
    bots = [make_bot("basic", rules, seed=s) for s in range(4)]
    views = SeatViews(game)
    in_engine = 0.0
    clock = time.perf_counter
    start = clock()
    if not split:
        run_bots(game, bots, views)
        return clock() - start, 0.0
    while not game.is_over:  # the loop of run_bots, with the engine's time taken apart
        seat = game.to_move
        assert seat is not None
        t0 = clock()
        legal = game.legal_actions()
        t1 = clock()
        action = bots[seat].choose(views.view(seat, legal), legal)
        t2 = clock()
        game.apply(action)
        in_engine += (t1 - t0) + (clock() - t2)
    return clock() - start, in_engine


def speed(games: int, seed: int, repeat: int) -> None:
    """Each game is played ``repeat`` times (the same game: the play is seeded)
    and its fastest run kept, as ``timeit`` does: the slower runs measure the
    other programs on the machine, not this code. The median of the first runs
    alone is printed too."""
    rules = load_rules("liverpool")
    runs = [[_speed_game(rules, game_seed(seed, i), False)[0] for _ in range(max(1, repeat))]
            for i in range(games)]
    best = statistics.median(min(r) for r in runs) * 1000
    first = statistics.median(r[0] for r in runs) * 1000
    engine = [_speed_game(rules, game_seed(seed, i), True)[1] for i in range(games)]
    print(f"[speed] liverpool, 4 basic bots, {games} games: median {best:.1f} ms per game "
          f"(fastest of {repeat} runs of each game; target <= 50 ms), first runs alone "
          f"{first:.1f} ms; engine (legal actions + apply) median "
          f"{statistics.median(engine) * 1000:.1f} ms (timed in another run)")


def basic_vs_random(games: int, seed: int, jobs: int) -> None:
    for preset in PRESETS:
        s = run_games(load_rules(preset), ["basic", "random", "random"], games, seed=seed,
                      jobs=jobs)
        b = s.seats[0]
        lo, hi = b.win_ci95
        print(f"[basic vs 2 random] {preset:9} {b.wins:g}/{games} = {b.win_rate:.1%} "
              f"(95% {lo:.1%}-{hi:.1%}; target >= 99%), errors {s.errors}")


def decision_kind(view: SeatView, legal: Sequence[Action], action: Action) -> str:
    """The kind of a decision: what the seat was asked (draw, buy, call) or,
    in the play of its turn, what it did (lay down, lay off, swap, discard)."""
    if any(isinstance(a, Draw) for a in legal):
        return "draw"
    if any(isinstance(a, Buy) for a in legal):
        return "buy"
    if any(isinstance(a, Call) for a in legal):
        return "call"
    return {LayDown: "lay down", LayOff: "lay off", SwapJoker: "swap",
            Discard: "discard"}.get(type(action), type(action).__name__.lower())


def _spread(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[math.ceil(0.99 * len(times)) - 1]  # the nearest rank
    return (f"median {statistics.median(times):.2f}, p99 {p99:.1f}, "
            f"max {times[-1]:.1f} ms over {len(times)}")


def decision_times(preset: str, expert_ms: float, seed: int, kind: str = "expert",
                   iterations: int | None = None, **more: object) -> str:
    """The decision times of one ``kind`` bot (``expert`` or ``search``, with
    ``more`` options) against three ``basic`` bots in one game: over all its
    decisions, then per decision kind, with the sampled futures (search:
    deals) of the decisions it searched."""
    rules = load_rules(preset)
    game = Game(rules, players=4, seed=game_seed(seed, 10**6))
    options = {"time_ms": expert_ms, **more} | ({"iterations": iterations} if iterations else {})
    bots = [make_bot(kind, rules, seed=1, **options)]
    bots += [make_bot("basic", rules, seed=s) for s in range(2, 5)]
    times: list[float] = []
    by_kind: dict[str, list[float]] = {}
    runs: dict[str, list[int]] = {}
    searched = capped = 0
    expert = bots[0]
    assert isinstance(expert, ExpertBot | SearchBot)

    class Timed:
        """The searching bot, with the time of each decision taken."""

        name = expert.name
        rules = expert.rules

        def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
            nonlocal searched, capped
            t = time.perf_counter()
            action = expert.choose(view, legal)
            ms = (time.perf_counter() - t) * 1000
            times.append(ms)
            what = decision_kind(view, legal, action)
            by_kind.setdefault(what, []).append(ms)
            if expert.last_iterations:
                searched += 1
                runs.setdefault(what, []).append(expert.last_iterations)
                capped += expert.last_capped
            return action

    run_bots(game, [Timed(), *bots[1:]])
    lines = [f"decision ms: {_spread(times)} decisions; searches cut short by the cap: "
             f"{capped} of {searched}"]
    for what, ms in sorted(by_kind.items()):
        searches = runs.get(what, [])
        futures = (f"; {len(searches)} searched, futures median "
                   f"{statistics.median(searches):g}, min {min(searches)}" if searches else "")
        lines.append(f"    {what:9} {_spread(ms)}{futures}")
    return "\n".join(lines)


def expert_vs_basic(games: int, other_games: int, expert_ms: float, seed: int,
                    jobs: int) -> None:
    for preset, n in (("liverpool", games), ("remi", other_games), ("dansk", other_games),
                      ("london", other_games)):
        if n <= 0:
            continue
        s = run_games(load_rules(preset), ["expert", "basic", "basic", "basic"], n, seed=seed,
                      jobs=jobs, bot_options=[{"time_ms": expert_ms}, {}, {}, {}])
        e = s.seats[0]
        lo, hi = e.win_ci95
        print(f"[expert vs 3 basic] {preset:9} {e.wins:g}/{n} = {e.win_rate:.1%} "
              f"(95% {lo:.1%}-{hi:.1%}; chance 25%, target >= 40%), avg points "
              f"{e.avg_points:.0f} vs basic "
              f"{statistics.mean(x.avg_points for x in s.seats[1:]):.0f}; "
              f"{decision_times(preset, expert_ms, seed)}")


def search_vs_basic(games: int, search_ms: float, iterations: int, seed: int,
                    jobs: int, value: str = "playout") -> None:
    """``search`` (its futures valued by ``value``) in seat 1 against three
    ``basic`` bots on liverpool, beside ``expert`` on the same seeds."""
    rules = load_rules("liverpool")
    for kind, options in (("search", {"time_ms": search_ms, "iterations": iterations,
                                      "value": value}),
                          ("expert", {})):
        s = run_games(rules, [kind, "basic", "basic", "basic"], games, seed=seed, jobs=jobs,
                      bot_options=[options, {}, {}, {}])
        e = s.seats[0]
        lo, hi = e.win_ci95
        print(f"[{kind} vs 3 basic] liverpool {e.wins:g}/{games} = {e.win_rate:.1%} "
              f"(95% {lo:.1%}-{hi:.1%}; chance 25%), avg points {e.avg_points:.0f} vs "
              f"basic {statistics.mean(x.avg_points for x in s.seats[1:]):.0f}, "
              f"{s.wall_seconds:.0f} s")
    print(f"[search, value={value}] "
          f"{decision_times('liverpool', search_ms, seed, 'search', iterations, value=value)}")


#: the expert of issue 19's figures: its last round played as ``basic`` plays
#: it, its playouts before ``leftover_fits`` and ``basic``'s discard order
#: before ``points_weight``
ISSUE_EXPERT = {"final_race": False, "leftover_fits": False, "points_weight": 0.0}


def expert_vs_experts(games: int, expert_ms: float, seed: int, jobs: int) -> None:
    """Today's ``expert`` in seat 2 against three experts of the issue's figures."""
    if games <= 0:
        return
    others = {"time_ms": expert_ms, **ISSUE_EXPERT}
    s = run_games(load_rules("liverpool"), ["expert"] * 4, games, seed=seed, jobs=jobs,
                  bot_options=[others, {"time_ms": expert_ms}, others, others])
    e = s.seats[1]
    lo, hi = e.win_ci95
    rest = [x for x in s.seats if x.seat != 1]
    print(f"[expert vs 3 issue experts] liverpool {e.wins:g}/{games} = {e.win_rate:.1%} "
          f"(95% {lo:.1%}-{hi:.1%}; chance 25%, target >= 35%), avg points "
          f"{e.avg_points:.0f} vs {', '.join(f'{x.avg_points:.0f}' for x in rest)}; "
          f"{s.wall_seconds:.0f} s")


def robustness(games: int, seed: int, jobs: int) -> None:
    for preset in PRESETS:
        s = run_games(load_rules(preset), ["basic"] * 4, games, seed=seed, jobs=jobs)
        print(f"[4 basic] {preset:9} {games} games: engine errors {s.errors}, rounds "
              f"{s.rounds}, no winner {s.no_winner_round_share:.3%}, turns per round "
              f"{s.avg_turns_per_round:.1f}, buys per round {s.buys_per_round:.2f}, "
              f"{s.wall_seconds:.0f} s")
        for line in s.error_samples:
            print(f"    {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="speed,basic,expert,robust",
                    help="comma list of parts: speed, basic, expert, search, robust, experts")
    ap.add_argument("--speed-games", type=int, default=20)
    ap.add_argument("--speed-repeat", type=int, default=3,
                    help="runs of each speed game; its fastest counts")
    ap.add_argument("--basic-games", type=int, default=100, help="per preset")
    ap.add_argument("--expert-games", type=int, default=40, help="liverpool")
    ap.add_argument("--expert-games-other", type=int, default=20,
                    help="remi, dansk and london each")
    ap.add_argument("--experts-games", type=int, default=40,
                    help="expert vs 3 issue experts (--only experts)")
    ap.add_argument("--expert-ms", type=float, default=90.0,
                    help="expert time cap per decision (ms)")
    ap.add_argument("--search-games", type=int, default=10, help="search (and expert) vs basic")
    ap.add_argument("--search-ms", type=float, default=800.0,
                    help="search time cap per decision (ms)")
    ap.add_argument("--search-iterations", type=int, default=8,
                    help="search: sampled deals per decision")
    ap.add_argument("--search-value", default="playout", choices=["playout", "learned"],
                    help="search: how its futures are valued")
    ap.add_argument("--robust-games", type=int, default=100, help="per preset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="processes (the machine has 2 cores)")
    args = ap.parse_args()
    parts = {p.strip() for p in args.only.split(",")}
    if "speed" in parts:
        speed(args.speed_games, args.seed, args.speed_repeat)
    if "basic" in parts:
        basic_vs_random(args.basic_games, args.seed, args.jobs)
    if "expert" in parts:
        expert_vs_basic(args.expert_games, args.expert_games_other, args.expert_ms, args.seed,
                        args.jobs)
    if "search" in parts:
        search_vs_basic(args.search_games, args.search_ms, args.search_iterations, args.seed,
                        args.jobs, args.search_value)
    if "experts" in parts:
        expert_vs_experts(args.experts_games, args.expert_ms, args.seed, args.jobs)
    if "robust" in parts:
        robustness(args.robust_games, args.seed, args.jobs)


if __name__ == "__main__":
    main()
