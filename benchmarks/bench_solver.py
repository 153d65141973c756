"""Speed of the contract solver (``liverpool.solver.find_contract``).

1. Random deals from two decks and four jokers under the liverpool preset:
   10-card hands for the contracts of rounds 1-4, 12-card hands for rounds 5-7
   (round 7 is the all-at-once final round). The overall median is the typical
   cost of a play decision.
2. Worst-case sweep, every preset and every round: hands of up to 16 cards with
   up to 4 wilds (jokers; deuces of spades where they are wild), random,
   adversarial (near-runs in several suits, many pairs) and planted (the
   contract's melds built on purpose, then spoiled a little). Target: no hand
   over 2 ms.
3. Big hands, every preset and every round: 20 to 40 cards (a player who bought
   a lot), random and run-rich. Target: a few ms at most.

The slowest hands of each part are timed again (best of 5) to tell noise from
real cost; the summary line at the end gives the overall median and the worst
re-timed case.

Side by side: with ``--wickman PATH`` (or the environment variable
``WICKMAN_LIVERPOOL``), the path of a checkout of the public Python
contract-rummy engine wickman/liverpool (its ``liverpool`` package is imported
from there at run time, under another name, and none of its code is kept
here), part 1 also times that engine's ``liverpool.generation.iter_melds`` with
its plain ``iter_runs``/``iter_sets`` (no lookup tables) on the very same deals,
each hand timed by both one after the other; the summary then leads with both
medians and their ratio. That engine knows no all-at-once final round: it looks
for the contract's melds in every round.

    python benchmarks/bench_solver.py            # default run, well under a minute
    python benchmarks/bench_solver.py --hands 5000 --sweep 400 --big 100 --seed 7
    python benchmarks/bench_solver.py --wickman /tmp/wickman --sweep 20 --big 5
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from liverpool import load_rules
from liverpool.cards import JOKER, Card, format_cards, make_deck
from liverpool.rules import Rules
from liverpool.solver import bounds, find_contract

DEAL = {1: 10, 2: 10, 3: 10, 4: 10, 5: 12, 6: 12, 7: 12}
PRESETS = ("liverpool", "london", "dansk", "remi")
DEUCE_OF_SPADES = Card(2, 0)

#: (microseconds, preset, round, hand text)
Case = tuple[float, str, int, str]


def _cold() -> None:
    """Forget what earlier calls of the solver remembered, so that every timing
    is of a first call (re-timing a hand would otherwise find it half solved)."""
    bounds._HOLES.clear()  # (the memo of bounds.lane_holes)


def _time(hand: list[Card], rules: Rules, rnd: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        _cold()
        t0 = time.process_time()  # CPU time: other processes on the machine do not count
        find_contract(hand, rules, rnd)
        best = min(best, time.process_time() - t0)
    return best * 1e6


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def _wilds(rng: random.Random, rules: Rules, count: int) -> list[Card]:
    """``count`` wild cards: jokers, and some deuces of spades where they are wild."""
    out: list[Card] = []
    for _ in range(count):
        if rules.wild_deuce_of_spades and (rng.random() < 0.5 or out.count(DEUCE_OF_SPADES) < 1):
            out.append(DEUCE_OF_SPADES)
        else:
            out.append(JOKER)
    return out


def _naturals(rules: Rules) -> list[Card]:
    return [c for c in make_deck(3, 0) if not rules.is_wild(c)]


def random_hand(rng: random.Random, rules: Rules, size: int, wilds: int, rnd: int) -> list[Card]:
    return rng.sample(_naturals(rules), size - wilds) + _wilds(rng, rules, wilds)


def near_runs_hand(rng: random.Random, rules: Rules, size: int, wilds: int, rnd: int) -> list[Card]:
    """Several suits with runs that have a hole or two, plus wilds."""
    hand = _wilds(rng, rules, wilds)
    while len(hand) < size:
        suit = rng.randrange(4)
        start = rng.randint(1, 10)
        for r in range(start, start + rng.randint(3, 6)):
            if len(hand) < size and rng.random() < 0.8:
                hand.append(Card((r - 1) % 13 + 1, suit))
    return hand


def pairs_hand(rng: random.Random, rules: Rules, size: int, wilds: int, rnd: int) -> list[Card]:
    """Many pairs of neighbouring ranks in two or three suits."""
    hand = _wilds(rng, rules, wilds)
    suits = rng.sample(range(4), rng.randint(2, 3))
    width = max(6, (size + 2 * len(suits) - 1) // (2 * len(suits)))  # room for the size asked
    low = rng.randint(1, max(1, 14 - width))
    while len(hand) < size:
        card = Card((rng.randint(low, low + width - 1) - 1) % 13 + 1, rng.choice(suits))
        if hand.count(card) < 2:
            hand.append(card)
    return hand


def planted_hand(rng: random.Random, rules: Rules, size: int, wilds: int, rnd: int) -> list[Card]:
    """The contract's melds built on purpose, a card or two spoiled, filled up with
    near cards: the hands where a lay-down is found or just missed."""
    contract = rules.contract(rnd)
    suits = rng.sample(range(4), rng.randint(1, 3))
    hand = _wilds(rng, rules, wilds)
    for _ in range(contract.runs):
        start = rng.randint(1, 10)
        suit = rng.choice(suits)
        hand.extend(Card((r - 1) % 13 + 1, suit) for r in range(start, start + rng.randint(3, 6)))
    for _ in range(contract.sets):
        rank = rng.randint(1, 13)
        hand.extend(Card(rank, rng.randrange(4)) for _ in range(rng.randint(2, 4)))
    for _ in range(rng.randint(0, 2)):
        hand[rng.randrange(len(hand))] = Card(rng.randint(1, 13), rng.choice(suits))
    while len(hand) < size:
        hand.append(Card(rng.randint(1, 13), rng.choice(suits)))
    rng.shuffle(hand)
    return hand[:size]


Generator = Callable[[random.Random, Rules, int, int, int], list[Card]]
GENERATORS: dict[str, Generator] = {"random": random_hand, "near-runs": near_runs_hand,
                                    "pairs": pairs_hand, "planted": planted_hand}


def _retime(cases: list[Case], all_rules: dict[str, Rules], top: int = 12) -> list[Case]:
    """The slowest cases timed again, best of 5, slowest first."""
    out = []
    for _t, preset, rnd, text in sorted(cases, reverse=True)[:top]:
        hand = [Card.parse(c) for c in text.split()]
        out.append((_time(hand, all_rules[preset], rnd, 5), preset, rnd, text))
    return sorted(out, reverse=True)


class Wickman:
    """wickman/liverpool's plain meld search, imported from a checkout at ``path``
    (its package is also named ``liverpool``: it is loaded as ``wickman_liverpool``)."""

    def __init__(self, path: str) -> None:
        pkg = Path(path).expanduser().resolve() / "liverpool"
        if not (pkg / "generation.py").is_file():
            raise SystemExit(f"--wickman {path}: no liverpool/generation.py there")
        spec = importlib.util.spec_from_file_location(
            "wickman_liverpool", pkg / "__init__.py", submodule_search_locations=[str(pkg)])
        if spec is None or spec.loader is None:
            raise SystemExit(f"--wickman {path}: cannot import its liverpool package")
        module = importlib.util.module_from_spec(spec)
        sys.modules["wickman_liverpool"] = module
        spec.loader.exec_module(module)
        self.generation: Any = importlib.import_module("wickman_liverpool.generation")
        self.common: Any = importlib.import_module("wickman_liverpool.common")
        color = self.common.Color
        self._colors = (color.SPADE, color.HEART, color.DIAMOND, color.CLUB)  # our S H D C

    def hand(self, hand: list[Card]) -> list[Any]:
        """Our cards as its cards (the ace is its rank 14; it plays aces low and high alike)."""
        of, joker = self.common.Card.of, self.common.Card.joker
        return [joker() if c.rank == 0 else of(14 if c.rank == 1 else c.rank, self._colors[c.suit])
                for c in hand]

    def objective(self, rules: Rules, rnd: int) -> Any:
        contract = rules.contract(rnd)
        return self.common.Objective(contract.sets, contract.runs)

    def time(self, hand: list[Any], objective: Any) -> tuple[float, bool]:
        """CPU µs to find a lay-down (its iter_melds sorts all of them first), and
        whether there is one."""
        iter_melds = self.generation.iter_melds
        t0 = time.process_time()
        found = next(iter(iter_melds(hand, objective)), None)
        return (time.process_time() - t0) * 1e6, found is not None


def random_deals(args: argparse.Namespace, rng: random.Random,
                 wickman: Wickman | None) -> tuple[float, float | None]:
    """Part 1; the overall medians, ours and (if asked) wickman/liverpool's."""
    rules = load_rules("liverpool")
    deck = make_deck(2, 4)
    print(f"random deals, liverpool preset, {args.hands} hands per round (µs per hand)")
    side = f" {'wickman':>8} {'found':>6} {'ratio':>6}" if wickman else ""
    print(f"{'round':>5} {'contract':>8} {'cards':>5} {'median':>8} {'p99':>8} {'max':>8} "
          f"{'found':>6}{side}")
    everything: list[float] = []
    theirs_all: list[float] = []
    for rnd in range(1, 8):
        times: list[float] = []
        theirs: list[float] = []
        found = their_found = 0
        objective = wickman.objective(rules, rnd) if wickman else None
        for _ in range(args.hands):
            hand = rng.sample(deck, DEAL[rnd])
            times.append(_time(hand, rules, rnd, args.repeat))
            found += find_contract(hand, rules, rnd) is not None
            if wickman:
                t, got = wickman.time(wickman.hand(hand), objective)
                theirs.append(t)
                their_found += got
        everything += times
        theirs_all += theirs
        line = (f"{rnd:>5} {rules.contract(rnd).code:>8} {DEAL[rnd]:>5} "
                f"{statistics.median(times):8.1f} {_pct(times, 0.99):8.1f} {max(times):8.1f} "
                f"{found:>6}")
        if wickman:
            line += (f" {statistics.median(theirs):8.1f} {their_found:>6} "
                     f"{statistics.median(theirs) / statistics.median(times):5.1f}x")
        print(line)
    median = statistics.median(everything)
    print(f"overall median {median:.1f} µs, p99 {_pct(everything, 0.99):.1f} µs, "
          f"max {max(everything):.1f} µs")
    their_median = statistics.median(theirs_all) if wickman else None
    if their_median is not None:
        print(f"wickman/liverpool iter_melds (plain iter_runs/iter_sets) on the same deals: "
              f"median {their_median:.1f} µs, p99 {_pct(theirs_all, 0.99):.1f} µs; "
              f"ratio of the medians {their_median / median:.1f}x")
    return median, their_median


