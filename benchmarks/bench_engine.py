"""Engine speed and size: a plain script (not a test).

    python benchmarks/bench_engine.py [--games N] [--seed S]

For each preset it plays random games (a random legal action at every decision,
biased toward laying down and laying off so that rounds end) and reports

* the median and p90 time, in microseconds, of one decision point:
  ``game.legal_actions()`` plus ``game.apply(choice)`` (the policy's own time is
  not counted);
* full games per second with that random play;
* bytes per game state in memory (a deep ``sys.getsizeof`` over the Game object,
  not counting the shared Rules and the interned Card objects; "no log": without
  the history, the events and the chance log), and the size of
  ``game.to_json()`` as JSON text; both measured at the middle of a game;
* ``game.copy()`` in microseconds (target <= 100 us), and beside it a JSON round
  trip (``Game.from_json`` of ``to_json`` through text), at the same point.

The default run takes well under a minute on CPython. Target: median <= 30 us.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
import sys
import time
import timeit
from collections.abc import Sequence
from typing import Any

from liverpool import Game, load_rules
from liverpool.actions import Action, Buy, Discard, LayDown, LayOff, SwapJoker
from liverpool.cards import Card
from liverpool.rules import Rules

PRESETS = ("liverpool", "london", "dansk", "remi")


def choose(rng: random.Random, legal: Sequence[Action], hand_size: int) -> Action:
    """Random play that ends rounds: lay down when possible, usually lay off,
    rarely buy, and discard a last card to go out."""
    downs = [a for a in legal if isinstance(a, LayDown)]
    if downs:
        return downs[0]
    if hand_size == 1:
        outs = [a for a in legal if isinstance(a, Discard)]
        if outs:
            return outs[0]
    offs = [a for a in legal if isinstance(a, LayOff | SwapJoker)]
    if offs and rng.random() < 0.8:
        return rng.choice(offs)
    if any(isinstance(a, Buy) for a in legal):
        return legal[0] if rng.random() < 0.1 else legal[-1]
    return rng.choice(legal)


def deep_size(obj: Any, seen: set[int] | None = None) -> int:
    """Bytes held by ``obj`` and everything it references, except the shared
    Rules and the interned Card objects (and other shared singletons)."""
    if seen is None:
        seen = set()
    if isinstance(obj, Rules | Card | type) or obj is None or isinstance(obj, bool):
        return 0
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        for k, v in obj.items():
            size += deep_size(k, seen) + deep_size(v, seen)
    elif isinstance(obj, list | tuple | set | frozenset):
        for item in obj:
            size += deep_size(item, seen)
    elif isinstance(obj, str | int | float | bytes):
        pass
    else:
        if hasattr(obj, "__dict__"):
            size += deep_size(vars(obj), seen)
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(obj, name):
                    size += deep_size(getattr(obj, name), seen)
    return size


def _json_trip(text: str) -> Game:
    return Game.from_json(json.loads(text))


def bench(preset: str, games: int, seed: int) -> dict[str, float]:
    rules = load_rules(preset)
    times: list[float] = []
    clock = time.perf_counter
    game_time = 0.0
    sizes: list[int] = []
    json_sizes: list[int] = []
    stateless_sizes: list[int] = []
    copies: list[float] = []
    trips: list[float] = []
    for g in range(games):
        players = (3, 4, 5, 6)[g % 4]
        players = max(rules.players[0], min(rules.players[1], players))
        rng = random.Random(seed + g)
        game = Game(rules, players=players, seed=seed + g)
        steps = 0
        start_game = clock()
        while not game.is_over:
            t0 = clock()
            legal = game.legal_actions()
            t1 = clock()
            seat = game.to_move
            assert seat is not None
            action = choose(rng, legal, len(game.hand(game.turn_player)))
            t2 = clock()
            game.apply(action)
            t3 = clock()
            times.append((t1 - t0) + (t3 - t2))
            steps += 1
            if steps == 200:
                sizes.append(deep_size(game))
                json_sizes.append(len(json.dumps(game.to_json(), separators=(",", ":"))))
                history, events, log = game.history, game.events, game.chance.log
                game.history, game.events, game.chance.log = [], [], []
                stateless_sizes.append(deep_size(game))
                game.history, game.events, game.chance.log = history, events, log
                copies.append(min(timeit.repeat(game.copy, number=20, repeat=5)) / 20)
                text = json.dumps(game.to_json())
                trips.append(min(timeit.repeat(
                    functools.partial(_json_trip, text), number=2, repeat=3)) / 2)
        game_time += clock() - start_game
    times.sort()
    return {
        "decisions": len(times),
        "median_us": statistics.median(times) * 1e6,
        "p90_us": times[int(0.9 * (len(times) - 1))] * 1e6,
        "mean_us": statistics.fmean(times) * 1e6,
        "games_per_s": games / game_time,
        "state_bytes": statistics.median(sizes) if sizes else 0,
        "state_bytes_no_log": statistics.median(stateless_sizes) if stateless_sizes else 0,
        "json_bytes": statistics.median(json_sizes) if json_sizes else 0,
        "copy_us": statistics.median(copies) * 1e6 if copies else 0,
        "json_trip_us": statistics.median(trips) * 1e6 if trips else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per preset (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args()
    print(f"{'preset':<10} {'decisions':>9} {'median us':>9} {'p90 us':>8} {'mean us':>8} "
          f"{'games/s':>8} {'state B':>8} {'no log B':>8} {'json B':>8} {'copy us':>8} "
          f"{'json us':>8}")
    for preset in args.presets:
        r = bench(preset, args.games, args.seed)
        print(f"{preset:<10} {r['decisions']:>9} {r['median_us']:>9.1f} {r['p90_us']:>8.1f} "
              f"{r['mean_us']:>8.1f} {r['games_per_s']:>8.2f} {r['state_bytes']:>8.0f} "
              f"{r['state_bytes_no_log']:>8.0f} {r['json_bytes']:>8.0f} {r['copy_us']:>8.1f} "
              f"{r['json_trip_us']:>8.0f}")


if __name__ == "__main__":
    main()
