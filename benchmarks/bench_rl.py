"""Random-legal play, decisions per second, side by side in one run:

- OpenSpiel's ``gin_rummy`` (C++, through pyspiel): ``legal_actions()``, a random one, ``apply_action``
  (chance nodes are played too, with a random outcome, but not counted as decisions);
- RLCard's ``gin-rummy`` (run in a virtual environment of its own, because rlcard 1.2 may
  want an older numpy: ``--rlcard-python``, or else one the benchmark makes the first time
  with ``pip install rlcard``, in ``--rlcard-venv``): ``env.step`` with a random legal action;
- our raw engine: ``game.legal_actions()``, a random one, ``game.apply``;
- our PettingZoo AEC environment (``liverpool.rl.raw_env``): ``env.last()`` (the observation
  vector and the mask, built at every decision), a random one of the legal indices
  ``info["legal_moves"]`` (as OpenSpiel's loop takes one of ``legal_actions()``), ``env.step``;
- the same, picking instead a random index of the mask with numpy (its nonzero positions
  as ``mask.view(numpy.bool_).nonzero()[0]``: numpy's fast path for booleans, the same
  positions as ``numpy.flatnonzero(mask)``).

The loops are *interleaved*: each plays for ``--slice`` seconds in turn, continuing its game
where it stopped, until each has played ``--seconds`` in all (RLCard's in its own process,
told over a pipe when to play). A shared machine's load then falls on all of them alike, so
the ratios between them are fair even when the absolute rates move.

    python benchmarks/bench_rl.py [--seconds 5] [--slice 0.25] [--rules liverpool]
                                  [--players 4] [--rlcard-python PYTHON | --rlcard-venv DIR]
                                  [--no-rlcard]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

RLCARD_CODE = r"""
import random, sys, time
import rlcard
env = rlcard.make("gin-rummy", config={"seed": 0})
rng = random.Random(0)
state, player = env.reset()
print(rlcard.__version__, flush=True)
for line in sys.stdin:  # "seconds": play that long, answer "decisions seconds"
    until = time.perf_counter() + float(line)
    start = time.perf_counter()
    n = 0
    while True:
        if env.is_over():
            state, player = env.reset()
        legal = list(state["legal_actions"])
        state, player = env.step(legal[rng.randrange(len(legal))])
        n += 1
        if n % 256 == 0 and time.perf_counter() >= until:
            break
    print(n, time.perf_counter() - start, flush=True)
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


def rlcard_python(venv: str) -> str:
    """The Python of the virtual environment ``venv`` with rlcard in it, made with
    ``python -m venv`` and ``pip install rlcard`` the first time."""
    exe = os.path.join(venv, "bin", "python")
    probe = [exe, "-c", "import rlcard"]
    if os.path.exists(exe) and subprocess.run(probe, capture_output=True).returncode == 0:
        return exe
    print(f"installing rlcard into {venv} (once) ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([exe, "-m", "pip", "install", "--quiet", "rlcard"], check=True)
    return exe


class RLCardLoop(Loop):
    """RLCard's loop in a process of its own (its virtual environment's Python),
    run a slice at a time like the others: told how long to play, it answers
    how many decisions it made and in how long."""

    def __init__(self, python: str) -> None:
        super().__init__()
        self.errors = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed in close(); a pipe could fill up)
        self.proc = subprocess.Popen([python, "-c", RLCARD_CODE], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errors, text=True)
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        first = self.stdout.readline().strip()
        if not first:
            self.errors.seek(0)
            err = self.errors.read().strip().splitlines()
            raise RuntimeError(err[-1] if err else "rlcard did not start")
        self.version = first

    def run(self, seconds: float) -> None:
        self.stdin.write(f"{seconds}\n")
        self.stdin.flush()
        n, took = self.stdout.readline().split()
        self.decisions += int(n)
        self.seconds += float(took)

    def close(self) -> None:
        self.stdin.close()
        self.proc.wait(timeout=10)
        self.errors.close()


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
    ap.add_argument("--rlcard-venv",
                    default=os.path.join(tempfile.gettempdir(), "liverpool-bench-rlcard"),
                    help="without --rlcard-python: the virtual environment for rlcard, "
                         "made (pip install rlcard) if it has none")
    ap.add_argument("--no-rlcard", action="store_true", help="leave RLCard out")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[tuple[str, dict[str, float] | str]] = []
    named: list[tuple[str, Loop]] = []
    if args.no_rlcard:
        rows.append(("RLCard gin-rummy", "left out (--no-rlcard)"))
    else:
        try:
            remote = RLCardLoop(args.rlcard_python or rlcard_python(args.rlcard_venv))
        except (OSError, RuntimeError, subprocess.CalledProcessError) as e:
            rows.append(("RLCard gin-rummy", f"could not run rlcard: {e}"))
        else:
            named.append((f"RLCard gin-rummy (rlcard {remote.version}, own process)", remote))
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
    for _, loop in named:
        if isinstance(loop, RLCardLoop):
            loop.close()
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