def sweep(args: argparse.Namespace, rng: random.Random, all_rules: dict[str, Rules],
          sizes: tuple[int, int], max_wilds: int, count: int, title: str) -> list[Case]:
    """Time ``count`` hands per generator, preset and round; print the worst per
    preset and round; return every case."""
    print(f"\n{title}: {sizes[0]}-{sizes[1]} cards, up to {max_wilds} wilds, "
          f"{count} hands per generator, preset and round")
    print(f"{'preset':>10} " + " ".join(f"{'round ' + str(r):>9}" for r in range(1, 8))
          + "   (max µs, one timing each)")
    cases: list[Case] = []
    for preset, rules in all_rules.items():
        row = []
        for rnd in range(1, rules.num_rounds + 1):
            worst: Case = (0.0, preset, rnd, "")
            for make in GENERATORS.values():
                for _ in range(count):
                    hand = make(rng, rules, rng.randint(*sizes), rng.randint(0, max_wilds), rnd)
                    t = _time(hand, rules, rnd, args.repeat)
                    case = (t, preset, rnd, format_cards(hand))
                    cases.append(case)
                    worst = max(worst, case)
            row.append(worst[0])
        print(f"{preset:>10} " + " ".join(f"{t:9.0f}" for t in row))
    times = [c[0] for c in cases]
    print(f"median {statistics.median(times):.1f} µs, p99 {_pct(times, 0.99):.1f} µs over "
          f"{len(times)} hands")
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="random deals per round")
    parser.add_argument("--sweep", type=int, default=150,
                        help="hands per generator, preset and round in the worst-case sweep")
    parser.add_argument("--big", type=int, default=40,
                        help="hands per generator, preset and round with 20-40 cards")
    parser.add_argument("--repeat", type=int, default=1, help="timings per hand (best is kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wickman", default=os.environ.get("WICKMAN_LIVERPOOL"),
                        help="path of a checkout of wickman/liverpool to time side by side "
                             "in part 1 (default: $WICKMAN_LIVERPOOL)")
    args = parser.parse_args()
    wickman = Wickman(args.wickman) if args.wickman else None

    rng = random.Random(args.seed)
    all_rules = {name: load_rules(name) for name in PRESETS}
    gc.disable()
    t0 = time.perf_counter()
    median, their_median = random_deals(args, rng, wickman)
    small = sweep(args, rng, all_rules, (10, 16), 4, args.sweep, "worst-case sweep")
    big = sweep(args, rng, all_rules, (20, 40), 4, args.big, "big hands")
    gc.enable()

    worst_small = _retime(small, all_rules)
    worst_big = _retime(big, all_rules)
    for title, worst in (("up to 16 cards", worst_small), ("20-40 cards", worst_big)):
        print(f"\nslowest hands, {title}, re-timed (best of 5):")
        for t, preset, rnd, text in worst[:6]:
            print(f"  {t:9.1f} µs  {preset} round {rnd}: {text}")
    ws, wb = worst_small[0], worst_big[0]
    # the target: liverpool preset, up to 16 cards with up to 4 wilds
    wl = _retime([c for c in small if c[1] == "liverpool"], all_rules)[0]
    print(f"\nliverpool preset, up to 16 cards, slowest re-timed (best of 5): {wl[0] / 1000:.2f} ms "
          f"(round {wl[2]}: {wl[3]})")
    side = ""
    if their_median is not None:
        side = (f"side by side on the same {7 * args.hands} random deals: ours {median:.1f} µs, "
                f"wickman/liverpool {their_median:.1f} µs, {their_median / median:.1f}x | ")
    print(f"\nSUMMARY {side}overall median {median:.1f} µs | worst liverpool up to 16 cards "
          f"{wl[0] / 1000:.2f} ms | worst up to 16 cards {ws[0] / 1000:.2f} ms "
          f"({ws[1]} round {ws[2]}) | worst 20-40 cards {wb[0] / 1000:.2f} ms "
          f"({wb[1]} round {wb[2]}) | run took {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
