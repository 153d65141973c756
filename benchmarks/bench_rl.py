"""Random-legal play, decisions per second, side by side in one run:

- OpenSpiel's ``gin_rummy`` (C++, through pyspiel): ``legal_actions()``, a random one, ``apply_action``
  (chance nodes are played too, with a random outcome, but not counted as decisions);
- RLCard's ``gin-rummy`` (run in its own virtual environment, ``--rlcard-python``, because
  rlcard 1.2 may want an older numpy): ``env.step`` with a random legal action;
- our raw engine: ``game.legal_actions()``, a random one, ``game.apply``;
- our PettingZoo AEC environment (``liverpool.rl.raw_env``): ``env.last()`` (the observation
  vector and the mask, built at every decision), a random one of the legal indices
  ``info["legal_moves"]`` (as OpenSpiel's loop takes one of ``legal_actions()``), ``env.step``;
- the same, picking instead a random index of the mask with numpy (its nonzero positions
  as ``mask.view(numpy.bool_).nonzero()[0]``: numpy's fast path for booleans, the same
  positions as ``numpy.flatnonzero(mask)``).

The in-process loops (OpenSpiel, the engine, the AEC environment) are *interleaved*: each
plays for ``--slice`` seconds in turn, continuing its game where it stopped, until each has
played ``--seconds`` in all. A shared machine's load then falls on all of them alike, so
the ratios between them are fair even when the absolute rates move. RLCard runs in its own
process, before the others, for ``--seconds`` at once.

    python benchmarks/bench_rl.py [--seconds 5] [--slice 0.25] [--rules liverpool]
                                  [--players 4] [--rlcard-python /tmp/rlcardv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

RLCARD_CODE = r"""
import json, random, sys, time
import rlcard
seconds = float(sys.argv[1])
env = rlcard.make("gin-rummy", config={"seed": 0})
rng = random.Random(0)
n = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    state, player = env.reset()
    while not env.is_over():
        legal = list(state["legal_actions"])
        state, player = env.step(legal[rng.randrange(len(legal))])
        n += 1
print(json.dumps({"decisions": n, "seconds": time.perf_counter() - start,
                  "version": rlcard.__version__}))
