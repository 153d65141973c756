"""Speed of the contract solver (``liverpool.melds.find_contract``).

Random deals from two decks and four jokers under the liverpool preset: 10-card
hands for the contracts of rounds 1-4, 12-card hands for rounds 5-7 (round 7 is
the all-at-once final round). Then a worst-case sweep: hands of up to 16 cards
with up to 4 wilds, random and adversarial (near-runs in several suits, many
pairs), in every round.

    python benchmarks/bench_solver.py            # default run, well under a minute
    python benchmarks/bench_solver.py --hands 5000 --sweep 3000 --seed 7
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable

from liverpool import load_rules
from liverpool.cards import JOKER, Card, format_cards, make_deck
from liverpool.melds import find_contract
from liverpool.rules import Rules

DEAL = {1: 10, 2: 10, 3: 10, 4: 10, 5: 12, 6: 12, 7: 12}


def _time(hand: list[Card], rules: Rules, rnd: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        find_contract(hand, rules, rnd)
        best = min(best, time.perf_counter() - t0)
    return best * 1e6


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def random_hand(rng: random.Random, deck: list[Card], size: int, wilds: int) -> list[Card]:
    naturals = [c for c in deck if c.rank]
    return rng.sample(naturals, size - wilds) + [JOKER] * wilds


def near_runs_hand(rng: random.Random, size: int, wilds: int) -> list[Card]:
    """Several suits with runs that have a hole or two, plus wilds."""
    hand: list[Card] = [JOKER] * wilds
    while len(hand) < size:
        suit = rng.randrange(4)
        start = rng.randint(1, 10)
        for r in range(start, start + rng.randint(3, 6)):
            if len(hand) < size and rng.random() < 0.8:
                hand.append(Card((r - 1) % 13 + 1, suit))
    return hand


def pairs_hand(rng: random.Random, size: int, wilds: int) -> list[Card]:
    """Many pairs of neighbouring ranks in two or three suits."""
    hand: list[Card] = [JOKER] * wilds
    suits = rng.sample(range(4), rng.randint(2, 3))
    low = rng.randint(1, 8)
    while len(hand) < size:
        card = Card(rng.randint(low, low + 5), rng.choice(suits))
        if hand.count(card) < 2:
            hand.append(card)
    return hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="random hands per round")
    parser.add_argument("--sweep", type=int, default=1500, help="hands per worst-case generator")
    parser.add_argument("--repeat", type=int, default=1, help="timings per hand (best is kept)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rules = load_rules("liverpool")
    deck = make_deck(2, 4)
    rng = random.Random(args.seed)
    gc.disable()

    print(f"random deals, liverpool preset, {args.hands} hands per round (µs per hand)")
    print(f"{'round':>5} {'contract':>8} {'cards':>5} {'median':>8} {'p99':>8} {'max':>8} {'found':>6}")
    everything: list[float] = []
    for rnd in range(1, 8):
        times: list[float] = []
        found = 0
        for _ in range(args.hands):
            hand = rng.sample(deck, DEAL[rnd])
            times.append(_time(hand, rules, rnd, args.repeat))
            found += find_contract(hand, rules, rnd) is not None
        everything += times
        print(f"{rnd:>5} {rules.contract(rnd).code:>8} {DEAL[rnd]:>5} {statistics.median(times):8.1f} "
              f"{_pct(times, 0.99):8.1f} {max(times):8.1f} {found:>6}")
    print(f"overall median {statistics.median(everything):.1f} µs, "
          f"p99 {_pct(everything, 0.99):.1f} µs, max {max(everything):.1f} µs")

    print(f"\nworst-case sweep: up to 16 cards, up to 4 wilds, {args.sweep} hands per generator, all rounds")
    generators: dict[str, Callable[[int, int], list[Card]]] = {
        "random": lambda n, w: random_hand(rng, deck, n, w),
        "near-runs": lambda n, w: near_runs_hand(rng, n, w),
        "pairs": lambda n, w: pairs_hand(rng, n, w),
    }
    worst_all = (0.0, "", 0)
    for name, make in generators.items():
        worst = (0.0, "", 0)
        times = []
        for _ in range(args.sweep):
            size = rng.randint(10, 16)
            wilds = rng.randint(0, 4)
            hand = make(size, wilds)
            rnd = rng.randint(1, 7)
            t = _time(hand, rules, rnd, args.repeat)
            times.append(t)
            if t > worst[0]:
                worst = (t, format_cards(hand), rnd)
        print(f"{name:>10}: median {statistics.median(times):8.1f}  p99 {_pct(times, 0.99):8.1f}  "
              f"max {worst[0]:8.1f} µs  (round {worst[2]}: {worst[1]})")
        worst_all = max(worst_all, worst)
    # the worst hand again, best of 5, to tell noise from real cost
    t, text, rnd = worst_all
    again = _time([Card.parse(c) for c in text.split()], rules, rnd, 5)
    print(f"worst hand re-timed (best of 5): {again:.1f} µs")
    gc.enable()


if __name__ == "__main__":
    main()
