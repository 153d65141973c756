"""Random-legal play, decisions per second, side by side in one run:

- OpenSpiel's ``gin_rummy`` (C++, through pyspiel): ``legal_actions()``, a random one, ``apply_action``;
- RLCard's ``gin-rummy`` (run in its own virtual environment, ``--rlcard-python``, because
  rlcard 1.2 may want an older numpy): ``env.step`` with a random legal action;
- our raw engine: ``game.legal_actions()``, a random one, ``game.apply``;
- our PettingZoo AEC environment (``liverpool.rl.raw_env``): ``env.last()`` (the observation
  vector and the mask, built at every decision), a random index of the mask, ``env.step``.

    python benchmarks/bench_rl.py [--seconds 5] [--rules liverpool] [--players 4]
                                  [--rlcard-python /tmp/rlcardv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

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


def bench_openspiel(seconds: float) -> dict[str, float] | str:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return "pyspiel is not installed (pip install open_spiel)"
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
    return {"decisions": n, "seconds": time.perf_counter() - start}


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


def bench_engine(seconds: float, rules_name: str, players: int) -> dict[str, float]:
    from liverpool import Game, load_rules

    rules = load_rules(rules_name)
    rng = random.Random(0)
    n = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(rules, players, seed=games)
        games += 1
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            n += 1
            if n % 1024 == 0 and time.perf_counter() - start >= seconds:
                break
    return {"decisions": n, "seconds": time.perf_counter() - start}


def bench_aec(seconds: float, rules_name: str, players: int) -> dict[str, float]:
    import numpy as np

    from liverpool.rl import raw_env

    env = raw_env(rules_name, players)
    rng = random.Random(0)
    n = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        games += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
            if n % 1024 == 0 and time.perf_counter() - start >= seconds:
                break
    return {"decisions": n, "seconds": time.perf_counter() - start}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rules", default="liverpool")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rlcard-python", default=os.environ.get("RLCARD_PYTHON"),
                    help="the Python of a virtual environment with rlcard installed")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [
        ("OpenSpiel gin_rummy (C++)", bench_openspiel(args.seconds)),
        ("RLCard gin-rummy", bench_rlcard(args.seconds, args.rlcard_python)),
        (f"liverpool engine ({args.rules}, {args.players} players)",
         bench_engine(args.seconds, args.rules, args.players)),
        (f"liverpool AEC env + observations + masks ({args.rules}, {args.players} players)",
         bench_aec(args.seconds, args.rules, args.players)),
    ]
    if args.json:
        print(json.dumps({name: r for name, r in rows}))
        return
    print(f"random-legal play, {args.seconds:g} s each, Python {sys.version.split()[0]}")
    for name, r in rows:
        if isinstance(r, str):
            print(f"  {name:66s} skipped: {r}")
        else:
            print(f"  {name:66s} {r['decisions'] / r['seconds']:>9,.0f} decisions/s")


if __name__ == "__main__":
    main()
