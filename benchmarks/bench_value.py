"""A value of positions learned from ``basic``'s games, and the search that uses it.

``search`` values each future by playing it to the round's end; with
``value="learned"`` it plays a future only until the next turn begins and
asks a small network, fitted to many games of four ``basic`` bots, what
every seat will score (:mod:`liverpool.bots.value`; docs/bots-measured.md,
"A value of positions learned from games"). This benchmark makes such
networks and measures them. Three steps, each its own command; it needs
numpy (the ``rl`` extra):

1. ``data``: four ``basic`` bots play whole games (games ``--first`` to
   ``--last`` - 1 of ``--seed``, dealt as ``liverpool simulate`` deals them);
   at one draw in ``--every`` of rounds 1–6, every seat's :func:`features`
   is kept with that seat's points at the round's end and whether it went
   out. Saved to ``--out`` (.npz). With ``--seat0 expert``, ``expert`` plays
   seat 0 and each row says whether its seat is the expert's.
2. ``fit``: a network of two hidden layers (``--hidden`` units, ReLU) learns
   from those rows, by Adam in numpy, the points (their squared error) and
   the going out (its log-loss); each file's last tenth of rows measures it.
   Rows with the expert's column and rows without it mix (without: no seat
   is the expert's); fitted so, ``play`` values its own seat as ``expert``'s.
   Prints the error beside that of each round's mean, and saves the network
   to ``--out`` (JSON, the layout of the package's ``value_net.json``).
3. ``play``: :class:`ValueSearch` (``search`` with ``value="learned"`` and the
   network of ``--weights``, by default the package's) in seat 0 against
   three ``basic``, no time cap, the games and seeds of ``liverpool
   simulate --bots search,basic,basic,basic --seed S --time-ms inf``;
   ``--kind expert`` (or ``search``) plays the same games with that bot
   instead. Prints the wins (a shared win counts as a share), their 95%
   interval and the mean points, and with ``--json`` each game's.

Each step plays (or, ``fit``, names in the network) the preset of
``--rules``, liverpool by default.

    python benchmarks/bench_value.py data --seed 1 --last 5000 --jobs 2 --out rows1.npz
    python benchmarks/bench_value.py fit --out value1.json rows1.npz
    python benchmarks/bench_value.py play --weights value1.json --seed 8 --last 200 --jobs 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from liverpool import PRESETS, Game, Rules, SeatViews, load_rules
from liverpool.bots import make_bot
from liverpool.bots.basic import BasicBot
from liverpool.bots.search import SearchBot
from liverpool.bots.value import PER_SEAT, ValueNet, features
from liverpool.loop import run_bots
from liverpool.melds import lay_down_mode
from liverpool.simulate import game_seed, wilson_interval


class ValueSearch(SearchBot):
    """``search`` with ``value="learned"`` and the network of ``weights`` (a
    file ``fit`` saved) in place of the one shipped with the package."""

    def __init__(self, rules: Rules, seed: int = 0, *, weights: str, **options: Any) -> None:
        super().__init__(rules, seed, value="learned", **options)
        self.net = ValueNet.load(weights)


# ------------------------------------------------------------------ data
def data_games(args: tuple[int, int, int, float, str, str]
               ) -> tuple[list[list[float]], list[float], list[float]]:
    seed, first, last, every, seat0, preset = args
    rules = load_rules(preset)
    probe = BasicBot(rules, 0)
    pick = random.Random(seed * 1_000_003 + first)  # sampling rows, not secrets
    xs: list[list[float]] = []
    points: list[float] = []
    out: list[float] = []

    def close(rows: list[list[list[float]]], scores: list[int]) -> None:
        for seats in rows:
            for s, row in enumerate(seats):
                xs.append(row)
                points.append(scores[s] / 100)
                out.append(float(scores[s] == 0))

    for i in range(first, last):
        gs = game_seed(seed, i)
        game = Game(rules, players=4, seed=gs)
        bots: list[Any] = [BasicBot(rules, game_seed(gs, 1000 + s)) for s in range(4)]
        expert = None
        if seat0 == "expert":
            bots[0] = make_bot("expert", rules, seed=game_seed(gs, 1000), time_ms=math.inf)
            expert = 0
        views = SeatViews(game)
        rows: list[list[list[float]]] = []
        rnd = game.round
        while game.to_move is not None:
            state = game.state
            if state.round != rnd:
                close(rows, state.round_scores[rnd - 1])
                rows, rnd = [], state.round
            if state.phase == "draw" and lay_down_mode(rules, rnd) == "normal" \
                    and pick.random() * every < 1:
                rows.append(features(probe, game, expert))
            mover = game.to_move
            legal = game.legal_actions()
            game.apply(bots[mover].choose(views.view(mover, legal), legal))
        close(rows, game.state.round_scores[rnd - 1])
    return xs, points, out


def cmd_data(args: argparse.Namespace) -> None:
    step = max(1, (args.last - args.first + args.jobs - 1) // args.jobs)
    parts = [(args.seed, a, min(args.last, a + step), args.every, args.seat0, args.rules)
             for a in range(args.first, args.last, step)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        done = list(pool.map(data_games, parts))
    x = np.array([r for d in done for r in d[0]], dtype=np.float32)
    y = np.array([p for d in done for p in d[1]], dtype=np.float32)
    o = np.array([p for d in done for p in d[2]], dtype=np.float32)
    np.savez_compressed(args.out, x=x, points=y, out=o)
    print(f"{len(x)} rows ({len(x) // 4} positions) from games {args.first}-{args.last - 1}"
          f" of seed {args.seed} ({args.rules}), saved to {args.out}")


# ------------------------------------------------------------------ fit
def cmd_fit(args: argparse.Namespace) -> None:
    loaded = [np.load(p) for p in args.data]
    width = max(d["x"].shape[1] for d in loaded)
    # rows of games of four basic bots lack the expert's column: no seat is it
    parts = [(np.pad(d["x"], ((0, 0), (0, width - d["x"].shape[1]))), d["points"], d["out"])
             for d in loaded]
    # each file's last tenth measures the fit
    ends = [int(len(px) * 0.9) for px, _y, _o in parts]
    x, y, o = (np.concatenate([p[k][:e] for p, e in zip(parts, ends, strict=True)]
                              + [p[k][e:] for p, e in zip(parts, ends, strict=True)])
               .astype(np.float64) for k in range(3))
    n = len(x)
    cut = sum(ends)
    rng = np.random.default_rng(args.seed)
    sizes = [x.shape[1], args.hidden, args.hidden, 2]
    params = []
    for a, b in itertools.pairwise(sizes):
        params += [rng.normal(0, math.sqrt(2 / a), (a, b)), np.zeros(b)]
    moments = [np.zeros_like(p) for p in params] + [np.zeros_like(p) for p in params]

    def forward(xb: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        acts = [xb]
        h = xb
        for k in range(0, len(params), 2):
            h = h @ params[k] + params[k + 1]
            if k < len(params) - 2:
                h = np.maximum(h, 0.0)
            acts.append(h)
        return acts, h

    def losses(xb: np.ndarray, yb: np.ndarray, ob: np.ndarray) -> tuple[float, float]:
        _a, h = forward(xb)
        mse = float(((h[:, 0] - yb) ** 2).mean())
        z = h[:, 1]
        bce = float((np.logaddexp(0, z) - ob * z).mean())
        return mse, bce

    rounds = x[cut:, PER_SEAT * 4:PER_SEAT * 4 + 7].argmax(1)
    train_rounds = x[:cut, PER_SEAT * 4:PER_SEAT * 4 + 7].argmax(1)
    base = np.array([y[:cut][train_rounds == r].mean() if (train_rounds == r).any() else 0.0
                     for r in range(7)])
    print(f"rows {n}, measured on the last {n - cut}: squared error of the points / 100 "
          f"by each round's mean {((base[rounds] - y[cut:]) ** 2).mean():.4f}")
    step = 0
    b1, b2, lr = 0.9, 0.999, args.rate
    for epoch in range(args.epochs):
        order = rng.permutation(cut)
        for s in range(0, cut, 512):
            idx = order[s:s + 512]
            acts, h = forward(x[idx])
            m = len(idx)
            grad = np.zeros_like(h)
            grad[:, 0] = 2 * (h[:, 0] - y[idx]) / m
            grad[:, 1] = (1 / (1 + np.exp(-h[:, 1])) - o[idx]) / m
            grads: list[np.ndarray] = [np.empty(0)] * len(params)
            g = grad
            for k in range(len(params) - 2, -1, -2):
                grads[k] = acts[k // 2].T @ g
                grads[k + 1] = g.sum(0)
                if k:
                    g = (g @ params[k].T) * (acts[k // 2] > 0)
            step += 1
            for k, p in enumerate(params):
                mk, vk = moments[k], moments[len(params) + k]
                mk *= b1
                mk += (1 - b1) * grads[k]
                vk *= b2
                vk += (1 - b2) * grads[k] ** 2
                p -= lr * (mk / (1 - b1 ** step)) / (np.sqrt(vk / (1 - b2 ** step)) + 1e-8)
        mse, bce = losses(x[cut:], y[cut:], o[cut:])
        print(f"epoch {epoch + 1}: squared error {mse:.4f}, log-loss of going out {bce:.4f}",
              flush=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"about": f"fitted by bench_value.py fit to {', '.join(args.data)}",
                   "rules": args.rules, "players": 4,
                   "contracts": list(load_rules(args.rules).contracts),
                   "layers": [[params[k].tolist(), params[k + 1].tolist()]
                              for k in range(0, len(params), 2)]}, f)
    print(f"saved to {args.out}")


# ------------------------------------------------------------------ play
def play_one(job: tuple[str, str, int, int, dict[str, Any]]) -> tuple[float, int]:
    kind, preset, seed, i, options = job
    rules = load_rules(preset)
    gs = game_seed(seed, i)
    game = Game(rules, players=4, seed=gs)
    if kind == "value" and "weights" in options:
        first: Any = ValueSearch(rules, game_seed(gs, 1000), **options)
    elif kind == "value":
        first = make_bot("search", rules, seed=game_seed(gs, 1000), value="learned", **options)
    else:
        first = make_bot(kind, rules, seed=game_seed(gs, 1000), **options)
    bots = [first] + [BasicBot(rules, game_seed(gs, 1000 + s)) for s in range(1, 4)]
    run_bots(game, bots)
    res = game.results()
    return (1.0 / len(res.winners) if 0 in res.winners else 0.0), res.totals[0]


def cmd_play(args: argparse.Namespace) -> None:
    given = args.options if args.options is not None else \
        '{"iterations": 16}' if args.kind == "value" else "{}"
    options: dict[str, Any] = {"time_ms": math.inf, **json.loads(given)}
    if args.kind == "value" and args.weights:
        options["weights"] = args.weights
    jobs = [(args.kind, args.rules, args.seed, i, options) for i in range(args.first, args.last)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        games = list(pool.map(play_one, jobs, chunksize=1))
    n = len(games)
    wins = sum(w for w, _t in games)
    low, high = wilson_interval(wins, n)
    print(f"{args.kind} in seat 0 against three basic, {args.rules}, games {args.first}-{args.last - 1} of "
          f"seed {args.seed}: {wins:g} wins of {n} = {100 * wins / n:.1f}% "
          f"({100 * low:.1f}-{100 * high:.1f}%), {sum(t for _w, t in games) / n:.0f} points a game")
    if args.json:
        json.dump([{"game": args.first + k, "won": w, "points": t}
                   for k, (w, t) in enumerate(games)], sys.stdout)
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="rows of basic's games")
    data.add_argument("--seed", type=int, default=2)
    data.add_argument("--first", type=int, default=0)
    data.add_argument("--last", type=int, default=2500)
    data.add_argument("--every", type=float, default=3.0, help="keep one draw in this many")
    data.add_argument("--seat0", default="basic", choices=["basic", "expert"],
                      help="the bot of seat 0 (expert: the rows say which seat it is)")
    data.add_argument("--jobs", type=int, default=1)
    data.add_argument("--out", required=True)
    fit = sub.add_parser("fit", help="fit the network to rows")
    fit.add_argument("data", nargs="+")
    fit.add_argument("--out", required=True)
    fit.add_argument("--hidden", type=int, default=32)
    fit.add_argument("--epochs", type=int, default=12)
    fit.add_argument("--rate", type=float, default=2e-3)
    fit.add_argument("--seed", type=int, default=0)
    play = sub.add_parser("play", help="whole games in seat 0 against three basic")
    play.add_argument("--kind", default="value", choices=["value", "expert", "search"])
    play.add_argument("--weights", help="the fitted network (with --kind value; default: "
                      "the package's)")
    play.add_argument("--options", help="JSON: the bot's options (SearchBot's for --kind value;"
                      ' default {"iterations": 16} for it, {} for the others)')
    play.add_argument("--seed", type=int, default=8)
    play.add_argument("--first", type=int, default=0)
    play.add_argument("--last", type=int, default=200)
    play.add_argument("--jobs", type=int, default=1)
    play.add_argument("--json", action="store_true", help="each game's result too")
    for step in (data, fit, play):
        step.add_argument("--rules", default="liverpool", choices=list(PRESETS),
                          help="the preset whose games (fit: the preset the rows are of)")
    args = parser.parse_args()
    {"data": cmd_data, "fit": cmd_fit, "play": cmd_play}[args.command](args)


if __name__ == "__main__":
    main()
