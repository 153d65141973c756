"""Train a Liverpool rummy agent with sb3-contrib's MaskablePPO.

The agent plays seat 0 of the single-agent Gymnasium environment
(``liverpool.rl.single_agent_env``) on a small game: the ``london`` preset cut
to its first round (contract: two sets, 10 cards dealt) played as an ordinary
round, three players. Its input is the observation vector and the legal-action
mask. It trains against ``basic`` bots; now and then (and at the start and the end) its
masked, deterministic policy plays the same evaluation deals against
``random`` and against ``basic`` opponents, side by side with two baselines in
the same seat on the same deals: a uniformly random choice among the legal
actions (what the untrained agent's action space offers) and the ``basic``
bot itself. Lower points are better: the player who goes out scores 0, the
others the cards left in their hands.

Writes into ``--out``: ``model.zip`` (the trained MaskablePPO),
``figures.json`` (every evaluation) and ``train_maskable_ppo.png`` (the plot).

Install: ``pip install -e ".[train]"`` (docs/rl.md, "Training an agent").

    python examples/train_maskable_ppo.py --minutes 5 --out runs/ppo
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from liverpool import Rules, load_rules
from liverpool.bots import make_bot
from liverpool.engine import Game
from liverpool.loop import run_bots
from liverpool.rl import single_agent_env

#: the evaluation opponents, in the plot's order
OPPONENTS = ("random", "basic")
#: who plays the evaluated seat: the learning agent and the two baselines
SEATS = ("agent", "random policy", "basic bot")
SEAT = 0


def small_rules(rounds: int, max_turns: int) -> Rules:
    """The ``london`` preset cut to its first ``rounds`` rounds, the last of them
    an ordinary round (the preset's final round, where the whole hand must go
    down at once, is its seventh); a round still going after ``max_turns``
    turns (all seats' turns) is abandoned and every seat scores the cards in
    its hand."""
    full = load_rules("london")
    return load_rules("london", contracts=list(full.contracts[:rounds]),
                      deal=list(full.deal[:rounds]), final_round="normal",
                      max_turns_per_round=max_turns)


class Flat(gymnasium.ObservationWrapper[np.ndarray[Any, Any], int, dict[str, Any]]):
    """One Box for MlpPolicy: the observation vector followed by the legal
    action mask (so that the policy sees, say, that it can lay down its
    contract now); MaskablePPO takes the mask from :meth:`action_masks`."""

    def __init__(self, env: gymnasium.Env[dict[str, Any], int]) -> None:
        super().__init__(env)
        box = env.observation_space["observation"]  # type: ignore[index]
        size = env.observation_space["action_mask"].shape[0]  # type: ignore[index]
        self.observation_space = gymnasium.spaces.Box(
            np.concatenate([box.low, np.zeros(size, np.float32)]),
            np.concatenate([box.high, np.ones(size, np.float32)]), dtype=np.float32)

    def observation(self, observation: dict[str, Any]) -> np.ndarray[Any, Any]:
        return np.concatenate([observation["observation"],
                               observation["action_mask"].astype(np.float32)])

    def action_masks(self) -> np.ndarray[Any, Any]:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


def make_env(rules: Rules, players: int, opponents: str, reward: str) -> Flat:
    return Flat(single_agent_env(rules=rules, players=players, opponents=opponents,
                                 seat=SEAT, reward=reward))


# ------------------------------------------------------------------ evaluation
Policy = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], int]


def play_env(rules: Rules, players: int, opponents: str, seeds: Sequence[int],
             policy: Policy) -> list[tuple[int, ...]]:
    """The final totals of one game per seed, ``policy(observation, mask)``
    choosing the seat's actions."""
    env = make_env(rules, players, opponents, "round")
    out = []
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(policy(obs, env.action_masks()))
        game = env.unwrapped.game  # type: ignore[attr-defined]
        out.append(game.results().totals)
    return out


def play_bot(rules: Rules, players: int, opponents: str, seeds: Sequence[int],
             kind: str) -> list[tuple[int, ...]]:
    """The same deals with the bot ``kind`` in the seat (the opponents seeded as
    the environment seeds them)."""
    out = []
    for seed in seeds:
        game = Game(rules, players, seed=seed)
        s32 = seed % (1 << 32)
        bots = [make_bot(kind if s == SEAT else opponents, rules, seed=s32 * 31 + s)
                for s in range(players)]
        run_bots(game, bots)
        out.append(game.results().totals)
    return out


def summary(totals: list[tuple[int, ...]]) -> dict[str, float]:
    """Mean points of the seat and of an opponent (lower is better), the win
    rate of the seat (a tie for the lowest total shares the win), with standard
    errors."""
    n = len(totals)
    pts = np.array([t[SEAT] for t in totals], dtype=float)
    opp = np.array([np.mean([x for i, x in enumerate(t) if i != SEAT]) for t in totals])
    wins = np.array([(t[SEAT] == min(t)) / t.count(min(t)) for t in totals])

    def se(a: np.ndarray[Any, Any]) -> float:
        return float(a.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0

    return {"points": float(pts.mean()), "points_se": se(pts),
            "opponent_points": float(opp.mean()),
            "win_rate": float(wins.mean()), "win_rate_se": se(wins), "games": n}


def agent_policy(model: MaskablePPO) -> Policy:
    def choose(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)
    return choose


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def choose(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))
    return choose


class Evaluator(BaseCallback):
    """Evaluates the agent every ``every`` seconds of training (the evaluation's
    own time not counted) and stops the training after ``budget`` seconds."""

    def __init__(self, evaluate: Callable[[], dict[str, Any]], every: float,
                 budget: float) -> None:
        super().__init__()
        self.evaluate = evaluate
        self.every = every
        self.budget = budget
        self.points: list[dict[str, Any]] = []
        self.trained = 0.0
        self._since = time.perf_counter()
        self._next = every

    def record(self) -> None:
        self.trained += time.perf_counter() - self._since
        row = {"timesteps": int(self.num_timesteps), "train_seconds": round(self.trained, 1),
               **self.evaluate()}
        self.points.append(row)
        agent = row["agent"]
        print(f"{row['timesteps']:>8} steps {row['train_seconds']:>7.1f} s  "
              + "  ".join(f"vs {o}: {agent[o]['points']:.1f} pts, "
                          f"{agent[o]['win_rate']:.2f} wins" for o in OPPONENTS), flush=True)
        self._since = time.perf_counter()

    def _on_training_start(self) -> None:
        self._since = time.perf_counter()

    def _on_step(self) -> bool:
        trained = self.trained + time.perf_counter() - self._since
        if trained >= self.budget:
            return False
        if trained >= self._next:
            self.record()
            self._next += self.every
        return True


# ------------------------------------------------------------------ the plot
def plot(figures: dict[str, Any], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = figures["evaluations"]
    minutes = [p["train_seconds"] / 60 for p in points]
    fig, axes = plt.subplots(2, 2, figsize=(9, 6), sharex=True)
    styles = {"agent": ("C0", "-"), "random policy": ("C3", "--"), "basic bot": ("C2", "--")}
    for col, opp in enumerate(OPPONENTS):
        for row, (key, label) in enumerate((("points", "mean points per game (lower is better)"),
                                            ("win_rate", "win rate"))):
            ax = axes[row][col]
            for seat in SEATS:
                color, dash = styles[seat]
                if seat == "agent":
                    y = np.array([p["agent"][opp][key] for p in points])
                    e = np.array([p["agent"][opp][key + "_se"] for p in points])
                    ax.plot(minutes, y, color=color, marker="o", label="MaskablePPO agent")
                    ax.fill_between(minutes, y - e, y + e, color=color, alpha=0.2)
                else:
                    b = figures["baselines"][seat][opp]
                    ax.axhline(b[key], color=color, linestyle=dash, label=seat)
                    ax.axhspan(b[key] - b[key + "_se"], b[key] + b[key + "_se"],
                               color=color, alpha=0.12)
            if row == 0:
                ax.set_title(f"against two {opp} bots")
            else:
                ax.set_xlabel("training time (minutes)")
                ax.set_ylim(-0.02, 1.02)
            if col == 0:
                ax.set_ylabel(label)
            ax.grid(alpha=0.3)
    axes[0][0].legend(loc="best", fontsize="small")
    s = figures["setup"]
    rounds = f"{s['rounds']} round" + ("s" if s["rounds"] != 1 else "")
    fig.suptitle(f"MaskablePPO on Liverpool rummy ({s['preset']}, {rounds}, {s['players']} "
                 f"players), trained against {s['train_opponents']} bots: {s['timesteps']:,} "
                 f"decisions; {s['eval_games']} evaluation deals", fontsize="medium")
    fig.tight_layout()
    fig.savefig(path, dpi=72)
    plt.close(fig)


# ------------------------------------------------------------------ main
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0,
                    help="training time, evaluations not counted (default 5)")
    ap.add_argument("--timesteps", type=int, default=10**9,
                    help="stop after this many agent decisions too")
    ap.add_argument("--evals", type=int, default=5,
                    help="evaluations during training, besides the one at the start")
    ap.add_argument("--eval-games", type=int, default=100, help="deals per evaluation")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of the london preset")
    ap.add_argument("--max-turns", type=int, default=300,
                    help="turns (all seats') after which a round is abandoned (default 300)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--train-opponents", default="basic", help="the bots trained against")
    ap.add_argument("--envs", type=int, default=4, help="environments stepped side by side")
    ap.add_argument("--n-steps", type=int, default=512, help="rollout length per environment")
    ap.add_argument("--reward", choices=("round", "placing"), default="round",
                    help="the environment's reward: minus the round's points, or the placing")
    ap.add_argument("--net", default="64,64", help="hidden layer sizes of both networks")
    ap.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    ap.add_argument("--ent-coef", type=float, default=0.01, help="PPO's entropy bonus")
    ap.add_argument("--threads", type=int, default=1, choices=(1, 2), help="torch threads")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True, help="the folder to write into")
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    rules = small_rules(args.rounds, args.max_turns)
    args.out.mkdir(parents=True, exist_ok=True)
    eval_seeds = [10**6 + args.seed * 10**4 + i for i in range(args.eval_games)]

    def run(opponents: str, policy: Policy) -> dict[str, float]:
        return summary(play_env(rules, args.players, opponents, eval_seeds, policy))

    baselines = {
        "random policy": {o: run(o, random_policy(args.seed)) for o in OPPONENTS},
        "basic bot": {o: summary(play_bot(rules, args.players, o, eval_seeds, "basic"))
                      for o in OPPONENTS},
    }
    for seat, by in baselines.items():
        print(f"baseline {seat}: " + "  ".join(
            f"vs {o}: {by[o]['points']:.1f} pts, {by[o]['win_rate']:.2f} wins"
            for o in OPPONENTS), flush=True)

    train_env = DummyVecEnv([
        (lambda: make_env(rules, args.players, args.train_opponents, args.reward))
        for _ in range(args.envs)])
    train_env.seed(args.seed)
    model = MaskablePPO("MlpPolicy", train_env, n_steps=args.n_steps,
                        batch_size=min(256, args.n_steps * args.envs),
                        gamma=0.995, ent_coef=args.ent_coef, learning_rate=args.lr,
                        policy_kwargs={"net_arch": [int(x) for x in args.net.split(",")]},
                        seed=args.seed, device="cpu", verbose=0)

    def evaluate() -> dict[str, Any]:
        return {"agent": {o: run(o, agent_policy(model)) for o in OPPONENTS}}

    budget = args.minutes * 60
    callback = Evaluator(evaluate, every=budget / max(args.evals, 1), budget=budget)
    callback.init_callback(model)
    callback.record()  # the untrained policy
    started = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=callback)
    callback.record()
    if len(callback.points) > 2 and callback.points[-1]["timesteps"] == callback.points[-2]["timesteps"]:
        callback.points.pop(-2)
    wall = time.perf_counter() - started

    model.save(args.out / "model.zip")
    figures: dict[str, Any] = {
        "setup": {"preset": "london", "rounds": args.rounds, "contracts": list(rules.contracts),
                  "max_turns_per_round": args.max_turns, "final_round": "normal",
                  "players": args.players, "seat": SEAT, "train_opponents": args.train_opponents,
                  "eval_games": args.eval_games, "seed": args.seed, "envs": args.envs,
                  "n_steps": args.n_steps, "ent_coef": args.ent_coef,
                  "reward": args.reward, "net": args.net, "lr": args.lr, "torch_threads": args.threads,
                  "minutes": args.minutes, "timesteps": int(model.num_timesteps),
                  "train_seconds": callback.points[-1]["train_seconds"],
                  "wall_seconds": round(wall, 1),
                  "python": platform.python_version(), "torch": torch.__version__,
                  "command": " ".join(["python", "examples/train_maskable_ppo.py",
                                       *(argv if argv is not None else sys.argv[1:])])},
        "measure": "points: mean of the seat's final total over the evaluation deals "
                   "(lower is better); win_rate: the seat has the lowest total (ties share)",
        "baselines": baselines,
        "evaluations": callback.points,
    }
    (args.out / "figures.json").write_text(json.dumps(figures, indent=1) + "\n")
    plot(figures, args.out / "train_maskable_ppo.png")
    print(f"wrote {args.out / 'model.zip'}, figures.json and train_maskable_ppo.png", flush=True)
    return figures


if __name__ == "__main__":
    main()