"""

#: the loops look at the clock once per this many decisions
CHECK = 256


class Loop:
    """A random-legal loop that can be run in slices: ``run(seconds)`` plays on from
    where the last slice stopped; ``decisions`` and ``seconds`` add up."""

    def __init__(self) -> None:
        self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        self.decisions += self.play(start + seconds)
        self.seconds += time.perf_counter() - start

    def play(self, until: float) -> int:
        raise NotImplementedError


class OpenSpielLoop(Loop):
    def __init__(self) -> None:
        super().__init__()
        import pyspiel  # type: ignore[import-not-found]

        self.game = pyspiel.load_game("gin_rummy")
        self.rng = random.Random(0)
        self.state = self.game.new_initial_state()

    def play(self, until: float) -> int:
        rng, state, clock = self.rng, self.state, time.perf_counter
        n = 0
        while True:
            if state.is_terminal():
                state = self.game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
            if n % CHECK == 0 and clock() >= until:
                self.state = state
                return n


class EngineLoop(Loop):
    def __init__(self, rules_name: str, players: int) -> None:
        super().__init__()
        from liverpool import Game, load_rules

        self.make = Game
        self.rules = load_rules(rules_name)
        self.players = players
        self.rng = random.Random(0)
        self.games = 0
        self.game = self._new()

    def _new(self) -> Any:
        game = self.make(self.rules, self.players, seed=self.games)
        self.games += 1
        return game

    def play(self, until: float) -> int:
        rng, game, clock = self.rng, self.game, time.perf_counter
        n = 0
        while True:
            if game.is_over:
                game = self._new()
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            n += 1
            if n % CHECK == 0 and clock() >= until:
                self.game = game
                return n


class AECLoop(Loop):
    def __init__(self, rules_name: str, players: int, from_mask: bool = False) -> None:
        super().__init__()
        import numpy as np

        from liverpool.rl import raw_env

        self.np = np
        self.from_mask = from_mask
        self.env = raw_env(rules_name, players)
        self.rng = random.Random(0)
        self.games = 0
        self._reset()

    def _reset(self) -> None:
        self.env.reset(seed=self.games)
        self.games += 1
        self.agents = iter(self.env.agent_iter())

    def play(self, until: float) -> int:
        env, rng, clock = self.env, self.rng, time.perf_counter
        bool_ = self.np.bool_
        from_mask = self.from_mask
        n = 0
        while True:
            for _agent in self.agents:
                obs, _, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                if from_mask:
                    legal = obs["action_mask"].view(bool_).nonzero()[0]
                    env.step(int(legal[rng.randrange(len(legal))]))
                else:
                    moves = info["legal_moves"]
                    env.step(moves[rng.randrange(len(moves))])
                n += 1
                if n % CHECK == 0 and clock() >= until:
                    return n
            self._reset()


def bench_rlcard(seconds: float, python: str | None) -> dict[str, float] | str:
    exe = python or sys.executable
    if not os.path.exists(exe):
        return f"no Python at {exe}"
    try:
        out = subprocess.run([exe, "-c", RLCARD_CODE, str(seconds)], capture_output=True,
                             text=True, timeout=seconds * 10 + 60, check=True)
    except subprocess.CalledProcessError as e:
        return f"rlcard failed: {e.stderr.strip().splitlines()[-1] if e.stderr else e}"
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def interleaved(loops: list[Loop], seconds: float, slice_: float) -> None:
    """Run the loops in turn, ``slice_`` seconds each, until each has run ``seconds``."""
    for loop in loops:  # a short warm-up each (imports, first games), not counted
        loop.run(min(0.05, slice_))
        loop.decisions, loop.seconds = 0, 0.0
    while any(loop.seconds < seconds for loop in loops):
        for loop in loops:
            if loop.seconds < seconds:
                loop.run(min(slice_, seconds - loop.seconds))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds of play per loop")
    ap.add_argument("--slice", type=float, default=0.25,
                    help="seconds of one loop's turn before the next loop's")
    ap.add_argument("--rules", default="liverpool")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rlcard-python", default=os.environ.get("RLCARD_PYTHON"),
                    help="the Python of a virtual environment with rlcard installed")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[tuple[str, dict[str, float] | str]] = [
        ("RLCard gin-rummy", bench_rlcard(args.seconds, args.rlcard_python))]
    named: list[tuple[str, Loop]] = []
    try:
        named.append(("OpenSpiel gin_rummy (C++)", OpenSpielLoop()))
    except ImportError:
        rows.insert(0, ("OpenSpiel gin_rummy (C++)",
                        "pyspiel is not installed (pip install open_spiel)"))
    named.append((f"liverpool engine ({args.rules}, {args.players} players)",
                  EngineLoop(args.rules, args.players)))
    named.append((f"liverpool AEC env + observations + masks ({args.rules}, "
                   f"{args.players} players)", AECLoop(args.rules, args.players)))
    named.append(("  the same, picking from the mask with numpy",
                  AECLoop(args.rules, args.players, from_mask=True)))
    interleaved([loop for _, loop in named], args.seconds, args.slice)
    rows += [(name, {"decisions": loop.decisions, "seconds": loop.seconds})
             for name, loop in named]
    if args.json:
        print(json.dumps(dict(rows)))
        return
    print(f"random-legal play, {args.seconds:g} s each (interleaved in {args.slice:g} s slices),"
          f" Python {sys.version.split()[0]}")
    base = next((r for name, r in rows if name.startswith("OpenSpiel")
                 and not isinstance(r, str)), None)
    for name, r in rows:
        if isinstance(r, str):
            print(f"  {name:66s} skipped: {r}")
            continue
        rate = r["decisions"] / r["seconds"]
        ratio = ""
        if base is not None:
            ratio = f"  {rate / (base['decisions'] / base['seconds']):5.2f}x OpenSpiel"
        print(f"  {name:66s} {rate:>9,.0f} decisions/s{ratio}")


if __name__ == "__main__":
    main()
